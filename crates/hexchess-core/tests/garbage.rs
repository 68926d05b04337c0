//! Garbage in, clear error out: every parser of the core over generated bad input (hex
//! FEN, moves in SAN and long algebraic, variant files, game records, PGN files). Each input must
//! be refused with a message that says what is wrong (with line and column for files),
//! or be accepted and then work; never a panic or a hang.
//!
//! Inputs are mutations of good ones (a character deleted, doubled, swapped or replaced
//! by one of the format's own), so they come close to valid and reach deep into each
//! parser. Seeded: `cargo test` tries the same inputs every run; `HEXCHESS_GARBAGE=N`
//! tries N per parser instead of the default.

mod common;

use std::path::Path;
use std::sync::Arc;

use hexchess_core::catalog::{Catalog, compile_two_player as compile};
use hexchess_core::game::{Game, Step};
use hexchess_core::pgn::{
    GameTree, NodeId, PgnGame, read_games, read_games_from_bytes, write_games,
};
use hexchess_core::variant::parse_variant;
use hexchess_core::{Position, Rules};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Inputs tried per parser.
fn count() -> usize {
    std::env::var("HEXCHESS_GARBAGE")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(300)
}

fn catalog() -> Catalog {
    common::shipped_catalog()
}

/// `good` with one to three small edits, using characters from `alphabet`.
fn mutate(rng: &mut StdRng, good: &str, alphabet: &[char]) -> String {
    let mut chars: Vec<char> = good.chars().collect();
    for _ in 0..rng.random_range(1..=3) {
        if chars.is_empty() {
            chars.push(alphabet[rng.random_range(0..alphabet.len())]);
            continue;
        }
        let i = rng.random_range(0..chars.len());
        match rng.random_range(0..5) {
            0 => {
                chars.remove(i);
            }
            1 => chars.insert(i, chars[i]),
            2 => {
                let j = rng.random_range(0..chars.len());
                chars.swap(i, j);
            }
            3 => chars[i] = alphabet[rng.random_range(0..alphabet.len())],
            _ => chars.insert(i, alphabet[rng.random_range(0..alphabet.len())]),
        }
    }
    chars.into_iter().collect()
}

/// A few random legal games' positions, as FENs, for a variant.
fn positions(rules: &Arc<Rules>, rng: &mut StdRng) -> Vec<String> {
    let mut out = Vec::new();
    for _ in 0..6 {
        let mut pos = Position::start(Arc::clone(rules));
        for _ in 0..rng.random_range(0..60) {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves[rng.random_range(0..moves.len())]);
        }
        out.push(pos.to_fen());
    }
    out
}

#[test]
fn bad_fens_are_refused_with_a_reason_or_give_a_working_position() {
    let mut rng = StdRng::seed_from_u64(1);
    let alphabet: Vec<char> = "KQRBNPkqrbnpVWDvwd0123456789/ -abwcfgh,".chars().collect();
    let (mut refused, mut accepted) = (0, 0);
    for entry in catalog().entries() {
        let Some(rules) = entry.two_player_rules() else {
            continue;
        };
        let good = positions(&rules, &mut rng);
        for _ in 0..count() / 4 {
            let pick = rng.random_range(0..good.len());
            let text = mutate(&mut rng, &good[pick], &alphabet);
            match Position::from_fen(Arc::clone(&rules), &text) {
                Ok(mut pos) => {
                    accepted += 1;
                    // It works: moves, a FEN that reads back the same, a perft.
                    let fen = pos.to_fen();
                    let again = Position::from_fen(Arc::clone(&rules), &fen)
                        .unwrap_or_else(|e| panic!("{text} -> {fen}: {e}"));
                    assert_eq!(again.to_fen(), fen);
                    assert_eq!(pos.hash(), pos.compute_hash(), "{text}");
                    pos.perft(2);
                }
                Err(e) => {
                    refused += 1;
                    assert!(!e.to_string().trim().is_empty(), "{text}");
                }
            }
        }
    }
    assert!(
        refused > 0 && accepted > 0,
        "{refused} refused, {accepted} accepted"
    );
}

