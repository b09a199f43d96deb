// Game review: every move of the line on the board, both players', with
// what it gave away against perfect play (its loss: the best move's value
// minus its own, in seeds of final margin, as `mancala grade` measures an
// agent), the moves that change the result marked, an evaluation graph
// over the game, and each player's share of perfect moves. Values come
// from the back end's query, one position at a time within the time
// chosen; a move whose values are only bounds gets its loss as bounds, and
// one whose loss is not proven is counted apart ("not valued"), never
// guessed.

import { $, state, backend, sideName, shown, finalOf, sign, short, setReady, knownAnalysis, keepAnalysis, boardSide } from "./state.js";
import { formatLine } from "./notation.js";

export const review = { running: false, abort: null, rows: [], nodes: [], points: [] };

/** Review the line on the board; `goTo(node)` moves the board there. */
export async function startReview(goTo) {
  stopReview();
  const nodes = state.tree.lineNodes();
  if (nodes.length < 2) { $("review-status").textContent = "Play or paste a line first: there is no move to review."; $("review").hidden = false; return; }
  const abort = new AbortController();
  Object.assign(review, { running: true, abort, rows: [], nodes, points: [], goTo });
  state.reviewing = true;
  $("review").hidden = false;
  $("review-stop").hidden = false;
  setReady();
  const ms = Number($("review-ms").value) || null;
  const n = nodes.length - 1;
  try {
    const analyses = [];
    for (let i = 0; i <= n; i++) {
      $("review-status").textContent = `Reviewing: position ${i + 1} of ${n + 1}…`;
      const node = nodes[i];
      if (!node.report) node.report = await backend.play(state.game, state.start, formatLine(node.path()));
      if (abort.signal.aborted) return;
      const r = node.report;
      let a = knownAnalysis(state.game, r.position);
      if (!a || !(a.exact && a.moves.every((m) => m.exact))) {
        try {
          a = keepAnalysis(state.game, r.position, await backend.query(state.game, r.position, { ms, signal: abort.signal }));
        } catch (e) {
          if (abort.signal.aborted) return;
          if (e.status !== 400) throw e;
          a = null; // no value here (a game without tables at this size)
        }
      }
      analyses.push(a);
      review.points.push(point(r, a));
      if (i > 0) review.rows.push(row(nodes[i - 1].report, analyses[i - 1], nodes[i].ply, i - 1));
      render();
    }
    const unknown = review.rows.filter((x) => x.lossUpper === null || x.lossLower !== x.lossUpper).length;
    $("review-status").textContent = `Reviewed ${n} move${n === 1 ? "" : "s"}` +
      (unknown ? `; ${unknown} with a loss not proven in ${ms ? ms / 1000 + " s" : "the time given"} a position (shown as bounds)` : ", every loss proven") + ".";
  } catch (e) {
    if (!abort.signal.aborted) $("review-status").textContent = `The review stopped: ${short(e.message)}`;
  } finally {
    if (review.abort === abort) { review.running = false; state.reviewing = false; $("review-stop").hidden = true; setReady(); }
  }
}

export function stopReview() {
  if (review.abort) review.abort.abort();
  if (review.running) $("review-status").textContent += " (stopped)";
  review.running = false;
  state.reviewing = false;
  $("review-stop").hidden = true;
}

/** A position's value for the board's South: [lower, upper], or null. */
function point(r, a) {
  if (!a) return null;
  const f = finalOf(a, r);
  const south = shown(r.to_move) === "south";
  return south ? [f.lower, f.upper] : [-f.upper, -f.lower];
}

/** What ply `ply` from position `r` (analysis `a`) gave away. */
function row(r, a, ply, index) {
  const out = { index, ply, side: boardSide(ply.side), lossLower: null, lossUpper: null, before: null, after: null };
  const mv = a && a.moves.find((m) => m.move === ply.pit);
  if (!mv) return out;
  const bestLower = Math.max(...a.moves.map((m) => m.lower));
  const bestUpper = Math.max(...a.moves.map((m) => m.upper));
  out.lossLower = Math.max(0, bestLower - mv.upper);
  out.lossUpper = Math.max(0, bestUpper - mv.lower);
  out.before = a.verdict;
  out.after = mv.verdict;
  out.forced = a.moves.length === 1;
  return out;
}

function lossText(x) {
  if (x.lossUpper === null) return "–";
  return x.lossLower === x.lossUpper ? String(x.lossLower) : `${x.lossLower}..${x.lossUpper}`;
}
const changes = (x) => x.before && x.after && x.before !== x.after;

