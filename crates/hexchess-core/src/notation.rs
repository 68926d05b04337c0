//! Move notation: long algebraic for protocols and files (`f5f7`, `e10f11q`), and the
//! SAN-like notation players read (`Nh3`, `Qxe7+`, `f11=Q#`), both written and read.
//! A placement from the hand is `N@c3` in both (the letter upper case for either side,
//! as crazyhouse programs write drops).

use std::fmt;

use crate::bitboard::CellSet;
use crate::board::Board;
use crate::cell::Cell;
use crate::moves::Move;
use crate::piece::Kind;
use crate::position::Position;
use crate::rules::Rules;

/// Why a move text was not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a move in any notation this program reads.
    Malformed(String),
    /// Well formed, but not a legal move here.
    Illegal(String),
    /// Several legal moves fit the text; the candidates in SAN.
    Ambiguous(String, Vec<String>),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Malformed(t) => write!(f, "'{t}' is not a move"),
            MoveError::Illegal(t) => write!(f, "'{t}' is not a legal move here"),
            MoveError::Ambiguous(t, c) => {
                write!(f, "'{t}' is ambiguous: it could be {}", c.join(", "))
            }
        }
    }
}

impl std::error::Error for MoveError {}

/// Splits a cell name into its letters and its number: `f11` -> (`f`, `11`).
fn split_name(name: &str) -> (&str, &str) {
    let i = name
        .find(|c: char| c.is_ascii_digit())
        .unwrap_or(name.len());
    name.split_at(i)
}

/// Reads a cell name at the start of `s`: letters then digits. Returns it and the rest.
fn take_cell<'a>(board: &Board, s: &'a str) -> Option<(Cell, &'a str)> {
    let letters = s.find(|c: char| !c.is_ascii_lowercase()).unwrap_or(s.len());
    if letters == 0 {
        return None;
    }
    let digits = s[letters..]
        .find(|c: char| !c.is_ascii_digit())
        .map_or(s.len(), |i| i + letters);
    if digits == letters {
        return None;
    }
    board.parse_cell(&s[..digits]).map(|c| (c, &s[digits..]))
}

impl<B: CellSet> Position<B> {
    /// Long algebraic: from-cell, to-cell, and a lower-case promotion letter.
    pub fn move_to_lan(&self, mv: Move) -> String {
        let rules = &*self.rules;
        let b = rules.board();
        if let Some(k) = mv.placed_kind() {
            return self.placement_text(k, mv.to());
        }
        // Castling is written as the royal piece taking its own rook, so it can never be
        // mistaken for an ordinary move between the same cells (see `castling_target`).
        if let Some(i) = mv.castling()
            && let Some(target) = self.castling_target(i)
        {
            return format!("{}{}", b.name(mv.from()), b.name(target));
        }
        let mut s = format!("{}{}", b.name(mv.from()), b.name(mv.to()));
        if let Some(k) = mv.promotion() {
            s.push(rules.kind_info(k).letter.to_ascii_lowercase());
        }
        s
    }

    /// SAN-like notation without check marks (in a game of more sides a check may fall
    /// on any opponent, and the next side may be one that is out).
    pub fn move_to_san_unmarked(&self, mv: Move) -> String {
        self.san_body(mv, &self.legal_moves())
    }

    /// A move of a game of more sides: SAN without check marks (as
    /// [`Position::move_to_san_unmarked`]), but a pawn always names its from-cell. Its
    /// pawns step forward two ways and capture two ways, so the target alone seldom
    /// tells which pawn moved, and SAN's shortest hint gave one list `a4`, `ee4` and
    /// `c13d13` side by side; every pawn move reads alike: `e3e4`, `c13d13`, `n11xm10`,
    /// `c12c13=V`.
    pub fn move_to_text_of_more_sides(&self, mv: Move) -> String {
        let rules = &*self.rules;
        let pawn = self
            .piece_at(mv.from())
            .is_some_and(|p| rules.pawn_kind() == Some(p.kind));
        if !pawn || mv.placed_kind().is_some() || mv.castling().is_some() || mv.is_edit() {
            return self.move_to_san_unmarked(mv);
        }
        let b = rules.board();
        let mut s = b.name(mv.from()).to_string();
        if self.is_capture(mv) {
            s.push('x');
        }
        s.push_str(b.name(mv.to()));
        if let Some(k) = mv.promotion() {
            s.push('=');
            s.push(rules.kind_info(k).letter);
        }
        s
    }

    /// SAN-like notation, with check (`+`) and mate (`#`) marks.
    pub fn move_to_san(&self, mv: Move) -> String {
        let mut s = self.san_body(mv, &self.legal_moves());
        // The marks need the position after the move, not the game's history: a whole
        // copy would make writing a game's moves cost the square of its length.
        let mut after = self.without_history();
        after.make_move(mv);
        if after.in_check() {
            s.push(if after.legal_moves().is_empty() {
                '#'
            } else {
                '+'
            });
        }
        s
    }

