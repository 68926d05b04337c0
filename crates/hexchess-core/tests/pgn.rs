//! Game files in PGN: every shipped variant's games written, read back and replayed
//! unchanged; files of many games with one bad game among them; the export format's
//! details; PGN as other programs write it.

use std::sync::Arc;

use hexchess_core::game::{Game, Step};
use hexchess_core::pgn::{
    GameTree, NodeId, PgnGame, ReadError, ReadProblem, ReplayError, read_games, write_games,
};
use hexchess_core::{Catalog, GameOutcome, Position, Termination};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn pick<T: Copy>(rng: &mut StdRng, items: &[T]) -> T {
    items[rng.random_range(0..items.len())]
}

/// Comments and annotations on a node now and then, with the characters a writer must
/// take care of (`%` and `[` at a line's start, `}` which cannot be written).
fn decorate(tree: &mut GameTree, id: NodeId, rng: &mut StdRng) {
    const WORDS: [&str; 12] = [
        "good", "%escape", "[Event", "\"x\"]", "a;b", "{brace", "close}", "wins", "12...", "1-0",
        "(", "ÿ",
    ];
    let words = |rng: &mut StdRng| {
        let n = if rng.random_bool(0.1) { 30 } else { 3 };
        (0..n)
            .map(|_| pick(rng, &WORDS))
            .collect::<Vec<_>>()
            .join(" ")
    };
    if rng.random_bool(0.15) {
        let text = words(rng);
        tree.set_comment_after(id, &text);
    }
    if rng.random_bool(0.1) {
        let text = words(rng);
        tree.set_comment_before(id, &text);
    }
    if rng.random_bool(0.15) {
        for _ in 0..rng.random_range(1..=3) {
            tree.add_nag(id, rng.random_range(1..=255));
        }
    }
}

/// A game that can make random moves (a move of two sides, a turn of more) and say
/// each as the file writes it.
trait Random: Clone {
    /// Plays a random move or turn; its text, or `None` when the game is over.
    fn random(&mut self, rng: &mut StdRng) -> Option<String>;
    fn fen(&self) -> String;
}

impl Random for Position {
    fn random(&mut self, rng: &mut StdRng) -> Option<String> {
        let moves = self.legal_moves();
        if moves.is_empty() {
            return None;
        }
        let mv = pick(rng, &moves);
        let san = self.move_to_san(mv);
        self.make_move(mv);
        Some(san)
    }

    fn fen(&self) -> String {
        self.to_fen()
    }
}

impl Random for Game {
    fn random(&mut self, rng: &mut StdRng) -> Option<String> {
        if self.end().is_some() {
            return None;
        }
        let before = self.turns().len();
        let mut texts = Vec::new();
        loop {
            let steps = self.steps();
            if steps.is_empty() {
                return None;
            }
            let step = pick(rng, &steps);
            if step != Step::Stop {
                texts.push(self.step_text(step));
            }
            self.play_unchecked(step);
            if self.turns().len() > before || self.end().is_some() {
                return Some(texts.join("&"));
            }
        }
    }

    fn fen(&self) -> String {
        self.to_fen()
    }
}

/// A line of up to `plies` random moves after `at`, with variations (another move and
/// a few after it; inside them, now and then, another level) and decorations. Returns
/// the game where the line ends.
fn random_line<G: Random>(
    tree: &mut GameTree,
    mut at: NodeId,
    mut game: G,
    plies: usize,
    nest: u32,
    rng: &mut StdRng,
) -> G {
    for _ in 0..plies {
        let before = game.clone();
        let Some(text) = game.random(rng) else {
            break;
        };
        let parent = at;
        at = tree.add_move(parent, &text);
        decorate(tree, at, rng);
        if nest > 0 && rng.random_bool(0.15) {
            let mut other = before.clone();
            if let Some(alt) = other.random(rng)
                && alt != text
            {
                let id = tree.add_move(parent, &alt);
                decorate(tree, id, rng);
                let depth = rng.random_range(0..4);
                random_line(tree, id, other, depth, nest - 1, rng);
            }
        }
    }
    game
}

fn tags(game: &mut PgnGame, variant: &str) {
    game.set_tag("Annotator", "the tests");
    game.set_tag("White", "A \"quoted\" name \\ with a backslash");
    game.set_tag("Variant", variant);
    game.set_tag("Event", "Round trip");
}

