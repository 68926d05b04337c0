//! One game for every variant: a two-player game played through [`Game`] is the game its
//! position plays (the same moves, the same end, the same record), the checked `play`
//! refuses what the rules refuse and reports what each step did, and a game set up from
//! a start and moves is the one played to it.

mod common;

use std::sync::Arc;

use hexchess_core::bitboard::WideBitboard;
use hexchess_core::{
    Catalog, Draws, Game, Move, PlayError, Position, Rules, Standing, StartError, Step, StepReport,
    Termination, TurnError,
};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// The built-ins and the project's own mods (Shafran castles on both flanks).
fn catalog() -> Catalog {
    common::shipped_catalog()
}

/// Each two-player variant's rules on both cell sets.
fn two_player(catalog: &Catalog) -> Vec<(String, Arc<Rules<WideBitboard>>, Arc<Rules>)> {
    catalog
        .entries()
        .iter()
        .filter_map(|e| {
            let narrow = e.two_player_rules()?;
            Some((e.id().to_string(), Arc::clone(e.rules()), narrow))
        })
        .collect()
}

fn sorted(mut moves: Vec<Move>) -> Vec<u32> {
    let mut bits: Vec<u32> = moves.drain(..).map(Move::to_bits).collect();
    bits.sort();
    bits
}

#[test]
fn a_two_player_game_is_the_game_its_position_plays() {
    let catalog = catalog();
    let mut rng = StdRng::seed_from_u64(39);
    let mut ends = 0;
    for (id, wide, narrow) in two_player(&catalog) {
        for round in 0..6 {
            let mut game = Game::new(Arc::clone(&wide));
            let mut pos = Position::start(Arc::clone(&narrow));
            for _ in 0..400 {
                assert_eq!(game.end().copied(), pos.outcome(), "{id} {}", pos.to_fen());
                let steps = game.steps();
                if game.end().is_some() {
                    assert!(steps.is_empty());
                    ends += 1;
                    break;
                }
                let moves: Vec<Move> = steps
                    .iter()
                    .map(|s| match s {
                        Step::Play(mv) => *mv,
                        Step::Stop => panic!("{id}: a two-player turn has no stop"),
                    })
                    .collect();
                assert_eq!(sorted(moves.clone()), sorted(pos.legal_moves()), "{id}");
                let mv = moves[rng.random_range(0..moves.len())];
                let report = game.play(Step::Play(mv)).expect("a legal step");
                assert!(report.turn_ended, "{id}: one move is a whole turn");
                pos.make_move(mv);
                assert_eq!(game.position().to_fen(), pos.to_fen(), "{id}");
                assert_eq!(report.checks.is_empty(), !pos.in_check(), "{id}");
            }
            // The record is the two-player record: SAN with its check and mate marks.
            let record = hexchess_core::pgn::PgnGame::from_position(&pos, None, &[]);
            assert_eq!(
                game.turn_texts(),
                record.main_line_turns(),
                "{id} round {round}"
            );
            // And the engine's narrow position is the same game, history and all.
            let again = game.position_on(Arc::clone(&narrow));
            assert_eq!(again.to_fen(), pos.to_fen());
            assert_eq!(
                again.hash(),
                pos.hash(),
                "keys are per cell set: narrow to narrow"
            );
            assert_eq!(again.ply_count(), pos.ply_count());
            assert_eq!(again.outcome(), pos.outcome());
        }
    }
    assert!(ends > 0, "some random games ended by a rule");
}

#[test]
fn perft_through_the_game_agrees_with_the_position() {
    let catalog = catalog();
    for (id, wide, narrow) in two_player(&catalog) {
        let depth = if id == "glinski" { 3 } else { 2 };
        let game = Game::new(Arc::clone(&wide));
        let mut pos = Position::start(narrow);
        assert_eq!(game.perft(depth), pos.perft(depth), "{id}");
    }
    // Gliński's published counts (docs/rules.md).
    let glinski = Arc::clone(catalog.get("glinski").unwrap().rules());
    assert_eq!(Game::new(glinski).perft(3), 137_858);
}

