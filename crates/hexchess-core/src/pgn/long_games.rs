//! Long games, made up move by move, to show what replaying them costs: twice the plies
//! must cost twice the work (counted by [`crate::work`], not timed), and a game that
//! plays on after the rules ended it must be refused at once, however long it is.

use std::collections::HashSet;
use std::sync::Arc;

use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;

use super::{PgnGame, ReplayError, read_games};
use crate::catalog::Catalog;
use crate::game::{Game, Step};
use crate::moves::Move;
use crate::position::Position;
use crate::work;

/// Whether `mv` resets the move rule: a capture or a pawn move.
fn resets<B: crate::bitboard::CellSet>(pos: &Position<B>, mv: Move) -> bool {
    let pawn = pos.rules().pawn_kind();
    pos.is_capture(mv) || pos.piece_at(mv.from()).map(|p| p.kind) == pawn
}

/// A legal game of Gliński's chess of up to `plies` plies that the rules never end:
/// quiet moves (no capture, no pawn) to positions not seen since the last capture or
/// pawn move, so that no position comes three times, and a capture or a pawn move when
/// the 100th quiet ply comes near or no quiet move leads anywhere new. Moves in SAN.
pub(crate) fn long_game(plies: usize, seed: u64) -> Vec<String> {
    let catalog = Catalog::builtin();
    let mut pos = Position::start(catalog.get("glinski").unwrap().two_player_rules().unwrap());
    let mut rng = StdRng::seed_from_u64(seed);
    let mut seen = HashSet::from([pos.hash()]);
    let mut out = Vec::new();
    while out.len() < plies {
        let Some(mv) = next_move(&pos, &seen, &mut rng) else {
            break;
        };
        out.push(pos.move_to_san(mv));
        pos.make_move(mv);
        if pos.halfmove_clock() == 0 {
            seen.clear();
        }
        seen.insert(pos.hash());
    }
    out
}

/// A quiet move to a position not in `seen` while the move rule is far, else a capture
/// or pawn move; never one after which the game is over.
fn next_move(pos: &Position, seen: &HashSet<u64>, rng: &mut StdRng) -> Option<Move> {
    let after = |mv: Move| {
        let mut p = pos.without_history();
        p.make_move(mv);
        p
    };
    let mut moves: Vec<Move> = pos.legal_moves().into_iter().collect();
    moves.shuffle(rng);
    let quiet = moves
        .iter()
        .copied()
        .filter(|m| !resets(pos, *m) && !seen.contains(&after(*m).hash()));
    // Pawn moves before captures: captures take the game towards its end.
    let resetting = moves
        .iter()
        .copied()
        .filter(|m| resets(pos, *m) && !pos.is_capture(*m))
        .chain(moves.iter().copied().filter(|m| pos.is_capture(*m)));
    let mut candidates: Vec<Move> = if pos.halfmove_clock() < 96 {
        quiet.chain(resetting).collect()
    } else {
        resetting.collect()
    };
    candidates.retain(|m| after(*m).outcome().is_none());
    candidates.first().copied()
}

/// A legal game of `variant` (of more sides) of up to `turns` turns that its rules do
/// not end, made as [`long_game`] makes one: quiet steps to states not seen since the
/// last capture or pawn move, a capture or pawn move when the move rule comes near.
/// Turns written as the file writes them (steps joined by `&`).
pub(crate) fn long_game_of_more(variant: &str, turns: usize, seed: u64) -> Vec<String> {
    let catalog = Catalog::builtin();
    let rules = Arc::clone(catalog.get(variant).unwrap().rules());
    let mut game = Game::new(rules);
    let mut rng = StdRng::seed_from_u64(seed);
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    while out.len() < turns && game.end().is_none() {
        let before = game.turns().len();
        let mut texts = Vec::new();
        while game.turns().len() == before {
            let Some(step) = next_step(&game, &seen, &mut rng) else {
                return out;
            };
            if step != Step::Stop {
                texts.push(game.step_text(step));
            }
            game.play_unchecked(step);
        }
        out.push(texts.join("&"));
        if game.position().halfmove_clock() == 0 {
            seen.clear();
        }
        seen.insert(game.position().hash());
    }
    out
}

/// A step as [`next_move`] picks a move: quiet and new while the move rule is far,
/// else one that resets it; never one after which the game is over. Tried one by one
/// (playing a step of a game of more sides is costly).
fn next_step(game: &Game, seen: &HashSet<u64>, rng: &mut StdRng) -> Option<Step> {
    let pos = game.position();
    let live = game.sides_in().len() as u16;
    let resetting = |s: &Step| match s {
        Step::Play(mv) => mv.is_edit() || resets(pos, *mv),
        Step::Stop => false,
    };
    let mut steps = game.steps();
    steps.shuffle(rng);
    let near = pos.halfmove_clock() + 10 >= 50 * live;
    let (quiet, loud): (Vec<Step>, Vec<Step>) = steps.into_iter().partition(|s| !resetting(s));
    let quiet = quiet.into_iter().filter(|_| !near).map(|s| (s, true));
    quiet
        .chain(loud.into_iter().map(|s| (s, false)))
        .find_map(|(s, must_be_new)| {
            let mut after = game.lean();
            after.play_unchecked(s);
            let new = !seen.contains(&after.position().hash());
            (after.end().is_none() && (new || !must_be_new)).then_some(s)
        })
}

