//! Every side's attack map, kept from one turn to the next, piece by piece: a move
//! changes the attacks of few pieces, so only theirs are found again.

use crate::Cell;
use crate::bitboard::CellSet;
use crate::moves::Move;
use crate::piece::{MAX_SIDES, Side};
use crate::position::Position;

/// What each piece attacks and, from that, every side's attack map (every cell the
/// side attacks, empty or not, its own pieces included: what it defends).
///
/// The pieces' attacks are found again lazily, at [`AttackMaps::refresh`], for the
/// cells a move may have changed. Every write to them is logged, so that a search
/// that plays a turn and takes it back ([`AttackMaps::mark`], [`AttackMaps::back_to`])
/// puts back only what the turn changed rather than copying the whole set per node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct AttackMaps<B: CellSet> {
    /// `[cell]`: every cell the piece there attacks (nothing for an empty cell), as
    /// the board stood at the last refresh; the cells of `dirty` may be out of date.
    /// Empty until the first refresh.
    pieces: Vec<B>,
    /// `[side]`: the union of its pieces' attacks (nothing for a side out).
    maps: [B; MAX_SIDES],
    /// Cells whose piece's attacks may have changed since the last refresh.
    dirty: B,
    /// Every cell is in doubt (nothing found yet, or the board changed some other way
    /// than by one plain move).
    all_dirty: bool,
    /// Bit per side: its map is out of date.
    stale: u8,
    /// Each write to `pieces`: the cell, and what it held before.
    written: Vec<(Cell, B)>,
}

/// What [`AttackMaps::back_to`] needs to bring the maps back to an earlier state.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AttacksMark<B: CellSet> {
    maps: [B; MAX_SIDES],
    dirty: B,
    all_dirty: bool,
    stale: u8,
    written: usize,
}

impl<B: CellSet> AttackMaps<B> {
    const ALL_STALE: u8 = u8::MAX;

    /// Maps not found yet.
    pub(crate) fn unknown() -> AttackMaps<B> {
        AttackMaps {
            pieces: Vec::new(),
            maps: [B::EMPTY; MAX_SIDES],
            dirty: B::EMPTY,
            all_dirty: true,
            stale: Self::ALL_STALE,
            written: Vec::new(),
        }
    }

    /// The maps, if none is out of date.
    pub(crate) fn fresh(&self) -> Option<&[B; MAX_SIDES]> {
        (self.stale == 0 && !self.all_dirty && self.dirty.is_empty()).then_some(&self.maps)
    }

    /// The board changed some other way than by one move (a removal, a swap): every
    /// piece's attacks are found again.
    pub(crate) fn board_changed(&mut self) {
        self.all_dirty = true;
        self.stale = Self::ALL_STALE;
    }

    /// `mover` is about to play `mv` on `pos`, taking a piece of `victim`, if any.
    ///
    /// A piece's attacks depend on the board only through its slides, which stop at
    /// the first piece met: that piece's cell is among its attacks. So a move changes
    /// the attacks of the piece moved, of the piece taken, and of the sliders that
    /// attack the cell left or the cell entered; no other. Castling and en passant
    /// change other cells too: every piece is swept again after them.
    pub(crate) fn before_move(
        &mut self,
        pos: &Position<B>,
        mover: Side,
        mv: Move,
        victim: Option<Side>,
    ) {
        if self.all_dirty {
            return;
        }
        if mv.is_edit() || mv.is_placement() || mv.castling().is_some() || mv.is_en_passant() {
            self.board_changed();
            return;
        }
        let (from, to) = (mv.from(), mv.to());
        self.dirty.insert(from);
        self.dirty.insert(to);
        for c in pos.sliding_pieces() & !self.dirty {
            let attacks = self.pieces[c.index()];
            if attacks.contains(from) || attacks.contains(to) {
                self.dirty.insert(c);
            }
        }
        self.stale |= 1 << mover.index();
        if let Some(v) = victim {
            self.stale |= 1 << v.index();
        }
    }

    /// Finds again the attacks of every piece in doubt on `pos`, and the map of every
    /// side they changed; `out` has a bit for each side out of the game (it attacks
    /// nothing).
    pub(crate) fn refresh(&mut self, pos: &Position<B>, out: u8) {
        let board = pos.rules().board();
        if self.pieces.len() != board.len() {
            self.pieces.resize(board.len(), B::EMPTY);
        }
        let doubtful = if self.all_dirty {
            self.stale = Self::ALL_STALE;
            board.all()
        } else {
            self.dirty
        };
        for c in doubtful {
            let now = pos.attacks_from(c);
            let was = std::mem::replace(&mut self.pieces[c.index()], now);
            if now != was {
                self.written.push((c, was));
                if let Some(p) = pos.piece_at(c) {
                    self.stale |= 1 << p.side.index();
                }
            }
        }
        for side in sides(pos) {
            let i = side.index();
            if self.stale & 1 << i == 0 {
                continue;
            }
            self.maps[i] = if out & 1 << i == 0 {
                pos.side_cells(side)
                    .into_iter()
                    .fold(B::EMPTY, |map, c| map | self.pieces[c.index()])
            } else {
                B::EMPTY
            };
        }
        self.dirty = B::EMPTY;
        self.all_dirty = false;
        self.stale = 0;
    }

    /// Every side's map swept from nothing on `pos`, whatever is kept (for a game
    /// asked between refreshes, and for the tests that hold the kept maps to it).
    pub(crate) fn swept(pos: &Position<B>, out: u8) -> [B; MAX_SIDES] {
        let mut maps = [B::EMPTY; MAX_SIDES];
        for side in sides(pos) {
            if out & 1 << side.index() == 0 {
                maps[side.index()] = pos.attacked_among(side, !B::EMPTY);
            }
        }
        maps
    }

    /// Where the maps stand now, for [`AttackMaps::back_to`].
    pub(crate) fn mark(&self) -> AttacksMark<B> {
        AttacksMark {
            maps: self.maps,
            dirty: self.dirty,
            all_dirty: self.all_dirty,
            stale: self.stale,
            written: self.written.len(),
        }
    }

    /// Takes the maps back to `mark`: every piece's attacks written since are put
    /// back, last first.
    pub(crate) fn back_to(&mut self, mark: AttacksMark<B>) {
        while self.written.len() > mark.written {
            let (c, was) = self.written.pop().expect("longer than the mark");
            self.pieces[c.index()] = was;
        }
        self.maps = mark.maps;
        self.dirty = mark.dirty;
        self.all_dirty = mark.all_dirty;
        self.stale = mark.stale;
    }

    /// These maps without the log of writes (for a copy of the game that will never
    /// be taken back to a mark of this one).
    pub(crate) fn without_log(&self) -> AttackMaps<B> {
        AttackMaps {
            pieces: self.pieces.clone(),
            maps: self.maps,
            dirty: self.dirty,
            all_dirty: self.all_dirty,
            stale: self.stale,
            written: Vec::new(),
        }
    }
}

/// Every side of the position's variant.
fn sides<B: CellSet>(pos: &Position<B>) -> impl Iterator<Item = Side> + use<B> {
    Side::ALL.into_iter().take(pos.rules().side_count())
}
