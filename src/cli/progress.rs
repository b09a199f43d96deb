//! Rendering the library's progress events on stderr: progress bars when
//! stderr is a terminal, otherwise a plain line at most every few seconds
//! (a redirected stderr gets no carriage returns and no bar redraws).

use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use mancala_solver::progress::{Event, Observer, Progress};

use super::render::human_bytes;

/// Seconds between two plain progress lines when stderr is not a terminal,
/// unless `MANCALA_PROGRESS_SECONDS` says otherwise.
const PLAIN_EVERY: Duration = Duration::from_secs(5);

/// The interval between plain progress lines: `MANCALA_PROGRESS_SECONDS`
/// (seconds, fractions allowed; 0 prints every step) or [`PLAIN_EVERY`].
fn plain_every() -> Duration {
    let Ok(text) = std::env::var("MANCALA_PROGRESS_SECONDS") else {
        return PLAIN_EVERY;
    };
    match text.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && s >= 0.0 => Duration::from_secs_f64(s),
        _ => {
            eprintln!(
                "warning: MANCALA_PROGRESS_SECONDS={text:?} is not a number of seconds; \
                 progress lines every {} s",
                PLAIN_EVERY.as_secs()
            );
            PLAIN_EVERY
        }
    }
}

/// The observer the commands hand to the library. With `quiet` only what
/// the user must know (tables built on first use, tables rebuilt) is shown.
pub fn observer(quiet: bool) -> Observer {
    Observer::new(Renderer::new(std::io::stderr().is_terminal(), quiet))
}

/// Renders events on stderr.
pub struct Renderer {
    tty: bool,
    quiet: bool,
    /// Time between two plain progress lines.
    every: Duration,
    state: Mutex<State>,
}

struct State {
    bar: Option<ProgressBar>,
    stage: String,
    total: Option<u64>,
    done: u64,
    phase: String,
    last_line: Instant,
    /// The `done` of the last plain line of this stage, if one was printed:
    /// the stage's end then prints its final count, so that the last line
    /// a log shows is not a stage left at 86%.
    plain_shown: Option<u64>,
    /// A `\r` status line is on the terminal and needs a newline.
    status_open: bool,
}

impl Renderer {
    /// A renderer drawing bars (`tty`) or plain lines; `quiet` shows only
    /// the notices.
    pub fn new(tty: bool, quiet: bool) -> Renderer {
        Renderer {
            tty,
            quiet,
            every: if tty { PLAIN_EVERY } else { plain_every() },
            state: Mutex::new(State {
                bar: None,
                stage: String::new(),
                total: None,
                done: 0,
                phase: String::new(),
                last_line: Instant::now(),
                plain_shown: None,
                status_open: false,
            }),
        }
    }

    fn bar(stage: &str, total: Option<u64>) -> ProgressBar {
        let bar = ProgressBar::with_draw_target(total, ProgressDrawTarget::stderr());
        let template = match total {
            Some(_) => "{prefix} [{bar:40}] {percent:>3}% {human_pos}/{human_len} {msg} ETA {eta}",
            None => "{spinner} {prefix}: {human_pos} {msg} [{elapsed}]",
        };
        bar.set_style(
            ProgressStyle::with_template(template)
                .expect("valid template")
                .progress_chars("=> "),
        );
        if total.is_none() {
            bar.enable_steady_tick(Duration::from_millis(200));
        }
        bar.set_prefix(stage.to_string());
        bar
    }

    fn plain_line(s: &State) -> String {
        let mut line = format!("{}: {}", s.stage, s.done);
        if let Some(t) = s.total {
            line.push_str(&format!(
                "/{t} ({:.0}%)",
                100.0 * s.done as f64 / t.max(1) as f64
            ));
        }
        if !s.phase.is_empty() {
            line.push_str(&format!(", {}", s.phase));
        }
        line
    }

    fn close_status(&self, s: &mut State) {
        if s.status_open {
            eprintln!();
            s.status_open = false;
        }
    }
}

