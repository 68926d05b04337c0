//! The settings file: what it holds, reading it (every problem named with its line and
//! column, and the rest kept), and writing it whole or not at all.

use std::fmt;
use std::path::{Path, PathBuf};

use hexchess_core::Side;
use hexchess_files::{FileError, Files};
use serde::{Deserialize, Serialize};

use crate::play::Matchup;

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
    /// The online server's address (`ws://HOST:PORT/socket`).
    pub server: String,
    /// Resigning, aborting and leaving a game in play asked again first.
    pub ask_first: bool,
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

impl ModePref {
    /// The players this shorthand stands for.
    pub fn matchup(self) -> Matchup {
        match self {
            ModePref::HumanWhite => Matchup::You(Side::White),
            ModePref::HumanBlack => Matchup::You(Side::Black),
            ModePref::EngineVsEngine => Matchup::Engines,
            ModePref::TwoPlayers => Matchup::People,
        }
    }
}

impl From<Matchup> for ModePref {
    fn from(m: Matchup) -> ModePref {
        match m {
            Matchup::You(Side::White) => ModePref::HumanWhite,
            Matchup::You(_) => ModePref::HumanBlack,
            Matchup::Engines => ModePref::EngineVsEngine,
            Matchup::People => ModePref::TwoPlayers,
        }
    }
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
            server: crate::online::default_server(),
            ask_first: true,
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

/// A settings file is a few hundred bytes; anything this large is not one.
const MAX_SETTINGS_BYTES: u64 = 64 * 1024;

/// The settings file's problem as a [`PrefsError`]: a byte that is not UTF-8 has a line
/// and column like any syntax error.
fn file_error(path: &Path, e: FileError) -> PrefsError {
    match e {
        FileError::NotUtf8 {
            line,
            column,
            offset,
            ..
        } => PrefsError::Syntax {
            file: path.to_path_buf(),
            line,
            column,
            message: format!("not UTF-8 text (byte {offset})"),
        },
        FileError::Io { error, .. } => PrefsError::Io {
            file: path.to_path_buf(),
            message: error.to_string(),
        },
        FileError::NotAFile { what, .. } => PrefsError::Io {
            file: path.to_path_buf(),
            message: format!("{what}, not a regular file"),
        },
        FileError::TooLarge { limit, .. } => PrefsError::Io {
            file: path.to_path_buf(),
            message: format!("larger than {limit} bytes: not a settings file"),
        },
    }
}

impl Preferences {
    /// Reads the settings file. A missing file is not an error (the defaults, and
    /// nothing to say); a value out of its range is set back to its default with a
    /// warning each. Only a regular file is opened: a FIFO in its place would wait for
    /// a writer forever.
    pub fn read(files: &Files, path: &Path) -> Result<(Preferences, Vec<String>), PrefsError> {
        let text = match files.read_text(path, MAX_SETTINGS_BYTES) {
            Ok(t) => t,
            Err(e) if e.is_not_found() => return Ok((Preferences::default(), Vec::new())),
            Err(e) => return Err(file_error(path, e)),
        };
        // A byte order mark (Notepad writes one) is skipped, not a syntax error at 1:1.
        let text = hexchess_core::text::strip_bom(&text);
        let prefs: Preferences = ron::from_str(text).map_err(|e| PrefsError::Syntax {
            file: path.to_path_buf(),
            line: e.span.start.line,
            column: e.span.start.col,
            message: e.code.to_string(),
        })?;
        Ok(prefs.checked(path))
    }

    /// Reads the settings file, or on any problem the defaults; what went wrong is
    /// returned to be shown (the game starts either way). Nothing the player wrote is
    /// lost when the game writes the file again: a file that cannot be read is moved
    /// aside to `<name>.bad`, and one with a value refused (out of its range, or a
    /// variant `plays` does not play as a two-player game) is copied there.
    pub fn read_or_default(
        files: &Files,
        path: &Path,
        plays: impl Fn(&str) -> VariantKind,
    ) -> (Preferences, Vec<String>) {
        let (mut prefs, mut warnings) = match Preferences::read(files, path) {
            Ok(x) => x,
            Err(e) => {
                let mut warning = format!("settings ignored, defaults used: {e}");
                match files.keep_aside(path) {
                    Ok(aside) => {
                        warning.push_str(&format!(" (the file is kept as {})", aside.display()))
                    }
                    Err(e) => warning.push_str(&format!(" (and could not be kept aside: {e})")),
                }
                return (Preferences::default(), vec![warning]);
            }
        };
        warnings.extend(prefs.checked_variant(path, plays));
        if !warnings.is_empty() {
            let kept = match files.copy_aside(path) {
                Ok(aside) => format!("the file as it was is kept as {}", aside.display()),
                Err(e) => format!("the file could not be copied aside: {e}"),
            };
            warnings.push(kept);
        }
        (prefs, warnings)
    }

