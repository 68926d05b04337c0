//! FIDE's Tournament Report File (TRF16, the fixed-column text the FIDE-endorsed
//! pairing programs read and write): the players and each one's rounds so far. The
//! server reads it for `pair-swiss FILE.trf` and writes it for `/tournament/ID.trf`.
//!
//! A player's record (`001`) has fixed columns (counted from 1): the starting number in
//! 5-8, the name in 15-47, the rating in 49-52, the points in 81-84 (`11.5`), then ten
//! columns a round from 92: the opponent's number in 92-95 (`0000` or blanks: none), the
//! colour in 97 (`w`, `b`, `-`), the result in 99. The number of rounds comes from
//! `XXR` (the pairing programs' extension) or `142` (TRF's own tag in its later
//! versions); the first round's colour for the first player from `XXC white1` or
//! `XXC black1`; points other than 1 and ½ from the `BBW`, `BBD`, `BBL`, `BBZ`, `BBF`
//! and `BBU` lines of bbpPairings's extension. Other lines are kept out of the way:
//! comments (`###`), other tags. Lines may end in `\n`, `\r\n` or a lone `\r`.

use std::fmt;

use crate::arena::Outcome;
use crate::round_robin::Number;

/// A colour in a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Colour {
    /// `w`.
    White,
    /// `b`.
    Black,
}

/// What a round's result column says (TRF's codes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoundResult {
    /// `1`: a win over the board.
    Win,
    /// `=`: a draw.
    Draw,
    /// `0`: a loss.
    Loss,
    /// `+`: a win by forfeit.
    ForfeitWin,
    /// `-`: a loss by forfeit.
    ForfeitLoss,
    /// `W`, `D`, `L`: a result of a game that lasted less than a move (not rated).
    Unplayed(Outcome),
    /// `H`: a half-point bye.
    HalfBye,
    /// `F`: a full-point bye.
    FullBye,
    /// `U`: the pairing-allocated bye.
    PairingBye,
    /// `Z` or blank: a zero-point bye (a known absence).
    ZeroBye,
}

/// One round of a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Round {
    /// The opponent (none: a bye or an absence).
    pub opponent: Option<Number>,
    /// The colour (none: `-` or blank).
    pub colour: Option<Colour>,
    /// The result.
    pub result: RoundResult,
}

/// A player's record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    /// The starting number.
    pub number: Number,
    /// The name as written.
    pub name: String,
    /// The rating (0 when blank).
    pub rating: u32,
    /// The points as written, in tenths (`11.5` is 115).
    pub points_tenths: u32,
    /// The rounds so far, in order.
    pub rounds: Vec<Round>,
}

/// Points for each kind of result, in tenths (a win is 10 in the usual system).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PointSystem {
    /// A win, over the board or by forfeit (`BBW`).
    pub win: u32,
    /// A draw, and a half-point bye (`BBD`).
    pub draw: u32,
    /// A loss over the board (`BBL`).
    pub loss: u32,
    /// A zero-point bye, an absence (`BBZ`).
    pub zero_bye: u32,
    /// A loss by forfeit (`BBF`).
    pub forfeit_loss: u32,
    /// The pairing-allocated bye (`BBU`; a win's points unless said).
    pub pairing_bye: u32,
}

impl Default for PointSystem {
    fn default() -> Self {
        Self {
            win: 10,
            draw: 5,
            loss: 0,
            zero_bye: 0,
            forfeit_loss: 0,
            pairing_bye: 10,
        }
    }
}

impl PointSystem {
    /// What a round's result scores.
    pub fn points(&self, result: RoundResult) -> u32 {
        match result {
            RoundResult::Win | RoundResult::ForfeitWin | RoundResult::FullBye => self.win,
            RoundResult::Unplayed(Outcome::Win) => self.win,
            RoundResult::Draw | RoundResult::HalfBye => self.draw,
            RoundResult::Unplayed(Outcome::Draw) => self.draw,
            RoundResult::Loss | RoundResult::Unplayed(Outcome::Loss) => self.loss,
            RoundResult::ForfeitLoss => self.forfeit_loss,
            RoundResult::PairingBye => self.pairing_bye,
            RoundResult::ZeroBye => self.zero_bye,
        }
    }
}

