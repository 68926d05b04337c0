//! Any bytes as a PGN file (not UTF-8: read as Latin-1): each game refused with its
//! number and place, or read; a game that replays is written, read and replayed again
//! to the same bytes.
#![no_main]

use hexchess_core::Catalog;
use hexchess_core::pgn::{read_games, read_games_from_bytes};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let catalog = Catalog::builtin();
    for (i, game) in read_games_from_bytes(bytes).into_iter().enumerate() {
        match game {
            Err(e) => assert_eq!(e.game, i + 1),
            Ok(mut game) => {
                if let Ok(end) = game.replay(&catalog) {
                    let written = game.to_string();
                    let mut again = read_games(&written);
                    assert_eq!(again.len(), 1);
                    let mut back = again.remove(0).expect("own PGN reads");
                    let end2 = back.replay(&catalog).expect("own PGN replays");
                    assert_eq!(back.to_string(), written);
                    assert_eq!(end2.to_fen(), end.to_fen());
                }
            }
        }
    }
});
