//! From a score to a player's chances, and from the change in those chances to a
//! judgement of the move and an accuracy: lichess's model, so that a review here reads
//! as players know one from there.
//!
//! - Win% = 50 + 50 · (2 / (1 + e^(-0.00368208 · cp)) - 1), the score first capped at
//!   ±1000 centipawns (lichess's `WinPercent.fromCentiPawns`, its multiplier from
//!   lila pull request 11148). A mate is 100 or 0.
//! - A move is judged by how much of the mover's Win% it gives away: 5 points an
//!   inaccuracy, 10 a mistake, 15 a blunder (lichess's `CpAdvice`: 0.1, 0.2 and 0.3 of
//!   its winning chances, which run from -1 to +1, so twice the Win% points).
//! - Accuracy% = 103.1668 · e^(-0.04354 · drop) - 3.1669, plus lichess's bonus of one
//!   point for the engine's own uncertainty, clamped to 0..100; 100 when the mover
//!   lost nothing (lichess's `AccuracyPercent.fromWinPercents`).
//!
//! The constants were fitted by lichess to Stockfish's centipawns; ours are the same
//! unit (a pawn about 100) but another engine's, so the curve is an approximation
//! here, as the `Wdl` model of [`crate::wdl`] is one fitted to our own games. The
//! review uses lichess's so that its judgements mean what players expect.

use std::fmt;

use crate::Score;

/// Centipawns beyond which a score counts as no better (lichess's `Cp.CEILING`): ten
/// pawns up is won, and +25 is not more won than +12.
pub const CP_CEILING: i32 = 1000;

/// The slope of lichess's curve from centipawns to winning chances.
const MULTIPLIER: f64 = 0.00368208;

/// Win% points a move may give away before it is an [`Judgement::Inaccuracy`].
pub const INACCURACY_DROP: f64 = 5.0;
/// Win% points from which a move is a [`Judgement::Mistake`].
pub const MISTAKE_DROP: f64 = 10.0;
/// Win% points from which a move is a [`Judgement::Blunder`].
pub const BLUNDER_DROP: f64 = 15.0;

/// A side's chances of winning in percent, 0 to 100 (a draw counts as no win: 50 is an
/// even game, not a sure draw).
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub struct WinPercent(f64);

impl WinPercent {
    /// The chances of the side a score is for.
    pub fn from_score(score: Score) -> WinPercent {
        match score {
            Score::Cp(cp) => WinPercent::from_cp(cp),
            Score::Mate(m) if m > 0 => WinPercent(100.0),
            // Mate(0) is the side to move mated on the board.
            Score::Mate(_) => WinPercent(0.0),
        }
    }

    /// The chances `cp` centipawns give, capped at [`CP_CEILING`].
    pub fn from_cp(cp: i32) -> WinPercent {
        let cp = f64::from(cp.clamp(-CP_CEILING, CP_CEILING));
        let chances = 2.0 / (1.0 + (-MULTIPLIER * cp).exp()) - 1.0;
        WinPercent(50.0 + 50.0 * chances)
    }

    /// From a share of the points (1000 thousandths for a win): a finished game.
    pub fn from_points(millis: u16) -> WinPercent {
        WinPercent(f64::from(millis.min(1000)) / 10.0)
    }

    /// The percentage, 0 to 100.
    pub fn value(self) -> f64 {
        self.0
    }

    /// The other side's chances.
    pub fn other(self) -> WinPercent {
        WinPercent(100.0 - self.0)
    }
}

impl fmt::Display for WinPercent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.1}%", self.0)
    }
}

/// Win% points lost from `before` to `after`, from the mover's side; 0 when the move
/// lost nothing.
pub fn drop(before: WinPercent, after: WinPercent) -> f64 {
    (before.0 - after.0).max(0.0)
}

/// What a move that gave chances away is called.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Judgement {
    /// A small loss of chances.
    Inaccuracy,
    /// A larger one.
    Mistake,
    /// One that changes the game.
    Blunder,
}

impl Judgement {
    /// Every judgement, the mildest first.
    pub const ALL: [Judgement; 3] = [
        Judgement::Inaccuracy,
        Judgement::Mistake,
        Judgement::Blunder,
    ];

    /// The judgement a drop of `points` of the mover's Win% earns, if any.
    pub fn from_drop(points: f64) -> Option<Judgement> {
        if points >= BLUNDER_DROP {
            Some(Judgement::Blunder)
        } else if points >= MISTAKE_DROP {
            Some(Judgement::Mistake)
        } else if points >= INACCURACY_DROP {
            Some(Judgement::Inaccuracy)
        } else {
            None
        }
    }

    /// The PGN standard's numeric annotation glyph: $6 dubious move, $2 poor move, $4
    /// very poor move (read back as `?!`, `?` and `??`).
    pub fn nag(self) -> u8 {
        match self {
            Judgement::Inaccuracy => 6,
            Judgement::Mistake => 2,
            Judgement::Blunder => 4,
        }
    }

