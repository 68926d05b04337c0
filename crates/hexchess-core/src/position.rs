//! A game position: pieces, side to move, en-passant right, clocks, hash, and the undo
//! stack that makes it a game history as well.

use std::marker::PhantomData;
use std::sync::Arc;

use crate::bitboard::{Bitboard, CellSet};
use crate::cell::Cell;
use crate::moves::Move;
use crate::piece::{Kind, MAX_KINDS, MAX_SIDES, PIECE_CODES, Piece, Side};
use crate::rules::{CastlingCells, Rules, castle_bit};
use crate::setup::problem::{SetupError, castling_possible, structural_problems};

/// The en-passant right left by a long first move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EnPassant<B: CellSet = Bitboard> {
    /// The skipped cells, where a capturing pawn may land (one for a double step).
    pub targets: B,
    /// The pawn that moved, removed by the capture.
    pub victim: Cell,
}

impl<B: CellSet> EnPassant<B> {
    /// The skipped cell nearest the pawn's start (the only one after a double step).
    pub fn first_target(&self, rules: &Rules<B>) -> Cell {
        let b = rules.board();
        let v = b.hex(self.victim);
        self.targets
            .into_iter()
            .max_by_key(|c| b.hex(*c).distance(v))
            .expect("at least one skipped cell")
    }
}

/// The numbers a [`PieceSquareTable`] keeps per piece and cell: as many as the sides a
/// game may have.
pub const TABLE_LANES: usize = MAX_SIDES;

/// [`TABLE_LANES`] numbers per piece and cell (for a two-player evaluation: middlegame
/// and endgame placement with material, and the piece's share of the game phase; for a
/// game of more sides, each side's placement and material in its own lane). A search
/// attaches one to its position with [`Position::attach_table`]; every move then keeps
/// the sum over the pieces on the board up to date, so an evaluation reads it instead
/// of adding up every piece again.
///
/// Its cells are those of cell sets `B` (the positions it is attached to).
pub struct PieceSquareTable<B: CellSet = Bitboard> {
    entries: Vec<[i32; TABLE_LANES]>,
    cells: PhantomData<B>,
}

impl<B: CellSet> PieceSquareTable<B> {
    /// A table of zeros, to be filled with [`PieceSquareTable::set`].
    pub fn new() -> PieceSquareTable<B> {
        PieceSquareTable {
            entries: vec![[0; TABLE_LANES]; PIECE_CODES * B::CAPACITY],
            cells: PhantomData,
        }
    }

    /// Sets the numbers of `piece` on `cell` (a table is filled before it is attached).
    pub fn set(&mut self, piece: Piece, cell: Cell, value: [i32; TABLE_LANES]) {
        self.entries[piece.code() as usize * B::CAPACITY + cell.index()] = value;
    }

    /// The three numbers of `piece` on `cell`.
    pub fn get(&self, piece: Piece, cell: Cell) -> [i32; TABLE_LANES] {
        self.entry(piece.code(), cell)
    }

    #[inline]
    fn entry(&self, code: u8, cell: Cell) -> [i32; TABLE_LANES] {
        self.entries[code as usize * B::CAPACITY + cell.index()]
    }
}

impl<B: CellSet> std::fmt::Debug for PieceSquareTable<B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PieceSquareTable({} entries)", self.entries.len())
    }
}

impl<B: CellSet> Default for PieceSquareTable<B> {
    fn default() -> Self {
        PieceSquareTable::new()
    }
}

/// An attached table and its sum over the pieces on the board.
#[derive(Clone, Debug)]
struct TableSum<B: CellSet> {
    table: Arc<PieceSquareTable<B>>,
    sum: [i32; TABLE_LANES],
}

/// The state a FEN gives beside the pieces and the hands.
#[derive(Clone, Copy, Debug)]
pub(crate) struct State<B: CellSet> {
    pub turn: Side,
    pub ep: Option<EnPassant<B>>,
    pub castling: u8,
    pub halfmove: u16,
    pub fullmove: u32,
}

/// What [`Position::unmake_move`] needs to restore the position before a move.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Undo<B: CellSet> {
    pub(crate) mv: Move,
    /// The side that played it.
    mover: Side,
    /// Piece code of the captured piece (0 for none; an edit's piece taken off).
    pub(crate) captured: u8,
    ep: Option<EnPassant<B>>,
    ep_hashed: bool,
    castling: u8,
    halfmove: u16,
    hash: u64,
}

