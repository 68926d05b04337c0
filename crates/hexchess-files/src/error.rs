//! Why a file could not be read.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// Why a file could not be read.
#[derive(Debug)]
pub enum FileError {
    /// The system refused (missing file, no permission, ...).
    Io {
        /// The file.
        path: PathBuf,
        /// The system's own error.
        error: io::Error,
    },
    /// Not a regular file: a FIFO, a folder, a device or a socket (`what` says which).
    NotAFile {
        /// The path that names something else.
        path: PathBuf,
        /// What it names ("a folder", "a FIFO (named pipe)", ...).
        what: &'static str,
    },
    /// Larger than the reader accepts.
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The most bytes the reader takes.
        limit: u64,
    },
    /// A byte sequence that is not UTF-8, at this line and column (both from 1; the
    /// column counts characters) and byte offset (from 0).
    NotUtf8 {
        /// The file.
        path: PathBuf,
        /// The line of the first byte that is not UTF-8, from 1.
        line: usize,
        /// Its column in characters, from 1.
        column: usize,
        /// Its offset in bytes, from 0.
        offset: usize,
    },
}

impl FileError {
    /// The file the error is about.
    pub fn path(&self) -> &Path {
        match self {
            FileError::Io { path, .. }
            | FileError::NotAFile { path, .. }
            | FileError::TooLarge { path, .. }
            | FileError::NotUtf8 { path, .. } => path,
        }
    }

    /// Whether the file is simply not there (often not an error for the caller).
    pub fn is_not_found(&self) -> bool {
        matches!(self, FileError::Io { error, .. } if error.kind() == io::ErrorKind::NotFound)
    }

    /// A file that is not there (a page store's answer, worded as the system's).
    pub(crate) fn not_found(path: &Path) -> FileError {
        FileError::Io {
            path: path.to_path_buf(),
            error: io::Error::new(io::ErrorKind::NotFound, "No such file or directory"),
        }
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            FileError::NotAFile { path, what } => {
                write!(f, "{}: {what}, not a regular file", path.display())
            }
            FileError::TooLarge { path, limit } => write!(
                f,
                "{}: larger than {} bytes, more than this file can hold",
                path.display(),
                limit
            ),
            FileError::NotUtf8 {
                path,
                line,
                column,
                offset,
            } => write!(
                f,
                "{}:{line}:{column}: not UTF-8 text (byte {offset})",
                path.display()
            ),
        }
    }
}

impl std::error::Error for FileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FileError::Io { error, .. } => Some(error),
            _ => None,
        }
    }
}
