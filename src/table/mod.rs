//! A game of more than two sides at one table: 3-player Hexachess and 4-player team
//! Hexachess (docs/rules.md §13), each seat a person or an engine.
//!
//! The game ([`TableState`]) is changed only here, by [`TableRequest`]s: start a table,
//! play a step (a move, a removal, a swap, or ending a turn after one move), leave.
//! Engine seats think on their own thread and play their turn a step at a time, so a
//! turn of two moves is seen as two. The views ([`view`]) follow [`TableChanged`].

pub mod view;

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bevy::prelude::*;
use hexchess_core::bitboard::WideBitboard;
use hexchess_core::game::{Game, Step};
use hexchess_core::pgn::PgnGame;
use hexchess_core::{Cell, Piece, Side};
use hexchess_engine::multi::{MultiLimits, MultiSearcher, Strategy};

use crate::game::{BoardChanged, GameNotice, Seating, Variants};

/// Who sits in a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

    /// The seats as a game file's `Seats` tag writes them (`human,paranoid,human`).
    pub fn list_text(seats: &[SeatPlayer]) -> String {
        let words: Vec<String> = seats.iter().map(|s| s.token()).collect();
        words.join(",")
    }

    /// The seats of a `Seats` tag; a word that names no player is a person's seat.
    pub fn parse_list(text: &str) -> Vec<SeatPlayer> {
        text.split(',')
            .filter(|s| !s.trim().is_empty())
            .map(|s| SeatPlayer::parse(s).unwrap_or(SeatPlayer::Human))
            .collect()
    }

    /// Reads `human`, `brs`, `paranoid`, `maxn` or `random`.
    pub fn parse(text: &str) -> Result<SeatPlayer, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "human" | "person" => Ok(SeatPlayer::Human),
            other => other.parse().map(SeatPlayer::Engine),
        }
    }
}

/// The game of more sides on the board, with its seats.
#[derive(Resource, Clone)]
pub struct TableState {
    pub game: Game<WideBitboard>,
    pub seats: Vec<SeatPlayer>,
    /// Nodes (whole turns) an engine seat searches per turn.
    pub nodes: u64,
    /// The person's selected piece.
    pub selected: Option<Cell>,
    /// The moves of the last turn played, for the highlights.
    pub last: Vec<(Cell, Cell)>,
    /// A move to a promotion cell waiting for the person's choice of piece.
    pub promoting: Option<(Cell, Cell)>,
    /// The position it started from, when not the variant's start.
    pub start_fen: Option<String>,
}

impl TableState {
    /// Whether the seat on move is a person's.
    pub fn human_on_move(&self) -> bool {
        let side = self.game.side_to_move();
        self.game.end().is_none() && self.seats.get(side.index()) == Some(&SeatPlayer::Human)
    }

    /// The game as PGN: `Variant`, the start (`SetUp`, `FEN`) when it is not the
    /// variant's, who sits where (`Seats`: `human` or an engine's strategy, in seat
    /// order), and each turn as a move (its steps joined by `&`).
    pub fn pgn(&self) -> PgnGame {
        let mut pgn = PgnGame::new();
        let today = crate::game::records::record_date(std::time::SystemTime::now());
        pgn.set_tag("Date", today);
        pgn.set_tag("Variant", self.game.position().rules().id());
        if let Some(fen) = &self.start_fen {
            pgn.set_tag("SetUp", "1");
            pgn.set_tag("FEN", fen);
        }
        pgn.set_tag("Seats", SeatPlayer::list_text(&self.seats));
        let mut at = pgn.tree.root();
        for turn in self.game.turn_texts() {
            at = pgn.tree.add_move(at, &turn);
        }
        pgn
    }

    /// Whether more than one person plays (the board then turns to each in turn).
    pub fn hot_seat(&self) -> bool {
        self.seats
            .iter()
            .filter(|s| **s == SeatPlayer::Human)
            .count()
            > 1
    }
}