/// Writes, reads back and replays `game` (replayed once already): the same tags and
/// tree, the same end, and the same bytes when written again.
fn round_trip(game: &PgnGame, end_fen: &str, catalog: &Catalog) {
    let text = game.to_string();
    // Tag lines are as long as their values; the moves wrap.
    for line in text.lines().filter(|l| !l.starts_with('[')) {
        assert!(line.chars().count() < 80, "{line}");
    }
    let mut read = read_games(&text);
    assert_eq!(read.len(), 1, "{text}");
    let mut back = read.remove(0).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let replayed = back
        .replay(catalog)
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(back.export_tags(), game.export_tags());
    assert!(back.tree == game.tree, "{text}\n----\n{back}");
    assert_eq!(replayed.to_fen(), end_fen, "{text}");
    assert_eq!(back.to_string(), text);
}

#[test]
fn every_shipped_variant_round_trips_with_variations_comments_and_nags() {
    let catalog = Catalog::builtin();
    let mut rng = StdRng::seed_from_u64(17);
    for entry in catalog.entries() {
        let Some(rules) = entry.two_player_rules() else {
            continue;
        };
        for from_fen in [false, true] {
            let mut start = Position::start(Arc::clone(&rules));
            let mut game = PgnGame::new();
            tags(&mut game, entry.id());
            if from_fen {
                // A set-up start, Black to move: the file opens with `N...`.
                for _ in 0..rng.random_range(1..4) * 2 + 1 {
                    start.random(&mut rng);
                }
                let fen = start.to_fen();
                game.set_tag("FEN", fen.as_str());
                start = Position::from_fen(Arc::clone(&rules), &fen).unwrap();
            }
            if rng.random_bool(0.5) {
                game.tree.set_comment("The game's own comment");
            }
            let root = game.tree.root();
            let end = random_line(&mut game.tree, root, start, 70, 2, &mut rng);
            let made = game.clone();
            game.replay(&catalog)
                .unwrap_or_else(|e| panic!("{}: {e}\n{game}", entry.id()));
            assert!(game.tree == made.tree, "a replay of SAN changes nothing");
            assert!(game.tree.moves().len() > 20, "{}", entry.id());
            round_trip(&game, &end.to_fen(), &catalog);
        }
    }
}

#[test]
fn games_of_more_sides_round_trip_turn_by_turn() {
    let catalog = Catalog::builtin();
    let more: Vec<_> = catalog
        .entries()
        .iter()
        .filter(|e| e.side_count() > 2)
        .collect();
    assert_eq!(more.len(), 2);
    let mut rng = StdRng::seed_from_u64(5);
    for entry in more {
        for from_fen in [false, true] {
            let mut start = Game::new(Arc::clone(entry.rules()));
            let mut game = PgnGame::new();
            tags(&mut game, entry.id());
            if from_fen {
                for _ in 0..rng.random_range(1..=5) {
                    start.random(&mut rng);
                }
                let fen = start.to_fen();
                game.set_tag("FEN", fen.as_str());
                start = Game::from_fen(Arc::clone(entry.rules()), &fen).unwrap();
            }
            let root = game.tree.root();
            let end = random_line(&mut game.tree, root, start, 30, 2, &mut rng);
            let made = game.clone();
            game.replay(&catalog)
                .unwrap_or_else(|e| panic!("{}: {e}\n{game}", entry.id()));
            assert!(game.tree == made.tree);
            round_trip(&game, &end.fen(), &catalog);
        }
    }
}

/// The movetext of a written game: what follows the blank line after the tags.
fn movetext(game: &PgnGame) -> String {
    let text = game.to_string();
    text.split_once("\n\n").unwrap().1.trim_end().to_string()
}

#[test]
fn a_round_of_more_sides_is_under_one_number() {
    let catalog = Catalog::builtin();
    let entry = catalog.get("hexachess-3").unwrap();
    let mut rng = StdRng::seed_from_u64(1);
    let mut g = Game::new(Arc::clone(entry.rules()));
    let mut game = PgnGame::new();
    game.set_tag("Variant", "hexachess-3");
    let mut at = game.tree.root();
    let mut turns = Vec::new();
    let mut second = None;
    for i in 0..4 {
        let before = g.clone();
        let t = g.random(&mut rng).unwrap();
        at = game.tree.add_move(at, &t);
        if i == 1 {
            // Another turn for Black's first: a variation that starts mid-round.
            let mut other = before;
            let alt = std::iter::repeat_with(|| {
                let mut o = other.clone();
                o.random(&mut rng).unwrap()
            })
            .find(|alt| *alt != t)
            .unwrap();
            other.play_turn(&alt).unwrap();
            let parent = game.tree.parent(at).unwrap();
            let v = game.tree.add_move(parent, &alt);
            let red = other.random(&mut rng).unwrap();
            game.tree.add_move(v, &red);
            second = Some((alt, red));
        }
        turns.push(t);
    }
    game.replay(&catalog).unwrap();
    let (alt, red) = second.unwrap();
    let [a, b, c, d] = &turns[..] else {
        unreachable!()
    };
    let expected = format!("1. {a} {b} ( 1... {alt} {red} ) 1... {c} 2. {d} *");
    assert_eq!(movetext(&game), expected);
    // Read without a replay, the numbers are not known yet; the replay finds them.
    let mut back = read_games(&game.to_string()).remove(0).unwrap();
    back.replay(&catalog).unwrap();
    assert_eq!(movetext(&back), expected);
}