/// A tournament as the file has it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tournament {
    /// The name (`012`).
    pub name: String,
    /// The rounds it is to have (`XXR` or `142`), if said.
    pub rounds: Option<u32>,
    /// The colour of the first player (by starting number) in the first round
    /// (`XXC white1` or `XXC black1`), if said.
    pub initial_colour: Option<Colour>,
    /// The points of each result.
    pub points: PointSystem,
    /// The players, in the file's order.
    pub players: Vec<Player>,
}

impl Tournament {
    /// The colour the first player had, or would have had, in round 1: as `XXC`
    /// says, or as the first round with a colour written shows (a forfeited game's
    /// count: it was paired with colours). Counting the players paired by then in
    /// starting order, the first with a colour there gives it: as it is for an odd
    /// place, reversed for an even one (as bbpPairings reads a file without `XXC`).
    pub fn first_colour(&self) -> Option<Colour> {
        if self.initial_colour.is_some() {
            return self.initial_colour;
        }
        let first = self
            .players
            .iter()
            .filter_map(|p| p.rounds.iter().position(|r| r.colour.is_some()))
            .min()?;
        let mut everyone: Vec<&Player> = self.players.iter().collect();
        everyone.sort_by_key(|p| p.number);
        everyone
            .iter()
            .filter(|p| p.rounds.iter().take(first + 1).any(Round::was_paired))
            .enumerate()
            .find_map(|(place, p)| {
                let c = p.rounds.get(first)?.colour?;
                Some(if place % 2 == 0 { c } else { c.opposite() })
            })
    }

    /// The tournament as it stood before round `round` (from 1) was paired: each
    /// record's earlier rounds, and its entry for that round only when it keeps the
    /// player out of the pairing (an absence, a bye asked for); points counted again
    /// from the results; the first colour written out.
    pub fn before_round(&self, round: usize) -> Tournament {
        let keep = round.saturating_sub(1);
        let players = self
            .players
            .iter()
            .map(|p| {
                let mut rounds: Vec<Round> = p.rounds.iter().take(keep).copied().collect();
                if let Some(next) = p.rounds.get(keep)
                    && !next.was_paired()
                {
                    rounds.push(*next);
                }
                Player {
                    points_tenths: rounds.iter().map(|r| self.points.points(r.result)).sum(),
                    rounds,
                    ..p.clone()
                }
            })
            .collect();
        Tournament {
            name: self.name.clone(),
            rounds: self.rounds,
            initial_colour: self.first_colour(),
            points: self.points,
            players,
        }
    }
}

impl Round {
    /// Whether the pairing placed the player in this round: a game (or a forfeit)
    /// with an opponent, the pairing-allocated bye, a win by forfeit.
    pub fn was_paired(&self) -> bool {
        self.opponent.is_some()
            || matches!(
                self.result,
                RoundResult::PairingBye | RoundResult::ForfeitWin
            )
    }

    /// Whether a game was played over the board.
    pub fn was_played(&self) -> bool {
        self.opponent.is_some()
            && self.colour.is_some()
            && matches!(
                self.result,
                RoundResult::Win | RoundResult::Draw | RoundResult::Loss
            )
    }
}

impl Colour {
    /// The other colour.
    pub fn opposite(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// What is wrong with a file, and where (lines and columns from 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrfError {
    /// The line.
    pub line: usize,
    /// The first column of the field.
    pub column: usize,
    /// What is wrong.
    pub what: String,
}

impl fmt::Display for TrfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.what
        )
    }
}

impl std::error::Error for TrfError {}

