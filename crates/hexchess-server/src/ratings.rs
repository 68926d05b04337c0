//! Ratings, per variant and speed: Glicko-2 for two-player games with lichess's
//! constants (a new player at 1500 with a deviation of 500 and a volatility of 0.09,
//! tau 0.75, the deviation kept between 45 and 500, the volatility at most 0.1), and
//! Weng-Lin for tables of three or four, where each seat is ranked by its points. The
//! formulas are the `skillratings` crate's; this module sets the constants and turns
//! a game's outcome into their terms.

use hexchess_core::{GameOutcome, Side};
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2_rating_period};
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};
use skillratings::{MultiTeamOutcome, Outcomes};

/// A two-player rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The rating (1500 to start).
    pub rating: f64,
    /// How unsure it is (the rating deviation).
    pub deviation: f64,
    /// How erratic the player's results are (Glicko-2's volatility).
    pub volatility: f64,
}

/// lichess's tau (Glickman suggests 0.3 to 1.2).
pub const TAU: f64 = 0.75;
const MIN_DEVIATION: f64 = 45.0;
const MAX_DEVIATION: f64 = 500.0;
const MAX_VOLATILITY: f64 = 0.1;
const MIN_RATING: f64 = 400.0;

impl Rating {
    /// A player's first rating.
    pub const NEW: Rating = Rating {
        rating: 1500.0,
        deviation: MAX_DEVIATION,
        volatility: 0.09,
    };

    fn glicko(self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    /// Within lichess's bounds.
    fn bounded(r: Glicko2Rating) -> Rating {
        Rating {
            rating: r.rating.max(MIN_RATING),
            deviation: r.deviation.clamp(MIN_DEVIATION, MAX_DEVIATION),
            volatility: r.volatility.min(MAX_VOLATILITY),
        }
    }
}

fn outcome_for(points: f64) -> Outcomes {
    if points > 0.5 {
        Outcomes::WIN
    } else if points < 0.5 {
        Outcomes::LOSS
    } else {
        Outcomes::DRAW
    }
}

/// A player's rating after games against `results` (each opponent's rating and the
/// player's points, 1, 1/2 or 0), with volatility constant `tau`. Not bounded: the
/// formula as Glickman gives it.
pub fn rate_period(player: Rating, results: &[(Rating, f64)], tau: f64) -> Rating {
    let games: Vec<(Glicko2Rating, Outcomes)> = results
        .iter()
        .map(|(r, points)| (r.glicko(), outcome_for(*points)))
        .collect();
    let config = Glicko2Config {
        tau,
        ..Glicko2Config::new()
    };
    let r = glicko2_rating_period(&player.glicko(), &games, &config);
    Rating {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
    }
}

/// Both players' ratings after a two-player game that ended `outcome` (White's
/// rating first).
pub fn rate_game(white: Rating, black: Rating, outcome: &GameOutcome) -> (Rating, Rating) {
    let points = |s: Side| f64::from(outcome.points(s).millis()) / 1000.0;
    let w = rate_period(white, &[(black, points(Side::White))], TAU);
    let b = rate_period(black, &[(white, points(Side::Black))], TAU);
    (Rating::bounded(w.glicko()), Rating::bounded(b.glicko()))
}

/// Whether a rating rests on too few games to trust (shown with a `?`): lichess's
/// rule for two players, a deviation over 110; at a table, an uncertainty over 6
/// (a new player's is 25/3, about four games' worth more than that).
pub fn is_provisional(rating: Rating, games: u32, table: bool) -> bool {
    if table {
        games == 0 || rating.deviation > 6.0
    } else {
        rating.deviation > 110.0
    }
}

/// A rating at tables of three or four (Weng-Lin: a skill and its uncertainty).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TableRating {
    /// The skill estimate.
    pub skill: f64,
    /// How unsure it is.
    pub uncertainty: f64,
}

impl TableRating {
    /// A player's first table rating: 25 ± 25/3.
    pub const NEW: TableRating = TableRating {
        skill: 25.0,
        uncertainty: 25.0 / 3.0,
    };
}

