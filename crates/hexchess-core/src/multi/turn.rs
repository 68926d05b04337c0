//! Turns of several moves (docs/rules.md §13.2): a side threatened by several
//! opponents moves as many pieces, within Peterson's limits.

use crate::Cell;
use crate::bitboard::CellSet;
use crate::game::{Game, Sides, Standing, TurnStart, in_check_on, is_mated_on};
use crate::moves::Move;
use crate::piece::{MAX_SIDES, Side};
use crate::position::Position;

impl<B: CellSet> Game<B> {
    /// What the limits compare a turn of several moves with, taken before its first.
    pub(crate) fn turn_start(&self, us: Side) -> TurnStart<B> {
        let opponents = self.opponents(us);
        let ours = self.attack_maps()[us.index()];
        let mut attacked = [B::EMPTY; MAX_SIDES];
        for &them in &opponents {
            attacked[them.index()] = ours & self.pos.side_cells(them) & !self.pos.immune();
        }
        TurnStart {
            pos: self.pos.without_history(),
            opponents,
            attacked,
        }
    }

    /// The opponents of `us` still in the game.
    pub(crate) fn opponents(&self, us: Side) -> Sides {
        let mut out = Sides::new(Side::White);
        for &s in self.pos.rules().enemies(us) {
            if self.standing[s.index()] != Standing::Out {
                out.push(s);
            }
        }
        out
    }

    /// The second moves the turn in progress may have: legal moves of another piece
    /// than the one moved that keep the turn within the limits.
    pub(crate) fn second_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        self.for_each_second_move(&mut |m| {
            out.push(m);
            true
        });
        out
    }

    /// Whether the turn in progress may have a second move at all: the first one
    /// found is enough (a turn with none ends at once).
    pub(crate) fn has_second_move(&self) -> bool {
        let mut found = false;
        self.for_each_second_move(&mut |_| {
            found = true;
            false
        });
        found
    }

    /// Calls `f` with each second move of the turn in progress until it returns false.
    ///
    /// The limits are judged on one copy of the board, each candidate made on it and
    /// taken back, rather than on a copy of the game per candidate: a second move that
    /// takes no royal piece changes no standing, so the board is all that differs.
    fn for_each_second_move(&self, f: &mut dyn FnMut(Move) -> bool) {
        let Some(&first) = self.turn.played.first() else {
            return;
        };
        let moved = first.to();
        let candidates = self.pos.legal_moves().into_iter();
        let mut candidates = candidates.filter(|m| m.from() != moved);
        let Some(start) = &self.start else {
            candidates.all(f);
            return;
        };
        let mut board = self.pos.without_history();
        let us = self.pos.turn();
        let opponents = self.opponents(us);
        let before = PieceAttacks::new(&self.pos, us);
        let mut after = Vec::new();
        for m in candidates {
            let allowed = if self.takes_royal(m) {
                self.turn_within_limits(m)
            } else {
                let mut second = QuietSecond {
                    board: &mut board,
                    before: &before,
                    after: &mut after,
                };
                self.quiet_second_within_limits(&mut second, start, &opponents, m)
            };
            if allowed && !f(m) {
                return;
            }
        }
    }

    /// Whether `m` takes a royal piece of another side (which puts that side out).
    fn takes_royal(&self, m: Move) -> bool {
        let us = self.pos.turn();
        self.pos
            .piece_at(m.to())
            .is_some_and(|p| p.side != us && self.pos.rules().is_royal(p.kind))
    }

    /// [`Game::turn_within_limits`] for a second move that takes no royal piece, made
    /// on the game's board copy (given back as it was): the standings and the
    /// opponents are the game's own.
    fn quiet_second_within_limits(
        &self,
        scratch: &mut QuietSecond<'_, B>,
        start: &TurnStart<B>,
        opponents: &[Side],
        second: Move,
    ) -> bool {
        let us = self.pos.turn();
        let board = &mut *scratch.board;
        let victim = board.piece_at(second.to()).filter(|p| p.side != us);
        let captured = |them: Side| {
            let before = self
                .turn
                .captures
                .iter()
                .filter(|c| c.victim == them)
                .count();
            before + usize::from(victim.is_some_and(|v| v.side == them))
        };
        if start.opponents.iter().any(|&them| captured(them) > 1) {
            return false;
        }
        board.make_move(second);
        scratch.before.after_move(board, second, scratch.after);
        let limits = Limits {
            pos: board,
            standing: &self.standing,
            mover: scratch.after,
        };
        let ok = limits.new_threats_within(start, &captured, opponents)
            && self.checkmates_within(&limits, start, second, opponents);
        board.unmake_move();
        ok
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
        let mut captures = self.turn.captures;
        if let Some(c) = after.make_move_on_board(us, second) {
            captures.push(c);
        }
        let captured = |them: Side| captures.iter().filter(|c| c.victim == them).count();
        let one_capture_each = start.opponents.iter().all(|them| captured(*them) <= 1);
        let opponents = after.opponents(us);
        let mover = PieceAttacks::new(&after.pos, us).attacks;
        let limits = Limits {
            pos: &after.pos,
            standing: &after.standing,
            mover: &mover,
        };
        one_capture_each
            && limits.new_threats_within(start, &captured, &opponents)
            && after.checkmates_within(&limits, start, second, &opponents)
    }

    /// Rule 4: a checkmate made with both moves stands only when every opponent is
    /// left in check (or mate); a mate one of the moves makes alone is always allowed.
    fn checkmates_within(
        &self,
        after: &Limits<'_, B>,
        start: &TurnStart<B>,
        second: Move,
        opponents: &[Side],
    ) -> bool {
        let mut mated = opponents.iter().copied().filter(|s| after.is_mated(*s));
        let Some(first_mated) = mated.next() else {
            return true;
        };
        if opponents.iter().all(|s| after.in_check(*s)) {
            return true;
        }
        let first = self.turn.played[0];
        std::iter::once(first_mated).chain(mated).all(|them| {
            mated_after(&start.pos, &[first], them) || mated_after(&start.pos, &[second], them)
        })
    }
}

