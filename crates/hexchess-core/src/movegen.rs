//! Legal move generation and attack tests.
//!
//! Moves are generated legal in one pass: checkers and pinned pieces are found first,
//! then each piece's targets are masked so that no move leaves the royal piece attacked.
//! Only en-passant captures (which remove a piece off the target cell) are checked by
//! testing the resulting occupancy.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::bitboard::{Bitboard, CellSet};
use crate::cell::Cell;
use crate::moves::{Move, MoveList};
use crate::piece::{Kind, Piece, Side};
use crate::position::{Phase, Position};
use crate::rules::{KindMoves, Rules};
use crate::variant::MoveMode;

/// Checkers and pins of the side to move.
struct CheckInfo<B: CellSet> {
    /// Every piece on the board, and those of the sides the mover plays against: found
    /// once here for every generator of the node.
    occupied: B,
    enemy: B,
    /// What the mover may not capture: its own pieces, its allies' and any immune ones
    /// (`occupied & !enemy`, kept so each piece's targets need one mask).
    blocked: B,
    checkers: B,
    /// Cells a non-royal move must land on to answer a single check (the checker and the
    /// cells between it and the royal piece); every cell when not in check.
    evasion: B,
    pinned: B,
    /// Pinned cells with the cells each may move to (its pin line up to the pinner).
    /// A handful at most: one per line through the royal piece.
    pins: [(Cell, B); MAX_PINS],
    pin_count: usize,
}

/// Pins kept in [`CheckInfo`]; further pinned pieces have each move tested instead (see
/// [`Position::keeps_royal_safe`]). Six covers every position of real games (a royal
/// piece has twelve lines in hexagonal chess, but pins along more than a handful at
/// once do not occur), and the table is built and copied at every node, so a smaller
/// one is cheaper. Unit tests keep only two, so that path is exercised by ordinary
/// positions.
#[cfg(not(test))]
const MAX_PINS: usize = 6;
#[cfg(test)]
const MAX_PINS: usize = 2;

impl<B: CellSet> CheckInfo<B> {
    /// The cells a piece may move to, given pins and any check to answer.
    #[inline]
    fn allowed(&self, from: Cell) -> B {
        if !self.pinned.contains(from) {
            return self.evasion;
        }
        for &(c, line) in &self.pins[..self.pin_count] {
            if c == from {
                return self.evasion & line;
            }
        }
        // Pinned beyond the table's capacity: the caller tests each move.
        self.evasion
    }

    /// Whether `from` is pinned but its line was not recorded.
    #[inline]
    fn unrecorded_pin(&self, from: Cell) -> bool {
        self.pinned.contains(from) && !self.pins[..self.pin_count].iter().any(|p| p.0 == from)
    }
}

/// Which of the legal moves a generator produces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveSet {
    /// Every legal move.
    All,
    /// Captures (en passant included) and promotions: what quiescence search plays.
    Noisy,
    /// The rest: moves that neither capture nor promote. `Noisy` and `Quiet` split
    /// `All` exactly, so a search can try captures before generating anything else.
    Quiet,
}

impl MoveSet {
    #[inline]
    fn captures(self) -> bool {
        self != MoveSet::Quiet
    }

    #[inline]
    fn quiets(self) -> bool {
        self != MoveSet::Noisy
    }
}

/// The checks and pins of one position, found once so that a search generating its
/// moves in stages (and testing a remembered move) does not find them again each time.
pub struct Legality<B: CellSet = Bitboard>(CheckInfo<B>);

impl<B: CellSet> Position<B> {
    /// Whether `side`'s pieces in `attackers` attack `target`, given the occupancy.
    /// `attackers` lets a caller leave out a piece about to be captured.
    #[inline]
    pub(crate) fn attacked_with(
        &self,
        target: Cell,
        side: Side,
        occupied: B,
        attackers: B,
    ) -> bool {
        let r = &*self.rules;
        let s = side.index();
        for &k in &r.leapers[s] {
            if (r.leap_attackers[s][k.index()][target.index()]
                & self.kind_bb[k.index()]
                & attackers)
                .any()
            {
                return true;
            }
        }
        for class in &r.slide_classes[s] {
            let sliders = self.kinds_in(class.kinds) & attackers;
            if (sliders & class.lines[target.index()]).is_empty() {
                continue;
            }
            for (i, &d) in class.dirs.iter().enumerate() {
                let ray = r.ray(d, target);
                if (ray & sliders).is_empty() {
                    continue;
                }
                let b = r.first_on_ray(d, ray & occupied);
                if sliders.contains(b)
                    && class.limits[i]
                        .as_ref()
                        .is_none_or(|l| l[target.index()].contains(b))
                {
                    return true;
                }
            }
        }
        false
    }

