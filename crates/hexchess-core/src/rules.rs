//! A variant compiled into lookup tables, so move generation never interprets the
//! variant description: per-cell leap sets, per-direction ray masks, reverse attack
//! tables for check tests, pawn and promotion cell sets, and Zobrist keys.

use std::fmt;

use crate::bitboard::Bitboard;
use crate::board::{Board, BoardError, Naming};
use crate::cell::{Cell, MAX_CELLS};
use crate::hex::{Hex, Layout};
use crate::piece::{Kind, MAX_KINDS, Piece, Points, Side};
use crate::variant::{DrawRules, MoveMode, Reach, StalemateScore, Variant};

/// Most distinct slide directions (over both sides) a variant may use.
pub const MAX_DIRECTIONS: usize = 64;

/// What the game and the engine know about one piece type.
#[derive(Clone, Debug)]
pub struct KindInfo {
    pub letter: char,
    pub name: String,
    pub royal: bool,
    pub pawn: bool,
    /// Material value in centipawns from the variant file, if it gave one.
    pub value: Option<i32>,
}

/// A sliding atom of one piece kind for one side.
#[derive(Clone, Debug)]
pub(crate) struct SlideAtom {
    pub dir: u8,
    pub mode: MoveMode,
    /// For limited slides, the reachable part of the ray from each cell.
    pub limit: Option<Vec<Bitboard>>,
}

/// How one piece kind moves, for one side.
#[derive(Clone, Debug, Default)]
pub(crate) struct KindMoves {
    /// Per cell: leap targets that move or capture.
    pub leap_any: Vec<Bitboard>,
    /// Per cell: leap targets reached only when empty.
    pub leap_move: Vec<Bitboard>,
    /// Per cell: leap targets reached only by capturing.
    pub leap_capture: Vec<Bitboard>,
    pub slides: Vec<SlideAtom>,
    /// Directions of the unlimited move-or-capture slides among `slides` (the common
    /// case, generated without looking at modes or limits).
    pub plain_slides: Vec<u8>,
    /// The other slides: limited, move-only or capture-only.
    pub special_slides: Vec<SlideAtom>,
    /// The rays of the plain slides from each cell, `plain_slides.len()` per cell: first
    /// those along which cell indices grow, then the others. Kept side by side so that
    /// generating a slider's moves reads one short run of memory and never asks which
    /// way a ray runs.
    pub slide_rays: Vec<Bitboard>,
    /// How many of each cell's `slide_rays` ascend.
    pub ascending_slides: usize,
    /// Per cell: every cell the piece could capture on were the board empty, so that a
    /// captures-only generator passes over a piece with no enemy in reach at once.
    pub capture_reach: Vec<Bitboard>,
    /// Whether `leap_any` has any target (pure sliders skip the lookup).
    pub has_leaps: bool,
    /// Whether `leap_move` or `leap_capture` has any target (rare: fairy pieces).
    pub has_moded_leaps: bool,
}

impl KindMoves {
    /// The ascending and the descending plain-slide rays from `from`.
    #[inline]
    pub fn slide_rays_from(&self, from: Cell) -> (&[Bitboard], &[Bitboard]) {
        let n = self.plain_slides.len();
        self.slide_rays[from.index() * n..(from.index() + 1) * n].split_at(self.ascending_slides)
    }
}

/// Slide directions that share the set of kinds sliding along them (and a range), seen
/// from the attacked cell: used to find sliding attackers and pins.
#[derive(Clone, Debug)]
pub(crate) struct SlideClass {
    /// Kinds (bit per kind index) of the attacking side that slide this way.
    pub kinds: u32,
    /// Directions pointing from the attacked cell toward the attacker.
    pub dirs: Vec<u8>,
    /// Per direction, for limited slides: the part of the ray an attacker may stand on.
    pub limits: Vec<Option<Vec<Bitboard>>>,
    /// Per cell: union of the class's rays (a quick "no slider on these lines" test).
    pub lines: Vec<Bitboard>,
}

