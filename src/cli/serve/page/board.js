// The board: two rows of pits and the stores, each legal move's value in
// its pit's column, the last move and where its last seed landed, what it
// captured. North sits on top (its pit 0 at the right) unless the board
// is flipped; each player's store is at its right-hand end.

import { $, state, sideName, shown, otherSide, capturing, finalOf, sign, verdictClass, resultWord, valueHtml } from "./state.js";

/** Draw `report` with `analysis` (null while none) in #board. `last` is
 *  the move that led here ({side, pit} on the board) or null; `trace` what
 *  it did (trace.js) or null; `play(pit)` plays a pit; `keys` handles a
 *  pit's keydown. */
export function renderBoard(report, analysis, last, trace, play, keys) {
  const m = report.pits;
  const mover = report.to_move;
  const moves = new Map();
  if (analysis) for (const mv of analysis.moves) moves.set(mv.move, mv);
  const proven = analysis ? new Set(analysis.best_moves) : new Set();
  const board = $("board");
  const focusedPit = board.contains(document.activeElement) ? document.activeElement.dataset.pit : null;
  board.style.setProperty("--cols", String(m + 2));
  board.innerHTML = "";
  board.classList.toggle("flipped", state.flipped);
  const add = (el) => { board.appendChild(el); return el; };
  const cap = capturing(report);
  const top = state.flipped ? "south" : "north", bottom = otherSide(top);
  const label = (t) => { const d = document.createElement("div"); d.className = "side-name"; d.textContent = t; return d; };
  // The API's side of a screen side (the API calls the first mover South).
  const apiSide = (screenSide) => (state.northFirst ? otherSide(screenSide) : screenSide);
  const landedAt = (screenSide, pit) => trace && trace.landed && trace.landed.side === apiSide(screenSide) &&
    (pit === "store" ? trace.landed.store : !trace.landed.store && trace.landed.pit === pit);
  const takenFrom = (screenSide, pit) => {
    const c = trace && trace.captured.find((x) => x.cell.side === apiSide(screenSide) && !x.cell.store && x.cell.pit === pit);
    return c ? c.seeds : 0;
  };
  add(label(`${sideName(top)} ← pits ${m - 1} … 0`));
  const cellsFor = (screenSide) => {
    const side = apiSide(screenSide);
    const order = [...Array(m).keys()];
    if (screenSide === top) order.reverse();
    return order.map((i) => {
      const cell = document.createElement("div");
      cell.className = "cell " + (screenSide === top ? "top" : "bottom");
      cell.dataset.side = screenSide; cell.dataset.pit = String(i);
      const b = document.createElement("button");
      b.className = "pit"; b.dataset.pit = String(i); b.dataset.side = screenSide;
      const seeds = report[side][i];
      b.textContent = seeds;
      const num = document.createElement("span"); num.className = "num"; num.textContent = String(i);
      const val = document.createElement("span"); val.className = "val";
      let words = `${sideName(screenSide)} pit ${i}, ${seeds} seed${seeds === 1 ? "" : "s"}`;
      const playable = side === mover && report.legal_moves.includes(i) && !report.game_over;
      if (playable) {
        b.classList.add("playable");
        b.addEventListener("click", () => play(i));
        b.addEventListener("keydown", keys);
        const mv = moves.get(i);
        if (mv) {
          val.dataset.moveValue = String(i);
          val.innerHTML = valueHtml(mv);
          val.classList.add(verdictClass(mv.verdict));
          val.title = mv.exact ? "exact value" : "proven bounds";
          const f = finalOf(mv, report);
          words += `, ${f.exact ? sign(f.value) : "between " + sign(f.lower) + " and " + sign(f.upper)} ${resultWord(mv.verdict)}`;
          if (proven.has(i)) { b.classList.add("best"); words += ", best"; }
          else if (!proven.size && analysis.best_move === i) { b.classList.add("suggested"); words += ", suggested, not proven"; }
        }
      } else {
        b.disabled = true;
      }
      if (last && last.side === screenSide && last.pit === i) { b.classList.add("last"); words += ", last move"; }
      if (landedAt(screenSide, i)) { b.classList.add("landed"); words += ", last seed landed here"; }
      const wrap = document.createElement("span"); wrap.className = "pit-wrap";
      wrap.appendChild(b);
      const took = takenFrom(screenSide, i);
      if (took) {
        const t = document.createElement("span");
        t.className = "took"; t.dataset.took = String(took); t.textContent = `−${took}`;
        t.setAttribute("aria-hidden", "true");
        wrap.appendChild(t);
        words += `, ${took} captured from here`;
      }
      b.setAttribute("aria-label", words);
      cell.append(wrap, val, num);
      return cell;
    });
  };
  const store = (screenSide) => {
    const c = document.createElement("div"); c.className = "store-cell";
    const s = document.createElement("div"); s.className = "store"; s.dataset.store = screenSide;
    const seeds = report.stores[apiSide(screenSide) === "south" ? 0 : 1];
    s.innerHTML = `<span>${seeds}</span><small>${screenSide === "south" ? "S" : "N"}</small>`;
    s.setAttribute("role", "img");
    let words = `${sideName(screenSide)} ${cap ? "captured" : "store"}, ${seeds} seeds`;
    if (landedAt(screenSide, "store")) { s.classList.add("landed"); words += ", last seed landed here"; }
    s.setAttribute("aria-label", words);
    c.appendChild(s);
    return c;
  };
  // Grid: the top side's store at the left (spanning three rows) | the
  // pits | the bottom side's store at the right.
  const ns = add(store(top)); ns.style.gridColumn = "1"; ns.style.gridRow = "2 / span 3";
  cellsFor(top).forEach((c, k) => { c.style.gridColumn = String(k + 2); c.style.gridRow = "2"; add(c); });
  const mid = document.createElement("div"); mid.className = "mid"; mid.style.gridRow = "3";
  mid.textContent = report.game_over ? "game over" : `${sideName(shown(mover))} to move`;
  add(mid);
  cellsFor(bottom).forEach((c, k) => { c.style.gridColumn = String(k + 2); c.style.gridRow = "4"; add(c); });
  const ss = add(store(bottom)); ss.style.gridColumn = String(m + 2); ss.style.gridRow = "2 / span 3";
  const sl = add(label(`${sideName(bottom)} → pits 0 … ${m - 1}`)); sl.style.gridRow = "5";
  if (focusedPit !== null && focusedPit !== undefined) {
    const pits = [...document.querySelectorAll(".pit.playable")];
    const same = pits.find((p) => p.dataset.pit === focusedPit);
    (same || pits[0] || $("step-back")).focus();
  }
}

/** The last move in words: "South 2: last seed in South's store, an extra
 *  turn" / "...: last seed in South pit 4; captures 5 (North pit 1, 4
 *  seeds; the last seed)". */
export function lastMoveText(lastSide, ply, trace, report) {
  if (!ply) return "";
  const who = sideName(lastSide);
  let text = `Last move: ${who} pit ${ply.pit}`;
  if (!trace) return text + ".";
  const cap = capturing(report);
  const apiToScreen = (s) => (state.northFirst ? otherSide(s) : s);
  const where = (c) => (c.store ? `${sideName(apiToScreen(c.side))}'s ${cap ? "captures" : "store"}` : `${sideName(apiToScreen(c.side))} pit ${c.pit}`);
  text += `: last seed in ${where(trace.landed)}`;
  if (trace.captured.length) {
    const total = trace.captured.reduce((a, c) => a + c.seeds, 0);
    text += `; captures ${total} (${trace.captured.map((c) => `${where(c.cell)}: ${c.seeds}`).join(", ")})`;
  }
  return text + ".";
}
