//! A finished table: one byte per stored position, read as a [`Value`].
//!
//! Codes below the table's first stalemate code are distances to mate in plies from
//! the side to move's view (even: lost, 0 mated now; odd: won, 1 mate in one); from
//! there up to `DRAW` (250) distances to stalemate (where the variant scores it apart
//! from a draw); then the draw codes and `ILLEGAL` (255) for slots holding no position
//! of their own. How they are built and where each position is stored: the crate's
//! `build` and `index` modules (docs/tablebases.md).
//!
//! Beside them, where the variant draws after a number of plies without a capture or a
//! pawn move, a second byte per position keeps its result under that rule: the
//! distance to the next capture, pawn move or mate that keeps the result (DTZ), and
//! which wins the rule spoils (see [`RuleValue`]).

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
    Irreversible {
        /// The piece's name.
        piece: String,
    },
    /// The board has too many cells for this many men in one table.
    TooLarge {
        /// The positions the table would need.
        positions: u64,
    },
    /// Mates and stalemates too long to store in a byte (more than 249 plies together).
    TooDeep {
        /// The material, as `KQvK` writes it.
        material: String,
    },
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

/// The move rule's codes, beside `DRAW` and `ILLEGAL`: below them, with the rule's
/// `plies` = L, `d` in `0..=L` is lost with the next capture, pawn move or mate
/// `d` plies away (0: mated now), and `L + d` won so (`d` in `1..=L`); these two are
/// the rest: won or lost by mate, but not before the rule draws.
pub(crate) const CURSED_WIN: u8 = 247;
pub(crate) const BLESSED_LOSS: u8 = 248;

/// The longest move rule a table keeps the results of: its wins and losses take twice
/// as many codes, which must stay below the cursed-win code.
pub const MAX_RULE_PLIES: u16 = 120;

/// The move rule a table of `rules`' variant keeps its results under: the plies without
/// a capture or pawn move that draw, when the variant has that rule and it is no longer
/// than [`MAX_RULE_PLIES`].
pub fn rule_plies(rules: &Rules) -> Option<u8> {
    let plies = rules.draw_rules().move_rule_plies;
    (1..=MAX_RULE_PLIES)
        .contains(&plies)
        .then(|| u8::try_from(plies).expect("at most 120"))
}

/// What a position is worth under the move rule (a draw after so many plies without a
/// capture or a pawn move), as Syzygy's tables name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuleValue {
    /// Mates, or reaches a won smaller ending, before the rule draws.
    Win,
    /// Would mate without the rule, but the rule draws first: a draw.
    CursedWin,
    /// Neither side mates, with or without the rule (stalemates included).
    Draw,
    /// Would be mated without the rule, but the rule saves it: a draw.
    BlessedLoss,
    /// Is mated, or reaches a lost smaller ending, before the rule draws.
    Loss,
}

impl RuleValue {
    /// The five, best first for the side to move.
    pub const ALL: [RuleValue; 5] = [
        RuleValue::Win,
        RuleValue::CursedWin,
        RuleValue::Draw,
        RuleValue::BlessedLoss,
        RuleValue::Loss,
    ];

    /// The name `tb probe --json` and `tb stats --json` write.
    pub fn name(self) -> &'static str {
        match self {
            RuleValue::Win => "win",
            RuleValue::CursedWin => "cursed_win",
            RuleValue::Draw => "draw",
            RuleValue::BlessedLoss => "blessed_loss",
            RuleValue::Loss => "loss",
        }
    }

    /// This result seen by the side that moved into it.
    pub fn for_mover(self) -> RuleValue {
        match self {
            RuleValue::Win => RuleValue::Loss,
            RuleValue::CursedWin => RuleValue::BlessedLoss,
            RuleValue::Draw => RuleValue::Draw,
            RuleValue::BlessedLoss => RuleValue::CursedWin,
            RuleValue::Loss => RuleValue::Win,
        }
    }
}

