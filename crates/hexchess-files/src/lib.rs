//! The player's files: read and written so that nothing is lost and nothing hangs, on a
//! disk or in a browser page's store, through one value, [`Files`].
//!
//! The rules crate does no I/O; every program of the project reaches its files through
//! a `Files` it was given (made once at start: [`Files::disk`], or [`Files::pages`] in a
//! browser), so a test or a Web Worker can hold files of its own beside the process's:
//!
//! - [`Files::read_bytes`] / [`Files::read_text`] open **regular files only**. Opening a
//!   FIFO named like a table or a settings file would block until something writes into
//!   it, so forever; a folder or a device is refused the same way, with what it is.
//! - Reading stops at a size limit: a file far larger than the format ever needs is
//!   refused before it fills the memory.
//! - [`Files::read_text`] names the line and column of the first byte that is not UTF-8;
//!   [`hexchess_core::text::decode_latin1_fallback`] reads such bytes as Latin-1 instead
//!   (PGN's own character set), for formats where one stray byte in a comment must not
//!   cost the whole file.
//! - [`Files::write_atomic`] writes to a temporary file in the same folder and renames it
//!   over the old one, so a crash, a full disk or a refused write in the middle leaves
//!   the old file whole.
//! - [`Files::keep_aside`] moves a file that could not be read to `<name>.bad` (never
//!   over an earlier `.bad`), before anything writes a new file in its place;
//!   [`Files::copy_aside`] copies one whose values were refused, before the program
//!   writes it again.
//!
//! Above the bytes: [`variants`] loads variant files into a [`hexchess_core::Catalog`],
//! [`games`] reads and writes PGN files.

#![warn(missing_docs)]

mod disk;
mod error;
mod folders;
pub mod games;
mod store;
pub mod variants;

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use error::FileError;
pub use folders::{PAGE_CONFIG, PAGE_DATA};
pub use store::{MemoryStore, PageStore};

/// Where a program's files are: the disk, or a page's store. Cheap to clone (a store is
/// shared); every clone reads and writes the same files.
#[derive(Clone)]
pub struct Files {
    store: Option<Arc<dyn PageStore>>,
}

impl fmt::Debug for Files {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.store.is_some() {
            "Files(page store)"
        } else {
            "Files(disk)"
        })
    }
}

impl Files {
    /// The system's file system.
    pub const fn disk() -> Files {
        Files { store: None }
    }

    /// A page's store (a browser's storage, or memory in a Web Worker).
    pub fn pages(store: impl PageStore + 'static) -> Files {
        Files {
            store: Some(Arc::new(store)),
        }
    }

    /// The page store, when these files are a page's: for what only a store can do
    /// (hand a worker a file's bytes) or what only a disk can (map a table in place).
    pub fn store(&self) -> Option<&dyn PageStore> {
        self.store.as_deref()
    }

    /// Where variant files, endgame tables and the autosaved game live; `None` on a
    /// system with no home folder. On a disk see the folders' table in
    /// `folders.rs`; `HEXCHESS_DATA_DIR` puts it elsewhere.
    pub fn data_dir(&self) -> Option<PathBuf> {
        match self.store {
            Some(_) => Some(PathBuf::from(PAGE_DATA)),
            None => folders::data_dir(),
        }
    }

    /// Where the player's settings live; `None` on a system with no home folder
    /// (`HEXCHESS_CONFIG_DIR` puts it elsewhere).
    pub fn config_dir(&self) -> Option<PathBuf> {
        match self.store {
            Some(_) => Some(PathBuf::from(PAGE_CONFIG)),
            None => folders::config_dir(),
        }
    }

    /// Checks that `path` names a regular file (following links) before anything opens
    /// it: opening a FIFO for reading waits for a writer.
    pub fn check_regular(&self, path: &Path) -> Result<(), FileError> {
        match self.store() {
            Some(store) => store::read(store, path).map(|_| ()),
            None => disk::check_regular(path),
        }
    }

    /// The whole file, if it is a regular file of at most `limit` bytes.
    pub fn read_bytes(&self, path: &Path, limit: u64) -> Result<Vec<u8>, FileError> {
        let bytes = match self.store() {
            Some(store) => store::read(store, path)?,
            None => disk::read_bytes(path, limit)?,
        };
        if bytes.len() as u64 > limit {
            return Err(FileError::TooLarge {
                path: path.to_path_buf(),
                limit,
            });
        }
        Ok(bytes)
    }

