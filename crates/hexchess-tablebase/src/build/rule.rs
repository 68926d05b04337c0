//! The move rule's pass: after the distances to mate, how each won or lost position
//! fares when the game is drawn after `L` plies without a capture or a pawn move.
//!
//! The pass plays the same retrograde game as the mate pass, with two changes. A
//! capture, a promotion and a pawn's advance end the count (they *zero* it): such a
//! move is worth what the position it leads to is worth with the count at zero, read
//! from the smaller table's rule codes (or, for an advance, from this table's, see
//! below). And the levels stop at `L`: a position won by mate that no line wins within
//! `L` plies of zeroing is a *cursed* win, and its loser's side a *blessed* loss.
//!
//! Only positions the mate pass won or lost take part (the rule never turns a draw into
//! a win), so one byte per slot holds the whole pass: the finished codes below `L`
//! (losses) and up to `2L` (wins), and two marks for the open ones.
//!
//! A pawn's advance leads to a position of this same table, with the pawns further on:
//! the positions are taken in the mate pass's classes (see `build.rs`), so the positions
//! an advance leads to are finished before the class that advances into them is begun.

use std::ops::ControlFlow;
use std::sync::atomic::AtomicU64;

use super::{Arrangement, Builder, Control, Step, find_byte};
use crate::table::{BLESSED_LOSS, CURSED_WIN, DRAW, ILLEGAL, RuleCodes, Table, TableError};

/// Won by mate; no distance within the rule found yet.
const OPEN_WIN: u8 = 252;
/// Lost by mate; no distance within the rule found yet, and no zeroing move saves it.
const OPEN_LOSS: u8 = 253;

/// A rule code as the side to move at a position reached by zeroing reads it (worst
/// first).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Zeroed {
    /// Lost within the rule (its count starts at zero there).
    Lost,
    /// Anything else: a draw under the rule.
    Held,
    Won,
}

/// What a capture into a position with rule code `code` (if kept) is worth to the side
/// that made it: the other way round.
fn taken(code: Option<u8>, plies: u8) -> Zeroed {
    match code.map_or(Zeroed::Held, |c| zeroed(c, plies)) {
        Zeroed::Lost => Zeroed::Won,
        Zeroed::Won => Zeroed::Lost,
        Zeroed::Held => Zeroed::Held,
    }
}

fn zeroed(code: u8, plies: u8) -> Zeroed {
    match code {
        c if c <= plies => Zeroed::Lost,
        c if c <= 2 * plies => Zeroed::Won,
        _ => Zeroed::Held,
    }
}

