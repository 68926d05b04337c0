//! An editable position that need not be legal, and exactly why one is not.
//!
//! A board editor changes a [`Setup`] freely (pieces placed, removed and moved, the side
//! to move, hands, castling rights, the en-passant cells, clocks) and asks
//! [`Setup::validate`] for a playable [`Position`]. When the setup cannot be played the
//! answer is a [`SetupError`] naming every [`SetupProblem`] at once, in the game's words
//! ("White has no king"), so the editor can show them all and the player fix them in
//! any order. Hex FEN reading goes the same way ([`Position::from_fen`] reads a setup,
//! then validates it), so a bad FEN names the same problems.
//!
//! ```
//! use std::sync::Arc;
//! use hexchess_core::{Catalog, Piece, Setup, SetupProblem, Side};
//!
//! let rules = Catalog::builtin().get("glinski").expect("a built-in").two_player_rules().unwrap();
//! let board = rules.board();
//! let king = rules.kind_by_letter('K').expect("a king");
//! let mut setup = Setup::empty(Arc::clone(&rules));
//! setup.place(board.parse_cell("g1").unwrap(), Piece::new(Side::White, king))?;
//! let err = setup.validate().unwrap_err();
//! assert_eq!(err.problems(), [SetupProblem::MissingRoyal { side: Side::Black }]);
//! assert_eq!(err.to_string(), "Black has no king");
//!
//! setup.place(board.parse_cell("g10").unwrap(), Piece::new(Side::Black, king))?;
//! let pos = setup.validate().expect("two kings apart");
//! assert_eq!(pos.to_fen(), "6/7/8/9/10/11/K8k/9/8/7/6 w - 0 1");
//! # Ok::<(), hexchess_core::setup::EditError>(())
//! ```

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use crate::bitboard::{Bitboard, CellSet};
use crate::cell::Cell;
use crate::fen::FenError;
use crate::fen::write_fen;
use crate::piece::{Kind, MAX_KINDS, MAX_SIDES, Piece, Side};
use crate::position::{EnPassant, Phase, Position, State};
use crate::rules::{Rules, castle_bit};

pub(crate) mod problem;

use problem::castling_letter;
pub use problem::{EnPassantFault, SetupError, SetupProblem};
pub(crate) use problem::{castling_possible, structural_problems};

/// An edit a setup cannot take: something the variant's board or rules do not have.
/// The setup is left as it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EditError {
    /// A cell of another, larger board (cells are indices into their board).
    CellNotOnBoard {
        /// The cell's index.
        index: usize,
    },
    /// A piece kind of another variant, with more kinds than this one.
    KindNotInVariant {
        /// The kind's index in its own variant's piece list.
        index: usize,
    },
    /// A side that does not play in this variant (the third and fourth seats of a
    /// two-player game).
    SideNotInVariant {
        /// The seat that does not play.
        side: Side,
    },
    /// A castling right of a castling the variant does not have (`index` counts the
    /// side's castlings from 0, as FEN's `A`–`D`).
    NoSuchCastling {
        /// Whose castling.
        side: Side,
        /// Which of the side's castlings, from 0.
        index: usize,
    },
    /// A piece moved from an empty cell.
    NothingToMove,
    /// A fullmove number of 0: the count starts at 1.
    ZeroMoveNumber,
    /// A colour flip of a variant whose board or rules are not symmetric under it (see
    /// [`Rules::is_colour_symmetric`]), or that has more than two sides.
    NotColourSymmetric,
}

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EditError::CellNotOnBoard { index } => {
                write!(f, "cell number {index} is not on this board")
            }
            EditError::KindNotInVariant { index } => {
                write!(f, "piece kind number {index} is not in this variant")
            }
            EditError::SideNotInVariant { side } => {
                write!(f, "{side} does not play in this variant")
            }
            EditError::NoSuchCastling { side, index } => write!(
                f,
                "{side} has no castling {} in this variant",
                castling_letter(*side, *index)
            ),
            EditError::NothingToMove => write!(f, "there is no piece on that cell to move"),
            EditError::ZeroMoveNumber => write!(f, "the fullmove number starts at 1, not 0"),
            EditError::NotColourSymmetric => write!(
                f,
                "this variant's board or rules change when the colours are swapped"
            ),
        }
    }
}

