//! A finished table: one byte per stored position, read as a [`Value`].
//!
//! Codes below the table's first stalemate code are distances to mate in plies from
//! the side to move's view (even: lost, 0 mated now; odd: won, 1 mate in one); from
//! there up to `DRAW` (250) distances to stalemate (where the variant scores it apart
//! from a draw); then the draw codes and `ILLEGAL` (255) for slots holding no position
//! of their own. How they are built and where each position is stored: the crate's
//! `build` and `index` modules (docs/tablebases.md).

use std::fmt;
use std::sync::Arc;

use hexchess_core::{Bitboard, Cell, Piece, Position, Rules, Side};

use crate::index::Indexer;
use crate::material::{MAX_MEN, Material};

/// What a position is worth to the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// Mates in this many plies (odd: 1 is mate in one).
    Win(u16),
    /// Is mated in this many plies (even: 0 is mated now).
    Loss(u16),
    /// Cannot be mated, but stalemates the opponent in this many plies (odd), where
    /// the variant scores stalemate above a draw for the side that gives it (Gliński).
    StalemateWin(u16),
    /// Cannot mate and is stalemated in this many plies (even: 0 is stalemated now).
    StalemateLoss(u16),
    /// Neither side can force mate or (where it counts) stalemate, and the defence
    /// needs no checks: a fortress.
    Draw,
    /// A draw only because the defender may give check: forbid its checks and the other
    /// side mates (McCooey's perpetual-check draw).
    DrawPerpetual,
}

impl Value {
    /// This value of a position seen by the side that moved into it: one ply further,
    /// and the other way round.
    pub fn for_mover(self) -> Value {
        match self {
            Value::Win(d) => Value::Loss(d + 1),
            Value::Loss(d) => Value::Win(d + 1),
            Value::StalemateWin(d) => Value::StalemateLoss(d + 1),
            Value::StalemateLoss(d) => Value::StalemateWin(d + 1),
            Value::Draw => Value::Draw,
            Value::DrawPerpetual => Value::DrawPerpetual,
        }
    }
}

/// Why a table cannot be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableError {
    /// A piece whose quiet moves cannot be played backwards (a move from `a` to `b`
    /// without one from `b` to `a`), which retrograde analysis needs.
    Irreversible { piece: String },
    /// The board has too many cells for this many men in one table.
    TooLarge { positions: u64 },
    /// Mates and stalemates too long to store in a byte (more than 249 plies together).
    TooDeep { material: String },
    /// Stopped before it was done (the stop flag was raised).
    Stopped,
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::Irreversible { piece } => write!(
                f,
                "the {piece}'s moves cannot be played backwards, which a table needs"
            ),
            TableError::Stopped => write!(f, "stopped before the table was done"),
            TableError::TooLarge { positions } => {
                write!(f, "{positions} positions are too many for one table")
            }
            TableError::TooDeep { material } => write!(
                f,
                "{material} has mates or stalemates longer than a one-byte table holds"
            ),
        }
    }
}

impl std::error::Error for TableError {}

/// Codes above the distances that a finished table holds: a draw held without checks,
/// a draw held by them, and a slot with no position of its own.
pub(crate) const DRAW: u8 = 250;
pub(crate) const PERPETUAL: u8 = 251;
pub(crate) const ILLEGAL: u8 = 255;

/// One ending's values: a byte per stored position.
pub struct Table {
    rules: Arc<Rules>,
    material: Material,
    /// The men in slot order: White's, then Black's, each side's royal man first.
    men: Vec<Piece>,
    indexer: Indexer,
    codes: Vec<u8>,
    /// The first stalemate code ([`DRAW`] where stalemate is a draw).
    stalemate_base: u8,
}

impl Table {
    /// A finished build.
    pub(crate) fn from_parts(
        rules: &Arc<Rules>,
        material: Material,
        indexer: Indexer,
        codes: Vec<u8>,
        stalemate_base: u8,
    ) -> Table {
        Table {
            rules: Arc::clone(rules),
            men: material.men_in_order(),
            material,
            indexer,
            codes,
            stalemate_base,
        }
    }