/// Pawn tables, per side.
#[derive(Clone, Debug)]
pub(crate) struct PawnTables {
    pub kind: Kind,
    /// `[side][vector][cell]`: the advance target, if on the board.
    pub advance: [Vec<Vec<Option<Cell>>>; 2],
    /// `[side][vector]`: the advance vectors themselves.
    pub advance_vectors: [Vec<Hex>; 2],
    /// `[side][cell]`: the longest first move from the cell (0 when only one step).
    pub long_first: [Vec<u8>; 2],
    /// `[side][cell]`: capture targets.
    pub capture: [Vec<Bitboard>; 2],
    pub en_passant: bool,
    /// `[side]`: cells from which one advance reaches a promotion cell (compulsory or
    /// optional), so a captures-only generator can pass over every other pawn's pushes.
    pub promoting_from: [Bitboard; 2],
}

/// One castling move of one side, compiled.
#[derive(Clone, Debug)]
pub(crate) struct CastlingTables {
    pub king: Cell,
    pub rook: Cell,
    pub king_to: Cell,
    pub rook_to: Cell,
    /// Cells that must be empty (the king and the rook themselves aside).
    pub empty: Bitboard,
    /// Cells the king stands on or crosses, which must not be attacked.
    pub king_path: Bitboard,
    pub notation: String,
}

/// The castling right bit of castling `i` of `side`.
pub(crate) const fn castle_bit(side: Side, i: usize) -> u8 {
    1 << (side as usize * 4 + i)
}

/// Promotion tables, per side.
#[derive(Clone, Debug)]
pub(crate) struct PromotionTables {
    pub choices: Vec<Kind>,
    pub zone: [Bitboard; 2],
    pub optional_zone: [Bitboard; 2],
    pub only_lost_pieces: bool,
    pub must_promote_to_enter: bool,
}

/// Zobrist keys: one per (piece, cell), one for Black to move, one per en-passant cell.
#[derive(Clone, Debug)]
pub(crate) struct Zobrist {
    pub piece: Vec<u64>,
    pub black_to_move: u64,
    pub ep: Vec<u64>,
    /// One key per castling right bit.
    pub castling: [u64; 8],
}

impl Zobrist {
    fn new() -> Zobrist {
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
        let piece = (0..(2 * MAX_KINDS + 1) * MAX_CELLS)
            .map(|_| next())
            .collect();
        let black_to_move = next();
        let ep = (0..MAX_CELLS).map(|_| next()).collect();
        let castling = std::array::from_fn(|_| next());
        Zobrist {
            piece,
            black_to_move,
            ep,
            castling,
        }
    }

    #[inline]
    pub fn piece(&self, p: Piece, c: Cell) -> u64 {
        self.piece[p.code() as usize * MAX_CELLS + c.index()]
    }
}

/// Why a variant cannot be compiled into rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesError {
    pub variant: String,
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
pub struct Rules {
    id: String,
    name: String,
    board: Board,
    kinds: Vec<KindInfo>,
    pub(crate) royal_kinds: u32,
    pub(crate) moves: [Vec<KindMoves>; 2],
    /// Slide direction vectors (White's and Black's together).
    directions: Vec<Hex>,
    /// `rays[dir * MAX_CELLS + cell]`: cells along `dir` from `cell`, to the edge.
    rays: Vec<Bitboard>,
    /// Whether cell indices grow along each direction.
    ascending: [bool; MAX_DIRECTIONS],
    /// `[side][kind]`: per cell, the cells from which that piece attacks it by a leap
    /// (pawn captures included). Empty for kinds that never leap-capture.
    pub(crate) leap_attackers: [Vec<Vec<Bitboard>>; 2],
    /// `[side]`: kinds that attack by leaping, for quick iteration.
    pub(crate) leapers: [Vec<Kind>; 2],
    /// `[side]`: sliding attack classes of that side.
    pub(crate) slide_classes: [Vec<SlideClass>; 2],
    pub(crate) pawn: Option<PawnTables>,
    pub(crate) promotion: Option<PromotionTables>,
    pub(crate) castling: [Vec<CastlingTables>; 2],
    /// Per cell: the castling rights lost when a piece moves from or to it.
    pub(crate) castle_spoilers: Vec<u8>,
    setup: Vec<(Cell, Piece)>,
    pub(crate) start_counts: [[u8; MAX_KINDS]; 2],
    stalemate: StalemateScore,
    draws: DrawRules,
    pub(crate) zobrist: Zobrist,
}

