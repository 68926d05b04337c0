//! The draws' split, read off the finished table: which draws are held only by giving
//! check.
//!
//! A draw is a perpetual-check draw when the other side (the *attacker*) would mate
//! were the side holding it (the *defender*) not allowed to give check, a position
//! where its only moves check being lost for it. Leaving moves out only helps the
//! attacker: every position the attacker wins by mate in the table still wins without
//! the defender's checks (the same play mates, or leaves the defender only checks).
//! So the wins without checks are the table's own wins and what they reach: the least
//! set that holds them and is closed under "the attacker has a move into it" and
//! "every move the defender is allowed leads into it".
//!
//! That set is found forward from the table's wins, not by a second retrograde
//! analysis from the mates: every other position is looked at once, and after that
//! only those with a move into a position just won (a bit per slot marks them), or,
//! after a sweep that won many, every open position of the defender's again (see
//! `MARK_BELOW`), each look starting at the move the last one stopped at
//! ([`Resume`]). Only whether the attacker wins counts, not in how many plies. The
//! smaller tables without checks are grown the same way, each from its full table (a
//! build holds those anyway), smallest first.
//!
//! With pawns, the positions are taken in the mate pass's classes: an advance leads
//! into a class already finished, read as a capture is.

use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use hexchess_core::Rules;

use super::resume::Resume;
use super::{
    Arrangement, Builder, Built, Control, EnPassant, ROUND, Restriction, Step, each_smaller,
};
use crate::material::Material;
use crate::table::{DRAW, ILLEGAL, PERPETUAL, Table, TableError};

/// One bit per slot, set from any thread.
struct Bits(Vec<AtomicU64>);

impl Bits {
    fn new(len: usize) -> Bits {
        Bits((0..len.div_ceil(64)).map(|_| AtomicU64::new(0)).collect())
    }

    #[inline]
    fn get(&self, i: usize) -> bool {
        self.0[i / 64].load(Ordering::Relaxed) & (1 << (i % 64)) != 0
    }

    #[inline]
    fn set(&self, i: usize) {
        self.0[i / 64].fetch_or(1 << (i % 64), Ordering::Relaxed);
    }

    /// Sets bit `i`, saying whether it was clear.
    #[inline]
    fn insert(&self, i: usize) -> bool {
        let bit = 1 << (i % 64);
        self.0[i / 64].fetch_or(bit, Ordering::Relaxed) & bit == 0
    }
}

/// Marks [`PERPETUAL`] every draw of `table` (just built, with the smaller tables
/// `material`'s captures reach in `built`) that one side holds only by giving check.
pub(crate) fn split_draws(
    rules: &Arc<Rules>,
    table: &mut Table,
    built: &Built,
    ctl: &mut Control,
) -> Result<(), TableError> {
    let material = table.material().clone();
    for defender in hexchess_core::Side::BOTH {
        // A lone royal man is never the stronger side: the side facing it is never
        // the defender.
        if material.sides[1 - defender.index()].len() == 1 {
            continue;
        }
        let restriction = Restriction::NoChecks(defender);
        let mut smaller = Built::new();
        each_smaller(rules, &material, &mut |m| {
            smaller_without_checks(rules, m, restriction, built, &mut smaller, ctl)
        })?;
        (ctl.progress)(&format!(
            "splitting the draws of {} ({restriction})",
            material.name(rules)
        ));
        let won = wins_without_checks(rules, &material, table, restriction, &smaller, ctl)?;
        for (i, code) in table.codes_mut().iter_mut().enumerate() {
            if *code == DRAW && won.get(i) {
                *code = PERPETUAL;
            }
        }
    }
    Ok(())
}

