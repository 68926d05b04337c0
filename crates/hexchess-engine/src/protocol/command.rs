//! The protocol's commands as data: each input line parses into a [`Command`] (or an
//! error naming what is wrong) before anything runs, so a bad line never touches the
//! engine's state.

use std::fmt;
use std::num::IntErrorKind;
use std::time::Duration;

use crate::{Clock, SearchLimits, bench};

/// The deepest `go perft` accepted: deeper would run for days.
pub const MAX_PERFT_DEPTH: u32 = 12;

/// The deepest `bench` accepted.
pub const MAX_BENCH_DEPTH: u32 = 30;

/// One line of input, understood.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `uci`: name the engine and list its options.
    Uci,
    /// `isready`: answer `readyok`.
    IsReady,
    /// `ucinewgame`: forget what earlier games taught; back to the start.
    NewGame,
    /// `setoption name <name> [value <value>]`.
    SetOption {
        /// The option's name.
        name: String,
        /// Its value (empty for a button).
        value: String,
    },
    /// `position startpos|fen <hexfen> [moves ...]`.
    Position {
        /// The start: the variant's, or a FEN.
        start: Start,
        /// The moves (whole turns in a game of more sides) from there.
        moves: Vec<String>,
    },
    /// `go ...`: search within these limits.
    Go(Go),
    /// `ponderhit`: the opponent played the move pondered on.
    PonderHit,
    /// `go perft <depth>`: count the moves from each root move.
    Perft(u32),
    /// `stop`: end the search now.
    Stop,
    /// `bench [depth]`: search the fixed bench positions.
    Bench(u32),
    /// `d`: show the position.
    Display,
    /// `quit`.
    Quit,
}

/// A `go` command: the limits, and what needs the position to be understood.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Go {
    /// The limits, with no `searchmoves` and no ponder state yet.
    pub limits: SearchLimits,
    /// The moves after `searchmoves`, as written (read against the position when the
    /// command runs).
    pub searchmoves: Vec<String>,
    /// `go ponder`: think on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
}

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// The variant's starting array.
    StartPos,
    /// A hex FEN (checked against the rules when the command runs).
    Fen(String),
}

/// Why a line is not a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// A first word that is no command (the word).
    Unknown(String),
    /// `setoption` without `name`.
    SetOptionSyntax,
    /// `position` without `startpos` or `fen`.
    PositionSyntax,
    /// `go perft` without a depth it takes (what was given).
    PerftDepth(String),
    /// A `go` word that needs a value, without one (the word).
    GoValueMissing(String),
    /// A `go` word's value that is not a number.
    GoBadNumber {
        /// The word.
        what: &'static str,
        /// Its value.
        value: String,
    },
    /// A number outside the range its word takes (the range is named in the message).
    GoOutOfRange {
        /// The word.
        what: &'static str,
        /// Its value.
        value: String,
        /// Such as `0 to 86400000 ms (a day)`.
        range: String,
    },
    /// `bench` with a depth it does not take.
    BenchDepth,
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Unknown(c) => write!(f, "unknown command '{c}'"),
            CommandError::SetOptionSyntax => {
                write!(f, "expected 'setoption name <option> value <value>'")
            }
            CommandError::PositionSyntax => {
                write!(f, "expected 'position startpos|fen <hexfen> [moves ...]'")
            }
            CommandError::PerftDepth(n) => {
                write!(f, "perft depth must be 1 to {MAX_PERFT_DEPTH}, not '{n}'")
            }
            CommandError::GoValueMissing(key) => write!(f, "'go {key}' needs a value"),
            CommandError::GoBadNumber { what, value } => write!(f, "bad {what} '{value}'"),
            CommandError::GoOutOfRange { what, value, range } => {
                write!(f, "{what} must be {range}, not '{value}'")
            }
            CommandError::BenchDepth => write!(f, "usage: bench [depth 1..{MAX_BENCH_DEPTH}]"),
        }
    }
}

impl std::error::Error for CommandError {}

impl Command {
    /// Reads one line: `Ok(None)` for a blank one.
    pub fn parse(line: &str) -> Result<Option<Command>, CommandError> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = words.split_first() else {
            return Ok(None);
        };
        let command = match command {
            "uci" => Command::Uci,
            "isready" => Command::IsReady,
            "ucinewgame" => Command::NewGame,
            "setoption" => parse_setoption(args)?,
            "position" => parse_position(args)?,
            "go" => parse_go(args)?,
            "stop" => Command::Stop,
            "ponderhit" => Command::PonderHit,
            "bench" => parse_bench(args)?,
            "d" => Command::Display,
            "quit" => Command::Quit,
            _ => return Err(CommandError::Unknown(command.to_string())),
        };
        Ok(Some(command))
    }
}