impl Rules {
    /// Compiles a variant, checking what the tables rely on.
    pub fn new(v: &dyn Variant) -> Result<Rules, RulesError> {
        let id = v.id().to_string();
        let fail = |problems: Vec<String>| RulesError {
            variant: id.clone(),
            problems,
        };
        let board = Board::new(v.layout(), v.naming(), v.cells()).map_err(|e| (id.clone(), e))?;
        let n = board.len();
        let mut problems = Vec::new();

        let pieces = v.pieces();
        if pieces.is_empty() || pieces.len() > MAX_KINDS {
            problems.push(format!(
                "{} piece types; 1 to {MAX_KINDS} are supported",
                pieces.len()
            ));
            return Err(fail(problems));
        }
        let kind_of = |letter: char| {
            pieces
                .iter()
                .position(|p| p.letter == letter)
                .map(Kind::new)
        };
        for (i, p) in pieces.iter().enumerate() {
            if !p.letter.is_ascii_uppercase() {
                problems.push(format!(
                    "piece letter '{}' is not an upper-case ASCII letter",
                    p.letter
                ));
            }
            if pieces[..i].iter().any(|q| q.letter == p.letter) {
                problems.push(format!("piece letter '{}' is used twice", p.letter));
            }
        }
        let pawn_kind = match v.pawn() {
            Some(p) => match kind_of(p.piece) {
                Some(k) if !pieces[k.index()].royal => Some(k),
                _ => {
                    problems.push(format!(
                        "pawn piece '{}' is not a declared non-royal piece",
                        p.piece
                    ));
                    None
                }
            },
            None => None,
        };

        let mut kinds: Vec<KindInfo> = pieces
            .iter()
            .enumerate()
            .map(|(i, p)| KindInfo {
                letter: p.letter,
                name: p.name.clone(),
                royal: p.royal,
                pawn: pawn_kind.map(|k| k.index()) == Some(i),
                value: p.value,
            })
            .collect();
        let royal_kinds = kinds
            .iter()
            .enumerate()
            .filter(|(_, k)| k.royal)
            .fold(0u32, |m, (i, _)| m | 1 << i);

        // Directions: every slide vector, for both sides (Black's negated).
        let mut directions: Vec<Hex> = Vec::new();
        for p in pieces {
            for a in &p.atoms {
                if matches!(a.reach, Reach::Slide { .. }) {
                    for v in &a.vectors {
                        for d in [*v, -*v] {
                            if !directions.contains(&d) {
                                directions.push(d);
                            }
                        }
                    }
                }
            }
        }
        if directions.len() > MAX_DIRECTIONS {
            problems.push(format!(
                "{} slide directions are used; at most {MAX_DIRECTIONS} are supported",
                directions.len()
            ));
        }
        for p in pieces {
            for a in &p.atoms {
                for v in &a.vectors {
                    if *v == Hex::ORIGIN {
                        problems.push(format!("piece '{}' has a zero move vector", p.letter));
                    }
                }
            }
        }
        if !problems.is_empty() {
            return Err(fail(problems));
        }
        let dir_index = |v: Hex| directions.iter().position(|d| *d == v).expect("collected") as u8;

        let mut rays = vec![Bitboard::EMPTY; directions.len() * MAX_CELLS];
        let mut ascending = [false; MAX_DIRECTIONS];
        for (d, v) in directions.iter().enumerate() {
            ascending[d] = v.q() > 0 || (v.q() == 0 && v.r() > 0);
            for c in board.cells() {
                rays[d * MAX_CELLS + c.index()] = board.ray(c, *v).into_iter().collect();
            }
        }
        // The part of a ray within `max` steps.
        let limited = |c: Cell, v: Hex, max: u8| -> Bitboard {
            board.ray(c, v).into_iter().take(max as usize).collect()
        };

        let sign = |side: Side| if side == Side::White { 1i8 } else { -1 };
        let mut moves: [Vec<KindMoves>; 2] = [Vec::new(), Vec::new()];
        for side in Side::BOTH {
            for p in pieces {
                let mut km = KindMoves {
                    leap_any: vec![Bitboard::EMPTY; n],
                    leap_move: vec![Bitboard::EMPTY; n],
                    leap_capture: vec![Bitboard::EMPTY; n],
                    slides: Vec::new(),
                    plain_slides: Vec::new(),
                    special_slides: Vec::new(),
                    slide_rays: Vec::new(),
                    ascending_slides: 0,
                    capture_reach: Vec::new(),
                    has_leaps: false,
                    has_moded_leaps: false,
                };
                for a in &p.atoms {
                    for v in &a.vectors {
                        let v = *v * sign(side);
                        match a.reach {
                            Reach::Leap => {
                                let table = match a.mode {
                                    MoveMode::MoveOrCapture => &mut km.leap_any,
                                    MoveMode::MoveOnly => &mut km.leap_move,
                                    MoveMode::CaptureOnly => &mut km.leap_capture,
                                };
                                for c in board.cells() {
                                    if let Some(t) = board.offset(c, v) {
                                        table[c.index()].insert(t);
                                    }
                                }
                            }
                            Reach::Slide { max } => km.slides.push(SlideAtom {
                                dir: dir_index(v),
                                mode: a.mode,
                                limit: max
                                    .map(|m| board.cells().map(|c| limited(c, v, m)).collect()),
                            }),
                        }
                    }
                }
                // A target both moved-to and captured-on by different atoms is simply "any".
                for c in 0..n {
                    let both = km.leap_move[c] & km.leap_capture[c];
                    km.leap_any[c] |= both;
                    km.leap_move[c] = km.leap_move[c] & !km.leap_any[c];
                    km.leap_capture[c] = km.leap_capture[c] & !km.leap_any[c];
                }
                for sa in &km.slides {
                    if sa.limit.is_none() && sa.mode == MoveMode::MoveOrCapture {
                        km.plain_slides.push(sa.dir);
                    } else {
                        km.special_slides.push(sa.clone());
                    }
                }
                km.plain_slides.sort_by_key(|d| !ascending[*d as usize]);
                km.ascending_slides = km
                    .plain_slides
                    .iter()
                    .filter(|d| ascending[**d as usize])
                    .count();
                let rays = &rays;
                km.slide_rays = (0..MAX_CELLS)
                    .flat_map(|c| {
                        km.plain_slides
                            .iter()
                            .map(move |d| rays[*d as usize * MAX_CELLS + c])
                    })
                    .collect();
                km.capture_reach = (0..MAX_CELLS)
                    .map(|c| {
                        let mut reach = Bitboard::EMPTY;
                        if c < n {
                            reach = km.leap_any[c] | km.leap_capture[c];
                        }
                        for sa in &km.slides {
                            if sa.mode == MoveMode::MoveOnly {
                                continue;
                            }
                            let ray = rays[sa.dir as usize * MAX_CELLS + c];
                            reach |= match &sa.limit {
                                Some(l) if c < n => ray & l[c],
                                _ => ray,
                            };
                        }
                        reach
                    })
                    .collect();
                km.has_leaps = km.leap_any.iter().any(|b| b.any());
                km.has_moded_leaps = km.leap_move.iter().chain(&km.leap_capture).any(|b| b.any());
                moves[side.index()].push(km);
            }
        }

        // Pawn tables.
        let mut pawn = match (v.pawn(), pawn_kind) {
            (Some(rules), Some(kind)) => {
                let mut advance: [Vec<Vec<Option<Cell>>>; 2] = [Vec::new(), Vec::new()];
                let mut capture: [Vec<Bitboard>; 2] =
                    [vec![Bitboard::EMPTY; n], vec![Bitboard::EMPTY; n]];
                let mut long_first: [Vec<u8>; 2] = [vec![0; n], vec![0; n]];
                let mut advance_vectors: [Vec<Hex>; 2] = [Vec::new(), Vec::new()];
                for side in Side::BOTH {
                    let s = sign(side);
                    for v in &rules.advance {
                        advance[side.index()]
                            .push(board.cells().map(|c| board.offset(c, *v * s)).collect());
                        advance_vectors[side.index()].push(*v * s);
                    }
                    for v in &rules.capture {
                        for c in board.cells() {
                            if let Some(t) = board.offset(c, *v * s) {
                                capture[side.index()][c.index()].insert(t);
                            }
                        }
                    }
                    for (h, steps) in &rules.long_first_moves[side.index()] {
                        match board.cell(*h) {
                            Some(c) => long_first[side.index()][c.index()] = *steps,
                            None => {
                                problems.push(format!("first-move cell {h} is not on the board"))
                            }
                        }
                    }
                }
                Some(PawnTables {
                    kind,
                    advance,
                    advance_vectors,
                    long_first,
                    capture,
                    en_passant: rules.en_passant,
                    promoting_from: [Bitboard::EMPTY; 2],
                })
            }
            _ => None,
        };

        // Reverse leap tables: from which cells does (side, kind) attack a cell?
        let mut leap_attackers: [Vec<Vec<Bitboard>>; 2] = [Vec::new(), Vec::new()];
        let mut leapers: [Vec<Kind>; 2] = [Vec::new(), Vec::new()];
        for side in Side::BOTH {
            for (k, km) in moves[side.index()].iter().enumerate() {
                let mut rev = vec![Bitboard::EMPTY; n];
                let mut any = false;
                for from in board.cells() {
                    let mut targets = km.leap_any[from.index()] | km.leap_capture[from.index()];
                    if let Some(p) = &pawn
                        && p.kind.index() == k
                    {
                        targets |= p.capture[side.index()][from.index()];
                    }
                    for t in targets {
                        rev[t.index()].insert(from);
                        any = true;
                    }
                }
                if any {
                    leapers[side.index()].push(Kind::new(k));
                    leap_attackers[side.index()].push(rev);
                } else {
                    leap_attackers[side.index()].push(Vec::new());
                }
            }
        }

        // Sliding attack classes, per attacking side.
        let mut slide_classes: [Vec<SlideClass>; 2] = [Vec::new(), Vec::new()];
        for side in Side::BOTH {
            // (direction from target toward attacker, range) -> kinds
            let mut entries: Vec<(u8, Option<u8>, u32)> = Vec::new();
            for (k, p) in pieces.iter().enumerate() {
                for a in &p.atoms {
                    if let (Reach::Slide { max }, true) = (a.reach, a.mode.captures()) {
                        for v in &a.vectors {
                            let toward_attacker = dir_index(-(*v * sign(side)));
                            match entries
                                .iter_mut()
                                .find(|e| e.0 == toward_attacker && e.1 == max)
                            {
                                Some(e) => e.2 |= 1 << k,
                                None => entries.push((toward_attacker, max, 1 << k)),
                            }
                        }
                    }
                }
            }
            let mut classes: Vec<SlideClass> = Vec::new();
            for (d, max, mask) in entries {
                let limit = max.map(|m| {
                    board
                        .cells()
                        .map(|c| limited(c, directions[d as usize], m))
                        .collect()
                });
                let class = match classes.iter_mut().position(|c| c.kinds == mask) {
                    Some(i) => &mut classes[i],
                    None => {
                        classes.push(SlideClass {
                            kinds: mask,
                            dirs: Vec::new(),
                            limits: Vec::new(),
                            lines: vec![Bitboard::EMPTY; n],
                        });
                        classes.last_mut().expect("just pushed")
                    }
                };
                class.dirs.push(d);
                class.limits.push(limit);
                for c in 0..n {
                    class.lines[c] |= rays[d as usize * MAX_CELLS + c];
                }
            }
            slide_classes[side.index()] = classes;
        }

        // Promotion.
        let promotion = match v.promotion() {
            Some(pr) if pawn.is_some() => {
                let mut choices = Vec::new();
                for c in &pr.choices {
                    match kind_of(*c) {
                        Some(k) if !kinds[k.index()].royal && Some(k) != pawn_kind => {
                            choices.push(k)
                        }
                        _ => problems.push(format!(
                            "promotion choice '{c}' is not a declared non-royal, non-pawn piece"
                        )),
                    }
                }
                let mut zone = [Bitboard::EMPTY; 2];
                let mut optional_zone = [Bitboard::EMPTY; 2];
                for side in Side::BOTH {
                    for (set, list) in [
                        (&mut zone, &pr.zone),
                        (&mut optional_zone, &pr.optional_zone),
                    ] {
                        for h in &list[side.index()] {
                            match board.cell(*h) {
                                Some(c) => set[side.index()].insert(c),
                                None => {
                                    problems.push(format!("promotion cell {h} is not on the board"))
                                }
                            }
                        }
                    }
                }
                // A cell in both zones is compulsory.
                for s in 0..2 {
                    optional_zone[s] &= !zone[s];
                }
                Some(PromotionTables {
                    choices,
                    zone,
                    optional_zone,
                    only_lost_pieces: pr.only_lost_pieces,
                    must_promote_to_enter: pr.must_promote_to_enter,
                })
            }
            Some(_) => {
                problems.push("promotion rules without pawn rules".to_string());
                None
            }
            None => None,
        };

        if let (Some(pt), Some(pr)) = (&mut pawn, &promotion) {
            for s in 0..2 {
                let cells = pr.zone[s] | pr.optional_zone[s];
                pt.promoting_from[s] = board
                    .cells()
                    .filter(|c| {
                        pt.advance[s]
                            .iter()
                            .any(|t| t[c.index()].is_some_and(|to| cells.contains(to)))
                    })
                    .collect();
            }
        }

        // Castling.
        let mut castling: [Vec<CastlingTables>; 2] = [Vec::new(), Vec::new()];
        let mut castle_spoilers = vec![0u8; n];
        for side in Side::BOTH {
            let rules = v.castling()[side.index()];
            if rules.len() > 4 {
                problems.push(format!(
                    "{side} has {} castling moves; at most 4 are supported",
                    rules.len()
                ));
                continue;
            }
            for (i, c) in rules.iter().enumerate() {
                let cell = |h: Hex| board.cell(h);
                let (Some(king), Some(rook), Some(king_to), Some(rook_to)) =
                    (cell(c.king), cell(c.rook), cell(c.king_to), cell(c.rook_to))
                else {
                    problems.push(format!("castling {} uses a cell off the board", c.notation));
                    continue;
                };
                // The cells strictly between two cells on a line, and both ends.
                let line = |a: Hex, b: Hex| -> Option<(Bitboard, Bitboard)> {
                    let step = a.step_toward(b)?;
                    let mut between = Bitboard::EMPTY;
                    let mut all = Bitboard::from_cell(board.cell(a)?);
                    let mut h = a;
                    while h != b {
                        h = h + step;
                        let c = board.cell(h)?;
                        all.insert(c);
                        if h != b {
                            between.insert(c);
                        }
                    }
                    Some((between, all))
                };
                let (Some((kr_between, _)), Some((_, king_all)), Some((_, rook_all))) = (
                    line(c.king, c.rook),
                    line(c.king, c.king_to),
                    line(c.rook, c.rook_to),
                ) else {
                    problems.push(format!(
                        "castling {}: its cells are not on straight lines across the board",
                        c.notation
                    ));
                    continue;
                };
                let mut empty = kr_between | king_all | rook_all;
                empty.remove(king);
                empty.remove(rook);
                let bit = castle_bit(side, i);
                castle_spoilers[king.index()] |= bit;
                castle_spoilers[rook.index()] |= bit;
                castling[side.index()].push(CastlingTables {
                    king,
                    rook,
                    king_to,
                    rook_to,
                    empty,
                    king_path: king_all,
                    notation: c.notation.clone(),
                });
            }
        }

        // Setup.
        let mut setup = Vec::new();
        let mut start_counts = [[0u8; MAX_KINDS]; 2];
        let mut taken = Bitboard::EMPTY;
        for p in v.setup() {
            let (Some(cell), Some(kind)) = (board.cell(p.cell), kind_of(p.piece)) else {
                problems.push(format!(
                    "setup piece '{}' on {} is unknown or off the board",
                    p.piece, p.cell
                ));
                continue;
            };
            if taken.contains(cell) {
                problems.push(format!("two pieces on {}", board.name(cell)));
                continue;
            }
            taken.insert(cell);
            setup.push((cell, Piece::new(p.side, kind)));
            let count = &mut start_counts[p.side.index()][kind.index()];
            *count = count.saturating_add(1);
        }
        for side in Side::BOTH {
            let royals: u32 = (0..pieces.len())
                .filter(|k| royal_kinds >> k & 1 != 0)
                .map(|k| start_counts[side.index()][k] as u32)
                .sum();
            if royals != 1 {
                problems.push(format!(
                    "{side} has {royals} royal pieces in the setup; exactly one is needed"
                ));
            }
        }
        if !problems.is_empty() {
            return Err(fail(problems));
        }
        // Kind names for a pawn-less variant stay as given.
        if let Some(p) = &pawn {
            kinds[p.kind.index()].pawn = true;
        }

        Ok(Rules {
            id,
            name: v.name().to_string(),
            board,
            kinds,
            royal_kinds,
            moves,
            directions,
            rays,
            ascending,
            leap_attackers,
            leapers,
            slide_classes,
            pawn,
            promotion,
            castling,
            castle_spoilers,
            setup,
            start_counts,
            stalemate: v.stalemate(),
            draws: v.draw_rules(),
            zobrist: Zobrist::new(),
        })
    }

