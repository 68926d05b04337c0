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
    scores(game, false)
}

/// Each side's score by the refined judgement: [`evaluate`]'s, less the worth of a
/// removal the side owes (a fair exchange's debt is a piece as good as gone), and
/// with a point for every cell around its king it could step to (a king with nowhere
/// to go is near a mate; attacking it is what ends games).
pub fn judge<B: CellSet>(game: &Game<B>) -> [i32; MAX_SIDES] {
    scores(game, true)
}

fn scores<B: CellSet>(game: &Game<B>, judged: bool) -> [i32; MAX_SIDES] {
    let pos = game.position();
    let radius = board_radius(pos.rules());
    // Every cell each side attacks, found once for all the sides' scores.
    let mut attacks = [B::EMPTY; MAX_SIDES];
    for side in game.sides() {
        if game.standing(side) != Standing::Out {
            attacks[side.index()] = pos.attacked_among(side, !B::EMPTY);
        }
    }
    let mut out = [0; MAX_SIDES];
    for side in game.sides() {
        let mut score = side_score(game, side, radius, &attacks);
        if judged {
            score += judgement(game, side, &attacks);
        }
        out[side.index()] = match game.standing(side) {
            Standing::Out => OUT,
            Standing::Frozen => FROZEN + score,
            Standing::Playing => score,
        };
    }
    out
}

/// What the refined judgement adds to a side's score: its debt (fair-exchange values
/// are in pawns) and its king's free cells.
fn judgement<B: CellSet>(game: &Game<B>, side: Side, attacks: &[B; MAX_SIDES]) -> i32 {
    let pos = game.position();
    let rules = pos.rules();
    let debt = 100 * i32::from(game.owed(side));
    if !pos.royal_on_board(side) {
        return -debt;
    }
    let attacked = rules
        .enemies(side)
        .iter()
        .fold(B::EMPTY, |hit, e| hit | attacks[e.index()]);
    let free = rules.steps_from(pos.royal_cell(side)) & !pos.side_cells(side) & !attacked;
    KING_ROOM * free.count() as i32 - debt
}

/// Worth of each cell a king could step to.
const KING_ROOM: i32 = 6;

/// The score of one side still in the game, with every side's `attacks` (read from
/// them, not asked cell by cell).
fn side_score<B: CellSet>(
    game: &Game<B>,
    side: Side,
    radius: i32,
    attacks: &[B; MAX_SIDES],
) -> i32 {
    let pos = game.position();
    let rules = pos.rules();
    let own = pos.side_cells(side);
    let king_zone = if pos.royal_on_board(side) {
        rules.steps_from(pos.royal_cell(side))
    } else {
        B::EMPTY
    };
    let attacked = rules
        .enemies(side)
        .iter()
        .fold(B::EMPTY, |hit, e| hit | attacks[e.index()]);
    let defended = attacks[side.index()];
    let mut score = 0;
    for c in own {
        let Some(piece) = pos.piece_at(c) else {
            continue;
        };
        let value = kind_value(rules, piece.kind);
        score += value;
        if rules.is_royal(piece.kind) {
            // Attacks on the cells around the king.
            score -= 15 * (attacked & king_zone).count() as i32;
            continue;
        }
        // Pieces toward the centre; pawns for every step they have made.
        let from_centre = rules.board().hex(c).distance(Hex::new(0, 0));
        score += 2 * (radius - from_centre);
        if Some(piece.kind) == rules.pawn_kind() {
            score += 4 * (radius - from_centre);
        }
        if attacked.contains(c) && !pos.immune().contains(c) {
            score -= if defended.contains(c) {
                value / 8
            } else {
                value / 2
            };
        }
    }
    if game.in_check(side) {
        score -= 60;
    }
    score
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

/// A side's score against the others by the refined judgement: its team's mean (a
/// partner counts with it, not against it) less the enemies' mean and their best
/// halved each, so the side that leads is the one to attack.
pub fn judged_relative<B: CellSet>(scores: &[i32; MAX_SIDES], side: Side, rules: &Rules<B>) -> i32 {
    let enemies = rules.enemies(side);
    if enemies.is_empty() {
        return scores[side.index()];
    }
    // Read in place: this runs at every leaf.
    let score = |i: usize| i64::from(scores[i]);
    let (mut team_sum, mut team_len) = (0i64, 0i64);
    for i in (0..rules.side_count()).filter(|i| !enemies.iter().any(|e| e.index() == *i)) {
        team_sum += score(i);
        team_len += 1;
    }
    let own = team_sum / team_len.max(1);
    let theirs = || enemies.iter().map(|e| score(e.index()));
    let mean = theirs().sum::<i64>() / enemies.len() as i64;
    let leader = theirs().max().unwrap_or(mean);
    (own - (mean + leader) / 2) as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use hexchess_core::catalog::Catalog;

    #[test]
    fn the_judgement_counts_a_partner_with_its_side_and_looks_at_the_leader() {
        let catalog = Catalog::builtin();
        let four = catalog.get("hexachess-4").expect("built in").rules();
        let me = Side::from_index(0);
        // 4-player: seats 0 and 2 are partners.
        let base = [1000; MAX_SIDES];
        let judged = |s: [i32; MAX_SIDES]| judged_relative(&s, me, four);
        let mut partner_up = base;
        partner_up[2] += 300;
        assert!(judged(partner_up) > judged(base));
        assert!(relative(&partner_up, me, 4) < relative(&base, me, 4));
        // 3-player: the same loss of an opponent's counts more when it is the leader's.
        let three = catalog.get("hexachess-3").expect("built in").rules();
        let scores = [1000, 1500, 800, 0];
        let judged3 = |s: [i32; MAX_SIDES]| judged_relative(&s, me, three);
        let (mut leader_down, mut trailer_down) = (scores, scores);
        leader_down[1] -= 300;
        trailer_down[2] -= 300;
        assert!(judged3(leader_down) > judged3(trailer_down));
        assert_eq!(
            relative(&leader_down, me, 3),
            relative(&trailer_down, me, 3),
            "the plain score cannot tell them apart"
        );
    }
}
