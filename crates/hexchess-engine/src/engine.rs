//! One engine for a game of any number of sides: every caller (the protocol's `go`, the
//! server's engine seats, the game's opponent, analysis board, hint and review, the
//! browser's worker) gives it a [`Question`] (a game, its limits) and gets an [`Answer`]
//! (a turn), and none of them picks a search.
//!
//! Why one door: a two-player game is searched move by move on the variant's narrow
//! cell sets by the [`Searcher`] (after the game is replayed there), a game of more
//! sides turn by turn on the game itself by the [`MultiSearcher`], and each answer has to
//! be turned back into the game's steps. Made in five places, that choice drifted (node
//! caps, draws by rule, seeds). As Stockfish's `engine.h`, the [`Engine`] owns the
//! choice, the searcher kept between searches (its hash table), the strength and the
//! endgame tables; [`Engine::think`] answers in place and [`Engine::go`] off the
//! caller's thread, stopped or pondered through [`Thinking`].

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use hexchess_core::game::{Draws, Game, Step};
use hexchess_core::position::Position;
use hexchess_core::rules::Rules;

use crate::job::{self, Job};
use crate::multi::{MultiChoice, MultiLimits, MultiSearcher, Strategy, skill_nodes};
use crate::{Ponder, ProgressSink, SearchInfo, SearchLimits, SearchOptions, SearchResult};
use crate::{Score, Searcher, Tablebases};

/// What the engine is asked: a game (the engine sees its history) and how long to
/// think. Made with [`Question::new`], narrowed with [`Question::only`].
#[derive(Clone)]
pub struct Question {
    game: Game,
    /// The game replayed on the narrow cell sets, when it is searched there: made once,
    /// when the question is (a long game's replay is not cheap, and the caller, the
    /// search and the reports all read it).
    position: Option<Position>,
    limits: SearchLimits,
    only: Vec<Vec<Step>>,
    seed: Option<u64>,
}

impl Question {
    /// The turn of the side on move in `game` within `limits`. `two_player` are the
    /// variant's rules on the narrow cell sets (`CatalogEntry::two_player_rules`): a
    /// two-player game is searched there. Without them (a game of more sides, or a
    /// variant the narrow sets cannot hold) the game is searched turn by turn.
    pub fn new(game: Game, two_player: Option<Arc<Rules>>, limits: SearchLimits) -> Question {
        let two_sides = game.sides().count() == 2;
        let position = two_player
            .filter(|_| two_sides)
            .map(|rules| game.position_on(rules));
        Question {
            game,
            position,
            limits,
            only: Vec::new(),
            seed: None,
        }
    }

    /// Chooses among these turns only (the protocol's `searchmoves`); each must be one
    /// the game allows here (see [`read_turns`]). Empty: every turn.
    pub fn only(mut self, turns: Vec<Vec<Step>>) -> Question {
        self.only = turns;
        self
    }

    /// Seeds the random choices of a search of whole turns (the same seed, the same
    /// choice). Unset, the seed follows from the game's turns and the engine's searches.
    pub fn seed(mut self, seed: u64) -> Question {
        self.seed = Some(seed);
        self
    }

    /// The same question within other limits.
    pub fn with_limits(mut self, limits: SearchLimits) -> Question {
        self.limits = limits;
        self
    }

    /// The game asked about.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// How long to think.
    pub fn limits(&self) -> &SearchLimits {
        &self.limits
    }

    /// The game's position on the narrow cell sets, when it is searched there (two
    /// sides, and the narrow rules given).
    pub fn position(&self) -> Option<&Position> {
        self.position.as_ref()
    }
}

/// What the engine found.
#[derive(Clone, Debug)]
pub struct Answer {
    /// The turn to play, step by step (one move in a two-player game); empty when the
    /// side on move has none.
    pub turn: Vec<Step>,
    /// What the search that ran says of it.
    pub found: Found,
}

