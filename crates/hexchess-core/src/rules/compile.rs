//! Compiling a [`Variant`] into [`Rules`]: one step per table, each collecting the
//! problems it finds so that a broken variant file is told every mistake at once.
//!
//! The steps run in the order the tables depend on each other: the board, the piece
//! kinds, the slide directions and their rays, each kind's moves, the pawn tables, the
//! reverse attack tables, promotion, castling and the starting array.

use super::{
    CastlingTables, KindInfo, KindMoves, MAX_DIRECTIONS, MAX_IN_HAND, PawnTables, PhaseTables,
    PromotionTables, Rules, RulesError, SideLayout, SlideAtom, SlideClass, Zobrist, castle_bit,
};
use crate::bitboard::CellSet;
use crate::board::Board;
use crate::cell::Cell;
use crate::hex::Hex;
use crate::piece::{Kind, MAX_KINDS, MAX_SIDES, Piece, Side};
use crate::variant::{
    CastlingRule, MoveMode, PawnRules, PieceType, PromotionRules, Reach, Variant,
};

/// Problems found so far; a step adds to them and goes on where it can.
type Problems = Vec<String>;

impl Rules {
    /// Compiles a variant for boards of up to 128 cells (every two-player board), the
    /// fast cell sets; a bigger board is refused (see [`Rules::compile`]).
    pub fn new(v: &dyn Variant) -> Result<Rules, RulesError> {
        Rules::compile(v)
    }
}

impl<B: CellSet> Rules<B> {
    /// Compiles a variant with cell sets `B` (`Rules::<WideBitboard>::compile` for boards
    /// of more than 128 cells), checking what the tables rely on.
    pub fn compile(v: &dyn Variant) -> Result<Rules<B>, RulesError> {
        let id = v.id().to_string();
        let fail = |problems: Problems| RulesError {
            variant: id.clone(),
            problems,
        };
        let board = Board::new(v.layout(), v.naming(), v.cells()).map_err(|e| (id.clone(), e))?;
        if board.len() > B::CAPACITY {
            return Err(fail(vec![format!(
                "the board has {} cells; at most {} are played here (a two-player variant up to 128 cells, a game of more sides up to 320)",
                board.len(),
                B::CAPACITY
            )]));
        }
        let pieces = v.pieces();
        let layout = SideLayout::new(&v.sides());
        let mut problems = check_piece_count(pieces);
        if !problems.is_empty() {
            return Err(fail(problems));
        }
        check_letters(pieces, &mut problems);
        let pawn_kind = find_pawn_kind(v.pawn(), pieces, &mut problems);
        let mut kinds = kind_infos(pieces, pawn_kind);
        let royal_kinds = royal_mask(&kinds);
        let directions = slide_directions(pieces, &layout, &mut problems);
        check_move_vectors(pieces, &mut problems);
        if !problems.is_empty() {
            return Err(fail(problems));
        }
        let geometry = Geometry::new(&board, directions);
        let moves = Side::ALL.map(|side| {
            if !layout.has(side) {
                return Vec::new();
            }
            pieces
                .iter()
                .map(|p| kind_moves(&board, &geometry, p, layout.rotation(side)))
                .collect()
        });
        let mut pawn = match (v.pawn(), pawn_kind) {
            (Some(rules), Some(kind)) => {
                Some(pawn_tables(&board, rules, kind, &layout, &mut problems))
            }
            _ => None,
        };
        let sliding_kinds = sliding_mask(&moves);
        let (leap_attackers, leapers) = leap_attack_tables(&board, &moves, pawn.as_ref(), &layout);
        let slide_classes = Side::ALL.map(|side| {
            if !layout.has(side) {
                return Vec::new();
            }
            slide_classes(&board, &geometry, pieces, layout.rotation(side))
        });
        let promotion = promotion_tables(&board, v, pieces, &kinds, pawn_kind, &mut problems);
        if let (Some(pt), Some(pr)) = (&mut pawn, &promotion) {
            mark_promoting_cells(&board, pt, pr);
        }
        let (castling, castle_spoilers) = castling_tables(&board, v, &mut problems);
        let (setup, mut start_counts) = starting_array::<B>(&board, v, pieces, &mut problems);
        let phase = v
            .setup_phase()
            .map(|ph| phase_tables(&board, ph, pieces, promotion.as_ref(), &mut problems));
        if let Some(ph) = &phase {
            for side in Side::BOTH {
                for (count, held) in start_counts[side.index()]
                    .iter_mut()
                    .zip(ph.hand[side.index()])
                {
                    *count = count.saturating_add(held);
                }
            }
        }
        check_one_royal_each(
            &start_counts,
            royal_kinds,
            pieces.len(),
            &layout,
            &mut problems,
        );
        if !problems.is_empty() {
            return Err(fail(problems));
        }
        // Kind names for a pawn-less variant stay as given.
        if let Some(p) = &pawn {
            kinds[p.kind.index()].pawn = true;
        }
        let Geometry {
            directions,
            rays,
            ascending,
            steps,
        } = geometry;
        let colour_symmetric = layout.count == 2
            && is_colour_symmetric(
                &board,
                &moves,
                pawn.as_ref(),
                promotion.as_ref(),
                &start_counts,
            );
        Ok(Rules {
            id,
            name: v.name().to_string(),
            board,
            kinds,
            royal_kinds,
            sliding_kinds,
            moves,
            directions,
            rays,
            ascending,
            steps,
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
            zobrist: Zobrist::new(B::CAPACITY),
            colour_symmetric,
            phase,
            multi: v
                .multiplayer()
                .cloned()
                .or_else(|| (layout.count > 2).then(crate::multi::MultiRules::default)),
            layout,
        })
    }
}

