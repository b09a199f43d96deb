//! What every table verifier shares: the mismatch it reports and the seed
//! counts it accepts.

use crate::error::{Error, Result};
use crate::tables::index::MAX_INDEX_SEEDS;

/// One entry whose stored value differs from the one re-derived.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Mismatch {
    /// Index in the table.
    pub index: u64,
    /// The position, in notation.
    pub position: String,
    /// Stored value (seeds in play).
    pub stored: i32,
    /// Re-derived value.
    pub derived: i32,
}

/// Refuse a seed count no table has.
pub(crate) fn check_seeds(k: usize) -> Result<()> {
    if k == 0 || k > MAX_INDEX_SEEDS {
        return Err(Error::Unsupported(format!(
            "--seeds {k}: tables exist for 1 to {} seeds",
            MAX_INDEX_SEEDS
        )));
    }
    Ok(())
}
