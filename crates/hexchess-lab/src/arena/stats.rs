//! Match statistics: score, Elo difference and its error margin (per game, and per pair
//! of games as fastchess gives it), the pentanomial counts of the pairs, the likelihood
//! of superiority, and the sequential probability ratio test that stops a match once
//! its result is clear.

use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

/// The running result of a match, from the first engine's side.
#[derive(Clone, Debug)]
pub struct MatchSummary {
    /// The first engine's name.
    pub first: String,
    /// The second engine's name.
    pub second: String,
    /// Points of the first engine in each game (0, 1/4, 1/2, 3/4 or 1).
    points: Vec<f64>,
    /// Games whose partner (the same opening with colours swapped) is still being
    /// played: game index to points.
    unpaired: HashMap<usize, f64>,
    /// The first engine's mean points over each finished pair of games.
    pairs: Vec<f64>,
    /// Finished pairs by the first engine's points in them, each game counted as a
    /// win, a draw or a loss: 0, 1/2, 1, 3/2 and 2.
    pentanomial: [usize; 5],
    sprt: Option<Sprt>,
    /// The test's decision and the number of games it was reached after.
    verdict: Option<(SprtVerdict, usize)>,
    /// Games that could not be played to a result (an engine failed to start or
    /// broke the protocol), each with why: not scored, but never silently dropped.
    failures: Vec<String>,
}

/// The error function, by Abramowitz and Stegun's formula 7.1.26: within 1.5e-7 of the
/// true value for every `x` (no crate for one function; the LOS needs no more).
pub fn erf(x: f64) -> f64 {
    const P: f64 = 0.327_591_1;
    const A: [f64; 5] = [
        0.254_829_592,
        -0.284_496_736,
        1.421_413_741,
        -1.453_152_027,
        1.061_405_429,
    ];
    let t = 1.0 / (1.0 + P * x.abs());
    // a1 t + a2 t^2 + ... + a5 t^5, by Horner's rule.
    let poly = A.iter().rev().fold(0.0, |acc, a| (acc + a) * t);
    let y = 1.0 - poly * (-x * x).exp();
    y.copysign(x)
}

/// The likelihood of superiority: how sure `wins` and `losses` make it that the first
/// engine is the stronger, `(1 + erf((W - L) / sqrt(2 (W + L)))) / 2`. Draws say nothing
/// about which is stronger and are left out; with no decisive game it is 1/2.
pub fn los(wins: usize, losses: usize) -> f64 {
    if wins + losses == 0 {
        return 0.5;
    }
    let (w, l) = (wins as f64, losses as f64);
    0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
}

/// A game's points as a win (2), a draw (1) or a loss (0), the way the win-draw-loss
/// counts see it: a 3/4 stalemate win is a win, its 1/4 a loss.
fn game_class(points: f64) -> usize {
    if points > 0.5 {
        2
    } else if points == 0.5 {
        1
    } else {
        0
    }
}

/// Elo difference for an expected score.
pub fn elo(score: f64) -> f64 {
    let s = score.clamp(1e-3, 1.0 - 1e-3);
    // Adding zero turns an even score's -0 into 0 for printing.
    -400.0 * (1.0 / s - 1.0).log10() + 0.0
}

impl MatchSummary {
    /// No game yet between the engines named.
    pub fn new(first: String, second: String) -> MatchSummary {
        MatchSummary {
            first,
            second,
            points: Vec::new(),
            unpaired: HashMap::new(),
            pairs: Vec::new(),
            pentanomial: [0; 5],
            sprt: None,
            verdict: None,
            failures: Vec::new(),
        }
    }

    /// The same summary, also running `sprt` as games come in.
    pub fn with_sprt(mut self, sprt: Sprt) -> MatchSummary {
        self.sprt = Some(sprt);
        self
    }

    /// Records a game that ended without a result.
    pub fn add_failure(&mut self, why: String) {
        self.failures.push(why);
    }

    /// The games that ended without a result, and why.
    pub fn failures(&self) -> &[String] {
        &self.failures
    }