    /// The variant kept, when it is a two-player variant that loads; otherwise the
    /// default with a warning saying why (a game of more sides is begun at the table,
    /// not kept as the last two-player game).
    fn checked_variant(
        &mut self,
        path: &Path,
        plays: impl Fn(&str) -> VariantKind,
    ) -> Option<String> {
        let why = match plays(&self.variant) {
            VariantKind::TwoPlayers => return None,
            VariantKind::MoreSides => "is a game of more sides, not a two-player variant",
            VariantKind::Unknown => "is not a variant that loads",
        };
        let warning = format!(
            "{}: variant '{}' {why}; {} is used",
            path.display(),
            self.variant,
            Preferences::default().variant
        );
        self.variant = Preferences::default().variant;
        Some(warning)
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
        if !(self.server.starts_with("ws://") || self.server.starts_with("wss://")) {
            warn("server", self.server.clone(), "a ws:// or wss:// address");
            self.server = d.server.clone();
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
    pub fn write(&self, files: &Files, path: &Path) -> Result<(), PrefsError> {
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
        write_whole(files, path, &text).map_err(io)
    }
}

/// Writes `text` to `path` through a temporary file in the same folder (created if
/// missing) and a rename.
pub fn write_whole(files: &Files, path: &Path, text: &str) -> std::io::Result<()> {
    files.write_atomic(path, text.as_bytes())
}

/// What a variant id names, for checking the one kept in the settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VariantKind {
    TwoPlayers,
    MoreSides,
    Unknown,
}

impl VariantKind {
    /// What `id` names in `catalog`.
    pub fn of(catalog: &hexchess_core::Catalog, id: &str) -> VariantKind {
        match catalog.get(id) {
            Some(e) if e.side_count() > 2 => VariantKind::MoreSides,
            Some(_) => VariantKind::TwoPlayers,
            None => VariantKind::Unknown,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DISK: Files = Files::disk();

    fn temp(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("hexchess-prefs-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
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
            server: "ws://192.0.2.7:7474/socket".into(),
            ask_first: false,
        };
        assert_ne!(prefs, Preferences::default());
        prefs.write(&DISK, &path).unwrap();
        assert_eq!(
            Preferences::read(&DISK, &path).unwrap(),
            (prefs, Vec::new())
        );
        // A missing file: the defaults, silently.
        std::fs::remove_file(&path).unwrap();
        assert_eq!(
            Preferences::read(&DISK, &path).unwrap(),
            (Preferences::default(), Vec::new())
        );
    }

    #[test]
    fn a_corrupt_file_is_named_ignored_and_kept_aside() {
        let path = temp("corrupt");
        std::fs::write(&path, "(\n  view: TwoD,\n  level: \"high\",\n)\n").unwrap();
        let Err(PrefsError::Syntax { line, .. }) = Preferences::read(&DISK, &path) else {
            panic!("a corrupt file read")
        };
        assert_eq!(line, 3);
        let (prefs, warnings) = Preferences::read_or_default(&DISK, &path, glinski_only);
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
        let (prefs, warnings) = Preferences::read_or_default(&DISK, &path, glinski_only);
        assert_eq!(prefs, Preferences::default());
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].contains("settings.ron.bad.2"), "{warnings:?}");
        assert!(
            path.with_extension("ron.bad").exists(),
            "the first one stays"
        );
    }

    /// What the catalog would say: only Gliński is a two-player variant, and
    /// `hexachess-3` a game of more sides.
    fn glinski_only(id: &str) -> VariantKind {
        match id {
            "glinski" | "mccooey" => VariantKind::TwoPlayers,
            "hexachess-3" => VariantKind::MoreSides,
            _ => VariantKind::Unknown,
        }
    }

    #[test]
    fn a_latin1_byte_is_named_by_line_and_column() {
        let path = temp("latin1");
        std::fs::write(&path, b"(\n  theme: \"caf\xe9\",\n)\n").unwrap();
        let Err(PrefsError::Syntax { line, column, .. }) = Preferences::read(&DISK, &path) else {
            panic!("a Latin-1 byte read as text")
        };
        assert_eq!((line, column), (2, 14));
    }

    #[test]
    fn a_variant_that_does_not_load_or_has_more_sides_is_refused_and_the_file_kept() {
        for (id, why) in [
            ("nosuch", "is not a variant that loads"),
            ("hexachess-3", "is a game of more sides"),
        ] {
            let path = temp(&format!("variant-{id}"));
            let text = format!("(variant: \"{id}\", level: 5)");
            std::fs::write(&path, &text).unwrap();
            let (prefs, warnings) = Preferences::read_or_default(&DISK, &path, glinski_only);
            assert_eq!(prefs.variant, "glinski");
            assert_eq!(prefs.level, 5, "the good values stay");
            assert!(
                warnings[0].contains(&format!("variant '{id}' {why}")),
                "{warnings:?}"
            );
            let aside = path.with_extension("ron.bad");
            assert!(warnings[1].contains(&aside.display().to_string()));
            assert_eq!(std::fs::read_to_string(&aside).unwrap(), text);
            assert!(path.exists(), "the file stays for the game to write again");
        }
        // A good variant: nothing to say, nothing copied.
        let path = temp("variant-good");
        std::fs::write(&path, "(variant: \"mccooey\")").unwrap();
        let (prefs, warnings) = Preferences::read_or_default(&DISK, &path, glinski_only);
        assert_eq!((prefs.variant.as_str(), warnings.len()), ("mccooey", 0));
        assert!(!path.with_extension("ron.bad").exists());
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_in_place_of_the_settings_is_passed_over_at_once() {
        let path = temp("fifo");
        let made = std::process::Command::new("mkfifo").arg(&path).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo");
        // Opened, it would block this test for ever: nothing writes to it.
        let (prefs, warnings) = Preferences::read_or_default(&DISK, &path, glinski_only);
        assert_eq!(prefs, Preferences::default());
        assert!(warnings[0].contains("FIFO"), "{warnings:?}");
        // Moved aside, so the game's next write makes a regular file.
        assert!(!path.exists());
        Preferences::default().write(&DISK, &path).unwrap();
        assert!(Preferences::read(&DISK, &path).is_ok());
    }

    #[test]
    fn values_out_of_range_fall_back_one_by_one() {
        let path = temp("ranges");
        std::fs::write(
            &path,
            "(level: 0, ui_scale: 9.0, window: (10, 10), clock: Some((0, 5)), theme: \"slate\", unknown_field: 3)",
        )
        .unwrap();
        let (prefs, warnings) = Preferences::read(&DISK, &path).unwrap();
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