impl fmt::Display for RuleValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RuleValue::Win => "win",
            RuleValue::CursedWin => "cursed win",
            RuleValue::Draw => "draw",
            RuleValue::BlessedLoss => "blessed loss",
            RuleValue::Loss => "loss",
        })
    }
}

/// A position's result under the move rule at its halfmove clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ruled {
    /// The result under the move rule.
    pub value: RuleValue,
    /// Plies to the capture, pawn move or mate that keeps the result from a clock at
    /// zero (DTZ), for wins and losses the rule would allow from there; `None` where
    /// even a fresh count is not enough (and for draws).
    pub dtz: Option<u16>,
}

impl Ruled {
    /// The result of a move into a position worth `self` (at the clock the move left
    /// it), seen by the side that moved: a move that zeroes the count is itself the
    /// last ply of the distance, any other adds one to it.
    pub fn for_mover(self, zeroing: bool) -> Ruled {
        let dtz = match zeroing {
            true => self.dtz.map(|_| 1),
            false => self.dtz.map(|d| d + 1),
        };
        Ruled {
            value: self.value.for_mover(),
            dtz,
        }
    }

    /// The result of the rule's `code` with `clock` plies already counted, under a rule
    /// of `plies`. A win or loss counts only when its last ply comes no later than the
    /// one that reaches the limit (mate on that ply still wins, as the game's rules say).
    pub(crate) fn decode(code: u8, plies: u8, clock: u16) -> Ruled {
        let left = i32::from(plies) - i32::from(clock);
        let within = |d: u8| d == 0 || i32::from(d) <= left;
        let (value, dtz) = match code {
            c if c <= plies && within(c) => (RuleValue::Loss, Some(c)),
            c if c <= plies => (RuleValue::BlessedLoss, Some(c)),
            c if c <= 2 * plies && within(c - plies) => (RuleValue::Win, Some(c - plies)),
            c if c <= 2 * plies => (RuleValue::CursedWin, Some(c - plies)),
            CURSED_WIN => (RuleValue::CursedWin, None),
            BLESSED_LOSS => (RuleValue::BlessedLoss, None),
            _ => (RuleValue::Draw, None),
        };
        Ruled {
            value,
            dtz: dtz.map(u16::from),
        }
    }
}

