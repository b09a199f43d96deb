//! The clock of deadlines and timings: [`std::time::Instant`], except on
//! the browser build (wasm32), where the standard library has no clock
//! (`Instant::now` panics there) and `web_time::Instant` reads the page's
//! or worker's `performance.now()`. Both measure with
//! [`std::time::Duration`].

#[cfg(not(target_arch = "wasm32"))]
pub use std::time::Instant;
#[cfg(target_arch = "wasm32")]
pub use web_time::Instant;