/// The board a turn's moves leave, with the standings it is judged by: what the
/// limits of a turn of several moves read.
struct Limits<'a, B: CellSet> {
    pos: &'a Position<B>,
    standing: &'a [Standing; MAX_SIDES],
    /// What each piece of the mover attacks on `pos` (every cell, in no set order).
    mover: &'a [B],
}

impl<B: CellSet> Limits<'_, B> {
    /// Rule 3: per opponent, the pieces captured and newly attacked are at most one,
    /// unless all but one of the attacks making the new threats are made by pieces that
    /// also attack another opponent. Peterson counts attacks, not pieces: a piece newly
    /// attacked by a forking piece and by one that forks nothing still counts once, and
    /// one attacked by two pieces that fork nothing counts twice.
    ///
    /// Read from what each piece of the mover attacks, for all the opponents together.
    fn new_threats_within(
        &self,
        start: &TurnStart<B>,
        captured: &dyn Fn(Side) -> usize,
        opponents: &[Side],
    ) -> bool {
        let targets = opponents.iter().fold(B::EMPTY, |t, o| t | self.targets(*o));
        let hit = self.mover.iter().fold(B::EMPTY, |h, a| h | *a) & targets;
        opponents.iter().all(|&them| {
            let newly = hit & self.pos.side_cells(them) & !start.attacked[them.index()];
            let captured = captured(them);
            if captured + newly.count() as usize <= 1 {
                return true;
            }
            captured + self.lone_attacks(targets, self.targets(them), newly) <= 1
        })
    }

    /// The attacks on `newly` (pieces of one opponent, whose pieces are `theirs`,
    /// among all the opponents' `targets`) made by pieces that attack no other
    /// opponent: a piece attacked by two such counts twice, one attacked by a forking
    /// piece alone not at all.
    fn lone_attacks(&self, targets: B, theirs: B, newly: B) -> usize {
        self.mover
            .iter()
            .map(|a| *a & targets)
            .filter(|a| (*a & !theirs).is_empty())
            .map(|a| (a & newly).count() as usize)
            .sum()
    }

    /// The pieces of `them` anybody may capture.
    fn targets(&self, them: Side) -> B {
        self.pos.side_cells(them) & !self.pos.immune()
    }

    /// Whether `side`'s royal piece is attacked by a side still in the game.
    fn in_check(&self, side: Side) -> bool {
        in_check_on(self.pos, self.standing, side)
    }

    /// Whether `side` is checkmated on this board.
    fn is_mated(&self, side: Side) -> bool {
        is_mated_on(self.pos, self.standing, side)
    }
}

/// What each piece of one side attacks, found once on the board a turn's first move
/// left, so that each candidate second move sweeps again only the pieces it changes.
struct PieceAttacks<B: CellSet> {
    cells: Vec<Cell>,
    /// `[i]`: every cell the piece on `cells[i]` attacks.
    attacks: Vec<B>,
}

impl<B: CellSet> PieceAttacks<B> {
    fn new(pos: &Position<B>, side: Side) -> PieceAttacks<B> {
        let cells: Vec<Cell> = pos.side_cells(side).into_iter().collect();
        let attacks = cells.iter().map(|c| pos.attacks_from(*c)).collect();
        PieceAttacks { cells, attacks }
    }

