//! Variants: what the core needs to know to play a game, and where it comes from.
//!
//! Loading goes in three steps: RON text is parsed into a raw [`def::VariantDef`]
//! (serde), checked into a [`VariantSpec`] (every problem reported at once, with its
//! line and column), and compiled into [`Rules`](crate::Rules) tables. The core only
//! ever asks the [`Variant`] trait, so a test or a program may describe a variant in
//! code instead of a file.

pub mod builtin;
pub mod def;
mod error;
mod locate;
mod validate;

pub use builtin::{BUILTIN_VARIANTS, builtin};
pub use error::{Problem, VariantError};
pub use validate::{MAX_PIECE_VALUE, MAX_VARIANT_FILE_BYTES, parse_variant};

use crate::board::Naming;
use crate::hex::{Hex, Layout};
use crate::piece::{Points, Side};

/// Everything the rules engine asks of a variant.
pub trait Variant {
    /// Short identifier, such as `glinski`.
    fn id(&self) -> &str;
    /// Display name, such as `Gliński`.
    fn name(&self) -> &str;
    /// How the board is drawn; also fixes Black's mirror.
    fn layout(&self) -> Layout;
    /// How cells are named and grouped in FEN.
    fn naming(&self) -> Naming;
    /// The board's cells.
    fn cells(&self) -> &[Hex];
    /// Piece types; their order is the order of [`Kind`](crate::Kind) indices.
    fn pieces(&self) -> &[PieceType];
    /// The starting array.
    fn setup(&self) -> &[Placement];
    /// Pawn rules, if the variant has pawns.
    fn pawn(&self) -> Option<&PawnRules>;
    /// Promotion rules, if pawns promote.
    fn promotion(&self) -> Option<&PromotionRules>;
    /// How a stalemate is scored.
    fn stalemate(&self) -> StalemateScore;
    /// Automatic draws.
    fn draw_rules(&self) -> DrawRules {
        DrawRules::default()
    }
    /// Castling moves per side (indexed by [`Side::index`]); none by default.
    fn castling(&self) -> [&[CastlingRule]; 2] {
        [&[], &[]]
    }
    /// Pieces placed from the hand before the first move; none by default.
    fn setup_phase(&self) -> Option<&SetupPhase> {
        None
    }
    /// The sides in turn order: by default White, facing up, and Black, facing down.
    fn sides(&self) -> Vec<SideSpec> {
        SideSpec::two()
    }
    /// How a game of more than two sides plays; `None` for two sides.
    fn multiplayer(&self) -> Option<&crate::multi::MultiRules> {
        None
    }
}

/// A side of a variant: its name, which way it faces, and its team.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SideSpec {
    /// The side's name as the game shows it (`White`, or what the file calls it).
    pub name: String,
    /// Sixths of a turn from White's view: a side's moves, pawn directions and setup
    /// are White's turned this far (Black's 3 is today's negation).
    pub rotation: u8,
    /// Sides with the same team number are allies.
    pub team: Option<u8>,
}

impl SideSpec {
    /// The two sides of every two-player variant.
    pub fn two() -> Vec<SideSpec> {
        vec![
            SideSpec {
                name: "White".into(),
                rotation: 0,
                team: None,
            },
            SideSpec {
                name: "Black".into(),
                rotation: 3,
                team: None,
            },
        ]
    }
}

/// A setup phase: the players bring pieces from their hands onto the board before the
/// first move (Peterson's Pre-HexaChess and Screen HexaChess). The starting array
/// ([`Variant::setup`]) holds what is on the board from the start.
#[derive(Clone, Debug, PartialEq)]
pub struct SetupPhase {
    /// Each side's hand at the start (indexed by [`Side::index`]): letters with counts.
    pub hand: [Vec<(char, u8)>; 2],
    /// Where each side may place (indexed by [`Side::index`]).
    pub zone: [Vec<Hex>; 2],
    /// Who places next: in turn, or each side its whole hand.
    pub order: PlacementOrder,
    /// Whether each side places unseen by the other (Screen): placements then ignore
    /// the other side's pieces, and the first move waits for the reveal.
    pub hidden: bool,
    /// Letters of kinds whose pieces of one side must all stand on cells of different
    /// colours (Pre-HexaChess's three bishops, like Pre-Chess's two).
    pub distinct_colours: Vec<char>,
}

