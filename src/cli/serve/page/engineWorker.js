// The engine in a Web Worker (the page's "wasm" back end, wasmBackend.js):
// the module built by dist/site.sh (docs/site.md) into wasm/ beside this
// file (its glue loaded from there, the module itself compiled by the page
// and sent as the first message), called one request at a time. A request
// is {id, method, args};
// the answer {id, text} carries the module's JSON text ({"ok": ...} or
// {"error": ..., "status": N}); a search under way posts {id, update}
// with each Analysis whose bounds narrowed. The page stops a search by
// ending this worker and starting another.

import init, { Engine } from "./wasm/mancala_wasm.js";

let engine = null;
let current = null;
// The page compiles the module once and sends it as the first message
// ({module}), so a worker started again after a stop is ready at once.
let booted;
const ready = new Promise((resolve, reject) => { booted = { resolve, reject }; });

// Called by the module (mancala_wasm's `mancalaUpdate`) while it searches.
self.mancalaUpdate = (json) => { if (current !== null) self.postMessage({ id: current, update: json }); };

self.onmessage = async (ev) => {
  if (ev.data.module) {
    try {
      await init({ module_or_path: ev.data.module });
      engine = new Engine();
      booted.resolve();
    } catch (e) {
      booted.reject(e);
    }
    return;
  }
  const { id, method, args } = ev.data;
  try {
    await ready;
  } catch (e) {
    self.postMessage({ id, text: JSON.stringify({ error: `the engine's module did not start (${e.message}); rebuild the folder (dist/site.sh) and reload the page`, status: 500 }) });
    return;
  }
  current = id;
  let text;
  try {
    text = engine[method](...args);
  } catch (e) {
    // A panic in the module: this instance is not to be used again.
    text = JSON.stringify({ error: `the engine failed (${e.message}); the request was not answered, try again`, status: 500, broken: true });
  }
  current = null;
  self.postMessage({ id, text });
};
