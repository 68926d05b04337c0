//! Static exchange evaluation: what a capture wins once every piece that can recapture
//! on the target cell has done so, cheapest first. Used to order captures and to skip
//! losing ones in quiescence search.

use super::eval::Evaluator;
use hexchess_core::bitboard::Bitboard;
use hexchess_core::moves::Move;
use hexchess_core::piece::Kind;
use hexchess_core::position::Position;

/// Value of a royal piece in exchanges: capturing onto a defended cell with it loses.
const ROYAL: i32 = 50_000;

fn value(eval: &Evaluator, pos: &Position, k: Kind) -> i32 {
    if pos.rules().is_royal(k) {
        ROYAL
    } else {
        eval.value(k)
    }
}

/// The material the side to move gains by `mv` and the exchange it starts, in
/// centipawns (negative: the capture loses material).
pub fn see(pos: &Position, eval: &Evaluator, mv: Move) -> i32 {
    if mv.is_placement() {
        // Nothing is captured; placements give no check, and no exchange starts.
        return 0;
    }
    let target = mv.to();
    let mover = pos.piece_at(mv.from()).expect("a move starts on a piece");
    let mut occupied = pos.occupied() & !Bitboard::from_cell(mv.from());
    let captured = if mv.is_en_passant() {
        let e = pos.en_passant().expect("en passant has a right");
        occupied.remove(e.victim);
        pos.rules().pawn_kind().map_or(0, |k| eval.value(k))
    } else {
        pos.piece_at(target).map_or(0, |p| value(eval, pos, p.kind))
    };
    let mut gains = [0i32; 40];
    gains[0] = captured;
    let mut on_target = match mv.promotion() {
        Some(k) => {
            gains[0] += eval.value(k) - value(eval, pos, mover.kind);
            eval.value(k)
        }
        None => value(eval, pos, mover.kind),
    };
    let mut side = !mover.side;
    let mut depth = 0;
    loop {
        let attackers = pos.attackers_with(target, side, occupied);
        if attackers.is_empty() || depth + 1 >= gains.len() {
            break;
        }
        // The least valuable attacker recaptures.
        let (cell, v) = attackers
            .map(|c| (c, value(eval, pos, pos.piece_at(c).expect("attacker").kind)))
            .min_by_key(|x| x.1)
            .expect("not empty");
        depth += 1;
        gains[depth] = on_target - gains[depth - 1];
        // Neither side can gain by going on: stop early.
        if (-gains[depth - 1]).max(gains[depth]) < 0 {
            break;
        }
        on_target = v;
        occupied.remove(cell);
        side = !side;
    }
    while depth > 0 {
        gains[depth - 1] = -((-gains[depth - 1]).max(gains[depth]));
        depth -= 1;
    }
    gains[0]
}

#[cfg(test)]
mod tests {
    use super::*;
    use hexchess_core::variant::builtin;
    use hexchess_core::{Position, Rules};
    use std::sync::Arc;

    fn pos(fen: &str) -> Position {
        let rules = Arc::new(Rules::new(&builtin("glinski").unwrap().unwrap()).unwrap());
        Position::from_fen(rules, fen).unwrap()
    }

    #[test]
    fn exchanges_count_recaptures() {
        // White queen e4 may take a pawn on e7; Black's pawns on d7 and f7... here the
        // pawn on e7 is defended by the rook on e10: QxP loses the queen for a pawn.
        let p = pos("6/7/8/9/K2Q2p2r/11/10/9/8/7/5k w - 0 1");
        let e = Evaluator::new(p.rules());
        let mv = p.parse_move("e4e7").unwrap();
        assert!(see(&p, &e, mv) < -500, "{}", see(&p, &e, mv));
        // An undefended pawn is simply won.
        let p = pos("6/7/8/9/K2Q2p3/11/10/9/8/7/5k w - 0 1");
        let mv = p.parse_move("e4e7").unwrap();
        assert_eq!(see(&p, &e, mv), 100);
    }
}
