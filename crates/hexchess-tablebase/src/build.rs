//! Building a table by retrograde analysis, in one byte per stored position.
//!
//! 1. **Legality**: a slot is legal when it is where its position is stored (see
//!    [`crate::index`]), no two men share a cell and the side not to move is not in
//!    check.
//! 2. **Start**: each legal position's captures are read from the smaller tables, built
//!    first. A capture that mates sooner or later gives a first (tentative) win; one
//!    into a draw means the position is never lost; with no move at all it is mate or
//!    stalemate.
//! 3. **Levels**: level `d` goes through the positions valued `d` plies. From a loss,
//!    every position that can move into it (a quiet move played backwards) wins in
//!    `d + 1`, or sooner if it already had a slower win. From a win, every position that
//!    can move into it is checked forward: when every move it has loses, it is lost, in
//!    one ply more than the slowest of them.
//!
//! No counters and no lists: only the byte per position, scanned once per level. A
//! position's value is final once its level is reached, which is what the forward
//! check relies on (a child's win above the level being scanned may still shrink).
//!
//! A pawn's advance leads to a position of the same table with the pawns further on.
//! The positions are taken in classes by how far their pawns still have to go (the sum
//! of each pawn's longest way to promotion), nearest first: every advance lowers that
//! sum, so an advance always leads into a class already done, and is read like a
//! capture, from a final value. (The move rule's pass, `rule.rs`, needs this order
//! too.) A table without pawns is one class.
//!
//! Values are distances in plies from the side to move's view: even is a loss (0:
//! mated now), odd a win. Where the variant scores being stalemated below a draw
//! (Gliński: 1/4), a second pass does the same over what the mate pass left, with
//! stalemates as the ends, its distances stored from the first code above the longest
//! mate.

mod resume;
mod rule;
mod split;

use std::collections::HashMap;
use std::ops::ControlFlow;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

use hexchess_core::{Bitboard, Cell, Kind, Piece, Rules, Side};

use crate::file::{TableFileError, TableWriter};
use crate::index::{Anchor, Indexer};
use crate::material::{MAX_MEN, Material};
use crate::table::{DRAW, ILLEGAL, RuleCodes, Table, TableError, rule_plies};
use resume::Resume;

// Codes above the distances used while building; a finished table holds only `DRAW`,
// `PERPETUAL` and `ILLEGAL` (defined with it, in `table.rs`).

/// No move and not in check (during the mate pass).
const STALEMATED: u8 = 252;
/// Not decided, and a capture keeps it from being lost.
const SAFE: u8 = 253;
/// Not decided.
const UNKNOWN: u8 = 254;

/// By pawn slot and captured slot (if any): each kind the pawn may promote to, with the
/// table that promotion leads to.
type Promotions<'a> = HashMap<(usize, Option<usize>), Vec<(Kind, &'a Table)>>;

/// Tables built so far, by material.
pub(crate) type Built = HashMap<Material, Table>;

/// Where a build reports its progress and looks for a stop, and on how many threads it
/// works.
pub(crate) struct Control<'a> {
    pub(crate) progress: &'a mut dyn FnMut(&str),
    pub(crate) stop: &'a AtomicBool,
    pub(crate) threads: usize,
}

/// Slots one round of a pass covers: a round's writes are gathered, then applied, so
/// the slots it covers bound the memory they take (tens of megabytes at most).
const ROUND: usize = 1 << 20;

/// Slots a thread takes at a time within a round.
const CHUNK: usize = 1 << 14;

impl Control<'_> {
    fn check(&self) -> Result<(), TableError> {
        if self.stop.load(Ordering::Relaxed) {
            Err(TableError::Stopped)
        } else {
            Ok(())
        }
    }
}

/// Builds `material`'s table into `built`, after the smaller ones its captures reach.
/// With a `restriction`, one side's moves are limited, in this table and every smaller
/// one.
pub(crate) fn build(
    rules: &Arc<Rules>,
    material: &Material,
    restriction: Option<Restriction>,
    built: &mut Built,
    ctl: &mut Control,
) -> Result<(), TableError> {
    if built.contains_key(material) {
        return Ok(());
    }
    build_smaller(rules, material, restriction, built, ctl)?;
    let what = restriction.map_or(String::new(), |r| format!(" ({r})"));
    (ctl.progress)(&format!("building {}{what}", material.name(rules)));
    let table = Builder::new(rules, material, restriction, built)?.run(ctl)?;
    built.insert(material.clone(), table);
    Ok(())
}

/// Builds into `built` every smaller table `material`'s captures and promotions reach.
fn build_smaller(
    rules: &Arc<Rules>,
    material: &Material,
    restriction: Option<Restriction>,
    built: &mut Built,
    ctl: &mut Control,
) -> Result<(), TableError> {
    each_smaller(rules, material, &mut |m| {
        build(rules, m, restriction, built, ctl)
    })
}

/// Calls `f` on each material one capture or promotion (or both) in `material` leads
/// to.
fn each_smaller(
    rules: &Rules,
    material: &Material,
    f: &mut dyn FnMut(&Material) -> Result<(), TableError>,
) -> Result<(), TableError> {
    for side in 0..2 {
        // Every man but the royal one (first) can be captured, and a pawn promoted.
        for i in 1..material.sides[side].len() {
            f(&material.without(side, i))?;
            if rules.pawn_kind() == Some(material.sides[side][i]) {
                for &k in rules.promotion_choices() {
                    let promoted = material.promoted(side, i, k);
                    f(&promoted)?;
                    // A capture that promotes.
                    for v in 1..material.sides[1 - side].len() {
                        f(&promoted.without(1 - side, v))?;
                    }
                }
            }
        }
    }
    Ok(())
}

/// What [`Builder::moves_asking`] calls for each move: the step, and a test of whether
/// the restriction leaves it out.
type Visit<'t, 'f> = &'f mut dyn FnMut(Step<'t>, &dyn Fn() -> bool) -> ControlFlow<()>;

/// The men of one slot.
#[derive(Clone, Copy)]
struct Arrangement {
    stm: usize,
    /// Each man's cell index.
    cells: [u8; MAX_MEN],
    /// `[side]`: the cells of that side's men.
    sides: [Bitboard; 2],
}

