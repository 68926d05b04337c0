//! The game in progress, kept on disk after every move, so that quitting or a crash
//! loses nothing: the next start offers to continue it.

use std::path::Path;

use hexchess_core::pgn::read_games;
use hexchess_core::record::GameRecord;

use super::file::write_whole;

/// A game found in the autosave file at start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unfinished {
    pub record: GameRecord,
    /// The variant's id and the moves played, for the offer's text.
    pub variant: String,
    pub plies: usize,
}

/// The game as the file keeps it: PGN, one game.
pub fn pgn_text(record: &GameRecord) -> String {
    record.to_pgn().to_string()
}

/// Writes a game's text ([`pgn_text`]) whole.
pub fn write(path: &Path, text: &str) -> std::io::Result<()> {
    write_whole(path, text)
}

/// Removes the file; a file already gone is fine.
pub fn clear(path: &Path) -> std::io::Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// The game in the file, if there is one worth offering: it reads, and it has moves.
/// A file that does not read is reported (and left for the player to look at).
pub fn read(path: &Path) -> Result<Option<Unfinished>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let game = match read_games(&text).into_iter().next() {
        Some(Ok(game)) => game,
        Some(Err(e)) => return Err(format!("{}: {e}", path.display())),
        None => return Ok(None),
    };
    let record = GameRecord::from(&game);
    if record.moves.is_empty() {
        return Ok(None);
    }
    Ok(Some(Unfinished {
        variant: game.variant().to_string(),
        plies: record.moves.len(),
        record,
    }))
}
