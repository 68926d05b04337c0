//! How the game is being played: who controls each side, the engine's strength, the
//! clocks, the app's states (playing, setting up a new game, game over), and starting
//! a game with a new setup.

use std::time::Duration;

use bevy::prelude::*;
use hexchess_core::{GameOutcome, Side, Termination};
use hexchess_engine::Skill;

use crate::game::records::Players;
use crate::game::{BoardChanged, EndRequest, GameSet, GameState, NewGameRequest};

/// Who plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    HumanVsEngine { human: Side },
    EngineVsEngine,
    HumanVsHuman,
}

impl Mode {
    pub fn label(self) -> &'static str {
        match self {
            Mode::HumanVsEngine { human: Side::White } => "You (White) vs engine",
            Mode::HumanVsEngine { human: _ } => "You (Black) vs engine",
            Mode::EngineVsEngine => "Engine vs engine",
            Mode::HumanVsHuman => "Two players",
        }
    }

    /// Whether the engine moves for this side.
    pub fn engine_plays(self, side: Side) -> bool {
        match self {
            Mode::HumanVsEngine { human } => human != side,
            Mode::EngineVsEngine => true,
            Mode::HumanVsHuman => false,
        }
    }
}

/// Who moves which side from this screen: the input accepts moves only for these.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct HumanSides {
    pub white: bool,
    pub black: bool,
}

impl Default for HumanSides {
    fn default() -> Self {
        HumanSides {
            white: true,
            black: true,
        }
    }
}

impl HumanSides {
    pub fn moves(&self, side: Side) -> bool {
        match side {
            Side::White => self.white,
            Side::Black => self.black,
            // The game seats two players for now (three and four with issue 29).
            Side::Third | Side::Fourth => false,
        }
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
            Mode::HumanVsHuman => ("White".to_string(), "Black".to_string()),
        };
        Players { white, black }
    }
}

/// How many plies "undo" takes back: against the engine, back to the player's turn.
pub fn undo_plies(game: &GameState, session: &Session, engine_thinking: bool) -> usize {
    match session.mode {
        Mode::HumanVsEngine { human } if !engine_thinking && game.position.turn() == human => 2,
        _ => 1,
    }
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
}

/// Time left for each side, when a clock is set.
#[derive(Resource, Clone, Debug, Default)]
pub struct Clocks {
    pub remaining: Option<[Duration; 2]>,
    pub increment: Duration,
}

impl Clocks {
    pub fn reset(&mut self, tc: Option<TimeControl>) {
        self.remaining = tc.map(|t| [t.base, t.base]);
        self.increment = tc.map_or(Duration::ZERO, |t| t.increment);
    }
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
                (seat_players, run_clocks, watch_for_game_over)
                    .chain()
                    .after(GameSet::Apply)
                    .before(GameSet::View)
                    .run_if(crate::game::duel),
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
        });
    }
}

fn start_clocks(session: Res<Session>, mut clocks: ResMut<Clocks>) {
    clocks.reset(session.time_control);
}

/// Input accepts moves only for the sides people play.
fn seat_players(session: Res<Session>, mut humans: ResMut<HumanSides>) {
    if !session.is_changed() {
        return;
    }
    let next = HumanSides {
        white: !session.mode.engine_plays(Side::White),
        black: !session.mode.engine_plays(Side::Black),
    };
    if *humans != next {
        *humans = next;
    }
}

/// The side to move's clock runs; a move adds the increment; a flag fall ends the game.
fn run_clocks(
    time: Res<Time>,
    game: Res<GameState>,
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
        if let BoardChanged::Moved { piece, .. } = change {
            remaining[piece.side.index()] += increment;
        }
    }
    if game.outcome().is_some() || !game.is_live() {
        return;
    }
    let side = game.position.turn();
    let left = &mut remaining[side.index()];
    *left = left.saturating_sub(time.delta());
    if left.is_zero() {
        end.write(EndRequest(GameOutcome::win(!side, Termination::Time)));
    }
}

fn watch_for_game_over(
    game: Res<GameState>,
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
