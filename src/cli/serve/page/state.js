// What every part of the page shares: the board's state, the back end,
// and how values read.

import { chooseBackend } from "./backend.js";
import { GameTree } from "./tree.js";

export const $ = (id) => document.getElementById(id);
export const backend = chooseBackend();

export const DEFAULT_GAME = "kalah:6:4";

// `start` is a set-up position in the game's notation (seen from the side
// to move, which the API calls South) or null for the game's start;
// `northFirst` says that side is North on the board. `tree` holds every
// line tried from the start, `tree.cursor` the position on the board.
// `flipped` turns the board round (South on top).
export const state = {
  game: DEFAULT_GAME, start: null, northFirst: false, tree: new GameTree(), flipped: false,
  report: null, analysis: null, games: [], noAnalysis: null,
  // The running search, if any: {search, node, think, updates, started}.
  searching: null,
  // Analyses by game and position, narrowed as searches prove more.
  analyses: new Map(),
  // A request for a position (play) or an agent's move is out.
  loading: false,
  // A review is under way.
  reviewing: false,
};

export const SIDES = ["south", "north"];
export const sideName = (s) => s[0].toUpperCase() + s.slice(1);
export const sign = (v) => (v > 0 ? "+" + v : String(v));
export const otherSide = (s) => (s === "south" ? "north" : "south");

// The board side (south/north) of a line's side, once the start is known.
export function boardSide(lineSide) { return SIDES[(lineSide + (state.northFirst ? 1 : 0)) % 2]; }
// The API reports the first mover as south: relabel when the start has North to move.
export function shown(side) { return state.northFirst ? otherSide(side) : side; }

export function gameInfo(name) { return state.games.find((x) => x.name === name); }
export function splitGame(spec) {
  const [name, pits, seeds, rules] = spec.split(":");
  return { name, pits: Number(pits), seeds: Number(seeds), rules: rules || "default" };
}
// Games whose stores are captured seeds written in brackets (Awari, Oware).
export function capturing(report = state.report) {
  const i = report && gameInfo(report.game);
  return !!(i && i.stores_in_brackets);
}
// Games whose values count only the seeds still to win from the board
// (Awari, Oware, Vai Lung Thlan): the page adds what the stores hold.
export function boardOnly(report = state.report) {
  const i = report && gameInfo(report.game);
  return !!(i && !i.value_includes_scores);
}
// What the side to move has banked over the other (stores or captures).
export function banked(r) { const [s, n] = r.stores; return r.to_move === "south" ? s - n : n - s; }
// A move's (or a position's) value as a final difference for the side to
// move (what its verdict is about): {exact, value} or {exact: false, lower, upper}.
export function finalOf(m, report = state.report) {
  const b = boardOnly(report) ? banked(report) : 0;
  return m.exact ? { exact: true, value: m.value + b, lower: m.value + b, upper: m.value + b }
    : { exact: false, lower: m.lower + b, upper: m.upper + b };
}

export function verdictClass(v) { return v === "win" ? "win" : v === "draw" ? "draw" : v === "loss" ? "loss" : "open"; }
export function resultWord(v) { return v === "win" ? "win" : v === "loss" ? "loss" : v === "draw" ? "draw" : "unknown"; }
export function valueText(mv) {
  const m = finalOf(mv);
  return m.exact ? sign(m.value) : `${sign(m.lower)}..${sign(m.upper)}`;
}
export function valueHtml(mv) {
  const m = finalOf(mv);
  if (m.exact) return `<span>${sign(m.value)}</span>`;
  return `<span class="lo">≥${sign(m.lower)}</span><span class="hi">≤${sign(m.upper)}</span>`;
}

// The first sentence of a long message, for the status line.
export function short(msg) {
  const i = msg.indexOf("; agents:");
  const t = i > 0 ? msg.slice(0, i) + " (the agent field's tooltip lists them)" : msg;
  return t.length > 180 ? t.slice(0, 177) + "…" : t;
}

// `data-state` on the body: "busy" while a request is out, "ready" once
// the board shows all it will (tests and scripts wait for it).
export function setReady() {
  const busy = state.loading || !!state.searching || state.reviewing;
  document.body.dataset.state = busy ? "busy" : "ready";
}

// Analyses kept by position: a later search's bounds are intersected with
// what is known (every bound is proven), so what is shown only narrows.
const key = (game, position) => `${game}|${position}`;
export function knownAnalysis(game, position) { return state.analyses.get(key(game, position)) || null; }
export function keepAnalysis(game, position, a) {
  const old = state.analyses.get(key(game, position));
  const merged = old ? narrow(old, a) : a;
  state.analyses.set(key(game, position), merged);
  return merged;
}
function narrowBounds(x, y) {
  const lower = Math.max(x.lower, y.lower), upper = Math.min(x.upper, y.upper);
  if (lower > upper) return y; // cannot happen with proven bounds: trust the newer
  const exact = lower === upper;
  return { lower, upper, exact, value: exact ? lower : null };
}
function narrow(old, a) {
  if (a.exact && a.moves.every((m) => m.exact)) return a;
  if (old.exact && old.moves.every((m) => m.exact)) return old;
  const out = { ...a, ...narrowBounds(old, a) };
  out.moves = a.moves.map((m) => {
    const o = old.moves.find((x) => x.move === m.move);
    return o ? { ...m, ...narrowBounds(o, m) } : m;
  });
  // A verdict either proved stays proved (Awari's values leave out the
  // seeds captured, so one is not read off a merged value here).
  out.verdict = a.verdict || old.verdict;
  out.moves.forEach((m) => {
    const o = old.moves.find((x) => x.move === m.move);
    m.verdict = m.verdict || (o && o.verdict) || null;
  });
  if (!a.pv && old.pv && old.exact) { out.pv = old.pv; out.best_moves = old.best_moves; out.best_move = old.best_move; }
  // An update in the middle of a search names no move yet: the last
  // answer's suggestion stands until the next answer.
  if ((out.best_move === null || out.best_move === undefined) && old.best_move !== null && old.best_move !== undefined) out.best_move = old.best_move;
  return out;
}
