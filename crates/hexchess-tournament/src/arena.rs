//! Arenas, as lichess runs them: a start and a duration; players come and go; whoever
//! is free is paired again at once; points per game, more for a winning streak and for a
//! berserk win. This module holds the rules of the scoring and of the pairing as pure
//! functions; the server feeds them the games as they end and the players as they free.
//!
//! Scoring (lichess's arena rules, with the numbers the issue gives):
//! - a win 2 points, a draw 1, a loss 0;
//! - after two wins in a row a player is *on fire*: each game then scores double (a win
//!   4, a draw 2) until a game is not won, which ends the streak;
//! - a draw in fewer than [`ArenaRules::quick_draw_plies`] plies scores nothing (a draw
//!   agreed at once is not a game);
//! - a player who went berserk (half their clock) and won gets one point more, if the
//!   game lasted at least [`ArenaRules::berserk_plies`] plies (a berserk win by an
//!   opponent's resignation at move 2 is not one).

use std::collections::HashMap;
use std::hash::Hash;

/// A game's result for one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The player won.
    Win,
    /// A draw.
    Draw,
    /// The player lost.
    Loss,
}

/// One finished game, as the player saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// The result.
    pub outcome: Outcome,
    /// The plies the game lasted.
    pub plies: u32,
    /// Whether this player went berserk.
    pub berserk: bool,
}

/// The arena's settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArenaRules {
    /// A draw in fewer plies than this scores nothing (lichess: 10 moves, 20 plies).
    pub quick_draw_plies: u32,
    /// Whether players may go berserk.
    pub berserk: bool,
    /// A berserk win counts its extra point only after this many plies (lichess: 7
    /// moves of the winner, 13 plies).
    pub berserk_plies: u32,
}

impl Default for ArenaRules {
    fn default() -> ArenaRules {
        ArenaRules {
            quick_draw_plies: 20,
            berserk: true,
            berserk_plies: 13,
        }
    }
}

/// One game's points, and whether it was played on fire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scored {
    /// Points it gave.
    pub points: u32,
    /// Whether the player was on fire for it (its points doubled).
    pub on_fire: bool,
}

/// A player's arena so far: their games' points in order, and their streak.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sheet {
    /// Each game's points, oldest first.
    pub games: Vec<Scored>,
    /// Wins in a row so far (the streak: on fire from two).
    pub wins_in_a_row: u32,
}

impl Sheet {
    /// The player's score.
    pub fn score(&self) -> u32 {
        self.games.iter().map(|g| g.points).sum()
    }

    /// Whether their next game scores double.
    pub fn on_fire(&self) -> bool {
        self.wins_in_a_row >= 2
    }

    /// Adds a finished game by `rules`; its points.
    pub fn add(&mut self, rules: &ArenaRules, game: Played) -> Scored {
        let on_fire = self.on_fire();
        let base = match game.outcome {
            Outcome::Win => 2,
            Outcome::Draw if game.plies < rules.quick_draw_plies => 0,
            Outcome::Draw => 1,
            Outcome::Loss => 0,
        };
        let mut points = if on_fire { base * 2 } else { base };
        if rules.berserk
            && game.berserk
            && game.outcome == Outcome::Win
            && game.plies >= rules.berserk_plies
        {
            points += 1;
        }
        self.wins_in_a_row = match game.outcome {
            Outcome::Win => self.wins_in_a_row + 1,
            _ => 0,
        };
        let scored = Scored { points, on_fire };
        self.games.push(scored);
        scored
    }
}

/// A player free to be paired: who, their score and rating, and whom they last met.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Free<P> {
    /// The player.
    pub player: P,
    /// Their arena score.
    pub score: u32,
    /// Their rating in the arena's variant and speed.
    pub rating: i32,
    /// Their last opponent, if any.
    pub last_opponent: Option<P>,
}

