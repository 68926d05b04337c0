//! Round robins of the searches for games of more sides: every choice of as many
//! searches as the game has seats, in every seating, until the games asked for are
//! played; each search's points (a win is one point, shared among the winners; a draw
//! shares the point among the sides still in).

use std::collections::BTreeMap;
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

use hexchess_core::bitboard::WideBitboard;
use hexchess_core::game::{Game, Step};
use hexchess_core::outcome::Termination;
use hexchess_core::piece::Side;
use hexchess_core::rules::Rules;
use hexchess_engine::multi::{MultiLimits, MultiSearcher, Player, Strategy};

/// What to play.
#[derive(Clone, Debug)]
pub struct RoundRobinConfig {
    /// The searches that play (each seated in turn in every seat).
    pub strategies: Vec<Player>,
    /// Games at least; the schedule is played in whole cycles (every choice, every
    /// seating), so a few more may be played.
    pub games: usize,
    /// Nodes (whole turns) each search may play out per turn.
    pub nodes: u64,
    /// Turns after which an unfinished game is called drawn among the sides still in.
    pub max_turns: usize,
    /// Seeds the openings and the random searches (the same seed, the same games).
    pub seed: u64,
    /// Games played at once.
    pub threads: usize,
    /// Turns played at random before the searches take over, the same in every game
    /// of a cycle (every seating meets the same opening) and new each cycle: the
    /// searches choose alike every time, so without it a cycle without the random
    /// mover would replay the same games.
    pub opening_turns: usize,
}

/// One game's seats and result.
#[derive(Clone, Debug)]
pub struct GameResult {
    /// The search in each seat, in turn order.
    pub seats: Vec<Player>,
    /// Points of each seat.
    pub points: Vec<f64>,
    /// How it ended; `None` when called at the turn limit.
    pub reason: Option<Termination>,
    /// Turns played.
    pub turns: usize,
    /// The position the game ended in, as hex FEN (to look at the unfinished ones).
    pub final_fen: String,
}

/// Totals of one search.
#[derive(Clone, Debug, Default)]
pub struct Standing {
    /// Games played.
    pub games: usize,
    /// Points won.
    pub points: f64,
    /// Games it won alone.
    pub wins: usize,
    /// Games whose point it shared (team wins, draws).
    pub shared: usize,
}

/// Everything a round robin played.
#[derive(Clone, Debug, Default)]
pub struct RoundRobinReport {
    /// Every game, in the order played.
    pub results: Vec<GameResult>,
}

impl GameResult {
    /// Each player once, with its points: a team's two seats count as one (their
    /// points added: the team's share), so a team game is one game of each team.
    pub fn players(&self) -> Vec<(Player, f64)> {
        let mut out: Vec<(Player, f64)> = Vec::new();
        for (s, p) in self.seats.iter().zip(&self.points) {
            match out.iter_mut().find(|(q, _)| q == s) {
                Some((_, total)) => *total += p,
                None => out.push((*s, *p)),
            }
        }
        out
    }
}

impl RoundRobinReport {
    /// Each search's totals.
    pub fn standings(&self) -> BTreeMap<String, Standing> {
        let mut out: BTreeMap<String, Standing> = BTreeMap::new();
        for r in &self.results {
            let players = r.players();
            let winners = players.iter().filter(|(_, p)| *p > 0.0).count();
            for (s, p) in players {
                let e = out.entry(s.to_string()).or_default();
                e.games += 1;
                e.points += p;
                if p > 0.0 && winners == 1 {
                    e.wins += 1;
                } else if p > 0.0 {
                    e.shared += 1;
                }
            }
        }
        out
    }

    /// For each pair of searches, in the games both played: how often the first scored
    /// more than the second, less, or the same (a game counts once, teams or not).
    pub fn head_to_head(&self) -> BTreeMap<(String, String), (usize, usize, usize)> {
        let mut out: BTreeMap<(String, String), (usize, usize, usize)> = BTreeMap::new();
        for r in &self.results {
            let players = r.players();
            for (a, pa) in &players {
                for (b, pb) in &players {
                    if a == b {
                        continue;
                    }
                    let e = out.entry((a.to_string(), b.to_string())).or_default();
                    match pa.partial_cmp(pb) {
                        Some(std::cmp::Ordering::Greater) => e.0 += 1,
                        Some(std::cmp::Ordering::Less) => e.1 += 1,
                        _ => e.2 += 1,
                    }
                }
            }
        }
        out
    }
}

