//! hexchess, the game: one Bevy plugin per folder, imports flowing one way.
//!
//! [`game::CurrentGame`] holds the game on the board, of any number of sides, and is
//! the only source of truth; the board, pieces, highlights and labels are views synced from it
//! after every change, never the other way round.
//!
//! The folders, each depending only on those above it:
//!
//! - [`machine`]: cores, GPU or CPU rasteriser, how systems share the cores.
//! - [`web`]: in a browser, the page's storage, address, file picker and engine worker.
//! - [`game`]: the game state, the requests that change it, variants, saved games.
//! - [`look`]: view settings, the material and shader, geometry, pinned text.
//! - [`board`]: cells in the world, tiles, coordinate labels, highlights.
//! - [`pieces`]: piece models and images, their entities, animations.
//! - [`play`]: who plays (two sides or a table's seats), the engine's level, clocks,
//!   app states, the engine opponents.
//! - [`input`]: mouse and keyboard: selecting, dragging, promotion choice, shortcuts.
//! - [`editor`]: the board editor: a position set up by hand, checked as it is edited.
//! - [`sound`]: a sound for each move, capture, check and end of game, and the mute.
//! - [`online`]: games on a server: the connection, the lobby, the server's moves.
//! - [`confirm`]: resigning, aborting and leaving a game in play asked twice.
//! - [`prefs`]: the settings and the unfinished game, kept between runs.
//! - [`ui`]: the egui menus, panels and dialogs.
//! - [`screen`]: the camera and lights, the pointer's cell, pinned text, redrawing.
//! - [`dev`]: screenshots and frame statistics.

pub mod board;
pub mod confirm;
pub mod dev;
pub mod editor;
pub mod game;
pub mod input;
pub mod look;
pub mod machine;
pub mod online;
pub mod pieces;
pub mod play;
pub mod prefs;
pub mod screen;
pub mod sound;
pub mod ui;
pub mod web;

use bevy::prelude::*;
use hexchess_core::{Catalog, StartError};

use crate::game::{CurrentGame, Variants};

/// The player's files: the disk, or in a browser the page's storage
/// ([`web::player_files`]). Made once at start and given to the app; every part that
/// keeps or opens files (settings, autosave, saved games, variants, tables, sounds,
/// themes, online secrets) reads and writes through it.
#[derive(Resource, Clone, Debug, Deref)]
pub struct PlayerFiles(pub hexchess_files::Files);
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
    pub record: Option<hexchess_core::pgn::PgnGame>,
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
    /// The starting game (any number of sides), or a clear error.
    pub fn game_state(&self, catalog: &Catalog) -> Result<CurrentGame, LaunchError> {
        if let Some(record) = &self.record {
            return crate::game::records::replay(record, catalog).map_err(LaunchError::BadMove);
        }
        let id = self.variant.as_deref().unwrap_or("glinski");
        let entry = catalog.get(id).ok_or_else(|| LaunchError::UnknownVariant {
            id: id.to_string(),
            known: catalog.ids().iter().map(|s| s.to_string()).collect(),
        })?;
        CurrentGame::from_moves(entry, self.fen.as_deref(), &self.moves).map_err(|e| match e {
            StartError::Fen(e) => LaunchError::BadFen(e.to_string()),
            turn => LaunchError::BadMove(turn.to_string()),
        })
    }
}

/// The game's logic and views without a window, camera or egui: what headless tests
/// run. Needs `AssetPlugin` and the `Mesh`, [`look::Surface`] and `Image` assets.
pub fn add_game_plugins(
    app: &mut App,
    files: hexchess_files::Files,
    catalog: Catalog,
    state: CurrentGame,
    settings: Settings,
    session: Session,
) {
    app.insert_resource(PlayerFiles(files))
        .insert_resource(Variants(catalog))
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
            editor::EditorPlugin,
            sound::SoundPlugin,
            prefs::PrefsPlugin,
            online::OnlinePlugin,
            confirm::ConfirmPlugin,
        ));
}

/// Everything: the game plugins plus camera, interface and screenshots.
pub struct HexchessPlugin {
    pub files: hexchess_files::Files,
    pub catalog: Catalog,
    pub state: CurrentGame,
    pub settings: Settings,
    pub session: Session,
    pub theme: look::Theme,
}

impl Plugin for HexchessPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(self.theme.clone());
        add_game_plugins(
            app,
            self.files.clone(),
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
