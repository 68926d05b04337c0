//! The engine thinks while frames keep running. Alone in its own test binary, so that
//! other tests' engine threads do not compete with its frames for the two cores.

use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy::time::TimeUpdateStrategy;
use hexchess::LaunchOptions;
use hexchess::ai::EnginePlayer;
use hexchess::game::GameState;
use hexchess::session::{Mode, Session};
use hexchess::settings::Settings;
use hexchess_core::{Catalog, Side};

fn new_app(variant: &str, fen: Option<&str>, session: Session) -> App {
    let catalog = Catalog::builtin();
    let options = LaunchOptions {
        variant: Some(variant.into()),
        fen: fen.map(str::to_string),
        moves: Vec::new(),
        record: None,
        settings: Settings {
            animate: false,
            ..Settings::default()
        },
        session,
    };
    let state = options.game_state(&catalog).unwrap();
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, AssetPlugin::default(), StatesPlugin))
        .insert_resource(ButtonInput::<MouseButton>::default())
        .insert_resource(ButtonInput::<KeyCode>::default())
        .init_asset::<Mesh>()
        .init_asset::<hexchess::shading::Surface>()
        .init_asset::<Image>()
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
            16,
        )));
    hexchess::add_game_plugins(&mut app, catalog, state, options.settings, options.session);
    app.update();
    app
}

fn game(app: &App) -> &GameState {
    app.world().resource::<GameState>()
}

#[test]
fn the_engine_replies_while_frames_keep_running() {
    // The engine has White and thinks for 1.5 s; no frame may wait for it.
    let mut app = new_app(
        "glinski",
        None,
        Session {
            mode: Mode::HumanVsEngine { human: Side::Black },
            level: 10,
            think_time: Duration::from_millis(1500),
            move_delay: Duration::from_millis(100),
            ..Session::default()
        },
    );
    let start = Instant::now();
    let mut slowest = Duration::ZERO;
    let mut frames = 0;
    while game(&app).position.ply_count() == 0 {
        assert!(start.elapsed() < Duration::from_secs(20), "no engine move");
        let t = Instant::now();
        app.update();
        slowest = slowest.max(t.elapsed());
        frames += 1;
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(
        start.elapsed() >= Duration::from_millis(1400),
        "it thought for its time"
    );
    assert!(frames >= 3, "frames ran while it thought: {frames}");
    // A frame that waited for the search would take the whole 1.5 s; half of that
    // leaves room for a busy machine's scheduling.
    assert!(
        slowest < Duration::from_millis(750),
        "a frame took {slowest:?}"
    );
    let report = app
        .world()
        .resource::<EnginePlayer>()
        .report
        .clone()
        .expect("an evaluation");
    assert_eq!(report.side, Side::White);
    assert!(!report.pv.is_empty());
}
