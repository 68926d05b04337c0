//! One game behind the protocol for every number of sides: `position` builds it from
//! the start or a FEN and the moves (whole turns with more sides), a refused move keeps
//! the game there was, the two-player search is given exactly the position the moves
//! lead to (history included), and a game past a draw by rule is the GUI's to call.

mod common;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use common::Session;
use hexchess_core::game::Game;
use hexchess_core::{Catalog, Position};
use hexchess_engine::{SearchLimits, SearchOptions, Searcher};

/// Gliński from a FEN (its start, with the move number of a game under way).
const GLINSKI_FEN: &str =
    "6/P5p/RP4pr/N1P3p1n/Q2P2p2q/BBB1P1p1bbb/K2P2p2k/N1P3p1n/RP4pr/P5p/6 w - 0 12";

/// Twenty plies of a game the engine played against itself.
const TWENTY_PLIES: &str = "e1c3 e10c6 d1f4 d9f8 f2i5 g7g6 g4g5 f8g5 h1g4 k7k5 i5g3 g5f3 g1f3 \
                            f10c4 i2i4 h9g7 i1i3 c6b5 e4e5 g7f5";

/// The knights out and back, twice over: the start position a third time.
const SHUFFLE: &str = "d1c3 d9f8 c3d1 f8d9 d1c3 d9f8 c3d1 f8d9";

/// The last line's move after `bestmove`.
fn bestmove(reply: &str) -> String {
    reply
        .lines()
        .last()
        .and_then(|l| l.strip_prefix("bestmove "))
        .and_then(|l| l.split_whitespace().next())
        .unwrap_or_else(|| panic!("no bestmove last: {reply}"))
        .to_string()
}

