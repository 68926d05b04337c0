//! A tournament's scores, standings and TRF file, read off its entries and pairings
//! (pure functions: the director keeps the rows, this turns them into what players
//! see and what the Swiss pairing reads).

use std::collections::HashMap;

use hexchess_protocol::{StandingLine, TournamentKind, TournamentListing, TournamentView};
use hexchess_tournament::arena::{ArenaRules, Outcome, Played, Sheet};
use hexchess_tournament::round_robin::Number;
use hexchess_tournament::trf::{self, Colour, Round, RoundResult};

use crate::store::{StoredEntry, StoredPairing, StoredTournament};

/// A tournament as the director holds it: the rows of the database.
#[derive(Clone, Debug)]
pub struct Held {
    /// The tournament.
    pub t: StoredTournament,
    /// Its entrants, in order of entry.
    pub entries: Vec<StoredEntry>,
    /// Its pairings, in round and board order.
    pub pairings: Vec<StoredPairing>,
}

/// One side's result in a pairing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// White (or the bye's player).
    White,
    /// Black.
    Black,
}

impl Held {
    /// Its kind.
    pub fn kind(&self) -> TournamentKind {
        TournamentKind::from_name(&self.t.kind).unwrap_or(TournamentKind::Arena)
    }

    /// The entrant with this key.
    pub fn entry(&self, entrant: &str) -> Option<&StoredEntry> {
        self.entries.iter().find(|e| e.entrant == entrant)
    }

    /// The pairings whose games are still on.
    pub fn in_play(&self) -> impl Iterator<Item = &StoredPairing> {
        self.pairings.iter().filter(|p| p.result.is_none())
    }

    /// An arena's end (ms since 1970).
    pub fn ends_ms(&self) -> Option<i64> {
        (self.kind() == TournamentKind::Arena)
            .then(|| self.t.starts_ms + i64::from(self.t.seconds) * 1000)
    }

    /// The rounds it has in all (Swiss; round robin by its schedule).
    pub fn total_rounds(&self) -> Option<u32> {
        match self.kind() {
            TournamentKind::Arena => None,
            TournamentKind::Swiss => Some(self.t.rounds),
            TournamentKind::RoundRobin => {
                let n = self.entries.iter().filter(|e| e.number.is_some()).count() as u32;
                let per_cycle = if n.is_multiple_of(2) {
                    n.saturating_sub(1)
                } else {
                    n
                };
                (self.t.status != "waiting").then_some(per_cycle * self.t.rounds.max(1))
            }
        }
    }
}

/// What a result code gives white and black, in half points (a win 2), and whether
/// the game was played over the board.
pub fn halves(result: &str) -> (u32, u32, bool) {
    match result {
        "1" => (2, 0, true),
        "0" => (0, 2, true),
        "=" => (1, 1, true),
        "+" => (2, 0, false),
        "-" => (0, 2, false),
        "U" => (2, 0, false),
        _ => (0, 0, false),
    }
}

/// An entrant's result in a pairing, for the arena's sheet.
fn outcome_for(p: &StoredPairing, side: Side) -> Option<Outcome> {
    let (w, b, _) = halves(p.result.as_deref()?);
    let (mine, theirs) = match side {
        Side::White => (w, b),
        Side::Black => (b, w),
    };
    Some(match mine.cmp(&theirs) {
        std::cmp::Ordering::Greater => Outcome::Win,
        std::cmp::Ordering::Equal => Outcome::Draw,
        std::cmp::Ordering::Less => Outcome::Loss,
    })
}

/// Each entrant's finished games, in order, with their side.
fn games_of(held: &Held) -> HashMap<&str, Vec<(&StoredPairing, Side)>> {
    let mut out: HashMap<&str, Vec<(&StoredPairing, Side)>> = HashMap::new();
    for p in held.pairings.iter().filter(|p| p.result.is_some()) {
        out.entry(p.white.as_str())
            .or_default()
            .push((p, Side::White));
        if let Some(b) = &p.black {
            out.entry(b.as_str()).or_default().push((p, Side::Black));
        }
    }
    out
}

