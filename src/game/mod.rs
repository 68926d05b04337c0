//! The game: the single source of truth every view is synced from, the variants it
//! can be played in (reloaded as their files change, [`variants`]), and games saved
//! and loaded as text records ([`records`]).
//!
//! Other plugins never change the game directly. They send requests ([`MoveRequest`],
//! [`NewGameRequest`], [`UndoRequest`], [`RedoRequest`], [`EndRequest`],
//! [`ReviewRequest`], [`LoadRequest`]); this plugin checks each against the rules,
//! applies it, and announces the result with a [`BoardChanged`] message.

pub mod deployment;
pub mod files;
pub mod records;
pub mod variants;

use std::sync::Arc;

use bevy::prelude::*;
use hexchess_core::record::GameRecord;
use hexchess_core::{Catalog, Cell, GameOutcome, Move, Piece, Position, Rules};

/// Pieces the board shows instead of the game's: the board editor's position, which
/// may be one no game can be in (a king missing). While there is one, the game's
/// highlights are hidden and the board's clicks are the editor's.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct BoardPicture(pub Option<Vec<(Cell, Piece)>>);

/// A run condition: the board shows the game (no editor picture).
pub fn showing_the_game(picture: Option<Res<BoardPicture>>) -> bool {
    picture.is_none_or(|p| p.0.is_none())
}

/// Every variant the game can play, and the files that failed to load.
#[derive(Resource, Clone)]
pub struct Variants(pub Catalog);

/// The game being played.
#[derive(Resource, Clone)]
pub struct GameState {
    /// The live position, with the moves that led to it.
    pub position: Position,
    /// The FEN the game started from, when it is not the variant's start.
    pub start_fen: Option<String>,
    /// Moves taken back, newest last, for redo.
    pub redo: Vec<Move>,
    /// An ending the rules do not see on the board: resignation, time, agreement.
    pub ended: Option<GameOutcome>,
    /// While reviewing: how many plies of the game the board shows.
    pub viewing: Option<usize>,
}

impl GameState {
    pub fn new(rules: Arc<Rules>) -> GameState {
        GameState {
            position: Position::start(rules),
            start_fen: None,
            redo: Vec::new(),
            ended: None,
            viewing: None,
        }
    }

    pub fn rules(&self) -> &Rules {
        self.position.rules()
    }

    /// The position the game started from (its moves taken back).
    pub fn start_position(&self) -> Position {
        let mut p = self.position.clone();
        while p.unmake_move().is_some() {}
        p
    }

    /// The result, if the game is over (by the rules, or by resignation, time or
    /// agreement).
    pub fn outcome(&self) -> Option<GameOutcome> {
        self.ended.or_else(|| self.position.outcome())
    }

    /// The position the board shows: the live one, or an earlier one under review.
    pub fn displayed(&self) -> Position {
        let mut p = self.position.clone();
        if let Some(ply) = self.viewing {
            while p.ply_count() > ply {
                p.unmake_move();
            }
        }
        p
    }

    /// Whether the board shows the live position (moves can be played).
    pub fn is_live(&self) -> bool {
        self.viewing.is_none()
    }

    /// The moves played so far in SAN, oldest first.
    pub fn san_moves(&self) -> Vec<String> {
        GameRecord::from_position(&self.position, None, &[]).moves
    }

    /// Every piece captured so far, in order.
    pub fn captured(&self) -> Vec<Piece> {
        let mut p = self.position.clone();
        let mut out = Vec::new();
        while let Some(mv) = p.last_move() {
            p.unmake_move();
            let victim = if mv.is_en_passant() {
                p.en_passant().and_then(|e| p.piece_at(e.victim))
            } else {
                p.piece_at(mv.to())
            };
            out.extend(victim);
        }
        out.reverse();
        out
    }
}

/// Play this move if it is legal.
#[derive(Message, Clone, Copy, Debug)]
pub struct MoveRequest(pub Move);

/// Start a new game: another variant and/or a position, or the current variant again.
#[derive(Message, Clone, Debug, Default)]
pub struct NewGameRequest {
    pub variant: Option<String>,
    pub fen: Option<String>,
}

/// Take back this many plies (at least one).
#[derive(Message, Clone, Copy, Debug)]
pub struct UndoRequest(pub usize);

impl Default for UndoRequest {
    fn default() -> Self {
        UndoRequest(1)
    }
}

/// Play again this many taken-back plies.
#[derive(Message, Clone, Copy, Debug)]
pub struct RedoRequest(pub usize);

/// End the game without a rule deciding it: a resignation, a flag fall, a draw agreed.
#[derive(Message, Clone, Copy, Debug)]
pub struct EndRequest(pub GameOutcome);