/// `setoption name <name...> [value <value...>]`: names and values may have spaces.
fn parse_setoption(args: &[&str]) -> Result<Command, CommandError> {
    let joined = args.join(" ");
    let rest = joined
        .strip_prefix("name ")
        .ok_or(CommandError::SetOptionSyntax)?;
    let (name, value) = match rest.split_once(" value ") {
        Some((n, v)) => (n.trim(), v.trim()),
        None => (rest.trim(), ""),
    };
    Ok(Command::SetOption {
        name: name.to_string(),
        value: value.to_string(),
    })
}

fn parse_position(args: &[&str]) -> Result<Command, CommandError> {
    let (setup, moves) = match args.iter().position(|a| *a == "moves") {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &[][..]),
    };
    let start = match setup.split_first() {
        Some((&"startpos", [])) => Start::StartPos,
        Some((&"fen", fen)) if !fen.is_empty() => Start::Fen(fen.join(" ")),
        _ => return Err(CommandError::PositionSyntax),
    };
    Ok(Command::Position {
        start,
        moves: moves.iter().map(|m| m.to_string()).collect(),
    })
}

fn parse_go(args: &[&str]) -> Result<Command, CommandError> {
    // `go perft` is a command of its own: its depth must be right, never passed over.
    if let ["perft", rest @ ..] = args {
        return match rest {
            [n] => match n.parse::<u32>() {
                Ok(depth) if (1..=MAX_PERFT_DEPTH).contains(&depth) => Ok(Command::Perft(depth)),
                _ => Err(CommandError::PerftDepth(n.to_string())),
            },
            _ => Err(CommandError::PerftDepth(rest.join(" "))),
        };
    }
    parse_go_words(args).map(Command::Go)
}

/// Reads `go` arguments: `depth N`, `nodes N`, `mate N`, `movetime MS`, `wtime MS btime
/// MS winc MS binc MS movestogo N`, `infinite`, `ponder`, `searchmoves MOVE...`. A word
/// it does not know is passed over (with whatever follows it up to a word it knows), as
/// other engines do, so a GUI's extra tokens do not cost it its move; a known word with
/// a bad or missing value is still an error.
fn parse_go_words(args: &[&str]) -> Result<Go, CommandError> {
    let mut go = Go::default();
    let mut limits = SearchLimits::default();
    let mut clock = Clock::default();
    let mut has_clock = false;
    let mut i = 0;
    let is_word = |a: &&str| GO_WORDS.contains(a) || GO_FLAGS.contains(a);
    while i < args.len() {
        let key = args[i];
        i += 1;
        match key {
            "infinite" => limits.infinite = true,
            "ponder" => go.ponder = true,
            "searchmoves" => {
                while let Some(mv) = args.get(i).filter(|a| !is_word(a)) {
                    go.searchmoves.push(mv.to_string());
                    i += 1;
                }
            }
            _ if !GO_WORDS.contains(&key) => {
                while args.get(i).is_some_and(|a| !is_word(a)) {
                    i += 1;
                }
            }
            _ => {
                let value = args
                    .get(i)
                    .ok_or_else(|| CommandError::GoValueMissing(key.to_string()))?;
                read_go_value(key, value, &mut limits, &mut clock, &mut has_clock)?;
                i += 1;
            }
        }
    }
    if has_clock {
        limits.clock = Some(clock);
    }
    go.limits = limits;
    Ok(go)
}

/// The longest `go movetime`, and the most any clock value (`wtime`, `btime`, `winc`,
/// `binc`) is read as: a day, in milliseconds, as the command line's `--movetime`.
/// Without a bound, `go movetime 9223372036854775807` was taken as a search of 292
/// million years: it never answered without `stop`, and where the search runs in place
/// (no threads, so no `stop`) the engine never answered again.
pub const MAX_GO_MILLIS: u64 = 86_400_000;

/// The most nodes `go nodes` takes, as the command line's `review --nodes`: about a week
/// of one thread's search in a release build. A node count is a promise that the
/// search ends by itself (where it runs in place nothing else can end it); 2^63 nodes
/// were accepted before, a search of hundreds of thousands of years.
pub const MAX_GO_NODES: u64 = 1_000_000_000_000;

