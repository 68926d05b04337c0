//! Reading and writing the player's files so that nothing is lost and nothing hangs.
//!
//! Every program of the project reads and writes its files through here:
//!
//! - [`read_bytes`] / [`read_text`] open **regular files only**. Opening a FIFO named
//!   like a table or a settings file would block until something writes into it, so
//!   forever; a folder or a device is refused the same way, with what it is.
//! - Reading stops at a size limit: a file far larger than the format ever needs is
//!   refused before it fills the memory.
//! - [`read_text`] names the line and column of the first byte that is not UTF-8;
//!   [`decode_latin1_fallback`] reads such bytes as Latin-1 instead (PGN's own
//!   character set), for formats where one stray byte in a comment must not cost the
//!   whole file.
//! - [`write_atomic`] writes to a temporary file in the same folder and renames it over
//!   the old one, so a crash, a full disk or a refused write in the middle leaves the old
//!   file whole.
//! - [`keep_aside`] moves a file that could not be read to `<name>.bad` (never over an
//!   earlier `.bad`), before anything writes a new file in its place; [`copy_aside`]
//!   copies one whose values were refused, before the program writes it again.

use std::borrow::Cow;
use std::fmt;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

/// Where files live on a system with no file system of its own (a browser page): a
/// key for each path (its text) and the file's bytes. The program installs one at
/// start ([`use_page_store`]); every read and write of this module then goes to it,
/// so settings, autosave, uploaded games and variants, and saved games work there
/// as files do elsewhere, with the same checks and errors.
pub trait PageStore: Send + Sync {
    /// The file's bytes, if it is there.
    fn get(&self, key: &str) -> Option<Vec<u8>>;
    /// Writes the whole file (or fails, leaving it as it was).
    fn set(&self, key: &str, bytes: &[u8]) -> io::Result<()>;
    fn remove(&self, key: &str);
    /// Every key that starts with `prefix`, in any order (a folder's listing).
    fn keys(&self, prefix: &str) -> Vec<String>;
    /// Whether the file is there (without copying it out, where the store can).
    fn contains(&self, key: &str) -> bool {
        self.get(key).is_some()
    }
}

/// A page store in memory, gone with the process: a Web Worker's files (the tables
/// and variant files the page hands it), or files a page keeps only while it is open.
#[derive(Debug, Default)]
pub struct MemoryStore(std::sync::Mutex<std::collections::HashMap<String, Vec<u8>>>);

impl MemoryStore {
    fn files(&self) -> std::sync::MutexGuard<'_, std::collections::HashMap<String, Vec<u8>>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl PageStore for MemoryStore {
    fn get(&self, key: &str) -> Option<Vec<u8>> {
        self.files().get(key).cloned()
    }
    fn set(&self, key: &str, bytes: &[u8]) -> io::Result<()> {
        self.files().insert(key.to_string(), bytes.to_vec());
        Ok(())
    }
    fn remove(&self, key: &str) {
        self.files().remove(key);
    }
    fn keys(&self, prefix: &str) -> Vec<String> {
        self.files()
            .keys()
            .filter(|k| k.starts_with(prefix))
            .cloned()
            .collect()
    }
    fn contains(&self, key: &str) -> bool {
        self.files().contains_key(key)
    }
}

static PAGE_STORE: OnceLock<Box<dyn PageStore>> = OnceLock::new();

/// Sends every file of this module to `store` from now on (once; later calls are
/// ignored and return false).
pub fn use_page_store(store: Box<dyn PageStore>) -> bool {
    PAGE_STORE.set(store).is_ok()
}

/// The page store, when one is installed.
pub fn page_store() -> Option<&'static dyn PageStore> {
    PAGE_STORE.get().map(|b| b.as_ref())
}