/// The most rounds a player's record may have here.
pub const MAX_ROUNDS: usize = 99;

/// The most players a file may have here.
pub const MAX_PLAYERS: usize = 9_999;

/// Reads a TRF16 file.
pub fn read(text: &str) -> Result<Tournament, TrfError> {
    let mut tournament = Tournament::default();
    let mut pairing_bye_said = false;
    let mut lines = Vec::new();
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    for (i, line) in text.lines().enumerate() {
        let at = i + 1;
        if line.starts_with("###") || line.trim().is_empty() {
            continue;
        }
        let tag = line.get(..3).unwrap_or(line);
        match tag {
            "012" => tournament.name = field(line, 5, line.chars().count().max(5)),
            "XXR" | "142" => tournament.rounds = Some(number_field(line, at, 5, 8, "rounds")?),
            "XXC" => tournament.initial_colour = Some(initial_colour(line, at)?),
            "BBW" => tournament.points.win = point_value(line, at)?,
            "BBD" => tournament.points.draw = point_value(line, at)?,
            "BBL" => tournament.points.loss = point_value(line, at)?,
            "BBZ" => tournament.points.zero_bye = point_value(line, at)?,
            "BBF" => tournament.points.forfeit_loss = point_value(line, at)?,
            "BBU" => {
                tournament.points.pairing_bye = point_value(line, at)?;
                pairing_bye_said = true;
            }
            "001" => {
                if tournament.players.len() >= MAX_PLAYERS {
                    return Err(error(at, 1, format!("more than {MAX_PLAYERS} players")));
                }
                tournament.players.push(player(line, at)?);
                lines.push(at);
            }
            _ => {}
        }
    }
    if !pairing_bye_said {
        tournament.points.pairing_bye = tournament.points.win;
    }
    check_numbers(&tournament, &lines)?;
    Ok(tournament)
}

/// `XXC white1` or `XXC black1` (other words on the line, such as `rank`, are
/// options of the pairing programs this one does not take).
fn initial_colour(line: &str, at: usize) -> Result<Colour, TrfError> {
    let words = field(line, 5, line.chars().count().max(5));
    for word in words.split_whitespace() {
        match word {
            "white1" => return Ok(Colour::White),
            "black1" => return Ok(Colour::Black),
            _ => {}
        }
    }
    Err(error(
        at,
        5,
        format!("the first colour: '{words}' has neither white1 nor black1"),
    ))
}

/// A `BBx` line's points, `pp.p` from column 5.
fn point_value(line: &str, at: usize) -> Result<u32, TrfError> {
    let text = field(line, 5, line.chars().count().max(5));
    points(&text).ok_or_else(|| error(at, 5, format!("the points: '{text}' is not like 1.0")))
}

/// Columns `from..=to` (from 1, a column a character: names may be UTF-8) of `line`,
/// trimmed; empty past its end.
fn field(line: &str, from: usize, to: usize) -> String {
    let taken: String = line.chars().skip(from - 1).take(to + 1 - from).collect();
    taken.trim().to_string()
}

fn error(line: usize, column: usize, what: impl Into<String>) -> TrfError {
    TrfError {
        line,
        column,
        what: what.into(),
    }
}

fn number_field(
    line: &str,
    at: usize,
    from: usize,
    to: usize,
    what: &str,
) -> Result<u32, TrfError> {
    let text = field(line, from, to);
    text.parse()
        .map_err(|_| error(at, from, format!("{what}: '{text}' is not a number")))
}

