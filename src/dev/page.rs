//! In a browser: tells the page (and a test driving it) where the game stands. Once
//! the board has been drawn a few frames, `hexchess: board ready` on the console and a
//! `hexchess-ready` event on the window (the page hides its loading note); and each
//! cell's place on the canvas, which `hexchess_cell_xy("e4")` gives to a script that
//! clicks moves as a player would.

use std::cell::RefCell;
use std::collections::HashMap;

use bevy::diagnostic::FrameCount;
use bevy::prelude::*;
use wasm_bindgen::prelude::*;

use crate::board::CellTile;
use crate::game::CurrentGame;
use crate::screen::camera::BoardCamera;

/// Frames drawn with the board before the page is told it is ready.
const READY_AFTER_FRAMES: u32 = 5;

thread_local! {
    static CELL_POINTS: RefCell<HashMap<String, (f32, f32)>> = RefCell::new(HashMap::new());
    static FRAMES: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Frames the game has drawn: a script sees the page stay responsive (frames go on)
/// while the engine works in its workers.
#[wasm_bindgen]
pub fn hexchess_frames() -> u32 {
    FRAMES.with(|f| f.get())
}

/// Where cell `name` is on the page's canvas, in CSS pixels from its top left; empty
/// when there is no such cell on the board or it is out of view.
#[wasm_bindgen]
pub fn hexchess_cell_xy(name: &str) -> Vec<f32> {
    CELL_POINTS.with(|p| {
        p.borrow()
            .get(name)
            .map(|&(x, y)| vec![x, y])
            .unwrap_or_default()
    })
}

pub struct PagePlugin;

impl Plugin for PagePlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(PostUpdate, (publish_cell_points, announce_ready).chain());
    }
}

/// Each cell's place on the canvas, as the camera sees it now.
fn publish_cell_points(
    camera: Query<(&Camera, &GlobalTransform), With<BoardCamera>>,
    tiles: Query<(&CellTile, &GlobalTransform)>,
    game: Res<CurrentGame>,
) {
    let Ok((camera, at)) = camera.single() else {
        return;
    };
    let board = game.rules().board();
    let points: HashMap<String, (f32, f32)> = tiles
        .iter()
        .filter_map(|(tile, place)| {
            let p = camera.world_to_viewport(at, place.translation()).ok()?;
            Some((board.name(tile.0).to_string(), (p.x, p.y)))
        })
        .collect();
    CELL_POINTS.with(|c| *c.borrow_mut() = points);
}

/// Says once that the board is on the page.
fn announce_ready(
    frames: Res<FrameCount>,
    tiles: Query<(), With<CellTile>>,
    mut done: Local<bool>,
) {
    FRAMES.with(|f| f.set(frames.0));
    if *done || frames.0 < READY_AFTER_FRAMES || tiles.is_empty() {
        return;
    }
    *done = true;
    crate::web::milestone("board ready");
    if let Some(window) = web_sys::window()
        && let Ok(event) = web_sys::Event::new("hexchess-ready")
    {
        let _ = window.dispatch_event(&event);
    }
}
