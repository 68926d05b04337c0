//! A static evaluation for games of more sides: one score per side, in centipawns.
//!
//! Material, pawns' progress, pieces near the centre, a king's attacked surroundings,
//! and pieces left attacked and undefended (a game of three is a game of hanging
//! pieces: two opponents can take). A side out scores far below everyone; a side under
//! a checkmate freeze is close to it.

use hexchess_core::bitboard::CellSet;
use hexchess_core::game::{Game, Standing};
use hexchess_core::piece::{Kind, MAX_SIDES, Side};
use hexchess_core::{Hex, Rules};

/// A side out of the game: below anything a side still playing can score.
pub const OUT: i32 = -100_000;
/// A side under a checkmate freeze: lost unless another side lifts the mate.
const FROZEN: i32 = -5_000;

/// Worth of a piece kind in centipawns: the variant's value, else by its letter.
pub fn kind_value<B: CellSet>(rules: &Rules<B>, k: Kind) -> i32 {
    let info = rules.kind_info(k);
    if let Some(v) = info.value {
        return v;
    }
    match info.letter {
        'K' => 0,
        'Q' => 950,
        'R' => 500,
        'B' => 320,
        'N' => 330,
        'P' => 100,
        _ => 400,
    }
}

/// Each side's score as the board stands (index by [`Side::index`]).
pub fn evaluate<B: CellSet>(game: &Game<B>) -> [i32; MAX_SIDES] {
    let mut out = [0; MAX_SIDES];
    for side in game.sides() {
        out[side.index()] = match game.standing(side) {
            Standing::Out => OUT,
            Standing::Frozen => FROZEN + side_score(game, side),
            Standing::Playing => side_score(game, side),
        };
    }
    out
}

/// The score of one side still in the game.
fn side_score<B: CellSet>(game: &Game<B>, side: Side) -> i32 {
    let pos = game.position();
    let rules = pos.rules();
    let radius = board_radius(rules);
    let enemies: Vec<Side> = rules
        .enemies(side)
        .iter()
        .copied()
        .filter(|e| game.standing(*e) != Standing::Out)
        .collect();
    let mut score = 0;
    for c in pos.side_cells(side) {
        let Some(piece) = pos.piece_at(c) else {
            continue;
        };
        let value = kind_value(rules, piece.kind);
        score += value;
        let h = rules.board().hex(c);
        let from_centre = h.distance(Hex::new(0, 0));
        if rules.is_royal(piece.kind) {
            score += king_safety(game, c, &enemies);
            continue;
        }
        // Pieces toward the centre; pawns for every step they have made.
        score += 2 * (radius - from_centre);
        if Some(piece.kind) == rules.pawn_kind() {
            score += 4 * (radius - from_centre);
        }
        let attacked = enemies.iter().any(|e| pos.is_attacked(c, *e));
        if attacked && !pos.immune().contains(c) {
            let defended = pos.is_attacked(c, side);
            score -= if defended { value / 8 } else { value / 2 };
        }
    }
    if game.in_check(side) {
        score -= 60;
    }
    score
}

/// Attacks on the cells around the king.
fn king_safety<B: CellSet>(game: &Game<B>, king: hexchess_core::Cell, enemies: &[Side]) -> i32 {
    let pos = game.position();
    let rules = pos.rules();
    let h = rules.board().hex(king);
    let mut attacked = 0;
    for d in rules.directions() {
        let Some(h2) = h.checked_add(*d) else {
            continue;
        };
        if let Some(c) = rules.board().cell(h2)
            && enemies.iter().any(|e| pos.is_attacked(c, *e))
        {
            attacked += 1;
        }
    }
    -15 * attacked
}

/// How far the board reaches from the centre.
fn board_radius<B: CellSet>(rules: &Rules<B>) -> i32 {
    rules
        .board()
        .cells()
        .map(|c| rules.board().hex(c).distance(Hex::new(0, 0)))
        .max()
        .unwrap_or(0)
}

/// A side's score against the others: its own less their mean, over every seat (a
/// side out counts at [`OUT`], so taking a king is worth far more than leaving its
/// side frozen).
pub fn relative(scores: &[i32; MAX_SIDES], side: Side, seats: usize) -> i32 {
    if seats < 2 {
        return scores[side.index()];
    }
    let others: i64 = (0..seats)
        .filter(|i| *i != side.index())
        .map(|i| i64::from(scores[i]))
        .sum();
    (i64::from(scores[side.index()]) - others / (seats as i64 - 1)) as i32
}
