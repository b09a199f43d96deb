//! The one error type of the library. Every message says what is wrong and
//! what to do about it; [`Error::is_usage`] tells bad input from bad data.

use std::path::PathBuf;

/// Everything that can go wrong in the library. New kinds of failure come
/// with new features, so a `match` outside the crate ends with a wildcard.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A position string could not be read.
    #[error("bad position \"{}\": {reason}", clip(text))]
    BadPosition {
        /// The text that was given.
        text: String,
        /// What is wrong with it and how to write it instead.
        reason: String,
    },
    /// A request the engine or the game does not support (an agent that
    /// cannot play this game, a feature this game lacks, a setting out of
    /// its range): the caller is to ask something else.
    #[error("{0}")]
    Unsupported(String),
    /// A board, a position, a seed count or a table beyond what the engine
    /// or the game handles (pits per side, seeds in play, a table's size).
    #[error("{0}")]
    OutOfRange(String),
    /// Two things the caller gave that contradict each other (the rules a
    /// game's name gives and the rules asked for apart, two limits that
    /// cannot both hold): give one.
    #[error("{0}")]
    Conflict(String),
    /// A game (or rule set) that has no endgame tables, or none at the
    /// board asked about, asked for work that needs them.
    #[error("{game} has no endgame tables{}: {reason}", at.map(|m| format!(" at {m} pits a side")).unwrap_or_default())]
    NoTables {
        /// The game (`awale`, `kalah:7:4`).
        game: String,
        /// The width asked about, when the game has tables at others.
        at: Option<usize>,
        /// Why, and what to do instead.
        reason: String,
    },
    /// A name that is not one of the registry's games.
    #[error("unknown game \"{}\": the games are {games}", clip(name))]
    UnknownGame {
        /// The name given.
        name: String,
        /// The games that could be meant, comma-separated.
        games: String,
    },
    /// A game's name (`NAME[:M[:N]][:RULES]`) that cannot be read: the
    /// one message of every front end for it.
    #[error(
        "bad game \"{}\": {reason}; write NAME, NAME:M:N or NAME:M:N:RULES (M pits per side and \
         N seeds per pit, whole numbers), e.g. kalah:6:4; the games: {forms}",
        clip(text)
    )]
    BadGame {
        /// The name as given.
        text: String,
        /// What is wrong with it.
        reason: String,
        /// Every game's form of its name (`kalah:M:N[:RULES] (RULES: ...),
        /// awari:M:N, ...`).
        forms: String,
    },
    /// A fault of the program, not of its input or its data: a bug (a
    /// check that should have held) or a worker thread that failed. Exit
    /// code 1, HTTP 500.
    #[error("internal error: {0} (a fault of this program, not of its input: please report it)")]
    Internal(String),
    /// An agent spec that names no agent.
    #[error(
        "bad agent \"{}\": unknown agent \"{}\"; agents: {agents}",
        clip(spec),
        clip(name)
    )]
    UnknownAgent {
        /// The spec as given.
        spec: String,
        /// The name it begins with.
        name: String,
        /// Every agent's name, comma-separated.
        agents: String,
    },
    /// A move line could not be applied.
    #[error("bad move line \"{}\" at character {at}: {reason}", clip_around(line, *at))]
    BadMoves {
        /// The whole line.
        line: String,
        /// 1-based place of the offending character.
        at: usize,
        /// What is wrong.
        reason: String,
    },
    /// A rule set named for a game that has only its own rules.
    #[error("{rules} is a Kalah rule set; {game} has its own rules")]
    RulesNotFor {
        /// The rule set named.
        rules: String,
        /// The game.
        game: String,
    },
    /// An unknown rule-set name.
    #[error("unknown rules \"{0}\": use default, capture-needs-opposite or end-when-mover-empty")]
    UnknownRules(String),
    /// A rule-set name that is not one of a (non-Kalah) game's readings.
    #[error("unknown rules \"{rules}\" for {game}: use {names}")]
    UnknownReading {
        /// The rule set named.
        rules: String,
        /// The game.
        game: String,
        /// Its rule sets, comma-separated.
        names: String,
    },
    /// A table needed for the job is not on disk.
    #[error("missing table {path}")]
    MissingTable {
        /// Where the table was looked for.
        path: PathBuf,
        /// Which table it is (enough to name the command that builds it).
        table: TableLabel,
    },
    /// A table file exists but cannot be used.
    #[error("table {path} is unusable: {reason}")]
    BadTable {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
        /// Which table it should have been.
        table: TableLabel,
    },
    /// Tables a job needs are missing, and building them is beyond this
    /// machine (memory over the budget, or more than the builder indexes).
    #[error("the tables for {} seeds are not in {} and are beyond this machine: {reason}", table.seeds, dir.display())]
    BeyondTables {
        /// The table directory.
        dir: PathBuf,
        /// The largest table needed.
        table: TableLabel,
        /// Why they cannot be built here, with the sizes.
        reason: String,
    },
    /// Tables a job needs are missing, and building them is more than its
    /// caller lets it build on demand (the table set's on-demand limit):
    /// nothing was built.
    #[error(
        "the {}-pit {} tables up to {} seeds are not all in {}, and building them ({entries} {unit}, \
         about {} of disk and {} of memory) is more than is built on demand (up to {limit} {unit})",
        table.pits,
        table.game,
        table.seeds,
        dir.display(),
        gib(*disk_bytes),
        gib(*memory_bytes)
    )]
    BuildTooLarge {
        /// The table directory.
        dir: PathBuf,
        /// The largest table needed.
        table: TableLabel,
        /// Entries of the missing tables, in all.
        entries: u64,
        /// What an entry is called (`positions`, `boards`).
        unit: &'static str,
        /// Their estimated size on disk, in bytes.
        disk_bytes: u64,
        /// The build's estimated peak memory, in bytes.
        memory_bytes: u64,
        /// The most entries the caller builds on demand.
        limit: u64,
    },
    /// Tables were given for other rules (or another board width) than the
    /// position or game asked about.
    #[error("the tables in {dir} are for {found}, not for {asked}")]
    WrongTables {
        /// The table directory.
        dir: PathBuf,
        /// What was asked for (`kalah under capture-needs-opposite rules, 6 pits`).
        asked: String,
        /// What the tables are for.
        found: String,
    },
    /// The job would need more memory than allowed or available.
    #[error("{message}")]
    Memory {
        /// What needs the memory, how much, and why it cannot have it.
        message: String,
        /// Which setting decides it.
        kind: MemoryUse,
    },
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
        reason: crate::moves::PlayError,
    },
    /// An input file (the course assignment's `input.txt`) is malformed.
    #[error("{}{}: {reason}", path.display(), if *line > 0 { format!(", line {line}") } else { String::new() })]
    BadInputFile {
        /// The file.
        path: PathBuf,
        /// The line at fault, from 1 (0: the whole file, no one line).
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// A network weights file (the A3C agent's) cannot be used: not a
    /// weights file, corrupt, truncated, for other layer sizes or another
    /// game, or holding values that are not finite numbers.
    #[error("weights file {path} is unusable: {reason}")]
    BadWeights {
        /// The file (`<built-in>` for the weights compiled into the binary).
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// A checkpoint file of a solve cannot be used: not a checkpoint,
    /// damaged (checksum, truncated, undecodable) or of another version.
    #[error("checkpoint {path} is unusable: {reason}")]
    BadCheckpoint {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// A checkpoint was made for another solve (position, rules, board
    /// width or tables) than the one asked to resume it.
    #[error("the checkpoint was made for {saved}, not {asked}")]
    WrongCheckpoint {
        /// What the checkpoint is for.
        saved: String,
        /// What the solve asked for.
        asked: String,
    },
    /// A proof ledger cannot be used: a line damaged or edited (its
    /// checksum), unreadable, of another format, or not about its board.
    #[error("proof ledger {}{}: {reason}", path.display(), if *line > 0 { format!(", line {line}") } else { String::new() })]
    BadLedger {
        /// The file.
        path: PathBuf,
        /// The line at fault, from 1 (0: the whole file).
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// An opening book cannot be used: damaged (its checksum), of another
    /// format, or not about its own board.
    #[error("opening book {what}: {reason}")]
    BadBook {
        /// The file (or the embedded book's name).
        what: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A proof ledger was made for another root position or rule set.
    #[error("proof ledger {} is about {saved}, not {asked}", path.display())]
    WrongLedger {
        /// The file.
        path: PathBuf,
        /// What the ledger is about.
        saved: String,
        /// What was asked.
        asked: String,
    },
    /// A file the tool reads is not a regular file: a directory, a named
    /// pipe, a socket or a device (reading one could block or never end).
    #[error("{} is {kind}, not a regular file: give the path of a file", path.display())]
    NotAFile {
        /// The path given.
        path: PathBuf,
        /// What it is instead (`a named pipe`).
        kind: &'static str,
    },
    /// A directory the tool writes into (a table directory, an output
    /// directory) is, or lies under, something that is not a directory.
    #[error("{} is {kind}, not a folder: give the path of a folder, or of one to create", path.display())]
    NotADirectory {
        /// The path that is not a directory (the one given, or the part of
        /// it that is a file).
        path: PathBuf,
        /// What it is instead (`a file`).
        kind: &'static str,
    },
    /// A file the tool reads is larger than any file of its kind can be.
    #[error("{} is larger than {max} bytes, more than {what} can be: give the right file", path.display())]
    FileTooLarge {
        /// The file.
        path: PathBuf,
        /// The most bytes a file of its kind holds.
        max: u64,
        /// What the file should have been (`an assignment input`).
        what: &'static str,
    },
    /// A setting of a job (the tuner's population, ...) outside its range.
    #[error("{setting} {value}: {expected}")]
    BadSetting {
        /// The setting, by the library's name of it (`population`).
        setting: &'static str,
        /// The value given.
        value: String,
        /// What to give instead.
        expected: String,
    },
    /// A saved run of the tuner cannot be resumed: not a saved run, damaged
    /// (its checksum) or inconsistent (fields that contradict each other or
    /// their ranges).
    #[error("saved tuning run{} is unusable: {reason}", path.as_ref().map(|p| format!(" {}", p.display())).unwrap_or_default())]
    BadTuneState {
        /// The file (none for a state given in memory).
        path: Option<PathBuf>,
        /// What is wrong with it.
        reason: String,
    },
    /// A saved tuning run was made with other settings than the run asked
    /// to resume it.
    #[error("the saved run was made with other settings: {}", differences.iter().map(|(k, saved, asked)| format!("{k} {saved} (asked: {asked})")).collect::<Vec<_>>().join(", "))]
    WrongTuneState {
        /// Each setting that differs: its name (as in the saved run's
        /// settings), the saved value, the value asked for.
        differences: Vec<(String, String, String)>,
    },
    /// A traverse log of the course assignment would be larger than the
    /// limit its caller set.
    #[error("{}", if *estimated {
        format!("the traverse log would take about {bytes} bytes (estimated), more than the limit of {max} bytes: lower the cut-off depth")
    } else {
        format!("the traverse log reached its limit of {max} bytes before the search ended: lower the cut-off depth")
    })]
    LogTooLarge {
        /// Its estimated size, or the limit when the writing reached it.
        bytes: u64,
        /// The limit.
        max: u64,
        /// Whether `bytes` is an estimate made before writing (else the
        /// writing reached the limit).
        estimated: bool,
    },
    /// Work stopped before it finished because its caller raised the flag
    /// it polls (a stop flag of the work's options); names the work.
    #[error("{0}: stopped before it finished")]
    Stopped(String),
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
    /// than from data on disk, the machine or a fault of the program
    /// ([`Error::Internal`]; exit code 1).
    pub fn is_usage(&self) -> bool {
        matches!(
            self,
            Error::BadPosition { .. }
                | Error::Unsupported(_)
                | Error::OutOfRange(_)
                | Error::Conflict(_)
                | Error::NoTables { .. }
                | Error::UnknownGame { .. }
                | Error::BadGame { .. }
                | Error::UnknownAgent { .. }
                | Error::BadMoves { .. }
                | Error::UnknownRules(_)
                | Error::UnknownReading { .. }
                | Error::RulesNotFor { .. }
                | Error::BadInputFile { .. }
                | Error::NotAFile { .. }
                | Error::NotADirectory { .. }
                | Error::FileTooLarge { .. }
                | Error::BadSetting { .. }
                | Error::WrongTuneState { .. }
                | Error::LogTooLarge { .. }
        )
    }

    /// Whether an oracle's caller is to change the request (bad input, or
    /// a position beyond what this oracle can value), rather than the
    /// oracle's data or machine being at fault: the HTTP API's 400 against
    /// 500, which every front end of the oracle answers alike (the server,
    /// the browser build).
    pub fn is_callers(&self) -> bool {
        self.is_usage()
            || matches!(
                self,
                Error::BeyondTables { .. } | Error::BuildTooLarge { .. }
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

/// Which table an error is about, as plain data: enough for a front end to
/// name the command that builds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableLabel {
    /// The game's name (`kalah`, `awari`, `oware`).
    pub game: &'static str,
    /// The rule set's name when the game has several and it is not the
    /// default (`capture-needs-opposite`).
    pub rules: Option<&'static str>,
    /// Pits per side.
    pub pits: usize,
    /// Seeds of the table.
    pub seeds: usize,
}

/// What a [`Error::Memory`] is about, so that a front end can name the
/// setting that changes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemoryUse {
    /// A table build, against its memory budget.
    Build,
    /// A transposition table of the solver.
    TranspositionTable,
    /// Tables decoded into memory for the solver.
    TablesInMemory,
    /// The store (visited set and frontiers) of a game graph, against its
    /// memory budget.
    GameGraph,
    /// A game graph, against the limit on its positions its caller set.
    GraphPositions,
}

/// The library's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// A byte count in GiB with one decimal (`16.8 GiB`), or in MiB below
/// one GiB, for messages.
pub fn gib(bytes: u64) -> String {
    if bytes >= 1 << 30 {
        format!("{:.1} GiB", bytes as f64 / (1u64 << 30) as f64)
    } else {
        format!("{:.1} MiB", bytes as f64 / (1u64 << 20) as f64)
    }
}

/// Longest user text an error message quotes whole, in characters.
pub const QUOTE_MAX: usize = 80;

/// `text` as an error message quotes it: whole when short, else its
/// start and its length, so that a pasted megabyte does not fill the
/// terminal.
pub fn clip(text: &str) -> String {
    clip_around(text, 1)
}

/// `text` quoted around its 1-based character `at`: whole when short,
/// else about [`QUOTE_MAX`] characters around `at`, with its length.
/// Characters that cannot be seen (control characters but spaces, tabs
/// and line breaks; a byte-order mark, zero-width spaces and joiners,
/// direction marks) are named instead (`<U+FEFF>`), so that a message
/// never blames text that looks right.
pub fn clip_around(text: &str, at: usize) -> String {
    let n = text.chars().count();
    if n <= QUOTE_MAX {
        return visible(text.chars());
    }
    let window = QUOTE_MAX * 3 / 4;
    let from = at.saturating_sub(1 + window / 2).min(n - window);
    let shown = visible(text.chars().skip(from).take(window));
    format!(
        "{}{shown}{} ({n} characters in all)",
        if from > 0 { "..." } else { "" },
        if from + window < n { "..." } else { "" }
    )
}

/// The characters, each invisible one named as `<U+XXXX>`.
fn visible(chars: impl Iterator<Item = char>) -> String {
    let mut out = String::new();
    for c in chars {
        let invisible = (c.is_control() && !c.is_whitespace())
            || matches!(
                c,
                '\u{00ad}'
                    | '\u{061c}'
                    | '\u{180e}'
                    | '\u{200b}'..='\u{200f}'
                    | '\u{202a}'..='\u{202e}'
                    | '\u{2060}'..='\u{2064}'
                    | '\u{2066}'..='\u{206f}'
                    | '\u{feff}'
            );
        if invisible {
            out.push_str(&format!("<U+{:04X}>", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fault of the program is neither the user's (exit 2) nor the
    /// caller's to change (HTTP 400), and says it is one.
    #[test]
    fn an_internal_error_is_not_the_callers() {
        let e = Error::Internal("the search thread failed".into());
        assert!(!e.is_usage());
        assert!(!e.is_callers());
        let text = e.to_string();
        assert!(
            text.starts_with("internal error: the search thread failed"),
            "{text}"
        );
        assert!(text.contains("please report it"), "{text}");
    }

    /// The typed kinds of bad input are usage errors, with their words.
    #[test]
    fn the_typed_usage_errors_are_usage_errors() {
        let cases = [
            (
                Error::OutOfRange("9 pits per side: 1 to 6".into()),
                "9 pits per side",
            ),
            (Error::Conflict("give one".into()), "give one"),
            (
                Error::NoTables {
                    game: "awale".into(),
                    at: None,
                    reason: "why".into(),
                },
                "awale has no endgame tables: why",
            ),
            (
                Error::NoTables {
                    game: "kalah:7:4".into(),
                    at: Some(7),
                    reason: "why".into(),
                },
                "kalah:7:4 has no endgame tables at 7 pits a side: why",
            ),
            (
                Error::UnknownGame {
                    name: "chess".into(),
                    games: "kalah, awari".into(),
                },
                "unknown game \"chess\": the games are kalah, awari",
            ),
            (
                Error::BadGame {
                    text: "kalah:x".into(),
                    reason: "pits per side \"x\" is not a whole number".into(),
                    forms: "kalah:M:N[:RULES]".into(),
                },
                "bad game \"kalah:x\": pits per side \"x\" is not a whole number; write NAME",
            ),
        ];
        for (e, words) in cases {
            assert!(e.is_usage(), "{e}");
            assert!(e.is_callers(), "{e}");
            assert!(e.to_string().contains(words), "{e}");
        }
    }
}