    /// Records game `index` (games `2k` and `2k + 1` are one opening played with each
    /// colour), where the first engine scored `points`.
    pub fn add(&mut self, index: usize, points: f64) {
        self.points.push(points);
        match self.unpaired.remove(&(index ^ 1)) {
            Some(partner) => {
                self.pairs.push((points + partner) / 2.0);
                self.pentanomial[game_class(points) + game_class(partner)] += 1;
            }
            None => {
                self.unpaired.insert(index, points);
            }
        }
        if let (Some(sprt), None) = (self.sprt, self.verdict) {
            self.verdict = sprt.decide(&self.pairs).map(|v| (v, self.points.len()));
        }
    }

    /// The log-likelihood ratio of the test so far, if one runs.
    pub fn llr(&self) -> Option<f64> {
        self.sprt.map(|s| s.llr(&self.pairs))
    }

    /// The test being run, if any.
    pub fn sprt(&self) -> Option<Sprt> {
        self.sprt
    }

    /// The test's decision, once reached, with the number of games it took.
    pub fn verdict(&self) -> Option<(SprtVerdict, usize)> {
        self.verdict
    }

    /// Games counted so far.
    pub fn games(&self) -> usize {
        self.points.len()
    }

    /// Wins, draws and losses of the first engine (a 3/4 stalemate counts as a win).
    pub fn wdl(&self) -> (usize, usize, usize) {
        let w = self.points.iter().filter(|p| **p > 0.5).count();
        let d = self.points.iter().filter(|p| **p == 0.5).count();
        (w, d, self.points.len() - w - d)
    }

    /// The first engine's points.
    pub fn total(&self) -> f64 {
        self.points.iter().sum()
    }

    /// The first engine's mean score per game.
    pub fn score(&self) -> f64 {
        if self.points.is_empty() {
            0.5
        } else {
            self.total() / self.points.len() as f64
        }
    }

    /// Finished pairs of games (one opening, each engine White once) by the first
    /// engine's points in them: `[0, 1/2, 1, 3/2, 2]`, each game counted as a win, a
    /// draw or a loss as in [`MatchSummary::wdl`] (a pair of a 3/4 win and a draw is a
    /// 3/2). A game whose partner is not finished is not in it.
    pub fn pentanomial(&self) -> [usize; 5] {
        self.pentanomial
    }

    /// The likelihood that the first engine is the stronger, from its wins and losses
    /// (see [`los`]).
    pub fn los(&self) -> f64 {
        let (w, _, l) = self.wdl();
        los(w, l)
    }

    /// Elo difference (first minus second) and the half-width of its 95% interval from
    /// the finished pairs of games, as fastchess gives it: the mean of the pairs' scores
    /// (each normalised to 0..1) and their variance over the pairs. A pair's two games
    /// share an opening, so a pair's score takes out the opening's share of the spread
    /// that the per-game interval of [`MatchSummary::elo`] counts as chance: the pair
    /// interval is the narrower one when openings favour a side. With whole-point games
    /// this is the pentanomial model's variance; with 3/4 stalemates each pair counts
    /// its exact score. Infinite margin below two pairs.
    pub fn pair_elo(&self) -> (f64, f64) {
        let n = self.pairs.len() as f64;
        let s = if n > 0.0 {
            self.pairs.iter().sum::<f64>() / n
        } else {
            0.5
        };
        if n < 2.0 {
            return (elo(s), f64::INFINITY);
        }
        let var = self.pairs.iter().map(|p| (p - s).powi(2)).sum::<f64>() / n;
        let se = (var / n).sqrt();
        let hi = elo((s + 1.96 * se).min(0.999));
        let lo = elo((s - 1.96 * se).max(0.001));
        (elo(s), (hi - lo) / 2.0)
    }