impl fmt::Display for RoundRobinReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let games = self.results.len();
        writeln!(f, "{games} games")?;
        writeln!(
            f,
            "{:<16} {:>6} {:>8} {:>7} {:>6} {:>7}",
            "search", "games", "points", "share", "wins", "shared"
        )?;
        let mut rows: Vec<(String, Standing)> = self.standings().into_iter().collect();
        rows.sort_by(|a, b| b.1.points.total_cmp(&a.1.points));
        for (name, s) in &rows {
            writeln!(
                f,
                "{name:<16} {:>6} {:>8.1} {:>6.1}% {:>6} {:>7}",
                s.games,
                s.points,
                100.0 * s.points / s.games.max(1) as f64,
                s.wins,
                s.shared
            )?;
        }
        let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
        for r in &self.results {
            let key = r
                .reason
                .map_or("turn limit (drawn)".to_string(), |x| format!("{x:?}"));
            *reasons.entry(key).or_default() += 1;
        }
        writeln!(f, "endings: {reasons:?}")?;
        let turns: usize = self.results.iter().map(|r| r.turns).sum();
        writeln!(
            f,
            "mean turns per game: {:.1}",
            turns as f64 / games.max(1) as f64
        )?;
        writeln!(
            f,
            "head to head (games ahead / behind / level; the chance of a split at least as \
             uneven between equals, by the sign test):"
        )?;
        for ((a, b), (w, l, d)) in self.head_to_head() {
            if a < b {
                let p = sign_test(w, l);
                writeln!(f, "  {a} v {b}: {w} / {l} / {d}  (p = {p:.3})")?;
            }
        }
        Ok(())
    }
}

/// The two-sided sign test: the chance that a fair coin splits `ahead + behind`
/// games at least as unevenly as `ahead` to `behind` (level games left out).
pub fn sign_test(ahead: usize, behind: usize) -> f64 {
    let n = ahead + behind;
    if n == 0 {
        return 1.0;
    }
    let k = ahead.max(behind);
    // P(X >= k) for X ~ Binomial(n, 1/2), summed in logs (n may be hundreds).
    let ln_choose = |n: usize, k: usize| -> f64 {
        (1..=k)
            .map(|i| ((n - k + i) as f64).ln() - (i as f64).ln())
            .sum()
    };
    let tail: f64 = (k..=n)
        .map(|i| (ln_choose(n, i) - n as f64 * std::f64::consts::LN_2).exp())
        .sum();
    (2.0 * tail).min(1.0)
}

/// The team of each seat when every side has a partner (4-player Hexachess: the sides
/// across the board), by its first member's seat; `None` when everyone plays alone.
pub fn teams(rules: &Rules<WideBitboard>) -> Option<Vec<usize>> {
    let sides: Vec<Side> = (0..rules.side_count()).map(Side::from_index).collect();
    let team_of = |s: Side| {
        sides
            .iter()
            .position(|t| *t == s || !rules.enemies(s).contains(t))
            .expect("a side is in its own team")
    };
    let teams: Vec<usize> = sides.iter().map(|s| team_of(*s)).collect();
    let alone = teams.iter().enumerate().all(|(i, t)| *t == i)
        && sides
            .iter()
            .all(|s| rules.enemies(*s).len() + 1 == sides.len());
    (!alone).then_some(teams)
}

/// The games of one cycle: with teams, every ordered pair of players, the first on
/// every seat of the first team and the second on the other's (a search plays with
/// itself as partner); otherwise every seating of every choice of as many players as
/// there are seats.
pub fn cycle(players: &[Player], seats: usize, teams: Option<&[usize]>) -> Vec<Vec<Player>> {
    let Some(teams) = teams else {
        return schedule(players, seats);
    };
    let mut out = Vec::new();
    for a in players {
        for b in players.iter().filter(|b| *b != a) {
            out.push(
                teams
                    .iter()
                    .map(|t| if *t == teams[0] { *a } else { *b })
                    .collect(),
            );
        }
    }
    out
}

/// Every seating of every choice of `seats` searches among `strategies`.
pub fn schedule(strategies: &[Player], seats: usize) -> Vec<Vec<Player>> {
    let mut out = Vec::new();
    for choice in choices(strategies, seats) {
        permute(
            &choice,
            &mut Vec::new(),
            &mut vec![false; choice.len()],
            &mut out,
        );
    }
    out
}