    /// A table from stored codes; `None` when there are not as many as the material
    /// has slots on this board.
    pub(crate) fn from_codes(
        rules: &Arc<Rules>,
        material: &Material,
        codes: Vec<u8>,
        stalemate_base: u8,
    ) -> Option<Table> {
        let men = material.men_in_order();
        let indexer = Indexer::new(rules, &men);
        (codes.len() == indexer.len())
            .then(|| Table::from_parts(rules, material.clone(), indexer, codes, stalemate_base))
    }

    pub fn material(&self) -> &Material {
        &self.material
    }

    pub fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }

    /// The stored value codes, one per slot (for files).
    pub(crate) fn codes(&self) -> &[u8] {
        &self.codes
    }

    /// The first stalemate code.
    pub(crate) fn stalemate_base(&self) -> u8 {
        self.stalemate_base
    }

    /// Slots in the table (stored positions, and the unused slots among them).
    pub fn len(&self) -> usize {
        self.codes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.codes.is_empty()
    }

    /// How many symmetries of the board the table folds together (12 on a regular
    /// hexagon with the usual pieces; 1 when none).
    pub fn symmetries(&self) -> usize {
        self.indexer.symmetries()
    }

    /// The code of the men on `cells` (cell indices, in slot order) with `stm` to move.
    #[inline]
    pub(crate) fn code_at(&self, stm: usize, cells: &[u8]) -> Option<u8> {
        self.indexer.index(stm, cells).map(|i| self.codes[i])
    }

    /// The value of `pos`, or `None` when its men are not this table's material.
    pub fn probe(&self, pos: &Position) -> Option<Value> {
        let i = self.index_of(pos)?;
        match self.codes[i] {
            ILLEGAL => None,
            code => Some(self.decode(code)),
        }
    }

    /// Every stored legal position's slot with its value (for statistics and tests).
    pub fn values(&self) -> impl Iterator<Item = (usize, Value)> + '_ {
        self.codes
            .iter()
            .enumerate()
            .filter(|(_, v)| **v != ILLEGAL)
            .map(|(i, v)| (i, self.decode(*v)))
    }

    /// The side to move at slot `i`.
    pub fn side_to_move(&self, i: usize) -> Side {
        Side::BOTH[self.indexer.side_to_move(i)]
    }

    /// How many positions the one stored at slot `i` stands for (its distinct images
    /// under the board's symmetries).
    pub fn family(&self, i: usize) -> usize {
        self.indexer.family(i)
    }

    /// The position at a legal slot.
    pub fn position(&self, index: usize) -> Position {
        self.position_under(index, 0)
    }

    /// The position at a legal slot, moved by the board's symmetry `g` (below
    /// [`Table::symmetries`]): another position of the same value.
    pub fn position_under(&self, index: usize, g: usize) -> Position {
        let (stm, cells) = self.indexer.cells_at(index);
        let board = self.rules.board();
        let at = |c: Cell| {
            (0..self.men.len())
                .find(|&j| self.indexer.map(g, cells[j]) as usize == c.index())
                .map(|j| self.rules.piece_letter(self.men[j]))
        };
        let fen = format!(
            "{} {} - 0 1",
            hexchess_core::fen::placement_field(board, at),
            if stm == 0 { 'w' } else { 'b' }
        );
        Position::from_fen(Arc::clone(&self.rules), &fen).expect("a legal slot reads")
    }

    fn index_of(&self, pos: &Position) -> Option<usize> {
        if !Arc::ptr_eq(pos.rules_arc(), &self.rules) && pos.rules().id() != self.rules.id() {
            return None;
        }
        let mut cells = [0u8; MAX_MEN];
        let mut used = Bitboard::EMPTY;
        for (j, man) in self.men.iter().enumerate() {
            // The first cell holding such a man not taken by an earlier one.
            let c = pos
                .kind_cells(man.side, man.kind)
                .find(|c| !used.contains(*c))?;
            used.insert(c);
            cells[j] = c.index() as u8;
        }
        if used.count() as usize != pos.occupied().count() as usize {
            return None;
        }
        self.indexer
            .index(pos.turn().index(), &cells[..self.men.len()])
    }

    /// The side that mates at slot `i`, if one does.
    pub fn mate_winner_at(&self, i: usize) -> Option<Side> {
        self.mate_winner(i, self.codes[i]).map(|s| Side::BOTH[s])
    }

    /// The codes, to change (the draws' split marks perpetual-check draws).
    pub(crate) fn codes_mut(&mut self) -> &mut [u8] {
        &mut self.codes
    }

    /// The side that mates at slot `i` (holding `code`), if one does.
    pub(crate) fn mate_winner(&self, i: usize, code: u8) -> Option<usize> {
        let stm = self.indexer.side_to_move(i);
        (code < self.stalemate_base && code < DRAW).then_some(if code % 2 == 1 {
            stm
        } else {
            1 - stm
        })
    }

    fn decode(&self, code: u8) -> Value {
        let d = u16::from(code);
        let base = self.stalemate_base;
        match code {
            PERPETUAL => Value::DrawPerpetual,
            c if c >= DRAW => Value::Draw,
            c if c < base && c % 2 == 1 => Value::Win(d),
            c if c < base => Value::Loss(d),
            c if (c - base) % 2 == 1 => Value::StalemateWin(d - u16::from(base)),
            _ => Value::StalemateLoss(d - u16::from(base)),
        }
    }
}

