//! The protocol's `go` as GUIs use it: `searchmoves`, `mate`, `ponder`/`ponderhit`,
//! `infinite`, the progress lines of a long search, and the options other engines
//! share (`Skill Level`, `UCI_LimitStrength`/`UCI_Elo`, `UCI_ShowWDL`, `VariantPath`).

mod common;
#[path = "../../hexchess-core/tests/common/mod.rs"]
mod core_common;

use std::time::{Duration, Instant};

use common::Session;
use core_common::fen;
use hexchess_core::moves::Move;
use hexchess_core::position::Position;

/// Gliński, White mates in 2 (proved by `tests/engine.rs`'s exhaustive check).
const MATE_IN_TWO: &str = "6/7/4Q3/9/10/11/4R5/9/1K4k1/7/6 w - 0 1";

/// The move of a `bestmove` line (the last line of `reply`).
fn bestmove(reply: &str) -> &str {
    reply
        .lines()
        .last()
        .and_then(|l| l.strip_prefix("bestmove "))
        .and_then(|l| l.split_whitespace().next())
        .unwrap_or_else(|| panic!("no bestmove last: {reply}"))
}

/// Whether the side to move can force mate within `n` moves starting with `m`, by
/// trying every reply (independent of the engine).
fn mates_within(p: &mut Position, m: Move, n: u32) -> bool {
    p.make_move(m);
    let replies = p.legal_moves();
    let ok = if replies.is_empty() {
        p.in_check()
    } else {
        n > 1
            && replies.iter().all(|&r| {
                p.make_move(r);
                let x = p
                    .legal_moves()
                    .into_iter()
                    .any(|m2| mates_within(p, m2, n - 1));
                p.unmake_move();
                x
            })
    };
    p.unmake_move();
    ok
}

