//! PGN text into tokens, each with where it was read: tag pairs, comments (`{...}`,
//! which may span lines, and `;` to the end of the line), parentheses, annotations,
//! moves and results. Move numbers and `%` escape lines are dropped here.
//!
//! Lexing knows nothing of games; it only keeps a comment left open from swallowing
//! the games after it: inside a `{` comment, a line that is wholly tag pairs and starts
//! at the first column ends the comment as unclosed, and is read as tags.

use super::problem::ReadProblem;
use super::result::is_result;
use super::tree::Place;

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Tok {
    Tag {
        key: String,
        value: String,
    },
    /// A line starting with `[` that is not tag pairs: the line.
    BadTag(String),
    Comment(String),
    Open,
    Close,
    Nag(u8),
    /// A move, with the annotation written onto it (`e4!?`).
    Move {
        san: String,
        nag: Option<u8>,
    },
    /// `!`, `?`, ... written apart from the move.
    Suffix(u8),
    Result(String),
    Bad(ReadProblem),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Token {
    pub tok: Tok,
    pub place: Place,
}

/// Characters that end a move or a number: they are tokens of their own.
const DELIMITERS: &[char] = &['{', '}', '(', ')', ';', '$', '[', ']'];

/// The glyphs written onto moves, as the NAGs they stand for.
pub(crate) fn suffix_nag(s: &str) -> Option<u8> {
    Some(match s {
        "!" => 1,
        "?" => 2,
        "!!" => 3,
        "??" => 4,
        "!?" => 5,
        "?!" => 6,
        _ => return None,
    })
}

/// Reads tag pairs from the start of `line` (spaces allowed around them): the pairs,
/// and the byte where the rest of the line begins. `None` if a `[` starts something
/// that is not a tag pair.
pub(crate) fn tag_pairs(line: &str) -> Option<(Vec<(String, String)>, usize)> {
    let chars: Vec<(usize, char)> = line.char_indices().collect();
    let mut j = 0;
    let skip_space = |j: &mut usize| {
        while *j < chars.len() && chars[*j].1.is_whitespace() {
            *j += 1;
        }
    };
    let mut pairs = Vec::new();
    loop {
        skip_space(&mut j);
        if j >= chars.len() || chars[j].1 != '[' {
            break;
        }
        j += 1;
        skip_space(&mut j);
        let mut key = String::new();
        while j < chars.len() && (chars[j].1.is_ascii_alphanumeric() || chars[j].1 == '_') {
            key.push(chars[j].1);
            j += 1;
        }
        skip_space(&mut j);
        if key.is_empty() || j >= chars.len() || chars[j].1 != '"' {
            return None;
        }
        j += 1;
        let mut value = String::new();
        loop {
            let &(_, c) = chars.get(j)?;
            j += 1;
            match c {
                '"' => break,
                '\\' => match chars.get(j) {
                    Some(&(_, e)) if e == '"' || e == '\\' => {
                        value.push(e);
                        j += 1;
                    }
                    // Not an escape the standard has: the backslash is text.
                    _ => value.push('\\'),
                },
                c => value.push(c),
            }
        }
        skip_space(&mut j);
        if j >= chars.len() || chars[j].1 != ']' {
            return None;
        }
        j += 1;
        pairs.push((key, value));
    }
    let rest = chars.get(j).map_or(line.len(), |&(b, _)| b);
    Some((pairs, rest))
}

/// A line a writer puts between games: tag pairs alone, from the first column.
fn is_tag_line(line: &str) -> bool {
    line.starts_with('[')
        && tag_pairs(line).is_some_and(|(pairs, rest)| !pairs.is_empty() && rest == line.len())
}

fn clean(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The lines of `text`, each ended by LF, CR LF, or a CR alone (as old Macintosh files
/// end them: read as one line, their `;` comments would run to the end of the file and
/// every error would be on line 1).
fn lines(text: &str) -> impl Iterator<Item = &str> {
    text.split('\n')
        .flat_map(|l| l.strip_suffix('\r').unwrap_or(l).split('\r'))
}

/// Whether `c` has no place in movetext: a control character that is not a space (NUL,
/// a C1 control read from a Latin-1 byte), which would only make an unreadable move.
fn is_stray_control(c: char) -> bool {
    c.is_control() && !c.is_whitespace()
}

/// Every token of `text`, in order.
pub(crate) fn tokens(text: &str) -> Vec<Token> {
    let text = crate::text::strip_bom(text);
    let mut out = Vec::new();
    // A `{` comment going on past its line: where it opened and its text so far.
    let mut open: Option<(Place, String)> = None;
    for (i, line) in lines(text).enumerate() {
        let number = i + 1;
        let chars: Vec<char> = line.chars().collect();
        let mut from = 0;
        if let Some((place, mut comment)) = open.take() {
            if is_tag_line(line) {
                out.push(Token {
                    tok: Tok::Bad(ReadProblem::UnclosedComment),
                    place,
                });
            } else if let Some(end) = chars.iter().position(|c| *c == '}') {
                comment.push(' ');
                comment.extend(&chars[..end]);
                out.push(Token {
                    tok: Tok::Comment(clean(&comment)),
                    place,
                });
                from = end + 1;
            } else {
                comment.push(' ');
                comment.push_str(line);
                open = Some((place, comment));
                continue;
            }
        }
        if from == 0 {
            if line.starts_with('%') {
                continue;
            }
            if line.trim_start().starts_with('[') {
                let column = chars.iter().position(|c| *c == '[').unwrap_or(0) + 1;
                let place = Place {
                    line: number,
                    column,
                };
                match tag_pairs(line) {
                    Some((pairs, rest)) => {
                        for (key, value) in pairs {
                            out.push(Token {
                                tok: Tok::Tag { key, value },
                                place,
                            });
                        }
                        from = line[..rest].chars().count();
                    }
                    None => {
                        out.push(Token {
                            tok: Tok::BadTag(line.trim().to_string()),
                            place,
                        });
                        continue;
                    }
                }
            }
        }
        open = movetext(&chars, from, number, &mut out);
    }
    if let Some((place, _)) = open {
        out.push(Token {
            tok: Tok::Bad(ReadProblem::UnclosedComment),
            place,
        });
    }
    out
}

/// The tokens of one line of movetext from character `from`; a `{` comment left open
/// at the end of the line is returned.
fn movetext(
    chars: &[char],
    from: usize,
    line: usize,
    out: &mut Vec<Token>,
) -> Option<(Place, String)> {
    let mut j = from;
    while j < chars.len() {
        let c = chars[j];
        let place = Place {
            line,
            column: j + 1,
        };
        let mut push = |tok| out.push(Token { tok, place });
        match c {
            c if c.is_whitespace() => j += 1,
            '{' => match chars[j + 1..].iter().position(|c| *c == '}') {
                Some(len) => {
                    let text: String = chars[j + 1..j + 1 + len].iter().collect();
                    push(Tok::Comment(clean(&text)));
                    j += len + 2;
                }
                None => return Some((place, chars[j + 1..].iter().collect())),
            },
            ';' => {
                let text: String = chars[j + 1..].iter().collect();
                push(Tok::Comment(clean(&text)));
                return None;
            }
            '(' => {
                push(Tok::Open);
                j += 1;
            }
            ')' => {
                push(Tok::Close);
                j += 1;
            }
            '$' => {
                let digits = chars[j + 1..]
                    .iter()
                    .take_while(|c| c.is_ascii_digit())
                    .count();
                let text: String = chars[j..j + 1 + digits].iter().collect();
                push(match text[1..].parse::<u8>() {
                    Ok(n) => Tok::Nag(n),
                    Err(_) => Tok::Bad(ReadProblem::BadAnnotation(text)),
                });
                j += 1 + digits;
            }
            c if is_stray_control(c) => {
                push(Tok::Bad(ReadProblem::Unexpected(c)));
                j += 1;
            }
            '[' | ']' | '}' => {
                push(Tok::Bad(ReadProblem::Unexpected(c)));
                j += 1;
            }
            _ => {
                let len = chars[j..]
                    .iter()
                    .take_while(|c| {
                        !c.is_whitespace() && !DELIMITERS.contains(c) && !is_stray_control(**c)
                    })
                    .count();
                let symbol: String = chars[j..j + len].iter().collect();
                if let Some(tok) = symbol_token(&symbol) {
                    push(tok);
                }
                j += len;
            }
        }
    }
    None
}

/// A run of move characters: a result, a move number (dropped) with perhaps a move
/// glued to it (`12.Nf3`), a move with its annotation, or an annotation alone.
fn symbol_token(symbol: &str) -> Option<Tok> {
    if is_result(symbol) {
        return Some(Tok::Result(symbol.to_string()));
    }
    let digits = symbol.len()
        - symbol
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .len();
    let rest = &symbol[digits..];
    let text = if digits > 0 && rest.is_empty() {
        return None;
    } else if rest.starts_with('.') || symbol.starts_with('.') {
        let text = rest.trim_start_matches('.');
        if text.is_empty() {
            return None;
        }
        text
    } else {
        symbol
    };
    let san = text.trim_end_matches(['!', '?']);
    let suffix = &text[san.len()..];
    let nag = if suffix.is_empty() {
        None
    } else {
        match suffix_nag(suffix) {
            Some(n) => Some(n),
            None => return Some(Tok::Bad(ReadProblem::BadAnnotation(text.to_string()))),
        }
    };
    Some(match (san.is_empty(), nag) {
        (true, Some(n)) => Tok::Suffix(n),
        _ => Tok::Move {
            san: san.to_string(),
            nag,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(text: &str) -> Vec<Tok> {
        tokens(text).into_iter().map(|t| t.tok).collect()
    }

    fn mv(san: &str, nag: Option<u8>) -> Tok {
        Tok::Move {
            san: san.into(),
            nag,
        }
    }

    #[test]
    fn numbers_glued_or_apart_are_dropped_and_suffixes_are_nags() {
        assert_eq!(
            toks("1.f6 c5 2. Ni3!? 2...Nc6?? 3 e5 $14 ! 1/2-1/2"),
            [
                mv("f6", None),
                mv("c5", None),
                mv("Ni3", Some(5)),
                mv("Nc6", Some(4)),
                mv("e5", None),
                Tok::Nag(14),
                Tok::Suffix(1),
                Tok::Result("1/2-1/2".into()),
            ]
        );
        assert_eq!(
            toks("e4!!! $ $256 0-0"),
            [
                Tok::Bad(ReadProblem::BadAnnotation("e4!!!".into())),
                Tok::Bad(ReadProblem::BadAnnotation("$".into())),
                Tok::Bad(ReadProblem::BadAnnotation("$256".into())),
                mv("0-0", None),
            ]
        );
    }

    #[test]
    fn comments_escapes_and_tags_with_their_places() {
        let text =
            "[White \"a \\\"b\\\" \\\\ c\\d\"]\n%skip 1. e4\n1. f6 {two\nlines} ; rest\n( c5 )";
        let t = tokens(text);
        assert_eq!(
            t[0].tok,
            Tok::Tag {
                key: "White".into(),
                value: "a \"b\" \\ c\\d".into()
            }
        );
        assert_eq!(t[1].tok, mv("f6", None));
        assert_eq!(t[1].place, Place { line: 3, column: 4 });
        assert_eq!(t[2].tok, Tok::Comment("two lines".into()));
        assert_eq!(t[2].place, Place { line: 3, column: 7 });
        assert_eq!(t[3].tok, Tok::Comment("rest".into()));
        assert_eq!(t[3].place, Place { line: 4, column: 8 });
        assert_eq!(t[4].tok, Tok::Open);
        assert_eq!(t[4].place, Place { line: 5, column: 1 });
        assert_eq!(
            toks("[Variant glinski]"),
            [Tok::BadTag("[Variant glinski]".into())]
        );
    }

    #[test]
    fn a_comment_left_open_stops_at_the_next_games_tags() {
        let t = tokens("1. f6 {open\nstill open\n[Event \"next\"]\n1. e5");
        assert_eq!(t[1].tok, Tok::Bad(ReadProblem::UnclosedComment));
        assert_eq!(t[1].place, Place { line: 1, column: 7 });
        assert!(matches!(&t[2].tok, Tok::Tag { key, .. } if key == "Event"));
        assert_eq!(t[3].tok, mv("e5", None));
        // Indented, or not tags alone: comment text.
        let t = tokens("{a\n [Event \"x\"]\n[b] c}");
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].tok, Tok::Comment("a [Event \"x\"] [b] c".into()));
    }
}
