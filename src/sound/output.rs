//! Playing cues through Bevy's audio: the sounds are made once at start
//! ([`synth`](super::synth)), and each cue spawns a short-lived player entity.

use std::time::Duration;

use bevy::audio::{AudioPlayer, AudioSource, PlaybackSettings, Volume};
use bevy::prelude::*;

use super::{Cue, SoundFolder, SoundSettings, pack, synth};
use crate::PlayerFiles;
use crate::game::{GameNotice, GameSet};

pub(super) struct SoundOutputPlugin;

impl Plugin for SoundOutputPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Startup, make_sounds).add_systems(
            Update,
            (play_cues, despawn_finished).chain().after(GameSet::View),
        );
    }
}

/// The sounds, one a cue, ready to play.
#[derive(Resource, Clone, Debug)]
pub struct Sounds(Vec<(Cue, Handle<AudioSource>)>);

impl Sounds {
    pub fn get(&self, cue: Cue) -> Option<&Handle<AudioSource>> {
        self.0.iter().find(|(c, _)| *c == cue).map(|(_, h)| h)
    }
}

/// A playing sound, despawned after its length even when no audio device plays it
/// (Bevy's own end-of-playback despawn only comes from a device).
#[derive(Component, Debug)]
pub struct Playing(Timer);

/// Makes every cue's sound: the player's own where the [`SoundFolder`] has a usable one,
/// else the game's. Without an audio asset store (an app without Bevy's audio, as the
/// headless tests are) there is nothing to play into and cues are dropped.
fn make_sounds(
    mut commands: Commands,
    sources: Option<ResMut<Assets<AudioSource>>>,
    folder: Res<SoundFolder>,
    player: Res<PlayerFiles>,
    mut notices: MessageWriter<GameNotice>,
) {
    let Some(mut sources) = sources else {
        return;
    };
    let sounds = Cue::ALL
        .into_iter()
        .map(|cue| {
            let own = folder
                .0
                .as_deref()
                .map(|d| pack::read(&player, &pack::file_for(d, cue)));
            let bytes = match own {
                Some(Ok(Some(sound))) => synth::wav_at(&sound.samples, sound.rate),
                Some(Err(e)) => {
                    warn!("{e}");
                    notices.write(GameNotice(format!("{e}; the game's own sound plays")));
                    synth::wav(&synth::samples(cue))
                }
                _ => synth::wav(&synth::samples(cue)),
            };
            let handle = sources.add(AudioSource {
                bytes: bytes.into(),
            });
            (cue, handle)
        })
        .collect();
    commands.insert_resource(Sounds(sounds));
}

fn play_cues(
    mut cues: MessageReader<Cue>,
    settings: Res<SoundSettings>,
    sounds: Option<Res<Sounds>>,
    mut commands: Commands,
) {
    let Some(sounds) = sounds else {
        cues.clear();
        return;
    };
    for cue in cues.read() {
        let (Some(loudness), Some(handle)) = (settings.loudness(), sounds.get(*cue)) else {
            continue;
        };
        let length = Duration::from_secs_f32(synth::duration(*cue) + 0.25);
        commands.spawn((
            Name::new(format!("sound: {cue:?}")),
            AudioPlayer(handle.clone()),
            PlaybackSettings::DESPAWN.with_volume(Volume::Linear(loudness)),
            Playing(Timer::new(length, TimerMode::Once)),
        ));
    }
}

fn despawn_finished(
    time: Res<Time<Real>>,
    mut playing: Query<(Entity, &mut Playing)>,
    mut commands: Commands,
) {
    for (entity, mut timer) in &mut playing {
        if timer.0.tick(time.delta()).is_finished() {
            commands.entity(entity).try_despawn();
        }
    }
}
