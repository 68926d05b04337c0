//! The variant file format exactly as written in RON: the raw, unchecked serde layer.
//!
//! Nothing here is trusted. `validate` turns a [`VariantDef`] into a checked
//! [`VariantSpec`](super::VariantSpec), collecting every problem it finds. The field
//! names are the documented schema (see `variants/README.md`), so renaming one is a
//! breaking change to every player's files and needs a new `format_version`.

use serde::Deserialize;

use crate::hex::Layout;

/// A cube vector as written in a file: `(q, r, s)`.
pub type VectorDef = (i32, i32, i32);

/// One variant file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariantDef {
    /// Schema version; this build reads version 1.
    pub format_version: u32,
    /// Short identifier used by `UCI_Variant` and the command line (`glinski`).
    pub id: String,
    /// Display name (`Gliński`).
    pub name: String,
    /// Free text about the variant; empty when absent.
    #[serde(default)]
    pub description: String,
    /// The board's shape, layout and cell names.
    pub board: BoardDef,
    /// Every piece type; their order is the order of [`Kind`](crate::Kind) indices.
    pub pieces: Vec<PieceDef>,
    /// Pawn rules; absent for a variant without pawns.
    #[serde(default)]
    pub pawn: Option<PawnDef>,
    /// Promotion rules; needs `pawn`.
    #[serde(default)]
    pub promotion: Option<PromotionDef>,
    /// The starting array.
    pub setup: SetupDef,
    /// How a stalemate is scored; a draw when absent.
    #[serde(default)]
    pub stalemate: StalemateDef,
    /// The draws that end a game by themselves; three repetitions, 100 plies and bare
    /// royal pieces when absent.
    #[serde(default)]
    pub draws: DrawsDef,
    /// Castling moves for White (Black's are mirrored unless given).
    #[serde(default)]
    pub castling: Vec<CastlingDef>,
    /// Black's castling moves in Black's own cell names, when the mirror will not do.
    #[serde(default)]
    pub castling_black: Option<Vec<CastlingDef>>,
    /// Pieces placed from the hand before the first move (Pre- and Screen HexaChess).
    #[serde(default)]
    pub setup_phase: Option<SetupPhaseDef>,
    /// The sides in turn order; absent: White and Black facing each other.
    #[serde(default)]
    pub sides: Option<Vec<SideDef>>,
    /// How a game of more than two sides plays (docs/rules.md §13); Peterson's rules
    /// without fair exchange when absent.
    #[serde(default)]
    pub multiplayer: Option<MultiplayerDef>,
}

/// The `multiplayer:` section as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MultiplayerDef {
    /// Whether a side threatened by several opponents moves as many pieces.
    #[serde(default = "yes")]
    pub defence: bool,
    /// What counts as an opponent threatening a side; `Hanging` when absent.
    #[serde(default = "hanging")]
    pub threat: crate::multi::Threat,
    /// The worth of every non-royal piece for fair exchange: `[('P', 1), ('Q', 9)]`.
    #[serde(default)]
    pub fair_exchange: Option<Vec<(char, u16)>>,
    /// What a side out of the game leaves on the board; `Obstacles` when absent.
    #[serde(default = "obstacles")]
    pub eliminated: crate::multi::Eliminated,
    /// How the game is won; `LastKingStanding` when absent.
    #[serde(default = "last_king")]
    pub goal: crate::multi::Goal,
}

fn hanging() -> crate::multi::Threat {
    crate::multi::Threat::Hanging
}

fn obstacles() -> crate::multi::Eliminated {
    crate::multi::Eliminated::Obstacles
}

fn last_king() -> crate::multi::Goal {
    crate::multi::Goal::LastKingStanding
}

/// One side as written: `(name: "Red", rotation: 120, team: Some(1))`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideDef {
    /// The side's name as the game shows it; unique among the sides.
    pub name: String,
    /// Degrees (a multiple of 60) this side's view is turned from White's.
    pub rotation: u16,
    /// Sides with the same team number are allies; `None` (the default) has none.
    #[serde(default)]
    pub team: Option<u8>,
}

