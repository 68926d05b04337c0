//! The command's files, through [`hexchess_files`]: only regular files are read (a
//! FIFO would block the reading), each with a size limit, and every file is written
//! whole or not at all (a temporary file renamed over it), so that an interrupted run
//! never leaves half a file where a whole one was.

use std::path::Path;

use hexchess_files::{FileError, Files};

/// The command's files are the disk's: the one [`Files`] every library call here is
/// given (the rules crate reads none itself).
pub const DISK: Files = Files::disk();

/// The largest PGN file read (`review`, `tune`): 256 MiB is about a million games of
/// forty moves, more than a review or a tuning run takes; a larger file is refused
/// before it fills the memory (the games read take several times the text).
pub const MAX_PGN_BYTES: u64 = 256 << 20;

/// The largest openings file read (`match --openings`): a million openings of a FEN
/// and some moves.
pub const MAX_OPENINGS_BYTES: u64 = 128 << 20;

/// A PGN file's text: UTF-8, or Latin-1 where it is not (PGN's older character set), so
/// that one stray byte in a comment does not cost the whole file.
pub fn read_pgn(path: &Path) -> Result<String, String> {
    let bytes = DISK
        .read_bytes(path, MAX_PGN_BYTES)
        .map_err(|e| e.to_string())?;
    Ok(hexchess_core::text::decode_latin1_fallback(&bytes).into_owned())
}

/// A text file of at most `limit` bytes.
pub fn read_text(path: &Path, limit: u64) -> Result<String, String> {
    DISK.read_text(path, limit).map_err(|e| e.to_string())
}

/// Writes `bytes` as the whole new content of `path`, all or nothing
/// ([`Files::write_atomic`]); the error names the file.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), String> {
    DISK.write_atomic(path, bytes)
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// Refuses, before any work, an output path that exists and is not a regular file (a
/// FIFO, a folder): the write at the end would fail or block.
pub fn check_output(path: &Path) -> Result<(), String> {
    match DISK.check_regular(path) {
        Err(e @ FileError::NotAFile { .. }) => Err(e.to_string()),
        _ => Ok(()),
    }
}

/// Whether two paths name the same file (through links and `..` too); false when
/// either is not there.
pub fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) {
            return x.dev() == y.dev() && x.ino() == y.ino();
        }
        false
    }
    #[cfg(not(unix))]
    {
        match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
            (Ok(x), Ok(y)) => x == y,
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(name: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("hexchess-cli-disk-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn the_same_file_is_known_under_another_name() {
        let dir = folder("same");
        let file = dir.join("games.pgn");
        std::fs::write(&file, "x").unwrap();
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        assert!(same_file(&file, &dir.join("sub/../games.pgn")));
        assert!(!same_file(&file, &dir.join("other.pgn")));
        std::fs::write(dir.join("other.pgn"), "x").unwrap();
        assert!(!same_file(&file, &dir.join("other.pgn")));
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(&file, dir.join("link.pgn")).unwrap();
            assert!(same_file(&file, &dir.join("link.pgn")));
            std::fs::hard_link(&file, dir.join("hard.pgn")).unwrap();
            assert!(same_file(&file, &dir.join("hard.pgn")));
        }
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn a_pgn_file_with_a_latin1_byte_reads_and_a_write_errs_with_the_path_once() {
        let dir = folder("latin1");
        let file = dir.join("old.pgn");
        std::fs::write(&file, b"[White \"Gli\xf1ski\"]\n").unwrap();
        assert_eq!(read_pgn(&file).unwrap(), "[White \"Gliñski\"]\n");
        let err = write_file(&dir, b"x").unwrap_err();
        assert_eq!(err.matches(&dir.display().to_string()).count(), 1, "{err}");
        assert!(check_output(&dir).is_err());
        assert!(check_output(&dir.join("new.svg")).is_ok());
        std::fs::remove_dir_all(&dir).ok();
    }
}
