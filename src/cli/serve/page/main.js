// The analysis board: the game on the board and every line tried (a tree),
// its values as the back end proves them (streamed, stoppable), stepping,
// undo against an agent, the editor, paste, review, and the link that
// reproduces it all. docs/serve.md describes the page.

import { $, state, backend, DEFAULT_GAME, sideName, shown, boardSide, gameInfo, splitGame, capturing, boardOnly,
  finalOf, sign, verdictClass, resultWord, valueText, short, setReady, knownAnalysis, keepAnalysis, otherSide } from "./state.js";
import { formatLine, parseLine, readPaste } from "./notation.js";
import { GameTree, renderTree } from "./tree.js";
import { renderBoard, lastMoveText } from "./board.js";
import { traceMove } from "./trace.js";
import { openEditor, applyEditor } from "./editor.js";
import { review, startReview, stopReview, renderGraph } from "./review.js";

// ---- the URL: the game, the set-up start, the line shown and where the
// board is on it, the board's orientation ----
function writeUrl() {
  const u = new URLSearchParams();
  u.set("game", state.game);
  if (state.start) u.set("position", state.start);
  if (state.northFirst) u.set("to_move", "north");
  const line = state.tree.line();
  if (line.length) u.set("line", formatLine(line));
  if (state.tree.cursor.depth !== line.length) u.set("at", String(state.tree.cursor.depth));
  if (state.flipped) u.set("flip", "1");
  history.replaceState(null, "", "?" + u.toString());
}

/** Put the board in the state `params` describe (a link): a game that
 *  cannot be played opens the default one, a position that cannot be set
 *  up the start, a line is cut where it stops playing; each says so. */
async function load(params) {
  const notes = [];
  let game = params.get("game") || DEFAULT_GAME;
  let start = params.get("position") || null;
  let lineText = params.get("line") || "";
  try {
    await backend.play(game, null, "");
  } catch (e) {
    // Its position and line were for that game: the default game's start.
    notes.push(`The link's game “${game}” cannot be played (${short(e.message)}); showing ${DEFAULT_GAME} instead.`);
    game = DEFAULT_GAME; start = null; lineText = "";
  }
  if (start) {
    try { await backend.play(game, start, ""); } catch (e) {
      notes.push(`The link's position cannot be set up (${short(e.message)}); showing the start instead.`);
      start = null;
    }
  }
  state.game = game; state.start = start;
  state.northFirst = !!start && params.get("to_move") === "north";
  state.flipped = params.get("flip") === "1";
  state.tree = new GameTree();
  let plies = parseLine(lineText, 0);
  // A line that no longer plays (a link edited by hand): keep the longest
  // part that does.
  let dropped = null;
  while (plies.length) {
    try { await backend.play(game, start, formatLine(plies)); break; } catch (e) { dropped = dropped || e.message; plies = plies.slice(0, -1); }
  }
  if (dropped) notes.push(`${short(dropped)} (the line is cut where it stops playing)`);
  const end = state.tree.extend(state.tree.root, plies);
  const at = params.get("at");
  let node = end;
  if (at !== null && /^\d+$/.test(at)) while (node.depth > Number(at)) node = node.parent;
  state.tree.go(node);
  fillControls();
  $("editor").hidden = true;
  return notes.join(" ");
}

// ---- showing the cursor's position, and valuing it ----
let generation = 0;
async function refresh(note = "") {
  const gen = ++generation;
  stopSearch(false);
  $("error").textContent = note;
  const node = state.tree.cursor;
  state.loading = true;
  setReady();
  try {
    if (!node.report) node.report = await backend.play(state.game, state.start, formatLine(node.path()));
  } catch (e) {
    if (gen !== generation) return;
    state.loading = false;
    $("error").textContent = short(e.message);
    if (node.parent) { state.tree.remove(node); state.tree.go(node.parent); refresh($("error").textContent); } else setReady();
    return;
  }
  if (gen !== generation) return;
  state.loading = false;
  const report = node.report;
  state.report = report;
  state.analysis = knownAnalysis(state.game, report.position);
  writeUrl();
  draw();
  const complete = state.analysis && state.analysis.exact && state.analysis.moves.every((m) => m.exact);
  if (!report.game_over && !state.noAnalysis && !complete) startSearch(false);
  else { setReady(); maybeAgent(); }
  // The move that led here: where its last seed landed (needs the
  // position before it).
  if (node.parent) {
    const parent = node.parent;
    try {
      if (!parent.report) parent.report = await backend.play(state.game, state.start, formatLine(parent.path()));
    } catch (e) { return; }
    if (state.tree.cursor === node) draw();
  }
}