/// Where a game stands between its setup phase and its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Pieces are still in hand: the side to move places one (`N@c3`).
    Setup,
    /// Every piece is on the board: pieces move.
    Play,
    /// A hidden deployment ended with both royal pieces attacked: neither side could
    /// have avoided it unseen, so the game is drawn (docs/rules.md, Screen HexaChess).
    KingsExposed,
}

/// A position of some variant, with the moves that led to it.
pub struct Position<B: CellSet = Bitboard> {
    pub(crate) rules: Arc<Rules<B>>,
    pub(crate) mailbox: B::Mailbox,
    /// Every side's pieces together (kept, not added up: games of more sides have four
    /// sets to join).
    pub(crate) occupied_bb: B,
    pub(crate) side_bb: [B; MAX_SIDES],
    pub(crate) kind_bb: [B; MAX_KINDS],
    pub(crate) counts: [[u8; MAX_KINDS]; MAX_SIDES],
    pub(crate) royal: [Cell; MAX_SIDES],
    pub(crate) turn: Side,
    pub(crate) ep: Option<EnPassant<B>>,
    /// Whether the en-passant key is in the hash: only when a capture is possible, so
    /// positions that differ only by a useless right hash the same.
    pub(crate) ep_hashed: bool,
    /// Castling rights: bit `4 side + i` for castling `i` of `side`.
    pub(crate) castling: u8,
    pub(crate) halfmove: u16,
    pub(crate) fullmove: u32,
    pub(crate) hash: u64,
    /// `[side][kind]`: pieces in hand, waiting to be placed (all zero after the setup).
    pub(crate) hand: [[u8; MAX_KINDS]; MAX_SIDES],
    pub(crate) phase: Phase,
    /// Sides whose pieces attack nothing (bit per side): a side out of a game of more
    /// than two, whose army stays as obstacles. Set by the game above the position.
    pub(crate) inert: u8,
    /// Pieces nobody may capture (a frozen army, an army under a checkmate freeze).
    pub(crate) immune: B,
    pub(crate) undo: Vec<Undo<B>>,
    table: Option<TableSum<B>>,
}

impl<B: CellSet> Position<B> {
    /// The variant's starting position (with the hands full, if it has a setup phase).
    pub fn start(rules: Arc<Rules<B>>) -> Position<B> {
        let setup = rules.setup().to_vec();
        let hand = rules
            .phase
            .as_ref()
            .map_or([[0; MAX_KINDS]; MAX_SIDES], |p| p.hand);
        let state = State {
            turn: Side::White,
            ep: None,
            castling: u8::MAX,
            halfmove: 0,
            fullmove: 1,
        };
        Position::from_parts(rules, &setup, hand, state)
            .expect("the setup was checked when the rules were compiled")
    }

    /// Builds a position from pieces, hands and state; fails when a side does not have
    /// exactly one royal piece on the board or in hand (the rules would have nothing to
    /// protect or nothing to mate), when the side to move of a setup phase has nothing
    /// to place, and for the other [`structural_problems`]. Castling
    /// rights the pieces do not allow are dropped; the caller checks the rest (see
    /// [`crate::Setup::validate`]).
    pub(crate) fn from_parts(
        rules: Arc<Rules<B>>,
        pieces: &[(Cell, Piece)],
        hand: [[u8; MAX_KINDS]; MAX_SIDES],
        state: State<B>,
    ) -> Result<Position<B>, SetupError> {
        let problems = structural_problems(&rules, pieces, &hand, state.turn);
        if !problems.is_empty() {
            return Err(SetupError::new(&rules, problems));
        }
        Ok(Position::assemble(rules, pieces, hand, state))
    }