    /// Into `out`, what each piece attacks on `after`, the board once `m` (a move of
    /// this side's) is made. A piece's attacks change only when it moved, or when the
    /// cell left or entered is one it attacked (its slides stop at the first piece met,
    /// whose cell it attacks); castling and en passant change more cells, so every
    /// piece is swept again after them.
    fn after_move(&self, after: &Position<B>, m: Move, out: &mut Vec<B>) {
        out.clear();
        if m.castling().is_some() || m.is_en_passant() || m.is_off_board() {
            let side = after.piece_at(m.to()).map(|p| p.side);
            let cells = side.map_or(B::EMPTY, |s| after.side_cells(s));
            out.extend(cells.into_iter().map(|c| after.attacks_from(c)));
            return;
        }
        let (from, to) = (m.from(), m.to());
        for (cell, attacks) in self.cells.iter().zip(&self.attacks) {
            out.push(if *cell == from {
                after.attacks_from(to)
            } else if attacks.contains(from) || attacks.contains(to) {
                after.attacks_from(*cell)
            } else {
                *attacks
            });
        }
    }
}

/// A board to make each candidate second move on, what the mover attacked before it,
/// and room for what it attacks after.
struct QuietSecond<'a, B: CellSet> {
    board: &'a mut Position<B>,
    before: &'a PieceAttacks<B>,
    after: &'a mut Vec<B>,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Catalog;
    use crate::game::Step;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    use std::sync::Arc;

    /// The second moves judged on one board made and taken back are those judged on a
    /// copy of the game per candidate (the way the limits were first written), at every
    /// turn of two moves of random 3-player games, captures favoured so that the
    /// limits' captures, threats and forks all come up.
    #[test]
    fn second_moves_on_one_board_are_those_on_a_game_copy() {
        // And a turn may stop exactly where its steps list a stop, and the attack maps
        // the game keeps are those of its board.
        let catalog = Catalog::builtin();
        let rules = Arc::clone(catalog.get("hexachess-3").unwrap().rules());
        let (mut judged, mut refused, mut royal_steps, mut noisy_seen) = (0, 0, 0, 0);
        for seed in 0..40 {
            let mut rng = StdRng::seed_from_u64(seed);
            let mut g = Game::new(Arc::clone(&rules));
            for _ in 0..400 {
                if g.end().is_some() {
                    break;
                }
                if g.turn.moves == 1 {
                    let fast = g.second_moves();
                    let moved = g.turn.played[0].to();
                    let candidates: Vec<Move> = g
                        .pos
                        .legal_moves()
                        .into_iter()
                        .filter(|m| m.from() != moved)
                        .collect();
                    let slow: Vec<Move> = candidates
                        .iter()
                        .copied()
                        .filter(|m| g.turn_within_limits(*m))
                        .collect();
                    assert_eq!(fast, slow, "seed {seed}: {}", g.pos.to_fen());
                    assert_eq!(g.has_second_move(), !slow.is_empty());
                    judged += 1;
                    refused += candidates.len() - slow.len();
                }
                let steps = g.steps();
                assert_eq!(g.may_stop(), steps.contains(&Step::Stop));
                // The noisy steps, generated apart at a turn's start, are the steps
                // that capture or promote, in order.
                let noisy: Vec<Step> = steps
                    .iter()
                    .copied()
                    .filter(|s| matches!(s, Step::Play(m) if !m.is_edit() && (g.pos.is_capture(*m) || m.promotion().is_some())))
                    .collect();
                assert_eq!(g.noisy_steps(), noisy, "seed {seed}: {}", g.pos.to_fen());
                noisy_seen += noisy.len();
                // A royal step read from the maps is a legal move.
                if let Some(to) = g.free_royal_step(g.side_to_move()) {
                    let king = g.pos.royal_cell(g.side_to_move());
                    let legal = g.pos.legal_moves();
                    assert!(
                        legal.iter().any(|m| m.from() == king && m.to() == to),
                        "seed {seed}: {}",
                        g.pos.to_fen()
                    );
                    royal_steps += 1;
                }
                assert_eq!(
                    g.attack_maps(),
                    g.find_attacks(),
                    "kept attack maps are fresh"
                );
                let captures: Vec<Step> = steps
                    .iter()
                    .copied()
                    .filter(|s| matches!(s, Step::Play(m) if g.pos.is_capture(*m)))
                    .collect();
                let step = if !captures.is_empty() && rng.random_bool(0.7) {
                    captures[rng.random_range(0..captures.len())]
                } else {
                    steps[rng.random_range(0..steps.len())]
                };
                g.play_unchecked(step);
            }
        }
        // Turns of two moves came up, and the limits turned moves away in them.
        assert!(judged > 20, "{judged} turns of two moves");
        assert!(refused > judged, "{refused} moves refused");
        assert!(noisy_seen > 1000, "{noisy_seen} noisy steps");
        assert!(
            royal_steps > 1000,
            "{royal_steps} royal steps read from the maps"
        );
    }
}
