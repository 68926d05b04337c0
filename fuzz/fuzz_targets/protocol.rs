//! Any lines into the protocol: the engine keeps answering `isready`.
#![no_main]

use std::sync::{Arc, Mutex};

use hexchess_core::Catalog;
use hexchess_engine::protocol::{Engine, SharedOut};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let buffer = Arc::new(Mutex::new(Vec::new()));
    let out: SharedOut = buffer.clone();
    let mut engine = Engine::new(Catalog::builtin(), out);
    for line in text.lines().take(64) {
        engine.handle(line);
        engine.stop();
    }
    buffer.lock().unwrap().clear();
    engine.handle("isready");
    assert_eq!(&*buffer.lock().unwrap(), b"readyok\n");
});
