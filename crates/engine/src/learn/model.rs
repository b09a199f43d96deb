//! The network's training side in plain Rust: the batched forward pass
//! with its activations kept, the n-step returns, the A3C loss, its
//! gradient by back-propagation written out by hand, and the Adam
//! optimiser. The network is small (two hidden layers of tens of units),
//! so plain loops over `f32` slices are all it needs: no tensor library.

use super::net::Weights;

/// Additive mask of an illegal move's logit: far below any real logit, yet
/// finite so that `p * log p` stays 0 and never becomes NaN.
pub const ILLEGAL_LOGIT: f32 = -1e9;

/// One self-play episode as training data: for each move, the input, the
/// legal-move mask, the move played and the side that played it.
#[derive(Clone, Debug, Default)]
pub struct Episode {
    /// Inputs, `inputs` numbers per move.
    pub x: Vec<f32>,
    /// Masks, `pits` numbers per move (0 or [`ILLEGAL_LOGIT`]).
    pub mask: Vec<f32>,
    /// The pit played at each move.
    pub actions: Vec<u32>,
    /// Whether South moved at each move.
    pub south: Vec<bool>,
    /// The result for South at the end: +1 win, -1 loss, 0 draw.
    pub south_result: f32,
}

impl Episode {
    /// Moves in the episode.
    pub fn len(&self) -> usize {
        self.actions.len()
    }

    /// Whether the episode has no move.
    pub fn is_empty(&self) -> bool {
        self.actions.is_empty()
    }
}

/// The hyper-parameters of the loss.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LossParams {
    /// Discount per move.
    pub gamma: f32,
    /// Moves before bootstrapping on the value (n-step returns).
    pub n_step: usize,
    /// Weight of the entropy bonus.
    pub beta: f32,
}

/// The parts of one episode's loss (means over its moves).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LossParts {
    /// Mean of `(R - V(s))^2`.
    pub value: f64,
    /// Mean of `-log pi(a|s) * A(s)`.
    pub policy: f64,
    /// Mean policy entropy `H = -sum p log p`.
    pub entropy: f64,
}

/// The n-step returns of an episode, each from the point of view of the
/// side that moved: `R_t = gamma^(T-1-t) z_t` when the game ends within
/// `n` moves (`z_t` the result for the mover of move `t`), else
/// `R_t = gamma^n (+/-) V(s_{t+n})`, the sign flipping when the mover of
/// `s_{t+n}` is the other side (Kalah's extra turns keep the same mover).
pub fn returns(ep: &Episode, values: &[f32], p: &LossParams) -> Vec<f32> {
    let t_end = ep.len();
    (0..t_end)
        .map(|t| {
            if t + p.n_step >= t_end {
                let z = if ep.south[t] {
                    ep.south_result
                } else {
                    -ep.south_result
                };
                p.gamma.powi((t_end - 1 - t) as i32) * z
            } else {
                let u = t + p.n_step;
                let sign = if ep.south[u] == ep.south[t] {
                    1.0
                } else {
                    -1.0
                };
                p.gamma.powi(p.n_step as i32) * sign * values[u]
            }
        })
        .collect()
}

/// The A3C loss of the episodes `eps` under `weights`, `0.5 * value loss +
/// policy loss` with `policy loss = -log pi(a|s) A(s) - beta H(pi)` (means
/// over all their moves, advantages `A = R - V(s)` held constant, as are
/// the bootstrapped values inside the returns), its parts, and its gradient
/// in the parameters (one number each, in [`super::net::Layout::tensors`]
/// order).
pub fn loss_and_gradient(
    weights: &Weights,
    eps: &[Episode],
    p: &LossParams,
) -> (f64, LossParts, Vec<f32>) {
    let mut pass = Pass::new(weights, eps, p);
    let grad = pass.backward(weights, eps, p);
    (pass.total, pass.parts, grad)
}

/// The loss alone (what [`loss_and_gradient`] returns first, and its parts).
pub fn loss(weights: &Weights, eps: &[Episode], p: &LossParams) -> (f64, LossParts) {
    let pass = Pass::new(weights, eps, p);
    (pass.total, pass.parts)
}