/// Every seat's rating after a table game that ended `outcome`, `ratings` in seat
/// order: each seat ranked by its points (more is better, equal points a tie).
pub fn rate_table(ratings: &[TableRating], outcome: &GameOutcome) -> Vec<TableRating> {
    let points: Vec<f64> = (0..ratings.len())
        .map(|i| f64::from(outcome.points(Side::from_index(i)).millis()) / 1000.0)
        .collect();
    let seats: Vec<[WengLinRating; 1]> = ratings
        .iter()
        .map(|r| {
            [WengLinRating {
                rating: r.skill,
                uncertainty: r.uncertainty,
            }]
        })
        .collect();
    let teams: Vec<(&[WengLinRating], MultiTeamOutcome)> = seats
        .iter()
        .zip(&points)
        .map(|(seat, p)| {
            // Rank 1 is the best: one more than the seats that scored more.
            let rank = 1 + points.iter().filter(|q| *q > p).count();
            (&seat[..], MultiTeamOutcome::new(rank))
        })
        .collect();
    weng_lin_multi_team(&teams, &WengLinConfig::new())
        .into_iter()
        .map(|team| TableRating {
            skill: team[0].rating,
            uncertainty: team[0].uncertainty,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use hexchess_core::Termination;

    fn close(a: f64, b: f64, within: f64) -> bool {
        (a - b).abs() <= within
    }

    #[test]
    fn glickmans_own_example_comes_out_as_his_paper_gives_it() {
        // "Example of the Glicko-2 system" (Glickman, 2013): a 1500/200/0.06 player
        // beats a 1400/30, loses to a 1550/100 and to a 1700/300, with tau 0.5:
        // 1464.06, deviation 151.52, volatility 0.05999.
        let player = Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opponent = |rating, deviation| Rating {
            rating,
            deviation,
            volatility: 0.06,
        };
        let after = rate_period(
            player,
            &[
                (opponent(1400.0, 30.0), 1.0),
                (opponent(1550.0, 100.0), 0.0),
                (opponent(1700.0, 300.0), 0.0),
            ],
            0.5,
        );
        assert!(close(after.rating, 1464.06, 0.01), "{after:?}");
        assert!(close(after.deviation, 151.52, 0.01), "{after:?}");
        assert!(close(after.volatility, 0.05999, 0.00001), "{after:?}");
    }

    #[test]
    fn two_new_players_move_apart_by_as_much_as_they_were_unsure_of() {
        let win = GameOutcome::win(Side::White, Termination::Checkmate);
        let (w, b) = rate_game(Rating::NEW, Rating::NEW, &win);
        assert!(w.rating > 1600.0 && b.rating < 1400.0, "{w:?} {b:?}");
        assert!(
            close(w.rating - 1500.0, 1500.0 - b.rating, 1e-6),
            "symmetric"
        );
        assert!(w.deviation < 500.0 && w.deviation >= 45.0);
        let draw = GameOutcome::draw(Termination::Agreement);
        let (w, b) = rate_game(Rating::NEW, Rating::NEW, &draw);
        assert!(close(w.rating, 1500.0, 1e-6) && close(b.rating, 1500.0, 1e-6));
        // A floor under the lowest rating.
        let low = Rating {
            rating: 401.0,
            ..Rating::NEW
        };
        let (w, _) = rate_game(
            low,
            Rating::NEW,
            &GameOutcome::win(Side::Black, Termination::Time),
        );
        assert_eq!(w.rating, 400.0);
    }

    #[test]
    fn a_table_ranks_its_seats_by_their_points() {
        let three = [TableRating::NEW; 3];
        // Black won (the last king standing): Black up, the others down alike.
        let won = GameOutcome::shared(Termination::Checkmate, &[Side::Black], 3);
        let after = rate_table(&three, &won);
        assert!(after[1].skill > 25.0, "{after:?}");
        assert!(after[0].skill < 25.0 && after[2].skill < 25.0, "{after:?}");
        assert!(close(after[0].skill, after[2].skill, 1e-9), "tied last");
        assert!(after.iter().all(|r| r.uncertainty < 25.0 / 3.0));
        // A flag at a table of three: the two others share, both up.
        let flag = GameOutcome::shared(Termination::Time, &[Side::White, Side::Third], 3);
        let after = rate_table(&three, &flag);
        assert!(after[0].skill > 25.0 && after[2].skill > 25.0 && after[1].skill < 25.0);
    }
}
