//! What reaches the window: the board camera and lights fitted into the part of the
//! window the panels leave ([`camera`]), the cell under the mouse ([`pointer`](mod@pointer)), text
//! pinned to the board ([`pins`]), when the window is redrawn ([`redraw`]) and its
//! icon ([`icon`]).

pub mod arrows;
pub mod camera;
pub mod icon;
pub mod pins;
pub mod pointer;
pub mod redraw;
mod title;

use bevy::prelude::*;

use crate::input::PointerTracking;

/// The camera, the pointer, the pins and the redraw policy.
pub struct ScreenPlugin;

impl Plugin for ScreenPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins((camera::CameraPlugin, redraw::RedrawPlugin))
            .add_systems(Update, pointer::track_pointer.in_set(PointerTracking))
            .add_systems(Last, icon::set_window_icon)
            .add_systems(Update, title::name_the_window)
            .init_gizmo_group::<arrows::ArrowGizmos>()
            .add_systems(Startup, arrows::configure_arrows)
            .add_systems(Update, arrows::draw_arrows)
            .add_systems(
                PostUpdate,
                pins::place_pins.after(TransformSystems::Propagate),
            );
    }
}