/// Requests that change the table.
#[derive(Message, Clone, Debug)]
pub enum TableRequest {
    /// A new game of a variant of more sides, with a player per seat, after `turns`
    /// (written as the game writes them) are played.
    Start {
        variant: String,
        seats: Vec<SeatPlayer>,
        /// A position to start from (hex FEN of a game of more sides), else the start.
        fen: Option<String>,
        turns: Vec<String>,
    },
    /// One step of the turn in progress.
    Step(Step),
    /// Turns an engine seat searches per move.
    Strength(u64),
    /// Back to two-player games.
    Leave,
}

/// The table changed: a step played (with what moved, for the animation) or
/// everything (a new game).
#[derive(Message, Clone, Copy, Debug)]
pub enum TableChanged {
    Reset,
    Stepped {
        /// From, to and the piece that moved; none for a removal or a stop.
        moved: Option<(Cell, Cell, Piece)>,
        /// A piece taken off (captured or removed).
        gone: Option<Cell>,
    },
}

/// The person's clicks on the table (after the pointer's cell is found, before the
/// requests are applied).
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct TableInput;

/// An engine seat's search in progress.
#[derive(Resource, Default)]
struct Thinking {
    /// The turn found, once found.
    result: Option<Arc<Mutex<Option<Vec<Step>>>>>,
    stop: Arc<AtomicBool>,
    /// Steps found and not yet played, with the time until the next.
    queue: Vec<Step>,
    wait: f32,
}

pub struct TablePlugin;

impl Plugin for TablePlugin {
    fn build(&self, app: &mut App) {
        app.add_message::<TableRequest>()
            .add_message::<TableChanged>()
            .init_resource::<Thinking>()
            .add_plugins(view::TableViewPlugin)
            .add_systems(
                Update,
                (apply_requests, play_engine_seats)
                    .chain()
                    .before(crate::game::GameSet::View),
            )
            .add_systems(OnExit(Seating::Table), leave_table);
    }
}

/// Starts, plays and leaves: the only system that changes the table.
#[allow(clippy::too_many_arguments)]
fn apply_requests(
    mut commands: Commands,
    mut requests: MessageReader<TableRequest>,
    variants: Res<Variants>,
    table: Option<ResMut<TableState>>,
    mut thinking: ResMut<Thinking>,
    mut next: ResMut<NextState<Seating>>,
    mut changed: MessageWriter<TableChanged>,
    mut notices: MessageWriter<GameNotice>,
) {
    let mut table = table;
    for request in requests.read() {
        match request {
            TableRequest::Start {
                variant,
                seats,
                fen,
                turns,
            } => match new_table(&variants, variant, seats, fen.as_deref(), turns) {
                Ok(state) => {
                    stop_thinking(&mut thinking);
                    commands.insert_resource(state);
                    next.set(Seating::Table);
                    changed.write(TableChanged::Reset);
                    // The inserted resource is seen next frame: later requests wait.
                    return;
                }
                Err(e) => {
                    notices.write(GameNotice(e));
                }
            },
            TableRequest::Step(step) => {
                let Some(t) = table.as_deref_mut() else {
                    continue;
                };
                match play_step(t, *step) {
                    Some(change) => {
                        changed.write(change);
                    }
                    None => {
                        notices.write(GameNotice("that is not allowed in this turn".into()));
                    }
                }
            }
            TableRequest::Strength(nodes) => {
                if let Some(t) = table.as_deref_mut() {
                    t.nodes = (*nodes).max(1);
                }
            }
            TableRequest::Leave => {
                stop_thinking(&mut thinking);
                next.set(Seating::Duel);
            }
        }
    }
}

/// A table for `variant` with `seats` (filled up with engines), after `turns`.
fn new_table(
    variants: &Variants,
    variant: &str,
    seats: &[SeatPlayer],
    fen: Option<&str>,
    turns: &[String],
) -> Result<TableState, String> {
    let entry = variants
        .0
        .get(variant)
        .filter(|e| e.side_count() > 2)
        .ok_or_else(|| format!("'{variant}' is not a game of more sides"))?;
    let mut game = match fen {
        Some(f) => {
            Game::from_fen(Arc::clone(&entry.rules), f).map_err(|e| format!("bad FEN: {e}"))?
        }
        None => Game::new(Arc::clone(&entry.rules)),
    };
    for t in turns {
        game.play_turn(t).map_err(|e| format!("{t}: {e}"))?;
    }
    let n = entry.rules.side_count();
    let mut seats = seats.to_vec();
    seats.resize(n, SeatPlayer::Engine(Strategy::Paranoid));
    seats.truncate(n);
    Ok(TableState {
        game,
        seats,
        nodes: 3_000,
        selected: None,
        last: Vec::new(),
        promoting: None,
        start_fen: fen.map(str::to_string),
    })
}

