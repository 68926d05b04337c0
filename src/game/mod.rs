//! The game: the single source of truth every view is synced from, the variants it
//! can be played in (reloaded as their files change, [`variants`]), and games saved
//! and loaded as text records ([`records`]).
//!
//! One resource, [`CurrentGame`], holds the game on the board for every variant: two
//! sides or more, setup phases, turns of several moves, standings and removals owed.
//! Other plugins never change it directly. They send requests ([`StepRequest`],
//! [`NewGameRequest`], [`UndoRequest`], [`RedoRequest`], [`EndRequest`],
//! [`ReviewRequest`], [`LoadRequest`], [`LineRequest`]); this plugin checks each against
//! the rules, applies it, and announces the result with one message, [`BoardChanged`].

pub mod deployment;
pub mod files;
pub mod records;
pub mod variants;

use std::sync::Arc;

use bevy::prelude::*;
use hexchess_core::bitboard::WideBitboard;
use hexchess_core::pgn::PgnGame;
use hexchess_core::{
    Catalog, CatalogEntry, Cell, Game, GameOutcome, Move, Piece, Position, Rules, Side, Step,
    StepReport,
};

/// Pieces the board shows instead of the game's: the board editor's position, which
/// may be one no game can be in (a king missing). While there is one, the game's
/// highlights are hidden and the board's clicks are the editor's.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct BoardPicture(pub Option<Vec<(Cell, Piece)>>);

/// What the board is for: the game, or the board editor's setup (then the clicks are
/// the editor's and nobody plays on).
#[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BoardMode {
    #[default]
    Game,
    Editing,
}

/// Every variant the game can play, and the files that failed to load.
#[derive(Resource, Clone)]
pub struct Variants(pub Catalog);

/// The position the board works with: every variant's, on the cell sets wide enough
/// for the largest board (the engine's narrow ones are for its search alone).
pub type BoardPosition = Position<WideBitboard>;

/// The game on the board, of any number of sides, with what the board adds to the
/// rules: its start, the turns taken back, an ending the rules do not see, and the turn
/// shown while stepping back through the moves.
#[derive(Resource, Clone)]
pub struct CurrentGame {
    /// The game as played: its position, turns, standings and end (the rules' own
    /// [`Game`]; the rest of `CurrentGame` is what the app keeps beside it).
    pub played: Game,
    /// The FEN the game started from, when it is not the variant's start.
    pub start_fen: Option<String>,
    /// Turns taken back, newest last (each as its steps), for redo.
    pub redo: Vec<Vec<Step>>,
    /// An ending the rules do not see on the board: resignation, time, agreement.
    pub ended: Option<GameOutcome>,
    /// While reviewing: how many turns of the game the board shows.
    pub viewing: Option<usize>,
    /// The variant on the engine's narrow cell sets (two sides only): its search,
    /// analysis and endgame tables run there.
    two_player: Option<Arc<Rules>>,
}

impl CurrentGame {
    /// A game of the catalog's `entry` from its start.
    pub fn new(entry: &CatalogEntry) -> CurrentGame {
        CurrentGame::of(Game::new(Arc::clone(entry.rules())), entry, None)
    }

    /// `game`, a game of `entry`'s variant, on the board.
    pub fn of(game: Game, entry: &CatalogEntry, start_fen: Option<String>) -> CurrentGame {
        CurrentGame {
            played: game,
            start_fen,
            redo: Vec::new(),
            ended: None,
            viewing: None,
            two_player: entry.two_player_rules(),
        }
    }

    /// The game from `entry`'s start or `fen`, after `turns` (moves, or for more sides
    /// whole turns written with `&`).
    pub fn from_moves<S: AsRef<str>>(
        entry: &CatalogEntry,
        fen: Option<&str>,
        turns: &[S],
    ) -> Result<CurrentGame, hexchess_core::StartError> {
        let game = Game::from_moves(Arc::clone(entry.rules()), fen, turns)?;
        Ok(CurrentGame::of(game, entry, fen.map(str::to_string)))
    }

    pub fn rules(&self) -> &Rules<WideBitboard> {
        self.played.position().rules()
    }

    /// The live position, with the moves that led to it.
    pub fn position(&self) -> &BoardPosition {
        self.played.position()
    }