impl std::error::Error for EditError {}

/// A position being set up: pieces by cell, the side to move, hands, castling rights,
/// en-passant cells and clocks, none of it checked until [`Setup::validate`]. Cells and
/// kinds come from the variant's [`Rules`]; an edit naming one of another variant is
/// refused with an [`EditError`], so a setup always describes this variant's board and
/// can always be written as hex FEN ([`Setup::to_fen`]).
///
/// Edits do not tidy up after one another: removing a rook keeps its castling right,
/// moving a pawn keeps the en-passant cells. [`Setup::validate`] names what no longer
/// fits.
#[derive(Clone)]
pub struct Setup<B: CellSet = Bitboard> {
    rules: Arc<Rules<B>>,
    pieces: BTreeMap<Cell, Piece>,
    turn: Side,
    hand: [[u8; MAX_KINDS]; MAX_SIDES],
    castling: u8,
    en_passant: Vec<Cell>,
    halfmove: u16,
    fullmove: u32,
}

impl<B: CellSet> Setup<B> {
    /// An empty board, White to move, empty hands, no castling or en-passant right,
    /// clocks `0 1`.
    pub fn empty(rules: Arc<Rules<B>>) -> Setup<B> {
        Setup {
            rules,
            pieces: BTreeMap::new(),
            turn: Side::White,
            hand: [[0; MAX_KINDS]; MAX_SIDES],
            castling: 0,
            en_passant: Vec::new(),
            halfmove: 0,
            fullmove: 1,
        }
    }

    /// A position as a setup, to edit: everything FEN would write of it.
    pub fn from_position(pos: &Position<B>) -> Setup<B> {
        let rules = pos.rules_arc();
        let mut hand = [[0; MAX_KINDS]; MAX_SIDES];
        for side in rules.sides() {
            for k in rules.kinds() {
                hand[side.index()][k.index()] = pos.in_hand(side, k);
            }
        }
        Setup {
            rules: Arc::clone(rules),
            pieces: pos.pieces().collect(),
            turn: pos.turn(),
            hand,
            castling: pos.castling_rights(),
            en_passant: pos
                .en_passant()
                .map_or_else(Vec::new, |e| en_passant_cells(rules, &e)),
            halfmove: pos.halfmove_clock(),
            fullmove: pos.fullmove_number(),
        }
    }

    /// Reads a hex FEN without asking whether its position is legal (so that an editor
    /// can load any position to fix it): only the text's form is checked, as by
    /// [`Position::from_fen`], whose other refusals come from [`Setup::validate`].
    pub fn from_fen(rules: Arc<Rules<B>>, fen: &str) -> Result<Setup<B>, FenError> {
        let parts = crate::fen::parse_parts(&rules, fen)?;
        Ok(Setup {
            rules,
            pieces: parts.pieces.into_iter().collect(),
            turn: parts.turn,
            hand: parts.hand,
            castling: parts.castling,
            en_passant: parts.en_passant,
            halfmove: parts.halfmove,
            fullmove: parts.fullmove,
        })
    }

    /// The setup as hex FEN, legal or not: pieces in hand are written (in brackets)
    /// whenever a hand holds something, castling rights as they are set.
    /// [`Setup::from_fen`] reads it back to the same setup.
    pub fn to_fen(&self) -> String {
        let rules = &*self.rules;
        let held = Side::BOTH
            .iter()
            .any(|s| self.hand[s.index()].iter().any(|n| *n > 0));
        crate::fen::write_fen(
            rules,
            |c| self.pieces.get(&c).copied(),
            held.then_some(&self.hand),
            self.turn,
            self.castling,
            &self.en_passant,
            self.halfmove,
            self.fullmove,
        )
    }

    /// The rules of the variant being set up.
    pub fn rules(&self) -> &Rules<B> {
        &self.rules
    }

