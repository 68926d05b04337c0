//! Properties that must hold in every shipped variant, over random legal games that
//! proptest draws (seeded, a few dozen cases each, so `cargo test` stays quick):
//!
//! - every move round-trips through SAN and long algebraic, every position through hex
//!   FEN, and every game through the text game record;
//! - make/unmake restores the position and its hash, and the incremental hash equals
//!   one computed from scratch;
//! - the early-exit test for a legal move agrees with the move list;
//! - perft is unchanged by swapping the colours and by reflecting the board left to
//!   right (in variants whose rules are symmetric so; not with castling).

mod common;

use std::sync::Arc;

use hexchess_core::catalog::Catalog;
use hexchess_core::fen::placement_field;
use hexchess_core::hex::{Hex, Layout};
use hexchess_core::pgn::{PgnGame, read_games};
use hexchess_core::{Cell, Move, Position, Rules};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Every variant that ships: the built-ins and the files in `variants/`.
fn catalog() -> Catalog {
    let catalog = common::shipped_catalog();
    assert!(catalog.errors().is_empty(), "{:?}", catalog.errors());
    catalog
}

/// The two-player variants in turn (the games of more sides have their own tests).
fn variant(index: usize) -> Arc<Rules> {
    let rules: Vec<Arc<Rules>> = catalog()
        .entries()
        .iter()
        .filter_map(|e| e.two_player_rules())
        .collect();
    Arc::clone(&rules[index % rules.len()])
}

const SHIPPED: usize = 10;

/// A random legal game of at most `plies` plies from the start, with captures and
/// promotions favoured so games reach the endgame; `visit` sees each position and the
/// move chosen there.
fn random_game(
    rules: Arc<Rules>,
    seed: u64,
    plies: usize,
    mut visit: impl FnMut(&mut Position, Move),
) -> Position {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut pos = Position::start(rules);
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() || pos.outcome().is_some() {
            break;
        }
        let special: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| pos.is_capture(*m) || m.promotion().is_some())
            .collect();
        let mv = if !special.is_empty() && rng.random_bool(0.5) {
            special[rng.random_range(0..special.len())]
        } else {
            moves[rng.random_range(0..moves.len())]
        };
        visit(&mut pos, mv);
        pos.make_move(mv);
    }
    pos
}

/// The cell a left-right mirror takes `h` to, on the layout's drawing.
fn reflect(layout: Layout, h: Hex) -> Hex {
    match layout {
        // x = 1.5 q and y = sqrt(3) (r + q/2): x -> -x keeps y when r' = r + q.
        Layout::FlatTop => Hex::new(-h.q(), h.r() + h.q()),
        // x = sqrt(3) (q + r/2) and y = 1.5 r: x -> -x keeps y when q' = -q - r.
        Layout::PointyTop => Hex::new(-h.q() - h.r(), h.r()),
    }
}

/// `pos` reflected left to right, or `None` when the board is not symmetric so or the
/// variant has castling (whose moves are not).
fn reflected(pos: &Position) -> Option<Position> {
    let rules = pos.rules();
    if rules.has_castling() {
        return None;
    }
    let board = rules.board();
    let mirror = |c: Cell| board.cell(reflect(rules.layout(), board.hex(c)));
    if board.cells().any(|c| mirror(c).is_none()) {
        return None;
    }
    let placement = placement_field(board, |c| {
        let from = mirror(c).expect("checked");
        pos.piece_at(from).map(|p| rules.piece_letter(p))
    });
    let fen = pos.to_fen();
    let fields: Vec<&str> = fen.split_whitespace().collect();
    // Fields after the placement: side, en-passant cells (comma-separated), clocks.
    let ep = match fields[2] {
        "-" => "-".to_string(),
        cells => cells
            .split(',')
            .map(|name| {
                let c = board.parse_cell(name).expect("a cell of the board");
                board.name(mirror(c).expect("checked")).to_string()
            })
            .collect::<Vec<_>>()
            .join(","),
    };
    // Pieces in hand (a setup phase) are not on the board: they stay as they are.
    let hand = fields[0].find('[').map_or("", |i| &fields[0][i..]);
    let text = format!(
        "{placement}{hand} {} {ep} {} {}",
        fields[1], fields[3], fields[4]
    );
    Some(
        Position::from_fen(Arc::clone(pos.rules_arc()), &text)
            .unwrap_or_else(|e| panic!("{text}: {e}")),
    )
}

