//! A protocol session for the integration tests: an engine writing into a buffer the
//! test reads back. (Each test file uses part of it.)
#![allow(dead_code)]

use std::sync::{Arc, Mutex};

use hexchess_core::Catalog;
use hexchess_engine::protocol::{Engine, SharedOut};
use hexchess_files::Files;

pub struct Session {
    pub engine: Engine,
    buffer: Arc<Mutex<Vec<u8>>>,
}

impl Session {
    pub fn new() -> Session {
        let buffer = Arc::new(Mutex::new(Vec::new()));
        let out: SharedOut = buffer.clone();
        Session {
            engine: Engine::new(Catalog::builtin(), Files::disk(), out),
            buffer,
        }
    }

    /// Everything the engine has written since the last call.
    pub fn take(&mut self) -> String {
        let mut b = self.buffer.lock().unwrap();
        String::from_utf8_lossy(&std::mem::take(&mut *b)).into_owned()
    }

    /// Sends `lines`, waits for a search they start to end, and gives the replies.
    pub fn run(&mut self, lines: &[&str]) -> String {
        for l in lines {
            self.engine.handle(l);
        }
        self.engine.wait();
        self.take()
    }
}
