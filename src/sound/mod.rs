//! Sound: a [`Cue`] for every move, capture, check and end of game, in every variant,
//! and for an offer another player makes (a draw, a rematch),
//! played through Bevy's audio when the game is built with the `sound` feature (the
//! default) and silently dropped without it.
//!
//! Deciding the cue is apart from playing it, so that tests (which have no audio
//! output) check what would be heard. The player mutes or scales it with
//! [`SoundSettings`], kept between runs with the other preferences.

#[cfg(feature = "sound")]
mod output;
#[cfg(feature = "sound")]
pub use output::Sounds;
#[cfg(feature = "sound")]
pub mod pack;
pub mod synth;

use std::path::PathBuf;

use bevy::prelude::*;

use hexchess_core::{Step, StepReport};

use crate::game::{BoardChanged, CurrentGame, GameSet};

/// What just happened on the board, as the ear should learn it. One cue a change: a
/// move that checks sounds as a check, one that ends the game as the game's end.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cue {
    Move,
    Capture,
    Check,
    GameEnd,
    /// Another player offers something to answer: a draw, a rematch.
    Offer,
}

impl Cue {
    pub const ALL: [Cue; 5] = [
        Cue::Move,
        Cue::Capture,
        Cue::Check,
        Cue::GameEnd,
        Cue::Offer,
    ];

    /// The cue for a move that ends nothing: check above capture above a quiet move.
    pub fn for_move(captures: bool, checks: bool) -> Cue {
        match (captures, checks) {
            (_, true) => Cue::Check,
            (true, false) => Cue::Capture,
            (false, false) => Cue::Move,
        }
    }
}

/// The player's sound: on or muted, and how loud.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct SoundSettings {
    pub on: bool,
    /// 0 to 1, of the sounds' own loudness.
    pub volume: f32,
}

impl Default for SoundSettings {
    fn default() -> SoundSettings {
        SoundSettings {
            on: true,
            volume: 0.7,
        }
    }
}

impl SoundSettings {
    /// The loudness a cue plays at; `None` when muted or at nothing.
    pub fn loudness(&self) -> Option<f32> {
        (self.on && self.volume > 0.0).then_some(self.volume.clamp(0.0, 1.0))
    }
}

/// The folder of the player's own sounds (`move.wav`, `capture.wav`, `check.wav`,
/// `end.wav`), read at start; `None` (tests, `--fresh`): the game's own sounds only.
#[derive(Resource, Clone, Debug, Default)]
pub struct SoundFolder(pub Option<PathBuf>);

pub struct SoundPlugin;

impl Plugin for SoundPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<SoundSettings>()
            .init_resource::<SoundFolder>()
            .add_message::<Cue>()
            .add_systems(Update, cue_changes.in_set(GameSet::View));
        #[cfg(feature = "sound")]
        app.add_plugins(output::SoundOutputPlugin);
    }
}

/// Each step's cue (a check on any side but the mover's; a piece taken or removed
/// sounds as a capture; the end of a turn without a move says nothing), or the end's
/// when the game ends (by a move, a resignation or a flag). A new, loaded or
/// stepped-through game says nothing.
fn cue_changes(
    mut changes: MessageReader<BoardChanged>,
    game: Res<CurrentGame>,
    mut ending: Local<EndWatch>,
    mut cues: MessageWriter<Cue>,
) {
    let mut cue = None;
    let mut reset = false;
    for change in changes.read() {
        match change {
            BoardChanged::Played(report) => cue = step_cue(report),
            BoardChanged::Reset { .. } => {
                reset = true;
                cue = None;
            }
        }
    }
    if game.is_changed() && ending.ended_now(game.outcome().is_some(), reset) {
        cue = Some(Cue::GameEnd);
    }
    if let Some(cue) = cue {
        cues.write(cue);
    }
}

/// The cue of one step, if it sounds.
fn step_cue(report: &StepReport) -> Option<Cue> {
    let Step::Play(mv) = report.step else {
        return None;
    };
    let removal = mv.is_edit() && mv.promotion().is_none();
    let checks = report.checks.iter().any(|s| *s != report.side);
    Some(Cue::for_move(report.capture.is_some() || removal, checks))
}

/// Whether a game has just ended: over now, not over when last seen, and not because a
/// finished game was put on the board (a reset).
#[derive(Default)]
struct EndWatch {
    was_over: bool,
}

impl EndWatch {
    fn ended_now(&mut self, over: bool, reset: bool) -> bool {
        let ended = over && !self.was_over && !reset;
        self.was_over = over;
        ended
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_check_outranks_a_capture_which_outranks_a_move() {
        assert_eq!(Cue::for_move(false, false), Cue::Move);
        assert_eq!(Cue::for_move(true, false), Cue::Capture);
        assert_eq!(Cue::for_move(false, true), Cue::Check);
        assert_eq!(Cue::for_move(true, true), Cue::Check);
    }

    #[test]
    fn muted_or_silent_plays_nothing() {
        let on = SoundSettings::default();
        assert_eq!(on.loudness(), Some(0.7));
        assert_eq!(SoundSettings { on: false, ..on }.loudness(), None);
        assert_eq!(SoundSettings { volume: 0.0, ..on }.loudness(), None);
        assert_eq!(SoundSettings { volume: 3.0, ..on }.loudness(), Some(1.0));
    }
}