    /// Whether `side` attacks `target` in this position.
    pub fn is_attacked(&self, target: Cell, side: Side) -> bool {
        self.attacked_with(target, side, self.occupied(), self.side_bb[side.index()])
    }

    /// Every piece of `side` that attacks `target`.
    pub fn attackers(&self, target: Cell, side: Side) -> B {
        self.attackers_with(target, side, self.occupied())
    }

    /// The cells of `targets` (empty or not) that `side` attacks: each of its pieces'
    /// attacks found once, where asking [`Position::is_attacked`] cell by cell would
    /// look from every target for every kind (what a game of more sides asks at every
    /// turn's start, for each opponent: does it threaten any of my pieces?).
    pub fn attacked_among(&self, side: Side, targets: B) -> B {
        let r = &*self.rules;
        let s = side.index();
        let occupied = self.occupied();
        let pawn = r.pawn.as_ref();
        let mut hit = B::EMPTY;
        for k in r.kinds() {
            let pieces = self.kind_bb[k.index()] & self.side_bb[s];
            if pieces.is_empty() {
                continue;
            }
            let km = &r.moves[s][k.index()];
            for from in pieces {
                let mut reach = km.capture_reach[from.index()];
                if let Some(p) = pawn.filter(|p| p.kind == k) {
                    reach |= p.capture[s][from.index()];
                    hit |= p.capture[s][from.index()] & targets;
                }
                if (reach & targets & !hit).is_empty() {
                    continue;
                }
                hit |= piece_attacks(r, km, from, occupied) & targets;
            }
        }
        hit
    }

    /// The cells the piece on `from` attacks (empty or not; nothing if the cell is
    /// empty): [`Position::attacked_among`]'s reach of that one piece, for the rules
    /// that ask which piece attacks what (a fork).
    pub(crate) fn attacks_from(&self, from: Cell) -> B {
        let Some(piece) = self.piece_at(from) else {
            return B::EMPTY;
        };
        let r = &*self.rules;
        let s = piece.side.index();
        let km = &r.moves[s][piece.kind.index()];
        let mut hit = piece_attacks(r, km, from, self.occupied());
        if let Some(p) = r.pawn.as_ref().filter(|p| p.kind == piece.kind) {
            hit |= p.capture[s][from.index()];
        }
        hit
    }

    /// Every piece of `side` standing on `occupied` that attacks `target` when only the
    /// cells of `occupied` block (for exchange evaluation, where pieces leave one by
    /// one and uncover the sliders behind them).
    pub fn attackers_with(&self, target: Cell, side: Side, occupied: B) -> B {
        let r = &*self.rules;
        let s = side.index();
        let own = self.side_bb[s] & occupied;
        let mut found = B::EMPTY;
        for &k in &r.leapers[s] {
            found |= r.leap_attackers[s][k.index()][target.index()] & self.kind_bb[k.index()] & own;
        }
        for class in &r.slide_classes[s] {
            let sliders = self.kinds_in(class.kinds) & own;
            if (sliders & class.lines[target.index()]).is_empty() {
                continue;
            }
            for (i, &d) in class.dirs.iter().enumerate() {
                let blockers = r.ray(d, target) & occupied;
                if blockers.is_empty() {
                    continue;
                }
                let b = r.first_on_ray(d, blockers);
                if sliders.contains(b)
                    && class.limits[i]
                        .as_ref()
                        .is_none_or(|l| l[target.index()].contains(b))
                {
                    found.insert(b);
                }
            }
        }
        found
    }

    /// Whether the side to move's royal piece is attacked (never in the setup phase:
    /// placements give no check, and a hidden deployment's checks wait for the reveal).
    #[inline]
    pub fn in_check(&self) -> bool {
        if self.phase != Phase::Play {
            return false;
        }
        let us = self.turn;
        let king = self.royal[us.index()];
        if self.rules.two_sided() {
            return self.is_attacked(king, !us);
        }
        self.attacking_enemies(us)
            .any(|them| self.is_attacked(king, them))
    }

    /// The pieces of every side `us` plays against: what it may capture.
    #[inline]
    pub(crate) fn enemy_cells(&self, us: Side) -> B {
        if !self.rules.has_teams() {
            return self.occupied() & !self.side_bb[us.index()] & !self.immune;
        }
        self.rules
            .enemies(us)
            .iter()
            .fold(B::EMPTY, |all, them| all | self.side_bb[them.index()])
            & !self.immune
    }

