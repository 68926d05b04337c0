//! Turns of several moves (docs/rules.md §13.2): a side threatened by several
//! opponents moves as many pieces, within Peterson's limits.

use super::rounds::Captured;
use crate::bitboard::CellSet;
use crate::game::{Game, Standing, TurnStart};
use crate::moves::Move;
use crate::piece::{MAX_SIDES, Side};
use crate::position::Position;

impl<B: CellSet> Game<B> {
    /// What the limits compare a turn of several moves with, taken before its first.
    pub(crate) fn turn_start(&self, us: Side) -> TurnStart<B> {
        let opponents = self.opponents(us);
        let mut attacked = [B::EMPTY; MAX_SIDES];
        for &them in &opponents {
            attacked[them.index()] = self.attacked_pieces(us, them);
        }
        TurnStart {
            pos: self.pos.without_history(),
            opponents,
            attacked,
        }
    }

    /// The opponents of `us` still in the game.
    pub(crate) fn opponents(&self, us: Side) -> Vec<Side> {
        self.pos
            .rules()
            .enemies(us)
            .iter()
            .copied()
            .filter(|s| self.standing[s.index()] != Standing::Out)
            .collect()
    }

    /// The pieces of `them` that `us` attacks (immune pieces are never attacked).
    pub(crate) fn attacked_pieces(&self, us: Side, them: Side) -> B {
        self.pos
            .attacked_among(us, self.pos.side_cells(them) & !self.pos.immune())
    }

    /// The second moves the turn in progress may have: legal moves of another piece
    /// than the one moved that keep the turn within the limits.
    pub(crate) fn second_moves(&self) -> Vec<Move> {
        let Some(&first) = self.turn.played.first() else {
            return Vec::new();
        };
        let moved = first.to();
        self.pos
            .legal_moves()
            .into_iter()
            .filter(|m| m.from() != moved)
            .filter(|m| self.turn_within_limits(*m))
            .collect()
    }

    /// Whether the turn's moves so far followed by `second` keep Peterson's limits:
    /// one capture per opponent; one new threat or capture per opponent unless the
    /// others also hit another opponent; no checkmate made with both moves unless every
    /// opponent is left in check.
    ///
    /// The threats and mates are judged on the board and standings the turn leaves, so
    /// that the order of the moves does not matter: a side whose king either move took
    /// is out, its army obstacles that nobody threatens and no fork hits. The captures
    /// count against every side that was an opponent as the turn began.
    fn turn_within_limits(&self, second: Move) -> bool {
        let Some(start) = &self.start else {
            return true;
        };
        let us = self.pos.turn();
        let mut after = self.lean();
        let mut captures = self.turn.captures.clone();
        captures.extend(after.make_move_on_board(us, second));
        let one_capture_each = start
            .opponents
            .iter()
            .all(|them| captures.iter().filter(|c| c.victim == *them).count() <= 1);
        let opponents = after.opponents(us);
        one_capture_each
            && after.new_threats_within_limits(us, start, &captures, &opponents)
            && after.checkmates_within_limits(start, second, &opponents)
    }

    /// Rule 3: per opponent, the pieces captured and newly attacked are at most one,
    /// unless all but one of the attacks making the new threats are made by pieces that
    /// also attack another opponent. Peterson counts attacks, not pieces: a piece newly
    /// attacked by a forking piece and by one that forks nothing still counts once, and
    /// one attacked by two pieces that fork nothing counts twice.
    fn new_threats_within_limits(
        &self,
        us: Side,
        start: &TurnStart<B>,
        captures: &[Captured],
        opponents: &[Side],
    ) -> bool {
        opponents.iter().all(|&them| {
            let newly = self.attacked_pieces(us, them) & !start.attacked[them.index()];
            let captured = captures.iter().filter(|c| c.victim == them).count();
            if captured + newly.count() as usize <= 1 {
                return true;
            }
            let forking = self.forking_pieces(us, them, opponents);
            let lone: usize = newly
                .into_iter()
                .map(|c| (self.pos.attackers(c, us) & !forking).count() as usize)
                .sum();
            captured + lone <= 1
        })
    }

    /// The pieces of `us` that attack a piece of an opponent other than `them`: their
    /// attacks on `them` are forks, which rule 3 excuses.
    fn forking_pieces(&self, us: Side, them: Side, opponents: &[Side]) -> B {
        let mut forking = B::EMPTY;
        for &other in opponents.iter().filter(|o| **o != them) {
            for c in self.pos.side_cells(other) & !self.pos.immune() {
                forking |= self.pos.attackers(c, us);
            }
        }
        forking
    }

    /// Rule 4: a checkmate made with both moves stands only when every opponent is
    /// left in check (or mate); a mate one of the moves makes alone is always allowed.
    fn checkmates_within_limits(
        &self,
        start: &TurnStart<B>,
        second: Move,
        opponents: &[Side],
    ) -> bool {
        let mated: Vec<Side> = opponents
            .iter()
            .copied()
            .filter(|s| self.is_mated(*s))
            .collect();
        if mated.is_empty() || opponents.iter().all(|s| self.in_check(*s)) {
            return true;
        }
        let first = self.turn.played[0];
        mated.iter().all(|&them| {
            mated_after(&start.pos, &[first], them) || mated_after(&start.pos, &[second], them)
        })
    }
}

/// Whether `them` is checkmated after `moves` played from `pos` (false if one of them
/// is not legal there).
fn mated_after<B: CellSet>(pos: &Position<B>, moves: &[Move], them: Side) -> bool {
    let mut p = pos.without_history();
    for &m in moves {
        if !p.is_legal(m) {
            return false;
        }
        p.make_move(m);
    }
    if p.turn() != them {
        p.make_pass(them);
    }
    p.in_check() && !p.has_legal_move()
}
