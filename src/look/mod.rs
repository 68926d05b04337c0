//! How things look, apart from what they are: the player's view settings (3D or 2D,
//! flipped, animation), the theme (every colour, finish and size, from RON files), the
//! one material every mesh is drawn with and its shader, the procedural geometry models
//! are built from, and text pinned to points of the board.
//!
//! Nothing here knows the game's rules or state; the board and pieces build on it.

pub mod mesh;
pub mod pin;
pub mod settings;
pub mod shading;
pub mod theme;
pub mod vision;

use bevy::prelude::*;

pub use pin::ScreenPin;
pub use settings::{Settings, View, ViewChanged};
pub use shading::{ShadingPlugin, Surface};
pub use theme::{ImageColours, Theme};

/// What a system that makes board geometry needs: the meshes and materials to add to,
/// and the theme whose colours they take.
#[derive(bevy::ecs::system::SystemParam)]
pub struct Paint<'w> {
    pub meshes: bevy::prelude::ResMut<'w, bevy::prelude::Assets<bevy::prelude::Mesh>>,
    pub materials: bevy::prelude::ResMut<'w, bevy::prelude::Assets<Surface>>,
    pub theme: bevy::prelude::Res<'w, Theme>,
}

/// Registers the view messages and the theme (classic unless one was inserted first). (The renderer side, [`ShadingPlugin`], is added only
/// where there is a renderer.)
pub struct LookPlugin;

impl Plugin for LookPlugin {
    fn build(&self, app: &mut App) {
        app.add_message::<ViewChanged>().init_resource::<Theme>();
    }
}