    /// The sides `us` plays against whose pieces attack: every enemy but those out of
    /// the game (see [`Position::set_inert`]).
    #[inline]
    fn attacking_enemies(&self, us: Side) -> impl Iterator<Item = Side> + '_ {
        let inert = self.inert;
        self.rules
            .enemies(us)
            .iter()
            .copied()
            .filter(move |s| inert & 1 << s.index() == 0)
    }

    /// Whether any side `us` plays against attacks `target`, given the occupancy, with
    /// `spared` (a piece about to be captured) attacking nothing.
    #[inline(always)]
    fn attacked_by_enemies(&self, us: Side, target: Cell, occupied: B, spared: B) -> bool {
        if self.rules.two_sided() {
            let them = !us;
            let attackers = self.side_bb[them.index()] & !spared;
            return self.attacked_with(target, them, occupied, attackers);
        }
        self.attacking_enemies(us).any(|them| {
            let attackers = self.side_bb[them.index()] & !spared;
            self.attacked_with(target, them, occupied, attackers)
        })
    }

    #[inline]
    /// The pieces whose attacks depend on which cells are occupied: the sliders.
    pub(crate) fn sliding_pieces(&self) -> B {
        self.kinds_in(self.rules.sliding_kinds)
    }

    fn kinds_in(&self, mask: u32) -> B {
        let mut b = B::EMPTY;
        let mut m = mask;
        while m != 0 {
            b |= self.kind_bb[m.trailing_zeros() as usize];
            m &= m - 1;
        }
        b
    }

    fn check_info(&self) -> CheckInfo<B> {
        let r = &*self.rules;
        let us = self.turn;
        let king = self.royal[us.index()];
        let own = self.side_bb[us.index()];
        let occupied = self.occupied();
        let enemy = self.enemy_cells(us);
        let mut info = CheckInfo {
            occupied,
            enemy,
            blocked: occupied & !enemy,
            checkers: B::EMPTY,
            evasion: B::EMPTY,
            pinned: B::EMPTY,
            pins: [(Cell::from_index(0), B::EMPTY); MAX_PINS],
            pin_count: 0,
        };
        if self.phase != Phase::Play {
            // No check in the setup phase (the royal piece may still be in hand).
            info.evasion = !B::EMPTY;
            return info;
        }
        if r.two_sided() {
            self.add_checks_and_pins(!us, king, own, occupied, &mut info);
        } else {
            for them in self.attacking_enemies(us) {
                self.add_checks_and_pins(them, king, own, occupied, &mut info);
            }
        }
        if info.checkers.is_empty() {
            info.evasion = !B::EMPTY;
        }
        info
    }

    /// The checks `them` gives the royal piece on `king`, and the pieces of `own` it
    /// pins there.
    #[inline(always)]
    fn add_checks_and_pins(
        &self,
        them: Side,
        king: Cell,
        own: B,
        occupied: B,
        info: &mut CheckInfo<B>,
    ) {
        let r = &*self.rules;
        let enemy = self.side_bb[them.index()];
        for &k in &r.leapers[them.index()] {
            let found = r.leap_attackers[them.index()][k.index()][king.index()]
                & self.kind_bb[k.index()]
                & enemy;
            info.checkers |= found;
            info.evasion |= found;
        }
        for class in &r.slide_classes[them.index()] {
            let sliders = self.kinds_in(class.kinds) & enemy;
            if (sliders & class.lines[king.index()]).is_empty() {
                continue;
            }
            for (i, &d) in class.dirs.iter().enumerate() {
                let ray = r.ray(d, king);
                let reach = match &class.limits[i] {
                    Some(l) => l[king.index()],
                    None => ray,
                };
                if (reach & sliders).is_empty() {
                    continue;
                }
                let blockers = ray & occupied;
                let b1 = r.first_on_ray(d, blockers);
                if sliders.contains(b1) {
                    if reach.contains(b1) {
                        info.checkers.insert(b1);
                        info.evasion |= ray & !r.ray(d, b1);
                    }
                } else if own.contains(b1) {
                    let beyond = r.ray(d, b1) & occupied;
                    if beyond.is_empty() {
                        continue;
                    }
                    let b2 = r.first_on_ray(d, beyond);
                    if sliders.contains(b2) && reach.contains(b2) {
                        info.pinned.insert(b1);
                        if info.pin_count < MAX_PINS {
                            info.pins[info.pin_count] = (b1, ray & !r.ray(d, b2));
                            info.pin_count += 1;
                        }
                    }
                }
            }
        }
    }

    /// Fills `out` with every legal move of the side to move.
    #[inline]
    pub fn legal_moves_into(&self, out: &mut MoveList) {
        self.moves_into(&self.legality(), MoveSet::All, out);
    }

    /// Fills `out` with the legal captures and promotions (for quiescence search).
    #[inline]
    pub fn legal_noisy_moves_into(&self, out: &mut MoveList) {
        self.moves_into(&self.legality(), MoveSet::Noisy, out);
    }

    /// The checks and pins against the side to move, for [`Position::moves_into`].
    pub fn legality(&self) -> Legality<B> {
        Legality(self.check_info())
    }

    /// Whether the side to move is in check, from its [`Legality`].
    pub fn in_check_with(&self, legality: &Legality<B>) -> bool {
        legality.0.checkers.any()
    }

    /// Fills `out` with the legal moves of `set`; `legality` must be this position's.
    pub fn moves_into(&self, legality: &Legality<B>, set: MoveSet, out: &mut MoveList) {
        out.clear();
        if self.phase != Phase::Play {
            // Placements are quiet: none for a captures-only generator.
            if set.quiets() {
                self.placements_into(out);
            }
            return;
        }
        let info = &legality.0;
        let r = &*self.rules;
        let us = self.turn;
        let own = self.side_bb[us.index()];
        let king = self.royal[us.index()];
        let moves = &r.moves[us.index()];

        // The royal piece: any target not attacked once it has left its cell.
        self.royal_moves(king, info, set, out);
        if info.checkers.has_several() {
            return;
        }
        if set.quiets() && self.castling != 0 && info.checkers.is_empty() {
            self.castling_moves(king, out);
        }

        let pawn_kind = r.pawn.as_ref().map(|p| p.kind);
        let others = own & !B::from_cell(king);
        for k in r.kinds() {
            let pieces = self.kind_bb[k.index()] & others;
            if pieces.is_empty() {
                continue;
            }
            if Some(k) == pawn_kind {
                self.pawn_moves(pieces, info, set, out);
                continue;
            }
            let km = &moves[k.index()];
            for from in pieces {
                self.piece_moves(km, from, info, set, out);
            }
        }
    }

    /// Whether the side to move has a legal move. The pieces other than the royal one
    /// are tried first, one at a time: most positions have a move among them, found
    /// without the attack tests every royal move needs. Games of more sides ask this
    /// at every turn's start (a side without a move loses its turn).
    pub fn has_legal_move(&self) -> bool {
        self.has_legal_move_with(&mut MoveList::new())
    }

    /// [`Position::has_legal_move`], the moves found in `out` (cleared first): a
    /// caller that asks at every turn keeps one list rather than making one each time.
    pub fn has_legal_move_with(&self, out: &mut MoveList) -> bool {
        out.clear();
        if self.phase != Phase::Play {
            self.placements_into(out);
            return !out.is_empty();
        }
        let legality = self.legality();
        let info = &legality.0;
        let r = &*self.rules;
        let us = self.turn;
        let king = self.royal[us.index()];
        if !info.checkers.has_several() {
            let pawn_kind = r.pawn.as_ref().map(|p| p.kind);
            let others = self.side_bb[us.index()] & !B::from_cell(king);
            for k in r.kinds() {
                for from in self.kind_bb[k.index()] & others {
                    if Some(k) == pawn_kind {
                        self.pawn_moves(B::from_cell(from), info, MoveSet::All, out);
                    } else {
                        let km = &r.moves[us.index()][k.index()];
                        self.piece_moves(km, from, info, MoveSet::All, out);
                    }
                    if !out.is_empty() {
                        return true;
                    }
                }
            }
        }
        self.royal_moves(king, info, MoveSet::All, out);
        if out.is_empty() && self.castling != 0 && info.checkers.is_empty() {
            self.castling_moves(king, out);
        }
        !out.is_empty()
    }

    /// Whether `mv` is legal here, generating only the moves of the piece it moves (for
    /// a move remembered from another position: a hash move or a killer).
    pub fn is_legal_with(&self, legality: &Legality<B>, mv: Move, scratch: &mut MoveList) -> bool {
        if self.phase != Phase::Play || mv.is_placement() {
            scratch.clear();
            self.placements_into(scratch);
            return scratch.contains(&mv);
        }
        let from = mv.from();
        let us = self.turn;
        if !self.side_bb[us.index()].contains(from) {
            return false;
        }
        scratch.clear();
        let r = &*self.rules;
        let info = &legality.0;
        if from == self.royal[us.index()] {
            self.royal_moves(from, info, MoveSet::All, scratch);
            if self.castling != 0 && info.checkers.is_empty() {
                self.castling_moves(from, scratch);
            }
        } else if info.checkers.has_several() {
            return false;
        } else {
            let kind = self.piece_at(from).expect("own cell holds a piece").kind;
            if r.pawn.as_ref().is_some_and(|p| p.kind == kind) {
                self.pawn_moves(B::from_cell(from), info, MoveSet::All, scratch);
            } else {
                let km = &r.moves[us.index()][kind.index()];
                self.piece_moves(km, from, info, MoveSet::All, scratch);
            }
        }
        scratch.contains(&mv)
    }

    /// The royal piece's moves of `set` (castling aside).
    #[inline]
    fn royal_moves(&self, king: Cell, info: &CheckInfo<B>, set: MoveSet, out: &mut MoveList) {
        let r = &*self.rules;
        let us = self.turn;
        let own = info.blocked;
        let (enemy, occupied) = (info.enemy, info.occupied);
        let king_kind = self.piece_at(king).expect("royal piece").kind;
        let km = &r.moves[us.index()][king_kind.index()];
        let mut targets = piece_targets(r, km, king, own, enemy, occupied);
        match set {
            MoveSet::All => {}
            MoveSet::Noisy => targets &= enemy,
            MoveSet::Quiet => targets &= !enemy,
        }
        let without_king = occupied & !B::from_cell(king);
        if r.two_sided() {
            let them = !us;
            for t in targets {
                if !self.attacked_with(t, them, without_king, enemy & !B::from_cell(t)) {
                    out.push(Move::new(king, t));
                }
            }
            return;
        }
        for t in targets {
            if !self.attacked_by_enemies(us, t, without_king, B::from_cell(t)) {
                out.push(Move::new(king, t));
            }
        }
    }

    /// The moves of `set` of the non-royal, non-pawn piece on `from`.
    #[inline]
    fn piece_moves(
        &self,
        km: &KindMoves<B>,
        from: Cell,
        info: &CheckInfo<B>,
        set: MoveSet,
        out: &mut MoveList,
    ) {
        let r = &*self.rules;
        let own = info.blocked;
        let (enemy, occupied) = (info.enemy, info.occupied);
        let targets = match set {
            MoveSet::All => piece_targets(r, km, from, own, enemy, occupied),
            MoveSet::Noisy if (km.capture_reach[from.index()] & enemy).is_empty() => return,
            MoveSet::Noisy => piece_captures(r, km, from, enemy, occupied),
            MoveSet::Quiet => piece_targets(r, km, from, own, enemy, occupied) & !enemy,
        };
        let checked = info.unrecorded_pin(from);
        for t in targets & info.allowed(from) {
            if !checked || self.keeps_royal_safe(from, t) {
                out.push(Move::new(from, t));
            }
        }
    }

    fn pawn_moves(&self, pawns: B, info: &CheckInfo<B>, set: MoveSet, out: &mut MoveList) {
        let r = &*self.rules;
        let pawn = r.pawn.as_ref().expect("pawn rules");
        let us = self.turn;
        let s = us.index();
        let (enemy, occupied) = (info.enemy, info.occupied);
        let choices = self.promotion_choices_now();
        let ep_targets = self.ep.map_or(B::EMPTY, |e| e.targets);
        for from in pawns {
            // Only captures and promotions count in a captures-only generation.
            if set == MoveSet::Noisy
                && (pawn.capture[s][from.index()] & (enemy | ep_targets)).is_empty()
                && !pawn.promoting_from[s].contains(from)
            {
                continue;
            }
            let mut allowed = info.allowed(from);
            let longest = pawn.long_first[s][from.index()].max(1);
            if info.unrecorded_pin(from) {
                let mut candidates = pawn.capture[s][from.index()];
                for table in &pawn.advance[s] {
                    let mut at = from;
                    for _ in 0..longest {
                        let Some(t) = table[at.index()] else { break };
                        candidates.insert(t);
                        at = t;
                    }
                }
                allowed &= candidates
                    .into_iter()
                    .filter(|t| self.keeps_royal_safe(from, *t))
                    .collect::<B>();
            }
            for table in &pawn.advance[s] {
                let Some(t) = table[from.index()] else {
                    continue;
                };
                if occupied.contains(t) {
                    continue;
                }
                if allowed.contains(t) {
                    self.push_pawn_move(from, t, &choices, set, out);
                }
                if !set.quiets() {
                    continue;
                }
                // A long first move: every cell on the way must be empty.
                let mut at = t;
                for _ in 1..longest {
                    let Some(next) = table[at.index()] else { break };
                    if occupied.contains(next) {
                        break;
                    }
                    if allowed.contains(next) {
                        out.push(Move::double_step(from, next));
                    }
                    at = next;
                }
            }
            if !set.captures() {
                continue;
            }
            let caps = pawn.capture[s][from.index()];
            for t in caps & enemy & allowed {
                self.push_pawn_move(from, t, &choices, MoveSet::All, out);
            }
            if let Some(e) = self.ep {
                for t in caps & e.targets {
                    if self.en_passant_is_legal(from, t, e.victim) {
                        out.push(Move::en_passant(from, t));
                    }
                }
            }
        }
    }

    /// Adds a pawn move to `t`, expanded into its promotions: of `set`, the promotions
    /// are noisy and the move that stays a pawn is quiet (a capture passes `All`).
    #[inline]
    fn push_pawn_move(
        &self,
        from: Cell,
        t: Cell,
        choices: &PromotionChoices,
        set: MoveSet,
        out: &mut MoveList,
    ) {
        let s = self.turn.index();
        let promoting = self
            .rules
            .promotion
            .as_ref()
            .filter(|pr| (pr.zone[s] | pr.optional_zone[s]).contains(t));
        let Some(pr) = promoting else {
            if set.quiets() {
                out.push(Move::new(from, t));
            }
            return;
        };
        let stay = if pr.zone[s].contains(t) {
            choices.len == 0 && !pr.must_promote_to_enter
        } else {
            true
        };
        if stay && set.quiets() {
            out.push(Move::new(from, t));
        }
        if set.captures() {
            for &k in choices.kinds() {
                out.push(Move::promoting(from, t, k));
            }
        }
    }

    /// The kinds the side to move may promote to now (the only-lost-pieces rule applied).
    pub(crate) fn promotion_choices_now(&self) -> PromotionChoices {
        let mut c = PromotionChoices {
            kinds: [Kind::new(0); crate::piece::MAX_KINDS],
            len: 0,
        };
        if let Some(pr) = &self.rules.promotion {
            let s = self.turn.index();
            for &k in &pr.choices {
                if !pr.only_lost_pieces
                    || self.counts[s][k.index()] < self.rules.start_counts[s][k.index()]
                {
                    c.kinds[c.len] = k;
                    c.len += 1;
                }
            }
        }
        c
    }

    /// Castlings whose right remains, whose cells are empty, and whose royal piece
    /// crosses no attacked cell and does not end in check.
    fn castling_moves(&self, king: Cell, out: &mut MoveList) {
        let r = &*self.rules;
        let us = self.turn;
        let them = !us;
        let occupied = self.occupied();
        let enemy = self.side_bb[them.index()];
        for (i, c) in r.castling[us.index()].iter().enumerate() {
            if self.castling & crate::rules::castle_bit(us, i) == 0 || (occupied & c.empty).any() {
                continue;
            }
            let without_king = occupied & !B::from_cell(king);
            let crossing_safe = (c.king_path & !B::from_cell(c.king_to))
                .all_cells(|cell| !self.attacked_with(cell, them, without_king, enemy));
            let after = (without_king & !B::from_cell(c.rook))
                | B::from_cell(c.king_to)
                | B::from_cell(c.rook_to);
            if crossing_safe && !self.attacked_with(c.king_to, them, after, enemy) {
                out.push(Move::castle(king, c.king_to, i));
            }
        }
    }

    /// Whether moving the piece on `from` to `to` leaves the royal piece unattacked
    /// (for a move of a non-royal piece). Only pins beyond the check info's table need
    /// it: kept out of line, so the move loops stay small.
    #[inline(never)]
    fn keeps_royal_safe(&self, from: Cell, to: Cell) -> bool {
        let us = self.turn;
        let occupied = (self.occupied() & !B::from_cell(from)) | B::from_cell(to);
        !self.attacked_by_enemies(us, self.royal[us.index()], occupied, B::from_cell(to))
    }

    pub(crate) fn en_passant_is_legal(&self, from: Cell, target: Cell, victim: Cell) -> bool {
        let us = self.turn;
        let them = !us;
        let occupied =
            (self.occupied() & !B::from_cell(from) & !B::from_cell(victim)) | B::from_cell(target);
        let attackers = self.side_bb[them.index()] & !B::from_cell(victim);
        !self.attacked_with(self.royal[us.index()], them, occupied, attackers)
    }

    /// Every legal move of the side to move.
    pub fn legal_moves(&self) -> MoveList {
        let mut v = Vec::with_capacity(128);
        self.legal_moves_into(&mut v);
        v
    }

    /// Whether the move is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.legal_moves().contains(&mv)
    }

    /// Counts the leaves of the legal move tree `depth` plies deep (draw rules ignored).
    pub fn perft(&mut self, depth: u32) -> u64 {
        self.perft_halting(depth, &Never)
    }

    /// [`Position::perft`] that gives up once `stop` is set: `None` then. The flag is
    /// read at every node with moves under it (the last ply is counted in bulk), so a
    /// count of any depth stops within microseconds; the plain count never reads one.
    pub fn perft_until(&mut self, depth: u32, stop: &AtomicBool) -> Option<u64> {
        let total = self.perft_halting(depth, stop);
        (!stop.halted()).then_some(total)
    }

    fn perft_halting(&mut self, depth: u32, halt: &impl Halt) -> u64 {
        let mut lists: Vec<MoveList> = (0..depth.max(1)).map(|_| Vec::with_capacity(256)).collect();
        self.perft_with(depth, &mut lists, halt)
    }

    fn perft_with(&mut self, depth: u32, lists: &mut [MoveList], halt: &impl Halt) -> u64 {
        if depth == 0 {
            return 1;
        }
        let (list, rest) = lists.split_first_mut().expect("one list per ply");
        self.legal_moves_into(list);
        if depth == 1 {
            return list.len() as u64;
        }
        if halt.halted() {
            return 0;
        }
        let mut total = 0;
        for &mv in list.iter() {
            self.make_move(mv);
            total += self.perft_with(depth - 1, rest, halt);
            self.unmake_move();
        }
        total
    }

    /// Perft split by root move: each legal move with its leaf count.
    pub fn perft_divide(&mut self, depth: u32) -> Vec<(Move, u64)> {
        let moves = self.legal_moves();
        moves
            .into_iter()
            .map(|mv| {
                self.make_move(mv);
                let n = if depth <= 1 { 1 } else { self.perft(depth - 1) };
                self.unmake_move();
                (mv, n)
            })
            .collect()
    }
}

