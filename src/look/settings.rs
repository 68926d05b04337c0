//! Player settings that change how the game looks, not what it is.

use bevy::prelude::*;

/// How the board is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum View {
    /// Lit, raised cells and modelled pieces under an orbiting camera.
    #[default]
    ThreeD,
    /// Top-down, flat cells and piece images.
    TwoD,
}

impl View {
    pub fn toggled(self) -> View {
        match self {
            View::ThreeD => View::TwoD,
            View::TwoD => View::ThreeD,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            View::ThreeD => "3D",
            View::TwoD => "2D",
        }
    }
}

#[derive(Resource, Clone, Debug)]
pub struct Settings {
    pub view: View,
    /// Black at the bottom.
    pub flipped: bool,
    /// Whether moves are animated at all.
    pub animate: bool,
    /// Animation speed multiplier (1 is normal).
    pub animation_speed: f32,
    pub show_coordinates: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            view: View::ThreeD,
            flipped: false,
            animate: true,
            animation_speed: 1.0,
            show_coordinates: true,
        }
    }
}

/// The view, the flip or the theme changed: cameras, the board, pieces and labels
/// follow.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct ViewChanged;
