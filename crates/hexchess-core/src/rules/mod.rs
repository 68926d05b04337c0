//! A variant compiled into lookup tables, so move generation never interprets the
//! variant description: per-cell leap sets, per-direction ray masks, reverse attack
//! tables for check tests, pawn and promotion cell sets, and Zobrist keys.

use std::fmt;

use crate::bitboard::{Bitboard, CellSet};
use crate::board::{Board, BoardError, Naming};
use crate::cell::Cell;
use crate::hex::{Hex, Layout};
use crate::piece::{Kind, MAX_KINDS, MAX_SIDES, PIECE_CODES, Piece, Points, Side};
use crate::variant::{DrawRules, MoveMode, PlacementOrder, StalemateScore};

mod any;
mod compile;

pub use any::AnyRules;

/// Most distinct slide directions (over both sides) a variant may use.
pub const MAX_DIRECTIONS: usize = 64;

/// What the game and the engine know about one piece type.
#[derive(Clone, Debug)]
pub struct KindInfo {
    /// The upper-case letter of FEN and notation (Black's pieces print it in lower
    /// case).
    pub letter: char,
    /// The name the variant gives it, such as `Knight`.
    pub name: String,
    /// Whether it is the royal piece, which may never be left attacked.
    pub royal: bool,
    /// Whether it is the variant's pawn, moving by the pawn rules instead of atoms.
    pub pawn: bool,
    /// Material value in centipawns from the variant file, if it gave one.
    pub value: Option<i32>,
}

/// A sliding atom of one piece kind for one side.
#[derive(Clone, Debug)]
pub(crate) struct SlideAtom<B: CellSet> {
    pub dir: u8,
    pub mode: MoveMode,
    /// For limited slides, the reachable part of the ray from each cell.
    pub limit: Option<Vec<B>>,
}

/// How one piece kind moves, for one side.
#[derive(Clone, Debug, Default)]
pub(crate) struct KindMoves<B: CellSet> {
    /// Per cell: leap targets that move or capture.
    pub leap_any: Vec<B>,
    /// Per cell: leap targets reached only when empty.
    pub leap_move: Vec<B>,
    /// Per cell: leap targets reached only by capturing.
    pub leap_capture: Vec<B>,
    pub slides: Vec<SlideAtom<B>>,
    /// Directions of the unlimited move-or-capture slides among `slides` (the common
    /// case, generated without looking at modes or limits).
    pub plain_slides: Vec<u8>,
    /// The other slides: limited, move-only or capture-only.
    pub special_slides: Vec<SlideAtom<B>>,
    /// The rays of the plain slides from each cell, `plain_slides.len()` per cell: first
    /// those along which cell indices grow, then the others. Kept side by side so that
    /// generating a slider's moves reads one short run of memory and never asks which
    /// way a ray runs.
    pub slide_rays: Vec<B>,
    /// How many of each cell's `slide_rays` ascend.
    pub ascending_slides: usize,
    /// Per cell: every cell the piece could capture on were the board empty, so that a
    /// captures-only generator passes over a piece with no enemy in reach at once.
    pub capture_reach: Vec<B>,
    /// Whether `leap_any` has any target (pure sliders skip the lookup).
    pub has_leaps: bool,
    /// Whether `leap_move` or `leap_capture` has any target (rare: fairy pieces).
    pub has_moded_leaps: bool,
}

impl<B: CellSet> KindMoves<B> {
    /// The ascending and the descending plain-slide rays from `from`.
    #[inline]
    pub fn slide_rays_from(&self, from: Cell) -> (&[B], &[B]) {
        let n = self.plain_slides.len();
        self.slide_rays[from.index() * n..(from.index() + 1) * n].split_at(self.ascending_slides)
    }
}

/// Slide directions that share the set of kinds sliding along them (and a range), seen
/// from the attacked cell: used to find sliding attackers and pins.
#[derive(Clone, Debug)]
pub(crate) struct SlideClass<B: CellSet> {
    /// Kinds (bit per kind index) of the attacking side that slide this way.
    pub kinds: u32,
    /// Directions pointing from the attacked cell toward the attacker.
    pub dirs: Vec<u8>,
    /// Per direction, for limited slides: the part of the ray an attacker may stand on.
    pub limits: Vec<Option<Vec<B>>>,
    /// Per cell: union of the class's rays (a quick "no slider on these lines" test).
    pub lines: Vec<B>,
}

