//! Finds where each value of a RON document starts, by structural path.
//!
//! serde forgets positions once a file is parsed, but a modder needs the line and column
//! of an off-board cell or an unknown piece letter, not just its meaning. This is a small
//! tolerant scanner over RON's token structure that records, for every value, a path such
//! as `setup.white[2][1][0]` (struct fields by name, list and tuple items by index, the
//! names of structs and enum variants skipped) and the position where it starts.

use std::collections::HashMap;

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Open(char),
    Close(char),
    Comma,
    Colon,
    Ident(String),
    Text(String),
    Other,
}

struct Lexed {
    token: Token,
    line: usize,
    column: usize,
}

fn lex(src: &str) -> Vec<Lexed> {
    let mut lexer = Lexer {
        chars: src.chars().collect(),
        i: 0,
        line: 1,
        column: 1,
    };
    let mut out = Vec::new();
    while let Some(&c) = lexer.chars.get(lexer.i) {
        let (line, column) = (lexer.line, lexer.column);
        if c.is_whitespace() {
            lexer.bump();
        } else if c == '/' && lexer.peek(1) == Some('/') {
            lexer.skip_line_comment();
        } else if c == '/' && lexer.peek(1) == Some('*') {
            lexer.skip_block_comment();
        } else if c == '#' && lexer.peek(1) == Some('!') {
            lexer.skip_attribute();
        } else {
            let token = lexer.token(c);
            out.push(Lexed {
                token,
                line,
                column,
            });
        }
    }
    out
}

/// A position in the text being lexed, with its line and column kept right.
struct Lexer {
    chars: Vec<char>,
    i: usize,
    line: usize,
    column: usize,
}

impl Lexer {
    /// The char `k` places ahead.
    fn peek(&self, k: usize) -> Option<char> {
        self.chars.get(self.i + k).copied()
    }

    fn at_end(&self) -> bool {
        self.i >= self.chars.len()
    }

    /// Advances over one char.
    fn bump(&mut self) {
        if self.chars[self.i] == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        self.i += 1;
    }

    /// `// ...` up to the end of the line.
    fn skip_line_comment(&mut self) {
        while !self.at_end() && self.chars[self.i] != '\n' {
            self.bump();
        }
    }

    /// An extension attribute, `#![enable(...)]`: up to its closing bracket, nested
    /// brackets included. It says how to read the document and is not part of its
    /// value.
    fn skip_attribute(&mut self) {
        let mut depth = 0;
        while !self.at_end() {
            match self.chars[self.i] {
                '[' => depth += 1,
                ']' => {
                    depth -= 1;
                    if depth == 0 {
                        self.bump();
                        return;
                    }
                }
                _ => {}
            }
            self.bump();
        }
    }

    /// `/* ... */`, nested as Rust nests them.
    fn skip_block_comment(&mut self) {
        let mut depth = 0;
        while !self.at_end() {
            if self.chars[self.i] == '/' && self.peek(1) == Some('*') {
                depth += 1;
                self.bump();
            } else if self.chars[self.i] == '*' && self.peek(1) == Some('/') {
                depth -= 1;
                self.bump();
                if depth == 0 {
                    self.bump();
                    break;
                }
            }
            self.bump();
        }
    }

    /// The token starting with `c`, consumed.
    fn token(&mut self, c: char) -> Token {
        match c {
            '(' | '[' | '{' => {
                self.bump();
                Token::Open(c)
            }
            ')' | ']' | '}' => {
                self.bump();
                Token::Close(c)
            }
            ',' => {
                self.bump();
                Token::Comma
            }
            ':' => {
                self.bump();
                Token::Colon
            }
            '"' | '\'' => Token::Text(self.quoted(c)),
            'r' if matches!(self.peek(1), Some('"') | Some('#')) => Token::Text(self.raw_string()),
            c if c.is_alphabetic() || c == '_' => Token::Ident(self.ident()),
            _ => {
                // Numbers, signs and anything else: one token up to a delimiter.
                while !self.at_end()
                    && !self.chars[self.i].is_whitespace()
                    && !"()[]{},:".contains(self.chars[self.i])
                {
                    self.bump();
                }
                Token::Other
            }
        }
    }

    /// A string or char between `quote`s, with backslash escapes kept as the escaped
    /// char.
    fn quoted(&mut self, quote: char) -> String {
        let mut text = String::new();
        self.bump();
        while !self.at_end() && self.chars[self.i] != quote {
            if self.chars[self.i] == '\\' {
                self.bump();
            }
            if !self.at_end() {
                text.push(self.chars[self.i]);
                self.bump();
            }
        }
        if !self.at_end() {
            self.bump();
        }
        text
    }

    /// A raw string: `r"..."` or `r#"..."#`.
    fn raw_string(&mut self) -> String {
        self.bump();
        let mut hashes = 0;
        while !self.at_end() && self.chars[self.i] == '#' {
            hashes += 1;
            self.bump();
        }
        if !self.at_end() {
            self.bump();
        }
        let mut text = String::new();
        while !self.at_end() {
            if self.chars[self.i] == '"' && (1..=hashes).all(|k| self.peek(k) == Some('#')) {
                for _ in 0..=hashes {
                    self.bump();
                }
                break;
            }
            text.push(self.chars[self.i]);
            self.bump();
        }
        text
    }

