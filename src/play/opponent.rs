//! The engine as an opponent: it thinks on its own thread, so frames never wait for it.
//!
//! When it is an engine's turn a search starts on a copy of the position (two sides:
//! the engine's search on its narrow cell sets; more sides: the seat's strategy over
//! whole turns, whose steps are then played one at a time, so a turn of two moves is
//! seen as two). Each frame
//! checks (without blocking) whether it has finished; its move is played once it has
//! and a short minimum delay has passed, so players see it coming. An undo, a new game
//! or a loaded game while it thinks stops the search; the stopped search is collected
//! later, when its thread has ended, and its answer thrown away.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use web_time::Instant;

use bevy::prelude::*;
use hexchess_core::{GameOutcome, Position, Side, Step, Termination};
use hexchess_engine::multi::Strategy;
use hexchess_engine::{
    Clock, Engine, Found, Question, Score, SearchInfo, SearchLimits, SearchOptions, Skill,
    Tablebases, pv_san,
};

use super::seats::EngineSeat;
use super::session::{Clocks, Session, loss_of};
use super::trainer::Trainer;
use super::work::engine::{Ask, EngineThinking};
use crate::game::{
    BoardChanged, CurrentGame, EndRequest, GameNotice, GameSet, LoadRequest, NewGameRequest,
    ReplaceRequest, StepRequest,
};
use crate::machine::{Rasteriser, cores};
use crate::pieces::animation::{Slide, Vanish};

/// The engine's latest word on the position, for the evaluation panel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineReport {
    /// The side the engine was playing.
    pub side: Side,
    /// From White's point of view.
    pub score: Score,
    pub depth: u32,
    /// The principal variation as a player reads it: numbered SAN, like the move list.
    pub line: String,
}

/// Moves of the principal variation the panel shows.
const PV_MOVES: usize = 8;

/// The engine thinking for the side on move, of a game of any number of sides: one
/// search, then what it found played (dropped: stopped).
struct Thinking {
    /// The search, until it answers and is taken.
    search: Option<EngineThinking>,
    /// Which position it is for.
    key: PositionKey,
    started: Instant,
    side: Side,
    /// Who thinks: the two-player opponent, or an engine seat of a table.
    of: Thinker,
    /// A seat's steps found and not yet played, and the seconds until the next.
    queue: Vec<Step>,
    wait: f32,
}

/// Who thinks, and what the answer is for.
enum Thinker {
    /// The two-player opponent: the position searched (narrow cell sets) to write its
    /// lines, and the lines so far for the evaluation panel.
    Opponent {
        position: Box<Position>,
        progress: Arc<Mutex<Option<SearchInfo>>>,
    },
    /// An engine seat of a game of more sides: its whole turn, played one step at a
    /// time, so a turn of two moves is seen as two.
    Seat,
}

impl Thinking {
    /// Whether its answer has been taken (a seat's steps may still be playing).
    fn arrived(&self) -> bool {
        self.search.is_none()
    }
}

/// The engine player's state: one search at a time, whoever it is for.
#[derive(Resource, Default)]
pub struct EnginePlayer {
    /// The two-player engine (its hash table) while no search has it.
    engine: Option<Engine>,
    /// The search (or the turn being played) for the side on move.
    thinking: Option<Thinking>,
    /// Stopped searches whose threads have not ended yet.
    abandoned: Vec<EngineThinking>,
    pub report: Option<EngineReport>,
}

impl EnginePlayer {
    /// Whether a search is running for the current position.
    pub fn is_thinking(&self) -> bool {
        self.thinking.is_some()
    }

    /// The side the two-player opponent is thinking for (the panel's spinner).
    pub fn thinking_for(&self) -> Option<Side> {
        self.thinking
            .as_ref()
            .filter(|t| matches!(t.of, Thinker::Opponent { .. }))
            .map(|t| t.side)
    }
}

/// Ask the engine to agree a draw.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct DrawOffer;

pub struct OpponentPlugin;

impl Plugin for OpponentPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<EnginePlayer>()
            .add_message::<DrawOffer>()
            .add_systems(
                Update,
                (
                    forget_the_last_games_word,
                    abandon_stale_searches,
                    collect_abandoned,
                    start_thinking,
                    play_what_was_found,
                    answer_draw_offers,
                )
                    .chain()
                    // After the game applies this frame's requests, so a take-back stops
                    // the search at once; its own move is applied next frame. After the
                    // position's endgame tables are looked up, so a search gets them.
                    .after(GameSet::Apply)
                    .after(super::trainer::look_up_tables)
                    .before(GameSet::View)
                    // Nobody plays on while the board editor has the board.
                    .run_if(in_state(crate::game::BoardMode::Game)),
            );
    }
}

