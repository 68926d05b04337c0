//! Hex FEN (docs/rules.md §8): `<groups>[hand] <side> <ep-cell|-> <halfmove> <fullmove>`.
//!
//! Groups are files (`a`, `b`, ...) each from rank 1 upward, or ranks (1, 2, ...) each
//! from letter `a` rightward, following the board's naming. In a variant's setup phase
//! the pieces still in hand follow the groups in brackets, White's upper case and
//! Black's lower case (`[KQRRBBBNNkqrrbbbnn]`); no brackets (or `[-]`) means empty
//! hands, and the setup phase is over.

use std::fmt;

use crate::bitboard::CellSet;
use crate::board::{Board, Naming};
use crate::cell::Cell;
use crate::piece::{Kind, MAX_KINDS, MAX_SIDES, Piece, Side};
use crate::rules::Rules;
use crate::setup::problem::SetupError;

/// What is wrong with a FEN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// No fields at all: the text is empty or only whitespace.
    Empty,
    /// More fields than the variant's FEN has (5, or 6 with a castling field).
    TooManyFields {
        /// The fields found.
        found: usize,
        /// The most this variant's FEN has.
        most: usize,
    },
    /// The placement does not have one `/`-separated group per file (or rank).
    GroupCount {
        /// Groups on this board.
        expected: usize,
        /// Groups in the FEN.
        found: usize,
    },
    /// A group describes more or fewer cells than its file (or rank) has.
    GroupLength {
        /// Which group, as `file c` or `rank 3`.
        group: String,
        /// Cells in that file or rank.
        expected: usize,
        /// Cells the group describes (up to where it ran over, if it is too long).
        found: usize,
    },
    /// A piece letter the variant does not have, as written.
    UnknownPiece(char),
    /// A character that belongs nowhere in the placement: not a digit or a letter, a
    /// count of `0`, or with more sides a side letter not in play or not followed by an
    /// upper-case piece letter.
    BadCharacter(char),
    /// The side to move is not `w`, `b` (or `c`, `d` with more sides); the field as
    /// written.
    BadSide(String),
    /// The en-passant field has a name that is no cell of the board; the field as
    /// written.
    BadEnPassant(String),
    /// The castling field has a letter other than `A`-`D`, `a`-`d`; the field as
    /// written.
    BadCastling(String),
    /// A clock that is not a number in range: the halfmove clock beyond `u16`, or a
    /// fullmove number of `0`.
    BadNumber {
        /// Which clock: `"halfmove clock"` or `"fullmove number"`.
        field: &'static str,
        /// The text found there.
        value: String,
    },
    /// The pieces-in-hand field: unclosed, or a letter that is not a piece.
    BadHand(String),
    /// The removals owed in a game of more sides (`owe:c3`).
    BadOwed(String),
    /// Something other than the position itself (a game of more sides read into a
    /// two-player one).
    Illegal(String),
    /// A well-formed FEN of a position that cannot be played: every problem found.
    Position(SetupError),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "the FEN is empty"),
            FenError::BadOwed(t) => write!(f, "removals owed: {t}"),
            FenError::TooManyFields { found, most } => {
                write!(
                    f,
                    "{found} fields; a hex FEN of this variant has at most {most}"
                )
            }
            FenError::GroupCount { expected, found } => {
                write!(
                    f,
                    "{found} groups separated by '/'; this board has {expected}"
                )
            }
            FenError::GroupLength {
                group,
                expected,
                found,
            } => {
                write!(f, "{group} describes {found} cells; it has {expected}")
            }
            FenError::UnknownPiece(c) => write!(f, "unknown piece letter '{c}'"),
            FenError::BadCharacter(c) => write!(f, "unexpected character '{c}'"),
            FenError::BadSide(s) => write!(
                f,
                "side to move must be 'w' or 'b' ('c', 'd' with more sides), not '{s}'"
            ),
            FenError::BadEnPassant(s) => write!(f, "bad en-passant field '{s}'"),
            FenError::BadCastling(s) => write!(
                f,
                "bad castling field '{s}' (A-D for White, a-d for Black, or -)"
            ),
            FenError::BadNumber { field, value } => write!(f, "bad {field} '{value}'"),
            FenError::BadHand(s) => write!(
                f,
                "bad pieces-in-hand field '{s}' (piece letters in brackets after the board: [QRBqrb])"
            ),
            FenError::Illegal(why) => write!(f, "impossible position: {why}"),
            FenError::Position(e) => write!(f, "impossible position: {e}"),
        }
    }
}

impl std::error::Error for FenError {}

fn group_label(board: &Board, index: usize) -> String {
    match board.naming() {
        Naming::Files | Naming::SlantedRanks => {
            let first = board.groups()[index][0];
            let name = board.name(first);
            format!(
                "file {}",
                name.trim_end_matches(|c: char| c.is_ascii_digit())
            )
        }
        Naming::Ranks => format!("rank {}", board.rank(board.groups()[index][0])),
    }
}