/// One move of the side to move, as the passes see it.
enum Step<'t> {
    /// A move to an empty cell, not a pawn's: the slot it leads to in this table.
    Quiet(usize),
    /// A pawn's advance: the slot it leads to in this table (in a class already done,
    /// see the module's notes), and the other side's en-passant captures there, if
    /// any.
    Advance { child: usize, ep: EnPassant<'t> },
    /// A move out of this table (a capture, a promotion): the smaller table it leads to
    /// and the slot there.
    Leave { table: &'t Table, slot: usize },
    /// A legal move left out because it gives check (tables without one side's
    /// checks).
    LeftOut,
}

/// Where a pawn's move goes: an advance over these cells (none for a single step), or a
/// capture of the man in this slot.
#[derive(Clone, Copy)]
enum Target<'c> {
    Advance(&'c [Cell]),
    Capture(usize),
}

/// The other side's en-passant captures after a long advance: the smaller table and
/// the slot each leads to (two pawns could each take on two passed cells at most).
#[derive(Clone, Copy, Default)]
struct EnPassant<'t> {
    replies: [Option<(&'t Table, usize)>; 4],
}

impl<'t> EnPassant<'t> {
    fn add(&mut self, table: &'t Table, slot: usize) {
        if let Some(free) = self.replies.iter_mut().find(|r| r.is_none()) {
            *free = Some((table, slot));
        }
    }

    fn is_empty(&self) -> bool {
        self.replies[0].is_none()
    }

    fn iter(&self) -> impl Iterator<Item = (&'t Table, usize)> + '_ {
        self.replies.iter().flatten().copied()
    }
}

/// A value code as one pass reads it, from the side to move there.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Seen {
    /// Lost in this many plies (of this pass's kind).
    Lost(u8),
    Won(u8),
    /// Not decided, or a draw: a way out.
    Open,
    /// Decided by an earlier pass (the opponent mates): no way out in this one.
    Out,
}

impl Seen {
    /// The same position seen by the side that moved into it, one ply further.
    fn flip(self) -> Seen {
        match self {
            Seen::Lost(d) => Seen::Won(d + 1),
            Seen::Won(d) => Seen::Lost(d + 1),
            other => other,
        }
    }

    /// How good it is for the side to move: higher is better (the sooner win, the
    /// later loss).
    fn rank(self) -> (u8, i16) {
        match self {
            Seen::Won(d) => (3, -i16::from(d)),
            Seen::Open => (2, 0),
            Seen::Out => (1, 0),
            Seen::Lost(d) => (0, i16::from(d)),
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Pass {
    Mate,
    Stalemate,
}

/// How `pass` sees the position at `slot` of the smaller `table` a move leads to.
fn seen_in(table: &Table, slot: usize, pass: Pass) -> Seen {
    seen(table.codes()[slot], table.stalemate_base(), pass)
}

fn seen(code: u8, base: u8, pass: Pass) -> Seen {
    let distance = |d: u8| {
        if d.is_multiple_of(2) {
            Seen::Lost(d)
        } else {
            Seen::Won(d)
        }
    };
    match pass {
        Pass::Mate if code < base => distance(code),
        Pass::Mate => Seen::Open,
        Pass::Stalemate if code < base => Seen::Out,
        Pass::Stalemate if code < DRAW => distance(code - base),
        Pass::Stalemate => Seen::Open,
    }
}

struct Builder<'a> {
    rules: &'a Arc<Rules>,
    material: Material,
    /// Moves of one side left out (for the draws' split).
    restriction: Option<Restriction>,
    men: Vec<Piece>,
    /// `[side]`: that side's men's slots.
    slots: [Vec<usize>; 2],
    cells: Vec<Cell>,
    indexer: Indexer,
    /// `[slot]`: the table a capture of that man leads to (none for the royal men).
    captures: Vec<Option<&'a Table>>,
    /// Pawn slots: the promotions open to that pawn, each with the table it leads to,
    /// without a capture (`None`) or capturing the man in the given slot.
    promotions: Promotions<'a>,
    /// `[slot]`: whether that man is a pawn.
    pawn: Vec<bool>,
    /// Pawn slots' advances: `[side][cell]`, one line of cells per advance vector.
    pawn_lines: [Vec<Vec<Vec<Cell>>>; 2],
    /// `[side][cell]`: the most advances a pawn of that side on that cell has before it
    /// promotes (or can go no further): what a position's class sums.
    depths: [Vec<u8>; 2],
    /// The highest class there can be (0 without pawns: one class).
    classes: u16,
    /// `[slot]`: the class of that position, where there are pawns (see
    /// [`Builder::mark_classes`]); empty without.
    class_of: Vec<u8>,
    codes: Vec<u8>,
    /// The first stalemate code: [`DRAW`] during the mate pass.
    base: u8,
    /// The highest distance code given so far: where the levels end.
    top: u8,
    /// One bit per slot: the parents whose every move an odd level has looked at
    /// already (a parent of several children of that level is looked at once, on
    /// whichever thread finds it first: the answer is the same).
    looked: Vec<AtomicU64>,
    /// Where each position's last look for a loss stopped, during the mate and the
    /// stalemate passes (see `resume.rs`): a position is looked at again only when the
    /// move it stopped at comes to lead into a win, and from that move on.
    resume: Resume,
    /// `[slot * cells + cell]`: every cell that man could ever reach from that cell
    /// (its leaps and whole slide lines), so that most attack tests end without
    /// generating moves.
    hull: Vec<Bitboard>,
}

impl<'a> Builder<'a> {
    fn new(
        rules: &'a Arc<Rules>,
        material: &Material,
        restriction: Option<Restriction>,
        built: &'a Built,
    ) -> Result<Builder<'a>, TableError> {
        let men = material.men_in_order();
        let cells: Vec<Cell> = rules.board().cells().collect();
        let indexer = Indexer::new(rules, &men);
        let positions = indexer.len() as u64;
        if positions > crate::file::MAX_POSITIONS {
            return Err(TableError::TooLarge { positions });
        }
        let mut slots = [Vec::new(), Vec::new()];
        for (j, m) in men.iter().enumerate() {
            slots[m.side.index()].push(j);
        }
        let captures = (0..men.len())
            .map(|j| {
                let side = men[j].side.index();
                let first = slots[side][0];
                (j != first).then(|| &built[&material.without(side, j - first)])
            })
            .collect();
        let pawn: Vec<bool> = men
            .iter()
            .map(|m| rules.pawn_kind() == Some(m.kind))
            .collect();
        let promotions = promotion_tables(rules, material, &men, &slots, &pawn, built);
        let pawn_lines = pawn_paths(rules, &cells);
        let builder = Builder {
            rules,
            material: material.clone(),
            restriction,
            men,
            slots,
            cells,
            codes: Vec::new(),
            indexer,
            captures,
            promotions,
            pawn,
            pawn_lines,
            depths: [Vec::new(), Vec::new()],
            classes: 0,
            class_of: Vec::new(),
            base: DRAW,
            top: 0,
            looked: Vec::new(),
            resume: Resume::none(),
            hull: Vec::new(),
        };
        let mut builder = builder;
        builder.hull = builder
            .men
            .iter()
            .zip(&builder.pawn)
            .flat_map(|(m, &pawn)| {
                builder.cells.iter().map(move |&c| {
                    if pawn {
                        return builder.rules.pawn_captures(m.side, c);
                    }
                    builder
                        .rules
                        .slide_lines(*m, c)
                        .fold(builder.rules.leap_targets(*m, c), |acc, line| acc | line)
                })
            })
            .collect();
        builder.depths = builder.pawn_depths();
        builder.classes = builder.highest_class();
        builder.check_reversible()?;
        Ok(builder)
    }

    /// Every man's quiet moves on an empty board can be played backwards (pawns aside:
    /// their moves are played back from the advance tables).
    fn check_reversible(&self) -> Result<(), TableError> {
        let e = Bitboard::EMPTY;
        for (man, _) in self.men.iter().zip(&self.pawn).filter(|(_, p)| !**p) {
            for &c in &self.cells {
                for t in self.rules.reach(*man, c, e, e, e) {
                    if !self.rules.reach(*man, t, e, e, e).contains(c) {
                        return Err(TableError::Irreversible {
                            piece: self.rules.kind_info(man.kind).name.clone(),
                        });
                    }
                }
            }
        }
        Ok(())
    }

    /// The whole table: its values, then (in the tables play reads, not the draws'
    /// split ones) the move rule's codes beside them.
    fn run(mut self, ctl: &mut Control) -> Result<Table, TableError> {
        self.values(ctl)?;
        let rule = match rule_plies(self.rules).filter(|_| self.restriction.is_none()) {
            Some(plies) => {
                let values = self.codes.clone();
                let rule = self.rule_pass(plies, ctl)?;
                self.codes = values;
                Some(rule)
            }
            None => None,
        };
        Ok(self.into_table().with_rule(rule))
    }

    /// The table of the codes built so far (the values; the rule's codes are the
    /// caller's to add).
    fn into_table(self) -> Table {
        Table::from_parts(
            self.rules,
            self.material,
            self.indexer,
            self.codes,
            self.base,
        )
    }

    /// The values: the mates, then the stalemates where they score, every other
    /// position a draw.
    fn values(&mut self, ctl: &mut Control) -> Result<(), TableError> {
        self.mark_legal(ctl)?;
        self.mark_classes(ctl)?;
        (ctl.progress)("  mates");
        self.resume = Resume::new(0, self.codes.len());
        for class in 0..=self.classes {
            self.top = 0;
            self.start(Pass::Mate, class, ctl)?;
            self.levels(Pass::Mate, class, ctl)?;
        }
        let longest = self.codes.iter().filter(|&&c| c < DRAW).max().copied();
        if self.rules.stalemate().stalemated.millis() < 500 {
            self.base = match longest {
                None => 0,
                Some(d) if d + 2 < DRAW => d + 1,
                Some(_) => {
                    return Err(TableError::TooDeep {
                        material: self.material.name(self.rules),
                    });
                }
            };
            for c in &mut self.codes {
                match *c {
                    STALEMATED => *c = self.base,
                    SAFE => *c = UNKNOWN,
                    _ => {}
                }
            }
            (ctl.progress)("  stalemates");
            // A look of this pass asks another question: each starts at the first move.
            self.resume = Resume::new(0, self.codes.len());
            for class in 0..=self.classes {
                // Level 0 looks for the stalemated (set before the pass).
                self.top = self.base;
                self.start(Pass::Stalemate, class, ctl)?;
                self.levels(Pass::Stalemate, class, ctl)?;
            }
        }
        self.resume = Resume::none();
        for c in &mut self.codes {
            if matches!(*c, STALEMATED | SAFE | UNKNOWN) {
                *c = DRAW;
            }
        }
        Ok(())
    }

    fn arrangement(&self, i: usize) -> Arrangement {
        let (stm, cells) = self.indexer.cells_at(i);
        let mut sides = [Bitboard::EMPTY; 2];
        for (j, man) in self.men.iter().enumerate() {
            sides[man.side.index()].insert(self.cells[cells[j] as usize]);
        }
        Arrangement { stm, cells, sides }
    }

    /// Pass 1: [`ILLEGAL`] or [`UNKNOWN`] for every slot.
    fn mark_legal(&mut self, ctl: &Control) -> Result<(), TableError> {
        self.codes = vec![ILLEGAL; self.indexer.len()];
        self.in_rounds(
            ctl,
            |b, slots, legal: &mut Vec<u32>| {
                legal.extend(slots.filter(|&i| b.is_legal(i)).map(|i| i as u32));
                Ok(())
            },
            |b, legal| {
                for i in legal {
                    b.codes[i as usize] = UNKNOWN;
                }
                Ok(())
            },
        )
    }

    /// Whether slot `i` is a position: its own canonical slot, every man on a cell of
    /// his own, no pawn where it must promote, and the side not to move not in check.
    fn is_legal(&self, i: usize) -> bool {
        let k = self.men.len();
        if !self.indexer.is_canonical(i, k) {
            return false;
        }
        let a = self.arrangement(i);
        let distinct = (a.sides[0] | a.sides[1]).count() as usize == k;
        // A pawn never stands where it must promote.
        let pawn_placed = (0..k).all(|j| {
            !self.pawn[j]
                || !self
                    .rules
                    .is_promotion_cell(self.men[j].side, self.cells[a.cells[j] as usize])
        });
        distinct && pawn_placed && !self.in_check(&a, 1 - a.stm)
    }

    /// Pass 2, for the mate or the stalemate pass: what the captures give, and the
    /// positions without a move.
    ///
    /// A slot's start code depends only on the smaller tables and on which of its
    /// children an earlier pass decided, never on another start code: the slots may be
    /// valued in any order, on any number of threads.
    fn start(&mut self, pass: Pass, class: u16, ctl: &Control) -> Result<(), TableError> {
        self.in_rounds(
            ctl,
            |b, slots, found: &mut Vec<(u32, u8)>| {
                for i in slots {
                    if b.codes[i] != UNKNOWN || !b.slot_in_class(i, class) {
                        continue;
                    }
                    if let Some(code) = b.start_code(&b.arrangement(i), pass)? {
                        found.push((i as u32, code));
                    }
                }
                Ok(())
            },
            |b, found| {
                for (i, code) in found {
                    b.set(i as usize, code);
                }
                Ok(())
            },
        )
    }

    /// The code pass 2 gives the position `a`, if any: what its captures, promotions
    /// and advances (all read from final values) give.
    fn start_code(&self, a: &Arrangement, pass: Pass) -> Result<Option<u8>, TableError> {
        let mut best_win: Option<u8> = None;
        let mut slowest_loss: Option<u8> = None;
        let (mut escape, mut left_out) = (false, false);
        // Quiet moves only for the pawns' advances (the others are the levels' work).
        let advances = self.classes > 0;
        let _ = self.moves(a, advances, &mut |step| {
            let seen = match step {
                Step::Leave { table, slot } => seen_in(table, slot, pass),
                Step::Advance { child, ep } => self.advance_seen(child, &ep, pass),
                Step::LeftOut => {
                    left_out = true;
                    return ControlFlow::Continue(());
                }
                Step::Quiet(_) => return ControlFlow::Continue(()),
            };
            match seen {
                Seen::Lost(d) => best_win = Some(best_win.map_or(d + 1, |b| b.min(d + 1))),
                Seen::Won(d) => slowest_loss = Some(slowest_loss.unwrap_or(0).max(d + 1)),
                Seen::Open => escape = true,
                Seen::Out => {}
            }
            ControlFlow::Continue(())
        });
        let a = *a;
        Ok(if let Some(d) = best_win {
            Some(self.code(d)?)
        } else if escape {
            Some(SAFE)
        } else if self.has_way_out(&a, pass) {
            None
        } else if let Some(d) = slowest_loss {
            Some(self.code(d)?)
        } else if pass == Pass::Mate {
            // No legal move (or only checks, where they are left out).
            let mated = left_out || self.in_check(&a, a.stm) || self.only_checks(&a);
            Some(if mated { 0 } else { STALEMATED })
        } else {
            None
        })
    }

    /// Whether some quiet move counts in `pass` (leads to a position it may still
    /// decide, or to a stalemate).
    fn has_way_out(&self, a: &Arrangement, pass: Pass) -> bool {
        self.moves(a, true, &mut |step| match step {
            Step::Quiet(child) if seen(self.codes[child], self.base, pass) != Seen::Out => {
                ControlFlow::Break(())
            }
            _ => ControlFlow::Continue(()),
        })
        .is_break()
    }

    /// Whether some legal quiet move is left out for giving check.
    fn only_checks(&self, a: &Arrangement) -> bool {
        self.moves(a, true, &mut |step| match step {
            Step::LeftOut => ControlFlow::Break(()),
            _ => ControlFlow::Continue(()),
        })
        .is_break()
    }

    /// Gives slot `i` its code, keeping the highest distance given.
    #[inline]
    fn set(&mut self, i: usize, code: u8) {
        self.codes[i] = code;
        if code < DRAW {
            self.top = self.top.max(code);
        }
    }

    /// The code of distance `d` in the current pass.
    fn code(&self, d: u8) -> Result<u8, TableError> {
        let base = if self.base == DRAW { 0 } else { self.base };
        match base.checked_add(d) {
            Some(c) if c < DRAW => Ok(c),
            _ => Err(TableError::TooDeep {
                material: self.material.name(self.rules),
            }),
        }
    }

    /// Pass 3: level by level, until no position is left valued at or above the level.
    ///
    /// A slot a level decides reads, to the rest of the level, as it read before: an
    /// odd level's `lost_in` stops at an undecided child as at a lost one, and an even
    /// level reads no child; and each find of a slot gives it the same code. So the
    /// slots of a level may be taken in any order, on any number of threads, and the
    /// table comes out the same.
    fn levels(&mut self, pass: Pass, class: u16, ctl: &mut Control) -> Result<(), TableError> {
        let base = if pass == Pass::Mate { 0 } else { self.base };
        let mut level: u8 = 0;
        loop {
            ctl.check()?;
            let Some(code) = base.checked_add(level).filter(|c| *c < DRAW) else {
                break;
            };
            if code > self.top {
                break;
            }
            if !level.is_multiple_of(2) {
                self.looked.clear();
                self.looked
                    .resize_with(self.codes.len().div_ceil(64), || AtomicU64::new(0));
            }
            self.in_rounds(
                ctl,
                |b, slots, found: &mut Vec<(u32, u8)>| {
                    b.parents_decided(slots, code, level, pass, class, found)
                },
                |b, found| {
                    for (p, code) in found {
                        b.decide(p as usize, code, level, pass)?;
                    }
                    Ok(())
                },
            )?;
            level += 1;
        }
        Ok(())
    }

    /// The parents of the slots of `slots` valued `code` (a win or loss of `level`
    /// plies) that this level decides, with their codes: a win of one more ply by
    /// moving into the loss (an even level), or a loss because every move now loses (an
    /// odd one; as long as its slowest way, which a capture may make longer).
    fn parents_decided(
        &self,
        slots: std::ops::Range<usize>,
        code: u8,
        level: u8,
        pass: Pass,
        class: u16,
        found: &mut Vec<(u32, u8)>,
    ) -> Result<(), TableError> {
        let mut parents = Vec::new();
        let mut lost = Vec::new();
        let mut i = slots.start;
        while let Some(at) = find_byte(&self.codes[i..slots.end], code) {
            i += at;
            if !self.slot_in_class(i, class) {
                i += 1;
                continue;
            }
            let a = self.arrangement(i);
            if level.is_multiple_of(2) {
                parents.clear();
                self.unmoves(&a, &mut parents);
                for (p, _) in &parents {
                    if self.wins_sooner_now(*p, level, pass)? {
                        found.push((*p as u32, self.code(level + 1)?));
                    }
                }
            } else {
                lost.clear();
                self.lost_parents(&a, level, pass, &mut lost);
                for &(p, d) in &lost {
                    found.push((p as u32, self.code(d)?));
                }
            }
            i += 1;
        }
        Ok(())
    }

    /// The parents of `a`, just won in `level` plies, that are lost now, with their
    /// distances: those not decided, whose last look stopped at their move into `a`
    /// (or may have), looked at from that move on, once a level.
    fn lost_parents(&self, a: &Arrangement, level: u8, pass: Pass, lost: &mut Vec<(usize, u8)>) {
        self.each_parent(a, &mut |p, j, from, cells| {
            if self.codes[p] != UNKNOWN {
                return;
            }
            let parent = self.parent_of(a, j, from, cells);
            let to = self.cells[a.cells[j] as usize];
            if !self.stopped_at(&parent, p, j, to, &self.resume) || !self.first_look(p) {
                return;
            }
            if let Some(d) = self.lost_resumed(p, &parent, level, pass) {
                lost.push((p, d));
            }
        });
    }

    /// [`Builder::lost_in`] for slot `p`, whose men stand as in `parent` or an image of
    /// it, from the move its last look stopped at; where it stops now is kept. The
    /// moves are numbered as the slot stores its men, so a parent reached as another
    /// image is read from its slot.
    fn lost_resumed(&self, p: usize, parent: &Arrangement, level: u8, pass: Pass) -> Option<u8> {
        let stored;
        let a = if self.indexer.stored_as_is(&parent.cells[..self.men.len()]) {
            parent
        } else {
            stored = self.arrangement(p);
            &stored
        };
        let skip = self.resume.skip(p);
        match self.lost_from(a, skip, level, pass) {
            Err(n) => {
                self.resume.stop(p, n);
                None
            }
            // The slowest way out may be a capture among the moves skipped.
            Ok(_) if skip > 0 => self.lost_in(a, level, pass),
            Ok(d) => d,
        }
    }

    /// Gives slot `p` the code [`Builder::parents_decided`] found for it, unless
    /// another find of the same round already did (each finds the same code).
    fn decide(&mut self, p: usize, code: u8, level: u8, pass: Pass) -> Result<(), TableError> {
        let open = if level.is_multiple_of(2) {
            self.wins_sooner_now(p, level, pass)?
        } else {
            self.codes[p] == UNKNOWN
        };
        if open {
            self.set(p, code);
        }
        Ok(())
    }

    /// Whether slot `p` is looked at for the first time this level (it is marked so).
    fn first_look(&self, p: usize) -> bool {
        let bit = 1u64 << (p % 64);
        self.looked[p / 64].fetch_or(bit, Ordering::Relaxed) & bit == 0
    }

    /// Position `p` moves into a loss of `level` plies: whether that is its best win so
    /// far (it has none, or only a slower one).
    fn wins_sooner_now(&self, p: usize, level: u8, pass: Pass) -> Result<bool, TableError> {
        let win = self.code(level + 1)?;
        let c = self.codes[p];
        let later_win = matches!(seen(c, self.base, pass), Seen::Won(_)) && c > win;
        Ok(c == UNKNOWN || c == SAFE || later_win)
    }

    /// `[side][cell]`: the most advances a pawn of that side on that cell has before it
    /// promotes (or can go no further).
    fn pawn_depths(&self) -> [Vec<u8>; 2] {
        let n = self.cells.len();
        let mut depths = [vec![None; n], vec![None; n]];
        for (s, side_depths) in depths.iter_mut().enumerate() {
            for c in 0..n {
                self.pawn_depth(s, c, side_depths);
            }
        }
        depths.map(|d| d.into_iter().map(|x| x.unwrap_or(0)).collect())
    }

    fn pawn_depth(&self, side: usize, cell: usize, memo: &mut [Option<u8>]) -> u8 {
        if let Some(d) = memo[cell] {
            return d;
        }
        let mut deepest = 0u8;
        for line in &self.pawn_lines[side][cell] {
            for &t in line {
                let further = self.pawn_depth(side, t.index(), memo);
                deepest = deepest.max(further.saturating_add(1));
            }
        }
        memo[cell] = Some(deepest);
        deepest
    }

    /// The highest class there can be (0 without pawns).
    fn highest_class(&self) -> u16 {
        (0..self.men.len())
            .filter(|&j| self.pawn[j])
            .map(|j| {
                let depths = &self.depths[self.men[j].side.index()];
                u16::from(depths.iter().max().copied().unwrap_or(0))
            })
            .sum()
    }

    /// The class of `a`: how far its pawns have to go, together.
    #[inline]
    fn class(&self, a: &Arrangement) -> u16 {
        (0..self.men.len())
            .filter(|&j| self.pawn[j])
            .map(|j| u16::from(self.depths[self.men[j].side.index()][a.cells[j] as usize]))
            .sum()
    }

    /// Whether the position in slot `i` is in `class`: from the slot's class byte when
    /// there is one, else from its men.
    #[inline]
    fn slot_in_class(&self, i: usize, class: u16) -> bool {
        if self.classes == 0 {
            return true;
        }
        match self.class_of.get(i) {
            Some(&c) => u16::from(c) == class,
            None => self.class(&self.arrangement(i)) == class,
        }
    }

    /// Gives each legal slot its class byte, once its codes tell the legal slots.
    ///
    /// Each pass goes through the table once per class, and every slot it meets
    /// there was tested for its class by working out its men, which for all but a
    /// class's own slots was work thrown away: K+P v K+P on 127 cells has over twenty
    /// classes. A byte a slot, on pawn tables only (none has more than 255 classes).
    fn mark_classes(&mut self, ctl: &Control) -> Result<(), TableError> {
        let done = self.class_of.len() == self.codes.len();
        if done || self.classes == 0 || self.classes > u16::from(u8::MAX) {
            return Ok(());
        }
        let mut class_of = vec![0; self.codes.len()];
        self.in_rounds(
            ctl,
            |b, slots, found: &mut Vec<(u32, u8)>| {
                let legal = slots.filter(|&i| b.codes[i] != ILLEGAL);
                found.extend(legal.map(|i| (i as u32, b.class(&b.arrangement(i)) as u8)));
                Ok(())
            },
            |_, found| {
                for (i, class) in found {
                    class_of[i as usize] = class;
                }
                Ok(())
            },
        )?;
        self.class_of = class_of;
        Ok(())
    }

    /// Runs `work` on every slot, round by round, its slots shared out among the
    /// threads in chunks; after each round `apply` gets what the round found (in no set
    /// order: the passes give the same table whatever the order, see their notes).
    fn in_rounds<T: Send>(
        &mut self,
        ctl: &Control,
        work: impl Fn(&Builder, std::ops::Range<usize>, &mut Vec<T>) -> Result<(), TableError> + Sync,
        mut apply: impl FnMut(&mut Builder, Vec<T>) -> Result<(), TableError>,
    ) -> Result<(), TableError> {
        let len = self.codes.len();
        let mut from = 0;
        while from < len {
            ctl.check()?;
            let to = (from + ROUND).min(len);
            let found = self.gather(ctl.threads, from..to, &work)?;
            apply(self, found)?;
            from = to;
        }
        Ok(())
    }

    /// What `work` finds in the slots of `round`, on `threads` threads.
    fn gather<T: Send>(
        &self,
        threads: usize,
        round: std::ops::Range<usize>,
        work: &(impl Fn(&Builder, std::ops::Range<usize>, &mut Vec<T>) -> Result<(), TableError> + Sync),
    ) -> Result<Vec<T>, TableError> {
        if threads <= 1 || round.len() <= CHUNK {
            let mut found = Vec::new();
            work(self, round, &mut found)?;
            return Ok(found);
        }
        let next = AtomicUsize::new(round.start);
        let take = || {
            let mut found = Vec::new();
            loop {
                let start = next.fetch_add(CHUNK, Ordering::Relaxed);
                if start >= round.end {
                    return Ok(found);
                }
                work(self, start..(start + CHUNK).min(round.end), &mut found)?;
            }
        };
        std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..threads).map(|_| scope.spawn(take)).collect();
            let mut found = take()?;
            for h in helpers {
                let theirs = h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))?;
                found.extend(theirs);
            }
            Ok(found)
        })
    }

    /// Whether every move of position `p` loses, with wins for the opponent at most
    /// `level` plies away in this table: then in how many plies it is lost.
    fn lost_in(&self, a: &Arrangement, level: u8, pass: Pass) -> Option<u8> {
        self.lost_from(a, 0, level, pass).unwrap_or(None)
    }

    /// [`Builder::lost_in`] over the moves from move `skip` on (those before it lose):
    /// `Err(n)` when move `n` is a way out.
    fn lost_from(
        &self,
        a: &Arrangement,
        skip: usize,
        level: u8,
        pass: Pass,
    ) -> Result<Option<u8>, usize> {
        let mut slowest: Option<u8> = None;
        let mut way_out = 0;
        let flow = self.moves_from(a, true, skip, false, &mut |n, step, left_out| {
            let step = if left_out() { Step::LeftOut } else { step };
            let view = match step {
                Step::Quiet(child) => match seen(self.codes[child], self.base, pass) {
                    Seen::Won(d) if d <= level => Seen::Won(d),
                    Seen::Won(_) => Seen::Open,
                    other => other,
                },
                // Into a class already done: final.
                Step::Advance { child, ep } => self.advance_seen(child, &ep, pass),
                Step::Leave { table, slot } => seen_in(table, slot, pass),
                Step::LeftOut => Seen::Out,
            };
            match view {
                Seen::Won(d) => {
                    slowest = Some(slowest.unwrap_or(0).max(d));
                    ControlFlow::Continue(())
                }
                Seen::Out => ControlFlow::Continue(()),
                Seen::Lost(_) | Seen::Open => {
                    way_out = n;
                    ControlFlow::Break(())
                }
            }
        });
        if flow.is_break() {
            return Err(way_out);
        }
        Ok(slowest.map(|d| d + 1))
    }

    /// Calls `f` for each legal move of the side to move (quiet ones only when `quiet`),
    /// until it breaks; a move the restriction forbids is [`Step::LeftOut`].
    fn moves(
        &self,
        a: &Arrangement,
        quiet: bool,
        f: &mut dyn FnMut(Step<'a>) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        self.moves_asking(a, quiet, &mut |step, left_out| {
            f(if left_out() { Step::LeftOut } else { step })
        })
    }

    /// [`Builder::moves`], each move given as allowed, with a test of whether the
    /// restriction leaves it out for `f` to ask only when the answer matters: whether a
    /// move checks costs an attack test, and a move into a position already decided
    /// may not need it.
    fn moves_asking(&self, a: &Arrangement, quiet: bool, f: Visit<'a, '_>) -> ControlFlow<()> {
        self.moves_from(a, quiet, 0, false, &mut |_, step, left_out| {
            f(step, left_out)
        })
    }

    /// [`Builder::moves_asking`] from the move numbered `skip` on, each move given with
    /// its number: a look that stopped at a move can start there the next time, the
    /// moves before it leading into positions already decided, without working out
    /// where they lead again. The numbers count every target of every man (pawns:
    /// every step given), in the one order an arrangement's moves always take.
    ///
    /// With `unread`, a piece's quiet move is given without reading whether its slot
    /// is [`ILLEGAL`] (the move left the mover's king in check): for a caller that reads
    /// another array about the child first and needs its code only sometimes, so that a
    /// table larger than the caches is read at random once for such a move, not twice.
    fn moves_from(
        &self,
        a: &Arrangement,
        quiet: bool,
        skip: usize,
        unread: bool,
        f: &mut impl FnMut(usize, Step<'a>, &dyn Fn() -> bool) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let stm = a.stm;
        let k = self.men.len();
        let occupied = a.sides[0] | a.sides[1];
        let anchor = if quiet {
            self.indexer.anchor(&a.cells[..k])
        } else {
            None
        };
        let mut n = 0;
        for &j in &self.slots[stm] {
            if self.pawn[j] {
                self.pawn_moves(a, anchor, j, quiet, &mut |step, left_out| {
                    n += 1;
                    if n <= skip {
                        return ControlFlow::Continue(());
                    }
                    f(n - 1, step, left_out)
                })?;
                continue;
            }
            let from = self.cells[a.cells[j] as usize];
            let reach =
                self.rules
                    .reach(self.men[j], from, a.sides[stm], a.sides[1 - stm], occupied);
            let targets = if quiet {
                reach
            } else {
                reach & a.sides[1 - stm]
            };
            let count = targets.count() as usize;
            if n + count <= skip {
                n += count;
                continue;
            }
            for t in targets {
                n += 1;
                if n <= skip {
                    continue;
                }
                let mut cells = a.cells;
                cells[j] = t.index() as u8;
                let capture = a.sides[1 - stm].contains(t);
                let step = if capture {
                    let Some((table, slot)) = self.capture(&cells, t, stm) else {
                        continue;
                    };
                    Step::Leave { table, slot }
                } else {
                    let child = self
                        .indexer
                        .index_after(anchor, 1 - stm, &cells[..k], j, a.cells[j])
                        .expect("distinct");
                    if !unread && self.codes[child] == ILLEGAL {
                        continue;
                    }
                    Step::Quiet(child)
                };
                self.emit(a, j, t, capture, None, step, &mut |step, left_out| {
                    f(n - 1, step, left_out)
                })?;
            }
        }
        ControlFlow::Continue(())
    }

    /// Passes `step` (man `j` to `t`, a capture or not, promoting to `promoted` or not)
    /// to `f`, with the test of whether the restriction forbids it.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn emit<F>(
        &self,
        a: &Arrangement,
        j: usize,
        t: Cell,
        capture: bool,
        promoted: Option<Kind>,
        step: Step<'a>,
        f: &mut F,
    ) -> ControlFlow<()>
    where
        F: FnMut(Step<'a>, &dyn Fn() -> bool) -> ControlFlow<()> + ?Sized,
    {
        let left_out = || match self.restriction.filter(|r| r.side().index() == a.stm) {
            None => false,
            Some(Restriction::NoChecks(_)) => self.gives_check(a, j, t, promoted),
            Some(Restriction::ChecksOnly(_)) => !self.gives_check(a, j, t, promoted),
            Some(Restriction::NoCaptures(_)) => capture,
        };
        f(step, &left_out)
    }

    /// The moves of the pawn in slot `j`: advances (a long first move only over empty
    /// cells), captures, and promotions, which leave the table for the promoted one's.
    fn pawn_moves(
        &self,
        a: &Arrangement,
        anchor: Option<Anchor>,
        j: usize,
        quiet: bool,
        f: Visit<'a, '_>,
    ) -> ControlFlow<()> {
        let stm = a.stm;
        let from = self.cells[a.cells[j] as usize];
        let occupied = a.sides[0] | a.sides[1];
        for line in &self.pawn_lines[stm][from.index()] {
            for (k, &t) in line.iter().enumerate() {
                if occupied.contains(t) {
                    break;
                }
                let over = Target::Advance(&line[..k]);
                self.pawn_step(a, anchor, j, t, over, quiet, f)?;
            }
        }
        let side = self.men[j].side;
        for t in self.rules.pawn_captures(side, from) & a.sides[1 - stm] {
            let victim = *self.slots[1 - stm]
                .iter()
                .find(|&&q| a.cells[q] == t.index() as u8)
                .expect("an enemy man on the target");
            self.pawn_step(a, None, j, t, Target::Capture(victim), quiet, f)?;
        }
        ControlFlow::Continue(())
    }

    /// The pawn in slot `j` to `t` (an advance over the cells given, or capturing the
    /// man in a slot): as a pawn unless it must promote there, and promoted to each
    /// choice where it may.
    #[allow(clippy::too_many_arguments)]
    fn pawn_step(
        &self,
        a: &Arrangement,
        anchor: Option<Anchor>,
        j: usize,
        t: Cell,
        target: Target,
        quiet: bool,
        f: Visit<'a, '_>,
    ) -> ControlFlow<()> {
        let stm = a.stm;
        let side = self.men[j].side;
        let victim = match target {
            Target::Capture(v) => Some(v),
            Target::Advance(_) => None,
        };
        let mut cells = a.cells;
        cells[j] = t.index() as u8;
        let must = self.rules.is_promotion_cell(side, t);
        let may = must || self.rules.is_optional_promotion_cell(side, t);
        if !must {
            let step = match victim {
                Some(_) => self
                    .capture(&cells, t, stm)
                    .map(|(table, slot)| Step::Leave { table, slot }),
                None if quiet => {
                    let child = self
                        .indexer
                        .index_after(anchor, 1 - stm, &cells[..self.men.len()], j, a.cells[j])
                        .expect("distinct");
                    let over = match target {
                        Target::Advance(over) => over,
                        Target::Capture(_) => &[],
                    };
                    (self.codes[child] != ILLEGAL).then(|| Step::Advance {
                        child,
                        ep: self.en_passant_replies(&cells, j, over, stm),
                    })
                }
                None => None,
            };
            if let Some(step) = step {
                self.emit(a, j, t, victim.is_some(), None, step, f)?;
            }
        }
        if !may {
            return ControlFlow::Continue(());
        }
        let (rest, n) = self.without_slot(&cells, victim);
        for &(kind, table) in &self.promotions[&(j, victim)] {
            let Some(slot) = table.slot_of(1 - stm, &rest[..n]) else {
                continue;
            };
            let step = Step::Leave { table, slot };
            self.emit(a, j, t, victim.is_some(), Some(kind), step, f)?;
        }
        ControlFlow::Continue(())
    }

    /// The other side's en-passant captures of the pawn in slot `j`, just advanced over
    /// `over` to where `cells` have it (`stm` moved it): the smaller table and slot each
    /// leads to. Each pawn of the other side that captures onto a cell passed over may
    /// take it there, if its own king is safe after (the slot is legal).
    fn en_passant_replies(
        &self,
        cells: &[u8; MAX_MEN],
        j: usize,
        over: &[Cell],
        stm: usize,
    ) -> EnPassant<'a> {
        let mut replies = EnPassant::default();
        if over.is_empty() || !self.rules.has_en_passant() {
            return replies;
        }
        let table = self.captures[j].expect("a pawn is never royal");
        let takers = self.slots[1 - stm].iter().filter(|&&q| self.pawn[q]);
        for &q in takers {
            let from = self.cells[cells[q] as usize];
            let reach = self.rules.pawn_captures(self.men[q].side, from);
            for &s in over.iter().filter(|s| reach.contains(**s)) {
                let mut after = *cells;
                after[q] = s.index() as u8;
                let (rest, n) = self.without_slot(&after, Some(j));
                if let Some(slot) = table.slot_of(stm, &rest[..n]) {
                    replies.add(table, slot);
                }
            }
        }
        replies
    }

    /// How `pass` sees, from the side to move there, the position a pawn's advance
    /// leads to (a class already done): its own value, or better for that side, an
    /// en-passant capture's. In the stalemate pass a position the mate pass decided
    /// reads as decided, which with en passant means its best reply did.
    fn advance_seen(&self, child: usize, ep: &EnPassant<'a>, pass: Pass) -> Seen {
        let own = |p: Pass| seen(self.codes[child], self.base, p);
        if ep.is_empty() {
            return own(pass);
        }
        let options = |p: Pass| {
            std::iter::once(own(p))
                .chain(ep.iter().map(move |(t, slot)| seen_in(t, slot, p).flip()))
        };
        let best = |of: &mut dyn Iterator<Item = Seen>| {
            of.max_by_key(|s| s.rank()).expect("its own value at least")
        };
        let by_mates = best(&mut options(Pass::Mate));
        match pass {
            Pass::Mate => by_mates,
            Pass::Stalemate if by_mates != Seen::Open => Seen::Out,
            Pass::Stalemate => {
                let open = options(Pass::Mate).zip(options(Pass::Stalemate));
                best(&mut open.filter(|(m, _)| *m == Seen::Open).map(|(_, s)| s))
            }
        }
    }

    /// The smaller table, and the slot there, of the position a capture on `t` leads to
    /// (`cells` already has the capturing man there); `None` when it is illegal (the
    /// mover left in check).
    fn capture(&self, cells: &[u8; MAX_MEN], t: Cell, stm: usize) -> Option<(&'a Table, usize)> {
        let victim = *self.slots[1 - stm]
            .iter()
            .find(|&&q| cells[q] == t.index() as u8)
            .expect("an enemy man on the target");
        let table = self.captures[victim].expect("royal men are never captured");
        let (rest, n) = self.without_slot(cells, Some(victim));
        Some((table, table.slot_of(1 - stm, &rest[..n])?))
    }

    /// The men's cells with the man in slot `gone` (if any) taken off: the cells of the
    /// smaller table a capture leads to, and how many.
    fn without_slot(&self, cells: &[u8; MAX_MEN], gone: Option<usize>) -> ([u8; MAX_MEN], usize) {
        let mut rest = [0u8; MAX_MEN];
        let mut n = 0;
        for (q, &c) in cells[..self.men.len()].iter().enumerate() {
            if Some(q) != gone {
                rest[n] = c;
                n += 1;
            }
        }
        (rest, n)
    }

    /// Whether `side`'s royal man is attacked in `a`.
    fn in_check(&self, a: &Arrangement, side: usize) -> bool {
        self.attacked(a, side, None)
    }

    /// Whether `side`'s royal man is attacked in `a`, the man in `promoted.0` (if any)
    /// being a `promoted.1` now.
    fn attacked(&self, a: &Arrangement, side: usize, promoted: Option<(usize, Kind)>) -> bool {
        let target = self.cells[a.cells[self.slots[side][0]] as usize];
        let occupied = a.sides[0] | a.sides[1];
        let n = self.cells.len();
        self.slots[1 - side].iter().any(|&j| {
            let from = self.cells[a.cells[j] as usize];
            if !a.sides[1 - side].contains(from) {
                return false;
            }
            let (own, enemy) = (a.sides[1 - side], a.sides[side]);
            match promoted {
                Some((q, kind)) if q == j => {
                    let piece = Piece::new(self.men[j].side, kind);
                    self.rules
                        .reach(piece, from, own, enemy, occupied)
                        .contains(target)
                }
                _ if !self.hull[j * n + from.index()].contains(target) => false,
                _ if self.pawn[j] => true,
                _ => self
                    .rules
                    .reach(self.men[j], from, own, enemy, occupied)
                    .contains(target),
            }
        })
    }

    /// Whether man `j` moving to `t` in `a` (promoting to `promoted`, if given) gives
    /// check.
    fn gives_check(&self, a: &Arrangement, j: usize, t: Cell, promoted: Option<Kind>) -> bool {
        let stm = a.stm;
        let mut after = *a;
        after.stm = 1 - stm;
        after.sides[stm].remove(self.cells[a.cells[j] as usize]);
        after.sides[stm].insert(t);
        after.sides[1 - stm].remove(t);
        after.cells[j] = t.index() as u8;
        // A captured man keeps its cell index but leaves its side's set: only the
        // mover's men attack the king checked.
        self.attacked(&after, 1 - stm, promoted.map(|k| (j, k)))
    }

    /// The legal positions from which a quiet move leads to `a`: a man of the side that
    /// just moved, played back along its own moves (not a pawn: its advances lead from
    /// another class, read forward).
    ///
    /// Each comes with its arrangement as reached (perhaps an image of the one stored
    /// under the symmetries, which has the same moves up to the same image): what the
    /// forward check of a parent needs, without decoding its slot again.
    fn unmoves(&self, a: &Arrangement, out: &mut Vec<(usize, Arrangement)>) {
        self.each_parent(a, &mut |pred, j, from, cells| {
            if self.codes[pred] != ILLEGAL {
                out.push((pred, self.parent_of(a, j, from, cells)));
            }
        });
    }

    /// The arrangement from which man `j`, on `from` there (the men on `cells`), moved
    /// into `a`.
    fn parent_of(
        &self,
        a: &Arrangement,
        j: usize,
        from: Cell,
        cells: [u8; MAX_MEN],
    ) -> Arrangement {
        let mover = 1 - a.stm;
        let mut sides = a.sides;
        sides[mover].remove(self.cells[a.cells[j] as usize]);
        sides[mover].insert(from);
        Arrangement {
            stm: mover,
            cells,
            sides,
        }
    }

    /// Calls `f` with the slot of every position a quiet move leads to `a` from (legal
    /// or not), the man moved, the cell it came from, and the men's cells there: what
    /// [`Builder::unmoves`] keeps of the legal ones, and the draws' split marks by slot
    /// alone.
    fn each_parent(&self, a: &Arrangement, f: &mut impl FnMut(usize, usize, Cell, [u8; MAX_MEN])) {
        let mover = 1 - a.stm;
        // Every move into a check is a checking move, every other one is not.
        match self.restriction {
            Some(Restriction::NoChecks(s)) if s.index() == mover && self.in_check(a, a.stm) => {
                return;
            }
            Some(Restriction::ChecksOnly(s)) if s.index() == mover && !self.in_check(a, a.stm) => {
                return;
            }
            _ => {}
        }
        let k = self.men.len();
        let anchor = self.indexer.anchor(&a.cells[..k]);
        for &j in self.slots[mover].iter().filter(|&&j| !self.pawn[j]) {
            let at = self.cells[a.cells[j] as usize];
            let mut own = a.sides[mover];
            own.remove(at);
            let occupied = own | a.sides[a.stm];
            let back = self
                .rules
                .reach(self.men[j], at, own, a.sides[a.stm], occupied)
                & !occupied;
            for from in back {
                let mut cells = a.cells;
                cells[j] = from.index() as u8;
                let pred = self
                    .indexer
                    .index_after(anchor, mover, &cells[..k], j, a.cells[j])
                    .expect("distinct");
                f(pred, j, from, cells);
            }
        }
    }
}

