//! The engine in Web Workers (`engine_worker.js`, the `hexchess-web-engine` crate):
//! everything the native game does on a thread of its own goes to a worker in the
//! browser (the page itself has no threads): the opponent's search, an engine seat's
//! turn, the analysis board and the hint, the game review, the trainer's table builds.
//!
//! A worker speaks the engine's text protocol, one line per message, and takes files
//! (variant files and endgame tables) as `{file, bytes}` messages. A search in a
//! worker cannot be stopped by a message (the worker is busy searching), so work the
//! game no longer wants ends its worker; the next search starts a fresh one. A worker
//! whose search answered waits for the next search of the same purpose, with its
//! hash table.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet, VecDeque};
use std::path::Path;
use std::rc::Rc;

use hexchess_core::{Position, Step};
use hexchess_engine::multi::MultiChoice;
use hexchess_engine::{Answer, Found, Question, Score, SearchInfo, SearchResult};
use hexchess_files::PageStore;

use super::lines::read_info;
use super::store::LocalStorage;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{ErrorEvent, MessageEvent, Worker, WorkerOptions, WorkerType};

/// The worker script, beside the page, when the page names none.
const SCRIPT: &str = "./engine_worker.js";

/// The worker script the page names (`hexchessWorker`: `web/build.sh` puts a hash of
/// its content in its name, so that a browser keeps it for good), else [`SCRIPT`].
fn script() -> String {
    js_sys::Reflect::get(&js_sys::global(), &"hexchessWorker".into())
        .ok()
        .and_then(|v| v.as_string())
        .unwrap_or_else(|| SCRIPT.to_string())
}

/// A live worker: the browser's object, the lines it has written that nobody has read
/// yet, and the files it has been given.
struct Live {
    worker: Worker,
    lines: Rc<RefCell<VecDeque<String>>>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(ErrorEvent)>,
    /// The files handed over (key and length: a file written again is handed again).
    shared: HashSet<(String, usize)>,
}

thread_local! {
    static LIVE: RefCell<HashMap<u64, Live>> = RefCell::new(HashMap::new());
    /// Workers whose search answered, waiting for the next of their purpose.
    static IDLE: RefCell<HashMap<&'static str, EngineWorker>> = RefCell::new(HashMap::new());
    static NEXT: RefCell<u64> = const { RefCell::new(0) };
}

/// One engine worker, known by its number (the browser's objects stay on the page's
/// thread, so this handle can sit in a resource). Dropping it ends the worker.
#[derive(Debug)]
pub struct EngineWorker {
    id: u64,
}

impl EngineWorker {
    /// A fresh worker (its wasm loads while the first lines wait in its queue).
    pub fn start() -> Result<EngineWorker, String> {
        let options = WorkerOptions::new();
        options.set_type(WorkerType::Module);
        let worker = Worker::new_with_options(&script(), &options)
            .map_err(|e| format!("the engine's worker did not start: {e:?}"))?;
        let lines: Rc<RefCell<VecDeque<String>>> = Rc::default();
        let sink = Rc::clone(&lines);
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            let data = event.data();
            match data.as_string() {
                Some(line) => sink.borrow_mut().push_back(line),
                None => keep_file(&data),
            }
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        // A worker that fails (its wasm did not load, or stopped) answers nothing
        // more: whatever waits for it is told, and ends.
        let told = Rc::clone(&lines);
        let on_error = Closure::<dyn FnMut(ErrorEvent)>::new(move |event: ErrorEvent| {
            let mut lines = told.borrow_mut();
            lines.push_back(format!(
                "info string error: the engine's worker failed: {}",
                event.message()
            ));
            lines.push_back("bestmove (none)".to_string());
        });
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        let id = NEXT.with(|n| {
            *n.borrow_mut() += 1;
            *n.borrow()
        });
        let live = Live {
            worker,
            lines,
            _on_message: on_message,
            _on_error: on_error,
            shared: HashSet::new(),
        };
        LIVE.with(|l| l.borrow_mut().insert(id, live));
        Ok(EngineWorker { id })
    }

