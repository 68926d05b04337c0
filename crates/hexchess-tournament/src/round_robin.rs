//! Round robins by FIDE's Berger tables (Handbook C.05, Annex 1): for `n` players
//! (one more, a bye, when `n` is odd) there are `n - 1` rounds, and the table says who
//! meets whom in each round and who has White. Tournament directors and players know
//! these tables by heart ("in round 3, number 2 has White against 6"), so the server
//! pairs by them rather than by any other rotation that would also be fair.
//!
//! How the table is made: the last number stays in place and the others turn. Round
//! by round, the other numbers are taken in order from a starting number that moves on
//! by `n / 2` each round (wrapping around); the first of them meets the last number
//! (White in odd rounds, Black in even ones), and the rest meet in pairs from both ends
//! inwards, the earlier one with White. A double round robin plays the table twice, the
//! colours of the second cycle reversed and, as FIDE recommends, the last two rounds of
//! the first cycle in swapped order (else the players who end the first cycle with two
//! games of one colour would begin the second with a third).

use std::fmt;

/// A player's starting number, from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Number(pub u32);

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// One board of a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Board {
    /// `white` plays `black`.
    Game {
        /// Who has White.
        white: Number,
        /// Who has Black.
        black: Number,
    },
    /// The player sits the round out (an odd number of players).
    Bye(Number),
}

/// Why a round robin cannot be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RoundRobinError {
    /// Fewer than two players.
    TooFew(u32),
    /// More players than a round robin is made for here.
    TooMany(u32),
}

impl fmt::Display for RoundRobinError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RoundRobinError::TooFew(n) => write!(f, "{n} players: a round robin needs two or more"),
            RoundRobinError::TooMany(n) => {
                write!(
                    f,
                    "{n} players: a round robin here has at most {MAX_PLAYERS}"
                )
            }
        }
    }
}

impl std::error::Error for RoundRobinError {}

/// The most players a round robin has here (a round robin of 64 is 63 rounds).
pub const MAX_PLAYERS: u32 = 64;

/// Once or twice around.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cycles {
    /// Each pair meets once.
    Single,
    /// Each pair meets twice, with each colour once.
    Double,
}

/// The rounds of a round robin of `players` players, in order, each a list of boards
/// (the boards in the table's order; a bye, if any, last).
pub fn rounds(players: u32, cycles: Cycles) -> Result<Vec<Vec<Board>>, RoundRobinError> {
    if players < 2 {
        return Err(RoundRobinError::TooFew(players));
    }
    if players > MAX_PLAYERS {
        return Err(RoundRobinError::TooMany(players));
    }
    let table = players + players % 2;
    let first: Vec<Vec<Board>> = (1..table)
        .map(|r| berger_round(table, r, players))
        .collect();
    Ok(match cycles {
        Cycles::Single => first,
        Cycles::Double => {
            let second: Vec<Vec<Board>> = first
                .iter()
                .map(|round| round.iter().map(|b| reversed(*b)).collect())
                .collect();
            let mut first = first;
            let last = first.len() - 1;
            if last >= 1 {
                first.swap(last - 1, last);
            }
            first.into_iter().chain(second).collect()
        }
    })
}

/// Round `round` (from 1) of the Berger table of `table` numbers (even), with numbers
/// past `players` standing for the bye.
fn berger_round(table: u32, round: u32, players: u32) -> Vec<Board> {
    let others = table - 1;
    // The starting number of the others' order moves on by table / 2 each round.
    let start = ((round - 1) * (table / 2)) % others;
    let order: Vec<u32> = (0..others).map(|i| (start + i) % others + 1).collect();
    let mut pairs = Vec::with_capacity(table as usize / 2);
    pairs.push(if round % 2 == 1 {
        (order[0], table)
    } else {
        (table, order[0])
    });
    for i in 1..=(others as usize - 1) / 2 {
        pairs.push((order[i], order[others as usize - i]));
    }
    let mut boards: Vec<Board> = Vec::with_capacity(pairs.len());
    let mut bye = None;
    for (white, black) in pairs {
        if white > players {
            bye = Some(Board::Bye(Number(black)));
        } else if black > players {
            bye = Some(Board::Bye(Number(white)));
        } else {
            boards.push(Board::Game {
                white: Number(white),
                black: Number(black),
            });
        }
    }
    boards.extend(bye);
    boards
}

