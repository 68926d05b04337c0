//! What stays between runs: the player's settings, in `settings.ron` in the per-user
//! config folder, and the game in progress, in `autosave.pgn` in the per-user data
//! folder (see [`hexchess_files::Files::data_dir`]), read and written through the
//! [`PlayerFiles`].
//!
//! The settings are gathered from the resources that hold them ([`Settings`],
//! [`Session`], the game's variant, the window) every frame and written when they
//! change, at most every [`PrefsFiles::every`]. The game is written after every change
//! to the board while it is unfinished, and removed when it ends or is empty; at start
//! an unfinished one is offered ([`ResumeOffer`]) before anything may overwrite it.
//!
//! Without [`PrefsFiles`] paths (tests, screenshots) nothing is read or written.

pub mod autosave;
pub mod file;

use std::path::PathBuf;
use std::time::Duration;

use bevy::prelude::*;
use bevy::window::{Monitor, PrimaryMonitor, PrimaryWindow};

pub use autosave::Unfinished;
pub use file::{ModePref, Preferences, PrefsError, VariantKind, ViewPref};

use crate::PlayerFiles;
use crate::confirm::AskFirst;
use crate::game::records::game_record;
use crate::game::{CurrentGame, GameNotice, LoadRequest};
use crate::look::{Settings, View};
use crate::play::{Matchup, Session, TimeControl};
use crate::sound::SoundSettings;
use hexchess_engine::Skill;

/// Where the settings and the autosaved game go; `None`: not kept.
#[derive(Resource, Clone, Debug)]
pub struct PrefsFiles {
    pub settings: Option<PathBuf>,
    pub autosave: Option<PathBuf>,
    /// The least time between two writes of the settings.
    pub every: Duration,
}

impl Default for PrefsFiles {
    /// Nothing kept (tests and screenshots); [`PrefsFiles::user`] for the player's.
    fn default() -> PrefsFiles {
        PrefsFiles {
            settings: None,
            autosave: None,
            every: Duration::from_secs(1),
        }
    }
}

impl PrefsFiles {
    /// The player's own files, in the per-user folders of `files`.
    pub fn user(files: &hexchess_files::Files) -> PrefsFiles {
        PrefsFiles {
            settings: files.config_dir().map(|d| d.join("settings.ron")),
            autosave: files.data_dir().map(|d| d.join("autosave.pgn")),
            ..PrefsFiles::default()
        }
    }
}

/// An unfinished game found at start, waiting for the player to continue or drop it.
/// While it waits the autosave file is left alone.
#[derive(Resource, Clone, Debug, Default)]
pub struct ResumeOffer(pub Option<Unfinished>);

/// The player's answer to the [`ResumeOffer`].
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resume {
    /// Load it (in place of the game on the board).
    Continue,
    /// Leave it in the file for a later start; this run's games are then not autosaved.
    KeepForLater,
    /// Remove the file; the game on the board is autosaved from now on.
    Discard,
}

/// The player kept an earlier unfinished game for a later start: the autosave file is
/// theirs, and nothing of this run is written there.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AutosaveHeld(pub bool);

/// The settings as last written (or read), and since when they differ.
#[derive(Resource, Clone, Debug, Default)]
pub struct KeptPreferences {
    /// What the settings file holds now.
    pub written: Preferences,
    /// Fields only the preferences hold (the interface's zoom): the live values.
    pub live: Preferences,
    changed_for: Duration,
}

pub struct PrefsPlugin;

impl Plugin for PrefsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<PrefsFiles>()
            .init_resource::<ResumeOffer>()
            .init_resource::<AutosaveHeld>()
            .init_resource::<KeptPreferences>()
            .add_message::<Resume>()
            .add_systems(
                Update,
                (
                    answer_resume_offer,
                    autosave_the_game,
                    // Fitted first, so that the file is copied aside as the
                    // player left it before the fitted size is written.
                    fit_window_to_screen,
                    keep_preferences,
                )
                    .chain()
                    .in_set(crate::game::GameSet::View),
            )
            .add_systems(Last, write_preferences_at_exit);
    }
}