fn player(line: &str, at: usize) -> Result<Player, TrfError> {
    let number = number_field(line, at, 5, 8, "the starting number")?;
    if number == 0 {
        return Err(error(at, 5, "starting numbers begin at 1"));
    }
    let rating = match field(line, 49, 52).as_str() {
        "" => 0,
        _ => number_field(line, at, 49, 52, "the rating")?,
    };
    let points_tenths = points(&field(line, 81, 84)).ok_or_else(|| {
        error(
            at,
            81,
            format!("the points: '{}' is not like 11.5", field(line, 81, 84)),
        )
    })?;
    let mut rounds = Vec::new();
    let mut start = 92;
    let width = line.chars().count();
    while start <= width {
        if rounds.len() == MAX_ROUNDS {
            return Err(error(at, start, format!("more than {MAX_ROUNDS} rounds")));
        }
        rounds.push(round(line, at, start)?);
        start += 10;
    }
    Ok(Player {
        number: Number(number),
        name: field(line, 15, 47),
        rating,
        points_tenths,
        rounds,
    })
}

/// `11.5` in tenths; blank is 0.
fn points(text: &str) -> Option<u32> {
    if text.is_empty() {
        return Some(0);
    }
    let (whole, tenths) = match text.split_once('.') {
        Some((w, t)) if t.len() == 1 => (w, t),
        Some(_) => return None,
        None => (text, "0"),
    };
    Some(whole.parse::<u32>().ok()? * 10 + tenths.parse::<u32>().ok()?)
}

fn round(line: &str, at: usize, start: usize) -> Result<Round, TrfError> {
    let opponent = match field(line, start, start + 3).as_str() {
        "" => 0,
        _ => number_field(line, at, start, start + 3, "the opponent")?,
    };
    let colour = match field(line, start + 5, start + 5).as_str() {
        "w" | "W" => Some(Colour::White),
        "b" | "B" => Some(Colour::Black),
        "" | "-" => None,
        other => {
            return Err(error(
                at,
                start + 5,
                format!("the colour: '{other}' is not w, b or -"),
            ));
        }
    };
    let result = match field(line, start + 7, start + 7).as_str() {
        "1" => RoundResult::Win,
        "=" => RoundResult::Draw,
        "0" => RoundResult::Loss,
        "+" => RoundResult::ForfeitWin,
        "-" => RoundResult::ForfeitLoss,
        "W" | "w" => RoundResult::Unplayed(Outcome::Win),
        "D" | "d" => RoundResult::Unplayed(Outcome::Draw),
        "L" | "l" => RoundResult::Unplayed(Outcome::Loss),
        "H" | "h" => RoundResult::HalfBye,
        "F" | "f" => RoundResult::FullBye,
        "U" | "u" => RoundResult::PairingBye,
        "Z" | "z" | "" => RoundResult::ZeroBye,
        other => {
            return Err(error(
                at,
                start + 7,
                format!("the result: '{other}' is not a TRF result"),
            ));
        }
    };
    Ok(Round {
        opponent: (opponent != 0).then_some(Number(opponent)),
        colour,
        result,
    })
}

/// Starting numbers once each; every opponent a player of the file (`lines`: each
/// player's line).
fn check_numbers(tournament: &Tournament, lines: &[usize]) -> Result<(), TrfError> {
    let mut seen = std::collections::HashSet::new();
    for (i, p) in tournament.players.iter().enumerate() {
        if !seen.insert(p.number) {
            return Err(TrfError {
                line: lines[i],
                column: 5,
                what: format!(
                    "starting number {} is given twice (the {}th record)",
                    p.number,
                    i + 1
                ),
            });
        }
    }
    for (p, &line) in tournament.players.iter().zip(lines) {
        for (r, round) in p.rounds.iter().enumerate() {
            if let Some(o) = round.opponent
                && !seen.contains(&o)
            {
                return Err(TrfError {
                    line,
                    column: 92 + 10 * r,
                    what: format!(
                        "player {} meets {o} in round {}, who is not in the file",
                        p.number,
                        r + 1
                    ),
                });
            }
        }
    }
    Ok(())
}

