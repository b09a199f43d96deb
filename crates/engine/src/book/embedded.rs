//! The books compiled into the library: every `books/*.book` file of the
//! source tree (`tests/book.rs` checks that none is missing here).

/// (file name, contents) of each embedded book.
pub(super) const BOOKS: &[(&str, &[u8])] = &[];
