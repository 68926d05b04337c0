//! The built-in engine in a seat of a server game: one person alone always finds a
//! game. It thinks on a blocking thread (never on the server's network threads) and
//! answers with its turn's steps as the protocol writes them.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use hexchess_core::{Game, Rules, Step};
use hexchess_engine::{Engine, Question, SearchLimits, SearchOptions, Skill};

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
/// `narrow` are the variant's two-player rules, which the engine searches a two-player
/// game on. Empty when there is nothing to play.
pub fn think(
    game: &Game,
    narrow: Option<Arc<Rules>>,
    skill: Skill,
    time_left: Option<Duration>,
    stop: &Arc<AtomicBool>,
) -> Vec<String> {
    let mut engine = Engine::new(SearchOptions {
        skill,
        hash_mb: 16,
        threads: 1,
        ..SearchOptions::default()
    });
    let limits = SearchLimits {
        movetime: Some(think_time(skill, time_left)),
        ..SearchLimits::default()
    };
    let question = Question::new(game.clone(), narrow, limits);
    let answer = engine.think(&question, stop, &mut |_, _| {});
    write_steps(game, &answer.turn)
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