/// Pawn tables, per side.
#[derive(Clone, Debug)]
pub(crate) struct PawnTables<B: CellSet> {
    pub kind: Kind,
    /// `[side][vector][cell]`: the advance target, if on the board.
    pub advance: [Vec<Vec<Option<Cell>>>; MAX_SIDES],
    /// `[side][vector]`: the advance vectors themselves.
    pub advance_vectors: [Vec<Hex>; MAX_SIDES],
    /// `[side][cell]`: the longest first move from the cell (0 when only one step).
    pub long_first: [Vec<u8>; MAX_SIDES],
    /// `[side][cell]`: capture targets.
    pub capture: [Vec<B>; MAX_SIDES],
    pub en_passant: bool,
    /// `[side]`: cells from which one advance reaches a promotion cell (compulsory or
    /// optional), so a captures-only generator can pass over every other pawn's pushes.
    pub promoting_from: [B; MAX_SIDES],
}

/// Where a castling move takes its two pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CastlingCells {
    /// The royal piece's cell, and where it goes.
    pub king: Cell,
    /// Where the royal piece lands.
    pub king_to: Cell,
    /// The rook's cell (the long algebraic target of the castling), and where it goes.
    pub rook: Cell,
    /// Where the rook lands.
    pub rook_to: Cell,
}

/// One castling move of one side, compiled.
#[derive(Clone, Debug)]
pub(crate) struct CastlingTables<B: CellSet> {
    pub king: Cell,
    pub rook: Cell,
    pub king_to: Cell,
    pub rook_to: Cell,
    /// Cells that must be empty (the king and the rook themselves aside).
    pub empty: B,
    /// Cells the king stands on or crosses, which must not be attacked.
    pub king_path: B,
    pub notation: String,
}

/// The castling right bit of castling `i` of `side`.
pub(crate) const fn castle_bit(side: Side, i: usize) -> u8 {
    1 << (side as usize * 4 + i)
}

/// Promotion tables, per side.
#[derive(Clone, Debug)]
pub(crate) struct PromotionTables<B: CellSet> {
    pub choices: Vec<Kind>,
    pub zone: [B; MAX_SIDES],
    pub optional_zone: [B; MAX_SIDES],
    pub only_lost_pieces: bool,
    pub must_promote_to_enter: bool,
}

/// A setup phase, compiled: hands as counts, zones as cell sets.
#[derive(Clone, Debug)]
pub(crate) struct PhaseTables<B: CellSet> {
    /// `[side][kind]`: pieces in hand at the start.
    pub hand: [[u8; MAX_KINDS]; MAX_SIDES],
    /// `[side]`: where the side may place.
    pub zone: [B; MAX_SIDES],
    /// `[side]`: where the side may place a pawn: its zone less its promotion cells.
    pub pawn_zone: [B; MAX_SIDES],
    pub order: PlacementOrder,
    pub hidden: bool,
    /// Kinds (bit per kind index) whose pieces of one side stand on different colours.
    pub distinct_colours: u32,
    /// The board's cells of each of the three colours.
    pub colours: [B; 3],
}

/// The sides of a variant as the tables use them: how many, which way each faces, and
/// whom each may capture and be attacked by.
#[derive(Clone, Debug)]
pub(crate) struct SideLayout {
    pub count: usize,
    rotation: [u8; MAX_SIDES],
    names: Vec<String>,
    /// `[side]`: the sides not on its team, in turn order from the next one.
    pub enemies: [Vec<Side>; MAX_SIDES],
    /// Whether any two sides are on one team.
    pub teams: bool,
}

