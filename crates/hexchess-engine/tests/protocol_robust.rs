//! The protocol kept answering whatever it is asked: long counts and benches run off
//! the protocol's thread, games of more sides ponder and check `searchmoves` as
//! two-player games do, evaluation weights stay within their ranges, and a depth past
//! the search's deepest ply is cut to it.

mod common;

use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

use common::Session;
use hexchess_core::position::Position;
use hexchess_engine::{MATE_BOUND, MAX_PLY};

/// Runs `f` on a session on another thread and gives its result, or `None` if it did
/// not finish within `limit` (a protocol that blocks fails the test instead of hanging
/// it).
fn within<T: Send + 'static>(
    limit: Duration,
    f: impl FnOnce(&mut Session) -> T + Send + 'static,
) -> Option<T> {
    let (send, receive) = channel();
    std::thread::spawn(move || {
        let mut s = Session::new();
        let _ = send.send(f(&mut s));
    });
    receive.recv_timeout(limit).ok()
}

/// Waits up to `limit` for everything the engine writes to contain `needle`.
fn wait_for(s: &mut Session, needle: &str, limit: Duration) -> String {
    let start = Instant::now();
    let mut seen = String::new();
    while start.elapsed() < limit {
        seen.push_str(&s.take());
        if seen.contains(needle) {
            return seen;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    panic!("no {needle:?} within {limit:?}: {seen}");
}

#[test]
fn isready_is_answered_at_once_while_perft_7_runs_and_stop_ends_it() {
    let answered = within(Duration::from_secs(30), |s| {
        s.engine.handle("go perft 7");
        let asked = Instant::now();
        s.engine.handle("isready");
        let ready = wait_for(s, "readyok", Duration::from_secs(10));
        let waited = asked.elapsed();
        let stopping = Instant::now();
        s.engine.handle("stop");
        let stopped_in = stopping.elapsed();
        (waited, stopped_in, ready, s.take())
    });
    let (waited, stopped_in, ready, after) = answered.expect("the protocol did not block");
    // Generous for a loaded machine; the work itself runs for minutes, and the
    // "stopped" line below proves it was still running.
    assert!(waited < Duration::from_secs(5), "readyok after {waited:?}");
    assert!(!ready.contains("Nodes searched"), "{ready}");
    assert!(
        stopped_in < Duration::from_secs(2),
        "stop took {stopped_in:?}"
    );
    // A stopped count says so instead of giving a total that is not one.
    assert!(!after.contains("Nodes searched"), "{after}");
    assert!(after.contains("perft stopped"), "{after}");
}

#[test]
fn a_perft_that_runs_to_the_end_still_prints_its_count() {
    let reply = within(Duration::from_secs(60), |s| {
        s.engine.handle("go perft 3");
        s.engine.wait();
        s.take()
    })
    .expect("perft 3 finishes");
    assert!(reply.ends_with("\nNodes searched: 137858\n"), "{reply}");
}

#[test]
fn isready_is_answered_during_a_bench_and_stop_ends_it() {
    let answered = within(Duration::from_secs(30), |s| {
        s.engine.handle("bench 30");
        let asked = Instant::now();
        s.engine.handle("isready");
        wait_for(s, "readyok", Duration::from_secs(10));
        let waited = asked.elapsed();
        s.engine.handle("stop");
        (waited, s.take())
    });
    let (waited, after) = answered.expect("the protocol did not block");
    // Generous for a loaded machine; the work itself runs for minutes, and the
    // "stopped" line below proves it was still running.
    assert!(waited < Duration::from_secs(5), "readyok after {waited:?}");
    assert!(!after.contains("Nodes searched"), "{after}");
    assert!(after.contains("bench stopped"), "{after}");
}

#[test]
fn a_game_of_three_ponders_until_ponderhit_or_stop() {
    let mut s = Session::new();
    s.run(&["setoption name UCI_Variant value hexachess-3"]);
    s.engine.handle("go ponder nodes 200");
    std::thread::sleep(Duration::from_millis(400));
    let early = s.take();
    assert!(
        !early.contains("bestmove"),
        "answered while pondering: {early}"
    );
    s.engine.handle("ponderhit");
    let reply = wait_for(&mut s, "bestmove", Duration::from_secs(10));
    assert!(reply.contains("bestmove "), "{reply}");

    // On the opponent's time the move time does not run; it counts from the hit.
    s.engine.handle("go ponder movetime 100");
    std::thread::sleep(Duration::from_millis(400));
    assert!(!s.take().contains("bestmove"));
    s.engine.handle("ponderhit");
    wait_for(&mut s, "bestmove", Duration::from_secs(10));

    // `stop` answers at once.
    s.engine.handle("go ponder");
    std::thread::sleep(Duration::from_millis(100));
    s.engine.handle("stop");
    assert!(s.take().contains("bestmove"));
    assert_eq!(s.run(&["ponderhit", "isready"]), "readyok\n");
}

#[test]
fn a_game_of_three_refuses_a_searchmove_it_cannot_play() {
    let mut s = Session::new();
    s.run(&["setoption name UCI_Variant value hexachess-3"]);
    let reply = s.run(&["go nodes 100 searchmoves zz9"]);
    assert!(
        reply.starts_with("info string error: searchmoves 'zz9'"),
        "{reply}"
    );
    assert!(!reply.contains("bestmove"), "{reply}");
    // A turn it can play is searched alone.
    let reply = s.run(&["go nodes 300 searchmoves e3e4"]);
    assert!(reply.ends_with("bestmove e3e4\n"), "{reply}");
}

#[test]
fn evaluation_weights_out_of_their_range_are_refused_by_name() {
    let mut s = Session::new();
    for (value, field) in [
        ("(mobility: (2147483647, 2147483647))", "mobility"),
        ("(king_danger: -2147483648)", "king_danger"),
        ("(passed: (0, 1000000))", "passed"),
        ("(piece_reach: (-99999, 20))", "piece_reach"),
    ] {
        let reply = s.run(&[&format!("setoption name EvalWeights value {value}")]);
        assert!(
            reply.starts_with("info string error: ") && reply.contains(field),
            "{value}: {reply}"
        );
        assert!(reply.contains(" to "), "names the range: {reply}");
    }
    // The weights as they were: a search ends with an ordinary score.
    let reply = s.run(&["go depth 4"]);
    assert!(reply.contains("info depth 4 "), "{reply}");
}

#[test]
fn the_largest_weights_allowed_still_search_and_never_score_a_mate() {
    let mut s = Session::new();
    let uci = s.run(&["uci"]);
    assert!(uci.contains("option name EvalWeights"), "{uci}");
    let largest = "(pawn_advance: (1000, 1000), pawn_centre: 1000, king_forward: 1000, \
        king_centre: 1000, piece_reach: (1000, 1000), mobility: (1000, 1000), \
        king_danger: 1000, shield: 1000, passed: (1000, 1000))";
    assert_eq!(
        s.run(&[&format!("setoption name EvalWeights value {largest}")]),
        ""
    );
    let reply = within(Duration::from_secs(60), |s| {
        s.run(&[
            "setoption name EvalWeights value (pawn_advance: (1000, 1000), pawn_centre: 1000, \
             king_forward: 1000, king_centre: 1000, piece_reach: (1000, 1000), \
             mobility: (1000, 1000), king_danger: 1000, shield: 1000, passed: (1000, 1000))",
            "position startpos moves f5f6 c7c5",
            "go depth 5",
        ])
    })
    .expect("the search ends");
    assert!(reply.contains("info depth 5 "), "{reply}");
    assert!(!reply.contains("score mate"), "{reply}");
}

/// Gliński, Black to move, with White queens on every cell but a few: White's king on
/// a1, and Black's on l6 walled in by its own pawns (every cell within two steps), so
/// that no queen attacks it. Far more material than any score below a mate holds (and
/// White mates in a move or two, which a search of depth 1 for Black does not see).
fn walled_king_among_queens(s: &Session) -> String {
    let pos = s.engine.position().unwrap();
    let board = pos.rules().board();
    let black_king = board.parse_cell("l6").expect("Gliński's l6");
    let white_king = board.parse_cell("a1").expect("Gliński's a1");
    let files: Vec<String> = board
        .groups()
        .iter()
        .map(|file| {
            let mut text = String::new();
            let mut empty = 0;
            for &c in file {
                let near = board.hex(c).distance(board.hex(black_king));
                let piece = match () {
                    _ if c == black_king => 'k',
                    _ if c == white_king => 'K',
                    _ if near <= 2 => 'p',
                    _ => 'Q',
                };
                if empty > 0 {
                    text.push_str(&empty.to_string());
                    empty = 0;
                }
                text.push(piece);
            }
            if empty > 0 {
                text.push_str(&empty.to_string());
            }
            text
        })
        .collect();
    format!("{} b - 0 1", files.join("/"))
}

#[test]
fn a_board_full_of_queens_is_a_large_score_not_a_mate() {
    let mut s = Session::new();
    let fen = walled_king_among_queens(&s);
    let set = s.run(&[
        "setoption name Tablebases value false",
        &format!("position fen {fen}"),
    ]);
    assert_eq!(set, "", "{fen}: {set}");
    let reply = s.run(&["go depth 1"]);
    let score = reply
        .lines()
        .find(|l| l.starts_with("info depth 1 "))
        .unwrap_or_else(|| panic!("{reply}"));
    assert!(!score.contains("score mate"), "{score}");
    let cp: i32 = score
        .split_whitespace()
        .skip_while(|w| *w != "cp")
        .nth(1)
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("{score}"));
    assert!(cp < -10_000 && cp > -MATE_BOUND, "{score}");
}

#[test]
fn a_depth_past_the_deepest_ply_is_cut_to_it() {
    let mut s = Session::new();
    // Mate in two: once found, each deeper iteration is quick (mate distance pruning
    // and the hash table), so the search runs through every depth it accepts.
    let reply = within(Duration::from_secs(120), |s| {
        s.run(&[
            "position fen 6/7/4Q3/9/10/11/4R5/9/1K4k1/7/6 w - 0 1",
            "setoption name Tablebases value false",
            "go depth 100000",
        ])
    })
    .expect("the search ends");
    let deepest = format!("info depth {} ", MAX_PLY - 1);
    assert!(reply.contains(&deepest), "{reply}");
    assert!(
        !reply.contains(&format!("info depth {} ", MAX_PLY)),
        "{reply}"
    );
    assert!(reply.contains("bestmove "), "{reply}");
    s.run(&["isready"]);
}

/// The move of the `bestmove` line in `reply`, checked legal in `pos`.
fn legal_bestmove(reply: &str, pos: &Position) {
    let mv = reply
        .lines()
        .find_map(|l| l.strip_prefix("bestmove "))
        .and_then(|l| l.split_whitespace().next())
        .unwrap_or_else(|| panic!("no bestmove: {reply}"));
    assert!(
        pos.parse_move(mv).is_ok(),
        "{mv} is not legal in {}",
        pos.to_fen()
    );
}

#[test]
fn times_and_node_counts_out_of_range_are_refused_with_the_range_and_change_nothing() {
    let mut s = Session::new();
    s.run(&["position startpos moves f5f6 c7c5"]);
    let pos = s.engine.position().unwrap();
    // A search on its way: a refused `go` must neither stop it nor start another.
    s.engine.handle("go infinite");
    for (line, message) in [
        // Past u64, and past i64 (read as a number all the same, then refused).
        (
            "go movetime 99999999999999999999",
            "movetime must be 0 to 86400000 ms (a day), not '99999999999999999999'",
        ),
        // Before: accepted, a search of 292 million years that answered only `stop`.
        (
            "go movetime 9223372036854775807",
            "movetime must be 0 to 86400000 ms (a day), not '9223372036854775807'",
        ),
        (
            "go depth 5 movetime 86400001",
            "movetime must be 0 to 86400000 ms (a day), not '86400001'",
        ),
        (
            "go movetime -5",
            "movetime must be 0 to 86400000 ms (a day), not '-5'",
        ),
        (
            "go nodes 9223372036854775807",
            "nodes must be 1 to 1000000000000, not '9223372036854775807'",
        ),
        (
            "go nodes 99999999999999999999",
            "nodes must be 1 to 1000000000000, not '99999999999999999999'",
        ),
    ] {
        s.engine.handle(line);
        s.engine.handle("isready");
        // Without the running search's reports of its progress.
        let reply: Vec<String> = s
            .take()
            .lines()
            .filter(|l| !l.starts_with("info ") || l.starts_with("info string"))
            .map(String::from)
            .collect();
        assert_eq!(
            reply,
            [format!("info string error: {message}"), "readyok".into()],
            "{line}"
        );
        assert_eq!(
            s.engine.position().unwrap().to_fen(),
            pos.to_fen(),
            "{line}"
        );
    }
    // The search asked for first was running all along: `stop` gives its one answer.
    s.engine.stop();
    let stopped = s.take();
    assert_eq!(
        stopped
            .lines()
            .filter(|l| l.starts_with("bestmove"))
            .count(),
        1,
        "{stopped}"
    );
    legal_bestmove(&stopped, &pos);
    // And a sane `go` still searches and answers.
    let reply = within(Duration::from_secs(60), |s| {
        s.run(&["position startpos moves f5f6 c7c5", "go movetime 50"])
    })
    .expect("a search of 50 ms ends");
    legal_bestmove(&reply, &pos);
}

#[test]
fn the_edges_of_the_ranges_still_answer_with_a_move() {
    // `movetime 0` and a clock run out (sent below zero, the other side's past i64)
    // answer at once with a legal move; the largest movetime and node count are taken
    // (and stopped here: they would run for a day, or about a week).
    let replies = within(Duration::from_secs(60), |s| {
        let mut replies = Vec::new();
        for line in [
            "go movetime 0",
            "go wtime -5 btime 99999999999999999999 winc 0 binc 99999999999999999999",
            "go wtime 0 btime 0",
        ] {
            replies.push((line, s.run(&["position startpos", line])));
        }
        for line in ["go movetime 86400000", "go nodes 1000000000000"] {
            s.engine.handle("position startpos");
            s.engine.handle(line);
            std::thread::sleep(Duration::from_millis(50));
            let early = s.take();
            s.engine.stop();
            replies.push((line, format!("{early}--\n{}", s.take())));
        }
        s.engine.handle("isready");
        replies.push(("isready", s.take()));
        (replies, s.engine.position().unwrap())
    });
    let (replies, start) = replies.expect("every search ends");
    for (line, reply) in &replies[..3] {
        assert!(!reply.contains("error"), "{line}: {reply}");
        legal_bestmove(reply, &start);
    }
    for (line, reply) in &replies[3..5] {
        let (early, after) = reply.split_once("--\n").unwrap();
        assert!(
            !early.contains("bestmove") && !early.contains("error"),
            "{line}: {reply}"
        );
        legal_bestmove(after, &start);
    }
    assert_eq!(replies[5].1, "readyok\n");
}