#[test]
fn bad_moves_are_refused_and_leave_the_position_alone() {
    let mut rng = StdRng::seed_from_u64(2);
    let alphabet: Vec<char> = "KQRBNPVWDx=+#!?-Oo0abcdefghiklmn123456789 "
        .chars()
        .collect();
    let mut tried = 0;
    for entry in catalog().entries() {
        let Some(rules) = entry.two_player_rules() else {
            continue;
        };
        for fen in positions(&rules, &mut rng) {
            let pos = Position::from_fen(Arc::clone(&rules), &fen).unwrap();
            let legal = pos.legal_moves();
            if legal.is_empty() {
                continue;
            }
            for _ in 0..count() / 20 {
                let mv = legal[rng.random_range(0..legal.len())];
                let good = if rng.random_bool(0.5) {
                    pos.move_to_san(mv)
                } else {
                    pos.move_to_lan(mv)
                };
                let text = mutate(&mut rng, &good, &alphabet);
                tried += 1;
                match pos.parse_move(&text) {
                    Ok(m) => assert!(legal.contains(&m), "{text} gave an illegal move"),
                    Err(e) => assert!(!e.to_string().is_empty(), "{text}"),
                }
                assert_eq!(pos.to_fen(), fen, "parsing changed the position");
            }
        }
    }
    assert!(tried > 100, "{tried}");
}

#[test]
fn broken_variant_files_name_their_line_and_column() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../variants");
    let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    files.sort();
    let mut rng = StdRng::seed_from_u64(3);
    let alphabet: Vec<char> = "(){}[],:\"'/*#r0-x\n abcKQ".chars().collect();
    let (mut refused, mut located) = (0, 0);
    for _ in 0..count() {
        let (name, good) = &files[rng.random_range(0..files.len())];
        let text = mutate(&mut rng, good, &alphabet);
        match parse_variant(&text, name) {
            Ok(spec) => {
                // Accepted: it compiles into rules or says why, and its start moves.
                if let Ok(rules) = compile(spec, name) {
                    Position::start(rules).perft(1);
                }
            }
            Err(e) => {
                refused += 1;
                let problems = e.problems();
                assert!(!problems.is_empty(), "{name}: no problem named");
                for p in &problems {
                    assert!(!p.message.is_empty());
                    if let Some(line) = p.line {
                        located += 1;
                        assert!(line >= 1 && line <= text.lines().count() + 1, "{p:?}");
                    }
                }
                assert!(e.to_string().contains(name.as_str()), "{e}");
            }
        }
    }
    assert!(refused > count() / 4, "{refused}");
    assert!(located * 10 > refused * 9, "{located} of {refused} located");
}

#[test]
fn broken_game_records_are_refused_or_replay() {
    let catalog = catalog();
    let mut rng = StdRng::seed_from_u64(4);
    let mut records = Vec::new();
    for entry in catalog.entries() {
        let Some(rules) = entry.two_player_rules() else {
            continue;
        };
        let mut pos = Position::start(Arc::clone(&rules));
        for _ in 0..rng.random_range(4..40) {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves[rng.random_range(0..moves.len())]);
        }
        records
            .push(PgnGame::from_position(&pos, None, &[("Event", "garbage".into())]).to_string());
    }
    let alphabet: Vec<char> = "[]\" \n.123456789xKQRBNabcdefgh=+#-O0*/".chars().collect();
    let (mut refused, mut replayed) = (0, 0);
    for _ in 0..count() {
        let good = &records[rng.random_range(0..records.len())];
        let text = mutate(&mut rng, good, &alphabet);
        // Every game the mutated text reads as, each replayed or refused on its own.
        for read in read_games(&text) {
            let replay = read
                .map_err(|e| e.to_string())
                .and_then(|g| g.replay_main_line(&catalog).map_err(|e| e.to_string()));
            match replay {
                Ok(game) => {
                    replayed += 1;
                    let pos = game.position();
                    assert_eq!(pos.hash(), pos.compute_hash());
                }
                Err(e) => {
                    refused += 1;
                    assert!(!e.is_empty(), "{text}");
                }
            }
        }
    }
    assert!(
        refused > 0 && replayed > 0,
        "{refused} refused, {replayed} replayed"
    );
}

/// A move (two sides) or a whole turn (more sides) picked at random, as written; `None`
/// when the game is over.
fn random_move(pos: &mut Result<Position, Game>, rng: &mut StdRng) -> Option<String> {
    match pos {
        Ok(p) => {
            let moves = p.legal_moves();
            let mv = *moves.get(rng.random_range(0..moves.len().max(1)))?;
            let san = p.move_to_san(mv);
            p.make_move(mv);
            Some(san)
        }
        Err(g) => {
            let before = g.turns().len();
            let mut texts = Vec::new();
            while g.end().is_none() {
                let steps = g.steps();
                let step = *steps.get(rng.random_range(0..steps.len().max(1)))?;
                if step != Step::Stop {
                    texts.push(g.step_text(step));
                }
                g.play_unchecked(step);
                if g.turns().len() > before {
                    return Some(texts.join("&"));
                }
            }
            None
        }
    }
}