/// The forward pass over every move of a batch, with what the backward
/// pass needs: pre-activations of both hidden layers, log-probabilities,
/// values and returns.
struct Pass {
    /// Moves in the batch.
    n: usize,
    a1: Vec<f32>,
    a2: Vec<f32>,
    log_probs: Vec<f32>,
    values: Vec<f32>,
    returns: Vec<f32>,
    total: f64,
    parts: LossParts,
}

/// `out = w x + b` for `w` of shape `[out.len(), x.len()]`.
fn affine(w: &[f32], b: &[f32], x: &[f32], out: &mut [f32]) {
    for ((o, &bias), row) in out.iter_mut().zip(b).zip(w.chunks_exact(x.len())) {
        *o = bias + dot(row, x);
    }
}

/// The dot product of `a` and `b`, in eight lanes (a float sum in one
/// lane cannot be vectorised: its order is fixed).
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut lanes = [0.0f32; 8];
    let (a8, b8) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = a8
        .remainder()
        .iter()
        .zip(b8.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in a8.zip(b8) {
        for i in 0..8 {
            lanes[i] += x[i] * y[i];
        }
    }
    lanes.iter().sum::<f32>() + tail
}

fn relu(a: &[f32]) -> impl Iterator<Item = f32> + '_ {
    a.iter().map(|&v| v.max(0.0))
}

impl Pass {
    fn new(weights: &Weights, eps: &[Episode], p: &LossParams) -> Pass {
        let l = weights.layout;
        let t = l.tensors();
        let w = &weights.params;
        let (inputs, [h1, h2], pits) = (l.inputs(), l.hidden, l.pits);
        let n: usize = eps.iter().map(Episode::len).sum();
        let mut pass = Pass {
            n,
            a1: vec![0.0; n * h1],
            a2: vec![0.0; n * h2],
            log_probs: vec![0.0; n * pits],
            values: vec![0.0; n],
            returns: Vec::with_capacity(n),
            total: 0.0,
            parts: LossParts::default(),
        };
        let mut i = 0;
        let (mut r1, mut r2) = (vec![0.0; h1], vec![0.0; h2]);
        for e in eps {
            for (x, mask) in e.x.chunks_exact(inputs).zip(e.mask.chunks_exact(pits)) {
                let a1 = &mut pass.a1[i * h1..(i + 1) * h1];
                affine(&w[t[0].2.clone()], &w[t[1].2.clone()], x, a1);
                r1.iter_mut().zip(relu(a1)).for_each(|(o, v)| *o = v);
                let a2 = &mut pass.a2[i * h2..(i + 1) * h2];
                affine(&w[t[2].2.clone()], &w[t[3].2.clone()], &r1, a2);
                r2.iter_mut().zip(relu(a2)).for_each(|(o, v)| *o = v);
                let z = &mut pass.log_probs[i * pits..(i + 1) * pits];
                affine(&w[t[4].2.clone()], &w[t[5].2.clone()], &r2, z);
                z.iter_mut().zip(mask).for_each(|(z, m)| *z += m);
                let max = z.iter().copied().fold(f32::NEG_INFINITY, f32::max);
                let lse = max + z.iter().map(|&v| (v - max).exp()).sum::<f32>().ln();
                z.iter_mut().for_each(|v| *v -= lse);
                let mut u = [0.0f32];
                affine(&w[t[6].2.clone()], &w[t[7].2.clone()], &r2, &mut u);
                pass.values[i] = u[0].tanh();
                i += 1;
            }
        }
        let mut at = 0;
        for e in eps {
            let r = returns(e, &pass.values[at..at + e.len()], p);
            pass.returns.extend(r);
            at += e.len();
        }
        let nf = n.max(1) as f64;
        let (mut value, mut policy, mut entropy) = (0.0f64, 0.0f64, 0.0f64);
        let actions = eps.iter().flat_map(|e| e.actions.iter());
        for (i, &a) in actions.enumerate() {
            let lp = &pass.log_probs[i * pits..(i + 1) * pits];
            let (r, v) = (pass.returns[i], pass.values[i]);
            value += f64::from((r - v) * (r - v));
            policy -= f64::from(lp[a as usize] * (r - v));
            entropy -= f64::from(lp.iter().map(|&q| q.exp() * q).sum::<f32>());
        }
        pass.parts = LossParts {
            value: value / nf,
            policy: policy / nf,
            entropy: entropy / nf,
        };
        pass.total =
            0.5 * pass.parts.value + pass.parts.policy - f64::from(p.beta) * pass.parts.entropy;
        pass
    }