impl SideLayout {
    pub(crate) fn new(specs: &[crate::variant::SideSpec]) -> SideLayout {
        let count = specs.len().clamp(2, MAX_SIDES);
        let mut rotation = [0u8; MAX_SIDES];
        for (r, spec) in rotation.iter_mut().zip(specs) {
            *r = spec.rotation;
        }
        let team = |i: usize| specs.get(i).and_then(|s| s.team);
        let enemies = std::array::from_fn(|i| {
            (1..count)
                .map(|k| (i + k) % count)
                .filter(|&j| team(i).is_none() || team(i) != team(j))
                .map(Side::from_index)
                .collect()
        });
        let teams = enemies
            .iter()
            .take(count)
            .any(|e: &Vec<Side>| e.len() + 1 < count);
        SideLayout {
            count,
            rotation,
            names: specs.iter().map(|s| s.name.clone()).collect(),
            enemies,
            teams,
        }
    }

    /// The sides in turn order.
    pub(crate) fn sides(&self) -> impl Iterator<Item = Side> + '_ {
        Side::ALL[..self.count].iter().copied()
    }

    pub(crate) fn has(&self, side: Side) -> bool {
        side.index() < self.count
    }

    /// How far (sixths of a turn) `side`'s moves are turned from White's.
    pub(crate) fn rotation(&self, side: Side) -> u8 {
        self.rotation[side.index()]
    }
}

/// The most pieces of one kind a hand may hold, for the Zobrist keys.
pub(crate) const MAX_IN_HAND: usize = 64;

/// Zobrist keys: one per (piece, cell), one for Black to move, one per en-passant cell.
#[derive(Clone, Debug)]
pub(crate) struct Zobrist {
    pub piece: Vec<u64>,
    pub ep: Vec<u64>,
    /// One key per castling right bit.
    pub castling: [u64; 8],
    /// `[(side * MAX_KINDS + kind) * MAX_IN_HAND + count]`: a hand holding `count`
    /// pieces of the kind (count 0 has key 0, so an empty hand hashes as no hand).
    pub hand: Vec<u64>,
    /// `[side]`: the key of that side to move.
    pub turn: [u64; MAX_SIDES],
}

impl Zobrist {
    /// Keys for boards of up to `cells` cells.
    pub(crate) fn new(cells: usize) -> Zobrist {
        // splitmix64 with a fixed seed: the same keys on every run and machine, so hashes
        // can be compared across processes and in tests.
        let mut state = 0x9E37_79B9_7F4A_7C15u64 ^ 0x6865_7863_6865_7373; // "hexchess"
        let mut next = move || {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        // Drawn in the order of the two-player codes (`1 + 2 kind + side`) that came
        // first, so White's and Black's keys, and every hash, stay what they were.
        let two_player: Vec<u64> = (0..(2 * MAX_KINDS + 1) * cells).map(|_| next()).collect();
        let black_to_move = next();
        let ep = (0..cells).map(|_| next()).collect();
        let castling = std::array::from_fn(|_| next());
        // Drawn after the older keys, so those stay what they were.
        let hand = (0..2 * MAX_KINDS * MAX_IN_HAND)
            .map(|i| if i % MAX_IN_HAND == 0 { 0 } else { next() })
            .collect();
        let mut piece = vec![0u64; PIECE_CODES * cells];
        for kind in 0..MAX_KINDS {
            for side in 0..MAX_SIDES {
                let code = 1 + MAX_SIDES * kind + side;
                for c in 0..cells {
                    piece[code * cells + c] = if side < 2 {
                        two_player[(1 + 2 * kind + side) * cells + c]
                    } else {
                        next()
                    };
                }
            }
        }
        let turn = [0, black_to_move, next(), next()];
        Zobrist {
            piece,

            ep,
            castling,
            hand,
            turn,
        }
    }

    /// The key of `side` to move (White's is 0, Black's `black_to_move`).
    #[inline]
    pub fn turn(&self, side: Side) -> u64 {
        self.turn[side.index()]
    }

    /// The key of a hand holding `count` pieces of `kind` for `side`.
    #[inline]
    pub fn hand(&self, side: Side, kind: Kind, count: u8) -> u64 {
        if count == 0 {
            return 0;
        }
        self.hand[(side.index() * MAX_KINDS + kind.index()) * MAX_IN_HAND + count as usize]
    }

    /// The key of `p` on `c`, on a board whose cell sets hold `stride` cells.
    #[inline]
    pub fn piece(&self, p: Piece, c: Cell, stride: usize) -> u64 {
        self.piece[p.code() as usize * stride + c.index()]
    }
}

/// Why a variant cannot be compiled into rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesError {
    /// The variant's id.
    pub variant: String,
    /// Every problem found, one sentence each.
    pub problems: Vec<String>,
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "variant {} cannot be played:", self.variant)?;
        for p in &self.problems {
            write!(f, "\n  {p}")?;
        }
        Ok(())
    }
}