/// Pairs the free players: each with the free player nearest in score, then rating,
/// never the one they last met, nor one `may_meet` refuses (two players who would
/// only have each other wait for the next free player). Returns the pairs, the
/// higher ranked first, and who waits.
pub fn pair_free<P: Clone + Eq + Hash>(
    mut free: Vec<Free<P>>,
    may_meet: impl Fn(&P, &P) -> bool,
) -> (Vec<(P, P)>, Vec<P>) {
    free.sort_by(|a, b| b.score.cmp(&a.score).then(b.rating.cmp(&a.rating)));
    let mut taken = vec![false; free.len()];
    let mut pairs = Vec::new();
    for i in 0..free.len() {
        if taken[i] {
            continue;
        }
        let partner = (i + 1..free.len()).find(|&j| {
            !taken[j]
                && may_meet(&free[i].player, &free[j].player)
                && free[i].last_opponent.as_ref() != Some(&free[j].player)
                && free[j].last_opponent.as_ref() != Some(&free[i].player)
        });
        if let Some(j) = partner {
            taken[i] = true;
            taken[j] = true;
            pairs.push((free[i].player.clone(), free[j].player.clone()));
        }
    }
    let waiting = free
        .iter()
        .zip(&taken)
        .filter(|(_, t)| !**t)
        .map(|(f, _)| f.player.clone())
        .collect();
    (pairs, waiting)
}