    /// SAN without the check marks, disambiguated against `legal`.
    fn san_body(&self, mv: Move, legal: &[Move]) -> String {
        let rules = &*self.rules;
        if let Some(k) = mv.placed_kind() {
            return self.placement_text(k, mv.to());
        }
        if let Some(i) = mv.castling() {
            return rules
                .castling_notation(self.turn(), i)
                .unwrap_or("O-O")
                .to_string();
        }
        let b = rules.board();
        let piece = self.piece_at(mv.from()).expect("a move starts on a piece");
        let is_pawn = rules.pawn_kind() == Some(piece.kind);
        let capture = self.is_capture(mv);
        let from_name = b.name(mv.from());
        let (from_letters, from_number) = split_name(from_name);

        // Other legal moves of the same kind to the same cell need telling apart.
        let rivals: Vec<Cell> = legal
            .iter()
            .filter(|m| {
                m.to() == mv.to()
                    && m.from() != mv.from()
                    && m.promotion() == mv.promotion()
                    && self.piece_at(m.from()).map(|p| p.kind) == Some(piece.kind)
                    && (!is_pawn || self.is_capture(**m) == capture)
            })
            .map(|m| m.from())
            .collect();
        let same_letters = |c: &Cell| split_name(b.name(*c)).0 == from_letters;
        let same_number = |c: &Cell| split_name(b.name(*c)).1 == from_number;
        let hint = if rivals.is_empty() {
            if is_pawn && capture { from_letters } else { "" }
        } else if !rivals.iter().any(same_letters) {
            from_letters
        } else if !is_pawn && !rivals.iter().any(same_number) {
            from_number
        } else {
            from_name
        };

        let mut s = String::new();
        if !is_pawn {
            s.push(rules.kind_info(piece.kind).letter);
        }
        s.push_str(hint);
        if capture {
            s.push('x');
        }
        s.push_str(b.name(mv.to()));
        if let Some(k) = mv.promotion() {
            s.push('=');
            s.push(rules.kind_info(k).letter);
        }
        s
    }

    /// Reads a move in long algebraic or SAN-like notation and checks it is legal.
    ///
    /// SAN is read leniently: check marks and annotations are ignored, `x` and `=` are
    /// optional, and a disambiguation may be given even where none is needed.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let t = text.trim();
        let malformed = || MoveError::Malformed(t.to_string());
        if t.is_empty() {
            return Err(malformed());
        }
        let legal = self.legal_moves();
        if t.contains('@') {
            return self.parse_placement(t, &legal);
        }
        if let Some(r) = self.parse_lan(t, &legal) {
            return r;
        }
        self.parse_san(t, &legal)
    }

    /// `N@c3`: the kind's letter (either case; none for a pawn), `@`, the cell.
    fn placement_text(&self, k: Kind, cell: Cell) -> String {
        let rules = &*self.rules;
        format!("{}@{}", rules.kind_info(k).letter, rules.board().name(cell))
    }

    fn parse_placement(&self, text: &str, legal: &[Move]) -> Result<Move, MoveError> {
        let rules = &*self.rules;
        let malformed = || MoveError::Malformed(text.to_string());
        let t = text.trim_end_matches(['+', '#', '!', '?']);
        let (letter, cell) = t.split_once('@').ok_or_else(malformed)?;
        let kind = match letter.chars().collect::<Vec<_>>().as_slice() {
            [] => rules.pawn_kind(),
            [c] => rules.kind_by_letter(*c),
            _ => None,
        }
        .ok_or_else(malformed)?;
        let cell = rules.board().parse_cell(cell).ok_or_else(malformed)?;
        legal
            .iter()
            .copied()
            .find(|m| m.placed_kind() == Some(kind) && m.to() == cell)
            .ok_or_else(|| MoveError::Illegal(text.to_string()))
    }

    fn parse_lan(&self, t: &str, legal: &[Move]) -> Option<Result<Move, MoveError>> {
        let rules = &*self.rules;
        let b = rules.board();
        let (from, rest) = take_cell(b, t)?;
        let (to, rest) = take_cell(b, rest)?;
        let promotion = match rest {
            "" => None,
            p if p.len() == 1 => {
                let c = p.chars().next().expect("one char");
                if !c.is_ascii_lowercase() {
                    return None;
                }
                match rules.kind_by_letter(c) {
                    Some(k) => Some(k),
                    None => return Some(Err(MoveError::Malformed(t.to_string()))),
                }
            }
            _ => return None,
        };
        let found = legal.iter().filter(|m| !m.is_placement()).find(|m| {
            if let Some(i) = m.castling() {
                m.from() == from && self.castling_target(i) == Some(to) && promotion.is_none()
            } else {
                m.from() == from && m.to() == to && m.promotion() == promotion
            }
        });
        Some(match found {
            Some(m) => Ok(*m),
            None => Err(MoveError::Illegal(t.to_string())),
        })
    }

    /// The target cell long algebraic gives castling `i` of the side to move: its rook,
    /// as the royal piece taking its own rook; but where two castlings share that rook
    /// (Shafran's short and long castling on one flank), the royal piece's own
    /// destination, so that each castling has a text of its own.
    fn castling_target(&self, i: usize) -> Option<Cell> {
        let rules = &*self.rules;
        let side = self.turn();
        let cells = rules.castling_cells(side, i)?;
        let shared = (0..4)
            .filter(|&j| j != i)
            .filter_map(|j| rules.castling_cells(side, j))
            .any(|other| other.rook == cells.rook);
        Some(if shared { cells.king_to } else { cells.rook })
    }

    fn parse_san(&self, text: &str, legal: &[Move]) -> Result<Move, MoveError> {
        let s = text.trim_end_matches(['+', '#', '!', '?']);
        // Castling by its name (zeros accepted for the letter O).
        let named = s.replace('0', "O");
        if named.starts_with("O-O") {
            return legal
                .iter()
                .copied()
                .find(|m| {
                    m.castling()
                        .and_then(|i| self.rules.castling_notation(self.turn(), i))
                        .is_some_and(|n| n == named)
                })
                .ok_or_else(|| MoveError::Illegal(text.to_string()));
        }
        let san = SanParts::read(self.rules(), s)
            .ok_or_else(|| MoveError::Malformed(text.to_string()))?;
        let candidates: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| self.san_matches(&san, *m))
            .collect();
        match candidates.as_slice() {
            [m] => Ok(*m),
            [] => Err(MoveError::Illegal(text.to_string())),
            many => Err(MoveError::Ambiguous(
                text.to_string(),
                many.iter().map(|m| self.san_body(*m, legal)).collect(),
            )),
        }
    }

    /// Whether the legal move `m` is the one `san` describes.
    fn san_matches(&self, san: &SanParts, m: Move) -> bool {
        let Some(p) = self.piece_at(m.from()) else {
            return false;
        };
        let kind_ok = match san.kind {
            Some(k) => p.kind == k,
            None => Some(p.kind) == self.rules.pawn_kind(),
        };
        let name = self.rules.board().name(m.from());
        let (fl, fn_) = split_name(name);
        let hint = san.hint.as_str();
        let hint_ok = hint.is_empty() || hint == name || hint == fl || hint == fn_;
        kind_ok
            && hint_ok
            && m.to() == san.to
            && m.promotion() == san.promotion
            && (!san.capture || self.is_capture(m))
    }
}

