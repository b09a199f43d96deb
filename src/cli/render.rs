//! What the command line shows people: sizes, memory sizes it reads, and
//! the library's errors with the command or option that fixes them.

use std::path::Path;

use mancala_solver::error::{Error, MemoryUse, TableLabel};

/// Parse a memory size such as `8G`, `500M`, `1.5GiB` or a plain byte count.
pub fn parse_memory(text: &str) -> std::result::Result<u64, String> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let n: f64 = num
        .parse()
        .map_err(|_| format!("\"{text}\" is not a memory size; write e.g. 8G or 500M"))?;
    let mult = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 1u64,
        "K" | "KB" | "KIB" => 1 << 10,
        "M" | "MB" | "MIB" => 1 << 20,
        "G" | "GB" | "GIB" => 1 << 30,
        "T" | "TB" | "TIB" => 1 << 40,
        _ => return Err(format!("\"{text}\": unknown unit; use K, M, G or T")),
    };
    let bytes = n * mult as f64;
    // A budget or a cut-off of nothing cannot hold anything: said here,
    // with the flag's value, not later as a build or a search that fails.
    if bytes < 1.0 {
        return Err(format!(
            "\"{text}\" is no memory at all; write a size of at least 1 byte, e.g. 8G or 500M"
        ));
    }
    // A size past MAX_MEMORY would be saturated to it, and every message
    // would then show a figure the user did not give.
    if bytes > MAX_MEMORY as f64 {
        return Err(format!(
            "\"{text}\" is too large: sizes go up to {}T (1 PiB, more than any machine \
             has); write e.g. 8G or 500M",
            MAX_MEMORY >> 40
        ));
    }
    Ok(bytes as u64)
}

/// The largest size [`parse_memory`] reads: 1 PiB, above any machine's
/// memory or disk and far below what a byte count holds.
pub const MAX_MEMORY: u64 = 1 << 50;

