//! An engine's command line split into its program and arguments, so that the engine
//! is started directly rather than through a shell: no shell to install on Windows, no
//! `$`, `;` or `*` in a path meaning something else, and the process the match stops is
//! the engine itself rather than a shell in front of it.
//!
//! The rules are the shell's for the cases an engine command needs:
//!
//! - whitespace (outside quotes) separates words;
//! - `'...'` keeps everything inside as it is;
//! - `"..."` groups too, and inside it a backslash escapes `"` and `\`;
//! - outside quotes a backslash escapes whitespace, a quote or a backslash;
//! - a backslash before any other character is kept, so that a Windows path such as
//!   `C:\engines\old.exe` needs no quoting (write `\\` for two backslashes in a row).
//!
//! Quotes may join a word's parts (`--name="a b"c` is one word, `--name=a bc`), and
//! `''` is an empty word.

use std::fmt;

/// Why a command line could not be split.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandLineError {
    /// Nothing but whitespace.
    Empty,
    /// A quote opened at character `at` (counting from 1) is never closed.
    UnclosedQuote {
        /// The command line.
        line: String,
        /// The quote character (`'` or `"`).
        quote: char,
        /// Where it opened.
        at: usize,
    },
}

impl fmt::Display for CommandLineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandLineError::Empty => write!(f, "the engine command is empty"),
            CommandLineError::UnclosedQuote { line, quote, at } => write!(
                f,
                "the {quote} opened at character {at} of the engine command `{line}` is never closed"
            ),
        }
    }
}

impl std::error::Error for CommandLineError {}

/// Where the splitter is: which kind of quote it is inside, if any.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Quote {
    None,
    Single,
    Double,
}

/// The words of `line`: the program first, then its arguments.
pub fn split_command_line(line: &str) -> Result<Vec<String>, CommandLineError> {
    let mut words = Vec::new();
    // The word being read; `None` between words (so that `''` still makes a word).
    let mut word: Option<String> = None;
    let mut quote = Quote::None;
    let mut opened_at = 0;
    let mut chars = line.chars().enumerate().peekable();
    while let Some((i, c)) = chars.next() {
        match (quote, c) {
            (Quote::Single, '\'') | (Quote::Double, '"') => quote = Quote::None,
            (Quote::Single, c) => word.get_or_insert_default().push(c),
            (Quote::None, c) if c.is_whitespace() => words.extend(word.take()),
            (Quote::None, '\'' | '"') => {
                quote = if c == '\'' {
                    Quote::Single
                } else {
                    Quote::Double
                };
                opened_at = i + 1;
                word.get_or_insert_default();
            }
            (_, '\\') => {
                let escaped = chars.next_if(|&(_, next)| escapable(quote, next));
                word.get_or_insert_default()
                    .push(escaped.map_or('\\', |(_, next)| next));
            }
            (_, c) => word.get_or_insert_default().push(c),
        }
    }
    if quote != Quote::None {
        return Err(CommandLineError::UnclosedQuote {
            line: line.to_string(),
            quote: if quote == Quote::Single { '\'' } else { '"' },
            at: opened_at,
        });
    }
    words.extend(word);
    if words.is_empty() {
        return Err(CommandLineError::Empty);
    }
    Ok(words)
}

/// Whether a backslash before `next` escapes it (see the module's rules).
fn escapable(quote: Quote, next: char) -> bool {
    match quote {
        Quote::Double => matches!(next, '"' | '\\'),
        _ => matches!(next, '"' | '\'' | '\\') || next.is_whitespace(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        split_command_line(line).unwrap_or_else(|e| panic!("{line}: {e}"))
    }

    #[test]
    fn whitespace_separates_words_however_much_of_it() {
        assert_eq!(words("engine"), ["engine"]);
        assert_eq!(
            words("  ./engine \t--threads  2\n"),
            ["./engine", "--threads", "2"]
        );
    }

    #[test]
    fn quotes_group_words_and_may_join_parts_of_one() {
        assert_eq!(
            words("'/opt/my engines/e' \"a b\" c"),
            ["/opt/my engines/e", "a b", "c"]
        );
        assert_eq!(words("--name=\"a b\"c'd e'"), ["--name=a bcd e"]);
        // Each kind of quote is plain text inside the other.
        assert_eq!(words("'say \"hi\"' \"it's\""), ["say \"hi\"", "it's"]);
        // An empty pair of quotes is an empty word, not nothing.
        assert_eq!(words("e '' \"\" x"), ["e", "", "", "x"]);
    }

    #[test]
    fn no_shell_reads_the_words() {
        // What a shell would expand or act on stays text.
        assert_eq!(
            words("e $HOME a;b *.txt `x` |"),
            ["e", "$HOME", "a;b", "*.txt", "`x`", "|"]
        );
    }

    #[test]
    fn backslashes_escape_where_the_rules_say_and_are_kept_elsewhere() {
        // Outside quotes: whitespace, quotes and backslashes.
        assert_eq!(words(r"my\ engine"), ["my engine"]);
        assert_eq!(words(r#"\"a\' \\"#), ["\"a'", "\\"]);
        // Inside double quotes: only a double quote and a backslash.
        assert_eq!(words(r#""a\"b\\c\d""#), [r#"a"b\c\d"#]);
        // Inside single quotes: nothing.
        assert_eq!(words(r"'a\'"), [r"a\"]);
        // Before anything else the backslash stays: Windows paths need no quoting.
        assert_eq!(
            words(r"C:\engines\old.exe --x"),
            [r"C:\engines\old.exe", "--x"]
        );
        // A backslash at the very end stays too.
        assert_eq!(words(r"e a\"), ["e", r"a\"]);
    }

    #[test]
    fn an_unclosed_quote_or_nothing_is_an_error_that_says_where() {
        let err = split_command_line("engine --x 'abc").unwrap_err();
        assert_eq!(
            err,
            CommandLineError::UnclosedQuote {
                line: "engine --x 'abc".into(),
                quote: '\'',
                at: 12,
            }
        );
        assert!(err.to_string().contains("character 12"), "{err}");
        let err = split_command_line(r#"e "a\""#).unwrap_err();
        assert!(
            matches!(
                err,
                CommandLineError::UnclosedQuote {
                    quote: '"',
                    at: 3,
                    ..
                }
            ),
            "{err:?}"
        );
        assert_eq!(split_command_line(""), Err(CommandLineError::Empty));
        assert_eq!(split_command_line(" \t "), Err(CommandLineError::Empty));
    }
}
