//! Building an [`Evaluator`] for a variant: everything it knows is derived from the
//! rules (how far each piece reaches from each cell, how far pawns are from promoting,
//! which way is forward) and weighed by [`EvalWeights`], in these steps:
//!
//! 1. [`KindReach`]: each kind's reach from each cell of an empty board;
//! 2. [`kind_values`]: material values, from the variant file or from that reach;
//! 3. [`PawnGeometry`]: advances left to promote, and what stops a passed pawn;
//! 4. [`Forward`]: how far up the board a cell is for each side;
//! 5. [`king_zones`] and [`pawn_shields`]: around and in front of a king;
//! 6. [`placement`] and [`mobility_weight`]: per-kind placement tables and mobility;
//! 7. [`summed_table`]: material plus placement per piece and cell, for the search.

use std::sync::Arc;

use hexchess_core::bitboard::Bitboard;
use hexchess_core::piece::{Kind, MAX_KINDS, Piece, Side};
use hexchess_core::position::PieceSquareTable;
use hexchess_core::rules::Rules;
use hexchess_core::variant::MAX_PIECE_VALUE;
use hexchess_core::{Board, Cell};

use super::{EvalWeights, Evaluator, MobileKind, OPEN_RAY, Phased};

pub(super) fn build(rules: &Rules, w: &EvalWeights) -> Evaluator {
    let pawn = rules.pawn_kind();
    let reach = KindReach::new(rules);
    let values = kind_values(rules, &reach);
    let pawns = PawnGeometry::new(rules);
    let forward = Forward::new(rules.board());
    let board = rules.board();
    let king_zone = king_zones(board);
    let shield = Side::BOTH.map(|side| pawn_shields(board, &forward, side));
    let pst = Side::BOTH.map(|side| {
        rules
            .kinds()
            .map(|k| placement(rules, w, &reach, &pawns, &forward, side, k))
            .collect::<Vec<_>>()
    });
    let mobile = rules
        .kinds()
        .filter(|k| !rules.is_royal(*k) && Some(*k) != pawn)
        .map(|k| {
            let (weight, base) = mobility_weight(w, &reach.plain[k.index()], board.len());
            MobileKind {
                kind: k,
                weight,
                base,
                heavy: 1 + values[k.index()] / 300,
            }
        })
        .collect();
    let placed = summed_table(rules, &values, &pst);
    Evaluator {
        in_hand: hand_values(rules, &placed),
        passed_bonus: passed_bonuses(w, pawns.max_steps),
        king_danger: w.king_danger,
        shield_bonus: w.shield,
        placed: Arc::new(placed),
        mobile,
        values,
        passed_stoppers: pawns.stoppers,
        pawn_steps: pawns.steps,
        king_zone,
        shield,
        start_phase: start_phase(rules, &values).max(1),
        pawn,
        piece_kinds: rules
            .kinds()
            .filter(|&k| !rules.is_royal(k) && Some(k) != pawn)
            .collect(),
        kinds: rules.kinds().collect(),
    }
}

/// `[side * MAX_KINDS + kind]`: what a piece in hand is worth in the setup phase: its
/// placed value averaged over the cells its side may place it on, so that placing it
/// gains what the cell is better than the zone's average (and nothing is lost or won
/// by the piece merely leaving the hand). Empty without a setup phase.
fn hand_values(rules: &Rules, placed: &PieceSquareTable) -> Vec<[i32; 3]> {
    if !rules.has_setup_phase() {
        return Vec::new();
    }
    let mut out = vec![[0; 3]; 2 * MAX_KINDS];
    for side in Side::BOTH {
        let zone = rules.setup_zone(side);
        let n = zone.count().max(1) as i32;
        for k in rules.kinds() {
            let mut sum = [0i32; 3];
            for c in zone {
                for (s, v) in sum.iter_mut().zip(placed.get(Piece::new(side, k), c)) {
                    *s += v;
                }
            }
            out[side.index() * MAX_KINDS + k.index()] = sum.map(|s| s / n);
        }
    }
    out
}