    fn ident(&mut self) -> String {
        let mut s = String::new();
        while !self.at_end() && (self.chars[self.i].is_alphanumeric() || self.chars[self.i] == '_')
        {
            s.push(self.chars[self.i]);
            self.bump();
        }
        s
    }
}

/// Start positions of every value in a RON document, by path.
#[derive(Debug, Default)]
pub(crate) struct Locations {
    map: HashMap<String, (usize, usize)>,
}

impl Locations {
    pub fn scan(src: &str) -> Locations {
        let tokens = lex(src);
        let mut s = Scanner {
            tokens,
            pos: 0,
            map: HashMap::new(),
        };
        s.value(String::new());
        Locations { map: s.map }
    }

    /// The position of the value at `path`, or of its nearest recorded ancestor.
    pub fn find(&self, path: &str) -> Option<(usize, usize)> {
        let mut p = path;
        loop {
            if let Some(&pos) = self.map.get(p) {
                return Some(pos);
            }
            let cut = p.rfind(['.', '['])?;
            p = &p[..cut];
        }
    }
}

struct Scanner {
    tokens: Vec<Lexed>,
    pos: usize,
    map: HashMap<String, (usize, usize)>,
}

impl Scanner {
    fn peek(&self, k: usize) -> Option<&Token> {
        self.tokens.get(self.pos + k).map(|t| &t.token)
    }

    fn value(&mut self, path: String) {
        let Some(t) = self.tokens.get(self.pos) else {
            return;
        };
        self.map.entry(path.clone()).or_insert((t.line, t.column));
        match &t.token {
            Token::Ident(_) => {
                self.pos += 1;
                if self.peek(0) == Some(&Token::Open('(')) {
                    self.parenthesised(&path);
                }
            }
            Token::Open('(') => self.parenthesised(&path),
            Token::Open('[') => self.list(&path),
            Token::Open('{') => self.map_value(&path),
            _ => self.pos += 1,
        }
    }

    /// `( name: value, ... )` or `( value, ... )`.
    fn parenthesised(&mut self, path: &str) {
        self.pos += 1;
        let named =
            matches!(self.peek(0), Some(Token::Ident(_))) && self.peek(1) == Some(&Token::Colon);
        let mut index = 0;
        while let Some(t) = self.peek(0) {
            match t {
                Token::Close(_) => {
                    self.pos += 1;
                    return;
                }
                Token::Comma => self.pos += 1,
                Token::Ident(name) if named && self.peek(1) == Some(&Token::Colon) => {
                    let child = join_field(path, &name.clone());
                    self.pos += 2;
                    self.value(child);
                }
                _ => {
                    let before = self.pos;
                    self.value(format!("{path}[{index}]"));
                    index += 1;
                    if self.pos == before {
                        self.pos += 1;
                    }
                }
            }
        }
    }

    fn list(&mut self, path: &str) {
        self.pos += 1;
        let mut index = 0;
        while let Some(t) = self.peek(0) {
            match t {
                Token::Close(_) => {
                    self.pos += 1;
                    return;
                }
                Token::Comma => self.pos += 1,
                _ => {
                    let before = self.pos;
                    self.value(format!("{path}[{index}]"));
                    index += 1;
                    if self.pos == before {
                        self.pos += 1;
                    }
                }
            }
        }
    }

    fn map_value(&mut self, path: &str) {
        self.pos += 1;
        while let Some(t) = self.peek(0) {
            match t {
                Token::Close(_) => {
                    self.pos += 1;
                    return;
                }
                Token::Comma => self.pos += 1,
                Token::Text(key) | Token::Ident(key) if self.peek(1) == Some(&Token::Colon) => {
                    let child = join_field(path, &key.clone());
                    self.pos += 2;
                    self.value(child);
                }
                _ => self.pos += 1,
            }
        }
    }
}

fn join_field(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_string()
    } else {
        format!("{path}.{name}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_fields_items_and_variant_contents() {
        let src = "// comment\n(\n  id: \"x\",\n  board: (shape: Hexagon(5)),\n  setup: Pieces(\n    white: [('K', [\"g1\", \"z9\"])],\n  ),\n  /* note */ list: [1, -2],\n)";
        let l = Locations::scan(src);
        assert_eq!(l.find("id"), Some((3, 7)));
        assert_eq!(l.find("board.shape"), Some((4, 18)));
        assert_eq!(l.find("board.shape[0]"), Some((4, 26)));
        assert_eq!(l.find("setup.white[0][0]"), Some((6, 14)));
        assert_eq!(l.find("setup.white[0][1][1]"), Some((6, 26)));
        assert_eq!(l.find("list[1]"), Some((8, 24)));
        // Unknown paths fall back to the nearest ancestor.
        assert_eq!(l.find("setup.white[0][1][7]"), Some((6, 19)));
    }

    /// A file may open with RON's extension attributes; they are not the document's
    /// value (they once were taken for it, and every position was lost).
    #[test]
    fn extension_attributes_before_the_value_are_passed_over() {
        let src = "#![enable(implicit_some)]\n#! [ enable(unwrap_newtypes, [x]) ]\n(\n  id: \"x\",\n  list: [1, -2],\n)";
        let l = Locations::scan(src);
        assert_eq!(l.find("id"), Some((4, 7)));
        assert_eq!(l.find("list[1]"), Some((5, 13)));
    }
}
