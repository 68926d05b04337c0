//! The analysis board: the engine thinks without end about the position shown (the
//! live one, or an earlier one under review), reporting its best 1 to 5 lines, and
//! starts again whenever the position shown changes. While it is on, nobody's engine
//! plays: both sides are the player's to try moves with, and the clock is off.
//!
//! The hint (H in a game) is the same engine asked once, briefly, for the best move in
//! the position on the board.
//!
//! In a game of more sides the analysis is the best turn for the side on move (one
//! move or two, a removal owed first) as the seats' paranoid search finds it.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use bevy::prelude::*;
use hexchess_core::{Move, Step};
use hexchess_engine::multi::Strategy;
use hexchess_engine::{Engine, Question, SearchInfo, SearchLimits, SearchOptions, Tablebases};

use super::opponent::search_threads;
use super::seats::Seats;
use super::session::{Session, TimeControl};
use super::trainer::Trainer;
use super::work::engine::{Ask, EngineThinking};
use crate::game::{BoardPosition, CurrentGame, GameSet};
use crate::machine::{Rasteriser, cores};

/// The most lines the analysis shows.
pub const MAX_LINES: usize = 5;

/// How long the hint thinks.
const HINT_MILLIS: u64 = 800;

/// Turn the analysis on or off, or show this many lines.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnalysisRequest {
    On,
    Off,
    Lines(usize),
    /// The best move in the position on the board, once (the hint).
    Hint,
}

/// Which moment of the game a search is about: the position shown (on the board's
/// cell sets) and how many plies led to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Moment {
    hash: u64,
    ply: usize,
}

impl Moment {
    fn of(shown: &BoardPosition) -> Moment {
        Moment {
            hash: shown.hash(),
            ply: shown.ply_count(),
        }
    }
}

/// Turns the analysis of a game of more sides searches.
const TURN_NODES: u64 = 20_000;

/// The search of a game of more sides for the best turn in the position shown (a
/// search for a position no longer shown is dropped, and so stopped).
struct TableAnalysis {
    moment: Moment,
    /// The search, until it answers.
    job: Option<EngineThinking>,
    /// Its answer, once it has come.
    found: Option<Vec<Step>>,
}

/// The search under way and what it has said.
struct Running {
    search: EngineThinking,
    /// The moment it is about.
    moment: Moment,
    /// The endgame tables it searches with.
    tables: Arc<Tablebases>,
    lines: Arc<Mutex<Vec<SearchInfo>>>,
    /// The deepest first line announced to the page.
    told: u32,
}

/// The analysis board's state.
#[derive(Resource)]
pub struct Analysis {
    pub on: bool,
    /// Lines searched and shown, 1 to [`MAX_LINES`].
    pub lines: usize,
    running: Option<Running>,
    /// Who played and the clock before the analysis, given back after it.
    before: Option<(Seats, Option<TimeControl>)>,
    hint: Option<Running>,
    /// A game of more sides: the search for the best turn.
    turn: Option<TableAnalysis>,
    /// The engine (its hash table) between searches.
    engine: Option<Engine>,
}

impl Default for Analysis {
    fn default() -> Analysis {
        Analysis {
            on: false,
            lines: 3,
            running: None,
            before: None,
            hint: None,
            turn: None,
            engine: None,
        }
    }
}

impl Analysis {
    /// The best lines so far for `shown` (the position on the board), best first: each
    /// the deepest report of its rank. Empty for another position.
    pub fn lines_for(&self, shown: &BoardPosition) -> Vec<SearchInfo> {
        let Some(r) = &self.running else {
            return Vec::new();
        };
        if r.moment != Moment::of(shown) {
            return Vec::new();
        }
        r.lines.lock().map(|l| l.clone()).unwrap_or_default()
    }

    /// The best turn for the side on move in `shown` (a game of more sides), once found.
    pub fn best_turn_for(&self, shown: &BoardPosition) -> Option<Vec<Step>> {
        let t = self
            .turn
            .as_ref()
            .filter(|t| t.moment == Moment::of(shown))?;
        t.found.clone()
    }

    /// Whether a hint was asked for (its move may still be coming).
    pub fn has_hint(&self) -> bool {
        self.hint.is_some()
    }

    /// The hint's move for `shown`, once it has one.
    pub fn hint_for(&self, shown: &BoardPosition) -> Option<Move> {
        let h = self.hint.as_ref()?;
        if h.moment != Moment::of(shown) {
            return None;
        }
        let lines = h.lines.lock().ok()?;
        lines.first().and_then(|i| i.pv.first().copied())
    }
}

pub struct AnalysisPlugin;

