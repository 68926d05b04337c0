//! Themes: every colour, finish and size the board and pieces are drawn with, read
//! from RON files so a player can restyle the game without code.
//!
//! The shipped themes (`assets/themes/*.ron`) are compiled into the game, so it runs
//! from any working directory; `--theme` picks one by name or reads any file. A file
//! that does not read is reported with its path, line and column, and the game goes on
//! with the classic theme.

use std::fmt;
use std::path::{Path, PathBuf};

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

/// The themes that ship with the game: (name, RON text).
pub const SHIPPED: [(&str, &str); 3] = [
    ("classic", include_str!("../../assets/themes/classic.ron")),
    ("slate", include_str!("../../assets/themes/slate.ron")),
    ("contrast", include_str!("../../assets/themes/contrast.ron")),
];

/// An sRGB colour, each channel 0 to 1.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rgb(pub f32, pub f32, pub f32);

/// An sRGB colour with alpha, each channel 0 to 1.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rgba(pub f32, pub f32, pub f32, pub f32);

/// An 8-bit sRGB colour, for the drawn piece images.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rgb8(pub u8, pub u8, pub u8);

impl From<Rgb> for Color {
    fn from(c: Rgb) -> Color {
        Color::srgb(c.0, c.1, c.2)
    }
}

impl From<Rgba> for Color {
    fn from(c: Rgba) -> Color {
        Color::srgba(c.0, c.1, c.2, c.3)
    }
}

impl From<Rgb8> for [u8; 3] {
    fn from(c: Rgb8) -> [u8; 3] {
        [c.0, c.1, c.2]
    }
}

/// How a lit surface shines.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Finish {
    /// Scales the highlight (0 is matt).
    pub specular: f32,
    /// Narrows the highlight.
    pub shininess: f32,
    /// Light along the outline, where the surface turns away from the viewer (0: none,
    /// up to 1). What lets a dark piece's shape show against dark cells: more light
    /// from the front washes out the light pieces instead.
    #[serde(default)]
    pub rim: f32,
}

impl Finish {
    /// A finish with no rim.
    pub const fn new(specular: f32, shininess: f32) -> Finish {
        Finish {
            specular,
            shininess,
            rim: 0.0,
        }
    }
}

/// A 2D piece image's body and outline.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImageColours {
    pub fill: Rgb8,
    pub outline: Rgb8,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardTheme {
    /// The centre cell's colour first, then the other two: exactly three.
    pub cells: Vec<Rgb>,
    pub cell_finish: Finish,
    /// The frame under the cells in 3D.
    pub frame: Rgb,
    pub frame_finish: Finish,
    pub labels: Rgb,
    pub label_size: f32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PieceTheme {
    pub white: Rgb,
    pub white_finish: Finish,
    pub black: Rgb,
    pub black_finish: Finish,
    /// Models are made for a unit cell; this sizes them on the board.
    pub scale: f32,
    pub white_image: ImageColours,
    pub black_image: ImageColours,
    /// The letter on a piece with no model of its own.
    pub white_letter: Rgb,
    pub black_letter: Rgb,
    pub letter_size: f32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HighlightTheme {
    pub last_move: Rgba,
    pub selected: Rgba,
    pub check: Rgba,
    /// A legal target cell.
    pub target: Rgba,
    /// A legal capture.
    pub capture: Rgba,
    /// The ring pulsing round a king given check.
    pub check_flash: Rgba,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SceneTheme {
    pub background: Rgb,
    pub ambient: Rgb,
    /// Lux; the camera maps about 1000 to full brightness.
    pub ambient_brightness: f32,
    pub key_light: f32,
    pub fill_light: f32,
}

/// Everything the game is drawn with.
#[derive(Resource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Theme {
    pub name: String,
    pub board: BoardTheme,
    pub pieces: PieceTheme,
    pub highlights: HighlightTheme,
    pub scene: SceneTheme,
}

impl Default for Theme {
    /// The classic theme.
    fn default() -> Self {
        Theme::shipped("classic").expect("the classic theme ships and reads")
    }
}

/// Why a theme could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ThemeError {
    /// Neither a shipped theme's name nor a readable file.
    NotFound { name: String, shipped: Vec<String> },
    /// The file could not be read.
    Io { path: PathBuf, message: String },
    /// The text is not a theme: where and why.
    Syntax {
        path: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
    /// It reads, but a value cannot be drawn with.
    Value { path: PathBuf, message: String },
}

impl fmt::Display for ThemeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ThemeError::NotFound { name, shipped } => write!(
                f,
                "no theme '{name}': give a file or one of {}",
                shipped.join(", ")
            ),
            ThemeError::Io { path, message } => write!(f, "{}: {message}", path.display()),
            ThemeError::Syntax {
                path,
                line,
                column,
                message,
            } => write!(f, "{}:{line}:{column}: {message}", path.display()),
            ThemeError::Value { path, message } => write!(f, "{}: {message}", path.display()),
        }
    }
}

