//! Plain reference solvers for Ohvalhu and Vai Lung Thlan, written from the
//! rules for the tests: they share nothing with the library (their own
//! sowing, their own recursion or fixpoint), and are slow.

use std::collections::HashMap;

/// Ohvalhu: the value of the seeds in play (mover minus opponent, stores
/// apart) of a board `(mover row, opponent row)`, by memoised recursion
/// (no position repeats).
pub struct OhvalhuReference {
    memo: HashMap<(Vec<u8>, Vec<u8>), i32>,
}

impl OhvalhuReference {
    pub fn new() -> Self {
        OhvalhuReference {
            memo: HashMap::new(),
        }
    }

    pub fn value(&mut self, mover: &[u8], opponent: &[u8]) -> i32 {
        let sum = |r: &[u8]| r.iter().map(|&c| c as i32).sum::<i32>();
        if sum(mover) == 0 {
            return -sum(opponent);
        }
        let key = (mover.to_vec(), opponent.to_vec());
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let m = mover.len();
        let mut best = i32::MIN;
        for pit in 0..m {
            if mover[pit] == 0 {
                continue;
            }
            // The ring: the mover's pits, its store, the opponent's pits.
            let mut b: Vec<u8> = mover.to_vec();
            b.push(0);
            b.extend_from_slice(opponent);
            let len = b.len();
            let mut hand = b[pit];
            b[pit] = 0;
            let mut i = pit;
            let extra;
            loop {
                while hand > 0 {
                    i = (i + 1) % len;
                    b[i] += 1;
                    hand -= 1;
                }
                if i == m {
                    extra = true;
                    break;
                }
                if b[i] > 1 {
                    hand = b[i];
                    b[i] = 0;
                    continue;
                }
                if i < m {
                    let across = m + 1 + (m - 1 - i);
                    if b[across] > 0 {
                        b[m] += b[across] + 1;
                        b[across] = 0;
                        b[i] = 0;
                    }
                }
                extra = false;
                break;
            }
            let gained = b[m] as i32;
            let (own, theirs) = (b[..m].to_vec(), b[m + 1..].to_vec());
            let v = if extra {
                if sum(&own) == 0 {
                    gained - sum(&theirs)
                } else {
                    gained + self.value(&own, &theirs)
                }
            } else if sum(&theirs) == 0 {
                gained + sum(&own)
            } else {
                gained - self.value(&theirs, &own)
            };
            best = best.max(v);
        }
        self.memo.insert(key, best);
        best
    }
}

/// Vai Lung Thlan: the value of every board (the `2m` pits from the side
/// to move) of up to `max_seeds` seeds, play going on to the empty board,
/// endless play worth 0. A mover with no seed passes (a move to the other
/// side's view). Computed one seed count at a time, threshold by
/// threshold, by plain sweeps until nothing changes.
pub fn vai_lung_thlan_values(m: usize, max_seeds: usize) -> HashMap<Vec<u8>, i32> {
    let mut values: HashMap<Vec<u8>, i32> = HashMap::new();
    values.insert(vec![0; 2 * m], 0);
    let swap = |b: &[u8]| -> Vec<u8> { b[m..].iter().chain(&b[..m]).copied().collect() };
    for s in 1..=max_seeds {
        let boards = boards_with(2 * m, s);
        // Each board's moves: an exit (its value) or a quiet move (the
        // child's index, the child seen by the opponent).
        let index: HashMap<Vec<u8>, usize> = boards
            .iter()
            .enumerate()
            .map(|(i, b)| (b.clone(), i))
            .collect();
        let moves: Vec<Vec<Result<i32, usize>>> = boards
            .iter()
            .map(|b| {
                if b[..m].iter().all(|&c| c == 0) {
                    return vec![Err(index[&swap(b)])];
                }
                (0..m)
                    .filter(|&p| b[p] > 0)
                    .map(|p| {
                        let (after, c) = sow(b, p);
                        let child = swap(&after);
                        if c > 0 {
                            Ok(c as i32 - values[&child])
                        } else {
                            Err(index[&child])
                        }
                    })
                    .collect()
            })
            .collect();
        let mut value = vec![0i32; boards.len()];
        for t in 1..=s as i32 {
            // 1: the mover forces >= t; 2: the opponent forces <= -t.
            let mut status = vec![0u8; boards.len()];
            loop {
                let mut changed = false;
                for i in 0..boards.len() {
                    if status[i] != 0 {
                        continue;
                    }
                    let good = moves[i].iter().any(|mv| match *mv {
                        Ok(e) => e >= t,
                        Err(c) => status[c] == 2,
                    });
                    let bad = moves[i].iter().all(|mv| match *mv {
                        Ok(e) => e <= -t,
                        Err(c) => status[c] == 1,
                    });
                    if good || bad {
                        status[i] = if good { 1 } else { 2 };
                        changed = true;
                    }
                }
                if !changed {
                    break;
                }
            }
            for i in 0..boards.len() {
                match status[i] {
                    1 => value[i] = t,
                    2 => value[i] = -t,
                    _ => {}
                }
            }
        }
        for (b, v) in boards.into_iter().zip(value) {
            values.insert(b, v);
        }
    }
    values
}

/// Sow pit `p` of board `b` over every pit, origin not skipped; capture the
/// last seed if it fell into an empty pit, and the single seeds behind it.
fn sow(b: &[u8], p: usize) -> (Vec<u8>, u8) {
    let n = b.len();
    let mut r = b.to_vec();
    let mut hand = r[p];
    r[p] = 0;
    let mut i = p;
    while hand > 0 {
        i = (i + 1) % n;
        r[i] += 1;
        hand -= 1;
    }
    if r[i] != 1 {
        return (r, 0);
    }
    let start = i;
    let mut c = 0;
    loop {
        if r[i] != 1 {
            break;
        }
        r[i] = 0;
        c += 1;
        i = (i + n - 1) % n;
        if i == start {
            break;
        }
    }
    (r, c)
}

/// Every board of `cells` pits holding `seeds` seeds in all.
pub fn boards_with(cells: usize, seeds: usize) -> Vec<Vec<u8>> {
    if cells == 1 {
        return vec![vec![seeds as u8]];
    }
    let mut out = Vec::new();
    for first in 0..=seeds {
        for mut rest in boards_with(cells - 1, seeds - first) {
            rest.insert(0, first as u8);
            out.push(rest);
        }
    }
    out
}