    /// The whole file as UTF-8 text; the first byte that is not UTF-8 is named by line
    /// and column.
    pub fn read_text(&self, path: &Path, limit: u64) -> Result<String, FileError> {
        let bytes = self.read_bytes(path, limit)?;
        String::from_utf8(bytes).map_err(|e| {
            let offset = e.utf8_error().valid_up_to();
            let (line, column) = line_and_column(&e.as_bytes()[..offset]);
            FileError::NotUtf8 {
                path: path.to_path_buf(),
                line,
                column,
                offset,
            }
        })
    }

    /// Writes `bytes` as the new content of `path`, all or nothing: on a disk, to a new
    /// temporary file in the same folder (made if missing), flushed, then renamed over
    /// `path`; on any failure `path` is as it was. Errors do not name the file (as the
    /// system's own do not): the caller adds it.
    pub fn write_atomic(&self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        match self.store() {
            Some(store) => store.set(&store::key(path), bytes),
            None => disk::write_atomic(path, bytes),
        }
    }

    /// Removes a file (one that is not there is not an error).
    pub fn remove(&self, path: &Path) -> io::Result<()> {
        match self.store() {
            Some(store) => {
                store.remove(&store::key(path));
                Ok(())
            }
            None => disk::remove(path),
        }
    }

    /// The files directly in folder `dir` (not in its subfolders), in name order; a
    /// missing folder on a disk is an error, as the system's.
    pub fn list_dir(&self, dir: &Path) -> io::Result<Vec<PathBuf>> {
        let mut files = match self.store() {
            Some(store) => store::list_dir(store, dir),
            None => disk::list_dir(dir)?,
        };
        files.sort();
        Ok(files)
    }

    /// Whether a file is there, and when it last changed if the system says (a page
    /// store keeps no times): a reader keeps what it read until the time changes.
    pub fn stamp(&self, path: &Path) -> Option<Option<std::time::SystemTime>> {
        match self.store() {
            Some(store) => store.contains(&store::key(path)).then_some(None),
            None => disk::stamp(path),
        }
    }

    /// Moves a file that could not be read out of the way, to `<name>.bad` (or
    /// `<name>.bad.2`, `.bad.3`, ... when earlier ones are there: none is overwritten),
    /// and returns where it went. The caller tells the player.
    pub fn keep_aside(&self, path: &Path) -> io::Result<PathBuf> {
        match self.store() {
            Some(store) => {
                let aside = store::copy_aside(store, path)?;
                store.remove(&store::key(path));
                Ok(aside)
            }
            None => disk::keep_aside(path),
        }
    }

    /// Copies a file one of whose values was refused to `<name>.bad` (named as
    /// [`Files::keep_aside`] names), leaving the file itself in place for the program
    /// to rewrite: the player keeps what they wrote.
    ///
    /// A copy already there with the same bytes is named instead of made again (two
    /// values refused in one file make one copy).
    pub fn copy_aside(&self, path: &Path) -> io::Result<PathBuf> {
        match self.store() {
            Some(store) => store::copy_aside(store, path),
            None => disk::copy_aside(path),
        }
    }
}

/// The line and column (from 1, columns in characters) just after `valid`, which is
/// valid UTF-8.
fn line_and_column(valid: &[u8]) -> (usize, usize) {
    let text = std::str::from_utf8(valid).unwrap_or_default();
    let line = text.matches('\n').count() + 1;
    let column = text.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line, column)
}

