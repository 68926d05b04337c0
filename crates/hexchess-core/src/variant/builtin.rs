//! The variants shipped inside the binaries, so they work from any directory.

use super::{VariantError, VariantSpec, parse_variant};

/// A variant file compiled into the program.
#[derive(Clone, Copy, Debug)]
pub struct BuiltinVariant {
    /// The variant's id, as its file gives it (`glinski`).
    pub id: &'static str,
    /// The file name under `variants/`.
    pub file: &'static str,
    /// The file's RON text, embedded when the program is built.
    pub source: &'static str,
}

impl BuiltinVariant {
    /// Parses and checks the embedded file.
    pub fn load(&self) -> Result<VariantSpec, VariantError> {
        parse_variant(self.source, &format!("variants/{}", self.file))
    }
}

/// Gliński, McCooey, Grand Hexachess, Standard Hexachess, Peterson's three games on
/// Standard's pieces (the short board, Pre- and Screen HexaChess), in menu order; then
/// his games for three and for four players.
pub const BUILTIN_VARIANTS: [BuiltinVariant; 9] = [
    BuiltinVariant {
        id: "glinski",
        file: "glinski.ron",
        source: include_str!("../../../../variants/glinski.ron"),
    },
    BuiltinVariant {
        id: "mccooey",
        file: "mccooey.ron",
        source: include_str!("../../../../variants/mccooey.ron"),
    },
    BuiltinVariant {
        id: "grand",
        file: "grand.ron",
        source: include_str!("../../../../variants/grand.ron"),
    },
    BuiltinVariant {
        id: "standard",
        file: "standard.ron",
        source: include_str!("../../../../variants/standard.ron"),
    },
    BuiltinVariant {
        id: "standard-short",
        file: "standard-short.ron",
        source: include_str!("../../../../variants/standard-short.ron"),
    },
    BuiltinVariant {
        id: "pre-hexachess",
        file: "pre-hexachess.ron",
        source: include_str!("../../../../variants/pre-hexachess.ron"),
    },
    BuiltinVariant {
        id: "screen-hexachess",
        file: "screen-hexachess.ron",
        source: include_str!("../../../../variants/screen-hexachess.ron"),
    },
    BuiltinVariant {
        id: "hexachess-3",
        file: "hexachess-3.ron",
        source: include_str!("../../../../variants/hexachess-3.ron"),
    },
    BuiltinVariant {
        id: "hexachess-4",
        file: "hexachess-4.ron",
        source: include_str!("../../../../variants/hexachess-4.ron"),
    },
];

/// The built-in variant with this id, parsed and checked.
///
/// Built-in files are part of the program and covered by tests, so a failure here is a
/// bug in the build, not bad user input; it is still returned as an error.
pub fn builtin(id: &str) -> Option<Result<VariantSpec, VariantError>> {
    BUILTIN_VARIANTS
        .iter()
        .find(|b| b.id == id)
        .map(|b| b.load())
}