    /// The shared rules, for building other setups or positions of the same variant.
    pub fn rules_arc(&self) -> &Arc<Rules<B>> {
        &self.rules
    }

    /// The piece on a cell (none off the board).
    pub fn piece_at(&self, cell: Cell) -> Option<Piece> {
        self.pieces.get(&cell).copied()
    }

    /// Every piece with its cell, in cell order.
    pub fn pieces(&self) -> impl Iterator<Item = (Cell, Piece)> + '_ {
        self.pieces.iter().map(|(c, p)| (*c, *p))
    }

    /// Puts `piece` on `cell`, replacing whatever stood there (returned).
    pub fn place(&mut self, cell: Cell, piece: Piece) -> Result<Option<Piece>, EditError> {
        self.check_cell(cell)?;
        self.check_side(piece.side)?;
        self.check_kind(piece.kind)?;
        Ok(self.pieces.insert(cell, piece))
    }

    /// Takes the piece off `cell`, returning it (none on an empty cell or off the board).
    pub fn remove(&mut self, cell: Cell) -> Option<Piece> {
        self.pieces.remove(&cell)
    }

    /// Moves the piece on `from` to `to`. A piece already on `to` is replaced, as a
    /// capture would (it is returned); moving a piece onto its own cell changes nothing.
    /// Nothing else follows the piece: no castling right is lost, no en passant given.
    pub fn move_piece(&mut self, from: Cell, to: Cell) -> Result<Option<Piece>, EditError> {
        self.check_cell(from)?;
        self.check_cell(to)?;
        if from == to {
            return if self.pieces.contains_key(&from) {
                Ok(None)
            } else {
                Err(EditError::NothingToMove)
            };
        }
        let piece = self.pieces.remove(&from).ok_or(EditError::NothingToMove)?;
        Ok(self.pieces.insert(to, piece))
    }

    /// Empties the board and the hands and drops the castling rights and the
    /// en-passant cells; the side to move and the clocks stay.
    pub fn clear(&mut self) {
        self.pieces.clear();
        self.hand = [[0; MAX_KINDS]; MAX_SIDES];
        self.castling = 0;
        self.en_passant.clear();
    }

    /// The side to move.
    pub fn turn(&self) -> Side {
        self.turn
    }

    /// Sets the side to move; a side that does not play in the variant is refused.
    pub fn set_turn(&mut self, side: Side) -> Result<(), EditError> {
        self.check_side(side)?;
        self.turn = side;
        Ok(())
    }

    /// How many pieces of a kind `side` holds in hand.
    pub fn in_hand(&self, side: Side, kind: Kind) -> u8 {
        self.hand[side.index()]
            .get(kind.index())
            .copied()
            .unwrap_or(0)
    }

    /// Sets how many pieces of a kind `side` holds in hand. Any count is taken; a
    /// variant without a setup phase, or a count beyond what a hand holds, is
    /// [`Setup::validate`]'s to refuse.
    pub fn set_in_hand(&mut self, side: Side, kind: Kind, count: u8) -> Result<(), EditError> {
        self.check_side(side)?;
        self.check_kind(kind)?;
        self.hand[side.index()][kind.index()] = count;
        Ok(())
    }

    /// Castling rights: bit `4 side + i` for castling `i` of `side` (as
    /// [`Position::castling_rights`]).
    pub fn castling_rights(&self) -> u8 {
        self.castling
    }

    /// Whether `side` keeps the right to castling `index` (FEN's `A`–`D` from 0).
    pub fn can_castle(&self, side: Side, index: usize) -> bool {
        index < 4 && side.index() < 2 && self.castling & castle_bit(side, index) != 0
    }

    /// Gives or takes `side`'s right to its castling `index` (FEN's `A`–`D` from 0).
    pub fn set_castling(
        &mut self,
        side: Side,
        index: usize,
        allowed: bool,
    ) -> Result<(), EditError> {
        if self.rules.castling_cells(side, index).is_none() || side.index() >= 2 {
            return Err(EditError::NoSuchCastling { side, index });
        }
        if allowed {
            self.castling |= castle_bit(side, index);
        } else {
            self.castling &= !castle_bit(side, index);
        }
        Ok(())
    }

    /// Takes every castling right whose royal piece or rook is not on its starting
    /// cell, and any of a castling the variant does not have: what reading FEN does,
    /// leniently (docs/rules.md §8.2).
    pub fn drop_impossible_castling(&mut self) {
        let mut kept = 0;
        for side in Side::BOTH {
            for i in 0..4 {
                let bit = castle_bit(side, i);
                if self.castling & bit != 0
                    && castling_possible(&self.rules, side, i, |c| self.piece_at(c))
                {
                    kept |= bit;
                }
            }
        }
        self.castling = kept;
    }

    /// The cells the last move's pawn passed over (from its start), empty for none.
    pub fn en_passant(&self) -> &[Cell] {
        &self.en_passant
    }

    /// Sets the en-passant cells: those the last move's pawn passed over, in order from
    /// its start (one after a double step); none to take the right away.
    pub fn set_en_passant(&mut self, cells: &[Cell]) -> Result<(), EditError> {
        for c in cells {
            self.check_cell(*c)?;
        }
        self.en_passant = cells.to_vec();
        Ok(())
    }

    /// Plies since the last capture or pawn move.
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    /// Sets the plies since the last capture or pawn move.
    pub fn set_halfmove_clock(&mut self, plies: u16) {
        self.halfmove = plies;
    }

    /// The move number, from 1.
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// Sets the move number; 0 is refused, as the count starts at 1.
    pub fn set_fullmove_number(&mut self, number: u32) -> Result<(), EditError> {
        if number == 0 {
            return Err(EditError::ZeroMoveNumber);
        }
        self.fullmove = number;
        Ok(())
    }

    /// The colour-flipped twin: every piece changes colour and is reflected top to
    /// bottom, hands swap, the other side moves, castling rights and en-passant cells
    /// follow their pieces. Refused when the variant is not symmetric under the flip.
    pub fn colour_flipped(&self) -> Result<Setup<B>, EditError> {
        let rules = &*self.rules;
        if !rules.is_colour_symmetric() || rules.side_count() != 2 {
            return Err(EditError::NotColourSymmetric);
        }
        let b = rules.board();
        let mirror = |c: Cell| b.mirror(c).ok_or(EditError::NotColourSymmetric);
        let mut pieces = BTreeMap::new();
        for (c, p) in &self.pieces {
            pieces.insert(mirror(*c)?, Piece::new(!p.side, p.kind));
        }
        let en_passant = self
            .en_passant
            .iter()
            .map(|c| mirror(*c))
            .collect::<Result<_, _>>()?;
        // Rights of castlings the variant does not have have no image: they go.
        let existing = (0..4)
            .flat_map(|i| Side::BOTH.map(|s| (s, i)))
            .filter(|(s, i)| rules.castling_cells(*s, *i).is_some())
            .fold(0, |m, (s, i)| m | castle_bit(s, i));
        let castling = crate::position::flip_castling_rights(rules, self.castling & existing)
            .ok_or(EditError::NotColourSymmetric)?;
        let mut hand = self.hand;
        hand.swap(0, 1);
        Ok(Setup {
            rules: Arc::clone(&self.rules),
            pieces,
            turn: !self.turn,
            hand,
            castling,
            en_passant,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
        })
    }

    /// The position, if this setup is one the game can be played from; otherwise
    /// every problem found, not just the first. A position is refused when:
    /// - a side has no royal piece, or more than one (on the board and in hand);
    /// - pieces are in hand in a variant without a setup phase, or the side to place
    ///   holds nothing;
    /// - a pawn stands where it must promote;
    /// - a castling right's royal piece or rook is not on its starting cell;
    /// - the en-passant cells were not just passed over by a pawn of the last mover;
    /// - the side that just moved is in check (or, in an open setup phase, anyone is);
    /// - and the rarer cases of [`SetupProblem`].
    ///
    /// Checks of pieces' attacks need one royal piece a side, so while one is missing
    /// or doubled they wait: fixing that may bring a check to light.
    pub fn validate(&self) -> Result<Position<B>, SetupError> {
        let rules = &*self.rules;
        let pieces: Vec<(Cell, Piece)> = self.pieces().collect();
        let mut problems = structural_problems(rules, &pieces, &self.hand, self.turn);
        let can_build = problems.is_empty();
        if let Some(pawn) = rules.pawn_kind() {
            for &(cell, p) in &pieces {
                if p.kind == pawn && rules.is_promotion_cell(p.side, cell) {
                    problems.push(SetupProblem::PawnOnPromotionCell { side: p.side, cell });
                }
            }
        }
        for side in Side::BOTH {
            for i in 0..4 {
                if self.castling & castle_bit(side, i) != 0
                    && !castling_possible(rules, side, i, |c| self.piece_at(c))
                {
                    problems.push(SetupProblem::BadCastling { side, castling: i });
                }
            }
        }
        let ep = if self.en_passant.is_empty() {
            None
        } else {
            match en_passant_of(rules, |c| self.piece_at(c), self.turn, &self.en_passant) {
                Ok(e) => Some(e),
                Err(fault) => {
                    problems.push(SetupProblem::BadEnPassant {
                        cells: self.en_passant.clone(),
                        fault,
                    });
                    None
                }
            }
        };
        if !can_build {
            return Err(SetupError::new(rules, problems));
        }
        let state = State {
            turn: self.turn,
            ep,
            castling: self.castling,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
        };
        let pos = Position::assemble(Arc::clone(&self.rules), &pieces, self.hand, state);
        problems.extend(check_problem(&pos));
        if problems.is_empty() {
            Ok(pos)
        } else {
            Err(SetupError::new(rules, problems))
        }
    }

    fn check_cell(&self, cell: Cell) -> Result<(), EditError> {
        if cell.index() < self.rules.board().len() {
            Ok(())
        } else {
            Err(EditError::CellNotOnBoard {
                index: cell.index(),
            })
        }
    }

    fn check_side(&self, side: Side) -> Result<(), EditError> {
        if side.index() < self.rules.side_count() {
            Ok(())
        } else {
            Err(EditError::SideNotInVariant { side })
        }
    }

    fn check_kind(&self, kind: Kind) -> Result<(), EditError> {
        if kind.index() < self.rules.kinds().len() {
            Ok(())
        } else {
            Err(EditError::KindNotInVariant {
                index: kind.index(),
            })
        }
    }
}