/** Value the board's position with the back end's search, showing its
 *  bounds as they narrow; `think`: as long as the back end allows. */
function startSearch(think) {
  stopSearch(false);
  const node = state.tree.cursor, report = node.report;
  const s = backend.search(state.game, report.position, {
    ms: think ? "max" : null,
    onUpdate: (a) => {
      if (!state.searching || state.searching.search !== s) return;
      state.searching.updates += 1;
      state.updates = state.searching.updates;
      state.analysis = keepAnalysis(state.game, report.position, a);
      draw();
    },
  });
  state.searching = { search: s, node, think, updates: 0, started: performance.now() };
  state.updates = 0;
  setReady();
  draw();
  const tick = setInterval(() => { if (state.searching && state.searching.search === s) drawStatus(); else clearInterval(tick); }, 1000);
  s.done.then((a) => {
    if (!state.searching || state.searching.search !== s) return;
    state.searching = null;
    if (a) state.analysis = keepAnalysis(state.game, report.position, a);
    state.stopped = null;
    draw();
    setReady();
    maybeAgent();
  }).catch((e) => {
    if (!state.searching || state.searching.search !== s) return;
    state.searching = null;
    state.playOnly = short(e.message);
    draw();
    setReady();
    maybeAgent();
  });
}

/** Stop the running search; `byUser`: the stop button (the board keeps
 *  the bounds proved so far and says so). */
function stopSearch(byUser) {
  const s = state.searching;
  state.playOnly = null;
  state.stopped = null;
  if (!s) return;
  state.searching = null;
  s.search.stop();
  if (byUser) state.stopped = (performance.now() - s.started) / 1000;
  setReady();
}

// ---- drawing ----
function draw() {
  const report = state.report;
  if (!report) return;
  const node = state.tree.cursor;
  const a = state.analysis;
  const last = node.ply ? { side: boardSide(node.ply.side), pit: node.ply.pit } : null;
  const trace = node.ply && node.parent.report ? traceMove(node.parent.report, node.ply.pit, report) : null;
  renderBoard(report, a, last, trace, play, pitKeys);
  $("last-move").textContent = last ? lastMoveText(last.side, node.ply, trace, report) : "";
  renderLine();
  const atRoot = !node.parent, atEnd = !node.next();
  $("undo").disabled = atRoot; $("step-start").disabled = atRoot; $("step-back").disabled = atRoot;
  $("redo").disabled = atEnd; $("step-forward").disabled = atEnd; $("step-end").disabled = atEnd;
  const over = report.game_over;
  $("best-move").disabled = !(a && a.best_move !== null && a.best_move !== undefined) || over;
  $("best-line").disabled = !(a && a.pv) || over;
  const complete = a && a.exact && a.moves.every((m) => m.exact);
  $("think").disabled = !!state.noAnalysis || over || !!complete || !!(state.searching && state.searching.think);
  $("stop").hidden = !state.searching;
  $("review-start").disabled = state.tree.lineNodes().length < 2;
  for (const id of ["edit", "copy", "paste", "flip"]) $(id).disabled = false;
  renderMoves(report, a);
  renderPv(a);
  drawStatus();
  $("rules-link").href = rulesHref();
  $("rules-link").textContent = `the rules of ${rulesName()}`;
  if (review.points.length) renderGraph();
}