/// Who places next in a setup phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
pub enum PlacementOrder {
    /// One piece each in turn, White first; a side whose hand is empty is passed over.
    Alternate,
    /// White places its whole hand, then Black.
    AllAtOnce,
}

/// A piece type and how it moves.
#[derive(Clone, Debug, PartialEq)]
pub struct PieceType {
    /// Upper-case letter; Black's pieces print in lower case.
    pub letter: char,
    /// The name the game shows, such as `Knight`.
    pub name: String,
    /// Royal pieces may not be left attacked; each side has exactly one.
    pub royal: bool,
    /// The ways it moves; it may move by any of them. Empty for the pawn, which moves
    /// by [`PawnRules`].
    pub atoms: Vec<Atom>,
    /// Material value in centipawns, if the variant sets one.
    pub value: Option<i32>,
}

/// One way of moving: a reach along a set of vectors, with a capture mode.
#[derive(Clone, Debug, PartialEq)]
pub struct Atom {
    /// A single step or leap, or a slide that repeats it.
    pub reach: Reach,
    /// Vectors for White; Black uses them negated.
    pub vectors: Vec<Hex>,
    /// Whether it may land on an empty cell, on an enemy piece, or on either.
    pub mode: MoveMode,
}

/// How far along a vector an atom goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// Exactly one vector (a step or a leap: nothing in between can block it).
    Leap,
    /// Repeated steps until blocked, at most `max` steps when given.
    Slide {
        /// The most steps (`SlideUpTo` in a file); `None` to the edge of the board.
        max: Option<u8>,
    },
}

/// Whether an atom moves, captures, or both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveMode {
    /// Onto an empty cell or an enemy piece, as most pieces move.
    MoveOrCapture,
    /// Onto an empty cell only (`MoveOnly` in a file).
    MoveOnly,
    /// Onto an enemy piece only (`CaptureOnly` in a file).
    CaptureOnly,
}

impl MoveMode {
    /// Whether the atom may land on an empty cell.
    pub fn moves(self) -> bool {
        self != MoveMode::CaptureOnly
    }

    /// Whether the atom may land on an enemy piece and take it.
    pub fn captures(self) -> bool {
        self != MoveMode::MoveOnly
    }
}

/// Pawn rules. Vectors are White's; Black's are negated. Cell sets are per side.
#[derive(Clone, Debug, PartialEq)]
pub struct PawnRules {
    /// Letter of the pawn piece type.
    pub piece: char,
    /// Moves one cell along each vector onto an empty cell, never capturing.
    pub advance: Vec<Hex>,
    /// Captures one cell along each vector: onto an enemy piece, or en passant onto a
    /// cell a pawn skipped.
    pub capture: Vec<Hex>,
    /// First moves longer than one cell, per side (indexed by [`Side::index`]): a pawn
    /// on the cell may move up to this many cells along one advance vector, every cell
    /// on the way empty (2 for the usual double step).
    pub long_first_moves: [Vec<(Hex, u8)>; 2],
    /// Whether a long first move may be answered by an en-passant capture on any cell
    /// it skipped.
    pub en_passant: bool,
}

/// Castling: the royal piece and a rook-like piece, both unmoved, jump to new cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CastlingRule {
    /// Where the side's royal piece starts.
    pub king: Hex,
    /// Where the rook starts (any non-royal piece standing there in the starting
    /// array).
    pub rook: Hex,
    /// Where the royal piece lands.
    pub king_to: Hex,
    /// Where the rook lands.
    pub rook_to: Hex,
    /// How the move is written, such as `O-O`.
    pub notation: String,
}

/// Promotion rules. Zones are per side (indexed by [`Side::index`]).
#[derive(Clone, Debug, PartialEq)]
pub struct PromotionRules {
    /// Letters of the kinds a pawn may become (never royal, never the pawn).
    pub choices: Vec<char>,
    /// Cells where a pawn must promote, per side (indexed by [`Side::index`]).
    pub zone: Vec<Vec<Hex>>,
    /// Cells where a pawn may promote or decline, per side.
    pub optional_zone: Vec<Vec<Hex>>,
    /// Promote only to a type the player has fewer of than in the starting array.
    pub only_lost_pieces: bool,
    /// A pawn may not enter `zone` when no promotion is available.
    pub must_promote_to_enter: bool,
}

