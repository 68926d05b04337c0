//! Reading every game of a PGN file, leniently: import format as other programs write
//! it (numbers glued to moves or left out, `;` comments, `%` lines, suffix
//! annotations), and a game with a problem reported with its number and place while
//! the games after it are still read.
//!
//! Where games part: a tag line after a game's moves starts the next game, and so does
//! anything after a result. A game's problem ends its reading; its tokens are passed
//! over to that boundary.

use std::fmt;

use super::PgnGame;
use super::lex::{Tok, Token, tokens};
use super::problem::MAX_NESTING;
pub use super::problem::ReadProblem;
use super::tree::{GameTree, NodeId, Place};

/// The largest PGN file read: some hundred thousand games, far more than anyone keeps
/// of hexagonal chess, and small enough that reading it cannot exhaust the memory.
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// A game that could not be read: its number in the file (from 1), where the problem
/// is, and what it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    /// The game's number in the file, from 1.
    pub game: usize,
    /// The problem's line, from 1.
    pub line: usize,
    /// Its column in characters, from 1.
    pub column: usize,
    /// What is wrong there.
    pub problem: ReadProblem,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "game {}, line {}, column {}: {}",
            self.game, self.line, self.column, self.problem
        )
    }
}

impl std::error::Error for ReadError {}

/// What a comment read now belongs to.
#[derive(Clone, Copy, Debug)]
enum Slot {
    /// The start of the game: the game's comment.
    Start,
    /// Right after a move: that move's comment.
    After(NodeId),
    /// Anywhere else: the next move's comment before it.
    Before,
}

/// A line being read: the main line, or a variation.
struct Level {
    /// Where the next move goes.
    parent: NodeId,
    /// The last move of this line, which a `(` is an alternative to.
    last: Option<NodeId>,
    slot: Slot,
    /// Comments waiting for the next move.
    before: Vec<String>,
    /// Where the variation opened.
    open: Place,
}

/// A game being read.
struct Builder {
    tags: Vec<(String, String)>,
    tree: GameTree,
    levels: Vec<Level>,
    line: usize,
    /// Anything but tags read (after which a tag starts the next game).
    movetext: bool,
    result: Option<String>,
    error: Option<(Place, ReadProblem)>,
}

impl Builder {
    fn new(line: usize) -> Builder {
        let tree = GameTree::new();
        let root = tree.root();
        Builder {
            tags: Vec::new(),
            tree,
            levels: vec![Level {
                parent: root,
                last: None,
                slot: Slot::Start,
                before: Vec::new(),
                open: Place { line, column: 1 },
            }],
            line,
            movetext: false,
            result: None,
            error: None,
        }
    }

    fn fail(&mut self, place: Place, problem: ReadProblem) {
        if self.error.is_none() {
            self.error = Some((place, problem));
        }
    }

    fn level(&mut self) -> &mut Level {
        self.levels
            .last_mut()
            .expect("the main line is never closed")
    }

    fn tag(&mut self, key: String, value: String) {
        match self.tags.iter_mut().find(|(k, _)| *k == key) {
            Some(t) => t.1 = value,
            None => self.tags.push((key, value)),
        }
    }

    /// A comment, placed as [`Slot`] says.
    fn comment(&mut self, text: String) {
        let level = self
            .levels
            .last_mut()
            .expect("the main line is never closed");
        match level.slot {
            Slot::Start => {
                level.slot = Slot::Before;
                self.tree.set_comment(&text);
            }
            Slot::After(id) => {
                level.slot = Slot::Before;
                self.tree.set_comment_after(id, &text);
            }
            Slot::Before => level.before.push(text),
        }
    }

    /// Comments left waiting at the end of a line: the last move's, after its own.
    fn flush(&mut self, level: &mut Level, outer_last: Option<NodeId>) {
        let text = join(&level.before);
        level.before.clear();
        if text.is_empty() {
            return;
        }
        let to = level.last.or(outer_last).unwrap_or(self.tree.root());
        self.tree.append_comment_after(to, &text);
    }

