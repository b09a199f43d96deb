//! What a move did, the legal moves of a position and why a move was
//! refused: the one move record every game, the agents and the front ends
//! share.

use std::fmt;

use crate::sow::MAX_PITS;

/// What one move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// Seeds captured by the move (Kalah: the capturing seed included;
    /// two bytes, for boards of more than 255 seeds).
    pub captured: u16,
    /// The mover moves again (Kalah only).
    pub extra_turn: bool,
    /// The move ended the game.
    pub game_over: bool,
}

/// The legal moves of a position, in increasing pit order, allocation-free.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Moves {
    pits: [u8; MAX_PITS],
    len: u8,
}

impl Moves {
    /// Add a pit (in increasing order).
    #[inline]
    pub fn push(&mut self, pit: usize) {
        self.pits[self.len as usize] = pit as u8;
        self.len += 1;
    }

    /// The number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether there is no move.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The `i`-th pit.
    #[inline]
    pub fn pit(&self, i: usize) -> usize {
        self.pits[i] as usize
    }

    /// The pits.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.pits[..self.len as usize].iter().map(|&p| p as usize)
    }
}

/// Why a move was refused: what [`crate::game::Game::play`] returns for an
/// illegal move in every game, the position left as it was. `Display`
/// says it in words (`pit 3 is empty`); a front end that wants the cause
/// matches on the variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PlayError {
    /// The game is over: no move can be played.
    GameOver,
    /// The round is over (Ohvalhu, played in rounds): no move can be
    /// played in it.
    RoundOver,
    /// There is no such pit: the mover's pits are numbered `0..pits`.
    NoSuchPit {
        /// The pit asked for.
        pit: usize,
        /// Pits per side.
        pits: usize,
    },
    /// The pit holds no seed.
    EmptyPit {
        /// The pit asked for.
        pit: usize,
    },
    /// The opponent's row is empty and the move puts no seed into it
    /// (Awari and Oware: a move must feed an empty row when one can).
    DoesNotFeed {
        /// The pit asked for.
        pit: usize,
        /// The moves that do feed the row.
        feeding: Moves,
    },
    /// The move would capture every seed of the opponent's row, a grand
    /// slam, which Awari and Oware refuse while another move is not one.
    GrandSlam {
        /// The pit asked for.
        pit: usize,
        /// The legal moves.
        legal: Moves,
    },
}

impl PlayError {
    /// The pit the move named, when the refusal is about one.
    pub fn pit(&self) -> Option<usize> {
        match *self {
            PlayError::GameOver | PlayError::RoundOver => None,
            PlayError::NoSuchPit { pit, .. }
            | PlayError::EmptyPit { pit }
            | PlayError::DoesNotFeed { pit, .. }
            | PlayError::GrandSlam { pit, .. } => Some(pit),
        }
    }
}

/// The pits of `moves` as `0, 2, 5`.
fn list(moves: &Moves) -> String {
    moves
        .iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::GameOver => write!(f, "the game is over"),
            PlayError::RoundOver => write!(f, "the round is over"),
            PlayError::NoSuchPit { pit, pits } => write!(
                f,
                "pit {pit} does not exist: pits are numbered 0..{} from the mover's left",
                pits.saturating_sub(1)
            ),
            PlayError::EmptyPit { pit } => write!(f, "pit {pit} is empty"),
            PlayError::DoesNotFeed { pit, feeding } => write!(
                f,
                "pit {pit} does not feed the opponent's empty row (moves that do: {})",
                list(feeding)
            ),
            PlayError::GrandSlam { pit, legal } => write!(
                f,
                "pit {pit} would capture every seed of the opponent's row (a grand slam), which is illegal while another move is not one (legal: {})",
                list(legal)
            ),
        }
    }
}

impl std::error::Error for PlayError {}
