//! Building a Kalah table in groups of blocks when its one-byte shares do
//! not fit the memory budget (or an explicit group size).
//!
//! A table's positions are in blocks by the mover row's seed sum `a`. A
//! move that keeps every seed in play passes the turn with the seeds still
//! in the mover's row, so the child's mover row is the parent's opponent
//! row (sum `k - a`): the pair of blocks `{a, k - a}` is closed under
//! same-table moves, and every other child is in a smaller, finished table.
//! So the table is built pair by pair (small pairs combined up to the
//! limit), each group with only its own shares in memory. Each finished
//! group is written to a partial file ([`crate::tables::partial`]); when
//! every group is done, the table file is assembled from them, streaming,
//! byte for byte the file a build in one piece writes, and the partial
//! files are removed. A stopped build resumes group by group: the partial
//! files found and checked are kept, a damaged one is built again.

use std::path::Path;

use crate::error::{Error, MemoryUse, Result};
use crate::family::Rules;
use crate::kalah::build::{build_blocks, build_layer, decode_below};
use crate::kalah::rules::KalahRules;
use crate::progress::{Event, Observer};
use crate::tablebase::TableSet;
use crate::tables::driver::{remove_partials, BuildLimits};
use crate::tables::partial::{join_sums, partial_groups, write_partial, Partial};
use crate::tables::{write_table, TableSpec, TableWriter, WriteInfo};

/// Memory not counted elsewhere: the thread pool, the row lists, buffers.
const OVERHEAD: u64 = 64 << 20;

/// How one table is built: its groups of mover sums (one group holding
/// every sum: in one piece), how many of the smaller tables are decoded
/// into memory, and the estimated peak memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TablePlan {
    /// The groups of mover sums, each in increasing order, built in this
    /// order.
    pub groups: Vec<Vec<usize>>,
    /// The largest smaller tables decoded into memory for the build (0 to
    /// 2: tables k-1 and k-2 hold most children).
    pub decoded: usize,
    /// Estimated peak memory in bytes while this table is built.
    pub peak: u64,
}

/// Most smaller tables decoded into memory.
const DECODED: usize = 2;

/// Bytes of table `k` (`n` positions) decoded into memory: the fewest bits
/// that hold a share up to `k`, per position.
fn decoded_bytes(n: u64, k: usize) -> u64 {
    let bits = 64 - (k.max(1) as u64).leading_zeros() as u64;
    n.div_ceil(512) * 64 * bits + 8
}

fn spec(rules: KalahRules, pits: usize, k: usize) -> TableSpec {
    TableSpec {
        game: Rules::Kalah(rules),
        pits,
        seeds: k,
    }
}

/// Estimated bytes of a finished table of `n` positions (at most 5 bits a
/// position, and the chunk directory), mapped while larger tables are built.
fn packed_estimate(n: u64) -> u64 {
    n * 5 / 8 + n / 64 + 4096
}