/// A SAN move other than castling, read into its parts: `Nbxc3=Q` is a knight (`N`)
/// from the `b` file (`hint`), capturing (`x`), to c3, promoting to a queen.
struct SanParts {
    /// The moving piece's kind; none for a pawn.
    kind: Option<Kind>,
    /// A disambiguation: a file letter, a rank number or a whole cell name.
    hint: String,
    capture: bool,
    to: Cell,
    promotion: Option<Kind>,
}

impl SanParts {
    /// Reads `s` (check and annotation marks already off); `None` when it is not SAN.
    fn read<B: CellSet>(rules: &Rules<B>, mut s: &str) -> Option<SanParts> {
        let b = rules.board();
        // Promotion suffix: "=Q" or a trailing upper-case letter.
        let mut promotion = None;
        if let Some(last) = s.chars().last()
            && last.is_ascii_uppercase()
        {
            promotion = Some(rules.kind_by_letter(last)?);
            s = &s[..s.len() - 1];
            s = s.strip_suffix('=').unwrap_or(s);
        }
        // Piece letter.
        let mut kind = None;
        if let Some(first) = s.chars().next()
            && first.is_ascii_uppercase()
        {
            kind = Some(rules.kind_by_letter(first)?);
            s = &s[1..];
        }
        // Target: the cell name at the end.
        let digits = s.len() - s.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        let head = &s[..s.len() - digits];
        let letters = head.len()
            - head
                .trim_end_matches(|c: char| c.is_ascii_lowercase())
                .len();
        if digits == 0 || letters == 0 {
            return None;
        }
        let target_start = s.len() - digits - letters;
        // A disambiguation such as "f" before "f11" would make "ff11"; cell letters are a
        // single letter in both namings, so take the last letter only when more precede.
        let (mut hint, target_text) = (&s[..target_start], &s[target_start..]);
        let mut target = b.parse_cell(target_text);
        if target.is_none() && letters > 1 {
            let split = s.len() - digits - 1;
            target = b.parse_cell(&s[split..]);
            hint = &s[..split];
        }
        let to = target?;
        let capture = hint.ends_with('x');
        hint = hint.strip_suffix('x').unwrap_or(hint);
        if !hint
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        {
            return None;
        }
        Some(SanParts {
            kind,
            hint: hint.to_string(),
            capture,
            to,
            promotion,
        })
    }
}