/// The first place `needle` is in `haystack`, eight bytes at a time: the levels scan
/// the whole table once each, and most of it holds other codes.
fn find_byte(haystack: &[u8], needle: u8) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let pattern = ONES * u64::from(needle);
    let mut chunks = haystack.chunks_exact(8);
    let mut at = 0;
    for chunk in chunks.by_ref() {
        let word = u64::from_le_bytes(chunk.try_into().expect("eight bytes")) ^ pattern;
        // A zero byte in `word` is a match (the classic "has zero byte" test).
        if word.wrapping_sub(ONES) & !word & HIGHS != 0 {
            return chunk.iter().position(|&b| b == needle).map(|p| at + p);
        }
        at += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|&b| b == needle)
        .map(|p| at + p)
}

/// A limit on one side's moves, for telling kinds of draws apart: a draw that the
/// limited side no longer holds needed the moves left out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Restriction {
    /// The side may not give check (a position where its only moves check is lost).
    NoChecks(Side),
    /// The side must give check with every move (or it loses): what it holds so is
    /// held by checking forever.
    ChecksOnly(Side),
    /// The side may not capture.
    NoCaptures(Side),
}

impl Restriction {
    /// The side the restriction binds.
    pub fn side(self) -> Side {
        match self {
            Restriction::NoChecks(s) | Restriction::ChecksOnly(s) | Restriction::NoCaptures(s) => s,
        }
    }
}