/// Puts into `out` the table of `material` under `restriction` (and first those of the
/// smaller materials it reaches), grown as the split grows its own from the full table
/// in `full`: what a build under `restriction` would give, where all the split reads
/// is whether the attacker mates. So its codes are [`WON_TO_MOVE`] or [`LOST_TO_MOVE`]
/// where the attacker mates, in a number of plies not kept, and [`DRAW`] elsewhere.
/// (Built in full instead, the smaller tables of K+P v K+P, as large as it, were two
/// fifths of its build.)
fn smaller_without_checks(
    rules: &Arc<Rules>,
    material: &Material,
    restriction: Restriction,
    full: &Built,
    out: &mut Built,
    ctl: &mut Control,
) -> Result<(), TableError> {
    if out.contains_key(material) {
        return Ok(());
    }
    each_smaller(rules, material, &mut |m| {
        smaller_without_checks(rules, m, restriction, full, out, ctl)
    })?;
    (ctl.progress)(&format!(
        "growing the wins of {} ({restriction})",
        material.name(rules)
    ));
    let table = &full[material];
    let attacker = 1 - restriction.side().index();
    let won = table_wins(table, attacker);
    let mut builder = Builder::new(rules, material, Some(restriction), out)?;
    builder.codes = table.codes().to_vec();
    builder.mark_classes(ctl)?;
    builder.grow(attacker, &won, ctl)?;
    for (i, code) in builder.codes.iter_mut().enumerate() {
        if *code == ILLEGAL {
            continue;
        }
        *code = match (won.get(i), builder.indexer.side_to_move(i) == attacker) {
            (false, _) => DRAW,
            (true, true) => WON_TO_MOVE,
            (true, false) => LOST_TO_MOVE,
        };
    }
    let grown = builder.into_table();
    out.insert(material.clone(), grown);
    Ok(())
}

/// The code of a smaller table grown by [`smaller_without_checks`] where the attacker
/// is to move and mates: a win (odd), its length not kept.
const WON_TO_MOVE: u8 = 1;
/// Where the defender is to move and the attacker mates: a loss (even), mate not now.
const LOST_TO_MOVE: u8 = 2;

/// The positions of `table` the attacker wins by mate, a bit each.
fn table_wins(table: &Table, attacker: usize) -> Bits {
    let won = Bits::new(table.len());
    for (i, &code) in table.codes().iter().enumerate() {
        if table.mate_winner(i, code) == Some(attacker) {
            won.set(i);
        }
    }
    won
}

/// The positions the attacker wins by mate in `material` under `restriction`, its
/// smaller tables (under it) in `smaller`, grown from `table`'s own wins.
fn wins_without_checks(
    rules: &Arc<Rules>,
    material: &Material,
    table: &mut Table,
    restriction: Restriction,
    smaller: &Built,
    ctl: &mut Control,
) -> Result<Bits, TableError> {
    let attacker = 1 - restriction.side().index();
    let won = table_wins(table, attacker);
    let mut builder = Builder::new(rules, material, Some(restriction), smaller)?;
    builder.codes = table.take_codes();
    let grown = builder
        .mark_classes(ctl)
        .and_then(|()| builder.grow(attacker, &won, ctl));
    table.put_codes(std::mem::take(&mut builder.codes));
    grown.map(|()| won)
}