    fn apply(&mut self, tok: Tok, place: Place) {
        match tok {
            Tok::Comment(text) => self.comment(text),
            Tok::Move { san, nag } => {
                let level = self.level();
                let before = join(&level.before);
                level.before.clear();
                let parent = level.parent;
                let id = self.tree.push_move(parent, &san, Some(place));
                self.tree.set_comment_before(id, &before);
                if let Some(n) = nag {
                    self.tree.add_nag(id, n);
                }
                let level = self.level();
                level.parent = id;
                level.last = Some(id);
                level.slot = Slot::After(id);
            }
            Tok::Nag(n) | Tok::Suffix(n) => match self.level().last {
                Some(id) => self.tree.add_nag(id, n),
                None => self.fail(place, ReadProblem::AnnotationWithoutMove),
            },
            Tok::Open => {
                let Some(last) = self.level().last else {
                    return self.fail(place, ReadProblem::VariationWithoutMove);
                };
                if self.levels.len() > MAX_NESTING {
                    return self.fail(place, ReadProblem::TooDeep);
                }
                let parent = self.tree.parent(last).unwrap_or(self.tree.root());
                self.levels.push(Level {
                    parent,
                    last: None,
                    slot: Slot::Before,
                    before: Vec::new(),
                    open: place,
                });
            }
            Tok::Close => {
                if self.levels.len() == 1 {
                    return self.fail(place, ReadProblem::UnmatchedClose);
                }
                let mut level = self.levels.pop().expect("more than one level");
                let outer_last = self.level().last;
                self.flush(&mut level, outer_last);
                self.level().slot = Slot::Before;
            }
            Tok::Bad(problem) => self.fail(place, problem),
            Tok::BadTag(line) => self.fail(place, ReadProblem::BadTag(line)),
            // Tags and results are handled by the caller: they part games.
            Tok::Tag { .. } | Tok::Result(_) => {}
        }
    }

    /// The game read, or its problem; `None` for text that is no game (comments
    /// alone between games).
    fn finish(mut self, number: &mut usize) -> Option<Result<PgnGame, ReadError>> {
        if self.error.is_none() && self.levels.len() > 1 {
            let open = self.level().open;
            self.fail(open, ReadProblem::UnclosedVariation);
        }
        let is_game = self.error.is_some()
            || !self.tags.is_empty()
            || self.result.is_some()
            || !self.tree.children(self.tree.root()).is_empty();
        if !is_game {
            return None;
        }
        *number += 1;
        if let Some((place, problem)) = self.error {
            return Some(Err(ReadError {
                game: *number,
                line: place.line,
                column: place.column,
                problem,
            }));
        }
        let mut main = self.levels.pop().expect("the main line");
        self.flush(&mut main, None);
        let mut game = PgnGame {
            tags: self.tags,
            tree: self.tree,
            number: *number,
            line: self.line,
        };
        // The result token stands for a missing Result tag; a tag given wins.
        if let Some(r) = self.result
            && game.tag("Result").is_none()
        {
            game.set_tag("Result", r);
        }
        Some(Ok(game))
    }
}

