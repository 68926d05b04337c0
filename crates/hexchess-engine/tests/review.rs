//! Game review: a blunder planted in an engine game is found, and only it; the review
//! goes into a PGN game that reads back; a stopped review keeps what it did.

#[path = "../../hexchess-core/tests/common/mod.rs"]
mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use common::{fen, rules};
use hexchess_core::pgn::{PgnGame, ReplayError, read_games};
use hexchess_core::{Catalog, GameOutcome, Move, Position, Side, Termination};
use hexchess_engine::review::{
    AnnotateError, Evaluation, GameError, GameReview, Judgement, ReviewError, Searched, annotate,
    main_line, review_game, review_searched,
};
use hexchess_engine::{Score, SearchLimits, SearchOptions, Searcher};

/// The budget of every search here, the engine's moves and the review alike: a
/// fraction of a second per game in a test build.
fn budget() -> SearchLimits {
    SearchLimits {
        nodes: Some(20_000),
        ..SearchLimits::default()
    }
}

fn searcher() -> Searcher {
    Searcher::new(SearchOptions {
        hash_mb: 8,
        ..SearchOptions::default()
    })
}

fn no_stop() -> Arc<AtomicBool> {
    Arc::new(AtomicBool::new(false))
}

/// The engine's move and its score for the side to move.
fn engine(s: &mut Searcher, pos: &Position) -> (Move, Score) {
    let r = s.search(&mut pos.clone(), &budget(), &no_stop(), &mut |_| {});
    (r.best.expect("a legal move"), r.score)
}

/// Centipawns for the side to move (a mate as 100 pawns).
fn cp(score: Score) -> i32 {
    match score {
        Score::Cp(c) => c,
        Score::Mate(m) if m > 0 => 10_000,
        Score::Mate(_) => -10_000,
    }
}

/// A Gliński game of the engine against itself, except at ply `bad`, where the side to
/// move plays the first queen move that loses it more than five pawns by the engine's
/// own search (a queen put where it is taken). Returns the moves.
fn game_with_planted_blunder(bad: usize, plies: usize) -> Vec<Move> {
    let mut s = searcher();
    let mut pos = Position::start(rules("glinski"));
    let mut moves = Vec::new();
    for ply in 0..plies {
        let (best, score) = engine(&mut s, &pos);
        let mv = if ply == bad {
            let before = cp(score);
            pos.legal_moves()
                .into_iter()
                .filter(|&m| pos.move_to_san(m).starts_with('Q'))
                .find(|&m| {
                    let mut after = pos.clone();
                    after.make_move(m);
                    let (_, reply) = engine(&mut s, &after);
                    before - -cp(reply) > 500
                })
                .unwrap_or_else(|| panic!("no queen move hangs the queen in {}", pos.to_fen()))
        } else {
            best
        };
        pos.make_move(mv);
        moves.push(mv);
    }
    moves
}

fn review(start: &Position, moves: &[Move]) -> GameReview {
    review_game(
        &mut searcher(),
        start,
        moves,
        &budget(),
        &no_stop(),
        |_, _| {},
    )
    .expect("a two-player game of legal moves")
}

/// The review marks the planted move a blunder, names another move, turns the score to
/// White's side, and judges none of the engine's own moves a blunder.
fn finds_the_planted_blunder(bad: usize) {
    let moves = game_with_planted_blunder(bad, bad + 9);
    let start = Position::start(rules("glinski"));
    let started = Instant::now();
    let r = review(&start, &moves);
    let took = started.elapsed();
    assert!(r.complete);
    assert_eq!(r.moves.len(), moves.len());
    let m = &r.moves[bad];
    let side = if bad.is_multiple_of(2) {
        Side::White
    } else {
        Side::Black
    };
    assert_eq!(m.side, side);
    assert_eq!(m.judgement, Some(Judgement::Blunder), "{m:?}");
    assert_ne!(m.best, m.played);
    assert_ne!(m.best_san, m.san);
    assert_eq!(m.line.first(), Some(&m.best_san));
    assert!(m.drop >= 15.0 && m.cp_loss > 300, "{m:?}");
    // White's point of view: the queen lost shows below zero for White's blunder,
    // above for Black's.
    let Evaluation::Score(Score::Cp(after)) = m.after else {
        panic!("{m:?}")
    };
    let white_after = if side == Side::White { after } else { -after };
    assert!(white_after < -300, "{m:?}");
    for (k, other) in r.moves.iter().enumerate().filter(|(k, _)| *k != bad) {
        assert_ne!(
            other.judgement,
            Some(Judgement::Blunder),
            "the engine's own move {k}: {other:?}"
        );
    }
    let summary = r.summary(side);
    assert_eq!(summary.blunders, 1);
    assert!(summary.accuracy.unwrap() < r.summary(!side).accuracy.unwrap());
    assert_eq!(r.summary(!side).blunders, 0);
    eprintln!(
        "{} plies reviewed in {took:?}; {summary}; {}",
        moves.len(),
        r.summary(!side)
    );
}

