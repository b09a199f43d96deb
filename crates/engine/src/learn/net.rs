//! The policy-value network's weights as plain numbers: their layout, the
//! weights file, and the forward pass used in play.
//!
//! The network is a small MLP on a Kalah position seen from the side to
//! move: the `2m + 2` cells (the mover's `m` pits, the mover's store, the
//! opponent's `m` pits, the opponent's store), each multiplied by the
//! file's input scale, then for each of the `2m` pits in the same order `K`
//! unary inputs `count >= 1, ..., count >= K` (0 or 1; `K` = 0 for none, as
//! TD-Gammon coded its points), with which "this pit holds exactly k
//! seeds", the condition of extra turns and captures, is a difference of
//! two inputs; two hidden layers with ReLU; a policy head of `m` logits
//! (one per pit, illegal pits masked out before the softmax) and a value
//! head of one unit through `tanh` (the mover's expected result, -1 loss
//! to +1 win).
//!
//! # The weights file (format version 1)
//!
//! Little-endian throughout:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `MNCL-A3C` |
//! | 8 | 4 | format version, `1` |
//! | 12 | 4 | Kalah rule set id ([`KalahRules::id`], 0 = default) |
//! | 16 | 4 | pits per side `m` (policy outputs `m`) |
//! | 20 | 4 | seeds per pit at the start |
//! | 24 | 8 | hidden layer sizes `h1`, `h2` (u32 each) |
//! | 32 | 4 | unary inputs per pit `K` (inputs `2m + 2 + 2mK`) |
//! | 36 | 4 | input scale (f32) |
//! | 40 | 8 | episodes trained (u64) |
//! | 48 | 4 | parameter count `P` (u32) |
//! | 52 | 4P | the parameters (f32), in [`Layout::tensors`] order |
//! | 52 + 4P | 4 | CRC-32 (crc32fast) of every byte before it |
//!
//! Each weight matrix is stored row-major as `[outputs, inputs]` (the
//! layout of PyTorch's `nn.Linear`), followed by its bias. A file is written
//! to a temporary file beside the target and renamed over it, so a reader
//! never sees half a file. [`Weights::from_bytes`] refuses anything else
//! with [`Error::BadWeights`]: never a panic.

use std::path::Path;

use rand::Rng;

use crate::error::{Error, Result};
use crate::kalah::position::{Position, MAX_SEEDS};
use crate::kalah::rules::KalahRules;
use crate::sow::MAX_PITS;

/// The magic bytes that open a weights file.
pub const MAGIC: &[u8; 8] = b"MNCL-A3C";
/// The format version this code writes and reads.
pub const FORMAT_VERSION: u32 = 1;
/// Bytes before the parameters.
pub const HEADER_BYTES: usize = 52;
/// Largest hidden layer a file may declare (keeps a corrupt header from
/// asking for gigabytes).
pub const MAX_HIDDEN: usize = 4096;
/// Most unary inputs per pit a file may declare.
pub const MAX_UNARY: usize = 64;

/// The shape of a network: the game it plays and its layer sizes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    /// The Kalah rule set it was trained under.
    pub rules: KalahRules,
    /// Pits per side (policy outputs; inputs are `2 * pits + 2`).
    pub pits: usize,
    /// Seeds per pit at the start of the game.
    pub seeds: usize,
    /// The two hidden layer sizes.
    pub hidden: [usize; 2],
    /// Unary inputs per pit (`count >= 1` to `count >= unary`).
    pub unary: usize,
    /// What every cell is multiplied by before it enters the network.
    pub input_scale: f32,
}

impl Layout {
    /// A layout for Kalah(`pits`, `seeds`) under `rules` with hidden layers
    /// `hidden` and `unary` unary inputs per pit, cells scaled by
    /// `1 / (2 * seeds)` (two start pits' worth of seeds read 1). Refuses
    /// sizes out of range with an [`Error::Unsupported`].
    pub fn new(
        rules: KalahRules,
        pits: usize,
        seeds: usize,
        hidden: [usize; 2],
        unary: usize,
    ) -> Result<Layout> {
        let layout = Layout {
            rules,
            pits,
            seeds,
            hidden,
            unary,
            input_scale: 1.0 / (2 * seeds).max(1) as f32,
        };
        layout.check().map_err(Error::Unsupported)?;
        Ok(layout)
    }