function drawStatus() {
  const r = state.report, a = state.analysis, s = state.searching;
  const status = $("status");
  // Updates received by the running (or the last) search, for tests.
  status.dataset.updates = String(state.updates || 0);
  status.className = "";
  // The position's bounds as final differences, for tests and scripts.
  const f = a ? finalOf(a, r) : null;
  status.dataset.lower = f ? String(f.lower) : "";
  status.dataset.upper = f ? String(f.upper) : "";
  $("source").textContent = a ? sourceText(a) : "–";
  $("source").dataset.source = a ? a.source : "";
  if (r.game_over) { status.textContent = gameOverText(r); return; }
  const mover = `${sideName(shown(r.to_move))} to move.`;
  if (state.noAnalysis) { status.textContent = `${state.noAnalysis}. ${mover}`; return; }
  if (!a) {
    status.textContent = s ? `${mover} Thinking… ${elapsed(s)}` : state.playOnly ? `Play only here (${state.playOnly}). ${mover}` : mover;
    return;
  }
  status.className = verdictClass(a.verdict);
  let text = `${mover} ${valueWords(r, a)}`;
  if (s) text += ` Thinking… ${elapsed(s)}${s.think ? "; stop when you have seen enough" : ""}`;
  else if (state.stopped !== null && state.stopped !== undefined) text += ` Stopped after ${state.stopped.toFixed(1)} s: these are the bounds proved by then.`;
  else if (!a.exact) text += " Move values are bounds; try “think longer”.";
  else if (!a.moves.every((m) => m.exact)) text += " Some move values are bounds (the book does not hold them yet); try “think longer”.";
  status.textContent = text;
}
const elapsed = (s) => `${Math.floor((performance.now() - s.started) / 1000)} s`;

function sourceText(a) {
  return { tables: "the endgame tables (exact)", book: "the opening book (exact)", search: a.exact ? "the search (exact)" : "the search (bounds)", game_over: "the final score" }[a.source] || a.source;
}

function valueWords(r, a) {
  const mover = shown(r.to_move);
  const f = finalOf(a, r);
  if (a.exact) {
    let text = `With best play: ${finalScore(r, mover, f.value)}`;
    if (boardOnly(r)) {
      const [s, n] = state.northFirst ? [r.stores[1], r.stores[0]] : r.stores;
      text += ` (${sign(a.value)} still to win on the board; ${capturing(r) ? "captured" : "in the stores"} so far South ${s}, North ${n})`;
    } else {
      text += ` (value ${sign(a.value)})`;
    }
    return text + ".";
  }
  let text = `Not solved yet: the value is between ${sign(f.lower)} and ${sign(f.upper)}`;
  text += a.verdict ? ` (so a proven ${a.verdict} for ${sideName(mover)})` : " (no result proven yet)";
  return text + ".";
}

// The total of seeds in the game (pits, stores and captures).
function totalSeeds(r) { return r.south.concat(r.north).reduce((x, y) => x + y, 0) + r.stores[0] + r.stores[1]; }
// "South wins 27-21" from the mover's final difference `d`.
function finalScore(r, mover, d) {
  const total = totalSeeds(r);
  const other = otherSide(mover);
  if (boardOnly(r) || (total + d) % 2 !== 0) return d === 0 ? "draw" : `${sideName(d > 0 ? mover : other)} wins by ${Math.abs(d)}`;
  const x = (total + d) / 2, y = (total - d) / 2;
  if (d === 0) return `draw ${x}-${y}`;
  return d > 0 ? `${sideName(mover)} wins ${x}-${y}` : `${sideName(other)} wins ${y}-${x}`;
}
// The result of a finished game, from its settled stores.
function gameOverText(r) {
  const [S, N] = state.northFirst ? [r.stores[1], r.stores[0]] : r.stores;
  if (S === N) return `Game over: a draw, ${S}-${N}.`;
  return S > N ? `Game over: South wins ${S}-${N}.` : `Game over: North wins ${N}-${S}.`;
}

function renderMoves(report, analysis) {
  const body = $("moves-body");
  const focusInTable = body.contains(document.activeElement);
  body.innerHTML = "";
  if (!analysis || report.game_over) return;
  const proven = new Set(analysis.best_moves);
  const key = (m) => (m.exact ? [m.value, m.value] : [m.lower, m.upper]);
  const sorted = [...analysis.moves].sort((x, y) => { const [p, q] = [key(x), key(y)]; return q[0] - p[0] || q[1] - p[1]; });
  for (const mv of sorted) {
    const tr = document.createElement("tr");
    tr.dataset.move = String(mv.move);
    if (proven.has(mv.move)) tr.classList.add("proven-best");
    const extra = [];
    if (mv.extra_turn) extra.push("extra turn");
    if (mv.captured) extra.push(`takes ${mv.captured}`);
    if (proven.has(mv.move)) extra.push("keeps the result");
    const who = sideName(shown(report.to_move))[0];
    tr.innerHTML = `<td><button aria-label="play pit ${mv.move}">${who}${mv.move}</button></td>` +
      `<td class="${verdictClass(mv.verdict)}">${resultWord(mv.verdict)}</td>` +
      `<td>${valueText(mv)}</td><td>${mv.exact ? "exact" : "bounds"}</td><td>${extra.join(", ")}</td>`;
    tr.addEventListener("click", () => play(mv.move));
    body.appendChild(tr);
  }
  if (focusInTable) { const first = body.querySelector("button"); (first || $("step-back")).focus(); }
}

