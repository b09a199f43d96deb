//! The integration tests, compiled into one binary. Each file of tests/
//! is a module here (`cargo test --test suite cli::` runs tests/cli.rs's
//! tests). One binary a file meant 36 compiles and links of the library's
//! generic code and dependencies, about 70 MB each: 4 CPU-minutes of
//! `cargo test`'s compile and 2.4 GB of target/, against 1.5 CPU-minutes
//! and one binary now (measured on the 2-core CI machine). A new file must
//! be added below; `every_test_file_is_compiled` fails until it is.

// Each file declares the shared helpers (`mod common;`) for itself, so that
// it reads as the standalone file it was; the copies are the same code.
#![allow(clippy::duplicate_mod)]

#[path = "a3c.rs"]
mod a3c;
#[path = "agents.rs"]
mod agents;
#[path = "agents_awari.rs"]
mod agents_awari;
#[path = "assignment.rs"]
mod assignment;
#[path = "awale.rs"]
mod awale;
#[path = "awale_keep.rs"]
mod awale_keep;
#[path = "awari_cli.rs"]
mod awari_cli;
#[path = "awari_reference.rs"]
mod awari_reference;
#[path = "awari_rules.rs"]
mod awari_rules;
#[path = "awari_search.rs"]
mod awari_search;
#[path = "awari_tables.rs"]
mod awari_tables;
#[path = "awari_tables_cli.rs"]
mod awari_tables_cli;
#[path = "batch.rs"]
mod batch;
#[path = "book.rs"]
mod book;
#[path = "book_growing.rs"]
mod book_growing;
#[path = "checkpoint.rs"]
mod checkpoint;
#[path = "checkpoint_stress.rs"]
mod checkpoint_stress;
#[path = "cli.rs"]
mod cli;
#[path = "cmancala.rs"]
mod cmancala;
#[path = "cross_check.rs"]
mod cross_check;
#[path = "distributed.rs"]
mod distributed;
#[path = "doc_links.rs"]
mod doc_links;
#[path = "errors.rs"]
mod errors;
#[path = "family.rs"]
mod family;
#[path = "faults.rs"]
mod faults;
#[path = "faults_files.rs"]
mod faults_files;
#[path = "faults_newcomer.rs"]
mod faults_newcomer;
#[path = "faults_serve.rs"]
mod faults_serve;
#[path = "game_folders.rs"]
mod game_folders;
#[path = "grade.rs"]
mod grade;
#[path = "graph.rs"]
mod graph;
#[path = "graph_store.rs"]
mod graph_store;
#[path = "help_examples.rs"]
mod help_examples;
#[path = "index_props.rs"]
mod index_props;
#[path = "layers.rs"]
mod layers;
#[path = "ledger_audit.rs"]
mod ledger_audit;
#[path = "ledger_faults.rs"]
mod ledger_faults;
#[path = "messages.rs"]
mod messages;
#[path = "oracle_leaves.rs"]
mod oracle_leaves;
#[path = "oracle_work.rs"]
mod oracle_work;
#[path = "output.rs"]
mod output;
#[path = "partition.rs"]
mod partition;
#[path = "perfect_paths.rs"]
mod perfect_paths;
#[path = "play_error.rs"]
mod play_error;
#[path = "probe_faults.rs"]
mod probe_faults;
#[path = "profile.rs"]
mod profile;
#[path = "prove.rs"]
mod prove;
#[path = "prove_cli.rs"]
mod prove_cli;
#[path = "readme.rs"]
mod readme;
#[path = "reproduce.rs"]
mod reproduce;
#[path = "rovaris.rs"]
mod rovaris;
#[path = "serve.rs"]
mod serve;
#[path = "serve_stream.rs"]
mod serve_stream;
#[path = "solve.rs"]
mod solve;
#[path = "solve_budget.rs"]
mod solve_budget;
#[path = "solve_reports.rs"]
mod solve_reports;
#[path = "sowing_games.rs"]
mod sowing_games;
#[path = "special_files.rs"]
mod special_files;
#[path = "stop.rs"]
mod stop;
#[path = "study004.rs"]
mod study004;
#[path = "study004_readings.rs"]
mod study004_readings;
#[path = "tables_vs_minimax.rs"]
mod tables_vs_minimax;
#[path = "vlt_readings.rs"]
mod vlt_readings;
#[path = "wide_play.rs"]
mod wide_play;

#[test]
fn every_test_file_is_compiled() {
    let here = include_str!("suite.rs");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        let Some(stem) = name.strip_suffix(".rs") else {
            continue;
        };
        let line = format!("#[path = \"{name}\"]\nmod {stem};");
        assert!(
            stem == "suite" || here.contains(&line),
            "tests/{name} is not compiled: add `{line}` to tests/suite.rs"
        );
    }
}