/// A setup phase as written: White's hand and zone (Black's are the same pieces on
/// the mirrored cells).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetupPhaseDef {
    /// Letters with counts: `[('K', 1), ('R', 2)]`.
    pub hand: Vec<(char, u8)>,
    /// Where White may place (cells or ranks); Black's zone is its mirror.
    pub zone: ZoneDef,
    /// Who places next: `Alternate` (in turn) or `AllAtOnce` (each side its whole hand).
    pub order: crate::variant::PlacementOrder,
    /// Whether each side places unseen by the other.
    #[serde(default)]
    pub hidden: bool,
    /// Kinds whose pieces of one side must stand on cells of different colours.
    #[serde(default)]
    pub distinct_colours: Vec<char>,
}

/// One castling move, in White's cell names.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CastlingDef {
    /// Where the royal piece starts.
    pub king: String,
    /// Where the rook (any non-royal piece standing there at the start) starts.
    pub rook: String,
    /// Where the royal piece lands.
    pub king_to: String,
    /// Where the rook lands.
    pub rook_to: String,
    /// How the move is written; `O-O`, `O-O-O`, `O-O-3`, ... by order when absent.
    #[serde(default)]
    pub notation: Option<String>,
}

/// The `board:` section: which cells, how they are drawn and named.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardDef {
    /// Which cells the board has.
    pub shape: ShapeDef,
    /// `FlatTop` (files vertical, as Gliński) or `PointyTop` (ranks horizontal, as Grand
    /// Hexachess).
    pub layout: Layout,
    /// How cells are named; defaults to `Files` for flat-top and `Ranks` for pointy-top.
    #[serde(default)]
    pub naming: Option<NamingDef>,
}

/// The cells of a board as written.
#[derive(Debug, Clone, Deserialize)]
pub enum ShapeDef {
    /// Every cell within this many steps of the centre.
    Hexagon(u8),
    /// An explicit list of cube coordinates, for irregular boards.
    Cells(Vec<VectorDef>),
}

/// How cells are named, as written: the file's spelling of [`Naming`](crate::Naming).
#[derive(Debug, Clone, Copy, Deserialize)]
pub enum NamingDef {
    /// A letter per file, a number counted up each file from its lowest cell.
    Files,
    /// A number per rank, a letter counted along the rank from its left end.
    Ranks,
    /// A letter per file, a number along lines of constant `s` (Shafran's).
    SlantedRanks,
}

/// One entry of `pieces:`: a piece type as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PieceDef {
    /// Upper-case letter for White; Black uses the lower case.
    pub letter: char,
    /// The name the game shows.
    pub name: String,
    /// A royal piece may not be left attacked; checkmating it wins.
    #[serde(default)]
    pub royal: bool,
    /// Its movement atoms; it moves by any of them. Empty for the pawn.
    #[serde(default)]
    pub moves: Vec<MoveDef>,
    /// Material value in centipawns for the engine; derived from mobility when absent.
    #[serde(default)]
    pub value: Option<i32>,
}

/// A movement atom. Pieces are lists of atoms; a piece moves by any of them.
#[derive(Debug, Clone, Deserialize)]
pub enum MoveDef {
    /// One step along each vector (never blocked: there is nothing in between).
    Step(DirectionsDef),
    /// A jump to each vector's end, over anything in between.
    Leap(DirectionsDef),
    /// Any number of repeated steps along each vector, stopping at the first piece.
    Slide(DirectionsDef),
    /// Like `Slide`, at most this many steps.
    SlideUpTo(DirectionsDef, u8),
    /// The inner atom, but only onto empty cells.
    MoveOnly(Box<MoveDef>),
    /// The inner atom, but only to capture.
    CaptureOnly(Box<MoveDef>),
}

/// The vectors of a movement atom, as written.
#[derive(Debug, Clone, Deserialize)]
pub enum DirectionsDef {
    /// The six rook directions.
    Orthogonal,
    /// The six bishop directions.
    Diagonal,
    /// The twelve knight leaps.
    Knight,
    /// Explicit cube vectors, from White's side; Black uses them negated.
    Vectors(Vec<VectorDef>),
}

/// The `pawn:` section: how the pawn piece moves, captures and starts.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PawnDef {
    /// Letter of the piece (declared in `pieces`) that follows these rules.
    pub piece: char,
    /// Non-capturing moves, one cell along each vector, for White; Black's are negated.
    pub advance: Vec<VectorDef>,
    /// Capturing moves, one cell along each vector, for White; Black's are negated.
    pub capture: Vec<VectorDef>,
    /// Longer first moves; `Never` when absent.
    #[serde(default)]
    pub double_step: DoubleStepDef,
    /// Whether a double step may be answered by an en-passant capture.
    #[serde(default)]
    pub en_passant: bool,
}