/// Reads the value of one `go` word that takes one.
///
/// A number too long for an `i64` is still read as a number (the largest or the
/// smallest there is), so that it meets the same range as any other: a depth of 10^20
/// searches the deepest ply, as a depth of 10^18 does, and a movetime of 10^20 is
/// refused with the range, not called a bad number.
///
/// What is refused and what is cut to its range: a value the engine is asked to obey
/// (`movetime`, `nodes`) is refused beyond its range, naming it, since playing another
/// would not be what was asked; a clock (`wtime`, `btime`, `winc`, `binc`) is a fact of
/// the game, which a GUI may send below zero once a clock has run out, or above a day
/// in a long game, so it is cut to 0 to [`MAX_GO_MILLIS`] (more than the engine would
/// ever spend on one move) and the move still comes.
fn read_go_value(
    key: &str,
    value: &str,
    limits: &mut SearchLimits,
    clock: &mut Clock,
    has_clock: &mut bool,
) -> Result<(), CommandError> {
    let number = |what: &'static str| -> Result<i64, CommandError> {
        value.parse::<i64>().or_else(|e| match e.kind() {
            IntErrorKind::PosOverflow => Ok(i64::MAX),
            IntErrorKind::NegOverflow => Ok(i64::MIN),
            _ => Err(CommandError::GoBadNumber {
                what,
                value: value.to_string(),
            }),
        })
    };
    // Within `lowest..=highest`, or refused naming the range (`unit` follows it).
    let within = |what: &'static str, lowest: u64, highest: u64, unit: &str| {
        let n = number(what)?;
        u64::try_from(n)
            .ok()
            .filter(|n| (lowest..=highest).contains(n))
            .ok_or_else(|| CommandError::GoOutOfRange {
                what,
                value: value.to_string(),
                range: format!("{lowest} to {highest}{unit}"),
            })
    };
    // A clock's milliseconds, cut to 0..=MAX_GO_MILLIS.
    let clock_ms = |what: &'static str| -> Result<Duration, CommandError> {
        let n = number(what)?.clamp(0, MAX_GO_MILLIS as i64);
        Ok(Duration::from_millis(n as u64))
    };
    match key {
        "depth" => limits.depth = Some(number("depth")?.clamp(1, 127) as u32),
        "nodes" => limits.nodes = Some(within("nodes", 1, MAX_GO_NODES, "")?),
        "mate" => limits.mate = Some(number("mate")?.clamp(1, 63) as u32),
        // 0 answers as soon as a move is found.
        "movetime" => {
            let ms = within("movetime", 0, MAX_GO_MILLIS, " ms (a day)")?;
            limits.movetime = Some(Duration::from_millis(ms));
        }
        "wtime" => {
            clock.white = clock_ms("wtime")?;
            *has_clock = true;
        }
        "btime" => {
            clock.black = clock_ms("btime")?;
            *has_clock = true;
        }
        "winc" => clock.white_increment = clock_ms("winc")?,
        "binc" => clock.black_increment = clock_ms("binc")?,
        "movestogo" => clock.moves_to_go = Some(number("movestogo")?.clamp(1, 1000) as u32),
        // Only the words of GO_WORDS are given here.
        _ => return Err(CommandError::Unknown(format!("go {key}"))),
    }
    Ok(())
}

/// The `go` words that take a value.
const GO_WORDS: [&str; 9] = [
    "depth",
    "nodes",
    "mate",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
];

/// The `go` words that take none (`searchmoves` takes the moves up to the next word).
const GO_FLAGS: [&str; 3] = ["infinite", "ponder", "searchmoves"];

