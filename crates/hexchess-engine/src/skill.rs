//! Strength levels, so that a beginner can win and every player finds an opponent a
//! little stronger than the last one.
//!
//! A level below full strength searches to a fixed depth and then draws its move among
//! the root moves that score near the best, better moves more likely (a softmax over
//! their scores; [`Handicap::reach`] says how near). Two knobs set
//! the strength: the depth, and the temperature of the draw.
//!
//! Scoring every root move costs about ten times the search itself at depth 6 and more
//! deeper, so the top level varies its play another way: it plays the best move of a
//! search whose evaluation is off by a few centipawns, differently in each position and
//! each search. That costs nothing, so it can search 7 plies, between the depth-6 levels
//! and the full engine (the full engine scored 84% against a depth-6 level; now the two
//! top steps score 72.5% and 67%).
//!
//! Depth and temperature are both steep: in matches of
//! the engine against itself, one more ply or half the temperature is worth about 400 Elo
//! at the bottom of the range. So the levels step the temperature by about √2 at depth 1
//! and give each deeper search two or three levels (warmer and cooler draws); the table
//! was calibrated with 100-game matches between neighbouring levels, each of which now
//! scores 58-82% against the level below (the table with every score is in docs/strength.md).

use std::fmt;
use std::str::FromStr;

/// A strength level, from 1 (almost random, for a first game) to [`Skill::FULL`] (the
/// whole engine, as strong as its time allows).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Skill(u8);

/// How a level below full strength plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Handicap {
    /// The search goes no deeper than this many plies (quiescence still resolves
    /// captures, so even level 1 sees what a capture wins).
    pub depth: u32,
    /// Centipawns: a move this much worse than the best is e times less likely to be
    /// played. Zero: the search's best move is played (then `noise` is not zero).
    pub temperature: u32,
    /// Centipawns: the evaluation is off by up to this much either way, differently in
    /// each position and in each search. Zero: none.
    pub noise: u32,
}

/// Centipawns: the most a move may score under the best one and still be played, at
/// any level.
const MAX_REACH: i32 = 400;

impl Handicap {
    /// Centipawns: how far under the best a move may score and still be drawn. A move
    /// six temperatures worse would be drawn with weight e^-6 at most, so nothing is
    /// lost by leaving it out; at most four pawns, so that even level 1 does not give its
    /// queen away for nothing; at least one pawn. The searcher scores the root moves in
    /// a window this wide around the best, which also keeps that scoring cheap.
    pub const fn reach(self) -> i32 {
        let r = 6 * self.temperature as i32;
        if r < 100 {
            100
        } else if r > MAX_REACH {
            MAX_REACH
        } else {
            r
        }
    }
}

/// A level that draws its move among the root moves.
const fn h(depth: u32, temperature: u32) -> Handicap {
    Handicap {
        depth,
        temperature,
        noise: 0,
    }
}

/// A level that plays the best move of a search with a noisy evaluation.
const fn n(depth: u32, noise: u32) -> Handicap {
    Handicap {
        depth,
        temperature: 0,
        noise,
    }
}

/// Levels 1 to 19; level 20 has no handicap.
const HANDICAPS: [Handicap; 19] = [
    h(1, 300),
    h(1, 210),
    h(1, 150),
    h(1, 105),
    h(1, 75),
    h(1, 50),
    h(1, 35),
    h(1, 15),
    h(2, 40),
    h(2, 25),
    h(2, 12),
    h(3, 25),
    h(3, 12),
    h(4, 20),
    h(4, 10),
    h(5, 15),
    h(5, 8),
    h(6, 12),
    n(7, 15),
];

/// Each level's score against the level below in the calibration matches (100 Gliński
/// games at 100 ms a move; docs/strength.md): level 2 against 1 first, 20 against 19
/// last.
const SCORE_OVER_LEVEL_BELOW: [f64; 19] = [
    0.725, 0.700, 0.770, 0.770, 0.818, 0.710, 0.655, 0.700, 0.623, 0.585, 0.745, 0.660, 0.755,
    0.615, 0.705, 0.650, 0.692, 0.725, 0.670,
];

/// The Elo given to level 1 on the protocol's `UCI_Elo` scale. The scale is the levels'
/// self-play ladder, not a rating against people; 500 puts the almost random first
/// level where a newcomer to chess starts.
const LEVEL_1_ELO: f64 = 500.0;

impl Skill {
    /// The weakest level.
    pub const MIN: Skill = Skill(1);
    /// The whole engine.
    pub const FULL: Skill = Skill(HANDICAPS.len() as u8 + 1);

    /// The level numbered `level`, if there is one.
    pub const fn new(level: u8) -> Option<Skill> {
        if level >= Skill::MIN.0 && level <= Skill::FULL.0 {
            Some(Skill(level))
        } else {
            None
        }
    }

    /// The level's number, 1 to [`Skill::FULL`]'s.
    pub const fn level(self) -> u8 {
        self.0
    }

    /// Whether this is full strength (no handicap).
    pub const fn is_full(self) -> bool {
        self.0 == Skill::FULL.0
    }

