//! Replaying a game's tree against the rules of its variant: every move of the main
//! line and of every variation checked, rewritten in canonical SAN, and numbered.
//!
//! The only place where games of two sides and of more differ: a two-player node is a
//! move of a [`Position`], a node of a game of more sides a whole turn of a
//! [`Game`] (its steps joined by `&`, as [`Game::play_turn`] reads them).

use std::fmt;
use std::sync::Arc;

use super::PgnGame;
use super::tree::{MoveNumber, NodeId, Place};
use crate::bitboard::WideBitboard;
use crate::catalog::Catalog;
use crate::multi::{Game, Step};
use crate::piece::Side;
use crate::position::Position;
use crate::rules::Rules;

/// Why a game read from a file does not replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    /// The `Variant` tag names no variant of the catalog.
    UnknownVariant { game: usize, variant: String },
    /// The `FEN` tag is not a position of the variant.
    BadFen {
        game: usize,
        line: usize,
        reason: String,
    },
    /// A move (a turn, in a game of more sides) that is not legal where it stands.
    BadMove {
        game: usize,
        line: usize,
        column: usize,
        text: String,
        reason: String,
    },
}

/// `game 3, line 41, column 7: ` with what is known (a game made in memory has no
/// number and no lines).
fn prefix(f: &mut fmt::Formatter<'_>, game: usize, place: Option<Place>) -> fmt::Result {
    let mut parts = Vec::new();
    if game > 0 {
        parts.push(format!("game {game}"));
    }
    if let Some(p) = place.filter(|p| p.line > 0) {
        parts.push(format!("line {}", p.line));
        if p.column > 0 {
            parts.push(format!("column {}", p.column));
        }
    }
    if !parts.is_empty() {
        write!(f, "{}: ", parts.join(", "))?;
    }
    Ok(())
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::UnknownVariant { game, variant } => {
                prefix(f, *game, None)?;
                write!(f, "unknown variant '{variant}'")
            }
            ReplayError::BadFen { game, line, reason } => {
                let place = Place {
                    line: *line,
                    column: 0,
                };
                prefix(f, *game, Some(place))?;
                write!(f, "bad FEN tag: {reason}")
            }
            ReplayError::BadMove {
                game,
                line,
                column,
                text,
                reason,
            } => {
                let place = Place {
                    line: *line,
                    column: *column,
                };
                prefix(f, *game, Some(place))?;
                write!(f, "move '{text}': {reason}")
            }
        }
    }
}

impl std::error::Error for ReplayError {}

/// Where the main line of a replayed game ends (boxed: a position is large, a game of
/// more sides several times larger).
#[derive(Clone, Debug)]
pub enum Replayed {
    Two(Box<Position>),
    More(Box<Game>),
}

impl Replayed {
    /// Hex FEN of the position (with removals owed, for a game of more sides).
    pub fn to_fen(&self) -> String {
        match self {
            Replayed::Two(p) => p.to_fen(),
            Replayed::More(g) => g.to_fen(),
        }
    }
}

/// A game as a replay walks it: two sides or more.
trait Play: Clone {
    /// The number and side of the next move.
    fn number(&self) -> MoveNumber;
    /// Plays a move (a turn) written as `text`; its canonical text, or why not.
    fn play(&mut self, text: &str) -> Result<String, String>;
}

impl Play for Position {
    fn number(&self) -> MoveNumber {
        MoveNumber {
            number: self.fullmove_number(),
            side: self.turn(),
        }
    }

    fn play(&mut self, text: &str) -> Result<String, String> {
        let mv = self.parse_move(text).map_err(|e| e.to_string())?;
        let san = self.move_to_san(mv);
        self.make_move(mv);
        Ok(san)
    }
}

/// A game of more sides, with its rounds counted as a file numbers them.
#[derive(Clone)]
struct Turns {
    game: Game,
    /// The round of the last turn seen (from the FEN's fullmove number).
    round: u32,
    /// The seat of the last turn seen (a lost turn counts: the rules record it).
    last: Option<Side>,
    /// Turns of [`Game::turns`] already counted.
    seen: usize,
}

impl Turns {
    fn new(game: Game) -> Turns {
        let round = game.position().fullmove_number();
        let mut t = Turns {
            game,
            round,
            last: None,
            seen: 0,
        };
        t.count_turns();
        t
    }

    /// A new round begins whenever the turn comes back to the same or an earlier seat.
    fn next_round(&self, side: Side) -> bool {
        self.last.is_some_and(|l| side.index() <= l.index())
    }

    fn count_turns(&mut self) {
        let sides: Vec<Side> = self.game.turns()[self.seen..]
            .iter()
            .map(|(s, _)| *s)
            .collect();
        for side in sides {
            if self.next_round(side) {
                self.round += 1;
            }
            self.last = Some(side);
        }
        self.seen = self.game.turns().len();
    }
}