fn reversed(board: Board) -> Board {
    match board {
        Board::Game { white, black } => Board::Game {
            white: black,
            black: white,
        },
        bye => bye,
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    fn games(round: &[Board]) -> Vec<(u32, u32)> {
        round
            .iter()
            .filter_map(|b| match b {
                Board::Game { white, black } => Some((white.0, black.0)),
                Board::Bye(_) => None,
            })
            .collect()
    }

    /// The Berger table for 5 or 6 players as FIDE prints it (Handbook C.05, Annex 1).
    #[test]
    fn six_players_follow_fides_printed_table() {
        let table = rounds(6, Cycles::Single).unwrap();
        let printed = [
            vec![(1, 6), (2, 5), (3, 4)],
            vec![(6, 4), (5, 3), (1, 2)],
            vec![(2, 6), (3, 1), (4, 5)],
            vec![(6, 5), (1, 4), (2, 3)],
            vec![(3, 6), (4, 2), (5, 1)],
        ];
        let made: Vec<Vec<(u32, u32)>> = table.iter().map(|r| games(r)).collect();
        assert_eq!(made, printed);
    }

    /// The table for 3 or 4 players as FIDE prints it.
    #[test]
    fn four_players_follow_fides_printed_table() {
        let made: Vec<Vec<(u32, u32)>> = rounds(4, Cycles::Single)
            .unwrap()
            .iter()
            .map(|r| games(r))
            .collect();
        assert_eq!(
            made,
            [
                vec![(1, 4), (2, 3)],
                vec![(4, 3), (1, 2)],
                vec![(2, 4), (3, 1)]
            ]
        );
    }

    /// Five players: the sixth number is the bye, so each round one player sits out,
    /// each player once.
    #[test]
    fn an_odd_number_of_players_gives_each_one_bye() {
        let table = rounds(5, Cycles::Single).unwrap();
        assert_eq!(table.len(), 5);
        let byes: Vec<u32> = table
            .iter()
            .map(|r| match r.last() {
                Some(Board::Bye(n)) => n.0,
                other => panic!("no bye last: {other:?}"),
            })
            .collect();
        // The players who met 6 in the table above: 1, 4, 2, 5, 3.
        assert_eq!(byes, [1, 4, 2, 5, 3]);
    }

    /// Every pair meets exactly once, nobody plays twice in a round, and colours are
    /// as even as a round robin allows (each player's whites and blacks differ by at
    /// most one), for every size up to the largest.
    #[test]
    fn every_pair_meets_once_and_colours_are_balanced() {
        for n in 2..=MAX_PLAYERS {
            let table = rounds(n, Cycles::Single).unwrap();
            assert_eq!(table.len() as u32, n + n % 2 - 1, "{n} players");
            let mut met = HashSet::new();
            let mut whites = vec![0i32; n as usize + 1];
            for round in &table {
                let mut seated = HashSet::new();
                for board in round {
                    match *board {
                        Board::Game { white, black } => {
                            assert!(seated.insert(white.0) && seated.insert(black.0));
                            let pair = (white.0.min(black.0), white.0.max(black.0));
                            assert!(met.insert(pair), "{n} players: {pair:?} twice");
                            whites[white.0 as usize] += 1;
                            whites[black.0 as usize] -= 1;
                        }
                        Board::Bye(p) => assert!(seated.insert(p.0)),
                    }
                }
                assert_eq!(seated.len() as u32, n, "{n} players: someone missing");
            }
            assert_eq!(met.len() as u32, n * (n - 1) / 2, "{n} players");
            for (p, balance) in whites.iter().enumerate().skip(1) {
                assert!(balance.abs() <= 1, "{n} players: {p} has {balance}");
            }
        }
    }

    /// A double round robin plays the table again with the colours reversed, the
    /// first cycle's last two rounds swapped.
    #[test]
    fn a_double_round_robin_reverses_the_colours() {
        let single = rounds(4, Cycles::Single).unwrap();
        let double = rounds(4, Cycles::Double).unwrap();
        assert_eq!(double.len(), 6);
        assert_eq!(double[0], single[0]);
        assert_eq!(double[1], single[2]);
        assert_eq!(double[2], single[1]);
        assert_eq!(games(&double[3]), [(4, 1), (3, 2)]);
        assert_eq!(games(&double[5]), [(4, 2), (1, 3)]);
    }

    /// In a double round robin nobody gets one colour three times in a row, for every
    /// even size (without the swap, two players would, where the cycles meet: FIDE's
    /// reason for it); each pair meets twice, once with each colour.
    #[test]
    fn a_double_round_robin_never_gives_one_colour_three_times_running() {
        for n in (4..=MAX_PLAYERS).step_by(2) {
            let table = rounds(n, Cycles::Double).unwrap();
            for p in 1..=n {
                let colours: Vec<char> = table
                    .iter()
                    .filter_map(|round| {
                        round.iter().find_map(|b| match *b {
                            Board::Game { white, .. } if white.0 == p => Some('W'),
                            Board::Game { black, .. } if black.0 == p => Some('B'),
                            _ => None,
                        })
                    })
                    .collect();
                assert!(
                    !colours.windows(3).any(|w| w[0] == w[1] && w[1] == w[2]),
                    "{n} players: {p} has {colours:?}"
                );
            }
            let mut met = std::collections::HashMap::new();
            for round in &table {
                for (w, b) in games(round) {
                    met.entry((w.min(b), w.max(b)))
                        .or_insert_with(Vec::new)
                        .push(w);
                }
            }
            assert!(
                met.values()
                    .all(|whites| whites.len() == 2 && whites[0] != whites[1])
            );
        }
    }

    #[test]
    fn sizes_out_of_range_are_refused_with_why() {
        assert_eq!(rounds(1, Cycles::Single), Err(RoundRobinError::TooFew(1)));
        assert_eq!(
            rounds(65, Cycles::Single).unwrap_err().to_string(),
            "65 players: a round robin here has at most 64"
        );
    }
}
