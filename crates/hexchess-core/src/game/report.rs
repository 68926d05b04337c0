//! The checked way to play: [`Game::play`] refuses a step the rules do not allow now
//! with a [`PlayError`], and otherwise says what the step did ([`StepReport`]), so that
//! a board, a sound, a move list or a server's clients never work out for themselves
//! what a move captured or which rook castled.

use std::fmt;

use super::{Game, Standing, Step};
use crate::bitboard::CellSet;
use crate::cell::Cell;
use crate::moves::Move;
use crate::outcome::GameOutcome;
use crate::piece::{Kind, Piece, Side};

/// What one step did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepReport {
    /// The side that played it.
    pub side: Side,
    /// The step as played.
    pub step: Step,
    /// The piece that moved, was placed (a setup phase), removed or swapped (a fair
    /// exchange); `None` for [`Step::Stop`].
    pub piece: Option<Piece>,
    /// The piece taken and the cell it stood on (not the move's target after an
    /// en-passant capture).
    pub capture: Option<(Piece, Cell)>,
    /// A castling rook's move: from, to.
    pub rook: Option<(Cell, Cell)>,
    /// The kind a pawn became (or a piece was swapped for).
    pub promotion: Option<Kind>,
    /// Every side whose royal piece stands attacked after the step.
    pub checks: Vec<Side>,
    /// The sides whose standing changed, with the new one.
    pub standings: Vec<(Side, Standing)>,
    /// Whether the turn passed on (false after the first of two moves, or a removal
    /// with the move still to come).
    pub turn_ended: bool,
    /// How the game ended, when this step ended it.
    pub end: Option<GameOutcome>,
}

/// Why a step was not played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The game is over.
    GameOver,
    /// Not a step the rules allow now (an illegal move, a move before a removal owed,
    /// a second move past Peterson's limits, a stop where none may be).
    NotAllowed(Step),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::GameOver => f.write_str("the game is over"),
            PlayError::NotAllowed(Step::Stop) => {
                f.write_str("the turn cannot end here: a move is owed")
            }
            PlayError::NotAllowed(Step::Play(_)) => f.write_str("not a step the rules allow now"),
        }
    }
}

impl std::error::Error for PlayError {}

/// What a move will do, read from the position before it is played.
struct Effects {
    piece: Option<Piece>,
    capture: Option<(Piece, Cell)>,
    rook: Option<(Cell, Cell)>,
    promotion: Option<Kind>,
}

impl<B: CellSet> Game<B> {
    /// Plays `step` if the rules allow it now, and says what it did; otherwise changes
    /// nothing. [`Game::play_unchecked`] is the fast path for searches, which only
    /// play the steps [`Game::steps`] gave them.
    pub fn play(&mut self, step: Step) -> Result<StepReport, PlayError> {
        if self.end().is_some() {
            return Err(PlayError::GameOver);
        }
        if !self.steps().contains(&step) {
            return Err(PlayError::NotAllowed(step));
        }
        let side = self.side_to_move();
        let turns = self.turns().len();
        let standings: Vec<Standing> = self.sides().map(|s| self.standing(s)).collect();
        let effects = match step {
            Step::Stop => Effects {
                piece: None,
                capture: None,
                rook: None,
                promotion: None,
            },
            Step::Play(mv) => self.effects(mv),
        };
        self.play_unchecked(step);
        let changed = self
            .sides()
            .zip(standings)
            .filter(|(s, before)| self.standing(*s) != *before)
            .map(|(s, _)| (s, self.standing(s)))
            .collect();
        Ok(StepReport {
            side,
            step,
            piece: effects.piece,
            capture: effects.capture,
            rook: effects.rook,
            promotion: effects.promotion,
            checks: self.sides().filter(|s| self.in_check(*s)).collect(),
            standings: changed,
            turn_ended: self.turns().len() > turns || self.end().is_some(),
            end: self.end().copied(),
        })
    }

    /// What `mv` will do on the board as it stands.
    fn effects(&self, mv: Move) -> Effects {
        let pos = self.position();
        if mv.is_edit() {
            // A removal takes the piece off; a swap turns it into another kind.
            return Effects {
                piece: pos.piece_at(mv.to()),
                capture: None,
                rook: None,
                promotion: mv.promotion(),
            };
        }
        if let Some(kind) = mv.placed_kind() {
            return Effects {
                piece: Some(Piece::new(pos.turn(), kind)),
                capture: None,
                rook: None,
                promotion: None,
            };
        }
        let us = pos.turn();
        let rook = mv.castling().map(|i| {
            let c = &pos.rules().castling[us.index()][i];
            (c.rook, c.rook_to)
        });
        let victim_cell = match pos.en_passant() {
            Some(e) if mv.is_en_passant() => e.victim,
            _ => mv.to(),
        };
        let capture = if rook.is_some() {
            None
        } else {
            pos.piece_at(victim_cell)
                .filter(|p| p.side != us)
                .map(|p| (p, victim_cell))
        };
        Effects {
            piece: pos.piece_at(mv.from()),
            capture,
            rook,
            promotion: mv.promotion(),
        }
    }
}