    /// The side whose turn it is.
    pub fn side_to_move(&self) -> Side {
        self.played.side_to_move()
    }

    /// How many sides play.
    pub fn side_count(&self) -> usize {
        self.rules().side_count()
    }

    /// Whether more than two sides play (a table: seats, standings, turns of steps).
    pub fn has_more_sides(&self) -> bool {
        self.played.has_more_sides()
    }

    /// How many turns have been played (in a two-player game, plies).
    pub fn turn_count(&self) -> usize {
        self.played.turns().len()
    }

    /// The variant's rules on the engine's narrow cell sets, for two sides.
    pub fn two_player_rules(&self) -> Option<Arc<Rules>> {
        self.two_player.clone()
    }

    /// The live position on the engine's cell sets, with its history (two sides only):
    /// what the engine searches and the endgame tables probe.
    pub fn two_player_position(&self) -> Option<Position> {
        self.two_player
            .as_ref()
            .map(|r| self.played.position_on(Arc::clone(r)))
    }

    /// [`CurrentGame::two_player_position`] of the position the board shows.
    pub fn two_player_displayed(&self) -> Option<Position> {
        let rules = self.two_player.as_ref()?;
        Some(self.displayed_game().position_on(Arc::clone(rules)))
    }

    /// The game as it began (no turn played).
    pub fn start_game(&self) -> Game {
        self.played.rewound(0)
    }

    /// The position the game started from.
    pub fn start_position(&self) -> BoardPosition {
        self.played.start_position()
    }

    /// The result, if the game is over (by the rules, or by resignation, time or
    /// agreement).
    pub fn outcome(&self) -> Option<GameOutcome> {
        self.ended.or_else(|| self.played.end().copied())
    }

    /// The game as the board shows it: the live one, or an earlier turn under review.
    pub fn displayed_game(&self) -> Game {
        match self.viewing {
            Some(turns) => self.played.rewound(turns),
            None => self.played.clone(),
        }
    }

    /// The position the board shows.
    pub fn displayed(&self) -> BoardPosition {
        match self.viewing {
            Some(turns) => self.played.rewound(turns).position().clone(),
            None => self.position().clone(),
        }
    }

    /// Whether the board shows the live position (moves can be played).
    pub fn is_live(&self) -> bool {
        self.viewing.is_none()
    }

    /// The turns played so far as the game writes them (SAN for two sides), oldest
    /// first.
    pub fn move_texts(&self) -> Vec<String> {
        self.played.turn_texts()
    }

    /// Every piece captured so far, in order (as the game's reports name them).
    pub fn captured(&self) -> Vec<Piece> {
        let mut replay = self.start_game();
        let mut out = Vec::new();
        for (_, steps) in self.played.turns() {
            for step in steps {
                if let Ok(report) = replay.play(*step) {
                    out.extend(report.capture.map(|(piece, _)| piece));
                }
            }
        }
        out
    }

    /// The game after `turns` taken back (the turn in progress always goes), the turns
    /// kept for redo.
    fn take_back(&mut self, turns: usize) -> bool {
        let played = self.turn_count();
        let keep = played.saturating_sub(turns);
        if keep == played && self.played.current_steps().is_empty() {
            return false;
        }
        let undone: Vec<Vec<Step>> = self.played.turns()[keep..]
            .iter()
            .map(|(_, steps)| steps.to_vec())
            .collect();
        self.redo.extend(undone.into_iter().rev());
        self.played = self.played.rewound(keep);
        true
    }

    /// Plays a taken-back turn again, if it still can be played.
    fn replay_turn(&mut self, steps: &[Step]) -> bool {
        let mut next = self.played.clone();
        for step in steps {
            if next.play(*step).is_err() {
                return false;
            }
        }
        self.played = next;
        true
    }
}

/// Play this step (a move, a removal, a swap, or the end of a turn of several moves)
/// if the rules allow it now: the one way a move reaches the game, from a click, an
/// engine or a test.
#[derive(Message, Clone, Copy, Debug)]
pub struct StepRequest(pub Step);

impl StepRequest {
    /// A request to play a move.
    pub fn play(mv: Move) -> StepRequest {
        StepRequest(Step::Play(mv))
    }
}

