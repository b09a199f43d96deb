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

/// The registry's name of a spec: an exhaustive match, so that a new
/// agent does not compile until it is named here (and then the test below
/// wants it in [`AGENTS`]).
fn registry_name(spec: &AgentSpec) -> &'static str {
    match spec {
        AgentSpec::Random => "random",
        AgentSpec::Greedy => "greedy",
        AgentSpec::Max(_) => "max",
        AgentSpec::Minimax(_) => "minimax",
        AgentSpec::AlphaBeta(_) | AgentSpec::AlphaBetaRandomTies(_) => "alphabeta",
        AgentSpec::Heuristic(_) => "heuristic",
        AgentSpec::Heuristic10 { .. } => "heuristic10",
        AgentSpec::Mcts { .. } => "mcts",
        AgentSpec::RovarisGreedy(_) => "rovaris-greedy",
        AgentSpec::RovarisHeuristic { .. } => "rovaris-heuristic",
        AgentSpec::RovarisUct { .. } => "rovaris-uct",
        AgentSpec::Perfect(_) => "perfect",
        AgentSpec::EpsGreedy(_) => "eps-greedy",
        AgentSpec::StudyMcts {
            tree: awale_study::TreePolicy::Random,
            ..
        } => "awale-mcts",
        AgentSpec::StudyMcts { heavy: false, .. } => "awale-uct",
        AgentSpec::StudyMcts { heavy: true, .. } => "awale-heavy",
        AgentSpec::A3c(_) => "a3c",
    }
}

/// The registry the help texts and messages are written from and the
/// parser agree: each entry's example parses to an agent of its name (and
/// so do its aliases), each name once; a name the registry lacks is
/// refused naming every agent.
#[test]
fn the_registry_and_the_parser_agree() {
    let mut names = std::collections::BTreeSet::new();
    for a in AGENTS {
        assert!(names.insert(a.name), "{} twice", a.name);
        let spec: AgentSpec = a.example.parse().unwrap();
        assert_eq!(registry_name(&spec), a.name, "{}", a.example);
        assert!(spec.to_string().starts_with(a.name), "{spec}");
        assert!(a.form.starts_with(a.name), "{}", a.form);
        let args = a.example.strip_prefix(a.name).unwrap();
        for alias in a.aliases {
            let spec: AgentSpec = format!("{alias}{args}").parse().unwrap();
            assert_eq!(registry_name(&spec), a.name, "{alias}");
        }
        assert_eq!(agent_form(a.name), Some(a));
    }
    let err = "foo:3".parse::<AgentSpec>().unwrap_err();
    assert!(
        matches!(&err, Error::UnknownAgent { name, .. } if name == "foo"),
        "{err}"
    );
    assert!(err.to_string().ends_with(&agent_names()), "{err}");
    // The list: one agent a line (a long form's description on the next).
    let list = agents_list();
    for a in AGENTS {
        let at = list.lines().filter(|l| l.trim_start().starts_with(a.form));
        assert_eq!(at.count(), 1, "{}: {list}", a.form);
    }
    assert!(list.lines().all(|l| l.chars().count() <= 120), "{list}");
    // A known agent's bad arguments: its own form only.
    let err = "alphabeta:0".parse::<AgentSpec>().unwrap_err().to_string();
    assert!(
        err.contains("alphabeta:D[:ties=random]") && !err.contains("mcts"),
        "{err}"
    );
}