fn key(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

fn not_in_store(path: &Path) -> FileError {
    FileError::Io {
        path: path.to_path_buf(),
        error: io::Error::new(io::ErrorKind::NotFound, "No such file or directory"),
    }
}

/// Removes a file (one that is not there is not an error).
pub fn remove(path: &Path) -> io::Result<()> {
    if let Some(store) = page_store() {
        store.remove(&key(path));
        return Ok(());
    }
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// The files directly in folder `dir` (not in its subfolders), in name order; a
/// missing folder is an error, as the system's.
pub fn list_dir(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = if let Some(store) = page_store() {
        let prefix = format!("{}/", key(dir).trim_end_matches('/'));
        store
            .keys(&prefix)
            .into_iter()
            .filter(|k| !k[prefix.len()..].contains('/'))
            .map(PathBuf::from)
            .collect()
    } else {
        std::fs::read_dir(dir)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect()
    };
    files.sort();
    Ok(files)
}

/// Whether a file is there, and when it last changed if the system says (a page store
/// keeps no times): a reader keeps what it read until the time changes.
pub fn stamp(path: &Path) -> Option<Option<std::time::SystemTime>> {
    if let Some(store) = page_store() {
        return store.contains(&key(path)).then_some(None);
    }
    std::fs::metadata(path).ok().map(|m| m.modified().ok())
}

/// Why a file could not be read.
#[derive(Debug)]
pub enum FileError {
    /// The system refused (missing file, no permission, ...).
    Io { path: PathBuf, error: io::Error },
    /// Not a regular file: a FIFO, a folder, a device or a socket (`what` says which).
    NotAFile { path: PathBuf, what: &'static str },
    /// Larger than the reader accepts.
    TooLarge { path: PathBuf, limit: u64 },
    /// A byte sequence that is not UTF-8, at this line and column (both from 1; the
    /// column counts characters) and byte offset (from 0).
    NotUtf8 {
        path: PathBuf,
        line: usize,
        column: usize,
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

/// What a path names, when it is not a regular file.
fn not_a_file(meta: &std::fs::Metadata) -> Option<&'static str> {
    let kind = meta.file_type();
    if kind.is_file() {
        return None;
    }
    if kind.is_dir() {
        return Some("a folder");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return Some("a FIFO (named pipe)");
        }
        if kind.is_socket() {
            return Some("a socket");
        }
        if kind.is_block_device() || kind.is_char_device() {
            return Some("a device");
        }
    }
    Some("not a file")
}

/// Checks that `path` names a regular file (following links) before anything opens it:
/// opening a FIFO for reading waits for a writer.
pub fn check_regular(path: &Path) -> Result<(), FileError> {
    if let Some(store) = page_store() {
        return match store.get(&key(path)) {
            Some(_) => Ok(()),
            None => Err(not_in_store(path)),
        };
    }
    let meta = std::fs::metadata(path).map_err(|error| FileError::Io {
        path: path.to_path_buf(),
        error,
    })?;
    match not_a_file(&meta) {
        None => Ok(()),
        Some(what) => Err(FileError::NotAFile {
            path: path.to_path_buf(),
            what,
        }),
    }
}

/// The whole file, if it is a regular file of at most `limit` bytes.
pub fn read_bytes(path: &Path, limit: u64) -> Result<Vec<u8>, FileError> {
    if let Some(store) = page_store() {
        let bytes = store.get(&key(path)).ok_or_else(|| not_in_store(path))?;
        if bytes.len() as u64 > limit {
            return Err(FileError::TooLarge {
                path: path.to_path_buf(),
                limit,
            });
        }
        return Ok(bytes);
    }
    check_regular(path)?;
    let io = |error| FileError::Io {
        path: path.to_path_buf(),
        error,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > limit {
        return Err(FileError::TooLarge {
            path: path.to_path_buf(),
            limit,
        });
    }
    Ok(bytes)
}

/// The whole file as UTF-8 text; the first byte that is not UTF-8 is named by line and
/// column.
pub fn read_text(path: &Path, limit: u64) -> Result<String, FileError> {
    let bytes = read_bytes(path, limit)?;
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

/// `text` without a leading byte order mark (U+FEFF), which Windows Notepad (and other
/// editors) write at the start of a file saved as UTF-8. Editors hide the mark, but the
/// project's parsers would read it as a stray character before the first line (RON:
/// "Expected opening `(`" at 1:1, in a file whose text is fine); so every reader of a
/// text format strips it before parsing. Line and column numbers of later errors
/// are then the ones the editor shows, which does not count the hidden mark. Only the
/// first one goes: a second is not a mark but a character of the text.
pub fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// The line and column (from 1, columns in characters) just after `valid`, which is
/// valid UTF-8.
fn line_and_column(valid: &[u8]) -> (usize, usize) {
    let text = std::str::from_utf8(valid).unwrap_or_default();
    let line = text.matches('\n').count() + 1;
    let column = text.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line, column)
}

/// Text from bytes that should be UTF-8: valid UTF-8 as it is, and each byte of an
/// invalid sequence as the Latin-1 character of that value (`0xE9` is `é`). PGN files
/// were Latin-1 before they were UTF-8, so this reads both, and reads a UTF-8 file
/// with one stray byte without losing the rest.
pub fn decode_latin1_fallback(bytes: &[u8]) -> Cow<'_, str> {
    if let Ok(text) = std::str::from_utf8(bytes) {
        return Cow::Borrowed(text);
    }
    let mut text = String::with_capacity(bytes.len() + 16);
    for chunk in bytes.utf8_chunks() {
        text.push_str(chunk.valid());
        text.extend(chunk.invalid().iter().map(|&b| char::from(b)));
    }
    Cow::Owned(text)
}

/// Tells temporary files of one process apart.
static TEMPORARIES: AtomicU64 = AtomicU64::new(0);

/// Writes `bytes` as the new content of `path`, all or nothing: to a new temporary file
/// in the same folder (made if missing), flushed to the disk, then renamed over `path`.
/// On any failure the temporary file is removed and `path` is as it was. Errors do not
/// name the file (as the system's own do not): the caller adds it.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    if let Some(store) = page_store() {
        return store.set(&key(path), bytes);
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&dir)?;
    if let Ok(meta) = std::fs::metadata(path)
        && let Some(what) = not_a_file(&meta)
    {
        // Without the path, as the system's own errors: the caller names the file.
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{what}, not a regular file"),
        ));
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "file".to_string());
    let tmp = dir.join(format!(
        ".{name}.{}.{}.tmp",
        std::process::id(),
        TEMPORARIES.fetch_add(1, Ordering::Relaxed)
    ));
    let written = (|| {
        {
            let mut file = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&tmp)?;
            file.write_all(bytes)?;
            file.sync_all()?;
        } // Closed before the rename: Windows renames no open file.
        std::fs::rename(&tmp, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// Moves a file that could not be read out of the way, to `<name>.bad` (or
/// `<name>.bad.2`, `.bad.3`, ... when earlier ones are there: none is overwritten), and
/// returns where it went. The caller tells the player.
pub fn keep_aside(path: &Path) -> io::Result<PathBuf> {
    if let Some(store) = page_store() {
        let aside = copy_aside_in_store(store, path)?;
        store.remove(&key(path));
        return Ok(aside);
    }
    let aside = free_aside_name(path)?;
    std::fs::rename(path, &aside)?;
    Ok(aside)
}

/// Copies a file one of whose values was refused to `<name>.bad` (named as
/// [`keep_aside`] names), leaving the file itself in place for the program to rewrite:
/// the player keeps what they wrote.
///
/// A copy already there with the same bytes is named instead of made again (two values
/// refused in one file make one copy).
pub fn copy_aside(path: &Path) -> io::Result<PathBuf> {
    if let Some(store) = page_store() {
        return copy_aside_in_store(store, path);
    }
    check_regular(path).map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e.to_string()))?;
    let bytes = std::fs::read(path)?;
    if let Some(same) =
        aside_names(path).find(|aside| std::fs::read(aside).is_ok_and(|b| b == bytes))
    {
        return Ok(same);
    }
    let aside = free_aside_name(path)?;
    write_atomic(&aside, &bytes)?;
    Ok(aside)
}

