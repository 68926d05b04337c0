//! The players of the round to pair, as the Dutch rules see them: scores, colour
//! preferences, floats and who may take the bye, all read off the rounds so far.

use std::collections::HashSet;

use super::SwissError;
use crate::round_robin::Number;
use crate::trf::{Colour, PointSystem, Round, RoundResult, Tournament};

/// A float a player received in a round (Article 1.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Float {
    /// Paired below their score, or scored without playing more than a loss.
    Down,
    /// Paired above their score.
    Up,
    /// Neither.
    None,
}

/// A player to be paired in the coming round.
#[derive(Clone, Debug)]
pub(crate) struct Entrant {
    pub number: Number,
    /// The place among the tournament's players by starting number (from 0): what
    /// the rules call the pairing number, for ties and for the initial colour.
    pub rank: usize,
    /// Points so far, in tenths.
    pub score: u32,
    /// The colour of each game played over the board, in order.
    pub colours: Vec<Colour>,
    /// The colour preference (Article 1.7), if any.
    pub prefer: Option<Colour>,
    /// Whites minus blacks, without its sign.
    pub imbalance: u32,
    /// The colour of the last two games played, when they were the same.
    pub repeated: Option<Colour>,
    /// A strong preference: one more game of one colour, not absolute.
    pub strong: bool,
    /// The floats of the last round and of the round before.
    pub floats: [Float; 2],
    /// Whether the pairing-allocated bye may be given (C2).
    pub bye_eligible: bool,
    /// Games played over the board.
    pub played_games: u32,
    /// Opponents met over the board (C1: a forfeit is not a meeting).
    pub met: HashSet<Number>,
}

impl Entrant {
    /// A colour difference beyond one either way.
    pub fn absolute_imbalance(&self) -> bool {
        self.imbalance > 1
    }

    /// An absolute colour preference (Article 1.7.1).
    pub fn absolute(&self) -> bool {
        self.absolute_imbalance() || self.repeated.is_some()
    }
}

/// The round to pair: its entrants in pairing order (score, then pairing number),
/// and what the criteria need of the tournament.
#[derive(Clone, Debug)]
pub(crate) struct Field {
    pub entrants: Vec<Entrant>,
    /// Rounds already paired.
    pub played_rounds: u32,
    /// Rounds the tournament has.
    pub planned_rounds: u32,
    pub points: PointSystem,
    /// The colour the first-ranked player had (or would have had) in round 1.
    pub initial_colour: Colour,
}

impl Field {
    /// Above this score a player is a topscorer, who may break colour rules in the
    /// last round (Article 1.8); none before it.
    pub fn topscorer_threshold(&self) -> Option<u32> {
        (self.played_rounds + 1 >= self.planned_rounds)
            .then(|| self.played_rounds * self.points.win.max(self.points.draw) / 2)
    }

    /// Whether two entrants may meet at all (C1 and C3).
    pub fn compatible(&self, a: &Entrant, b: &Entrant) -> bool {
        if a.met.contains(&b.number) {
            return false;
        }
        let clash = a.absolute() && b.absolute() && a.prefer == b.prefer;
        !clash
            || self
                .topscorer_threshold()
                .is_some_and(|t| a.score > t || b.score > t)
    }
}

fn paired(round: &Round) -> bool {
    round.was_paired()
}

fn played(round: &Round) -> bool {
    round.was_played()
}

/// Reads the round to pair off a tournament file: rounds paired so far are those
/// anyone was paired in; a record with a round beyond them asks for that round off
/// (a bye or an absence) and is not paired.
pub(crate) fn field(t: &Tournament) -> Result<Field, SwissError> {
    let played_rounds = t
        .players
        .iter()
        .flat_map(|p| p.rounds.iter().enumerate().filter(|(_, r)| paired(r)))
        .map(|(i, _)| i as u32 + 1)
        .max()
        .unwrap_or(0);
    let planned_rounds = t.rounds.ok_or(SwissError::RoundsNotSaid)?;
    if played_rounds >= planned_rounds {
        return Err(SwissError::Finished {
            played: played_rounds,
            planned: planned_rounds,
        });
    }
    for p in &t.players {
        let listed = p
            .rounds
            .iter()
            .map(|r| t.points.points(r.result))
            .sum::<u32>();
        if listed != p.points_tenths {
            return Err(SwissError::PointsDisagree {
                player: p.number,
                written: p.points_tenths,
                counted: listed,
            });
        }
    }
    let mut numbers: Vec<&crate::trf::Player> = t
        .players
        .iter()
        .filter(|p| p.rounds.len() as u32 <= played_rounds || p.rounds.iter().any(paired))
        .collect();
    numbers.sort_by_key(|p| p.number);
    let initial_colour = t.first_colour().ok_or(SwissError::FirstColourNotSaid)?;
    let mut entrants: Vec<Entrant> = numbers
        .iter()
        .enumerate()
        .filter(|(_, p)| p.rounds.len() as u32 <= played_rounds)
        .map(|(rank, p)| entrant(p, rank, played_rounds, &t.points))
        .collect();
    let scores_before: std::collections::HashMap<Number, [u32; 3]> = t
        .players
        .iter()
        .map(|p| (p.number, scores_back(p, played_rounds, &t.points)))
        .collect();
    for e in &mut entrants {
        let record = t
            .players
            .iter()
            .find(|p| p.number == e.number)
            .expect("an entrant is a player");
        e.floats = floats(record, played_rounds, &t.points, &scores_before);
    }
    entrants.sort_by(|a, b| b.score.cmp(&a.score).then(a.rank.cmp(&b.rank)));
    Ok(Field {
        entrants,
        played_rounds,
        planned_rounds,
        points: t.points,
        initial_colour,
    })
}

