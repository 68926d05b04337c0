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
pub use validate::{
    MAX_PIECE_VALUE, MAX_VARIANT_FILE_BYTES, load_variant_file, parse_variant, read_variant_text,
};

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
    pub name: String,
    /// Royal pieces may not be left attacked; each side has exactly one.
    pub royal: bool,
    pub atoms: Vec<Atom>,
    /// Material value in centipawns, if the variant sets one.
    pub value: Option<i32>,
}

/// One way of moving: a reach along a set of vectors, with a capture mode.
#[derive(Clone, Debug, PartialEq)]
pub struct Atom {
    pub reach: Reach,
    /// Vectors for White; Black uses them negated.
    pub vectors: Vec<Hex>,
    pub mode: MoveMode,
}

/// How far along a vector an atom goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// Exactly one vector (a step or a leap: nothing in between can block it).
    Leap,
    /// Repeated steps until blocked, at most `max` steps when given.
    Slide { max: Option<u8> },
}

/// Whether an atom moves, captures, or both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveMode {
    MoveOrCapture,
    MoveOnly,
    CaptureOnly,
}

impl MoveMode {
    pub fn moves(self) -> bool {
        self != MoveMode::CaptureOnly
    }

    pub fn captures(self) -> bool {
        self != MoveMode::MoveOnly
    }
}

/// Pawn rules. Vectors are White's; Black's are negated. Cell sets are per side.
#[derive(Clone, Debug, PartialEq)]
pub struct PawnRules {
    /// Letter of the pawn piece type.
    pub piece: char,
    pub advance: Vec<Hex>,
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
    pub king: Hex,
    pub rook: Hex,
    pub king_to: Hex,
    pub rook_to: Hex,
    /// How the move is written, such as `O-O`.
    pub notation: String,
}

/// Promotion rules. Zones are per side (indexed by [`Side::index`]).
#[derive(Clone, Debug, PartialEq)]
pub struct PromotionRules {
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
    pub side: Side,
    /// Upper-case letter of the piece type.
    pub piece: char,
    pub cell: Hex,
}

/// Points for each player when one stalemates the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StalemateScore {
    pub stalemating: Points,
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
    pub id: String,
    pub name: String,
    pub description: String,
    pub layout: Layout,
    pub naming: Naming,
    pub cells: Vec<Hex>,
    pub pieces: Vec<PieceType>,
    pub setup: Vec<Placement>,
    pub pawn: Option<PawnRules>,
    pub promotion: Option<PromotionRules>,
    pub stalemate: StalemateScore,
    pub draws: DrawRules,
    pub castling: [Vec<CastlingRule>; 2],
    pub setup_phase: Option<SetupPhase>,
    pub sides: Vec<SideSpec>,
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