/// The search's own account of an [`Answer`], by the kind of search that ran.
#[derive(Clone, Debug)]
pub enum Found {
    /// A two-player search: the position searched (narrow cell sets) and its result,
    /// whose moves and lines are that position's.
    Move {
        /// The position searched.
        position: Box<Position>,
        /// The search's result: its move, score, depth and line.
        result: SearchResult,
    },
    /// A search of whole turns: its choice, if the side on move had a turn.
    Turn(Option<MultiChoice>),
}

impl Answer {
    /// Iterations (two sides: plies; more sides: whole turns) the search completed.
    pub fn depth(&self) -> u32 {
        match &self.found {
            Found::Move { result, .. } => result.depth,
            Found::Turn(choice) => choice.as_ref().map_or(0, |c| c.depth),
        }
    }

    /// Nodes the search visited (two sides: positions; more sides: whole turns).
    pub fn nodes(&self) -> u64 {
        match &self.found {
            Found::Move { result, .. } => result.nodes,
            Found::Turn(choice) => choice.as_ref().map_or(0, |c| c.nodes),
        }
    }

    /// The two-player search's score for the side on move; `None` for a search of
    /// whole turns, whose score is its own measure ([`MultiChoice::score`]).
    pub fn score(&self) -> Option<Score> {
        match &self.found {
            Found::Move { result, .. } => Some(result.score),
            Found::Turn(_) => None,
        }
    }
}

/// The engine: its options and strength, its strategy for games of more sides, its
/// endgame tables, and the two-player searcher it keeps between searches.
pub struct Engine {
    options: SearchOptions,
    strategy: Strategy,
    tables: Arc<Tablebases>,
    progress: Option<ProgressSink>,
    /// Made when first needed (a fresh hash table takes a while to allocate: on the
    /// search's thread, not the caller's frame).
    searcher: Option<Searcher>,
    searches: u64,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new(SearchOptions::default())
    }
}

impl Engine {
    /// An engine with these options (strength, hash, threads, lines), the paranoid
    /// strategy for games of more sides and no endgame tables.
    pub fn new(options: SearchOptions) -> Engine {
        Engine {
            options,
            strategy: Strategy::Paranoid,
            tables: Arc::new(Tablebases::none()),
            progress: None,
            searcher: None,
            searches: 0,
        }
    }

    /// The options the next search runs with.
    pub fn options(&self) -> &SearchOptions {
        &self.options
    }

    /// Sets the options for the searches from now on (the hash table is resized on the
    /// next search if its size changed).
    pub fn set_options(&mut self, options: SearchOptions) {
        self.options = options;
    }

    /// How a game of more sides is searched.
    pub fn strategy(&self) -> Strategy {
        self.strategy
    }

    /// Sets how a game of more sides is searched (`MultiSearch`).
    pub fn set_strategy(&mut self, strategy: Strategy) {
        self.strategy = strategy;
    }

    /// The endgame tables a two-player search probes.
    pub fn set_tablebases(&mut self, tables: Arc<Tablebases>) {
        self.tables = tables;
    }

    /// Where the next two-player search reports its root moves and provisional scores
    /// (the next only: the reports name moves of that search's position).
    pub fn set_progress(&mut self, sink: Option<ProgressSink>) {
        self.progress = sink;
    }

    /// A hash table of `mb` megabytes, or, when the system refuses that much memory,
    /// the error and the table there was.
    pub fn set_hash(&mut self, mb: usize) -> Result<(), crate::tt::HashError> {
        self.searcher().set_hash(mb)?;
        self.options.hash_mb = mb;
        Ok(())
    }

    /// The hash table's size in megabytes.
    pub fn hash_mb(&mut self) -> usize {
        self.searcher().hash_mb()
    }

    /// Forgets what earlier searches stored and learned (a new game).
    pub fn clear(&mut self) {
        self.searcher().clear();
    }

    /// The two-player searcher, made now if there is none yet.
    fn searcher(&mut self) -> &mut Searcher {
        let options = self.options;
        let searcher = self.searcher.get_or_insert_with(|| Searcher::new(options));
        if *searcher.options() != options {
            searcher.set_options(options);
            // A hash size the system refused stays what it was.
            self.options = *searcher.options();
        }
        searcher
    }

