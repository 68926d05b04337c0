//! The window icon: a knight on a hexagonal cell, drawn by the game's own piece-image
//! code and kept as `assets/icon.png` (compiled in, so it shows from any working
//! directory). `cargo run --example write_icon` draws the file again; a test checks
//! the file is what the code draws.

use bevy::asset::RenderAssetUsages;
use bevy::ecs::system::NonSendMarker;
use bevy::image::{CompressedImageFormats, ImageSampler, ImageType};
use bevy::prelude::*;
use bevy::winit::WINIT_WINDOWS;

use crate::pieces::models::PieceShape;
use crate::pieces::sprites::{SPRITE_SIZE, piece_pixels};

/// The icon as shipped.
pub const ICON_PNG: &[u8] = include_bytes!("../../assets/icon.png");

/// The icon's width and height in pixels.
pub const ICON_SIZE: usize = SPRITE_SIZE;

/// The icon's RGBA pixels as the code draws them: a flat-topped hexagon in the classic
/// board's centre colour with a dark rim, and White's knight image over it.
pub fn draw_icon() -> Vec<u8> {
    let knight = piece_pixels(PieceShape::Knight, [244, 236, 218], [38, 32, 28]);
    let n = ICON_SIZE as f32;
    let centre = Vec2::splat(n / 2.0);
    let mut out = Vec::with_capacity(ICON_SIZE * ICON_SIZE * 4);
    for y in 0..ICON_SIZE {
        for x in 0..ICON_SIZE {
            let p = Vec2::new(x as f32 + 0.5, y as f32 + 0.5) - centre;
            let cell = hexagon_coverage(p, n * 0.49);
            let inner = hexagon_coverage(p, n * 0.44);
            // The cell: rim colour outside the inner hexagon, cell colour inside.
            let rim = [43.0, 28.0, 18.0];
            let face = [204.0, 161.0, 112.0];
            let base: Vec<f32> = (0..3)
                .map(|c| face[c] * inner + rim[c] * (1.0 - inner))
                .collect();
            let i = (y * ICON_SIZE + x) * 4;
            let a = f32::from(knight[i + 3]) / 255.0;
            for c in 0..3 {
                let v = f32::from(knight[i + c]) * a + base[c] * (1.0 - a);
                out.push(v.round() as u8);
            }
            let alpha = a + cell * (1.0 - a);
            out.push((alpha * 255.0).round() as u8);
        }
    }
    out
}

/// How much of the pixel at `p` (from the centre) a flat-topped hexagon of
/// circumradius `r` covers, with a one-pixel soft edge.
fn hexagon_coverage(p: Vec2, r: f32) -> f32 {
    let apothem = r * 3f32.sqrt() / 2.0;
    let mut distance = f32::MIN;
    for k in 0..6 {
        // A flat top: the edges' normals point at 30 + 60k degrees, 90 among them.
        let angle = (k as f32 * 60.0 + 30.0).to_radians();
        let normal = Vec2::new(angle.cos(), angle.sin());
        distance = distance.max(p.dot(normal) - apothem);
    }
    (0.5 - distance).clamp(0.0, 1.0)
}

/// The shipped icon's RGBA pixels, or why they cannot be read.
pub fn icon_pixels() -> Result<Vec<u8>, String> {
    let image = Image::from_buffer(
        ICON_PNG,
        ImageType::Extension("png"),
        CompressedImageFormats::NONE,
        true,
        ImageSampler::Default,
        RenderAssetUsages::default(),
    )
    .map_err(|e| e.to_string())?;
    let size = image.size();
    if size != UVec2::splat(ICON_SIZE as u32) {
        return Err(format!("the icon is {size}, not {ICON_SIZE}x{ICON_SIZE}"));
    }
    image
        .data
        .ok_or_else(|| "the icon has no pixels".to_string())
}

/// Gives every window the icon, once they exist. Must run on the main thread, where
/// winit keeps its windows.
pub(super) fn set_window_icon(_: NonSendMarker, mut done: Local<bool>) {
    if *done {
        return;
    }
    let pixels = match icon_pixels() {
        Ok(p) => p,
        Err(e) => {
            warn!("window icon: {e}");
            *done = true;
            return;
        }
    };
    WINIT_WINDOWS.with_borrow(|windows| {
        for window in windows.windows.values() {
            match winit::window::Icon::from_rgba(pixels.clone(), ICON_SIZE as u32, ICON_SIZE as u32)
            {
                Ok(icon) => window.set_window_icon(Some(icon)),
                Err(e) => warn!("window icon: {e}"),
            }
            *done = true;
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_icon_is_what_the_code_draws() {
        let shipped = icon_pixels().expect("assets/icon.png reads");
        let drawn = draw_icon();
        assert_eq!(shipped.len(), drawn.len());
        let differing = shipped.iter().zip(&drawn).filter(|(a, b)| a != b).count();
        assert_eq!(
            differing, 0,
            "assets/icon.png is out of date: cargo run --example write_icon"
        );
    }

    #[test]
    fn the_icon_is_a_cell_with_a_knight_on_a_clear_ground() {
        let px = draw_icon();
        let at = |x: usize, y: usize| &px[(y * ICON_SIZE + x) * 4..(y * ICON_SIZE + x) * 4 + 4];
        assert_eq!(at(0, 0)[3], 0, "corners are clear");
        assert_eq!(
            at(2, ICON_SIZE / 2)[3],
            255,
            "the hexagon reaches the sides"
        );
        let opaque = px.chunks(4).filter(|p| p[3] == 255).count();
        assert!(opaque > ICON_SIZE * ICON_SIZE / 2, "{opaque}");
        // The knight's light body covers part of the middle.
        let light = px.chunks(4).filter(|p| p[0] > 235 && p[1] > 225).count();
        assert!(light > ICON_SIZE * 4, "{light}");
    }
}
