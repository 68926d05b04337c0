//! Random games in every variant: make/unmake and the incremental hash, FEN and SAN
//! round trips over every legal move of every position visited.

mod common;

use common::{check_move_sets, rules};
use hexchess_core::{Move, Position};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const VARIANTS: [&str; 4] = ["glinski", "mccooey", "grand", "standard"];

/// Plays `plies` random legal moves (or to the end of the game), calling `visit` on
/// every position reached before its move is chosen.
fn random_game(id: &str, seed: u64, plies: usize, mut visit: impl FnMut(&Position)) -> Position {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut p = Position::start(rules(id));
    for _ in 0..plies {
        visit(&p);
        let moves = p.legal_moves();
        if moves.is_empty() {
            break;
        }
        // Prefer captures and promotions now and then, so games reach the endgame.
        let special: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| p.is_capture(*m) || m.promotion().is_some())
            .collect();
        let mv = if !special.is_empty() && rng.random_bool(0.5) {
            special[rng.random_range(0..special.len())]
        } else {
            moves[rng.random_range(0..moves.len())]
        };
        p.make_move(mv);
    }
    p
}

#[test]
fn make_unmake_restores_position_and_hash() {
    for id in VARIANTS {
        for seed in 0..12 {
            let mut snapshots: Vec<(String, u64)> = Vec::new();
            let mut end = random_game(id, seed, 300, |p| {
                assert_eq!(
                    p.hash(),
                    p.compute_hash(),
                    "incremental hash drifted in {}",
                    p.to_fen()
                );
                snapshots.push((p.to_fen(), p.hash()));
            });
            assert_eq!(end.hash(), end.compute_hash());
            // Take everything back: each position must come back exactly.
            let played = end.ply_count();
            for (fen, hash) in snapshots.iter().rev().skip(snapshots.len() - played) {
                end.unmake_move().expect("a move to take back");
                assert_eq!(&end.to_fen(), fen);
                assert_eq!(end.hash(), *hash);
            }
            assert_eq!(end.unmake_move(), None);
            assert_eq!(end, Position::start(rules(id)));
        }
    }
}

#[test]
fn fen_round_trips_and_reproduces_moves_and_hash() {
    for id in VARIANTS {
        for seed in 100..110 {
            random_game(id, seed, 200, |p| {
                let fen = p.to_fen();
                let back = Position::from_fen(p.rules_arc().clone(), &fen)
                    .unwrap_or_else(|e| panic!("{fen}: {e}"));
                assert_eq!(back.to_fen(), fen);
                assert_eq!(back.hash(), p.hash(), "{fen}");
                assert_eq!(back.legal_moves(), p.legal_moves(), "{fen}");
            });
        }
    }
}

#[test]
fn san_and_long_algebraic_round_trip_over_every_legal_move() {
    let mut checked = 0;
    for id in VARIANTS {
        for seed in 200..206 {
            random_game(id, seed, 160, |p| {
                let legal = p.legal_moves();
                let mut seen = std::collections::HashSet::new();
                for mv in legal {
                    let san = p.move_to_san(mv);
                    assert!(
                        seen.insert(san.clone()),
                        "two moves print as {san} in {}",
                        p.to_fen()
                    );
                    assert_eq!(p.parse_move(&san), Ok(mv), "SAN {san} in {}", p.to_fen());
                    let lan = p.move_to_lan(mv);
                    assert_eq!(p.parse_move(&lan), Ok(mv), "LAN {lan} in {}", p.to_fen());
                    checked += 1;
                }
            });
        }
    }
    assert!(checked > 100_000, "only {checked} moves checked");
}

#[test]
fn random_games_never_leave_a_royal_piece_attacked() {
    for id in VARIANTS {
        for seed in 300..320 {
            random_game(id, seed, 250, |p| {
                for mv in p.legal_moves() {
                    let mut q = p.clone();
                    let mover = q.turn();
                    q.make_move(mv);
                    assert!(
                        !q.is_attacked(q.royal_cell(mover), q.turn()),
                        "{} leaves the king attacked in {}",
                        p.move_to_lan(mv),
                        p.to_fen()
                    );
                }
            });
        }
    }
}

#[test]
fn staged_generation_splits_the_legal_moves_and_tests_single_moves() {
    for id in VARIANTS {
        for seed in 200..206 {
            let mut previous: Vec<Move> = Vec::new();
            random_game(id, seed, 250, |p| {
                // The last position's moves are foreign here: many are illegal now.
                check_move_sets(p, &previous);
                previous = p.legal_moves();
            });
        }
    }
}