/// The move rule's byte per slot, and the rule it was built for.
pub(crate) struct RuleCodes {
    pub(crate) plies: u8,
    pub(crate) codes: Vec<u8>,
}

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
    /// The results under the move rule, where the variant has one a table keeps.
    rule: Option<RuleCodes>,
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
            rule: None,
        }
    }

    /// The same table with the move rule's codes beside its values.
    pub(crate) fn with_rule(mut self, rule: Option<RuleCodes>) -> Table {
        debug_assert!(
            rule.as_ref()
                .is_none_or(|r| r.codes.len() == self.codes.len())
        );
        self.rule = rule;
        self
    }

    /// The move rule's codes, when the table has them.
    pub(crate) fn rule_codes(&self) -> Option<&RuleCodes> {
        self.rule.as_ref()
    }

    /// The plies of the move rule the table knows results under, if any.
    pub fn rule_plies(&self) -> Option<u16> {
        self.rule.as_ref().map(|r| u16::from(r.plies))
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

    /// The men the table is for.
    pub fn material(&self) -> &Material {
        &self.material
    }

    /// The variant's rules it was built from.
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

    /// Whether it has no slot.
    pub fn is_empty(&self) -> bool {
        self.codes.is_empty()
    }

    /// How many symmetries of the board the table folds together (12 on a regular
    /// hexagon with the usual pieces; 1 when none).
    pub fn symmetries(&self) -> usize {
        self.indexer.symmetries()
    }

    /// The slot of the men on `cells` (cell indices, in slot order) with `stm` to move,
    /// when they are a legal position.
    #[inline]
    pub(crate) fn slot_of(&self, stm: usize, cells: &[u8]) -> Option<usize> {
        self.indexer
            .index(stm, cells)
            .filter(|&i| self.codes[i] != ILLEGAL)
    }

    /// The value of `pos`, or `None` when its men are not this table's material.
    pub fn probe(&self, pos: &Position) -> Option<Value> {
        let i = self.index_of(pos)?;
        match self.codes[i] {
            ILLEGAL => None,
            code => Some(self.decode(code)),
        }
    }

    /// The value at a legal slot (see [`Table::slot`]).
    pub fn value_at(&self, i: usize) -> Value {
        self.decode(self.codes[i])
    }

    /// The result of `pos` under the move rule, at its halfmove clock; `None` when its
    /// men are not this table's material or the table keeps no rule.
    pub fn probe_rule(&self, pos: &Position) -> Option<Ruled> {
        let i = self.index_of(pos)?;
        (self.codes[i] != ILLEGAL)
            .then(|| self.rule_at(i, pos.halfmove_clock()))
            .flatten()
    }

    /// The result under the move rule at slot `i` with `clock` plies counted.
    pub fn rule_at(&self, i: usize, clock: u16) -> Option<Ruled> {
        let rule = self.rule.as_ref()?;
        Some(Ruled::decode(rule.codes[i], rule.plies, clock))
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

    /// The slot `pos` is stored at (perhaps as an image under the board's symmetries),
    /// when its men are this table's material.
    pub fn slot(&self, pos: &Position) -> Option<usize> {
        self.index_of(pos).filter(|&i| self.codes[i] != ILLEGAL)
    }

    fn index_of(&self, pos: &Position) -> Option<usize> {
        if !Arc::ptr_eq(pos.rules_arc(), &self.rules) && pos.rules().id() != self.rules.id() {
            return None;
        }
        // A position with an en-passant capture on is worth the better of its stored
        // value and that capture's: not stored, the caller reads its moves.
        if pos.can_capture_en_passant() {
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

    /// Lends the codes out, to be given back with [`Table::put_codes`]: the draws'
    /// split reads the finished table's legal slots and wins through a builder of its
    /// own, which holds its codes by value (a second copy would be a gigabyte at five
    /// men).
    pub(crate) fn take_codes(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.codes)
    }

    pub(crate) fn put_codes(&mut self, codes: Vec<u8>) {
        self.codes = codes;
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
    /// Wins by stalemating the other side, where the variant scores it above a draw
    /// ([`Value::StalemateWin`]).
    pub stalemate_wins: [u64; 2],
    /// Draws that need no checks: fortresses ([`Value::Draw`]).
    pub draws: [u64; 2],
    /// Draws only because the defender may give check ([`Value::DrawPerpetual`]).
    pub draws_perpetual: [u64; 2],
    /// Losses by being stalemated ([`Value::StalemateLoss`]).
    pub stalemate_losses: [u64; 2],
    /// Losses: mated ([`Value::Loss`]).
    pub losses: [u64; 2],
    /// The longest mate, in plies.
    pub longest: u16,
    /// The slot of a position with the longest mate.
    pub longest_at: Option<usize>,
    /// `[side to move][result]`, in [`RuleValue::ALL`]'s order, with the clock at zero:
    /// the results under the move rule, when the table keeps them.
    pub rule: Option<[[u64; 5]; 2]>,
    /// The longest distance to zeroing of a win or loss the rule allows, and where.
    pub longest_dtz: u16,
    /// The slot of a position with the longest distance to zeroing.
    pub longest_dtz_at: Option<usize>,
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
        let mut rule = self.rule.as_ref().map(|_| [[0u64; 5]; 2]);
        for (i, v) in self.values() {
            let side = self.indexer.side_to_move(i);
            let n = self.family(i) as u64;
            if let (Some(counts), Some(r)) = (rule.as_mut(), self.rule_at(i, 0)) {
                let at = RuleValue::ALL.iter().position(|x| *x == r.value);
                counts[side][at.expect("one of the five")] += n;
                if let Some(d) = r.dtz.filter(|d| *d > c.longest_dtz) {
                    c.longest_dtz = d;
                    c.longest_dtz_at = Some(i);
                }
            }
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
        c.rule = rule;
        c
    }
}
