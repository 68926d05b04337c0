//! PGN as it comes: bytes that are not all UTF-8 (PGN's own character set is Latin-1),
//! old line ends, control characters; every error naming its game, line and column.

mod common;

use std::sync::Arc;

use common::{place, place_with};
use hexchess_core::game::{Game, Step};
use hexchess_core::pgn::{self, PgnGame, ReadError, ReadProblem, ReplayError};
use hexchess_core::{Catalog, Position};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn comment_after_first_move(game: &PgnGame) -> &str {
    let first = game.tree.main_line()[0];
    game.tree.get(first).unwrap().comment_after()
}

/// Two games in Latin-1: names in the tags, a comment, and in game 2 a word where a
/// move should be.
const LATIN1: &[u8] =
    b"[Event \"Caf\xe9\"]\n[White \"M\xfcller\"]\n\n1. f6 {tr\xe8s bien} c5 *\n\n\
[Event \"two\"]\n\n1. f6 \xe9t\xe9 *\n";

/// One byte that is not UTF-8 made the whole file unreadable, with no game number or
/// line: now it reads as its Latin-1 character, and what is still wrong is located.
#[test]
fn a_latin1_byte_reads_as_its_character_and_costs_nothing() {
    let catalog = Catalog::builtin();
    let mut games = pgn::read_games_from_bytes(LATIN1);
    assert_eq!(games.len(), 2);
    let first = games[0].as_mut().unwrap();
    assert_eq!(first.tag("Event"), Some("Café"));
    assert_eq!(first.tag("White"), Some("Müller"));
    assert_eq!(comment_after_first_move(first), "très bien");
    first.replay(&catalog).unwrap();
    // The written game is UTF-8 and reads back the same.
    let written = first.to_string();
    assert!(written.contains("{ très bien }"), "{written}");
    let mut second = games.remove(1).unwrap();
    let e = second.replay(&catalog).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("game 2, line 8, column 7: move 'été'"),
        "{e}"
    );

    // A file of UTF-8 with one stray byte keeps both.
    let mixed = "[Event \"Café\"]\n\n1. f6 {caf\u{e9} ".as_bytes().to_vec();
    let mixed = [mixed, b"and caf\xe9} *\n".to_vec()].concat();
    let games = pgn::read_games_from_bytes(&mixed);
    let game = games[0].as_ref().unwrap();
    assert_eq!(game.tag("Event"), Some("Café"));
    assert_eq!(comment_after_first_move(game), "café and café");
}

/// Records read from bytes and files go the same way.
#[test]
fn a_record_with_a_latin1_byte_reads_and_replays() {
    let catalog = Catalog::builtin();
    let all = pgn::read_games_from_bytes(LATIN1);
    assert_eq!(all.len(), 2);
    let first = all[0].as_ref().unwrap();
    assert_eq!(first.tag("White"), Some("Müller"));
    first.replay_main_line(&catalog).unwrap();
    let e = all[1]
        .as_ref()
        .unwrap()
        .replay_main_line(&catalog)
        .unwrap_err();
    assert!(
        e.to_string()
            .starts_with("game 2, line 8, column 7: move 'été' (ply 2)"),
        "{e}"
    );
}

/// A CR alone ended lines on old Macintoshes: it ends a line here too, so that errors
/// name the line an editor shows.
#[test]
fn a_cr_alone_ends_a_line() {
    let text = "[Event \"a\"]\r[Variant \"glinski\"]\r\r1. f6 ( c5 *\r";
    let games = pgn::read_games(text);
    assert_eq!(
        games,
        [Err(ReadError {
            game: 1,
            line: 4,
            column: 7,
            problem: ReadProblem::UnclosedVariation
        })]
    );
    // A `;` comment ends at the line's end, not at the end of the file.
    let text = "[Event \"a\"]\r\r1. f6 ; a comment\rc5 *\r";
    let games = pgn::read_games(text);
    let game = games[0].as_ref().unwrap();
    assert_eq!(game.tree.main_line().len(), 2, "{game:?}");
}