impl<B: CellSet> fmt::Debug for Setup<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Setup({})", self.to_fen())
    }
}

impl<B: CellSet> PartialEq for Setup<B> {
    /// Same variant and everything FEN writes.
    fn eq(&self, o: &Setup<B>) -> bool {
        self.rules.id() == o.rules.id()
            && self.pieces == o.pieces
            && self.turn == o.turn
            && self.hand == o.hand
            && self.castling == o.castling
            && self.en_passant == o.en_passant
            && self.halfmove == o.halfmove
            && self.fullmove == o.fullmove
    }
}

/// The en-passant cells as FEN lists them: from the pawn's start onward.
pub(crate) fn en_passant_cells<B: CellSet>(rules: &Rules<B>, e: &EnPassant<B>) -> Vec<Cell> {
    let board = rules.board();
    let v = board.hex(e.victim);
    let mut cells: Vec<Cell> = e.targets.into_iter().collect();
    cells.sort_by_key(|c| std::cmp::Reverse(board.hex(*c).distance(v)));
    cells
}

/// The en-passant right of the named cells (in order from the pawn's start), if the
/// last mover's pawn can just have passed over them: the cells empty and consecutive
/// along one of its advance vectors, the pawn one step beyond the last, and the cell
/// one step before the first empty.
pub(crate) fn en_passant_of<B: CellSet>(
    rules: &Rules<B>,
    piece_at: impl Fn(Cell) -> Option<Piece>,
    turn: Side,
    targets: &[Cell],
) -> Result<EnPassant<B>, EnPassantFault> {
    let board = rules.board();
    // Only variants with en passant have the right (Grand Hexachess has none).
    let pawn = rules
        .pawn
        .as_ref()
        .filter(|p| p.en_passant)
        .ok_or(EnPassantFault::NotInVariant)?;
    if let Some(t) = targets.iter().find(|t| piece_at(**t).is_some()) {
        return Err(EnPassantFault::Occupied(*t));
    }
    let (Some(&first), Some(&last)) = (targets.first(), targets.last()) else {
        return Err(EnPassantFault::NoPawn);
    };
    let mover = !turn;
    for v in &pawn.advance_vectors[mover.index()] {
        // Consecutive along `v`, in the order written.
        let consecutive = targets
            .windows(2)
            .all(|w| board.offset(w[0], *v) == Some(w[1]));
        let (Some(victim), Some(from)) = (board.offset(last, *v), board.offset(first, -*v)) else {
            continue;
        };
        if consecutive
            && piece_at(victim) == Some(Piece::new(mover, pawn.kind))
            && piece_at(from).is_none()
        {
            return Ok(EnPassant {
                targets: targets.iter().copied().collect(),
                victim,
            });
        }
    }
    Err(EnPassantFault::NoPawn)
}

