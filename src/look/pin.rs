//! Interface text that stays on a point of the board as the camera moves: coordinate
//! labels at the board's edge, letters on pieces that have no model of their own.
//!
//! The board and the pieces spawn text nodes with a [`ScreenPin`]; the screen, which
//! owns the camera, places them every frame (`crate::screen::pins`).

use bevy::prelude::*;

/// Where a text node is pinned.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub enum ScreenPin {
    /// A fixed world point (a coordinate label).
    Point(Vec3),
    /// `lift` world units above an entity (a piece's letter); the text is despawned
    /// with its entity.
    Above { entity: Entity, lift: f32 },
}

/// A text node pinned to `pin`, hidden until first placed.
pub fn pinned_text(pin: ScreenPin, text: String, size: f32, colour: Color) -> impl Bundle {
    (
        pin,
        Text::new(text),
        TextFont {
            font_size: FontSize::Px(size),
            ..default()
        },
        TextColor(colour),
        Node {
            position_type: PositionType::Absolute,
            ..default()
        },
        Visibility::Hidden,
    )
}
