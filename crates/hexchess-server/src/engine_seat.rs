//! The built-in engine in a seat of a server game: one person alone always finds a
//! game. It thinks on a blocking thread (never on the server's network threads) and
//! answers with its turn's steps as the protocol writes them.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use hexchess_core::{Game, Rules, Step};
use hexchess_engine::multi::{MultiLimits, MultiSearcher, Strategy};
use hexchess_engine::{SearchLimits, SearchOptions, Searcher, Skill};

/// The levels a seat may be given (the game's own 20).
pub fn level(level: Option<u8>) -> Skill {
    level.and_then(Skill::new).unwrap_or(Skill::FULL)
}

/// How long a level thinks over a move (the weaker, the quicker; never more than a
/// twentieth of the time it has left, so that it never loses on time).
fn think_time(skill: Skill, time_left: Option<Duration>) -> Duration {
    let by_level = Duration::from_millis(100 + 95 * u64::from(skill.level()));
    match time_left {
        Some(left) => by_level.min(left / 20).max(Duration::from_millis(20)),
        None => by_level,
    }
}

/// The engine's turn in `game` at `skill`: its steps written as the protocol sends
/// them (a two-player move alone; a turn of more sides step by step, `--` ending it).
/// `narrow` are the variant's two-player rules, which the two-player engine searches
/// on. Empty when there is nothing to play.
pub fn think(
    game: &Game,
    narrow: Option<Arc<Rules>>,
    skill: Skill,
    time_left: Option<Duration>,
    stop: &Arc<AtomicBool>,
) -> Vec<String> {
    let steps = match narrow {
        Some(rules) if game.sides().count() == 2 => {
            two_player_move(game, rules, skill, time_left, stop)
        }
        _ => table_turn(game, skill, stop),
    };
    write_steps(game, &steps)
}

fn two_player_move(
    game: &Game,
    rules: Arc<Rules>,
    skill: Skill,
    time_left: Option<Duration>,
    stop: &Arc<AtomicBool>,
) -> Vec<Step> {
    let mut pos = game.position_on(rules);
    let mut searcher = Searcher::new(SearchOptions {
        skill,
        hash_mb: 16,
        threads: 1,
        ..SearchOptions::default()
    });
    let limits = SearchLimits {
        movetime: Some(think_time(skill, time_left)),
        ..SearchLimits::default()
    };
    let found = searcher.search(&mut pos, &limits, stop, &mut |_| {});
    // The narrow move's text is the wide game's too: both name cells alike.
    found
        .best
        .and_then(|mv| game.parse_step(&pos.move_to_lan(mv)).ok())
        .into_iter()
        .collect()
}

fn table_turn(game: &Game, skill: Skill, stop: &Arc<AtomicBool>) -> Vec<Step> {
    let seed = game.turns().len() as u64 * 7919 + game.side_to_move().index() as u64;
    let mut searcher = MultiSearcher::new(Strategy::Paranoid, seed);
    let limits = MultiLimits {
        nodes: 1_000 * u64::from(skill.level()),
        depth: 64,
        time: Some(Duration::from_secs(3)),
    };
    searcher
        .choose(game, &limits, stop)
        .map(|c| c.steps)
        .unwrap_or_default()
}

/// Each step's text in turn, the game moving on under it (a step's text depends on
/// the position it is played in).
fn write_steps(game: &Game, steps: &[Step]) -> Vec<String> {
    let mut copy = game.clone();
    let mut texts = Vec::with_capacity(steps.len());
    for step in steps {
        let text = copy.step_lan(*step);
        if copy.play(*step).is_err() {
            break;
        }
        texts.push(text);
    }
    texts
}