impl KeptPreferences {
    /// Starting from the preferences read at start.
    pub fn new(read: Preferences) -> KeptPreferences {
        KeptPreferences {
            written: read.clone(),
            live: read,
            changed_for: Duration::ZERO,
        }
    }
}

/// The preferences the running game stands for.
fn gather(
    live: &Preferences,
    settings: &Settings,
    session: &Session,
    game: &CurrentGame,
    sound: &SoundSettings,
    ask_first: AskFirst,
    window: Option<&Window>,
) -> Preferences {
    let mut p = live.clone();
    p.ask_first = ask_first.0;
    p.sound = sound.on;
    p.volume = sound.volume;
    p.view = match settings.view {
        View::ThreeD => ViewPref::ThreeD,
        View::TwoD => ViewPref::TwoD,
    };
    p.show_coordinates = settings.show_coordinates;
    p.animate = settings.animate;
    p.animation_speed = settings.animation_speed;
    p.level = session.level.level();
    p.mode = match Matchup::of(&session.seats) {
        // An online game is the server's: the next start plays locally as before.
        None => live.mode,
        // A game of more sides keeps its seats in its record; the next two-sided game
        // is the newcomer's.
        Some(_) if game.has_more_sides() => ModePref::HumanWhite,
        Some(m) => ModePref::from(m),
    };
    p.clock = session
        .time_control
        .map(|t| ((t.base.as_secs() / 60) as u32, t.increment.as_secs() as u32));
    // The file keeps the two-player variant the next start opens; a game of more sides
    // comes back through the autosave, with its seats.
    if !game.has_more_sides() {
        p.variant = game.rules().id().to_string();
    }
    if let Some(w) = window
        && w.mode == bevy::window::WindowMode::Windowed
    {
        p.window = (
            w.resolution.width().round() as u32,
            w.resolution.height().round() as u32,
        );
    }
    p
}

impl Preferences {
    /// The view settings these preferences give (the flip is the side played).
    pub fn settings(&self) -> Settings {
        Settings {
            view: match self.view {
                ViewPref::ThreeD => View::ThreeD,
                ViewPref::TwoD => View::TwoD,
            },
            flipped: self.mode == ModePref::HumanBlack,
            animate: self.animate,
            animation_speed: self.animation_speed,
            show_coordinates: self.show_coordinates,
        }
    }

    /// The sound these preferences give.
    pub fn sound_settings(&self) -> SoundSettings {
        SoundSettings {
            on: self.sound,
            volume: self.volume,
        }
    }

    /// Who plays, the level and the clock these preferences give.
    pub fn session(&self) -> Session {
        Session {
            seats: self.mode.matchup().seats(),
            level: Skill::new(self.level).unwrap_or(crate::play::DEFAULT_LEVEL),
            time_control: self.clock.map(|(minutes, increment)| TimeControl {
                base: Duration::from_secs(u64::from(minutes) * 60),
                increment: Duration::from_secs(u64::from(increment)),
            }),
            ..Session::default()
        }
    }
}

/// What the settings file keeps of a run: the view, who played, the variant, the sound
/// and the window.
#[derive(bevy::ecs::system::SystemParam)]
struct Kept<'w, 's> {
    settings: Res<'w, Settings>,
    session: Res<'w, Session>,
    game: Res<'w, CurrentGame>,
    sound: Res<'w, SoundSettings>,
    ask_first: Res<'w, AskFirst>,
    window: Query<'w, 's, &'static Window, With<PrimaryWindow>>,
}