/// Movetext of `moves`, numbered as two sides number them.
fn movetext(moves: &[String]) -> String {
    let mut text = String::new();
    for (i, m) in moves.iter().enumerate() {
        if i % 2 == 0 {
            text.push_str(&format!("{}. ", i / 2 + 1));
        }
        text.push_str(m);
        text.push(if i % 10 == 9 { '\n' } else { ' ' });
    }
    text
}

/// The work of reading and replaying the game of `tags` and `moves` (turns written as
/// they are, one after the other: the reader numbers nothing).
fn replay_work(tags: &str, moves: &str) -> u64 {
    let text = format!("{tags}\n\n{moves} *\n");
    let mut game: PgnGame = read_games(&text).remove(0).unwrap();
    let catalog = Catalog::builtin();
    work::take();
    game.replay(&catalog).unwrap_or_else(|e| panic!("{e}"));
    work::take()
}

/// Twice the plies, at most a little over twice the work (`limit` in tenths: 25 is
/// 2.5 times); a cost that grows with the square of the length gives four times.
fn assert_linear(half: u64, whole: u64, what: &str) {
    assert!(
        whole * 10 <= half * 25,
        "{what}: {half} units of work for half the game, {whole} for all of it"
    );
}

/// Each move of a long game costs what it costs, not the length of the game before
/// it: no copy of the history per move (to write a move in SAN, to try a turn), no
/// look back through the whole history for repetitions.
#[test]
fn replaying_twice_the_plies_is_twice_the_work() {
    let moves = long_game(3000, 1);
    assert!(moves.len() >= 2000, "only {} plies", moves.len());
    let tags = "[Variant \"glinski\"]";
    let half = replay_work(tags, &movetext(&moves[..moves.len() / 2]));
    let whole = replay_work(tags, &movetext(&moves));
    assert_linear(half, whole, "two sides");

    // The main line alone replays move by move the same way.
    let record = read_games(&format!("{tags}\n\n{} *\n", movetext(&moves)))
        .remove(0)
        .unwrap();
    let half_record = PgnGame::from_turns(record.tags.clone(), &moves[..moves.len() / 2]);
    work::take();
    half_record.replay_main_line(&Catalog::builtin()).unwrap();
    let half = work::take();
    record.replay_main_line(&Catalog::builtin()).unwrap();
    assert_linear(half, work::take(), "a main line");
}

#[test]
fn replaying_twice_the_turns_of_more_sides_is_twice_the_work() {
    for variant in ["hexachess-3", "hexachess-4"] {
        let turns = long_game_of_more(variant, 1200, 2);
        assert!(turns.len() >= 600, "{variant}: only {} turns", turns.len());
        let tags = format!("[Variant \"{variant}\"]");
        let half = replay_work(&tags, &turns[..turns.len() / 2].join(" "));
        let whole = replay_work(&tags, &turns.join(" "));
        assert_linear(half, whole, variant);
    }
}

/// Knights out and back, 100,000 plies: the third time the start position comes, the
/// game is drawn, and the ninth ply is refused with the rule that ended it, at once.
#[test]
fn a_hundred_thousand_ply_shuffle_is_refused_at_its_repetition() {
    let catalog = Catalog::builtin();
    let shuffle = knights_out_and_back(&catalog);
    let moves: Vec<String> = (0..100_000).map(|i| shuffle[i % 4].clone()).collect();
    let text = format!("[Event \"shuffle\"]\n\n{} 1/2-1/2\n", movetext(&moves));
    let started = std::time::Instant::now();
    let mut game = read_games(&text).remove(0).unwrap();
    let e = game.replay(&catalog).unwrap_err();
    assert!(
        matches!(&e, ReplayError::AfterEnd { game: 1, line: 3, ply: 9, text, .. } if *text == shuffle[0]),
        "{e:?}"
    );
    let message = e.to_string();
    assert!(message.starts_with("game 1, line 3, column "), "{message}");
    assert!(
        message.ends_with(&format!(
            ": move '{}' (ply 9) comes after the end of the game: Draw by repetition",
            shuffle[0]
        )),
        "{message}"
    );
    let e = read_games(&text)
        .remove(0)
        .unwrap()
        .replay_main_line(&catalog)
        .unwrap_err();
    assert!(matches!(&e, ReplayError::AfterEnd { ply: 9, .. }), "{e:?}");
    // A bound to catch a hang only: the refusal takes milliseconds.
    assert!(started.elapsed().as_secs() < 10, "{:?}", started.elapsed());
}

/// A white knight's move, a black knight's, and both back: four plies from the start
/// back to it, in SAN.
fn knights_out_and_back(catalog: &Catalog) -> [String; 4] {
    let start = Position::start(catalog.get("glinski").unwrap().two_player_rules().unwrap());
    let knight = |pos: &Position, mv: Move| {
        pos.piece_at(mv.from())
            .is_some_and(|p| pos.rules().kind_info(p.kind).letter == 'N')
    };
    let back = |mv: Move| Move::new(mv.to(), mv.from());
    for out in start.legal_moves() {
        let mut pos = start.clone();
        if !knight(&pos, out) {
            continue;
        }
        let white_out = pos.move_to_san(out);
        pos.make_move(out);
        let Some(reply) = pos.legal_moves().into_iter().find(|m| knight(&pos, *m)) else {
            continue;
        };
        let black_out = pos.move_to_san(reply);
        pos.make_move(reply);
        if !pos.is_legal(back(out)) {
            continue;
        }
        let white_back = pos.move_to_san(back(out));
        pos.make_move(back(out));
        if pos.is_legal(back(reply)) {
            let black_back = pos.move_to_san(back(reply));
            return [white_out, black_out, white_back, black_back];
        }
    }
    panic!("no knight goes out and back");
}
