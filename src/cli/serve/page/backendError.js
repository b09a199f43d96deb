// The back ends' failure: an Error whose `message` is one line in words
// (what is wrong, what to do) and whose `status` says whose it is, as HTTP
// does (backend.js, "The interface"). A module of its own so that both back
// ends (backend.js, wasmBackend.js) take it without importing each other.

/** An Error carrying an HTTP-like status. */
export function backendError(message, status) {
  const e = new Error(message);
  e.status = status;
  return e;
}