/// Waits up to `limit` for the engine to write a line starting `bestmove`.
fn wait_for_bestmove(s: &mut Session, limit: Duration) -> String {
    let start = Instant::now();
    let mut seen = String::new();
    while start.elapsed() < limit {
        seen.push_str(&s.take());
        if seen.contains("bestmove") {
            return seen;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    panic!("no bestmove within {limit:?}: {seen}");
}

#[test]
fn searchmoves_searches_only_the_moves_named() {
    let mut s = Session::new();
    // f5f6 is White's usual first move; b1b2 a quiet pawn push the engine would not pick.
    let reply = s.run(&["position startpos", "go depth 4 searchmoves b1b2"]);
    assert_eq!(bestmove(&reply), "b1b2", "{reply}");
    assert!(reply.contains("pv b1b2"), "{reply}");
    let reply = s.run(&["go depth 4 searchmoves b1b2 k1k2"]);
    assert!(["b1b2", "k1k2"].contains(&bestmove(&reply)), "{reply}");
    // A move that is not legal here: an error, no search, the position kept.
    let before = s.engine.position().unwrap().to_fen();
    let reply = s.run(&["go depth 4 searchmoves f5f6 f5f9"]);
    assert!(
        reply.starts_with("info string error: searchmoves 'f5f9'"),
        "{reply}"
    );
    assert!(!reply.contains("bestmove"), "{reply}");
    assert_eq!(s.engine.position().unwrap().to_fen(), before);
}

#[test]
fn go_mate_stops_at_a_mate_that_short_and_it_is_real() {
    let mut s = Session::new();
    let reply = s.run(&[&format!("position fen {MATE_IN_TWO}"), "go mate 2"]);
    assert!(reply.contains("score mate 2 "), "{reply}");
    let mut p = fen("glinski", MATE_IN_TWO);
    let best = p.parse_move(bestmove(&reply)).unwrap();
    assert!(mates_within(&mut p, best, 2), "{reply}");
}

#[test]
fn a_ponder_search_answers_only_after_ponderhit_or_stop() {
    let mut s = Session::new();
    s.run(&["position startpos moves f5f6"]);
    // Depth 3 ends in milliseconds, but a ponder search holds its answer.
    s.engine.handle("go ponder depth 3");
    std::thread::sleep(Duration::from_millis(300));
    let early = s.take();
    assert!(early.contains("info depth 3 "), "{early}");
    assert!(!early.contains("bestmove"), "{early}");
    s.engine.handle("ponderhit");
    let reply = wait_for_bestmove(&mut s, Duration::from_secs(10));
    assert!(
        s.engine
            .position()
            .unwrap()
            .parse_move(bestmove(&reply))
            .is_ok()
    );

    // On the opponent's time no deadline binds: a movetime counts from the hit.
    s.engine.handle("go ponder movetime 100");
    std::thread::sleep(Duration::from_millis(400));
    assert!(!s.take().contains("bestmove"));
    s.engine.handle("ponderhit");
    let reply = wait_for_bestmove(&mut s, Duration::from_secs(10));
    assert!(reply.contains("bestmove"), "{reply}");

    // `stop` answers a ponder search at once.
    s.engine.handle("go ponder");
    std::thread::sleep(Duration::from_millis(100));
    s.engine.handle("stop");
    let reply = s.take();
    assert!(reply.contains("bestmove"), "{reply}");
    // A late ponderhit (the search is over) changes nothing and says nothing.
    assert_eq!(s.run(&["ponderhit", "isready"]), "readyok\n");
}

#[test]
fn go_infinite_answers_only_when_stopped_and_tells_its_root_moves() {
    let mut s = Session::new();
    s.run(&["position startpos"]);
    // Even a search that cannot go on (depth 1) waits for `stop`.
    s.engine.handle("go infinite depth 1");
    std::thread::sleep(Duration::from_millis(200));
    assert!(!s.take().contains("bestmove"));
    s.engine.handle("stop");
    assert!(s.take().contains("bestmove"));

    // A search longer than a second (of its own clock) says which root move it is on.
    // Waited for rather than slept for: on a loaded machine the search thread may
    // start late, and its second begins when it does.
    s.engine.handle("go infinite");
    let start = Instant::now();
    let mut reply = String::new();
    while !reply.contains(" currmove ") && start.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(50));
        reply.push_str(&s.take());
    }
    std::thread::sleep(Duration::from_millis(300));
    s.engine.handle("stop");
    reply.push_str(&s.take());
    assert!(reply.contains("bestmove"), "{reply}");
    let currmoves: Vec<&str> = reply.lines().filter(|l| l.contains(" currmove ")).collect();
    assert!(!currmoves.is_empty(), "{reply}");
    let pos = s.engine.position().unwrap();
    for line in currmoves {
        let words: Vec<&str> = line.split_whitespace().collect();
        let [_, "depth", depth, "currmove", mv, "currmovenumber", number] = words[..] else {
            panic!("{line}")
        };
        assert!(depth.parse::<u32>().unwrap() >= 1, "{line}");
        assert!(pos.parse_move(mv).is_ok(), "{line}");
        let number: usize = number.parse().unwrap();
        assert!((1..=pos.legal_moves().len()).contains(&number), "{line}");
    }
}

#[test]
fn bestmove_names_the_expected_reply_to_ponder_on() {
    let mut s = Session::new();
    let reply = s.run(&["position startpos", "go depth 5"]);
    let last = reply.lines().last().unwrap();
    let words: Vec<&str> = last.split_whitespace().collect();
    let ["bestmove", best, "ponder", expected] = words[..] else {
        panic!("{last}")
    };
    let mut p = s.engine.position().unwrap();
    let best = p.parse_move(best).unwrap();
    p.make_move(best);
    assert!(p.parse_move(expected).is_ok(), "{last}");
}

