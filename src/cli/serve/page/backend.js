// The analysis board's back end: where positions are played and valued.
// The page calls nothing else, so a second back end (the engine compiled
// to WebAssembly and run in a Web Worker) plugs in by offering an object
// with the same methods; `chooseBackend` picks one at start-up.
//
// The interface. Every method returns a Promise; a failure rejects with an
// Error whose `message` is one line in words (what is wrong, what to do)
// and whose `status` says whose it is, as HTTP does: 400 bad input (the
// game, position, line or agent), 503 busy or stopping (try again), 500
// broken. The objects are those of the HTTP API (docs/serve.md):
//
//   name                                  "server" (this one), "wasm", ...
//   games()                               -> [GameInfo]
//   play(game, position, moves)           -> PositionReport: the position
//        after `moves` (the game's notation) from `position` (null: the start)
//   query(game, position, {ms, signal})   -> Analysis: one answer; `ms` the
//        search time above the tables (null: the back end's default);
//        `signal` an AbortSignal that abandons it (rejects, name AbortError)
//   search(game, position, {ms, onUpdate}) -> {done, stop}: the same answer
//        with its search shown as it goes. `ms` as for query, or "max" (the
//        longest the back end allows). `onUpdate(analysis)` is called with
//        proven bounds each time they narrow (never with wider ones than
//        before, never after `done` settles); `done` resolves to the answer,
//        or to null once `stop()` was called (the work is abandoned and its
//        resources freed), and rejects on failure. Inside the tables there
//        are no updates: `done` resolves at once.
//   agent(game, position, agent, seed)    -> AgentMove
//   checkAgent(game, agent)               -> the agent's spec, or rejects
//        with why it cannot play here
//
// Values and bounds follow the API: a position's and each move's value for
// the side to move, `exact` or proven `lower`/`upper` bounds, `source` one
// of "tables", "search", "book" (an opening book: exact) or "game_over".

import { backendError } from "./backendError.js";
import { wasmBackend } from "./wasmBackend.js";

/** The back end of `mancala serve`: its HTTP API under `base` ("" for the
 *  server the page came from). */
export function httpBackend(base = "") {
  const url = (path, params) => {
    const u = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined && v !== "") u.set(k, String(v));
    return `${base}/api/v1/${path}?${u.toString()}`;
  };
  const get = async (path, params, signal) => {
    const r = await fetch(url(path, params), { signal });
    let body;
    try { body = await r.json(); } catch (e) { throw backendError(`${r.status} ${r.statusText}`, r.status); }
    if (!r.ok) throw backendError(body.error || r.statusText, r.status);
    return body;
  };
  return {
    name: "server",
    games: () => get("games", {}),
    play: (game, position, moves) => get("play", { game, position, moves }),
    query: (game, position, opts = {}) => get("query", { game, position, ms: opts.ms }, opts.signal),
    agent: (game, position, agent, seed) => get("agent", { game, position, agent, seed }),
    checkAgent: async (game, agent) => (await get("agent-check", { game, agent })).agent,
    search: (game, position, opts = {}) => streamSearch(url("search", { game, position, ms: opts.ms }), opts.onUpdate),
  };
}

/** `/api/v1/search` read as server-sent events through fetch (not
 *  EventSource, which reconnects by itself): updates, then `done` or
 *  `error`. Stopping aborts the request; the server stops the search when
 *  its stream is closed. */
function streamSearch(address, onUpdate) {
  const abort = new AbortController();
  let stopped = false;
  const done = (async () => {
    let r;
    try {
      r = await fetch(address, { signal: abort.signal, headers: { accept: "text/event-stream" } });
    } catch (e) {
      if (stopped) return null;
      throw backendError(`the server cannot be reached (${e.message}); is it running?`, 503);
    }
    if (!r.ok) {
      let body = {};
      try { body = await r.json(); } catch (e) { /* not JSON */ }
      throw backendError(body.error || `${r.status} ${r.statusText}`, r.status);
    }
    const reader = r.body.getReader();
    const text = new TextDecoder();
    let buffer = "";
    try {
      for (;;) {
        const { value, done: end } = await reader.read();
        if (end) break;
        buffer += text.decode(value, { stream: true });
        let cut;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const ev = parseEvent(block);
          if (!ev || stopped) continue;
          if (ev.name === "update") { if (onUpdate) onUpdate(ev.data); }
          else if (ev.name === "done") return ev.data;
          else if (ev.name === "error") throw backendError(ev.data.error, ev.data.status || 500);
        }
      }
    } catch (e) {
      if (stopped) return null;
      throw e.status ? e : backendError(`the search's stream broke off (${e.message}); try again`, 503);
    }
    if (stopped) return null;
    throw backendError("the search's stream ended without an answer; try again", 503);
  })();
  return {
    done,
    stop() { stopped = true; abort.abort(); },
  };
}

/** One server-sent event (`event:` and `data:` lines); null for a comment. */
function parseEvent(block) {
  let name = "message";
  const data = [];
  for (const line of block.split("\n")) {
    if (line.startsWith(":")) continue;
    if (line.startsWith("event:")) name = line.slice(6).trim();
    else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
  }
  if (!data.length) return null;
  return { name, data: JSON.parse(data.join("\n")) };
}

/** The back end the page uses, chosen at start-up: an object set in
 *  `window.MANCALA_BACKEND` (a test's); else the engine in the browser
 *  (wasmBackend.js) when the link says `backend=wasm` or the page was built
 *  for a static host (dist/site.sh marks its index.html with
 *  `<meta name="mancala-backend" content="wasm">`); else the server the page
 *  came from (`backend=server` insists on it). */
export function chooseBackend() {
  if (window.MANCALA_BACKEND) return window.MANCALA_BACKEND;
  const asked = new URLSearchParams(window.location.search).get("backend");
  const meta = document.querySelector('meta[name="mancala-backend"]');
  const built = meta ? meta.getAttribute("content") : null;
  if (asked === "wasm" || (asked !== "server" && built === "wasm")) return wasmBackend();
  return httpBackend("");
}