#[test]
fn a_queen_hung_by_white_is_a_blunder_and_the_engines_moves_are_not() {
    finds_the_planted_blunder(6);
}

#[test]
fn a_queen_hung_by_black_is_a_blunder_and_the_engines_moves_are_not() {
    finds_the_planted_blunder(7);
}

#[test]
fn a_mate_ends_the_review_with_the_result() {
    // White mates in one; the review's last evaluation is the game's result.
    let start = fen("glinski", "6/1R5/4Q3/6K2/10/k10/10/9/8/7/6 w - 0 1");
    let mut s = searcher();
    let (mate, score) = engine(&mut s, &start);
    assert_eq!(score, Score::Mate(1));
    let r = review(&start, &[mate]);
    let m = &r.moves[0];
    assert_eq!(m.before, Evaluation::Score(Score::Mate(1)));
    assert_eq!(
        m.after,
        Evaluation::Over(GameOutcome::win(Side::White, Termination::Checkmate))
    );
    assert_eq!(m.after.to_string(), "1-0");
    assert_eq!((m.judgement, m.drop, m.cp_loss), (None, 0.0, 0));
    assert_eq!(m.after.win_percent(Side::Black).value(), 0.0);

    // The same with colours swapped: Black's mate, turned to White's point of view.
    let start = start.colour_flipped().expect("a two-player position");
    let (mate, score) = engine(&mut s, &start);
    assert_eq!(score, Score::Mate(1));
    let m = &review(&start, &[mate]).moves[0];
    assert_eq!(m.side, Side::Black);
    assert_eq!(m.before, Evaluation::Score(Score::Mate(-1)));
    assert_eq!(m.before.to_string(), "#-1");
    assert_eq!(m.after.to_string(), "0-1");
    assert_eq!(m.after.win_percent(Side::Black).value(), 100.0);
}