fn join(comments: &[String]) -> String {
    comments
        .iter()
        .filter(|c| !c.is_empty())
        .cloned()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Every game of a PGN file, in order: each read, or refused with its number, place
/// and problem. Text outside any game (comments with no tags and no moves) is not a
/// game. Moves are kept as written; [`PgnGame::replay`] checks them.
pub fn read_games(text: &str) -> Vec<Result<PgnGame, ReadError>> {
    let mut games = Vec::new();
    let mut number = 0;
    let mut current: Option<Builder> = None;
    for Token { tok, place } in tokens(text) {
        let is_tag = matches!(tok, Tok::Tag { .. } | Tok::BadTag(_));
        if is_tag
            && current.as_ref().is_some_and(|b| b.movetext)
            && let Some(done) = current.take().and_then(|b| b.finish(&mut number))
        {
            games.push(done);
        }
        let game = current.get_or_insert_with(|| Builder::new(place.line));
        match tok {
            Tok::Tag { key, value } => game.tag(key, value),
            Tok::Result(r) => {
                if game.levels.len() > 1 {
                    let open = game.level().open;
                    game.fail(open, ReadProblem::UnclosedVariation);
                }
                game.result = Some(r);
                if let Some(done) = current.take().and_then(|b| b.finish(&mut number)) {
                    games.push(done);
                }
            }
            tok => {
                game.movetext |= !is_tag;
                if game.error.is_none() {
                    game.apply(tok, place);
                }
            }
        }
    }
    if let Some(done) = current.and_then(|b| b.finish(&mut number)) {
        games.push(done);
    }
    games
}

/// Every game of a PGN file given as its bytes, as [`read_games`] reads text.
///
/// The bytes are read as UTF-8 where they are UTF-8, and any other byte as the Latin-1
/// character of that value: PGN's own character set is Latin-1, and many files are a
/// mix (a UTF-8 file with a name typed in Latin-1). One such byte in a comment or a
/// tag then costs nothing (`caf\xe9` reads `café`), instead of the whole file.
pub fn read_games_from_bytes(bytes: &[u8]) -> Vec<Result<PgnGame, ReadError>> {
    read_games(&crate::text::decode_latin1_fallback(bytes))
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// The one game of `text`, read (the pgn module's tests share it).
    pub(in crate::pgn) fn one(text: &str) -> PgnGame {
        let mut games = read_games(text);
        assert_eq!(games.len(), 1, "{games:?}");
        games.remove(0).unwrap_or_else(|e| panic!("{e}"))
    }

    fn sans(game: &PgnGame, ids: &[NodeId]) -> Vec<String> {
        ids.iter()
            .map(|id| game.tree.san(*id).to_string())
            .collect()
    }

    #[test]
    fn comments_go_where_they_were_written() {
        let g = one(
            "{start} {first} 1. f6 {after f6} {before c5} c5 ( {open} 1... d5 {d5} \
             {more} ) {after var} 2. e5 *",
        );
        let t = &g.tree;
        let main = t.main_line();
        assert_eq!(sans(&g, &main), ["f6", "c5", "e5"]);
        assert_eq!(t.comment(), "start");
        let node = |id: NodeId| t.get(id).unwrap();
        assert_eq!(node(main[0]).comment_before(), "first");
        assert_eq!(node(main[0]).comment_after(), "after f6");
        assert_eq!(node(main[1]).comment_before(), "before c5");
        let d5 = t.children(main[0])[1];
        assert_eq!(node(d5).comment_before(), "open");
        assert_eq!(node(d5).comment_after(), "d5 more");
        assert_eq!(node(main[2]).comment_before(), "after var");
        assert_eq!(g.result(), "*");
    }

    #[test]
    fn problems_name_the_game_and_place() {
        let cases = [
            ("1. f6 ( c5", 1, 7, ReadProblem::UnclosedVariation),
            ("1. f6 ) c5", 1, 7, ReadProblem::UnmatchedClose),
            ("( 1. f6 )", 1, 1, ReadProblem::VariationWithoutMove),
            ("$1 1. f6", 1, 1, ReadProblem::AnnotationWithoutMove),
            ("1. f6 {", 1, 7, ReadProblem::UnclosedComment),
            ("1. f6 c5 ( d5 1-0", 1, 10, ReadProblem::UnclosedVariation),
            ("1. f6 ] c5", 1, 7, ReadProblem::Unexpected(']')),
        ];
        for (text, line, column, problem) in cases {
            let games = read_games(text);
            assert_eq!(
                games,
                [Err(ReadError {
                    game: 1,
                    line,
                    column,
                    problem: problem.clone()
                })],
                "{text}"
            );
        }
        let e = read_games("[Event \"a\"]\n1. f6 *\n\n[Event \"b\"]\n\n1. f6 ( c5 *\n")
            .remove(1)
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "game 2, line 6, column 7: unclosed variation"
        );
    }

    #[test]
    fn comments_alone_are_no_game_and_a_result_tag_wins_over_the_token() {
        assert!(read_games("").is_empty());
        assert!(read_games("{nothing here}\n% nor here\n").is_empty());
        let g = one("[Result \"1-0\"]\n\n1. f6 *");
        assert_eq!(g.result(), "1-0");
        let g = one("1. f6 0-1");
        assert_eq!(g.result(), "0-1");
    }

    #[test]
    fn deep_nesting_is_refused_not_followed() {
        let text = "1. f6 ".to_string() + &"( f6 ".repeat(10_000);
        let games = read_games(&text);
        assert!(matches!(
            &games[..],
            [Err(ReadError {
                problem: ReadProblem::TooDeep,
                ..
            })]
        ));
    }
}