/// A control character among the moves (NUL, a C1 control read from a Latin-1 byte) is
/// refused where it is, and written so that the message can be read.
#[test]
fn a_control_character_among_the_moves_is_refused_where_it_is() {
    for (bytes, c) in [
        (&b"[Event \"a\"]\n\n1. f6 \x00 c5 *\n"[..], '\0'),
        (&b"[Event \"a\"]\n\n1. f6\x85c5 \x9b *\n"[..], '\u{9b}'),
    ] {
        let games = pgn::read_games_from_bytes(bytes);
        let e = games[0].as_ref().unwrap_err();
        assert_eq!((e.game, e.line), (1, 3), "{e}");
        assert_eq!(e.problem, ReadProblem::Unexpected(c), "{e}");
        assert!(!e.to_string().chars().any(char::is_control), "{e:?}");
    }
}

/// Errors that name no game before: an unknown variant names the game and its line.
#[test]
fn an_unknown_variant_names_the_game_and_its_line() {
    let catalog = Catalog::builtin();
    let text = "[Event \"a\"]\n\n1. f6 *\n\n[Event \"b\"]\n[Variant \"nope\"]\n\n1. f6 *\n";
    let mut games = pgn::read_games(text);
    let e = games[1].as_mut().unwrap().replay(&catalog).unwrap_err();
    assert!(
        matches!(
            e,
            ReplayError::UnknownVariant {
                game: 2,
                line: 5,
                ..
            }
        ),
        "{e:?}"
    );
    assert_eq!(e.to_string(), "game 2, line 5: unknown variant 'nope'");
    let records = pgn::read_games(text);
    let e = records[1]
        .as_ref()
        .unwrap()
        .replay_main_line(&catalog)
        .unwrap_err();
    assert!(
        matches!(
            e,
            ReplayError::UnknownVariant {
                game: 2,
                line: 5,
                ..
            }
        ),
        "{e:?}"
    );
    assert_eq!(e.to_string(), "game 2, line 5: unknown variant 'nope'");
}

/// The move refused after the end of the game in `text`: its ply, its text and how the
/// game had ended, in words. The main line alone is refused the same way.
fn after_end(text: &str) -> (usize, String, String) {
    let catalog = Catalog::builtin();
    let mut game = pgn::read_games(text).remove(0).unwrap();
    let e = game.replay(&catalog).unwrap_err();
    let ReplayError::AfterEnd {
        game: 1,
        ply,
        text: refused,
        ended,
        ..
    } = &e
    else {
        panic!("{e:?}\n{text}");
    };
    let message = e.to_string();
    assert!(message.starts_with("game 1, line "), "{message}");
    assert!(
        message.ends_with(&format!(": {}", ended.description())),
        "{message}"
    );
    if ended.side_count() == 2 {
        let main_line = pgn::read_games(text)
            .remove(0)
            .unwrap()
            .replay_main_line(&catalog)
            .unwrap_err();
        assert_eq!(main_line, e, "{text}");
    }
    (*ply, refused.clone(), ended.description())
}

/// A game from `pos` (its FEN in the tags) with `moves`.
fn from(pos: &Position, moves: &str) -> String {
    format!(
        "[Variant \"{}\"]\n[FEN \"{}\"]\n\n{moves} *\n",
        pos.rules().id(),
        pos.to_fen()
    )
}