impl std::error::Error for RulesError {}

impl From<(String, BoardError)> for RulesError {
    fn from((variant, e): (String, BoardError)) -> Self {
        RulesError {
            variant,
            problems: vec![e.to_string()],
        }
    }
}

/// A compiled variant. Positions share it through an `Arc`.
#[derive(Clone, Debug)]
pub struct Rules<B: CellSet = Bitboard> {
    id: String,
    name: String,
    board: Board,
    kinds: Vec<KindInfo>,
    pub(crate) royal_kinds: u32,
    /// Bit per kind that slides for some side: the pieces whose attacks the other
    /// pieces' cells can change (a leap's, a pawn's, do not).
    pub(crate) sliding_kinds: u32,
    pub(crate) moves: [Vec<KindMoves<B>>; MAX_SIDES],
    /// Slide direction vectors (White's and Black's together).
    directions: Vec<Hex>,
    /// `rays[dir * B::CAPACITY + cell]`: cells along `dir` from `cell`, to the edge.
    rays: Vec<B>,
    /// Whether cell indices grow along each direction.
    ascending: [bool; MAX_DIRECTIONS],
    /// `[cell]`: the cells one step from it along each slide direction.
    steps: Vec<B>,
    /// `[side][kind]`: per cell, the cells from which that piece attacks it by a leap
    /// (pawn captures included). Empty for kinds that never leap-capture.
    pub(crate) leap_attackers: [Vec<Vec<B>>; MAX_SIDES],
    /// `[side]`: kinds that attack by leaping, for quick iteration.
    pub(crate) leapers: [Vec<Kind>; MAX_SIDES],
    /// `[side]`: sliding attack classes of that side.
    pub(crate) slide_classes: [Vec<SlideClass<B>>; MAX_SIDES],
    pub(crate) pawn: Option<PawnTables<B>>,
    pub(crate) promotion: Option<PromotionTables<B>>,
    pub(crate) castling: [Vec<CastlingTables<B>>; MAX_SIDES],
    /// Per cell: the castling rights lost when a piece moves from or to it.
    pub(crate) castle_spoilers: Vec<u8>,
    setup: Vec<(Cell, Piece)>,
    pub(crate) start_counts: [[u8; MAX_KINDS]; MAX_SIDES],
    stalemate: StalemateScore,
    draws: DrawRules,
    pub(crate) zobrist: Zobrist,
    /// Whether Black's rules mirror White's (see `compile::is_colour_symmetric`).
    colour_symmetric: bool,
    pub(crate) phase: Option<PhaseTables<B>>,
    /// How a game of more than two sides plays (`None` with two).
    pub(crate) multi: Option<crate::multi::MultiRules>,
    pub(crate) layout: SideLayout,
}

impl<B: CellSet> Rules<B> {
    /// How far `side`'s view is turned from White's, in degrees counter-clockwise on
    /// the board's drawing (Black's 180): where its army faces.
    pub fn side_rotation_degrees(&self, side: Side) -> f32 {
        f32::from(self.layout.rotation(side)) * 60.0
    }

    /// How a game of more than two sides plays; `None` for two sides.
    pub fn multiplayer(&self) -> Option<&crate::multi::MultiRules> {
        self.multi.as_ref()
    }

    /// The variant's short identifier, such as `glinski`.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The variant's display name, such as `Gliński`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The board: its cells, their names and FEN groups.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// How the board is drawn (the board's).
    pub fn layout(&self) -> Layout {
        self.board.layout()
    }

    /// How the cells are named (the board's).
    pub fn naming(&self) -> Naming {
        self.board.naming()
    }

