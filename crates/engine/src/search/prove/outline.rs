//! The proof tree as a ledger has it ([`Ledger::outline`]): every question
//! asked below one, what the ledger says of it, and what was spent on it;
//! the open tasks and the questions that wait their turn, which is what is
//! left of the proof.

use std::collections::{HashMap, HashSet};

use serde::Serialize;

use super::{children, Entry, Ledger, Question};

/// What the ledger says of a question in the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NodeState {
    /// Answered yes (by a proof, or by its children).
    Yes,
    /// Answered no.
    No,
    /// Split into its moves; not answered yet.
    Split,
    /// A task to run now ([`Ledger::pending`] lists it).
    Open,
    /// Not asked yet: a later candidate of a split whose side needs one
    /// good move, asked only if the candidates before it fail.
    Waiting,
}

/// One question of the tree, in depth-first order.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OutlineNode {
    /// Plies of questions above it (0: the question asked).
    pub depth: usize,
    /// The move that leads to it from its parent (pit from the mover's
    /// left; `None` at the top).
    pub pit: Option<usize>,
    /// The question.
    pub question: Question,
    /// What the ledger says of it.
    pub state: NodeState,
    /// The ledger split it into its moves (answered or not).
    pub split: bool,
    /// Nodes of the ledger's lines about this question (its proof, or the
    /// attempt that ended in its split).
    pub nodes: u64,
    /// Seconds of those lines.
    pub seconds: f64,
}

impl Ledger {
    /// The tree of questions below `q` (included), depth first, children
    /// in the order the split tries them: the answered ones with a line of
    /// their own or whose answer decides, the open tasks, and the
    /// questions waiting their turn. A question met again by another line
    /// of play is listed once, where it is first met.
    pub fn outline(&self, q: &Question) -> Vec<OutlineNode> {
        let mut spent: HashMap<&Question, (u64, f64)> = HashMap::new();
        for e in &self.entries {
            let (question, nodes, seconds) = match e {
                Entry::Proof(p) => (&p.question, p.nodes, p.seconds),
                Entry::Split(s) => (&s.question, s.nodes, s.seconds),
                Entry::Header(_) => continue,
            };
            let t = spent.entry(question).or_default();
            t.0 += nodes;
            t.1 += seconds;
        }
        let mut walk = Walk {
            ledger: self,
            spent,
            seen: HashSet::new(),
            out: Vec::new(),
        };
        walk.node(q, None, 0, false);
        walk.out
    }
}

struct Walk<'a> {
    ledger: &'a Ledger,
    spent: HashMap<&'a Question, (u64, f64)>,
    seen: HashSet<Question>,
    out: Vec<OutlineNode>,
}

impl Walk<'_> {
    fn push(&mut self, q: &Question, pit: Option<usize>, depth: usize, state: NodeState) {
        let (nodes, seconds) = self.spent.get(q).copied().unwrap_or_default();
        self.out.push(OutlineNode {
            depth,
            pit,
            question: q.clone(),
            state,
            split: self.ledger.split_of(q).is_some(),
            nodes,
            seconds,
        });
    }

    fn has_lines(&self, q: &Question) -> bool {
        self.spent.contains_key(q)
    }

    fn node(&mut self, q: &Question, pit: Option<usize>, depth: usize, waiting: bool) {
        if !self.seen.insert(q.clone()) {
            return;
        }
        let l = self.ledger;
        let answer = l.answer(q);
        let split = l.split_of(q);
        let state = match (answer, split, waiting) {
            (Some(true), ..) => NodeState::Yes,
            (Some(false), ..) => NodeState::No,
            (None, Some(_), _) => NodeState::Split,
            (None, None, true) => NodeState::Waiting,
            (None, None, false) => NodeState::Open,
        };
        self.push(q, pit, depth, state);
        let Some(s) = split else {
            return;
        };
        let Ok(kids) = children(q, l.rules) else {
            return;
        };
        let mut candidate_seen = false;
        for p in &s.order {
            let Some(c) = kids.iter().find(|c| c.pit == *p) else {
                continue;
            };
            if c.over.is_some() {
                continue;
            }
            let a = l.answer(&c.question);
            let lines = self.has_lines(&c.question);
            if answer.is_some() {
                // An answered question: its children with lines of their own.
                if lines || a.is_some() {
                    self.node(&c.question, Some(c.pit), depth + 1, false);
                }
                continue;
            }
            if !s.expect || a.is_some() || !candidate_seen {
                // Every child of a split expected to fail is a task; of one
                // expected to succeed, the first not refuted.
                candidate_seen |= s.expect && a.is_none();
                self.node(&c.question, Some(c.pit), depth + 1, false);
            } else {
                self.node(&c.question, Some(c.pit), depth + 1, !lines);
            }
        }
    }
}
