//! The one error type of the library. Every message says what is wrong and
//! what to do about it; [`Error::is_usage`] tells bad input from bad data.

use std::path::PathBuf;

/// Everything that can go wrong in the library.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A position string could not be read.
    #[error("bad position \"{text}\": {reason}")]
    BadPosition {
        /// The text that was given.
        text: String,
        /// What is wrong with it and how to write it instead.
        reason: String,
    },
    /// A board size or seed count outside what the engine supports.
    #[error("{0}")]
    Unsupported(String),
    /// A move line could not be applied.
    #[error("bad move line \"{line}\" at character {at}: {reason}")]
    BadMoves {
        /// The whole line.
        line: String,
        /// 1-based place of the offending character.
        at: usize,
        /// What is wrong.
        reason: String,
    },
    /// An unknown rule-set name.
    #[error("unknown rules \"{0}\": use default, capture-needs-opposite or end-when-mover-empty")]
    UnknownRules(String),
    /// A table needed for the job is not on disk.
    #[error("missing table {path}: build it with `{command}`")]
    MissingTable {
        /// Where the table was looked for.
        path: PathBuf,
        /// The command that builds it.
        command: String,
    },
    /// A table file exists but cannot be used.
    #[error("table {path} is unusable: {reason}; delete it and rebuild it with `{command}`")]
    BadTable {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
        /// The command that rebuilds it.
        command: String,
    },
    /// The job would need more memory than allowed.
    #[error("{0}")]
    Memory(String),
    /// An agent answered with an illegal move: a bug in the agent, which
    /// stops the match.
    #[error("agent {agent} played the illegal move {pit} ({reason}) in position {position} ({side} to move)")]
    IllegalMove {
        /// The agent's spec.
        agent: String,
        /// The position, in notation from the side to move.
        position: String,
        /// The side to move.
        side: crate::side::Side,
        /// The pit it chose.
        pit: usize,
        /// Why the move is illegal.
        reason: String,
    },
    /// An operating-system error on a file.
    #[error("{path}: {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
}

impl Error {
    /// Whether the error comes from what the user typed (exit code 2) rather
    /// than from data on disk or the machine (exit code 1).
    pub fn is_usage(&self) -> bool {
        matches!(
            self,
            Error::BadPosition { .. }
                | Error::Unsupported(_)
                | Error::BadMoves { .. }
                | Error::UnknownRules(_)
        )
    }

    /// Wrap an I/O error with the path it concerns.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Error {
        Error::Io {
            path: path.into(),
            source,
        }
    }
}

/// The library's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