/// `<name>.bad`, `<name>.bad.2`, ... `<name>.bad.999`: where files are kept aside.
fn aside_candidates(path: &Path) -> impl Iterator<Item = PathBuf> + '_ {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "file".to_string());
    (1..1000u32).map(move |n| match n {
        1 => path.with_file_name(format!("{name}.bad")),
        n => path.with_file_name(format!("{name}.bad.{n}")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("hexchess-files-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_regular_file_reads_and_a_folder_does_not() {
        let dir = folder("regular");
        let path = dir.join("a.txt");
        std::fs::write(&path, "line one\nline two\n").unwrap();
        assert_eq!(
            Files::disk().read_text(&path, 100).unwrap(),
            "line one\nline two\n"
        );
        let e = Files::disk().read_text(&dir, 100).unwrap_err();
        assert!(
            matches!(
                e,
                FileError::NotAFile {
                    what: "a folder",
                    ..
                }
            ),
            "{e}"
        );
        let missing = Files::disk().read_text(&dir.join("none"), 100).unwrap_err();
        assert!(missing.is_not_found(), "{missing}");
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_at_once_instead_of_waited_on() {
        let dir = folder("fifo");
        let path = dir.join("KRvK.htb");
        let made = std::process::Command::new("mkfifo").arg(&path).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo");
        // Were it opened, this test would block forever (nothing writes to it).
        let e = Files::disk().read_bytes(&path, 100).unwrap_err();
        assert!(e.to_string().contains("FIFO"), "{e}");
        assert!(
            Files::disk().write_atomic(&path, b"x").is_err(),
            "nor written over"
        );
    }

    #[test]
    fn a_file_over_the_limit_is_refused() {
        let dir = folder("limit");
        let path = dir.join("big");
        std::fs::write(&path, [b'x'; 101]).unwrap();
        assert!(matches!(
            Files::disk().read_bytes(&path, 100),
            Err(FileError::TooLarge { limit: 100, .. })
        ));
        assert_eq!(Files::disk().read_bytes(&path, 101).unwrap().len(), 101);
    }

    #[test]
    fn the_first_byte_that_is_not_utf8_is_named_by_line_and_column() {
        let dir = folder("utf8");
        let path = dir.join("t.pgn");
        std::fs::write(&path, b"[Event \"x\"]\n{caf\xe9}\n").unwrap();
        let e = Files::disk().read_text(&path, 1000).unwrap_err();
        assert!(
            matches!(
                e,
                FileError::NotUtf8 {
                    line: 2,
                    column: 5,
                    offset: 16,
                    ..
                }
            ),
            "{e:?}"
        );
        assert!(
            e.to_string()
                .ends_with("t.pgn:2:5: not UTF-8 text (byte 16)")
        );
    }

    #[test]
    fn an_atomic_write_replaces_the_file_and_leaves_no_temporary() {
        let dir = folder("atomic");
        let path = dir.join("games.pgn");
        std::fs::write(&path, "old").unwrap();
        Files::disk().write_atomic(&path, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        let names: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(names.len(), 1, "only the file itself");
        // A folder that does not exist yet is made.
        let deep = dir.join("a/b/c.txt");
        Files::disk().write_atomic(&deep, b"x").unwrap();
        assert_eq!(std::fs::read(&deep).unwrap(), b"x");
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_whole() {
        let dir = folder("failed");
        // The target is a folder with something in it: the rename must fail.
        let path = dir.join("settings.ron");
        std::fs::create_dir_all(path.join("inside")).unwrap();
        assert!(Files::disk().write_atomic(&path, b"new").is_err());
        assert!(path.join("inside").is_dir());
        let names: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(names.len(), 1, "no temporary left behind");
    }

    #[test]
    fn files_kept_aside_never_overwrite_each_other() {
        let dir = folder("aside");
        let path = dir.join("autosave.pgn");
        std::fs::write(&path, "first").unwrap();
        let one = Files::disk().keep_aside(&path).unwrap();
        std::fs::write(&path, "second").unwrap();
        let two = Files::disk().keep_aside(&path).unwrap();
        assert_eq!(one, dir.join("autosave.pgn.bad"));
        assert_eq!(two, dir.join("autosave.pgn.bad.2"));
        assert_eq!(std::fs::read_to_string(one).unwrap(), "first");
        assert_eq!(std::fs::read_to_string(two).unwrap(), "second");
        assert!(!path.exists());
        // A copy leaves the file where it was.
        std::fs::write(&path, "third").unwrap();
        let three = Files::disk().copy_aside(&path).unwrap();
        assert_eq!(three, dir.join("autosave.pgn.bad.3"));
        assert_eq!(std::fs::read_to_string(three).unwrap(), "third");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "third");
        // The same bytes again: the copy there is named, none made.
        assert_eq!(
            Files::disk().copy_aside(&path).unwrap(),
            dir.join("autosave.pgn.bad.3")
        );
        assert!(!dir.join("autosave.pgn.bad.4").exists());
    }
}
