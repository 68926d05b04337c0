//! The game state: the single source of truth every view is synced from.
//!
//! Other plugins never change the position directly. They send a [`MoveRequest`],
//! [`NewGameRequest`] or [`UndoRequest`]; this plugin checks it against the rules,
//! applies it, and announces the result with a [`BoardChanged`] message.

use std::sync::Arc;

use bevy::prelude::*;
use hexchess_core::{Catalog, Cell, GameOutcome, Move, Piece, Position, Rules};

/// Every variant the game can play, and the files that failed to load.
#[derive(Resource, Clone)]
pub struct Variants(pub Catalog);

/// The game being played: its position (with the moves that led to it).
#[derive(Resource, Clone)]
pub struct GameState {
    pub position: Position,
    /// The FEN the game started from, when it is not the variant's start.
    pub start_fen: Option<String>,
    /// Moves taken back, newest last, for redo.
    pub redo: Vec<Move>,
}

impl GameState {
    pub fn new(rules: Arc<Rules>) -> GameState {
        GameState {
            position: Position::start(rules),
            start_fen: None,
            redo: Vec::new(),
        }
    }

    pub fn rules(&self) -> &Rules {
        self.position.rules()
    }

    /// The result, if the rules have ended the game.
    pub fn outcome(&self) -> Option<GameOutcome> {
        self.position.outcome()
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

/// Take back the last move.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct UndoRequest;

/// What changed in the game, for the views to follow.
#[derive(Message, Clone, Debug)]
pub enum BoardChanged {
    /// One move was played (views may animate it).
    Moved {
        mv: Move,
        /// The piece that moved, as it was before moving.
        piece: Piece,
        /// A captured piece and where it stood (not the target cell for en passant).
        captured: Option<(Cell, Piece)>,
        /// Whether the move gives check.
        check: bool,
    },
    /// Anything else: a new game, an undo, a loaded position. Views rebuild.
    Reset {
        /// The variant changed too, so the board itself must be rebuilt.
        variant_changed: bool,
    },
}

pub struct GamePlugin;

impl Plugin for GamePlugin {
    fn build(&self, app: &mut App) {
        app.add_message::<MoveRequest>()
            .add_message::<NewGameRequest>()
            .add_message::<UndoRequest>()
            .add_message::<BoardChanged>()
            .add_systems(
                Update,
                (start_new_games, take_back_moves, apply_move_requests)
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

/// Applies legal move requests, ignoring illegal ones and any after the game is over.
pub fn apply_move_requests(
    mut requests: MessageReader<MoveRequest>,
    mut game: ResMut<GameState>,
    mut changed: MessageWriter<BoardChanged>,
) {
    for MoveRequest(mv) in requests.read() {
        if game.outcome().is_some() {
            warn!("move ignored: the game is over");
            continue;
        }
        if !game.position.is_legal(*mv) {
            warn!("move ignored: {mv:?} is not legal here");
            continue;
        }
        let pos = &game.position;
        let piece = pos
            .piece_at(mv.from())
            .expect("a legal move starts on a piece");
        let captured = if mv.is_en_passant() {
            pos.en_passant().map(|e| {
                (
                    e.victim,
                    pos.piece_at(e.victim).expect("the en-passant victim"),
                )
            })
        } else {
            pos.piece_at(mv.to()).map(|p| (mv.to(), p))
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
) {
    for request in requests.read() {
        let current = game.rules().id().to_string();
        let id = request.variant.clone().unwrap_or(current.clone());
        let Some(entry) = variants.0.get(&id) else {
            warn!("unknown variant '{id}'");
            continue;
        };
        let rules = Arc::clone(&entry.rules);
        let mut next = GameState::new(Arc::clone(&rules));
        if let Some(fen) = &request.fen {
            match Position::from_fen(rules, fen) {
                Ok(p) => {
                    next.position = p;
                    next.start_fen = Some(fen.clone());
                }
                Err(e) => {
                    warn!("bad FEN: {e}");
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

fn take_back_moves(
    mut requests: MessageReader<UndoRequest>,
    mut game: ResMut<GameState>,
    mut changed: MessageWriter<BoardChanged>,
) {
    for _ in requests.read() {
        if let Some(mv) = game.position.unmake_move() {
            game.redo.push(mv);
            changed.write(BoardChanged::Reset {
                variant_changed: false,
            });
        }
    }
}