/// Reads the piece-placement field against a board and the variant's piece letters
/// (upper case): each piece as (cell, side, index into `letters`). With more than two
/// `sides` a piece is the side's letter then the piece's (`wK`, `cQ`).
pub(crate) fn parse_placement(
    board: &Board,
    letters: &[char],
    sides: usize,
    field: &str,
) -> Result<Vec<(Cell, Side, usize)>, FenError> {
    let groups: Vec<&str> = field.split('/').collect();
    if groups.len() != board.groups().len() {
        return Err(FenError::GroupCount {
            expected: board.groups().len(),
            found: groups.len(),
        });
    }
    let mut out = Vec::new();
    for (gi, text) in groups.iter().enumerate() {
        let cells = &board.groups()[gi];
        let mut at = 0usize;
        let mut chars = text.chars().peekable();
        let too_long = |found: usize| FenError::GroupLength {
            group: group_label(board, gi),
            expected: cells.len(),
            found,
        };
        while let Some(c) = chars.next() {
            if let Some(d) = c.to_digit(10) {
                let mut n = d as usize;
                while let Some(d2) = chars.peek().and_then(|c| c.to_digit(10)) {
                    n = n.saturating_mul(10).saturating_add(d2 as usize);
                    chars.next();
                }
                if n == 0 {
                    return Err(FenError::BadCharacter('0'));
                }
                at = at.saturating_add(n);
                if at > cells.len() {
                    return Err(too_long(at));
                }
            } else if c.is_ascii_alphabetic() {
                let (side, c) = if sides > 2 {
                    let side = Side::ALL[..sides]
                        .iter()
                        .copied()
                        .find(|s| s.letter() == c)
                        .ok_or(FenError::BadCharacter(c))?;
                    let piece = chars
                        .next()
                        .filter(|p| p.is_ascii_uppercase())
                        .ok_or(FenError::BadCharacter(c))?;
                    (side, piece)
                } else if c.is_ascii_uppercase() {
                    (Side::White, c)
                } else {
                    (Side::Black, c)
                };
                let kind = letters
                    .iter()
                    .position(|l| *l == c.to_ascii_uppercase())
                    .ok_or(FenError::UnknownPiece(c))?;
                if at >= cells.len() {
                    return Err(too_long(at + 1));
                }
                out.push((cells[at], side, kind));
                at += 1;
            } else {
                return Err(FenError::BadCharacter(c));
            }
        }
        if at != cells.len() {
            return Err(too_long(at));
        }
    }
    Ok(out)
}

/// What a hex FEN says, read but not yet checked for legality.
pub(crate) struct FenParts {
    pub pieces: Vec<(Cell, Piece)>,
    pub turn: Side,
    pub hand: [[u8; MAX_KINDS]; MAX_SIDES],
    pub castling: u8,
    /// The en-passant cells as written (from the pawn's start).
    pub en_passant: Vec<Cell>,
    pub halfmove: u16,
    pub fullmove: u32,
}

/// Reads a hex FEN's fields. The clocks may be left out (they default to `0 1`), and
/// the en-passant field too.
pub(crate) fn parse_parts<B: CellSet>(rules: &Rules<B>, fen: &str) -> Result<FenParts, FenError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.is_empty() {
        return Err(FenError::Empty);
    }
    // Variants with castling have a castling field after the side to move.
    let castles = rules.has_castling();
    let most = if castles { 6 } else { 5 };
    if fields.len() > most {
        return Err(FenError::TooManyFields {
            found: fields.len(),
            most,
        });
    }
    let shift = usize::from(castles);
    let board = rules.board();
    let letters: Vec<char> = rules.kinds().map(|k| rules.kind_info(k).letter).collect();
    let (groups, hand) = split_hand(rules, fields[0])?;
    let placed = parse_placement(board, &letters, rules.side_count(), groups)?;
    let kinds: Vec<Kind> = rules.kinds().collect();
    let pieces: Vec<(Cell, Piece)> = placed
        .into_iter()
        .map(|(c, side, k)| (c, Piece::new(side, kinds[k])))
        .collect();
    let turn = match fields.get(1).copied().unwrap_or("w") {
        "w" => Side::White,
        "b" => Side::Black,
        "c" if rules.side_count() > 2 => Side::Third,
        "d" if rules.side_count() > 3 => Side::Fourth,
        s => return Err(FenError::BadSide(s.to_string())),
    };
    let castling = if castles {
        parse_castling(fields.get(2).copied().unwrap_or("-"))?
    } else {
        0
    };
    let en_passant = match fields.get(2 + shift).copied().unwrap_or("-") {
        "-" => Vec::new(),
        names => names
            .split(',')
            .map(|n| {
                board
                    .parse_cell(n.trim())
                    .ok_or_else(|| FenError::BadEnPassant(names.to_string()))
            })
            .collect::<Result<_, _>>()?,
    };
    let number = |i: usize, field: &'static str, default: u32| -> Result<u32, FenError> {
        match fields.get(i) {
            None => Ok(default),
            Some(s) => s.parse().map_err(|_| FenError::BadNumber {
                field,
                value: s.to_string(),
            }),
        }
    };
    let halfmove = number(3 + shift, "halfmove clock", 0)?;
    let fullmove = number(4 + shift, "fullmove number", 1)?;
    let halfmove = u16::try_from(halfmove).map_err(|_| FenError::BadNumber {
        field: "halfmove clock",
        value: halfmove.to_string(),
    })?;
    if fullmove == 0 {
        return Err(FenError::BadNumber {
            field: "fullmove number",
            value: "0".into(),
        });
    }
    Ok(FenParts {
        pieces,
        turn,
        hand,
        castling,
        en_passant,
        halfmove,
        fullmove,
    })
}

