//! Replaying a game's tree against the rules of its variant: every move of the main
//! line and of every variation checked, rewritten in canonical SAN, and numbered.
//!
//! The only place where games of two sides and of more differ: a two-player node is a
//! move of a [`Position`], a node of a game of more sides a whole turn of a
//! [`Game`] (its steps joined by `&`, as [`Game::play_turn`] reads them).
//!
//! A game ends where the rules end it (checkmate, stalemate, threefold repetition, the
//! move rule, bare royal pieces; a game of more sides by its own rules): a move after
//! that is refused, naming the rule, rather than played or silently dropped. Each move
//! costs the same however long the game already is: repetitions are counted as the
//! game goes ([`Repetitions`]), and nothing copies the game's history per move.

use std::fmt;
use std::sync::Arc;

use super::PgnGame;
use super::problem::printable;
use super::tree::{MoveNumber, NodeId, Place};
use crate::catalog::Catalog;
use crate::game::{Game, Step};
use crate::outcome::GameOutcome;
use crate::piece::Side;

/// Why a game read from a file does not replay. A game's number is 0 and its lines are
/// 0 when it was made in memory rather than read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    /// The `Variant` tag names no variant of the catalog (`line`: where the game
    /// begins).
    UnknownVariant {
        /// The game's number in the file, from 1 (0: made in memory).
        game: usize,
        /// The line it stands on, from 1.
        line: usize,
        /// The variant the tag names.
        variant: String,
    },
    /// The `FEN` tag is not a position of the variant.
    BadFen {
        /// The game's number in the file, from 1 (0: made in memory).
        game: usize,
        /// The line it stands on, from 1.
        line: usize,
        /// Why it is refused, as the rules say.
        reason: String,
    },
    /// A move (a turn, in a game of more sides) that is not legal where it stands;
    /// `ply` counts the moves (turns) of its line from the start, itself included.
    BadMove {
        /// The game's number in the file, from 1 (0: made in memory).
        game: usize,
        /// The line it stands on, from 1.
        line: usize,
        /// Its column in characters, from 1.
        column: usize,
        /// The moves (turns) of its line from the start, itself included.
        ply: usize,
        /// The move as written.
        text: String,
        /// Why it is refused, as the rules say.
        reason: String,
    },
    /// A move after the rules had ended the game, and how they had ended it.
    AfterEnd {
        /// The game's number in the file, from 1 (0: made in memory).
        game: usize,
        /// The line it stands on, from 1.
        line: usize,
        /// Its column in characters, from 1.
        column: usize,
        /// The moves (turns) of its line from the start, itself included.
        ply: usize,
        /// The move as written.
        text: String,
        /// How the rules had ended the game.
        ended: GameOutcome,
    },
}

/// `game 3, line 41, column 7: ` with what is known (a game made in memory has no
/// number and no lines).
fn prefix(f: &mut fmt::Formatter<'_>, game: usize, place: Place) -> fmt::Result {
    let mut parts = Vec::new();
    if game > 0 {
        parts.push(format!("game {game}"));
    }
    if place.line > 0 {
        parts.push(format!("line {}", place.line));
        if place.column > 0 {
            parts.push(format!("column {}", place.column));
        }
    }
    if !parts.is_empty() {
        write!(f, "{}: ", parts.join(", "))?;
    }
    Ok(())
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let whole_line = |line| Place { line, column: 0 };
        match self {
            ReplayError::UnknownVariant {
                game,
                line,
                variant,
            } => {
                prefix(f, *game, whole_line(*line))?;
                write!(f, "unknown variant '{}'", printable(variant))
            }
            ReplayError::BadFen { game, line, reason } => {
                prefix(f, *game, whole_line(*line))?;
                write!(f, "bad FEN tag: {}", printable(reason))
            }
            ReplayError::BadMove {
                game,
                line,
                column,
                ply,
                text,
                reason,
            } => {
                prefix(f, *game, Place::new(*line, *column))?;
                write!(
                    f,
                    "move '{}' (ply {ply}): {}",
                    printable(text),
                    printable(reason)
                )
            }
            ReplayError::AfterEnd {
                game,
                line,
                column,
                ply,
                text,
                ended,
            } => {
                prefix(f, *game, Place::new(*line, *column))?;
                write!(
                    f,
                    "move '{}' (ply {ply}) comes after the end of the game: {}",
                    printable(text),
                    ended.description()
                )
            }
        }
    }
}

impl std::error::Error for ReplayError {}

/// A move of a game, as errors name it: the game's number, the move's place in the file
/// (none for a game made in memory), its ply and text.
pub(crate) struct MoveAt<'a> {
    pub game: usize,
    pub place: Option<Place>,
    pub ply: usize,
    pub text: &'a str,
}

impl MoveAt<'_> {
    fn line_and_column(&self) -> (usize, usize) {
        self.place.map_or((0, 0), |p| (p.line, p.column))
    }

    pub(crate) fn bad(&self, reason: String) -> ReplayError {
        let (line, column) = self.line_and_column();
        ReplayError::BadMove {
            game: self.game,
            line,
            column,
            ply: self.ply,
            text: self.text.to_string(),
            reason,
        }
    }

    pub(crate) fn after_end(&self, ended: GameOutcome) -> ReplayError {
        let (line, column) = self.line_and_column();
        ReplayError::AfterEnd {
            game: self.game,
            line,
            column,
            ply: self.ply,
            text: self.text.to_string(),
            ended,
        }
    }
}

