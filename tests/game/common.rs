//! The headless app every game test starts from: Bevy's minimal plugins and the game's
//! own plugins, no window, camera or egui.

use std::time::Duration;

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy::time::TimeUpdateStrategy;
use hexchess::LaunchOptions;
use hexchess::look::Settings;
use hexchess::play::Session;
use hexchess_core::Catalog;

/// The game on `variant` (from `fen` when given), not yet updated, so that a test can
/// add what else it needs first. With `frame`, every update advances time by exactly
/// that much. Input resources are inserted by hand (no input plugin), so a test decides
/// exactly what is pressed in each frame, as Bevy's own app tests do.
pub fn headless_app(
    variant: &str,
    fen: Option<&str>,
    settings: Settings,
    session: Session,
    frame: Option<Duration>,
) -> App {
    let catalog = Catalog::builtin();
    let options = LaunchOptions {
        variant: Some(variant.into()),
        fen: fen.map(str::to_string),
        moves: Vec::new(),
        record: None,
        settings,
        session,
    };
    let state = options.game_state(&catalog).unwrap();
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, AssetPlugin::default(), StatesPlugin))
        .insert_resource(ButtonInput::<MouseButton>::default())
        .insert_resource(ButtonInput::<KeyCode>::default())
        .init_asset::<Mesh>()
        .init_asset::<hexchess::look::Surface>()
        .init_asset::<Image>();
    if let Some(frame) = frame {
        app.insert_resource(TimeUpdateStrategy::ManualDuration(frame));
    }
    hexchess::add_game_plugins(
        &mut app,
        hexchess_files::Files::disk(),
        catalog,
        state,
        options.settings,
        options.session,
    );
    app
}

/// Plays `moves` (long algebraic or SAN) one by one as requests, running `frames`
/// updates after each so that the game applies it.
#[allow(dead_code)]
pub fn play(app: &mut App, moves: &[&str], frames: usize) {
    for m in moves {
        let mv = app
            .world()
            .resource::<hexchess::game::CurrentGame>()
            .position()
            .parse_move(m)
            .unwrap_or_else(|e| panic!("{m}: {e}"));
        app.world_mut()
            .write_message(hexchess::game::StepRequest::play(mv));
        for _ in 0..frames {
            app.update();
        }
    }
}

/// Points at the cell named `name` (the pointer's cell, as the input finds it).
#[allow(dead_code)]
pub fn point_at(app: &mut App, name: &str) {
    let state = app.world().resource::<hexchess::game::CurrentGame>();
    let cell = state
        .rules()
        .board()
        .parse_cell(name)
        .unwrap_or_else(|| panic!("no cell {name}"));
    let world = hexchess::board::cell_world(state.rules(), cell);
    *app.world_mut()
        .resource_mut::<hexchess::input::PointerCell>() = hexchess::input::PointerCell {
        cell: Some(cell),
        world: Some(world),
    };
}

/// Runs one frame with the left button pressed or released at its start.
#[allow(dead_code)]
pub fn button(app: &mut App, down: bool) {
    let mut b = app.world_mut().resource_mut::<ButtonInput<MouseButton>>();
    if down {
        b.press(MouseButton::Left);
    } else {
        b.release(MouseButton::Left);
    }
    app.update();
    app.world_mut()
        .resource_mut::<ButtonInput<MouseButton>>()
        .clear();
}