/// Writes hex FEN from the parts of a position or a setup: the hands (in brackets)
/// when given, the castling field when the variant has castling.
#[allow(clippy::too_many_arguments)]
pub(crate) fn write_fen<B: CellSet>(
    rules: &Rules<B>,
    piece_at: impl Fn(Cell) -> Option<Piece>,
    hand: Option<&[[u8; MAX_KINDS]; MAX_SIDES]>,
    turn: Side,
    castling: u8,
    en_passant: &[Cell],
    halfmove: u16,
    fullmove: u32,
) -> String {
    let board = rules.board();
    let mut out = if rules.side_count() > 2 {
        placement_tokens(board, |c| {
            piece_at(c).map(|p| {
                let letter = rules.kind_info(p.kind).letter;
                format!("{}{letter}", p.side.letter())
            })
        })
    } else {
        placement_field(board, |c| piece_at(c).map(|p| rules.piece_letter(p)))
    };
    if let Some(hand) = hand {
        out.push('[');
        for side in Side::BOTH {
            for k in rules.kinds() {
                let letter = rules.piece_letter(Piece::new(side, k));
                (0..hand[side.index()][k.index()]).for_each(|_| out.push(letter));
            }
        }
        out.push(']');
    }
    out.push(' ');
    out.push(turn.letter());
    if rules.has_castling() {
        out.push(' ');
        out.push_str(&castling_field(castling));
    }
    out.push(' ');
    if en_passant.is_empty() {
        out.push('-');
    } else {
        let names: Vec<&str> = en_passant.iter().map(|c| board.name(*c)).collect();
        out.push_str(&names.join(","));
    }
    out.push_str(&format!(" {halfmove} {fullmove}"));
    out
}

/// Splits the board groups from the pieces in hand (`groups[QRqr]`), reading the hand.
fn split_hand<'a, B: CellSet>(
    rules: &Rules<B>,
    field: &'a str,
) -> Result<(&'a str, [[u8; MAX_KINDS]; MAX_SIDES]), FenError> {
    let mut hand = [[0u8; MAX_KINDS]; MAX_SIDES];
    let Some(open) = field.find('[') else {
        return Ok((field, hand));
    };
    let bad = || FenError::BadHand(field[open..].to_string());
    let inner = field[open + 1..].strip_suffix(']').ok_or_else(bad)?;
    if inner != "-" {
        for c in inner.chars() {
            let piece = rules.piece_from_letter(c).ok_or_else(bad)?;
            let n = &mut hand[piece.side.index()][piece.kind.index()];
            *n = n.checked_add(1).ok_or_else(bad)?;
        }
    }
    Ok((&field[..open], hand))
}

/// The placement field of a hex FEN: the board's groups in order, each cell's piece
/// letter (from `letter_at`) or a count of empty cells: what a tool writes to build a
/// position cell by cell (a reflected board, an editor) and read it with
/// [`Position::from_fen`](crate::Position::from_fen).
pub fn placement_field(board: &Board, letter_at: impl Fn(Cell) -> Option<char>) -> String {
    placement_tokens(board, |c| letter_at(c).map(String::from))
}

/// [`placement_field`] with a token of any length per piece (`cQ` in a game of more
/// than two sides).
pub fn placement_tokens(board: &Board, token_at: impl Fn(Cell) -> Option<String>) -> String {
    let mut out = String::new();
    for (gi, group) in board.groups().iter().enumerate() {
        if gi > 0 {
            out.push('/');
        }
        let mut empty = 0;
        for c in group {
            match token_at(*c) {
                Some(token) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push_str(&token);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
    }
    out
}

/// The castling field: `A` to `D` for White's castlings 1 to 4, `a` to `d` for Black's.
fn castling_field(rights: u8) -> String {
    let mut s = String::new();
    for side in [0, 4] {
        for i in 0..4 {
            if rights >> (side + i) & 1 != 0 {
                let c = (b'A' + i as u8) as char;
                s.push(if side == 0 { c } else { c.to_ascii_lowercase() });
            }
        }
    }
    if s.is_empty() { "-".into() } else { s }
}

fn parse_castling(field: &str) -> Result<u8, FenError> {
    if field == "-" {
        return Ok(0);
    }
    let mut rights = 0u8;
    for c in field.chars() {
        let bit = match c {
            'A'..='D' => c as u8 - b'A',
            'a'..='d' => 4 + c as u8 - b'a',
            _ => return Err(FenError::BadCastling(field.to_string())),
        };
        rights |= 1 << bit;
    }
    Ok(rights)
}
