//! Work off the frame, and the one place where the game chooses between a desktop and
//! a browser for it: the callers (the opponent, analysis, the review, the trainer, the
//! file dialogs) use the types here and have no `cfg` of their own.
//!
//! - [`Job`]: work on a thread of its own with a stop flag (in a browser, which gives
//!   the page no threads, in the frame that asks); its answer comes back through a
//!   channel that a system polls each frame without waiting. Dropping a job stops it.
//! - [`engine::EngineThinking`]: a search or a turn, on the engine's thread
//!   ([`hexchess_engine::Thinking`]) or in an engine Web Worker.
//! - [`review::ReviewWork`]: a game's review, on a thread or position by position in a
//!   worker.
//! - [`tablebases::TablebaseBuild`]: the trainer's endgame tables, on a thread or in a worker
//!   of their own.
//! - [`dialog`]: the system's open and save dialogs, or the browser's file picker and
//!   downloads.

pub mod dialog;
pub mod engine;
pub mod review;
pub mod tablebases;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, sync_channel};
use std::sync::{Arc, Mutex};

/// A job's answer, when the frame asks.
#[derive(Debug, PartialEq, Eq)]
pub enum Answer<T> {
    /// Still working.
    Pending,
    /// Done: its answer (given once).
    Ready(T),
    /// Its thread ended without an answer (it panicked), or the answer was taken.
    Lost,
}

/// Work on a thread of its own, stopped when dropped.
pub struct Job<T> {
    /// In a mutex only so that a job can sit in a resource (a receiver is not `Sync`);
    /// it is read through `&mut self`, never locked.
    answer: Mutex<Receiver<T>>,
    stop: Arc<AtomicBool>,
}

impl<T: Send + 'static> Job<T> {
    /// Starts `work` on a thread named `name`, with `stack` bytes of stack (a deep
    /// search needs more than a thread's default); `work` reads the stop flag it is
    /// given and returns its answer.
    pub fn start(
        name: &str,
        stack: usize,
        work: impl FnOnce(Arc<AtomicBool>) -> T + Send + 'static,
    ) -> Job<T> {
        let (sender, answer) = sync_channel(1);
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        // A browser gives the page no threads: the work runs here, in the frame that
        // asks for it (the engine's searches go to its Web Worker instead, see
        // `crate::web::engine`).
        #[cfg(target_arch = "wasm32")]
        {
            let _ = (name, stack);
            let _ = sender.send(work(flag));
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            let started = std::thread::Builder::new()
                .name(name.to_string())
                .stack_size(stack)
                .spawn(move || {
                    // The frame may have dropped the job: nobody to tell then.
                    let _ = sender.send(work(flag));
                });
            if let Err(e) = started {
                // No thread: the job is lost at once (its sender went with the closure).
                bevy::log::warn!("{name}: no thread for the work: {e}");
            }
        }
        Job {
            answer: Mutex::new(answer),
            stop,
        }
    }

    /// The answer if it has come (once), without waiting.
    pub fn poll(&mut self) -> Answer<T> {
        let answer = self.answer.get_mut().unwrap_or_else(|e| e.into_inner());
        match answer.try_recv() {
            Ok(answer) => Answer::Ready(answer),
            Err(TryRecvError::Empty) => Answer::Pending,
            Err(TryRecvError::Disconnected) => Answer::Lost,
        }
    }

    /// Asks the work to stop (it answers with what it has, or nothing).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

impl<T> Drop for Job<T> {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// A thread's default stack: enough for everything but a deep search.
pub const SMALL_STACK: usize = 2 * 1024 * 1024;

/// A search's stack: the engine recurses a frame per ply.
pub const SEARCH_STACK: usize = 64 * 1024 * 1024;

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    fn wait<T: Send + 'static>(job: &mut Job<T>) -> Answer<T> {
        let start = Instant::now();
        loop {
            match job.poll() {
                Answer::Pending if start.elapsed() < Duration::from_secs(10) => {
                    std::thread::sleep(Duration::from_millis(1));
                }
                other => return other,
            }
        }
    }

    #[test]
    fn an_answer_comes_back_once() {
        let mut job = Job::start("test", SMALL_STACK, |_| 6 * 7);
        assert_eq!(wait(&mut job), Answer::Ready(42));
        assert_eq!(job.poll(), Answer::Lost, "given once");
    }

    #[test]
    fn a_stopped_job_answers_with_what_it_has_and_a_dropped_one_is_told_to_stop() {
        let mut job = Job::start("test", SMALL_STACK, |stop| {
            let mut n = 0u64;
            while !stop.load(Ordering::Relaxed) {
                n += 1;
                std::thread::yield_now();
            }
            n
        });
        assert_eq!(job.poll(), Answer::Pending);
        job.stop();
        assert!(matches!(wait(&mut job), Answer::Ready(_)));
        let seen = Arc::new(AtomicBool::new(false));
        let told = Arc::clone(&seen);
        let dropped = Job::start("test", SMALL_STACK, move |stop| {
            while !stop.load(Ordering::Relaxed) {
                std::thread::yield_now();
            }
            told.store(true, Ordering::Relaxed);
        });
        drop(dropped);
        let start = Instant::now();
        while !seen.load(Ordering::Relaxed) && start.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(1));
        }
        assert!(seen.load(Ordering::Relaxed), "the thread saw the stop");
    }

    #[test]
    fn a_job_whose_thread_panics_is_lost_not_pending_forever() {
        let mut job: Job<u8> = Job::start("test", SMALL_STACK, |_| panic!("on purpose"));
        assert_eq!(wait(&mut job), Answer::Lost);
    }
}