/// A game as a replay walks it, with its rounds counted as a file numbers them (a
/// two-player game's rounds are its move numbers).
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

impl Turns {
    /// The number and side of the next move.
    fn number(&self) -> MoveNumber {
        let side = self.game.side_to_move();
        MoveNumber {
            number: self.round + u32::from(self.next_round(side)),
            side,
        }
    }

    /// How the rules have ended the game, if they have: no move may follow.
    fn ended(&self) -> Option<GameOutcome> {
        self.game.end().copied()
    }

    /// Plays a move (a turn) written as `text`; its canonical text, or why not.
    fn play(&mut self, text: &str) -> Result<String, String> {
        if text.trim() == "--" {
            return Err("a lost turn is not written: the rules pass it over".into());
        }
        // Read on a lean copy first, so that a bad turn changes nothing; then each
        // step is written from the position it is played in.
        let steps = self
            .game
            .lean()
            .read_turn(text)
            .map_err(|e| e.to_string())?;
        let mut texts = Vec::new();
        for step in steps {
            if step != Step::Stop {
                texts.push(self.game.step_text(step));
            }
            self.game.play_unchecked(step);
        }
        self.count_turns();
        Ok(texts.join("&"))
    }

    /// A copy to play a variation from: the rules still apply (repetitions included),
    /// but the record of the game so far is left behind, so that a variation costs
    /// what it plays, not the length of the game before it.
    fn branch(&self) -> Self {
        let game = self.game.lean();
        let seen = game.turns().len();
        Turns {
            game,
            round: self.round,
            last: self.last,
            seen,
        }
    }
}

impl PgnGame {
    /// Replays every move of the tree, main line and variations, from the start the
    /// tags give (`Variant`, default Gliński's; `FEN` for a set-up position), through
    /// the catalog. Every legal move is rewritten in canonical SAN (so long algebraic
    /// comes out as SAN) and given its move number; a bad move, or a move after the
    /// rules had ended the game, is reported (the first in the file's order) and the
    /// moves after it are not looked at.
    ///
    /// Returns where the main line ends.
    pub fn replay(&mut self, catalog: &Catalog) -> Result<Game, ReplayError> {
        let variant = self.variant().to_string();
        let fen = self.tag("FEN").map(str::to_string);
        let start = start_of(catalog, &variant, fen.as_deref(), self.number, self.line)?;
        self.walk(Turns::new(start)).map(|t| t.game)
    }

    /// Plays every node from `start`, depth first, the main line before its
    /// variations.
    fn walk(&mut self, start: Turns) -> Result<Turns, ReplayError> {
        let tree = &mut self.tree;
        let root = tree.root();
        tree.set_number(root, start.number());
        let tip = tree.main_line().last().copied();
        let mut end = tip.is_none().then(|| start.clone());
        let mut errors: Vec<(Place, ReplayError)> = Vec::new();
        let mut stack: Vec<Pending> = Vec::new();
        let children = tree.children(root).to_vec();
        push_children(&mut stack, &children, start, 1);
        while let Some(Pending { id, mut state, ply }) = stack.pop() {
            tree.set_number(id, state.number());
            let text = tree.san(id).to_string();
            let place = tree.get(id).and_then(|n| n.place());
            let at = MoveAt {
                game: self.number,
                place,
                ply,
                text: &text,
            };
            // A move made in memory has no place: after every move read from the file.
            let order = place.unwrap_or(Place::new(usize::MAX, usize::MAX));
            if let Some(ended) = state.ended() {
                errors.push((order, at.after_end(ended)));
                continue;
            }
            match state.play(&text) {
                Ok(san) => {
                    tree.set_san(id, &san);
                    if Some(id) == tip {
                        end = Some(state.clone());
                    }
                    let children = tree.children(id).to_vec();
                    push_children(&mut stack, &children, state, ply + 1);
                }
                Err(reason) => errors.push((order, at.bad(reason))),
            }
        }
        // The first bad move in the file (a game made in memory: the first met).
        if let Some((_, e)) = errors.into_iter().min_by_key(|(p, _)| *p) {
            return Err(e);
        }
        Ok(end.expect("the main line's last move was played"))
    }
}

/// A node waiting to be played from `state`, the `ply`-th move of its line.
struct Pending {
    id: NodeId,
    state: Turns,
    ply: usize,
}

/// The continuations of a node, to be played from `state`: the main line on top of
/// the stack, so that it is walked first; each variation from a [`Play::branch`].
fn push_children(stack: &mut Vec<Pending>, children: &[NodeId], state: Turns, ply: usize) {
    let Some((&main, variations)) = children.split_first() else {
        return;
    };
    for &id in variations.iter().rev() {
        let state = state.branch();
        stack.push(Pending { id, state, ply });
    }
    stack.push(Pending {
        id: main,
        state,
        ply,
    });
}

/// The start of game `game` (its first line `line`) from its tags: the variant, and its
/// start or the FEN.
pub(crate) fn start_of(
    catalog: &Catalog,
    variant: &str,
    fen: Option<&str>,
    game: usize,
    line: usize,
) -> Result<Game, ReplayError> {
    let entry = catalog
        .get(variant)
        .ok_or_else(|| ReplayError::UnknownVariant {
            game,
            line,
            variant: variant.to_string(),
        })?;
    let rules = Arc::clone(entry.rules());
    match fen {
        Some(fen) => Game::from_fen(rules, fen).map_err(|e| ReplayError::BadFen {
            game,
            line,
            reason: e.to_string(),
        }),
        None => Ok(Game::new(rules)),
    }
}