impl fmt::Debug for Table {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Table({}, {} slots)",
            self.material.name(&self.rules),
            self.codes.len()
        )
    }
}

/// How many legal positions of each side to move have each kind of value.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// `[side to move]` for each class, from the side to move's view.
    pub wins: [u64; 2],
    pub stalemate_wins: [u64; 2],
    pub draws: [u64; 2],
    pub draws_perpetual: [u64; 2],
    pub stalemate_losses: [u64; 2],
    pub losses: [u64; 2],
    /// The longest mate, in plies, and where.
    pub longest: u16,
    pub longest_at: Option<usize>,
}

impl Counts {
    /// The six classes' names, best first for the side to move, as `tb stats --json`
    /// writes them; [`Counts::classes`] gives the counts in this order.
    pub const CLASSES: [&'static str; 6] = [
        "win",
        "stalemate_win",
        "draw_perpetual",
        "draw_fortress",
        "stalemate_loss",
        "loss",
    ];

    /// The counts of the six classes with `side` to move, in [`Counts::CLASSES`]' order.
    pub fn classes(&self, side: usize) -> [u64; 6] {
        [
            self.wins[side],
            self.stalemate_wins[side],
            self.draws_perpetual[side],
            self.draws[side],
            self.stalemate_losses[side],
            self.losses[side],
        ]
    }

    /// Legal positions with `side` to move.
    pub fn legal(&self, side: usize) -> u64 {
        self.classes(side).iter().sum()
    }
}

impl Table {
    /// The counts of values by side to move, over every legal position (each stored
    /// one counted for all its images under the board's symmetries).
    pub fn counts(&self) -> Counts {
        let mut c = Counts::default();
        for (i, v) in self.values() {
            let side = self.indexer.side_to_move(i);
            let n = self.family(i) as u64;
            match v {
                Value::Win(d) | Value::Loss(d) => {
                    if matches!(v, Value::Win(_)) {
                        c.wins[side] += n;
                    } else {
                        c.losses[side] += n;
                    }
                    if d > c.longest {
                        c.longest = d;
                        c.longest_at = Some(i);
                    }
                }
                Value::StalemateWin(_) => c.stalemate_wins[side] += n,
                Value::StalemateLoss(_) => c.stalemate_losses[side] += n,
                Value::Draw => c.draws[side] += n,
                Value::DrawPerpetual => c.draws_perpetual[side] += n,
            }
        }
        c
    }
}