/// Whether a count must give up: [`Never`] for the plain perft (compiled away), a stop
/// flag for one that can be stopped.
trait Halt {
    fn halted(&self) -> bool;
}

/// A count nobody stops.
struct Never;

impl Halt for Never {
    #[inline(always)]
    fn halted(&self) -> bool {
        false
    }
}

impl Halt for AtomicBool {
    #[inline(always)]
    fn halted(&self) -> bool {
        self.load(Ordering::Relaxed)
    }
}

/// The promotion kinds available at one moment.
pub(crate) struct PromotionChoices {
    kinds: [Kind; crate::piece::MAX_KINDS],
    len: usize,
}

impl PromotionChoices {
    pub(crate) fn kinds(&self) -> &[Kind] {
        &self.kinds[..self.len]
    }
}

impl<B: CellSet> Rules<B> {
    /// The cells a non-pawn `piece` on `from` moves or captures to, pseudo-legally
    /// (its own king may be left in check), with `own` and `enemy` the two sides'
    /// pieces and `occupied` both: what an evaluation counts as mobility and attacks.
    #[inline(always)]
    pub fn reach(&self, piece: Piece, from: Cell, own: B, enemy: B, occupied: B) -> B {
        piece_targets(self, self.kind_moves(piece), from, own, enemy, occupied)
    }
}