impl Builder<'_> {
    /// Adds to `won` every position its wins lead the attacker to, class by class.
    ///
    /// An attacker's position with a quiet move into a win of the table's is one of
    /// its wins too: the attacker's positions outside them are won only by a capture
    /// (or advance) into a win without checks, or by a quiet move into a defender's
    /// position won here, and are marked won when that one is found. So only the
    /// defender's positions are looked at by their moves.
    fn grow(&self, attacker: usize, won: &Bits, ctl: &mut Control) -> Result<(), TableError> {
        let len = self.codes.len();
        let marked = Bits::new(len);
        let half = len / 2;
        let defender_slots = (1 - attacker) * half..(2 - attacker) * half;
        let resume = Resume::new(defender_slots.start, half);
        for class in 0..=self.classes {
            // Every open position of the class is looked at once...
            let mut found = self.sweep(ctl, None, |b, i| {
                if b.codes[i] == ILLEGAL || won.get(i) {
                    return false;
                }
                b.slot_in_class(i, class)
                    && b.look(&b.arrangement(i), i, attacker, won, None, &resume)
            })?;
            // ...and then those a new win may have decided, until none is: the ones
            // marked, or after a sweep that marked nothing, every open one of the
            // defender's again (from where its last look stopped).
            let (mut sweeps, mut marks_made) = (1, false);
            while found > 0 {
                if self.classes == 0 {
                    (ctl.progress)(&format!("  sweep {sweeps}: {found} found won"));
                }
                let marks = (found <= len as u64 / MARK_BELOW).then_some(&marked);
                // A slot's men are worked out only once it is known open: most slots
                // a sweep meets are won or illegal.
                let look = |b: &Builder, i| {
                    b.codes[i] != ILLEGAL
                        && !won.get(i)
                        && b.look(&b.arrangement(i), i, attacker, won, marks, &resume)
                };
                found = if marks_made {
                    self.sweep(ctl, Some(&marked), look)?
                } else {
                    self.sweep(ctl, None, |b, i| {
                        defender_slots.contains(&i) && b.slot_in_class(i, class) && look(b, i)
                    })?
                };
                marks_made = marks.is_some();
                sweeps += 1;
            }
        }
        Ok(())
    }

    /// Runs `visit` on every slot, or only on those `marked` (clearing their marks),
    /// on the control's threads; how many it found (`visit` says so for a slot).
    fn sweep(
        &self,
        ctl: &Control,
        marked: Option<&Bits>,
        visit: impl Fn(&Builder, usize) -> bool + Sync,
    ) -> Result<u64, TableError> {
        let len = self.codes.len();
        let mut found = 0;
        for from in (0..len).step_by(ROUND) {
            ctl.check()?;
            let round = from..(from + ROUND).min(len);
            let finds = self.gather(ctl.threads, round, &|b, slots, out: &mut Vec<u64>| {
                let mut count = 0;
                let mut visit = |i| count += u64::from(visit(b, i));
                match marked {
                    None => slots.for_each(&mut visit),
                    // Rounds and chunks start on whole words (multiples of 64 slots).
                    Some(marks) => {
                        for w in slots.start / 64..slots.end.div_ceil(64) {
                            let mut word = marks.0[w].swap(0, Ordering::Relaxed);
                            while word != 0 {
                                visit(w * 64 + word.trailing_zeros() as usize);
                                word &= word - 1;
                            }
                        }
                    }
                }
                out.push(count);
                Ok(())
            })?;
            found += finds.iter().sum::<u64>();
        }
        Ok(found)
    }

    /// Whether the attacker wins at `a` (slot `i`) by what `won` holds now: if so, it
    /// is marked won, with the attacker's positions that move into it when the
    /// defender is to move there, and the defender's positions that move into those
    /// are marked for a look.
    fn look(
        &self,
        a: &Arrangement,
        i: usize,
        attacker: usize,
        won: &Bits,
        marked: Option<&Bits>,
        resume: &Resume,
    ) -> bool {
        if !self.attacker_wins(a, i, attacker, won, resume) {
            return false;
        }
        won.set(i);
        if a.stm == attacker {
            self.mark_parents(a, marked);
            return true;
        }
        let mut parents = Vec::new();
        self.unmoves(a, &mut parents);
        for (p, parent) in parents {
            if won.insert(p) {
                self.mark_parents(&parent, marked);
            }
        }
        true
    }

    /// Marks for a look the defender's positions that move into the attacker's
    /// position `a`, just won (illegal and won ones too: the marked sweep passes over
    /// them, reading the slots in order where this would read each at random), in a
    /// sweep that marks.
    fn mark_parents(&self, a: &Arrangement, marked: Option<&Bits>) {
        if let Some(marked) = marked {
            self.each_parent(a, &mut |p, _, _, _| marked.set(p));
        }
    }

    /// Whether, by `won`, the attacker has a move into a win at `a` (of those its
    /// position is looked at for: see [`Builder::grow`]), or the defender has moves
    /// and each one it is allowed leads into a win (or it has only checks).
    fn attacker_wins(
        &self,
        a: &Arrangement,
        i: usize,
        attacker: usize,
        won: &Bits,
        resume: &Resume,
    ) -> bool {
        let attacking = a.stm == attacker;
        let skip = if attacking { 0 } else { resume.skip(i) };
        // The move the last look stopped at was a way out the defender is allowed:
        // whether it checks is not asked again.
        let allowed = if attacking { None } else { resume.stopped(i) };
        // The attacker's quiet moves are not looked at: see `grow`.
        let quiet = !attacking || self.classes > 0;
        let (mut moved, mut left_out) = (false, false);
        // The won bits are read before the codes: a won position is legal, and only a
        // move into one not won needs to know whether it is a move at all; not the one
        // the last look stopped at, which was (most looks after the first stop there
        // again: one random read each, not two).
        let flow = self.moves_from(a, quiet, skip, true, &mut |n, step, forbidden| {
            let wins = match step {
                // Not given by `moves_asking`: it asks.
                Step::LeftOut => return ControlFlow::Continue(()),
                Step::Quiet(_) if attacking => return ControlFlow::Continue(()),
                Step::Quiet(child) if won.get(child) => true,
                Step::Quiet(child) if allowed != Some(n) && self.codes[child] == ILLEGAL => {
                    return ControlFlow::Continue(());
                }
                Step::Quiet(_) => false,
                Step::Leave { table, slot } => wins_in(table, slot, attacker),
                Step::Advance { child, ep } => self.advance_wins(child, &ep, attacker, won),
            };
            // Only the defender's moves are restricted, and one into a win is no way
            // out whether it checks or not: only the others are tested for check.
            if !attacking && !wins && allowed != Some(n) && forbidden() {
                left_out = true;
                return ControlFlow::Continue(());
            }
            moved = true;
            if wins == attacking {
                if !attacking {
                    resume.stop(i, n);
                }
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        match (attacking, flow.is_break()) {
            (true, found) => found,
            (false, true) => false,
            // Mate is among the table's wins already; a stalemate is a draw.
            (false, false) => moved || left_out,
        }
    }

    /// Whether the attacker wins after a pawn's advance to `child`: by the child's
    /// own value, or, where the other side may take en passant there, by the best
    /// choice of the side to move.
    fn advance_wins(&self, child: usize, ep: &EnPassant, attacker: usize, won: &Bits) -> bool {
        let own = won.get(child);
        let mut replies = ep
            .iter()
            .map(|(table, slot)| wins_in(table, slot, attacker));
        if self.indexer.side_to_move(child) == attacker {
            own || replies.any(|w| w)
        } else {
            own && replies.all(|w| w)
        }
    }
}

/// A sweep marks, for the next, the parents of what it wins only when the sweep before
/// found at most one slot in this many won; otherwise the next sweep looks at every open
/// position of the defender's again, from where its last look stopped. Each position a
/// sweep wins for the attacker marks every parent it has (a random write each), so
/// after a sweep that won many a marked sweep costs more than a full one. On Gliński's
/// K+R+B v K+R (1.08 G slots, two threads) a full sweep took 60 to 160 s (the more it
/// wins, the longer), and a marked one 5 to 15 s for each million positions the sweep
/// before had won, some of which it wins again.
const MARK_BELOW: u64 = 128;

/// Whether the attacker mates at `slot` of a smaller table.
fn wins_in(table: &Table, slot: usize, attacker: usize) -> bool {
    table.mate_winner(slot, table.codes()[slot]) == Some(attacker)
}