const plyName = (p) => `${boardSide(p.side)[0].toUpperCase()}${p.pit}`;

// The lines tried, as a tree; the board's move marked. `data-line` holds
// the line to the board's position in the notation.
function renderLine() {
  const el = $("line");
  el.dataset.line = formatLine(state.tree.cursor.path());
  if (!state.tree.root.children.length) { el.textContent = "(none)"; return; }
  renderTree(el, state.tree, plyName, (p) => `go to after ${sideName(boardSide(p.side))} pit ${p.pit}`, (node) => goTo(node));
}

// The principal variation's plies; it starts with the side to move.
function pvPlies(a) { return parseLine(a.pv || "", state.report.to_move === "south" ? 0 : 1); }
function renderPv(a) {
  const el = $("pv");
  el.innerHTML = "";
  if (!a || !a.pv) { el.textContent = "–"; return; }
  const plies = pvPlies(a);
  let turn = 0;
  plies.forEach((p, i) => {
    if (i === 0 || p.side !== plies[i - 1].side) {
      turn += 1;
      const n = document.createElement("span"); n.className = "turn-no"; n.textContent = `${turn}.`; el.appendChild(n);
    }
    const b = document.createElement("button");
    b.textContent = plyName(p);
    b.setAttribute("aria-label", `play the best line to ${sideName(boardSide(p.side))} pit ${p.pit}`);
    b.addEventListener("click", () => playMany(plies.slice(0, i + 1)));
    el.appendChild(b);
  });
  if (a.pv_end === "repetition") el.appendChild(document.createTextNode(" (then a repetition)"));
}

// ---- moving on the tree ----
function goTo(node) {
  if (node === state.tree.cursor) return;
  state.arrivedByPlay = false;
  state.tree.go(node);
  refresh();
}
function play(pit) {
  const r = state.report, node = state.tree.cursor;
  if (!r || r !== node.report || r.game_over || !r.legal_moves.includes(pit)) return;
  const child = state.tree.child(node, { pit, side: r.to_move === "south" ? 0 : 1 });
  state.arrivedByPlay = true;
  state.tree.go(child);
  refresh();
}
function playMany(plies) {
  if (!plies.length || state.report !== state.tree.cursor.report) return;
  state.arrivedByPlay = true;
  state.tree.go(state.tree.extend(state.tree.cursor, plies));
  refresh();
}
const stepBack = () => { if (state.tree.cursor.parent) goTo(state.tree.cursor.parent); };
const stepForward = () => { const n = state.tree.cursor.next(); if (n) goTo(n); };
const stepStart = () => goTo(state.tree.root);
const stepEnd = () => { const c = state.tree.cursor.continuation(); if (c.length) goTo(c[c.length - 1]); };

// Undo: back a whole turn; against an agent, the agent's reply and the
// human's turn before it. Redo: forward a turn.
function undo() {
  let n = state.tree.cursor;
  if (!n.parent) return;
  const backTurn = () => { const s = n.ply.side; while (n.parent && n.ply.side === s) n = n.parent; return s; };
  const side = backTurn();
  const agent = $("agent-side").value;
  if (agent && n.parent && boardSide(side) === agent) backTurn();
  goTo(n);
}
function redo() {
  let n = state.tree.cursor.next();
  if (!n) return;
  while (n.next() && n.next().ply.side === n.ply.side) n = n.next();
  goTo(n);
}

// Arrow keys move between the playable pits; Enter or Space plays.
function pitKeys(e) {
  if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
  const pits = [...document.querySelectorAll(".pit.playable")];
  const i = pits.indexOf(e.target);
  if (i < 0 || !pits.length) return;
  pits[(i + (e.key === "ArrowRight" ? 1 : pits.length - 1)) % pits.length].focus();
  e.preventDefault();
}
// Elsewhere: arrows step through the game, Home and End go to its start
// and end; a digit plays that pit.
document.addEventListener("keydown", (e) => {
  if (e.defaultPrevented || e.target.closest("input, select, textarea") || e.ctrlKey || e.metaKey || e.altKey) return;
  const steps = { ArrowLeft: stepBack, ArrowRight: stepForward, Home: stepStart, End: stepEnd };
  if (steps[e.key] && !e.target.closest(".pit")) { steps[e.key](); e.preventDefault(); return; }
  if (/^[0-9]$/.test(e.key) && state.report && state.report.legal_moves.includes(Number(e.key))) play(Number(e.key));
});

