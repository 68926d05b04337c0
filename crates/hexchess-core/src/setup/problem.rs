//! Why a setup is not a position: every problem by name ([`SetupProblem`], in the
//! game's words), and the checks that need no position, only its parts (the structure
//! of pieces, hands and turn; whether a castling right fits the pieces). A leaf: the
//! position, the FEN reader and the setup all use it, and it uses none of them.

use std::fmt;

use crate::bitboard::CellSet;
use crate::cell::Cell;
use crate::piece::{Kind, MAX_KINDS, MAX_SIDES, Piece, Side};
use crate::rules::{MAX_IN_HAND, Rules};

/// Why an en-passant right cannot stand (see [`SetupProblem::BadEnPassant`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EnPassantFault {
    /// The variant has no en passant (or no pawns).
    NotInVariant,
    /// One of the skipped cells holds a piece: a pawn cannot have passed over it.
    Occupied(Cell),
    /// The last mover has no pawn one step beyond the cells, with the cells in a line
    /// along its advance and the cell it left empty: no long first move passed over
    /// them.
    NoPawn,
}

/// One reason a setup is not a playable position. Each names the side (and the cell,
/// kind or castling) it is about, so an editor can point at it; the words are
/// [`SetupProblem::describe`]'s, which needs the variant to name sides, pieces and
/// cells (and [`SetupError`] shows).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupProblem {
    /// A piece of, or the turn of, a side that does not play in this variant.
    NoSuchSide {
        /// The seat that does not play.
        side: Side,
    },
    /// Pieces in `side`'s hand in a variant without a setup phase: nothing could ever
    /// place them.
    HandNotAllowed {
        /// The side holding them.
        side: Side,
    },
    /// More pieces of one kind in hand than a position can count (the hash keys stop
    /// at `max`; no variant's hand comes near).
    TooManyInHand {
        /// The side holding them.
        side: Side,
        /// Their kind.
        kind: Kind,
        /// How many it holds.
        count: u8,
        /// The most a hand may hold of one kind.
        max: u8,
    },
    /// More pieces of one kind on the board than a position can count (`max`, a limit
    /// of the position's counters, reachable only on boards of more than 255 cells).
    TooManyPieces {
        /// Whose pieces.
        side: Side,
        /// Their kind.
        kind: Kind,
        /// How many stand on the board.
        count: usize,
        /// The most a position counts of one kind.
        max: usize,
    },
    /// `side` has no royal piece on the board or in hand: there would be nothing to
    /// checkmate. (In a game of more sides a side without one is out, and allowed.)
    MissingRoyal {
        /// The side without one.
        side: Side,
    },
    /// `side` has more than one royal piece, on the board and in hand together: the
    /// rules protect exactly one.
    TooManyRoyals {
        /// The side with several.
        side: Side,
        /// How many, board and hand together.
        count: u32,
    },
    /// In a game of more sides, the side to move is out (its royal piece is gone).
    SideToMoveIsOut {
        /// The side to move.
        side: Side,
    },
    /// In the setup phase the side to move must place, but its hand is empty.
    NothingToPlace {
        /// The side to move.
        side: Side,
    },
    /// A pawn stands where it must promote: it would have promoted on arriving.
    PawnOnPromotionCell {
        /// Whose pawn.
        side: Side,
        /// Where it stands.
        cell: Cell,
    },
    /// A castling right (`castling`, the side's castling from 0, FEN's `A`–`D`) that the
    /// variant does not have, or whose royal piece or rook is not on its starting cell
    /// (either would have lost the right by moving).
    BadCastling {
        /// Whose right.
        side: Side,
        /// Which of the side's castlings, from 0.
        castling: usize,
    },
    /// The en-passant cells (as FEN lists them, from the pawn's start) cannot have been
    /// passed over by the last move.
    BadEnPassant {
        /// The cells of the right, as FEN lists them.
        cells: Vec<Cell>,
        /// What rules them out.
        fault: EnPassantFault,
    },
    /// In a setup phase that is not hidden, `side`'s royal piece is attacked, but
    /// placements give no check.
    CheckDuringSetup {
        /// The side whose royal piece is attacked.
        side: Side,
    },
    /// `side`, which just moved, is in check while `turn` is to move: it would have
    /// moved into check. (The side to move may be in check.)
    OpponentInCheck {
        /// The side in check, which moved last.
        side: Side,
        /// The side to move.
        turn: Side,
    },
}

