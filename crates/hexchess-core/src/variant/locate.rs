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
    let chars: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line, mut column) = (0, 1, 1);
    // Advances over one char, keeping line and column right.
    let bump = |i: &mut usize, line: &mut usize, column: &mut usize| {
        if chars[*i] == '\n' {
            *line += 1;
            *column = 1;
        } else {
            *column += 1;
        }
        *i += 1;
    };
    while i < chars.len() {
        let c = chars[i];
        let (l0, c0) = (line, column);
        if c.is_whitespace() {
            bump(&mut i, &mut line, &mut column);
            continue;
        }
        if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                bump(&mut i, &mut line, &mut column);
            }
            continue;
        }
        if c == '/' && chars.get(i + 1) == Some(&'*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    bump(&mut i, &mut line, &mut column);
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    bump(&mut i, &mut line, &mut column);
                    if depth == 0 {
                        bump(&mut i, &mut line, &mut column);
                        break;
                    }
                }
                bump(&mut i, &mut line, &mut column);
            }
            continue;
        }
        let token = match c {
            '(' | '[' | '{' => {
                bump(&mut i, &mut line, &mut column);
                Token::Open(c)
            }
            ')' | ']' | '}' => {
                bump(&mut i, &mut line, &mut column);
                Token::Close(c)
            }
            ',' => {
                bump(&mut i, &mut line, &mut column);
                Token::Comma
            }
            ':' => {
                bump(&mut i, &mut line, &mut column);
                Token::Colon
            }
            '"' | '\'' => {
                let quote = c;
                let mut text = String::new();
                bump(&mut i, &mut line, &mut column);
                while i < chars.len() && chars[i] != quote {
                    if chars[i] == '\\' {
                        bump(&mut i, &mut line, &mut column);
                    }
                    if i < chars.len() {
                        text.push(chars[i]);
                        bump(&mut i, &mut line, &mut column);
                    }
                }
                if i < chars.len() {
                    bump(&mut i, &mut line, &mut column);
                }
                Token::Text(text)
            }
            'r' if matches!(chars.get(i + 1), Some('"') | Some('#')) => {
                // Raw string: r"..." or r#"..."#.
                bump(&mut i, &mut line, &mut column);
                let mut hashes = 0;
                while i < chars.len() && chars[i] == '#' {
                    hashes += 1;
                    bump(&mut i, &mut line, &mut column);
                }
                if i < chars.len() {
                    bump(&mut i, &mut line, &mut column);
                }
                let mut text = String::new();
                while i < chars.len() {
                    if chars[i] == '"' && (1..=hashes).all(|k| chars.get(i + k) == Some(&'#')) {
                        for _ in 0..=hashes {
                            bump(&mut i, &mut line, &mut column);
                        }
                        break;
                    }
                    text.push(chars[i]);
                    bump(&mut i, &mut line, &mut column);
                }
                Token::Text(text)
            }
            c if c.is_alphabetic() || c == '_' => {
                let mut s = String::new();
                while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                    s.push(chars[i]);
                    bump(&mut i, &mut line, &mut column);
                }
                Token::Ident(s)
            }
            _ => {
                // Numbers, signs and anything else: one token up to a delimiter.
                while i < chars.len() && !chars[i].is_whitespace() && !"()[]{},:".contains(chars[i])
                {
                    bump(&mut i, &mut line, &mut column);
                }
                Token::Other
            }
        };
        out.push(Lexed {
            token,
            line: l0,
            column: c0,
        });
    }
    out
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
}