/// Each kind's reach from each cell of an empty board (White's moves).
struct KindReach {
    /// `[kind][cell]`: leaps plus slides, each further step along a slide worth
    /// [`OPEN_RAY`] of the one before (a long ray is rarely open all the way).
    open: Vec<Vec<f64>>,
    /// `[kind][cell]`: the cells reached, as the dynamic mobility counts them.
    plain: Vec<Vec<i32>>,
}

impl KindReach {
    fn new(rules: &Rules) -> KindReach {
        let board = rules.board();
        let n = board.len();
        let kinds = rules.kinds().len();
        let empty = Bitboard::EMPTY;
        let mut open = vec![vec![0f64; n]; kinds];
        let mut plain = vec![vec![0i32; n]; kinds];
        for k in rules.kinds() {
            let piece = Piece::new(Side::White, k);
            for c in board.cells() {
                let i = c.index();
                let leaps = rules.leap_targets(piece, c).count() as f64;
                let mut slides = 0.0;
                for line in rules.slide_lines(piece, c) {
                    let mut w = 1.0;
                    for _ in 0..line.count() {
                        slides += w;
                        w *= OPEN_RAY;
                    }
                }
                open[k.index()][i] = leaps + slides;
                plain[k.index()][i] = rules.reach(piece, c, empty, empty, empty).count() as i32;
            }
        }
        KindReach { open, plain }
    }
}

fn average(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len().max(1) as f64
}

/// Material values: the variant file's, or else from the kind's average open reach.
fn kind_values(rules: &Rules, reach: &KindReach) -> [i32; MAX_KINDS] {
    let pawn = rules.pawn_kind();
    let mut values = [0i32; MAX_KINDS];
    for k in rules.kinds() {
        let info = rules.kind_info(k);
        let value = if rules.is_royal(k) {
            0
        } else if Some(k) == pawn {
            info.value.unwrap_or(100)
        } else {
            // Fitted so that Gliński's knight, bishop, rook and queen come out near
            // 300, 330, 510 and 950: value grows a little faster than mobility.
            info.value.unwrap_or_else(|| {
                let m = average(&reach.open[k.index()]);
                (26.2 * m.powf(1.18)).round() as i32
            })
        };
        // Variant files are checked against this range; rules built otherwise are
        // held to it too.
        values[k.index()] = value.clamp(0, MAX_PIECE_VALUE);
    }
    values
}

/// Pawn geometry: advances left to promote, and the cells that must be free of enemy
/// pawns (or their captures) for a pawn to be passed.
struct PawnGeometry {
    /// `[side][cell]`: advances left to a promotion cell (the most there are where
    /// none reaches one).
    steps: [Vec<u8>; 2],
    /// `[side][cell]`: where an enemy pawn stops a pawn of `side` on `cell`.
    stoppers: [Vec<Bitboard>; 2],
    /// The most advances any pawn needs (at least one).
    max_steps: u8,
}

impl PawnGeometry {
    fn new(rules: &Rules) -> PawnGeometry {
        let n = rules.board().len();
        let empty = Bitboard::EMPTY;
        let mut geometry = PawnGeometry {
            steps: [vec![0; n], vec![0; n]],
            stoppers: [vec![empty; n], vec![empty; n]],
            max_steps: 1,
        };
        if rules.pawn_kind().is_none() {
            return geometry;
        }
        for side in Side::BOTH {
            let steps = steps_to_promote(rules, side);
            for (i, st) in steps.iter().enumerate() {
                if *st != u8::MAX {
                    geometry.max_steps = geometry.max_steps.max(*st);
                }
                geometry.steps[side.index()][i] = *st;
            }
            for c in rules.board().cells() {
                geometry.stoppers[side.index()][c.index()] = stoppers(rules, side, c);
            }
        }
        for side in Side::BOTH {
            for st in geometry.steps[side.index()].iter_mut() {
                if *st == u8::MAX {
                    *st = geometry.max_steps;
                }
            }
        }
        geometry
    }
}