/// Three games; game 2's body (lines 9 and 10) is given by the case.
fn three_games(body: &str) -> String {
    format!(
        "[Event \"one\"]\n\
         [Variant \"glinski\"]\n\
         \n\
         1. f6 c5 2. Ni3 *\n\
         \n\
         [Event \"two\"]\n\
         [Variant \"glinski\"]\n\
         \n\
         {body}\n\
         \n\
         [Event \"three\"]\n\
         \n\
         1. f6 {{fine}} *\n"
    )
}

#[test]
fn a_bad_game_among_three_costs_only_itself() {
    let catalog = Catalog::builtin();
    // (game 2's lines 9-10, the read error's line, column and problem)
    let cases = [
        (
            "1. f6 c5\n2. {never closed Nc6 *",
            10,
            4,
            ReadProblem::UnclosedComment,
        ),
        (
            "1. f6 c5\n2. Ni3 ( 2. e5 *",
            10,
            8,
            ReadProblem::UnclosedVariation,
        ),
    ];
    for (body, line, column, problem) in cases {
        let text = three_games(body);
        let games = read_games(&text);
        assert_eq!(games.len(), 3, "{text}");
        assert_eq!(
            games[1],
            Err(ReadError {
                game: 2,
                line,
                column,
                problem
            }),
            "{text}"
        );
        assert_eq!(games[0].as_ref().unwrap().tag("Event"), Some("one"));
        let third = games[2].as_ref().unwrap();
        assert_eq!(third.tag("Event"), Some("three"));
        assert_eq!(third.line, 12);
        assert_eq!(third.number, 3);
        assert_eq!(
            third
                .tree
                .get(third.tree.main_line()[0])
                .unwrap()
                .comment_after(),
            "fine"
        );
    }

    // A bad tag: line 7 of the file.
    let text = three_games("1. f6 c5\n2. Ni3 *").replace(
        "[Variant \"glinski\"]\n\n1. f6 c5\n2.",
        "[Variant glinski]\n\n1. f6 c5\n2.",
    );
    let games = read_games(&text);
    assert_eq!(games.len(), 3);
    let e = games[1].as_ref().unwrap_err();
    assert_eq!((e.game, e.line, e.column), (2, 7, 1), "{e}");
    assert!(matches!(e.problem, ReadProblem::BadTag(_)));
    assert!(games[0].is_ok() && games[2].is_ok());

    // An illegal move reads, and its replay names game 2, line 10, column 4.
    let text = three_games("1. f6 c5\n2. f5f9 Nc6 *");
    let mut games: Vec<PgnGame> = read_games(&text).into_iter().map(Result::unwrap).collect();
    assert_eq!(games.len(), 3);
    let err = games[1].replay(&catalog).unwrap_err();
    assert_eq!(
        err,
        ReplayError::BadMove {
            game: 2,
            line: 10,
            column: 4,
            ply: 3,
            text: "f5f9".into(),
            reason: "'f5f9' is not a legal move here".into()
        }
    );
    assert!(
        err.to_string()
            .starts_with("game 2, line 10, column 4: move 'f5f9'"),
        "{err}"
    );
    assert!(games[0].replay(&catalog).is_ok() && games[2].replay(&catalog).is_ok());
}