impl std::fmt::Display for Restriction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let side = if self.side() == Side::White {
            "White"
        } else {
            "Black"
        };
        match self {
            Restriction::NoChecks(_) => write!(f, "{side} gives no check"),
            Restriction::ChecksOnly(_) => write!(f, "{side} gives check with every move"),
            Restriction::NoCaptures(_) => write!(f, "{side} captures nothing"),
        }
    }
}

/// For each pawn slot, with no capture and with each capture it can make: the tables
/// its promotions lead to (the kinds it may become; where only lost pieces may be
/// chosen, those of which fewer stand than the side started with).
fn promotion_tables<'a>(
    rules: &Rules,
    material: &Material,
    men: &[Piece],
    slots: &[Vec<usize>; 2],
    pawn: &[bool],
    built: &'a Built,
) -> Promotions<'a> {
    let mut out = HashMap::new();
    for j in (0..men.len()).filter(|&j| pawn[j]) {
        let side = men[j].side.index();
        let i = j - slots[side][0];
        let choices: Vec<Kind> = rules
            .promotion_choices()
            .iter()
            .copied()
            .filter(|k| {
                let standing = material.sides[side].iter().filter(|x| *x == k).count();
                !rules.promotes_only_to_lost_pieces()
                    || usize::from(rules.start_count(men[j].side, *k)) > standing
            })
            .collect();
        let victims = std::iter::once(None).chain(slots[1 - side][1..].iter().map(|v| Some(*v)));
        for victim in victims {
            let tables = choices
                .iter()
                .map(|&k| {
                    let m = material.promoted(side, i, k);
                    let m = match victim {
                        Some(v) => m.without(1 - side, v - slots[1 - side][0]),
                        None => m,
                    };
                    (k, &built[&m])
                })
                .collect();
            out.insert((j, victim), tables);
        }
    }
    out
}

