//! What can be wrong in a game's text: one list for the tokenizer, which finds bad
//! annotations and characters, and the reader, which finds the rest.

use std::borrow::Cow;
use std::fmt;

/// Variations nested deeper than this are refused: nobody writes them, and the writer
/// and the equality of trees need not go that deep.
pub(super) const MAX_NESTING: usize = 100;

/// What is wrong in a game's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadProblem {
    /// A line starting with `[` that is not `[Key "value"]` pairs.
    BadTag(String),
    /// A `{` with no `}` before the end of the file or the next game's tags.
    UnclosedComment,
    /// A `(` with no `)` before the game's result, the next game's tags or the end.
    UnclosedVariation,
    /// A `)` with no variation open.
    UnmatchedClose,
    /// A `(` with no move before it to be an alternative to.
    VariationWithoutMove,
    /// A `$n` or `!`-style annotation with no move before it.
    AnnotationWithoutMove,
    /// `$` not followed by a number up to 255, or a suffix other than the six.
    BadAnnotation(String),
    /// A character that has no place there (`}` outside a comment, `[` inside moves).
    Unexpected(char),
    /// Variations nested more than 100 deep.
    TooDeep,
}

impl fmt::Display for ReadProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadProblem::BadTag(t) => {
                write!(f, "bad tag '{}' (tags are [Key \"value\"])", printable(t))
            }
            ReadProblem::UnclosedComment => f.write_str("unclosed comment"),
            ReadProblem::UnclosedVariation => f.write_str("unclosed variation"),
            ReadProblem::UnmatchedClose => f.write_str("')' with no variation open"),
            ReadProblem::VariationWithoutMove => f.write_str("a variation with no move before it"),
            ReadProblem::AnnotationWithoutMove => {
                f.write_str("an annotation with no move before it")
            }
            ReadProblem::BadAnnotation(t) => write!(f, "bad annotation '{}'", printable(t)),
            ReadProblem::Unexpected(c) => {
                write!(f, "unexpected '{}'", printable(c.encode_utf8(&mut [0; 4])))
            }
            ReadProblem::TooDeep => {
                write!(f, "variations nested more than {MAX_NESTING} deep")
            }
        }
    }
}

/// Text from a file as a message shows it: control characters escaped (`\u{0}`), so
/// that a NUL or an escape sequence read from a file cannot garble the terminal or the
/// log the message goes to.
pub(crate) fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|c| {
                if c.is_control() {
                    c.escape_default().to_string()
                } else {
                    c.to_string()
                }
            })
            .collect(),
    )
}