impl Play for Turns {
    fn number(&self) -> MoveNumber {
        let side = self.game.side_to_move();
        MoveNumber {
            number: self.round + u32::from(self.next_round(side)),
            side,
        }
    }

    fn play(&mut self, text: &str) -> Result<String, String> {
        if text.trim() == "--" {
            return Err("a lost turn is not written: the rules pass it over".into());
        }
        let before = self.game.clone();
        let played = self.game.turns().len();
        self.game.play_turn(text).map_err(|e| e.to_string())?;
        let steps = self.game.turns()[played].1.clone();
        // Each step written from the position it was played in.
        let mut replay = before;
        let mut texts = Vec::new();
        for step in steps {
            if step != Step::Stop {
                texts.push(replay.step_text(step));
            }
            replay.play(step);
        }
        self.count_turns();
        Ok(texts.join("&"))
    }
}

impl PgnGame {
    /// Replays every move of the tree, main line and variations, from the start the
    /// tags give (`Variant`, default Gliński's; `FEN` for a set-up position), through
    /// the catalog. Every legal move is rewritten in canonical SAN (so long algebraic
    /// comes out as SAN) and given its move number; a bad move is reported (the first
    /// in the file's order) and the moves after it are not looked at.
    ///
    /// Returns where the main line ends.
    pub fn replay(&mut self, catalog: &Catalog) -> Result<Replayed, ReplayError> {
        let variant = self.variant().to_string();
        let unknown = || ReplayError::UnknownVariant {
            game: self.number,
            variant: variant.clone(),
        };
        let bad_fen = |reason: String| ReplayError::BadFen {
            game: self.number,
            line: self.line,
            reason,
        };
        if let Some(entry) = catalog.get(&variant) {
            let rules: Arc<Rules> = Arc::clone(&entry.rules);
            let start = match self.tag("FEN") {
                Some(fen) => Position::from_fen(rules, fen).map_err(|e| bad_fen(e.to_string()))?,
                None => Position::start(rules),
            };
            return self.walk(start).map(|p| Replayed::Two(Box::new(p)));
        }
        let entry = catalog.get_multi(&variant).ok_or_else(unknown)?;
        let rules: Arc<Rules<WideBitboard>> = Arc::clone(&entry.rules);
        let game = match self.tag("FEN") {
            Some(fen) => Game::from_fen(rules, fen).map_err(|e| bad_fen(e.to_string()))?,
            None => Game::new(rules).ok_or_else(unknown)?,
        };
        self.walk(Turns::new(game))
            .map(|t| Replayed::More(Box::new(t.game)))
    }

    /// Plays every node from `start`, depth first, the main line before its
    /// variations.
    fn walk<P: Play>(&mut self, start: P) -> Result<P, ReplayError> {
        let tree = &mut self.tree;
        let root = tree.root();
        tree.set_number(root, start.number());
        let tip = tree.main_line().last().copied();
        let mut end = tip.is_none().then(|| start.clone());
        let mut errors: Vec<(Place, ReplayError)> = Vec::new();
        let mut stack: Vec<(NodeId, P)> = Vec::new();
        let children = tree.children(root).to_vec();
        push_children(&mut stack, &children, start);
        while let Some((id, mut state)) = stack.pop() {
            tree.set_number(id, state.number());
            let text = tree.san(id).to_string();
            match state.play(&text) {
                Ok(san) => {
                    tree.set_san(id, &san);
                    if Some(id) == tip {
                        end = Some(state.clone());
                    }
                    let children = tree.children(id).to_vec();
                    push_children(&mut stack, &children, state);
                }
                Err(reason) => {
                    let place = tree.get(id).and_then(|n| n.place()).unwrap_or(Place {
                        line: usize::MAX,
                        column: usize::MAX,
                    });
                    let known = |n: usize| if n == usize::MAX { 0 } else { n };
                    errors.push((
                        place,
                        ReplayError::BadMove {
                            game: self.number,
                            line: known(place.line),
                            column: known(place.column),
                            text,
                            reason,
                        },
                    ));
                }
            }
        }
        // The first bad move in the file (a game made in memory: the first met).
        if let Some((_, e)) = errors.into_iter().min_by_key(|(p, _)| *p) {
            return Err(e);
        }
        Ok(end.expect("the main line's last move was played"))
    }
}

/// The continuations of a node, to be played from `state`: the main line on top of
/// the stack, so that it is walked first.
fn push_children<P: Play>(stack: &mut Vec<(NodeId, P)>, children: &[NodeId], state: P) {
    let Some((&main, variations)) = children.split_first() else {
        return;
    };
    for &v in variations.iter().rev() {
        stack.push((v, state.clone()));
    }
    stack.push((main, state));
}