/// Each entrant's arena sheet (byes and forfeits without a game score as the result
/// says: an arena has neither).
pub fn arena_sheets(held: &Held) -> HashMap<String, Sheet> {
    let rules = ArenaRules {
        berserk: held.t.berserk,
        ..ArenaRules::default()
    };
    let games = games_of(held);
    held.entries
        .iter()
        .map(|e| {
            let mut sheet = Sheet::default();
            for (p, side) in games.get(e.entrant.as_str()).into_iter().flatten() {
                if let Some(outcome) = outcome_for(p, *side) {
                    let mark = match side {
                        Side::White => 'w',
                        Side::Black => 'b',
                    };
                    sheet.add(
                        &rules,
                        Played {
                            outcome,
                            plies: p.plies.unwrap_or(0),
                            berserk: p.berserk.contains(mark),
                        },
                    );
                }
            }
            (e.entrant.clone(), sheet)
        })
        .collect()
}

/// Swiss and round robin scores in half points.
fn half_points(held: &Held) -> HashMap<&str, u32> {
    let mut out: HashMap<&str, u32> = held
        .entries
        .iter()
        .map(|e| (e.entrant.as_str(), 0))
        .collect();
    for p in held.pairings.iter() {
        let Some(result) = p.result.as_deref() else {
            continue;
        };
        let (w, b, _) = halves(result);
        *out.entry(p.white.as_str()).or_default() += w;
        if let Some(black) = &p.black {
            *out.entry(black.as_str()).or_default() += b;
        }
    }
    out
}

/// The standings, best first.
pub fn standings(held: &Held) -> Vec<StandingLine> {
    let lines = match held.kind() {
        TournamentKind::Arena => arena_lines(held),
        _ => swiss_lines(held),
    };
    ranked(lines)
}

/// Each entrant's game in play, by entrant.
fn games_in_play(held: &Held) -> HashMap<&str, String> {
    let mut out = HashMap::new();
    for p in held.in_play() {
        if let Some(g) = &p.game {
            out.insert(p.white.as_str(), g.clone());
            if let Some(b) = &p.black {
                out.insert(b.as_str(), g.clone());
            }
        }
    }
    out
}

fn line(playing: &HashMap<&str, String>, e: &StoredEntry) -> StandingLine {
    StandingLine {
        rank: 0,
        number: e.number,
        name: e.name.clone(),
        bot: e.bot,
        rating: e.rating.round().max(0.0) as u32,
        points: 0.0,
        games: 0,
        tie_breaks: Vec::new(),
        sheet: Vec::new(),
        on_fire: false,
        withdrawn: e.withdrawn,
        playing: playing.get(e.entrant.as_str()).cloned(),
    }
}

fn arena_lines(held: &Held) -> Vec<(StandingLine, Vec<f64>)> {
    let sheets = arena_sheets(held);
    let playing = games_in_play(held);
    held.entries
        .iter()
        .map(|e| {
            let sheet = &sheets[&e.entrant];
            let mut l = line(&playing, e);
            l.points = f64::from(sheet.score());
            l.games = sheet.games.len() as u32;
            l.sheet = sheet.games.iter().map(|g| g.points.to_string()).collect();
            l.on_fire = sheet.on_fire();
            // Equal points: fewer games first (the same from less), then rating.
            let key = vec![l.points, -f64::from(l.games), e.rating];
            (l, key)
        })
        .collect()
}

