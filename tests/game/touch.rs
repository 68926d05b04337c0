//! A touch screen plays the board as a mouse does: a tap on a piece and a tap on its
//! target move it, and so does a drag of a finger. The touches go through Bevy's own
//! touch system (as a browser's or a phone's reach it); the headless app has no camera,
//! so the test points at the cells as the screen would have found them under the finger.

use crate::common::{self, point_at};

use std::time::Duration;

use bevy::input::InputSystems;
use bevy::input::touch::{TouchInput, TouchPhase, Touches, touch_screen_input_system};
use bevy::prelude::*;
use hexchess::game::CurrentGame;
use hexchess::input::TouchPoint;
use hexchess::look::Settings;
use hexchess::play::{Seats, Session};

fn app() -> App {
    let session = Session {
        seats: Seats::people(),
        ..Session::default()
    };
    let frame = Some(Duration::from_millis(20));
    let mut app = common::headless_app("glinski", None, Settings::default(), session, frame);
    app.init_resource::<Touches>()
        .add_message::<TouchInput>()
        .add_systems(PreUpdate, touch_screen_input_system.in_set(InputSystems));
    app.update();
    app
}

/// One frame with finger 0 in `phase` at `at`; the button's presses of the frame are
/// cleared after it, as Bevy's mouse system does at the next frame's start.
fn finger(app: &mut App, phase: TouchPhase, at: Vec2) {
    app.world_mut().write_message(TouchInput {
        phase,
        position: at,
        window: Entity::PLACEHOLDER,
        force: None,
        id: 0,
    });
    app.update();
    app.world_mut()
        .resource_mut::<ButtonInput<MouseButton>>()
        .clear();
}

fn tap(app: &mut App, cell: &str, at: Vec2) {
    point_at(app, cell);
    finger(app, TouchPhase::Started, at);
    finger(app, TouchPhase::Ended, at);
}

fn moves(app: &App) -> Vec<String> {
    app.world().resource::<CurrentGame>().move_texts()
}

fn settle(app: &mut App) {
    for _ in 0..100 {
        app.update();
    }
}

#[test]
fn a_tap_on_a_piece_and_a_tap_on_its_target_move_it() {
    let mut app = app();
    tap(&mut app, "f5", Vec2::new(200.0, 300.0));
    assert!(
        !app.world()
            .resource::<ButtonInput<MouseButton>>()
            .pressed(MouseButton::Left),
        "a lifted finger is a released button"
    );
    assert_eq!(
        moves(&app),
        Vec::<String>::new(),
        "one tap only picks the piece"
    );
    tap(&mut app, "f6", Vec2::new(200.0, 250.0));
    settle(&mut app);
    assert_eq!(moves(&app), ["f6"]);
}

#[test]
fn a_finger_dragged_from_a_piece_to_its_target_moves_it() {
    let mut app = app();
    point_at(&mut app, "e4");
    finger(&mut app, TouchPhase::Started, Vec2::new(100.0, 400.0));
    assert_eq!(
        app.world().resource::<TouchPoint>().0,
        Some(Vec2::new(100.0, 400.0)),
        "the finger stands in for the cursor"
    );
    point_at(&mut app, "e5");
    finger(&mut app, TouchPhase::Moved, Vec2::new(100.0, 350.0));
    assert!(
        app.world()
            .resource::<ButtonInput<MouseButton>>()
            .pressed(MouseButton::Left),
        "a finger held down is a button held down"
    );
    point_at(&mut app, "e6");
    finger(&mut app, TouchPhase::Moved, Vec2::new(100.0, 300.0));
    finger(&mut app, TouchPhase::Ended, Vec2::new(100.0, 300.0));
    settle(&mut app);
    assert_eq!(moves(&app), ["e6"]);
    app.update();
    assert_eq!(
        app.world().resource::<TouchPoint>().0,
        None,
        "no finger: the mouse's cursor is read again"
    );
}

/// A tap whose press and lift reach the game between two frames (a slow phone): pressed
/// in one frame, released in the next.
fn quick_tap(app: &mut App, cell: &str, at: Vec2) {
    point_at(app, cell);
    for phase in [TouchPhase::Started, TouchPhase::Ended] {
        app.world_mut().write_message(TouchInput {
            phase,
            position: at,
            window: Entity::PLACEHOLDER,
            force: None,
            id: 0,
        });
    }
    for _ in 0..2 {
        app.update();
        app.world_mut()
            .resource_mut::<ButtonInput<MouseButton>>()
            .clear();
    }
}

#[test]
fn a_tap_within_one_frame_is_a_press_then_a_release() {
    let mut app = app();
    quick_tap(&mut app, "f5", Vec2::new(200.0, 300.0));
    assert!(
        !app.world()
            .resource::<ButtonInput<MouseButton>>()
            .pressed(MouseButton::Left),
        "released in the frame after"
    );
    quick_tap(&mut app, "f6", Vec2::new(200.0, 250.0));
    settle(&mut app);
    assert_eq!(moves(&app), ["f6"]);
}
