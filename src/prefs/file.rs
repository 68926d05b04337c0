//! The settings file: what it holds, reading it (every problem named with its line and
//! column, and the rest kept), and writing it whole or not at all.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// What the game keeps between runs. Every field has a default, so a file written by
/// an older or newer game still reads: missing fields take the default, unknown ones
/// are passed over.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Preferences {
    /// `ThreeD` or `TwoD`.
    pub view: ViewPref,
    pub show_coordinates: bool,
    pub animate: bool,
    /// 0.25 to 4.
    pub animation_speed: f32,
    /// A shipped theme's name or a theme file's path (`--theme`).
    pub theme: String,
    /// The engine's level, 1 to 20.
    pub level: u8,
    pub mode: ModePref,
    /// The clock of a new game: minutes and increment in seconds; `None`: no clock.
    pub clock: Option<(u32, u32)>,
    /// The variant of the last game.
    pub variant: String,
    /// The window's size in logical pixels.
    pub window: (u32, u32),
    /// The interface's zoom, 0.5 to 3 (1: the platform's own scale).
    pub ui_scale: f32,
    /// Sounds for moves, captures, checks and the game's end (`false`: muted).
    pub sound: bool,
    /// Their loudness, 0 to 1.
    pub volume: f32,
}

/// The view, as the file writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ViewPref {
    ThreeD,
    TwoD,
}

/// Who plays, as the file writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ModePref {
    /// You play White against the engine.
    HumanWhite,
    HumanBlack,
    EngineVsEngine,
    TwoPlayers,
}

impl Default for Preferences {
    fn default() -> Preferences {
        Preferences {
            view: ViewPref::ThreeD,
            show_coordinates: true,
            animate: true,
            animation_speed: 1.0,
            theme: "classic".into(),
            level: 11,
            mode: ModePref::HumanWhite,
            clock: None,
            variant: "glinski".into(),
            window: (1280, 800),
            ui_scale: 1.0,
            sound: true,
            volume: 0.7,
        }
    }
}

/// Why the settings file could not be used.
#[derive(Clone, Debug, PartialEq)]
pub enum PrefsError {
    /// The file exists but could not be read or written.
    Io { file: PathBuf, message: String },
    /// Not a settings file: where and what.
    Syntax {
        file: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
}

impl fmt::Display for PrefsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PrefsError::Io { file, message } => write!(f, "{}: {message}", file.display()),
            PrefsError::Syntax {
                file,
                line,
                column,
                message,
            } => write!(f, "{}:{line}:{column}: {message}", file.display()),
        }
    }
}

impl std::error::Error for PrefsError {}

impl Preferences {
    /// Reads the settings file. A missing file is not an error (the defaults, and
    /// nothing to say); a value out of its range is set back to its default with a
    /// warning each.
    pub fn read(path: &Path) -> Result<(Preferences, Vec<String>), PrefsError> {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok((Preferences::default(), Vec::new()));
            }
            Err(e) => {
                return Err(PrefsError::Io {
                    file: path.to_path_buf(),
                    message: e.to_string(),
                });
            }
        };
        let prefs: Preferences = ron::from_str(&text).map_err(|e| PrefsError::Syntax {
            file: path.to_path_buf(),
            line: e.span.start.line,
            column: e.span.start.col,
            message: e.code.to_string(),
        })?;
        Ok(prefs.checked(path))
    }

    /// Reads the settings file, or on any problem the defaults; what went wrong is
    /// returned to be shown (the game starts either way). A file that cannot be read
    /// is moved aside to `<name>.bad`, so that saving the settings later does not
    /// destroy what the player may want to mend.
    pub fn read_or_default(path: &Path) -> (Preferences, Vec<String>) {
        match Preferences::read(path) {
            Ok(x) => x,
            Err(e) => {
                let aside = path.with_extension("ron.bad");
                let kept = std::fs::rename(path, &aside).is_ok();
                let mut warning = format!("settings ignored, defaults used: {e}");
                if kept {
                    warning.push_str(&format!(" (the file is kept as {})", aside.display()));
                }
                (Preferences::default(), vec![warning])
            }
        }
    }

    /// Each value within its range, or its default with a warning naming it.
    fn checked(mut self, path: &Path) -> (Preferences, Vec<String>) {
        let d = Preferences::default();
        let mut warnings = Vec::new();
        let mut warn = |field: &str, value: String, range: &str| {
            warnings.push(format!(
                "{}: {field} {value} is outside {range}; the default is used",
                path.display()
            ));
        };
        if !(1..=20).contains(&self.level) {
            warn("level", self.level.to_string(), "1 to 20");
            self.level = d.level;
        }
        if !(self.animation_speed.is_finite() && (0.25..=4.0).contains(&self.animation_speed)) {
            warn(
                "animation_speed",
                self.animation_speed.to_string(),
                "0.25 to 4",
            );
            self.animation_speed = d.animation_speed;
        }
        if !(self.ui_scale.is_finite() && (0.5..=3.0).contains(&self.ui_scale)) {
            warn("ui_scale", self.ui_scale.to_string(), "0.5 to 3");
            self.ui_scale = d.ui_scale;
        }
        if !(self.volume.is_finite() && (0.0..=1.0).contains(&self.volume)) {
            warn("volume", self.volume.to_string(), "0 to 1");
            self.volume = d.volume;
        }
        let (w, h) = self.window;
        if !((320..=16_384).contains(&w) && (240..=16_384).contains(&h)) {
            warn("window", format!("{w}x{h}"), "320x240 to 16384x16384");
            self.window = d.window;
        }
        if let Some((minutes, increment)) = self.clock
            && (minutes == 0 || minutes > 600 || increment > 600)
        {
            warn(
                "clock",
                format!("{minutes}+{increment}"),
                "1 to 600 minutes and 0 to 600 seconds",
            );
            self.clock = None;
        }
        (self, warnings)
    }

    /// Writes the file whole: to a temporary file first, then renamed over the old one,
    /// so that a crash mid-write never leaves half a file.
    pub fn write(&self, path: &Path) -> Result<(), PrefsError> {
        let io = |e: std::io::Error| PrefsError::Io {
            file: path.to_path_buf(),
            message: e.to_string(),
        };
        let text =
            ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default()).map_err(|e| {
                PrefsError::Io {
                    file: path.to_path_buf(),
                    message: e.to_string(),
                }
            })?;
        write_whole(path, &text).map_err(io)
    }
}

