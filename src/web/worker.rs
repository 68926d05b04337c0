//! The engine in its Web Worker (`engine_worker.js`, the `hexchess-web-engine` crate),
//! searched as the native opponent searches on its thread: a search starts, the frame
//! looks each time whether it has answered, and its progress feeds the evaluation
//! panel.
//!
//! The worker speaks the engine's text protocol. A search in the worker cannot be
//! stopped by a message (the worker is busy searching), so a search the game no
//! longer wants ends the worker itself; the next search starts a fresh one.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use hexchess_core::Position;
use hexchess_engine::{Score, SearchInfo, SearchLimits, SearchResult};

use super::lines::{go_line, read_info};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{MessageEvent, Worker, WorkerOptions, WorkerType};

/// The worker script, beside the page.
const SCRIPT: &str = "./engine_worker.js";

/// The worker and the lines it has written that nobody has read yet.
struct Engine {
    worker: Worker,
    lines: Rc<RefCell<VecDeque<String>>>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    /// The search whose answer is awaited (its key).
    searching: Option<u64>,
}

thread_local! {
    static ENGINE: RefCell<Option<Engine>> = const { RefCell::new(None) };
    static NEXT: RefCell<u64> = const { RefCell::new(0) };
}

fn start_worker() -> Result<Engine, String> {
    let options = WorkerOptions::new();
    options.set_type(WorkerType::Module);
    let worker = Worker::new_with_options(SCRIPT, &options)
        .map_err(|e| format!("the engine's worker did not start: {e:?}"))?;
    let lines: Rc<RefCell<VecDeque<String>>> = Rc::default();
    let sink = Rc::clone(&lines);
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        if let Some(line) = event.data().as_string() {
            sink.borrow_mut().push_back(line);
        }
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    Ok(Engine {
        worker,
        lines,
        _on_message: on_message,
        searching: None,
    })
}

/// A search in the worker, known by its key.
#[derive(Debug)]
pub struct WorkerSearch {
    key: u64,
    position: Position,
    latest: Option<SearchInfo>,
    answer: Option<SearchResult>,
}

impl WorkerSearch {
    /// Asks the worker to search `position` of variant `variant` at `level` within
    /// `limits`. A search of no bound (infinite) is given one second: the worker
    /// cannot be told to stop.
    pub fn start(
        variant: &str,
        position: &Position,
        level: u8,
        limits: &SearchLimits,
    ) -> Result<WorkerSearch, String> {
        let key = NEXT.with(|n| {
            *n.borrow_mut() += 1;
            *n.borrow()
        });
        ENGINE.with(|cell| {
            let mut engine = cell.borrow_mut();
            if engine.is_none() {
                *engine = Some(start_worker()?);
            }
            let engine = engine.as_mut().expect("made above");
            engine.lines.borrow_mut().clear();
            engine.searching = Some(key);
            for line in [
                format!("setoption name UCI_Variant value {variant}"),
                format!("setoption name Skill value {level}"),
                format!("position fen {}", position.to_fen()),
                go_line(limits),
            ] {
                engine
                    .worker
                    .post_message(&JsValue::from_str(&line))
                    .map_err(|e| format!("the engine's worker took no message: {e:?}"))?;
            }
            Ok::<(), String>(())
        })?;
        Ok(WorkerSearch {
            key,
            position: position.clone(),
            latest: None,
            answer: None,
        })
    }

    /// Reads what the worker has said; true once the search has answered.
    pub fn poll(&mut self) -> bool {
        if self.answer.is_some() {
            return true;
        }
        let lines: Vec<String> = ENGINE.with(|cell| match cell.borrow().as_ref() {
            Some(e) if e.searching == Some(self.key) => e.lines.borrow_mut().drain(..).collect(),
            _ => Vec::new(),
        });
        for line in lines {
            if let Some(info) = read_info(&self.position, &line) {
                self.latest = Some(info);
            } else if let Some(best) = line.strip_prefix("bestmove ") {
                self.answer = Some(self.result(best));
                ENGINE.with(|cell| {
                    if let Some(e) = cell.borrow_mut().as_mut() {
                        e.searching = None;
                    }
                });
            } else if line.starts_with("info string error") {
                bevy::log::warn!("engine worker: {line}");
            }
        }
        self.answer.is_some()
    }

    /// The latest completed depth.
    pub fn progress(&self) -> Option<&SearchInfo> {
        self.latest.as_ref()
    }

    /// The answer, once [`WorkerSearch::poll`] said there is one.
    pub fn take_result(&mut self) -> Option<SearchResult> {
        self.answer.take()
    }

    /// Gives the search up: a worker still searching is ended (a new one starts with
    /// the next search).
    pub fn stop(&self) {
        ENGINE.with(|cell| {
            let mut engine = cell.borrow_mut();
            if engine
                .as_ref()
                .is_some_and(|e| e.searching == Some(self.key))
                && let Some(e) = engine.take()
            {
                e.worker.terminate();
            }
        });
    }

    fn result(&self, best: &str) -> SearchResult {
        let word = best.split_whitespace().next().unwrap_or("(none)");
        let best = self.position.parse_move(word).ok();
        let latest = self.latest.clone();
        SearchResult {
            best,
            score: latest.as_ref().map_or(Score::Cp(0), |i| i.score),
            depth: latest.as_ref().map_or(0, |i| i.depth),
            nodes: latest.as_ref().map_or(0, |i| i.nodes),
            pv: latest.map(|i| i.pv).unwrap_or_default(),
        }
    }
}
