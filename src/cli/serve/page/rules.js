// The rules page: docs/RULES.md (served beside it as RULES.md) rendered,
// then scrolled to the heading the address names: `rules.html#awari` goes
// to the first heading whose anchor starts with "awari". Anchors are
// GitHub's: the heading in lower case, spaces as dashes, punctuation
// dropped ("Kalah(m, n)" is `kalahm-n`).

const escape = (t) => t.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
export const slug = (t) => t.toLowerCase().replace(/[^a-z0-9 _-]/g, "").trim().replace(/ /g, "-");

function inline(text) {
  // Code spans first, kept apart from the rest.
  return text.split(/(`[^`]*`)/).map((part) => {
    if (part.startsWith("`") && part.endsWith("`") && part.length > 1) return `<code>${escape(part.slice(1, -1))}</code>`;
    let t = escape(part);
    t = t.replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>").replace(/\*([^*]+)\*/g, "<em>$1</em>");
    // Links out are kept; links to the repository's other pages read as text.
    t = t.replace(/\[([^\]]+)\]\(([^)]+)\)/g, (_, label, href) => (/^https?:/.test(href) ? `<a href="${href}">${label}</a>` : label));
    return t;
  }).join("");
}

export function render(md) {
  const lines = md.split("\n");
  const out = [];
  let i = 0;
  const para = [];
  const flush = () => { if (para.length) { out.push(`<p>${inline(para.join(" "))}</p>`); para.length = 0; } };
  while (i < lines.length) {
    const line = lines[i];
    let m;
    if (line.startsWith("```")) {
      flush();
      const code = [];
      for (i += 1; i < lines.length && !lines[i].startsWith("```"); i++) code.push(lines[i]);
      out.push(`<pre><code>${escape(code.join("\n"))}</code></pre>`);
      i += 1;
    } else if ((m = /^(#{1,6}) (.*)$/.exec(line))) {
      flush();
      const n = m[1].length;
      out.push(`<h${n} id="${slug(m[2])}">${inline(m[2])}</h${n}>`);
      i += 1;
    } else if (line.startsWith("|")) {
      flush();
      const rows = [];
      for (; i < lines.length && lines[i].startsWith("|"); i++) rows.push(lines[i]);
      const cells = (r) => r.trim().replace(/^\||\|$/g, "").split("|").map((c) => inline(c.trim()));
      const body = rows.filter((r, k) => !(k === 1 && /^\|[\s|:-]+\|$/.test(r.trim())));
      out.push("<table><thead><tr>" + cells(body[0]).map((c) => `<th>${c}</th>`).join("") + "</tr></thead><tbody>" +
        body.slice(1).map((r) => "<tr>" + cells(r).map((c) => `<td>${c}</td>`).join("") + "</tr>").join("") + "</tbody></table>");
    } else if ((m = /^(\s*)(-|\d+\.) (.*)$/.exec(line))) {
      flush();
      const ordered = /\d/.test(m[2]);
      const items = [];
      while (i < lines.length) {
        const it = /^(\s*)(-|\d+\.) (.*)$/.exec(lines[i]);
        if (it) { items.push(it[3]); i += 1; continue; }
        if (/^\s{2,}\S/.test(lines[i]) && items.length) { items[items.length - 1] += " " + lines[i].trim(); i += 1; continue; }
        break;
      }
      const tag = ordered ? "ol" : "ul";
      out.push(`<${tag}>${items.map((t) => `<li>${inline(t)}</li>`).join("")}</${tag}>`);
    } else if (!line.trim()) {
      flush();
      i += 1;
    } else {
      para.push(line.trim());
      i += 1;
    }
  }
  flush();
  return out.join("\n");
}

/** The heading `hash` names: its anchor, or the first that starts with it. */
function target(hash) {
  const want = decodeURIComponent(hash.replace(/^#/, ""));
  if (!want) return null;
  const heads = [...document.querySelectorAll("h1, h2, h3, h4")];
  return heads.find((h) => h.id === want) || heads.find((h) => h.id.startsWith(want)) || null;
}

const main = document.getElementById("rules");
try {
  const r = await fetch("RULES.md");
  if (!r.ok) throw new Error(`${r.status} ${r.statusText}`);
  main.innerHTML = render(await r.text());
  const show = () => {
    for (const t of document.querySelectorAll(".target")) t.classList.remove("target");
    const h = target(location.hash);
    if (h) { h.classList.add("target"); h.scrollIntoView(); }
  };
  window.addEventListener("hashchange", show);
  show();
} catch (e) {
  main.textContent = `The rules could not be read (${e.message}); they are docs/RULES.md in the repository.`;
}
main.dataset.state = "ready";
