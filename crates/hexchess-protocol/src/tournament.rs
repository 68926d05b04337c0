//! Tournaments on the wire (issue 67): what a client asks for when it creates one,
//! and what the server shows of them, the list and one tournament's standings.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The three kinds of tournament.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TournamentKind {
    /// Players come and go for a set time; the free are paired at once; points per
    /// game with streaks (lichess's arena).
    Arena,
    /// A set number of rounds paired by the FIDE Dutch system.
    Swiss,
    /// Everyone meets everyone, by FIDE's Berger tables (once, or twice with colours
    /// reversed).
    RoundRobin,
}

impl TournamentKind {
    /// Its name on the wire.
    pub fn name(self) -> &'static str {
        match self {
            TournamentKind::Arena => "arena",
            TournamentKind::Swiss => "swiss",
            TournamentKind::RoundRobin => "round_robin",
        }
    }

    /// The kind named `name` on the wire.
    pub fn from_name(name: &str) -> Option<TournamentKind> {
        [
            TournamentKind::Arena,
            TournamentKind::Swiss,
            TournamentKind::RoundRobin,
        ]
        .into_iter()
        .find(|k| k.name() == name)
    }
}

/// A tournament asked for (`tournament_create`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TournamentRequest {
    /// Arena, Swiss or round robin.
    pub kind: TournamentKind,
    /// Its name (at most 40 characters).
    pub name: String,
    /// The variant's id (two-player variants).
    pub variant: String,
    /// Minutes each on the clock.
    pub minutes: u32,
    /// Seconds added after each move.
    #[serde(default)]
    pub increment: u32,
    /// Whether its games move the players' ratings.
    #[serde(default)]
    pub rated: bool,
    /// Seconds from now until it starts (0: at once).
    #[serde(default)]
    pub starts_in: u32,
    /// An arena's length in seconds.
    #[serde(default)]
    pub seconds: Option<u32>,
    /// A Swiss's rounds; a round robin's cycles (1, or 2 for a double round robin).
    #[serde(default)]
    pub rounds: Option<u32>,
    /// Whether bots may enter: accounts a program plays for, and engine seats the
    /// creator adds.
    #[serde(default)]
    pub bots: bool,
    /// Seconds a player has for a game's first move before losing it (default 30).
    #[serde(default)]
    pub first_move_seconds: Option<u32>,
    /// An arena's players may go berserk (half their clock for one more point).
    #[serde(default)]
    pub berserk: bool,
}

/// A tournament in the list (`tournaments`, and `GET /tournaments`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TournamentListing {
    /// Its id, to `tournament_join` or follow (`tournament`).
    pub id: String,
    /// Arena, Swiss or round robin.
    pub kind: TournamentKind,
    /// Its name.
    pub name: String,
    /// The variant's id.
    pub variant: String,
    /// Minutes each on the clock.
    pub minutes: u32,
    /// Seconds added after each move.
    pub increment: u32,
    /// Whether its games are rated.
    pub rated: bool,
    /// Whether bots may enter.
    pub bots: bool,
    /// Whether an arena's players may go berserk.
    #[serde(default)]
    pub berserk: bool,
    /// `waiting`, `running` or `finished`.
    pub status: String,
    /// When it starts (ms since 1970).
    pub starts_ms: i64,
    /// An arena's end (ms since 1970).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ends_ms: Option<i64>,
    /// Rounds paired so far, and in all (Swiss, round robin).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
    /// Rounds in all (Swiss, round robin).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds: Option<u32>,
    /// Players entered (withdrawn ones included).
    pub players: u32,
    /// Who created it.
    pub by: String,
}

/// The tournaments to see, as `GET /tournaments` answers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TournamentList {
    /// Waiting and running ones first, then the last finished.
    pub tournaments: Vec<TournamentListing>,
}

impl TournamentList {
    /// The list as JSON text.
    pub fn to_text(&self) -> String {
        crate::server::to_text(self)
    }
}

/// One line of a tournament's standings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct StandingLine {
    /// The place (equal scores and tie-breaks share one).
    pub rank: u32,
    /// The starting number (Swiss, round robin: what TRF files and pairings use).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub number: Option<u32>,
    /// The name.
    pub name: String,
    /// A program plays (a bot's account, or an engine seat).
    #[serde(default)]
    pub bot: bool,
    /// The rating at entry.
    pub rating: u32,
    /// Points: an arena's points, or a Swiss's and round robin's score (a win 1).
    pub points: f64,
    /// Games played (byes not counted).
    pub games: u32,
    /// The tie-breaks in order (Swiss, round robin: Buchholz, Sonneborn-Berger;
    /// arena: performance is not kept, so none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tie_breaks: Vec<f64>,
    /// Each game's points in order (arena: `2`, `4` on fire, `0`; Swiss: `1`, `½`, `0`,
    /// `+`/`-` for a forfeit, `U` a bye).
    pub sheet: Vec<String>,
    /// An arena's streak: two wins in a row, and the next win scores double.
    #[serde(default)]
    pub on_fire: bool,
    /// Withdrawn (no longer paired).
    #[serde(default)]
    pub withdrawn: bool,
    /// In a game of the tournament now: its id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub playing: Option<String>,
}

/// One tournament as its followers see it (`tournament`), pushed as it changes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TournamentView {
    /// What the list shows of it.
    pub listing: TournamentListing,
    /// The standings, best first.
    pub standings: Vec<StandingLine>,
}