impl Plugin for AnalysisPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Analysis>()
            .add_message::<AnalysisRequest>()
            .add_systems(
                Update,
                (answer_analysis_requests, follow_the_position)
                    .chain()
                    .in_set(GameSet::View)
                    .after(super::trainer::look_up_tables),
            );
    }
}

fn answer_analysis_requests(
    mut requests: MessageReader<AnalysisRequest>,
    mut analysis: ResMut<Analysis>,
    mut session: ResMut<Session>,
    game: Res<CurrentGame>,
    trainer: Res<Trainer>,
    rasteriser: Option<Res<Rasteriser>>,
) {
    for request in requests.read() {
        match *request {
            AnalysisRequest::On if !analysis.on => {
                analysis.on = true;
                analysis.before = Some((session.seats, session.time_control));
                session.seats = Seats::people();
                session.time_control = None;
            }
            AnalysisRequest::Off if analysis.on => {
                analysis.on = false;
                stop(&mut analysis.running);
                if let Some((seats, clock)) = analysis.before.take() {
                    session.seats = seats;
                    session.time_control = clock;
                }
            }
            AnalysisRequest::Lines(n) => {
                let n = n.clamp(1, MAX_LINES);
                if n != analysis.lines {
                    analysis.lines = n;
                    // Searched again with the new count.
                    stop(&mut analysis.running);
                }
            }
            AnalysisRequest::Hint => {
                stop(&mut analysis.hint);
                let software = rasteriser.as_deref() == Some(&Rasteriser::Software);
                let limits = SearchLimits::movetime(HINT_MILLIS);
                let question = Question::new(game.played.clone(), game.two_player_rules(), limits);
                // Two sides only: a table's turns are the analysis's.
                if question.position().is_none() {
                    continue;
                }
                let moment = Moment::of(game.position());
                let shown = Shown {
                    question,
                    moment,
                    purpose: "hint",
                };
                let tables = Arc::clone(&trainer.tables);
                analysis.hint = start(shown, 1, software, None, tables);
            }
            _ => {}
        }
    }
}

/// Keeps a search on the position shown while the analysis is on, with the endgame
/// tables of the position when there are (then its lines are perfect: a mate's length
/// is exact, a draw is a draw).
fn follow_the_position(
    mut analysis: ResMut<Analysis>,
    game: Res<CurrentGame>,
    trainer: Res<Trainer>,
    rasteriser: Option<Res<Rasteriser>>,
) {
    // A browser's worker reports when its lines are read: each frame.
    let both = &mut *analysis;
    for running in [&mut both.hint, &mut both.running].into_iter().flatten() {
        running.search.poll();
    }
    if let Some(r) = analysis.running.as_mut() {
        announce_depth(r);
    }
    if !analysis.on {
        analysis.turn = None;
        return;
    }
    if game.has_more_sides() {
        follow_the_table(&mut analysis, &game);
        return;
    }
    let moment = match game.viewing {
        Some(_) => Moment::of(&game.displayed()),
        None => Moment::of(game.position()),
    };
    let current = analysis
        .running
        .as_ref()
        .is_some_and(|r| r.moment == moment && Arc::ptr_eq(&r.tables, &trainer.tables));
    if current {
        return;
    }
    // Its engine (and hash table) goes on to the next position.
    let kept = analysis.running.take().and_then(|mut r| {
        r.search.stop();
        r.search.finish().0
    });
    if kept.is_some() {
        analysis.engine = kept;
    }
    let limits = SearchLimits {
        infinite: true,
        ..SearchLimits::default()
    };
    let question = Question::new(game.displayed_game(), game.two_player_rules(), limits);
    // Two sides only (the position on the narrow cell sets): the lines are moves.
    if question
        .position()
        .is_none_or(|p| p.legal_moves().is_empty())
    {
        return;
    }
    let software = rasteriser.as_deref() == Some(&Rasteriser::Software);
    let lines = analysis.lines;
    let kept = analysis.engine.take();
    let tables = Arc::clone(&trainer.tables);
    let shown = Shown {
        question,
        moment,
        purpose: "analysis",
    };
    analysis.running = start(shown, lines, software, kept, tables);
}

