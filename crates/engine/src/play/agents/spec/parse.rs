//! Parsing the budgets and options of the MCTS agents' specs.

use super::*;

/// A budget: iterations (`1000`) or a time (`2s`).
pub(super) fn parse_budget(text: &str, budget_text: &str) -> Result<Budget> {
    Ok(
        if budget_text.bytes().all(|b| b.is_ascii_digit()) && !budget_text.is_empty() {
            let n: u64 = budget_text
                .parse()
                .map_err(|_| bad_spec(text, "budget too large"))?;
            if n == 0 {
                return Err(bad_spec(text, "the budget must be at least 1 iteration"));
            }
            Budget::Iterations(n)
        } else {
            Budget::Time(parse_duration(budget_text).map_err(|e| bad_spec(text, e))?)
        },
    )
}

/// The budget, UCT constant, play-out and expansion of `mcts` (`head`
/// "mcts") or `rovaris-uct` (no `c` or `expand` option: its constant is
/// the study's, its expansion random).
pub(super) fn parse_mcts(
    text: &str,
    head: &str,
    rest: &[&str],
) -> Result<(Budget, f64, Playout, Option<f64>)> {
    let Some((&budget_text, options)) = rest.split_first() else {
        return Err(bad_spec(
            text,
            format!("give a budget, e.g. {head}:1000 (iterations) or {head}:2s (time)"),
        ));
    };
    let budget = parse_budget(text, budget_text)?;
    let mut uct = DEFAULT_UCT;
    let mut policy: Option<&str> = None;
    let mut eps: Option<f64> = None;
    let mut expand: Option<f64> = None;
    for opt in options {
        let (key, value) = opt
            .split_once('=')
            .ok_or_else(|| bad_spec(text, format!("option \"{opt}\" is not key=value")))?;
        match key {
            "c" if head == "mcts" => {
                uct = value
                    .parse()
                    .ok()
                    .filter(|c: &f64| c.is_finite() && *c >= 0.0)
                    .ok_or_else(|| {
                        bad_spec(text, format!("c={value}: give a non-negative number"))
                    })?
            }
            "playout" => policy = Some(value),
            "expand" if head == "mcts" => {
                expand = Some(
                    value
                        .parse()
                        .ok()
                        .filter(|e: &f64| (0.0..=1.0).contains(e))
                        .ok_or_else(|| {
                            bad_spec(
                                text,
                                format!(
                                    "expand={value}: give the epsilon of an epsilon-greedy \
                                     expansion, a number in 0..=1"
                                ),
                            )
                        })?,
                )
            }
            "eps" => {
                eps = Some(
                    value
                        .parse()
                        .ok()
                        .filter(|e: &f64| (0.0..=1.0).contains(e))
                        .ok_or_else(|| {
                            bad_spec(text, format!("eps={value}: give a number in 0..=1"))
                        })?,
                )
            }
            other => {
                return Err(bad_spec(
                    text,
                    if head == "mcts" {
                        format!("unknown mcts option \"{other}\" (use c, playout, eps, expand)")
                    } else {
                        format!("unknown {head} option \"{other}\" (use playout, eps)")
                    },
                ))
            }
        }
    }
    let playout = match (policy, eps) {
        (None | Some("random"), None) => Playout::Random,
        (Some("random"), Some(_)) => {
            return Err(bad_spec(text, "eps goes with playout=eps-greedy"))
        }
        (None | Some("eps-greedy" | "epsilon-greedy"), Some(e)) => Playout::EpsilonGreedy(e),
        (Some("eps-greedy" | "epsilon-greedy"), None) => Playout::EpsilonGreedy(DEFAULT_EPSILON),
        (Some("greedy"), None) => Playout::EpsilonGreedy(0.0),
        (Some("greedy"), Some(_)) => {
            return Err(bad_spec(text, "eps goes with playout=eps-greedy"))
        }
        (Some("heavy"), None) => Playout::Heavy,
        (Some("heavy"), Some(_)) => return Err(bad_spec(text, "eps goes with playout=eps-greedy")),
        (Some(other), _) => {
            return Err(bad_spec(
                text,
                format!("unknown play-out \"{other}\" (use random, greedy, eps-greedy or heavy)"),
            ))
        }
    };
    Ok((budget, uct, playout, expand))
}
