//! Perft against ../shared/reference/perft.md: every number listed there.

mod common;

use common::{after, fen, rules};
use hexchess_core::Position;

fn check(mut pos: Position, expected: &[u64]) {
    for (i, &n) in expected.iter().enumerate() {
        let depth = i as u32 + 1;
        assert_eq!(
            pos.perft(depth),
            n,
            "{} depth {depth} from {}",
            pos.rules().id(),
            pos.to_fen()
        );
    }
}

#[test]
fn glinski_start() {
    let pos = Position::start(rules("glinski"));
    assert_eq!(
        pos.to_fen(),
        "6/P5p/RP4pr/N1P3p1n/Q2P2p2q/BBB1P1p1bbb/K2P2p2k/N1P3p1n/RP4pr/P5p/6 w - 0 1"
    );
    check(pos, &[51, 2_586, 137_858, 7_282_418, 401_622_759]);
}

#[test]
fn mccooey_start() {
    let pos = Position::start(rules("mccooey"));
    assert_eq!(
        pos.to_fen(),
        "6/7/P6p/RP5pr/QNP4pnq/BBBP3pbbb/KNP4pnk/RP5pr/P6p/7/6 w - 0 1"
    );
    check(pos, &[31, 947, 33_307, 1_157_852]);
}

#[test]
fn grand_start() {
    let pos = Position::start(rules("grand"));
    assert_eq!(
        pos.to_fen(),
        "2DKV2/8/BNRQBWRNB/10/PPPPPPPPPPP/12/13/12/ppppppppppp/10/bnrqbwrnb/8/2dkv2 w - 0 1"
    );
    check(pos, &[91, 8_267, 774_649, 72_385_557]);
}

#[test]
fn standard_start() {
    let pos = Position::start(rules("standard"));
    assert_eq!(
        pos.to_fen(),
        "7/8/BNRQBKRNB/10/PPPPPPPPPPP/12/13/12/ppppppppppp/10/bnrqbkrnb/8/7 w - 0 1"
    );
    check(pos, &[78, 6_068, 480_151, 37_821_985]);
}

/// Each special position is checked twice: from its FEN and reached by its moves.
fn special(id: &str, fen_text: &str, moves: &str, expected: &[u64]) {
    let from_fen = fen(id, fen_text);
    let moves: Vec<&str> = moves.split_whitespace().collect();
    let played = after(id, &moves);
    assert_eq!(played.to_fen(), fen_text, "the moves reach the FEN");
    assert_eq!(
        played.hash(),
        from_fen.hash(),
        "the same position hashes the same"
    );
    check(from_fen, expected);
}

#[test]
fn glinski_en_passant_available() {
    special(
        "glinski",
        "6/P5p/RP4pr/N1P3p2/Q2P2p2q/BBB1P1p1bbb/K2P2p1nk/N1P1p3n/R3P1pr/P5p/6 w h6 0 3",
        "i2i4 d9g9 i4i5 h7h5",
        &[51, 2_538, 134_580, 6_864_119],
    );
}

#[test]
fn mccooey_promotion_available() {
    special(
        "mccooey",
        "6/7/P6p/RP5pr/QNP2p2nq/BBBP2p1bbb/KNP5nk/R5P1r/1P5p/7/6 w - 0 5",
        "i1i2 h8h7 h2h4 g8g6 h4g6 e8e6 g6h7 f8f7",
        &[46, 1_708, 81_531, 3_324_814],
    );
}

#[test]
fn grand_promotion_only_to_lost_piece() {
    special(
        "grand",
        "2D1V2/2K5/1N4RN1/10/PB1P2w2r1/5P6/4P8/1p6p3/p2p4p1n/4P5/1nrqb4/8/2dkv2 w - 0 18",
        "i5k6 h9i8 l5m6 k9k8 m6m7 b9b8 m7k8 a11b5 a3b5 g9h8 c5d6 h8i7 k8l9 i11k5 c3b8 c9b8 d6e7 h11l9 i3k5 g11e5 k6i7 e5e3 f5f6 f9g8 i7g8 e3f3 d1c2 f3h5 g8f9 h5k5 d3e9 f11e9 f9e10 e9g5",
        &[79, 10_029, 703_459],
    );
}

#[test]
fn standard_rank_12_pawn_blocked() {
    special(
        "standard",
        "7/8/BNRQBKRNB/10/PP1PPPPPPPP/12/13/1p5pp1p1/nppp1p2pp1/10/b2qb2nb/2P2rk1/7 w - 0 8",
        "c5c6 a9b8 c6d7 l9l8 d7d8 g11f12 d8e9 b11a9 e9e10 f11g12 e10c11 h9i8 c11c12 g9h8",
        &[83, 6_726, 561_772],
    );
}

/// A count that can be stopped counts the same as the plain one, and once stopped gives
/// no number at all (a partial total is not a perft count).
#[test]
fn a_stoppable_count_agrees_and_a_stopped_one_gives_nothing() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let mut pos = Position::start(rules("glinski"));
    let go_on = AtomicBool::new(false);
    assert_eq!(pos.perft_until(3, &go_on), Some(137_858));
    let stopped = AtomicBool::new(true);
    assert_eq!(pos.perft_until(3, &stopped), None);
    // Whatever was counted before the stop, a stopped count gives no number.
    assert_eq!(pos.perft_until(1, &stopped), None);
    assert_eq!(pos.perft_until(1, &go_on), Some(51));
    // Stopped from another thread in the middle of a count of hours.
    let flag = AtomicBool::new(false);
    std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(std::time::Duration::from_millis(50));
            flag.store(true, Ordering::Relaxed);
        });
        let started = std::time::Instant::now();
        assert_eq!(pos.perft_until(9, &flag), None);
        assert!(started.elapsed().as_secs() < 5, "{:?}", started.elapsed());
    });
    assert_eq!(pos.to_fen(), Position::start(rules("glinski")).to_fen());

    let three = hexchess_core::Catalog::builtin();
    let entry = three.get("hexachess-3").expect("built in");
    let game = hexchess_core::game::Game::new(std::sync::Arc::clone(entry.rules()));
    assert_eq!(game.perft_until(2, &go_on), Some(game.perft(2)));
    assert_eq!(game.perft_until(2, &stopped), None);
}