    /// Answers `question` on this thread; `stop` ends the search early with what it
    /// has. `on_info` hears each completed depth of a two-player search, with the
    /// position its moves are on.
    pub fn think(
        &mut self,
        question: &Question,
        stop: &Arc<AtomicBool>,
        on_info: &mut dyn FnMut(&Position, &SearchInfo),
    ) -> Answer {
        self.searches += 1;
        match question.position().cloned() {
            Some(position) => self.think_two_sides(question, position, stop, on_info),
            None => self.think_more_sides(question, stop),
        }
    }

    fn think_two_sides(
        &mut self,
        question: &Question,
        root: Position,
        stop: &Arc<AtomicBool>,
        on_info: &mut dyn FnMut(&Position, &SearchInfo),
    ) -> Answer {
        let mut limits = question.limits.clone();
        if !question.only.is_empty() {
            limits.searchmoves = question.only.iter().filter_map(|t| first_move(t)).collect();
        }
        let tables = Arc::clone(&self.tables);
        let progress = self.progress.take();
        let searcher = self.searcher();
        searcher.set_tablebases(tables);
        searcher.set_progress(progress);
        let mut position = root.clone();
        let result = searcher.search(&mut position, &limits, stop, &mut |info| {
            on_info(&root, info)
        });
        Answer {
            turn: result.best.map(Step::Play).into_iter().collect(),
            found: Found::Move {
                position: Box::new(root),
                result,
            },
        }
    }

    fn think_more_sides(&mut self, question: &Question, stop: &Arc<AtomicBool>) -> Answer {
        // The lines ahead are judged as the rules judge them, whatever the caller's
        // game calls (a GUI may have called its draws itself).
        let mut game = question.game.clone();
        game.set_draws(Draws::ByRule);
        let seed = question.seed.unwrap_or_else(|| self.default_seed(&game));
        let mut searcher = MultiSearcher::new(self.strategy, seed);
        searcher.only_turns(question.only.clone());
        searcher.ponder(question.limits.ponder.clone());
        let limits = turn_limits(&question.limits, &game, self.options.skill);
        let choice = searcher.choose(&game, &limits, stop);
        Answer {
            turn: choice.as_ref().map(|c| c.steps.clone()).unwrap_or_default(),
            found: Found::Turn(choice),
        }
    }

    fn default_seed(&self, game: &Game) -> u64 {
        game.turns().len() as u64 * 7919 + game.side_to_move().index() as u64 + self.searches
    }

    /// Answers `question` off the caller's thread (in place where there are no
    /// threads: a browser's worker). `on_info` hears each depth and `on_done` the
    /// question with its answer, both on the search's thread; a search that must wait to answer
    /// ([`SearchLimits::answer_waits`]: infinite, or pondering) holds `on_done` until
    /// [`Thinking::stop`] or [`Thinking::ponder_hit`].
    pub fn go(
        self,
        question: Question,
        mut on_info: impl FnMut(&Position, &SearchInfo) + Send + 'static,
        on_done: impl FnOnce(&Question, &Answer) + Send + 'static,
    ) -> std::io::Result<Thinking> {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let ponder = question.limits.ponder.clone();
        let mut engine = self;
        let job = job::start("hexchess-search", SEARCH_STACK, move || {
            let answer = engine.think(&question, &flag, &mut on_info);
            while question.limits.answer_waits()
                && !flag.load(Ordering::Relaxed)
                && !job::RUNS_IN_PLACE
            {
                job::pause();
            }
            on_done(&question, &answer);
            (engine, answer)
        })?;
        Ok(Thinking {
            stop,
            ponder,
            job: Some(job),
        })
    }
}

/// The stack a search thread gets: the search recurses up to `MAX_PLY` deep with small
/// frames, and a turn search plays whole turns at each level; be generous.
const SEARCH_STACK: Option<usize> = Some(64 * 1024 * 1024);

/// A turn's move, for a two-player search's `searchmoves`.
fn first_move(turn: &[Step]) -> Option<hexchess_core::moves::Move> {
    turn.iter().find_map(|s| match s {
        Step::Play(mv) => Some(*mv),
        Step::Stop => None,
    })
}