    /// Why the layout cannot be used, if it cannot.
    fn check(&self) -> std::result::Result<(), String> {
        if !(1..=MAX_PITS).contains(&self.pits) {
            return Err(format!("{} pits per side (1 to {MAX_PITS})", self.pits));
        }
        if self.seeds == 0 || 2 * self.pits * self.seeds > MAX_SEEDS {
            return Err(format!(
                "{} seeds per pit (1 to {} with {} pits)",
                self.seeds,
                MAX_SEEDS / (2 * self.pits),
                self.pits
            ));
        }
        for h in self.hidden {
            if !(1..=MAX_HIDDEN).contains(&h) {
                return Err(format!("hidden layer of {h} units (1 to {MAX_HIDDEN})"));
            }
        }
        if self.unary > MAX_UNARY {
            return Err(format!(
                "{} unary inputs per pit (0 to {MAX_UNARY})",
                self.unary
            ));
        }
        if !(self.input_scale.is_finite() && self.input_scale > 0.0) {
            return Err(format!(
                "input scale {} (a positive number)",
                self.input_scale
            ));
        }
        Ok(())
    }

    /// Inputs of the network: `2 * pits + 2` cells and `unary` for each
    /// of the `2 * pits` pits.
    pub fn inputs(&self) -> usize {
        2 * self.pits + 2 + 2 * self.pits * self.unary
    }

    /// The parameter tensors in file order: name, shape `[outputs,
    /// inputs]` (biases `[outputs]`), and their place in the flat list.
    pub fn tensors(&self) -> Vec<(&'static str, Vec<usize>, std::ops::Range<usize>)> {
        let [h1, h2] = self.hidden;
        let shapes: [(&'static str, Vec<usize>); 8] = [
            ("hidden1.weight", vec![h1, self.inputs()]),
            ("hidden1.bias", vec![h1]),
            ("hidden2.weight", vec![h2, h1]),
            ("hidden2.bias", vec![h2]),
            ("policy.weight", vec![self.pits, h2]),
            ("policy.bias", vec![self.pits]),
            ("value.weight", vec![1, h2]),
            ("value.bias", vec![1]),
        ];
        let mut at = 0;
        shapes
            .into_iter()
            .map(|(name, shape)| {
                let n: usize = shape.iter().product();
                at += n;
                (name, shape, at - n..at)
            })
            .collect()
    }

    /// The number of parameters.
    pub fn parameters(&self) -> usize {
        self.tensors().last().map_or(0, |t| t.2.end)
    }

    /// The game as the command line names it (`kalah:6:4`, with the rule
    /// set when not the default).
    pub fn game_name(&self) -> String {
        match self.rules {
            KalahRules::Default => format!("kalah:{}:{}", self.pits, self.seeds),
            r => format!("kalah:{}:{}:{}", self.pits, self.seeds, r.name()),
        }
    }
}

/// A network's weights: its layout, its parameters (flat, in
/// [`Layout::tensors`] order) and how many self-play episodes trained it.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// The shape of the network.
    pub layout: Layout,
    /// Self-play episodes that trained these weights.
    pub episodes: u64,
    /// The parameters.
    pub params: Vec<f32>,
}

impl Weights {
    /// Fresh weights for `layout` drawn from `rng`: every weight and bias
    /// uniform in `±1/sqrt(fan_in)` (PyTorch's default for linear layers),
    /// the policy and value output weights a tenth of that so that the
    /// first policy is close to uniform and the first values close to 0.
    pub fn random(layout: Layout, rng: &mut impl Rng) -> Weights {
        let mut params = vec![0.0f32; layout.parameters()];
        for (name, shape, range) in layout.tensors() {
            let fan_in = if shape.len() == 2 {
                shape[1]
            } else {
                // A bias: the fan-in of its weight matrix.
                match name {
                    "hidden1.bias" => layout.inputs(),
                    "hidden2.bias" => layout.hidden[0],
                    _ => layout.hidden[1],
                }
            };
            let mut bound = 1.0 / (fan_in as f32).sqrt();
            if name == "policy.weight" || name == "value.weight" {
                bound *= 0.1;
            }
            for p in &mut params[range] {
                *p = rng.gen_range(-bound..=bound);
            }
        }
        Weights {
            layout,
            episodes: 0,
            params,
        }
    }

