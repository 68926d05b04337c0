//! The board cell under the mouse (or the finger on a touch screen), found by casting
//! the cursor's ray from the board camera onto the board plane.

use bevy::prelude::*;
use hexchess_core::Rules;
use hexchess_core::bitboard::CellSet;

use super::camera::BoardCamera;
use crate::board::world_cell;
use crate::game::CurrentGame;
use crate::input::{PointerCell, PointerOverUi, TouchPoint};

/// The cameras' query both trackers read.
type BoardCameras<'w, 's> =
    Query<'w, 's, (&'static Camera, &'static GlobalTransform), With<BoardCamera>>;

/// Finds the cell under the cursor from the board camera. Without a window or camera
/// (headless tests) it leaves [`PointerCell`] alone.
pub(super) fn track_pointer(
    windows: Query<&Window>,
    camera: BoardCameras,
    game: Res<CurrentGame>,
    (over_ui, touch): (Res<PointerOverUi>, Res<TouchPoint>),
    mut pointer: ResMut<PointerCell>,
) {
    point_at(
        &windows,
        &camera,
        game.rules(),
        (&over_ui, *touch),
        &mut pointer,
    );
}

/// The cursor's ray onto the board plane, and the cell of `rules`'s board there.
fn point_at<B: CellSet>(
    windows: &Query<&Window>,
    camera: &BoardCameras,
    rules: &Rules<B>,
    (over_ui, touch): (&PointerOverUi, TouchPoint),
    pointer: &mut ResMut<PointerCell>,
) {
    let (Ok(window), Ok((camera, transform))) = (windows.single(), camera.single()) else {
        return;
    };
    let hit = touch
        .0
        .or_else(|| window.cursor_position())
        .filter(|_| !over_ui.0)
        .and_then(|c| camera.viewport_to_world(transform, c).ok())
        .and_then(|ray| {
            let d = ray.intersect_plane(Vec3::ZERO, InfinitePlane3d::new(Vec3::Y))?;
            Some(ray.get_point(d))
        });
    let next = PointerCell {
        cell: hit.and_then(|p| world_cell(rules, p)),
        world: hit,
    };
    // Read through the resource, written only on a change: a redraw follows changes.
    if pointer.cell != next.cell || pointer.world != next.world {
        **pointer = next;
    }
}