    /// The worker that last answered for `purpose`, or a fresh one.
    pub fn for_purpose(purpose: &'static str) -> Result<EngineWorker, String> {
        match IDLE.with(|idle| idle.borrow_mut().remove(purpose)) {
            Some(worker) => Ok(worker),
            None => EngineWorker::start(),
        }
    }

    /// Keeps this worker (its search answered) for the next search of `purpose`.
    pub fn keep_for(self, purpose: &'static str) {
        IDLE.with(|idle| idle.borrow_mut().insert(purpose, self));
    }

    fn with<R>(&self, f: impl FnOnce(&mut Live) -> R) -> Option<R> {
        LIVE.with(|l| l.borrow_mut().get_mut(&self.id).map(f))
    }

    fn post(&self, message: &JsValue) -> Result<(), String> {
        self.with(|live| live.worker.post_message(message))
            .ok_or("the engine's worker has ended")?
            .map_err(|e| format!("the engine's worker took no message: {e:?}"))
    }

    /// Sends protocol lines, in order.
    pub fn send(&self, lines: &[String]) -> Result<(), String> {
        for line in lines {
            self.post(&JsValue::from_str(line))?;
        }
        Ok(())
    }

    /// Hands the worker the page's variant files and endgame tables it does not have
    /// yet, and points its engine at the variant files when there are new ones: a
    /// player's own variant and the tables built for the trainer work there too.
    pub fn share_files(&self) -> Result<(), String> {
        let data = Path::new(hexchess_files::PAGE_DATA);
        let variants = data.join("variants");
        let mut new_variants = false;
        for folder in [variants.clone(), data.join("tables")] {
            for key in stored_under(&folder) {
                let Some(bytes) = LocalStorage.get(&key) else {
                    continue;
                };
                let fresh = self
                    .with(|live| live.shared.insert((key.clone(), bytes.len())))
                    .unwrap_or(false);
                if !fresh {
                    continue;
                }
                self.post(&file_message(&key, &bytes))?;
                new_variants |= folder == variants;
            }
        }
        if new_variants {
            self.send(&[format!(
                "setoption name VariantPath value {}",
                variants.display()
            )])?;
        }
        Ok(())
    }

    /// Asks the worker to build the tables of the trainer's `ending` of `variant`:
    /// they come back as files, then `info string tables done`.
    pub fn build_tables(&self, variant: &str, ending: &str) -> Result<(), String> {
        let build = js_sys::Object::new();
        set(&build, "variant", &JsValue::from_str(variant));
        set(&build, "ending", &JsValue::from_str(ending));
        let message = js_sys::Object::new();
        set(&message, "build", &build);
        self.post(&message)
    }

    /// The lines the worker has written since the last call.
    pub fn take_lines(&self) -> Vec<String> {
        self.with(|live| live.lines.borrow_mut().drain(..).collect())
            .unwrap_or_default()
    }
}

impl Drop for EngineWorker {
    fn drop(&mut self) {
        if let Some(live) = LIVE.with(|l| l.borrow_mut().remove(&self.id)) {
            live.worker.terminate();
        }
    }
}

fn set(object: &js_sys::Object, name: &str, value: &JsValue) {
    let _ = js_sys::Reflect::set(object, &JsValue::from_str(name), value);
}

/// Every stored file anywhere under `folder`.
fn stored_under(folder: &Path) -> Vec<String> {
    let prefix = format!("{}/", folder.display());
    LocalStorage.keys(&prefix)
}

fn file_message(key: &str, bytes: &[u8]) -> JsValue {
    let message = js_sys::Object::new();
    set(&message, "file", &JsValue::from_str(key));
    set(&message, "bytes", &js_sys::Uint8Array::from(bytes).into());
    message.into()
}

