//! The board cell under the mouse, found by casting the cursor's ray from the board
//! camera onto the board plane.

use bevy::prelude::*;

use super::camera::BoardCamera;
use crate::board::world_cell;
use crate::game::GameState;
use crate::input::{PointerCell, PointerOverUi};

/// [`track_pointer`] for a game of more sides: the cell of the table's board.
pub(super) fn track_table_pointer(
    windows: Query<&Window>,
    camera: Query<(&Camera, &GlobalTransform), With<BoardCamera>>,
    table: Option<Res<crate::table::TableState>>,
    over_ui: Res<PointerOverUi>,
    mut pointer: ResMut<PointerCell>,
) {
    let (Ok(window), Ok((camera, transform)), Some(table)) =
        (windows.single(), camera.single(), table)
    else {
        return;
    };
    let hit = window
        .cursor_position()
        .filter(|_| !over_ui.0)
        .and_then(|c| camera.viewport_to_world(transform, c).ok())
        .and_then(|ray| {
            let d = ray.intersect_plane(Vec3::ZERO, InfinitePlane3d::new(Vec3::Y))?;
            Some(ray.get_point(d))
        });
    let next = PointerCell {
        cell: hit.and_then(|p| world_cell(table.game.position().rules(), p)),
        world: hit,
    };
    if pointer.cell != next.cell || pointer.world != next.world {
        *pointer = next;
    }
}

/// Finds the cell under the cursor from the board camera. Without a window or camera
/// (headless tests) it leaves [`PointerCell`] alone.
pub(super) fn track_pointer(
    windows: Query<&Window>,
    camera: Query<(&Camera, &GlobalTransform), With<BoardCamera>>,
    game: Res<GameState>,
    over_ui: Res<PointerOverUi>,
    mut pointer: ResMut<PointerCell>,
) {
    let (Ok(window), Ok((camera, transform))) = (windows.single(), camera.single()) else {
        return;
    };
    let hit = window
        .cursor_position()
        .filter(|_| !over_ui.0)
        .and_then(|c| camera.viewport_to_world(transform, c).ok())
        .and_then(|ray| {
            let d = ray.intersect_plane(Vec3::ZERO, InfinitePlane3d::new(Vec3::Y))?;
            Some(ray.get_point(d))
        });
    let next = PointerCell {
        cell: hit.and_then(|p| world_cell(game.rules(), p)),
        world: hit,
    };
    if pointer.cell != next.cell || pointer.world != next.world {
        *pointer = next;
    }
}
