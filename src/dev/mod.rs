//! Tools for looking at and measuring the game rather than playing it: a screenshot
//! after N frames (`--screenshot`), frame-time statistics (`--report-frames`) and timed
//! exits (`--exit-after`, `--exit-when-over`). Each does nothing unless its resource is
//! inserted from the command line.

pub mod frames;
#[cfg(target_arch = "wasm32")]
pub mod page;
pub mod screenshot;

use bevy::prelude::*;

/// Screenshots and frame statistics.
pub struct DevPlugin;

impl Plugin for DevPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins((screenshot::ScreenshotPlugin, frames::FrameStatsPlugin));
        #[cfg(target_arch = "wasm32")]
        app.add_plugins(page::PagePlugin);
    }
}