    /// The file's bytes (see the module documentation).
    pub fn to_bytes(&self) -> Vec<u8> {
        let l = &self.layout;
        let mut out = Vec::with_capacity(HEADER_BYTES + 4 * self.params.len() + 4);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        for v in [
            u32::from(l.rules.id()),
            l.pits as u32,
            l.seeds as u32,
            l.hidden[0] as u32,
            l.hidden[1] as u32,
            l.unary as u32,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&l.input_scale.to_le_bytes());
        out.extend_from_slice(&self.episodes.to_le_bytes());
        out.extend_from_slice(&(self.params.len() as u32).to_le_bytes());
        for p in &self.params {
            out.extend_from_slice(&p.to_le_bytes());
        }
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// Read weights from a file's bytes; `path` names the file in errors.
    /// Anything but a well-formed version-1 file is an
    /// [`Error::BadWeights`] saying what is wrong.
    pub fn from_bytes(bytes: &[u8], path: &Path) -> Result<Weights> {
        let bad = |reason: String| Error::BadWeights {
            path: path.to_path_buf(),
            reason,
        };
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err(bad(format!(
                "not an A3C weights file (it does not start with \"{}\")",
                String::from_utf8_lossy(MAGIC)
            )));
        }
        if bytes.len() < HEADER_BYTES + 4 {
            return Err(bad(format!(
                "truncated: {} bytes, shorter than the {}-byte header",
                bytes.len(),
                HEADER_BYTES + 4
            )));
        }
        let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
        let version = u32_at(8);
        if version != FORMAT_VERSION {
            return Err(bad(format!(
                "format version {version}; this program reads version {FORMAT_VERSION}"
            )));
        }
        let count = u32_at(48) as usize;
        let expected_len = HEADER_BYTES as u64 + 4 * count as u64 + 4;
        if bytes.len() as u64 != expected_len {
            return Err(bad(format!(
                "{} bytes where its header announces {count} parameters ({expected_len} bytes): \
                 truncated or corrupt",
                bytes.len()
            )));
        }
        let body = bytes.len() - 4;
        let stored = u32_at(body);
        let actual = crc32fast::hash(&bytes[..body]);
        if stored != actual {
            return Err(bad(format!(
                "checksum mismatch (stored {stored:08x}, computed {actual:08x}): the file is corrupt"
            )));
        }
        let rules = KalahRules::from_id(u32_at(12).min(255) as u8)
            .ok_or_else(|| bad(format!("unknown rule set id {}", u32_at(12))))?;
        let layout = Layout {
            rules,
            pits: u32_at(16) as usize,
            seeds: u32_at(20) as usize,
            hidden: [u32_at(24) as usize, u32_at(28) as usize],
            unary: u32_at(32) as usize,
            input_scale: f32::from_le_bytes(bytes[36..40].try_into().expect("4 bytes")),
        };
        layout
            .check()
            .map_err(|e| bad(format!("bad layout: {e}")))?;
        if layout.parameters() != count {
            return Err(bad(format!(
                "{count} parameters where layers of {} -> {} -> {} -> {} + 1 need {}: \
                 not the network its header describes",
                layout.inputs(),
                layout.hidden[0],
                layout.hidden[1],
                layout.pits,
                layout.parameters()
            )));
        }
        let episodes = u64::from_le_bytes(bytes[40..48].try_into().expect("8 bytes"));
        let params: Vec<f32> = bytes[HEADER_BYTES..body]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
            .collect();
        if let Some(i) = params.iter().position(|p| !p.is_finite()) {
            return Err(bad(format!(
                "parameter {i} is {}, not a finite number",
                params[i]
            )));
        }
        Ok(Weights {
            layout,
            episodes,
            params,
        })
    }

