//! hexchess, the game: one Bevy plugin per folder, imports flowing one way.
//!
//! [`game::GameState`] holds the position and history and is the only
//! source of truth; the board, pieces, highlights and labels are views synced from it
//! after every change, never the other way round.
//!
//! The folders, each depending only on those above it:
//!
//! - [`machine`]: cores, GPU or CPU rasteriser, how systems share the cores.
//! - [`game`]: the game state, the requests that change it, variants, saved games.
//! - [`look`]: view settings, the material and shader, geometry, pinned text.
//! - [`board`]: cells in the world, tiles, coordinate labels, highlights.
//! - [`pieces`]: piece models and images, their entities, animations.
//! - [`play`]: who plays, the engine's level, clocks, app states, the engine opponent.
//! - [`input`]: mouse and keyboard: selecting, dragging, promotion choice, shortcuts.
//! - [`table`]: games of more than two sides: the table's game, seats, engine seats,
//!   its board, pieces, highlights and clicks.
//! - [`editor`]: the board editor: a position set up by hand, checked as it is edited.
//! - [`sound`]: a sound for each move, capture, check and end of game, and the mute.
//! - [`prefs`]: the settings and the unfinished game, kept between runs.
//! - [`ui`]: the egui menus, panels and dialogs.
//! - [`screen`]: the camera and lights, the pointer's cell, pinned text, redrawing.
//! - [`dev`]: screenshots and frame statistics.

pub mod board;
pub mod dev;
pub mod editor;
pub mod game;
pub mod input;
pub mod look;
pub mod machine;
pub mod pieces;
pub mod play;
pub mod prefs;
pub mod screen;
pub mod sound;
pub mod table;
pub mod ui;

use std::sync::Arc;

use bevy::prelude::*;
use hexchess_core::{Catalog, Position};

use crate::game::{GameState, Variants};
use crate::look::Settings;
use crate::play::Session;

/// How the game starts (from the command line).
#[derive(Clone, Debug, Default)]
pub struct LaunchOptions {
    pub variant: Option<String>,
    pub fen: Option<String>,
    /// Moves to play from the start (long algebraic or SAN).
    pub moves: Vec<String>,
    /// A saved game to continue (a record file's text).
    pub record: Option<hexchess_core::record::GameRecord>,
    pub settings: Settings,
    pub session: Session,
}

/// Why the launch options cannot start a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LaunchError {
    UnknownVariant { id: String, known: Vec<String> },
    BadFen(String),
    BadMove(String),
}

impl std::fmt::Display for LaunchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LaunchError::UnknownVariant { id, known } => {
                write!(f, "unknown variant '{id}'; known: {}", known.join(", "))
            }
            LaunchError::BadFen(e) => write!(f, "bad FEN: {e}"),
            LaunchError::BadMove(e) => write!(f, "bad move: {e}"),
        }
    }
}

impl LaunchOptions {
    /// The starting game state, or a clear error.
    pub fn game_state(&self, catalog: &Catalog) -> Result<GameState, LaunchError> {
        if let Some(record) = &self.record {
            let position = crate::game::records::replay_two_player(record, catalog)
                .map_err(LaunchError::BadMove)?;
            let mut state = GameState::new(Arc::clone(position.rules_arc()));
            state.position = position;
            state.start_fen = record.tag("FEN").map(str::to_string);
            return Ok(state);
        }
        let id = self.variant.as_deref().unwrap_or("glinski");
        let entry = catalog.get(id).ok_or_else(|| LaunchError::UnknownVariant {
            id: id.to_string(),
            known: catalog.ids().iter().map(|s| s.to_string()).collect(),
        })?;
        let rules = entry
            .two_player_rules()
            .ok_or_else(|| LaunchError::UnknownVariant {
                id: id.to_string(),
                known: catalog.ids().iter().map(|s| s.to_string()).collect(),
            })?;
        let mut state = GameState::new(Arc::clone(&rules));
        if let Some(fen) = &self.fen {
            state.position =
                Position::from_fen(rules, fen).map_err(|e| LaunchError::BadFen(e.to_string()))?;
            state.start_fen = Some(fen.clone());
        }
        for m in &self.moves {
            let mv = state
                .position
                .parse_move(m)
                .map_err(|e| LaunchError::BadMove(e.to_string()))?;
            state.position.make_move(mv);
        }
        Ok(state)
    }
}

/// The game's logic and views without a window, camera or egui: what headless tests
/// run. Needs `AssetPlugin` and the `Mesh`, [`look::Surface`] and `Image` assets.
pub fn add_game_plugins(
    app: &mut App,
    catalog: Catalog,
    state: GameState,
    settings: Settings,
    session: Session,
) {
    app.insert_resource(Variants(catalog))
        .insert_resource(state)
        .insert_resource(settings)
        .insert_resource(session)
        .add_plugins((
            game::GamePlugin,
            look::LookPlugin,
            board::BoardPlugin,
            pieces::PiecesPlugin,
            play::PlayPlugin,
            input::InputPlugin,
            table::TablePlugin,
            editor::EditorPlugin,
            sound::SoundPlugin,
            prefs::PrefsPlugin,
        ));
}

/// Everything: the game plugins plus camera, interface and screenshots.
pub struct HexchessPlugin {
    pub catalog: Catalog,
    pub state: GameState,
    pub settings: Settings,
    pub session: Session,
    pub theme: look::Theme,
}

impl Plugin for HexchessPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(self.theme.clone());
        add_game_plugins(
            app,
            self.catalog.clone(),
            self.state.clone(),
            self.settings.clone(),
            self.session.clone(),
        );
        app.add_plugins((
            look::ShadingPlugin,
            ui::UiPlugin,
            screen::ScreenPlugin,
            dev::DevPlugin,
        ));
    }
}