/// A position told apart from the game's others: its hash and how many plies led to it
/// (the same position reached again later is a different moment of the game).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PositionKey {
    hash: u64,
    ply: usize,
}

fn position_key(game: &CurrentGame) -> PositionKey {
    PositionKey {
        hash: game.position().hash(),
        ply: game.position().ply_count(),
    }
}

/// Search limits for a level: lower levels think less (and the searcher also limits
/// their depth and adds randomness, see `SearchOptions::skill`).
pub fn limits_for(session: &Session, clocks: &Clocks) -> SearchLimits {
    if let Some([white, black, ..]) = clocks.remaining {
        return SearchLimits {
            clock: Some(Clock {
                white,
                black,
                white_increment: clocks.increment,
                black_increment: clocks.increment,
                moves_to_go: None,
            }),
            ..SearchLimits::default()
        };
    }
    SearchLimits {
        movetime: Some(think_time(session)),
        ..SearchLimits::default()
    }
}

/// Stops a search whose position is no longer the game's (undo, new game, load). A
/// seat's turn that has arrived plays on (each of its steps moves the position), but
/// not past a reset.
fn abandon_stale_searches(
    mut changes: MessageReader<BoardChanged>,
    game: Res<CurrentGame>,
    mut player: ResMut<EnginePlayer>,
) {
    let reset = changes
        .read()
        .any(|c| matches!(c, BoardChanged::Reset { .. }));
    let stale = player
        .thinking
        .as_ref()
        .is_some_and(|t| reset || (!t.arrived() && t.key != position_key(&game)));
    if !stale {
        return;
    }
    let Some(t) = player.thinking.take() else {
        return;
    };
    // The opponent's search is kept until its thread ends, for its engine's hash table.
    if let (Thinker::Opponent { .. }, Some(mut search)) = (t.of, t.search) {
        search.stop();
        player.abandoned.push(search);
    }
}

/// A new, loaded or replaced game: the evaluation of the one before is not this game's
/// (an undo or a look back keeps it: the same game, and a new search soon follows).
fn forget_the_last_games_word(
    mut new: MessageReader<NewGameRequest>,
    mut loaded: MessageReader<LoadRequest>,
    mut replaced: MessageReader<ReplaceRequest>,
    mut player: ResMut<EnginePlayer>,
) {
    let another = new.read().count() + loaded.read().count() + replaced.read().count() > 0;
    if another && player.report.is_some() {
        player.report = None;
    }
}

/// Gets the searcher back from stopped searches once their threads are done.
fn collect_abandoned(mut player: ResMut<EnginePlayer>) {
    let mut i = 0;
    while i < player.abandoned.len() {
        if player.abandoned[i].poll() {
            if let (Some(engine), _) = player.abandoned.swap_remove(i).finish() {
                player.engine.get_or_insert(engine);
            }
        } else {
            i += 1;
        }
    }
}

/// Takes an answer that has come and plays what it found: the opponent's move (once
/// its least delay has passed, so players see it coming), or a seat's turn one step at a
/// time, a moment apart.
fn play_what_was_found(
    time: Res<Time>,
    mut player: ResMut<EnginePlayer>,
    mut session: ResMut<Session>,
    game: Res<CurrentGame>,
    mut requests: MessageWriter<StepRequest>,
    mut end: MessageWriter<EndRequest>,
) {
    let Some(t) = player.thinking.as_mut() else {
        return;
    };
    if let Thinker::Opponent { position, progress } = &t.of
        && let Some(info) = progress.lock().map(|p| p.clone()).unwrap_or(None)
    {
        // Its lines for the evaluation panel while it thinks.
        let report = EngineReport {
            side: t.side,
            score: info.score.for_white(t.side),
            depth: info.depth,
            line: pv_san(position, &info.pv, PV_MOVES),
        };
        if player.report.as_ref() != Some(&report) {
            player.report = Some(report);
        }
    }
    let t = player.thinking.as_mut().expect("checked");
    if matches!(t.of, Thinker::Seat) {
        if !game.has_more_sides() || game.outcome().is_some() || !game.is_live() {
            player.thinking = None;
            return;
        }
        // No engine on move any more (the analysis board took the seats): it waits.
        if engine_seat(&session, game.side_to_move()).is_none() {
            return;
        }
        if play_seat_steps(t, &time, &mut requests) {
            // The whole turn is asked for: the next search starts with the next turn.
            player.thinking = None;
            if session.step {
                session.step = false;
            }
        }
        return;
    }
    let answered = t.search.as_mut().is_some_and(|s| s.poll());
    if !answered || t.started.elapsed() < session.move_delay {
        return;
    }
    let t = player.thinking.take().expect("checked");
    let (engine, answer) = t.search.expect("answered").finish();
    if let Some(engine) = engine {
        player.engine = Some(engine);
    }
    // The position moved on, or the engine no longer plays this side (the analysis
    // board was turned on while it thought): its move is not played.
    if t.key != position_key(&game) || !session.seats.engine_plays(t.side) {
        return;
    }
    let Thinker::Opponent { position, .. } = &t.of else {
        return;
    };
    let found = answer.and_then(|a| match a.found {
        Found::Move { result, .. } => result.best.map(|mv| (mv, result)),
        Found::Turn(_) => None,
    });
    match found {
        Some((mv, result)) => {
            crate::web::milestone(&format!("engine played {}", position.move_to_lan(mv)));
            requests.write(StepRequest::play(mv));
            player.report = Some(EngineReport {
                side: t.side,
                score: result.score.for_white(t.side),
                depth: result.depth,
                line: pv_san(position, &result.pv, PV_MOVES),
            });
        }
        // No legal move: the rules end the game; nothing to play. A mated engine with
        // a move left would never get here.
        None if game.played.end().is_none() => {
            end.write(EndRequest(loss_of(&game, t.side, Termination::Resignation)));
        }
        None => {}
    }
    session.step = false;
}

