//! Any text as a kept game: each game refused, or its main line replayed into a
//! consistent game.
#![no_main]

use hexchess_core::Catalog;
use hexchess_core::pgn::read_games;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    for game in read_games(text).into_iter().flatten() {
        if let Ok(played) = game.replay_main_line(&Catalog::builtin()) {
            let pos = played.position();
            assert_eq!(pos.hash(), pos.compute_hash());
        }
    }
});
