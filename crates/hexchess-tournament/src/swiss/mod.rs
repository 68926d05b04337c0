//! Swiss rounds by the FIDE Dutch system (Handbook C.04.3, the version applied from
//! 2026, as bbpPairings 6 implements it): the next round's pairs and colours from a
//! tournament so far, given as a TRF file's records.
//!
//! - [`field`](self): the players as the rules see them (scores, colour
//!   preferences, floats, who may take the bye);
//! - `criteria`: the criteria C4 to C21 as the weights of a matching, and the
//!   colour rules (Article 5);
//! - `dutch`: the brackets paired in turn, ties broken by the sequence rules;
//! - `matching` and `wide`: the maximum-weight matching and its wide weights.
//!
//! The pairing is checked against bbpPairings, the FIDE-endorsed program, on
//! generated tournaments (docs/tournaments.md says how and what it found).

mod criteria;
mod dutch;
mod field;
mod matching;
mod wide;

use std::fmt;

use crate::round_robin::Number;
use crate::trf::Tournament;

/// One board of a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// White's starting number.
    pub white: Number,
    /// Black's starting number.
    pub black: Number,
}

/// A round's pairings: the boards in the order the rules rank them (the higher
/// scores first), and the player given the pairing-allocated bye.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairings {
    /// The boards.
    pub boards: Vec<Board>,
    /// The bye, when the field is odd.
    pub bye: Option<Number>,
}

impl Pairings {
    /// As the FIDE-endorsed programs print them: the number of lines to come, then
    /// a line a board (`white black`), and the bye as `N 0`.
    pub fn to_text(&self) -> String {
        let mut out = format!("{}\n", self.boards.len() + usize::from(self.bye.is_some()));
        for b in &self.boards {
            out.push_str(&format!("{} {}\n", b.white.0, b.black.0));
        }
        if let Some(n) = self.bye {
            out.push_str(&format!("{} 0\n", n.0));
        }
        out
    }
}

/// Why a round cannot be paired.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SwissError {
    /// The file does not say how many rounds the tournament has (`XXR`).
    RoundsNotSaid,
    /// Every round is already paired.
    Finished {
        /// Rounds paired.
        played: u32,
        /// Rounds the tournament has.
        planned: u32,
    },
    /// A player's points do not add up from their results.
    PointsDisagree {
        /// The player.
        player: Number,
        /// The points the file gives, in tenths.
        written: u32,
        /// The points their results give, in tenths.
        counted: u32,
    },
    /// No game has been played and the file does not say the first colour (`XXC`).
    FirstColourNotSaid,
    /// No pairing keeps the absolute criteria (players meeting twice, the bye twice,
    /// colours): an arbiter must decide.
    NoPairing,
    /// More players than the pairing's weights are built for.
    TooManyPlayers(usize),
}

impl fmt::Display for SwissError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tenths = |t: u32| format!("{}.{}", t / 10, t % 10);
        match self {
            SwissError::RoundsNotSaid => {
                write!(
                    f,
                    "the file does not say how many rounds there are (an XXR line)"
                )
            }
            SwissError::Finished { played, planned } => write!(
                f,
                "{played} rounds are paired already, of {planned}: there is no round left to pair"
            ),
            SwissError::PointsDisagree {
                player,
                written,
                counted,
            } => write!(
                f,
                "player {player} has {} points in the file but {} by their results",
                tenths(*written),
                tenths(*counted)
            ),
            SwissError::FirstColourNotSaid => write!(
                f,
                "no game is played yet and the file does not say the first colour (XXC white1 or XXC black1)"
            ),
            SwissError::NoPairing => write!(
                f,
                "no pairing keeps the absolute criteria (nobody meets twice, nobody has the bye twice, colours): the arbiter must decide"
            ),
            SwissError::TooManyPlayers(n) => {
                write!(f, "{n} players are more than the pairing handles")
            }
        }
    }
}

impl std::error::Error for SwissError {}

/// Pairs the next round of `tournament` by the Dutch system.
pub fn pair_next_round(tournament: &Tournament) -> Result<Pairings, SwissError> {
    let field = field::field(tournament)?;
    let layout = criteria::Layout::new(&field);
    let limbs = layout.total_bits.div_ceil(64) as usize;
    let matched = match limbs {
        0..=2 => dutch::pair::<2>(&field, &layout),
        3..=4 => dutch::pair::<4>(&field, &layout),
        5..=6 => dutch::pair::<6>(&field, &layout),
        7..=8 => dutch::pair::<8>(&field, &layout),
        9..=12 => dutch::pair::<12>(&field, &layout),
        13..=16 => dutch::pair::<16>(&field, &layout),
        17..=24 => dutch::pair::<24>(&field, &layout),
        25..=32 => dutch::pair::<32>(&field, &layout),
        33..=48 => dutch::pair::<48>(&field, &layout),
        49..=64 => dutch::pair::<64>(&field, &layout),
        _ => return Err(SwissError::TooManyPlayers(field.entrants.len())),
    }?;
    Ok(boards(&field, matched))
}