#[test]
fn many_games_read_as_many_in_order() {
    let catalog = Catalog::builtin();
    let games: Vec<PgnGame> = (1..=5)
        .map(|i| {
            let mut g = PgnGame::new();
            g.set_tag("Event", format!("game {i}"));
            let root = g.tree.root();
            let mut rng = StdRng::seed_from_u64(i);
            let pos = Position::start(catalog.get("glinski").unwrap().two_player_rules().unwrap());
            random_line(&mut g.tree, root, pos, 10 * i as usize, 1, &mut rng);
            g.replay(&catalog).unwrap();
            g
        })
        .collect();
    let text = write_games(&games);
    let back: Vec<PgnGame> = read_games(&text).into_iter().map(Result::unwrap).collect();
    assert_eq!(back.len(), 5);
    for (i, (a, b)) in games.iter().zip(&back).enumerate() {
        assert_eq!(b.number, i + 1);
        assert_eq!(b.tag("Event"), Some(format!("game {}", i + 1).as_str()));
        assert_eq!(a, b);
        assert_eq!(
            text.lines().nth(b.line - 1),
            Some(
                "[Event \"game {}\"]"
                    .replace("{}", &(i + 1).to_string())
                    .as_str()
            )
        );
    }
    // Each game's main line alone, as a program keeps it.
    for g in &games {
        let main: Vec<&str> = g
            .tree
            .main_line()
            .iter()
            .map(|id| g.tree.san(*id))
            .collect();
        assert_eq!(g.main_line_only().main_line_turns(), main);
        g.replay_main_line(&catalog).unwrap();
    }
}

#[test]
fn the_export_format_in_detail() {
    let catalog = Catalog::builtin();
    let rules = catalog.get("glinski").unwrap().two_player_rules().unwrap();
    let start = Position::start(Arc::clone(&rules))
        .to_fen()
        .replace(" 1", " 12");
    let mut game = PgnGame::new();
    game.set_tag("Annotator", "me");
    game.set_tag("Black", "B");
    game.set_tag("FEN", start.as_str());
    game.set_tag("SetUp", "0");
    game.set_tag("White", "W \"x\" \\ y");
    let t = &mut game.tree;
    let f6 = t.add_move(t.root(), "f5f6");
    t.set_comment_after(f6, "a comment");
    let c5 = t.add_move(f6, "c5");
    let ni3 = t.add_move(c5, "Ni3");
    t.add_move(c5, "e4e5");
    let nc6 = t.add_move(ni3, "Nc6");
    t.add_nag(nc6, 1);
    t.add_nag(nc6, 146);
    game.replay(&catalog).unwrap();
    let text = game.to_string();
    let expected = format!(
        "[Event \"?\"]\n\
         [Site \"?\"]\n\
         [Date \"????.??.??\"]\n\
         [Round \"?\"]\n\
         [White \"W \\\"x\\\" \\\\ y\"]\n\
         [Black \"B\"]\n\
         [Result \"*\"]\n\
         [Variant \"glinski\"]\n\
         [SetUp \"1\"]\n\
         [FEN \"{start}\"]\n\
         [Annotator \"me\"]\n\
         \n\
         12. f6 {{ a comment }} 12... c5 13. Ni3 ( 13. e5 ) 13... Nc6 $1 $146 *\n"
    );
    assert_eq!(text, expected);
    let back = read_games(&text).remove(0).unwrap();
    assert_eq!(back.tag("White"), Some("W \"x\" \\ y"));

    // Long games wrap greedily: every line as full as the next token allows.
    let mut rng = StdRng::seed_from_u64(3);
    let mut long = PgnGame::new();
    let root = long.tree.root();
    random_line(
        &mut long.tree,
        root,
        Position::start(rules),
        150,
        2,
        &mut rng,
    );
    long.replay(&catalog).unwrap();
    let text = long.to_string();
    let body: Vec<&str> = text.split_once("\n\n").unwrap().1.lines().collect();
    assert!(body.len() > 10);
    for pair in body.windows(2) {
        let next = pair[1].split_whitespace().next().unwrap();
        assert!(pair[0].chars().count() < 80, "{}", pair[0]);
        assert!(
            pair[0].chars().count() + 1 + next.chars().count() >= 80,
            "{}\n{}",
            pair[0],
            pair[1]
        );
    }
}