/// Plan the build of table `k` when the finished smaller tables take
/// `below` bytes: in one piece if its shares fit, else in groups of block
/// pairs `{a, k - a}`. Refuses when even the largest pair does not fit.
pub fn plan_table(
    rules: KalahRules,
    pits: usize,
    k: usize,
    below: u64,
    limits: &BuildLimits,
) -> Result<TablePlan> {
    let ix = spec(rules, pits, k).indexer()?;
    let n = ix.count();
    // The smaller tables, the writer's chunk directory, the rest.
    let fixed = below + n / 64 + 4096 + OVERHEAD;
    let sums: Vec<usize> = (0..=k).filter(|&a| ix.holds_mover_sum(a)).collect();
    let fits = limits.group_bytes.is_none_or(|g| n <= g) && fixed + n <= limits.memory_budget;
    if fits || sums.is_empty() {
        return Ok(with_decoded(
            rules,
            pits,
            k,
            TablePlan {
                groups: vec![sums],
                decoded: 0,
                peak: fixed + n,
            },
            limits,
        ));
    }
    let block = |a: usize| ix.block_offset(a + 1) - ix.block_offset(a);
    let mut pairs: Vec<(Vec<usize>, u64)> = Vec::new();
    for &a in &sums {
        let b = k - a;
        let paired = b != a && ix.holds_mover_sum(b);
        if paired && b < a {
            continue;
        }
        let mut g = vec![a];
        if paired {
            g.push(b);
        }
        let size = g.iter().map(|&s| block(s)).sum();
        pairs.push((g, size));
    }
    let room = limits.memory_budget.saturating_sub(fixed);
    let (largest, size) = pairs
        .iter()
        .max_by_key(|p| p.1)
        .map(|(g, s)| (g.clone(), *s))
        .unwrap_or_default();
    if size > room {
        return Err(Error::Memory {
            message: format!(
                "table k={k} ({pits} pits) cannot be built within the budget of {} MiB even \
                 in groups: its largest group (mover rows of {} seeds) holds {} MiB of \
                 shares, and the smaller tables with the rest take about {} MiB; that is \
                 over the budget",
                limits.memory_budget >> 20,
                largest
                    .iter()
                    .map(|a| a.to_string())
                    .collect::<Vec<_>>()
                    .join(" and "),
                size.div_ceil(1 << 20),
                fixed.div_ceil(1 << 20),
            ),
            kind: MemoryUse::Build,
        });
    }
    let cap = limits.group_bytes.map_or(room, |g| g.min(room));
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let (mut current, mut current_size, mut peak_group) = (Vec::new(), 0u64, 0u64);
    for (g, size) in pairs {
        if !current.is_empty() && current_size + size > cap {
            groups.push(std::mem::take(&mut current));
            current_size = 0;
        }
        current.extend(g);
        current_size += size;
        peak_group = peak_group.max(current_size);
    }
    if !current.is_empty() {
        groups.push(current);
    }
    for g in &mut groups {
        g.sort_unstable();
    }
    Ok(with_decoded(
        rules,
        pits,
        k,
        TablePlan {
            groups,
            decoded: 0,
            peak: fixed + peak_group,
        },
        limits,
    ))
}

/// `plan` with as many of the largest smaller tables decoded into memory
/// (at most [`DECODED`]) as the budget allows.
fn with_decoded(
    rules: KalahRules,
    pits: usize,
    k: usize,
    mut plan: TablePlan,
    limits: &BuildLimits,
) -> TablePlan {
    let mut extra = 0;
    for j in (2..k).rev().take(DECODED) {
        let n = spec(rules, pits, j).indexer().map_or(0, |ix| ix.count());
        extra += decoded_bytes(n, j);
        if plan.peak + extra > limits.memory_budget {
            break;
        }
        plan.decoded += 1;
        plan.peak += decoded_bytes(n, j);
    }
    plan
}

/// The finished tables below `k` as [`plan_table`] counts them.
fn below(rules: KalahRules, pits: usize, k: usize) -> Result<u64> {
    let mut below = 0;
    for j in 1..k {
        below += packed_estimate(spec(rules, pits, j).indexer()?.count());
    }
    Ok(below)
}

/// Estimated peak memory of building tables 1..=max_seeds within `limits`:
/// while table k is built, its shares (all of them, or its largest group),
/// the chunk directory of its file, and the mapped smaller tables. Refuses
/// when a table cannot be built within the budget even in groups.
pub fn estimate_peak_memory(
    rules: KalahRules,
    pits: usize,
    max_seeds: usize,
    limits: &BuildLimits,
) -> Result<u64> {
    let mut peak = 0;
    for k in 1..=max_seeds {
        let plan = plan_table(rules, pits, k, below(rules, pits, k)?, limits)?;
        peak = peak.max(plan.peak);
    }
    Ok(peak)
}

/// Build table `k` of `tb`'s rules and width into `dir` as planned within
/// `limits`: in one piece, or group by group through partial files (the
/// caller holds the table's lock).
pub(crate) fn build_table(
    tb: &TableSet<KalahRules>,
    k: usize,
    dir: &Path,
    limits: &BuildLimits,
    progress: &Observer,
) -> Result<WriteInfo> {
    let (rules, pits) = (tb.game(), tb.pits());
    let plan = plan_table(rules, pits, k, below(rules, pits, k)?, limits)?;
    let spec = tb.spec(k);
    let decoded = decode_below(tb, k, plan.decoded)?;
    if plan.groups.len() == 1 {
        let shares = build_layer(tb, k, &decoded, progress)?;
        return write_table(dir, spec, &shares);
    }
    let n = plan.groups.len();
    for (i, sums) in plan.groups.iter().enumerate() {
        let stage = format!("k={k} group {}/{n}", i + 1);
        if !group_missing(dir, spec, sums, &stage, progress) {
            continue;
        }
        let shares = build_blocks(tb, k, sums, &decoded, &stage, progress)?;
        write_partial(dir, spec, sums, &shares)?;
    }
    drop(decoded);
    assemble(dir, spec, &plan.groups, progress)
}

