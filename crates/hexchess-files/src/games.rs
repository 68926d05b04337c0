//! PGN files: every game of a file read through [`Files`] (regular files only, at most
//! [`MAX_FILE_BYTES`], bytes that are not UTF-8 read as Latin-1), and games written all
//! or nothing.

use std::io;
use std::path::Path;

use hexchess_core::pgn::{MAX_FILE_BYTES, PgnGame, ReadError, read_games_from_bytes, write_games};

use crate::{FileError, Files};

/// Every game of the PGN file at `path`, each read or refused on its own; the file
/// itself refused when it is not a regular file or is larger than [`MAX_FILE_BYTES`].
pub fn read_pgn(files: &Files, path: &Path) -> Result<Vec<Result<PgnGame, ReadError>>, FileError> {
    let bytes = files.read_bytes(path, MAX_FILE_BYTES)?;
    Ok(read_games_from_bytes(&bytes))
}

/// Writes `games` to the file at `path` (in UTF-8), all or nothing
/// ([`Files::write_atomic`]): a crash or a full disk in the middle leaves the file that
/// was there whole.
pub fn write_pgn(files: &Files, path: &Path, games: &[PgnGame]) -> io::Result<()> {
    files.write_atomic(path, write_games(games).as_bytes())
}