/// Show the position after this many plies (`None`: back to the live position).
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

/// Replace the game with a recorded one.
#[derive(Message, Clone, Debug)]
pub struct LoadRequest(pub GameRecord);

/// What changed in the game, for the views to follow.
#[derive(Message, Clone, Debug)]
pub enum BoardChanged {
    /// One move was played (views may animate it).
    Moved {
        mv: Move,
        /// The piece that moved, as it was before moving.
        piece: Piece,
        /// A captured piece and where it stood (not the target cell for en passant).
        captured: Option<Captured>,
        /// Whether the move gives check.
        check: bool,
    },
    /// Anything else: a new game, an undo, a review step, a loaded game. Views rebuild.
    Reset {
        /// The variant changed too, so the board itself must be rebuilt.
        variant_changed: bool,
    },
}

/// A piece taken by a move, and the cell it stood on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Captured {
    pub cell: Cell,
    pub piece: Piece,
}

/// Why a request was refused, for the interface to show.
#[derive(Message, Clone, Debug)]
pub struct GameNotice(pub String);

pub struct GamePlugin;

impl Plugin for GamePlugin {
    fn build(&self, app: &mut App) {
        app.add_message::<MoveRequest>()
            .init_resource::<deployment::ScreenState>()
            .add_message::<deployment::ScreenReady>()
            .add_message::<NewGameRequest>()
            .add_message::<UndoRequest>()
            .add_message::<RedoRequest>()
            .add_message::<EndRequest>()
            .add_message::<ReviewRequest>()
            .add_message::<LoadRequest>()
            .add_message::<LineRequest>()
            .init_resource::<BoardPicture>()
            .add_message::<BoardChanged>()
            .add_message::<GameNotice>()
            .add_message::<files::OpenFile>()
            .add_message::<files::OpenText>()
            .add_message::<files::LoadTree>()
            // The window's (registered again here for apps without one: tests).
            .add_message::<bevy::window::FileDragAndDrop>()
            .init_resource::<files::GameChoice>()
            .add_plugins(variants::VariantsPlugin)
            .init_state::<Seating>()
            .configure_sets(
                Update,
                (GameSet::Input, GameSet::Apply, GameSet::View).chain(),
            )
            // A game of more sides (the `table` plugin) has its own requests.
            .configure_sets(
                Update,
                (GameSet::Input, GameSet::Apply).run_if(in_state(Seating::Duel)),
            )
            .add_systems(
                Update,
                (
                    files::open_dropped_files,
                    files::open_requests,
                    start_new_games,
                    load_games,
                    take_back_moves,
                    replay_moves,
                    set_lines,
                    review_positions,
                    end_games,
                    apply_move_requests,
                )
                    .chain()
                    .in_set(GameSet::Apply),
            );
    }
}

/// Which game is on the board: a two-player game ([`GameState`], the default) or a
/// game of more sides (the `table` plugin's). The two-player requests, views and
/// panels run only in `Duel`.
#[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Seating {
    #[default]
    Duel,
    Table,
}

/// A run condition: a two-player game is on the board.
pub fn duel(seating: Option<Res<State<Seating>>>) -> bool {
    seating.is_none_or(|s| *s.get() == Seating::Duel)
}

/// Ordering between plugins: input decides, the game applies, views follow.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub enum GameSet {
    Input,
    Apply,
    View,
}

/// Applies legal move requests; refuses illegal ones, and any after the game is over
/// or while an earlier position is under review.
pub fn apply_move_requests(
    mut requests: MessageReader<MoveRequest>,
    mut game: ResMut<GameState>,
    mut changed: MessageWriter<BoardChanged>,
    mut notices: MessageWriter<GameNotice>,
) {
    for MoveRequest(mv) in requests.read() {
        if game.outcome().is_some() {
            notices.write(GameNotice("the game is over".into()));
            continue;
        }
        if !game.is_live() {
            notices.write(GameNotice("back to the live position to move".into()));
            continue;
        }
        if !game.position.is_legal(*mv) {
            notices.write(GameNotice(format!("{mv:?} is not legal here")));
            continue;
        }
        let pos = &game.position;
        // A placement's piece comes from the hand; any other move's from its cell.
        let Some(piece) = mv
            .placed_kind()
            .map(|k| Piece::new(pos.turn(), k))
            .or_else(|| pos.piece_at(mv.from()))
        else {
            continue;
        };
        let captured = if mv.is_placement() || mv.castling().is_some() {
            None
        } else if mv.is_en_passant() {
            pos.en_passant().map(|e| Captured {
                cell: e.victim,
                piece: pos.piece_at(e.victim).expect("the en-passant victim"),
            })
        } else {
            pos.piece_at(mv.to()).map(|piece| Captured {
                cell: mv.to(),
                piece,
            })
        };
        game.position.make_move(*mv);
        game.redo.clear();
        let check = game.position.in_check();
        changed.write(BoardChanged::Moved {
            mv: *mv,
            piece,
            captured,
            check,
        });
    }
}

