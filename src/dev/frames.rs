//! Measuring the game: the longest frames and when they came (`--report-frames`), time
//! to the first frame, and a timed exit (`--exit-after`) or one at the end of the game
//! (`--exit-when-over`).
//!
//! Frame times are the intervals between frames drawn back to back. When nothing
//! changes the game waits between updates (see `redraw`); an interval that includes
//! such a wait measures the wait, not the work of a frame, and is counted apart.

use std::time::Duration;

use web_time::Instant;

use bevy::prelude::*;

/// Frame-time statistics, collected when this resource exists.
#[derive(Resource, Clone, Debug)]
pub struct FrameReport {
    pub started: Instant,
    pub first_frame: Option<Duration>,
    pub frames: u64,
    /// Frame times after the warm-up, in milliseconds.
    pub times: Vec<f32>,
    /// Frames of the warm-up (shader compilation, first uploads) are not counted.
    pub skip: u64,
    /// Frames that came after an idle wait rather than straight after the previous one.
    pub after_wait: u64,
    /// Whether the previous frame asked for the next one at once.
    back_to_back: bool,
    /// The longest frames after the warm-up, longest first, with when they came: a
    /// frame time's tail is found by what happened at those moments.
    pub worst: Vec<LongFrame>,
    /// When the current frame's systems began, and how long the previous frame's ran:
    /// a frame's interval (from one frame's start to the next) holds the previous
    /// frame's systems and then the wait for the renderer.
    systems_started: Option<Instant>,
    previous_systems: Duration,
}

/// One of the longest frames: how long it took, and when in the run and in the game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LongFrame {
    pub millis: f32,
    /// Seconds since the start.
    pub at: f32,
    /// Plies played in the game when it was drawn.
    pub ply: usize,
    /// Of `millis`, how long the game's own systems ran (the main schedules, `First` to
    /// `Last`); the rest went to waiting for the renderer and the window. It tells a
    /// slow system from a slow picture.
    pub systems_millis: f32,
}

/// How many of the longest frames the report names.
const WORST_KEPT: usize = 5;

impl FrameReport {
    /// The longest frame after the warm-up.
    pub fn longest(&self) -> f32 {
        self.times.iter().copied().fold(0.0, f32::max)
    }

    /// The frame time that `share` (0..=1) of the frames after the warm-up stay within.
    pub fn percentile(&self, share: f64) -> f32 {
        if self.times.is_empty() {
            return 0.0;
        }
        let mut sorted = self.times.clone();
        sorted.sort_by(f32::total_cmp);
        let rank = ((sorted.len() as f64 * share).ceil() as usize).clamp(1, sorted.len());
        sorted[rank - 1]
    }

    /// Counts a frame drawn back to back with the previous one.
    pub fn record(&mut self, frame: LongFrame) {
        self.times.push(frame.millis);
        let rank = self.worst.partition_point(|w| w.millis >= frame.millis);
        if rank < WORST_KEPT {
            self.worst.insert(rank, frame);
            self.worst.truncate(WORST_KEPT);
        }
    }

    /// The longest frames, for the terminal:
    /// "80.4 ms at 12.3 s (ply 21, systems 6.2 ms), ...".
    pub fn worst_summary(&self) -> String {
        let frames: Vec<String> = self
            .worst
            .iter()
            .map(|w| {
                format!(
                    "{:.1} ms at {:.1} s (ply {}, systems {:.1} ms)",
                    w.millis, w.at, w.ply, w.systems_millis
                )
            })
            .collect();
        format!("longest frames: {}", frames.join(", "))
    }

    /// One line for the terminal.
    pub fn summary(&self) -> String {
        let mean = if self.times.is_empty() {
            0.0
        } else {
            self.times.iter().sum::<f32>() / self.times.len() as f32
        };
        format!(
            "frames: {} ({} back to back, {} after an idle wait) | first frame after {:.2} s \
             | after warm-up: mean {:.1} ms, median {:.1} ms, 99% within {:.1} ms, \
             longest frame {:.1} ms",
            self.frames,
            self.times.len(),
            self.after_wait,
            self.first_frame.unwrap_or_default().as_secs_f64(),
            mean,
            self.percentile(0.5),
            self.percentile(0.99),
            self.longest()
        )
    }
}

impl Default for FrameReport {
    fn default() -> Self {
        FrameReport {
            started: Instant::now(),
            first_frame: None,
            frames: 0,
            times: Vec::new(),
            skip: 30,
            after_wait: 0,
            back_to_back: true,
            worst: Vec::new(),
            systems_started: None,
            previous_systems: Duration::ZERO,
        }
    }
}

/// Exit after this long.
#[derive(Resource, Clone, Copy, Debug)]
pub struct ExitAfter(pub Duration);

/// Exit a little after the game ends (`--exit-when-over`), so that one command measures
/// one whole game, whatever its length: its last move, the end of the animation and the
/// result dialog are in the report, the idle screen after them is not.
#[derive(Resource, Clone, Copy, Debug)]
pub struct ExitWhenOver {
    /// How long after the end.
    pub linger: Duration,
    /// When the end was first seen (time since start).
    ended: Option<Duration>,
}

impl ExitWhenOver {
    pub fn new(linger: Duration) -> ExitWhenOver {
        ExitWhenOver {
            linger,
            ended: None,
        }
    }