/// Who decides the moves of the game on the board: this program, or one far off (a
/// person's move is proposed to it and played when it sends the move back, so that the
/// board never holds a move it refused). Which program that is, is not the game's
/// business: `online/` is one.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Authority {
    #[default]
    Local,
    Remote,
}

/// A step a person asked for in a game decided remotely: to be sent there.
#[derive(Message, Clone, Copy, Debug)]
pub struct StepProposed(pub Step);

/// A step decided remotely: played on the board as it is, its views animated as for
/// any move.
#[derive(Message, Clone, Copy, Debug)]
pub struct StepDecided(pub Step);

/// Start a new game: another variant and/or a position, or the current variant again.
#[derive(Message, Clone, Debug, Default)]
pub struct NewGameRequest {
    pub variant: Option<String>,
    pub fen: Option<String>,
    /// Moves (for more sides, whole turns) to play from the start.
    pub moves: Vec<String>,
}

/// Take back this many turns; a turn in progress goes too (with 0, only it).
#[derive(Message, Clone, Copy, Debug)]
pub struct UndoRequest(pub usize);

impl Default for UndoRequest {
    fn default() -> Self {
        UndoRequest(1)
    }
}

/// Play again this many taken-back turns.
#[derive(Message, Clone, Copy, Debug)]
pub struct RedoRequest(pub usize);

/// End the game without a rule deciding it: a resignation, a flag fall, a draw agreed.
#[derive(Message, Clone, Copy, Debug)]
pub struct EndRequest(pub GameOutcome);

/// Show the position after this many turns (`None`: back to the live position).
#[derive(Message, Clone, Copy, Debug)]
pub struct ReviewRequest(pub Option<usize>);

/// Put this line of moves on the board, from the game's start: the position after
/// `moves`, with `then` to come (what redo plays, first move first). Illegal moves end
/// the line where they start. How the analysis board goes to a variation.
#[derive(Message, Clone, Debug, Default)]
pub struct LineRequest {
    pub moves: Vec<Move>,
    pub then: Vec<Move>,
}

/// Replace the game with a recorded one (of any number of sides).
#[derive(Message, Clone, Debug)]
pub struct LoadRequest(pub PgnGame);

/// Put this game on the board whole, in place of the one there: its steps, an end the
/// rules do not see (a resignation, time), and who decides its moves from now. How a
/// game kept elsewhere comes to the board whole, through the same door as a step.
#[derive(Message, Clone)]
pub struct ReplaceRequest {
    pub game: Game,
    pub ended: Option<GameOutcome>,
    pub authority: Authority,
}

/// What changed in the game, for the views to follow.
#[derive(Message, Clone, Debug)]
pub enum BoardChanged {
    /// One step was played (views may animate it): what it did, as the rules say.
    Played(StepReport),
    /// Anything else: a new game, an undo, a review step, a loaded game. Views rebuild.
    Reset {
        /// The variant changed too, so the board itself must be rebuilt.
        variant_changed: bool,
    },
}

/// Why a request was refused, for the interface to show.
#[derive(Message, Clone, Debug)]
pub struct GameNotice(pub String);

pub struct GamePlugin;

impl Plugin for GamePlugin {
    fn build(&self, app: &mut App) {
        app.add_message::<StepRequest>()
            .add_message::<StepProposed>()
            .add_message::<StepDecided>()
            .init_resource::<Authority>()
            .init_resource::<deployment::ScreenState>()
            .add_message::<deployment::ScreenReady>()
            .add_message::<NewGameRequest>()
            .add_message::<UndoRequest>()
            .add_message::<RedoRequest>()
            .add_message::<EndRequest>()
            .add_message::<ReviewRequest>()
            .add_message::<LoadRequest>()
            .add_message::<ReplaceRequest>()
            .add_message::<LineRequest>()
            .init_resource::<BoardPicture>()
            .init_state::<BoardMode>()
            .add_message::<BoardChanged>()
            .add_message::<GameNotice>()
            .add_message::<files::OpenFile>()
            .add_message::<files::OpenText>()
            .add_message::<files::LoadTree>()
            // The window's (registered again here for apps without one: tests).
            .add_message::<bevy::window::FileDragAndDrop>()
            .init_resource::<files::GameChoice>()
            .add_plugins(variants::VariantsPlugin)
            .configure_sets(
                Update,
                (GameSet::Input, GameSet::Apply, GameSet::View).chain(),
            )
            .add_systems(
                Update,
                (
                    files::open_dropped_files,
                    files::open_requests,
                    start_new_games,
                    load_games,
                    replace_games,
                    take_back_turns,
                    replay_turns,
                    set_lines,
                    review_positions,
                    end_games,
                    apply_step_requests,
                )
                    .chain()
                    .in_set(GameSet::Apply),
            );
    }
}