fn start_new_games(
    mut requests: MessageReader<NewGameRequest>,
    variants: Res<Variants>,
    mut game: ResMut<GameState>,
    mut changed: MessageWriter<BoardChanged>,
    mut notices: MessageWriter<GameNotice>,
) {
    for request in requests.read() {
        let current = game.rules().id().to_string();
        let id = request.variant.clone().unwrap_or(current.clone());
        let Some(rules) = variants.0.get(&id).and_then(|e| e.two_player_rules()) else {
            notices.write(GameNotice(format!("unknown variant '{id}'")));
            continue;
        };
        let mut next = GameState::new(Arc::clone(&rules));
        if let Some(fen) = &request.fen {
            match Position::from_fen(rules, fen) {
                Ok(p) => {
                    next.position = p;
                    next.start_fen = Some(fen.clone());
                }
                Err(e) => {
                    notices.write(GameNotice(format!("bad FEN: {e}")));
                    continue;
                }
            }
        }
        *game = next;
        changed.write(BoardChanged::Reset {
            variant_changed: id != current,
        });
    }
}

fn load_games(
    mut requests: MessageReader<LoadRequest>,
    variants: Res<Variants>,
    mut game: ResMut<GameState>,
    mut changed: MessageWriter<BoardChanged>,
    mut notices: MessageWriter<GameNotice>,
) {
    for LoadRequest(record) in requests.read() {
        match records::replay_two_player(record, &variants.0) {
            Ok(position) => {
                let variant_changed = position.rules().id() != game.rules().id();
                *game = GameState {
                    position,
                    start_fen: record.tag("FEN").map(str::to_string),
                    redo: Vec::new(),
                    ended: None,
                    viewing: None,
                };
                // A recorded resignation or flag fall ends the loaded game too.
                if game.position.outcome().is_none()
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
    use hexchess_core::{Side, Termination};
    let why = match termination {
        Some("time") => Termination::Time,
        Some("agreement") => Termination::Agreement,
        Some("adjudication") => Termination::Adjudication,
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

fn take_back_moves(
    mut requests: MessageReader<UndoRequest>,
    mut game: ResMut<GameState>,
    mut changed: MessageWriter<BoardChanged>,
) {
    for UndoRequest(plies) in requests.read() {
        let mut any = false;
        for _ in 0..(*plies).max(1) {
            match game.position.unmake_move() {
                Some(mv) => {
                    game.redo.push(mv);
                    any = true;
                }
                None => break,
            }
        }
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
    mut game: ResMut<GameState>,
    mut changed: MessageWriter<BoardChanged>,
) {
    for LineRequest { moves, then } in requests.read() {
        let mut position = game.start_position();
        for &mv in moves {
            if !position.is_legal(mv) {
                break;
            }
            position.make_move(mv);
        }
        game.position = position;
        game.redo = then.iter().rev().copied().collect();
        game.ended = None;
        game.viewing = None;
        changed.write(BoardChanged::Reset {
            variant_changed: false,
        });
    }
}

fn replay_moves(
    mut requests: MessageReader<RedoRequest>,
    mut game: ResMut<GameState>,
    mut changed: MessageWriter<BoardChanged>,
) {
    for RedoRequest(plies) in requests.read() {
        let mut any = false;
        for _ in 0..(*plies).max(1) {
            let Some(mv) = game.redo.pop() else { break };
            if !game.position.is_legal(mv) {
                game.redo.clear();
                break;
            }
            game.position.make_move(mv);
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
    mut game: ResMut<GameState>,
    mut changed: MessageWriter<BoardChanged>,
) {
    for ReviewRequest(ply) in requests.read() {
        let live = game.position.ply_count();
        let next = ply.filter(|p| *p < live);
        if next != game.viewing {
            game.viewing = next;
            changed.write(BoardChanged::Reset {
                variant_changed: false,
            });
        }
    }
}

fn end_games(mut requests: MessageReader<EndRequest>, mut game: ResMut<GameState>) {
    for EndRequest(outcome) in requests.read() {
        if game.outcome().is_none() {
            game.ended = Some(*outcome);
        }
    }
}
