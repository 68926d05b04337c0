//! Writing games in the PGN standard's export format (its §8): the seven-tag roster
//! first, one tag per line; a blank line; the moves in lines of fewer than 80
//! characters, never breaking a token; the result; a blank line between games.
//!
//! The text is exact: a game written, read back and written again gives the same
//! bytes, so files can be compared and kept under version control.

use std::fmt;

use super::PgnGame;
use super::result::is_result;
use super::tree::{GameTree, MoveNumber, NodeId};
use crate::piece::Side;

/// Longest line written: the standard asks for fewer than 80 printing characters.
const MAX_LINE: usize = 79;

/// The seven tags every exported game has, in order, with the value written when the
/// game has none.
pub const SEVEN_TAG_ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// A tag value as written between quotes: `\` and `"` escaped, and line breaks (which
/// would end the tag line) as spaces.
fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' | '"' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// Movetext as it is laid into lines.
struct Lines {
    out: String,
    /// Characters on the current line.
    len: usize,
}

impl Lines {
    fn token(&mut self, tok: &str) {
        let width = tok.chars().count();
        if self.len > 0 && self.len + 1 + width > MAX_LINE {
            self.out.push('\n');
            self.len = 0;
        } else if self.len > 0 {
            self.out.push(' ');
            self.len += 1;
        }
        // A comment's word at the start of a line must not read as an escape line
        // (`%`) or, should the line be all tag-like, as the next game's tags.
        if self.len == 0 && (tok.starts_with('%') || tok.starts_with('[')) {
            self.out.push(' ');
            self.len += 1;
        }
        self.out.push_str(tok);
        self.len += width;
    }

    fn comment(&mut self, text: &str) {
        self.token("{");
        for word in text.split_whitespace() {
            self.token(word);
        }
        self.token("}");
    }
}

/// Where the game starts, for a game no replay has numbered: the `FEN` tag's side to
/// move and fullmove number, else White's first move.
fn start_number(game: &PgnGame) -> MoveNumber {
    let Some(fen) = game.tag("FEN") else {
        return MoveNumber::START;
    };
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let side = match fields.get(1).copied() {
        Some("b") => Side::Black,
        Some("c") => Side::Third,
        Some("d") => Side::Fourth,
        _ => Side::White,
    };
    let number = fields
        .iter()
        .skip(2)
        .filter_map(|f| f.parse::<u32>().ok())
        .next_back()
        .filter(|n| *n > 0)
        .unwrap_or(1);
    MoveNumber { number, side }
}

/// Writes the moves of a tree with their numbers, comments and variations.
struct Movetext<'a> {
    tree: &'a GameTree,
    lines: Lines,
    /// Whether a comment written now would be read as the last move's (or, at the
    /// start, the game's) comment: a comment before the next move then needs an empty
    /// one in front, to be read back where it was.
    slot_open: bool,
}

impl Movetext<'_> {
    /// The line from `start` (a continuation of `parent`, numbered `parent_number`) to
    /// its end, with the variations met on the way.
    fn line(&mut self, start: NodeId, parent_number: MoveNumber, parent_is_root: bool) {
        let tree = self.tree;
        let mut id = start;
        let (mut prev, mut prev_is_root) = (parent_number, parent_is_root);
        // The first move of a line, and any after a comment or a variation, carries
        // its number.
        let mut need_number = true;
        while let Some(node) = tree.get(id) {
            let number = node.number().unwrap_or(if prev_is_root {
                prev
            } else {
                prev.next_of_two()
            });
            if !node.comment_before().is_empty() {
                if self.slot_open {
                    self.lines.comment("");
                }
                self.lines.comment(node.comment_before());
                need_number = true;
            }
            // A round begins with the first seat's move at the start of the game, else
            // wherever the move number changes.
            let begins_round = if prev_is_root {
                number.side == Side::White
            } else {
                number.number != prev.number
            };
            if begins_round || (need_number && number.side == Side::White) {
                self.lines.token(&format!("{}.", number.number));
            } else if need_number {
                self.lines.token(&format!("{}...", number.number));
            }
            self.lines.token(node.san());
            for nag in node.nags() {
                self.lines.token(&format!("${nag}"));
            }
            self.slot_open = true;
            need_number = false;
            if !node.comment_after().is_empty() {
                self.lines.comment(node.comment_after());
                self.slot_open = false;
                need_number = true;
            }
            let siblings = node.parent().map_or(&[][..], |p| tree.children(p));
            if siblings.first() == Some(&id) {
                for &variation in &siblings[1..] {
                    self.lines.token("(");
                    self.slot_open = false;
                    self.line(variation, prev, prev_is_root);
                    self.lines.token(")");
                    self.slot_open = false;
                    need_number = true;
                }
            }
            let Some(&next) = node.children().first() else {
                break;
            };
            (prev, prev_is_root) = (number, false);
            id = next;
        }
    }
}

impl PgnGame {
    /// The movetext: numbered moves, comments, annotations, variations and the result,
    /// in lines of fewer than 80 characters.
    fn movetext(&self) -> String {
        let tree = &self.tree;
        let root = tree.root();
        let start = tree
            .get(root)
            .and_then(|n| n.number())
            .unwrap_or_else(|| start_number(self));
        let mut m = Movetext {
            tree,
            lines: Lines {
                out: String::new(),
                len: 0,
            },
            slot_open: true,
        };
        if !tree.comment().is_empty() {
            m.lines.comment(tree.comment());
            m.slot_open = false;
        }
        if let Some(&first) = tree.children(root).first() {
            m.line(first, start, true);
        }
        let result = self.result();
        m.lines.token(if is_result(result) { result } else { "*" });
        m.lines.out
    }
}

/// The game in export format, ending with a line break.
impl fmt::Display for PgnGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (key, value) in self.export_tags() {
            writeln!(f, "[{key} \"{}\"]", escape(&value))?;
        }
        writeln!(f)?;
        writeln!(f, "{}", self.movetext())
    }
}

/// Games in export format, a blank line between them.
pub fn write_games(games: &[PgnGame]) -> String {
    games
        .iter()
        .map(|g| g.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tag_values_are_escaped() {
        assert_eq!(escape(r#"a "b" \ c"#), r#"a \"b\" \\ c"#);
        assert_eq!(escape("two\nlines"), "two lines");
    }

    #[test]
    fn lines_break_before_80_and_never_inside_a_token() {
        let mut lines = Lines {
            out: String::new(),
            len: 0,
        };
        for _ in 0..30 {
            lines.token("abcdefgh");
        }
        lines.token(&"x".repeat(100));
        lines.token("%not-an-escape");
        for line in lines.out.lines() {
            assert!(line.len() < 80 || !line.contains(' '), "{line}");
        }
        assert!(lines.out.contains("\n %not-an-escape"), "{}", lines.out);
        assert_eq!(lines.out.lines().next().unwrap().len(), 8 * 8 + 7);
    }

    #[test]
    fn an_unnumbered_game_numbers_from_its_fen() {
        let mut g = PgnGame::new();
        g.set_tag("FEN", "6/7/8/9/10/11/10/9/8/7/6 b - 0 12");
        assert_eq!(
            start_number(&g),
            MoveNumber {
                number: 12,
                side: Side::Black
            }
        );
        let root = g.tree.root();
        let a = g.tree.add_move(root, "a");
        let b = g.tree.add_move(a, "b");
        g.tree.add_move(b, "c");
        assert!(g.to_string().ends_with("\n\n12... a 13. b c *\n"), "{g}");
    }
}