proptest! {
    // Seeded, so every run of `cargo test` tries the same cases (a failure found once is
    // found again); `PROPTEST_CASES=2000 cargo test` searches further.
    #![proptest_config(ProptestConfig {
        cases: 28,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x6865_7863_6865_7373),
        ..ProptestConfig::default()
    })]

    #[test]
    fn moves_positions_and_games_round_trip_through_text(
        index in 0..SHIPPED,
        seed in any::<u64>(),
        plies in 1usize..120,
    ) {
        let rules = variant(index);
        let end = random_game(Arc::clone(&rules), seed, plies, |pos, mv| {
            let san = pos.move_to_san(mv);
            assert_eq!(pos.parse_move(&san), Ok(mv), "SAN {san} in {}", pos.to_fen());
            let lan = pos.move_to_lan(mv);
            assert_eq!(pos.parse_move(&lan), Ok(mv), "LAN {lan} in {}", pos.to_fen());
            let fen = pos.to_fen();
            let again = Position::from_fen(Arc::clone(pos.rules_arc()), &fen)
                .unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert_eq!(again.to_fen(), fen);
            assert_eq!(again.hash(), pos.hash(), "{fen}");
        });
        let record = PgnGame::from_position(&end, None, &[("Event", "property".into())]);
        let text = record.to_string();
        let read = read_games(&text).remove(0).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let replayed = read.replay_main_line(&catalog()).unwrap_or_else(|e| panic!("{e}\n{text}"));
        prop_assert_eq!(replayed.to_fen(), end.to_fen());
        prop_assert_eq!(replayed.moves().count(), end.ply_count());
    }

    #[test]
    fn make_unmake_restores_everything_and_the_hash_is_exact(
        index in 0..SHIPPED,
        seed in any::<u64>(),
        plies in 1usize..150,
    ) {
        let rules = variant(index);
        random_game(rules, seed, plies, |pos, mv| {
            assert_eq!(pos.hash(), pos.compute_hash(), "{}", pos.to_fen());
            let (fen, hash, count) = (pos.to_fen(), pos.hash(), pos.legal_moves().len());
            pos.make_move(mv);
            assert_eq!(pos.hash(), pos.compute_hash(), "after {mv:?} from {fen}");
            assert_eq!(pos.unmake_move(), Some(mv));
            assert_eq!(pos.to_fen(), fen);
            assert_eq!(pos.hash(), hash);
            assert_eq!(pos.legal_moves().len(), count);
        });
    }

    #[test]
    fn a_legal_move_is_found_exactly_when_the_move_list_has_one(
        index in 0..SHIPPED,
        seed in any::<u64>(),
        plies in 1usize..150,
    ) {
        let rules = variant(index);
        // Every position of the game and every one a move leads to from it: mates and
        // stalemates among them, where the early exit must say no.
        let end = random_game(rules, seed, plies, |pos, _| {
            for mv in pos.legal_moves() {
                pos.make_move(mv);
                assert_eq!(
                    pos.has_legal_move(),
                    !pos.legal_moves().is_empty(),
                    "{}",
                    pos.to_fen()
                );
                pos.unmake_move();
            }
        });
        prop_assert_eq!(end.has_legal_move(), !end.legal_moves().is_empty());
    }

    #[test]
    fn perft_is_the_same_with_colours_swapped_and_the_board_reflected(
        index in 0..SHIPPED,
        seed in any::<u64>(),
        plies in 0usize..40,
    ) {
        let rules = variant(index);
        let mut pos = random_game(Arc::clone(&rules), seed, plies, |_, _| {});
        let depth = if rules.board().len() > 100 { 2 } else { 3 };
        let expected = pos.perft(depth);
        if let Some(mut flipped) = pos.colour_flipped() {
            prop_assert_eq!(flipped.perft(depth), expected, "colours swapped: {}", pos.to_fen());
        }
        if let Some(mut mirror) = reflected(&pos) {
            prop_assert_eq!(mirror.perft(depth), expected, "reflected: {}", pos.to_fen());
        }
    }
}

#[test]
fn reflection_is_its_own_inverse_and_keeps_the_start_count() {
    let catalog = catalog();
    let mut reflected_some = 0;
    for entry in catalog.entries() {
        let Some(rules) = entry.two_player_rules() else {
            continue;
        };
        let mut start = Position::start(Arc::clone(&rules));
        let Some(mut mirror) = reflected(&start) else {
            continue;
        };
        reflected_some += 1;
        let back = reflected(&mirror).expect("the mirror of a mirror");
        assert_eq!(back.to_fen(), start.to_fen(), "{}", entry.id());
        assert_eq!(mirror.perft(2), start.perft(2), "{}", entry.id());
    }
    assert!(reflected_some >= 4, "the built-in boards are symmetric");
}