/// Random games of `id` until a move `wanted` appears; the game just before it, and it.
fn find(
    id: &str,
    seed: u64,
    wanted: impl Fn(&Position<WideBitboard>, Move) -> bool,
) -> (Game, Move) {
    let catalog = catalog();
    let rules = Arc::clone(catalog.get(id).unwrap().rules());
    let mut rng = StdRng::seed_from_u64(seed);
    for _ in 0..2_000 {
        let mut game = Game::new(Arc::clone(&rules));
        for _ in 0..200 {
            let steps = game.steps();
            if steps.is_empty() {
                break;
            }
            let hit = steps.iter().find_map(|s| match s {
                Step::Play(mv) if wanted(game.position(), *mv) => Some(*mv),
                _ => None,
            });
            if let Some(mv) = hit {
                return (game, mv);
            }
            game.play_unchecked(steps[rng.random_range(0..steps.len())]);
        }
    }
    panic!("{id}: no such move in 2,000 random games");
}

#[test]
fn a_step_report_says_what_was_taken_where_which_rook_castled_and_what_was_promoted() {
    // En passant: the pawn taken stands beside the target, not on it.
    let (mut game, mv) = find("glinski", 1, |_, m| m.is_en_passant());
    let victim = game.position().en_passant().unwrap().victim;
    let pawn = game.position().piece_at(victim).unwrap();
    let report = game.play(Step::Play(mv)).unwrap();
    assert_eq!(report.capture, Some((pawn, victim)));
    assert_ne!(victim, mv.to());
    assert_eq!(game.position().piece_at(victim), None);

    // Castling: the king's move, and the rook's from and to.
    let (mut game, mv) = find("shafran", 2, |_, m| m.castling().is_some());
    let king = game.position().piece_at(mv.from()).unwrap();
    let report = game.play(Step::Play(mv)).unwrap();
    let (rook_from, rook_to) = report.rook.expect("a rook moved");
    assert_eq!(report.piece, Some(king));
    assert_eq!(report.capture, None);
    assert_eq!(game.position().piece_at(rook_from), None);
    assert!(game.position().piece_at(rook_to).is_some());

    // A promotion: the pawn that moved, and what it became.
    let (mut game, mv) = find("mccooey", 3, |_, m| m.promotion().is_some());
    let before = game.position().piece_at(mv.from()).unwrap();
    let report = game.play(Step::Play(mv)).unwrap();
    assert_eq!(report.piece, Some(before));
    let kind = report.promotion.unwrap();
    assert_eq!(game.position().piece_at(mv.to()).unwrap().kind, kind);

    // A plain capture: the piece on the target.
    let (mut game, mv) = find("grand", 4, |p, m| p.is_capture(m) && !m.is_en_passant());
    let taken = game.position().piece_at(mv.to()).unwrap();
    let report: StepReport = game.play(Step::Play(mv)).unwrap();
    assert_eq!(report.capture, Some((taken, mv.to())));
}

#[test]
fn the_checked_play_refuses_what_the_rules_refuse_and_changes_nothing() {
    let catalog = catalog();
    let rules = Arc::clone(catalog.get("glinski").unwrap().rules());
    let mut game = Game::new(rules);
    let before = game.to_fen();
    let board = game.position().rules().board();
    let nonsense = Move::new(
        board.parse_cell("a1").unwrap(),
        board.parse_cell("l1").unwrap(),
    );
    assert_eq!(
        game.play(Step::Play(nonsense)),
        Err(PlayError::NotAllowed(Step::Play(nonsense)))
    );
    assert_eq!(
        game.play(Step::Stop),
        Err(PlayError::NotAllowed(Step::Stop))
    );
    assert_eq!(game.to_fen(), before);
    assert!(game.turns().is_empty());
    // Once a game has ended every step is refused as game over, the last move too.
    let mut rng = StdRng::seed_from_u64(7);
    let over = loop {
        let mut g = Game::new(Arc::clone(catalog.get("mini").unwrap().rules()));
        while g.end().is_none() && g.turns().len() < 600 {
            let steps = g.steps();
            g.play_unchecked(steps[rng.random_range(0..steps.len())]);
        }
        if g.end().is_some() {
            break g;
        }
    };
    let last = over.turns().last().unwrap().1[0];
    let mut after = over.clone();
    assert_eq!(after.play(last), Err(PlayError::GameOver));
    assert_eq!(after.to_fen(), over.to_fen());
}