/// Pseudo-legal targets of a non-pawn piece.
#[inline(always)]
pub(crate) fn piece_targets<B: CellSet>(
    r: &Rules<B>,
    km: &KindMoves<B>,
    from: Cell,
    own: B,
    enemy: B,
    occupied: B,
) -> B {
    let i = from.index();
    let mut t = B::EMPTY;
    if km.has_leaps {
        t = km.leap_any[i] & !own;
    }
    if km.has_moded_leaps {
        t |= (km.leap_move[i] & !occupied) | (km.leap_capture[i] & enemy);
    }
    let (up, down) = km.slide_rays_from(from);
    let mut slid = B::EMPTY;
    for &ray in up {
        slid |= B::slide_up(ray, occupied);
    }
    for &ray in down {
        slid |= B::slide_down(ray, occupied);
    }
    t |= slid & !own;
    for s in &km.special_slides {
        let mut reach = r.slide(s.dir, from, occupied);
        if let Some(l) = &s.limit {
            reach &= l[i];
        }
        t |= match s.mode {
            MoveMode::MoveOrCapture => reach & !own,
            MoveMode::MoveOnly => reach & !occupied,
            MoveMode::CaptureOnly => reach & enemy,
        };
    }
    t
}

/// Every cell a non-pawn piece attacks: its capturing leaps, and each slide that may
/// capture up to and including the first piece met.
#[inline]
fn piece_attacks<B: CellSet>(r: &Rules<B>, km: &KindMoves<B>, from: Cell, occupied: B) -> B {
    capturing_reach(r, km, from, occupied, B::slide_up, B::slide_down)
}