    /// Read a weights file.
    pub fn load(path: &Path) -> Result<Weights> {
        // The largest file a valid header can describe is a few hundred
        // megabytes; refuse to read anything much larger (and anything
        // but a regular file: a named pipe or a device never ends).
        let bytes =
            crate::files::read_limited(path, 1 << 30, "a weights file").map_err(|e| match e {
                Error::FileTooLarge { max, .. } => Error::BadWeights {
                    path: path.to_path_buf(),
                    reason: format!("more than {max} bytes: far too large for a weights file"),
                },
                e => e,
            })?;
        Weights::from_bytes(&bytes, path)
    }

    /// Write the weights to `path` atomically: a temporary file in the same
    /// directory, synced, then renamed over `path`.
    pub fn save(&self, path: &Path) -> Result<()> {
        crate::atomic::write(path, &self.to_bytes(), "weights")
    }

    /// Whether these weights play `rules` Kalah with `pits` pits and
    /// `total` seeds in all (board and stores): an [`Error::Unsupported`]
    /// naming the game they were trained for if not.
    pub fn check_game(&self, rules: KalahRules, pits: usize, total: usize) -> Result<()> {
        let l = &self.layout;
        if rules == l.rules && pits == l.pits && total == 2 * l.pits * l.seeds {
            return Ok(());
        }
        Err(Error::Unsupported(format!(
            "the a3c agent's network was trained for {} only ({} pits a side, {} seeds in all, \
             {} rules); this game has {pits} pits a side, {total} seeds, {} rules",
            l.game_name(),
            l.pits,
            2 * l.pits * l.seeds,
            l.rules.name(),
            rules.name()
        )))
    }

    /// The network's input for `pos` ([`Layout::inputs`] numbers).
    pub fn encode(&self, pos: &Position) -> Vec<f32> {
        let l = &self.layout;
        let mut x = Vec::with_capacity(l.inputs());
        x.extend(pos.cells().iter().map(|&c| f32::from(c) * l.input_scale));
        for &c in pos.mover_pits().iter().chain(pos.opponent_pits()) {
            x.extend((1..=l.unary).map(|k| if usize::from(c) >= k { 1.0 } else { 0.0 }));
        }
        x
    }

    /// The forward pass on one input: the policy logits (first
    /// [`Layout::pits`] entries) and the value in `[-1, 1]`. Plain Rust,
    /// no allocation beyond two hidden vectors; the same numbers as the
    /// training pass ([`super::model::loss_and_gradient`]) up to rounding.
    pub fn forward(&self, x: &[f32]) -> ([f32; MAX_PITS], f32) {
        let l = &self.layout;
        let t = l.tensors();
        let p = &self.params;
        let h1 = dense(
            &p[t[0].2.clone()],
            &p[t[1].2.clone()],
            &x[..l.inputs()],
            true,
        );
        let h2 = dense(&p[t[2].2.clone()], &p[t[3].2.clone()], &h1, true);
        let logits = dense(&p[t[4].2.clone()], &p[t[5].2.clone()], &h2, false);
        let value = dense(&p[t[6].2.clone()], &p[t[7].2.clone()], &h2, false)[0].tanh();
        let mut out = [0.0f32; MAX_PITS];
        out[..l.pits].copy_from_slice(&logits);
        (out, value)
    }

    /// The policy over the legal moves of `pos` (probabilities, 0 for the
    /// illegal pits, masked out before the softmax) and the value of `pos`
    /// for its mover. All zero when `pos` has no legal move.
    pub fn policy(&self, pos: &Position) -> ([f32; MAX_PITS], f32) {
        let (logits, value) = self.forward(&self.encode(pos));
        let mut legal = [false; MAX_PITS];
        for pit in pos.legal_moves(self.layout.rules) {
            legal[pit] = true;
        }
        (masked_softmax(&logits[..self.layout.pits], &legal), value)
    }
}

/// `softmax` of `logits` over the pits marked `legal` (0 elsewhere).
pub fn masked_softmax(logits: &[f32], legal: &[bool]) -> [f32; MAX_PITS] {
    let mut out = [0.0f32; MAX_PITS];
    let max = logits
        .iter()
        .zip(legal)
        .filter(|(_, &ok)| ok)
        .map(|(&l, _)| l)
        .fold(f32::NEG_INFINITY, f32::max);
    if max == f32::NEG_INFINITY {
        return out;
    }
    let mut sum = 0.0;
    for (i, (&l, &ok)) in logits.iter().zip(legal).enumerate() {
        if ok {
            out[i] = (l - max).exp();
            sum += out[i];
        }
    }
    for o in &mut out {
        *o /= sum;
    }
    out
}