    /// Whether it is time to exit, given whether the game is over `now`. An ended game
    /// taken back (undo) starts the wait afresh at its next end.
    pub fn due(&mut self, over: bool, now: Duration) -> bool {
        if !over {
            self.ended = None;
            return false;
        }
        let ended = *self.ended.get_or_insert(now);
        now >= ended + self.linger
    }
}

pub struct FrameStatsPlugin;

impl Plugin for FrameStatsPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(First, start_systems_clock.before(bevy::time::TimeSystems))
            .add_systems(
                Last,
                (exit_when_due, exit_when_over, measure_frames)
                    .chain()
                    .after(crate::screen::redraw::RedrawSet),
            );
    }
}

fn start_systems_clock(report: Option<ResMut<FrameReport>>) {
    if let Some(mut report) = report {
        report.systems_started = Some(Instant::now());
    }
}

fn measure_frames(
    report: Option<ResMut<FrameReport>>,
    time: Res<Time<Real>>,
    redraw: Option<Res<crate::screen::redraw::Redraw>>,
    mut requests: MessageReader<bevy::window::RequestRedraw>,
    mut exits: MessageReader<AppExit>,
    game: Option<Res<crate::game::CurrentGame>>,
) {
    let Some(mut report) = report else { return };
    let systems = report
        .systems_started
        .map_or(Duration::ZERO, |t| t.elapsed());
    let previous_systems = std::mem::replace(&mut report.previous_systems, systems);
    report.frames += 1;
    if report.first_frame.is_none() {
        report.first_frame = Some(report.started.elapsed());
    }
    if report.frames > report.skip {
        if report.back_to_back {
            let frame = LongFrame {
                millis: time.delta_secs() * 1000.0,
                at: report.started.elapsed().as_secs_f32(),
                ply: game.as_ref().map_or(0, |g| g.position().ply_count()),
                systems_millis: previous_systems.as_secs_f32() * 1000.0,
            };
            report.record(frame);
        } else {
            report.after_wait += 1;
        }
    }
    let continuous = redraw.is_none_or(|r| *r == crate::screen::redraw::Redraw::Continuous);
    report.back_to_back = continuous || requests.read().count() > 0;
    if exits.read().next().is_some() {
        println!("{}", report.summary());
        println!("{}", report.worst_summary());
        if let Some(game) = game {
            let plies = game.position().ply_count();
            match game.outcome() {
                Some(outcome) => println!("game over after {plies} plies: {outcome}"),
                None => println!("game still on after {plies} plies"),
            }
        }
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

fn exit_when_over(
    when: Option<ResMut<ExitWhenOver>>,
    game: Option<Res<crate::game::CurrentGame>>,
    time: Res<Time<Real>>,
    mut exit: MessageWriter<AppExit>,
) {
    let (Some(mut when), Some(game)) = (when, game) else {
        return;
    };
    if when.due(game.outcome().is_some(), time.elapsed()) {
        exit.write(AppExit::Success);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_exit_comes_a_linger_after_the_end_and_an_undone_end_restarts_it() {
        let s = Duration::from_secs;
        let mut when = ExitWhenOver::new(s(2));
        assert!(!when.due(false, s(10)), "not while the game goes on");
        assert!(!when.due(true, s(11)), "the end is seen");
        assert!(!when.due(true, s(12)));
        assert!(when.due(true, s(13)), "two seconds after the end");
        let mut when = ExitWhenOver::new(s(2));
        assert!(!when.due(true, s(20)));
        assert!(!when.due(false, s(21)), "the end taken back");
        assert!(!when.due(true, s(30)), "a new end starts a new wait");
        assert!(!when.due(true, s(31)));
        assert!(when.due(true, s(32)));
    }

    #[test]
    fn percentiles_and_longest_come_from_the_recorded_frames() {
        let report = FrameReport {
            times: (1..=100).map(|ms| ms as f32).collect(),
            ..FrameReport::default()
        };
        assert_eq!(report.longest(), 100.0);
        assert_eq!(report.percentile(0.5), 50.0);
        assert_eq!(report.percentile(0.99), 99.0);
        assert_eq!(FrameReport::default().percentile(0.99), 0.0);
    }

    #[test]
    fn the_report_names_the_longest_frames_longest_first_with_their_moment() {
        let mut report = FrameReport::default();
        for (i, ms) in [30.0, 80.0, 25.0, 45.0, 31.0, 62.0, 29.0, 45.0]
            .into_iter()
            .enumerate()
        {
            report.record(LongFrame {
                millis: ms,
                at: i as f32,
                ply: 10 + i,
                systems_millis: 2.0,
            });
        }
        assert_eq!(report.times.len(), 8);
        let kept: Vec<(f32, usize)> = report.worst.iter().map(|w| (w.millis, w.ply)).collect();
        // Five kept; of two equal frames the earlier stays first.
        assert_eq!(
            kept,
            [(80.0, 11), (62.0, 15), (45.0, 13), (45.0, 17), (31.0, 14)]
        );
        assert_eq!(report.longest(), 80.0);
        assert!(report.worst_summary().starts_with(
            "longest frames: 80.0 ms at 1.0 s (ply 11, systems 2.0 ms), 62.0 ms at 5.0 s"
        ));
    }
}
