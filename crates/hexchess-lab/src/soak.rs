//! The soak: many fast engine games in every variant, checked move by move, and a long
//! run of searches in one process, watched for memory growth and for searches that do
//! not stop when told.
//!
//! Each game is the engine against itself from the start position with a small node
//! budget per move and a little randomness (a few random first moves), so games differ.
//! Every move it plays must be legal, and every game must end by a rule (mate,
//! stalemate, repetition, the move rule, bare kings); a game that reaches the ply limit
//! is a failure. The searches run with [`SoakConfig::threads`] threads and are stopped
//! at random moments from another thread: each must come back within a second.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use hexchess_core::{Catalog, GameOutcome, Position, Rules, Termination};
use hexchess_engine::{SearchLimits, SearchOptions, Searcher};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// What to soak.
#[derive(Clone, Debug)]
pub struct SoakConfig {
    /// The variants, by id; every loaded one when empty.
    pub variants: Vec<String>,
    /// Games per variant.
    pub games: usize,
    /// Nodes per move in the games.
    pub nodes: u64,
    /// Searches to run after the games, each stopped at a random moment.
    pub searches: usize,
    /// Threads each search uses.
    pub threads: usize,
    /// Seeds the games' random choices (the same seed, the same games).
    pub seed: u64,
    /// A game still going after this many plies fails the soak.
    pub max_plies: usize,
}

impl Default for SoakConfig {
    fn default() -> Self {
        SoakConfig {
            variants: Vec::new(),
            games: 10,
            nodes: 2_000,
            searches: 0,
            threads: 1,
            seed: 1,
            max_plies: 1_000,
        }
    }
}

/// What a soak found.
#[derive(Clone, Debug, Default)]
pub struct SoakReport {
    /// Per variant, how its games ended: termination -> count.
    pub endings: BTreeMap<String, BTreeMap<String, usize>>,
    /// Games in all.
    pub games: usize,
    /// Plies played in them.
    pub plies: usize,
    /// Searches run after the games.
    pub searches: usize,
    /// The longest time one of them took to stop.
    pub slowest_stop: Duration,
    /// Resident memory (KiB) before the first game, after the games, and after the
    /// searches; `None` where the system does not tell.
    pub memory_kib: [Option<u64>; 3],
    /// Everything that went wrong.
    pub failures: Vec<String>,
}

impl SoakReport {
    /// Whether nothing went wrong.
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }
}

impl fmt::Display for SoakReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} games, {} plies", self.games, self.plies)?;
        for (variant, endings) in &self.endings {
            let list: Vec<String> = endings.iter().map(|(t, n)| format!("{t} {n}")).collect();
            writeln!(f, "  {variant:<10} {}", list.join(", "))?;
        }
        if self.searches > 0 {
            writeln!(
                f,
                "{} searches stopped at random moments; the slowest stopped in {} ms",
                self.searches,
                self.slowest_stop.as_millis()
            )?;
        }
        let kib = |m: Option<u64>| m.map_or("?".to_string(), |k| format!("{k} KiB"));
        writeln!(
            f,
            "memory (resident): start {}, after the games {}, after the searches {}",
            kib(self.memory_kib[0]),
            kib(self.memory_kib[1]),
            kib(self.memory_kib[2])
        )?;
        if self.failures.is_empty() {
            write!(f, "no failures")
        } else {
            writeln!(f, "{} failures:", self.failures.len())?;
            for e in &self.failures {
                writeln!(f, "  {e}")?;
            }
            Ok(())
        }
    }
}

/// This process's resident memory in KiB, where the system tells (Linux).
pub fn resident_kib() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4)
}

/// Runs the soak; `progress` hears of each finished game.
pub fn run(catalog: &Catalog, config: &SoakConfig, mut progress: impl FnMut(&str)) -> SoakReport {
    let mut report = SoakReport {
        memory_kib: [resident_kib(), None, None],
        ..SoakReport::default()
    };
    let mut rng = StdRng::seed_from_u64(config.seed);
    let mut searcher = Searcher::new(SearchOptions {
        hash_mb: 16,
        threads: config.threads,
        ..SearchOptions::default()
    });
    for entry in catalog.entries() {
        if !config.variants.is_empty() && !config.variants.iter().any(|v| v == entry.id()) {
            continue;
        }
        // The two-player search soaks here; games of more sides have `round-robin`.
        let Some(rules) = entry.two_player_rules() else {
            continue;
        };
        for game in 0..config.games {
            searcher.clear();
            let result = play_game(&rules, config, &mut searcher, &mut rng);
            report.games += 1;
            match result {
                Ok((outcome, plies)) => {
                    report.plies += plies;
                    let ending = outcome.termination.to_string();
                    *report
                        .endings
                        .entry(entry.id().to_string())
                        .or_default()
                        .entry(ending.clone())
                        .or_default() += 1;
                    progress(&format!(
                        "{} game {}: {ending} after {plies} plies",
                        entry.id(),
                        game + 1
                    ));
                }
                Err(e) => {
                    progress(&format!("{} game {}: FAILED {e}", entry.id(), game + 1));
                    report
                        .failures
                        .push(format!("{} game {}: {e}", entry.id(), game + 1));
                }
            }
        }
    }
    report.memory_kib[1] = resident_kib();
    stop_searches(catalog, config, &mut searcher, &mut rng, &mut report);
    report.memory_kib[2] = resident_kib();
    report
}