    /// The gradient of the loss in every parameter.
    fn backward(&mut self, weights: &Weights, eps: &[Episode], p: &LossParams) -> Vec<f32> {
        let l = weights.layout;
        let t = l.tensors();
        let w = &weights.params;
        let (inputs, [h1, h2], pits) = (l.inputs(), l.hidden, l.pits);
        let mut g = vec![0.0f32; w.len()];
        let inv = 1.0 / self.n.max(1) as f32;
        let (mut r1, mut r2) = (vec![0.0; h1], vec![0.0; h2]);
        let (mut dz, mut d2, mut d1) = (vec![0.0; pits], vec![0.0; h2], vec![0.0; h1]);
        let xs = eps.iter().flat_map(|e| e.x.chunks_exact(inputs));
        let actions = eps.iter().flat_map(|e| e.actions.iter());
        for (i, (x, &a)) in xs.zip(actions).enumerate() {
            let a1 = &self.a1[i * h1..(i + 1) * h1];
            let a2 = &self.a2[i * h2..(i + 1) * h2];
            r1.iter_mut().zip(relu(a1)).for_each(|(o, v)| *o = v);
            r2.iter_mut().zip(relu(a2)).for_each(|(o, v)| *o = v);
            let lp = &self.log_probs[i * pits..(i + 1) * pits];
            let (r, v) = (self.returns[i], self.values[i]);
            let advantage = r - v;
            let entropy = -lp.iter().map(|&q| q.exp() * q).sum::<f32>();
            // d/dz_j of -log p_a A - beta H, over n moves.
            for (j, d) in dz.iter_mut().enumerate() {
                let q = lp[j].exp();
                let onehot = if j == a as usize { 1.0 } else { 0.0 };
                let entropy_term = if q > 0.0 { q * (lp[j] + entropy) } else { 0.0 };
                *d = inv * (-advantage * (onehot - q) + p.beta * entropy_term);
            }
            // d/du of 0.5 (R - tanh u)^2, over n moves.
            let du = inv * (v - r) * (1.0 - v * v);
            // Heads.
            for (j, &d) in dz.iter().enumerate() {
                let row = t[4].2.start + j * h2;
                g[row..row + h2]
                    .iter_mut()
                    .zip(&r2)
                    .for_each(|(gw, &h)| *gw += d * h);
                g[t[5].2.start + j] += d;
            }
            let row = t[6].2.start;
            g[row..row + h2]
                .iter_mut()
                .zip(&r2)
                .for_each(|(gw, &h)| *gw += du * h);
            g[t[7].2.start] += du;
            // Second hidden layer.
            for (k, d) in d2.iter_mut().enumerate() {
                let back: f32 = (0..pits)
                    .map(|j| w[t[4].2.start + j * h2 + k] * dz[j])
                    .sum();
                let back = back + w[t[6].2.start + k] * du;
                *d = if a2[k] > 0.0 { back } else { 0.0 };
            }
            for (k, &d) in d2.iter().enumerate() {
                let row = t[2].2.start + k * h1;
                g[row..row + h1]
                    .iter_mut()
                    .zip(&r1)
                    .for_each(|(gw, &h)| *gw += d * h);
                g[t[3].2.start + k] += d;
            }
            // First hidden layer.
            d1.iter_mut().for_each(|d| *d = 0.0);
            for (k, &d) in d2.iter().enumerate() {
                let row = &w[t[2].2.start + k * h1..t[2].2.start + (k + 1) * h1];
                d1.iter_mut().zip(row).for_each(|(o, &wk)| *o += wk * d);
            }
            for (m, d) in d1.iter_mut().enumerate() {
                if a1[m] <= 0.0 {
                    *d = 0.0;
                }
            }
            for (m, &d) in d1.iter().enumerate() {
                let row = t[0].2.start + m * inputs;
                g[row..row + inputs]
                    .iter_mut()
                    .zip(x)
                    .for_each(|(gw, &xi)| *gw += d * xi);
                g[t[1].2.start + m] += d;
            }
        }
        g
    }
}