    /// Piece kinds, in the variant's order.
    pub fn kinds(&self) -> impl ExactSizeIterator<Item = Kind> + '_ {
        (0..self.kinds.len()).map(Kind::new)
    }

    /// What the variant says of a kind: its letter, name, whether royal or pawn, its
    /// value.
    pub fn kind_info(&self, k: Kind) -> &KindInfo {
        &self.kinds[k.index()]
    }

    /// The kind written with this letter (either case).
    pub fn kind_by_letter(&self, letter: char) -> Option<Kind> {
        let up = letter.to_ascii_uppercase();
        self.kinds
            .iter()
            .position(|k| k.letter == up)
            .map(Kind::new)
    }

    /// The letter of a piece as a two-player FEN writes it: upper case for White, lower
    /// case for Black. (The third and fourth seats share the cases of the first two
    /// here; the FEN of a game of more sides names each piece's side, `wK`, `cQ`: see
    /// `fen.rs`.)
    pub fn piece_letter(&self, p: Piece) -> char {
        let l = self.kinds[p.kind.index()].letter;
        match p.side.index() % 2 {
            0 => l,
            _ => l.to_ascii_lowercase(),
        }
    }

    /// The piece FEN writes with this letter.
    pub fn piece_from_letter(&self, letter: char) -> Option<Piece> {
        let side = if letter.is_ascii_uppercase() {
            Side::White
        } else if letter.is_ascii_lowercase() {
            Side::Black
        } else {
            return None;
        };
        self.kind_by_letter(letter).map(|k| Piece::new(side, k))
    }

    /// Whether pieces of this kind are royal: never left attacked.
    pub fn is_royal(&self, k: Kind) -> bool {
        self.royal_kinds >> k.index() & 1 != 0
    }

    /// The pawn kind, if the variant has pawns.
    pub fn pawn_kind(&self) -> Option<Kind> {
        self.pawn.as_ref().map(|p| p.kind)
    }

    /// Whether a pawn's long advance may be taken en passant.
    pub fn has_en_passant(&self) -> bool {
        self.pawn.as_ref().is_some_and(|p| p.en_passant)
    }

    /// Every cell a non-pawn `piece` leaps to from `from` on an empty board, whatever
    /// the leap's mode (move, capture or both).
    pub fn leap_targets(&self, piece: Piece, from: Cell) -> B {
        let km = self.kind_moves(piece);
        let i = from.index();
        km.leap_any[i] | km.leap_move[i] | km.leap_capture[i]
    }

    /// The lines a non-pawn `piece` slides along from `from` on an empty board, one per
    /// slide (its range limit applied): what an evaluation weighs as open mobility.
    pub fn slide_lines(&self, piece: Piece, from: Cell) -> impl Iterator<Item = B> + '_ {
        self.kind_moves(piece).slides.iter().map(move |s| {
            let ray = self.ray(s.dir, from);
            match &s.limit {
                Some(limit) => ray & limit[from.index()],
                None => ray,
            }
        })
    }

    /// The cells one pawn advance of `side` reaches from `from` (none without pawns).
    pub fn pawn_advances(&self, side: Side, from: Cell) -> impl Iterator<Item = Cell> + '_ {
        self.pawn
            .iter()
            .flat_map(move |p| p.advance[side.index()].iter())
            .filter_map(move |targets| targets[from.index()])
    }

    /// The cells a pawn of `side` on `from` may advance to, one list per advance
    /// vector, in order along it: one step, or as many as its longest first move from
    /// `from` allows (each only if the cells before it are empty). Empty without pawns.
    pub fn pawn_advance_lines(&self, side: Side, from: Cell) -> Vec<Vec<Cell>> {
        let Some(p) = &self.pawn else {
            return Vec::new();
        };
        let longest = p.long_first[side.index()][from.index()].max(1);
        p.advance[side.index()]
            .iter()
            .map(|table| {
                let mut line = Vec::new();
                let mut at = from;
                for _ in 0..longest {
                    let Some(t) = table[at.index()] else { break };
                    line.push(t);
                    at = t;
                }
                line
            })
            .filter(|line| !line.is_empty())
            .collect()
    }

    /// The cells a pawn of `side` on `from` captures on (empty without pawns).
    #[inline]
    pub fn pawn_captures(&self, side: Side, from: Cell) -> B {
        self.pawn
            .as_ref()
            .map_or(B::EMPTY, |p| p.capture[side.index()][from.index()])
    }

    /// Every cell where a pawn of `side` may or must promote.
    pub fn promotion_zone(&self, side: Side) -> B {
        self.promotion.as_ref().map_or(B::EMPTY, |p| {
            p.zone[side.index()] | p.optional_zone[side.index()]
        })
    }

    /// The Zobrist key of `p` on `c`.
    #[inline]
    pub(crate) fn piece_key(&self, p: Piece, c: Cell) -> u64 {
        self.zobrist.piece(p, c, B::CAPACITY)
    }

    /// The compiled moves of a piece kind for its side.
    #[inline(always)]
    pub(crate) fn kind_moves(&self, piece: Piece) -> &KindMoves<B> {
        &self.moves[piece.side.index()][piece.kind.index()]
    }

    /// The starting array.
    pub fn setup(&self) -> &[(Cell, Piece)] {
        &self.setup
    }

    /// How many sides play (2 to 4).
    pub fn side_count(&self) -> usize {
        self.layout.count
    }

    /// The sides in turn order.
    pub fn sides(&self) -> impl Iterator<Item = Side> + '_ {
        self.layout.sides()
    }

    /// The side's name in this variant (`White`, `Black`, or what the file calls it).
    pub fn side_name(&self, side: Side) -> &str {
        self.layout
            .names
            .get(side.index())
            .map_or(side.name(), |n| n.as_str())
    }

    /// The sides `side` plays against (every other side, allies aside), in turn order
    /// from the next.
    #[inline]
    pub fn enemies(&self, side: Side) -> &[Side] {
        &self.layout.enemies[side.index()]
    }

    /// Whether two sides play: the move generator's fast path (one enemy, `!us`).
    #[inline]
    pub(crate) fn two_sided(&self) -> bool {
        self.layout.count == 2
    }

    /// Whether some sides are allies (then not every other piece is an enemy).
    #[inline]
    pub(crate) fn has_teams(&self) -> bool {
        self.layout.teams
    }

    /// The side that moves after `side`.
    #[inline]
    pub fn next_side(&self, side: Side) -> Side {
        let i = side.index() + 1;
        Side::from_index(if i == self.layout.count { 0 } else { i })
    }

    /// Whether games of this variant begin with a setup phase (pieces in hand).
    pub fn has_setup_phase(&self) -> bool {
        self.phase.is_some()
    }

    /// Whether the setup phase is hidden (Screen): each side places unseen.
    pub fn setup_is_hidden(&self) -> bool {
        self.phase.as_ref().is_some_and(|p| p.hidden)
    }

    /// The order of placements in the setup phase, if there is one.
    pub fn placement_order(&self) -> Option<PlacementOrder> {
        self.phase.as_ref().map(|p| p.order)
    }

    /// Where `side` may place in the setup phase (empty without one).
    pub fn setup_zone(&self, side: Side) -> B {
        self.phase
            .as_ref()
            .map_or(B::EMPTY, |p| p.zone[side.index()])
    }

    /// How many pieces of a kind `side` holds in hand at the start.
    pub fn start_in_hand(&self, side: Side, k: Kind) -> u8 {
        self.phase
            .as_ref()
            .map_or(0, |p| p.hand[side.index()][k.index()])
    }

    /// How many pieces of a kind a side has at the start, on the board or in hand.
    pub fn start_count(&self, side: Side, k: Kind) -> u8 {
        self.start_counts[side.index()][k.index()]
    }

    /// How a stalemate is scored: the points of the side that gives it and of the side
    /// stalemated.
    pub fn stalemate(&self) -> StalemateScore {
        self.stalemate
    }

    /// Points for the side that gives stalemate.
    pub fn stalemate_points(&self) -> Points {
        self.stalemate.stalemating
    }

    /// The draws that end a game by themselves: repetition, the move rule, bare royal
    /// pieces.
    pub fn draw_rules(&self) -> DrawRules {
        self.draws
    }

    /// Whether a pawn of `side` must promote on `c`.
    pub fn is_promotion_cell(&self, side: Side, c: Cell) -> bool {
        self.promotion
            .as_ref()
            .is_some_and(|p| p.zone[side.index()].contains(c))
    }

    /// Whether a pawn of `side` may promote (or decline) on `c`.
    pub fn is_optional_promotion_cell(&self, side: Side, c: Cell) -> bool {
        self.promotion
            .as_ref()
            .is_some_and(|p| p.optional_zone[side.index()].contains(c))
    }

    /// The kinds a pawn may promote to, before the only-lost-pieces rule.
    pub fn promotion_choices(&self) -> &[Kind] {
        self.promotion
            .as_ref()
            .map(|p| p.choices.as_slice())
            .unwrap_or(&[])
    }

    /// Whether promotion is only to piece types the player has lost.
    pub fn promotes_only_to_lost_pieces(&self) -> bool {
        self.promotion.as_ref().is_some_and(|p| p.only_lost_pieces)
    }

    /// Whether Black's rules are White's seen in the board's mirror, so that swapping
    /// the colours of a position and mirroring it keeps its moves.
    pub fn is_colour_symmetric(&self) -> bool {
        self.colour_symmetric
    }

    /// Whether the variant has castling moves.
    pub fn has_castling(&self) -> bool {
        self.castling.iter().any(|c| !c.is_empty())
    }

    /// The cells of castling `i` of `side`.
    pub fn castling_cells(&self, side: Side, i: usize) -> Option<CastlingCells> {
        self.castling[side.index()].get(i).map(|c| CastlingCells {
            king: c.king,
            king_to: c.king_to,
            rook: c.rook,
            rook_to: c.rook_to,
        })
    }

    /// The notation of castling `i` of `side`.
    pub fn castling_notation(&self, side: Side, i: usize) -> Option<&str> {
        self.castling[side.index()]
            .get(i)
            .map(|c| c.notation.as_str())
    }

    /// The slide direction vectors the tables know.
    pub fn directions(&self) -> &[Hex] {
        &self.directions
    }

    /// The cells one step from `c` along each slide direction: a royal piece's
    /// surroundings, as an evaluation reads them.
    pub fn steps_from(&self, c: Cell) -> B {
        self.steps[c.index()]
    }

    /// Cells along direction `dir` from `c`, to the edge.
    #[inline]
    pub(crate) fn ray(&self, dir: u8, c: Cell) -> B {
        self.rays[dir as usize * B::CAPACITY + c.index()]
    }

    /// The cells a slide along `dir` from `c` reaches, stopping at (and including) the
    /// first occupied cell.
    ///
    /// Rays are monotonic in cell index, so the cells up to the first blocker are the
    /// ray's bits on one side of the blocker's bit: a shifted mask, no second lookup.
    #[inline]
    pub(crate) fn slide(&self, dir: u8, c: Cell, occupied: B) -> B {
        let ray = self.ray(dir, c);
        if self.ascending[dir as usize] {
            B::slide_up(ray, occupied)
        } else {
            B::slide_down(ray, occupied)
        }
    }

    /// The cell of `set` (all on one ray along `dir`) nearest the ray's start.
    #[inline]
    pub(crate) fn first_on_ray(&self, dir: u8, set: B) -> Cell {
        if self.ascending[dir as usize] {
            set.first()
        } else {
            set.last()
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::bitboard::{CellSet, WideBitboard};
    use crate::catalog::Catalog;

    /// The cells one step away, kept per cell (from the board's rays of cells), are
    /// the first cell of each compiled ray read as slides read it (the way they were
    /// found before they were kept), on every built-in board.
    #[test]
    fn steps_from_a_cell_are_the_first_cells_of_its_rays() {
        let catalog = Catalog::builtin();
        let mut checked = 0;
        for id in ["glinski", "mccooey", "grand", "hexachess-3", "hexachess-4"] {
            let rules = catalog.get(id).unwrap().rules();
            for c in rules.board().cells() {
                let mut near = WideBitboard::EMPTY;
                for d in 0..rules.directions.len() {
                    let ray = rules.ray(d as u8, c);
                    near |= if rules.ascending[d] {
                        WideBitboard::first_up(ray, ray)
                    } else {
                        WideBitboard::first_down(ray, ray)
                    };
                }
                assert_eq!(rules.steps_from(c), near, "{id} {}", rules.board().name(c));
                checked += usize::from(CellSet::count(near) >= 6);
            }
        }
        assert!(checked > 300, "{checked} cells with six neighbours or more");
    }
}
