//! Any bytes into the protocol, read as the engine reads its input (lines that are not
//! UTF-8, NULs, lone CRs, over-long lines): the engine keeps answering `isready`.
#![no_main]

use std::sync::{Arc, Mutex};

use hexchess_core::Catalog;
use hexchess_engine::protocol::input::{Input, Lines};
use hexchess_engine::protocol::{Engine, SharedOut};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let buffer = Arc::new(Mutex::new(Vec::new()));
    let out: SharedOut = buffer.clone();
    let mut engine = Engine::new(Catalog::builtin(), out);
    // A small line limit, so that libFuzzer's inputs reach the over-long path too.
    let mut lines = Lines::new(bytes, 256);
    for _ in 0..64 {
        match lines.next_line() {
            Ok(Input::Line(line)) => {
                engine.handle(&line);
                engine.stop();
            }
            Ok(Input::Refused(_)) => {}
            Ok(Input::End) | Err(_) => break,
        }
    }
    buffer.lock().unwrap().clear();
    engine.handle("isready");
    assert_eq!(&*buffer.lock().unwrap(), b"readyok\n");
});
