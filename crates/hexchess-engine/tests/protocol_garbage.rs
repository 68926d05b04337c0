//! The protocol over generated input: garbled and half-right lines mixed with real
//! commands, as text and as raw bytes through the reader the engine's stdin goes
//! through. After any line the engine still answers `isready`; a line it refuses says
//! `info string error: ...` and leaves the position as it was; and every `go` gives
//! exactly one `bestmove`. Seeded; `HEXCHESS_GARBAGE=N` sends N lines instead of the
//! default.

mod common;

use std::io::Cursor;

use common::Session;
use hexchess_core::moves::Move;
use hexchess_core::position::Position;
use hexchess_engine::protocol::{self, Flow, MAX_LINE_BYTES};
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

/// How many lines to send: `HEXCHESS_GARBAGE`, or `default`.
fn garbage_lines(default: usize) -> usize {
    std::env::var("HEXCHESS_GARBAGE")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default)
}

#[test]
fn bad_lines_never_cost_the_engine_its_state_or_its_answers() {
    let lines = garbage_lines(400);
    let mut rng = StdRng::seed_from_u64(26);
    let mut s = Session::new();
    let (mut refused, mut gos) = (0, 0);
    for _ in 0..lines {
        let text = line(&mut rng);
        let before = s.engine.position().unwrap().to_fen();
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
                s.engine.position().unwrap().to_fen(),
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

/// Byte sequences that are not UTF-8: a lone continuation byte, a start byte with
/// nothing after it, overlong forms of `/` and of NUL, a UTF-16 surrogate, a code point
/// past U+10FFFF, and bytes UTF-8 never uses.
const NOT_UTF8: &[&[u8]] = &[
    b"\x80",
    b"\xbf",
    b"\xc3",
    b"\xe2\x82",
    b"\xc0\xaf",
    b"\xe0\x80\xaf",
    b"\xf0\x80\x80\xaf",
    b"\xc0\x80",
    b"\xed\xa0\x80",
    b"\xf4\x90\x80\x80",
    b"\xfe",
    b"\xff",
    b"\xe9",
];

/// What one raw line holds, for counting the answers it must get.
enum Raw {
    /// Bytes that are not UTF-8 somewhere: exactly one error, nothing else.
    NotUtf8,
    /// A NUL byte: exactly one error.
    Nul,
    /// A real `isready`: one `readyok`.
    Ready,
    /// Anything else (answers vary).
    Other,
}

/// A raw line, without its end: random bytes, a real command with a byte that is not
/// UTF-8 (or a NUL) spliced in, or words thrown together.
fn raw_line(rng: &mut StdRng) -> (Vec<u8>, Raw) {
    let ends = |b: &u8| *b == b'\n' || *b == b'\r';
    match rng.random_range(0..6) {
        0 => {
            let bytes: Vec<u8> = (0..rng.random_range(1..40))
                .map(|_| rng.random::<u8>())
                .filter(|b| !ends(b))
                .collect();
            let kind = match std::str::from_utf8(&bytes) {
                Err(_) => Raw::NotUtf8,
                Ok(t) if t.contains('\0') => Raw::Nul,
                Ok(_) => Raw::Other,
            };
            (bytes, kind)
        }
        1 | 2 => {
            let base: &[u8] = match rng.random_range(0..4) {
                0 => b"position startpos moves f5f6 c7c5",
                1 => b"setoption name EvalWeights value (shield: 9)",
                2 => b"setoption name UCI_Variant value grand",
                _ => b"go depth 2",
            };
            let at = rng.random_range(0..=base.len());
            let bad = NOT_UTF8[rng.random_range(0..NOT_UTF8.len())];
            let mut bytes = base[..at].to_vec();
            bytes.extend_from_slice(bad);
            bytes.extend_from_slice(&base[at..]);
            // A valid sequence may follow a start byte by chance and complete it; it
            // cannot here: every base byte is ASCII.
            (bytes, Raw::NotUtf8)
        }
        3 => {
            let mut bytes = b"isready".to_vec();
            bytes.insert(rng.random_range(0..=7), 0);
            (bytes, Raw::Nul)
        }
        _ => {
            // One line: its random bytes may hold line ends.
            let text = line(rng).replace(['\n', '\r'], " ");
            let kind = match text.split_whitespace().next() {
                _ if text.contains('\0') => Raw::Nul,
                Some("isready") => Raw::Ready,
                _ => Raw::Other,
            };
            (text.into_bytes(), kind)
        }
    }
}

/// The end of a line: LF, CR LF, or CR alone (old Mac files, some terminals).
fn line_end(rng: &mut StdRng) -> &'static [u8] {
    [b"\n".as_slice(), b"\r\n", b"\r"][rng.random_range(0..3)]
}

#[test]
fn raw_bytes_never_cost_the_engine_its_answers() {
    let lines = garbage_lines(300);
    let mut rng = StdRng::seed_from_u64(38);
    let mut input = Vec::new();
    let (mut not_utf8, mut nul, mut ready) = (0, 0, lines);
    for _ in 0..lines {
        let (bytes, kind) = raw_line(&mut rng);
        match kind {
            Raw::NotUtf8 => not_utf8 += 1,
            Raw::Nul => nul += 1,
            Raw::Ready => ready += 1,
            Raw::Other => {}
        }
        input.extend_from_slice(&bytes);
        input.extend_from_slice(line_end(&mut rng));
        // Whatever the line started (a search, a count, a bench), stop it, then ask.
        input.extend_from_slice(b"stop");
        input.extend_from_slice(line_end(&mut rng));
        input.extend_from_slice(b"isready");
        input.extend_from_slice(line_end(&mut rng));
    }
    let mut s = Session::new();
    protocol::run(&mut s.engine, Cursor::new(input)).expect("reading from memory");
    let reply = s.take();
    let answered = reply.lines().filter(|l| *l == "readyok").count();
    assert_eq!(answered, ready, "every isready answered");
    let count = |what: &str| {
        reply
            .lines()
            .filter(|l| l.starts_with("info string error: ") && l.contains(what))
            .count()
    };
    assert_eq!(
        count("not UTF-8"),
        not_utf8,
        "one error per line that is not UTF-8"
    );
    assert_eq!(count("NUL"), nul, "one error per line with a NUL");
    assert!(not_utf8 > lines / 4 && nul > lines / 20, "{not_utf8} {nul}");
    // Nothing but text goes back: what a refused line held is never echoed raw.
    assert!(
        reply.chars().all(|c| c == '\n' || !c.is_control()),
        "{reply:?}"
    );
}

#[test]
fn a_line_that_is_not_utf8_names_the_byte_and_changes_nothing() {
    let mut s = Session::new();
    let input: &[u8] = b"position startpos moves f5f6\n\
        position startpos moves f5f6 c7c5\xe9\n\
        setoption name Skill value 1\xe9\n\
        setoption name EvalWeights value (shield: 9\xff)\n\
        isready\n";
    protocol::run(&mut s.engine, Cursor::new(input)).expect("reading from memory");
    let reply = s.take();
    let errors: Vec<&str> = reply
        .lines()
        .filter(|l| l.starts_with("info string error: "))
        .collect();
    assert_eq!(errors.len(), 3, "{reply}");
    // Byte offsets within the line, from 0.
    assert!(errors[0].contains("byte 33"), "{reply}");
    assert!(errors[1].contains("byte 28"), "{reply}");
    assert!(errors[2].contains("byte 43"), "{reply}");
    assert!(reply.ends_with("readyok\n"), "{reply}");
    let after = s.run(&["d"]);
    assert!(after.contains(" b - 0 1"), "only f5f6 was played: {after}");
    let uci = s.run(&["uci"]);
    assert!(
        uci.contains("option name Skill type spin default 20"),
        "{uci}"
    );
}

#[test]
fn every_way_of_ending_a_line_ends_one() {
    let mut s = Session::new();
    let input: &[u8] = b"isready\risready\r\nisready\n\r\n\nposition startpos moves f5f6\risready";
    protocol::run(&mut s.engine, Cursor::new(input)).expect("reading from memory");
    assert_eq!(s.take(), "readyok\nreadyok\nreadyok\nreadyok\n");
    assert!(s.run(&["d"]).contains(" b - 0 1"));
}

#[test]
fn an_over_long_line_is_refused_and_its_rest_is_not_read_as_commands() {
    let mut s = Session::new();
    let mut input = b"position startpos moves f5f6\n".to_vec();
    // Longer than any line the engine reads, ending in what would be a command.
    input.extend(std::iter::repeat_n(b'x', MAX_LINE_BYTES + 10));
    input.extend_from_slice(b" isready\nisready\n");
    protocol::run(&mut s.engine, Cursor::new(input)).expect("reading from memory");
    let reply = s.take();
    let lines: Vec<&str> = reply.lines().collect();
    assert_eq!(lines.len(), 2, "{:?}", &reply[..reply.len().min(300)]);
    let shown = &lines[0][..lines[0].len().min(300)];
    assert!(
        lines[0].starts_with("info string error: ") && lines[0].contains("longer than"),
        "{shown}"
    );
    assert!(lines[0].len() < 300, "the line is not echoed back: {shown}");
    assert_eq!(lines[1], "readyok");
    assert!(s.run(&["d"]).contains(" b - 0 1"));
}

#[test]
fn a_long_game_still_fits_on_one_position_line() {
    let mut s = Session::new();
    let mut pos = s.engine.position().unwrap();
    // Each side's first knight move out and back, over and over: a game of thousands
    // of plies (repetitions do not end a game the protocol is given).
    let knight_out = |p: &Position| {
        p.legal_moves()
            .into_iter()
            .find(|&m| p.move_to_san(m).starts_with('N'))
            .expect("a knight move")
    };
    let white = knight_out(&pos);
    pos.make_move(white);
    let black = knight_out(&pos);
    pos.make_move(black);
    let mut moves = vec![white, black];
    let back = |m: Move| Move::new(m.to(), m.from());
    for round in 0..1000 {
        let (w, b) = if round % 2 == 0 {
            (back(white), back(black))
        } else {
            (white, black)
        };
        for m in [w, b] {
            assert!(pos.is_legal(m), "{}", pos.to_fen());
            pos.make_move(m);
            moves.push(m);
        }
    }
    let mut replay = s.engine.position().unwrap();
    let mut line = "position startpos moves".to_string();
    for m in moves {
        line.push(' ');
        line.push_str(&replay.move_to_lan(m));
        replay.make_move(m);
    }
    assert!(
        pos.ply_count() > 2000,
        "a long game: {} plies",
        pos.ply_count()
    );
    line.push('\n');
    protocol::run(&mut s.engine, Cursor::new(line.into_bytes())).expect("reading");
    assert_eq!(s.take(), "");
    assert_eq!(s.engine.position().unwrap().to_fen(), pos.to_fen());
}
