//! The network in candle: its parameters as trainable variables, the
//! batched forward pass and the A3C loss, differentiated by candle's
//! autograd.

use candle_core::{Device, Tensor, Var, D};
use candle_nn::{Linear, Module};

use super::net::{Layout, Weights};
use crate::error::{Error, Result};

/// Additive mask of an illegal move's logit: far below any real logit, yet
/// finite so that `p * log p` stays 0 and never becomes NaN.
pub const ILLEGAL_LOGIT: f32 = -1e9;

/// A candle error as the library's error (these are bugs or allocation
/// failures, not user errors).
pub(crate) fn tensor_error(e: candle_core::Error) -> Error {
    Error::Unsupported(format!("tensor computation failed: {e}"))
}

/// The network as candle variables (one [`Var`] per tensor of
/// [`Layout::tensors`]).
pub struct Model {
    layout: Layout,
    vars: Vec<Var>,
    layers: [Linear; 4],
}

impl Model {
    /// A model holding `weights`.
    pub fn new(weights: &Weights) -> Result<Model> {
        let layout = weights.layout;
        let vars = layout
            .tensors()
            .into_iter()
            .map(|(_, shape, range)| {
                let t = Tensor::from_slice(&weights.params[range], shape, &Device::Cpu)?;
                Var::from_tensor(&t)
            })
            .collect::<candle_core::Result<Vec<Var>>>()
            .map_err(tensor_error)?;
        let linear = |w: usize| {
            Linear::new(
                vars[w].as_tensor().clone(),
                Some(vars[w + 1].as_tensor().clone()),
            )
        };
        let layers = [linear(0), linear(2), linear(4), linear(6)];
        Ok(Model {
            layout,
            vars,
            layers,
        })
    }

    /// The trainable variables, in [`Layout::tensors`] order.
    pub fn vars(&self) -> &[Var] {
        &self.vars
    }

    /// The layout.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// Copy `other`'s parameters into this model (same layout).
    pub fn copy_from(&self, other: &Model) -> Result<()> {
        for (mine, theirs) in self.vars.iter().zip(&other.vars) {
            mine.set(theirs.as_tensor()).map_err(tensor_error)?;
        }
        Ok(())
    }

    /// The parameters as plain [`Weights`] trained for `episodes` episodes.
    pub fn weights(&self, episodes: u64) -> Result<Weights> {
        let mut params = Vec::with_capacity(self.layout.parameters());
        for v in &self.vars {
            params.extend(
                v.as_tensor()
                    .flatten_all()
                    .and_then(|t| t.to_vec1::<f32>())
                    .map_err(tensor_error)?,
            );
        }
        Ok(Weights {
            layout: self.layout,
            episodes,
            params,
        })
    }

    /// The forward pass on a batch: `x` of shape `[B, inputs]`, `mask` of
    /// shape `[B, pits]` (0 for a legal move, [`ILLEGAL_LOGIT`] for an
    /// illegal one). Returns the log-probabilities `[B, pits]` (illegal
    /// moves masked out before the softmax) and the values `[B]`.
    pub fn forward(&self, x: &Tensor, mask: &Tensor) -> candle_core::Result<(Tensor, Tensor)> {
        let [h1, h2, policy, value] = &self.layers;
        let h = h2.forward(&h1.forward(x)?.relu()?)?.relu()?;
        let logits = (policy.forward(&h)? + mask)?;
        let log_probs = candle_nn::ops::log_softmax(&logits, D::Minus1)?;
        let values = value.forward(&h)?.tanh()?.squeeze(1)?;
        Ok((log_probs, values))
    }
}

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

/// The A3C loss of the episodes `eps` under `model`, `0.5 * value loss +
/// policy loss` with `policy loss = -log pi(a|s) A(s) - beta H(pi)` (means
/// over all their moves, advantages `A = R - V(s)` held constant), and its
/// parts. Call `backward` on the returned tensor for the gradients.
pub fn loss(model: &Model, eps: &[Episode], p: &LossParams) -> Result<(Tensor, LossParts)> {
    loss_inner(model, eps, p).map_err(tensor_error)
}