impl SetupProblem {
    /// The problem in the game's words, naming sides, pieces and cells as `rules` do:
    /// "White has no king", "Black is in check but it is White's move".
    pub fn describe<B: CellSet>(&self, rules: &Rules<B>) -> String {
        let side = |s: &Side| rules.side_name(*s).to_string();
        let kind = |k: &Kind| {
            rules.kinds().nth(k.index()).map_or_else(
                || "piece".to_string(),
                |k| rules.kind_info(k).name.to_lowercase(),
            )
        };
        let cell = |c: &Cell| {
            if c.index() < rules.board().len() {
                rules.board().name(*c).to_string()
            } else {
                format!("cell number {}", c.index())
            }
        };
        let royal = royal_name(rules);
        match self {
            SetupProblem::NoSuchSide { side: s } => {
                format!("{} does not play in this variant", s.name())
            }
            SetupProblem::HandNotAllowed { side: s } => format!(
                "{} holds pieces in hand, but {} has no setup phase",
                side(s),
                rules.name()
            ),
            SetupProblem::TooManyInHand {
                side: s,
                kind: k,
                count,
                max,
            } => format!(
                "{} holds {count} {} in hand; a hand holds at most {max} of a kind",
                side(s),
                plural(&kind(k))
            ),
            SetupProblem::TooManyPieces {
                side: s,
                kind: k,
                count,
                max,
            } => format!(
                "{} has {count} {} on the board; a position counts at most {max} of a kind",
                side(s),
                plural(&kind(k))
            ),
            SetupProblem::MissingRoyal { side: s } => format!("{} has no {royal}", side(s)),
            SetupProblem::TooManyRoyals { side: s, count } => format!(
                "{} has {count} {}; a side has exactly one",
                side(s),
                plural(&royal)
            ),
            SetupProblem::SideToMoveIsOut { side: s } => format!(
                "it is {}'s move, but {} is out of the game (it has no {royal})",
                side(s),
                side(s)
            ),
            SetupProblem::NothingToPlace { side: s } => format!(
                "it is {}'s turn to place a piece, but its hand is empty",
                side(s)
            ),
            SetupProblem::PawnOnPromotionCell { side: s, cell: c } => format!(
                "{}'s {} on {} stands where it must promote",
                side(s),
                rules
                    .pawn_kind()
                    .map_or_else(|| "pawn".to_string(), |k| kind(&k)),
                cell(c)
            ),
            SetupProblem::BadCastling {
                side: s,
                castling: i,
            } => match rules.castling_cells(*s, *i) {
                None => format!(
                    "{} has a castling right {} that this variant does not have",
                    side(s),
                    castling_letter(*s, *i)
                ),
                Some(cells) => format!(
                    "{} may not castle {}: that needs its {royal} on {} and its rook on {}",
                    side(s),
                    rules.castling_notation(*s, *i).unwrap_or("?"),
                    cell(&cells.king),
                    cell(&cells.rook)
                ),
            },
            SetupProblem::BadEnPassant { cells, fault } => {
                let names: Vec<String> = cells.iter().map(cell).collect();
                let names = names.join(",");
                match fault {
                    EnPassantFault::NotInVariant => {
                        format!("en passant on {names}, but {} has none", rules.name())
                    }
                    EnPassantFault::Occupied(c) => format!(
                        "en passant on {names}, but {} is occupied: no pawn passed over it",
                        cell(c)
                    ),
                    EnPassantFault::NoPawn => format!(
                        "en passant on {names}, but no pawn can just have passed over {}",
                        if cells.len() == 1 { "it" } else { "them" }
                    ),
                }
            }
            SetupProblem::CheckDuringSetup { side: s } => format!(
                "{} is in check during the setup, where placements give no check",
                side(s)
            ),
            SetupProblem::OpponentInCheck { side: s, turn } => {
                format!("{} is in check but it is {}'s move", side(s), side(turn))
            }
        }
    }
}

/// Every problem found in a setup (at least one), each with its words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupError {
    problems: Vec<SetupProblem>,
    descriptions: Vec<String>,
}

impl SetupError {
    pub(crate) fn new<B: CellSet>(rules: &Rules<B>, problems: Vec<SetupProblem>) -> SetupError {
        let descriptions = problems.iter().map(|p| p.describe(rules)).collect();
        SetupError {
            problems,
            descriptions,
        }
    }

    /// The problems, in the order [`Setup::validate`](crate::Setup::validate) checks them.
    pub fn problems(&self) -> &[SetupProblem] {
        &self.problems
    }

    /// Each problem's words, in the same order.
    pub fn descriptions(&self) -> &[String] {
        &self.descriptions
    }

    /// Whether `problem` is among them.
    pub fn contains(&self, problem: &SetupProblem) -> bool {
        self.problems.contains(problem)
    }
}

impl fmt::Display for SetupError {
    /// The problems' words, separated by `; `.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.descriptions.join("; "))
    }
}

impl std::error::Error for SetupError {}

/// The name of the variant's royal piece, lower case ("king"), or "royal piece" when
/// it has several royal kinds.
fn royal_name<B: CellSet>(rules: &Rules<B>) -> String {
    let mut royals = rules.kinds().filter(|k| rules.is_royal(*k));
    match (royals.next(), royals.next()) {
        (Some(k), None) => rules.kind_info(k).name.to_lowercase(),
        _ => "royal piece".to_string(),
    }
}

