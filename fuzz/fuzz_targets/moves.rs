//! Any text as a move (SAN or long algebraic) from each built-in start: refused, or a
//! legal move.
#![no_main]

use std::sync::Arc;

use hexchess_core::{Catalog, Position};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    for entry in Catalog::builtin().entries() {
        let pos = Position::start(Arc::clone(&entry.rules));
        if let Ok(mv) = pos.parse_move(text) {
            assert!(pos.legal_moves().contains(&mv));
        }
    }
});
