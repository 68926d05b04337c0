//! `cargo run --release`: the hexchess game window.

use std::path::PathBuf;
use std::process::ExitCode;

use bevy::prelude::*;
use bevy::window::WindowResolution;
use bevy_egui::EguiPlugin;
use clap::{Parser, ValueEnum};
use hexchess::input::Selection;
use hexchess::screenshot::ScreenshotPlan;
use hexchess::settings::{Settings, View};
use hexchess::{HexchessPlugin, LaunchOptions};
use hexchess_core::Catalog;

#[derive(Parser)]
#[command(
    name = "hexchess",
    version,
    about = "Hexagonal chess: Gliński, McCooey, Grand Hexachess and your own variants"
)]
struct Cli {
    /// Variant id (see `hexchess-engine variants`).
    #[arg(long)]
    variant: Option<String>,
    #[arg(long, value_enum, default_value_t = ViewArg::ThreeD)]
    view: ViewArg,
    /// Start from this hex FEN.
    #[arg(long)]
    fen: Option<String>,
    /// Moves to play first (long algebraic or SAN).
    #[arg(long, num_args = 1..)]
    moves: Vec<String>,
    /// Select the piece on this cell (shows its legal moves).
    #[arg(long)]
    select: Option<String>,
    /// Black at the bottom.
    #[arg(long)]
    flip: bool,
    /// Render, save the window to this PNG file, and exit.
    #[arg(long)]
    screenshot: Option<PathBuf>,
    /// Frames to render before the screenshot.
    #[arg(long, default_value_t = 30)]
    frames: u32,
}

#[derive(Clone, Copy, ValueEnum)]
enum ViewArg {
    #[value(name = "3d")]
    ThreeD,
    #[value(name = "2d")]
    TwoD,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let catalog = Catalog::load_default();
    for e in catalog.errors() {
        eprintln!("warning: {e}");
    }
    let options = LaunchOptions {
        variant: cli.variant.clone(),
        fen: cli.fen.clone(),
        moves: cli.moves.clone(),
        settings: Settings {
            view: match cli.view {
                ViewArg::ThreeD => View::ThreeD,
                ViewArg::TwoD => View::TwoD,
            },
            flipped: cli.flip,
            ..Settings::default()
        },
    };
    let state = match options.game_state(&catalog) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let selection = match &cli.select {
        Some(name) => match state.rules().board().parse_cell(name) {
            Some(c) => Some(c),
            None => {
                eprintln!("error: --select: no cell '{name}' on this board");
                return ExitCode::from(2);
            }
        },
        None => None,
    };
    let mut app = App::new();
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window {
            title: "hexchess".into(),
            resolution: WindowResolution::new(1280, 800),
            ..default()
        }),
        ..default()
    }))
    .add_plugins(EguiPlugin::default())
    .add_plugins(HexchessPlugin {
        catalog,
        state,
        settings: options.settings,
    });
    app.insert_resource(Selection { from: selection });
    if let Some(path) = cli.screenshot {
        app.insert_resource(ScreenshotPlan {
            path,
            frames: cli.frames,
        });
    }
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(_) => ExitCode::FAILURE,
    }
}