    /// Builds a position from parts that have no
    /// [`structural_problems`](structural_problems): every side and turn
    /// in the variant, hands only with a setup phase and within their counts, one royal
    /// piece a side (or none for a side out of a game of more), and no cell twice (a
    /// second piece on a cell is left out).
    pub(crate) fn assemble(
        rules: Arc<Rules<B>>,
        pieces: &[(Cell, Piece)],
        hand: [[u8; MAX_KINDS]; MAX_SIDES],
        state: State<B>,
    ) -> Position<B> {
        let State {
            turn,
            ep,
            castling,
            halfmove,
            fullmove,
        } = state;
        let held = hand.iter().flatten().any(|n| *n > 0);
        let mut pos = Position {
            rules,
            mailbox: B::EMPTY_MAILBOX,
            occupied_bb: B::EMPTY,
            side_bb: [B::EMPTY; MAX_SIDES],
            kind_bb: [B::EMPTY; MAX_KINDS],
            counts: [[0; MAX_KINDS]; MAX_SIDES],
            royal: [Cell::from_index(0); MAX_SIDES],
            turn,
            ep: None,
            ep_hashed: false,
            castling: 0,
            halfmove,
            fullmove,
            hash: 0,
            hand,
            phase: if held { Phase::Setup } else { Phase::Play },
            inert: 0,
            immune: B::EMPTY,
            undo: Vec::new(),
            table: None,
        };
        for &(c, p) in pieces {
            if pos.mailbox.as_ref()[c.index()] != 0 {
                debug_assert!(false, "two pieces on one cell");
                continue;
            }
            pos.put(p, c);
        }
        let sides: Vec<Side> = pos.rules.sides().collect();
        for side in sides {
            for k in pos.rules.kinds() {
                let n = hand[side.index()][k.index()];
                pos.hash ^= pos.rules.zobrist.hand(side, k, n);
            }
            if let Some(c) = pos.royals(side).lowest() {
                pos.royal[side.index()] = c;
            }
        }
        pos.hash ^= pos.rules.zobrist.turn(turn);
        if let Some(e) = ep {
            pos.ep = Some(e);
            pos.ep_hashed = pos.ep_capture_legal(e);
            if pos.ep_hashed {
                pos.hash ^= pos.rules.zobrist.ep[e.victim.index()];
            }
        }
        pos.castling = castling & pos.possible_castling_rights();
        pos.hash ^= pos.castling_key();
        pos
    }

    /// The castling rights the pieces allow: the royal piece and the rook on their
    /// starting cells.
    fn possible_castling_rights(&self) -> u8 {
        let mut rights = 0;
        for side in Side::BOTH {
            for i in 0..self.rules.castling[side.index()].len() {
                if castling_possible(&self.rules, side, i, |c| self.piece_at(c)) {
                    rights |= crate::rules::castle_bit(side, i);
                }
            }
        }
        rights
    }

    fn castling_key(&self) -> u64 {
        let z = &self.rules.zobrist;
        (0..8)
            .filter(|b| self.castling >> b & 1 != 0)
            .fold(0, |h, b| h ^ z.castling[b])
    }

    /// Castling rights: bit `4 side + i` for castling `i` of `side`.
    pub fn castling_rights(&self) -> u8 {
        self.castling
    }

    /// The cells of a side's royal pieces.
    pub fn royals(&self, side: Side) -> B {
        let mut b = B::EMPTY;
        let mut kinds = self.rules.royal_kinds;
        while kinds != 0 {
            b |= self.kind_bb[kinds.trailing_zeros() as usize];
            kinds &= kinds - 1;
        }
        b & self.side_bb[side.index()]
    }

    /// Whether the side to move has a legal en-passant capture: only then does the right
    /// count for repetition (docs/rules.md §6.1), so only then is it in the hash.
    fn ep_capture_legal(&self, e: EnPassant<B>) -> bool {
        let Some(pawn) = &self.rules.pawn else {
            return false;
        };
        if !pawn.en_passant {
            return false;
        }
        let us = self.turn;
        let pawns = self.kind_bb[pawn.kind.index()] & self.side_bb[us.index()];
        let table = &self.rules.leap_attackers[us.index()][pawn.kind.index()];
        if table.is_empty() {
            return false;
        }
        e.targets.any_cell(|t| {
            (table[t.index()] & pawns).any_cell(|from| self.en_passant_is_legal(from, t, e.victim))
        })
    }

    #[inline]
    pub(crate) fn put(&mut self, p: Piece, c: Cell) {
        self.mailbox.as_mut()[c.index()] = p.code();
        self.occupied_bb.insert(c);
        self.side_bb[p.side.index()].insert(c);
        self.kind_bb[p.kind.index()].insert(c);
        self.counts[p.side.index()][p.kind.index()] += 1;
        self.hash ^= self.rules.piece_key(p, c);
        if let Some(t) = &mut self.table {
            let e = t.table.entry(p.code(), c);
            for (s, v) in t.sum.iter_mut().zip(e) {
                *s += v;
            }
        }
    }

    #[inline]
    pub(crate) fn take(&mut self, p: Piece, c: Cell) {
        self.mailbox.as_mut()[c.index()] = 0;
        self.occupied_bb.remove(c);
        self.side_bb[p.side.index()].remove(c);
        self.kind_bb[p.kind.index()].remove(c);
        self.counts[p.side.index()][p.kind.index()] -= 1;
        self.hash ^= self.rules.piece_key(p, c);
        if let Some(t) = &mut self.table {
            let e = t.table.entry(p.code(), c);
            for (s, v) in t.sum.iter_mut().zip(e) {
                *s -= v;
            }
        }
    }