    pub fn id(&self) -> &str {
        &self.id
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn layout(&self) -> Layout {
        self.board.layout()
    }

    pub fn naming(&self) -> Naming {
        self.board.naming()
    }

    /// Piece kinds, in the variant's order.
    pub fn kinds(&self) -> impl ExactSizeIterator<Item = Kind> + '_ {
        (0..self.kinds.len()).map(Kind::new)
    }

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

    /// The letter of a piece as FEN writes it: upper case for White.
    pub fn piece_letter(&self, p: Piece) -> char {
        let l = self.kinds[p.kind.index()].letter;
        match p.side {
            Side::White => l,
            Side::Black => l.to_ascii_lowercase(),
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

    pub fn is_royal(&self, k: Kind) -> bool {
        self.royal_kinds >> k.index() & 1 != 0
    }

    /// The pawn kind, if the variant has pawns.
    pub fn pawn_kind(&self) -> Option<Kind> {
        self.pawn.as_ref().map(|p| p.kind)
    }

    /// Every cell a non-pawn `piece` leaps to from `from` on an empty board, whatever
    /// the leap's mode (move, capture or both).
    pub fn leap_targets(&self, piece: Piece, from: Cell) -> Bitboard {
        let km = self.kind_moves(piece);
        let i = from.index();
        km.leap_any[i] | km.leap_move[i] | km.leap_capture[i]
    }

    /// The lines a non-pawn `piece` slides along from `from` on an empty board, one per
    /// slide (its range limit applied): what an evaluation weighs as open mobility.
    pub fn slide_lines(&self, piece: Piece, from: Cell) -> impl Iterator<Item = Bitboard> + '_ {
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

    /// The cells a pawn of `side` on `from` captures on (empty without pawns).
    pub fn pawn_captures(&self, side: Side, from: Cell) -> Bitboard {
        self.pawn
            .as_ref()
            .map_or(Bitboard::EMPTY, |p| p.capture[side.index()][from.index()])
    }

    /// Every cell where a pawn of `side` may or must promote.
    pub fn promotion_zone(&self, side: Side) -> Bitboard {
        self.promotion.as_ref().map_or(Bitboard::EMPTY, |p| {
            p.zone[side.index()] | p.optional_zone[side.index()]
        })
    }

    /// The compiled moves of a piece kind for its side.
    #[inline(always)]
    pub(crate) fn kind_moves(&self, piece: Piece) -> &KindMoves {
        &self.moves[piece.side.index()][piece.kind.index()]
    }

    /// The starting array.
    pub fn setup(&self) -> &[(Cell, Piece)] {
        &self.setup
    }

    /// How many pieces of a kind a side has in the starting array.
    pub fn start_count(&self, side: Side, k: Kind) -> u8 {
        self.start_counts[side.index()][k.index()]
    }

    pub fn stalemate(&self) -> StalemateScore {
        self.stalemate
    }

    /// Points for the side that gives stalemate.
    pub fn stalemate_points(&self) -> Points {
        self.stalemate.stalemating
    }

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

    /// Whether the variant has castling moves.
    pub fn has_castling(&self) -> bool {
        self.castling.iter().any(|c| !c.is_empty())
    }

    /// The cells of castling `i` of `side`: royal piece from and to, rook from and to.
    pub fn castling_cells(&self, side: Side, i: usize) -> Option<(Cell, Cell, Cell, Cell)> {
        self.castling[side.index()]
            .get(i)
            .map(|c| (c.king, c.king_to, c.rook, c.rook_to))
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

    /// Cells along direction `dir` from `c`, to the edge.
    #[inline]
    pub(crate) fn ray(&self, dir: u8, c: Cell) -> Bitboard {
        self.rays[dir as usize * MAX_CELLS + c.index()]
    }

    /// The cells a slide along `dir` from `c` reaches, stopping at (and including) the
    /// first occupied cell.
    ///
    /// Rays are monotonic in cell index, so the cells up to the first blocker are the
    /// ray's bits on one side of the blocker's bit: a shifted mask, no second lookup.
    #[inline]
    pub(crate) fn slide(&self, dir: u8, c: Cell, occupied: Bitboard) -> Bitboard {
        let ray = self.ray(dir, c);
        if self.ascending[dir as usize] {
            slide_up(ray, occupied)
        } else {
            slide_down(ray, occupied)
        }
    }

    /// The cell of `set` (all on one ray along `dir`) nearest the ray's start.
    #[inline]
    pub(crate) fn first_on_ray(&self, dir: u8, set: Bitboard) -> Cell {
        if self.ascending[dir as usize] {
            set.first()
        } else {
            set.last()
        }
    }
}

/// The cells of an ascending ray up to and including its first occupied cell (the whole
/// ray when nothing blocks it). `b ^ (b - 1)` sets every bit up to the lowest set bit of
/// `b`, and every bit when `b` is empty: no branch, no bit scan.
#[inline]
pub(crate) fn slide_up(ray: Bitboard, occupied: Bitboard) -> Bitboard {
    let b = (ray & occupied).0;
    Bitboard(ray.0 & (b ^ b.wrapping_sub(1)))
}

/// [`slide_up`] for a ray along which cell indices fall: keeps the bits from the highest
/// occupied one upwards.
#[inline]
pub(crate) fn slide_down(ray: Bitboard, occupied: Bitboard) -> Bitboard {
    let b = (ray & occupied).0;
    let below = u128::MAX.checked_shr(b.leading_zeros()).unwrap_or(0) >> 1;
    Bitboard(ray.0 & !below)
}

/// The first occupied cell of an ascending ray, as a set (empty when nothing blocks it).
#[inline]
pub(crate) fn first_up(ray: Bitboard, occupied: Bitboard) -> Bitboard {
    let b = (ray & occupied).0;
    Bitboard(b & b.wrapping_neg())
}

/// [`first_up`] for a ray along which cell indices fall.
#[inline]
pub(crate) fn first_down(ray: Bitboard, occupied: Bitboard) -> Bitboard {
    let b = (ray & occupied).0;
    Bitboard((1u128 << 127).checked_shr(b.leading_zeros()).unwrap_or(0))
}
