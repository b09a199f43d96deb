//! The agents' stop flag (`play::agents::Stop`): what `mancala serve`
//! raises when a request for an agent's move ends before the move.

use std::time::{Duration, Instant};

use mancala_solver::play::agents::AgentSpec;

/// Every agent that searches ends its move soon after its stop flag is
/// raised, with a legal move, on budgets it would otherwise think about for
/// hours; a flag that is never raised changes nothing.
#[test]
fn a_raised_stop_ends_every_searching_agent_promptly() {
    use mancala_solver::play::agents::Stop;
    use mancala_solver::play::state::GameSpec;
    for (game, agents) in [
        (
            "kalah:10:12",
            &[
                "alphabeta:40",
                "minimax:30",
                "heuristic:40",
                "heuristic10:40",
                "rovaris-heuristic:40",
                "rovaris-heuristic:40:h6=reply",
                "mcts:1000000000",
                "mcts:60m:playout=heavy",
                "rovaris-uct:1000000000:playout=greedy",
                "awale-uct:1000000000",
                "awale-heavy:60m",
                "perfect:60m",
            ][..],
        ),
        // The perfect agent's other searches: the Kalah solver, Awari's
        // and the family's alpha-beta.
        ("kalah:6:7", &["perfect:60m"][..]),
        ("awari:6:4", &["perfect:60m"][..]),
        ("vai-lung-thlan:5:5", &["perfect:60m"][..]),
    ] {
        let spec: GameSpec = game.parse().unwrap();
        let start = spec.start();
        let (moves, n) = start.moves();
        for a in agents {
            let a: AgentSpec = a.parse().unwrap();
            let stop = Stop::raisable();
            let mut agent = a
                .build_with_stop(spec.rules(), None, 1, stop.clone())
                .unwrap();
            // Timed from before the raiser starts its 100 ms.
            let t = Instant::now();
            let raiser = {
                let stop = stop.clone();
                std::thread::spawn(move || {
                    std::thread::sleep(Duration::from_millis(100));
                    stop.raise();
                })
            };
            let choice = agent.choose(&start);
            let took = t.elapsed();
            raiser.join().unwrap();
            assert!(moves[..n].contains(&choice.pit), "{game} {a}: {choice:?}");
            assert!(took < Duration::from_secs(1), "{game} {a}: {took:?}");
            // Else the agent ended on its own, and the stop went untested.
            assert!(took >= Duration::from_millis(100), "{game} {a}: {took:?}");
        }
    }
    // Raised before the first iteration: a legal move all the same.
    let spec: GameSpec = "kalah:6:4".parse().unwrap();
    for a in ["mcts:1000", "awale-mcts:1000", "alphabeta:8"] {
        let a: AgentSpec = a.parse().unwrap();
        let stop = Stop::raisable();
        stop.raise();
        let mut agent = a.build_with_stop(spec.rules(), None, 1, stop).unwrap();
        let pit = agent.choose(&spec.start()).pit;
        assert!(pit < 6, "{a}");
    }
    // Never raised: the same moves as without a flag.
    for a in ["alphabeta:6", "heuristic:5", "mcts:300", "rovaris-uct:300"] {
        let a: AgentSpec = a.parse().unwrap();
        let with = a
            .build_with_stop(spec.rules(), None, 3, Stop::raisable())
            .unwrap()
            .choose(&spec.start());
        let without = a
            .build(spec.rules(), None, 3)
            .unwrap()
            .choose(&spec.start());
        assert_eq!(with, without, "{a}");
    }
}