#[test]
fn a_game_set_up_from_moves_is_the_game_played_to_them_and_a_bad_move_is_named() {
    let catalog = catalog();
    let rules = Arc::clone(catalog.get("glinski").unwrap().rules());
    let played = {
        let mut g = Game::new(Arc::clone(&rules));
        for t in ["f5f6", "c7c5", "Ni3"] {
            g.play_turn(t).unwrap();
        }
        g
    };
    let set = Game::from_moves(Arc::clone(&rules), None, &["f5f6", "c7c5", "Ni3"]).unwrap();
    assert_eq!(set.to_fen(), played.to_fen());
    assert_eq!(set.turn_texts(), ["f6", "c5", "Ni3"]);
    let bad = Game::from_moves(Arc::clone(&rules), None, &["f5f6", "zz9", "Ni3"]).unwrap_err();
    assert!(
        matches!(&bad, StartError::Turn { number: 2, text, .. } if text == "zz9"),
        "{bad:?}"
    );
    assert!(bad.to_string().starts_with("move 2 'zz9': "), "{bad}");
    let fen = Game::from_moves(rules, Some("not a fen"), &[] as &[&str]).unwrap_err();
    assert!(matches!(fen, StartError::Fen(_)), "{fen:?}");
    // A game of more sides the same way: whole turns.
    let three = Arc::clone(catalog.get("hexachess-3").unwrap().rules());
    let g = Game::from_moves(three, None, &["e3e4", "c13d13", "l13l12"]).unwrap();
    assert_eq!(g.turns().len(), 3);
}

#[test]
fn a_game_set_up_from_its_start_fen_and_turn_texts_is_the_same_game_history_and_all() {
    let catalog = catalog();
    let rules = Arc::clone(catalog.get("glinski").unwrap().rules());
    // From a FEN that is not the start, with knights going back and forth: the game
    // set up again must see the repetition coming.
    let start = Game::from_moves(Arc::clone(&rules), None, &["f5f6", "c7c5"]).unwrap();
    let mut played = Game::from_fen(Arc::clone(&rules), &start.to_fen()).unwrap();
    for t in ["Ni3", "Nk6", "Nh1", "Nh9", "Ni3", "Nk6", "Nh1"] {
        played.play_turn(t).unwrap();
    }
    assert_eq!(played.start_fen(), start.to_fen());
    let again = Game::from_moves(
        Arc::clone(&rules),
        Some(&played.start_fen()),
        &played.turn_texts(),
    )
    .unwrap();
    assert_eq!(again.to_fen(), played.to_fen());
    assert!(again.end().is_none());
    let mut a = again.clone();
    let mut p = played.clone();
    a.play_turn("Nh9").unwrap();
    p.play_turn("Nh9").unwrap();
    assert!(p.end().is_some(), "the third time ends the game played");
    assert_eq!(a.end(), p.end(), "and the game set up again");
    // A game of more sides: whole turns.
    let three = Arc::clone(catalog.get("hexachess-3").unwrap().rules());
    let mut g = Game::new(three);
    for t in ["e3e4", "c13d13", "l13l12"] {
        g.play_turn(t).unwrap();
    }
    let steps = g.turn_steps("e4e5").unwrap();
    let mut played = g.clone();
    played.play_turn("e4e5").unwrap();
    let mut stepped = g.clone();
    for s in &steps {
        stepped.play_unchecked(*s);
    }
    assert_eq!(stepped.to_fen(), played.to_fen());
    assert_eq!(g.turns().len(), 3, "nothing played");
    assert!(g.turn_steps("zz").is_err());
    let again = Game::from_moves(
        Arc::clone(g.position().rules_arc()),
        Some(&g.start_fen()),
        &g.turn_texts(),
    )
    .unwrap();
    assert_eq!(again.to_fen(), g.to_fen());
}

#[test]
fn a_king_taken_is_reported_with_the_standing_it_changed() {
    // The position of docs/rules.md §13.7's example: Black takes White's king.
    let catalog = catalog();
    let rules = Arc::clone(catalog.get("hexachess-3").unwrap().rules());
    let mut game = Game::from_fen(
        rules,
        "5wK3/10/11/5wP6/13/14/9wR5/16/17/3bP8cR3/4bB10/bK10cB2/6cN6/12/8wQ2/10/3bR4cK b - 0 1",
    )
    .unwrap();
    let step = game.parse_step("d17i17").unwrap();
    let report = game.play(step).unwrap();
    assert!(report.capture.is_some(), "{report:?}");
    assert!(report.turn_ended);
    let out: Vec<_> = report
        .standings
        .iter()
        .filter(|(_, s)| *s == Standing::Out)
        .collect();
    assert_eq!(out.len(), 1, "{report:?}");
}