/// Whether the partial file of group `sums` must be built: it is missing
/// or damaged (reported as such); a sound one is kept.
fn group_missing(
    dir: &Path,
    spec: TableSpec,
    sums: &[usize],
    stage: &str,
    progress: &Observer,
) -> bool {
    match Partial::open(dir, spec, sums) {
        Ok(_) => {
            progress.event(&Event::Phase {
                what: &format!("{stage}: found on disk"),
            });
            false
        }
        Err(Error::MissingTable { .. }) => true,
        Err(e) => {
            progress.event(&Event::Rebuilding { error: &e });
            true
        }
    }
}

/// Write table `spec` from the partial files of `groups` (together every
/// block once), streaming, and remove the partial files.
fn assemble(
    dir: &Path,
    spec: TableSpec,
    groups: &[Vec<usize>],
    progress: &Observer,
) -> Result<WriteInfo> {
    let k = spec.seeds;
    progress.event(&Event::Phase {
        what: &format!("k={k}: assembling the table from {} groups", groups.len()),
    });
    let parts = groups
        .iter()
        .map(|sums| Partial::open(dir, spec, sums))
        .collect::<Result<Vec<_>>>()?;
    let mut writer = TableWriter::create(dir, spec)?;
    for (a, g) in groups
        .iter()
        .enumerate()
        .flat_map(|(g, sums)| sums.iter().map(move |&a| (a, g)))
        .collect::<std::collections::BTreeMap<_, _>>()
    {
        parts[g].block_shares(a, |shares| writer.push(shares))?;
    }
    let info = writer.finish()?;
    drop(parts);
    remove_partials(dir, spec);
    Ok(info)
}

/// The groups table `k` is built in within `limits` (one group: in one
/// piece).
pub(crate) fn table_groups(
    rules: KalahRules,
    pits: usize,
    k: usize,
    limits: &BuildLimits,
) -> Result<Vec<Vec<usize>>> {
    Ok(plan_table(rules, pits, k, below(rules, pits, k)?, limits)?.groups)
}

/// Check that `sums` can be built as one group of table `k`: mover sums
/// the table holds, in increasing order, each with its pair `k - a` when
/// the table holds that.
fn check_group(rules: KalahRules, pits: usize, k: usize, sums: &[usize]) -> Result<()> {
    let ix = spec(rules, pits, k).indexer()?;
    let bad = |why: String| {
        Err(Error::Unsupported(format!(
            "group {} of table k={k} ({pits} pits): {why}",
            join_sums(sums)
        )))
    };
    if sums.is_empty() {
        return bad("no mover sums".into());
    }
    if sums.windows(2).any(|w| w[0] >= w[1]) {
        return bad("give the mover sums in increasing order, each once".into());
    }
    for &a in sums {
        if a > k || !ix.holds_mover_sum(a) {
            return bad(format!("the table holds no mover row of {a} seeds"));
        }
        let b = k - a;
        if ix.holds_mover_sum(b) && sums.binary_search(&b).is_err() {
            return bad(format!(
                "mover sum {a} needs its pair {b} in the same group (a move passes the \
                 turn with the mover's row as the opponent's)"
            ));
        }
    }
    Ok(())
}

/// Build the group `sums` of table `k` into its partial file in `dir` (the
/// smaller tables in `tb`), unless a sound partial file of it is there
/// already: one task of a build split across processes or machines.
/// Groups of one table may be built at once by different processes (each
/// writes its own file, atomically). Whether the group was built now.
pub(crate) fn build_group(
    tb: &TableSet<KalahRules>,
    k: usize,
    sums: &[usize],
    dir: &Path,
    limits: &BuildLimits,
    progress: &Observer,
) -> Result<bool> {
    let (rules, pits) = (tb.game(), tb.pits());
    check_group(rules, pits, k, sums)?;
    let spec = tb.spec(k);
    // The table finished already (its partial files are gone).
    if crate::tables::Table::open(dir, spec).is_ok() {
        return Ok(false);
    }
    let stage = format!("k={k} group {}", join_sums(sums));
    if !group_missing(dir, spec, sums, &stage, progress) {
        return Ok(false);
    }
    let plan = plan_table(rules, pits, k, below(rules, pits, k)?, limits)?;
    let decoded = decode_below(tb, k, plan.decoded)?;
    let shares = build_blocks(tb, k, sums, &decoded, &stage, progress)?;
    write_partial(dir, spec, sums, &shares)?;
    Ok(true)
}