/// The project's rules end a game by themselves (checkmate, stalemate, the third
/// repetition, the 100th quiet ply, bare kings): a move after that is refused, with the
/// rule, in the main line and in a variation alike. It used to be played on.
#[test]
fn moves_after_the_end_are_refused_naming_the_rule() {
    // Checkmate: the mate, then a move of the mated side.
    let p = place("glinski", 'w', &[('k', "f11"), ('K', "d8"), ('Q', "h8")]);
    let mate = p
        .legal_moves()
        .into_iter()
        .map(|m| p.move_to_san(m))
        .find(|san| san.ends_with('#'))
        .unwrap();
    let text = from(&p, &format!("1. {mate} Ke10"));
    let refused = after_end(&text);
    assert_eq!(
        refused,
        (2, "Ke10".into(), "White wins by checkmate".into())
    );

    // Stalemate from the start: the first move is refused.
    let p = place("glinski", 'b', &[('k', "f11"), ('K', "d8"), ('Q', "h8")]);
    let refused = after_end(&from(&p, "1... Ke10"));
    assert_eq!(refused.2, "White stalemated Black: 3/4-1/4");

    // The third time the start position comes, in the main line or a variation.
    let shuffle = "1. Ni3 Nc6 2. Nh1 Nd9 3. Ni3 Nc6 4. Nh1 Nd9";
    let refused = after_end(&format!("{shuffle} 5. Ni3 *"));
    assert_eq!(refused, (9, "Ni3".into(), "Draw by repetition".into()));
    let refused = after_end(&format!("{shuffle} 5. Ni3 (5. f6) *"));
    assert_eq!(refused.0, 9);
    // The example of docs/rules.md §10.2, word for word.
    let text = format!("[Event \"Shuffle\"]\n\n{shuffle} 5. Ni3 *\n");
    let e = pgn::read_games(&text)
        .remove(0)
        .unwrap()
        .replay(&Catalog::builtin())
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "game 1, line 3, column 48: move 'Ni3' (ply 9) comes after the end of the game: \
         Draw by repetition"
    );

    // The 100th ply without a capture or a pawn move.
    let p = place_with(
        "glinski",
        'w',
        "-",
        99,
        &[('K', "a1"), ('R', "c1"), ('k', "l6"), ('r', "k1")],
    );
    let refused = after_end(&from(&p, "1. Rc2 Rk2"));
    assert_eq!(refused, (2, "Rk2".into(), "Draw by 50-move rule".into()));

    // Bare kings.
    let p = place("grand", 'w', &[('K', "d1"), ('k', "d12"), ('n', "d2")]);
    let refused = after_end(&from(&p, "1. Kxd2 Kd11"));
    assert_eq!(refused.2, "Draw by insufficient material");

    // A game that ends where the rules end it replays.
    let catalog = Catalog::builtin();
    let mut game = pgn::read_games(&format!("{shuffle} 1/2-1/2"))
        .remove(0)
        .unwrap();
    game.replay(&catalog).unwrap();
}

/// A game of more sides played at random to its end: its turns as written, and how it
/// ended.
fn game_of_more_to_its_end(variant: &str, seed: u64) -> (Vec<String>, String) {
    let catalog = Catalog::builtin();
    let mut game = Game::new(Arc::clone(catalog.get(variant).unwrap().rules()));
    let mut rng = StdRng::seed_from_u64(seed);
    let mut turns = Vec::new();
    while game.end().is_none() {
        let before = game.turns().len();
        let mut texts = Vec::new();
        while game.turns().len() == before {
            let steps = game.steps();
            let step = steps[rng.random_range(0..steps.len())];
            if step != Step::Stop {
                texts.push(game.step_text(step));
            }
            game.play_unchecked(step);
        }
        turns.push(texts.join("&"));
    }
    let ended = game.end().unwrap().description();
    (turns, ended)
}

/// A game of more sides ends by its own rules; a turn after that is refused the same.
#[test]
fn turns_after_the_end_of_a_game_of_more_sides_are_refused() {
    for variant in ["hexachess-3", "hexachess-4"] {
        let (mut turns, ended) = game_of_more_to_its_end(variant, 3);
        let played = turns.len();
        turns.push(turns[played - 1].clone());
        let text = format!("[Variant \"{variant}\"]\n\n{} *\n", turns.join(" "));
        let refused = after_end(&text);
        assert_eq!((refused.0, refused.2), (played + 1, ended), "{variant}");
    }
}
