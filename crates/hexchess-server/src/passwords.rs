//! Password hashing on a small pool of threads of its own, with a short queue.
//!
//! An Argon2id hash takes tens of milliseconds of a core and 19 MiB of memory, by
//! design. Run on the runtime's blocking pool, a flood of sign-ins would take every
//! core (and up to 512 threads' worth of memory) from the games: ten connections
//! sending wrong passwords moved an unrelated game's relay from 12 ms to over 450 ms
//! at p99. Here at most [`Passwords::threads`] hashes run at once, on threads that
//! leave the others to the async workers; at most [`QUEUE`] wait, and a sign-in
//! beyond that is refused at once as busy, without hashing.

use std::sync::mpsc::{SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Mutex};

use tokio::sync::oneshot;

use crate::secret::{hash_password, password_matches};

/// Hashes waiting for a thread before new ones are refused.
pub const QUEUE: usize = 16;

type Job = Box<dyn FnOnce() + Send>;

/// Why a hash was not made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PoolError {
    /// Too many are waiting: try again in a moment.
    Busy,
    /// The pool's threads are gone (the server is stopping).
    Gone,
}

impl std::fmt::Display for PoolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PoolError::Busy => {
                f.write_str("the server is busy signing others in: try again in a few seconds")
            }
            PoolError::Gone => f.write_str("the server is stopping"),
        }
    }
}

/// The pool; clones share it.
#[derive(Clone)]
pub struct Passwords {
    jobs: Arc<Mutex<SyncSender<Job>>>,
    threads: usize,
}

impl std::fmt::Debug for Passwords {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Passwords({} threads)", self.threads)
    }
}

impl Passwords {
    /// A pool of half the machine's cores (at least one, at most four).
    pub fn new() -> Passwords {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        Passwords::with_threads((cores / 2).clamp(1, 4))
    }

    /// A pool of `threads` threads.
    pub fn with_threads(threads: usize) -> Passwords {
        let (tx, rx) = sync_channel::<Job>(QUEUE);
        let rx = Arc::new(Mutex::new(rx));
        for i in 0..threads.max(1) {
            let rx = Arc::clone(&rx);
            let spawned = std::thread::Builder::new()
                .name(format!("passwords-{i}"))
                .spawn(move || {
                    loop {
                        let job = match rx.lock() {
                            Ok(rx) => rx.recv(),
                            Err(_) => return,
                        };
                        match job {
                            Ok(job) => job(),
                            Err(_) => return,
                        }
                    }
                });
            if spawned.is_err() {
                tracing::error!("a password thread could not start");
            }
        }
        Passwords {
            jobs: Arc::new(Mutex::new(tx)),
            threads: threads.max(1),
        }
    }

    /// How many hashes run at once at most.
    pub fn threads(&self) -> usize {
        self.threads
    }

    async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, PoolError> {
        let (tx, rx) = oneshot::channel();
        let job: Job = Box::new(move || {
            let _ = tx.send(work());
        });
        let queued = match self.jobs.lock() {
            Ok(jobs) => jobs.try_send(job),
            Err(_) => return Err(PoolError::Gone),
        };
        match queued {
            Ok(()) => rx.await.map_err(|_| PoolError::Gone),
            Err(TrySendError::Full(_)) => Err(PoolError::Busy),
            Err(TrySendError::Disconnected(_)) => Err(PoolError::Gone),
        }
    }

    /// A new password's Argon2id hash (`None`: it could not be made).
    pub async fn hash(&self, password: String) -> Result<Option<String>, PoolError> {
        self.run(move || hash_password(&password)).await
    }

    /// Whether `password` matches `hash`; with no hash (an unknown name) one is made
    /// and thrown away, so that the answer's time does not tell which names exist.
    pub async fn check(&self, password: String, hash: Option<String>) -> Result<bool, PoolError> {
        self.run(move || match hash {
            Some(hash) => password_matches(&password, &hash),
            None => {
                let _ = hash_password(&password);
                false
            }
        })
        .await
    }
}

impl Default for Passwords {
    fn default() -> Passwords {
        Passwords::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test]
    async fn hashes_run_on_the_pool_and_a_flood_beyond_its_queue_is_refused_at_once() {
        let pool = Passwords::with_threads(1);
        let hash = pool.hash("a long password".into()).await.unwrap().unwrap();
        assert!(
            pool.check("a long password".into(), Some(hash.clone()))
                .await
                .unwrap()
        );
        assert!(!pool.check("wrong".into(), Some(hash)).await.unwrap());
        assert!(!pool.check("x".into(), None).await.unwrap());

        // Block the one thread, fill the queue: the next is refused without waiting.
        let (release, hold) = std::sync::mpsc::channel::<()>();
        let blocker = pool.clone();
        let blocked = tokio::spawn(async move {
            blocker
                .run(move || {
                    let _ = hold.recv_timeout(Duration::from_secs(30));
                })
                .await
        });
        tokio::time::sleep(Duration::from_millis(100)).await;
        let mut waiting = Vec::new();
        for _ in 0..QUEUE {
            let p = pool.clone();
            waiting.push(tokio::spawn(async move { p.run(|| 7).await }));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        let started = std::time::Instant::now();
        assert_eq!(pool.run(|| 8).await, Err(PoolError::Busy));
        assert!(started.elapsed() < Duration::from_secs(1));
        release.send(()).unwrap();
        blocked.await.unwrap().unwrap();
        for w in waiting {
            assert_eq!(w.await.unwrap(), Ok(7), "the queued ones all ran");
        }
    }
}
