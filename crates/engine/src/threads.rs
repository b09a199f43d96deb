//! How many worker threads a job runs on: one meaning for every job
//! (build, solve, match, tournament) and a bound.
//!
//! `None` and `Some(0)` mean "all cores"; any other count is used as given,
//! up to [`THREADS_PER_CORE`] per core of the machine: more threads than
//! that only slow the work down (each needs a stack, and the solver's
//! threads share one transposition table), so a larger count is refused
//! rather than started.

use crate::error::{Error, Result};

/// Most worker threads per core a job may start.
pub const THREADS_PER_CORE: usize = 4;

/// Cores this process may run on (1 when unknown).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Most worker threads a job may start on this machine.
pub fn max_threads() -> usize {
    cores() * THREADS_PER_CORE
}

/// The worker threads of a job asked to run on `requested` threads: all
/// cores for `None` or `Some(0)`, else the count itself if it is at most
/// [`max_threads`].
pub fn resolve(requested: Option<usize>) -> Result<usize> {
    match requested {
        None | Some(0) => Ok(cores()),
        Some(n) if n <= max_threads() => Ok(n),
        Some(n) => Err(Error::Unsupported(format!(
            "{n} worker threads: this machine has {} cores, and more than {} threads \
             ({THREADS_PER_CORE} per core) only slow the work down; ask for fewer, or 0 for all cores",
            cores(),
            max_threads()
        ))),
    }
}

/// A rayon pool of [`resolve`]`(requested)` threads.
pub fn pool(requested: Option<usize>) -> Result<rayon::ThreadPool> {
    let n = resolve(requested)?;
    rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build()
        .map_err(|e| Error::Internal(format!("cannot start {n} worker threads: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_and_none_mean_all_cores_and_the_bound_is_refused() {
        assert_eq!(resolve(None).unwrap(), cores());
        assert_eq!(resolve(Some(0)).unwrap(), cores());
        assert_eq!(resolve(Some(1)).unwrap(), 1);
        assert_eq!(resolve(Some(max_threads())).unwrap(), max_threads());
        let e = resolve(Some(100_000)).unwrap_err().to_string();
        assert!(
            e.contains("100000 worker threads") && e.contains("0 for all cores"),
            "{e}"
        );
        assert_eq!(pool(Some(1)).unwrap().current_num_threads(), 1);
    }
}
