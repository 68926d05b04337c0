//! Taking steps back. A search walks its tree on one game: it saves what a step may
//! change before playing it and restores that after, where a copy of the whole game
//! per node (its position, its start, its record) was most of a node's cost.

use crate::bitboard::CellSet;
use crate::multi::rounds::CaptureLog;
use crate::outcome::{GameOutcome, Repetitions};
use crate::piece::{MAX_SIDES, Side};

use super::attacks::AttacksMark;
use super::{Game, Standing, TurnStart, TurnState, TurnSteps};

/// A game's state before some steps, for [`Game::restore`]: everything a step may
/// change but the position, whose own history takes its moves back. Small at a turn's
/// start (the turn in progress is empty then).
pub struct Saved<B: CellSet> {
    plies: usize,
    standing: [Standing; MAX_SIDES],
    owed: [u16; MAX_SIDES],
    turn: TurnState,
    start: Option<std::sync::Arc<TurnStart<B>>>,
    log: CaptureLog,
    turns: usize,
    steps: TurnSteps,
    keys: usize,
    keys_from: usize,
    keys_halfmove: u16,
    end: Option<GameOutcome>,
    inert: u8,
    immune: B,
    /// A two-player game's repetition count (a game of more sides keys its states).
    repetitions: Option<Repetitions>,
    attacks: AttacksMark<B>,
}

impl<B: CellSet> Game<B> {
    /// What [`Game::restore`] needs to bring the game back to now, after any steps
    /// played on it (and turns handed on with [`Game::hand_to`]).
    pub fn save(&self) -> Saved<B> {
        Saved {
            plies: self.pos.history_len(),
            standing: self.standing,
            owed: self.owed,
            turn: self.turn,
            start: self.start.clone(),
            log: self.log,
            turns: self.turns.len(),
            steps: self.steps,
            keys: self.keys.len(),
            keys_from: self.keys_from,
            keys_halfmove: self.keys_halfmove,
            end: self.end,
            inert: self.pos.inert,
            immune: self.pos.immune(),
            repetitions: self.multi.is_none().then(|| self.repetitions.clone()),
            attacks: self.attacks.mark(),
        }
    }

    /// Takes the game back to where [`Game::save`] saw it.
    pub fn restore(&mut self, saved: Saved<B>) {
        self.pos.unmake_to(saved.plies);
        self.pos.inert = saved.inert;
        self.pos.set_immune(saved.immune);
        self.standing = saved.standing;
        self.owed = saved.owed;
        self.turn = saved.turn;
        self.start = saved.start;
        self.log = saved.log;
        self.turns.truncate(saved.turns);
        self.steps = saved.steps;
        self.keys.truncate(saved.keys);
        self.keys_from = saved.keys_from;
        self.keys_halfmove = saved.keys_halfmove;
        self.end = saved.end;
        self.attacks.back_to(saved.attacks);
        if let Some(r) = saved.repetitions {
            self.repetitions = r;
        }
    }

    /// Hands the turn to `side` now, as if the sides between lost theirs (best-reply
    /// search, where one opponent answers out of turn): [`Game::handed_to`] in place,
    /// to be taken back with [`Game::restore`]. False, and nothing changed, when `side`
    /// is not playing or a turn is half played.
    pub fn hand_to(&mut self, side: Side) -> bool {
        if self.standing[side.index()] != Standing::Playing
            || self.turn.moves > 0
            || self.end.is_some()
        {
            return false;
        }
        if self.pos.turn() != side {
            self.pos.make_pass(side);
            self.turn = TurnState::default();
            if self.owed[side.index()] > 0 && self.removals().is_empty() {
                self.owed[side.index()] = 0;
            }
        }
        true
    }

    /// Calls `f` with the game after each whole turn the side to move may play, and
    /// the turn's steps, until `f` returns false; returns whether every turn was seen.
    /// [`Game::for_each_turn`] on this one game, each turn taken back after `f`.
    pub fn for_each_turn_mut(
        &mut self,
        f: &mut dyn FnMut(&mut Game<B>, &TurnSteps) -> bool,
    ) -> bool {
        let mut steps = TurnSteps::EMPTY;
        self.turns_from_here(&mut steps, f)
    }