impl Progress for Renderer {
    fn event(&self, event: &Event<'_>) {
        if self.quiet
            && !matches!(
                event,
                Event::BuildingMissing { .. }
                    | Event::Rebuilding { .. }
                    | Event::WaitingForTable { .. }
                    | Event::CheckpointFailed { .. }
            )
        {
            return;
        }
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if !matches!(event, Event::Search { .. }) {
            self.close_status(&mut s);
        }
        match *event {
            Event::Start { stage, total } => {
                s.stage = stage.to_string();
                s.total = total;
                s.done = 0;
                s.phase.clear();
                s.last_line = Instant::now();
                s.plain_shown = None;
                if self.tty {
                    s.bar = Some(Renderer::bar(stage, total));
                }
            }
            Event::Advance { done } => {
                // Workers report out of order: the count only grows.
                s.done = s.done.max(done);
                if let Some(bar) = &s.bar {
                    bar.set_position(done);
                } else if !self.tty && s.last_line.elapsed() >= self.every {
                    s.last_line = Instant::now();
                    s.plain_shown = Some(done);
                    eprintln!("{}", Renderer::plain_line(&s));
                }
            }
            Event::Phase { what } => {
                s.phase = what.to_string();
                if let Some(bar) = &s.bar {
                    bar.set_message(what.to_string());
                }
            }
            Event::Finish => {
                if let Some(bar) = s.bar.take() {
                    bar.finish_and_clear();
                }
                // A plain log that showed the stage going shows where it ended.
                if s.plain_shown.is_some_and(|shown| shown != s.done) {
                    eprintln!("{}", Renderer::plain_line(&s));
                }
                s.plain_shown = None;
            }
            Event::BuildPlan {
                title,
                dir,
                peak_memory,
                memory_budget,
                threads,
            } => eprintln!(
                "building {title} in {}: peak memory about {} (budget {}), {threads} threads",
                dir.display(),
                human_bytes(peak_memory),
                human_bytes(memory_budget),
            ),
            Event::WaitingForTable { path } => eprintln!(
                "another process is building {}; waiting for it to finish",
                path.display()
            ),
            Event::CheckpointSaved {
                reason,
                entries,
                bytes,
                snapshot_seconds,
                write_seconds,
            } => eprintln!(
                "checkpoint saved ({reason}): {entries} transposition entries, {}; \
                 snapshot {snapshot_seconds:.2} s, compress and write {write_seconds:.2} s",
                human_bytes(bytes)
            ),
            Event::CheckpointFailed { error } => {
                eprintln!("warning: checkpoint not saved: {error}")
            }
            Event::Rebuilding { error } => {
                eprintln!("{error}\n  -> rebuilding it")
            }
            Event::TableBuilt {
                seeds,
                entries,
                unit,
                seconds,
                bytes,
            } if entries == 0 => eprintln!(
                // No rate and no bits per position for a table of none.
                "k={seeds:>2}: {entries:>13} {unit} in {seconds:7.2} s, {} (header only: nothing to store)",
                human_bytes(bytes)
            ),
            Event::TableBuilt {
                seeds,
                entries,
                unit,
                seconds,
                bytes,
            } => eprintln!(
                "k={seeds:>2}: {entries:>13} {unit} in {seconds:7.2} s ({:6.2} M/s), {}, {:.2} bits each",
                entries as f64 / seconds.max(1e-9) / 1e6,
                human_bytes(bytes),
                bytes as f64 * 8.0 / entries as f64
            ),
            Event::BuildingMissing {
                game,
                pits,
                seeds,
                entries,
                unit,
                dir,
            } => eprintln!(
                "building the {pits}-pit {game} endgame tables up to {seeds} seeds in {} \
                 (first use; {entries} {unit}, kept for later)",
                dir.display()
            ),
            Event::Search {
                seconds,
                depth,
                lower,
                upper,
                nodes,
                rate,
            } => {
                let depth = depth.map_or("full".to_string(), |d| d.to_string());
                let line = format!(
                    "[{seconds:>7.1} s] MTD(f) depth {depth}: value in [{lower}, {upper}], {nodes} nodes, {:.2} M nodes/s",
                    rate / 1e6
                );
                if self.tty {
                    eprint!("\r{line}   ");
                    s.status_open = true;
                } else if s.last_line.elapsed() >= self.every {
                    s.last_line = Instant::now();
                    eprintln!("{line}");
                }
            }
            _ => {}
        }
    }
}

/// End an open status line (after a solve returns).
pub fn end_status(observer: &Observer) {
    observer.event(&Event::Finish);
}
