// The engine in a Web Worker (the page's "wasm" back end, wasmBackend.js):
// the module built by dist/site.sh (docs/site.md) into wasm/ beside this
// file (its glue loaded from there, the module itself compiled by the page
// and sent as the first message), called one request at a time. A request
// is {id, method, args};
// the answer {id, text} carries the module's JSON text ({"ok": ...} or
// {"error": ..., "status": N}); a search under way posts {id, update}
// with each Analysis whose bounds narrowed. The page stops a search by
// ending this worker and starting another.
//
// The endgame tables are files of the folder, tables/NAME.gz beside this
// file, listed in tables/index.json (dist/site.sh writes both): before a
// request about a position, the worker asks the module which tables it
// would read (tablesWanted), fetches those the folder holds, gunzips them
// with the browser's DecompressionStream and hands each to the module
// (addTable), which checks it as a file on disk is. A lookup ("known")
// fetches them only when they answer the position (every table up to its
// seeds is in the folder); a search or an agent fetches every one up to the
// largest, since the search probes them.

import init, { Engine } from "./wasm/mancala_wasm.js";

let engine = null;
let current = null;
// The page compiles the module once and sends it as the first message
// ({module}), so a worker started again after a stop is ready at once.
let booted;
const ready = new Promise((resolve, reject) => { booted = { resolve, reject }; });

// Called by the module (mancala_wasm's `mancalaUpdate`) while it searches.
self.mancalaUpdate = (json) => { if (current !== null) self.postMessage({ id: current, update: json }); };

const TABLES = new URL("tables/", import.meta.url);
let listing = null;

/** The folder's tables: {name: bytes of the .gz}, or {} for a folder
 *  without tables/index.json. */
function tableList() {
  if (!listing) {
    listing = fetch(new URL("index.json", TABLES)).then(async (r) => {
      if (r.status === 404) return {};
      if (!r.ok) throw new Error(`the list of tables page/tables/index.json could not be read (${r.status}); reload the page`);
      return (await r.json()).files || {};
    });
    listing.catch(() => { listing = null; });
  }
  return listing;
}

/** One table file fetched, gunzipped and added to the module. */
async function addTable(name) {
  const where = `page/tables/${name}.gz`;
  let r;
  try {
    r = await fetch(new URL(`${name}.gz`, TABLES));
  } catch (e) {
    throw new Error(`the table file ${where} could not be fetched (${e.message}); reload the page`);
  }
  if (!r.ok) throw new Error(`the table file ${where} is missing (${r.status}): the folder is incomplete; build it again with dist/site.sh`);
  let bytes;
  try {
    bytes = new Uint8Array(await new Response(r.body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer());
  } catch (e) {
    throw new Error(`the table file ${where} is not a sound gzip file (${e.message}): build the folder again with dist/site.sh`);
  }
  const answer = JSON.parse(engine.addTable(name, bytes));
  if (answer.error !== undefined) throw new Error(`${answer.error}; build the folder again with dist/site.sh`);
}

/** The tables `method` needs for (game, position), added. */
async function addTables(method, args) {
  if (!["known", "query", "agent"].includes(method)) return;
  const wanted = JSON.parse(engine.tablesWanted(args[0], args[1]));
  // A bad game or position: the request itself says what is wrong.
  if (wanted.error !== undefined || !wanted.ok.length) return;
  const files = await tableList();
  let have = 0;
  while (have < wanted.ok.length && files[wanted.ok[have]] !== undefined) have += 1;
  if (method === "known" && have < wanted.ok.length) return;
  for (const name of wanted.ok.slice(0, have)) await addTable(name);
}

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
  try {
    await addTables(method, args);
  } catch (e) {
    self.postMessage({ id, text: JSON.stringify({ error: e.message, status: 500 }) });
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
