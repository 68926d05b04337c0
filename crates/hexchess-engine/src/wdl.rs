//! Chances of a win, a draw and a loss from a score, for GUIs that show them
//! (`UCI_ShowWDL`) and for the game's evaluation bar.
//!
//! The model: the side to move wins with probability `σ((cp - A) / B)` and loses with
//! `σ((-cp - A) / B)`, the rest being a draw (σ the logistic function). The two
//! constants come from our own games, not from another engine's:
//!
//! - at an equal score the draw share is the self-play draw rate, 28% (996 draws in
//!   3,548 Gliński games of the engine against itself, docs/measuring.md), so
//!   `σ(-A/B) = 0.36`;
//! - near equality the expected score `W + D/2` follows the logistic curve the
//!   evaluation was tuned to, `1 / (1 + 10^(-cp/400))`, whose slope at 0 is
//!   `ln 10 / 1600`; the model's is `σ'(-A/B) / B`.
//!
//! Solving gives `A = 92` and `B = 160` centipawns. Three pawns up then reads as 79%
//! win, 13% draw, 8% loss (expected score 85.3%, the logistic's 84.9%).

use std::fmt;

use crate::Score;

/// Centipawns at which a win is as likely as not.
const WIN_AT: f64 = 92.0;
/// Centipawns over which the chances change by a factor e near `WIN_AT`.
const SPREAD: f64 = 160.0;

/// Chances in permille for the side to move; they add up to 1000.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wdl {
    /// The chance of a win.
    pub win: u16,
    /// The chance of a draw.
    pub draw: u16,
    /// The chance of a loss.
    pub loss: u16,
}

impl Wdl {
    /// The chances a score gives the side to move: a mate either way is certain.
    pub fn from_score(score: Score) -> Wdl {
        match score {
            Score::Mate(m) if m > 0 => Wdl {
                win: 1000,
                draw: 0,
                loss: 0,
            },
            Score::Mate(_) => Wdl {
                win: 0,
                draw: 0,
                loss: 1000,
            },
            Score::Cp(cp) => Wdl::from_cp(cp),
        }
    }

    fn from_cp(cp: i32) -> Wdl {
        let cp = f64::from(cp);
        let chance = |x: f64| 1.0 / (1.0 + (-(x - WIN_AT) / SPREAD).exp());
        let win = (chance(cp) * 1000.0).round() as u16;
        let loss = (chance(-cp) * 1000.0).round() as u16;
        Wdl {
            win,
            draw: 1000 - win - loss,
            loss,
        }
    }

    /// The expected score for the side to move, 0 to 1 (a draw counting half).
    pub fn expected(self) -> f64 {
        (f64::from(self.win) + f64::from(self.draw) / 2.0) / 1000.0
    }
}

impl fmt::Display for Wdl {
    /// As the protocol writes it after `wdl`: `360 280 360`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.win, self.draw, self.loss)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_equal_score_draws_at_the_self_play_rate_and_the_curve_follows_the_logistic() {
        let even = Wdl::from_score(Score::Cp(0));
        assert_eq!(even.win, even.loss);
        assert!((275..=285).contains(&even.draw), "{even}");
        for cp in [-600, -300, -100, -20, 0, 20, 100, 300, 600] {
            let w = Wdl::from_score(Score::Cp(cp));
            assert_eq!(
                u32::from(w.win) + u32::from(w.draw) + u32::from(w.loss),
                1000
            );
            let logistic = 1.0 / (1.0 + 10f64.powf(-f64::from(cp) / 400.0));
            assert!(
                (w.expected() - logistic).abs() < 0.02,
                "{cp}: {w} expects {} not {logistic}",
                w.expected()
            );
            // The other side's view is the mirror image.
            let them = Wdl::from_score(Score::Cp(-cp));
            assert_eq!((them.win, them.draw, them.loss), (w.loss, w.draw, w.win));
        }
        // More advantage, more wins and fewer draws.
        let (a, b) = (
            Wdl::from_score(Score::Cp(100)),
            Wdl::from_score(Score::Cp(300)),
        );
        assert!(b.win > a.win && b.draw < a.draw && b.loss < a.loss);
    }

    #[test]
    fn a_mate_is_certain() {
        assert_eq!(Wdl::from_score(Score::Mate(3)).to_string(), "1000 0 0");
        assert_eq!(Wdl::from_score(Score::Mate(-1)).to_string(), "0 0 1000");
    }
}