#[test]
fn the_review_goes_into_the_pgn_game_and_reads_back_with_its_variation() {
    let bad = 6;
    let moves = game_with_planted_blunder(bad, bad + 5);
    let mut pos = Position::start(rules("glinski"));
    let mut game = PgnGame::new();
    game.set_tag("White", "Engine");
    game.set_tag("Black", "Engine");
    let mut at = game.tree.root();
    for &m in &moves {
        at = game.tree.add_move(at, &pos.move_to_lan(m));
        pos.make_move(m);
    }
    let catalog = Catalog::builtin();
    let (start, read) = main_line(&mut game, &catalog).expect("the game replays");
    assert_eq!(read, moves);
    assert_eq!(start.to_fen(), Position::start(rules("glinski")).to_fen());
    let r = review(&start, &read);
    annotate(&mut game, &r, "hexchess-engine test").expect("the review fits");

    let line = game.tree.main_line();
    let m = &r.moves[bad];
    let node = game.tree.get(line[bad]).unwrap();
    assert_eq!(
        node.san(),
        m.san,
        "the move was rewritten in SAN by the replay"
    );
    assert_eq!(node.nags(), [4]);
    assert_eq!(
        node.comment_after(),
        format!("{} Blunder; {} was best", m.after, m.best_san)
    );
    assert!(
        node.comment_after().starts_with('-'),
        "{}",
        node.comment_after()
    );
    // The variation: the engine's line from the position before the blunder.
    let parent = node.parent().unwrap();
    let children = game.tree.children(parent);
    assert_eq!(children.len(), 2, "the move played and the engine's");
    let mut variation = Vec::new();
    let mut v = children[1];
    loop {
        variation.push(game.tree.san(v).to_string());
        match game.tree.children(v).first() {
            Some(&next) => v = next,
            None => break,
        }
    }
    assert_eq!(variation, m.line);
    // Every other move is unmarked unless judged.
    for (k, (&id, mr)) in line.iter().zip(&r.moves).enumerate() {
        let nags = game.tree.get(id).unwrap().nags().to_vec();
        assert_eq!(
            nags,
            mr.judgement
                .map(|j| j.nag())
                .into_iter()
                .collect::<Vec<_>>(),
            "{k}"
        );
    }
    assert_eq!(game.tag("Annotator"), Some("hexchess-engine test"));

    // Written and read back: the same game, and it replays with the variation.
    let text = game.to_string();
    assert!(text.contains("$4 {"), "{text}");
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains(&format!("was best }} ( {}. {}", bad / 2 + 1, m.best_san)),
        "{text}"
    );
    let mut back = read_games(&text)
        .into_iter()
        .next()
        .expect("one game")
        .expect("it reads");
    back.replay(&catalog)
        .expect("it replays, variation included");
    assert_eq!(back, game);

    // A review of another game does not fit, and changes nothing.
    let mut other = back.clone();
    let mut shorter = r.clone();
    shorter.moves[0].san = "Qxa1".into();
    assert!(matches!(
        annotate(&mut other, &shorter, "x"),
        Err(AnnotateError::Differs { ply: 0, .. })
    ));
    assert_eq!(other, back);
}

#[test]
fn games_that_cannot_be_reviewed_are_refused_with_the_reason() {
    let start = Position::start(rules("glinski"));
    let first = start.legal_moves()[0];
    let err = review_game(
        &mut searcher(),
        &start,
        &[first, first],
        &budget(),
        &no_stop(),
        |_, _| {},
    );
    assert!(
        matches!(err, Err(ReviewError::IllegalMove { ply: 1 })),
        "{err:?}"
    );
    // A move no position made (a removal, in a variant without them) is refused too.
    let removal = Move::removal(first.from());
    let err = review_game(
        &mut searcher(),
        &start,
        &[removal],
        &budget(),
        &no_stop(),
        |_, _| {},
    );
    assert_eq!(err, Err(ReviewError::IllegalMove { ply: 0 }));
    assert_eq!(
        err.unwrap_err().to_string(),
        "ply 1 is not a legal move where it stands"
    );
    let catalog = Catalog::builtin();
    let mut three = read_games("[Variant \"hexachess-3\"]\n\n*\n")
        .remove(0)
        .unwrap();
    match main_line(&mut three, &catalog) {
        Err(e @ GameError::MoreSides { sides: 3, .. }) => {
            assert!(e.to_string().contains("3 sides"), "{e}")
        }
        other => panic!("{other:?}"),
    }
}

/// Knights out and back: the third time the start position comes the game is drawn.
/// A file of 100,000 such plies gave no review in three minutes (its replay cost the
/// square of its length, and played on past the draw); it is refused at once, naming
/// the rule, and so are moves after the end given to the review directly.
#[test]
fn a_game_played_on_after_its_repetition_is_refused_before_any_search() {
    let shuffle = ["Ni3", "Nc6", "Nh1", "Nd9"];
    let mut text = String::from("[Event \"shuffle\"]\n\n");
    for i in 0..100_000 {
        if i % 2 == 0 {
            text.push_str(&format!("{}. ", i / 2 + 1));
        }
        text.push_str(shuffle[i % 4]);
        text.push(if i % 10 == 9 { '\n' } else { ' ' });
    }
    text.push_str("1/2-1/2\n");
    let started = Instant::now();
    let mut game = read_games(&text).remove(0).unwrap();
    let e = main_line(&mut game, &Catalog::builtin()).unwrap_err();
    assert!(
        matches!(
            &e,
            GameError::Replay(ReplayError::AfterEnd {
                game: 1,
                line: 3,
                ply: 9,
                ..
            })
        ),
        "{e:?}"
    );
    assert!(e.to_string().ends_with("Draw by repetition"), "{e}");
    // A bound to catch a hang only: the refusal takes milliseconds.
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );

    let start = Position::start(rules("glinski"));
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for text in shuffle.iter().cycle().take(12) {
        let mv = pos.parse_move(text).unwrap();
        pos.make_move(mv);
        moves.push(mv);
    }
    let err = review_game(
        &mut searcher(),
        &start,
        &moves,
        &budget(),
        &no_stop(),
        |_, _| {},
    )
    .unwrap_err();
    assert!(
        matches!(&err, ReviewError::AfterEnd { ply: 8, ended } if ended.termination == Termination::Repetition),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "ply 9 comes after the end of the game: Draw by repetition"
    );
}