fn choices(items: &[Player], k: usize) -> Vec<Vec<Player>> {
    if k == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for (i, x) in items.iter().enumerate() {
        for mut rest in choices(&items[i + 1..], k - 1) {
            rest.insert(0, *x);
            out.push(rest);
        }
    }
    out
}

fn permute(
    items: &[Player],
    current: &mut Vec<Player>,
    used: &mut [bool],
    out: &mut Vec<Vec<Player>>,
) {
    if current.len() == items.len() {
        out.push(current.clone());
        return;
    }
    for i in 0..items.len() {
        if !used[i] {
            used[i] = true;
            current.push(items[i]);
            permute(items, current, used, out);
            current.pop();
            used[i] = false;
        }
    }
}

/// Plays one game with `seats` (in turn order).
pub fn play_game(
    rules: &Arc<Rules<WideBitboard>>,
    seats: &[Player],
    nodes: u64,
    max_turns: usize,
    seed: u64,
    opening: &[Vec<Step>],
) -> GameResult {
    let mut game = Game::new(Arc::clone(rules));
    for steps in opening {
        for step in steps {
            assert!(game.play(*step).is_ok(), "an opening turn the rules refuse");
        }
    }
    let mut searchers: Vec<MultiSearcher> = seats
        .iter()
        .enumerate()
        .map(|(i, p)| MultiSearcher::for_player(*p, seed.wrapping_mul(31).wrapping_add(i as u64)))
        .collect();
    let stop = Arc::new(AtomicBool::new(false));
    let limits = MultiLimits::nodes(nodes);
    while game.end().is_none() && game.turns().len() < max_turns {
        let seat = game.side_to_move().index();
        let Some(choice) = searchers[seat].choose(&game, &limits, &stop) else {
            break;
        };
        for step in choice.steps {
            assert!(
                game.play(step).is_ok(),
                "a search chose a step the rules refuse"
            );
        }
    }
    let sides: Vec<Side> = game.sides().collect();
    let (points, reason) = match game.end() {
        Some(end) => {
            // The point shared exactly (a third is not a thousandth short).
            let winners = end.winners();
            let share = 1.0 / winners.len().max(1) as f64;
            (
                sides
                    .iter()
                    .map(|s| if winners.contains(s) { share } else { 0.0 })
                    .collect(),
                Some(end.termination),
            )
        }
        None => {
            let sides_in = game.sides_in();
            let share = 1.0 / sides_in.len() as f64;
            (
                sides
                    .iter()
                    .map(|s| if sides_in.contains(s) { share } else { 0.0 })
                    .collect(),
                None,
            )
        }
    };
    GameResult {
        seats: seats.to_vec(),
        points,
        reason,
        turns: game.turns().len(),
        final_fen: game.to_fen(),
    }
}

/// `turns` whole turns chosen at random (a random step at each step) from the start,
/// fewer if the game ends first.
pub fn random_opening(rules: &Arc<Rules<WideBitboard>>, turns: usize, seed: u64) -> Vec<Vec<Step>> {
    let mut game = Game::new(Arc::clone(rules));
    let mut mover = MultiSearcher::new(Strategy::Random, seed);
    let stop = Arc::new(AtomicBool::new(false));
    let mut out = Vec::new();
    while out.len() < turns && game.end().is_none() {
        let Some(choice) = mover.choose(&game, &MultiLimits::nodes(1), &stop) else {
            break;
        };
        for step in &choice.steps {
            assert!(game.play(*step).is_ok(), "the random mover's step is legal");
        }
        out.push(choice.steps);
    }
    out
}

/// Why a round robin cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RoundRobinError {
    /// Fewer different searches than the game has seats: no game could be seated.
    TooFewSearches {
        /// Seats in the game.
        seats: usize,
        /// Searches given.
        given: usize,
    },
    /// Fewer different searches than a team game has teams.
    TooFewTeams {
        /// Teams in the game.
        teams: usize,
        /// Searches given.
        given: usize,
    },
    /// A search given twice (a game seats different searches).
    Repeated(Player),
}

