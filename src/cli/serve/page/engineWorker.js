// The engine in a Web Worker (the page's "wasm" back end, wasmBackend.js):
// the module built by dist/site.sh (docs/site.md) into wasm/ beside this
// file, called one request at a time. A request is {id, method, args};
// the answer {id, text} carries the module's JSON text ({"ok": ...} or
// {"error": ..., "status": N}); a search under way posts {id, update}
// with each Analysis whose bounds narrowed. The page stops a search by
// ending this worker and starting another.

import init, { Engine } from "./wasm/mancala_wasm.js";

let engine = null;
let current = null;
const ready = init().then(() => { engine = new Engine(); });

// Called by the module (mancala_wasm's `mancalaUpdate`) while it searches.
self.mancalaUpdate = (json) => { if (current !== null) self.postMessage({ id: current, update: json }); };

self.onmessage = async (ev) => {
  const { id, method, args } = ev.data;
  try {
    await ready;
  } catch (e) {
    self.postMessage({ id, text: JSON.stringify({ error: `the engine's module did not load (${e.message}); rebuild the folder (dist/site.sh) and reload the page`, status: 500 }) });
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