    /// Attaches `table`: from now on every move keeps its sum over the pieces.
    pub fn attach_table(&mut self, table: Arc<PieceSquareTable<B>>) {
        let sum = self.add_up(&table);
        self.table = Some(TableSum { table, sum });
    }

    /// The sum of `table` over the pieces on the board, added up now.
    fn add_up(&self, table: &PieceSquareTable<B>) -> [i32; TABLE_LANES] {
        let mut sum = [0; TABLE_LANES];
        for c in self.occupied() {
            for (s, v) in sum
                .iter_mut()
                .zip(table.entry(self.mailbox.as_ref()[c.index()], c))
            {
                *s += v;
            }
        }
        sum
    }

    /// Stops keeping a table's sum.
    pub fn detach_table(&mut self) {
        self.table = None;
    }

    /// The sum of `table` over the pieces: the kept one when that very table is
    /// attached, else added up now.
    #[inline]
    pub fn table_total(&self, table: &Arc<PieceSquareTable<B>>) -> [i32; TABLE_LANES] {
        self.table_sum(table).unwrap_or_else(|| self.add_up(table))
    }

    /// The sum of `table` over the pieces, when that very table is attached.
    #[inline]
    pub fn table_sum(&self, table: &Arc<PieceSquareTable<B>>) -> Option<[i32; TABLE_LANES]> {
        self.table
            .as_ref()
            .filter(|t| Arc::ptr_eq(&t.table, table))
            .map(|t| t.sum)
    }

    /// The rules of the variant this position is played under.
    pub fn rules(&self) -> &Rules<B> {
        &self.rules
    }

    /// The shared rules, for building other positions of the same variant.
    pub fn rules_arc(&self) -> &Arc<Rules<B>> {
        &self.rules
    }

    /// The piece on a cell.
    #[inline]
    pub fn piece_at(&self, c: Cell) -> Option<Piece> {
        Piece::from_code(self.mailbox.as_ref()[c.index()])
    }

    /// Every piece with its cell, in cell order.
    pub fn pieces(&self) -> impl Iterator<Item = (Cell, Piece)> + '_ {
        self.occupied()
            .into_iter()
            .map(|c| (c, self.piece_at(c).expect("occupied")))
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Side {
        self.turn
    }

    /// The cell of a side's royal piece.
    #[inline]
    pub fn royal_cell(&self, side: Side) -> Cell {
        self.royal[side.index()]
    }

    /// The en-passant right the last move left, if any (the right only: whether a
    /// capture is possible is [`Position::can_capture_en_passant`]).
    pub fn en_passant(&self) -> Option<EnPassant<B>> {
        self.ep
    }

    /// Whether the side to move has a legal en-passant capture (not only the right:
    /// a pawn placed to take it, and its king safe after).
    pub fn can_capture_en_passant(&self) -> bool {
        self.ep_hashed
    }

    /// Plies since the last capture or pawn move.
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    /// The move number, starting at 1 and growing after Black's move.
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// The Zobrist hash of pieces, side to move and (usable) en-passant right.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Cells of a side's pieces.
    #[inline]
    pub fn side_cells(&self, side: Side) -> B {
        self.side_bb[side.index()]
    }

    /// Cells of a side's pieces of one kind.
    #[inline]
    pub fn kind_cells(&self, side: Side, k: Kind) -> B {
        self.kind_bb[k.index()] & self.side_bb[side.index()]
    }

    /// Every occupied cell.
    #[inline]
    pub fn occupied(&self) -> B {
        self.occupied_bb
    }

    /// How many pieces of a kind a side has.
    #[inline]
    pub fn count(&self, side: Side, k: Kind) -> u8 {
        self.counts[side.index()][k.index()]
    }

    /// The number of moves played since this position was set up.
    pub fn ply_count(&self) -> usize {
        self.undo.len()
    }