/// Pieces still moving on the board.
type Moving = Or<(With<Slide>, With<Vanish>)>;

/// Starts the engine on the position when it is an engine's turn: the two-player
/// opponent's search, or an engine seat's search for its whole turn.
fn start_thinking(
    mut player: ResMut<EnginePlayer>,
    session: Res<Session>,
    clocks: Res<Clocks>,
    game: Res<CurrentGame>,
    rasteriser: Option<Res<Rasteriser>>,
    animating: Query<(), Moving>,
    trainer: Res<Trainer>,
) {
    if player.thinking.is_some() || game.outcome().is_some() || !game.is_live() {
        return;
    }
    let side = game.side_to_move();
    if session.held(game.side_count()) {
        return;
    }
    if game.has_more_sides() {
        let Some(EngineSeat { strategy, nodes }) = engine_seat(&session, side) else {
            return;
        };
        // Let the last move finish its animation first, so it is seen.
        if !animating.is_empty() {
            return;
        }
        match start_seat_search(&game, strategy, u64::from(nodes.max(1))) {
            Ok(t) => player.thinking = Some(t),
            Err(e) => bevy::log::error!("{e}"),
        }
        return;
    }
    if !session.seats.engine_plays(side) {
        return;
    }
    if !animating.is_empty() {
        return;
    }
    let software = rasteriser.as_deref() == Some(&Rasteriser::Software);
    let options = SearchOptions {
        skill: session.level,
        hash_mb: 32,
        threads: search_threads(cores(), software),
        ..SearchOptions::default()
    };
    let kept = player.engine.take();
    // The endgame tables of the position, when there are: perfect play in them.
    let tables = Arc::clone(&trainer.tables);
    let limits = limits_for(&session, &clocks);
    match start_opponent_search(&game, options, kept, tables, limits) {
        Ok(Some(t)) => player.thinking = Some(t),
        Ok(None) => {}
        Err(e) => bevy::log::error!("{e}"),
    }
}

/// The strategy and the turns the engine seat for `side` searches, when an engine
/// sits there.
fn engine_seat(session: &Session, side: Side) -> Option<EngineSeat> {
    session.seats.engine(side)
}

/// The two-player opponent's search, off the frame; none when the game does not replay
/// on the narrow cell sets.
fn start_opponent_search(
    game: &CurrentGame,
    options: SearchOptions,
    kept: Option<Engine>,
    tables: Arc<Tablebases>,
    limits: SearchLimits,
) -> Result<Option<Thinking>, String> {
    let question = Question::new(game.played.clone(), game.two_player_rules(), limits);
    // Kept to write the engine's lines (the question replayed the game once for all).
    let Some(position) = question.position().cloned() else {
        return Ok(None);
    };
    let progress: Arc<Mutex<Option<SearchInfo>>> = Arc::default();
    let ask = Ask {
        question,
        options,
        strategy: Strategy::Paranoid,
        kept,
        tables,
        purpose: "opponent",
    };
    let sink = Arc::clone(&progress);
    let search = EngineThinking::start(ask, move |_, info| {
        if let Ok(mut p) = sink.lock() {
            *p = Some(info.clone());
        }
    })?;
    Ok(Some(Thinking {
        search: Some(search),
        key: position_key(game),
        started: Instant::now(),
        side: game.side_to_move(),
        of: Thinker::Opponent {
            position: Box::new(position),
            progress,
        },
        queue: Vec::new(),
        wait: 0.0,
    }))
}