/// The standings: players by score, then by fewer games (the same points from fewer
/// games rank higher), then by the players' own order; each with their score.
pub fn standings<P: Clone + Eq + Hash + Ord>(sheets: &HashMap<P, Sheet>) -> Vec<(P, u32)> {
    let mut rows: Vec<(&P, &Sheet)> = sheets.iter().collect();
    rows.sort_by(|(pa, a), (pb, b)| {
        b.score()
            .cmp(&a.score())
            .then(a.games.len().cmp(&b.games.len()))
            .then(pa.cmp(pb))
    });
    rows.into_iter()
        .map(|(p, s)| (p.clone(), s.score()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(outcome: Outcome, plies: u32, berserk: bool) -> Played {
        Played {
            outcome,
            plies,
            berserk,
        }
    }

    /// Points by hand: W W (on fire now) W=4 D=2 (streak ends) W=2 L=0.
    #[test]
    fn a_streak_doubles_every_game_until_one_is_not_won() {
        let rules = ArenaRules::default();
        let mut sheet = Sheet::default();
        let points: Vec<u32> = [
            Outcome::Win,
            Outcome::Win,
            Outcome::Win,
            Outcome::Draw,
            Outcome::Win,
            Outcome::Loss,
        ]
        .into_iter()
        .map(|o| sheet.add(&rules, game(o, 40, false)).points)
        .collect();
        assert_eq!(points, [2, 2, 4, 2, 2, 0]);
        assert_eq!(sheet.score(), 12);
        assert!(!sheet.on_fire());
        let fire: Vec<bool> = sheet.games.iter().map(|g| g.on_fire).collect();
        assert_eq!(fire, [false, false, true, true, false, false]);
    }

    #[test]
    fn a_quick_draw_scores_nothing_and_ends_the_streak() {
        let rules = ArenaRules::default();
        let mut sheet = Sheet::default();
        sheet.add(&rules, game(Outcome::Win, 40, false));
        sheet.add(&rules, game(Outcome::Win, 40, false));
        assert!(sheet.on_fire());
        assert_eq!(sheet.add(&rules, game(Outcome::Draw, 19, false)).points, 0);
        assert!(!sheet.on_fire());
        assert_eq!(sheet.add(&rules, game(Outcome::Draw, 20, false)).points, 1);
    }

    /// A berserk win: one point more (not doubled), only after enough plies and only
    /// where the arena allows it; a berserk loss costs nothing more than a loss.
    #[test]
    fn a_berserk_win_adds_one_point_when_it_counts() {
        let rules = ArenaRules::default();
        let mut sheet = Sheet::default();
        assert_eq!(sheet.add(&rules, game(Outcome::Win, 13, true)).points, 3);
        assert_eq!(sheet.add(&rules, game(Outcome::Win, 12, true)).points, 2);
        // On fire now: 4, plus 1.
        assert_eq!(sheet.add(&rules, game(Outcome::Win, 30, true)).points, 5);
        assert_eq!(sheet.add(&rules, game(Outcome::Loss, 30, true)).points, 0);
        let plain = ArenaRules {
            berserk: false,
            ..rules
        };
        assert_eq!(
            Sheet::default()
                .add(&plain, game(Outcome::Win, 30, true))
                .points,
            2
        );
    }

    fn free(
        player: &'static str,
        score: u32,
        rating: i32,
        last: Option<&'static str>,
    ) -> Free<&'static str> {
        Free {
            player,
            score,
            rating,
            last_opponent: last,
        }
    }

    /// Near in score first, then rating; never the last opponent again.
    #[test]
    fn the_free_are_paired_by_score_and_rating_never_twice_in_a_row() {
        let (pairs, waiting) = pair_free(
            vec![
                free("low", 0, 1400, None),
                free("top", 10, 1500, Some("second")),
                free("second", 8, 1900, Some("top")),
                free("third", 8, 1600, None),
                free("mid", 4, 2000, None),
            ],
            |_, _| true,
        );
        assert_eq!(pairs, [("top", "third"), ("second", "mid")]);
        assert_eq!(waiting, ["low"]);
        // Two who only have each other wait.
        let (pairs, waiting) = pair_free(
            vec![free("a", 2, 1500, Some("b")), free("b", 0, 1500, Some("a"))],
            |_, _| true,
        );
        assert!(pairs.is_empty());
        assert_eq!(waiting, ["a", "b"]);
        // Two the arena keeps apart (two engine seats) wait for others.
        let engine = |p: &&str| p.starts_with("engine");
        let (pairs, _) = pair_free(
            vec![
                free("engine1", 4, 1500, None),
                free("engine2", 4, 1500, None),
                free("ann", 2, 1500, None),
                free("bob", 0, 1500, None),
            ],
            |a, b| !(engine(a) && engine(b)),
        );
        assert_eq!(pairs, [("engine1", "ann"), ("engine2", "bob")]);
    }

    /// Whatever the players, nobody is paired twice, with themselves, or with their
    /// last opponent, and everyone is either paired or waiting.
    #[test]
    fn every_free_player_is_paired_once_or_waits() {
        let names: Vec<String> = (0..40).map(|i| format!("p{i}")).collect();
        for seed in 0..200u32 {
            let free: Vec<Free<String>> = names
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    let x = (i as u32 + 7)
                        .wrapping_mul(2_654_435_761)
                        .wrapping_add(seed * 97);
                    Free {
                        player: p.clone(),
                        score: x % 13,
                        rating: 1200 + (x % 900) as i32,
                        last_opponent: x
                            .is_multiple_of(3)
                            .then(|| names[(i + 1) % names.len()].clone()),
                    }
                })
                .collect();
            let last: HashMap<String, Option<String>> = free
                .iter()
                .map(|f| (f.player.clone(), f.last_opponent.clone()))
                .collect();
            let (pairs, waiting) = pair_free(free, |_, _| true);
            let mut seen = std::collections::HashSet::new();
            for (a, b) in &pairs {
                assert_ne!(a, b);
                assert!(seen.insert(a.clone()) && seen.insert(b.clone()));
                assert_ne!(last[a].as_ref(), Some(b));
                assert_ne!(last[b].as_ref(), Some(a));
            }
            for w in &waiting {
                assert!(seen.insert(w.clone()));
            }
            assert_eq!(seen.len(), names.len());
            assert!(waiting.len() <= 2, "seed {seed}: {waiting:?} wait");
        }
    }

    #[test]
    fn standings_go_by_score_then_fewer_games() {
        let rules = ArenaRules::default();
        let mut sheets = HashMap::new();
        let mut a = Sheet::default();
        a.add(&rules, game(Outcome::Win, 30, false));
        a.add(&rules, game(Outcome::Loss, 30, false));
        let mut b = Sheet::default();
        b.add(&rules, game(Outcome::Win, 30, false));
        let mut c = Sheet::default();
        c.add(&rules, game(Outcome::Win, 30, false));
        c.add(&rules, game(Outcome::Win, 30, false));
        sheets.insert("a", a);
        sheets.insert("b", b);
        sheets.insert("c", c);
        assert_eq!(standings(&sheets), [("c", 4), ("b", 2), ("a", 2)]);
    }
}