/// A random game of every variant in PGN, with a variation now and then, comments and
/// annotations.
fn pgn_games(catalog: &Catalog, rng: &mut StdRng) -> Vec<PgnGame> {
    let starts = catalog
        .entries()
        .iter()
        .map(|e| match e.two_player_rules() {
            Some(rules) => (e.id(), Ok(Position::start(rules))),
            None => (e.id(), Err(Game::new(Arc::clone(e.rules())))),
        });
    let mut games = Vec::new();
    for (id, mut game) in starts {
        let mut pgn = PgnGame::new();
        pgn.set_tag("Variant", id);
        pgn.set_tag("Event", "garbage \"quoted\"");
        let tree: &mut GameTree = &mut pgn.tree;
        let mut at: NodeId = tree.root();
        for _ in 0..rng.random_range(4..30) {
            let before = game.clone();
            let Some(text) = random_move(&mut game, rng) else {
                break;
            };
            let parent = at;
            at = tree.add_move(parent, &text);
            if rng.random_bool(0.2) {
                tree.set_comment_after(at, "a {comment} ; here");
                tree.add_nag(at, rng.random_range(1..=255));
            }
            if rng.random_bool(0.15) {
                let mut other = before;
                let mut v = parent;
                for _ in 0..rng.random_range(1..4) {
                    match random_move(&mut other, rng) {
                        Some(t) => v = tree.add_move(v, &t),
                        None => break,
                    }
                }
            }
        }
        pgn.replay(catalog).unwrap();
        games.push(pgn);
    }
    games
}

/// What every game read from any text must do: refused with its number and place, or
/// read; then refused by the rules with a reason, or replayed; and a game replayed is
/// written, read and replayed again to the same bytes.
fn check_pgn(text: &str, catalog: &Catalog) -> (usize, usize) {
    check_games(read_games(text), line_count(text.as_bytes()), catalog)
}

