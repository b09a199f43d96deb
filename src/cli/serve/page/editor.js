// The position editor: the board's pits and stores as fields, laid out as
// on the board (the top side's store at the left, the bottom side's at the
// right, each labelled), the side to move, and "set position". A bad
// field is marked and named as it is typed, and the mark and message go
// as soon as it is mended; a position the engine refuses keeps the editor
// open with its input.

import { $, state, backend, sideName, otherSide, capturing, gameInfo, splitGame } from "./state.js";

export function openEditor() {
  const r = state.report; if (!r) return;
  const m = r.pits;
  const top = state.flipped ? "south" : "north", bottom = otherSide(top);
  // The API's side of a screen side.
  const api = (s) => (state.northFirst ? otherSide(s) : s);
  const word = capturing(r) ? "captured" : "store";
  const grid = $("edit-grid");
  grid.style.setProperty("--cols", String(m + 2));
  grid.innerHTML = "";
  const field = (side, i) => {
    const inp = document.createElement("input");
    inp.type = "text"; inp.inputMode = "numeric"; inp.size = 3;
    inp.value = String(r[api(side)][i]);
    inp.setAttribute("aria-label", `${sideName(side)} pit ${i}`);
    inp.dataset.editPit = `${side}-${i}`;
    return inp;
  };
  const storeField = (side, col) => {
    const box = document.createElement("label");
    box.className = "estore"; box.style.gridColumn = String(col); box.style.gridRow = "1 / span 2";
    const inp = document.createElement("input");
    inp.type = "text"; inp.inputMode = "numeric"; inp.size = 3;
    inp.value = String(r.stores[api(side) === "south" ? 0 : 1]);
    inp.setAttribute("aria-label", `${sideName(side)} ${word}`);
    inp.dataset.editStore = side;
    const name = document.createElement("span"); name.textContent = `${sideName(side)} ${word}`;
    box.append(name, inp);
    grid.appendChild(box);
  };
  storeField(top, 1);
  [...Array(m).keys()].reverse().forEach((i, k) => {
    const f = field(top, i); f.style.gridColumn = String(k + 2); f.style.gridRow = "1"; grid.appendChild(f);
  });
  [...Array(m).keys()].forEach((i, k) => {
    const f = field(bottom, i); f.style.gridColumn = String(k + 2); f.style.gridRow = "2"; grid.appendChild(f);
  });
  storeField(bottom, m + 2);
  $("edit-mover").value = sideName(state.northFirst ? otherSide(r.to_move) : r.to_move).toLowerCase();
  $("edit-error").textContent = "";
  for (const inp of grid.querySelectorAll("input")) inp.addEventListener("input", () => check());
  $("editor").hidden = false;
}

/** Mark the bad fields; the first one's problem, or "" when all read. */
function check() {
  let bad = "";
  for (const el of $("edit-grid").querySelectorAll("input")) {
    const t = el.value.trim();
    const ok = /^[0-9]+$/.test(t);
    el.setAttribute("aria-invalid", ok ? "false" : "true");
    if (!ok && !bad) bad = `${el.getAttribute("aria-label")}: “${t}” is not a whole number of seeds`;
  }
  $("edit-error").textContent = bad;
  return bad;
}

// The editor's position in the notation (from the side to move), or null
// with the bad fields marked.
function editorPosition() {
  if (check()) return null;
  const m = state.report.pits;
  const pits = (s) => [...Array(m).keys()].map((i) => document.querySelector(`[data-edit-pit="${s}-${i}"]`).value.trim());
  const store = (s) => document.querySelector(`[data-edit-store="${s}"]`).value.trim();
  const mover = $("edit-mover").value, other = otherSide(mover);
  const info = gameInfo(splitGame(state.game).name);
  const wrap = (v) => (info && info.stores_in_brackets ? `[${v}]` : v);
  const text = [...pits(mover), wrap(store(mover)), ...pits(other), wrap(store(other))].join(" ");
  return { text, northFirst: mover === "north" };
}

/** Set the editor's position; `setStart(text, northFirst)` puts it on the
 *  board. */
export async function applyEditor(setStart) {
  const p = editorPosition();
  if (!p) return;
  try {
    await backend.play(state.game, p.text, "");
  } catch (e) {
    // The editor stays open with its input; the board keeps the last valid position.
    $("edit-error").textContent = e.message;
    return;
  }
  $("editor").hidden = true;
  setStart(p.text, p.northFirst);
}