/// One game of the engine against itself; how it ended and its length.
fn play_game(
    rules: &Arc<Rules>,
    config: &SoakConfig,
    searcher: &mut Searcher,
    rng: &mut StdRng,
) -> Result<(GameOutcome, usize), String> {
    let mut pos = Position::start(Arc::clone(rules));
    let stop = Arc::new(AtomicBool::new(false));
    // A few random first moves, so that games differ.
    let opening = rng.random_range(0..4);
    while pos.ply_count() < config.max_plies {
        if let Some(outcome) = pos.outcome() {
            if !ended_by_rule(outcome.termination) {
                return Err(format!(
                    "ended by {} in {}",
                    outcome.termination,
                    pos.to_fen()
                ));
            }
            return Ok((outcome, pos.ply_count()));
        }
        let legal = pos.legal_moves();
        let mv = if pos.ply_count() < opening {
            legal[rng.random_range(0..legal.len())]
        } else {
            let limits = SearchLimits {
                nodes: Some(config.nodes),
                ..SearchLimits::default()
            };
            let result = searcher.search(&mut pos.clone(), &limits, &stop, &mut |_| {});
            let best = result
                .best
                .ok_or_else(|| format!("no move in {}, which has legal moves", pos.to_fen()))?;
            if !legal.contains(&best) {
                return Err(format!("illegal move {best:?} in {}", pos.to_fen()));
            }
            best
        };
        pos.make_move(mv);
        if pos.hash() != pos.compute_hash() {
            return Err(format!("the hash drifted in {}", pos.to_fen()));
        }
    }
    Err(format!(
        "no rule ended the game in {} plies: {}",
        config.max_plies,
        pos.to_fen()
    ))
}

/// Searches that would run long, each stopped from another thread at a random moment
/// within 30 ms; each must return within a second with a legal move.
fn stop_searches(
    catalog: &Catalog,
    config: &SoakConfig,
    searcher: &mut Searcher,
    rng: &mut StdRng,
    report: &mut SoakReport,
) {
    let rules: Vec<Arc<Rules>> = catalog
        .entries()
        .iter()
        .filter_map(|e| e.two_player_rules())
        .collect();
    for i in 0..config.searches {
        let mut pos = Position::start(Arc::clone(&rules[i % rules.len()]));
        for _ in 0..rng.random_range(0..20) {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            pos.make_move(legal[rng.random_range(0..legal.len())]);
        }
        if pos.legal_moves().is_empty() {
            continue;
        }
        let stop = Arc::new(AtomicBool::new(false));
        let delay = Duration::from_micros(rng.random_range(0..30_000));
        let stopper = {
            let stop = Arc::clone(&stop);
            std::thread::spawn(move || {
                std::thread::sleep(delay);
                stop.store(true, Ordering::Relaxed);
                Instant::now()
            })
        };
        let limits = SearchLimits {
            infinite: true,
            ..SearchLimits::default()
        };
        let result = searcher.search(&mut pos.clone(), &limits, &stop, &mut |_| {});
        let returned = Instant::now();
        let stopped_at = stopper.join().unwrap_or(returned);
        let took = returned.saturating_duration_since(stopped_at);
        report.slowest_stop = report.slowest_stop.max(took);
        report.searches += 1;
        if took > Duration::from_secs(1) {
            report
                .failures
                .push(format!("search {i} took {} ms to stop", took.as_millis()));
        }
        if !result.best.is_some_and(|m| pos.legal_moves().contains(&m)) {
            report
                .failures
                .push(format!("search {i} gave no legal move in {}", pos.to_fen()));
        }
    }
}

/// Whether a game ended by a rule: every termination the board decides.
pub fn ended_by_rule(termination: Termination) -> bool {
    !matches!(
        termination,
        Termination::Resignation
            | Termination::Time
            | Termination::Agreement
            | Termination::Adjudication
            | Termination::IllegalMove
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_soak_plays_every_variant_to_a_rule_and_stops_every_search() {
        let config = SoakConfig {
            games: 1,
            nodes: 300,
            searches: 4,
            threads: 2,
            max_plies: 1_000,
            ..SoakConfig::default()
        };
        let mut lines = Vec::new();
        let report = run(&Catalog::builtin(), &config, |l| lines.push(l.to_string()));
        assert!(report.passed(), "{report}");
        // The two-player built-ins (a game of more sides is not soaked here).
        let builtins = Catalog::builtin()
            .entries()
            .iter()
            .filter(|e| e.two_player.is_some())
            .count();
        assert_eq!(builtins, 7);
        assert_eq!(report.games, builtins);
        assert_eq!(report.endings.len(), builtins, "{report}");
        assert_eq!(lines.len(), builtins);
        assert_eq!(report.searches, 4);
        assert!(report.slowest_stop < Duration::from_secs(1));
        for endings in report.endings.values() {
            for name in endings.keys() {
                assert!(!name.is_empty());
            }
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn resident_memory_is_read_on_linux() {
        let kib = resident_kib().expect("Linux has /proc/self/statm");
        assert!(kib > 100, "{kib} KiB");
    }
}