fn loss_inner(
    model: &Model,
    eps: &[Episode],
    p: &LossParams,
) -> candle_core::Result<(Tensor, LossParts)> {
    let layout = model.layout();
    let n: usize = eps.iter().map(Episode::len).sum();
    let dev = &Device::Cpu;
    let cat = |f: fn(&Episode) -> &Vec<f32>| -> Vec<f32> {
        eps.iter().flat_map(|e| f(e).iter().copied()).collect()
    };
    let x = Tensor::from_vec(cat(|e| &e.x), (n, layout.inputs()), dev)?;
    let mask = Tensor::from_vec(cat(|e| &e.mask), (n, layout.pits), dev)?;
    let (log_probs, values) = model.forward(&x, &mask)?;
    let v: Vec<f32> = values.to_vec1()?;
    let mut r = Vec::with_capacity(n);
    let mut at = 0;
    for e in eps {
        r.extend(returns(e, &v[at..at + e.len()], p));
        at += e.len();
    }
    let r = Tensor::from_vec(r, n, dev)?;
    let advantage = (&r - values.detach())?;
    let actions: Vec<u32> = eps.iter().flat_map(|e| e.actions.iter().copied()).collect();
    let actions = Tensor::from_vec(actions, (n, 1), dev)?;
    let log_pa = log_probs.gather(&actions, 1)?.squeeze(1)?;
    let policy = (log_pa * advantage)?.mean_all()?.neg()?;
    let entropy = (log_probs.exp()? * &log_probs)?.sum(1)?.mean_all()?.neg()?;
    let value = (r - values)?.sqr()?.mean_all()?;
    let total = ((value.affine(0.5, 0.0)? + &policy)? - entropy.affine(f64::from(p.beta), 0.0)?)?;
    let parts = LossParts {
        value: f64::from(value.to_scalar::<f32>()?),
        policy: f64::from(policy.to_scalar::<f32>()?),
        entropy: f64::from(entropy.to_scalar::<f32>()?),
    };
    Ok((total, parts))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kalah::position::Position;
    use crate::kalah::rules::KalahRules;

    #[test]
    fn candle_and_plain_forward_agree() {
        let layout = Layout::new(KalahRules::Default, 6, 4, [16, 12], 4).unwrap();
        let w = Weights::random(layout, &mut crate::rng::seeded(9));
        let model = Model::new(&w).unwrap();
        assert_eq!(model.weights(0).unwrap(), w);
        let pos = Position::parse("0 3 0 0 1 0 6 4 4 4 4 4 4 14").unwrap();
        let (p, v) = w.policy(&pos);
        let x = w.encode(&pos);
        let x = Tensor::from_slice(&x, (1, x.len()), &Device::Cpu).unwrap();
        let mask: Vec<f32> = (0..6)
            .map(|i| if p[i] > 0.0 { 0.0 } else { ILLEGAL_LOGIT })
            .collect();
        let mask = Tensor::from_slice(&mask, (1, 6), &Device::Cpu).unwrap();
        let (lp, vv) = model.forward(&x, &mask).unwrap();
        let lp: Vec<f32> = lp.squeeze(0).unwrap().to_vec1().unwrap();
        for i in 0..6 {
            assert!((lp[i].exp() - p[i]).abs() < 1e-5, "{i}: {lp:?} {p:?}");
        }
        assert!((vv.to_vec1::<f32>().unwrap()[0] - v).abs() < 1e-5);
    }

    #[test]
    fn autograd_matches_finite_differences() {
        // With the value head's weights at 0 the value (and so the
        // advantage) does not depend on the trunk: the loss's gradient in
        // the trunk and the policy head is exactly what candle computes.
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
        let model = Model::new(&w).unwrap();
        let grads = loss(&model, std::slice::from_ref(&ep), &p)
            .unwrap()
            .0
            .backward()
            .unwrap();
        let flat: Vec<f32> = model
            .vars()
            .iter()
            .flat_map(|v| {
                let g = grads.get(v.as_tensor()).unwrap();
                g.flatten_all().unwrap().to_vec1::<f32>().unwrap()
            })
            .collect();
        let eval = |w: &Weights| -> f64 {
            let m = Model::new(w).unwrap();
            let (l, _) = loss(&m, std::slice::from_ref(&ep), &p).unwrap();
            f64::from(l.to_scalar::<f32>().unwrap())
        };
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
                    "parameter {i}: {fd} by differences, {g} by autograd"
                );
            }
        }
        assert!(
            checked >= 20 && agree * 10 >= checked * 9,
            "{agree} of {checked} gradients agree"
        );
        assert!(checked >= 5, "only {checked} gradients were not tiny");
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