/// Format a byte count for people.
pub fn human_bytes(n: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = n as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{n} B")
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

/// The command that builds the table `label` (and the smaller ones) in `dir`.
pub fn build_command(label: &TableLabel, dir: &Path) -> String {
    let mut cmd = format!(
        "mancala build {} --pits {} --max-seeds {}",
        label.game, label.pits, label.seeds
    );
    if let Some(rules) = label.rules {
        cmd.push_str(&format!(" --rules {rules}"));
    }
    if dir != Path::new("db") {
        cmd.push_str(&format!(" --db {}", dir.display()));
    }
    cmd
}

/// The table directory of a table file's path.
fn dir_of(path: &Path) -> &Path {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// The exit code of a run that failed with `e`: 2 for bad usage (what was
/// typed: a bad game, position, option or agent), 1 for a failure of the
/// run or its data (tables, files, memory, a fault of the program).
pub fn exit_code(e: &Error) -> u8 {
    if e.is_usage() {
        2
    } else {
        1
    }
}

/// An error as the command line prints it: the library's message and, where
/// a command or an option fixes it, that command or option.
pub fn error_message(e: &Error) -> String {
    match e {
        // Every agent, one a line, with its form and what it plays.
        Error::UnknownAgent { spec, name, .. } if spec == name => format!(
            "unknown agent \"{}\"; agents:\n{}",
            mancala_solver::error::clip(name),
            mancala_solver::play::agents::agents_list()
        ),
        Error::UnknownAgent { spec, name, .. } => format!(
            "bad agent \"{}\": unknown agent \"{}\"; agents:\n{}",
            mancala_solver::error::clip(spec),
            mancala_solver::error::clip(name),
            mancala_solver::play::agents::agents_list()
        ),
        Error::MissingTable { table, path } => {
            format!(
                "{e}: build it with `{}`",
                build_command(table, dir_of(path))
            )
        }
        Error::BuildTooLarge { table, dir, .. } => format!(
            "{e}: build them first with `{}` (kept for later), then run this again",
            build_command(table, dir)
        ),
        Error::BadTable { table, path, .. } => format!(
            "{e}; delete it and rebuild it with `{}`",
            build_command(table, dir_of(path))
        ),
        Error::Memory { kind, .. } => {
            let hint = match kind {
                MemoryUse::Build => "build fewer seeds or raise the budget with --memory",
                MemoryUse::TranspositionTable => "ask for less (--tt-mb, --near-tt-kb)",
                MemoryUse::TablesInMemory => {
                    "serve the tables from their files instead (--table-memory-mb 0)"
                }
                MemoryUse::GameGraph => {
                    "raise the budget with --memory if the machine has the memory"
                }
                MemoryUse::GraphPositions => "raise the limit with --max-positions or leave it out",
            };
            format!("{e}: {hint}")
        }
        Error::RulesNotFor { .. } => format!("--rules {e}: leave --rules out"),
        // The library names a setting by its field; the option is the same
        // name with dashes (`random_opening`: `--random-opening`).
        Error::BadSetting {
            setting,
            value,
            expected,
        } => format!("--{} {value}: {expected}", setting.replace('_', "-")),
        Error::BadTuneState { .. } => format!("{e}; start afresh without --resume"),
        Error::WrongTuneState { differences } => {
            let options: Vec<String> = differences
                .iter()
                .map(|(key, saved, _)| format!("{} {saved}", tune_option(key)))
                .collect();
            format!(
                "{e}: give the same options ({}), or start afresh without --resume",
                options.join(" ")
            )
        }
        Error::LogTooLarge {
            bytes,
            max,
            estimated: true,
        } if bytes.saturating_add(bytes / 2) > MAX_MEMORY => format!(
            "the traverse log would take about {} (estimated), more than the limit of {} \
             and more than any disk holds: lower the cut-off depth",
            human_bytes(*bytes),
            human_bytes(*max)
        ),
        Error::LogTooLarge {
            bytes,
            max,
            estimated: true,
        } => format!(
            "the traverse log would take about {} (estimated), more than the limit of {}: \
             lower the cut-off depth, or raise the limit with --max-log-size {} if the disk \
             holds it",
            human_bytes(*bytes),
            human_bytes(*max),
            human_size_option(bytes.saturating_add(bytes / 2))
        ),
        Error::LogTooLarge { max, .. } => format!(
            "the traverse log reached the limit of {} before the search ended, and nothing \
             was written: lower the cut-off depth, or raise the limit with --max-log-size",
            human_bytes(*max)
        ),
        _ => e.to_string(),
    }
}

/// The option of `mancala tune` that sets the saved run's setting `key`.
fn tune_option(key: &str) -> String {
    match key {
        "opening" => "--random-opening".to_string(),
        key => format!("--{key}"),
    }
}

/// A byte count as a size option reads it, rounded up: `3G`, `120M`.
fn human_size_option(n: u64) -> String {
    for (unit, shift) in [("T", 40), ("G", 30), ("M", 20), ("K", 10)] {
        if n >= 1 << shift {
            return format!("{}{unit}", n.div_ceil(1 << shift));
        }
    }
    n.to_string()
}

/// Parse `--threads`: a count, 0 for all cores, at most
/// [`mancala_solver::threads::max_threads`] (checked before any work starts).
pub fn parse_threads(s: &str) -> Result<usize, String> {
    let n: usize = s
        .parse()
        .map_err(|_| format!("'{s}' is not a number of threads (0 for all cores)"))?;
    mancala_solver::threads::resolve(Some(n)).map_err(|e| e.to_string())?;
    Ok(n)
}

/// Parse a duration in seconds (`--time`): a finite number, 0 or more,
/// checked before any work starts.
pub fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(t) if t.is_finite() && (0.0..=1e9).contains(&t) => Ok(t),
        _ => Err(format!(
            "'{}' is not a time in seconds: give a number from 0 to 1e9, e.g. 2.5",
            mancala_solver::error::clip(s)
        )),
    }
}

/// Parse the path of a file to write (`--plot`, `--games-out`): its
/// directory must exist and the path must not be a directory, checked
/// before any work starts so that hours of work are not lost at the end.
pub fn parse_output_file(s: &str) -> Result<std::path::PathBuf, String> {
    let path = std::path::PathBuf::from(s);
    if s.is_empty() {
        return Err("give a file name".into());
    }
    if path.is_dir() {
        return Err(format!("{s} is a directory: give a file name"));
    }
    // Only a regular file is replaced (a named pipe, a device or a link
    // to one would be turned into a regular file).
    if let Err(e) = mancala_solver::atomic::target(&path) {
        return Err(e.to_string());
    }
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => std::path::Path::new("."),
    };
    if !parent.is_dir() {
        return Err(format!(
            "cannot write {s}: the directory {} does not exist",
            parent.display()
        ));
    }
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fault of the program (a failed search thread) is no usage error:
    /// exit 1, and the message says what it is; bad input is exit 2.
    #[test]
    fn an_internal_error_exits_1_and_bad_input_2() {
        let e = Error::Internal("a search thread failed".into());
        assert_eq!(exit_code(&e), 1);
        assert!(error_message(&e).starts_with("internal error: a search thread failed"));
        let e = Error::Conflict("the game says 4 and --pits 5: give one".into());
        assert_eq!(exit_code(&e), 2);
    }
}
