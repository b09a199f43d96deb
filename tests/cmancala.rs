//! benches/cmancala.py, the side-by-side measurement against CMancala
//! (docs/SOLVER.md, "Against CMancala"), checked without CMancala: its
//! position set is the same on every run, every position replays from its
//! start by its moves under capture-needs-opposite, its CMancala board code
//! decodes (by CMancala's format) to the same pits and store difference,
//! and our values on some of them equal an independent solve. The run
//! against CMancala itself is `#[ignore]`d: it needs CMANCALA.

use std::path::Path;
use std::process::Command;

use mancala_solver::kalah::position::Position;
use mancala_solver::kalah::rules::KalahRules;
use mancala_solver::search::{solve, SolveOptions};
use mancala_solver::tablebase::build::{build, BuildOptions};
use mancala_solver::tablebase::TableSet;

const RULES: KalahRules = KalahRules::CaptureNeedsOpposite;

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

struct Row {
    id: String,
    per_pit: usize,
    in_play: usize,
    moves: String,
    cells: Vec<u8>,
    code: String,
    stones: usize,
}

fn position_csv() -> String {
    let out = Command::new("python3")
        .arg("benches/cmancala.py")
        .arg("positions")
        .current_dir(repo())
        .env_remove("PER_BUCKET")
        .env_remove("BUCKETS")
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn rows(csv: &str) -> Vec<Row> {
    let mut lines = csv.lines();
    assert_eq!(
        lines.next().unwrap(),
        "id,start_seeds_per_pit,seeds_in_play,moves,position,cmancala_code,cmancala_stones"
    );
    lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            assert_eq!(f.len(), 7, "{l}");
            Row {
                id: f[0].to_string(),
                per_pit: f[1].parse().unwrap(),
                in_play: f[2].parse().unwrap(),
                moves: f[3].to_string(),
                cells: f[4].split(' ').map(|c| c.parse().unwrap()).collect(),
                code: f[5].to_string(),
                stones: f[6].parse().unwrap(),
            }
        })
        .collect()
}

/// CMancala's `load`: five zeros put back in front, two 64-bit words (high,
/// low); bit 0 of low is 1 when player 1 moves; cell i is the 8 bits from
/// bit 1 + 8i, cells past the low word read from the high word only.
/// Returns (cells 0..14 in its order: player 1's pits, store, player 2's
/// pits, store; player 1 to move).
fn cmancala_decode(code: &str) -> ([u8; 14], bool) {
    let full = format!("00000{code}");
    assert_eq!(full.len(), 32, "{code}");
    let high = u64::from_str_radix(&full[..16], 16).unwrap();
    let low = u64::from_str_radix(&full[16..], 16).unwrap();
    let mut cells = [0u8; 14];
    for (i, c) in cells.iter_mut().enumerate() {
        let shift = 1 + 8 * i;
        *c = if shift < 64 {
            (low >> shift) as u8
        } else {
            (high >> (shift - 64)) as u8
        };
    }
    (cells, low & 1 == 1)
}

#[test]
fn the_position_set_is_reproducible_and_replays_from_its_starts() {
    let csv = position_csv();
    assert_eq!(csv, position_csv(), "the position set changed between runs");
    let rows = rows(&csv);
    // The start of Kalah(6,4), then two positions each of 40, 45, 50, 55
    // and 60 seeds in play.
    assert_eq!(rows.len(), 11);
    assert_eq!(rows[0].id, "start64");
    for (k, want) in [40, 40, 45, 45, 50, 50, 55, 55, 60, 60].iter().enumerate() {
        assert_eq!(rows[k + 1].in_play, *want, "{}", rows[k + 1].id);
    }
    for r in &rows {
        let mut pos = Position::start(6, r.per_pit).unwrap();
        if !r.moves.is_empty() {
            pos.play_line(&r.moves, RULES)
                .unwrap_or_else(|e| panic!("{}: {} does not replay: {e}", r.id, r.moves));
        }
        assert_eq!(pos.cells(), &r.cells[..], "{}: {}", r.id, r.moves);
        assert_eq!(pos.active_seeds(), r.in_play, "{}", r.id);
        assert!(!pos.is_game_over(RULES), "{}", r.id);

        // CMancala's board: the same pits from the mover's side, the same
        // store difference, 12 x stones seeds in all.
        let (cm, p1_moves) = cmancala_decode(&r.code);
        let (mover, opp) = if p1_moves {
            (&cm[0..7], &cm[7..14])
        } else {
            (&cm[7..14], &cm[0..7])
        };
        assert_eq!(&mover[..6], &r.cells[0..6], "{}", r.id);
        assert_eq!(&opp[..6], &r.cells[7..13], "{}", r.id);
        assert_eq!(
            mover[6] as i32 - opp[6] as i32,
            r.cells[6] as i32 - r.cells[13] as i32,
            "{}: store difference",
            r.id
        );
        let total: usize = cm.iter().map(|&c| c as usize).sum();
        assert_eq!(total, 12 * r.stones, "{}", r.id);
    }
}

