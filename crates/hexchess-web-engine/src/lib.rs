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

#![warn(missing_docs)]

use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

use hexchess_core::catalog::Catalog;
use hexchess_engine::protocol::{Engine, Flow, SharedOut};
use hexchess_files::Files;
use hexchess_tablebase::{Material, TableFolder, build_missing};

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
    /// Output that hands each whole line to `send`.
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
/// thread, its files in `files` (the worker's memory: what the page hands it), every
/// line written to `send`.
pub fn web_engine(files: Files, send: impl FnMut(&str) + Send + 'static) -> Engine {
    let out: SharedOut = Arc::new(Mutex::new(LineOut::new(send)));
    let mut engine = Engine::new(Catalog::builtin(), files, out);
    engine.handle(&format!("setoption name Hash value {WEB_HASH_MB}"));
    engine.handle("setoption name Threads value 1");
    engine
}

/// Whether the protocol asked to end (`quit`).
pub fn quits(flow: Flow) -> bool {
    matches!(flow, Flow::Quit)
}

/// Builds the endgame tables the trainer's `ending` of `variant` needs into `dir`
/// (those already there are kept), telling `tell` each progress line as
/// `info string tables ...` and `written` each file made; ends with
/// `info string tables done` or an `info string error: tables: ...` line.
///
/// The page asks a worker of its own for this, so the frames go on while it builds;
/// the files come back to the page, which hands them to every engine worker.
pub fn build_tables(
    engine: &Engine,
    variant: &str,
    ending: &str,
    dir: &Path,
    tell: &mut dyn FnMut(&str),
    written: &mut dyn FnMut(&Path),
) {
    let built = engine
        .catalog()
        .get(variant)
        .and_then(|e| e.two_player_rules())
        .ok_or_else(|| format!("no two-player variant '{variant}'"))
        .and_then(|rules| {
            let material = Material::parse(ending, &rules).map_err(|e| format!("{ending}: {e}"))?;
            let mut progress = |line: &str| tell(&format!("info string tables {line}"));
            let never = AtomicBool::new(false);
            // A worker has one thread: itself.
            let folder = TableFolder {
                files: engine.files(),
                dir,
            };
            build_missing(folder, &rules, &material, &mut progress, &never, 1, written)
        });
    match built {
        Ok(()) => tell("info string tables done"),
        Err(e) => tell(&format!("info string error: tables: {e}")),
    }
}

#[cfg(target_arch = "wasm32")]
mod worker {
    //! The binding a worker script calls: `new WebEngine()`, then `handle(line)` for
    //! each message.

    use wasm_bindgen::JsCast;
    use wasm_bindgen::prelude::*;
    use web_sys::DedicatedWorkerGlobalScope;

    use std::path::Path;

    use hexchess_engine::protocol::Engine;
    use hexchess_files::{Files, MemoryStore};

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
            // A panic ends the worker's wasm (it aborts): say why first, as a
            // protocol line the page reads.
            std::panic::set_hook(Box::new(|info| {
                post(&format!("info string error: the engine failed: {info}"));
            }));
            // The worker's files are its memory: what the page hands it.
            let files = Files::pages(MemoryStore::default());
            WebEngine {
                engine: super::web_engine(files, post),
            }
        }

        /// Runs one protocol line; false once it was `quit`.
        pub fn handle(&mut self, line: &str) -> bool {
            !super::quits(self.engine.handle(line))
        }

        /// Keeps a file the page hands over (a variant file, an endgame table) in the
        /// worker's memory, where the engine's file reads find it.
        pub fn put_file(&mut self, path: &str, bytes: &[u8]) {
            if let Err(e) = self.engine.files().write_atomic(Path::new(path), bytes) {
                post(&format!("info string error: {path}: {e}"));
            }
        }

        /// Builds the tables of `ending` of `variant` (see [`super::build_tables`]),
        /// posting each file made back to the page as `{file, bytes}`.
        pub fn build_tables(&mut self, variant: &str, ending: &str) {
            let Some(dir) = hexchess_tablebase::default_dir(self.engine.files()) else {
                return post("info string error: tables: no folder for tables");
            };
            let files = self.engine.files().clone();
            let mut written = |path: &Path| post_file(&files, path);
            super::build_tables(
                &self.engine,
                variant,
                ending,
                &dir,
                &mut |l| post(l),
                &mut written,
            );
        }
    }

    /// Posts a file of the worker's store to the page: `{file: path, bytes}`.
    fn post_file(files: &Files, path: &Path) {
        let Some(bytes) = files
            .store()
            .and_then(|store| store.get(&path.to_string_lossy()))
        else {
            return;
        };
        let message = js_sys::Object::new();
        let file = JsValue::from_str(&path.to_string_lossy());
        let data = js_sys::Uint8Array::from(bytes.as_slice());
        let _ = js_sys::Reflect::set(&message, &JsValue::from_str("file"), &file);
        let _ = js_sys::Reflect::set(&message, &JsValue::from_str("bytes"), &data);
        let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
        let _ = scope.post_message(&message);
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
        let mut engine = web_engine(
            Files::pages(hexchess_files::MemoryStore::default()),
            move |l| {
                let _ = tx.lock().unwrap().send(l.to_string());
            },
        );
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

    #[test]
    fn tables_are_built_once_into_the_folder_and_each_file_is_told() {
        let dir = std::env::temp_dir().join(format!("hexchess-web-tables-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let engine = web_engine(Files::disk(), |_| {});
        let (mut lines, mut files) = (Vec::new(), Vec::new());
        build_tables(
            &engine,
            "glinski",
            "KRvK",
            &dir,
            &mut |l| lines.push(l.to_string()),
            &mut |p| files.push(p.to_path_buf()),
        );
        assert_eq!(
            lines.last().map(String::as_str),
            Some("info string tables done"),
            "{lines:?}"
        );
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string tables KRvK: ")),
            "{lines:?}"
        );
        assert!(
            !files.is_empty() && files.iter().all(|f| f.is_file()),
            "{files:?}"
        );
        let krk = dir.join("glinski").join("KRvK.htb");
        assert_eq!(files.last(), Some(&krk), "the largest last");
        // Built: nothing again.
        let mut again = Vec::new();
        build_tables(&engine, "glinski", "KRvK", &dir, &mut |_| {}, &mut |p| {
            again.push(p.to_path_buf())
        });
        assert!(again.is_empty(), "{again:?}");
        let mut refused = Vec::new();
        build_tables(
            &engine,
            "glinski",
            "KXvK",
            &dir,
            &mut |l| refused.push(l.to_string()),
            &mut |_| {},
        );
        assert!(
            refused[0].starts_with("info string error: tables: KXvK"),
            "{refused:?}"
        );
        build_tables(
            &engine,
            "nowhere",
            "KRvK",
            &dir,
            &mut |l| refused.push(l.to_string()),
            &mut |_| {},
        );
        assert!(
            refused[1].contains("no two-player variant 'nowhere'"),
            "{refused:?}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
