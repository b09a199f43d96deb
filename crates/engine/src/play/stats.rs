//! The statistics of matches: the one-sided binomial test of "A is
//! stronger than B" and the Wilson score interval of a score.

/// P(X >= floor(points)) for X binomial(n, 1/2): the one-sided p-value of
/// "A is stronger" when A scored `points` in `n` games.
pub fn binomial_p_value(n: u64, points: f64) -> f64 {
    let k = points.floor().max(0.0) as u64;
    if k == 0 {
        return 1.0;
    }
    if k > n {
        return 0.0;
    }
    // Sum the upper tail in log space: ln C(n, j) - n ln 2, for j from k
    // to n. Two passes over the terms (their largest, then the sum scaled
    // by it), each computing them afresh: nothing kept per game, so that a
    // match of any size needs no more memory here.
    let ln2 = std::f64::consts::LN_2;
    let terms = || {
        let mut ln_pmf = -(n as f64) * ln2; // j = 0
        (0..=n).filter_map(move |j| {
            let t = ln_pmf;
            if j < n {
                ln_pmf += ((n - j) as f64).ln() - ((j + 1) as f64).ln();
            }
            (j >= k).then_some(t)
        })
    };
    let max = terms().fold(f64::NEG_INFINITY, f64::max);
    let sum: f64 = terms().map(|t| (t - max).exp()).sum();
    (max + sum.ln()).exp().min(1.0)
}

/// Wilson score interval of a proportion: `points` successes in `n` trials
/// (draws counted as half points), `z` the normal quantile (1.96 for 95%).
pub fn wilson_interval(points: f64, n: u64, z: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = n as f64;
    let p = points / n;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::arena::SIGNIFICANCE;
    use crate::play::tournament::order_or_cycle;

    /// The Awale study's relations at 50 games: A is stronger with 32
    /// points, and weakly stronger (not weaker) with more than 18.
    #[test]
    fn awale_study_relations_at_fifty_games() {
        let stronger = |points: f64| binomial_p_value(50, points) < SIGNIFICANCE;
        assert!(stronger(32.0));
        assert!(!stronger(31.5));
        // B has 50 - A's points: A is weaker exactly when A has 18 or less.
        assert!(stronger(50.0 - 18.0));
        assert!(!stronger(50.0 - 18.5));
    }

    #[test]
    fn published_binomial_criterion() {
        // "A is stronger if it scores at least 32 of 50 (p = 0.0325)".
        let p = binomial_p_value(50, 32.0);
        assert!((p - 0.0325).abs() < 0.0005, "{p}");
        assert!(binomial_p_value(50, 31.5) > SIGNIFICANCE);
        assert!((binomial_p_value(1, 1.0) - 0.5).abs() < 1e-12);
        assert_eq!(binomial_p_value(10, 0.0), 1.0);
        assert!((binomial_p_value(10, 10.0) - 1.0 / 1024.0).abs() < 1e-12);
    }

    /// The p-value as it was computed before the terms were streamed (all
    /// of them kept in a vector): the same to the last bit.
    #[test]
    fn the_streamed_p_value_is_the_kept_one() {
        fn kept(n: u64, points: f64) -> f64 {
            let k = points.floor().max(0.0) as u64;
            if k == 0 {
                return 1.0;
            }
            if k > n {
                return 0.0;
            }
            let ln2 = std::f64::consts::LN_2;
            let mut ln_pmf = -(n as f64) * ln2;
            let mut terms = Vec::with_capacity((n - k + 1) as usize);
            for j in 0..n {
                if j >= k {
                    terms.push(ln_pmf);
                }
                ln_pmf += ((n - j) as f64).ln() - ((j + 1) as f64).ln();
            }
            terms.push(ln_pmf);
            let max = terms.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let sum: f64 = terms.iter().map(|t| (t - max).exp()).sum();
            (max + sum.ln()).exp().min(1.0)
        }
        for n in [1u64, 2, 7, 50, 51, 200, 1001, 100_000, 3_000_000] {
            for frac in [0.0, 0.2, 0.45, 0.5, 0.5003, 0.51, 0.6, 0.99, 1.0] {
                let points = (n as f64 * frac * 2.0).round() / 2.0;
                let (new, old) = (binomial_p_value(n, points), kept(n, points));
                assert_eq!(new.to_bits(), old.to_bits(), "n {n} points {points}");
            }
        }
    }

    #[test]
    fn wilson_interval_contains_the_score() {
        let (lo, hi) = wilson_interval(32.0, 50, 1.96);
        assert!(lo < 0.64 && 0.64 < hi);
        assert!(
            (lo - 0.4995).abs() < 0.002 && (hi - 0.7604).abs() < 0.002,
            "{lo} {hi}"
        );
        let (lo, hi) = wilson_interval(0.0, 10, 1.96);
        assert_eq!(lo, 0.0);
        assert!(hi > 0.2 && hi < 0.35);
    }

    #[test]
    fn order_and_cycles() {
        let t = true;
        let f = false;
        // 2 > 0 > 1.
        let g = vec![vec![f, t, f], vec![f, f, f], vec![t, f, f]];
        assert_eq!(order_or_cycle(&g), Ok(vec![2, 0, 1]));
        // Nothing significant: the given order.
        let g = vec![vec![f; 3]; 3];
        assert_eq!(order_or_cycle(&g), Ok(vec![0, 1, 2]));
        // 0 > 1 > 2 > 0.
        let g = vec![vec![f, t, f], vec![f, f, t], vec![t, f, f]];
        let c = order_or_cycle(&g).unwrap_err();
        assert_eq!(c.len(), 3);
        for k in 0..3 {
            assert!(g[c[k]][c[(k + 1) % 3]]);
        }
    }
}