/// Adam (Kingma and Ba 2015) without weight decay: moment estimates per
/// parameter, bias-corrected, `beta1` 0.9, `beta2` 0.999, `epsilon` 1e-8.
#[derive(Clone, Debug)]
pub struct Adam {
    lr: f64,
    steps: i32,
    m: Vec<f32>,
    v: Vec<f32>,
}

impl Adam {
    const BETA1: f64 = 0.9;
    const BETA2: f64 = 0.999;
    const EPSILON: f64 = 1e-8;

    /// An optimiser for `parameters` parameters at learning rate `lr`.
    pub fn new(lr: f64, parameters: usize) -> Adam {
        Adam {
            lr,
            steps: 0,
            m: vec![0.0; parameters],
            v: vec![0.0; parameters],
        }
    }

    /// One step: move `params` against `grad`.
    pub fn step(&mut self, params: &mut [f32], grad: &[f32]) {
        self.steps = self.steps.saturating_add(1);
        let (b1, b2) = (Self::BETA1 as f32, Self::BETA2 as f32);
        let scale_m = (1.0 / (1.0 - Self::BETA1.powi(self.steps))) as f32;
        let scale_v = (1.0 / (1.0 - Self::BETA2.powi(self.steps))) as f32;
        let (lr, eps) = (self.lr as f32, Self::EPSILON as f32);
        for (((w, &g), m), v) in params
            .iter_mut()
            .zip(grad)
            .zip(&mut self.m)
            .zip(&mut self.v)
        {
            *m = *m * b1 + g * (1.0 - b1);
            *v = *v * b2 + g * g * (1.0 - b2);
            *w -= lr * (*m * scale_m) / ((*v * scale_v).sqrt() + eps);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kalah::position::Position;
    use crate::kalah::rules::KalahRules;
    use crate::learn::net::Layout;

    #[test]
    fn training_and_play_forward_agree() {
        let layout = Layout::new(KalahRules::Default, 6, 4, [16, 12], 4).unwrap();
        let w = Weights::random(layout, &mut crate::rng::seeded(9));
        let pos = Position::parse("0 3 0 0 1 0 6 4 4 4 4 4 4 14").unwrap();
        let (p, v) = w.policy(&pos);
        let mask: Vec<f32> = (0..6)
            .map(|i| if p[i] > 0.0 { 0.0 } else { ILLEGAL_LOGIT })
            .collect();
        let ep = Episode {
            x: w.encode(&pos),
            mask,
            actions: vec![1],
            south: vec![true],
            south_result: 1.0,
        };
        let pass = Pass::new(
            &w,
            std::slice::from_ref(&ep),
            &LossParams {
                gamma: 1.0,
                n_step: 10,
                beta: 0.0,
            },
        );
        for i in 0..6 {
            let q = pass.log_probs[i].exp();
            assert!((q - p[i]).abs() < 1e-5, "{i}: {q} {p:?}");
        }
        assert!((pass.values[0] - v).abs() < 1e-5);
    }

    #[test]
    fn gradient_matches_finite_differences() {
        // With the value head's weights at 0 the value (and so the
        // advantage) does not depend on the trunk: the loss's gradient in
        // the trunk and the policy head is exactly what backward computes.
        let layout = Layout::new(KalahRules::Default, 6, 4, [10, 8], 4).unwrap();
        let mut w = Weights::random(layout, &mut crate::rng::seeded(4));
        let ep = crate::learn::a3c::self_play(&w, 0, &mut crate::rng::seeded(5));
        let t = layout.tensors();
        w.params[t[6].2.clone()].fill(0.0);
        w.params[t[7].2.start] = 0.3;
        let p = LossParams {
            gamma: 1.0,
            n_step: 1000,
            beta: 0.05,
        };
        let (_, _, flat) = loss_and_gradient(&w, std::slice::from_ref(&ep), &p);
        let eval = |w: &Weights| loss(w, std::slice::from_ref(&ep), &p).0;
        // Central differences in f32 are noisy and a step may cross a ReLU
        // kink: most, not all, parameters must agree closely.
        let mut rng = crate::rng::seeded(6);
        let (mut checked, mut agree) = (0, 0);
        for _ in 0..60 {
            let i = rand::Rng::gen_range(&mut rng, 0..t[5].2.end);
            let h = 1e-2f32;
            let mut plus = w.clone();
            plus.params[i] += h;
            let mut minus = w.clone();
            minus.params[i] -= h;
            let fd = (eval(&plus) - eval(&minus)) / (2.0 * f64::from(h));
            let g = f64::from(flat[i]);
            if g.abs() > 1e-4 {
                checked += 1;
                agree += usize::from((fd - g).abs() < 3e-5 + 0.05 * g.abs());
            } else {
                assert!(
                    fd.abs() < 3e-4,
                    "parameter {i}: {fd} by differences, {g} by back-propagation"
                );
            }
        }
        assert!(
            checked >= 20 && agree * 10 >= checked * 9,
            "{agree} of {checked} gradients agree"
        );
    }

    #[test]
    fn value_gradient_matches_finite_differences() {
        // The value head and the value loss: with beta 0 and the policy
        // head at 0 (uniform policy, log p constant), only the value term
        // varies with the value head's parameters.
        let layout = Layout::new(KalahRules::Default, 6, 4, [10, 8], 4).unwrap();
        let w = Weights::random(layout, &mut crate::rng::seeded(14));
        let ep = crate::learn::a3c::self_play(&w, 0, &mut crate::rng::seeded(15));
        let t = layout.tensors();
        // Returns that never bootstrap: the advantage's constant part is z.
        let p = LossParams {
            gamma: 0.9,
            n_step: 1000,
            beta: 0.0,
        };
        let (_, _, flat) = loss_and_gradient(&w, std::slice::from_ref(&ep), &p);
        let value_only = |w: &Weights| 0.5 * loss(w, std::slice::from_ref(&ep), &p).1.value;
        let value_head = t[6].2.start..t[7].2.end;
        for (i, &g) in flat
            .iter()
            .enumerate()
            .take(value_head.end)
            .skip(value_head.start)
        {
            let h = 1e-2f32;
            let mut plus = w.clone();
            plus.params[i] += h;
            let mut minus = w.clone();
            minus.params[i] -= h;
            let fd = (value_only(&plus) - value_only(&minus)) / (2.0 * f64::from(h));
            let g = f64::from(g);
            assert!(
                (fd - g).abs() < 1e-4 + 0.05 * g.abs(),
                "value parameter {i}: {fd} by differences, {g} by back-propagation"
            );
        }
    }

    #[test]
    fn adam_moves_against_the_gradient_by_about_the_learning_rate() {
        let mut adam = Adam::new(0.01, 3);
        let mut w = [1.0f32, -1.0, 0.5];
        adam.step(&mut w, &[2.0, -0.5, 0.0]);
        // The first bias-corrected step is lr * sign(g) where g is not 0.
        assert!((w[0] - 0.99).abs() < 1e-6, "{w:?}");
        assert!((w[1] + 0.99).abs() < 1e-6, "{w:?}");
        assert_eq!(w[2], 0.5);
    }

    #[test]
    fn returns_flip_sign_only_when_the_mover_changes() {
        // South, South (extra turn), North, South; South wins.
        let ep = Episode {
            south: vec![true, true, false, true],
            actions: vec![0; 4],
            south_result: 1.0,
            ..Episode::default()
        };
        let p = LossParams {
            gamma: 1.0,
            n_step: 10,
            beta: 0.0,
        };
        assert_eq!(returns(&ep, &[0.0; 4], &p), vec![1.0, 1.0, -1.0, 1.0]);
        let p = LossParams { n_step: 1, ..p };
        // Bootstrapped on the next state's value, negated when North moves there.
        assert_eq!(
            returns(&ep, &[0.1, 0.2, 0.3, 0.4], &p),
            vec![0.2, -0.3, -0.4, 1.0]
        );
    }
}
