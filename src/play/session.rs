//! How the game is being played: who controls each side, the engine's strength, the
//! clocks, the app's states (playing, setting up a new game, game over), and starting
//! a game with a new setup.

use std::time::Duration;

use bevy::prelude::*;
use hexchess_core::piece::MAX_SIDES;
use hexchess_core::{GameOutcome, Side, Termination};
use hexchess_engine::Skill;

use super::seats::{Seat, Seats};
use crate::game::records::Players;
use crate::game::{
    Authority, BoardChanged, CurrentGame, EndRequest, GameSet, LoadRequest, NewGameRequest,
    ReplaceRequest,
};

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
    /// Who sits where.
    pub seats: Seats,
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
            seats: Seats::default(),
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
    /// The players' names as the record of a game of `sides` sides gives them.
    pub fn players(&self, sides: usize) -> Players {
        let engine = || format!("hexchess-engine (level {})", self.level);
        let name = |side: Side, colour: &str| match self.seats.seat(side) {
            Seat::Person => "Player".to_string(),
            Seat::Engine(_) => engine(),
            Seat::Remote => colour.to_string(),
        };
        // People among themselves, online, or at a table: the sides' own names.
        let plain = self.seats.people_only(2) || self.seats.is_online() || sides > 2;
        let (white, black) = if plain {
            ("White".to_string(), "Black".to_string())
        } else {
            (name(Side::White, "White"), name(Side::Black, "Black"))
        };
        let seats = if self.seats.is_online() {
            Vec::new()
        } else {
            Side::ALL.map(|s| self.seats.seat(s).token()).to_vec()
        };
        Players {
            white,
            black,
            seats,
        }
    }

    /// Whether a game of `sides` sides waits between engine moves: engines in every
    /// seat, paused, and no single move asked for.
    pub fn held(&self, sides: usize) -> bool {
        self.seats.engines_only(sides) && self.paused && !self.step
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
        .find(|k| !session.seats.engine_plays(turns[turns.len() - k].0))
        .unwrap_or(1)
}

/// Start a game of `variant` with a new setup: who plays, the engine's level, the clock.
#[derive(Message, Clone, Debug)]
pub struct StartGame {
    pub variant: String,
    pub seats: Seats,
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
    /// The time left when each turn began (`[k]`: after `k` whole turns), so that an
    /// undo gives back the time spent since.
    at_turn: Vec<[Duration; MAX_SIDES]>,
}

impl Clocks {
    pub fn reset(&mut self, tc: Option<TimeControl>) {
        self.remaining = tc.map(|t| [t.base; MAX_SIDES]);
        self.increment = tc.map_or(Duration::ZERO, |t| t.increment);
        self.at_turn = self.remaining.into_iter().collect();
    }

    /// Follows the game's count of whole turns: a turn ended keeps the time as it then
    /// is; turns taken back give back the time they took (`give_back`: not on a
    /// server's game, whose clocks are the server's). Turns that come back by redo or a
    /// load take no time.
    fn follow_turns(&mut self, turns: usize, give_back: bool) {
        let Some(now) = self.remaining else {
            return;
        };
        if let Some(&then) = self.at_turn.get(turns)
            && self.at_turn.len() > turns + 1
        {
            self.at_turn.truncate(turns + 1);
            if give_back {
                self.remaining = Some(then);
            }
            return;
        }
        while self.at_turn.len() < turns + 1 {
            self.at_turn.push(now);
        }
    }

    /// Another game on the board (new, loaded, or the server's): the times kept for
    /// the turns of the one before are not this game's.
    fn forget_turns(&mut self) {
        self.at_turn.clear();
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
            .init_state::<AppState>()
            .add_message::<StartGame>()
            .add_systems(Startup, start_clocks)
            .add_systems(Update, start_games.in_set(GameSet::Input))
            .add_systems(
                Update,
                (
                    seat_the_game,
                    forget_other_games_clocks,
                    run_clocks,
                    watch_for_game_over,
                )
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
        session.seats = start.seats;
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

/// A game of more sides that was loaded sits the players its `Seats` tag names (a
/// person in every seat if none).
fn seat_the_game(
    mut loads: MessageReader<LoadRequest>,
    game: Res<CurrentGame>,
    mut session: ResMut<Session>,
) {
    for LoadRequest(record) in loads.read() {
        if game.has_more_sides() {
            let seats = Seats::parse_tag(record.tag("Seats").unwrap_or_default());
            if seats != session.seats {
                session.seats = seats;
            }
        }
    }
}

/// A new, loaded or replaced game starts its clocks' history afresh.
fn forget_other_games_clocks(
    mut new: MessageReader<NewGameRequest>,
    mut loaded: MessageReader<LoadRequest>,
    mut replaced: MessageReader<ReplaceRequest>,
    mut clocks: ResMut<Clocks>,
) {
    // Every reader is read to its end (each keeps its own place).
    let counts = [
        new.read().count(),
        loaded.read().count(),
        replaced.read().count(),
    ];
    if counts.iter().any(|n| *n > 0) {
        clocks.forget_turns();
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
    clocks.follow_turns(game.turn_count(), *authority == Authority::Local);
    if game.outcome().is_some() || !game.is_live() {
        return;
    }
    // The clocks start once every side has moved (as a server's do): the first move
    // may be thought over.
    if game.turn_count() < game.side_count() {
        return;
    }
    let Some(remaining) = clocks.remaining.as_mut() else {
        return;
    };
    // Only a server calls a flag on its games: shown here, the time runs down to zero
    // and waits for its word.
    let server = *authority == Authority::Remote;
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