/// The setup phase's hands and zones as tables.
fn phase_tables<B: CellSet>(
    board: &Board,
    ph: &crate::variant::SetupPhase,
    pieces: &[PieceType],
    promotion: Option<&PromotionTables<B>>,
    problems: &mut Problems,
) -> PhaseTables<B> {
    let mut hand = [[0u8; MAX_KINDS]; MAX_SIDES];
    let mut zone = [B::EMPTY; MAX_SIDES];
    for side in Side::BOTH {
        for &(letter, count) in &ph.hand[side.index()] {
            let Some(kind) = kind_of(pieces, letter) else {
                problems.push(format!("piece '{letter}' in hand is unknown"));
                continue;
            };
            let held = &mut hand[side.index()][kind.index()];
            *held = held.saturating_add(count);
            if usize::from(*held) >= MAX_IN_HAND {
                problems.push(format!(
                    "{side} holds {held} pieces '{letter}'; a hand holds at most {} of a kind",
                    MAX_IN_HAND - 1
                ));
            }
        }
        for h in &ph.zone[side.index()] {
            match board.cell(*h) {
                Some(c) => zone[side.index()].insert(c),
                None => problems.push(format!("setup zone cell {h} is off the board")),
            }
        }
    }
    let pawn_zone = Side::ALL.map(|side| {
        let promoting = promotion.map_or(B::EMPTY, |p| {
            p.zone[side.index()] | p.optional_zone[side.index()]
        });
        zone[side.index()] & !promoting
    });
    let mut distinct_colours = 0;
    for letter in &ph.distinct_colours {
        match kind_of(pieces, *letter) {
            Some(k) => distinct_colours |= 1 << k.index(),
            None => problems.push(format!("piece '{letter}' of distinct_colours is unknown")),
        }
    }
    let mut colours = [B::EMPTY; 3];
    for c in board.cells() {
        colours[board.hex(c).colour() as usize].insert(c);
    }
    PhaseTables {
        hand,
        zone,
        pawn_zone,
        order: ph.order,
        hidden: ph.hidden,
        distinct_colours,
        colours,
    }
}

/// The kind with this letter, if declared.
fn kind_of(pieces: &[PieceType], letter: char) -> Option<Kind> {
    pieces
        .iter()
        .position(|p| p.letter == letter)
        .map(Kind::new)
}

fn check_piece_count(pieces: &[PieceType]) -> Problems {
    if pieces.is_empty() || pieces.len() > MAX_KINDS {
        vec![format!(
            "{} piece types; 1 to {MAX_KINDS} are supported",
            pieces.len()
        )]
    } else {
        Vec::new()
    }
}

fn check_letters(pieces: &[PieceType], problems: &mut Problems) {
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
}

