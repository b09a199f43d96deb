//! The books compiled into the library: every `books/*.book` file of the
//! source tree (`tests/book.rs` checks that none is missing here).

/// (file name, contents) of each embedded book.
pub(super) const BOOKS: &[(&str, &[u8])] = &[
    (
        "kalah-6-3-capture-needs-opposite.book",
        include_bytes!("../../books/kalah-6-3-capture-needs-opposite.book"),
    ),
    (
        "kalah-6-4-capture-needs-opposite.book",
        include_bytes!("../../books/kalah-6-4-capture-needs-opposite.book"),
    ),
    (
        "kalah-6-5-capture-needs-opposite.book",
        include_bytes!("../../books/kalah-6-5-capture-needs-opposite.book"),
    ),
    (
        "kalah-6-3-default.book",
        include_bytes!("../../books/kalah-6-3-default.book"),
    ),
    (
        "kalah-6-4-default.book",
        include_bytes!("../../books/kalah-6-4-default.book"),
    ),
    (
        "kalah-6-5-default.book",
        include_bytes!("../../books/kalah-6-5-default.book"),
    ),
    (
        "kalah-6-6-capture-needs-opposite.book",
        include_bytes!("../../books/kalah-6-6-capture-needs-opposite.book"),
    ),
    (
        "kalah-6-6-end-when-mover-empty.book",
        include_bytes!("../../books/kalah-6-6-end-when-mover-empty.book"),
    ),
    (
        "kalah-6-6-default.book",
        include_bytes!("../../books/kalah-6-6-default.book"),
    ),
    (
        "kalah-6-5-end-when-mover-empty.book",
        include_bytes!("../../books/kalah-6-5-end-when-mover-empty.book"),
    ),
    (
        "kalah-6-3-end-when-mover-empty.book",
        include_bytes!("../../books/kalah-6-3-end-when-mover-empty.book"),
    ),
    (
        "kalah-6-4-end-when-mover-empty.book",
        include_bytes!("../../books/kalah-6-4-end-when-mover-empty.book"),
    ),
];
