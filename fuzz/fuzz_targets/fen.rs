//! Any text as a hex FEN in every built-in variant: refused, or a position that works.
#![no_main]

use std::sync::Arc;

use hexchess_core::{Catalog, Position};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    for entry in Catalog::builtin().entries() {
        if let Ok(mut pos) = Position::from_fen(Arc::clone(&entry.rules), text) {
            let fen = pos.to_fen();
            let again = Position::from_fen(Arc::clone(&entry.rules), &fen).expect("own FEN reads");
            assert_eq!(again.to_fen(), fen);
            assert_eq!(pos.hash(), pos.compute_hash());
            pos.perft(1);
        }
    }
});