impl std::error::Error for ThemeError {}

impl Theme {
    /// A shipped theme by name.
    pub fn shipped(name: &str) -> Option<Theme> {
        let (_, text) = SHIPPED.iter().find(|(n, _)| n.eq_ignore_ascii_case(name))?;
        Theme::parse(text, Path::new(name)).ok()
    }

    /// A shipped theme's name, or else a theme file's path.
    pub fn find(files: &hexchess_files::Files, name_or_path: &str) -> Result<Theme, ThemeError> {
        if let Some(theme) = Theme::shipped(name_or_path) {
            return Ok(theme);
        }
        let path = Path::new(name_or_path);
        if files.stamp(path).is_none() {
            return Err(ThemeError::NotFound {
                name: name_or_path.to_string(),
                shipped: SHIPPED.iter().map(|(n, _)| n.to_string()).collect(),
            });
        }
        Theme::load(files, path)
    }

    /// Reads a theme file.
    pub fn load(files: &hexchess_files::Files, path: &Path) -> Result<Theme, ThemeError> {
        // A theme is a few kilobytes; a regular file only (a FIFO would wait forever).
        let text = files
            .read_text(path, 1024 * 1024)
            .map_err(|e| ThemeError::Io {
                path: path.to_path_buf(),
                message: e.to_string(),
            })?;
        Theme::parse(&text, path)
    }

    /// Reads a theme from RON text; `path` names it in errors. A byte order mark
    /// (Notepad writes one) is skipped, not a syntax error at 1:1.
    pub fn parse(text: &str, path: &Path) -> Result<Theme, ThemeError> {
        let text = hexchess_core::text::strip_bom(text);
        let theme: Theme = ron::from_str(text).map_err(|e| ThemeError::Syntax {
            path: path.to_path_buf(),
            line: e.span.start.line,
            column: e.span.start.col,
            message: e.code.to_string(),
        })?;
        theme.check().map_err(|message| ThemeError::Value {
            path: path.to_path_buf(),
            message,
        })?;
        Ok(theme)
    }