/// Where a pawn's first move may go further than one cell, as written. Every cell
/// crossed and the landing cell must be empty.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum DoubleStepDef {
    /// Pawns never move two cells.
    #[default]
    Never,
    /// From any cell where the side's pawns start.
    FromStartCells,
    /// From any cell where the side's pawns start, except the listed cells (White's
    /// names; Black's are mirrored).
    FromStartCellsExcept(Vec<String>),
    /// From the listed cells (White's names; Black's are mirrored).
    FromCells(Vec<String>),
    /// From the listed cells, up to the given number of cells (White's names; Black's
    /// are mirrored): `[("e2", 3), ("c2", 2)]`.
    FromCellsUpTo(Vec<(String, u8)>),
    /// Like `FromCellsUpTo`, with Black's cells given too (for boards that are not
    /// symmetric top to bottom).
    PerSide {
        /// White's cells with their longest first moves.
        white: Vec<(String, u8)>,
        /// Black's cells (not mirrored) with their longest first moves.
        black: Vec<(String, u8)>,
    },
}

/// The `promotion:` section: what a pawn becomes, and where.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PromotionDef {
    /// Letters a pawn may promote to.
    pub choices: Vec<char>,
    /// Where promotion is compulsory.
    #[serde(default = "far_edge")]
    pub zone: ZoneDef,
    /// Where a pawn may promote or decline.
    #[serde(default)]
    pub optional_zone: ZoneDef,
    /// Only to a piece type the player has fewer of than in the starting array.
    #[serde(default)]
    pub only_lost_pieces: bool,
    /// A pawn may not enter the compulsory zone when it has nothing to promote to.
    #[serde(default = "yes")]
    pub must_promote_to_enter: bool,
}

fn far_edge() -> ZoneDef {
    ZoneDef::FarEdge
}

fn yes() -> bool {
    true
}

/// A set of cells, given for White; Black's is mirrored (or, for `FarEdge`, computed
/// from Black's own pawn moves).
#[derive(Debug, Clone, Default, Deserialize)]
pub enum ZoneDef {
    /// No cell.
    #[default]
    Nowhere,
    /// The cells from which no advance stays on the board.
    FarEdge,
    /// Named cells.
    Cells(Vec<String>),
    /// Every cell of the listed ranks (the number in a cell's name).
    Ranks(Vec<u32>),
}

/// The `setup:` section: the starting array, by pieces or as a FEN.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum SetupDef {
    /// Piece letters with the cells they stand on.
    Pieces {
        /// White's pieces: `[('K', ["g1"]), ('P', ["b1", "c2"])]`.
        white: Vec<(char, Vec<String>)>,
        /// The other sides' pieces; White's mirrored when absent.
        #[serde(default)]
        black: BlackSetupDef,
    },
    /// A hex FEN of the starting position.
    Fen(String),
}

/// The other sides' starting array, as written: derived from White's, or given.
#[derive(Debug, Clone, Default, Deserialize)]
pub enum BlackSetupDef {
    /// White's array reflected top to bottom, so kings face kings.
    #[default]
    Mirror,
    /// An explicit array (upper-case letters, as for White).
    Pieces(Vec<(char, Vec<String>)>),
    /// Every other side gets White's array turned by its rotation (games of more sides).
    Rotated,
}

/// The `stalemate:` section: the points of each player, from 0 to 1.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StalemateDef {
    /// Points for the player who gives stalemate.
    pub stalemating: f64,
    /// Points for the player who is stalemated.
    pub stalemated: f64,
}

impl Default for StalemateDef {
    fn default() -> Self {
        StalemateDef {
            stalemating: 0.5,
            stalemated: 0.5,
        }
    }
}

/// The `draws:` section: the draws that end a game by themselves.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DrawsDef {
    /// Occurrences of the same position that draw (0 turns the rule off).
    pub repetitions: u8,
    /// Plies without a capture or pawn move that draw (0 turns the rule off).
    pub move_rule_plies: u16,
    /// Whether a position with nothing but royal pieces is a draw.
    pub bare_royals: bool,
}

impl Default for DrawsDef {
    fn default() -> Self {
        DrawsDef {
            repetitions: 3,
            move_rule_plies: 100,
            bare_royals: true,
        }
    }
}
