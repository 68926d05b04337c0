//! Measuring the game: the longest frame (`--report-frames`), time to the first frame,
//! and a timed exit (`--exit-after`).

use std::time::{Duration, Instant};

use bevy::prelude::*;

/// Frame-time statistics, collected when this resource exists.
#[derive(Resource, Clone, Debug)]
pub struct FrameReport {
    pub started: Instant,
    pub first_frame: Option<Duration>,
    pub frames: u64,
    pub longest: Duration,
    /// Frames of the warm-up (shader compilation, first uploads) are not counted.
    pub skip: u64,
}

impl Default for FrameReport {
    fn default() -> Self {
        FrameReport {
            started: Instant::now(),
            first_frame: None,
            frames: 0,
            longest: Duration::ZERO,
            skip: 30,
        }
    }
}

/// Exit after this long.
#[derive(Resource, Clone, Copy, Debug)]
pub struct ExitAfter(pub Duration);

pub struct FrameStatsPlugin;

impl Plugin for FrameStatsPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Last, (exit_when_due, measure_frames).chain());
    }
}

fn measure_frames(
    report: Option<ResMut<FrameReport>>,
    time: Res<Time<Real>>,
    mut exits: MessageReader<AppExit>,
) {
    let Some(mut report) = report else { return };
    report.frames += 1;
    if report.first_frame.is_none() {
        report.first_frame = Some(report.started.elapsed());
    }
    if report.frames > report.skip {
        report.longest = report.longest.max(time.delta());
    }
    if exits.read().next().is_some() {
        println!(
            "frames: {} | first frame after {:.2} s | longest frame after warm-up: {:.1} ms",
            report.frames,
            report.first_frame.unwrap_or_default().as_secs_f64(),
            report.longest.as_secs_f64() * 1000.0
        );
    }
}

fn exit_when_due(
    due: Option<Res<ExitAfter>>,
    time: Res<Time<Real>>,
    mut exit: MessageWriter<AppExit>,
) {
    if let Some(due) = due
        && time.elapsed() >= due.0
    {
        exit.write(AppExit::Success);
    }
}