impl fmt::Display for RoundRobinError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RoundRobinError::TooFewSearches { seats, given } => write!(
                f,
                "the game has {seats} seats but {given} search{} given: give at least {seats} \
                 different searches with --search ({}), or none for all of them",
                if *given == 1 { " is" } else { "es are" },
                Strategy::ALL.map(|s| s.name()).join(", ")
            ),
            RoundRobinError::TooFewTeams { teams, given } => write!(
                f,
                "the game has {teams} teams but {given} search{} given: give at least {teams} \
                 different searches with --search, or none for all of them",
                if *given == 1 { " is" } else { "es are" },
            ),
            RoundRobinError::Repeated(s) => {
                write!(f, "--search '{s}' twice: each search plays once per game")
            }
        }
    }
}

impl std::error::Error for RoundRobinError {}

/// Checks that `players` can fill a game of `seats` seats (or, with teams, its teams):
/// all different, and at least as many as the seats (the teams).
pub fn check_strategies(
    players: &[Player],
    seats: usize,
    teams: Option<&[usize]>,
) -> Result<(), RoundRobinError> {
    for (i, s) in players.iter().enumerate() {
        if players[..i].contains(s) {
            return Err(RoundRobinError::Repeated(*s));
        }
    }
    let given = players.len();
    match teams {
        Some(t) => {
            let mut distinct = t.to_vec();
            distinct.sort_unstable();
            distinct.dedup();
            if given < distinct.len() {
                let teams = distinct.len();
                return Err(RoundRobinError::TooFewTeams { teams, given });
            }
        }
        None if given < seats => return Err(RoundRobinError::TooFewSearches { seats, given }),
        None => {}
    }
    Ok(())
}