/// Ordering between plugins: input decides, the game applies, views follow.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub enum GameSet {
    Input,
    Apply,
    View,
}

/// Plays the steps the rules allow; refuses the others, and any after the game is
/// over or while an earlier position is under review.
pub fn apply_step_requests(
    mut requests: MessageReader<StepRequest>,
    mut decided: MessageReader<StepDecided>,
    authority: Res<Authority>,
    mut proposed: MessageWriter<StepProposed>,
    mut game: ResMut<CurrentGame>,
    mut changed: MessageWriter<BoardChanged>,
    mut notices: MessageWriter<GameNotice>,
) {
    let local: Vec<Step> = requests.read().map(|r| r.0).collect();
    let steps: Vec<Step> = match *authority {
        Authority::Local => local,
        Authority::Remote => {
            // Checked here first, so that a refusal is said at once; played only when
            // it comes back decided.
            for step in local {
                if game.is_live() && game.ended.is_none() && game.played.steps().contains(&step) {
                    proposed.write(StepProposed(step));
                } else {
                    notices.write(GameNotice("not a move here now".into()));
                }
            }
            Vec::new()
        }
    };
    let from_here = steps.into_iter().map(|s| (s, false));
    let from_afar = decided.read().map(|d| (d.0, true));
    for (step, decided) in from_here.chain(from_afar) {
        if game.ended.is_some() {
            notices.write(GameNotice("the game is over".into()));
            continue;
        }
        // Remote moves come whatever the board shows; a person's only on the live
        // position.
        if !decided && !game.is_live() {
            notices.write(GameNotice("back to the live position to move".into()));
            continue;
        }
        // A step decided remotely for an older board may be no move at all here:
        // passed over before it is even written.
        if decided && !game.played.steps().contains(&step) {
            continue;
        }
        let text = game.played.step_text(step);
        match game.played.play(step) {
            Ok(report) => {
                game.redo.clear();
                changed.write(BoardChanged::Played(report));
            }
            Err(e) => {
                notices.write(GameNotice(format!("{text}: {e}")));
            }
        }
    }
}

fn start_new_games(
    mut requests: MessageReader<NewGameRequest>,
    variants: Res<Variants>,
    mut game: ResMut<CurrentGame>,
    mut changed: MessageWriter<BoardChanged>,
    mut notices: MessageWriter<GameNotice>,
) {
    for request in requests.read() {
        let current = game.rules().id().to_string();
        let id = request.variant.clone().unwrap_or(current.clone());
        let Some(entry) = variants.0.get(&id) else {
            notices.write(GameNotice(format!("unknown variant '{id}'")));
            continue;
        };
        match CurrentGame::from_moves(entry, request.fen.as_deref(), &request.moves) {
            Ok(next) => {
                *game = next;
                changed.write(BoardChanged::Reset {
                    variant_changed: id != current,
                });
            }
            Err(e) => {
                notices.write(GameNotice(e.to_string()));
            }
        }
    }
}

fn load_games(
    mut requests: MessageReader<LoadRequest>,
    variants: Res<Variants>,
    mut game: ResMut<CurrentGame>,
    mut changed: MessageWriter<BoardChanged>,
    mut notices: MessageWriter<GameNotice>,
) {
    for LoadRequest(record) in requests.read() {
        match records::replay(record, &variants.0) {
            Ok(next) => {
                let variant_changed = next.rules().id() != game.rules().id();
                *game = next;
                // A recorded resignation or flag fall ends the loaded game too.
                if game.played.end().is_none()
                    && let Some(result) = record.tag("Result")
                {
                    game.ended = recorded_ending(result, record.tag("Termination"));
                }
                changed.write(BoardChanged::Reset { variant_changed });
            }
            Err(e) => {
                notices.write(GameNotice(format!("cannot load the game: {e}")));
            }
        }
    }
}

