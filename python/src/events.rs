//! Progress events of long work, as the Python callback gets them (JSON
//! strings turned into dicts by `mancala_solver/__init__.py`).

use mancala_solver::progress::Event;
use serde_json::json;

/// An event of long work as JSON (`{"event": "table_built", ...}`), for
/// the Python callback.
pub(crate) fn event_json(e: &Event<'_>) -> serde_json::Value {
    match e {
        Event::Start { stage, total } => json!({"event": "start", "stage": stage, "total": total}),
        Event::Advance { done } => json!({"event": "advance", "done": done}),
        Event::Phase { what } => json!({"event": "phase", "what": what}),
        Event::Finish => json!({"event": "finish"}),
        Event::BuildPlan {
            title,
            dir,
            peak_memory,
            memory_budget,
            threads,
        } => json!({
            "event": "build_plan", "title": title, "dir": dir.display().to_string(),
            "peak_memory": peak_memory, "memory_budget": memory_budget, "threads": threads,
        }),
        Event::Rebuilding { error } => json!({"event": "rebuilding", "error": error.to_string()}),
        Event::WaitingForTable { path } => {
            json!({"event": "waiting_for_table", "path": path.display().to_string()})
        }
        Event::TableBuilt {
            seeds,
            entries,
            unit,
            seconds,
            bytes,
        } => json!({
            "event": "table_built", "seeds": seeds, "entries": entries, "unit": unit,
            "seconds": seconds, "bytes": bytes,
        }),
        Event::BuildingMissing {
            game,
            pits,
            seeds,
            entries,
            unit,
            dir,
        } => json!({
            "event": "building_missing", "game": game, "pits": pits, "seeds": seeds,
            "entries": entries, "unit": unit, "dir": dir.display().to_string(),
        }),
        Event::Search {
            seconds,
            depth,
            lower,
            upper,
            nodes,
            rate,
        } => json!({
            "event": "search", "seconds": seconds, "depth": depth, "lower": lower,
            "upper": upper, "nodes": nodes, "rate": rate,
        }),
        Event::CheckpointSaved {
            reason,
            entries,
            bytes,
            snapshot_seconds,
            write_seconds,
        } => json!({
            "event": "checkpoint_saved", "reason": reason, "entries": entries, "bytes": bytes,
            "snapshot_seconds": snapshot_seconds, "write_seconds": write_seconds,
        }),
        Event::CheckpointFailed { error } => {
            json!({"event": "checkpoint_failed", "error": error.to_string()})
        }
        _ => json!({"event": "other"}),
    }
}

/// Progress events of one call waiting for the Python callback, in order;
/// `Advance` events (sent by every worker thread, not always in order) are
/// kept as the highest count of the current stage and queued once a poll.
#[derive(Default)]
pub(crate) struct Pending {
    pub(crate) events: Vec<String>,
    pub(crate) advance: Option<u64>,
}

impl Pending {
    pub(crate) fn flush_advance(&mut self) {
        if let Some(done) = self.advance.take() {
            self.events
                .push(json!({"event": "advance", "done": done}).to_string());
        }
    }
}
