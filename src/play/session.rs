//! How the game is being played: who controls each side, the engine's strength, the
//! clocks, the app's states (playing, setting up a new game, game over), and starting
//! a game with a new setup.

use std::time::Duration;

use bevy::prelude::*;
use hexchess_core::piece::MAX_SIDES;
use hexchess_core::{GameOutcome, Side, Termination};
use hexchess_engine::Skill;
use hexchess_engine::multi::Strategy;

use crate::game::records::Players;
use crate::game::{
    Authority, BoardChanged, CurrentGame, EndRequest, GameSet, LoadRequest, NewGameRequest,
};

/// Who plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    HumanVsEngine {
        human: Side,
    },
    EngineVsEngine,
    HumanVsHuman,
    /// A game of more sides: who sits in each seat.
    Table(Seats),
    /// A game on a server: the seats this player holds; the server plays the others'
    /// moves (people elsewhere, or its engine).
    Online(OnlineSeats),
}

/// The seats one holds in a game on a server.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct OnlineSeats {
    pub mine: [bool; MAX_SIDES],
}

impl OnlineSeats {
    /// Holding `sides`.
    pub fn holding(sides: &[Side]) -> OnlineSeats {
        let mut mine = [false; MAX_SIDES];
        for side in sides {
            mine[side.index()] = true;
        }
        OnlineSeats { mine }
    }

    pub fn holds(self, side: Side) -> bool {
        self.mine[side.index()]
    }
}

impl Mode {
    pub fn label(self) -> String {
        match self {
            Mode::HumanVsEngine { human: Side::White } => "You (White) vs engine".into(),
            Mode::HumanVsEngine { human: _ } => "You (Black) vs engine".into(),
            Mode::EngineVsEngine => "Engine vs engine".into(),
            Mode::HumanVsHuman => "Two players".into(),
            Mode::Table(seats) => seats.label(),
            Mode::Online(_) => "Online".into(),
        }
    }

    /// Whether the engine moves for this side.
    pub fn engine_plays(self, side: Side) -> bool {
        match self {
            Mode::HumanVsEngine { human } => human != side,
            Mode::EngineVsEngine => true,
            Mode::HumanVsHuman => false,
            Mode::Table(seats) => seats.player(side) != SeatPlayer::Human,
            Mode::Online(_) => false,
        }
    }

    /// Whether a person at this screen plays this side (input accepts their moves).
    pub fn people_play(self, side: Side) -> bool {
        match self {
            Mode::Online(seats) => seats.holds(side),
            _ => !self.engine_plays(side),
        }
    }

    /// Who plays a game of `sides` sides in this mode: a two-player mode keeps its
    /// seats in a table's first two, the others are engines; a table's seats in a
    /// two-player game become its mode.
    pub fn for_sides(self, sides: usize) -> Mode {
        match (self, sides > 2) {
            (Mode::Table(seats), false) => {
                match (seats.player(Side::White), seats.player(Side::Black)) {
                    (SeatPlayer::Human, SeatPlayer::Human) => Mode::HumanVsHuman,
                    (SeatPlayer::Human, _) => Mode::HumanVsEngine { human: Side::White },
                    (_, SeatPlayer::Human) => Mode::HumanVsEngine { human: Side::Black },
                    _ => Mode::EngineVsEngine,
                }
            }
            (Mode::Table(_) | Mode::Online(_), true) | (_, false) => self,
            (two, true) => {
                let mut seats = Seats::default();
                for side in Side::ALL {
                    seats.players[side.index()] = if two.engine_plays(side) {
                        SeatPlayer::Engine(Strategy::Paranoid)
                    } else {
                        SeatPlayer::Human
                    };
                }
                Mode::Table(seats)
            }
        }
    }
}

/// Who sits in a seat of a game of more sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SeatPlayer {
    Human,
    Engine(Strategy),
}

impl SeatPlayer {
    pub fn label(self) -> String {
        match self {
            SeatPlayer::Human => "person".into(),
            SeatPlayer::Engine(s) => format!("engine ({s})"),
        }
    }

    /// The word [`SeatPlayer::parse`] reads back.
    pub fn token(self) -> String {
        match self {
            SeatPlayer::Human => "human".into(),
            SeatPlayer::Engine(s) => s.to_string(),
        }
    }

    /// Reads `human`, `brs`, `paranoid`, `maxn` or `random`.
    pub fn parse(text: &str) -> Result<SeatPlayer, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "human" | "person" => Ok(SeatPlayer::Human),
            other => other.parse().map(SeatPlayer::Engine),
        }
    }
}

/// The seats of a table: who plays each side, and how many turns each engine seat
/// searches per move (its strength).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Seats {
    pub players: [SeatPlayer; MAX_SIDES],
    pub nodes: [u32; MAX_SIDES],
}