    /// The pair statistics as one line (see [`PairReport`]).
    pub fn pair_report(&self) -> PairReport<'_> {
        PairReport(self)
    }

    /// Elo difference (first minus second) and the half-width of its 95% interval,
    /// from the spread of the per-game scores.
    pub fn elo(&self) -> (f64, f64) {
        let n = self.points.len() as f64;
        let s = self.score();
        if n < 2.0 {
            return (elo(s), f64::INFINITY);
        }
        let var = self.points.iter().map(|p| (p - s).powi(2)).sum::<f64>() / (n - 1.0);
        let se = (var / n).sqrt();
        let hi = elo((s + 1.96 * se).min(0.999));
        let lo = elo((s - 1.96 * se).max(0.001));
        (elo(s), (hi - lo) / 2.0)
    }
}

impl fmt::Display for MatchSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (w, d, l) = self.wdl();
        let (e, margin) = self.elo();
        // Rounded here, so that a score a hair under even prints +0 rather than -0.
        let e = e.round() + 0.0;
        write!(
            f,
            "{} vs {}: {} games, +{w} ={d} -{l}, score {:.1}/{} ({:.1}%), Elo {:+.0} +/- {:.0}",
            self.first,
            self.second,
            self.games(),
            self.total(),
            self.games(),
            100.0 * self.score(),
            e,
            margin
        )?;
        if !self.failures.is_empty() {
            write!(f, ", {} failed", self.failures.len())?;
        }
        if let Some(sprt) = self.sprt {
            let (lower, upper) = sprt.bounds();
            write!(
                f,
                ", LLR {:.2} ({lower:.2}, {upper:.2})",
                sprt.llr(&self.pairs)
            )?;
        }
        Ok(())
    }
}

/// The pentanomial counts, the Elo from the pairs and the LOS, as a line:
/// `Ptnml(0-2): [1, 2, 3, 3, 1], pair Elo +17 +/- 128, LOS: 66.4 %`.
pub struct PairReport<'a>(&'a MatchSummary);

impl fmt::Display for PairReport<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [ll, ld, even, wd, ww] = self.0.pentanomial();
        let (e, margin) = self.0.pair_elo();
        write!(
            f,
            "Ptnml(0-2): [{ll}, {ld}, {even}, {wd}, {ww}], pair Elo {:+.0} +/- {margin:.0}, LOS: {:.1} %",
            e.round() + 0.0,
            100.0 * self.0.los()
        )
    }
}

/// A sequential probability ratio test (SPRT) between two Elo differences: does the
/// first engine lead by `elo0` (H0) or by `elo1` (H1)? A match stops as soon as the
/// evidence is strong enough either way, typically after far fewer games than a fixed
/// match of the same reliability: `alpha` is the chance of accepting H1 when H0 holds,
/// `beta` the chance of accepting H0 when H1 holds. This is the test engine authors run
/// on every change (Elo here is logistic, as in [`elo`]).
///
/// The statistic is the generalized SPRT's normal approximation over game pairs: each
/// opening is played with both colours, so a pair's mean score takes out the colour's
/// and the opening's share of the spread (the "pentanomial" model).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// The Elo difference of the null hypothesis (no gain).
    pub elo0: f64,
    /// The Elo difference of the alternative (the gain looked for).
    pub elo1: f64,
    /// The chance of accepting a gain that is not there.
    pub alpha: f64,
    /// The chance of missing a gain that is.
    pub beta: f64,
}

/// What a finished SPRT concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    /// The first engine's lead is nearer `elo0` (for a patch: not proven better).
    H0,
    /// The first engine's lead is nearer `elo1` (for a patch: proven better).
    H1,
}

impl fmt::Display for SprtVerdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtVerdict::H0 => "H0 accepted (elo0)",
            SprtVerdict::H1 => "H1 accepted (elo1)",
        })
    }
}

/// Why an SPRT's settings were refused.
#[derive(Clone, Debug, PartialEq)]
pub enum SprtError {
    /// Not two or four comma-separated numbers.
    Format(String),
    /// `elo0` must be below `elo1`.
    Order {
        /// The lower bound given.
        elo0: f64,
        /// The upper bound given.
        elo1: f64,
    },
    /// Error rates must lie strictly between 0 and 0.5.
    Rate(f64),
}

