//! Any text as a game record: refused, or a game that replays.
#![no_main]

use hexchess_core::Catalog;
use hexchess_core::record::GameRecord;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Ok(record) = GameRecord::parse(text)
        && let Ok(pos) = record.replay(&Catalog::builtin())
    {
        assert_eq!(pos.hash(), pos.compute_hash());
    }
});