/// Plays a step if the rules allow it; what changed, for the views.
fn play_step(t: &mut TableState, step: Step) -> Option<TableChanged> {
    if !t.game.steps().contains(&step) {
        return None;
    }
    let change = match step {
        Step::Play(mv) if !mv.is_edit() => {
            let piece = t.game.position().piece_at(mv.from())?;
            let gone = t.game.position().piece_at(mv.to()).map(|_| mv.to());
            if t.game.current_steps().is_empty() {
                t.last.clear();
            }
            t.last.push((mv.from(), mv.to()));
            TableChanged::Stepped {
                moved: Some((mv.from(), mv.to(), piece)),
                gone,
            }
        }
        Step::Play(mv) if mv.promotion().is_none() => TableChanged::Stepped {
            moved: None,
            gone: Some(mv.to()),
        },
        _ => TableChanged::Reset,
    };
    t.game.play_unchecked(step);
    t.selected = None;
    t.promoting = None;
    Some(change)
}

fn stop_thinking(thinking: &mut Thinking) {
    thinking
        .stop
        .store(true, std::sync::atomic::Ordering::Relaxed);
    *thinking = Thinking::default();
}

/// Engine seats: start a search when one is on move, then play its steps one by one.
fn play_engine_seats(
    time: Res<Time>,
    table: Option<ResMut<TableState>>,
    mut thinking: ResMut<Thinking>,
    mut changed: MessageWriter<TableChanged>,
) {
    let Some(mut table) = table else {
        return;
    };
    if table.game.end().is_some() {
        return;
    }
    let side = table.game.side_to_move();
    let Some(SeatPlayer::Engine(strategy)) = table.seats.get(side.index()).copied() else {
        return;
    };
    if !thinking.queue.is_empty() {
        thinking.wait -= time.delta_secs();
        if thinking.wait > 0.0 {
            return;
        }
        let step = thinking.queue.remove(0);
        thinking.wait = 0.6;
        if let Some(change) = play_step(&mut table, step) {
            changed.write(change);
        }
        return;
    }
    if let Some(result) = &thinking.result {
        let found = result.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(steps) = found {
            thinking.result = None;
            thinking.queue = steps;
            thinking.wait = 0.25;
        }
        return;
    }
    let game = table.game.clone();
    let nodes = table.nodes;
    let slot = Arc::new(Mutex::new(None));
    let out = Arc::clone(&slot);
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    let seed = game.turns().len() as u64 + side.index() as u64 * 7919;
    std::thread::spawn(move || {
        let mut searcher = MultiSearcher::new(strategy, seed);
        let limits = MultiLimits {
            nodes,
            depth: 64,
            time: Some(Duration::from_secs(5)),
        };
        let steps = searcher
            .choose(&game, &limits, &flag)
            .map(|c| c.steps)
            .unwrap_or_default();
        *out.lock().unwrap_or_else(|e| e.into_inner()) = Some(steps);
    });
    thinking.result = Some(slot);
    thinking.stop = stop;
}

/// Leaving the table: the engine stops, the two-player game's board comes back.
fn leave_table(
    mut commands: Commands,
    mut thinking: ResMut<Thinking>,
    mut changed: MessageWriter<BoardChanged>,
) {
    stop_thinking(&mut thinking);
    commands.remove_resource::<TableState>();
    changed.write(BoardChanged::Reset {
        variant_changed: true,
    });
}

/// The side a person is: the seat on move if it is a person's, else the first
/// person's seat (the board faces them).
pub fn facing_side(table: &TableState) -> Side {
    let on_move = table.game.side_to_move();
    if table.seats.get(on_move.index()) == Some(&SeatPlayer::Human) {
        return on_move;
    }
    table
        .seats
        .iter()
        .position(|s| *s == SeatPlayer::Human)
        .map_or(Side::White, Side::from_index)
}