impl fmt::Display for SprtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SprtError::Format(s) => write!(
                f,
                "'{s}' is not an SPRT: give ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA (e.g. 0,10)"
            ),
            SprtError::Order { elo0, elo1 } => {
                write!(f, "SPRT elo0 ({elo0}) must be below elo1 ({elo1})")
            }
            SprtError::Rate(r) => write!(f, "SPRT error rate {r} must lie between 0 and 0.5"),
        }
    }
}

impl std::error::Error for SprtError {}

/// Pairs a test waits for before deciding. The spread of a handful of pairs is too rough
/// for the test's normal approximation: one won pair, with no spread at all, would
/// otherwise settle any test at once.
pub const SPRT_MIN_PAIRS: usize = 10;

/// Regularisation of an empty pair outcome (of the five a pair of whole-point games
/// gives), as fishtest does: without it a match of nothing but won pairs has no spread
/// and no likelihood ratio.
const EMPTY_OUTCOME: f64 = 1e-3;

/// The expected score of a player `elo` points stronger.
fn expected(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl Sprt {
    /// A test with error rates `alpha` and `beta`.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, SprtError> {
        // Written so that a NaN (which "nan" parses to) is refused too.
        if !elo0.is_finite() || !elo1.is_finite() || elo0 >= elo1 {
            return Err(SprtError::Order { elo0, elo1 });
        }
        for r in [alpha, beta] {
            if !(r > 0.0 && r < 0.5) {
                return Err(SprtError::Rate(r));
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The log-likelihood ratios at which H0 (below the lower) or H1 (above the upper)
    /// is accepted.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 given the mean score of each pair of
    /// games: `n (s1 - s0) (2 m - s0 - s1) / (2 v)` for `n` pairs of mean `m` and
    /// variance `v`, `s0` and `s1` the expected scores of the two hypotheses.
    pub fn llr(&self, pairs: &[f64]) -> f64 {
        if pairs.is_empty() {
            return 0.0;
        }
        // Count each outcome; the five whole-point outcomes are always present.
        let mut counts: Vec<(f64, f64)> = [0.0, 0.25, 0.5, 0.75, 1.0]
            .iter()
            .map(|&x| (x, 0.0))
            .collect();
        for &p in pairs {
            match counts.iter_mut().find(|(x, _)| (*x - p).abs() < 1e-9) {
                Some((_, c)) => *c += 1.0,
                None => counts.push((p, 1.0)),
            }
        }
        for (_, c) in counts.iter_mut() {
            if *c == 0.0 {
                *c = EMPTY_OUTCOME;
            }
        }
        let n: f64 = counts.iter().map(|(_, c)| c).sum();
        let mean = counts.iter().map(|(x, c)| x * c).sum::<f64>() / n;
        let var = counts
            .iter()
            .map(|(x, c)| c * (x - mean).powi(2))
            .sum::<f64>()
            / n;
        let (s0, s1) = (expected(self.elo0), expected(self.elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    /// The decision the mean scores of these pairs reach, if any (none before
    /// [`SPRT_MIN_PAIRS`] pairs).
    pub fn decide(&self, pairs: &[f64]) -> Option<SprtVerdict> {
        if pairs.len() < SPRT_MIN_PAIRS {
            return None;
        }
        self.verdict(self.llr(pairs))
    }

    /// The decision a log-likelihood ratio reaches, if any.
    pub fn verdict(&self, llr: f64) -> Option<SprtVerdict> {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(SprtVerdict::H1)
        } else if llr <= lower {
            Some(SprtVerdict::H0)
        } else {
            None
        }
    }
}

/// `ELO0,ELO1` (error rates 0.05 each) or `ELO0,ELO1,ALPHA,BETA`.
impl FromStr for Sprt {
    type Err = SprtError;

    fn from_str(s: &str) -> Result<Sprt, SprtError> {
        let numbers: Vec<f64> = s
            .split(',')
            .map(|x| x.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|_| SprtError::Format(s.to_string()))?;
        match numbers[..] {
            [elo0, elo1] => Sprt::new(elo0, elo1, 0.05, 0.05),
            [elo0, elo1, alpha, beta] => Sprt::new(elo0, elo1, alpha, beta),
            _ => Err(SprtError::Format(s.to_string())),
        }
    }
}

impl fmt::Display for Sprt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "SPRT elo0 {} elo1 {} alpha {} beta {}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_known_scores() {
        assert!(elo(0.5).abs() < 1e-9);
        assert_eq!(format!("{:+.0}", elo(0.5)), "+0");
        assert!((elo(0.75) - 190.8).abs() < 0.1);
        assert!((elo(0.25) + 190.8).abs() < 0.1);
        let mut m = MatchSummary::new("a".into(), "b".into());
        for (i, p) in [1.0, 1.0, 0.5, 0.0, 1.0, 0.75, 1.0, 0.5]
            .into_iter()
            .enumerate()
        {
            m.add(i, p);
        }
        assert_eq!(m.wdl(), (5, 2, 1));
        assert_eq!(m.total(), 5.75);
        let (e, margin) = m.elo();
        assert!(e > 100.0 && margin > 50.0, "{e} {margin}");
        assert!(m.to_string().contains("+5 =2 -1"));

        // 500 wins and 501 losses: half a point short of even, about -0.3 Elo, which
        // prints as +0.
        let mut m = MatchSummary::new("a".into(), "b".into());
        for i in 0..1001 {
            m.add(i, if i < 500 { 1.0 } else { 0.0 });
        }
        assert!(m.elo().0 < 0.0);
        assert!(m.to_string().contains("Elo +0 +/-"), "{m}");
    }

    #[test]
    fn erf_matches_the_tables_within_the_formulas_error() {
        // Abramowitz and Stegun, table 7.1 (the same digits as Python's math.erf); the
        // formula promises 1.5e-7, and erf is odd.
        for (x, want) in [
            (0.0, 0.0),
            (0.1, 0.112_462_916_0),
            (0.5, 0.520_499_877_8),
            (1.0, 0.842_700_792_9),
            (2.0, 0.995_322_265_0),
            (3.0, 0.999_977_909_5),
        ] {
            assert!((erf(x) - want).abs() < 1.5e-7, "erf({x}) = {}", erf(x));
            assert!((erf(-x) + want).abs() < 1.5e-7, "erf(-{x}) = {}", erf(-x));
        }
    }

    #[test]
    fn los_worked_by_hand() {
        // 10 wins, 5 losses: (10 - 5) / sqrt(2 * 15) = 0.912871. Between the table's
        // erf(0.90) = 0.796908 and erf(0.92) = 0.806768 that is 0.803253, so the LOS is
        // (1 + 0.803253) / 2 = 0.90163; Python's math.erf gives 0.9016472 exactly.
        assert!((los(10, 5) - 0.901_647_2).abs() < 1e-6, "{}", los(10, 5));
        assert!((los(10, 5) - 0.901_63).abs() < 1e-4);
        // Seen from the other engine: 1 - 0.9016472.
        assert!((los(5, 10) - 0.098_352_8).abs() < 1e-6, "{}", los(5, 10));
        // No decisive game, or as many wins as losses: no idea, 1/2.
        assert_eq!(los(0, 0), 0.5);
        assert!((los(7, 7) - 0.5).abs() < 1e-7);
    }

    #[test]
    fn pentanomial_counts_pair_elo_and_los_of_a_known_match() {
        // Ten pairs (games 2k and 2k+1), first engine's points in each game:
        let pairs = [
            (0.0, 0.0), // 0
            (0.0, 0.5), // 1/2
            (0.5, 0.0), // 1/2
            (1.0, 0.0), // 1
            (0.5, 0.5), // 1
            (0.0, 1.0), // 1
            (1.0, 0.5), // 3/2
            (0.5, 1.0), // 3/2
            (1.0, 0.5), // 3/2
            (1.0, 1.0), // 2
        ];
        let mut m = MatchSummary::new("a".into(), "b".into());
        // The second game of each pair first, then the first games from the last.
        for (k, &(_, second)) in pairs.iter().enumerate() {
            m.add(2 * k + 1, second);
        }
        assert_eq!(m.pentanomial(), [0; 5], "no pair is finished yet");
        for (k, &(first, _)) in pairs.iter().enumerate().rev() {
            m.add(2 * k, first);
        }
        assert_eq!(m.pentanomial(), [1, 2, 3, 3, 1]);
        assert_eq!(m.wdl(), (7, 7, 6));
        // By hand: pair scores 0, 1/4, 1/2, 3/4, 1 counted 1, 2, 3, 3, 1 times; mean
        // 5.25 / 10 = 0.525, variance (0.525^2 + 2 * 0.275^2 + 3 * 0.025^2 + 3 * 0.225^2
        // + 0.475^2) / 10 = 0.080625, standard error sqrt(0.080625 / 10) = 0.0897914.
        // Elo of 0.525 = -400 log10(0.475 / 0.525) = 17.386; of 0.525 -/+ 1.96 * 0.0897914
        // = 0.349009 and 0.700991: -108.295 and +148.011, half the width 128.153.
        let (e, margin) = m.pair_elo();
        assert!((e - 17.386).abs() < 1e-3, "{e}");
        assert!((margin - 128.153).abs() < 1e-3, "{margin}");
        // 7 wins, 6 losses: (1 + erf(1 / sqrt(26))) / 2 = 0.609244 (math.erf).
        assert!((m.los() - 0.609_244).abs() < 1e-6, "{}", m.los());
        assert_eq!(
            m.pair_report().to_string(),
            "Ptnml(0-2): [1, 2, 3, 3, 1], pair Elo +17 +/- 128, LOS: 60.9 %"
        );
        // A game whose partner never finishes counts in the games, not in the pairs.
        m.add(20, 1.0);
        assert_eq!(m.wdl(), (8, 7, 6));
        assert_eq!(m.pentanomial(), [1, 2, 3, 3, 1]);
        assert_eq!(m.pair_elo(), (e, margin));
        // A 3/4 stalemate win is a win: with a draw a 3/2, with a 1/4 loss a 1.
        m.add(22, 0.75);
        m.add(23, 0.5);
        m.add(24, 0.75);
        m.add(25, 0.25);
        assert_eq!(m.pentanomial(), [1, 2, 4, 4, 1]);
    }

    #[test]
    fn sprt_likelihood_ratio_of_a_small_match_worked_by_hand() {
        // Pairs 1, 1/2, 3/4, 1/2 (and 10^-3 of each missing outcome, 0 and 1/4):
        // n 4.002, mean 0.68722, variance 0.043664; s0 = 0.5, s1 = 0.640065 (100 Elo);
        // 4.002 * 0.140065 * (1.37444 - 1.140065) / 0.087328 = 1.5236.
        let sprt = Sprt::new(0.0, 100.0, 0.05, 0.05).unwrap();
        let llr = sprt.llr(&[1.0, 0.5, 0.75, 0.5]);
        assert!((llr - 1.5236).abs() < 1e-3, "{llr}");
        let (lower, upper) = sprt.bounds();
        assert!((upper - 2.9444).abs() < 1e-3 && (lower + 2.9444).abs() < 1e-3);
        assert_eq!(sprt.verdict(llr), None);
        assert_eq!(sprt.verdict(3.0), Some(SprtVerdict::H1));
        assert_eq!(sprt.verdict(-3.0), Some(SprtVerdict::H0));
        assert_eq!(sprt.llr(&[]), 0.0);
    }

    #[test]
    fn sprt_is_symmetric_between_the_engines() {
        // The same pairs seen from the other engine, against the mirrored hypotheses,
        // give the opposite evidence.
        let pairs = [1.0, 0.5, 0.75, 0.25, 0.5, 1.0, 0.625];
        let mirrored: Vec<f64> = pairs.iter().map(|p| 1.0 - p).collect();
        let a = Sprt::new(-5.0, 20.0, 0.05, 0.05).unwrap().llr(&pairs);
        let b = Sprt::new(-20.0, 5.0, 0.05, 0.05).unwrap().llr(&mirrored);
        assert!(a > 0.0 && (a + b).abs() < 1e-9, "{a} {b}");
    }

    /// Pairs of a first engine that wins a game with probability `win` and draws with
    /// `draw` (a small deterministic generator, so the test always sees the same match).
    fn simulated_pairs(win: f64, draw: f64, count: usize, seed: u64) -> Vec<f64> {
        let mut state = seed;
        let mut game = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let u = (state >> 11) as f64 / (1u64 << 53) as f64;
            if u < win {
                1.0
            } else if u < win + draw {
                0.5
            } else {
                0.0
            }
        };
        (0..count).map(|_| (game() + game()) / 2.0).collect()
    }

    #[test]
    fn sprt_accepts_the_hypothesis_the_games_come_from() {
        // Which bound the ratio crosses first, and when.
        let decide = |pairs: &[f64], sprt: &Sprt| {
            (1..=pairs.len()).find_map(|n| sprt.decide(&pairs[..n]).map(|v| (v, n)))
        };
        let sprt = Sprt::new(0.0, 70.0, 0.05, 0.05).unwrap();
        // 40% wins, 40% draws: a 60% score, about 70 Elo.
        let stronger = simulated_pairs(0.4, 0.4, 2000, 7);
        let (v, n) = decide(&stronger, &sprt).expect("decided");
        assert_eq!(v, SprtVerdict::H1);
        assert!(n < 400, "{n} pairs");
        // 30% wins, 40% draws: level.
        let level = simulated_pairs(0.3, 0.4, 2000, 8);
        let (v, n) = decide(&level, &sprt).expect("decided");
        assert_eq!(v, SprtVerdict::H0);
        assert!(n < 400, "{n} pairs");
        // A sweep is decided as soon as the test looks (the regularisation gives it a
        // spread), and not before.
        assert_eq!(
            decide(&[1.0; 30], &sprt),
            Some((SprtVerdict::H1, SPRT_MIN_PAIRS))
        );
        assert!(sprt.llr(&[0.75]) > 2.95, "one pair alone would decide");
    }

    #[test]
    fn sprt_settings_are_read_and_checked() {
        let s: Sprt = "0,10".parse().unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (0.0, 10.0, 0.05, 0.05));
        let s: Sprt = " -3, 2.5 ,0.1,0.2".parse().unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (-3.0, 2.5, 0.1, 0.2));
        assert!(matches!(
            "10,0".parse::<Sprt>(),
            Err(SprtError::Order { .. })
        ));
        assert!(matches!(
            "0,10,0.7,0.05".parse::<Sprt>(),
            Err(SprtError::Rate(_))
        ));
        assert!(matches!(
            "0,10,0.05".parse::<Sprt>(),
            Err(SprtError::Format(_))
        ));
        assert!(matches!(
            "zero,ten".parse::<Sprt>(),
            Err(SprtError::Format(_))
        ));
        assert!(
            "10,0"
                .parse::<Sprt>()
                .unwrap_err()
                .to_string()
                .contains("below")
        );
    }

    #[test]
    fn games_pair_up_by_opening_in_any_order() {
        let sprt = Sprt::new(0.0, 50.0, 0.05, 0.05).unwrap();
        let mut m = MatchSummary::new("a".into(), "b".into()).with_sprt(sprt);
        // Games 0/1 and 2/3 share openings; 5 never finishes (its engine failed).
        m.add(1, 1.0);
        m.add(2, 0.5);
        m.add(4, 1.0);
        m.add(0, 0.5);
        m.add(3, 0.0);
        assert_eq!(m.pairs, vec![0.75, 0.25]);
        assert_eq!(m.games(), 5);
        assert_eq!(m.llr(), Some(sprt.llr(&[0.75, 0.25])));
        assert!(m.to_string().contains("LLR"), "{m}");
        assert_eq!(m.verdict(), None);
        // Enough won pairs settle it, and the verdict stays with the game it came at.
        for i in 6..40 {
            m.add(i, 1.0);
        }
        let (v, at) = m.verdict().expect("decided");
        assert_eq!(v, SprtVerdict::H1);
        assert!(at < 40, "{at}");
    }
}
