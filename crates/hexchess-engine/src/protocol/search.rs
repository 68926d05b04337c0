//! What `go` answers: `bestmove` for a two-player search (with the reply it expects to
//! ponder on) or for a search of whole turns (the turn's steps joined by `&`, after an
//! `info` line with its depth, nodes and score). The search itself is the engine's
//! ([`crate::engine`]), which picks it by the number of sides.

use hexchess_core::game::{Game, Step};
use hexchess_core::position::Position;

use crate::SearchResult;
use crate::engine::{Answer, Found};
use crate::multi::{MultiChoice, Strategy};

/// Every line `go` ends with, after the search's `info` lines.
pub(crate) fn answer_lines(game: &Game, answer: &Answer, strategy: Strategy) -> Vec<String> {
    match &answer.found {
        Found::Move { position, result } => vec![bestmove_line(position, result)],
        Found::Turn(choice) => turn_answer(game, choice.as_ref(), strategy),
    }
}

/// The protocol's answer to a search of whole turns: its depth, nodes and score, then
/// `bestmove` with the turn (`bestmove (none)` when there is none).
fn turn_answer(game: &Game, choice: Option<&MultiChoice>, strategy: Strategy) -> Vec<String> {
    match choice {
        Some(c) => vec![
            format!(
                "info depth {} nodes {} score cp {} string {}",
                c.depth, c.nodes, c.score, strategy
            ),
            format!("bestmove {}", turn_lan(game, &c.steps)),
        ],
        None => vec!["bestmove (none)".to_string()],
    }
}

/// A whole turn in long algebraic, steps joined by `&`.
pub(crate) fn turn_lan(game: &Game, steps: &[Step]) -> String {
    let mut g = game.clone();
    let mut parts = Vec::new();
    for s in steps {
        if *s != Step::Stop {
            parts.push(g.step_lan(*s));
        }
        g.play_unchecked(*s);
    }
    parts.join("&")
}

/// The protocol's answer to a two-player search: `bestmove <move>`, with `ponder
/// <move>` when the line goes on (the reply the engine expects, for a GUI that
/// ponders), or `bestmove (none)` when there is no legal move.
pub(crate) fn bestmove_line(pos: &Position, result: &SearchResult) -> String {
    let Some(best) = result.best else {
        return "bestmove (none)".to_string();
    };
    let mut line = format!("bestmove {}", pos.move_to_lan(best));
    if let [first, reply, ..] = result.pv[..]
        && first == best
    {
        let mut after = pos.clone();
        after.make_move(best);
        if after.is_legal(reply) {
            line.push_str(&format!(" ponder {}", after.move_to_lan(reply)));
        }
    }
    line
}
