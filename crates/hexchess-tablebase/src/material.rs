//! The men of an ending, as written: `KQvKR` is White's king and queen against Black's
//! king and rook.

use std::fmt;

use hexchess_core::{Kind, Piece, Position, Rules, Side};

/// The most men a table may hold. Five-man tables take a byte per slot like the others,
/// `2 * king pairs * cells^3` slots: about 1.1 GB on 91 cells (docs/tablebases.md).
pub const MAX_MEN: usize = 5;

/// The men of one ending, each side's royal piece first.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Material {
    /// `[White's, Black's]`.
    pub sides: [Vec<Kind>; 2],
}

/// Why a material cannot make a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MaterialError {
    /// Not `<letters>v<letters>`.
    Syntax(String),
    /// A letter that is no piece of the variant.
    UnknownPiece(char),
    /// Each side needs exactly one royal piece.
    Royals {
        /// The side, by name.
        side: &'static str,
        /// How many royal pieces it has.
        count: usize,
    },
    /// More men than a table holds (the number given).
    TooManyMen(usize),
}

impl fmt::Display for MaterialError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MaterialError::Syntax(s) => {
                write!(
                    f,
                    "'{s}' is not a material like KQvKR (White's men, 'v', Black's)"
                )
            }
            MaterialError::UnknownPiece(c) => write!(f, "'{c}' is no piece of this variant"),
            MaterialError::Royals { side, count } => {
                write!(
                    f,
                    "{side} has {count} royal pieces; a table needs exactly one each"
                )
            }
            MaterialError::TooManyMen(n) => {
                write!(f, "{n} men; tables hold at most {MAX_MEN}")
            }
        }
    }
}

impl std::error::Error for MaterialError {}

impl Material {
    /// Reads `KQvKR` for the variant `rules` (piece letters in either case; the
    /// separator a lower-case `v`, or an upper-case one when there is no other).
    pub fn parse(text: &str, rules: &Rules) -> Result<Material, MaterialError> {
        // The separator is a lower-case `v` (an upper-case `V` only when there is none:
        // `V` is also a piece letter, Grand's Vizir, as in `KVvK`).
        let (white, black) = text
            .split_once('v')
            .or_else(|| text.split_once('V'))
            .filter(|(w, b)| !w.is_empty() && !b.is_empty())
            .ok_or_else(|| MaterialError::Syntax(text.to_string()))?;
        let side = |letters: &str, name: &'static str| -> Result<Vec<Kind>, MaterialError> {
            let mut kinds = Vec::new();
            for c in letters.chars() {
                let k = rules
                    .kind_by_letter(c.to_ascii_uppercase())
                    .ok_or(MaterialError::UnknownPiece(c))?;
                kinds.push(k);
            }
            let royals = kinds.iter().filter(|k| rules.is_royal(**k)).count();
            if royals != 1 {
                return Err(MaterialError::Royals {
                    side: name,
                    count: royals,
                });
            }
            // The royal piece first, then the others in the order written.
            kinds.sort_by_key(|k| !rules.is_royal(*k));
            Ok(kinds)
        };
        let material = Material {
            sides: [side(white, "White")?, side(black, "Black")?],
        };
        if material.men() > MAX_MEN {
            return Err(MaterialError::TooManyMen(material.men()));
        }
        Ok(material)
    }

    /// The men of a position (checked as [`Material::parse`] checks a name).
    pub fn of(pos: &Position) -> Result<Material, MaterialError> {
        let rules = pos.rules();
        let letters = |side: Side| -> String {
            let mut men: Vec<(bool, char)> = pos
                .pieces()
                .filter(|(_, p)| p.side == side)
                .map(|(_, p)| (!rules.is_royal(p.kind), rules.kind_info(p.kind).letter))
                .collect();
            men.sort();
            men.into_iter().map(|(_, l)| l).collect()
        };
        Material::parse(
            &format!("{}v{}", letters(Side::White), letters(Side::Black)),
            rules,
        )
    }

    /// The men in a table's slot order: White's, then Black's, each side's royal man
    /// first.
    pub fn men_in_order(&self) -> Vec<Piece> {
        Side::BOTH
            .iter()
            .flat_map(|s| self.sides[s.index()].iter().map(|k| Piece::new(*s, *k)))
            .collect()
    }

    /// Men on the board, kings included.
    pub fn men(&self) -> usize {
        self.sides[0].len() + self.sides[1].len()
    }

    /// The material after a man of `side` (its `i`-th) is captured.
    pub fn without(&self, side: usize, i: usize) -> Material {
        let mut m = self.clone();
        m.sides[side].remove(i);
        m
    }

    /// The material after `side`'s `i`-th man becomes a `kind` (a promotion).
    pub fn promoted(&self, side: usize, i: usize, kind: Kind) -> Material {
        let mut m = self.clone();
        m.sides[side][i] = kind;
        m
    }

    /// This material and every one its captures and promotions lead to (each once):
    /// the tables a game of this ending can need.
    pub fn endings_reached(&self, rules: &Rules) -> Vec<Material> {
        let mut out = vec![self.clone()];
        let mut i = 0;
        while i < out.len() {
            let m = out[i].clone();
            for side in 0..2 {
                for j in 1..m.sides[side].len() {
                    let mut next = vec![m.without(side, j)];
                    if rules.pawn_kind() == Some(m.sides[side][j]) {
                        next.extend(
                            rules
                                .promotion_choices()
                                .iter()
                                .map(|k| m.promoted(side, j, *k)),
                        );
                    }
                    for n in next {
                        if !out.contains(&n) {
                            out.push(n);
                        }
                    }
                }
            }
            i += 1;
        }
        out
    }

    /// As written: `KQvKR`.
    pub fn name(&self, rules: &Rules) -> String {
        let letters = |kinds: &[Kind]| -> String {
            kinds.iter().map(|k| rules.kind_info(*k).letter).collect()
        };
        format!("{}v{}", letters(&self.sides[0]), letters(&self.sides[1]))
    }
}
