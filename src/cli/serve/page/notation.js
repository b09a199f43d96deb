// The published notation (docs/RULES.md, "Notation"): a line writes one
// turn's moves together and a dash where the turn passes (`25-10-3`); a
// position lists seed counts from the side to move, its pits and store,
// then the opponent's (stores in brackets in Awari and Oware).
//
// A ply is {pit, side}: `side` 0 for the side that moved first in the
// line, 1 for the other.

export function formatLine(plies) {
  let out = "";
  plies.forEach((p, i) => {
    if (i > 0 && p.side !== plies[i - 1].side) out += "-";
    out += String(p.pit);
  });
  return out;
}

export function parseLine(text, first) {
  const plies = [];
  text.split("-").filter((t) => t.length).forEach((turn, t) => {
    for (const c of turn) plies.push({ pit: Number(c), side: (first + t) % 2 });
  });
  return plies;
}

/** What a pasted text is: a link to the board, a position, or a line of
 *  moves (in the notation, or as the page writes it: `1. S2 S5 2. N3`).
 *  `pits` is the game's width. Returns {kind: "link", params} |
 *  {kind: "position", text} | {kind: "line", text} | {kind: "error",
 *  message}. */
export function readPaste(raw, pits) {
  const text = raw.trim();
  if (!text) return { kind: "error", message: "nothing to read: paste a line of moves, a position or a link to the board" };
  if (/^https?:\/\/|^\?/.test(text)) {
    try {
      const u = new URL(text, location.href);
      if (!u.searchParams.get("game")) return { kind: "error", message: "the link names no game (no game= in it)" };
      return { kind: "link", params: u.searchParams };
    } catch (e) {
      return { kind: "error", message: `“${clip(text)}” is not a link` };
    }
  }
  // A position: seed counts (several digits, commas or brackets allowed);
  // a line: digits, dashes and spaces only, one digit a move.
  const counts = text.replace(/[\[\],]/g, " ").split(/\s+/).filter((t) => t.length);
  const numbers = counts.every((t) => /^\d+$/.test(t));
  const looksPosition = numbers && !text.includes("-") &&
    (/[\[\],]/.test(text) || counts.length === 2 * pits + 2 || counts.length === 2 * pits || counts.some((t) => t.length > 1));
  if (looksPosition) {
    const want = `${2 * pits + 2} numbers (pits and stores; Awari and Oware also take ${2 * pits} pits alone)`;
    if (counts.length !== 2 * pits + 2 && counts.length !== 2 * pits) {
      return { kind: "error", message: `a position of this game has ${want}; “${clip(text)}” has ${counts.length}` };
    }
    return { kind: "position", text: text.replace(/,/g, " ").replace(/\s+/g, " ") };
  }
  // The page's numbered moves: turn numbers dropped, a side letter starts
  // a move; the turn passes where the letter changes.
  if (/[SN]\d/i.test(text)) {
    const moves = text.replace(/\d+\.+/g, " ").split(/\s+/).filter((t) => t.length);
    let line = "", last = null;
    for (const m of moves) {
      const hit = /^([SN])(\d)$/i.exec(m);
      if (!hit) return { kind: "error", message: `“${clip(m)}” is not a move: write S or N and a pit, as in 1. S2 S5 2. N3` };
      const side = hit[1].toUpperCase();
      if (last !== null && side !== last) line += "-";
      line += hit[2];
      last = side;
    }
    return { kind: "line", text: line };
  }
  const line = text.replace(/\s+/g, "");
  if (!/^[0-9]+(-[0-9]+)*$/.test(line)) {
    return { kind: "error", message: `“${clip(text)}” is neither a line (digits, a dash where the turn passes: 25-10-3) nor a position (seed counts: 4 4 4 4 4 4 0 4 4 4 4 4 4 0)` };
  }
  return { kind: "line", text: line };
}

export function clip(text, n = 40) {
  return text.length > n ? text.slice(0, n - 1) + "…" : text;
}
