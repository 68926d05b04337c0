//! Files on a disk, read and written so that nothing is lost and nothing hangs.

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::FileError;

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
pub(crate) fn check_regular(path: &Path) -> Result<(), FileError> {
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

/// The whole file, if it is a regular file of at most `limit` bytes; reading stops one
/// byte past the limit, so a huge file costs no more memory than an allowed one.
pub(crate) fn read_bytes(path: &Path, limit: u64) -> Result<Vec<u8>, FileError> {
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
    Ok(bytes)
}

/// Removes a file (one that is not there is not an error).
pub(crate) fn remove(path: &Path) -> io::Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// The files directly in folder `dir`, in any order.
pub(crate) fn list_dir(dir: &Path) -> io::Result<Vec<PathBuf>> {
    Ok(std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect())
}

/// Whether a file is there, and when it last changed if the system says.
pub(crate) fn stamp(path: &Path) -> Option<Option<std::time::SystemTime>> {
    std::fs::metadata(path).ok().map(|m| m.modified().ok())
}

/// Tells temporary files of one process apart.
static TEMPORARIES: AtomicU64 = AtomicU64::new(0);

/// Writes `bytes` as the new content of `path`, all or nothing: to a new temporary file
/// in the same folder (made if missing), flushed to the disk, then renamed over `path`.
/// On any failure the temporary file is removed and `path` is as it was.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
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

/// Moves a file to the first free `<name>.bad[.N]` and says where.
pub(crate) fn keep_aside(path: &Path) -> io::Result<PathBuf> {
    let aside = free_aside_name(path)?;
    std::fs::rename(path, &aside)?;
    Ok(aside)
}

/// Copies a file to the first free `<name>.bad[.N]`, or names a copy already there with
/// the same bytes.
pub(crate) fn copy_aside(path: &Path) -> io::Result<PathBuf> {
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

/// The files kept aside so far.
fn aside_names(path: &Path) -> impl Iterator<Item = PathBuf> + '_ {
    crate::aside_candidates(path).take_while(|aside| std::fs::symlink_metadata(aside).is_ok())
}

/// The first place aside that names nothing yet.
fn free_aside_name(path: &Path) -> io::Result<PathBuf> {
    crate::aside_candidates(path)
        .find(|aside| std::fs::symlink_metadata(aside).is_err())
        .ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!("{}: 999 files kept aside already", path.display()),
            )
        })
}