#[test]
fn a_game_rewound_is_the_game_as_it_stood_after_so_many_turns() {
    let catalog = catalog();
    let mut rng = StdRng::seed_from_u64(39);
    for id in ["glinski", "hexachess-3", "hexachess-4"] {
        let rules = Arc::clone(catalog.get(id).unwrap().rules());
        let mut game = Game::new(Arc::clone(&rules));
        // Snapshots taken as the game is played: what each rewind must give back.
        let mut seen = vec![game.clone()];
        while game.turns().len() < 40 && game.end().is_none() {
            let steps = game.steps();
            let step = steps[rng.random_range(0..steps.len())];
            let before = game.turns().len();
            game.play(step).unwrap();
            if game.turns().len() > before {
                seen.push(game.clone());
            }
        }
        assert!(seen.len() > 20, "{id}: {} turns", seen.len());
        for (k, then) in seen.iter().enumerate() {
            let back = game.rewound(k);
            assert_eq!(back.to_fen(), then.to_fen(), "{id} after {k} turns");
            assert_eq!(back.turns().len(), k);
            assert_eq!(
                sorted_steps(back.steps()),
                sorted_steps(then.steps()),
                "{id} {k}"
            );
            for side in back.sides() {
                assert_eq!(back.standing(side), then.standing(side), "{id} {k}");
            }
            assert_eq!(back.end(), then.end(), "{id} {k}");
        }
        // A turn in progress is dropped: the game after the turns played.
        let mut half = game.rewound(seen.len() - 1);
        if let Some(&step) = half.steps().first() {
            half.play(step).unwrap();
        }
        assert_eq!(half.rewound(half.turns().len()).current_steps(), &[]);
    }
}

fn sorted_steps(steps: Vec<Step>) -> Vec<String> {
    let mut out: Vec<String> = steps.iter().map(|s| format!("{s:?}")).collect();
    out.sort();
    out
}

/// A FEN with its move rule's count and move number replaced.
fn with_clock(fen: &str, halfmove: u32) -> String {
    let mut fields: Vec<&str> = fen.split_whitespace().collect();
    let n = fields.len();
    let clock = halfmove.to_string();
    fields[n - 2] = &clock;
    fields.join(" ")
}

#[test]
fn a_game_whose_draws_are_called_by_its_driver_plays_on_past_them() {
    let catalog = catalog();
    let rules = Arc::clone(catalog.get("glinski").unwrap().rules());
    // Knights out and back three times: the start comes a third time.
    let shuffle = ["d1c3", "d9f8", "c3d1", "f8d9"];
    let mut moves: Vec<&str> = shuffle.iter().cycle().take(8).copied().collect();
    moves.push("e4e5");
    let by_rule = Game::from_moves(Arc::clone(&rules), None, &moves).unwrap_err();
    assert!(
        matches!(
            &by_rule,
            StartError::Turn {
                number: 9,
                error: TurnError::GameOver,
                ..
            }
        ),
        "{by_rule:?}"
    );
    let called = Game::from_moves_with(Arc::clone(&rules), None, &moves, Draws::Called).unwrap();
    assert_eq!(called.end(), None);
    assert_eq!(called.draws(), Draws::Called);
    assert_eq!(called.turns().len(), 9);
    // Rewound, it is still the driver's to call.
    let back = called.rewound(9);
    assert_eq!((back.draws(), back.end()), (Draws::Called, None));
    // Handed back to the rules, the repetitions before count: the position after e4e5
    // comes a third time two shuffles on.
    let mut judged = called.clone();
    judged.set_draws(Draws::ByRule);
    let black_first = ["d9f8", "d1c3", "f8d9", "c3d1"];
    for t in black_first.iter().cycle().take(8) {
        assert_eq!(judged.end(), None);
        judged.play_turn(t).unwrap();
    }
    assert_eq!(
        judged.end().map(|e| e.termination),
        Some(Termination::Repetition)
    );

    // Past the move rule from the FEN on: over at once by rule, playable when called.
    let fen = with_clock(&Game::new(Arc::clone(&rules)).to_fen(), 120);
    let over = Game::from_moves(Arc::clone(&rules), Some(&fen), &[] as &[&str]).unwrap();
    assert_eq!(
        over.end().map(|e| e.termination),
        Some(Termination::MoveRule)
    );
    let on = Game::from_moves_with(Arc::clone(&rules), Some(&fen), &["d1c3"], Draws::Called);
    assert_eq!(on.unwrap().end(), None);

    // A game of three sides the same way.
    let three = Arc::clone(catalog.get("hexachess-3").unwrap().rules());
    let fen = with_clock(&Game::new(Arc::clone(&three)).to_fen(), 160);
    let over = Game::from_moves(Arc::clone(&three), Some(&fen), &[] as &[&str]).unwrap();
    assert_eq!(
        over.end().map(|e| e.termination),
        Some(Termination::MoveRule)
    );
    let mut on = Game::from_moves_with(
        Arc::clone(&three),
        Some(&fen),
        &[] as &[&str],
        Draws::Called,
    )
    .unwrap();
    assert_eq!(on.end(), None);
    // A quiet turn by a piece (a pawn's would reset the count) under the rule again.
    on.set_draws(Draws::ByRule);
    let pos = on.position();
    let quiet = on
        .steps()
        .into_iter()
        .find(|s| match s {
            Step::Play(mv) => pos.piece_at(mv.from()).is_some_and(|p| {
                pos.rules().kind_info(p.kind).letter != 'P' && pos.piece_at(mv.to()).is_none()
            }),
            Step::Stop => false,
        })
        .expect("a piece that can move");
    on.play_unchecked(quiet);
    assert_eq!(on.end().map(|e| e.termination), Some(Termination::MoveRule));
}