/// An English plural, good enough for piece names ("kings", "bishops").
fn plural(word: &str) -> String {
    if word.ends_with('s') || word.ends_with('x') || word.ends_with("ch") {
        format!("{word}es")
    } else {
        format!("{word}s")
    }
}

/// FEN's letter of castling `index` of `side`: `A`–`D` White's, `a`–`d` Black's.
pub(super) fn castling_letter(side: Side, index: usize) -> String {
    match u8::try_from(index).ok().filter(|i| *i < 4) {
        Some(i) if side == Side::White => char::from(b'A' + i).to_string(),
        Some(i) if side == Side::Black => char::from(b'a' + i).to_string(),
        _ => format!("number {}", index + 1),
    }
}

/// What makes pieces, hands and turn unplayable, whatever the rest: a side or turn the
/// variant does not have, hands it cannot have or count, counts a position cannot hold,
/// and the royal pieces (exactly one a side, on the board or in hand; in a game of more
/// sides none, for a side that is out). A position can be built only without these.
pub(crate) fn structural_problems<B: CellSet>(
    rules: &Rules<B>,
    pieces: &[(Cell, Piece)],
    hand: &[[u8; MAX_KINDS]; MAX_SIDES],
    turn: Side,
) -> Vec<SetupProblem> {
    let mut problems = Vec::new();
    let plays = |s: Side| s.index() < rules.side_count();
    for side in Side::ALL {
        if !plays(side) && (turn == side || pieces.iter().any(|(_, p)| p.side == side)) {
            problems.push(SetupProblem::NoSuchSide { side });
        }
    }
    let holds = |s: Side| hand[s.index()].iter().any(|n| *n > 0);
    let held = Side::ALL.into_iter().any(holds);
    if held && !rules.has_setup_phase() {
        for side in Side::ALL.into_iter().filter(|s| holds(*s)) {
            problems.push(SetupProblem::HandNotAllowed { side });
        }
    }
    let mut counts = [[0usize; MAX_KINDS]; MAX_SIDES];
    for (_, p) in pieces {
        if let Some(n) = counts[p.side.index()].get_mut(p.kind.index()) {
            *n += 1;
        }
    }
    for side in rules.sides() {
        for k in rules.kinds() {
            let n = hand[side.index()][k.index()];
            if usize::from(n) >= MAX_IN_HAND {
                problems.push(SetupProblem::TooManyInHand {
                    side,
                    kind: k,
                    count: n,
                    max: (MAX_IN_HAND - 1) as u8,
                });
            }
            let on_board = counts[side.index()][k.index()];
            if on_board > usize::from(u8::MAX) {
                problems.push(SetupProblem::TooManyPieces {
                    side,
                    kind: k,
                    count: on_board,
                    max: usize::from(u8::MAX),
                });
            }
        }
    }
    let royal_kinds: Vec<Kind> = rules.kinds().filter(|k| rules.is_royal(*k)).collect();
    let mut turn_out = false;
    for side in rules.sides() {
        let on_board: u32 = royal_kinds
            .iter()
            .map(|k| counts[side.index()][k.index()] as u32)
            .sum();
        let in_hand: u32 = royal_kinds
            .iter()
            .map(|k| u32::from(hand[side.index()][k.index()]))
            .sum();
        let total = on_board + in_hand;
        // In a game of more sides a side whose royal piece was captured is out; its
        // army stays (the game above the position says how).
        let out_allowed = rules.side_count() > 2 && total == 0;
        if total == 0 && !out_allowed {
            problems.push(SetupProblem::MissingRoyal { side });
        } else if total > 1 {
            problems.push(SetupProblem::TooManyRoyals { side, count: total });
        }
        if side == turn && on_board == 0 && out_allowed {
            turn_out = true;
        }
    }
    if plays(turn) {
        if !held && turn_out {
            problems.push(SetupProblem::SideToMoveIsOut { side: turn });
        }
        if held && rules.has_setup_phase() && !holds(turn) {
            problems.push(SetupProblem::NothingToPlace { side: turn });
        }
    }
    problems
}

/// Whether `side` may keep the right to its castling `i` with these pieces: the
/// castling exists, the side's royal piece is on its cell and, on the rook's, a piece of
/// the side that is not royal (of the kind the start array puts there, if it does).
pub(crate) fn castling_possible<B: CellSet>(
    rules: &Rules<B>,
    side: Side,
    i: usize,
    piece_at: impl Fn(Cell) -> Option<Piece>,
) -> bool {
    let Some(c) = rules.castling_cells(side, i) else {
        return false;
    };
    let king_home = piece_at(c.king).is_some_and(|p| p.side == side && rules.is_royal(p.kind));
    let start_rook = rules
        .setup()
        .iter()
        .find(|(cell, p)| *cell == c.rook && p.side == side)
        .map(|(_, p)| p.kind);
    let rook_home = piece_at(c.rook).is_some_and(|p| {
        p.side == side && !rules.is_royal(p.kind) && start_rook.is_none_or(|k| k == p.kind)
    });
    king_home && rook_home
}
