//! A finger plays as the mouse does: a tap is a click (a piece, then its target), a
//! drag is a drag. Bevy reports touches apart from the mouse and a touch screen has no
//! cursor, so the first finger's press and release become the left button's, and its
//! place stands in for the cursor's ([`TouchPoint`], read where the pointer's cell is
//! found).

use bevy::input::touch::Touches;
use bevy::prelude::*;

/// Where the finger on the screen is (window coordinates, as a cursor's): set while a
/// finger is down and in the frame it lifts; `None` otherwise, so that a mouse's
/// cursor is read again.
#[derive(Resource, Default, Clone, Copy, Debug, PartialEq)]
pub struct TouchPoint(pub Option<Vec2>);

/// A tap begun and ended between two frames (a slow phone): pressed in one frame, its
/// lift is kept for the next, so that the game sees a press and then a release.
#[derive(Default)]
pub(super) struct LiftNext(Option<Vec2>);

/// The first finger's press, move and release as the left button and the cursor.
/// Runs after Bevy's input systems, which clear the button's presses of the last frame.
pub(super) fn touch_as_mouse(
    touches: Option<Res<Touches>>,
    mut buttons: ResMut<ButtonInput<MouseButton>>,
    mut point: ResMut<TouchPoint>,
    mut lift_next: Local<LiftNext>,
) {
    let Some(touches) = touches else {
        return;
    };
    let lifted = touches
        .iter_just_released()
        .chain(touches.iter_just_canceled())
        .next()
        .map(|t| t.position())
        .or(lift_next.0.take());
    let next = if let Some(down) = touches.iter_just_pressed().next() {
        buttons.press(MouseButton::Left);
        // Lifted in the same frame (a fast tap): released in the next.
        if touches.get_pressed(down.id()).is_none() {
            lift_next.0 = lifted.or(Some(down.position()));
        }
        Some(down.position())
    } else if let Some(up) = lifted {
        buttons.release(MouseButton::Left);
        Some(up)
    } else {
        touches.iter().next().map(|t| t.position())
    };
    if point.0 != next {
        point.0 = next;
    }
}