/// The limits as a search of whole turns takes them: nodes (capped by the strength:
/// fewer turns looked at is a cruder choice) and depth as given, a move time, or a share
/// of the side on move's clock (`wtime`/`winc` whatever its seat).
fn turn_limits(limits: &SearchLimits, game: &Game, skill: crate::Skill) -> MultiLimits {
    let nodes = match (limits.nodes, skill_nodes(skill)) {
        (Some(n), Some(cap)) => Some(n.min(cap)),
        (n, cap) => n.or(cap),
    };
    let mut m = MultiLimits {
        nodes: nodes.unwrap_or(u64::MAX),
        depth: limits.depth.unwrap_or(64),
        time: limits.movetime,
    };
    if let Some(clock) = &limits.clock
        && m.time.is_none()
    {
        let (left, inc) = if game.side_to_move().index() == 1 && clock.black > Duration::ZERO {
            (clock.black, clock.black_increment)
        } else {
            (clock.white, clock.white_increment)
        };
        m.time = Some(left / 30 + inc / 2);
    }
    let unbounded =
        nodes.is_none() && limits.depth.is_none() && m.time.is_none() && !limits.infinite;
    if unbounded {
        m.nodes = MultiLimits::default().nodes;
    }
    m
}

/// The steps of each turn written in `texts` (long algebraic, a turn's steps joined by
/// `&`), each one the game allows here, or what is wrong with one.
pub fn read_turns(game: &Game, texts: &[String]) -> Result<Vec<Vec<Step>>, String> {
    texts
        .iter()
        .map(|t| {
            let mut g = game.clone();
            let before = g.turns().len();
            g.play_turn(t).map_err(|e| format!("'{t}': {e}"))?;
            Ok(g.turns()
                .get(before)
                .map(|turn| turn.1.to_vec())
                .unwrap_or_else(|| g.current_steps().to_vec()))
        })
        .collect()
}

/// The engine thinking off the caller's thread. Dropped, it stops and waits.
pub struct Thinking {
    stop: Arc<AtomicBool>,
    ponder: Option<Ponder>,
    job: Option<Job<(Engine, Answer)>>,
}

impl Thinking {
    /// Asks the search to stop as soon as it can (it answers with what it has).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// The opponent played the move or turn pondered on: from now the search runs on
    /// its own clock. False when it was not pondering.
    pub fn ponder_hit(&self) -> bool {
        match &self.ponder {
            Some(p) if p.is_pondering() => {
                p.hit();
                true
            }
            _ => false,
        }
    }

    /// Whether it has answered (a join would not wait).
    pub fn is_finished(&self) -> bool {
        self.job.as_ref().is_none_or(|j| j.is_finished())
    }