/// Takes the searched turn when it has come and plays its next step when it is due;
/// whether the whole turn has been asked for.
fn play_seat_steps(
    t: &mut Thinking,
    time: &Time,
    requests: &mut MessageWriter<StepRequest>,
) -> bool {
    if let Some(search) = t.search.as_mut() {
        if !search.poll() {
            return false;
        }
        let answered = t.search.take().map(|search| search.finish().1);
        match answered.flatten() {
            Some(answer) => {
                t.queue = answer.turn;
                crate::web::milestone(&format!("seat played {} steps", t.queue.len()));
            }
            // No answer (its worker refused the question): the seat searches again.
            None => return true,
        }
        t.wait = 0.25;
    }
    t.wait -= time.delta_secs();
    if t.wait > 0.0 {
        return t.queue.is_empty();
    }
    if !t.queue.is_empty() {
        requests.write(StepRequest(t.queue.remove(0)));
        t.wait = 0.6;
    }
    t.queue.is_empty()
}

/// A seat's search for a whole turn, off the frame.
fn start_seat_search(
    game: &CurrentGame,
    strategy: hexchess_engine::multi::Strategy,
    nodes: u64,
) -> Result<Thinking, String> {
    let copy = game.played.clone();
    let seed = copy.turns().len() as u64 + copy.side_to_move().index() as u64 * 7919;
    let limits = SearchLimits {
        nodes: Some(nodes),
        movetime: Some(Duration::from_secs(5)),
        ..SearchLimits::default()
    };
    let ask = Ask {
        question: Question::new(copy, game.two_player_rules(), limits).seed(seed),
        options: SearchOptions::default(),
        strategy,
        kept: None,
        tables: Arc::new(Tablebases::none()),
        purpose: "hexchess-seat",
    };
    Ok(Thinking {
        search: Some(EngineThinking::start(ask, |_, _| {})?),
        key: position_key(game),
        started: Instant::now(),
        side: game.side_to_move(),
        of: Thinker::Seat,
        queue: Vec::new(),
        wait: 0.0,
    })
}

/// Threads for the engine's search (they help only at full strength): the machine's
/// cores but one, which the frames need, and at most four, where more add little. One
/// when pixels are drawn on the CPU: the software rasteriser already keeps every core
/// busy, and a busier machine would only make the frames longer.
pub fn search_threads(cores: usize, software_renderer: bool) -> usize {
    if software_renderer {
        1
    } else {
        cores.saturating_sub(1).clamp(1, 4)
    }
}

/// The engine agrees to a draw when it thinks it stands worse, or when the game has
/// gone long and it sees nothing in the position.
fn answer_draw_offers(
    mut offers: MessageReader<DrawOffer>,
    player: Res<EnginePlayer>,
    session: Res<Session>,
    game: Res<CurrentGame>,
    mut end: MessageWriter<EndRequest>,
    mut notices: MessageWriter<GameNotice>,
) {
    for _ in offers.read() {
        let engine_side = match session.seats.engine_opponent(game.side_count()) {
            Some(side) => side,
            None => {
                notices.write(GameNotice(
                    "only an engine opponent can accept a draw".into(),
                ));
                continue;
            }
        };
        let view = player
            .report
            .as_ref()
            .map(|r| match r.score.for_white(Side::White) {
                Score::Cp(c) => match engine_side {
                    Side::White => c,
                    _ => -c,
                },
                Score::Mate(m) => {
                    let white = if m > 0 { 30_000 } else { -30_000 };
                    match engine_side {
                        Side::White => white,
                        _ => -white,
                    }
                }
            });
        let long_game = game.position().ply_count() >= 80;
        let accept = match view {
            Some(cp) => cp < -40 || (long_game && cp.abs() <= 15),
            None => false,
        };
        if accept && game.outcome().is_none() {
            end.write(EndRequest(GameOutcome::draw(Termination::Agreement)));
        } else {
            notices.write(GameNotice("the engine declines the draw".into()));
        }
    }
}

/// How long the engine may think, for tests and the interface.
pub fn think_time(session: &Session) -> Duration {
    session.think_time * u32::from(session.level.level()) / u32::from(Skill::FULL.level())
}

#[cfg(test)]
mod tests {
    use super::search_threads;

    #[test]
    fn the_search_leaves_a_core_for_the_frames_and_none_to_a_software_renderer() {
        assert_eq!(search_threads(1, false), 1);
        assert_eq!(search_threads(2, false), 1);
        assert_eq!(search_threads(4, false), 3);
        assert_eq!(search_threads(32, false), 4);
        assert_eq!(search_threads(32, true), 1);
    }
}