/// A game of more sides: a search for the best turn in the position shown, started
/// again when it changes.
fn follow_the_table(analysis: &mut Analysis, game: &CurrentGame) {
    let shown = game.displayed_game();
    let moment = Moment::of(shown.position());
    if let Some(t) = analysis.turn.as_mut().filter(|t| t.moment == moment) {
        if t.job.as_mut().is_some_and(EngineThinking::poll) {
            let answer = t.job.take().and_then(|job| job.finish().1);
            t.found = answer.map(|a| a.turn).filter(|turn| !turn.is_empty());
        }
        return;
    }
    analysis.turn = None;
    if shown.end().is_some() {
        return;
    }
    let limits = SearchLimits {
        nodes: Some(TURN_NODES),
        movetime: Some(Duration::from_secs(3)),
        ..SearchLimits::default()
    };
    let ask = Ask {
        question: Question::new(shown, game.two_player_rules(), limits).seed(moment.hash),
        options: SearchOptions::default(),
        strategy: Strategy::Paranoid,
        kept: None,
        tables: Arc::new(Tablebases::none()),
        purpose: "hexchess-turn-analysis",
    };
    match EngineThinking::start(ask, |_, _| {}) {
        Ok(job) => {
            analysis.turn = Some(TableAnalysis {
                moment,
                job: Some(job),
                found: None,
            });
        }
        Err(e) => error!("{e}"),
    }
}

/// The question about the position shown (the game up to it, two sides), which moment
/// that is, and which worker searches it in a browser.
struct Shown {
    question: Question,
    moment: Moment,
    purpose: &'static str,
}

/// A search of the position `shown` off the frame whose reports keep the latest of each
/// line (none when it could not start: the browser refused a worker).
fn start(
    shown: Shown,
    lines: usize,
    software: bool,
    kept: Option<Engine>,
    tables: Arc<Tablebases>,
) -> Option<Running> {
    let ask = Ask {
        question: shown.question,
        options: SearchOptions {
            hash_mb: 64,
            multi_pv: lines,
            threads: search_threads(cores(), software),
            ..SearchOptions::default()
        },
        strategy: Strategy::Paranoid,
        kept,
        tables: Arc::clone(&tables),
        purpose: shown.purpose,
    };
    let reports: Arc<Mutex<Vec<SearchInfo>>> = Arc::default();
    let sink = Arc::clone(&reports);
    let started = EngineThinking::start(ask, move |_, info| {
        if let Ok(mut l) = sink.lock() {
            keep_line(&mut l, info);
        }
    });
    match started {
        Ok(search) => Some(Running {
            search,
            moment: shown.moment,
            tables,
            lines: reports,
            told: 0,
        }),
        Err(e) => {
            error!("{e}");
            None
        }
    }
}

/// Files a report under its rank (`multipv`, 1 when there is one line); a new depth
/// starts the list afresh from its first line, so that lines of different depths are
/// not ranked together.
fn keep_line(lines: &mut Vec<SearchInfo>, info: &SearchInfo) {
    let rank = info.multipv.unwrap_or(1).max(1) as usize;
    if rank == 1 && lines.first().is_some_and(|l| l.depth < info.depth) {
        lines.truncate(1);
    }
    if lines.len() < rank {
        lines.resize(rank, info.clone());
    }
    lines[rank - 1] = info.clone();
}

/// Tells the page (a test) each new depth of the analysis's first line.
fn announce_depth(running: &mut Running) {
    let depth = running
        .lines
        .lock()
        .ok()
        .and_then(|l| l.first().map(|i| i.depth))
        .unwrap_or(0);
    if depth > running.told {
        running.told = depth;
        crate::web::milestone(&format!("analysis depth {depth}"));
    }
}

fn stop(running: &mut Option<Running>) {
    if let Some(mut r) = running.take() {
        r.search.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hexchess_engine::Score;

    fn info(depth: u32, rank: Option<u32>, cp: i32) -> SearchInfo {
        SearchInfo {
            depth,
            seldepth: depth,
            score: Score::Cp(cp),
            nodes: 0,
            nps: 0,
            time_ms: 0,
            hashfull: 0,
            pv: Vec::new(),
            multipv: rank,
            bound: None,
        }
    }

    #[test]
    fn lines_are_filed_by_rank_and_a_new_depth_starts_afresh() {
        let mut lines = Vec::new();
        for (rank, cp) in [(1, 30), (2, 10), (3, -5)] {
            keep_line(&mut lines, &info(5, Some(rank), cp));
        }
        assert_eq!(
            lines.iter().map(|l| l.score).collect::<Vec<_>>(),
            [Score::Cp(30), Score::Cp(10), Score::Cp(-5)]
        );
        keep_line(&mut lines, &info(6, Some(1), 25));
        assert_eq!(lines.len(), 1, "depth 6's first line alone");
        keep_line(&mut lines, &info(6, Some(2), 20));
        assert_eq!(lines[1].depth, 6);
        // One line: no rank given.
        let mut one = Vec::new();
        keep_line(&mut one, &info(3, None, 7));
        keep_line(&mut one, &info(4, None, 9));
        assert_eq!(one.len(), 1);
        assert_eq!(one[0].score, Score::Cp(9));
    }
}
