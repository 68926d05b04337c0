//! The window loop rests while the game waits for a player and draws continuously while
//! something moves; egui's input no longer keeps it awake by itself.

use crate::common;

use std::time::Duration;

use bevy::prelude::*;
use bevy::winit::{UpdateMode, WinitSettings};
use bevy_egui::{EguiInput, egui};
use hexchess::game::{CurrentGame, StepRequest};
use hexchess::look::Settings;
use hexchess::play::{Seats, Session};
use hexchess::screen::camera::Orbit;
use hexchess::screen::redraw::{IDLE_WAIT, Redraw, RedrawPlugin};

fn app() -> App {
    let session = Session {
        seats: Seats::people(),
        ..Session::default()
    };
    let frame = Some(Duration::from_millis(20));
    let mut app = common::headless_app("glinski", None, Settings::default(), session, frame);
    app.insert_resource(Orbit {
        target: Vec3::ZERO,
        yaw: 0.0,
        pitch: 1.0,
        distance: 20.0,
        fit: 8.0,
        zoom: 1.0,
        turn: 0.0,
    })
    .insert_resource(Redraw::OnChange.winit_settings())
    .add_plugins(RedrawPlugin);
    app.update();
    app
}

fn loop_mode(app: &App) -> UpdateMode {
    app.world().resource::<WinitSettings>().focused_mode
}

fn resting() -> UpdateMode {
    UpdateMode::reactive(IDLE_WAIT)
}

#[test]
fn the_loop_rests_when_idle_and_runs_while_a_move_animates() {
    let mut app = app();
    // Nothing changes: the loop waits for input.
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(loop_mode(&app), resting());

    // A move: the pieces slide, drawn back to back.
    let mv = app
        .world()
        .resource::<CurrentGame>()
        .position()
        .parse_move("e6")
        .unwrap();
    app.world_mut().write_message(StepRequest::play(mv));
    app.update();
    app.update();
    assert!(hexchess::pieces::animation::animating(app.world_mut()));
    assert_eq!(loop_mode(&app), UpdateMode::Continuous);

    // When the animation has ended the loop rests again.
    for _ in 0..200 {
        app.update();
        if !hexchess::pieces::animation::animating(app.world_mut()) {
            break;
        }
    }
    assert!(!hexchess::pieces::animation::animating(app.world_mut()));
    app.update();
    app.update();
    assert_eq!(loop_mode(&app), resting());
}

#[test]
fn unchanged_modifier_keys_do_not_keep_egui_awake() {
    let mut app = app();
    let ctrl = egui::Modifiers {
        ctrl: true,
        command: true,
        ..egui::Modifiers::NONE
    };
    let context = app.world_mut().spawn(EguiInput::default()).id();
    let feed = |app: &mut App, m: egui::Modifiers| -> Vec<egui::Event> {
        let mut input = app.world_mut().get_mut::<EguiInput>(context).unwrap();
        input.0.events = vec![egui::Event::ModifiersChanged(m)];
        app.update();
        app.world()
            .get::<EguiInput>(context)
            .unwrap()
            .0
            .events
            .clone()
    };
    // The same state as before is dropped; a change is passed on, once.
    assert!(feed(&mut app, egui::Modifiers::NONE).is_empty());
    assert_eq!(
        feed(&mut app, ctrl),
        vec![egui::Event::ModifiersChanged(ctrl)]
    );
    assert!(feed(&mut app, ctrl).is_empty());
    assert_eq!(
        feed(&mut app, egui::Modifiers::NONE),
        vec![egui::Event::ModifiersChanged(egui::Modifiers::NONE)]
    );
}
