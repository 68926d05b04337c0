//! `cargo run --example write_icon`: draws the window icon with the game's own code and
//! saves it as `assets/icon.png` (a test checks the file matches the code).

use std::path::Path;

use bevy::asset::RenderAssetUsages;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use hexchess::screen::icon::{ICON_SIZE, draw_icon};

fn main() -> Result<(), String> {
    let image = Image::new(
        Extent3d {
            width: ICON_SIZE as u32,
            height: ICON_SIZE as u32,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        draw_icon(),
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::default(),
    );
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/icon.png");
    image
        .try_into_dynamic()
        .map_err(|e| e.to_string())?
        .save(&path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    println!("wrote {}", path.display());
    Ok(())
}
