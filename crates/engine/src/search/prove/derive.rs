//! What a ledger proves: the bounds of every position it reaches, by the
//! one rule of the module's documentation ("What a ledger proves"), and
//! the answers, open tasks and next questions that follow from them.

use std::collections::{HashMap, HashSet, VecDeque};

use super::{canonical, children, Entry, Fault, Ledger, Question};
use crate::kalah::position::Position;
use crate::kalah::rules::KalahRules;

/// The positions within `turns` turns of `root`, each with the fewest
/// turns that reach it: the root (0), and the positions that the moves of
/// a position of fewer than `turns` turns lead to (one turn more where the
/// turn passes, the same after an extra move). A position of `turns`
/// turns ends the book (its moves are the next turn's). Empty for 0 turns.
pub(crate) fn book_positions(
    root: &Position,
    rules: KalahRules,
    turns: u32,
) -> HashMap<String, u32> {
    let mut out = HashMap::new();
    if turns == 0 {
        return out;
    }
    // Breadth first by turns: a position met again at more turns keeps
    // its fewest (0-1 weights: extra moves cost nothing, so those go to the
    // front of the queue).
    let mut queue = VecDeque::from([(*root, 0u32)]);
    while let Some((pos, t)) = queue.pop_front() {
        let key = pos.to_string();
        if out.get(&key).is_some_and(|&seen| seen <= t) {
            continue;
        }
        out.insert(key, t);
        // A position of the last turn ends the book: its moves are the
        // next turn's.
        if t == turns || pos.is_game_over(rules) {
            continue;
        }
        for pit in pos.legal_moves(rules).collect::<Vec<_>>() {
            let mut c = pos;
            if c.play(pit, rules).is_err() {
                continue;
            }
            if c.to_move() == pos.to_move() {
                queue.push_front((c, t));
            } else {
                queue.push_back((c, t + 1));
            }
        }
    }
    out
}

/// The positions of `root`'s own turn ([`Position::turn`]): the root and
/// those its extra moves reach while the same player is to move.
pub(super) fn root_turn(root: &Position, rules: KalahRules) -> HashSet<String> {
    root.turn(rules)
        .into_iter()
        .map(|(p, _)| p.to_string())
        .collect()
}

impl Ledger {
    /// Whether the ledger derives `key`'s bounds from its moves' too: the
    /// root and the positions of its turn, a split position, a book
    /// position short of the book's last turn.
    fn expanded(&self, key: &str) -> bool {
        key == self.root_key
            || self.split_lines.contains_key(key)
            || self.root_turn.contains(key)
            || self
                .book
                .get(key)
                .is_some_and(|&t| t < self.header.book_turns)
    }

    /// Derive the bounds of every reached position, and refuse the ledger
    /// if some position's come out empty or some line is about a position
    /// it does not reach.
    pub(crate) fn check(&mut self) -> std::result::Result<(), Fault> {
        let mut memo = HashMap::new();
        let root = self.root;
        self.derive(&root, root.to_string(), &mut memo)?;
        let mut unreached: Vec<usize> = Vec::new();
        for (key, lines) in self.proofs.iter().chain(self.split_lines.iter()) {
            if !memo.contains_key(key) {
                unreached.extend(lines);
            }
        }
        if !unreached.is_empty() {
            unreached.sort_unstable();
            let first = self.entries[unreached[0]]
                .question()
                .map_or(String::new(), |q| q.position.clone());
            return Err(Fault {
                lines: unreached,
                reason: format!(
                    "\"{first}\" is not a position of this proof: no line of play from the root \
                     through the ledger's split (or book) positions reaches it"
                ),
            });
        }
        self.derived = memo;
        Ok(())
    }

    /// The bounds of `pos` (canonical text `key`), memoised.
    fn derive(
        &self,
        pos: &Position,
        key: String,
        memo: &mut HashMap<String, (i32, i32)>,
    ) -> std::result::Result<(i32, i32), Fault> {
        if let Some(&b) = memo.get(&key) {
            return Ok(b);
        }
        if pos.is_game_over(self.rules) {
            let v = pos.final_difference();
            memo.insert(key, (v, v));
            return Ok((v, v));
        }
        let s = self.seeds;
        let (mut lo, mut hi) = (-s, s);
        let proofs = self.proofs.get(&key).map_or(&[][..], |v| &v[..]);
        for &i in proofs {
            if let Entry::Proof(p) = &self.entries[i] {
                lo = lo.max(p.lower);
                hi = hi.min(p.upper);
            }
        }
        let parity = |v: i32| (v - s).rem_euclid(2);
        if lo + parity(lo) > hi - parity(hi) {
            return Err(Fault {
                lines: proofs.to_vec(),
                reason: format!(
                    "the proofs of \"{key}\" contradict each other: no value of its parity \
                     lies in [{lo}, {hi}]"
                ),
            });
        }
        if self.expanded(&key) {
            let (mut clo, mut chi) = (i32::MIN, i32::MIN);
            for pit in pos.legal_moves(self.rules).collect::<Vec<_>>() {
                let mut c = *pos;
                if c.play(pit, self.rules).is_err() {
                    continue;
                }
                let ckey = c.to_string();
                let (a, b) = self.derive(&c, ckey, memo)?;
                let (a, b) = if c.to_move() != pos.to_move() {
                    (-b, -a)
                } else {
                    (a, b)
                };
                clo = clo.max(a);
                chi = chi.max(b);
            }
            let (before_lo, before_hi) = (lo, hi);
            lo = lo.max(clo);
            hi = hi.min(chi);
            if lo + parity(lo) > hi - parity(hi) {
                let mut lines = proofs.to_vec();
                lines.extend(self.split_lines.get(&key).into_iter().flatten());
                lines.sort_unstable();
                return Err(Fault {
                    lines,
                    reason: format!(
                        "\"{key}\" is proven in [{before_lo}, {before_hi}] by its own lines and in \
                         [{clo}, {chi}] by its moves' lines: they contradict each other"
                    ),
                });
            }
        }
        let b = (lo + parity(lo), hi - parity(hi));
        memo.insert(key, b);
        Ok(b)
    }