/// Whether `side` is checkmated as the board stands (in a game of more sides the side
/// before the one to move may be: it lost its turn to a checkmate freeze).
fn is_mated<B: CellSet>(pos: &Position<B>, side: Side) -> bool {
    let mut p = pos.clone();
    p.make_pass(side);
    p.in_check() && p.legal_moves().is_empty()
}

/// The side that just moved may not be in check: it would have moved into it. In a
/// setup phase that is not hidden no royal piece may be attacked at all (placements
/// give no check); a hidden one reveals nothing before its end.
fn check_problem<B: CellSet>(pos: &Position<B>) -> Option<SetupProblem> {
    let rules = pos.rules();
    let turn = pos.turn();
    let n = rules.side_count();
    let mover = Side::from_index((turn.index() + n - 1) % n);
    let attacked = |side: Side| {
        pos.royal_on_board(side)
            && rules
                .enemies(side)
                .iter()
                .any(|them| pos.is_attacked(pos.royal_cell(side), *them))
    };
    match pos.phase() {
        Phase::Setup if rules.setup_is_hidden() => None,
        Phase::Setup => Side::BOTH
            .into_iter()
            .find(|s| attacked(*s))
            .map(|side| SetupProblem::CheckDuringSetup { side }),
        _ if attacked(mover) && !(n > 2 && is_mated(pos, mover)) => {
            Some(SetupProblem::OpponentInCheck { side: mover, turn })
        }
        _ => None,
    }
}

