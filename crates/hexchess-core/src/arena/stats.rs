//! Match statistics: score, Elo difference and its error margin.

use std::fmt;

/// The running result of a match, from the first engine's side.
#[derive(Clone, Debug)]
pub struct MatchSummary {
    pub first: String,
    pub second: String,
    /// Points of the first engine in each game (0, 1/4, 1/2, 3/4 or 1).
    points: Vec<f64>,
    /// Games that could not be played to a result (an engine failed to start or
    /// broke the protocol), each with why: not scored, but never silently dropped.
    failures: Vec<String>,
}

/// Elo difference for an expected score.
pub fn elo(score: f64) -> f64 {
    let s = score.clamp(1e-3, 1.0 - 1e-3);
    -400.0 * (1.0 / s - 1.0).log10()
}

impl MatchSummary {
    pub fn new(first: String, second: String) -> MatchSummary {
        MatchSummary {
            first,
            second,
            points: Vec::new(),
            failures: Vec::new(),
        }
    }

    /// Records a game that ended without a result.
    pub fn add_failure(&mut self, why: String) {
        self.failures.push(why);
    }

    /// The games that ended without a result, and why.
    pub fn failures(&self) -> &[String] {
        &self.failures
    }

    pub fn add(&mut self, points: f64) {
        self.points.push(points);
    }

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
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_known_scores() {
        assert!(elo(0.5).abs() < 1e-9);
        assert!((elo(0.75) - 190.8).abs() < 0.1);
        assert!((elo(0.25) + 190.8).abs() < 0.1);
        let mut m = MatchSummary::new("a".into(), "b".into());
        for p in [1.0, 1.0, 0.5, 0.0, 1.0, 0.75, 1.0, 0.5] {
            m.add(p);
        }
        assert_eq!(m.wdl(), (5, 2, 1));
        assert_eq!(m.total(), 5.75);
        let (e, margin) = m.elo();
        assert!(e > 100.0 && margin > 50.0, "{e} {margin}");
        assert!(m.to_string().contains("+5 =2 -1"));
    }
}
