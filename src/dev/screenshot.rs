//! `--screenshot FILE [--frames N]`: render N frames, save the window as PNG, exit.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};

/// Where to save, and after how many frames.
#[derive(Resource, Clone, Debug)]
pub struct ScreenshotPlan {
    pub path: PathBuf,
    pub frames: u32,
}

pub struct ScreenshotPlugin;

impl Plugin for ScreenshotPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            Last,
            take_screenshot.run_if(resource_exists::<ScreenshotPlan>),
        );
    }
}

fn take_screenshot(mut commands: Commands, plan: Res<ScreenshotPlan>, mut frame: Local<u32>) {
    *frame += 1;
    if *frame != plan.frames.max(1) {
        return;
    }
    commands
        .spawn(Screenshot::primary_window())
        .observe(save_to_disk(plan.path.clone()))
        .observe(
            |_: On<ScreenshotCaptured>, mut exit: MessageWriter<AppExit>| {
                exit.write(AppExit::Success);
            },
        );
}
