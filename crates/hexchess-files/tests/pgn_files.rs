//! PGN files read and written through [`Files`]: bytes that are not UTF-8 read as
//! Latin-1 (PGN's own character set), a folder refused with what it is, games written
//! whole or not at all.

use hexchess_core::Catalog;
use hexchess_core::pgn::{self, PgnGame};
use hexchess_files::{Files, games};

/// A folder of its own for a test's files.
fn folder(name: &str) -> std::path::PathBuf {
    let dir =
        std::env::temp_dir().join(format!("hexchess-pgn-files-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Two games in Latin-1: names in the tags, a comment, and in game 2 a word where a
/// move should be.
const LATIN1: &[u8] =
    b"[Event \"Caf\xe9\"]\n[White \"M\xfcller\"]\n\n1. f6 {tr\xe8s bien} c5 *\n\n\
[Event \"two\"]\n\n1. f6 \xe9t\xe9 *\n";

/// A file in Latin-1 reads as games, each on its own; a folder named as a game file is
/// refused with what it is.
#[test]
fn a_latin1_file_reads_and_a_folder_is_refused() {
    let files = Files::disk();
    let dir = folder("latin1");
    let path = dir.join("games.pgn");
    std::fs::write(&path, LATIN1).unwrap();
    let from_file = games::read_pgn(&files, &path).unwrap();
    assert_eq!(from_file.len(), 2);
    assert_eq!(from_file[0].as_ref().unwrap().tag("Event"), Some("Café"));
    assert_eq!(from_file[0].as_ref().unwrap().tag("White"), Some("Müller"));
    assert!(
        from_file[1].is_ok(),
        "read; its wrong move is the replay's to find"
    );
    assert!(matches!(
        games::read_pgn(&files, &dir),
        Err(e) if e.to_string().contains("a folder")
    ));
}

/// Games saved to a file read back the same; the file is written whole
/// or not at all (see `Files::write_atomic`).
#[test]
fn games_saved_to_a_file_read_back_the_same() {
    let catalog = Catalog::builtin();
    let files = Files::disk();
    let dir = folder("save");
    let mut pgn_games: Vec<PgnGame> = pgn::read_games_from_bytes(LATIN1)
        .into_iter()
        .take(1)
        .map(Result::unwrap)
        .collect();
    pgn_games[0].replay(&catalog).unwrap();
    let path = dir.join("games.pgn");
    std::fs::write(&path, "old").unwrap();
    games::write_pgn(&files, &path, &pgn_games).unwrap();
    let back: Vec<PgnGame> = games::read_pgn(&files, &path)
        .unwrap()
        .into_iter()
        .map(Result::unwrap)
        .collect();
    assert_eq!(back, pgn_games);
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        1,
        "no temporary left"
    );
}