/// Hex FEN for positions: read through a [`Setup`] (so an impossible position names
/// every problem it has), written from the position's own fields.
impl<B: CellSet> Position<B> {
    /// Reads a hex FEN. The clocks may be left out (they default to `0 1`), and the
    /// en-passant field too. The text is read as a [`Setup`], whose castling rights
    /// the pieces do not allow are dropped (docs/rules.md §8.2), then validated: an
    /// impossible position is refused with every [`SetupProblem`]
    /// it has ([`FenError::Position`]).
    pub fn from_fen(rules: Arc<Rules<B>>, fen: &str) -> Result<Position<B>, FenError> {
        let mut setup = Setup::from_fen(rules, fen)?;
        setup.drop_impossible_castling();
        setup.validate().map_err(FenError::Position)
    }

    /// Writes the position as hex FEN.
    pub fn to_fen(&self) -> String {
        let rules = &*self.rules;
        let hand = (self.phase() == Phase::Setup).then_some(&self.hand);
        let ep = self
            .ep
            .map_or_else(Vec::new, |e| en_passant_cells(rules, &e));
        write_fen(
            rules,
            |c| self.piece_at(c),
            hand,
            self.turn,
            self.castling,
            &ep,
            self.halfmove,
            self.fullmove,
        )
    }
}