/// Swiss and round robin: points, then Buchholz (the opponents' scores), then
/// Sonneborn-Berger (the scores of those beaten, and half of those drawn with), then
/// the direct encounter among the players tied on all of those.
fn swiss_lines(held: &Held) -> Vec<(StandingLine, Vec<f64>)> {
    let points = half_points(held);
    let games = games_of(held);
    let playing = games_in_play(held);
    let mut lines: Vec<(StandingLine, Vec<f64>)> = held
        .entries
        .iter()
        .map(|e| {
            let mut l = line(&playing, e);
            let mine = points.get(e.entrant.as_str()).copied().unwrap_or(0);
            let mut buchholz = 0;
            let mut sonneborn = 0;
            let mut played = 0;
            for (p, side) in games.get(e.entrant.as_str()).into_iter().flatten() {
                let result = p.result.as_deref().unwrap_or("");
                let (w, b, over_the_board) = halves(result);
                let (got, opponent) = match side {
                    Side::White => (w, p.black.as_deref()),
                    Side::Black => (b, Some(p.white.as_str())),
                };
                l.sheet.push(sheet_mark(result, got, over_the_board));
                let Some(o) = opponent.filter(|_| over_the_board) else {
                    continue;
                };
                played += 1;
                let theirs = points.get(o).copied().unwrap_or(0);
                buchholz += theirs;
                sonneborn += theirs * got;
            }
            l.points = f64::from(mine) / 2.0;
            l.games = played;
            l.tie_breaks = vec![f64::from(buchholz) / 2.0, f64::from(sonneborn) / 4.0];
            let key = vec![l.points, l.tie_breaks[0], l.tie_breaks[1]];
            (l, key)
        })
        .collect();
    direct_encounter(held, &mut lines);
    lines
}

fn sheet_mark(result: &str, got: u32, over_the_board: bool) -> String {
    match result {
        "U" => return "U".into(),
        "Z" => return "bye".into(),
        _ => {}
    }
    match (over_the_board, got) {
        (true, 2) => "1".into(),
        (true, 1) => "½".into(),
        (true, _) => "0".into(),
        (false, 2) => "+".into(),
        (false, _) => "-".into(),
    }
}

/// Among players equal on every key, the points each scored against the others of
/// that group decide next (FIDE's direct encounter).
fn direct_encounter(held: &Held, lines: &mut [(StandingLine, Vec<f64>)]) {
    let keys: Vec<Vec<f64>> = lines.iter().map(|(_, k)| k.clone()).collect();
    let names: Vec<String> = lines.iter().map(|(l, _)| l.name.clone()).collect();
    let entrant_of = |name: &str| {
        held.entries
            .iter()
            .find(|e| e.name == name)
            .map(|e| e.entrant.clone())
    };
    for (i, (_, key)) in lines.iter_mut().enumerate() {
        let group: Vec<String> = keys
            .iter()
            .enumerate()
            .filter(|(j, k)| *j != i && **k == keys[i])
            .filter_map(|(j, _)| entrant_of(&names[j]))
            .collect();
        let me = entrant_of(&names[i]).unwrap_or_default();
        let mut among = 0;
        for p in &held.pairings {
            let (w, b, true) = halves(p.result.as_deref().unwrap_or("")) else {
                continue;
            };
            match (&p.black, p.white == me) {
                (Some(black), true) if group.contains(black) => among += w,
                (Some(black), false) if *black == me && group.contains(&p.white) => among += b,
                _ => {}
            }
        }
        key.push(f64::from(among));
    }
}

/// Sorts by the keys (higher first) and gives places: equal keys share one.
fn ranked(mut lines: Vec<(StandingLine, Vec<f64>)>) -> Vec<StandingLine> {
    lines.sort_by(|(la, a), (lb, b)| {
        b.partial_cmp(a)
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(la.number.cmp(&lb.number))
            .then(la.name.cmp(&lb.name))
    });
    let mut out = Vec::with_capacity(lines.len());
    for i in 0..lines.len() {
        let rank = if i > 0 && lines[i].1 == lines[i - 1].1 {
            out.last().map_or(1, |l: &StandingLine| l.rank)
        } else {
            i as u32 + 1
        };
        let mut l = lines[i].0.clone();
        l.rank = rank;
        out.push(l);
    }
    out
}

/// What the list shows of a tournament.
pub fn listing(held: &Held) -> TournamentListing {
    let t = &held.t;
    let kind = held.kind();
    TournamentListing {
        id: t.id.clone(),
        kind,
        name: t.name.clone(),
        variant: t.variant.clone(),
        minutes: t.minutes,
        increment: t.increment,
        rated: t.rated,
        bots: t.bots,
        berserk: t.berserk,
        status: t.status.clone(),
        starts_ms: t.starts_ms,
        ends_ms: held.ends_ms(),
        round: (kind != TournamentKind::Arena).then_some(t.round),
        rounds: held.total_rounds(),
        players: held.entries.len() as u32,
        by: t.creator_name.clone(),
    }
}