/// Pawns' advances by side and cell: one line of cells per advance vector.
fn pawn_paths(rules: &Rules, cells: &[Cell]) -> [Vec<Vec<Vec<Cell>>>; 2] {
    Side::BOTH.map(|side| {
        cells
            .iter()
            .map(|&c| rules.pawn_advance_lines(side, c))
            .collect()
    })
}

/// Builds the table of `material` and every smaller one, all under `restriction`, and
/// returns the big one.
pub(crate) fn restricted(
    rules: &Arc<Rules>,
    material: &Material,
    restriction: Restriction,
    ctl: &mut Control,
) -> Result<Table, TableError> {
    let mut built = Built::new();
    build(rules, material, Some(restriction), &mut built, ctl)?;
    Ok(built.remove(material).expect("just built"))
}

/// Building tables (the steps above), as the crate's users call it.
/// Why a table built into its file ([`Table::generate_into`]) is not there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GenerateError {
    /// The build failed.
    Table(TableError),
    /// The file could not be written.
    File(TableFileError),
}

impl std::fmt::Display for GenerateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GenerateError::Table(e) => e.fmt(f),
            GenerateError::File(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for GenerateError {}

impl From<TableError> for GenerateError {
    fn from(e: TableError) -> GenerateError {
        GenerateError::Table(e)
    }
}

impl From<TableFileError> for GenerateError {
    fn from(e: TableFileError) -> GenerateError {
        GenerateError::File(e)
    }
}

/// The values of `material`'s table with its draws split (the move rule's codes not
/// yet made), and the smaller tables its captures and promotions reach (with theirs).
fn values_split(
    rules: &Arc<Rules>,
    material: &Material,
    ctl: &mut Control,
) -> Result<(Table, Built), TableError> {
    let mut built = Built::new();
    build_smaller(rules, material, None, &mut built, ctl)?;
    (ctl.progress)(&format!("building {}", material.name(rules)));
    let mut builder = Builder::new(rules, material, None, &built)?;
    builder.values(ctl)?;
    let mut table = builder.into_table();
    split::split_draws(rules, &mut table, &built, ctl)?;
    Ok((table, built))
}

/// The move rule's codes of `table` (its draws split; its smaller tables in `built`),
/// made in place from `values`, its value codes (taken, so that a build writing its file
/// need not hold both); `None` where the variant has no rule a table keeps.
fn rule_codes(
    rules: &Arc<Rules>,
    table: &Table,
    built: &Built,
    values: Vec<u8>,
    ctl: &mut Control,
) -> Result<Option<RuleCodes>, TableError> {
    let Some(plies) = rule_plies(rules) else {
        return Ok(None);
    };
    let mut builder = Builder::new(rules, table.material(), None, built)?;
    builder.base = table.stalemate_base();
    builder.codes = values;
    builder.rule_pass(plies, ctl).map(Some)
}

impl Table {
    /// Builds the table of `material` in `rules`' variant, with every smaller table its
    /// captures reach.
    pub fn generate(rules: &Arc<Rules>, material: &Material) -> Result<Table, TableError> {
        Table::generate_with(rules, material, &mut |_| {}, &AtomicBool::new(false))
    }

    /// Like [`Table::generate`], telling `progress` what it is doing (a line per table
    /// and pass), and giving up with [`TableError::Stopped`] soon after `stop` is
    /// raised (from another thread: a game's menu, Ctrl-C).
    ///
    /// The draws are split: a draw is a perpetual-check draw when the other side would
    /// mate were the side that holds it not allowed to give check (a side facing a lone
    /// royal man is never the one holding the draw). The wins without checks are grown
    /// from the table's own wins (see `build/split.rs`), a bit per position.
    pub fn generate_with(
        rules: &Arc<Rules>,
        material: &Material,
        progress: &mut dyn FnMut(&str),
        stop: &AtomicBool,
    ) -> Result<Table, TableError> {
        Table::generate_on(rules, material, progress, stop, 1)
    }

    /// [`Table::generate_with`] on `threads` threads (at least one): every pass shares
    /// its positions out among them, and the table is the same byte for byte whatever
    /// their number.
    pub fn generate_on(
        rules: &Arc<Rules>,
        material: &Material,
        progress: &mut dyn FnMut(&str),
        stop: &AtomicBool,
        threads: usize,
    ) -> Result<Table, TableError> {
        let mut ctl = Control {
            progress,
            stop,
            threads: threads.max(1),
        };
        let (table, built) = values_split(rules, material, &mut ctl)?;
        let rule = rule_codes(rules, &table, &built, table.codes().to_vec(), &mut ctl)?;
        Ok(table.with_rule(rule))
    }

    /// [`Table::generate_on`], writing the table to `path` ([`Table::write`]'s way: all
    /// or nothing) instead of returning it, in half the memory: the values are written
    /// before the move rule's pass, which then turns them into its own codes in place,
    /// so the build never holds two bytes a slot (five men on 91 cells: 1.08 GB, not
    /// 2.16). Where files go to a page store, the table is built whole and written.
    /// Gives the table's slots.
    pub fn generate_into(
        files: &hexchess_files::Files,
        rules: &Arc<Rules>,
        material: &Material,
        path: &Path,
        progress: &mut dyn FnMut(&str),
        stop: &AtomicBool,
        threads: usize,
    ) -> Result<usize, GenerateError> {
        if files.store().is_some() {
            let table = Table::generate_on(rules, material, progress, stop, threads)?;
            table.write(files, path)?;
            return Ok(table.len());
        }
        // Before the build, which may take an hour: the write at its end would fail.
        crate::file::check_writable(files, path)?;
        let mut ctl = Control {
            progress,
            stop,
            threads: threads.max(1),
        };
        let (mut table, built) = values_split(rules, material, &mut ctl)?;
        let plies = rule_plies(rules).unwrap_or(0);
        let mut file = TableWriter::create(path, &table, plies)?;
        file.write(table.codes())?;
        let slots = table.len();
        let values = table.take_codes();
        if let Some(rule) = rule_codes(rules, &table, &built, values, &mut ctl)? {
            file.write(&rule.codes)?;
        }
        file.finish()?;
        Ok(slots)
    }

    /// The table of `material` as it would be were `defender` not allowed to give check
    /// (a position where its only moves give check is lost for it): what tells
    /// perpetual-check draws from fortresses. Its draws are not split.
    pub fn generate_without_checks(
        rules: &Arc<Rules>,
        material: &Material,
        defender: Side,
    ) -> Result<Table, TableError> {
        Table::generate_restricted(rules, material, Restriction::NoChecks(defender))
    }

    /// The table of `material` with one side's moves limited, in it and every smaller
    /// table (for studying kinds of draws). Its draws are not split.
    pub fn generate_restricted(
        rules: &Arc<Rules>,
        material: &Material,
        restriction: Restriction,
    ) -> Result<Table, TableError> {
        let stop = AtomicBool::new(false);
        let mut ctl = Control {
            progress: &mut |_| {},
            stop: &stop,
            threads: 1,
        };
        restricted(rules, material, restriction, &mut ctl)
    }
}

#[cfg(test)]
mod tests {
    use super::find_byte;

    #[test]
    fn find_byte_finds_the_first_match_anywhere_or_none() {
        let mut hay = vec![7u8; 37];
        assert_eq!(find_byte(&hay, 3), None);
        for at in [0, 5, 7, 8, 31, 32, 36] {
            hay[at] = 3;
            assert_eq!(find_byte(&hay, 3), Some(at));
            hay[at] = 7;
        }
        // A byte one above the needle next to a match: no false position.
        hay[9] = 4;
        hay[10] = 3;
        assert_eq!(find_byte(&hay, 3), Some(10));
        assert_eq!(find_byte(&[], 3), None);
    }
}