/// A file a worker made (a table it built), kept in the page's store where the game
/// reads it.
fn keep_file(data: &JsValue) {
    let get = |name: &str| js_sys::Reflect::get(data, &JsValue::from_str(name)).ok();
    let (Some(path), Some(bytes)) = (get("file").and_then(|f| f.as_string()), get("bytes")) else {
        bevy::log::warn!("engine worker: a message that is neither a line nor a file");
        return;
    };
    let bytes = js_sys::Uint8Array::new(&bytes).to_vec();
    if let Err(e) = super::player_files().write_atomic(Path::new(&path), &bytes) {
        bevy::log::warn!("{path}: {e}");
    }
}

/// What hears a two-player search's completed depths, with the position searched.
type OnInfo = Box<dyn FnMut(&Position, &SearchInfo) + Send>;

/// The engine thinking in a worker, read as the native engine answers: a two-player
/// search's reports as they come, then the answer (a turn, as [`Answer`] holds it).
pub struct WorkerThinking {
    /// Its worker, until it answers or is given up.
    worker: Option<EngineWorker>,
    purpose: &'static str,
    question: Question,
    /// The two-player position searched, whose moves the reports name (none for a
    /// game of more sides).
    position: Option<Position>,
    /// In a mutex only so that a search can sit in a resource; never contended.
    on_info: std::sync::Mutex<OnInfo>,
    latest: Option<SearchInfo>,
    /// A search of whole turns' `info depth .. nodes .. score cp ..` line.
    turn_info: Option<(u32, u64, i32)>,
    answer: Option<Answer>,
    /// The worker refused a line of this search: its answer is not for this question.
    refused: bool,
}

impl WorkerThinking {
    /// Sends `lines` (ending with the `go`) to the worker of `purpose`; each completed
    /// depth is given to `on_info` when [`WorkerThinking::poll`] reads it.
    pub fn start(
        purpose: &'static str,
        question: Question,
        lines: &[String],
        on_info: impl FnMut(&Position, &SearchInfo) + Send + 'static,
    ) -> Result<WorkerThinking, String> {
        let worker = EngineWorker::for_purpose(purpose)?;
        worker.take_lines();
        worker.share_files()?;
        worker.send(lines)?;
        Ok(WorkerThinking {
            worker: Some(worker),
            purpose,
            position: question.position().cloned(),
            question,
            on_info: std::sync::Mutex::new(Box::new(on_info)),
            latest: None,
            turn_info: None,
            answer: None,
            refused: false,
        })
    }

    /// Reads what the worker has said; true once it has answered (or its worker was
    /// given up).
    pub fn poll(&mut self) -> bool {
        let Some(worker) = self.worker.as_ref() else {
            return true;
        };
        for line in worker.take_lines() {
            if let Some(best) = line.strip_prefix("bestmove ") {
                let word = best.split_whitespace().next().unwrap_or("(none)");
                self.answer = if self.refused {
                    None
                } else {
                    self.read_answer(word)
                };
                if let Some(worker) = self.worker.take() {
                    worker.keep_for(self.purpose);
                }
                return true;
            } else if line.starts_with("info string error") {
                bevy::log::warn!("engine worker: {line}");
                // A player's variant file it could not read leaves the others
                // playable; anything else refused the search's own lines.
                self.refused |= !line.contains("variant file left out");
            } else {
                self.read_report(&line);
            }
        }
        false
    }

    /// A report line: a two-player search's completed depth (told to `on_info`), or a
    /// search of whole turns' depth, nodes and score.
    fn read_report(&mut self, line: &str) {
        match &self.position {
            Some(position) => {
                if let Some(info) = read_info(position, line) {
                    let on_info = self.on_info.get_mut().unwrap_or_else(|e| e.into_inner());
                    on_info(position, &info);
                    self.latest = Some(info);
                }
            }
            None => self.turn_info = read_turn_info(line).or(self.turn_info),
        }
    }