function render() {
  // Each player's moves: perfect (loss proven 0), mistakes (proven above
  // 0), not valued (bounds that straddle).
  const summary = $("review-summary");
  summary.innerHTML = "";
  for (const side of ["south", "north"]) {
    const mine = review.rows.filter((x) => x.side === side);
    if (!mine.length) continue;
    const perfect = mine.filter((x) => x.lossUpper === 0).length;
    const mistakes = mine.filter((x) => x.lossLower > 0).length;
    const exact = mine.filter((x) => x.lossUpper !== null && x.lossLower === x.lossUpper);
    const valued = perfect + mistakes;
    const p = document.createElement("p");
    p.dataset.side = side; p.dataset.perfect = String(perfect); p.dataset.valued = String(valued);
    let t = `${sideName(side)}: ${perfect} of ${valued} move${valued === 1 ? "" : "s"} perfect`;
    if (valued) t += ` (${Math.round((100 * perfect) / valued)}%)`;
    if (exact.length) t += `, mean loss ${(exact.reduce((s, x) => s + x.lossLower, 0) / exact.length).toFixed(2)} a move`;
    const unknown = mine.length - valued;
    if (unknown) t += `; ${unknown} not valued`;
    const turned = mine.filter(changes).length;
    if (turned) t += `; ${turned} changed the result`;
    p.textContent = t;
    summary.appendChild(p);
  }
  const body = $("review-body");
  body.innerHTML = "";
  for (const x of review.rows) {
    const tr = document.createElement("tr");
    tr.dataset.ply = String(x.index);
    tr.dataset.lossLower = x.lossLower === null ? "" : String(x.lossLower);
    tr.dataset.lossUpper = x.lossUpper === null ? "" : String(x.lossUpper);
    if (changes(x)) tr.classList.add("changes-result");
    if (x.lossUpper === 0) tr.classList.add("perfect");
    else if (x.lossLower > 0) tr.classList.add("mistake");
    const note = changes(x) ? `${x.before} → ${x.after}` : x.lossUpper === 0 ? (x.forced ? "only move" : "perfect") : x.lossLower > 0 ? "gives away" : "";
    const name = `${x.side[0].toUpperCase()}${x.ply.pit}`;
    tr.innerHTML = `<td>${x.index + 1}</td><td><button aria-label="go to after ${sideName(x.side)} pit ${x.ply.pit}, move ${x.index + 1}">${name}</button></td>` +
      `<td>${lossText(x)}</td><td>${note}</td>`;
    tr.querySelector("button").addEventListener("click", () => review.goTo(review.nodes[x.index + 1]));
    body.appendChild(tr);
  }
  renderGraph();
}

/** The evaluation over the game: the value for South after each move (a
 *  band where only bounds are proven), moves that change the result in
 *  red, the board's position in blue. A click goes to that move. */
export function renderGraph() {
  const svg = $("review-graph");
  const pts = review.points;
  if (!pts.length) { svg.innerHTML = ""; return; }
  const W = 1000, H = 200;
  const n = Math.max(1, review.nodes.length - 1);
  // The scale fits the proven values (a wide band early in a game would
  // flatten them); the bands beyond it are cut at the edge.
  const exact = pts.filter((p) => p && p[0] === p[1]).map((p) => Math.abs(p[0]));
  const max = Math.max(4, ...(exact.length ? exact : pts.filter(Boolean).flat().map((v) => Math.abs(v)))) * 1.2;
  const x = (i) => (i * W) / n, y = (v) => H / 2 - (v / max) * (H / 2 - 6);
  const known = pts.map((p, i) => [i, p]).filter(([, p]) => p);
  const band = known.map(([i, p]) => `${x(i)},${y(p[1])}`).concat(known.slice().reverse().map(([i, p]) => `${x(i)},${y(p[0])}`)).join(" ");
  // The line joins the proven values; where only bounds are known, the
  // band alone.
  const runs = [];
  pts.forEach((p, i) => {
    if (!p || p[0] !== p[1]) return;
    const run = runs[runs.length - 1];
    if (run && run.end === i - 1) { run.points.push(`${x(i)},${y(p[0])}`); run.end = i; }
    else runs.push({ end: i, points: [`${x(i)},${y(p[0])}`] });
  });
  const lines = runs.map((r) => `<polyline class="value" points="${r.points.join(" ")}"/>`).join("");
  const marks = review.rows.filter(changes).map((r) => `<line class="turn" x1="${x(r.index + 1)}" x2="${x(r.index + 1)}" y1="0" y2="${H}"/>`).join("");
  const at = review.nodes.indexOf(state.tree.cursor);
  const cursor = at >= 0 ? `<line class="at" x1="${x(at)}" x2="${x(at)}" y1="0" y2="${H}"/>` : "";
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.innerHTML = `<line class="zero" x1="0" x2="${W}" y1="${H / 2}" y2="${H / 2}"/>` +
    `<polygon class="band" points="${band}"/>${lines}${marks}${cursor}`;
  const last = known.length ? known[known.length - 1][1] : null;
  svg.setAttribute("aria-label", `value for South over the game, from ${sign(-Math.round(max))} to ${sign(Math.round(max))}` +
    (last ? `; at the end ${last[0] === last[1] ? sign(last[0]) : sign(last[0]) + " to " + sign(last[1])}` : ""));
  svg.onclick = (e) => {
    const box = svg.getBoundingClientRect();
    const i = Math.round(((e.clientX - box.left) / box.width) * n);
    const node = review.nodes[Math.min(Math.max(i, 0), review.nodes.length - 1)];
    if (node) review.goTo(node);
  };
}