/// Writes `tournament` as TRF16 (the fields it holds; the others blank).
pub fn write(tournament: &Tournament) -> String {
    let mut out = format!("012 {}\n", tournament.name);
    if let Some(rounds) = tournament.rounds {
        out.push_str(&format!("XXR {rounds}\n"));
    }
    match tournament.initial_colour {
        Some(Colour::White) => out.push_str("XXC white1\n"),
        Some(Colour::Black) => out.push_str("XXC black1\n"),
        None => {}
    }
    let usual = PointSystem {
        pairing_bye: tournament.points.win,
        ..PointSystem::default()
    };
    let p = tournament.points;
    if p != usual || p.win != PointSystem::default().win {
        for (tag, value) in [
            ("BBW", p.win),
            ("BBD", p.draw),
            ("BBL", p.loss),
            ("BBZ", p.zero_bye),
            ("BBF", p.forfeit_loss),
            ("BBU", p.pairing_bye),
        ] {
            out.push_str(&format!("{tag} {:>2}.{}\n", value / 10, value % 10));
        }
    }
    for p in &tournament.players {
        let mut line = format!(
            "001 {:>4}      {:<33} {:>4}{:28}{:>4}",
            p.number.0,
            truncated(&p.name, 33),
            if p.rating == 0 {
                String::new()
            } else {
                p.rating.to_string()
            },
            "",
            format!("{}.{}", p.points_tenths / 10, p.points_tenths % 10)
        );
        // Columns 85-91 (the rank, blank), then ten columns a round from 92.
        line.push_str("       ");
        for (i, round) in p.rounds.iter().enumerate() {
            if i > 0 {
                line.push_str("  ");
            }
            let colour = match round.colour {
                Some(Colour::White) => 'w',
                Some(Colour::Black) => 'b',
                None => '-',
            };
            let opponent = round
                .opponent
                .map_or("0000".to_string(), |o| format!("{:>4}", o.0));
            line.push_str(&format!(
                "{opponent} {colour} {}",
                result_code(round.result)
            ));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

fn truncated(name: &str, width: usize) -> String {
    name.chars().take(width).collect()
}

fn result_code(result: RoundResult) -> char {
    match result {
        RoundResult::Win => '1',
        RoundResult::Draw => '=',
        RoundResult::Loss => '0',
        RoundResult::ForfeitWin => '+',
        RoundResult::ForfeitLoss => '-',
        RoundResult::Unplayed(Outcome::Win) => 'W',
        RoundResult::Unplayed(Outcome::Draw) => 'D',
        RoundResult::Unplayed(Outcome::Loss) => 'L',
        RoundResult::HalfBye => 'H',
        RoundResult::FullBye => 'F',
        RoundResult::PairingBye => 'U',
        RoundResult::ZeroBye => 'Z',
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two players' records written column by column as the format says (checked by
    /// counting: `1` of the round's opponent at column 92, its colour at 97, the
    /// result at 99).
    fn sample() -> String {
        let mut one = String::from("001    1 m  g Mirzoev,Azer");
        one = format!("{one:<48}2527 AZE    13400304 1978/01/01  1.0    1");
        let two = format!(
            "{:<48}2408 ESP     2212072 1981/01/01  0.0    2",
            "001    2 m  m Argandona,Inigo"
        );
        format!("012 Test open\nXXR 5\n### a comment\n{one:<91}   2 w 1\n{two:<91}   1 b 0\n")
    }

    #[test]
    fn a_file_is_read_by_its_columns() {
        let text = sample();
        let line = text.lines().nth(3).unwrap();
        assert_eq!(&line[91..95], "   2", "the opponent at columns 92-95");
        assert_eq!(&line[96..97], "w", "the colour at 97");
        assert_eq!(&line[98..99], "1", "the result at 99");
        let t = read(&text).unwrap();
        assert_eq!(t.name, "Test open");
        assert_eq!(t.rounds, Some(5));
        assert_eq!(t.players.len(), 2);
        let p = &t.players[0];
        assert_eq!(
            (p.number, p.name.as_str(), p.rating, p.points_tenths),
            (Number(1), "Mirzoev,Azer", 2527, 10)
        );
        assert_eq!(
            p.rounds,
            [Round {
                opponent: Some(Number(2)),
                colour: Some(Colour::White),
                result: RoundResult::Win
            }]
        );
        assert_eq!(t.players[1].rounds[0].colour, Some(Colour::Black));
    }

    /// A name in UTF-8 takes a column a character: the columns after it stay in place.
    #[test]
    fn a_name_in_utf8_keeps_the_columns_after_it() {
        let text = sample().replace("Argandona,Inigo", "Argandoña,Iñigo");
        let t = read(&text).unwrap();
        assert_eq!(t.players[1].name, "Argandoña,Iñigo");
        assert_eq!(t.players[1].rating, 2408);
        assert_eq!(t.players[1].rounds[0].opponent, Some(Number(1)));
        assert_eq!(read(&write(&t)).unwrap(), t, "written back with its name");
    }

    /// What is written reads back the same, a bye and an absence included.
    #[test]
    fn what_is_written_reads_back() {
        let mut t = read(&sample()).unwrap();
        t.players[0].rounds.push(Round {
            opponent: None,
            colour: None,
            result: RoundResult::PairingBye,
        });
        t.players[1].rounds.push(Round {
            opponent: None,
            colour: None,
            result: RoundResult::ZeroBye,
        });
        let text = write(&t);
        let line = text.lines().nth(2).unwrap();
        assert_eq!(&line[91..99], "   2 w 1", "round 1 at columns 92-99");
        assert_eq!(&line[101..109], "0000 - U", "round 2 at columns 102-109");
        assert_eq!(read(&text).unwrap(), t, "{text}");
    }

    /// bbpPairings writes lone carriage returns; its tags for the first colour and
    /// the points are read, and written back.
    #[test]
    fn carriage_returns_colour_and_points_are_read() {
        let text = sample().replace('\n', "\r") + "XXC black1\rBBW  3.0\rBBD  1.0\r";
        let t = read(&text).unwrap();
        assert_eq!(t.players.len(), 2);
        assert_eq!(t.initial_colour, Some(Colour::Black));
        assert_eq!(
            (t.points.win, t.points.draw, t.points.pairing_bye),
            (30, 10, 30),
            "the bye scores a win unless BBU says"
        );
        assert_eq!(t.points.points(RoundResult::HalfBye), 10);
        assert_eq!(read(&write(&t)).unwrap(), t);
        let usual = read(&sample()).unwrap();
        assert!(
            !write(&usual).contains("BBW"),
            "the usual points are not written"
        );
        let e = read(&(sample() + "XXC rank\n")).unwrap_err().to_string();
        assert!(e.contains("line 6, column 5: the first colour"), "{e}");
    }

    /// Each kind of fault names its line and column, and what is wrong.
    #[test]
    fn faults_are_named_with_line_and_column() {
        let good = sample();
        let cases = [
            (
                good.replace("001    2", "001    x"),
                "line 5, column 5: the starting number: 'x' is not a number",
            ),
            (
                good.replace("   2 w 1", "   2 g 1"),
                "line 4, column 97: the colour: 'g' is not w, b or -",
            ),
            (
                good.replace("   2 w 1", "   2 w ?"),
                "line 4, column 99: the result: '?' is not a TRF result",
            ),
            (
                good.replace(" 1.0    1", "1.25    1"),
                "line 4, column 81: the points",
            ),
            (
                good.replace("XXR 5", "XXR five"),
                "line 2, column 5: rounds",
            ),
            (
                good.replace("   1 b 0", "   7 b 0"),
                "line 5, column 92: player 2 meets 7 in round 1, who is not in the file",
            ),
            (
                good.replace("001    2", "001    1"),
                "line 5, column 5: starting number 1 is given twice",
            ),
        ];
        for (text, said) in cases {
            let e = read(&text).unwrap_err().to_string();
            assert!(e.contains(said), "{e}\n{text}");
        }
    }
}