#[test]
fn pgn_as_other_programs_write_it() {
    let text = "\u{feff}[Event \"Casual game\"]\r\n\
        [Site \"Łódź\"]\n\
        [Date \"1936.??.??\"]\n\
        [Round \"-\"]\n\
        [White \"Gliński\"]\n\
        [Black \"Someone\"]\n\
        [Result \"1-0\"]\n\
        [Termination \"normal\"]\n\
        \n\
        % an escape line, ignored: 1. e4\n\
        ; a comment line before the moves\n\
        1.f6 $1 c5!? 2.Ni3 ; rest of the line\n\
        2...Nc6 (2...Nb6?! {nested:} (2...d5 3.e5) 3.e5) 3.Qe3 $14 {a\n\
        comment on two lines} 1-0\n";
    let mut games = read_games(text);
    assert_eq!(games.len(), 1);
    let mut game = games.remove(0).unwrap();
    assert_eq!(game.tag("Site"), Some("Łódź"));
    assert_eq!(game.tag("Termination"), Some("normal"));
    assert_eq!(game.tags.len(), 8);
    game.replay(&Catalog::builtin()).unwrap();
    let t = &game.tree;
    let main = t.main_line();
    let sans: Vec<&str> = main.iter().map(|id| t.san(*id)).collect();
    assert_eq!(sans, ["f6", "c5", "Ni3", "Nc6", "Qe3"]);
    let node = |id: NodeId| t.get(id).unwrap();
    assert_eq!(t.comment(), "a comment line before the moves");
    assert_eq!(node(main[0]).nags(), [1]);
    assert_eq!(node(main[1]).nags(), [5]);
    assert_eq!(node(main[2]).comment_after(), "rest of the line");
    assert_eq!(node(main[4]).nags(), [14]);
    assert_eq!(node(main[4]).comment_after(), "a comment on two lines");
    // 2...Nb6?! is a variation of Nc6, and 2...d5, inside it, another: an alternative
    // to Nb6, so a third continuation of Ni3.
    let [nc6, nb6, d5] = t.children(main[2]) else {
        panic!("three continuations of Ni3")
    };
    assert_eq!(*nc6, main[3]);
    assert_eq!((t.san(*nb6), t.san(*d5)), ("Nb6", "d5"));
    assert_eq!(node(*nb6).nags(), [6]);
    assert_eq!(node(*nb6).comment_after(), "nested:");
    assert_eq!(t.san(t.children(*nb6)[0]), "e5");
    assert_eq!(t.san(t.children(*d5)[0]), "e5");
    let written = game.to_string();
    let body = movetext(&game);
    let tokens: Vec<&str> = body.split_whitespace().collect();
    assert_eq!(
        tokens.join(" "),
        "{ a comment line before the moves } 1. f6 $1 c5 $5 2. Ni3 { rest of the line } 2... Nc6 ( 2... Nb6 $6 { nested: } \
         3. e5 ) ( 2... d5 3. e5 ) 3. Qe3 $14 { a comment on two lines } 1-0",
        "{written}"
    );
}

#[test]
fn promote_and_delete_change_what_is_written() {
    let catalog = Catalog::builtin();
    let mut game = read_games("1. f6 c5 (1... d5 2. e5) 2. Ni3 *")
        .remove(0)
        .unwrap();
    game.replay(&catalog).unwrap();
    let t = &mut game.tree;
    let d5 = t.children(t.main_line()[0])[1];
    assert!(t.promote_variation(t.children(d5)[0]));
    assert_eq!(movetext(&game), "1. f6 d5 ( 1... c5 2. Ni3 ) 2. e5 *");
    let t = &mut game.tree;
    let c5 = t.children(t.main_line()[0])[1];
    let path: Vec<String> = t
        .path_to(t.children(c5)[0])
        .iter()
        .map(|id| t.san(*id).to_string())
        .collect();
    assert_eq!(path, ["f6", "c5", "Ni3"]);
    assert!(t.delete(c5));
    assert_eq!(movetext(&game), "1. f6 d5 2. e5 *");
    let t = &mut game.tree;
    let e5 = t.main_line()[2];
    t.delete(e5);
    let f6 = t.main_line()[0];
    assert_eq!(t.add_move(f6, "d5"), t.main_line()[1]);
    assert_eq!(movetext(&game), "1. f6 d5 *");
}

#[test]
fn how_a_game_ended_in_the_standards_words() {
    let catalog = Catalog::builtin();
    let fen = "6/7/P6p/RP5pr/QNP4pnq/BBBP3pbbb/KNP2n1p1k/RP5pr/P6p/7/6 b - 0 1";
    let mut game = PgnGame::from_turns(
        vec![
            ("Variant".into(), "mccooey".into()),
            ("FEN".into(), fen.into()),
        ],
        &["g6f4".to_string()],
    );
    let end = game.replay(&catalog).unwrap();
    game.set_outcome(end.end().expect("mate"));
    assert_eq!(game.tag("Termination"), Some("normal"));
    assert!(
        movetext(&game).ends_with("1... Nxf4# { Black wins by checkmate } 0-1"),
        "{game}"
    );

    let mut game = PgnGame::new();
    let root = game.tree.root();
    game.tree.add_move(root, "f6");
    game.set_outcome(&GameOutcome::win(
        hexchess_core::Side::Black,
        Termination::Time,
    ));
    game.set_outcome(&GameOutcome::win(
        hexchess_core::Side::Black,
        Termination::Time,
    ));
    assert_eq!(game.tag("Termination"), Some("time forfeit"));
    assert_eq!(movetext(&game), "1. f6 { Black wins by time } 0-1");
}