/// In a page store, the file copied to `<name>.bad` (one copy, the latest: a page's
/// storage has no room to keep every refused version).
fn copy_aside_in_store(store: &dyn PageStore, path: &Path) -> io::Result<PathBuf> {
    let bytes = store.get(&key(path)).unwrap_or_default();
    let aside = aside_candidates(path)
        .next()
        .unwrap_or_else(|| path.with_extension("bad"));
    store.set(&key(&aside), &bytes)?;
    Ok(aside)
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

/// The files kept aside so far.
fn aside_names(path: &Path) -> impl Iterator<Item = PathBuf> + '_ {
    aside_candidates(path).take_while(|aside| std::fs::symlink_metadata(aside).is_ok())
}

/// The first place aside that names nothing yet.
fn free_aside_name(path: &Path) -> io::Result<PathBuf> {
    aside_candidates(path)
        .find(|aside| std::fs::symlink_metadata(aside).is_err())
        .ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!("{}: 999 files kept aside already", path.display()),
            )
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
        assert_eq!(read_text(&path, 100).unwrap(), "line one\nline two\n");
        let e = read_text(&dir, 100).unwrap_err();
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
        let missing = read_text(&dir.join("none"), 100).unwrap_err();
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
        let e = read_bytes(&path, 100).unwrap_err();
        assert!(e.to_string().contains("FIFO"), "{e}");
        assert!(write_atomic(&path, b"x").is_err(), "nor written over");
    }

    #[test]
    fn a_file_over_the_limit_is_refused() {
        let dir = folder("limit");
        let path = dir.join("big");
        std::fs::write(&path, [b'x'; 101]).unwrap();
        assert!(matches!(
            read_bytes(&path, 100),
            Err(FileError::TooLarge { limit: 100, .. })
        ));
        assert_eq!(read_bytes(&path, 101).unwrap().len(), 101);
    }

    #[test]
    fn the_first_byte_that_is_not_utf8_is_named_by_line_and_column() {
        let dir = folder("utf8");
        let path = dir.join("t.pgn");
        std::fs::write(&path, b"[Event \"x\"]\n{caf\xe9}\n").unwrap();
        let e = read_text(&path, 1000).unwrap_err();
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
    fn one_leading_byte_order_mark_is_stripped_and_nothing_else() {
        assert_eq!(strip_bom("\u{feff}(view: TwoD)\n"), "(view: TwoD)\n");
        assert_eq!(strip_bom("(view: TwoD)"), "(view: TwoD)");
        assert_eq!(strip_bom("\u{feff}\u{feff}x"), "\u{feff}x");
        assert_eq!(strip_bom("x\u{feff}"), "x\u{feff}");
        assert_eq!(strip_bom(""), "");
    }

    #[test]
    fn latin1_bytes_read_as_their_characters_and_utf8_stays_as_it_is() {
        assert_eq!(decode_latin1_fallback(b"caf\xe9 \xff"), "café ÿ");
        assert_eq!(decode_latin1_fallback("café".as_bytes()), "café");
        assert!(matches!(
            decode_latin1_fallback("ok".as_bytes()),
            Cow::Borrowed(_)
        ));
        // A valid sequence after an invalid one is kept whole.
        assert_eq!(decode_latin1_fallback(b"\xc3(\xc3\xa9"), "Ã(é");
    }

    #[test]
    fn an_atomic_write_replaces_the_file_and_leaves_no_temporary() {
        let dir = folder("atomic");
        let path = dir.join("games.pgn");
        std::fs::write(&path, "old").unwrap();
        write_atomic(&path, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        let names: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(names.len(), 1, "only the file itself");
        // A folder that does not exist yet is made.
        let deep = dir.join("a/b/c.txt");
        write_atomic(&deep, b"x").unwrap();
        assert_eq!(std::fs::read(&deep).unwrap(), b"x");
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_whole() {
        let dir = folder("failed");
        // The target is a folder with something in it: the rename must fail.
        let path = dir.join("settings.ron");
        std::fs::create_dir_all(path.join("inside")).unwrap();
        assert!(write_atomic(&path, b"new").is_err());
        assert!(path.join("inside").is_dir());
        let names: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(names.len(), 1, "no temporary left behind");
    }

    #[test]
    fn files_kept_aside_never_overwrite_each_other() {
        let dir = folder("aside");
        let path = dir.join("autosave.pgn");
        std::fs::write(&path, "first").unwrap();
        let one = keep_aside(&path).unwrap();
        std::fs::write(&path, "second").unwrap();
        let two = keep_aside(&path).unwrap();
        assert_eq!(one, dir.join("autosave.pgn.bad"));
        assert_eq!(two, dir.join("autosave.pgn.bad.2"));
        assert_eq!(std::fs::read_to_string(one).unwrap(), "first");
        assert_eq!(std::fs::read_to_string(two).unwrap(), "second");
        assert!(!path.exists());
        // A copy leaves the file where it was.
        std::fs::write(&path, "third").unwrap();
        let three = copy_aside(&path).unwrap();
        assert_eq!(three, dir.join("autosave.pgn.bad.3"));
        assert_eq!(std::fs::read_to_string(three).unwrap(), "third");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "third");
        // The same bytes again: the copy there is named, none made.
        assert_eq!(copy_aside(&path).unwrap(), dir.join("autosave.pgn.bad.3"));
        assert!(!dir.join("autosave.pgn.bad.4").exists());
    }
}