/// Per cell: advances a pawn of `side` needs to promote (`u8::MAX`: it never does),
/// by a breadth-first search backwards from the promotion cells.
fn steps_to_promote(rules: &Rules, side: Side) -> Vec<u8> {
    let board = rules.board();
    let mut steps = vec![u8::MAX; board.len()];
    let mut frontier: Vec<Cell> = rules.promotion_zone(side).collect();
    for c in &frontier {
        steps[c.index()] = 0;
    }
    let mut d = 0u8;
    while !frontier.is_empty() {
        d = d.saturating_add(1);
        let mut next = Vec::new();
        for c in board.cells() {
            if steps[c.index()] == u8::MAX
                && rules
                    .pawn_advances(side, c)
                    .any(|to| frontier.contains(&to))
            {
                steps[c.index()] = d;
                next.push(c);
            }
        }
        frontier = next;
    }
    steps
}

/// The cells where an enemy pawn stops a pawn of `side` on `c`: its forward cone (every
/// cell its advances reach) and every cell from which an enemy pawn captures onto it.
fn stoppers(rules: &Rules, side: Side, c: Cell) -> Bitboard {
    let mut cone = Bitboard::EMPTY;
    let mut todo = vec![c];
    while let Some(x) = todo.pop() {
        for to in rules.pawn_advances(side, x) {
            if !cone.contains(to) {
                cone.insert(to);
                todo.push(to);
            }
        }
    }
    let mut stoppers = cone;
    for from in rules.board().cells() {
        if (rules.pawn_captures(!side, from) & cone).any() {
            stoppers.insert(from);
        }
    }
    stoppers
}

/// How far up the board a cell is for each side, 0 at its own edge and 1 at the far
/// one: forward in the drawing is +y for White, -y for Black.
struct Forward<'a> {
    board: &'a Board,
    min_y: f32,
    max_y: f32,
}