/// Assemble table `k` from the partial files of its groups found in `dir`
/// (built by [`build_group`], with any grouping) and remove them (the
/// caller holds the table's lock). Refuses, naming the mover sums not
/// covered, when a group is missing, and when two partial files overlap.
pub(crate) fn assemble_table(
    tb: &TableSet<KalahRules>,
    k: usize,
    dir: &Path,
    progress: &Observer,
) -> Result<WriteInfo> {
    let spec = tb.spec(k);
    let ix = spec.indexer()?;
    let mut groups = partial_groups(dir, spec);
    groups.sort();
    let mut seen = std::collections::BTreeSet::new();
    for g in &groups {
        if let Some(a) = g.iter().find(|&&a| a > k || !ix.holds_mover_sum(a)) {
            return Err(Error::Unsupported(format!(
                "table k={k}: a partial file in {} names mover sum {a}, which the table does \
                 not hold (not this table's); remove it (.{}.part-{:016x})",
                dir.display(),
                spec.file_name(),
                crate::tables::partial::sums_mask(g)
            )));
        }
        for &a in g {
            if !seen.insert(a) {
                return Err(Error::Unsupported(format!(
                    "table k={k}: two partial files in {} hold mover sum {a}; remove the \
                     ones of another grouping (.{}.part-*) and build the missing groups",
                    dir.display(),
                    spec.file_name()
                )));
            }
        }
    }
    let missing: Vec<usize> = (0..=k)
        .filter(|&a| ix.holds_mover_sum(a) && !seen.contains(&a))
        .collect();
    if !missing.is_empty() {
        return Err(Error::Unsupported(format!(
            "table k={k} cannot be assembled yet: no partial file in {} holds the mover \
             rows of {} seeds; build those groups first",
            dir.display(),
            join_sums(&missing)
        )));
    }
    assemble(dir, spec, &groups, progress)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(memory_budget: u64, group_bytes: Option<u64>) -> BuildLimits {
        BuildLimits {
            memory_budget,
            group_bytes,
        }
    }

    #[test]
    fn groups_are_closed_pairs_covering_every_block() {
        for rules in KalahRules::ALL {
            for (pits, k, cap) in [(6, 20, 4 << 20), (4, 12, 1000), (3, 9, 1)] {
                let plan = plan_table(rules, pits, k, 0, &limits(1 << 40, Some(cap))).unwrap();
                assert!(plan.groups.len() > 1, "{rules} {pits} {k}");
                let ix = spec(rules, pits, k).indexer().unwrap();
                let mut all: Vec<usize> = plan.groups.concat();
                all.sort_unstable();
                let want: Vec<usize> = (0..=k).filter(|&a| ix.holds_mover_sum(a)).collect();
                assert_eq!(all, want);
                for g in &plan.groups {
                    for &a in g {
                        assert!(!ix.holds_mover_sum(k - a) || g.contains(&(k - a)));
                    }
                }
            }
        }
    }

    #[test]
    fn plans_by_the_budget() {
        let r = KalahRules::Default;
        let n = spec(r, 6, 20).indexer().unwrap().count();
        let whole = plan_table(r, 6, 20, 0, &limits(1 << 34, None)).unwrap();
        assert_eq!(whole.groups.len(), 1);
        assert!(whole.peak >= n);
        // Half the shares' size: groups, and a lower peak.
        let split =
            plan_table(r, 6, 20, 0, &limits(OVERHEAD + n / 64 + n / 2 + 8192, None)).unwrap();
        assert!(split.groups.len() > 1);
        assert!(split.peak < whole.peak);
        // Not even the largest pair: a clear refusal.
        let err = plan_table(r, 6, 20, 0, &limits(OVERHEAD + n / 20, None)).unwrap_err();
        assert!(err.to_string().contains("even in groups"), "{err}");
        assert!(err.to_string().contains("over the budget"), "{err}");
    }
}