fn parse_bench(args: &[&str]) -> Result<Command, CommandError> {
    match args.first().map(|d| d.parse::<u32>()) {
        None => Ok(Command::Bench(bench::BENCH_DEPTH)),
        Some(Ok(d)) if (1..=MAX_BENCH_DEPTH).contains(&d) => Ok(Command::Bench(d)),
        Some(_) => Err(CommandError::BenchDepth),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_parse_into_commands() {
        assert_eq!(Command::parse("   \n"), Ok(None));
        assert_eq!(Command::parse("uci"), Ok(Some(Command::Uci)));
        assert_eq!(
            Command::parse("setoption name Skill Level value 1 2"),
            Ok(Some(Command::SetOption {
                name: "Skill Level".into(),
                value: "1 2".into()
            }))
        );
        assert_eq!(
            Command::parse("position fen K/P/8 w - 0 1 moves a1a2 b3b4"),
            Ok(Some(Command::Position {
                start: Start::Fen("K/P/8 w - 0 1".into()),
                moves: vec!["a1a2".into(), "b3b4".into()],
            }))
        );
        assert_eq!(Command::parse("go perft 3"), Ok(Some(Command::Perft(3))));
        // Words it does not know are passed over, with what follows them up to the next
        // word it knows.
        let Ok(Some(Command::Go(go))) =
            Command::parse("go ponder searchmoves e2e4 d2d4 sideways 3 depth 4 mate 2")
        else {
            panic!("a go command")
        };
        assert_eq!(go.limits.depth, Some(4));
        assert_eq!(go.limits.mate, Some(2));
        assert!(go.ponder && !go.limits.infinite);
        assert_eq!(go.searchmoves, ["e2e4", "d2d4", "sideways", "3"]);
        let Ok(Some(Command::Go(go))) = Command::parse("go infinite searchmoves f5f6 wobble 2")
        else {
            panic!("a go command")
        };
        assert!(go.limits.infinite && !go.ponder);
        assert_eq!(go.searchmoves, ["f5f6", "wobble", "2"]);
        let Ok(Some(Command::Go(go))) = Command::parse("go wobble 2 depth 3") else {
            panic!("a go command")
        };
        assert_eq!(go.limits.depth, Some(3));
        assert!(go.searchmoves.is_empty());
        assert_eq!(Command::parse("ponderhit"), Ok(Some(Command::PonderHit)));
        let Ok(Some(Command::Go(Go { limits, .. }))) =
            Command::parse("go wtime 1000 btime 2000 depth 4")
        else {
            panic!("a go command")
        };
        assert_eq!(limits.depth, Some(4));
        let clock = limits.clock.expect("a clock");
        assert_eq!(clock.white, Duration::from_millis(1000));
        assert_eq!(clock.black, Duration::from_millis(2000));
        assert_eq!(
            Command::parse("bench"),
            Ok(Some(Command::Bench(bench::BENCH_DEPTH)))
        );
    }

    #[test]
    fn bad_lines_say_what_is_wrong() {
        for (line, message) in [
            ("frobnicate", "unknown command 'frobnicate'"),
            (
                "setoption Hash 3",
                "expected 'setoption name <option> value <value>'",
            ),
            (
                "position",
                "expected 'position startpos|fen <hexfen> [moves ...]'",
            ),
            ("go perft 13", "perft depth must be 1 to 12, not '13'"),
            ("go depth", "'go depth' needs a value"),
            ("go nodes many", "bad nodes 'many'"),
            ("go mate soon", "bad mate 'soon'"),
            ("go depth 3 mate", "'go mate' needs a value"),
            (
                "go movetime 99999999999999999999",
                "movetime must be 0 to 86400000 ms (a day), not '99999999999999999999'",
            ),
            (
                "go movetime 86400001",
                "movetime must be 0 to 86400000 ms (a day), not '86400001'",
            ),
            (
                "go movetime -1",
                "movetime must be 0 to 86400000 ms (a day), not '-1'",
            ),
            (
                "go nodes 1000000000001",
                "nodes must be 1 to 1000000000000, not '1000000000001'",
            ),
            ("go nodes 0", "nodes must be 1 to 1000000000000, not '0'"),
            (
                "go depth 4 nodes -99999999999999999999",
                "nodes must be 1 to 1000000000000, not '-99999999999999999999'",
            ),
            ("go movetime 1e3", "bad movetime '1e3'"),
            ("bench 31", "usage: bench [depth 1..30]"),
        ] {
            assert_eq!(
                Command::parse(line).map_err(|e| e.to_string()),
                Err(message.to_string()),
                "{line}"
            );
        }
    }

    /// The limits of one `go` line that parses.
    fn limits(line: &str) -> SearchLimits {
        match Command::parse(line) {
            Ok(Some(Command::Go(go))) => go.limits,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn times_and_counts_are_read_within_their_ranges() {
        let day = Duration::from_millis(MAX_GO_MILLIS);
        assert_eq!(limits("go movetime 0").movetime, Some(Duration::ZERO));
        assert_eq!(limits("go movetime 86400000").movetime, Some(day));
        assert_eq!(limits("go nodes 1000000000000").nodes, Some(MAX_GO_NODES));
        // A clock is cut to 0 to a day, however far out (past i64 too): the move comes.
        let clock = limits(
            "go wtime 99999999999999999999 btime -5 winc 86400001 binc -99999999999999999999",
        )
        .clock
        .expect("a clock");
        assert_eq!(
            (
                clock.white,
                clock.black,
                clock.white_increment,
                clock.black_increment
            ),
            (day, Duration::ZERO, day, Duration::ZERO)
        );
        // Depth, mate and movestogo are cut to theirs, past i64 as within it.
        for (line, depth) in [
            ("go depth 99999999999999999999", 127),
            ("go depth 9223372036854775807", 127),
            ("go depth -99999999999999999999", 1),
        ] {
            assert_eq!(limits(line).depth, Some(depth), "{line}");
        }
        assert_eq!(limits("go mate 99999999999999999999").mate, Some(63));
        let clock = limits("go wtime 1000 movestogo 99999999999999999999").clock;
        assert_eq!(clock.and_then(|c| c.moves_to_go), Some(1000));
    }
}