/// Turns an engine seat searches per move unless told otherwise.
pub const SEAT_NODES: u32 = 3_000;

impl Default for Seats {
    fn default() -> Seats {
        let mut players = [SeatPlayer::Engine(Strategy::Paranoid); MAX_SIDES];
        players[0] = SeatPlayer::Human;
        Seats {
            players,
            nodes: [SEAT_NODES; MAX_SIDES],
        }
    }
}

impl Seats {
    pub fn player(&self, side: Side) -> SeatPlayer {
        self.players[side.index()]
    }

    /// Seats from a list (a game file's `Seats` tag, `--seats`): people and engine
    /// strategies in seat order, the rest engines. A word that names no player is
    /// refused.
    pub fn from_list<S: AsRef<str>>(words: &[S]) -> Result<Seats, String> {
        if words.len() > MAX_SIDES {
            return Err(format!("{} seats given; at most {MAX_SIDES}", words.len()));
        }
        let mut seats = Seats {
            players: [SeatPlayer::Engine(Strategy::Paranoid); MAX_SIDES],
            ..Seats::default()
        };
        for (i, w) in words.iter().enumerate() {
            seats.players[i] = SeatPlayer::parse(w.as_ref())?;
        }
        Ok(seats)
    }

    /// The seats as a game file's `Seats` tag writes them (`human,paranoid,human`).
    pub fn list_text(&self, sides: usize) -> String {
        let words: Vec<String> = self.players[..sides].iter().map(|s| s.token()).collect();
        words.join(",")
    }

    /// The seats of a `Seats` tag; a word that names no player is a person's seat.
    pub fn parse_tag(text: &str) -> Seats {
        let mut seats = Seats {
            players: [SeatPlayer::Human; MAX_SIDES],
            ..Seats::default()
        };
        for (i, w) in text.split(',').filter(|w| !w.trim().is_empty()).enumerate() {
            if i < MAX_SIDES {
                seats.players[i] = SeatPlayer::parse(w).unwrap_or(SeatPlayer::Human);
            }
        }
        seats
    }

    /// How many people sit at the table.
    pub fn people(&self, sides: usize) -> usize {
        self.players[..sides]
            .iter()
            .filter(|p| **p == SeatPlayer::Human)
            .count()
    }

    fn label(&self) -> String {
        let people = self.people(MAX_SIDES);
        match people {
            0 => "Engines at a table".into(),
            1 => "You at a table".into(),
            _ => "People at a table".into(),
        }
    }
}

/// Who moves which side from this screen: the input accepts moves only for these.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct HumanSides(pub [bool; MAX_SIDES]);

impl Default for HumanSides {
    fn default() -> Self {
        HumanSides([true, true, false, false])
    }
}

impl HumanSides {
    pub fn moves(&self, side: Side) -> bool {
        self.0[side.index()]
    }

    /// How many sides people play.
    pub fn count(&self) -> usize {
        self.0.iter().filter(|h| **h).count()
    }
}

/// A chess clock setting: minutes and increment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub base: Duration,
    pub increment: Duration,
}

impl TimeControl {
    pub fn label(self) -> String {
        format!("{}+{}", self.base.as_secs() / 60, self.increment.as_secs())
    }
}

/// The clock choices offered in the new-game menu.
pub const TIME_CONTROLS: [Option<TimeControl>; 4] = [
    None,
    Some(TimeControl {
        base: Duration::from_secs(180),
        increment: Duration::from_secs(2),
    }),
    Some(TimeControl {
        base: Duration::from_secs(600),
        increment: Duration::from_secs(5),
    }),
    Some(TimeControl {
        base: Duration::from_secs(1800),
        increment: Duration::from_secs(15),
    }),
];

/// The level a new player meets: it searches two plies and now and then plays a
/// slightly weaker move (about as strong as the default of the old ten-level scale).
pub const DEFAULT_LEVEL: Skill = Skill::new(11).expect("a level of the table");

/// The current game's setup.
#[derive(Resource, Clone, Debug)]
pub struct Session {
    pub mode: Mode,
    /// The engine's strength.
    pub level: Skill,
    pub time_control: Option<TimeControl>,
    /// Engine vs engine: stopped between moves.
    pub paused: bool,
    /// Engine vs engine while paused: play one move.
    pub step: bool,
    /// The least time an engine move takes to appear, so it can be followed.
    pub move_delay: Duration,
    /// Thinking time per engine move at full strength, when no clock is set.
    pub think_time: Duration,
}

impl Default for Session {
    fn default() -> Self {
        Session {
            mode: Mode::HumanVsEngine { human: Side::White },
            level: DEFAULT_LEVEL,
            time_control: None,
            paused: false,
            step: false,
            move_delay: Duration::from_millis(450),
            think_time: Duration::from_millis(1500),
        }
    }
}