impl Builder<'_> {
    /// The rule's codes of this table, for a rule of `plies`, made in place from its
    /// finished value codes in `self.codes` (taken: a five-man table could not hold
    /// both at once within its memory aim). Only whether a position is won, lost or
    /// neither is read from them, and an illegal slot stays illegal.
    pub(super) fn rule_pass(
        &mut self,
        plies: u8,
        ctl: &mut Control,
    ) -> Result<RuleCodes, TableError> {
        (ctl.progress)("  the move rule");
        let base = self.base;
        for c in &mut self.codes {
            *c = rule_start(*c, base);
        }
        self.mark_classes(ctl)?;
        for class in 0..=self.classes {
            ctl.check()?;
            self.rule_exits(plies, class, ctl)?;
            self.rule_levels(plies, class, ctl)?;
        }
        let mut codes = std::mem::take(&mut self.codes);
        for c in &mut codes {
            match *c {
                OPEN_WIN => *c = CURSED_WIN,
                OPEN_LOSS => *c = BLESSED_LOSS,
                _ => {}
            }
        }
        Ok(RuleCodes { plies, codes })
    }

    /// The rule's first step in `class`: what the zeroing moves of each open position
    /// give it. A win that zeroes into a lost position wins in one ply; a loss with a
    /// zeroing move that is not lost is saved (blessed); a loss whose every move zeroes
    /// into a lost position is lost in one.
    fn rule_exits(&mut self, plies: u8, class: u16, ctl: &Control) -> Result<(), TableError> {
        self.in_rounds(
            ctl,
            |b, slots, found: &mut Vec<(u32, u8)>| {
                for i in slots {
                    let code = b.codes[i];
                    if code != OPEN_WIN && code != OPEN_LOSS || !b.slot_in_class(i, class) {
                        continue;
                    }
                    let a = b.arrangement(i);
                    if let Some(c) = b.exit_code(&a, code == OPEN_WIN, plies) {
                        found.push((i as u32, c));
                    }
                }
                Ok(())
            },
            |b, found| {
                for (i, code) in found {
                    b.codes[i as usize] = code;
                }
                Ok(())
            },
        )
    }

    /// The code the zeroing moves of an open position give it, if they decide it.
    ///
    /// Without pawns only captures zero, so the quiet moves are not worked out (each
    /// costs a slot and a random read): a loss asks only whether it has one at all.
    fn exit_code(&self, a: &Arrangement, winning: bool, plies: u8) -> Option<u8> {
        let advances = self.classes > 0;
        let (mut quiet, mut wins, mut saved) = (false, false, false);
        let _ = self.moves(a, advances, &mut |step| {
            match self.zeroing(&step, plies) {
                None => quiet = true,
                Some(Zeroed::Lost) => wins = true,
                Some(Zeroed::Held) => saved = true,
                Some(Zeroed::Won) => {}
            }
            if (winning && wins) || (!winning && saved) {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        match winning {
            true => wins.then_some(plies + 1),
            false if saved => Some(BLESSED_LOSS),
            false => (!quiet && (advances || !self.has_quiet_move(a))).then_some(1),
        }
    }

    /// Whether the side to move has a legal move that does not zero (tables without
    /// pawns: a move to an empty cell).
    fn has_quiet_move(&self, a: &Arrangement) -> bool {
        self.moves(a, true, &mut |step| match step {
            Step::Quiet(_) => ControlFlow::Break(()),
            _ => ControlFlow::Continue(()),
        })
        .is_break()
    }

    /// What a zeroing move leads to, seen by the side to move there (`None` for a move
    /// that does not zero). A position an advance leads to is in a lower class, whose
    /// open marks are final: cursed or blessed, a draw under the rule.
    fn zeroing(&self, step: &Step, plies: u8) -> Option<Zeroed> {
        match *step {
            Step::Quiet(_) | Step::LeftOut => None,
            Step::Advance { child, ep } => {
                // The other side's best: its own result, or an en-passant capture's.
                let own = zeroed(self.codes[child], plies);
                let takes = ep
                    .iter()
                    .map(|(t, slot)| taken(rule_code_in(t, slot), plies));
                Some(std::iter::once(own).chain(takes).max().expect("its own"))
            }
            Step::Leave { table, slot } => {
                Some(rule_code_in(table, slot).map_or(Zeroed::Held, |c| zeroed(c, plies)))
            }
        }
    }

    /// Levels `0..plies` in `class`: from a loss in `k`, every open win that moves into
    /// it wins in `k + 1`; from a win in `k`, every open loss whose every quiet move
    /// leads to a win of at most `k` (its zeroing moves all lose, or the first step
    /// would have saved it) is lost in `k + 1`. The same order argument as the mate
    /// pass's levels holds: any number of threads gives the same codes.
    fn rule_levels(&mut self, plies: u8, class: u16, ctl: &Control) -> Result<(), TableError> {
        for k in 0..plies {
            ctl.check()?;
            self.looked.clear();
            self.looked
                .resize_with(self.codes.len().div_ceil(64), || AtomicU64::new(0));
            let mut decided = 0usize;
            self.in_rounds(
                ctl,
                |b, slots, found: &mut Vec<(u32, u8)>| {
                    b.rule_parents(slots.clone(), k, k, class, plies, found);
                    if k > 0 {
                        b.rule_parents(slots, plies + k, k, class, plies, found);
                    }
                    Ok(())
                },
                |b, found| {
                    for (p, code) in found {
                        let open = if code > plies { OPEN_WIN } else { OPEN_LOSS };
                        if b.codes[p as usize] == open {
                            b.codes[p as usize] = code;
                            decided += 1;
                        }
                    }
                    Ok(())
                },
            )?;
            // A level that decides nothing leaves nothing for the next one (every code
            // of the next level comes from this one), but the starting codes: one ply.
            if decided == 0 && k >= 1 {
                break;
            }
        }
        Ok(())
    }

    /// The parents of the `class` slots of `slots` holding `code` (a loss or a win in
    /// `k` plies) that level `k` decides, with their codes.
    #[allow(clippy::too_many_arguments)]
    fn rule_parents(
        &self,
        slots: std::ops::Range<usize>,
        code: u8,
        k: u8,
        class: u16,
        plies: u8,
        found: &mut Vec<(u32, u8)>,
    ) {
        let won = code > plies;
        let mut parents = Vec::new();
        let mut i = slots.start;
        while let Some(at) = find_byte(&self.codes[i..slots.end], code) {
            i += at;
            if self.slot_in_class(i, class) {
                let a = self.arrangement(i);
                parents.clear();
                self.unmoves(&a, &mut parents);
                for (p, parent) in &parents {
                    let c = self.codes[*p];
                    if !won && c == OPEN_WIN {
                        found.push((*p as u32, plies + k + 1));
                    } else if won
                        && c == OPEN_LOSS
                        && self.first_look(*p)
                        && self.rule_lost(parent, k, plies)
                    {
                        found.push((*p as u32, k + 1));
                    }
                }
            }
            i += 1;
        }
    }

    /// Whether every quiet move of an open loss leads to a win of at most `k` plies (its
    /// zeroing moves are known to lose).
    fn rule_lost(&self, a: &Arrangement, k: u8, plies: u8) -> bool {
        self.moves(a, true, &mut |step| match step {
            Step::Quiet(child) => {
                let c = self.codes[child];
                if c > plies && c <= plies + k {
                    ControlFlow::Continue(())
                } else {
                    ControlFlow::Break(())
                }
            }
            _ => ControlFlow::Continue(()),
        })
        .is_continue()
    }
}

/// The rule's starting code of a position with mate code `code` (stalemates from
/// `base` up): mated now is lost at once, other wins and losses are open, the rest
/// (draws, stalemates) a draw under the rule too.
fn rule_start(code: u8, base: u8) -> u8 {
    match code {
        ILLEGAL => ILLEGAL,
        c if c >= base => DRAW,
        0 => 0,
        c if c % 2 == 1 => OPEN_WIN,
        _ => OPEN_LOSS,
    }
}

/// The rule code at `slot` of a smaller table (which has them when this one does).
fn rule_code_in(table: &Table, slot: usize) -> Option<u8> {
    table.rule_codes().map(|r| r.codes[slot])
}
