//! Errors from reading a variant file, written for the person who edits it.

use std::fmt;

/// One thing wrong with a variant that parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// 1-based line and column of the offending value, when it could be located.
    pub line: Option<usize>,
    /// 1-based column, with `line`.
    pub column: Option<usize>,
    /// Where in the file's structure, such as `setup.white[2]`.
    pub path: String,
    /// What is wrong, in a sentence for the person editing the file.
    pub message: String,
    /// A suggestion, such as the closest valid field name.
    pub hint: Option<String>,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let (Some(l), Some(c)) = (self.line, self.column) {
            write!(f, "{l}:{c}: ")?;
        }
        if !self.path.is_empty() {
            write!(f, "{}: ", self.path)?;
        }
        f.write_str(&self.message)?;
        if let Some(h) = &self.hint {
            write!(f, " ({h})")?;
        }
        Ok(())
    }
}

/// Why a variant could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VariantError {
    /// The file could not be read.
    Io {
        /// The file's name as the player knows it.
        file: String,
        /// Why it could not be read.
        message: String,
    },
    /// The text is not valid RON for the schema (bad syntax, unknown field, wrong type).
    Syntax {
        /// The file's name as the player knows it.
        file: String,
        /// 1-based line where the parser stopped.
        line: usize,
        /// 1-based column where the parser stopped.
        column: usize,
        /// The parser's message.
        message: String,
        /// A suggestion, such as the closest valid field name.
        hint: Option<String>,
    },
    /// The file parsed but describes a variant that cannot be played.
    Invalid {
        /// The file's name as the player knows it.
        file: String,
        /// Every problem found, each with its place when it could be located.
        problems: Vec<Problem>,
    },
}

impl VariantError {
    /// The file the error is about.
    pub fn file(&self) -> &str {
        match self {
            VariantError::Io { file, .. }
            | VariantError::Syntax { file, .. }
            | VariantError::Invalid { file, .. } => file,
        }
    }

    /// Every problem with its position, syntax errors included, for listing in a UI.
    pub fn problems(&self) -> Vec<Problem> {
        match self {
            VariantError::Io { message, .. } => vec![Problem {
                line: None,
                column: None,
                path: String::new(),
                message: message.clone(),
                hint: None,
            }],
            VariantError::Syntax {
                line,
                column,
                message,
                hint,
                ..
            } => vec![Problem {
                line: Some(*line),
                column: Some(*column),
                path: String::new(),
                message: message.clone(),
                hint: hint.clone(),
            }],
            VariantError::Invalid { problems, .. } => problems.clone(),
        }
    }
}

impl fmt::Display for VariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VariantError::Io { file, message } => write!(f, "{file}: cannot read: {message}"),
            VariantError::Syntax {
                file,
                line,
                column,
                message,
                hint,
            } => {
                write!(f, "{file}:{line}:{column}: {message}")?;
                if let Some(h) = hint {
                    write!(f, " ({h})")?;
                }
                Ok(())
            }
            VariantError::Invalid { file, problems } => {
                let n = problems.len();
                write!(f, "{file}: {n} problem{}:", if n == 1 { "" } else { "s" })?;
                for p in problems {
                    write!(f, "\n  {file}:{p}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for VariantError {}

/// Edit distance between two words (for "did you mean" hints).
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = if ca == *cb {
                prev
            } else {
                1 + prev.min(row[j]).min(row[j + 1])
            };
            prev = cur;
        }
    }
    row[b.len()]
}

/// The closest of `names` to `word`, if close enough to be a likely typo.
pub(crate) fn closest<'a>(word: &str, names: &[&'a str]) -> Option<&'a str> {
    names
        .iter()
        .map(|n| (edit_distance(&word.to_lowercase(), &n.to_lowercase()), *n))
        .filter(|(d, n)| *d <= (n.len() / 3).max(2))
        .min()
        .map(|(_, n)| n)
}

/// A suggestion for a parse error of the RON layer.
pub(crate) fn syntax_hint(code: &ron::Error) -> Option<String> {
    match code {
        ron::Error::NoSuchStructField {
            expected, found, ..
        }
        | ron::Error::NoSuchEnumVariant {
            expected, found, ..
        } => Some(match closest(found, expected) {
            Some(n) => format!("did you mean `{n}`?"),
            None => format!("valid here: {}", expected.join(", ")),
        }),
        ron::Error::MissingStructField { field, .. } => Some(format!(
            "add `{field}: ...`; variants/README.md describes every field"
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_the_nearest_name() {
        assert_eq!(edit_distance("en_pasant", "en_passant"), 1);
        assert_eq!(
            closest("en_pasant", &["piece", "advance", "en_passant"]),
            Some("en_passant")
        );
        assert_eq!(closest("colour", &["piece", "advance"]), None);
    }
}