// ---- an agent for a side: it plays when its side is to move at the end
// of a line, or just after a move was played ----
async function maybeAgent() {
  const who = $("agent-side").value;
  const r = state.report, node = state.tree.cursor;
  if (!who || !r || r !== node.report || r.game_over || shown(r.to_move) !== who || state.loading || state.searching) return false;
  if (node.children.length && !state.arrivedByPlay) return false;
  state.loading = true;
  setReady();
  const name = $("agent").value;
  $("status").className = "";
  $("status").textContent = `${name} is thinking…`;
  try {
    const mv = await backend.agent(state.game, r.position, name);
    state.loading = false;
    if (state.tree.cursor !== node) return true;
    play(mv.move);
  } catch (e) {
    state.loading = false;
    // The agent cannot play: it stops playing, and the human is told so.
    $("agent-side").value = "";
    $("error").textContent = `${short(e.message)} (the agent no longer plays)`;
    if (state.tree.cursor === node) draw();
    setReady();
  }
  return true;
}
async function checkAgent() {
  const name = $("agent").value.trim();
  if (!name) return false;
  try {
    await backend.checkAgent(state.game, name);
    $("agent").removeAttribute("aria-invalid");
    return true;
  } catch (e) {
    $("agent").setAttribute("aria-invalid", "true");
    $("agent-side").value = "";
    $("error").textContent = short(e.message);
    return false;
  }
}

// ---- game, rules and width ----
function fillControls() {
  const g = splitGame(state.game);
  $("game").innerHTML = state.games.map((x) => `<option value="${x.name}"${x.name === g.name ? " selected" : ""}>${x.name}</option>`).join("");
  followGame(g.name, g.pits, g.seeds, g.rules);
}
// The controls follow the chosen game: its rules, its pit range.
function followGame(name, pits, seeds, rules) {
  const info = gameInfo(name) || { rules: [], pits: [1, 10] };
  $("rules").innerHTML = info.rules.length
    ? info.rules.map((r) => `<option${r === rules ? " selected" : ""}>${r}</option>`).join("")
    : "<option>—</option>";
  $("rules").disabled = info.rules.length === 0;
  $("pits").min = info.pits[0]; $("pits").max = info.pits[1];
  $("pits").value = Math.min(Math.max(pits, info.pits[0]), info.pits[1]);
  $("seeds").value = seeds;
  const t = info.table_pits;
  state.noAnalysis = null;
  const p = Number($("pits").value);
  if (!t || p < t[0] || p > t[1])
    state.noAnalysis = `Play only, no analysis: ${name} has ${t ? "tables and search for " + t[0] + " to " + t[1] + " pits a side" : "no tables and no search"}`;
}
async function newGame() {
  const name = $("game").value;
  const info = gameInfo(name) || { rules: [], pits: [1, 10] };
  const pits = Math.min(Math.max(Number($("pits").value) || info.pits[0], info.pits[0]), info.pits[1]);
  const seeds = Math.max(1, Number($("seeds").value) || 1);
  let spec = `${name}:${pits}:${seeds}`;
  if (info.rules.length && $("rules").value !== "default") spec += ":" + $("rules").value;
  // A game the engine refuses (too many seeds for its board) leaves the
  // board as it was.
  try {
    await backend.play(spec, null, "");
  } catch (e) {
    $("error").textContent = short(e.message);
    fillControls();
    return;
  }
  stopReview();
  $("review").hidden = true;
  state.game = spec; state.start = null; state.northFirst = false; state.tree = new GameTree();
  $("editor").hidden = true;
  followGame(name, pits, seeds, $("rules").value);
  if ($("agent-side").value && !(await checkAgent())) { refresh($("error").textContent); return; }
  refresh();
}
function setStart(text, northFirst) {
  stopReview();
  state.start = text; state.northFirst = northFirst; state.tree = new GameTree();
  refresh();
}