/// Colours each pair and orders the boards: the higher player's score, then the
/// lower one's, then the higher player's pairing number.
fn boards(field: &field::Field, matched: dutch::Matched) -> Pairings {
    let e = &field.entrants;
    let mut pairs: Vec<(usize, usize)> = matched
        .pairs
        .iter()
        .map(|&(a, b)| (a.min(b), a.max(b)))
        .collect();
    // Entrants are in pairing order: the smaller index is the higher player.
    pairs.sort_by(|&(h0, l0), &(h1, l1)| {
        e[h1]
            .score
            .cmp(&e[h0].score)
            .then(e[l1].score.cmp(&e[l0].score))
            .then(e[h0].rank.cmp(&e[h1].rank))
    });
    let boards = pairs
        .into_iter()
        .map(|(h, l)| {
            let (white, black) = criteria::colours(field, &e[h], &e[l]);
            Board {
                white: white.number,
                black: black.number,
            }
        })
        .collect();
    Pairings {
        boards,
        bye: matched.bye.map(|b| e[b].number),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trf::{self, Colour, Player};

    fn entrants(n: u32, rounds: Option<u32>) -> Tournament {
        Tournament {
            rounds,
            initial_colour: Some(Colour::White),
            players: (1..=n)
                .map(|i| Player {
                    number: Number(i),
                    name: format!("Player {i}"),
                    rating: 2000 - i,
                    points_tenths: 0,
                    rounds: Vec::new(),
                })
                .collect(),
            ..Tournament::default()
        }
    }

    fn boards(p: &Pairings) -> Vec<(u32, u32)> {
        p.boards.iter().map(|b| (b.white.0, b.black.0)).collect()
    }

    /// Round 1 by hand: the top half meets the bottom half in order, colours
    /// alternating down the boards from the first player's drawn colour (5.2.5).
    #[test]
    fn the_first_round_pairs_top_half_against_bottom_half() {
        let p = pair_next_round(&entrants(8, Some(5))).unwrap();
        assert_eq!(boards(&p), [(1, 5), (6, 2), (3, 7), (8, 4)]);
        assert_eq!(p.bye, None);
        let mut black_first = entrants(8, Some(5));
        black_first.initial_colour = Some(Colour::Black);
        let p = pair_next_round(&black_first).unwrap();
        assert_eq!(boards(&p), [(5, 1), (2, 6), (7, 3), (4, 8)]);
        // An odd field: the lowest player takes the bye, the rest as above.
        let p = pair_next_round(&entrants(7, Some(5))).unwrap();
        assert_eq!(boards(&p), [(1, 4), (5, 2), (3, 6)]);
        assert_eq!(p.bye, Some(Number(7)));
        assert_eq!(p.to_text(), "4\n1 4\n5 2\n3 6\n7 0\n");
    }

    /// Round 2 by hand after 1-5, 6-2, 3-7, 8-4, all won by white: the winners
    /// {1, 3, 6, 8} are the top bracket and the losers the other; nobody meets twice.
    #[test]
    fn the_second_round_pairs_within_scoregroups() {
        let mut t = entrants(8, Some(5));
        let first = [(1, 5), (6, 2), (3, 7), (8, 4)];
        for (w, b) in first {
            let white = &mut t.players[w as usize - 1];
            white.rounds.push(trf::Round {
                opponent: Some(Number(b)),
                colour: Some(Colour::White),
                result: trf::RoundResult::Win,
            });
            white.points_tenths = 10;
            t.players[b as usize - 1].rounds.push(trf::Round {
                opponent: Some(Number(w)),
                colour: Some(Colour::Black),
                result: trf::RoundResult::Loss,
            });
        }
        let p = pair_next_round(&t).unwrap();
        let winners = [1, 3, 6, 8];
        for (w, b) in boards(&p) {
            assert_eq!(
                winners.contains(&w),
                winners.contains(&b),
                "{w}-{b} crosses scoregroups"
            );
            assert!(
                !first.contains(&(w, b)) && !first.contains(&(b, w)),
                "{w}-{b} met already"
            );
        }
        // The winners' bracket: S1 = {1, 3}, S2 = {6, 8} by pairing order; 1-6
        // and 3-8 keep every criterion, so they are the pairs. Each had white,
        // so each prefers black: the higher ranked player gets it (5.2.4) after
        // the histories agree in every game (5.2.3 finds no difference).
        assert!(boards(&p).contains(&(6, 1)), "{:?}", boards(&p));
        assert!(boards(&p).contains(&(8, 3)), "{:?}", boards(&p));
    }

    #[test]
    fn faults_are_said() {
        assert_eq!(
            pair_next_round(&entrants(4, None)),
            Err(SwissError::RoundsNotSaid)
        );
        let mut t = entrants(4, Some(3));
        t.initial_colour = None;
        assert_eq!(pair_next_round(&t), Err(SwissError::FirstColourNotSaid));
        let mut t = entrants(4, Some(3));
        t.players[2].points_tenths = 15;
        let e = pair_next_round(&t).unwrap_err();
        assert_eq!(
            e.to_string(),
            "player 3 has 1.5 points in the file but 0.0 by their results"
        );
        // Two players who met already cannot be paired again.
        let mut t = entrants(2, Some(3));
        for (me, them, colour, result) in [
            (0, 2, Colour::White, trf::RoundResult::Draw),
            (1, 1, Colour::Black, trf::RoundResult::Draw),
        ] {
            t.players[me].rounds.push(trf::Round {
                opponent: Some(Number(them)),
                colour: Some(colour),
                result,
            });
            t.players[me].points_tenths = 5;
        }
        assert_eq!(pair_next_round(&t), Err(SwissError::NoPairing));
        let mut t = entrants(2, Some(1));
        t.players[0].rounds.push(trf::Round {
            opponent: Some(Number(2)),
            colour: Some(Colour::White),
            result: trf::RoundResult::Win,
        });
        t.players[0].points_tenths = 10;
        t.players[1].rounds.push(trf::Round {
            opponent: Some(Number(1)),
            colour: Some(Colour::Black),
            result: trf::RoundResult::Loss,
        });
        assert_eq!(
            pair_next_round(&t),
            Err(SwissError::Finished {
                played: 1,
                planned: 1
            })
        );
    }
}
