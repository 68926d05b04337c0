//! Every side's attack map, kept from one turn to the next: a move changes the maps
//! of few sides, so only theirs are swept again.

use crate::bitboard::CellSet;
use crate::moves::Move;
use crate::piece::{MAX_SIDES, Side};
use crate::position::Position;

/// `[side]`: every cell the side attacks (empty or not, its own pieces included: what
/// it defends), with the sides whose map the board has changed since it was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct AttackMaps<B: CellSet> {
    maps: [B; MAX_SIDES],
    /// Bit per side: its map is out of date.
    stale: u8,
}

impl<B: CellSet> AttackMaps<B> {
    const ALL_STALE: u8 = u8::MAX;

    /// Maps not found yet.
    pub(crate) fn unknown() -> AttackMaps<B> {
        AttackMaps {
            maps: [B::EMPTY; MAX_SIDES],
            stale: Self::ALL_STALE,
        }
    }

    /// The maps, if none is out of date.
    pub(crate) fn fresh(&self) -> Option<&[B; MAX_SIDES]> {
        (self.stale == 0).then_some(&self.maps)
    }

    /// The board changed some other way than by one move (a removal, a swap): every
    /// map is swept again.
    pub(crate) fn board_changed(&mut self) {
        self.stale = Self::ALL_STALE;
    }

    /// `mover` is about to play `mv` on the board, taking a piece of `victim`, if any.
    ///
    /// A side's attacks depend on the board only through its slides, which stop at
    /// the first piece met: that piece's cell is in its map. So a move changes the map
    /// of the mover (its piece moved), of the victim (its piece is gone), and of every
    /// side that attacks the cell left or the cell entered; no other. Castling and en
    /// passant change other cells too: every map is swept again after them.
    pub(crate) fn before_move(&mut self, mover: Side, mv: Move, victim: Option<Side>) {
        if mv.is_edit() || mv.is_placement() || mv.castling().is_some() || mv.is_en_passant() {
            self.board_changed();
            return;
        }
        let mut stale = 1 << mover.index();
        if let Some(v) = victim {
            stale |= 1 << v.index();
        }
        for (i, map) in self.maps.iter().enumerate() {
            if map.contains(mv.from()) || map.contains(mv.to()) {
                stale |= 1 << i;
            }
        }
        self.stale |= stale;
    }

    /// The maps with every out-of-date one swept again on `pos`; `sides` gives each
    /// side of the game and whether it is still in (a side out attacks nothing).
    pub(crate) fn refreshed(
        &self,
        pos: &Position<B>,
        sides: impl Iterator<Item = (Side, bool)>,
    ) -> AttackMaps<B> {
        let mut maps = self.maps;
        for (side, in_game) in sides {
            let i = side.index();
            if !in_game {
                maps[i] = B::EMPTY;
            } else if self.stale & 1 << i != 0 {
                maps[i] = pos.attacked_among(side, !B::EMPTY);
            }
        }
        AttackMaps { maps, stale: 0 }
    }

    /// The maps as found.
    pub(crate) fn maps(&self) -> &[B; MAX_SIDES] {
        &self.maps
    }
}