/// The tournament and its standings.
pub fn view(held: &Held) -> TournamentView {
    TournamentView {
        listing: listing(held),
        standings: standings(held),
    }
}

/// The tournament as a TRF16 file, its rounds paired so far; with `next` the round
/// to pair next, whose absences are written (a withdrawn entrant: `Z`) so that the
/// pairing leaves them out. Entrants without a starting number (an arena's, or
/// before the start) get the next numbers in order of entry.
pub fn trf_of(held: &Held, next: Option<u32>) -> trf::Tournament {
    let mut numbers: HashMap<&str, u32> = HashMap::new();
    let mut top = held
        .entries
        .iter()
        .filter_map(|e| e.number)
        .max()
        .unwrap_or(0);
    for e in &held.entries {
        let n = e.number.unwrap_or_else(|| {
            top += 1;
            top
        });
        numbers.insert(e.entrant.as_str(), n);
    }
    let rounds = held.pairings.iter().map(|p| p.round).max().unwrap_or(0);
    let mut players: Vec<trf::Player> = held
        .entries
        .iter()
        .map(|e| {
            let mut record: Vec<Round> = (1..=rounds)
                .map(|r| round_of(held, &numbers, &e.entrant, r))
                .collect();
            if let Some(next) = next
                && e.withdrawn
                && next == rounds + 1
            {
                record.push(Round {
                    opponent: None,
                    colour: None,
                    result: RoundResult::ZeroBye,
                });
            }
            let points = record
                .iter()
                .map(|r| trf::PointSystem::default().points(r.result))
                .sum();
            trf::Player {
                number: Number(numbers[e.entrant.as_str()]),
                name: e.name.clone(),
                rating: e.rating.round().clamp(0.0, 9999.0) as u32,
                points_tenths: points,
                rounds: record,
            }
        })
        .collect();
    players.sort_by_key(|p| p.number);
    trf::Tournament {
        name: held.t.name.clone(),
        rounds: held.total_rounds(),
        initial_colour: Some(Colour::White),
        points: trf::PointSystem::default(),
        players,
    }
}

/// An entrant's record of round `r`: a game, a bye, or a zero-point absence.
fn round_of(held: &Held, numbers: &HashMap<&str, u32>, entrant: &str, r: u32) -> Round {
    let absent = Round {
        opponent: None,
        colour: None,
        result: RoundResult::ZeroBye,
    };
    let Some(p) = held
        .pairings
        .iter()
        .find(|p| p.round == r && (p.white == entrant || p.black.as_deref() == Some(entrant)))
    else {
        return absent;
    };
    // A game still on is left out (written as not paired yet).
    let Some(result) = p.result.as_deref() else {
        return absent;
    };
    let Some(black) = &p.black else {
        return match result {
            "U" => Round {
                opponent: None,
                colour: None,
                result: RoundResult::PairingBye,
            },
            _ => absent,
        };
    };
    let white_side = p.white == entrant;
    let (opponent, colour) = if white_side {
        (black.as_str(), Colour::White)
    } else {
        (p.white.as_str(), Colour::Black)
    };
    let (w, b, over_the_board) = halves(result);
    let (mine, theirs) = if white_side { (w, b) } else { (b, w) };
    let result = match (over_the_board, mine.cmp(&theirs)) {
        (true, std::cmp::Ordering::Greater) => RoundResult::Win,
        (true, std::cmp::Ordering::Equal) => RoundResult::Draw,
        (true, std::cmp::Ordering::Less) => RoundResult::Loss,
        (false, std::cmp::Ordering::Greater) => RoundResult::ForfeitWin,
        (false, _) => RoundResult::ForfeitLoss,
    };
    Round {
        opponent: numbers.get(opponent).map(|&n| Number(n)),
        colour: Some(colour),
        result,
    }
}