    /// Waits for the answer, and gives the engine back for the next search.
    pub fn join(mut self) -> (Engine, Answer) {
        let job = self.job.take().expect("joined once");
        match job.join() {
            Ok(done) => done,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    }
}

impl Drop for Thinking {
    fn drop(&mut self) {
        if let Some(job) = self.job.take() {
            self.stop();
            let _ = job.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hexchess_core::Catalog;

    fn nodes(n: u64) -> SearchLimits {
        SearchLimits {
            nodes: Some(n),
            ..SearchLimits::default()
        }
    }

    fn question(variant: &str, limits: SearchLimits) -> Question {
        let catalog = Catalog::builtin();
        let entry = catalog.get(variant).expect("a built-in variant");
        let game = Game::new(Arc::clone(entry.rules()));
        Question::new(game, entry.two_player_rules(), limits)
    }

    /// Plays the answer's turn on a copy of the question's game: every step must be one
    /// the game allows, and the turn must end (the side on move changes).
    fn played(question: &Question, answer: &Answer) -> Game {
        let mut game = question.game().clone();
        let before = game.side_to_move();
        for step in &answer.turn {
            game.play(*step).expect("a step the game allows");
        }
        assert_ne!(game.side_to_move(), before, "the turn ends");
        game
    }

    fn small() -> Engine {
        Engine::new(SearchOptions {
            hash_mb: 1,
            ..SearchOptions::default()
        })
    }

    #[test]
    fn a_two_player_game_is_searched_move_by_move_on_the_narrow_cells() {
        let q = question("glinski", SearchLimits::depth(3));
        let stop = Arc::new(AtomicBool::new(false));
        let mut depths = Vec::new();
        let answer = small().think(&q, &stop, &mut |_, info| depths.push(info.depth));
        assert!(matches!(answer.found, Found::Move { .. }));
        assert_eq!(answer.turn.len(), 1);
        assert_eq!(answer.depth(), 3);
        assert_eq!(depths, [1, 2, 3], "each depth reported");
        assert!(answer.score().is_some());
        played(&q, &answer);
    }

    #[test]
    fn a_game_of_three_sides_is_searched_turn_by_turn() {
        let q = question("hexachess-3", nodes(300));
        let stop = Arc::new(AtomicBool::new(false));
        let answer = small().think(&q, &stop, &mut |_, _| panic!("no depth reports"));
        let Found::Turn(Some(choice)) = &answer.found else {
            panic!("a turn search with a choice: {:?}", answer.found);
        };
        assert!(
            choice.nodes <= 300 + 64,
            "within its nodes: {}",
            choice.nodes
        );
        assert_eq!(answer.score(), None);
        played(&q, &answer);
    }

    #[test]
    fn only_the_turns_named_are_chosen_among() {
        for variant in ["glinski", "hexachess-3"] {
            let base = question(variant, SearchLimits::depth(2));
            let first = read_turns(base.game(), &[first_turn_text(base.game())]).unwrap();
            let q = base.clone().only(first.clone());
            let stop = Arc::new(AtomicBool::new(false));
            let answer = small().think(&q, &stop, &mut |_, _| {});
            assert_eq!(answer.turn, first[0], "{variant}");
        }
    }

    /// Some turn of the game written as the protocol writes it: a quiet move of the
    /// side on move, as a whole turn.
    fn first_turn_text(game: &Game) -> String {
        let mut g = game.clone();
        let mv = g.position().legal_moves()[0];
        let text = g.position().move_to_lan(mv);
        assert!(g.play_as_whole_turn(mv));
        text
    }

    #[test]
    fn a_turn_not_allowed_is_named() {
        let q = question("glinski", SearchLimits::depth(1));
        let e = read_turns(q.game(), &["a1a9".to_string()]).unwrap_err();
        assert!(e.starts_with("'a1a9': "), "{e}");
    }

    #[test]
    fn the_strength_caps_the_turns_a_turn_search_looks_at() {
        let q = question("hexachess-3", SearchLimits::default());
        let weak = crate::Skill::new(1).unwrap();
        let limits = turn_limits(q.limits(), q.game(), weak);
        assert_eq!(Some(limits.nodes), skill_nodes(weak));
        let asked = turn_limits(&nodes(10), q.game(), weak);
        assert_eq!(asked.nodes, 10, "fewer asked: fewer looked at");
        let full = turn_limits(q.limits(), q.game(), crate::Skill::FULL);
        assert_eq!(
            full.nodes,
            MultiLimits::default().nodes,
            "unbounded: the default"
        );
    }

    #[test]
    fn thinking_off_the_thread_answers_as_in_place_and_gives_the_engine_back() {
        let q = question("glinski", SearchLimits::depth(3));
        let stop = Arc::new(AtomicBool::new(false));
        let in_place = small().think(&q, &stop, &mut |_, _| {});
        let (told, heard) = std::sync::mpsc::channel();
        let thinking = small()
            .go(q, |_, _| {}, move |_, a| told.send(a.turn.clone()).unwrap())
            .unwrap();
        let (engine, answer) = thinking.join();
        assert_eq!(
            heard.recv().unwrap(),
            answer.turn,
            "on_done heard the answer"
        );
        // One thread at full strength searches deterministically.
        assert_eq!(answer.turn, in_place.turn);
        assert_eq!(engine.options().hash_mb, 1);
    }
}
