//! The protocol over generated input: garbled and half-right lines mixed with real
//! commands. After any line the engine still answers `isready`; a line it refuses says
//! `info string error: ...` and leaves the position as it was; and every `go` gives
//! exactly one `bestmove`. Seeded; `HEXCHESS_GARBAGE=N` sends N lines instead of the
//! default.

mod common;

use common::Session;
use hexchess_engine::protocol::Flow;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const WORDS: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "setoption",
    "name",
    "value",
    "position",
    "startpos",
    "fen",
    "moves",
    "go",
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "infinite",
    "ponder",
    "ponderhit",
    "searchmoves",
    "mate",
    "perft",
    "stop",
    "bench",
    "d",
    "Hash",
    "Threads",
    "MultiPV",
    "Skill",
    "UCI_Variant",
    "UCI_Elo",
    "UCI_LimitStrength",
    "UCI_ShowWDL",
    "VariantPath",
    "Ponder",
    "glinski",
    "grand",
    "mccooey",
    "standard",
    "Eval",
    "Material",
    "Full",
    "true",
    "false",
    "EvalWeights",
    "(shield:",
    "3)",
    "f5f6",
    "c7c5",
    "e4e5",
    "Nh3",
    "Bxc5",
    "f5f7",
    "e10f11q",
    "0",
    "1",
    "2",
    "-5",
    "99999999999",
    "6/P5p/RP4pr",
    "w",
    "b",
    "-",
    "O-O",
    "\u{1F600}",
    "\t",
    "",
];

/// A line: a real command now and then, otherwise words and bytes thrown together.
fn line(rng: &mut StdRng) -> String {
    match rng.random_range(0..10) {
        0 => "position startpos moves f5f6 c7c5".into(),
        1 => format!("go nodes {}", rng.random_range(1..400)),
        2 => "isready".into(),
        3 => {
            let bytes: Vec<u8> = (0..rng.random_range(0..30)).map(|_| rng.random()).collect();
            String::from_utf8_lossy(&bytes).into_owned()
        }
        _ => (0..rng.random_range(1..8))
            .map(|_| WORDS[rng.random_range(0..WORDS.len())])
            .collect::<Vec<_>>()
            .join(" "),
    }
}

#[test]
fn bad_lines_never_cost_the_engine_its_state_or_its_answers() {
    let lines: usize = std::env::var("HEXCHESS_GARBAGE")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(400);
    let mut rng = StdRng::seed_from_u64(26);
    let mut s = Session::new();
    let (mut refused, mut gos) = (0, 0);
    for _ in 0..lines {
        let text = line(&mut rng);
        let before = s.engine.position().to_fen();
        let is_go = text.split_whitespace().next() == Some("go");
        if s.engine.handle(&text) == Flow::Quit {
            continue;
        }
        // A search (however long it was asked to run) is stopped before the next line,
        // so that every `bestmove` can be counted.
        s.engine.stop();
        let reply = s.take();
        if reply.lines().any(|l| l.starts_with("info string error: ")) {
            refused += 1;
            assert_eq!(
                s.engine.position().to_fen(),
                before,
                "a refused line changed the position: {text:?}\n{reply}"
            );
        }
        let bestmoves = reply.lines().filter(|l| l.starts_with("bestmove")).count();
        // `go perft N` counts instead of searching; any other `go` that is not refused
        // searches (words it does not know are passed over).
        let perft = text.split_whitespace().nth(1) == Some("perft");
        if is_go && !reply.starts_with("info string error") && !perft {
            gos += 1;
            assert_eq!(bestmoves, 1, "{text:?}\n{reply}");
        } else {
            assert_eq!(bestmoves, 0, "{text:?}\n{reply}");
        }
        s.engine.handle("isready");
        assert_eq!(s.take(), "readyok\n", "after {text:?}");
    }
    assert!(refused > lines / 4, "{refused} refused of {lines}");
    assert!(gos > lines / 20, "{gos} searches");
}

#[test]
fn stop_at_any_moment_gives_one_bestmove_with_threads() {
    let mut rng = StdRng::seed_from_u64(27);
    let mut s = Session::new();
    s.engine.handle("setoption name Threads value 3");
    s.engine.handle("setoption name Hash value 8");
    for i in 0..40 {
        s.engine.handle("position startpos moves f5f6 c7c5");
        s.engine.handle(if i % 2 == 0 {
            "go infinite"
        } else {
            "go depth 30"
        });
        std::thread::sleep(std::time::Duration::from_micros(
            rng.random_range(0..20_000),
        ));
        s.engine.handle("stop");
        let reply = s.take();
        let bestmoves = reply.lines().filter(|l| l.starts_with("bestmove")).count();
        assert_eq!(bestmoves, 1, "run {i}:\n{reply}");
        s.engine.handle("isready");
        assert_eq!(s.take(), "readyok\n");
    }
}