// ---- the rules of the game on screen (docs/RULES.md, rendered) ----
function rulesName() {
  const g = splitGame(state.game);
  const names = { kalah: "Kalah", awari: "Awari", oware: "Oware", awale: "Awale", "vai-lung-thlan": "Vai Lung Thlan", ohvalhu: "Ohvalhu" };
  return (names[g.name] || g.name) + (g.rules !== "default" ? ` (${g.rules})` : "");
}
// The rules page finds the first heading whose anchor starts with the one
// asked for.
function rulesHref() {
  const g = splitGame(state.game);
  let anchor = g.name;
  if (g.rules !== "default") anchor = g.name === "awari" ? `variant-${g.rules}-of-awari` : `variant-${g.rules}`;
  return `page/rules.html#${anchor}`;
}

// ---- paste: a line, a position or a link ----
async function applyPaste() {
  const r = state.report;
  const what = readPaste($("paste-text").value, r ? r.pits : splitGame(state.game).pits);
  const fail = (msg) => { $("paste-error").textContent = msg; };
  if (what.kind === "error") return fail(what.message);
  try {
    if (what.kind === "link") {
      const note = await load(what.params);
      $("paste-box").hidden = true;
      return refresh(note);
    }
    if (what.kind === "position") {
      await backend.play(state.game, what.text, "");
      $("paste-box").hidden = true;
      return setStart(what.text, $("paste-mover").value === "north");
    }
    await backend.play(state.game, state.start, what.text);
  } catch (e) {
    return fail(short(e.message));
  }
  $("paste-box").hidden = true;
  state.arrivedByPlay = false;
  state.tree.go(state.tree.extend(state.tree.root, parseLine(what.text, 0)));
  refresh();
}

// ---- wiring ----
$("new").addEventListener("click", newGame);
$("game").addEventListener("change", () => {
  const info = gameInfo($("game").value);
  followGame($("game").value, Number($("pits").value), Number($("seeds").value), info && info.rules.length ? info.rules[0] : "default");
  newGame();
});
$("rules").addEventListener("change", newGame);
$("undo").addEventListener("click", undo);
$("redo").addEventListener("click", redo);
$("step-start").addEventListener("click", stepStart);
$("step-back").addEventListener("click", stepBack);
$("step-forward").addEventListener("click", stepForward);
$("step-end").addEventListener("click", stepEnd);
$("flip").addEventListener("click", () => { state.flipped = !state.flipped; writeUrl(); draw(); if (!$("editor").hidden) openEditor(); });
$("best-move").addEventListener("click", () => { if (state.analysis && state.analysis.best_move !== null) play(state.analysis.best_move); });
$("best-line").addEventListener("click", () => { if (state.analysis && state.analysis.pv) playMany(pvPlies(state.analysis)); });
$("think").addEventListener("click", () => { if (state.report && !state.report.game_over) startSearch(true); });
$("stop").addEventListener("click", () => { stopSearch(true); draw(); maybeAgent(); });
$("edit").addEventListener("click", openEditor);
$("edit-apply").addEventListener("click", () => applyEditor(setStart));
$("edit-cancel").addEventListener("click", () => { $("editor").hidden = true; });
$("paste").addEventListener("click", () => { $("paste-box").hidden = false; $("paste-error").textContent = ""; $("paste-text").focus(); });
$("paste-apply").addEventListener("click", applyPaste);
$("paste-cancel").addEventListener("click", () => { $("paste-box").hidden = true; });
$("paste-text").addEventListener("input", () => { $("paste-error").textContent = ""; });
$("review-start").addEventListener("click", () => startReview(goTo));
$("review-stop").addEventListener("click", () => { stopReview(); setReady(); });
$("agent-side").addEventListener("change", async () => {
  if ($("agent-side").value && !(await checkAgent())) return;
  state.arrivedByPlay = true;
  if (!(await maybeAgent())) setReady();
});
$("agent").addEventListener("change", async () => { if ((await checkAgent()) && !(await maybeAgent())) setReady(); });
$("copy").addEventListener("click", async () => {
  const line = formatLine(state.tree.cursor.path());
  try { await navigator.clipboard.writeText(line); $("error").textContent = "line copied: " + line; }
  catch (e) { $("error").textContent = "copy by hand: " + line; }
});

(async () => {
  try { state.games = await backend.games(); } catch (e) { $("error").textContent = short(e.message); }
  const note = await load(new URLSearchParams(location.search));
  refresh(note);
})();
