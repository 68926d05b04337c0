//! `--screenshot FILE [--frames N]`: render N frames, save the window as PNG, exit.
//!
//! The N frames are counted from when the renderer has every pipeline it asked for:
//! Bevy compiles them off the frame, and under load a fixed count of frames could pass
//! before anything was drawn (a black picture of Grand in 3D, once in seven runs).

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use bevy::prelude::*;
use bevy::render::render_resource::PipelineCache;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};
use bevy::render::{Render, RenderApp};

/// Where to save, and after how many frames.
#[derive(Resource, Clone, Debug)]
pub struct ScreenshotPlan {
    pub path: PathBuf,
    pub frames: u32,
}

/// Render frames in a row with no pipeline still compiling.
const SETTLED_FRAMES: u32 = 5;

/// Frames past the plan's after which the picture is taken however the pipelines
/// stand (a renderer that never settles must not keep the program from exiting).
const MOST_EXTRA_FRAMES: u32 = 3_000;

/// What the render world says of its pipelines, read by the main world.
#[derive(Resource, Clone, Default)]
struct PipelineWatch(Arc<PipelineState>);

#[derive(Default)]
struct PipelineState {
    /// Some pipeline has been asked for (before that, none waiting means nothing yet).
    asked: AtomicBool,
    /// Render frames since one last waited.
    settled: AtomicU32,
}

impl PipelineWatch {
    fn ready(&self) -> bool {
        self.0.asked.load(Ordering::Relaxed)
            && self.0.settled.load(Ordering::Relaxed) >= SETTLED_FRAMES
    }
}

pub struct ScreenshotPlugin;

impl Plugin for ScreenshotPlugin {
    fn build(&self, app: &mut App) {
        let watch = PipelineWatch::default();
        app.insert_resource(watch.clone()).add_systems(
            Last,
            take_screenshot.run_if(resource_exists::<ScreenshotPlan>),
        );
        if let Some(render) = app.get_sub_app_mut(RenderApp) {
            render
                .insert_resource(watch)
                .add_systems(Render, watch_pipelines);
        }
    }
}

/// Counts the render frames with no pipeline waiting to be compiled.
fn watch_pipelines(cache: Option<Res<PipelineCache>>, watch: Res<PipelineWatch>) {
    let Some(cache) = cache else {
        return;
    };
    let state = &watch.0;
    let any_asked = cache.pipelines().next().is_some();
    if any_asked {
        state.asked.store(true, Ordering::Relaxed);
    }
    if cache.waiting_pipelines().next().is_some() {
        state.settled.store(0, Ordering::Relaxed);
    } else {
        state.settled.fetch_add(1, Ordering::Relaxed);
    }
}

fn take_screenshot(
    mut commands: Commands,
    plan: Res<ScreenshotPlan>,
    watch: Res<PipelineWatch>,
    mut frame: Local<u32>,
    mut ready_frames: Local<u32>,
    mut taken: Local<bool>,
) {
    if *taken {
        return;
    }
    *frame += 1;
    if watch.ready() {
        *ready_frames += 1;
    }
    let wanted = plan.frames.max(1);
    let given_up = *frame >= wanted + MOST_EXTRA_FRAMES;
    if *ready_frames < wanted && !given_up {
        return;
    }
    if given_up {
        warn!("--screenshot: the renderer's pipelines never settled; the picture is taken anyway");
    }
    *taken = true;
    commands
        .spawn(Screenshot::primary_window())
        .observe(save_to_disk(plan.path.clone()))
        .observe(
            |_: On<ScreenshotCaptured>, mut exit: MessageWriter<AppExit>| {
                exit.write(AppExit::Success);
            },
        );
}