/// Writes the settings when they have differed from the file for [`PrefsFiles::every`].
fn keep_preferences(
    time: Res<Time<Real>>,
    files: Res<PrefsFiles>,
    player: Res<PlayerFiles>,
    mut kept: ResMut<KeptPreferences>,
    what: Kept,
    mut notices: MessageWriter<GameNotice>,
) {
    let Some(path) = &files.settings else {
        return;
    };
    let now = gather(
        &kept.live,
        &what.settings,
        &what.session,
        &what.game,
        &what.sound,
        *what.ask_first,
        what.window.single().ok(),
    );
    kept.live = now.clone();
    if now == kept.written {
        kept.changed_for = Duration::ZERO;
        return;
    }
    kept.changed_for += time.delta();
    if kept.changed_for < files.every {
        return;
    }
    kept.changed_for = Duration::ZERO;
    match now.write(&player, path) {
        Ok(()) => kept.written = now,
        Err(e) => {
            // Tried again at the next change, not every frame.
            kept.written = now;
            warn!("{e}");
            notices.write(GameNotice(format!("settings not saved: {e}")));
        }
    }
}

/// The last changes, written as the app exits.
fn write_preferences_at_exit(
    mut exits: MessageReader<AppExit>,
    files: Res<PrefsFiles>,
    player: Res<PlayerFiles>,
    kept: Res<KeptPreferences>,
) {
    if exits.read().next().is_none() {
        return;
    }
    if let Some(path) = &files.settings
        && kept.live != kept.written
        && let Err(e) = kept.live.write(&player, path)
    {
        warn!("{e}");
    }
}

/// After every change to the game (a move, an undo, a resignation, a new game): the
/// unfinished game to the autosave file, or the file removed once the game is over or
/// empty. The same text is not written twice.
fn autosave_the_game(
    files: Res<PrefsFiles>,
    player: Res<PlayerFiles>,
    offer: Res<ResumeOffer>,
    held: Res<AutosaveHeld>,
    game: Res<CurrentGame>,
    session: Res<Session>,
    mut last: Local<Option<String>>,
) {
    let Some(path) = &files.autosave else {
        return;
    };
    if !game.is_changed() || offer.0.is_some() || held.0 {
        return;
    }
    let text = (game.turn_count() > 0 && game.outcome().is_none())
        .then(|| autosave::pgn_text(&game_record(&game, &session.players(game.side_count()))));
    keep_unfinished(&player, path, text, &mut last);
}

/// Writes the unfinished game's `text` (or removes the file: `None`) unless it is what
/// was written `last`.
fn keep_unfinished(
    player: &hexchess_files::Files,
    path: &std::path::Path,
    text: Option<String>,
    last: &mut Option<String>,
) {
    if *last == text {
        return;
    }
    let result = match &text {
        Some(text) => autosave::write(player, path, text),
        None => autosave::clear(player, path),
    };
    match result {
        Ok(()) => *last = text,
        Err(e) => warn!("autosave {}: {e}", path.display()),
    }
}

/// Continue: the unfinished game is loaded (a game of more sides with its seats). Keep for later: the file stays and this run writes nothing there.
/// Discard: its file goes.
fn answer_resume_offer(
    mut answers: MessageReader<Resume>,
    mut offer: ResMut<ResumeOffer>,
    mut held: ResMut<AutosaveHeld>,
    files: Res<PrefsFiles>,
    player: Res<PlayerFiles>,
    mut load: MessageWriter<LoadRequest>,
    mut notices: MessageWriter<GameNotice>,
) {
    for answer in answers.read() {
        let Some(unfinished) = offer.0.take() else {
            continue;
        };
        match answer {
            Resume::Continue => {
                load.write(LoadRequest(unfinished.record));
            }
            Resume::KeepForLater => {
                held.0 = true;
                let place = files
                    .autosave
                    .as_ref()
                    .map_or(String::new(), |p| format!(" in {}", p.display()));
                notices.write(GameNotice(format!(
                    "your unfinished game stays{place} for a later start; this game is not \
                     saved unless you save it"
                )));
            }
            Resume::Discard => {
                if let Some(path) = &files.autosave
                    && let Err(e) = autosave::clear(&player, path)
                {
                    warn!("autosave {}: {e}", path.display());
                }
            }
        }
    }
}

