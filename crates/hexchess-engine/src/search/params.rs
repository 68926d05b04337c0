//! Every number the search is tuned by, in one place, with what it does. Each was set
//! by engine-vs-engine matches (see docs/measuring.md); changing one changes the
//! engine's play and its `bench` node count.

/// Aspiration windows: the first window's half-width around the last iteration's
/// score (centipawns), from this depth on.
pub const ASPIRATION_WINDOW: i32 = 35;
/// The depth from which the first window is narrow.
pub const ASPIRATION_MIN_DEPTH: i32 = 4;
/// A failed window widens by half of itself plus this much...
pub const ASPIRATION_GROWTH: i32 = 10;
/// ...and opens fully once wider than this.
pub const ASPIRATION_GIVE_UP: i32 = 1000;

/// Internal iterative reduction: a node this deep with no hash move is searched a ply
/// shallower.
pub const IIR_MIN_DEPTH: i32 = 4;

/// Reverse futility pruning: up to this depth, a static score this far above beta per
/// ply of depth is taken to hold.
pub const REVERSE_FUTILITY_DEPTH: i32 = 3;
/// The margin per ply of depth (centipawns).
pub const REVERSE_FUTILITY_MARGIN: i32 = 110;

/// Null-move pruning from this depth on, reducing by [`null_move_reduction`].
pub const NULL_MOVE_MIN_DEPTH: i32 = 3;

/// How much shallower the search after a null move is.
#[inline]
pub fn null_move_reduction(depth: i32) -> i32 {
    3 + depth / 4
}

/// Move-count pruning up to this depth: late quiet moves past [`move_count_limit`]
/// are skipped.
pub const MOVE_COUNT_DEPTH: i32 = 3;

/// Quiet moves searched at a node of this depth before the rest are skipped.
#[inline]
pub fn move_count_limit(depth: i32) -> usize {
    4 + 3 * (depth * depth) as usize
}

/// Futility pruning up to this depth: a quiet move that gives no check is skipped when
/// the static score plus this margin per ply cannot reach alpha.
pub const FUTILITY_DEPTH: i32 = 2;
/// The margin per ply of depth (centipawns).
pub const FUTILITY_MARGIN: i32 = 160;

/// Late-move reductions from this depth on, for quiet moves from this many on.
pub const LMR_MIN_DEPTH: i32 = 3;
/// The first move number reduced.
pub const LMR_MIN_MOVES: usize = 3;

/// The reduction of the `moves`-th move at `depth` (both from 1), before adjustments:
/// grows with the logarithm of both.
pub fn lmr_reduction(depth: usize, moves: usize) -> u8 {
    (0.75 + (depth as f64).ln() * (moves as f64).ln() / 2.25) as u8
}

/// Delta pruning in quiescence: a capture that cannot lift the score to alpha even
/// with this much to spare is skipped.
pub const DELTA_MARGIN: i32 = 200;

/// History scores stay within `-HISTORY_MAX..=HISTORY_MAX`, below the killers' order.
pub const HISTORY_MAX: i32 = 16_384;

/// A cutoff's history bonus at `depth` (the tried moves before it lose as much).
#[inline]
pub fn history_bonus(depth: i32) -> i32 {
    (depth * depth * 16).min(HISTORY_MAX / 8)
}

/// At the start of each search the history scores are divided by this, so that the
/// last search's lessons count less than this one's.
pub const HISTORY_AGEING: i32 = 8;
