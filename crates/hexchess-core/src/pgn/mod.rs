//! Game files in PGN as chess programs write them (docs/rules.md §10.2): many games in
//! a file, tags, moves with variations, comments and annotations.
//!
//! - [`GameTree`]: a game's moves and variations, as an analysis board edits them;
//! - [`read_games`]: every game of a file, each read or refused on its own, so that one
//!   bad game costs only itself;
//! - [`PgnGame::replay`]: every move checked against the rules of the game's variant
//!   and rewritten in canonical SAN (two sides: each node a move; more sides: each node
//!   a whole turn);
//! - reading from bytes ([`read_games_from_bytes`]): bytes that are not UTF-8 read as
//!   Latin-1, PGN's own character set;
//! - writing ([`PgnGame`]'s `Display`, [`write_games`]): the standard's export format.
//!
//! Files are the files crate's (`hexchess_files::games`): the rules crate does no I/O.
//!
//! Reading and writing know nothing of the rules: a tree is text until a replay has
//! checked it, and the same reader and writer serve games of two sides and of more.

mod lex;
#[cfg(test)]
mod long_games;
mod main_line;
mod problem;
mod read;
pub(crate) mod replay;
pub(crate) mod result;
mod tree;
mod write;

pub use read::{MAX_FILE_BYTES, ReadError, ReadProblem, read_games, read_games_from_bytes};
pub use replay::ReplayError;
pub use result::{TERMINATION_VALUES, is_result, termination_tag};
pub use tree::{GameTree, MoveNumber, Node, NodeId, Place};
pub use write::{SEVEN_TAG_ROSTER, write_games};

use crate::outcome::GameOutcome;

/// One game: its tags and its moves.
#[derive(Clone, Debug, Default)]
pub struct PgnGame {
    /// Tags in the order given (written in the export order: see
    /// [`PgnGame::export_tags`]).
    pub tags: Vec<(String, String)>,
    /// The moves with their variations, comments and annotations.
    pub tree: GameTree,
    /// The game's number in the file it was read from, from 1; 0 for a game made here.
    pub number: usize,
    /// The line of the file where the game began; 0 for a game made here.
    pub line: usize,
}

impl PgnGame {
    /// A game with no tags and no moves.
    pub fn new() -> PgnGame {
        PgnGame::default()
    }

    /// The value of tag `key`, if the game has it.
    pub fn tag(&self, key: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag, in its place if it is already there, else last.
    pub fn set_tag(&mut self, key: &str, value: impl Into<String>) {
        match self.tags.iter_mut().find(|(k, _)| k == key) {
            Some(t) => t.1 = value.into(),
            None => self.tags.push((key.to_string(), value.into())),
        }
    }

    /// Removes tag `key` (one that is not there is no error).
    pub fn remove_tag(&mut self, key: &str) {
        self.tags.retain(|(k, _)| k != key);
    }

    /// The variant's id: the `Variant` tag, else Gliński's chess.
    pub fn variant(&self) -> &str {
        self.tag("Variant").unwrap_or("glinski")
    }

    /// The `Result` tag, else `*`.
    pub fn result(&self) -> &str {
        self.tag("Result").unwrap_or("*")
    }

    /// The tags as written: the seven-tag roster in its order (with the standard's
    /// placeholders for those missing), `Variant`, `SetUp` and `FEN` when the game
    /// starts from a position of its own, then the others in the order given. A
    /// `SetUp` tag alone is dropped: the `FEN` tag is what sets a game up.
    pub fn export_tags(&self) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = write::SEVEN_TAG_ROSTER
            .iter()
            .map(|(k, default)| (k.to_string(), self.tag(k).unwrap_or(default).to_string()))
            .collect();
        out.push(("Variant".into(), self.variant().to_string()));
        if let Some(fen) = self.tag("FEN") {
            out.push(("SetUp".into(), "1".into()));
            out.push(("FEN".into(), fen.to_string()));
        }
        let placed = |k: &str| {
            write::SEVEN_TAG_ROSTER.iter().any(|(r, _)| *r == k)
                || ["Variant", "SetUp", "FEN"].contains(&k)
        };
        out.extend(self.tags.iter().filter(|(k, _)| !placed(k)).cloned());
        out
    }

    /// Puts a comment after the last move of the main line (before the first move in
    /// a game without moves), unless it already ends with it.
    pub(crate) fn add_final_comment(&mut self, text: &str) {
        let last = self
            .tree
            .main_line()
            .last()
            .copied()
            .unwrap_or(self.tree.root());
        let now = self.tree.get(last).map_or("", |n| n.comment_after());
        if !now.ends_with(text) {
            self.tree.append_comment_after(last, text);
        }
    }

    /// Records how a game ended: the `Result` tag (each side's points), the
    /// `Termination` tag with the standard's value, and the reason in words as a final
    /// comment (`{White wins by checkmate}`, `{Last king standing}`), since "normal" does
    /// not say which rule ended it.
    pub fn set_outcome(&mut self, outcome: &GameOutcome) {
        self.set_tag("Result", outcome.result_text());
        self.set_tag("Termination", termination_tag(outcome.termination));
        self.add_final_comment(&outcome.description());
    }
}

/// Two games are equal when they write the same tags and the same moves: where they
/// were read and the order their tags were given in are not compared.
impl PartialEq for PgnGame {
    fn eq(&self, other: &PgnGame) -> bool {
        self.export_tags() == other.export_tags() && self.tree == other.tree
    }
}

impl Eq for PgnGame {}