/// The pawn rules' piece, which must be a declared piece that is not royal.
fn find_pawn_kind(
    pawn: Option<&PawnRules>,
    pieces: &[PieceType],
    problems: &mut Problems,
) -> Option<Kind> {
    let p = pawn?;
    match kind_of(pieces, p.piece) {
        Some(k) if !pieces[k.index()].royal => Some(k),
        _ => {
            problems.push(format!(
                "pawn piece '{}' is not a declared non-royal piece",
                p.piece
            ));
            None
        }
    }
}

fn kind_infos(pieces: &[PieceType], pawn_kind: Option<Kind>) -> Vec<KindInfo> {
    pieces
        .iter()
        .enumerate()
        .map(|(i, p)| KindInfo {
            letter: p.letter,
            name: p.name.clone(),
            royal: p.royal,
            pawn: pawn_kind.map(|k| k.index()) == Some(i),
            value: p.value,
        })
        .collect()
}

/// One bit per royal kind.
fn royal_mask(kinds: &[KindInfo]) -> u32 {
    kinds
        .iter()
        .enumerate()
        .filter(|(_, k)| k.royal)
        .fold(0u32, |m, (i, _)| m | 1 << i)
}

/// Every slide vector of every piece, for every side (each turned its way).
fn slide_directions(
    pieces: &[PieceType],
    layout: &SideLayout,
    problems: &mut Problems,
) -> Vec<Hex> {
    let mut directions: Vec<Hex> = Vec::new();
    for p in pieces {
        for a in &p.atoms {
            if matches!(a.reach, Reach::Slide { .. }) {
                for v in &a.vectors {
                    // Black's are White's negated; keep them for every variant, so a
                    // two-player variant's directions stay in the order they were.
                    let turned = layout.sides().map(|s| v.rotated(layout.rotation(s)));
                    for d in [*v, -*v].into_iter().chain(turned) {
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
    directions
}

fn check_move_vectors(pieces: &[PieceType], problems: &mut Problems) {
    for p in pieces {
        for a in &p.atoms {
            for v in &a.vectors {
                if *v == Hex::ORIGIN {
                    problems.push(format!("piece '{}' has a zero move vector", p.letter));
                }
            }
        }
    }
}

/// The slide directions and the rays along them from every cell.
struct Geometry<B: CellSet> {
    directions: Vec<Hex>,
    /// `rays[dir * B::CAPACITY + cell]`.
    rays: Vec<B>,
    ascending: [bool; MAX_DIRECTIONS],
    /// `[cell]`: the cells one step from it along each direction.
    steps: Vec<B>,
}

impl<B: CellSet> Geometry<B> {
    fn new(board: &Board, directions: Vec<Hex>) -> Geometry<B> {
        let mut rays = vec![B::EMPTY; directions.len() * B::CAPACITY];
        let mut ascending = [false; MAX_DIRECTIONS];
        let mut steps = vec![B::EMPTY; board.len()];
        for (d, v) in directions.iter().enumerate() {
            ascending[d] = v.q() > 0 || (v.q() == 0 && v.r() > 0);
            for c in board.cells() {
                let ray = board.ray(c, *v);
                if let Some(first) = ray.first() {
                    steps[c.index()].insert(*first);
                }
                rays[d * B::CAPACITY + c.index()] = ray.into_iter().collect();
            }
        }
        Geometry {
            directions,
            rays,
            ascending,
            steps,
        }
    }

    /// The index of a direction collected by [`slide_directions`].
    fn dir_index(&self, v: Hex) -> u8 {
        self.directions
            .iter()
            .position(|d| *d == v)
            .expect("collected") as u8
    }

    /// The ray along direction `dir` from cell index `c` (any index below `MAX_CELLS`).
    fn ray(&self, dir: u8, c: usize) -> B {
        self.rays[dir as usize * B::CAPACITY + c]
    }
}

/// The part of a ray within `max` steps.
fn limited<B: CellSet>(board: &Board, c: Cell, v: Hex, max: u8) -> B {
    board.ray(c, v).into_iter().take(max as usize).collect()
}

/// How one piece kind moves for one side, as tables.
fn kind_moves<B: CellSet>(
    board: &Board,
    geometry: &Geometry<B>,
    p: &PieceType,
    rotation: u8,
) -> KindMoves<B> {
    let n = board.len();
    let mut km = KindMoves {
        leap_any: vec![B::EMPTY; n],
        leap_move: vec![B::EMPTY; n],
        leap_capture: vec![B::EMPTY; n],
        ..KindMoves::default()
    };
    add_atoms(board, geometry, p, rotation, &mut km);
    merge_leap_modes(&mut km);
    sort_slides(geometry, &mut km);
    km.capture_reach = capture_reach(geometry, &km, n);
    km.has_leaps = km.leap_any.iter().any(|b| b.any());
    km.has_moded_leaps = km.leap_move.iter().chain(&km.leap_capture).any(|b| b.any());
    km
}

/// Each atom's leaps into the leap table of its mode, and its slides as slide atoms.
fn add_atoms<B: CellSet>(
    board: &Board,
    geometry: &Geometry<B>,
    p: &PieceType,
    rotation: u8,
    km: &mut KindMoves<B>,
) {
    for a in &p.atoms {
        for v in &a.vectors {
            let v = v.rotated(rotation);
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
                    dir: geometry.dir_index(v),
                    mode: a.mode,
                    limit: max.map(|m| board.cells().map(|c| limited(board, c, v, m)).collect()),
                }),
            }
        }
    }
}

/// A target both moved-to and captured-on by different atoms is simply "any".
fn merge_leap_modes<B: CellSet>(km: &mut KindMoves<B>) {
    for c in 0..km.leap_any.len() {
        let both = km.leap_move[c] & km.leap_capture[c];
        km.leap_any[c] |= both;
        km.leap_move[c] = km.leap_move[c] & !km.leap_any[c];
        km.leap_capture[c] = km.leap_capture[c] & !km.leap_any[c];
    }
}

/// Splits the slides into plain ones (ascending rays first, laid out per cell) and
/// special ones (limited, move-only or capture-only).
fn sort_slides<B: CellSet>(geometry: &Geometry<B>, km: &mut KindMoves<B>) {
    for sa in &km.slides {
        if sa.limit.is_none() && sa.mode == MoveMode::MoveOrCapture {
            km.plain_slides.push(sa.dir);
        } else {
            km.special_slides.push(sa.clone());
        }
    }
    let ascending = &geometry.ascending;
    km.plain_slides.sort_by_key(|d| !ascending[*d as usize]);
    km.ascending_slides = km
        .plain_slides
        .iter()
        .filter(|d| ascending[**d as usize])
        .count();
    let plain = &km.plain_slides;
    km.slide_rays = (0..B::CAPACITY)
        .flat_map(|c| plain.iter().map(move |d| geometry.ray(*d, c)))
        .collect();
}

/// Per cell: every cell the kind could capture on were the board empty.
fn capture_reach<B: CellSet>(geometry: &Geometry<B>, km: &KindMoves<B>, n: usize) -> Vec<B> {
    (0..B::CAPACITY)
        .map(|c| {
            let mut reach = B::EMPTY;
            if c < n {
                reach = km.leap_any[c] | km.leap_capture[c];
            }
            for sa in &km.slides {
                if sa.mode == MoveMode::MoveOnly {
                    continue;
                }
                let ray = geometry.ray(sa.dir, c);
                reach |= match &sa.limit {
                    Some(l) if c < n => ray & l[c],
                    _ => ray,
                };
            }
            reach
        })
        .collect()
}

fn pawn_tables<B: CellSet>(
    board: &Board,
    rules: &PawnRules,
    kind: Kind,
    layout: &SideLayout,
    problems: &mut Problems,
) -> PawnTables<B> {
    let n = board.len();
    let mut advance: [Vec<Vec<Option<Cell>>>; MAX_SIDES] = Default::default();
    let mut capture: [Vec<B>; MAX_SIDES] = std::array::from_fn(|_| vec![B::EMPTY; n]);
    let mut long_first: [Vec<u8>; MAX_SIDES] = std::array::from_fn(|_| vec![0; n]);
    let mut advance_vectors: [Vec<Hex>; MAX_SIDES] = Default::default();
    for side in layout.sides() {
        let turn = |v: &Hex| v.rotated(layout.rotation(side));
        let i = side.index();
        for v in &rules.advance {
            advance[i].push(board.cells().map(|c| board.offset(c, turn(v))).collect());
            advance_vectors[i].push(turn(v));
        }
        for v in &rules.capture {
            for c in board.cells() {
                if let Some(t) = board.offset(c, turn(v)) {
                    capture[i][c.index()].insert(t);
                }
            }
        }
        let long: &[(Hex, u8)] = rules.long_first_moves.get(i).map_or(&[], |l| l.as_slice());
        for (h, steps) in long {
            match board.cell(*h) {
                Some(c) => long_first[i][c.index()] = *steps,
                None => problems.push(format!("first-move cell {h} is not on the board")),
            }
        }
    }
    PawnTables {
        kind,
        advance,
        advance_vectors,
        long_first,
        capture,
        en_passant: rules.en_passant,
        promoting_from: [B::EMPTY; MAX_SIDES],
    }
}

/// Reverse leap tables: from which cells does each (side, kind) attack a cell by a
/// leap (pawn captures included)? Also the kinds that leap-attack at all, per side.
#[allow(clippy::type_complexity)]
fn leap_attack_tables<B: CellSet>(
    board: &Board,
    moves: &[Vec<KindMoves<B>>; MAX_SIDES],
    pawn: Option<&PawnTables<B>>,
    layout: &SideLayout,
) -> ([Vec<Vec<B>>; MAX_SIDES], [Vec<Kind>; MAX_SIDES]) {
    let n = board.len();
    let mut leap_attackers: [Vec<Vec<B>>; MAX_SIDES] = Default::default();
    let mut leapers: [Vec<Kind>; MAX_SIDES] = Default::default();
    for side in layout.sides() {
        for (k, km) in moves[side.index()].iter().enumerate() {
            let mut rev = vec![B::EMPTY; n];
            let mut any = false;
            for from in board.cells() {
                let mut targets = km.leap_any[from.index()] | km.leap_capture[from.index()];
                if let Some(p) = pawn
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
    (leap_attackers, leapers)
}

/// One way of sliding onto a cell: the direction from the target toward the attacker,
/// the slide's range, and the kinds (a bit each) that slide so.
struct SlideEntry {
    toward_attacker: u8,
    max: Option<u8>,
    kinds: u32,
}

/// The sliding attack classes of one attacking side: directions grouped by the set of
/// kinds that capture along them.
fn slide_classes<B: CellSet>(
    board: &Board,
    geometry: &Geometry<B>,
    pieces: &[PieceType],
    rotation: u8,
) -> Vec<SlideClass<B>> {
    let n = board.len();
    let mut entries: Vec<SlideEntry> = Vec::new();
    for (k, p) in pieces.iter().enumerate() {
        for a in &p.atoms {
            if let (Reach::Slide { max }, true) = (a.reach, a.mode.captures()) {
                for v in &a.vectors {
                    let toward_attacker = geometry.dir_index(-v.rotated(rotation));
                    match entries
                        .iter_mut()
                        .find(|e| e.toward_attacker == toward_attacker && e.max == max)
                    {
                        Some(e) => e.kinds |= 1 << k,
                        None => entries.push(SlideEntry {
                            toward_attacker,
                            max,
                            kinds: 1 << k,
                        }),
                    }
                }
            }
        }
    }
    let mut classes: Vec<SlideClass<B>> = Vec::new();
    for SlideEntry {
        toward_attacker: d,
        max,
        kinds: mask,
    } in entries
    {
        let limit = max.map(|m| {
            board
                .cells()
                .map(|c| limited(board, c, geometry.directions[d as usize], m))
                .collect()
        });
        let class = match classes.iter_mut().position(|c| c.kinds == mask) {
            Some(i) => &mut classes[i],
            None => {
                classes.push(SlideClass {
                    kinds: mask,
                    dirs: Vec::new(),
                    limits: Vec::new(),
                    lines: vec![B::EMPTY; n],
                });
                classes.last_mut().expect("just pushed")
            }
        };
        class.dirs.push(d);
        class.limits.push(limit);
        for c in 0..n {
            class.lines[c] |= geometry.ray(d, c);
        }
    }
    classes
}

fn promotion_tables<B: CellSet>(
    board: &Board,
    v: &dyn Variant,
    pieces: &[PieceType],
    kinds: &[KindInfo],
    pawn_kind: Option<Kind>,
    problems: &mut Problems,
) -> Option<PromotionTables<B>> {
    match v.promotion() {
        Some(pr) if v.pawn().is_some() && pawn_kind.is_some() => Some(promotion_from(
            board, pr, pieces, kinds, pawn_kind, problems,
        )),
        Some(_) => {
            problems.push("promotion rules without pawn rules".to_string());
            None
        }
        None => None,
    }
}

fn promotion_from<B: CellSet>(
    board: &Board,
    pr: &PromotionRules,
    pieces: &[PieceType],
    kinds: &[KindInfo],
    pawn_kind: Option<Kind>,
    problems: &mut Problems,
) -> PromotionTables<B> {
    let mut choices = Vec::new();
    for c in &pr.choices {
        match kind_of(pieces, *c) {
            Some(k) if !kinds[k.index()].royal && Some(k) != pawn_kind => choices.push(k),
            _ => problems.push(format!(
                "promotion choice '{c}' is not a declared non-royal, non-pawn piece"
            )),
        }
    }
    let mut zone = [B::EMPTY; MAX_SIDES];
    let mut optional_zone = [B::EMPTY; MAX_SIDES];
    for side in 0..MAX_SIDES {
        for (set, list) in [
            (&mut zone, &pr.zone),
            (&mut optional_zone, &pr.optional_zone),
        ] {
            for h in list.get(side).map_or(&[][..], |l| l.as_slice()) {
                match board.cell(*h) {
                    Some(c) => set[side].insert(c),
                    None => problems.push(format!("promotion cell {h} is not on the board")),
                }
            }
        }
    }
    // A cell in both zones is compulsory.
    for s in 0..MAX_SIDES {
        optional_zone[s] &= !zone[s];
    }
    PromotionTables {
        choices,
        zone,
        optional_zone,
        only_lost_pieces: pr.only_lost_pieces,
        must_promote_to_enter: pr.must_promote_to_enter,
    }
}

/// The cells from which one pawn advance reaches a promotion cell, for every side (a
/// captures-only generation reads them: the third and fourth sides' were once left
/// empty, and their promotions missing from it).
fn mark_promoting_cells<B: CellSet>(
    board: &Board,
    pt: &mut PawnTables<B>,
    pr: &PromotionTables<B>,
) {
    for s in 0..MAX_SIDES {
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

/// Bit per kind that slides (plainly or not) for any side.
fn sliding_mask<B: CellSet>(moves: &[Vec<KindMoves<B>>; MAX_SIDES]) -> u32 {
    let mut mask = 0;
    for side_moves in moves {
        for (k, km) in side_moves.iter().enumerate() {
            if !km.slides.is_empty() || !km.special_slides.is_empty() {
                mask |= 1 << k;
            }
        }
    }
    mask
}

/// Each side's castling moves, and per cell the rights lost when a piece moves from or
/// to it.
fn castling_tables<B: CellSet>(
    board: &Board,
    v: &dyn Variant,
    problems: &mut Problems,
) -> ([Vec<CastlingTables<B>>; MAX_SIDES], Vec<u8>) {
    let mut castling: [Vec<CastlingTables<B>>; MAX_SIDES] = Default::default();
    let mut castle_spoilers = vec![0u8; board.len()];
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
            match castling_move(board, c) {
                Ok(t) => {
                    let bit = castle_bit(side, i);
                    castle_spoilers[t.king.index()] |= bit;
                    castle_spoilers[t.rook.index()] |= bit;
                    castling[side.index()].push(t);
                }
                Err(problem) => problems.push(problem),
            }
        }
    }
    (castling, castle_spoilers)
}

/// The cells strictly between two cells on a line, and the whole line with both ends.
fn line<B: CellSet>(board: &Board, a: Hex, b: Hex) -> Option<(B, B)> {
    let step = a.step_toward(b)?;
    let mut between = B::EMPTY;
    let mut all = B::from_cell(board.cell(a)?);
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
}

fn castling_move<B: CellSet>(board: &Board, c: &CastlingRule) -> Result<CastlingTables<B>, String> {
    let cell = |h: Hex| board.cell(h);
    let (Some(king), Some(rook), Some(king_to), Some(rook_to)) =
        (cell(c.king), cell(c.rook), cell(c.king_to), cell(c.rook_to))
    else {
        return Err(format!("castling {} uses a cell off the board", c.notation));
    };
    let (Some((kr_between, _)), Some((_, king_all)), Some((_, rook_all))) = (
        line::<B>(board, c.king, c.rook),
        line::<B>(board, c.king, c.king_to),
        line::<B>(board, c.rook, c.rook_to),
    ) else {
        return Err(format!(
            "castling {}: its cells are not on straight lines across the board",
            c.notation
        ));
    };
    let mut empty = kr_between | king_all | rook_all;
    empty.remove(king);
    empty.remove(rook);
    Ok(CastlingTables {
        king,
        rook,
        king_to,
        rook_to,
        empty,
        king_path: king_all,
        notation: c.notation.clone(),
    })
}

/// The starting array and how many of each kind each side starts with.
fn starting_array<B: CellSet>(
    board: &Board,
    v: &dyn Variant,
    pieces: &[PieceType],
    problems: &mut Problems,
) -> (Vec<(Cell, Piece)>, [[u8; MAX_KINDS]; MAX_SIDES]) {
    let mut setup = Vec::new();
    let mut start_counts = [[0u8; MAX_KINDS]; MAX_SIDES];
    let mut taken = B::EMPTY;
    for p in v.setup() {
        let (Some(cell), Some(kind)) = (board.cell(p.cell), kind_of(pieces, p.piece)) else {
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
    (setup, start_counts)
}

fn check_one_royal_each(
    start_counts: &[[u8; MAX_KINDS]; MAX_SIDES],
    royal_kinds: u32,
    kinds: usize,
    layout: &SideLayout,
    problems: &mut Problems,
) {
    for side in layout.sides() {
        let royals: u32 = (0..kinds)
            .filter(|k| royal_kinds >> k & 1 != 0)
            .map(|k| start_counts[side.index()][k] as u32)
            .sum();
        if royals != 1 {
            problems.push(format!(
                "{side} has {royals} royal pieces in the setup; exactly one is needed"
            ));
        }
    }
}

/// Whether Black's rules are White's seen in the board's mirror: every cell has a
/// mirror image, each kind reaches from a cell's image the images of what White's
/// reaches, pawns advance, capture and promote so, and both sides start with as many of
/// each kind. Then swapping colours and mirroring a position keeps its moves
/// ([`crate::Position::colour_flipped`]); Shafran's Black, for one, is White turned round
/// instead.
fn is_colour_symmetric<B: CellSet>(
    board: &Board,
    moves: &[Vec<KindMoves<B>>; MAX_SIDES],
    pawn: Option<&PawnTables<B>>,
    promotion: Option<&PromotionTables<B>>,
    start_counts: &[[u8; MAX_KINDS]; MAX_SIDES],
) -> bool {
    let Some(mirror) = board
        .cells()
        .map(|c| board.mirror(c))
        .collect::<Option<Vec<Cell>>>()
    else {
        return false;
    };
    let image = |set: B| -> B { set.into_iter().map(|c| mirror[c.index()]).collect() };
    let leaps_match = moves[0].iter().zip(&moves[1]).all(|(w, b)| {
        board.cells().all(|c| {
            let (i, m) = (c.index(), mirror[c.index()].index());
            image(w.leap_any[i]) == b.leap_any[m]
                && image(w.leap_move[i]) == b.leap_move[m]
                && image(w.leap_capture[i]) == b.leap_capture[m]
                && image(w.capture_reach[i]) == b.capture_reach[m]
        })
    });
    let pawns_match = pawn.is_none_or(|p| {
        board.cells().all(|c| {
            let (i, m) = (c.index(), mirror[c.index()].index());
            let advances = |side: usize, at: usize| -> B {
                p.advance[side].iter().filter_map(|t| t[at]).collect()
            };
            image(p.capture[0][i]) == p.capture[1][m]
                && image(advances(0, i)) == advances(1, m)
                && p.long_first[0][i] == p.long_first[1][m]
        })
    });
    let promotion_match = promotion.is_none_or(|pr| {
        image(pr.zone[0]) == pr.zone[1] && image(pr.optional_zone[0]) == pr.optional_zone[1]
    });
    leaps_match && pawns_match && promotion_match && start_counts[0] == start_counts[1]
}
