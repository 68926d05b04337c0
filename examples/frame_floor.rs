//! The frame-time floor of the machine: an empty Bevy window (one 3D camera with the
//! game's software-renderer settings, nothing to draw) timed the way `hexchess
//! --report-frames` times the game. What the game adds is the difference.
//!
//! ```sh
//! cargo build --release --example frame_floor
//! ../shared/tools/shot.sh ./target/release/examples/frame_floor   # under Xvfb
//! ```

use std::time::Duration;

use bevy::core_pipeline::tonemapping::Tonemapping;
use bevy::prelude::*;
use bevy::window::WindowResolution;

/// How long to run, and how many first frames (start-up) to leave out.
const RUN: Duration = Duration::from_secs(30);
const WARM_UP: usize = 30;

fn main() {
    App::new()
        .add_plugins(DefaultPlugins.set(WindowPlugin {
            primary_window: Some(Window {
                title: "frame floor".into(),
                resolution: WindowResolution::new(1280, 800),
                ..default()
            }),
            ..default()
        }))
        .add_systems(Startup, spawn_camera)
        .add_systems(Last, time_frames)
        .run();
}

fn spawn_camera(mut commands: Commands) {
    commands.spawn((Camera3d::default(), Msaa::Off, Tonemapping::None));
}

fn time_frames(
    time: Res<Time<Real>>,
    mut frames: Local<Vec<f32>>,
    mut exit: MessageWriter<AppExit>,
) {
    frames.push(time.delta_secs() * 1000.0);
    if time.elapsed() < RUN || frames.len() <= WARM_UP {
        return;
    }
    let mut sorted = frames[WARM_UP..].to_vec();
    sorted.sort_by(f32::total_cmp);
    let n = sorted.len();
    let mean = sorted.iter().sum::<f32>() / n as f32;
    println!(
        "empty window: {n} frames | mean {mean:.1} ms, median {:.1} ms, 99% within {:.1} ms, \
         longest frame {:.1} ms",
        sorted[n / 2],
        sorted[(n * 99).div_ceil(100) - 1],
        sorted[n - 1]
    );
    exit.write(AppExit::Success);
}
