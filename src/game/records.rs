//! Saving and loading games as PGN records (a game kept is a [`hexchess_core::pgn::PgnGame`] whose main line is the game).

use std::path::{Path, PathBuf};
use web_time::{SystemTime, UNIX_EPOCH};

use hexchess_core::pgn::PgnGame;
use hexchess_files::{Files, games};

use crate::game::CurrentGame;

/// Who played, as the record names them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Players {
    pub white: String,
    pub black: String,
    /// A game of more sides: who sits in each seat (a `Seats` tag's words, in seat
    /// order), so that the game opens again at the same table.
    pub seats: Vec<String>,
}

/// Today's date as a record writes it: `2026.11.22`.
pub fn record_date(now: SystemTime) -> String {
    let days = now
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() / 86_400)
        .unwrap_or(0) as i64;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The record of the game so far, with the players' names, and how it ended when it
/// has (the standard's `Termination` and the reason as a last comment).
pub fn game_record(game: &CurrentGame, players: &Players) -> PgnGame {
    let mut record = tagged(game, players);
    match game.outcome() {
        Some(outcome) => record.set_outcome(&outcome),
        None => record.set_tag("Result", "*"),
    }
    record
}

/// The game's main line so far with its tags (the players' names, the date, the
/// seats of a table); no result yet.
fn tagged(game: &CurrentGame, players: &Players) -> PgnGame {
    let mut r = PgnGame::from_game(
        &game.played,
        game.start_fen.as_deref(),
        &[
            ("Date", record_date(SystemTime::now())),
            ("White", players.white.clone()),
            ("Black", players.black.clone()),
        ],
    );
    if game.has_more_sides() && !players.seats.is_empty() {
        let words = &players.seats[..players.seats.len().min(game.side_count())];
        r.set_tag("Seats", words.join(","));
    }
    r
}

/// The game as PGN: the record's tags and moves, and how it ended (the standard's
/// `Termination` and the reason as a last comment).
pub fn game_pgn(game: &CurrentGame, players: &Players) -> PgnGame {
    game_pgn_with(game, players, None)
}

/// [`game_pgn`] with the moves of `tree` (side lines and comments) in place of the
/// game's line. The ending is written only when the game's line is the tree's main
/// line (else the result is `*`: the file's main line did not end so).
pub fn game_pgn_with(
    game: &CurrentGame,
    players: &Players,
    tree: Option<&hexchess_core::pgn::GameTree>,
) -> PgnGame {
    let mut pgn = tagged(game, players);
    pgn.set_tag("Result", "*");
    if let Some(tree) = tree {
        let main: Vec<&str> = tree.main_line().into_iter().map(|n| tree.san(n)).collect();
        let same_line = main == game.move_texts();
        pgn.tree = tree.clone();
        if !same_line {
            return pgn;
        }
    }
    if let Some(outcome) = game.outcome() {
        pgn.set_outcome(&outcome);
    }
    pgn
}

/// Where saved games go by default: `games/` in the per-user data folder (the working
/// directory where there is none).
pub fn games_dir(files: &Files) -> PathBuf {
    files
        .data_dir()
        .map(|d| d.join("games"))
        .unwrap_or_else(|| PathBuf::from("."))
}

/// A fresh file name in `dir` for a saved game of `variant` (`<variant>-<date>-<n>.pgn`).
pub fn fresh_save_path(files: &Files, dir: &Path, variant: &str) -> PathBuf {
    let date = record_date(SystemTime::now()).replace('.', "-");
    for n in 1.. {
        let p = dir.join(format!("{variant}-{date}-{n}.pgn"));
        if files.stamp(&p).is_none() {
            return p;
        }
    }
    unreachable!("some file name is free")
}

/// Writes a game as PGN, making its folder if needed: whole or not at all (a temporary
/// file renamed over the old one), so a failed save never costs the file it replaces.
pub fn save_pgn(files: &Files, path: &Path, pgn: &PgnGame) -> Result<(), String> {
    games::write_pgn(files, path, std::slice::from_ref(pgn))
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// A record replayed into the game on the board (any number of sides), or why it does
/// not replay.
pub fn replay(record: &PgnGame, catalog: &hexchess_core::Catalog) -> Result<CurrentGame, String> {
    let game = record
        .replay_main_line(catalog)
        .map_err(|e| e.to_string())?;
    let id = game.position().rules().id().to_string();
    let entry = catalog
        .get(&id)
        .ok_or_else(|| format!("unknown variant '{id}'"))?;
    Ok(CurrentGame::of(
        game,
        entry,
        record.tag("FEN").map(str::to_string),
    ))
}

/// Game `number` (from 1) of a game file, or its only game; a file of several games
/// without a number, or a number it does not have, is refused with how many it holds.
pub fn load(files: &Files, path: &Path, number: Option<usize>) -> Result<PgnGame, String> {
    let name = path.display();
    let mut games = games::read_pgn(files, path).map_err(|e| e.to_string())?;
    let count = games.len();
    let index = match (number, count) {
        (_, 0) => return Err(format!("{name}: no game in the file")),
        (None, 1) => 0,
        (None, n) => return Err(format!("{name} holds {n} games: choose one with --game N")),
        (Some(k), n) if (1..=n).contains(&k) => k - 1,
        (Some(k), n) => return Err(format!("{name} holds {n} games, so no game {k}")),
    };
    games.swap_remove(index).map_err(|e| format!("{name}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn dates_are_civil_dates() {
        assert_eq!(record_date(UNIX_EPOCH), "1970.01.01");
        assert_eq!(
            record_date(UNIX_EPOCH + Duration::from_secs(1_795_305_600)),
            "2026.11.22"
        );
        assert_eq!(
            record_date(UNIX_EPOCH + Duration::from_secs(951_782_400)),
            "2000.02.29"
        );
    }
}
