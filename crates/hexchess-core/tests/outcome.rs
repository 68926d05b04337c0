//! End of game: checkmate, stalemate scored by the variant, repetition, the 50-move rule
//! and bare kings.

mod common;

use common::{place, place_with, rules};
use hexchess_core::{Points, Position, Side, Termination};

#[test]
fn glinski_stalemate_scores_three_quarters_to_the_stalemating_side() {
    let p = place("glinski", 'b', &[('k', "f11"), ('K', "d8"), ('Q', "h8")]);
    assert!(p.legal_moves().is_empty());
    assert!(!p.in_check());
    let o = p.outcome().expect("stalemate");
    assert_eq!(o.termination, Termination::Stalemate);
    assert_eq!(o.points(Side::White), Points::from_millis(750).unwrap());
    assert_eq!(o.points(Side::Black), Points::from_millis(250).unwrap());
    assert_eq!(o.result_text(), "3/4-1/4");
    assert_eq!(o.winner(), Some(Side::White));
    assert_eq!(o.description(), "White stalemated Black: 3/4-1/4");
}

#[test]
fn the_same_stalemate_is_a_draw_in_mccooey() {
    let p = place("mccooey", 'b', &[('k', "f11"), ('K', "d8"), ('Q', "h8")]);
    let o = p.outcome().expect("stalemate");
    assert_eq!(o.termination, Termination::Stalemate);
    assert_eq!(o.result_text(), "1/2-1/2");
    assert_eq!(o.winner(), None);
}

#[test]
fn checkmate_wins() {
    // Queen h8 to f9 supported by the king: the f11 king has no escape.
    let mut p = place("glinski", 'w', &[('k', "f11"), ('K', "d8"), ('Q', "h8")]);
    let mate = p
        .legal_moves()
        .into_iter()
        .find(|m| {
            let mut q = p.clone();
            q.make_move(*m);
            q.outcome()
                .is_some_and(|o| o.termination == Termination::Checkmate)
        })
        .expect("a mate in one exists");
    assert!(p.move_to_san(mate).ends_with('#'));
    p.make_move(mate);
    let o = p.outcome().unwrap();
    assert_eq!(o.result_text(), "1-0");
    assert_eq!(o.description(), "White wins by checkmate");
}

#[test]
fn threefold_repetition_draws() {
    let mut p = Position::start(rules("glinski"));
    let shuffle = ["Ni3", "Nc6", "Nh1", "Nd9"];
    for round in 0..2 {
        for (i, m) in shuffle.iter().enumerate() {
            assert!(p.outcome().is_none(), "round {round} move {i}");
            let mv = p.parse_move(m).unwrap();
            p.make_move(mv);
        }
    }
    assert_eq!(p.repetitions(), 3);
    let o = p.outcome().expect("third occurrence");
    assert_eq!(o.termination, Termination::Repetition);
    assert_eq!(o.result_text(), "1/2-1/2");
}

#[test]
fn fifty_move_rule_draws_after_a_hundred_quiet_plies() {
    let mut p = place_with(
        "glinski",
        'w',
        "-",
        99,
        &[('K', "a1"), ('R', "c1"), ('k', "l6"), ('r', "k1")],
    );
    assert!(p.outcome().is_none());
    p.make_move(p.parse_move("Rc2").unwrap());
    assert_eq!(p.outcome().unwrap().termination, Termination::MoveRule);
    // A capture resets the count.
    let mut p = place_with(
        "glinski",
        'w',
        "-",
        99,
        &[('K', "a1"), ('R', "c1"), ('k', "l6"), ('r', "c5")],
    );
    p.make_move(p.parse_move("Rxc5").unwrap());
    assert_eq!(p.halfmove_clock(), 0);
    assert!(p.outcome().is_none());
}

#[test]
fn mate_on_the_hundredth_ply_is_still_mate() {
    let p = place_with(
        "glinski",
        'w',
        "-",
        99,
        &[('k', "f11"), ('K', "d8"), ('Q', "h8")],
    );
    let mate = p
        .legal_moves()
        .into_iter()
        .find(|m| {
            let mut q = p.clone();
            q.make_move(*m);
            q.legal_moves().is_empty() && q.in_check()
        })
        .expect("mate in one");
    let mut q = p.clone();
    q.make_move(mate);
    assert_eq!(q.halfmove_clock(), 100);
    assert_eq!(q.outcome().unwrap().termination, Termination::Checkmate);
}

#[test]
fn bare_kings_draw() {
    let mut p = place("grand", 'w', &[('K', "d1"), ('k', "d12"), ('n', "d2")]);
    assert!(p.outcome().is_none());
    p.make_move(p.parse_move("Kxd2").unwrap());
    let o = p.outcome().unwrap();
    assert_eq!(o.termination, Termination::InsufficientMaterial);
    assert_eq!(o.description(), "Draw by insufficient material");
}