#[test]
fn a_game_whose_draws_are_called_still_ends_at_a_checkmate() {
    let catalog = catalog();
    let rules = Arc::clone(catalog.get("glinski").unwrap().rules());
    // White mates in two (the engine's tests prove it): find a line that mates.
    let fen = "6/7/4Q3/9/10/11/4R5/9/1K4k1/7/6 w - 0 1";
    let start = Game::from_moves_with(Arc::clone(&rules), Some(fen), &[] as &[&str], Draws::Called)
        .unwrap();
    let mated = start
        .steps()
        .into_iter()
        .flat_map(|a| {
            let mut g = start.clone();
            g.play_unchecked(a);
            g.steps().into_iter().map(move |b| {
                let mut g = g.clone();
                g.play_unchecked(b);
                g
            })
        })
        .flat_map(|g| {
            g.steps().into_iter().map(move |c| {
                let mut g = g.clone();
                g.play_unchecked(c);
                g
            })
        })
        .find(|g| {
            g.end()
                .is_some_and(|e| e.termination == Termination::Checkmate)
        })
        .expect("a mate in two");
    assert_eq!(mated.draws(), Draws::Called);
    assert_eq!(
        mated.end().unwrap().winners(),
        vec![hexchess_core::Side::White]
    );
    assert!(mated.steps().is_empty());
}

#[test]
fn a_two_player_fen_owes_nothing() {
    let catalog = catalog();
    let rules = Arc::clone(catalog.get("glinski").unwrap().rules());
    let fen = format!("{} owe:w3", Game::new(Arc::clone(&rules)).to_fen());
    assert!(Game::from_fen(rules, &fen).is_err(), "{fen}");
    let three = Arc::clone(catalog.get("hexachess-3").unwrap().rules());
    let fen = format!("{} owe:c3", Game::new(Arc::clone(&three)).to_fen());
    assert_eq!(Game::from_fen(three, &fen).unwrap().to_fen(), fen);
}

/// Every step of random games of more sides, the end of a turn (`--`) included, is
/// written in long algebraic and read back as itself: the protocol's text for it.
#[test]
fn every_step_reads_back_from_its_long_algebraic_the_end_of_a_turn_too() {
    let catalog = Catalog::builtin();
    let mut stops = 0;
    for id in ["hexachess-3", "hexachess-4"] {
        let rules = Arc::clone(catalog.get(id).unwrap().rules());
        for seed in 0..2u64 {
            let mut g = Game::new(Arc::clone(&rules));
            let mut pick = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            for _ in 0..120 {
                let steps = g.steps();
                if steps.is_empty() || g.end().is_some() {
                    break;
                }
                pick = pick.wrapping_mul(6364136223846793005).wrapping_add(1);
                let step = steps[(pick >> 33) as usize % steps.len()];
                for s in &steps {
                    let text = g.step_lan(*s);
                    assert_eq!(g.parse_step(&text), Ok(*s), "{id}: '{text}'");
                    stops += usize::from(*s == Step::Stop);
                }
                g.play(step).unwrap();
            }
        }
    }
    assert!(stops > 0, "some turn could end after its first move");
}