/// `w x + b` for `w` of shape `[b.len(), x.len()]`, through ReLU if `relu`.
fn dense(w: &[f32], b: &[f32], x: &[f32], relu: bool) -> Vec<f32> {
    b.iter()
        .zip(w.chunks_exact(x.len()))
        .map(|(&bias, row)| {
            let s = bias + row.iter().zip(x).map(|(a, b)| a * b).sum::<f32>();
            if relu {
                s.max(0.0)
            } else {
                s
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> Weights {
        let layout = Layout::new(KalahRules::Default, 6, 4, [8, 5], 3).unwrap();
        Weights::random(layout, &mut crate::rng::seeded(3))
    }

    #[test]
    fn bytes_round_trip_and_size() {
        let w = small();
        let bytes = w.to_bytes();
        assert_eq!(bytes.len(), HEADER_BYTES + 4 * w.params.len() + 4);
        assert_eq!(w.params.len(), 50 * 8 + 8 + 8 * 5 + 5 + 5 * 6 + 6 + 5 + 1);
        let back = Weights::from_bytes(&bytes, Path::new("x")).unwrap();
        assert_eq!(back, w);
    }

    #[test]
    fn every_corruption_is_an_error() {
        let bytes = small().to_bytes();
        let p = Path::new("x");
        let err = |b: &[u8]| Weights::from_bytes(b, p).unwrap_err().to_string();
        assert!(err(b"").contains("not an A3C weights file"));
        assert!(err(b"1.5 2.5 3.5\n").contains("not an A3C weights file"));
        assert!(err(&bytes[..30]).contains("truncated"));
        assert!(err(&bytes[..bytes.len() - 1]).contains("truncated or corrupt"));
        for at in [60, 300, bytes.len() - 2] {
            let mut b = bytes.clone();
            b[at] ^= 0x10;
            assert!(err(&b).contains("checksum"), "byte {at}");
        }
        // A consistent header for other sizes: refused on the count.
        let mut b = bytes.clone();
        b[24..28].copy_from_slice(&9u32.to_le_bytes());
        let body = b.len() - 4;
        let crc = crc32fast::hash(&b[..body]);
        b[body..].copy_from_slice(&crc.to_le_bytes());
        assert!(err(&b).contains("parameters where layers"));
        // A NaN with a valid checksum.
        let mut b = bytes.clone();
        b[HEADER_BYTES..HEADER_BYTES + 4].copy_from_slice(&f32::NAN.to_le_bytes());
        let crc = crc32fast::hash(&b[..body]);
        b[body..].copy_from_slice(&crc.to_le_bytes());
        assert!(err(&b).contains("not a finite number"));
        let mut b = bytes;
        b[8] = 7;
        assert!(err(&b).contains("format version 7"));
    }

    #[test]
    fn inputs_are_scaled_cells_then_unary_pits() {
        let w = small();
        let pos = Position::parse("0 3 0 0 1 0 6 4 4 4 4 4 4 14").unwrap();
        let x = w.encode(&pos);
        assert_eq!(x.len(), 14 + 12 * 3);
        assert_eq!(x[1], 3.0 / 8.0);
        assert_eq!(x[13], 14.0 / 8.0);
        assert_eq!(&x[14..20], &[0.0, 0.0, 0.0, 1.0, 1.0, 1.0]);
        assert_eq!(&x[26..29], &[1.0, 0.0, 0.0]);
        assert_eq!(&x[32..35], &[1.0, 1.0, 1.0]);
    }

    #[test]
    fn policy_is_masked_and_normalised() {
        let w = small();
        let pos = Position::parse("0 3 0 0 1 0 6 4 4 4 4 4 4 14").unwrap();
        let (p, v) = w.policy(&pos);
        assert!((-1.0..=1.0).contains(&v));
        assert_eq!((p[0], p[2], p[3], p[5]), (0.0, 0.0, 0.0, 0.0));
        assert!((p[1] + p[4] - 1.0).abs() < 1e-6);
    }
}