#[test]
fn limited_strength_plays_the_level_of_its_elo_and_skill_level_is_skill() {
    let mut s = Session::new();
    let uci = s.run(&["uci"]);
    for option in [
        "option name Skill Level type spin default 20 min 1 max 20",
        "option name UCI_LimitStrength type check default false",
        "option name UCI_ShowWDL type check default false",
        "option name Ponder type check default false",
        "option name VariantPath type string default <empty>",
    ] {
        assert!(uci.contains(option), "{option}: {uci}");
    }
    let elo_line = uci
        .lines()
        .find(|l| l.starts_with("option name UCI_Elo type spin"))
        .unwrap();
    assert!(elo_line.contains(" min 500 "), "{elo_line}");
    let skill = |s: &mut Session| s.engine.skill().level();
    assert_eq!(s.run(&["setoption name Skill Level value 7"]), "");
    assert_eq!(skill(&mut s), 7);
    // Level 3 is 816 on the scale and level 4 1025 (docs/strength.md's matches):
    // 1000 asks for no more than level 3.
    s.run(&[
        "setoption name UCI_Elo value 1000",
        "setoption name UCI_LimitStrength value true",
    ]);
    assert_eq!(skill(&mut s), 3);
    // Changing the level while strength is limited is kept for later.
    s.run(&["setoption name Skill value 12"]);
    assert_eq!(skill(&mut s), 3);
    s.run(&["setoption name UCI_LimitStrength value false"]);
    assert_eq!(skill(&mut s), 12);
    for bad in [
        "setoption name UCI_Elo value 10",
        "setoption name UCI_Elo value 99999",
        "setoption name UCI_LimitStrength value maybe",
        "setoption name Skill Level value 0",
        "setoption name UCI_ShowWDL value 2",
    ] {
        assert!(
            s.run(&[bad]).starts_with("info string error: "),
            "{bad} was accepted"
        );
    }
    assert_eq!(skill(&mut s), 12);
}

#[test]
fn show_wdl_adds_chances_that_add_up_to_a_thousand() {
    let mut s = Session::new();
    let reply = s.run(&["position startpos", "go depth 3"]);
    assert!(!reply.contains(" wdl "), "{reply}");
    let reply = s.run(&["setoption name UCI_ShowWDL value true", "go depth 3"]);
    let infos: Vec<&str> = reply
        .lines()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(infos.len(), 3, "{reply}");
    for line in infos {
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words.iter().position(|w| *w == "wdl").expect(line);
        assert_eq!(words[at - 3], "score", "wdl follows the score: {line}");
        let chances: u32 = words[at + 1..at + 4]
            .iter()
            .map(|w| w.parse::<u32>().unwrap())
            .sum();
        assert_eq!(chances, 1000, "{line}");
    }
}

#[test]
fn variant_path_adds_the_variants_of_a_folder_and_names_a_broken_file() {
    let dir = std::env::temp_dir().join(format!("hexchess-variant-path-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let glinski = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../variants/glinski.ron"),
    )
    .unwrap();
    let copy = glinski.replacen("id: \"glinski\"", "id: \"glinski-copy\"", 1);
    assert_ne!(copy, glinski, "the id line is as expected");
    std::fs::write(dir.join("copy.ron"), copy).unwrap();
    std::fs::write(
        dir.join("broken.ron"),
        "(\n  id: \"broken\",\n  name: 7,\n)\n",
    )
    .unwrap();
    let mut s = Session::new();
    let reply = s.run(&[&format!(
        "setoption name VariantPath value {}",
        dir.display()
    )]);
    let errors: Vec<&str> = reply.lines().collect();
    assert_eq!(errors.len(), 1, "{reply}");
    assert!(
        errors[0].starts_with("info string error: variant file left out: ")
            && errors[0].contains("broken.ron:3:"),
        "{reply}"
    );
    let uci = s.run(&["uci"]);
    assert!(uci.contains(" var glinski-copy"), "{uci}");
    assert_eq!(
        s.run(&["setoption name UCI_Variant value glinski-copy"]),
        ""
    );
    assert!(s.run(&["go depth 2"]).contains("bestmove"));
    // Back to no folder: the copy is gone again.
    s.run(&["setoption name VariantPath value <empty>"]);
    assert!(!s.run(&["uci"]).contains(" var glinski-copy"));
    let reply = s.run(&["setoption name VariantPath value /no/such/folder"]);
    assert!(reply.contains("no folder '/no/such/folder'"), "{reply}");
    std::fs::remove_dir_all(&dir).unwrap();
}