/// A decisive or drawn result written in a record but not visible on its board.
fn recorded_ending(result: &str, termination: Option<&str>) -> Option<GameOutcome> {
    use hexchess_core::Termination;
    let why = match termination {
        Some("time") => Termination::Time,
        Some("agreement") => Termination::Agreement,
        Some("adjudication") => Termination::Adjudication,
        Some("abandoned") => Termination::Abandonment,
        _ => Termination::Resignation,
    };
    match result {
        "1-0" => Some(GameOutcome::win(Side::White, why)),
        "0-1" => Some(GameOutcome::win(Side::Black, why)),
        "1/2-1/2" => Some(GameOutcome::draw(if why == Termination::Resignation {
            Termination::Agreement
        } else {
            why
        })),
        _ => None,
    }
}

fn take_back_turns(
    mut requests: MessageReader<UndoRequest>,
    authority: Res<Authority>,
    mut game: ResMut<CurrentGame>,
    mut changed: MessageWriter<BoardChanged>,
    mut notices: MessageWriter<GameNotice>,
) {
    for UndoRequest(turns) in requests.read() {
        if *authority == Authority::Remote {
            notices.write(GameNotice("no take-backs in a game on a server".into()));
            continue;
        }
        let any = game.take_back(*turns);
        if any || game.ended.is_some() {
            game.ended = None;
            game.viewing = None;
            changed.write(BoardChanged::Reset {
                variant_changed: false,
            });
        }
    }
}

fn set_lines(
    mut requests: MessageReader<LineRequest>,
    mut game: ResMut<CurrentGame>,
    mut changed: MessageWriter<BoardChanged>,
) {
    for LineRequest { moves, then } in requests.read() {
        let mut line = game.start_game();
        for &mv in moves {
            if line.play(Step::Play(mv)).is_err() {
                break;
            }
        }
        game.played = line;
        game.redo = then.iter().rev().map(|mv| vec![Step::Play(*mv)]).collect();
        game.ended = None;
        game.viewing = None;
        changed.write(BoardChanged::Reset {
            variant_changed: false,
        });
    }
}

fn replay_turns(
    mut requests: MessageReader<RedoRequest>,
    mut game: ResMut<CurrentGame>,
    mut changed: MessageWriter<BoardChanged>,
) {
    for RedoRequest(turns) in requests.read() {
        let mut any = false;
        for _ in 0..(*turns).max(1) {
            let Some(steps) = game.redo.pop() else { break };
            if !game.replay_turn(&steps) {
                game.redo.clear();
                break;
            }
            any = true;
        }
        if any {
            game.viewing = None;
            changed.write(BoardChanged::Reset {
                variant_changed: false,
            });
        }
    }
}

fn review_positions(
    mut requests: MessageReader<ReviewRequest>,
    mut game: ResMut<CurrentGame>,
    mut changed: MessageWriter<BoardChanged>,
) {
    for ReviewRequest(turn) in requests.read() {
        let live = game.turn_count();
        let next = turn.filter(|t| *t < live);
        if next != game.viewing {
            game.viewing = next;
            changed.write(BoardChanged::Reset {
                variant_changed: false,
            });
        }
    }
}

/// Puts each game asked for on the board, whole; a game of a variant this program does
/// not know is refused with a notice.
fn replace_games(
    mut requests: MessageReader<ReplaceRequest>,
    variants: Res<Variants>,
    mut game: ResMut<CurrentGame>,
    mut authority: ResMut<Authority>,
    mut changed: MessageWriter<BoardChanged>,
    mut notices: MessageWriter<GameNotice>,
) {
    for request in requests.read() {
        let id = request.game.position().rules().id();
        let Some(entry) = variants.0.get(id) else {
            notices.write(GameNotice(format!("no variant '{id}' here")));
            continue;
        };
        let variant_changed = game.rules().id() != id;
        *game = CurrentGame::of(request.game.clone(), entry, None);
        game.ended = request.ended;
        *authority = request.authority;
        changed.write(BoardChanged::Reset { variant_changed });
    }
}

fn end_games(mut requests: MessageReader<EndRequest>, mut game: ResMut<CurrentGame>) {
    for EndRequest(outcome) in requests.read() {
        if game.outcome().is_none() {
            game.ended = Some(*outcome);
        }
    }
}