    /// The word for it (`Blunder`).
    pub fn name(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "Inaccuracy",
            Judgement::Mistake => "Mistake",
            Judgement::Blunder => "Blunder",
        }
    }
}

impl fmt::Display for Judgement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How accurate a move was, 0 to 100, from the mover's chances before and after it.
pub fn accuracy(before: WinPercent, after: WinPercent) -> f64 {
    if after.0 >= before.0 {
        return 100.0;
    }
    let raw = 103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * (before.0 - after.0)).exp()
        - 3.166_924_740_191_411;
    // Lichess's bonus for the imperfect analysis.
    (raw + 1.0).clamp(0.0, 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 0.01
    }

    /// Values worked out by hand from the formula (e^(-0.368208) = 0.69192, so
    /// 2 / 1.69192 - 1 = 0.18205 and 50 + 50 · 0.18205 = 59.10; e^(1.104624) = 3.01805,
    /// 2 / 4.01805 - 1 = -0.50225, 50 - 25.11 = 24.89).
    #[test]
    fn win_percent_follows_lichess_curve() {
        let wp = |cp| WinPercent::from_cp(cp).value();
        assert_eq!(wp(0), 50.0);
        assert!(close(wp(100), 59.10), "{}", wp(100));
        assert!(close(wp(-300), 24.89), "{}", wp(-300));
        assert!(close(wp(300), 75.11), "{}", wp(300));
        // Capped at ten pawns: 97.54 either way, as lichess's ceiling gives.
        assert!(close(wp(1000), 97.54), "{}", wp(1000));
        assert_eq!(wp(5000), wp(1000));
        assert!(close(wp(-5000), 2.46), "{}", wp(-5000));
        assert!(close(wp(-300), WinPercent::from_cp(300).other().value()));
        assert_eq!(WinPercent::from_score(Score::Mate(3)).value(), 100.0);
        assert_eq!(WinPercent::from_score(Score::Mate(-1)).value(), 0.0);
        assert_eq!(WinPercent::from_score(Score::Mate(0)).value(), 0.0);
        assert_eq!(WinPercent::from_points(750).value(), 75.0);
    }

    #[test]
    fn judgements_start_at_5_10_and_15_points() {
        assert_eq!(Judgement::from_drop(0.0), None);
        assert_eq!(Judgement::from_drop(4.99), None);
        assert_eq!(Judgement::from_drop(5.0), Some(Judgement::Inaccuracy));
        assert_eq!(Judgement::from_drop(9.99), Some(Judgement::Inaccuracy));
        assert_eq!(Judgement::from_drop(10.0), Some(Judgement::Mistake));
        assert_eq!(Judgement::from_drop(15.0), Some(Judgement::Blunder));
        assert_eq!(Judgement::from_drop(100.0), Some(Judgement::Blunder));
        // Even to three pawns down is a blunder (25.1 points); a pawn's edge given
        // back from equality is not a mistake (9.1 points).
        let even = WinPercent::from_cp(0);
        let drop_to = |cp| drop(even, WinPercent::from_cp(cp));
        assert_eq!(
            Judgement::from_drop(drop_to(-300)),
            Some(Judgement::Blunder)
        );
        assert_eq!(
            Judgement::from_drop(drop_to(-100)),
            Some(Judgement::Inaccuracy)
        );
        assert_eq!(
            drop(even, WinPercent::from_cp(100)),
            0.0,
            "a gain is no loss"
        );
        assert_eq!(
            Judgement::ALL.map(Judgement::nag),
            [6, 2, 4],
            "dubious, poor, very poor"
        );
    }

    /// Spot values by hand: drop 10 gives 103.1668 · e^(-0.4354) - 3.1669 + 1 =
    /// 103.1668 · 0.64704 - 2.1669 = 64.58; drop 50: 103.1668 · 0.11336 - 2.1669 = 9.53;
    /// drop 100: 103.1668 · 0.01285 - 2.1669 < 0, so 0.
    #[test]
    fn accuracy_follows_lichess_formula() {
        let acc = |before: f64, after: f64| accuracy(WinPercent(before), WinPercent(after));
        assert_eq!(acc(50.0, 50.0), 100.0);
        assert_eq!(acc(50.0, 70.0), 100.0, "a move that gains is perfect");
        assert!(close(acc(60.0, 50.0), 64.58), "{}", acc(60.0, 50.0));
        assert!(close(acc(75.0, 25.0), 9.53), "{}", acc(75.0, 25.0));
        assert_eq!(acc(100.0, 0.0), 0.0);
        assert!(close(acc(50.0, 45.0), 80.82), "{}", acc(50.0, 45.0));
    }
}
