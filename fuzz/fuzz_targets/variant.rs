//! Any text as a variant file: refused with located problems, or rules that play.
#![no_main]

use hexchess_core::Position;
use hexchess_core::catalog::compile;
use hexchess_core::variant::parse_variant;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    match parse_variant(text, "fuzz.ron") {
        Ok(spec) => {
            if let Ok(rules) = compile(spec, "fuzz.ron") {
                Position::start(rules).perft(2);
            }
        }
        Err(e) => assert!(!e.problems().is_empty()),
    }
});