/// One piece of the starting array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// Whose piece.
    pub side: Side,
    /// Upper-case letter of the piece type.
    pub piece: char,
    /// Where it stands.
    pub cell: Hex,
}

/// Points for each player when one stalemates the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StalemateScore {
    /// Points for the side that gives stalemate (the one that moved last).
    pub stalemating: Points,
    /// Points for the side stalemated, left with no legal move.
    pub stalemated: Points,
}

impl Default for StalemateScore {
    fn default() -> Self {
        StalemateScore {
            stalemating: Points::HALF,
            stalemated: Points::HALF,
        }
    }
}

/// Draws that happen automatically, with no claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRules {
    /// Occurrences of one position that draw; 0 turns the rule off.
    pub repetitions: u8,
    /// Plies without capture or pawn move that draw; 0 turns the rule off.
    pub move_rule_plies: u16,
    /// Nothing but royal pieces on the board draws.
    pub bare_royals: bool,
}

impl Default for DrawRules {
    fn default() -> Self {
        DrawRules {
            repetitions: 3,
            move_rule_plies: 100,
            bare_royals: true,
        }
    }
}

/// A checked variant, as read from a RON file.
#[derive(Clone, Debug)]
pub struct VariantSpec {
    /// Short identifier, such as `glinski`: lower-case letters, digits, `-` and `_`.
    pub id: String,
    /// Display name, such as `Gliński`.
    pub name: String,
    /// Free text about the variant; empty when the file gives none.
    pub description: String,
    /// How the board is drawn; also fixes Black's mirror.
    pub layout: Layout,
    /// How cells are named and grouped in FEN.
    pub naming: Naming,
    /// The board's cells, in index order.
    pub cells: Vec<Hex>,
    /// Piece types; their order is the order of [`Kind`](crate::Kind) indices.
    pub pieces: Vec<PieceType>,
    /// The starting array: every side's pieces.
    pub setup: Vec<Placement>,
    /// Pawn rules; `None` for a variant without pawns.
    pub pawn: Option<PawnRules>,
    /// Promotion rules; `None` when nothing promotes.
    pub promotion: Option<PromotionRules>,
    /// How a stalemate is scored.
    pub stalemate: StalemateScore,
    /// The draws that end a game by themselves.
    pub draws: DrawRules,
    /// Castling moves per side (indexed by [`Side::index`]), in that side's own cells:
    /// Black's are White's mirrored unless the file gives them.
    pub castling: [Vec<CastlingRule>; 2],
    /// Pieces placed from the hand before the first move, if the variant has a setup
    /// phase.
    pub setup_phase: Option<SetupPhase>,
    /// The sides in turn order: White and Black unless the file lists more.
    pub sides: Vec<SideSpec>,
    /// How a game of more than two sides plays; `None` for two sides.
    pub multiplayer: Option<crate::multi::MultiRules>,
}

impl Variant for VariantSpec {
    fn id(&self) -> &str {
        &self.id
    }
    fn name(&self) -> &str {
        &self.name
    }
    fn layout(&self) -> Layout {
        self.layout
    }
    fn naming(&self) -> Naming {
        self.naming
    }
    fn cells(&self) -> &[Hex] {
        &self.cells
    }
    fn pieces(&self) -> &[PieceType] {
        &self.pieces
    }
    fn setup(&self) -> &[Placement] {
        &self.setup
    }
    fn pawn(&self) -> Option<&PawnRules> {
        self.pawn.as_ref()
    }
    fn promotion(&self) -> Option<&PromotionRules> {
        self.promotion.as_ref()
    }
    fn stalemate(&self) -> StalemateScore {
        self.stalemate
    }
    fn draw_rules(&self) -> DrawRules {
        self.draws
    }
    fn castling(&self) -> [&[CastlingRule]; 2] {
        [&self.castling[0], &self.castling[1]]
    }
    fn setup_phase(&self) -> Option<&SetupPhase> {
        self.setup_phase.as_ref()
    }
    fn sides(&self) -> Vec<SideSpec> {
        self.sides.clone()
    }
    fn multiplayer(&self) -> Option<&crate::multi::MultiRules> {
        self.multiplayer.as_ref()
    }
}