    /// The root's value bounds that follow from the ledger
    /// ([`Ledger::bounds`] of the root).
    pub fn root_bounds(&self) -> (i32, i32) {
        self.bounds(&self.header.root)
    }

    /// The value bounds of `position` (in notation, from its side to move)
    /// that follow from the ledger (the module's rule); a position the
    /// ledger does not reach has only its trivial bounds (its seeds, its
    /// parity), a finished game its final difference.
    pub fn bounds(&self, position: &str) -> (i32, i32) {
        let Ok(pos) = Position::parse(position) else {
            return (i32::MIN, i32::MAX);
        };
        if pos.is_game_over(self.rules) {
            let v = pos.final_difference();
            return (v, v);
        }
        if let Some(&b) = self.derived.get(&pos.to_string()) {
            return b;
        }
        let s: i32 = pos.cells().iter().map(|&c| i32::from(c)).sum();
        (-s, s)
    }

    /// The answer to `q` that follows from the ledger, if any.
    pub fn answer(&self, q: &Question) -> Option<bool> {
        let (lo, hi) = self.bounds(&q.position);
        if lo >= q.at_least {
            Some(true)
        } else if hi < q.at_least {
            Some(false)
        } else {
            None
        }
    }

    /// Whether some split line is about `position` (for any threshold).
    pub fn was_split(&self, position: &str) -> bool {
        canonical(position).is_ok_and(|key| self.split_lines.contains_key(&key))
    }

    /// The first split line of `q`, if it was split.
    pub(super) fn split_of(&self, q: &Question) -> Option<&super::Split> {
        let key = canonical(&q.position).ok()?;
        let i = *self.splits.get(&Question {
            position: key,
            at_least: q.at_least,
        })?;
        match &self.entries[i] {
            Entry::Split(s) => Some(s),
            _ => None,
        }
    }

    /// The questions to prove next for `q` (none when it is answered), in
    /// the order to prove them.
    pub fn pending(&self, q: &Question) -> Vec<Question> {
        let mut out = Vec::new();
        let mut seen = HashSet::new();
        self.pending_into(q, &mut out, &mut seen);
        out
    }

    fn pending_into(&self, q: &Question, out: &mut Vec<Question>, seen: &mut HashSet<Question>) {
        if !seen.insert(q.clone()) || self.answer(q).is_some() {
            return;
        }
        let Some(s) = self.split_of(q) else {
            out.push(q.clone());
            return;
        };
        let Ok(children) = children(q, self.rules) else {
            return;
        };
        for pit in &s.order {
            let Some(c) = children.iter().find(|c| c.pit == *pit) else {
                continue;
            };
            if c.over.is_some() || self.answer(&c.question).is_some() {
                continue;
            }
            self.pending_into(&c.question, out, seen);
            if s.expect {
                // One good move is enough: the next only when this fails.
                return;
            }
        }
    }

    /// The next question towards the exact value of `position`, starting
    /// from `guess` (`None` once the ledger proves the value): "at least
    /// t" with `t` the guess brought within the open bounds (`lo + 2 ..=
    /// hi`, the values' parity).
    pub fn next_value_question(&self, position: &str, guess: i32) -> Option<Question> {
        let (lo, hi) = self.bounds(position);
        if lo >= hi {
            return None;
        }
        let t = guess.clamp(lo + 2, hi);
        let t = t - (t - lo).rem_euclid(2);
        Some(Question {
            position: canonical(position).unwrap_or_else(|_| position.to_string()),
            at_least: t.max(lo + 2),
        })
    }

    /// The positions of the book (within [`super::Header::book_turns`]
    /// turns of the root), each with the fewest turns that reach it.
    pub fn book_turns_of(&self) -> Vec<(Position, u32)> {
        self.book
            .iter()
            .filter_map(|(k, &t)| Position::parse(k).ok().map(|p| (p, t)))
            .collect()
    }

    /// Every reached position whose value the ledger proves exactly, with
    /// the value.
    pub fn exact_positions(&self) -> Vec<(Position, i32)> {
        self.derived
            .iter()
            .filter(|(_, (lo, hi))| lo == hi)
            .filter_map(|(k, &(v, _))| Position::parse(k).ok().map(|p| (p, v)))
            .collect()
    }
}