/// A window larger than the screen (a size kept from a larger monitor, or written by
/// hand) would draw a blank picture: it is made to fit the primary monitor once that is
/// known, and the player is told. When the size came from the settings file, the file
/// as it was is copied aside first.
fn fit_window_to_screen(
    mut done: Local<bool>,
    monitors: Query<&Monitor, With<PrimaryMonitor>>,
    mut windows: Query<&mut Window, With<PrimaryWindow>>,
    files: Res<PrefsFiles>,
    player: Res<PlayerFiles>,
    kept: Res<KeptPreferences>,
    mut notices: MessageWriter<GameNotice>,
) {
    if *done {
        return;
    }
    let (Ok(monitor), Ok(mut window)) = (monitors.single(), windows.single_mut()) else {
        return;
    };
    *done = true;
    let asked = (window.resolution.width(), window.resolution.height());
    let Some(fitted) = fit_to_screen(asked, monitor) else {
        return;
    };
    window.resolution.set(fitted.0, fitted.1);
    let mut notice = format!(
        "the window of {}x{} is larger than the screen; {}x{} is used",
        asked.0.round(),
        asked.1.round(),
        fitted.0.round(),
        fitted.1.round()
    );
    let from_file = kept.written.window == (asked.0.round() as u32, asked.1.round() as u32);
    if let (true, Some(path)) = (from_file, &files.settings)
        && player.stamp(path).is_some()
    {
        match player.copy_aside(path) {
            Ok(aside) => notice.push_str(&format!(
                " (the settings file as it was is kept as {})",
                aside.display()
            )),
            Err(e) => warn!("{}: {e}", path.display()),
        }
    }
    warn!("{notice}");
    notices.write(GameNotice(notice));
}

/// The window's logical size fitted within the monitor's, or `None` when it fits.
pub fn fit_to_screen(asked: (f32, f32), monitor: &Monitor) -> Option<(f32, f32)> {
    let scale = if monitor.scale_factor > 0.0 {
        monitor.scale_factor as f32
    } else {
        1.0
    };
    let screen = (
        monitor.physical_width as f32 / scale,
        monitor.physical_height as f32 / scale,
    );
    if screen.0 < 1.0 || screen.1 < 1.0 || (asked.0 <= screen.0 && asked.1 <= screen.1) {
        return None;
    }
    Some((asked.0.min(screen.0), asked.1.min(screen.1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn monitor(width: u32, height: u32, scale_factor: f64) -> Monitor {
        Monitor {
            name: None,
            physical_width: width,
            physical_height: height,
            physical_position: IVec2::ZERO,
            refresh_rate_millihertz: None,
            scale_factor,
            video_modes: Vec::new(),
        }
    }

    #[test]
    fn a_window_larger_than_the_screen_is_fitted_to_it_in_logical_pixels() {
        let screen = monitor(1920, 1080, 1.0);
        assert_eq!(fit_to_screen((1280.0, 800.0), &screen), None);
        assert_eq!(fit_to_screen((1920.0, 1080.0), &screen), None);
        assert_eq!(
            fit_to_screen((16384.0, 16384.0), &screen),
            Some((1920.0, 1080.0))
        );
        assert_eq!(
            fit_to_screen((1600.0, 2000.0), &screen),
            Some((1600.0, 1080.0))
        );
        // A 4K screen at 200%: 1920x1080 logical pixels.
        let hidpi = monitor(3840, 2160, 2.0);
        assert_eq!(
            fit_to_screen((2560.0, 1440.0), &hidpi),
            Some((1920.0, 1080.0))
        );
        // A monitor that reports no size says nothing to fit.
        assert_eq!(fit_to_screen((16384.0, 16384.0), &monitor(0, 0, 1.0)), None);
    }
}