impl<'a> Forward<'a> {
    fn new(board: &'a Board) -> Forward<'a> {
        let mut forward = Forward {
            board,
            min_y: f32::MAX,
            max_y: f32::MIN,
        };
        let (min_y, max_y) = board.cells().fold((f32::MAX, f32::MIN), |(lo, hi), c| {
            (lo.min(forward.y(c)), hi.max(forward.y(c)))
        });
        forward.min_y = min_y;
        forward.max_y = max_y;
        forward
    }

    fn y(&self, c: Cell) -> f32 {
        self.board.layout().to_pixel(self.board.hex(c)).1
    }

    fn progress(&self, side: Side, c: Cell) -> f32 {
        let span = (self.max_y - self.min_y).max(1.0);
        match side {
            Side::White => (self.y(c) - self.min_y) / span,
            _ => (self.max_y - self.y(c)) / span,
        }
    }
}

/// Per cell: the cells within two steps (a royal piece's neighbourhood).
fn king_zones(board: &Board) -> Vec<Bitboard> {
    board
        .cells()
        .map(|c| {
            board
                .cells()
                .filter(|t| *t != c && board.hex(*t).distance(board.hex(c)) <= 2)
                .collect()
        })
        .collect()
}

/// Per cell: the cells within two steps in front of a royal piece of `side` there.
fn pawn_shields(board: &Board, forward: &Forward, side: Side) -> Vec<Bitboard> {
    board
        .cells()
        .map(|c| {
            board
                .cells()
                .filter(|t| {
                    board.hex(*t).distance(board.hex(c)) <= 2
                        && forward.progress(side, *t) > forward.progress(side, c) + 0.01
                })
                .collect()
        })
        .collect()
}

/// Where a piece of kind `k` of `side` stands well, per cell (middlegame, endgame).
fn placement(
    rules: &Rules,
    w: &EvalWeights,
    reach: &KindReach,
    pawns: &PawnGeometry,
    forward: &Forward,
    side: Side,
    k: Kind,
) -> Vec<Phased> {
    let board = rules.board();
    let radius = board
        .cells()
        .map(|c| board.hex(c).length())
        .max()
        .unwrap_or(1)
        .max(1);
    let avg = average(&reach.open[k.index()]);
    let mut table = vec![Phased::default(); board.len()];
    for c in board.cells() {
        let i = c.index();
        let central = (radius - board.hex(c).length()) as f64 / radius as f64;
        table[i] = if rules.is_royal(k) {
            // Stay home behind the pawns while pieces are on; walk to the centre in
            // the endgame.
            let back = forward.progress(side, c) as f64;
            let centre = w.king_centre as f64;
            Phased::new(
                (-(w.king_forward as f64) * back) as i32,
                (centre * central - centre / 2.0) as i32,
            )
        } else if Some(k) == rules.pawn_kind() {
            let left = pawns.steps[side.index()][i] as f64;
            let advanced = 1.0 - left / pawns.max_steps as f64;
            Phased::new(
                (w.pawn_advance[0] as f64 * advanced + w.pawn_centre as f64 * central) as i32,
                (w.pawn_advance[1] as f64 * advanced) as i32,
            )
        } else {
            // More reach here than on average: a better cell.
            let extra = reach.open[k.index()][i] - avg;
            Phased::new(
                (w.piece_reach[0] as f64 / 10.0 * extra) as i32,
                (w.piece_reach[1] as f64 / 10.0 * extra) as i32,
            )
        };
    }
    table
}

/// A kind's dynamic mobility: the weight of each reachable cell (times four), and the
/// zero point, a third of its average reach. Weighted so that long-range pieces do not
/// dominate (a queen reaches many cells; each is worth less).
fn mobility_weight(w: &EvalWeights, plain: &[i32], cells: usize) -> (Phased, i32) {
    let plain_avg = plain.iter().sum::<i32>() as f64 / cells.max(1) as f64;
    let per = |scale: i32| (scale as f64 / plain_avg.max(1.0).sqrt()).round();
    (
        Phased::new(per(w.mobility[0]) as i32, per(w.mobility[1]) as i32),
        (plain_avg / 3.0).round() as i32,
    )
}

/// Non-pawn, non-royal material of both sides at the start: the opening's phase.
fn start_phase(rules: &Rules, values: &[i32; MAX_KINDS]) -> i32 {
    let pawn = rules.pawn_kind();
    rules
        .setup()
        .iter()
        .filter(|(_, p)| !rules.is_royal(p.kind) && Some(p.kind) != pawn)
        .map(|(_, p)| values[p.kind.index()])
        .sum()
}

/// Per piece and cell: material plus placement (White positive) and the piece's share
/// of the game phase.
fn summed_table(
    rules: &Rules,
    values: &[i32; MAX_KINDS],
    pst: &[Vec<Vec<Phased>>; 2],
) -> PieceSquareTable {
    let pawn = rules.pawn_kind();
    let mut placed = PieceSquareTable::new();
    for side in Side::BOTH {
        let sign = if side == Side::White { 1 } else { -1 };
        for k in rules.kinds() {
            let value = values[k.index()];
            let phase = if rules.is_royal(k) || Some(k) == pawn {
                0
            } else {
                value
            };
            for c in rules.board().cells() {
                let pst = pst[side.index()][k.index()][c.index()];
                placed.set(
                    Piece::new(side, k),
                    c,
                    // The fourth lane is for games of more sides.
                    [sign * (value + pst.mg), sign * (value + pst.eg), phase, 0],
                );
            }
        }
    }
    placed
}

/// `[steps left]`: a passed pawn's bonus (middlegame, endgame), growing with the square
/// of how far it has come.
fn passed_bonuses(w: &EvalWeights, max_steps: u8) -> Vec<Phased> {
    let m = max_steps.max(1) as i32;
    (0..=max_steps as i32)
        .map(|left| {
            let advanced = (m - left).max(0);
            let bonus = w.passed[0] + w.passed[1] * advanced * advanced / (m * m);
            Phased::new(bonus / 2, bonus)
        })
        .collect()
}
