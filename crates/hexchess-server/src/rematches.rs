//! The rematches asked of finished games: which seats have asked, and whether the new
//! game has started. One process keeps them in memory; socket nodes in Redis, so that
//! the players of a game asking through two nodes meet, and exactly one node starts the
//! rematch (the ask that completes the seats is one script: the seats and "started"
//! change together).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use redis::Script;
use redis::aio::ConnectionManager;

/// Rematches asked and not yet answered, at most (each is of a finished game whose
/// room is still open, two minutes at most).
pub const MAX_REMATCHES: usize = 10_000;

/// How long a rematch's asks are kept in Redis (a finished game's room lingers two
/// minutes: past that no rematch is asked).
const SHARED_LIFE: Duration = Duration::from_secs(300);

/// What an ask did.
#[derive(Debug, PartialEq, Eq)]
pub enum Asked {
    /// The seats that have asked now.
    Seats {
        /// Whether each seat has asked, in seat order.
        asked: Vec<bool>,
        /// This ask completed them: the asker starts the new game.
        start: bool,
    },
    /// The rematch started already.
    Started,
    /// Too many rematches asked at once.
    Full,
}

#[derive(Clone, Debug)]
enum Rematch {
    Asking(Vec<bool>),
    Started,
}

/// The asks, where they are kept.
pub struct RematchBook(Where);

enum Where {
    /// In this process's memory.
    Here(Mutex<HashMap<String, Rematch>>),
    /// In Redis, shared by the socket nodes.
    Shared(ConnectionManager),
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl RematchBook {
    /// A book in memory.
    pub fn here() -> RematchBook {
        RematchBook(Where::Here(Mutex::default()))
    }

    /// A book in Redis at `url`.
    pub async fn shared(url: &str) -> Result<RematchBook, String> {
        crate::cluster::redis_connection(url)
            .await
            .map(|redis| RematchBook(Where::Shared(redis)))
            .map_err(|e| e.to_string())
    }

    /// Seats `asking` of finished game `game` (of `seats` seats) ask for a rematch;
    /// `open` says which games may still be asked for (to drop the asks of the others
    /// when the book is full).
    pub async fn ask(
        &self,
        game: &str,
        seats: usize,
        asking: &[usize],
        open: impl Fn(&str) -> bool,
    ) -> Result<Asked, String> {
        match &self.0 {
            Where::Here(book) => {
                let mut book = lock(book);
                if book.len() >= MAX_REMATCHES {
                    book.retain(|id, _| open(id));
                }
                if book.len() >= MAX_REMATCHES && !book.contains_key(game) {
                    return Ok(Asked::Full);
                }
                let entry = book
                    .entry(game.to_string())
                    .or_insert_with(|| Rematch::Asking(vec![false; seats]));
                let Rematch::Asking(asked) = entry else {
                    return Ok(Asked::Started);
                };
                for &i in asking {
                    asked[i] = true;
                }
                let asked = asked.clone();
                let start = asked.iter().all(|a| *a);
                if start {
                    *entry = Rematch::Started;
                }
                Ok(Asked::Seats { asked, start })
            }
            Where::Shared(redis) => ask_shared(redis, game, seats, asking).await,
        }
    }

    /// Forgets the rematch of `game` (it could not start: it may be asked again).
    pub async fn forget(&self, game: &str) {
        match &self.0 {
            Where::Here(book) => {
                lock(book).remove(game);
            }
            Where::Shared(redis) => {
                let _: Result<(), _> = redis::cmd("DEL")
                    .arg(key(game))
                    .query_async(&mut redis.clone())
                    .await;
            }
        }
    }
}

fn key(game: &str) -> String {
    format!("hexchess:rematch:{game}")
}

async fn ask_shared(
    redis: &ConnectionManager,
    game: &str,
    seats: usize,
    asking: &[usize],
) -> Result<Asked, String> {
    // Returns -1 when started already, else one 0/1 per seat then 1 if this ask
    // completed them.
    let script = Script::new(
        r"if redis.call('HEXISTS', KEYS[1], 'started') == 1 then return {-1} end
          for i = 3, #ARGV do redis.call('HSET', KEYS[1], ARGV[i], 1) end
          local asked = {}
          local all = 1
          for seat = 0, tonumber(ARGV[1]) - 1 do
            if redis.call('HEXISTS', KEYS[1], tostring(seat)) == 1 then
              asked[#asked + 1] = 1
            else
              asked[#asked + 1] = 0
              all = 0
            end
          end
          if all == 1 then redis.call('HSET', KEYS[1], 'started', 1) end
          redis.call('PEXPIRE', KEYS[1], ARGV[2])
          asked[#asked + 1] = all
          return asked",
    );
    let mut invocation = script.key(key(game));
    invocation.arg(seats).arg(SHARED_LIFE.as_millis() as u64);
    for seat in asking {
        invocation.arg(seat.to_string());
    }
    let answer: Vec<i64> = invocation
        .invoke_async(&mut redis.clone())
        .await
        .map_err(|e| format!("redis: {e}"))?;
    if answer.first() == Some(&-1) {
        return Ok(Asked::Started);
    }
    let (start, asked) = answer.split_last().ok_or("redis: no answer")?;
    Ok(Asked::Seats {
        asked: asked.iter().map(|a| *a == 1).collect(),
        start: *start == 1,
    })
}