    fn turns_from_here(
        &mut self,
        steps: &mut TurnSteps,
        f: &mut dyn FnMut(&mut Game<B>, &TurnSteps) -> bool,
    ) -> bool {
        let before = self.turns.len();
        self.fix_allowed();
        for step in self.steps() {
            let saved = self.save();
            self.play_unchecked(step);
            steps.push(step);
            let go_on = if self.turns.len() > before || self.end.is_some() {
                f(self, steps)
            } else {
                self.turns_from_here(steps, f)
            };
            steps.pop();
            self.restore(saved);
            if !go_on {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::catalog::Catalog;
    use crate::game::Step;

    /// Everything of a game a step may change, as text.
    fn state<B: CellSet>(g: &Game<B>) -> String {
        format!(
            "{} {:x} {} {:?} {:?} {:?} {:?} {} {:?} {:?} {} {:?} {} {:?} {:?} {:?} {:?}",
            g.pos.to_fen(),
            g.pos.hash(),
            g.pos.history_len(),
            g.standing,
            g.owed,
            g.turn,
            g.log,
            g.turns.len(),
            g.steps,
            &g.keys[g.keys_from..],
            g.keys_halfmove,
            g.end,
            g.pos.inert,
            g.pos.immune().into_iter().collect::<Vec<_>>(),
            g.attacks,
            g.start.as_ref().map(|s| (s.pos.to_fen(), s.opponents)),
            g.steps(),
        )
    }

    /// A random step, captures favoured so that debts change (the standings' changes
    /// are tested on set positions: tests/multiplayer.rs).
    fn pick<B: CellSet>(g: &Game<B>, rng: &mut StdRng) -> Option<Step> {
        let steps = g.steps();
        let captures: Vec<Step> = steps
            .iter()
            .copied()
            .filter(|s| matches!(s, Step::Play(m) if g.pos.is_capture(*m)))
            .collect();
        if !captures.is_empty() && rng.random_bool(0.8) {
            return Some(captures[rng.random_range(0..captures.len())]);
        }
        (!steps.is_empty()).then(|| steps[rng.random_range(0..steps.len())])
    }

    #[test]
    fn a_move_played_as_a_whole_turn_is_the_move_then_a_stop() {
        let catalog = Catalog::builtin();
        let mut two_moves = 0;
        for (id, seed) in [("hexachess-3", 4), ("hexachess-4", 5)] {
            let rules = Arc::clone(catalog.get(id).unwrap().rules());
            let mut rng = StdRng::seed_from_u64(seed);
            let mut g = Game::new(rules);
            for _ in 0..300 {
                if g.end.is_some() {
                    break;
                }
                if g.turn.moves == 0 && g.owed[g.pos.turn().index()] == 0 {
                    // The noisy steps generated apart are the captures and promotions
                    // among the steps (every side's pawns promote: hexachess-4 too).
                    let pos = &g.pos;
                    let noisy: Vec<Step> = g
                        .steps()
                        .into_iter()
                        .filter(|s| matches!(s, Step::Play(m) if pos.is_capture(*m) || m.promotion().is_some()))
                        .collect();
                    assert_eq!(g.noisy_steps(), noisy, "{id}: {}", g.pos.to_fen());
                    for step in g.steps() {
                        let Step::Play(mv) = step else { continue };
                        let mut whole = g.clone();
                        assert!(whole.play_as_whole_turn(mv), "{id}");
                        let mut stepped = g.clone();
                        let before = stepped.turns.len();
                        stepped.play_unchecked(step);
                        if stepped.turns.len() == before && stepped.end.is_none() {
                            two_moves += 1;
                            stepped.play_unchecked(Step::Stop);
                        }
                        assert_eq!(state(&whole), state(&stepped), "{id}: {mv:?}");
                    }
                }
                let step = pick(&g, &mut rng).expect("a game not over has a step");
                g.play_unchecked(step);
            }
            // Not at a turn's start: refused, nothing played.
            if let Some(Step::Play(mv)) = g.steps().into_iter().find(|s| *s != Step::Stop)
                && g.turn.moves > 0
            {
                let before = state(&g);
                assert!(!g.play_as_whole_turn(mv));
                assert_eq!(state(&g), before);
            }
        }
        // Turns that could have had a second move were among those played whole.
        assert!(two_moves > 20, "{two_moves}");
    }

    #[test]
    fn steps_and_handed_turns_taken_back_leave_the_game_as_it_was() {
        let catalog = Catalog::builtin();
        for (id, seed) in [("hexachess-3", 1), ("hexachess-3", 2), ("hexachess-4", 3)] {
            let rules = Arc::clone(catalog.get(id).unwrap().rules());
            let mut rng = StdRng::seed_from_u64(seed);
            let mut g = Game::new(rules);
            let mut restored = 0;
            for _ in 0..600 {
                if g.end.is_some() {
                    break;
                }
                // From here, a few steps (across turns, a turn handed on), then back.
                let before = state(&g);
                let saved = g.save();
                for _ in 0..rng.random_range(1..8) {
                    if rng.random_bool(0.15) {
                        let side = Side::ALL[rng.random_range(0..g.sides().count())];
                        g.hand_to(side);
                    }
                    match pick(&g, &mut rng) {
                        Some(step) => g.play_unchecked(step),
                        None => break,
                    }
                }
                g.restore(saved);
                assert_eq!(state(&g), before, "{id}");
                restored += 1;
                let step = pick(&g, &mut rng).expect("a game not over has a step");
                g.play_unchecked(step);
                // The attack maps kept through the steps taken back are the board's.
                assert_eq!(g.attack_maps(), g.find_attacks(), "{id}");
            }
            assert!(restored > 30, "{id}: {restored}");
        }
    }
}