#[test]
fn a_stopped_review_keeps_the_moves_reviewed_before_the_stop() {
    let moves = game_with_planted_blunder(6, 10);
    let start = Position::start(rules("glinski"));
    let full = review(&start, &moves);

    // Stopped from the progress report once three positions are searched: the first
    // two moves are reviewed, as in the full review.
    let stop = no_stop();
    let mut calls = Vec::new();
    let r = review_game(
        &mut searcher(),
        &start,
        &moves,
        &budget(),
        &stop,
        |done, total| {
            calls.push((done, total));
            if done == 3 {
                stop.store(true, Ordering::Relaxed);
            }
        },
    )
    .unwrap();
    assert!(!r.complete);
    assert_eq!(r.moves, full.moves[..2]);
    assert_eq!(calls, [(0, 11), (1, 11), (2, 11), (3, 11)]);

    // Stopped before it starts: nothing reviewed.
    let r = review_game(&mut searcher(), &start, &moves, &budget(), &stop, |_, _| {}).unwrap();
    assert!(!r.complete && r.moves.is_empty());

    // Stopped from another thread during a search with no limit of its own.
    let stop = no_stop();
    let flag = Arc::clone(&stop);
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        flag.store(true, Ordering::Relaxed);
    });
    let started = Instant::now();
    let infinite = SearchLimits {
        infinite: true,
        ..SearchLimits::default()
    };
    let r = review_game(&mut searcher(), &start, &moves, &infinite, &stop, |_, _| {}).unwrap();
    stopper.join().unwrap();
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(!r.complete && r.moves.is_empty());
}

#[test]
fn a_review_from_searches_made_elsewhere_is_the_engines_own_review() {
    // As a browser's worker reviews: each position searched in turn by one fresh
    // searcher with the game's history, then judged.
    let moves = game_with_planted_blunder(3, 8);
    let start = Position::start(rules("glinski"));
    let mut s = searcher();
    let mut pos = start.clone();
    let mut searched = Vec::new();
    for k in 0..=moves.len() {
        let finished = (k == moves.len())
            .then(|| Searched::finished(&pos))
            .flatten();
        searched.push(finished.unwrap_or_else(|| {
            let r = s.search(&mut pos, &budget(), &no_stop(), &mut |_| {});
            Searched::from_result(&pos, &r)
        }));
        if let Some(&mv) = moves.get(k) {
            pos.make_move(mv);
        }
    }
    let own = review(&start, &moves);
    let elsewhere = review_searched(&start, &moves, &searched).unwrap();
    assert_eq!(elsewhere, own);
    assert!(elsewhere.complete);
    assert!(elsewhere.moves[3].judgement.is_some(), "the blunder found");
    // Searches of the first five positions review the first four moves.
    let part = review_searched(&start, &moves, &searched[..5]).unwrap();
    assert!(!part.complete);
    assert_eq!(part.moves, own.moves[..4]);
    // The game is checked as review_game checks it.
    let mut illegal = moves.clone();
    illegal[2] = illegal[1];
    assert!(matches!(
        review_searched(&start, &illegal, &searched),
        Err(ReviewError::IllegalMove { ply: 2 })
    ));
}