    /// The moves played since this position was set up, oldest first.
    pub fn moves_played(&self) -> impl DoubleEndedIterator<Item = Move> + '_ {
        self.undo.iter().map(|u| u.mv)
    }

    /// The last move played, if any.
    pub fn last_move(&self) -> Option<Move> {
        self.undo.last().map(|u| u.mv)
    }

    /// Hashes of the earlier positions of this game, most recent first, back to the last
    /// capture or pawn move (no earlier position can repeat).
    pub fn reversible_history(&self) -> impl Iterator<Item = u64> + '_ {
        self.undo
            .iter()
            .rev()
            .take(self.halfmove as usize)
            .map(|u| u.hash)
    }

    /// Whether a move captures (en passant included).
    #[inline]
    pub fn is_capture(&self, mv: Move) -> bool {
        mv.is_en_passant()
            || (mv.castling().is_none() && self.mailbox.as_ref()[mv.to().index()] != 0)
    }

    /// Plays a legal move. Passing a move that is not legal here corrupts the position;
    /// moves from outside (text, the UI) go through [`Position::parse_move`] or the
    /// legal move list first.
    pub fn make_move(&mut self, mv: Move) {
        #[cfg(test)]
        crate::work::add(1);
        if mv.is_off_board() {
            if mv.is_edit() {
                self.make_edit(mv);
            } else {
                self.make_placement(mv);
            }
            return;
        }
        // `self.rules` is read field by field below rather than held: holding it (or a
        // clone of the `Arc`, an atomic count up and down per move) would conflict with
        // the `&mut self` calls that move the pieces.
        let us = self.turn;
        let (from, to) = (mv.from(), mv.to());
        let moving = self.piece_at(from).expect("a legal move starts on a piece");
        let captured_cell = if mv.is_en_passant() {
            self.ep.expect("en passant needs the right").victim
        } else {
            to
        };
        let captured_code = if mv.castling().is_some() {
            0
        } else {
            self.mailbox.as_ref()[captured_cell.index()]
        };
        self.remember(mv, us, captured_code);

        if let Some(e) = self.ep.take()
            && self.ep_hashed
        {
            self.hash ^= self.rules.zobrist.ep[e.victim.index()];
        }
        self.ep_hashed = false;

        if let Some(i) = mv.castling() {
            // Both pieces leave before either lands: their cells may overlap.
            let c = &self.rules.castling[us.index()][i];
            let (rook_from, king_to, rook_to) = (c.rook, c.king_to, c.rook_to);
            let rook = self.piece_at(rook_from).expect("the castling rook");
            self.take(moving, from);
            self.take(rook, rook_from);
            self.put(moving, king_to);
            self.put(rook, rook_to);
        } else {
            if let Some(captured) = Piece::from_code(captured_code) {
                self.take(captured, captured_cell);
            }
            self.take(moving, from);
            let placed = match mv.promotion() {
                Some(k) => Piece::new(us, k),
                None => moving,
            };
            self.put(placed, to);
        }
        if self.rules.is_royal(moving.kind) {
            self.royal[us.index()] = to;
        }
        if self.castling != 0 {
            let lost = self.castling
                & (self.rules.castle_spoilers[from.index()]
                    | self.rules.castle_spoilers[captured_cell.index()]);
            if lost != 0 {
                self.hash ^= self.castling_key();
                self.castling &= !lost;
                self.hash ^= self.castling_key();
            }
        }

        let is_pawn = self.rules.pawn_kind() == Some(moving.kind);
        self.halfmove = if is_pawn || captured_code != 0 {
            0
        } else {
            self.halfmove.saturating_add(1)
        };
        self.pass_turn(us);

        if mv.is_double_step() && self.rules.pawn.as_ref().is_some_and(|p| p.en_passant) {
            let targets = self.skipped_cells(us, from, to);
            if targets.any() {
                let e = EnPassant {
                    targets,
                    victim: to,
                };
                self.ep = Some(e);
                self.ep_hashed = self.ep_capture_legal(e);
                if self.ep_hashed {
                    self.hash ^= self.rules.zobrist.ep[e.victim.index()];
                }
            }
        }
    }

    /// The cells a long first move of `side` from `from` to `to` passed over.
    fn skipped_cells(&self, side: Side, from: Cell, to: Cell) -> B {
        let Some(pawn) = &self.rules.pawn else {
            return B::EMPTY;
        };
        let b = self.rules.board();
        for v in &pawn.advance_vectors[side.index()] {
            let mut cells = B::EMPTY;
            let mut at = from;
            while let Some(next) = b.offset(at, *v) {
                if next == to {
                    return cells;
                }
                cells.insert(next);
                at = next;
            }
        }
        B::EMPTY
    }

    /// Plays a legal placement: the piece leaves the hand for its cell, and the turn
    /// goes where the variant's order says; the last placement ends the setup phase.
    fn make_placement(&mut self, mv: Move) {
        let us = self.turn;
        let kind = mv.placed_kind().expect("a placement");
        let cell = mv.to();
        self.remember(mv, us, 0);
        let held = self.hand[us.index()][kind.index()];
        self.hash ^=
            self.rules.zobrist.hand(us, kind, held) ^ self.rules.zobrist.hand(us, kind, held - 1);
        self.hand[us.index()][kind.index()] = held - 1;
        self.put(Piece::new(us, kind), cell);
        if self.rules.is_royal(kind) {
            self.royal[us.index()] = cell;
        }
        self.halfmove = 0;
        let next = match self.next_placer(us) {
            Some(side) => side,
            None => self.reveal(),
        };
        self.turn_to(us, next);
    }

    /// The turn passes from `us` to the next side in turn order.
    #[inline]
    fn pass_turn(&mut self, us: Side) {
        if self.rules.two_sided() {
            // The two-player turn, as it always was: the other side, one key.
            if us == Side::Black {
                self.fullmove += 1;
            }
            self.hash ^= self.rules.zobrist.turn(Side::Black);
            self.turn = !us;
            return;
        }
        let next = self.rules.next_side(us);
        self.turn_to(us, next);
    }

    /// The turn goes from `us` to `next`; a new round (the move number) begins when it
    /// goes back to an earlier seat (from Black to White).
    #[inline]
    fn turn_to(&mut self, us: Side, next: Side) {
        if next.index() < us.index() {
            self.fullmove += 1;
        }
        let z = &self.rules.zobrist;
        self.hash ^= z.turn(us) ^ z.turn(next);
        self.turn = next;
    }

    /// How many pieces `side` holds in hand.
    pub(crate) fn held(&self, side: Side) -> u32 {
        self.hand[side.index()].iter().map(|n| u32::from(*n)).sum()
    }

    /// Who places after `us`, or `None` when both hands are empty.
    fn next_placer(&self, us: Side) -> Option<Side> {
        let order = self.rules.placement_order()?;
        let (first, second) = match order {
            crate::variant::PlacementOrder::Alternate => (!us, us),
            crate::variant::PlacementOrder::AllAtOnce => (us, !us),
        };
        [first, second].into_iter().find(|s| self.held(*s) > 0)
    }

    /// The end of the setup phase: White moves first, unless a hidden deployment left
    /// Black's royal piece attacked (Black then moves first, to answer the check) or
    /// both attacked (the game is drawn: [`Phase::KingsExposed`]).
    fn reveal(&mut self) -> Side {
        self.phase = Phase::Play;
        if !self.rules.setup_is_hidden() {
            return Side::White;
        }
        let white_attacked = self.is_attacked(self.royal_cell(Side::White), Side::Black);
        let black_attacked = self.is_attacked(self.royal_cell(Side::Black), Side::White);
        match (white_attacked, black_attacked) {
            (true, true) => {
                self.phase = Phase::KingsExposed;
                Side::White
            }
            (false, true) => Side::Black,
            _ => Side::White,
        }
    }

    /// Keeps what taking `mv` back (played by `mover`, capturing the piece coded
    /// `captured`) will need.
    #[inline]
    pub(crate) fn remember(&mut self, mv: Move, mover: Side, captured: u8) {
        self.undo.push(Undo {
            mv,
            mover,
            captured,
            ep: self.ep,
            ep_hashed: self.ep_hashed,
            castling: self.castling,
            halfmove: self.halfmove,
            hash: self.hash,
        });
    }

    /// Puts back the state `u` kept: the mover to move, rights, clock and hash (the
    /// pieces are the caller's).
    #[inline]
    pub(crate) fn restore(&mut self, u: &Undo<B>) {
        self.turn = u.mover;
        self.ep = u.ep;
        self.ep_hashed = u.ep_hashed;
        self.castling = u.castling;
        self.halfmove = u.halfmove;
        self.hash = u.hash;
    }

    /// Takes back a placement: the piece returns to its side's hand.
    fn unmake_placement(&mut self, u: Undo<B>) {
        let cell = u.mv.to();
        let piece = self.piece_at(cell).expect("the placed piece");
        let us = piece.side;
        self.take(piece, cell);
        self.hand[us.index()][piece.kind.index()] += 1;
        self.phase = Phase::Setup;
        if self.turn.index() < us.index() {
            self.fullmove -= 1;
        }
        self.restore(&u);
    }

    /// The stage of the game: setting up, playing, or drawn at the reveal.
    #[inline]
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// How many pieces of a kind `side` holds in hand.
    #[inline]
    pub fn in_hand(&self, side: Side, k: Kind) -> u8 {
        self.hand[side.index()][k.index()]
    }

    /// Whether the royal piece of `side` is on the board (not still in hand).
    pub fn royal_on_board(&self, side: Side) -> bool {
        // Read from the counts, not the cells: asked many times at every turn of a
        // game of more sides (check, standings, the evaluation).
        let counts = &self.counts[side.index()];
        let mut kinds = self.rules.royal_kinds;
        while kinds != 0 {
            if counts[kinds.trailing_zeros() as usize] > 0 {
                return true;
            }
            kinds &= kinds - 1;
        }
        false
    }

    /// Takes back the last move. Returns it, or `None` at the start of the history.
    pub fn unmake_move(&mut self) -> Option<Move> {
        let u = self.undo.pop()?;
        let mv = u.mv;
        if mv.is_off_board() {
            if mv.is_edit() {
                self.unmake_edit(u);
            } else {
                self.unmake_placement(u);
            }
            return Some(mv);
        }
        let us = u.mover;
        let (from, to) = (mv.from(), mv.to());
        if let Some(i) = mv.castling() {
            let c = &self.rules.castling[us.index()][i];
            let (king_from, rook_from, king_to, rook_to) = (c.king, c.rook, c.king_to, c.rook_to);
            let king = self.piece_at(king_to).expect("the castled king");
            let rook = self.piece_at(rook_to).expect("the castled rook");
            self.take(king, king_to);
            self.take(rook, rook_to);
            self.put(king, king_from);
            self.put(rook, rook_from);
            self.royal[us.index()] = king_from;
        } else {
            let placed = self.piece_at(to).expect("the moved piece is on its target");
            let moving = match mv.promotion() {
                Some(_) => Piece::new(us, self.rules.pawn_kind().expect("only pawns promote")),
                None => placed,
            };
            self.take(placed, to);
            self.put(moving, from);
            if let Some(captured) = Piece::from_code(u.captured) {
                let cell = if mv.is_en_passant() {
                    u.ep.expect("en passant had a right").victim
                } else {
                    to
                };
                self.put(captured, cell);
            }
            if self.rules.is_royal(moving.kind) {
                self.royal[us.index()] = from;
            }
        }
        if self.turn.index() < us.index() {
            self.fullmove -= 1;
        }
        self.restore(&u);
        Some(mv)
    }

    /// Passes the turn without moving (for the engine's null-move search). Must not be
    /// used in check; undo with [`Position::unmake_null_move`].
    pub fn make_null_move(&mut self) {
        self.remember(
            Move::new(Cell::from_index(0), Cell::from_index(0)),
            self.turn,
            0,
        );
        if let Some(e) = self.ep.take()
            && self.ep_hashed
        {
            self.hash ^= self.rules.zobrist.ep[e.victim.index()];
        }
        self.ep_hashed = false;
        self.halfmove = self.halfmove.saturating_add(1);
        let (us, next) = (self.turn, self.rules.next_side(self.turn));
        let z = &self.rules.zobrist;
        self.hash ^= z.turn(us) ^ z.turn(next);
        self.turn = next;
    }

    /// Takes back the [`Position::make_null_move`] made last.
    pub fn unmake_null_move(&mut self) {
        let u = self.undo.pop().expect("a null move to undo");
        self.restore(&u);
    }

    /// Recomputes the hash from scratch (for tests of the incremental hash).
    pub fn compute_hash(&self) -> u64 {
        let z = &self.rules.zobrist;
        let mut h = 0;
        for (c, p) in self.pieces() {
            h ^= self.rules.piece_key(p, c);
        }
        for side in Side::BOTH {
            for k in self.rules.kinds() {
                h ^= z.hand(side, k, self.hand[side.index()][k.index()]);
            }
        }
        h ^= z.turn(self.turn);
        if let Some(e) = self.ep
            && self.ep_capture_legal(e)
        {
            h ^= z.ep[e.victim.index()];
        }
        h ^ self.castling_key()
    }

    /// The colour-mirrored twin: every piece changes colour and is reflected top to
    /// bottom, and the other side moves. Evaluation and search must treat both alike.
    /// `None` when the variant is not symmetric under the reflection (its board, or
    /// Black's rules: see [`Rules::is_colour_symmetric`]).
    pub fn colour_flipped(&self) -> Option<Position<B>> {
        if !self.rules.is_colour_symmetric() {
            return None;
        }
        let b = self.rules.board();
        let mut pieces = Vec::new();
        for (c, p) in self.pieces() {
            pieces.push((b.mirror(c)?, Piece::new(!p.side, p.kind)));
        }
        let ep = match self.ep {
            Some(e) => {
                let mut targets = B::EMPTY;
                for t in e.targets {
                    targets.insert(b.mirror(t)?);
                }
                Some(EnPassant {
                    targets,
                    victim: b.mirror(e.victim)?,
                })
            }
            None => None,
        };
        let castling = flip_castling_rights(&self.rules, self.castling)?;
        let state = State {
            turn: !self.turn,
            ep,
            castling,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
        };
        let mut hand = self.hand;
        hand.swap(0, 1);
        Position::from_parts(Arc::clone(&self.rules), &pieces, hand, state).ok()
    }

    /// A copy of the position without the moves that led to it, at a cost that does not
    /// grow with the game: what trying a move needs (its notation, whether it mates),
    /// where a whole copy would copy the game's history every time. The copy cannot
    /// take moves back nor see repetitions of positions before it.
    pub fn without_history(&self) -> Position<B> {
        Position {
            rules: Arc::clone(&self.rules),
            mailbox: self.mailbox,
            occupied_bb: self.occupied_bb,
            side_bb: self.side_bb,
            kind_bb: self.kind_bb,
            counts: self.counts,
            royal: self.royal,
            turn: self.turn,
            ep: self.ep,
            ep_hashed: self.ep_hashed,
            castling: self.castling,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            hash: self.hash,
            hand: self.hand,
            phase: self.phase,
            inert: self.inert,
            immune: self.immune,
            undo: Vec::new(),
            table: self.table.clone(),
        }
    }

    /// A copy keeping only the history a repetition can look back on: the moves since
    /// the last capture or pawn move. What a search from the position needs (its draws
    /// by repetition are the game's), at a cost bounded by the move rule rather than
    /// growing with the game. The copy cannot take back the moves before those.
    pub fn with_reversible_history(&self) -> Position<B> {
        let keep = usize::from(self.halfmove).min(self.undo.len());
        #[cfg(test)]
        crate::work::add(keep);
        Position {
            undo: self.undo[self.undo.len() - keep..].to_vec(),
            ..self.without_history()
        }
    }

    /// Forgets the history (the undo stack), keeping the position: what a FEN would give.
    /// The stack's memory goes too (a kept position should not carry a game's worth).
    pub fn clear_history(&mut self) {
        self.undo = Vec::new();
    }
}