impl Session {
    /// The players' names as a game record gives them.
    pub fn players(&self) -> Players {
        let engine = || format!("hexchess-engine (level {})", self.level);
        let (white, black) = match self.mode {
            Mode::HumanVsEngine { human: Side::White } => ("Player".to_string(), engine()),
            Mode::HumanVsEngine { human: _ } => (engine(), "Player".to_string()),
            Mode::EngineVsEngine => (engine(), engine()),
            Mode::HumanVsHuman | Mode::Table(_) | Mode::Online(_) => {
                ("White".to_string(), "Black".to_string())
            }
        };
        let seats = match self.mode {
            Mode::Table(seats) => seats.players.iter().map(|p| p.token()).collect(),
            _ => Vec::new(),
        };
        Players {
            white,
            black,
            seats,
        }
    }
}

/// How many turns "undo" takes back (0: only the turn in progress): back to a turn a
/// person plays (against engines,
/// their turns go too).
pub fn undo_turns(game: &CurrentGame, session: &Session) -> usize {
    if !game.played.current_steps().is_empty() {
        // The turn in progress goes first, alone.
        return 0;
    }
    let turns = game.played.turns();
    (1..=turns.len())
        .find(|k| !session.mode.engine_plays(turns[turns.len() - k].0))
        .unwrap_or(1)
}

/// Start a game of `variant` with a new setup: who plays, the engine's level, the clock.
#[derive(Message, Clone, Debug)]
pub struct StartGame {
    pub variant: String,
    pub mode: Mode,
    pub level: Skill,
    pub time_control: Option<TimeControl>,
    /// A position to start from instead of the variant's start (hex FEN).
    pub fen: Option<String>,
    /// Moves (for more sides, whole turns) to play from there.
    pub moves: Vec<String>,
}

/// Time left for each side (as many as the game has), when a clock is set.
#[derive(Resource, Clone, Debug, Default)]
pub struct Clocks {
    pub remaining: Option<[Duration; MAX_SIDES]>,
    pub increment: Duration,
}

impl Clocks {
    pub fn reset(&mut self, tc: Option<TimeControl>) {
        self.remaining = tc.map(|t| [t.base; MAX_SIDES]);
        self.increment = tc.map_or(Duration::ZERO, |t| t.increment);
    }

    /// The time `side` has left, when a clock is set.
    pub fn left(&self, side: Side) -> Option<Duration> {
        self.remaining.map(|r| r[side.index()])
    }
}

/// How a game ends when `side` runs out of time or resigns: with two sides the other
/// wins; with more, the game ends there and its opponents still in share the point
/// (docs/rules.md §13.6).
pub fn loss_of(game: &CurrentGame, side: Side, why: Termination) -> GameOutcome {
    game.played.lost_by(side, why)
}

/// The app's states.
#[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum AppState {
    /// A game on the board, being played or reviewed.
    #[default]
    Playing,
    /// The new-game menu is open.
    NewGameMenu,
    /// The game has ended; the result dialog shows.
    GameOver,
}

/// What the game-over dialog shows.
#[derive(Resource, Clone, Debug, Default)]
pub struct GameOverDialog {
    pub outcome: Option<GameOutcome>,
    /// Closed by the player to review the game.
    pub dismissed: bool,
}

pub struct SessionPlugin;

impl Plugin for SessionPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Session>()
            .init_resource::<Clocks>()
            .init_resource::<GameOverDialog>()
            .init_resource::<HumanSides>()
            .init_state::<AppState>()
            .add_message::<StartGame>()
            .add_systems(Startup, start_clocks)
            .add_systems(Update, start_games.in_set(GameSet::Input))
            .add_systems(
                Update,
                (seat_the_game, seat_players, run_clocks, watch_for_game_over)
                    .chain()
                    .after(GameSet::Apply)
                    .before(GameSet::View),
            );
    }
}

/// A new setup: the session and clocks take it, and the game starts the variant.
fn start_games(
    mut starts: MessageReader<StartGame>,
    mut session: ResMut<Session>,
    mut clocks: ResMut<Clocks>,
    mut new_game: MessageWriter<NewGameRequest>,
) {
    for start in starts.read() {
        session.mode = start.mode;
        session.level = start.level;
        session.time_control = start.time_control;
        session.paused = false;
        clocks.reset(start.time_control);
        new_game.write(NewGameRequest {
            variant: Some(start.variant.clone()),
            fen: start.fen.clone(),
            moves: start.moves.clone(),
        });
    }
}

fn start_clocks(session: Res<Session>, mut clocks: ResMut<Clocks>) {
    clocks.reset(session.time_control);
}

