//! The record fair exchange reads (docs/rules.md §13.3): the captures of the last turns,
//! the exchanges found when a round closes, and which kinds' powers contain which
//! (for swaps). Plain data: the game keeps it, `exchange` settles the debts.

use super::spec::FairExchange;
use crate::bitboard::CellSet;
use crate::piece::{Kind, MAX_KINDS, MAX_SIDES, Piece, Side};
use crate::rules::Rules;
use crate::short::ShortList;

/// A capture: who took what from whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Captured {
    pub by: Side,
    pub victim: Side,
    pub kind: Kind,
}

/// The most moves a turn may have: one per opponent threatening the side, fewer than
/// the sides in the game (`Game::allowed_moves`).
pub const MAX_TURN_MOVES: usize = MAX_SIDES - 1;

/// A turn's captures, at most one per move.
pub(crate) type TurnCaptures = ShortList<Captured, MAX_TURN_MOVES>;

impl Captured {
    /// What a short list of captures fills its unused slots with.
    pub const BLANK: Captured = Captured {
        by: Side::White,
        victim: Side::White,
        kind: Kind::new(0),
    };
}

/// A turn's captures in the log, each with whether an exchange used it.
type LoggedTurn = ShortList<(Captured, bool), MAX_TURN_MOVES>;

/// The captures of the last turns, each marked once an exchange has used it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CaptureLog {
    /// One entry per turn played (lost turns included), the last round's at most: its
    /// captures, each with whether an exchange used it.
    turns: ShortList<LoggedTurn, MAX_SIDES>,
}

impl Default for CaptureLog {
    fn default() -> Self {
        CaptureLog {
            turns: ShortList::new(LoggedTurn::new((Captured::BLANK, false))),
        }
    }
}

impl CaptureLog {
    /// Forgets all but the last `n` turns (a round's length at most).
    pub fn keep_last(&mut self, n: usize) {
        let len = self.turns.len();
        if len > n {
            self.turns.drop_front(len - n);
        }
    }

    /// Records a turn when fair exchange is not played. Only the last round is read
    /// (a round is at most one turn per side): older turns are forgotten, so that the
    /// log does not grow with the game.
    pub fn record_plain(&mut self, _us: Side, captures: TurnCaptures) {
        // The oldest turn goes before the new one comes: the log holds a round.
        self.keep_last(MAX_SIDES - 1);
        let mut logged = LoggedTurn::new((Captured::BLANK, false));
        for c in &captures {
            logged.push((*c, false));
        }
        self.turns.push(logged);
    }

    /// Records `us`'s turn and closes the round that began `live - 1` turns ago: when
    /// two sides each captured from the other in it, every playing side that neither
    /// captured nor lost a piece in it owes the worth of the weakest piece exchanged.
    /// Returns the sides owing and what.
    pub fn record(
        &mut self,
        us: Side,
        captures: TurnCaptures,
        live: usize,
        fair: &FairExchange,
        playing: &[Side],
    ) -> Vec<(Side, u16)> {
        self.record_plain(us, captures);
        if live < 3 || self.turns.len() < live {
            return Vec::new();
        }
        let first = self.turns.len() - live;
        if !self.turns[first].iter().any(|(_, used)| !used) {
            return Vec::new();
        }
        let window: Vec<(usize, usize, Captured)> = (first..self.turns.len())
            .flat_map(|t| {
                self.turns[t]
                    .iter()
                    .enumerate()
                    .filter(|(_, (_, used))| !used)
                    .map(move |(i, (c, _))| (t, i, *c))
                    .collect::<Vec<_>>()
            })
            .collect();
        // The round begins with a capture: the first turn's.
        let Some(&(_, _, opening)) = window.iter().find(|(t, _, _)| *t == first) else {
            return Vec::new();
        };
        let (a, x) = (opening.by, opening.victim);
        let between = |c: &Captured| (c.by == a && c.victim == x) || (c.by == x && c.victim == a);
        if !window.iter().any(|(_, _, c)| c.by == x && c.victim == a) {
            return Vec::new();
        }
        let weakest = window
            .iter()
            .filter(|(_, _, c)| between(c))
            .map(|(_, _, c)| fair.values[c.kind.index()])
            .min()
            .unwrap_or(0);
        for (t, i, c) in &window {
            if between(c) {
                self.turns[*t][*i].1 = true;
            }
        }
        let involved = |s: Side| window.iter().any(|(_, _, c)| c.by == s || c.victim == s);
        playing
            .iter()
            .copied()
            .filter(|s| !involved(*s))
            .map(|s| (s, weakest))
            .collect()
    }
}

/// `[kind]`: the kinds whose powers that kind properly contains (bit per kind): on an
/// empty board, from every cell, each of their moves is one of its own. Pawns and
/// royal pieces take no part (a swap gives up neither).
pub(crate) fn weaker_kinds<B: CellSet>(rules: &Rules<B>) -> [u32; MAX_KINDS] {
    let mut out = [0u32; MAX_KINDS];
    let usable = |k: Kind| Some(k) != rules.pawn_kind() && !rules.is_royal(k);
    let reach =
        |k: Kind, c| rules.reach(Piece::new(Side::White, k), c, B::EMPTY, B::EMPTY, B::EMPTY);
    for strong in rules.kinds().filter(|k| usable(*k)) {
        for weak in rules.kinds().filter(|k| usable(*k) && *k != strong) {
            let contained = rules.board().cells().all(|c| {
                let (w, s) = (reach(weak, c), reach(strong, c));
                (w & !s).is_empty()
            });
            let proper = rules
                .board()
                .cells()
                .any(|c| (reach(strong, c) & !reach(weak, c)).any());
            if contained && proper {
                out[strong.index()] |= 1 << weak.index();
            }
        }
    }
    out
}