/// The nodes of the last `info depth` line.
fn nodes(reply: &str) -> u64 {
    let line = reply
        .lines()
        .rfind(|l| l.starts_with("info depth "))
        .unwrap_or_else(|| panic!("no info line: {reply}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "nodes").unwrap();
    words[at + 1].parse().unwrap()
}

/// Gliński's position after `moves` from `fen`, built move by move on the narrow cell
/// sets, as the protocol built it before it kept a game.
fn built_by_hand(fen: Option<&str>, moves: &str) -> Position {
    let rules = Catalog::builtin()
        .get("glinski")
        .unwrap()
        .two_player_rules()
        .unwrap();
    let mut pos = match fen {
        Some(f) => Position::from_fen(rules, f).unwrap(),
        None => Position::start(rules),
    };
    for text in moves.split_whitespace() {
        let mv = pos.parse_move(text).unwrap();
        pos.make_move(mv);
    }
    pos
}

/// A fresh searcher's best move and nodes at `depth` on `pos`, without tables.
fn searched_by_hand(mut pos: Position, depth: u32) -> (String, u64) {
    let mut searcher = Searcher::new(SearchOptions::default());
    let limits = SearchLimits {
        depth: Some(depth),
        ..SearchLimits::default()
    };
    let stop = Arc::new(AtomicBool::new(false));
    let root = pos.clone();
    let result = searcher.search(&mut pos, &limits, &stop, &mut |_| {});
    (root.move_to_lan(result.best.unwrap()), result.nodes)
}

#[test]
fn a_two_player_game_is_searched_on_the_position_its_moves_lead_to() {
    for (fen, moves, depth) in [
        (Some(GLINSKI_FEN), "f5f6 c7c5 Ni3", 4),
        (None, TWENTY_PLIES, 5),
        // The history counts: the start a third time is a draw the search sees.
        (None, &format!("{SHUFFLE} e4e5 e7e6"), 4),
    ] {
        let mut s = Session::new();
        s.run(&["setoption name Tablebases value false"]);
        let setup = match fen {
            Some(f) => format!("position fen {f} moves {moves}"),
            None => format!("position startpos moves {moves}"),
        };
        assert_eq!(s.run(&[&setup]), "", "{setup}");
        let by_hand = built_by_hand(fen, moves);
        let kept = s.engine.position().expect("a two-player game");
        assert_eq!(kept.to_fen(), by_hand.to_fen(), "{setup}");
        assert_eq!(kept.hash(), by_hand.hash(), "{setup}");
        assert_eq!(kept.ply_count(), by_hand.ply_count(), "{setup}");
        assert_eq!(kept.repetitions(), by_hand.repetitions(), "{setup}");
        assert_eq!(s.engine.game().turns().len(), by_hand.ply_count());

        let reply = s.run(&[&format!("go depth {depth}")]);
        let (best, searched) = searched_by_hand(by_hand, depth);
        assert_eq!(bestmove(&reply), best, "{setup}: {reply}");
        assert_eq!(nodes(&reply), searched, "{setup}: {reply}");
    }
}

#[test]
fn a_game_of_more_sides_from_a_fen_and_turns_answers_a_turn_it_can_play() {
    let catalog = Catalog::builtin();
    for (variant, turns) in [
        ("hexachess-3", ["e3e4", "c13d13", "l13l12"]),
        ("hexachess-4", ["h1l3", "a13b11", "b19b17"]),
    ] {
        let mut s = Session::new();
        s.run(&[&format!("setoption name UCI_Variant value {variant}")]);
        assert!(s.engine.position().is_none(), "no narrow position");
        // A FEN of the game two turns in, then the third turn.
        let rules = Arc::clone(catalog.get(variant).unwrap().rules());
        let fen = Game::from_moves(Arc::clone(&rules), None, &turns[..2])
            .unwrap()
            .to_fen();
        let setup = format!("position fen {fen} moves {}", turns[2]);
        assert_eq!(s.run(&[&setup]), "", "{setup}");
        let expected = Game::from_moves(rules, None, &turns).unwrap();
        assert_eq!(s.engine.game().to_fen(), expected.to_fen(), "{variant}");

        let reply = s.run(&["go nodes 300"]);
        let turn = bestmove(&reply);
        let mut after = s.engine.game().clone();
        after
            .play_turn(&turn)
            .unwrap_or_else(|e| panic!("{turn}: {e}"));
        let next = s.run(&[&format!("{setup} {turn}")]);
        assert_eq!(next, "", "{variant}: {turn}");
        assert_eq!(s.engine.game().to_fen(), after.to_fen());
    }
}

#[test]
fn a_refused_move_keeps_the_game_there_was_for_every_number_of_sides() {
    for (variant, good, bad, message) in [
        (
            "glinski",
            "f5f6",
            "f6f8",
            "info string error: 'f6f8' is not a legal move here (after 1 moves); position \
             unchanged\n",
        ),
        (
            "hexachess-3",
            "e3e4",
            "zz",
            "info string error: zz: 'zz' is not a move (after 1 turns); position unchanged\n",
        ),
        (
            "hexachess-4",
            "h1l3",
            "h1l3",
            "info string error: h1l3: 'h1l3' is not a legal move here (after 1 turns); \
             position unchanged\n",
        ),
    ] {
        let mut s = Session::new();
        s.run(&[
            &format!("setoption name UCI_Variant value {variant}"),
            &format!("position startpos moves {good}"),
        ]);
        let before = s.engine.game().to_fen();
        let shown = s.run(&["d"]);
        let reply = s.run(&[&format!("position startpos moves {good} {bad}")]);
        assert_eq!(reply, message, "{variant}");
        assert_eq!(s.engine.game().to_fen(), before, "{variant}");
        assert_eq!(s.engine.game().turns().len(), 1, "{variant}");
        assert_eq!(s.run(&["d"]), shown, "{variant}");
        // A FEN it cannot read changes nothing either.
        let reply = s.run(&["position fen 6/7 w - 0 1 moves f5f6"]);
        assert!(reply.starts_with("info string error: bad FEN: "), "{reply}");
        assert_eq!(s.engine.game().to_fen(), before, "{variant}");
        // The search is of the game kept: its answer is playable there.
        let reply = s.run(&["go depth 2 nodes 300"]);
        let mut kept = s.engine.game().clone();
        let answer = bestmove(&reply);
        assert!(kept.play_turn(&answer).is_ok(), "{variant}: {answer}");
    }
}

#[test]
fn a_game_past_a_draw_by_rule_is_the_guis_to_call() {
    // Two sides: the start a third time, and on.
    let mut s = Session::new();
    assert_eq!(
        s.run(&[&format!("position startpos moves {SHUFFLE} e4e5")]),
        ""
    );
    assert_eq!(s.engine.game().end(), None);
    assert_eq!(s.engine.position().unwrap().ply_count(), 9);
    let reply = s.run(&["go depth 3"]);
    assert!(
        s.engine
            .position()
            .unwrap()
            .parse_move(&bestmove(&reply))
            .is_ok(),
        "{reply}"
    );

    // Three sides: past the move rule's count from the FEN on.
    s.run(&["setoption name UCI_Variant value hexachess-3"]);
    let start = s.engine.game().to_fen();
    let fen = start.replace(" w - 0 1", " w - 160 40");
    assert_ne!(fen, start);
    assert_eq!(s.run(&[&format!("position fen {fen} moves e3e4")]), "");
    assert!(!s.run(&["d"]).contains("Over:"));
    let reply = s.run(&["go nodes 300"]);
    let mut game = s.engine.game().clone();
    let turn = bestmove(&reply);
    assert!(game.play_turn(&turn).is_ok(), "{turn}");
}

#[test]
fn a_new_variant_or_game_starts_over_whatever_the_sides() {
    let mut s = Session::new();
    let glinski = s.engine.game().to_fen();
    s.run(&["position startpos moves f5f6 c7c5"]);
    s.run(&["setoption name UCI_Variant value hexachess-3"]);
    let three = s.engine.game().to_fen();
    assert_eq!(s.engine.game().turns().len(), 0);
    assert!(
        s.run(&["d"])
            .contains("To move: White (1 move(s) this turn)")
    );
    assert!(s.run(&["uci"]).contains("default hexachess-3 "));
    s.run(&["position startpos moves e3e4 c13d13"]);
    assert_ne!(s.engine.game().to_fen(), three);
    s.run(&["ucinewgame"]);
    assert_eq!(s.engine.game().to_fen(), three);
    // An unknown variant keeps the one played.
    let reply = s.run(&["setoption name UCI_Variant value nosuch"]);
    assert!(
        reply.starts_with("info string error: unknown variant"),
        "{reply}"
    );
    assert_eq!(s.engine.game().to_fen(), three);
    s.run(&["setoption name UCI_Variant value glinski"]);
    assert_eq!(s.engine.game().to_fen(), glinski);
    assert!(s.run(&["d"]).contains("Checkers: "));
    assert!(s.run(&["go perft 1"]).ends_with("Nodes searched: 51\n"));
}