pub(crate) fn opposite(c: Colour) -> Colour {
    c.opposite()
}

fn round_of(p: &crate::trf::Player, r: usize) -> Round {
    p.rounds.get(r).copied().unwrap_or(Round {
        opponent: None,
        colour: None,
        result: RoundResult::ZeroBye,
    })
}

/// The score before the last round, before the one before it, and now.
fn scores_back(p: &crate::trf::Player, played_rounds: u32, points: &PointSystem) -> [u32; 3] {
    let upto = |n: u32| -> u32 {
        (0..n as usize)
            .map(|r| points.points(round_of(p, r).result))
            .sum()
    };
    [
        upto(played_rounds.saturating_sub(1)),
        upto(played_rounds.saturating_sub(2)),
        upto(played_rounds),
    ]
}

fn entrant(
    p: &crate::trf::Player,
    rank: usize,
    played_rounds: u32,
    points: &PointSystem,
) -> Entrant {
    let rounds: Vec<Round> = (0..played_rounds as usize)
        .map(|r| round_of(p, r))
        .collect();
    let score = rounds.iter().map(|r| points.points(r.result)).sum();
    let colours: Vec<Colour> = rounds
        .iter()
        .filter(|r| played(r))
        .filter_map(|r| r.colour)
        .collect();
    let whites = colours.iter().filter(|&&c| c == Colour::White).count() as i64;
    let blacks = colours.len() as i64 - whites;
    let fewer = if whites > blacks {
        Colour::Black
    } else {
        Colour::White
    };
    let imbalance = (whites - blacks).unsigned_abs() as u32;
    let last = colours.last().copied();
    let run = colours
        .iter()
        .rev()
        .take_while(|&&c| Some(c) == last)
        .count();
    let repeated = (run >= 2).then_some(last).flatten();
    let prefer = if imbalance > 1 {
        Some(fewer)
    } else if let Some(c) = repeated {
        Some(opposite(c))
    } else if imbalance > 0 {
        Some(fewer)
    } else {
        last.map(opposite)
    };
    let absolute = imbalance > 1 || repeated.is_some();
    let bye_eligible = !rounds.iter().any(|r| {
        !played(r) && (points.points(r.result) >= points.win || r.result == RoundResult::PairingBye)
    });
    Entrant {
        number: p.number,
        rank,
        score,
        prefer,
        imbalance,
        repeated,
        strong: !absolute && imbalance > 0,
        played_games: colours.len() as u32,
        colours,
        floats: [Float::None; 2],
        bye_eligible,
        met: rounds
            .iter()
            .filter(|r| played(r))
            .filter_map(|r| r.opponent)
            .collect(),
    }
}

/// The floats of the last round and the one before (Article 1.4): a game against a
/// higher score is an upfloat, against a lower one a downfloat; a round scored
/// without playing, above a loss's points, a downfloat.
fn floats(
    p: &crate::trf::Player,
    played_rounds: u32,
    points: &PointSystem,
    scores: &std::collections::HashMap<Number, [u32; 3]>,
) -> [Float; 2] {
    let mut out = [Float::None; 2];
    for (back, slot) in out.iter_mut().enumerate() {
        let Some(r) = (played_rounds as usize).checked_sub(back + 1) else {
            continue;
        };
        let round = round_of(p, r);
        *slot = if !played(&round) {
            if points.points(round.result) > points.loss {
                Float::Down
            } else {
                Float::None
            }
        } else {
            let mine = scores[&p.number][back];
            let theirs = round
                .opponent
                .and_then(|o| scores.get(&o))
                .map_or(mine, |s| s[back]);
            match mine.cmp(&theirs) {
                std::cmp::Ordering::Greater => Float::Down,
                std::cmp::Ordering::Less => Float::Up,
                std::cmp::Ordering::Equal => Float::None,
            }
        };
    }
    out
}
