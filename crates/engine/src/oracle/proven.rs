//! What the oracle has proven, kept: a position whose analysis a search
//! proved exactly answers at once the next time, for every request. The
//! table holds at most [`PROVEN_ENTRIES`] analyses (an analysis is a few
//! hundred bytes: about 10 MB at most) and forgets the oldest first; one
//! lock, held for a look-up or an insertion only (never during a search),
//! so requests under load wait microseconds on it.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use super::analysis::Analysis;

/// Most analyses kept.
pub const PROVEN_ENTRIES: usize = 20_000;

/// Exact analyses by game and position, oldest forgotten first.
#[derive(Debug, Default)]
pub struct Proven {
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    map: HashMap<(String, String), Analysis>,
    order: VecDeque<(String, String)>,
}

impl Proven {
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The kept analysis of `position` in `game`.
    pub fn get(&self, game: &str, position: &str) -> Option<Analysis> {
        self.lock()
            .map
            .get(&(game.to_string(), position.to_string()))
            .cloned()
    }

    /// Keep `a` (an exact analysis; anything else is not kept).
    pub fn keep(&self, game: &str, a: &Analysis) {
        if !a.exact || a.moves.iter().any(|m| !m.exact) {
            return;
        }
        let key = (game.to_string(), a.position.clone());
        let mut inner = self.lock();
        if inner.map.insert(key.clone(), a.clone()).is_none() {
            inner.order.push_back(key);
        }
        while inner.order.len() > PROVEN_ENTRIES {
            if let Some(old) = inner.order.pop_front() {
                inner.map.remove(&old);
            }
        }
    }

    /// Analyses kept.
    pub fn len(&self) -> usize {
        self.lock().map.len()
    }

    /// Nothing kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
