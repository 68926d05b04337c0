//! Errors from reading a variant file, written for the person who edits it.

use std::fmt;

/// One thing wrong with a variant that parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// 1-based line and column of the offending value, when it could be located.
    pub line: Option<usize>,
    pub column: Option<usize>,
    /// Where in the file's structure, such as `setup.white[2]`.
    pub path: String,
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let (Some(l), Some(c)) = (self.line, self.column) {
            write!(f, "{l}:{c}: ")?;
        }
        if !self.path.is_empty() {
            write!(f, "{}: ", self.path)?;
        }
        f.write_str(&self.message)
    }
}

/// Why a variant could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VariantError {
    /// The file could not be read.
    Io { file: String, message: String },
    /// The text is not valid RON for the schema (bad syntax, unknown field, wrong type).
    Syntax {
        file: String,
        line: usize,
        column: usize,
        message: String,
    },
    /// The file parsed but describes a variant that cannot be played.
    Invalid {
        file: String,
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
            }],
            VariantError::Syntax {
                line,
                column,
                message,
                ..
            } => vec![Problem {
                line: Some(*line),
                column: Some(*column),
                path: String::new(),
                message: message.clone(),
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
            } => write!(f, "{file}:{line}:{column}: {message}"),
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