/// How many lines the reader sees in `bytes`: lines end with LF, CR LF or a CR alone.
fn line_count(bytes: &[u8]) -> usize {
    let ends = bytes
        .iter()
        .enumerate()
        .filter(|&(i, &b)| b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')))
        .count();
    ends + 1
}

/// [`check_pgn`] of the games read from a file of `lines` lines.
fn check_games(
    games: Vec<Result<PgnGame, hexchess_core::pgn::ReadError>>,
    lines: usize,
    catalog: &Catalog,
) -> (usize, usize) {
    let (mut refused, mut replayed) = (0, 0);
    for (i, game) in games.into_iter().enumerate() {
        match game {
            Err(e) => {
                refused += 1;
                assert_eq!(e.game, i + 1, "{e}");
                assert!(e.line >= 1 && e.line <= lines, "{e}");
                assert!(!e.to_string().is_empty());
            }
            Ok(mut g) => match g.replay(catalog) {
                Err(e) => {
                    refused += 1;
                    assert!(e.to_string().contains(&format!("game {}", i + 1)), "{e}");
                }
                Ok(end) => {
                    replayed += 1;
                    let written = g.to_string();
                    let mut again = read_games(&written);
                    assert_eq!(again.len(), 1, "{written}");
                    let mut back = again.remove(0).unwrap_or_else(|e| panic!("{e}\n{written}"));
                    let end2 = back
                        .replay(catalog)
                        .unwrap_or_else(|e| panic!("{e}\n{written}"));
                    assert_eq!(back.to_string(), written);
                    assert_eq!(end2.to_fen(), end.to_fen());
                }
            },
        }
    }
    (refused, replayed)
}

#[test]
fn broken_pgn_files_are_refused_game_by_game_or_replay_exactly() {
    let catalog = catalog();
    let mut rng = StdRng::seed_from_u64(5);
    let games = pgn_games(&catalog, &mut rng);
    let alphabet: Vec<char> = "[]\"\\ \n.123456789xKQRBNabcdefgh=+#-O0*/{}();$!?%&@"
        .chars()
        .collect();
    let (mut refused, mut replayed) = (0, 0);
    for _ in 0..count() {
        let file: Vec<PgnGame> = (0..3)
            .map(|_| games[rng.random_range(0..games.len())].clone())
            .collect();
        let text = mutate(&mut rng, &write_games(&file), &alphabet);
        let (r, p) = check_pgn(&text, &catalog);
        refused += r;
        replayed += p;
    }
    assert!(
        refused > 0 && replayed > count(),
        "{refused} refused, {replayed} replayed"
    );
}

#[test]
fn random_bytes_are_no_pgn_and_no_panic() {
    let catalog = catalog();
    let mut rng = StdRng::seed_from_u64(6);
    let pieces = [
        "[", "]", "\"", "{", "}", "(", ")", ";", "%", "$", "\n", " ", "1.", "...", "f6", "*",
        "1-0", "\\", "!?",
    ];
    for _ in 0..count() {
        let text = if rng.random_bool(0.5) {
            let bytes: Vec<u8> = (0..rng.random_range(0..400))
                .map(|_| rng.random())
                .collect();
            String::from_utf8_lossy(&bytes).into_owned()
        } else {
            (0..rng.random_range(0..200))
                .map(|_| pieces[rng.random_range(0..pieces.len())])
                .collect()
        };
        check_pgn(&text, &catalog);
    }
}

/// Bytes a PGN file may hold that are not the text it means: Latin-1 letters and a
/// no-break space, NUL, a C1 control, lone UTF-8 continuation bytes, overlong and
/// truncated forms, an encoded surrogate, bytes never in UTF-8, a CR alone.
const RAW: [&[u8]; 17] = [
    b"\xe9",
    b"\xfc",
    b"\xa0",
    b"\x85",
    b"\x9b",
    b"\0",
    b"\x80",
    b"\xbf",
    b"\xc0\x80",
    b"\xc1\xbf",
    b"\xe0\x80\x80",
    b"\xf0\x80\x80\x80",
    b"\xe2\x82",
    b"\xed\xa0\x80",
    b"\xff",
    b"\r",
    b"\r\r",
];

/// `good` with one to three raw edits: a [`RAW`] piece put in or written over a byte,
/// or every line end made a CR alone (as old Macintosh files end them).
fn mutate_bytes(rng: &mut StdRng, good: &[u8]) -> Vec<u8> {
    let mut bytes = good.to_vec();
    for _ in 0..rng.random_range(1..=3) {
        let piece = RAW[rng.random_range(0..RAW.len())];
        let i = rng.random_range(0..=bytes.len());
        match rng.random_range(0..5) {
            0 if i < bytes.len() => {
                bytes.splice(i..i + 1, piece.iter().copied());
            }
            1 => {
                bytes = bytes
                    .iter()
                    .map(|&b| if b == b'\n' { b'\r' } else { b })
                    .collect();
            }
            _ => {
                bytes.splice(i..i, piece.iter().copied());
            }
        }
    }
    bytes
}

/// Files of three games with raw bytes that are not UTF-8 (or are control characters)
/// anywhere: each game read or refused with its number and a line of the file, then
/// replayed or refused naming its game; never a panic.
#[test]
fn raw_bytes_in_pgn_files_cost_at_most_their_game() {
    let catalog = catalog();
    let mut rng = StdRng::seed_from_u64(7);
    let games = pgn_games(&catalog, &mut rng);
    let (mut refused, mut replayed) = (0, 0);
    for _ in 0..count() {
        let file: Vec<PgnGame> = (0..3)
            .map(|_| games[rng.random_range(0..games.len())].clone())
            .collect();
        let bytes = mutate_bytes(&mut rng, write_games(&file).as_bytes());
        let (r, p) = check_games(read_games_from_bytes(&bytes), line_count(&bytes), &catalog);
        refused += r;
        replayed += p;
    }
    assert!(
        refused > 0 && replayed > count(),
        "{refused} refused, {replayed} replayed"
    );
}

/// A game whose only fault is a byte that is not UTF-8 in a comment or a tag reads and
/// replays, in every variant, and keeps the byte's Latin-1 character.
#[test]
fn a_latin1_byte_in_a_comment_or_a_tag_costs_nothing() {
    let catalog = catalog();
    let mut rng = StdRng::seed_from_u64(8);
    for mut game in pgn_games(&catalog, &mut rng) {
        game.tree.set_comment("caf");
        game.set_tag("Annotator", "Mu");
        let text = write_games(&[game.clone(), game]);
        let bytes = text
            .replace("{ caf }", "{ caf\u{1} }")
            .replace("\"Mu\"", "\"M\u{1}\"")
            .into_bytes()
            .into_iter()
            .map(|b| match b {
                1 => 0xe9,
                b => b,
            })
            .collect::<Vec<u8>>();
        assert!(std::str::from_utf8(&bytes).is_err());
        let read = read_games_from_bytes(&bytes);
        assert_eq!(read.len(), 2);
        for game in read {
            let mut game = game.unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(game.tree.comment(), "café");
            assert_eq!(game.tag("Annotator"), Some("Mé"));
            game.replay(&catalog).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}