    /// Values that read but cannot be drawn with.
    fn check(&self) -> Result<(), String> {
        let unit = |name: &str, v: f32| {
            if (0.0..=1.0).contains(&v) {
                Ok(())
            } else {
                Err(format!("{name}: {v} is outside 0.0 to 1.0"))
            }
        };
        let rgb = |name: &str, c: Rgb| {
            unit(name, c.0)?;
            unit(name, c.1)?;
            unit(name, c.2)
        };
        let rgba = |name: &str, c: Rgba| {
            rgb(name, Rgb(c.0, c.1, c.2))?;
            unit(name, c.3)
        };
        let positive = |name: &str, v: f32| {
            if v.is_finite() && v > 0.0 && v <= 1000.0 {
                Ok(())
            } else {
                Err(format!("{name}: {v} must be above 0 (and at most 1000)"))
            }
        };
        let b = &self.board;
        if b.cells.len() != 3 {
            return Err(format!(
                "board.cells: {} colours; a hex board needs exactly 3",
                b.cells.len()
            ));
        }
        for &c in &b.cells {
            rgb("board.cells", c)?;
        }
        rgb("board.frame", b.frame)?;
        rgb("board.labels", b.labels)?;
        positive("board.label_size", b.label_size)?;
        let p = &self.pieces;
        rgb("pieces.white", p.white)?;
        rgb("pieces.black", p.black)?;
        rgb("pieces.white_letter", p.white_letter)?;
        rgb("pieces.black_letter", p.black_letter)?;
        positive("pieces.letter_size", p.letter_size)?;
        if !(0.2..=3.0).contains(&p.scale) {
            return Err(format!("pieces.scale: {} is outside 0.2 to 3.0", p.scale));
        }
        let h = &self.highlights;
        for (name, c) in [
            ("highlights.last_move", h.last_move),
            ("highlights.selected", h.selected),
            ("highlights.check", h.check),
            ("highlights.target", h.target),
            ("highlights.capture", h.capture),
            ("highlights.check_flash", h.check_flash),
        ] {
            rgba(name, c)?;
        }
        let s = &self.scene;
        rgb("scene.background", s.background)?;
        rgb("scene.ambient", s.ambient)?;
        for (name, lux) in [
            ("scene.ambient_brightness", s.ambient_brightness),
            ("scene.key_light", s.key_light),
            ("scene.fill_light", s.fill_light),
        ] {
            if !(lux.is_finite() && (0.0..=100_000.0).contains(&lux)) {
                return Err(format!("{name}: {lux} is outside 0 to 100000 lux"));
            }
        }
        for (name, f) in [
            ("board.cell_finish", b.cell_finish),
            ("board.frame_finish", b.frame_finish),
            ("pieces.white_finish", p.white_finish),
            ("pieces.black_finish", p.black_finish),
        ] {
            unit(&format!("{name}.specular"), f.specular)?;
            positive(&format!("{name}.shininess"), f.shininess)?;
            unit(&format!("{name}.rim"), f.rim)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shipped_theme_reads_and_classic_is_the_default() {
        for (name, text) in SHIPPED {
            let theme = Theme::parse(text, Path::new(name)).unwrap_or_else(|e| panic!("{e}"));
            assert!(theme.name.eq_ignore_ascii_case(name), "{name}");
        }
        assert_eq!(Theme::default().name, "Classic");
        assert_ne!(Theme::shipped("slate"), Theme::shipped("classic"));
        assert_eq!(
            Theme::find(&hexchess_files::Files::disk(), "SLATE").map(|t| t.name),
            Ok("Slate".into())
        );
    }

    #[test]
    fn the_classic_theme_keeps_the_colours_the_game_was_drawn_with() {
        let t = Theme::default();
        assert_eq!(t.board.cells[0], Rgb(0.80, 0.63, 0.44));
        assert_eq!(t.pieces.white, Rgb(0.93, 0.88, 0.78));
        // Larger since the desk issue (1.15 before): pieces were small against their
        // cells from the usual camera.
        assert_eq!(t.pieces.scale, 1.3);
        assert_eq!(t.pieces.black_image.fill, Rgb8(46, 40, 38));
        assert_eq!(t.highlights.check, Rgba(0.95, 0.1, 0.05, 0.65));
        assert_eq!(t.scene.key_light, 780.0);
        // The dark pieces' outline is lit (the light ones need none).
        assert_eq!(
            (t.pieces.black_finish.rim, t.pieces.white_finish.rim),
            (0.4, 0.0)
        );
    }

    #[test]
    fn a_bad_theme_names_its_file_line_and_column() {
        let classic = SHIPPED[0].1;
        let path = Path::new("mine.ron");
        // A misspelt field.
        let text = classic.replace("label_size", "label_sise");
        let e = Theme::parse(&text, path).unwrap_err();
        let ThemeError::Syntax { line, column, .. } = &e else {
            panic!("{e}")
        };
        let expected = classic
            .lines()
            .position(|l| l.contains("label_size"))
            .unwrap()
            + 1;
        assert_eq!(*line, expected, "{e}");
        assert!(*column > 1, "{e}");
        assert!(e.to_string().starts_with("mine.ron:"), "{e}");
        assert!(e.to_string().contains("label_sise"), "{e}");
        // A value out of range reads but is refused, by name.
        let text = classic.replace("scale: 1.3", "scale: 40.0");
        let e = Theme::parse(&text, path).unwrap_err();
        assert!(matches!(e, ThemeError::Value { .. }), "{e}");
        assert!(e.to_string().contains("pieces.scale"), "{e}");
        let text = classic.replace("(0.13, 0.11, 0.10)", "(0.13, 1.11, 0.10)");
        let e = Theme::parse(&text, path).unwrap_err();
        assert!(e.to_string().contains("pieces.black"), "{e}");
        let text = classic.replace("rim: 0.4", "rim: 1.5");
        let e = Theme::parse(&text, path).unwrap_err();
        assert!(e.to_string().contains("pieces.black_finish.rim"), "{e}");
        let text = classic.replace(", (0.95, 0.87, 0.71), (0.56, 0.38, 0.24)]", "]");
        let e = Theme::parse(&text, path).unwrap_err();
        assert!(e.to_string().contains("exactly 3"), "{e}");
        // Neither a theme nor a file.
        let e = Theme::find(&hexchess_files::Files::disk(), "no-such-theme").unwrap_err();
        assert!(e.to_string().contains("classic, slate"), "{e}");
    }

    #[test]
    fn a_theme_file_on_disk_loads() {
        let dir = std::env::temp_dir().join(format!("hexchess-theme-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("mine.ron");
        let text = SHIPPED[0].1.replace("\"Classic\"", "\"Mine\"");
        std::fs::write(&path, text).unwrap();
        let theme = Theme::find(&hexchess_files::Files::disk(), path.to_str().unwrap()).unwrap();
        assert_eq!(theme.name, "Mine");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Garbage in, clear error out: mutations of the classic theme (a character deleted,
    /// doubled or replaced) are refused with a place or a field name, or read as a theme
    /// whose values pass the checks. Seeded, so every run tries the same files.
    #[test]
    fn mutated_themes_are_refused_with_a_place_or_read_whole() {
        let classic = SHIPPED[0].1;
        let chars: Vec<char> = classic.chars().collect();
        let alphabet: Vec<char> = "(),:[]0123456789.-_ \nabcxyz\"/".chars().collect();
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        let (mut refused, mut read) = (0, 0);
        for _ in 0..600 {
            let mut text = chars.clone();
            for _ in 0..1 + next(3) {
                let i = next(text.len());
                match next(3) {
                    0 => {
                        text.remove(i);
                    }
                    1 => text.insert(i, text[i]),
                    _ => text[i] = alphabet[next(alphabet.len())],
                }
            }
            let text: String = text.into_iter().collect();
            match Theme::parse(&text, Path::new("mutant.ron")) {
                Ok(theme) => {
                    read += 1;
                    assert!(theme.check().is_ok());
                }
                Err(e @ ThemeError::Syntax { line, column, .. }) => {
                    refused += 1;
                    assert!(line >= 1 && column >= 1, "{e}");
                    assert!(e.to_string().starts_with("mutant.ron:"), "{e}");
                }
                Err(e @ ThemeError::Value { .. }) => {
                    refused += 1;
                    assert!(e.to_string().contains('.'), "names the field: {e}");
                }
                Err(e) => panic!("unexpected: {e}"),
            }
        }
        assert!(refused > 100 && read > 10, "{refused} refused, {read} read");
    }
}