    /// The answer `bestmove` gives, as the native engine's: `(none)` is no turn; a turn
    /// that does not read (a worker out of step) is no answer.
    fn read_answer(&self, word: &str) -> Option<Answer> {
        let game = self.question.game();
        match &self.position {
            Some(position) => {
                let best = position.parse_move(word).ok();
                let latest = self.latest.clone();
                let result = SearchResult {
                    best,
                    score: latest.as_ref().map_or(Score::Cp(0), |i| i.score),
                    depth: latest.as_ref().map_or(0, |i| i.depth),
                    nodes: latest.as_ref().map_or(0, |i| i.nodes),
                    pv: latest.map(|i| i.pv).unwrap_or_default(),
                };
                Some(Answer {
                    turn: best.map(Step::Play).into_iter().collect(),
                    found: Found::Move {
                        position: Box::new(position.clone()),
                        result,
                    },
                })
            }
            None if word == "(none)" => Some(Answer {
                turn: Vec::new(),
                found: Found::Turn(None),
            }),
            None => match game.turn_steps(word) {
                Ok(steps) => {
                    let (depth, nodes, score) = self.turn_info.unwrap_or_default();
                    Some(Answer {
                        turn: steps.clone(),
                        found: Found::Turn(Some(MultiChoice {
                            steps,
                            depth,
                            nodes,
                            score,
                        })),
                    })
                }
                Err(e) => {
                    bevy::log::warn!("engine worker: its turn '{word}': {e}");
                    None
                }
            },
        }
    }

    /// Gives the search up: its worker ends (the next search starts a fresh one).
    pub fn stop(&mut self) {
        self.worker = None;
    }

    /// The answer, once [`WorkerThinking::poll`] said there is one (none for a search
    /// given up or refused).
    pub fn take_answer(&mut self) -> Option<Answer> {
        self.answer.take()
    }
}

/// A search of whole turns' `info depth D nodes N score cp S ...` line, read back.
fn read_turn_info(line: &str) -> Option<(u32, u64, i32)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let number = |name: &str| -> Option<&str> {
        let at = words.iter().position(|w| *w == name)?;
        words.get(at + 1).copied()
    };
    if words.first() != Some(&"info") {
        return None;
    }
    let score = words
        .iter()
        .position(|w| *w == "cp")
        .and_then(|at| words.get(at + 1)?.parse().ok())?;
    Some((
        number("depth")?.parse().ok()?,
        number("nodes")?.parse().ok()?,
        score,
    ))
}

/// The trainer's tables built by a worker of their own: its progress lines, then done
/// or why not. The tables come back as files into the page's store (see
/// [`EngineWorker::build_tables`]).
pub struct TablebaseBuild {
    worker: Option<EngineWorker>,
    /// Asked to stop: the worker ends at the next look.
    stopped: std::sync::atomic::AtomicBool,
}

/// What a table build says when the frame asks.
pub enum Built {
    Working(Option<String>),
    Done(Result<(), String>),
}

impl TablebaseBuild {
    pub fn start(variant: &str, ending: &str) -> Result<TablebaseBuild, String> {
        let worker = EngineWorker::start()?;
        worker.share_files()?;
        worker.build_tables(variant, ending)?;
        Ok(TablebaseBuild {
            worker: Some(worker),
            stopped: std::sync::atomic::AtomicBool::new(false),
        })
    }

    /// The latest progress line, or the end.
    pub fn poll(&mut self) -> Built {
        if self.stopped.load(std::sync::atomic::Ordering::Relaxed) {
            self.worker = None;
        }
        let Some(worker) = self.worker.as_ref() else {
            return Built::Done(Err("stopped".into()));
        };
        let mut progress = None;
        for line in worker.take_lines() {
            if line == "info string tables done" {
                self.worker = None;
                return Built::Done(Ok(()));
            } else if let Some(e) = line
                .strip_prefix("info string error: ")
                .filter(|e| !e.starts_with("variant file left out"))
            {
                self.worker = None;
                let e = e.strip_prefix("tables: ").unwrap_or(e);
                return Built::Done(Err(e.to_string()));
            } else if let Some(p) = line.strip_prefix("info string tables ") {
                progress = Some(p.to_string());
            }
        }
        Built::Working(progress)
    }

    /// Ends the build (its worker with it, at the next look); tables already made
    /// are kept.
    pub fn stop(&self) {
        self.stopped
            .store(true, std::sync::atomic::Ordering::Relaxed);
    }
}