/// A copy with the whole history: the cost grows with the game (see
/// [`Position::without_history`] for a copy to try moves on).
impl<B: CellSet> Clone for Position<B> {
    fn clone(&self) -> Self {
        #[cfg(test)]
        crate::work::add(self.undo.len());
        Position {
            undo: self.undo.clone(),
            ..self.without_history()
        }
    }
}

impl<B: CellSet> std::fmt::Debug for Position<B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

impl<B: CellSet> PartialEq for Position<B> {
    /// Same variant, pieces, side, en-passant right and clocks (history aside).
    fn eq(&self, o: &Position<B>) -> bool {
        self.rules.id() == o.rules.id()
            && self.mailbox == o.mailbox
            && self.hand == o.hand
            && self.turn == o.turn
            && self.ep == o.ep
            && self.halfmove == o.halfmove
            && self.fullmove == o.fullmove
    }
}

/// The castling rights of the colour-flipped position: each right becomes the other
/// side's castling whose cells are its mirror image. A variant may list Black's
/// castlings in another order than White's (Shafran does), so the index alone does not
/// say which; `None` when some castling with a right has no mirror image.
pub(crate) fn flip_castling_rights<B: CellSet>(rules: &Rules<B>, rights: u8) -> Option<u8> {
    let b = rules.board();
    let mut flipped = 0;
    for side in Side::BOTH {
        for i in 0..4 {
            if rights & castle_bit(side, i) == 0 {
                continue;
            }
            let cells = rules.castling_cells(side, i)?;
            let mirrored = CastlingCells {
                king: b.mirror(cells.king)?,
                king_to: b.mirror(cells.king_to)?,
                rook: b.mirror(cells.rook)?,
                rook_to: b.mirror(cells.rook_to)?,
            };
            let j = (0..4).find(|&j| rules.castling_cells(!side, j) == Some(mirrored))?;
            flipped |= castle_bit(!side, j);
        }
    }
    Some(flipped)
}