/// capture-needs-opposite 6-pit tables up to `seeds`, built into `dir`.
fn tables(dir: &Path, seeds: usize) -> TableSet<KalahRules> {
    build(&BuildOptions {
        dir: dir.to_path_buf(),
        game: RULES,
        pits: 6,
        max_seeds: seeds,
        threads: Some(1),
        memory_budget: 1 << 31,
        group_bytes: None,
        progress: Default::default(),
    })
    .unwrap();
    TableSet::open(dir, RULES, 6, seeds).unwrap()
}

/// Our values on the set's positions of 40 seeds in play (a second or so
/// each without tables) are the same with the tables and without them:
/// two searches that share nothing but the rules.
#[test]
fn our_values_on_the_shallowest_positions_agree_with_and_without_tables() {
    let rows = rows(&position_csv());
    let dir = tempfile::tempdir().unwrap();
    let tb = tables(dir.path(), 12);
    let opts = SolveOptions {
        rules: RULES,
        tt_mb: 16,
        threads: 1,
        ..SolveOptions::default()
    };
    let shallow: Vec<&Row> = rows.iter().filter(|r| r.in_play == 40).collect();
    assert_eq!(shallow.len(), 2);
    for r in shallow {
        let pos = Position::from_cells(&r.cells, mancala_solver::side::Side::South).unwrap();
        let with = solve(&pos, Some(&tb), &opts).unwrap();
        let without = solve(
            &pos,
            Some(&tb),
            &SolveOptions {
                use_tables: false,
                ..opts.clone()
            },
        )
        .unwrap();
        assert!(with.exact && without.exact, "{}", r.id);
        assert!(with.stats.table_hits > 0, "{}", r.id);
        assert_eq!(without.stats.table_hits, 0, "{}", r.id);
        assert_eq!(with.value, without.value, "{}: {}", r.id, pos);
    }
}

/// The script against CMancala on the two positions of 40 seeds in play,
/// one run each: it stops (non-zero) if the engines disagree on a value.
/// Needs CMANCALA (CMancala's binary) and CMANCALA_DIR (its working
/// directory, with its 20-seed endgame database in EGDB/); builds our
/// 20-seed tables into a temporary directory (a minute or so).
#[test]
#[ignore = "needs CMancala: CMANCALA=path-to-binary CMANCALA_DIR=dir-with-EGDB"]
fn the_script_runs_against_cmancala_and_the_values_agree() {
    let bin = std::env::var("CMANCALA").expect("set CMANCALA to CMancala's binary");
    let dir = tempfile::tempdir().unwrap();
    tables(dir.path(), 20);
    let out = Command::new("python3")
        .args(["benches/cmancala.py", "run"])
        .current_dir(repo())
        .env("CMANCALA", bin)
        .env("BIN", env!("CARGO_BIN_EXE_mancala"))
        .env("DB", dir.path())
        .env("IDS", "s40-0,s40-1")
        .env("RUNS", "1")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(text.matches(" in play) ours: value ").count(), 2, "{text}");
    assert_eq!(
        text.matches(" in play) cmancala: value ").count(),
        2,
        "{text}"
    );
}
