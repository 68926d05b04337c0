//! Saving and loading games as text records (see [`hexchess_core::record`]).

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use hexchess_core::record::GameRecord;

use crate::game::GameState;

/// Who played, as the record names them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Players {
    pub white: String,
    pub black: String,
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

/// The record of the game so far, with the players' names.
pub fn game_record(game: &GameState, players: &Players) -> GameRecord {
    let mut r = GameRecord::from_position(
        &game.position,
        game.start_fen.as_deref(),
        &[
            ("Date", record_date(SystemTime::now())),
            ("White", players.white.clone()),
            ("Black", players.black.clone()),
        ],
    );
    match game.outcome() {
        Some(o) => {
            r.set_tag("Result", o.result_text());
            r.set_tag("Termination", o.termination.to_string());
        }
        None => r.set_tag("Result", "*"),
    }
    r
}

/// A fresh file name in `dir` for a saved game.
pub fn default_save_path(dir: &Path, game: &GameState) -> PathBuf {
    let date = record_date(SystemTime::now()).replace('.', "-");
    for n in 1.. {
        let p = dir.join(format!("{}-{date}-{n}.txt", game.rules().id()));
        if !p.exists() {
            return p;
        }
    }
    unreachable!("some file name is free")
}

pub fn save(path: &Path, record: &GameRecord) -> Result<(), String> {
    std::fs::write(path, record.to_string()).map_err(|e| format!("{}: {e}", path.display()))
}

pub fn load(path: &Path) -> Result<GameRecord, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    GameRecord::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
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
