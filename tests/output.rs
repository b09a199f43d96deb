//! What the binary prints for a person: the top-level help names every
//! game, a build's per-table lines, the board against an agent.

use mancala_solver::family::Rules;

mod common;
use common::mancala;

/// A game's name as the help writes it: `vai-lung-thlan` is "Vai Lung Thlan".
fn title(name: &str) -> String {
    name.split('-')
        .map(|w| w[..1].to_uppercase() + &w[1..])
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn the_top_level_help_names_every_game() {
    let dir = tempfile::tempdir().unwrap();
    for flag in ["-h", "--help"] {
        let (code, out, err) = mancala(&[flag], dir.path());
        assert_eq!(code, 0, "{err}");
        // The description (first paragraph), not only the games list below.
        let about = out.split("\n\n").next().unwrap();
        for name in Rules::game_names() {
            assert!(
                about.contains(&title(name)),
                "`mancala {flag}` does not name {}: {about}",
                title(name)
            );
        }
    }
}
