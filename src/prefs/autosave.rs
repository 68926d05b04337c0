//! The game in progress, kept on disk after every move, so that quitting or a crash
//! loses nothing: the next start offers to continue it.

use std::path::Path;
use std::sync::Arc;

use hexchess_core::catalog::Catalog;
use hexchess_core::game::Game;
use hexchess_core::pgn::PgnGame;
use hexchess_files::{Files, games};

use super::file::write_whole;

/// A game found in the autosave file at start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unfinished {
    pub record: PgnGame,
    /// The variant's id and the moves played, for the offer's text.
    pub variant: String,
    pub plies: usize,
}

/// The game as the file keeps it: PGN, one game.
pub fn pgn_text(record: &PgnGame) -> String {
    record.to_string()
}

/// Writes a game's text ([`pgn_text`]) whole.
pub fn write(files: &Files, path: &Path, text: &str) -> std::io::Result<()> {
    write_whole(files, path, text)
}

/// Removes the file; a file already gone is fine.
pub fn clear(files: &Files, path: &Path) -> std::io::Result<()> {
    files.remove(path)
}

/// The game in the file, if there is one worth offering: it reads, and it has moves.
/// A file that does not read is reported (and left for the player to look at). Only
/// a regular file is opened, and bytes that are not UTF-8 read as Latin-1 (PGN's own
/// character set), so one stray byte in a comment does not cost the game.
pub fn read(files: &Files, path: &Path) -> Result<Option<Unfinished>, String> {
    let games = match games::read_pgn(files, path) {
        Ok(games) => games,
        Err(e) if e.is_not_found() => return Ok(None),
        Err(e) => return Err(e.to_string()),
    };
    let game = match games.into_iter().next() {
        Some(Ok(game)) => game,
        Some(Err(e)) => return Err(format!("{}: {e}", path.display())),
        None if is_blank(files, path) => return Ok(None),
        None => return Err(format!("{}: no game in the file", path.display())),
    };
    let record = game.main_line_only();
    let plies = record.tree.main_line().len();
    if plies == 0 {
        return Ok(None);
    }
    Ok(Some(Unfinished {
        variant: game.variant().to_string(),
        plies,
        record,
    }))
}

/// Whether the file holds only white space (nothing to lose by writing over it).
fn is_blank(files: &Files, path: &Path) -> bool {
    files
        .read_bytes(path, 4096)
        .is_ok_and(|b| b.iter().all(u8::is_ascii_whitespace))
}

/// The unfinished game to offer at start, and what to tell the player. A game the
/// file holds but that cannot be read, or no longer plays by the rules of `catalog`
/// (its variant gone, a move refused), is moved aside to `autosave.pgn.bad` before
/// anything writes a new game there, and the warning says where it went.
pub fn offer_at_start(
    files: &Files,
    path: &Path,
    catalog: &Catalog,
) -> (Option<Unfinished>, Option<String>) {
    let problem = match read(files, path) {
        Ok(None) => return (None, None),
        Ok(Some(unfinished)) => match unfinished.replays(catalog) {
            Ok(()) => return (Some(unfinished), None),
            Err(e) => format!("{}: {e}", path.display()),
        },
        Err(e) => e,
    };
    let kept = match files.keep_aside(path) {
        Ok(aside) => format!("it is kept as {}", aside.display()),
        Err(e) => format!("it could not be moved aside ({e}); autosave is off"),
    };
    (
        None,
        Some(format!(
            "the unfinished game cannot be read: {problem}; {kept}"
        )),
    )
}

impl Unfinished {
    /// Whether the game plays to its end under `catalog`'s rules (a two-player game, or
    /// the turns of a game of more sides from its start).
    fn replays(&self, catalog: &Catalog) -> Result<(), String> {
        if catalog
            .get(&self.variant)
            .is_some_and(|e| e.two_player.is_some())
        {
            return self
                .record
                .replay_main_line(catalog)
                .map(|_| ())
                .map_err(|e| e.to_string());
        }
        let Some(entry) = catalog.get(&self.variant) else {
            return Err(format!("no variant '{}' loads", self.variant));
        };
        let rules = Arc::clone(entry.rules());
        let mut game = match self.record.tag("FEN") {
            Some(fen) => Game::from_fen(rules, fen).map_err(|e| format!("bad FEN: {e}"))?,
            None => Game::new(rules),
        };
        for turn in self.record.main_line_turns() {
            game.play_turn(turn).map_err(|e| format!("{turn}: {e}"))?;
        }
        Ok(())
    }
}
