// The back end of a page with no server: the engine compiled to
// WebAssembly (crates/wasm), run in Web Workers (engineWorker.js) so that
// the page never waits on it. It offers backend.js's interface with the
// same objects as the HTTP API, since the module answers with the engine's
// own (docs/site.md).
//
// Two workers ("lanes"), each answering one request at a time: `quick`
// for games, moves and what the books (and tables) know at once; `think`
// for searches and agents' moves. A search is stopped, and a query
// abandoned, by ending the think worker and starting a new one (a search
// in WebAssembly cannot be interrupted from outside); requests queued
// behind it are sent to the new one.

import { backendError } from "./backendError.js";

/** Longest search the module allows (crates/wasm MAX_SEARCH_MS). */
const MAX_MS = 600000;

function abortError() {
  const e = new Error("abandoned");
  e.name = "AbortError";
  return e;
}

/** The module, fetched and compiled once for every worker. */
async function compileModule(url) {
  let r;
  try {
    r = await fetch(url);
  } catch (e) {
    throw backendError(`the engine's module ${url.pathname} could not be fetched (${e.message}); reload the page`, 503);
  }
  if (!r.ok) throw backendError(`the engine's module ${url.pathname} is missing (${r.status}); build the folder with dist/site.sh`, 500);
  // Streaming needs the host to serve it as application/wasm.
  try { return await WebAssembly.compileStreaming(r.clone()); } catch (e) { return WebAssembly.compile(await r.arrayBuffer()); }
}

/** One worker and its queue. */
class Lane {
  constructor(url, module) {
    this.url = url;
    this.module = module;
    this.queue = [];
    this.running = null;
    this.ids = 0;
    this.start();
  }

  start() {
    const w = new Worker(this.url, { type: "module" });
    this.worker = w;
    this.booted = false;
    this.module.then((m) => {
      if (this.worker !== w) return;
      w.postMessage({ module: m });
      this.booted = true;
      this.next();
    }, (e) => { this.failed = e; this.failAll(e); });
    this.worker.onmessage = (ev) => this.message(ev.data);
    this.worker.onerror = (ev) => {
      ev.preventDefault();
      const why = ev.message || "its script could not be loaded";
      this.failAll(backendError(`the engine's worker failed (${why}); is the folder built whole (dist/site.sh)? Reload the page`, 500));
      this.restart();
    };
  }

  /** Every request, running or queued, rejected with `e`. */
  failAll(e) {
    const all = this.running ? [this.running, ...this.queue] : this.queue;
    this.running = null;
    this.queue = [];
    for (const r of all) r.reject(e);
  }

  restart() {
    this.worker.terminate();
    this.start();
  }

  /** `method(...args)` in the worker: resolves to the answer's `ok` value. */
  call(method, args, { onUpdate = null, signal = null } = {}) {
    return new Promise((resolve, reject) => {
      if (signal && signal.aborted) { reject(abortError()); return; }
      if (this.failed) { reject(this.failed); return; }
      const r = { id: ++this.ids, method, args, onUpdate, resolve, reject };
      if (signal) signal.addEventListener("abort", () => this.cancel(r, abortError()), { once: true });
      this.queue.push(r);
      this.next();
    });
  }

  /** Drop `r`: out of the queue, or its worker ended if it is running. */
  cancel(r, why) {
    const i = this.queue.indexOf(r);
    if (i >= 0) { this.queue.splice(i, 1); r.reject(why); return; }
    if (this.running !== r) return;
    this.running = null;
    r.reject(why);
    this.restart();
    this.next();
  }

  next() {
    if (!this.booted || this.running || !this.queue.length) return;
    const r = this.queue.shift();
    this.running = r;
    this.worker.postMessage({ id: r.id, method: r.method, args: r.args });
  }

  message(m) {
    const r = this.running;
    if (!r || m.id !== r.id) return;
    if (m.update !== undefined) {
      if (r.onUpdate) r.onUpdate(JSON.parse(m.update));
      return;
    }
    this.running = null;
    const body = JSON.parse(m.text);
    if (body.broken) this.restart();
    if (body.error !== undefined) r.reject(backendError(body.error, body.status || 500));
    else r.resolve(body.ok);
    this.next();
  }
}

/** The engine in the browser. `base`: the URL of the page's folder of
 *  modules (where engineWorker.js is). */
export function wasmBackend(base = new URL(".", import.meta.url)) {
  const url = new URL("engineWorker.js", base);
  const module = compileModule(new URL("wasm/mancala_wasm_bg.wasm", base));
  module.catch(() => {}); // reported by each request
  const quick = new Lane(url, module);
  const think = new Lane(url, module);
  const pos = (p) => p || "";
  const searchMs = (ms) => (ms === "max" ? MAX_MS : Number(ms) || 0);
  // The books' and tables' answer at once, or null when it needs a search.
  const known = (game, position) => quick.call("known", [game, pos(position)]);
  const query = async (game, position, opts = {}) => {
    const a = await known(game, position);
    if (opts.signal && opts.signal.aborted) throw abortError();
    if (a) return a;
    return think.call("query", [game, pos(position), searchMs(opts.ms), false], { signal: opts.signal });
  };
  return {
    name: "wasm",
    games: () => quick.call("games", []),
    play: (game, position, moves) => quick.call("play", [game, pos(position), moves || ""]),
    query,
    agent: (game, position, agent, seed) => think.call("agent", [game, pos(position), agent, Number(seed) || 1]),
    checkAgent: async (game, agent) => (await quick.call("checkAgent", [game, agent])).agent,
    search(game, position, opts = {}) {
      const abort = new AbortController();
      let stopped = false;
      const onUpdate = (a) => { if (!stopped && opts.onUpdate) opts.onUpdate(a); };
      const done = (async () => {
        try {
          const a = await known(game, position);
          if (a) return stopped ? null : a;
          const out = await think.call("query", [game, pos(position), searchMs(opts.ms), true], { onUpdate, signal: abort.signal });
          return stopped ? null : out;
        } catch (e) {
          if (stopped) return null;
          throw e;
        }
      })();
      return { done, stop() { stopped = true; abort.abort(); } };
    },
  };
}
