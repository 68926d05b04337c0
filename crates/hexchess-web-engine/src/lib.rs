//! The engine in a browser's Web Worker.
//!
//! The worker speaks the engine's own text protocol (docs/protocol.md): the page posts
//! one command per message (`position ...`, `go depth 8`, `go perft 4`, `bench`), and
//! every line the engine writes comes back as one message. Reusing the protocol keeps
//! one engine surface for the command line, the native game, outside GUIs and the
//! browser, and lets the game's opponent read `info`/`bestmove` as any GUI does.
//!
//! A worker has no threads of its own to give a search, so the engine runs each
//! search in place ([`hexchess_engine::job::RUNS_IN_PLACE`]): a `go` must end by
//! itself (depth, nodes, time or clock), and the page stops a search it no longer
//! wants by ending the worker and starting another.

use std::io::{self, Write};
use std::sync::{Arc, Mutex};

use hexchess_core::catalog::Catalog;
use hexchess_engine::protocol::{Engine, Flow, SharedOut};

/// The hash table a browser's engine starts with, in MB: a tab shares the machine's
/// memory with everything else the browser runs (the native default is larger).
pub const WEB_HASH_MB: u32 = 16;

/// A writer that hands each complete line to `send` (without its newline), as a
/// worker posts one message per protocol line.
pub struct LineOut<F: FnMut(&str)> {
    pending: Vec<u8>,
    send: F,
}

impl<F: FnMut(&str)> LineOut<F> {
    pub fn new(send: F) -> LineOut<F> {
        LineOut {
            pending: Vec::new(),
            send,
        }
    }
}

impl<F: FnMut(&str)> Write for LineOut<F> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(bytes);
        while let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=end).collect();
            (self.send)(String::from_utf8_lossy(&line[..end]).trim_end_matches('\r'));
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The protocol engine a worker runs: the built-in variants, a small hash, one
/// thread, every line written to `send`.
pub fn web_engine(send: impl FnMut(&str) + Send + 'static) -> Engine {
    let out: SharedOut = Arc::new(Mutex::new(LineOut::new(send)));
    let mut engine = Engine::new(Catalog::builtin(), out);
    engine.handle(&format!("setoption name Hash value {WEB_HASH_MB}"));
    engine.handle("setoption name Threads value 1");
    engine
}

/// Whether the protocol asked to end (`quit`).
pub fn quits(flow: Flow) -> bool {
    matches!(flow, Flow::Quit)
}

#[cfg(target_arch = "wasm32")]
mod worker {
    //! The binding a worker script calls: `new WebEngine()`, then `handle(line)` for
    //! each message.

    use wasm_bindgen::JsCast;
    use wasm_bindgen::prelude::*;
    use web_sys::DedicatedWorkerGlobalScope;

    use hexchess_engine::protocol::Engine;

    /// Posts one line to the page that owns this worker.
    fn post(line: &str) {
        let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
        // A page that has gone away takes no messages; there is no one to tell.
        let _ = scope.post_message(&JsValue::from_str(line));
    }

    #[wasm_bindgen]
    pub struct WebEngine {
        engine: Engine,
    }

    #[wasm_bindgen]
    impl WebEngine {
        #[wasm_bindgen(constructor)]
        pub fn new() -> WebEngine {
            WebEngine {
                engine: super::web_engine(post),
            }
        }

        /// Runs one protocol line; false once it was `quit`.
        pub fn handle(&mut self, line: &str) -> bool {
            !super::quits(self.engine.handle(line))
        }
    }

    impl Default for WebEngine {
        fn default() -> WebEngine {
            WebEngine::new()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    #[test]
    fn lines_come_whole_whatever_the_writes() {
        let mut seen = Vec::new();
        let mut out = LineOut::new(|l: &str| seen.push(l.to_string()));
        out.write_all(b"info dep").unwrap();
        out.write_all(b"th 1\nbestmove e4e5\r\nhalf").unwrap();
        drop(out);
        assert_eq!(seen, ["info depth 1", "bestmove e4e5"]);
    }

    #[test]
    fn the_web_engine_answers_a_search_and_a_count_line_by_line() {
        let (tx, rx) = mpsc::channel::<String>();
        let tx = Mutex::new(tx);
        let mut engine = web_engine(move |l| {
            let _ = tx.lock().unwrap().send(l.to_string());
        });
        engine.handle("position startpos moves f5f6");
        engine.handle("go depth 3");
        engine.wait();
        engine.handle("go perft 2");
        engine.wait();
        let lines: Vec<String> = rx.try_iter().collect();
        assert!(
            lines.iter().any(|l| l.starts_with("bestmove ")),
            "{lines:?}"
        );
        // Gliński after f5-f6: 1 position, then every reply counted (checked against
        // the core's own perft below, a second way).
        let total = lines
            .iter()
            .find_map(|l| l.strip_prefix("Nodes searched: "))
            .expect("a perft total");
        let mut pos = engine.position().unwrap();
        assert_eq!(total.parse::<u64>().unwrap(), pos.perft(2));
        assert!(lines.iter().all(|l| !l.contains('\n')));
    }
}
