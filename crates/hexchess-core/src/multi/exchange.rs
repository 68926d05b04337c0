//! Fair exchange (docs/rules.md §13.3): when two sides exchange pieces within a round,
//! each side that took no part removes a piece worth at least the weakest exchanged
//! (or swaps a piece for a lost one whose powers it contains). The rounds themselves
//! are recorded in `rounds`; this settles what is owed.

use crate::bitboard::CellSet;
use crate::game::Game;
use crate::moves::Move;
use crate::piece::Piece;

impl<B: CellSet> Game<B> {
    /// The removals and swaps the side to move may make to settle what it owes: a
    /// non-royal piece worth at least the debt (its most valuable one when none is),
    /// whose removal leaves its royal piece unattacked; or a piece worth at least the
    /// debt more than a lost piece whose powers it contains, swapped for it on its cell.
    pub(crate) fn removals(&self) -> Vec<Move> {
        let us = self.pos.turn();
        let debt = self.owed[us.index()];
        let Some(fair) = self.multi.as_ref().and_then(|m| m.fair_exchange.as_ref()) else {
            return Vec::new();
        };
        if debt == 0 {
            return Vec::new();
        }
        let worth = |c| {
            self.piece_at(c)
                .map_or(0, |p: Piece| fair.values[p.kind.index()])
        };
        let own: Vec<_> = self
            .pos
            .side_cells(us)
            .into_iter()
            .filter(|c| worth(*c) > 0)
            .collect();
        let best = own.iter().map(|c| worth(*c)).max().unwrap_or(0);
        let threshold = debt.min(best);
        let mut out: Vec<Move> = own
            .iter()
            .filter(|c| worth(**c) >= threshold)
            .map(|c| Move::removal(*c))
            .collect();
        for &c in &own {
            let Some(p) = self.piece_at(c) else { continue };
            let weaker = self.weaker[p.kind.index()];
            for k in self.pos.rules().kinds() {
                let cheaper = fair.values[p.kind.index()].saturating_sub(fair.values[k.index()]);
                if weaker & 1 << k.index() != 0 && self.lost(us, k) > 0 && cheaper >= debt {
                    out.push(Move::swap(c, k));
                }
            }
        }
        out.retain(|m| self.keeps_royal_safe(*m));
        out
    }

    /// Whether an edit leaves the mover's royal piece unattacked.
    fn keeps_royal_safe(&self, edit: Move) -> bool {
        let mut pos = self.pos.without_history();
        pos.make_move(edit);
        !pos.in_check()
    }
}