/// Writes `text` to `path` through a temporary file in the same folder (created if
/// missing) and a rename.
pub fn write_whole(path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("hexchess-prefs-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("settings.ron")
    }

    #[test]
    fn settings_are_written_and_read_back() {
        let path = temp("round-trip");
        let prefs = Preferences {
            view: ViewPref::TwoD,
            show_coordinates: false,
            animate: true,
            animation_speed: 2.0,
            theme: "slate".into(),
            level: 17,
            mode: ModePref::HumanBlack,
            clock: Some((10, 5)),
            variant: "mccooey".into(),
            window: (1600, 900),
            ui_scale: 1.25,
            sound: false,
            volume: 0.4,
        };
        assert_ne!(prefs, Preferences::default());
        prefs.write(&path).unwrap();
        assert_eq!(Preferences::read(&path).unwrap(), (prefs, Vec::new()));
        // A missing file: the defaults, silently.
        std::fs::remove_file(&path).unwrap();
        assert_eq!(
            Preferences::read(&path).unwrap(),
            (Preferences::default(), Vec::new())
        );
    }

    #[test]
    fn a_corrupt_file_is_named_ignored_and_kept_aside() {
        let path = temp("corrupt");
        std::fs::write(&path, "(\n  view: TwoD,\n  level: \"high\",\n)\n").unwrap();
        let Err(PrefsError::Syntax { line, .. }) = Preferences::read(&path) else {
            panic!("a corrupt file read")
        };
        assert_eq!(line, 3);
        let (prefs, warnings) = Preferences::read_or_default(&path);
        assert_eq!(prefs, Preferences::default());
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(
            warnings[0].contains("settings.ron:3:") && warnings[0].contains("settings.ron.bad"),
            "{warnings:?}"
        );
        assert!(!path.exists());
        assert!(path.with_extension("ron.bad").exists());
        // Binary junk too.
        std::fs::write(&path, [0xff, 0xfe, 0x00, 0x41]).unwrap();
        let (prefs, warnings) = Preferences::read_or_default(&path);
        assert_eq!(prefs, Preferences::default());
        assert_eq!(warnings.len(), 1);
    }

    #[test]
    fn values_out_of_range_fall_back_one_by_one() {
        let path = temp("ranges");
        std::fs::write(
            &path,
            "(level: 0, ui_scale: 9.0, window: (10, 10), clock: Some((0, 5)), theme: \"slate\", unknown_field: 3)",
        )
        .unwrap();
        let (prefs, warnings) = Preferences::read(&path).unwrap();
        let d = Preferences::default();
        assert_eq!(
            (prefs.level, prefs.ui_scale, prefs.window, prefs.clock),
            (d.level, d.ui_scale, d.window, None)
        );
        assert_eq!(prefs.theme, "slate", "the good values stay");
        assert_eq!(warnings.len(), 4, "{warnings:?}");
        assert!(
            warnings
                .iter()
                .any(|w| w.contains("level 0 is outside 1 to 20"))
        );
    }
}