/// Captures of a non-pawn piece (pseudo-legal): for slides only the first piece met
/// along each ray matters, which is cheaper than finding every reachable cell.
#[inline]
pub(crate) fn piece_captures<B: CellSet>(
    r: &Rules<B>,
    km: &KindMoves<B>,
    from: Cell,
    enemy: B,
    occupied: B,
) -> B {
    capturing_reach(r, km, from, occupied, B::first_up, B::first_down) & enemy
}

/// A non-pawn piece's capturing leaps and slides, each plain slide's ray read by `up`
/// or `down` (the cells up to the first piece met, or that piece alone).
#[inline(always)]
fn capturing_reach<B: CellSet>(
    r: &Rules<B>,
    km: &KindMoves<B>,
    from: Cell,
    occupied: B,
    up: impl Fn(B, B) -> B,
    down: impl Fn(B, B) -> B,
) -> B {
    let i = from.index();
    let mut t = B::EMPTY;
    if km.has_leaps {
        t = km.leap_any[i];
    }
    if km.has_moded_leaps {
        t |= km.leap_capture[i];
    }
    let (ascending, descending) = km.slide_rays_from(from);
    for &ray in ascending {
        t |= up(ray, occupied);
    }
    for &ray in descending {
        t |= down(ray, occupied);
    }
    for s in &km.special_slides {
        if s.mode == MoveMode::MoveOnly {
            continue;
        }
        let mut reach = r.slide(s.dir, from, occupied);
        if let Some(l) = &s.limit {
            reach &= l[i];
        }
        t |= reach;
    }
    t
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::piece::{MAX_KINDS, Piece, Side};
    use crate::position::{Position, State};
    use crate::rules::Rules;
    use crate::variant::builtin;

    #[test]
    fn pins_beyond_the_table_are_still_obeyed() {
        let rules = Arc::new(Rules::new(&builtin("glinski").unwrap().unwrap()).unwrap());
        let b = rules.board();
        let cell = |n: &str| b.parse_cell(n).unwrap();
        let kind = |l: char| rules.kind_by_letter(l).unwrap();
        // Three rooks pinned on three lines through the king on f6.
        let mut pieces = vec![
            (cell("f6"), Piece::new(Side::White, kind('K'))),
            (cell("l6"), Piece::new(Side::Black, kind('K'))),
        ];
        for (ours, theirs) in [("f7", "f9"), ("g6", "i6"), ("e6", "c6")] {
            pieces.push((cell(ours), Piece::new(Side::White, kind('R'))));
            pieces.push((cell(theirs), Piece::new(Side::Black, kind('R'))));
        }
        let state = State {
            turn: Side::White,
            ep: None,
            castling: 0,
            halfmove: 0,
            fullmove: 1,
        };
        let pos = Position::from_parts(
            Arc::clone(&rules),
            &pieces,
            [[0; MAX_KINDS]; crate::piece::MAX_SIDES],
            state,
        )
        .unwrap();
        let targets = |from: &str| {
            let mut v: Vec<&str> = pos
                .legal_moves()
                .into_iter()
                .filter(|m| m.from() == cell(from))
                .map(|m| b.name(m.to()))
                .collect();
            v.sort();
            v
        };
        assert_eq!(targets("f7"), ["f8", "f9"]);
        assert_eq!(targets("g6"), ["h6", "i6"]);
        assert_eq!(targets("e6"), ["c6", "d6"]);
    }
}
