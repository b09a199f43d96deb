use super::*;

#[test]
fn specs_round_trip() {
    for text in [
        "random",
        "greedy",
        "minimax:4",
        "alphabeta:8",
        "heuristic:6",
        "mcts:1000",
        "mcts:2s",
        "mcts:500ms:c=1.5:playout=heavy",
        "mcts:100:playout=eps-greedy:eps=0.25",
        "perfect:1s",
        "perfect:250ms",
        "mcts:100:playout=greedy",
        "rovaris-greedy",
        "rovaris-greedy:ties=right",
        "rovaris-heuristic:8",
        "rovaris-heuristic:4:h6=store",
        "rovaris-uct:1000",
        "rovaris-uct:250:playout=greedy",
        "rovaris-uct:2s:playout=eps-greedy:eps=0.3",
        "heuristic10:4",
        "max",
        "heuristic10:2:run=3",
        "heuristic10:4:w=0,0,0,1,0,0,0,0,0,0.5",
        "a3c",
        "a3c:weights/other.bin",
    ] {
        let spec: AgentSpec = text.parse().unwrap();
        assert_eq!(spec.to_string(), text);
        assert_eq!(spec.to_string().parse::<AgentSpec>().unwrap(), spec);
    }
    assert_eq!(
        "perfect".parse::<AgentSpec>().unwrap(),
        AgentSpec::Perfect(DEFAULT_PERFECT_TIME)
    );
    assert_eq!(
        "mcts:10:eps=0.3".parse::<AgentSpec>().unwrap(),
        AgentSpec::Mcts {
            budget: Budget::Iterations(10),
            uct: DEFAULT_UCT,
            playout: Playout::EpsilonGreedy(0.3),
            expand: None,
        }
    );
}

#[test]
fn bad_specs_are_usage_errors() {
    for text in [
        "",
        "randm",
        "random:3",
        "minimax",
        "minimax:0",
        "minimax:x",
        "alphabeta:1000",
        "mcts",
        "mcts:0",
        "mcts:2x",
        "mcts:100:c=-1",
        "mcts:100:playout=smart",
        "mcts:100:eps=2",
        "mcts:100:foo",
        "perfect:0s",
        "perfect:1s:2",
        "rovaris-greedy:1",
        "rovaris-greedy:ties=middle",
        "rovaris-heuristic",
        "rovaris-heuristic:4:h6=more",
        "rovaris-heuristic:4:h6=reply:h6=store",
        "rovaris-uct",
        "rovaris-uct:100:c=2",
        "rovaris-uct:100:playout=heavy",
        "heuristic10",
        "heuristic10:4:run=21",
        "heuristic10:4:w=1,2",
        "heuristic10:4:w=1,2,3,4,5,6,7,8,9,x",
        "heuristic10:4:weights=/nonexistent/weights.txt",
        "heuristic10:4:depth=3",
        "a3c:",
    ] {
        let err = text.parse::<AgentSpec>().unwrap_err();
        assert!(err.is_usage(), "{text}: {err}");
        assert!(err.to_string().starts_with("bad agent"), "{text}: {err}");
    }
}

#[test]
fn durations() {
    assert_eq!(parse_duration("2s").unwrap(), Duration::from_secs(2));
    assert_eq!(parse_duration("500ms").unwrap(), Duration::from_millis(500));
    assert_eq!(parse_duration("1m").unwrap(), Duration::from_secs(60));
    assert!(parse_duration("5").is_err());
    assert_eq!(format_duration(Duration::from_millis(1500)), "1500ms");
    assert_eq!(format_duration(Duration::from_secs(3)), "3s");
}