/// Plays the round robin on `threads` threads; `progress` hears of each game. The games
/// are handed out as they are played, one cycle of the schedule after another, so a
/// large count costs no memory before its games are played.
pub fn run(
    rules: &Arc<Rules<WideBitboard>>,
    config: &RoundRobinConfig,
    progress: &(dyn Fn(usize, &GameResult) + Sync),
) -> Result<RoundRobinReport, RoundRobinError> {
    let teams = teams(rules);
    check_strategies(&config.strategies, rules.side_count(), teams.as_deref())?;
    let cycle = cycle(&config.strategies, rules.side_count(), teams.as_deref());
    let total = config
        .games
        .div_ceil(cycle.len())
        .saturating_mul(cycle.len());
    let jobs = (0..total).map(|i| (i, cycle[i % cycle.len()].clone()));
    let openings: Vec<Vec<Vec<Step>>> = (0..total.div_ceil(cycle.len()))
        .map(|c| random_opening(rules, config.opening_turns, config.seed ^ (c as u64) << 32))
        .collect();
    let queue = Mutex::new(jobs);
    let results = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..config.threads.max(1) {
            scope.spawn(|| {
                loop {
                    let next = queue.lock().expect("queue").next();
                    let Some((i, seats)) = next else { break };
                    let r = play_game(
                        rules,
                        &seats,
                        config.nodes,
                        config.max_turns,
                        config.seed.wrapping_add(i as u64),
                        &openings[i / cycle.len()],
                    );
                    progress(i, &r);
                    results.lock().expect("results").push((i, r));
                }
            });
        }
    });
    let mut results = results.into_inner().expect("results");
    results.sort_by_key(|(i, _)| *i);
    Ok(RoundRobinReport {
        results: results.into_iter().map(|(_, r)| r).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all() -> Vec<Player> {
        Strategy::ALL.map(Player::new).to_vec()
    }

    #[test]
    fn the_schedule_seats_every_choice_in_every_order() {
        let s = schedule(&all(), 3);
        // 4 choices of 3, 6 seatings each.
        assert_eq!(s.len(), 24);
        let distinct: std::collections::HashSet<_> = s.iter().collect();
        assert_eq!(distinct.len(), 24);
        for player in all() {
            for seat in 0..3 {
                assert_eq!(s.iter().filter(|g| g[seat] == player).count(), 6);
            }
        }
    }

    #[test]
    fn a_team_game_seats_each_search_with_itself_against_every_other() {
        let catalog = hexchess_core::Catalog::builtin();
        let four = catalog.get("hexachess-4").expect("built in").rules();
        let teams = teams(four).expect("4-player Hexachess has teams");
        assert_eq!(teams, vec![0, 1, 0, 1]);
        let three = catalog.get("hexachess-3").expect("built in").rules();
        assert_eq!(super::teams(three), None);
        let players = all();
        let games = cycle(&players, 4, Some(&teams));
        // Every ordered pair: 4 x 3.
        assert_eq!(games.len(), 12);
        for g in &games {
            assert_eq!(g[0], g[2]);
            assert_eq!(g[1], g[3]);
            assert_ne!(g[0], g[1]);
        }
        assert_eq!(
            check_strategies(&players[..1], 4, Some(&teams)),
            Err(RoundRobinError::TooFewTeams { teams: 2, given: 1 })
        );
        assert_eq!(check_strategies(&players[..2], 4, Some(&teams)), Ok(()));
    }

    #[test]
    fn a_team_game_counts_once_for_each_team() {
        let [brs, paranoid, ..] = Strategy::ALL.map(Player::new);
        let game = GameResult {
            seats: vec![brs, paranoid, brs, paranoid],
            points: vec![0.5, 0.0, 0.5, 0.0],
            reason: Some(Termination::Checkmate),
            turns: 40,
            final_fen: String::new(),
        };
        let report = RoundRobinReport {
            results: vec![game],
        };
        let table = report.standings();
        assert_eq!(table["brs"].games, 1);
        assert_eq!(table["brs"].points, 1.0);
        assert_eq!(table["brs"].wins, 1);
        assert_eq!(table["paranoid"].games, 1);
        assert_eq!(table["paranoid"].points, 0.0);
        let h = report.head_to_head();
        assert_eq!(h[&("brs".to_string(), "paranoid".to_string())], (1, 0, 0));
    }

    #[test]
    fn openings_differ_by_seed_and_replay_alike() {
        let catalog = hexchess_core::Catalog::builtin();
        let three = catalog.get("hexachess-3").expect("built in").rules();
        let a = random_opening(three, 3, 1);
        assert_eq!(a.len(), 3);
        assert_eq!(a, random_opening(three, 3, 1));
        assert_ne!(a, random_opening(three, 3, 1 << 32));
        assert!(random_opening(three, 0, 1).is_empty());
        // Two searches that choose alike: one game, played twice, is the same game;
        // after different openings, two games.
        let seats = [
            Player::new(Strategy::Paranoid),
            Player::new(Strategy::MaxN),
            Player::new(Strategy::BestReply),
        ];
        let game = |opening: &[Vec<Step>]| play_game(three, &seats, 30, 12, 5, opening);
        let (x, y) = (game(&a), game(&a));
        assert_eq!((x.points, x.turns), (y.points, y.turns));
        assert_eq!(x.reason, y.reason);
    }

    #[test]
    fn the_sign_test_matches_the_binomial_by_hand() {
        // 8 of 10: P(X >= 8) = (45 + 10 + 1) / 1024; two-sided, twice that.
        assert!((sign_test(8, 2) - 2.0 * 56.0 / 1024.0).abs() < 1e-12);
        assert!((sign_test(2, 8) - sign_test(8, 2)).abs() < 1e-12);
        assert_eq!(sign_test(5, 5), 1.0);
        assert_eq!(sign_test(0, 0), 1.0);
        // 150 to 100: about 0.0019 (normal approximation 0.0016).
        let p = sign_test(150, 100);
        assert!(p > 0.001 && p < 0.003, "{p}");
    }

    #[test]
    fn a_round_robin_needs_different_searches_for_every_seat() {
        let [brs, paranoid, maxn, _] = Strategy::ALL.map(Player::new);
        let refused = check_strategies(&[paranoid], 3, None).unwrap_err();
        assert_eq!(
            refused,
            RoundRobinError::TooFewSearches { seats: 3, given: 1 }
        );
        let text = refused.to_string();
        assert!(
            text.starts_with("the game has 3 seats but 1 search is given"),
            "{text}"
        );
        assert_eq!(
            check_strategies(&[brs, maxn, brs], 3, None),
            Err(RoundRobinError::Repeated(brs))
        );
        assert_eq!(check_strategies(&[brs, maxn, paranoid], 3, None), Ok(()));
        assert!(check_strategies(&all(), 4, None).is_ok());
        // A search and its plain self are different players.
        let plain: Player = "paranoid:plain".parse().unwrap();
        assert_eq!(check_strategies(&[paranoid, plain, brs], 3, None), Ok(()));
    }
}
