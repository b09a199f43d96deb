//! The agents' registry: every agent a spec names, its form and what it
//! plays. The help texts and the messages of a bad spec are written from
//! it (an unknown agent is [`crate::error::Error::UnknownAgent`], which a
//! front end may render with [`agents_list`]); the tests parse each
//! entry's example.

/// One agent as a spec names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AgentForm {
    /// The spec's name (before its first colon).
    pub name: &'static str,
    /// Other names the parser takes for it.
    pub aliases: &'static [&'static str],
    /// The spec's form: its arguments in capitals, options in brackets.
    pub form: &'static str,
    /// What the agent plays.
    pub about: &'static str,
    /// A spec of this form.
    pub example: &'static str,
}

/// Every agent a spec can name, in the order the help lists them.
pub const AGENTS: &[AgentForm] = &[
    AgentForm {
        name: "random",
        aliases: &[],
        form: "random",
        about: "a uniformly random legal move",
        example: "random",
    },
    AgentForm {
        name: "greedy",
        aliases: &[],
        form: "greedy",
        about: "the best store difference after its move (extra turns followed)",
        example: "greedy",
    },
    AgentForm {
        name: "max",
        aliases: &[],
        form: "max[:ties=last|first|random][:extra=follow|stop]",
        about: "the Kalah agents study's max: most seeds in its store after the turn",
        example: "max",
    },
    AgentForm {
        name: "minimax",
        aliases: &[],
        form: "minimax:D",
        about: "minimax to depth D (plies) on its store minus the opponent's",
        example: "minimax:4",
    },
    AgentForm {
        name: "alphabeta",
        aliases: &["alpha-beta"],
        form: "alphabeta:D[:ties=random]",
        about: "alpha-beta to depth D (ties=random: a random one of the best moves)",
        example: "alphabeta:8",
    },
    AgentForm {
        name: "heuristic",
        aliases: &[],
        form: "heuristic:D",
        about: "alpha-beta to depth D on the six published heuristics",
        example: "heuristic:4",
    },
    AgentForm {
        name: "heuristic10",
        aliases: &[],
        form: "heuristic10:D[:run=N|:weights=FILE|:w=W1,...,W10][:h9=formula|prose][:h10=plus|minus][:ties=left|random]",
        about: "alpha-beta on the Kalah agents study's ten heuristics",
        example: "heuristic10:4",
    },
    AgentForm {
        name: "mcts",
        aliases: &[],
        form: "mcts:BUDGET[:c=C][:playout=random|eps-greedy|heavy][:eps=E][:expand=X]",
        about: "Monte Carlo tree search (UCT); BUDGET: iterations (1000) or time (2s) a move",
        example: "mcts:1000",
    },
    AgentForm {
        name: "perfect",
        aliases: &[],
        form: "perfect[:TIME]",
        about: "the game's tables, above them a search probing them; TIME a move (default 1s)",
        example: "perfect:500ms",
    },
    AgentForm {
        name: "eps-greedy",
        aliases: &[],
        form: "eps-greedy:E",
        about: "the Awale study's: a random move with chance E, else greedy",
        example: "eps-greedy:0.1",
    },
    AgentForm {
        name: "awale-mcts",
        aliases: &[],
        form: "awale-mcts:BUDGET[:keep]",
        about: "the Awale study's MCTS (keep: the tree kept between moves)",
        example: "awale-mcts:500",
    },
    AgentForm {
        name: "awale-uct",
        aliases: &[],
        form: "awale-uct:BUDGET[:c=C][:keep]",
        about: "the Awale study's UCT",
        example: "awale-uct:500",
    },
    AgentForm {
        name: "awale-heavy",
        aliases: &[],
        form: "awale-heavy:BUDGET[:c=C][:keep]",
        about: "the Awale study's UCT with heavy play-outs (weights 1 + captures)",
        example: "awale-heavy:500",
    },
    AgentForm {
        name: "rovaris-greedy",
        aliases: &[],
        form: "rovaris-greedy[:ties=left|right]",
        about: "the five-game study's greedy",
        example: "rovaris-greedy",
    },
    AgentForm {
        name: "rovaris-heuristic",
        aliases: &[],
        form: "rovaris-heuristic:D[:h6=ply|reply|store]",
        about: "the five-game study's heuristic minimax to depth D",
        example: "rovaris-heuristic:4",
    },
    AgentForm {
        name: "rovaris-uct",
        aliases: &[],
        form: "rovaris-uct:BUDGET[:playout=random|greedy|eps-greedy][:eps=E]",
        about: "the five-game study's UCT",
        example: "rovaris-uct:500",
    },
    AgentForm {
        name: "a3c",
        aliases: &[],
        form: "a3c[:FILE]",
        about: "the A3C network, Kalah(6,4) only: the shipped weights or FILE's",
        example: "a3c",
    },
];

/// The column where the descriptions start in [`agents_list`].
const ABOUT_COLUMN: usize = 36;

/// The agent a spec's name (before its first colon) names, if any.
pub fn agent_form(name: &str) -> Option<&'static AgentForm> {
    let name = name.trim().to_ascii_lowercase();
    AGENTS
        .iter()
        .find(|a| a.name == name || a.aliases.contains(&name.as_str()))
}

/// One agent's line in [`agents_list`]: its form, then what it plays (on
/// a line of its own under a long form).
pub fn agent_line(a: &AgentForm) -> String {
    if a.form.len() + 2 < ABOUT_COLUMN {
        format!("  {:<width$}{}", a.form, a.about, width = ABOUT_COLUMN - 2)
    } else {
        format!("  {}\n{:ABOUT_COLUMN$}{}", a.form, "", a.about)
    }
}

/// Every agent's name, comma-separated (one line).
pub fn agent_names() -> String {
    AGENTS.iter().map(|a| a.name).collect::<Vec<_>>().join(", ")
}

/// Every agent, one a line: for help texts and the message of an unknown
/// agent.
pub fn agents_list() -> String {
    AGENTS.iter().map(agent_line).collect::<Vec<_>>().join("\n")
}