/// The seats follow the game on the board: a game of more sides that was loaded sits
/// the players its `Seats` tag names (a person in every seat if none); a game the mode
/// does not fit (a table's seats for two sides, or the reverse) gets one that does.
fn seat_the_game(
    mut loads: MessageReader<LoadRequest>,
    game: Res<CurrentGame>,
    mut session: ResMut<Session>,
) {
    let mut mode = session.mode;
    for LoadRequest(record) in loads.read() {
        if game.has_more_sides() {
            let seats = match record.tag("Seats") {
                Some(tag) => Seats::parse_tag(tag),
                None => Seats::parse_tag("human,human,human,human"),
            };
            mode = Mode::Table(seats);
        }
    }
    mode = mode.for_sides(game.side_count());
    if mode != session.mode {
        session.mode = mode;
    }
}

/// Input accepts moves only for the sides people play.
fn seat_players(session: Res<Session>, mut humans: ResMut<HumanSides>) {
    if !session.is_changed() {
        return;
    }
    let next = HumanSides(Side::ALL.map(|s| session.mode.people_play(s)));
    if *humans != next {
        *humans = next;
    }
}

/// The side to move's clock runs; a move adds the increment; a flag fall ends the game.
fn run_clocks(
    time: Res<Time>,
    (game, authority): (Res<CurrentGame>, Res<Authority>),
    mut changes: MessageReader<BoardChanged>,
    mut clocks: ResMut<Clocks>,
    mut end: MessageWriter<EndRequest>,
) {
    let increment = clocks.increment;
    let Some(remaining) = clocks.remaining.as_mut() else {
        changes.clear();
        return;
    };
    for change in changes.read() {
        if let BoardChanged::Played(report) = change
            && report.turn_ended
        {
            remaining[report.side.index()] += increment;
        }
    }
    if game.outcome().is_some() || !game.is_live() {
        return;
    }
    // A server's clocks start once every side has moved, and only the server calls
    // a flag: shown here, the time runs down to zero and waits for its word.
    let server = *authority == Authority::Remote;
    if server && game.turn_count() < game.side_count() {
        return;
    }
    let side = game.side_to_move();
    let left = &mut remaining[side.index()];
    *left = left.saturating_sub(time.delta());
    if left.is_zero() && !server {
        end.write(EndRequest(loss_of(&game, side, Termination::Time)));
    }
}

fn watch_for_game_over(
    game: Res<CurrentGame>,
    state: Res<State<AppState>>,
    mut next: ResMut<NextState<AppState>>,
    mut dialog: ResMut<GameOverDialog>,
) {
    let outcome = game.outcome();
    match (state.get(), outcome) {
        (AppState::Playing, Some(o)) => {
            *dialog = GameOverDialog {
                outcome: Some(o),
                dismissed: false,
            };
            next.set(AppState::GameOver);
        }
        (AppState::GameOver, None) => {
            *dialog = GameOverDialog::default();
            next.set(AppState::Playing);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hexchess_core::{Catalog, Standing};

    fn game(id: &str, fen: Option<&str>) -> CurrentGame {
        let catalog = Catalog::builtin();
        CurrentGame::from_moves(catalog.get(id).unwrap(), fen, &[] as &[&str]).unwrap()
    }

    #[test]
    fn a_flag_or_resignation_at_a_table_gives_the_point_to_the_opponents_still_in() {
        // Three sides: the two others share.
        let three = game("hexachess-3", None);
        let end = loss_of(&three, Side::Black, Termination::Time);
        assert_eq!(end.winners(), vec![Side::White, Side::Third]);
        assert_eq!(end.result_text(), "1/2-0-1/2");
        // The team game: the other team, never the partner.
        let four = game("hexachess-4", None);
        let end = loss_of(&four, Side::Black, Termination::Resignation);
        let mut winners = end.winners();
        winners.sort_by_key(|s| s.index());
        let mut enemies = four.rules().enemies(Side::Black).to_vec();
        enemies.sort_by_key(|s| s.index());
        assert_eq!(winners, enemies);
        assert_eq!(winners.len(), 2);
        // A side out scores nothing: White's flag after Black took a king.
        let mut taken = game(
            "hexachess-3",
            Some(
                "5wK3/10/11/5wP6/13/14/9wR5/16/17/3bP8cR3/4bB10/bK10cB2/6cN6/12/8wQ2/10/3bR4cK b - 0 1",
            ),
        );
        let step = taken.played.parse_step("d17i17").unwrap();
        let report = taken.played.play(step).unwrap();
        let (out, _) = report
            .standings
            .iter()
            .find(|(_, s)| *s == Standing::Out)
            .copied()
            .unwrap();
        let mover = taken.side_to_move();
        let end = loss_of(&taken, mover, Termination::Time);
        assert!(!end.winners().contains(&out));
        assert_eq!(end.winners().len(), 1, "{}", end.result_text());
        // Two sides: the other wins.
        let two = game("glinski", None);
        assert_eq!(
            loss_of(&two, Side::White, Termination::Resignation).winner(),
            Some(Side::Black)
        );
    }
}
