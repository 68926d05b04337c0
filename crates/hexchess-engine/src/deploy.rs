//! Choosing a hidden deployment (Screen HexaChess): the engine places its whole hand
//! without looking at the other side's pieces, which its opponent could not see either.
//!
//! A search over placements would see the opponent's deployment, so instead the
//! engine builds several deployments on a board holding only its own pieces, each
//! placing one piece at a time where the evaluation likes it best give or take some
//! noise (a deployment should not be predictable), and keeps the best of them.

use std::sync::Arc;

use rand::Rng;

use crate::eval::{EvalMode, EvalTerms, Evaluator};
use hexchess_core::fen::placement_field;
use hexchess_core::moves::Move;
use hexchess_core::piece::{Piece, Side};
use hexchess_core::position::{Phase, Position};

/// Deployments tried before the best is kept.
const SAMPLES: usize = 12;
/// Noise added to each candidate placement's score, in centipawns either way.
const NOISE: i32 = 12;

/// The side to move's placements for the rest of its hidden deployment, best first
/// (empty outside a hidden setup phase).
pub fn choose_deployment(pos: &Position, eval: &Evaluator, rng: &mut impl Rng) -> Vec<Move> {
    let us = pos.turn();
    if pos.phase() != Phase::Setup || !pos.rules().setup_is_hidden() {
        return Vec::new();
    }
    let Some(mut unseen) = own_half(pos) else {
        return Vec::new();
    };
    eval.attach(&mut unseen);
    let mut best: Option<(i32, Vec<Move>)> = None;
    for _ in 0..SAMPLES {
        let mut board = unseen.clone();
        let mut placed = Vec::new();
        while board.phase() == Phase::Setup && board.turn() == us {
            let Some(mv) = best_placement(&mut board, eval, rng) else {
                break;
            };
            board.make_move(mv);
            placed.push(mv);
        }
        let score = from_our_side(&board, eval, us);
        if best.as_ref().is_none_or(|(s, _)| score > *s) {
            best = Some((score, placed));
        }
    }
    best.map(|(_, moves)| moves).unwrap_or_default()
}

/// The position as the side to move sees it behind the screen: its own pieces and
/// hand, the other side's whole starting hand still unplaced.
fn own_half(pos: &Position) -> Option<Position> {
    let rules = pos.rules();
    let us = pos.turn();
    let them = !us;
    let board = placement_field(rules.board(), |c| {
        pos.piece_at(c)
            .filter(|p| p.side == us)
            .map(|p| rules.piece_letter(p))
    });
    let mut hand = String::new();
    for side in Side::BOTH {
        for k in rules.kinds() {
            let n = if side == them {
                rules.start_in_hand(them, k)
            } else {
                pos.in_hand(us, k)
            };
            let letter = rules.piece_letter(Piece::new(side, k));
            (0..n).for_each(|_| hand.push(letter));
        }
    }
    let fen = format!("{board}[{hand}] {} - 0 1", us.letter());
    Position::from_fen(Arc::clone(pos.rules_arc()), &fen).ok()
}

/// The placement the evaluation likes best here, with a little noise.
fn best_placement(pos: &mut Position, eval: &Evaluator, rng: &mut impl Rng) -> Option<Move> {
    let us = pos.turn();
    let mut best: Option<(i32, Move)> = None;
    for mv in pos.legal_moves() {
        pos.make_move(mv);
        let score = from_our_side(pos, eval, us) + rng.random_range(-NOISE..=NOISE);
        pos.unmake_move();
        if best.is_none_or(|(s, _)| score > s) {
            best = Some((score, mv));
        }
    }
    best.map(|(_, mv)| mv)
}

fn from_our_side(pos: &Position, eval: &Evaluator, us: Side) -> i32 {
    let score = eval.evaluate(pos, EvalMode::Terms(EvalTerms::ALL));
    if pos.turn() == us { score } else { -score }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hexchess_core::Catalog;
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    fn screen() -> Position {
        let catalog = Catalog::builtin();
        Position::start(
            catalog
                .get("screen-hexachess")
                .unwrap()
                .two_player_rules()
                .unwrap(),
        )
    }

    /// A deployment fills the hand on the side's own ranks, and Black's does not depend
    /// on where White's pieces stand (the same seed, two White deployments).
    #[test]
    fn deployments_fill_the_hand_unseen() {
        let mut pos = screen();
        let eval = Evaluator::new(pos.rules());
        let white = choose_deployment(&pos, &eval, &mut StdRng::seed_from_u64(1));
        assert_eq!(white.len(), 20);
        for mv in &white {
            assert!(pos.rules().setup_zone(Side::White).contains(mv.to()));
            pos.make_move(*mv);
        }
        assert_eq!(pos.turn(), Side::Black);
        let black = choose_deployment(&pos, &eval, &mut StdRng::seed_from_u64(2));
        let mut other = screen();
        for mv in choose_deployment(&other, &eval, &mut StdRng::seed_from_u64(3)) {
            other.make_move(mv);
        }
        assert_ne!(other.to_fen(), pos.to_fen());
        assert_eq!(
            choose_deployment(&other, &eval, &mut StdRng::seed_from_u64(2)),
            black
        );
        for mv in &black {
            pos.make_move(*mv);
        }
        assert_ne!(pos.phase(), Phase::Setup);
        // The king stays behind its pawns: on one of the side's three back ranks.
        let king = pos.royal_cell(Side::Black);
        assert!(pos.rules().board().rank(king) >= 11, "{}", pos.to_fen());
    }
}