    /// How this level plays below full strength; `None` at full strength.
    pub const fn handicap(self) -> Option<Handicap> {
        if self.is_full() {
            None
        } else {
            Some(HANDICAPS[self.0 as usize - 1])
        }
    }

    /// Every level, weakest first.
    pub fn all() -> impl Iterator<Item = Skill> {
        (Skill::MIN.0..=Skill::FULL.0).map(Skill)
    }

    /// The level's Elo on the `UCI_Elo` scale: level 1's anchor plus the Elo each
    /// calibration match put between neighbouring levels.
    pub fn elo(self) -> u32 {
        let steps: f64 = SCORE_OVER_LEVEL_BELOW[..self.0 as usize - 1]
            .iter()
            .map(|&score| elo_for_score(score))
            .sum();
        (LEVEL_1_ELO + steps).round() as u32
    }

    /// The strongest level whose Elo is at most `elo` (level 1 below its own), so that
    /// a GUI asking for a strength never gets a stronger opponent than it asked for.
    pub fn for_elo(elo: u32) -> Skill {
        Skill::all()
            .take_while(|s| s.elo() <= elo)
            .last()
            .unwrap_or(Skill::MIN)
    }
}

/// The Elo difference an expected score means (logistic, as matches report it).
fn elo_for_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

impl Default for Skill {
    fn default() -> Self {
        Skill::FULL
    }
}

impl fmt::Display for Skill {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A level that is not one: not a number, or out of range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkillError(String);

impl fmt::Display for SkillError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a level: expected {} to {}",
            self.0,
            Skill::MIN,
            Skill::FULL
        )
    }
}

impl std::error::Error for SkillError {}

impl FromStr for Skill {
    type Err = SkillError;

    fn from_str(s: &str) -> Result<Skill, SkillError> {
        s.trim()
            .parse::<u8>()
            .ok()
            .and_then(Skill::new)
            .ok_or_else(|| SkillError(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_numbered_one_to_full_and_nothing_else() {
        assert_eq!(Skill::new(0), None);
        assert_eq!(Skill::new(Skill::FULL.level() + 1), None);
        assert_eq!(Skill::all().count(), Skill::FULL.level() as usize);
        for s in Skill::all() {
            assert_eq!(Skill::new(s.level()), Some(s));
            assert_eq!(s.handicap().is_none(), s.is_full());
        }
        assert_eq!(Skill::default(), Skill::FULL);
        assert_eq!("7".parse::<Skill>(), Ok(Skill(7)));
        assert_eq!(" 20 ".parse::<Skill>(), Ok(Skill::FULL));
        for bad in ["0", "21", "-1", "", "strong", "300"] {
            let e = bad.parse::<Skill>().unwrap_err().to_string();
            assert!(e.contains("expected 1 to 20"), "{bad}: {e}");
        }
    }

    #[test]
    fn elo_follows_the_calibration_matches_and_maps_back_to_its_level() {
        assert_eq!(Skill::MIN.elo(), 500);
        // Level 2 scored 72.5% against level 1: 400 * log10(0.725 / 0.275) = 168.4.
        assert_eq!(Skill::new(2).unwrap().elo(), 668);
        // Level 6 scored 81.8% against level 5: 261.2 Elo over it.
        let (five, six) = (Skill::new(5).unwrap().elo(), Skill::new(6).unwrap().elo());
        assert!((260..=262).contains(&(six - five)), "{five} {six}");
        for s in Skill::all() {
            assert_eq!(Skill::for_elo(s.elo()), s, "{s}");
            if s > Skill::MIN {
                assert!(s.elo() > Skill(s.0 - 1).elo());
                assert_eq!(Skill::for_elo(s.elo() - 1), Skill(s.0 - 1), "{s}");
            }
        }
        assert_eq!(Skill::for_elo(0), Skill::MIN);
        assert_eq!(Skill::for_elo(u32::MAX), Skill::FULL);
    }

    #[test]
    fn each_level_is_at_least_as_strong_as_the_one_below() {
        // Each level draws among the root moves or searches with a noisy evaluation,
        // never both, never neither (no level repeats a game move for move); the noisy
        // levels are the top ones. Stronger means deeper, or as deep with a cooler draw
        // or less noise.
        let handicaps: Vec<Handicap> = Skill::all().filter_map(Skill::handicap).collect();
        assert!(
            handicaps
                .iter()
                .all(|h| (h.temperature > 0) != (h.noise > 0) && h.depth >= 1)
        );
        for pair in handicaps.windows(2) {
            let (lower, upper) = (pair[0], pair[1]);
            assert!(
                lower.noise == 0 || upper.noise > 0,
                "{lower:?} then {upper:?}"
            );
            let same_kind = (lower.noise > 0) == (upper.noise > 0);
            assert!(
                upper.depth > lower.depth
                    || (upper.depth == lower.depth
                        && same_kind
                        && (upper.temperature < lower.temperature || upper.noise < lower.noise)),
                "{lower:?} then {upper:?}"
            );
        }
        // The reach: six temperatures, within one to four pawns.
        assert_eq!(h(1, 300).reach(), 400);
        assert_eq!(h(1, 50).reach(), 300);
        assert_eq!(h(6, 6).reach(), 100);
    }
}
