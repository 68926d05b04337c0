//! Work off the caller's thread where there are threads, and in place where there are
//! none.
//!
//! A search, a count or a bench runs on a thread of its own so that the protocol keeps
//! answering `isready` and `stop`. A browser's `wasm32-unknown-unknown` has no threads
//! (std's spawn returns an error there): the engine runs in a Web Worker, which *is*
//! its thread, so the work runs at once in the caller and the job is finished when
//! `start` returns. Every user of a thread in the engine goes through here, so the two
//! cases differ in this file only.

use std::io;

/// Whether work runs in place (no threads on this target). A search that must wait
/// for `stop` before answering (`go infinite`, `go ponder`) cannot run in place: no
/// `stop` can arrive while it runs.
pub const RUNS_IN_PLACE: bool = cfg!(target_arch = "wasm32");

/// Work started by [`start`]: on its thread, or already done.
pub(crate) struct Job<T> {
    state: State<T>,
}

enum State<T> {
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    Thread(std::thread::JoinHandle<T>),
    /// Boxed: a finished search's searcher is large, and a job is moved about.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    Done(Box<T>),
}

/// Starts `work` on a thread called `name` with a stack of `stack` bytes, or (where
/// there are no threads) runs it to its end before returning.
pub(crate) fn start<T: Send + 'static>(
    name: &str,
    stack: Option<usize>,
    work: impl FnOnce() -> T + Send + 'static,
) -> io::Result<Job<T>> {
    #[cfg(target_arch = "wasm32")]
    {
        let _ = (name, stack);
        Ok(Job {
            state: State::Done(Box::new(work())),
        })
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let mut builder = std::thread::Builder::new().name(name.to_string());
        if let Some(bytes) = stack {
            builder = builder.stack_size(bytes);
        }
        let handle = builder.spawn(work)?;
        Ok(Job {
            state: State::Thread(handle),
        })
    }
}

impl<T> Job<T> {
    pub(crate) fn is_finished(&self) -> bool {
        match &self.state {
            State::Thread(h) => h.is_finished(),
            State::Done(_) => true,
        }
    }

    /// Waits for the work and gives its result, or the panic that ended it.
    pub(crate) fn join(self) -> std::thread::Result<T> {
        match self.state {
            State::Thread(h) => h.join(),
            State::Done(x) => Ok(*x),
        }
    }
}

/// Waits a moment before looking again at a flag another thread sets (a held answer
/// waiting for `stop`). Never called in place: [`RUNS_IN_PLACE`] refuses the searches
/// that wait.
pub(crate) fn pause() {
    #[cfg(not(target_arch = "wasm32"))]
    std::thread::sleep(std::time::Duration::from_millis(2));
}
