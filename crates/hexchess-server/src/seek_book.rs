//! The open seeks and private challenges. One process keeps them in its memory; the
//! socket nodes of several processes keep them in Redis, so that a seek made through
//! one node is listed and taken through any. Either way a seat is taken atomically:
//! two players who take a seek's last seat at once never both get it (in Redis, each
//! change is written only if the seek is still as it was read, else read again).

use std::sync::Mutex;
use std::time::Duration;

use hexchess_protocol::{SeatRating, SeekListing};
use redis::Script;
use redis::aio::ConnectionManager;
use serde::{Deserialize, Serialize};

use crate::hosted::PlayerId;
use crate::message::SeekRequest;
use crate::seat::SeatHolder;

/// Open seeks and challenges one player may have.
pub const MAX_SEEKS_PER_PLAYER: usize = 10;

/// Open seeks and challenges on the server.
pub const MAX_SEEKS: usize = 2_000;

/// How long a seek lives in Redis at most (a seek whose socket node died with its
/// owner's connection is not withdrawn by anyone else).
const SHARED_SEEK_LIFE: Duration = Duration::from_secs(6 * 3600);

/// Tries of one change to a seek that others keep changing first.
const TRIES: usize = 16;

/// An open seek: the seats taken so far.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OpenSeek {
    /// Its id.
    pub id: String,
    /// A private challenge's code (not listed).
    pub code: Option<String>,
    /// Who made it.
    pub owner: PlayerId,
    /// What was asked.
    pub request: SeekRequest,
    /// Each seat's holder, in turn order; `None` is open.
    pub seats: Vec<Option<SeatHolder>>,
    /// The owner's rating in the seek's variant and speed, as the lobby shows it.
    pub rating: Option<SeatRating>,
    /// When it was made (ms since 1970): the lobby lists the oldest first.
    pub made_ms: i64,
}

impl OpenSeek {
    /// Seats still open.
    pub fn open_seats(&self) -> usize {
        self.seats.iter().filter(|s| s.is_none()).count()
    }

    /// Whether `who` sits in it.
    pub fn has(&self, who: &PlayerId) -> bool {
        self.seats
            .iter()
            .flatten()
            .any(|s| matches!(s, SeatHolder::Player { id, .. } if id == who))
    }

    /// Whether `key` names it: its id, or its code in any case.
    fn named(&self, key: &str) -> bool {
        self.id == key || self.code.as_deref() == Some(key.trim().to_uppercase().as_str())
    }

    /// How the lobby lists it.
    pub fn listing(&self) -> SeekListing {
        let owner = self.seats.iter().flatten().find_map(|s| match s {
            SeatHolder::Player { id, name, .. } if *id == self.owner => Some(name.clone()),
            _ => None,
        });
        SeekListing {
            id: self.id.clone(),
            variant: self.request.variant.clone(),
            minutes: self.request.minutes,
            increment: self.request.increment,
            days: self.request.days,
            rated: self.request.rated,
            by: owner,
            seats: self.seats.len() as u32,
            open: self.open_seats() as u32,
            bot: self.seats.iter().flatten().any(|s| s.is_bot()),
            rating: self.rating,
        }
    }
}

/// Why the book did not do what was asked.
#[derive(Debug, PartialEq, Eq)]
pub enum BookError {
    /// Not allowed, and why (the player's words).
    Refused(String),
    /// Redis failed or could not be reached.
    Unreachable(String),
}

fn refused<T>(why: impl Into<String>) -> Result<T, BookError> {
    Err(BookError::Refused(why.into()))
}

/// What taking a seat did.
#[derive(Debug, PartialEq)]
pub enum Seated {
    /// A seat taken; others are still open.
    Waiting,
    /// The last seat taken: the seek is gone from the book, to become a game.
    Full(OpenSeek),
}

/// Where the seeks are kept.
pub enum SeekBook {
    /// In this process's memory, oldest first.
    Here(Mutex<Vec<OpenSeek>>),
    /// In Redis, shared by the socket nodes.
    Shared(SharedSeeks),
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl SeekBook {
    /// A book in memory.
    pub fn here() -> SeekBook {
        SeekBook::Here(Mutex::default())
    }

    /// Adds `seek` unless its owner or the server has the most they may.
    pub async fn add(&self, seek: OpenSeek) -> Result<(), BookError> {
        match self {
            SeekBook::Here(seeks) => {
                let mut seeks = lock(seeks);
                check_room(
                    seeks.iter().filter(|s| s.owner == seek.owner).count(),
                    seeks.len(),
                )?;
                seeks.push(seek);
                Ok(())
            }
            SeekBook::Shared(shared) => shared.add(&seek).await,
        }
    }

    /// Whether `owner` may add one more (checked again when it is added).
    pub async fn has_room_for(&self, owner: &PlayerId) -> Result<(), BookError> {
        match self {
            SeekBook::Here(seeks) => {
                let seeks = lock(seeks);
                check_room(
                    seeks.iter().filter(|s| s.owner == *owner).count(),
                    seeks.len(),
                )
            }
            SeekBook::Shared(shared) => shared.has_room_for(owner).await,
        }
    }

    /// Withdraws `owner`'s seek `id`; whether there was one.
    pub async fn cancel(&self, owner: &PlayerId, id: &str) -> Result<bool, BookError> {
        match self {
            SeekBook::Here(seeks) => {
                let mut seeks = lock(seeks);
                let before = seeks.len();
                seeks.retain(|s| !(s.id == id && s.owner == *owner));
                Ok(seeks.len() != before)
            }
            SeekBook::Shared(shared) => shared.cancel(owner, id).await,
        }
    }

    /// Withdraws `owner`'s listed seeks (its challenges stay: their links are out);
    /// whether any went.
    pub async fn withdraw_listed(&self, owner: &PlayerId) -> Result<bool, BookError> {
        match self {
            SeekBook::Here(seeks) => {
                let mut seeks = lock(seeks);
                let before = seeks.len();
                seeks.retain(|s| s.owner != *owner || s.code.is_some());
                Ok(seeks.len() != before)
            }
            SeekBook::Shared(shared) => shared.withdraw_listed(owner).await,
        }
    }

    /// The listed seeks (not the challenges), oldest first, at most `limit`.
    pub async fn listed(&self, limit: usize) -> Result<Vec<OpenSeek>, BookError> {
        match self {
            SeekBook::Here(seeks) => Ok(lock(seeks)
                .iter()
                .filter(|s| s.code.is_none())
                .take(limit)
                .cloned()
                .collect()),
            SeekBook::Shared(shared) => shared.listed(limit).await,
        }
    }

    /// Seats the player of `seat` in seek `key` (an id, or a challenge's code), once
    /// `allowed` agrees with the seek as it stands.
    pub async fn take_seat(
        &self,
        key: &str,
        seat: SeatHolder,
        allowed: impl Fn(&OpenSeek) -> Result<(), String>,
    ) -> Result<Seated, BookError> {
        match self {
            SeekBook::Here(seeks) => {
                let mut seeks = lock(seeks);
                let Some(i) = seeks.iter().position(|s| s.named(key)) else {
                    return refused(NO_SEEK);
                };
                allowed(&seeks[i]).map_err(BookError::Refused)?;
                sit(&mut seeks[i], seat);
                Ok(match seeks[i].open_seats() {
                    0 => Seated::Full(seeks.remove(i)),
                    _ => Seated::Waiting,
                })
            }
            SeekBook::Shared(shared) => shared.take_seat(key, seat, allowed).await,
        }
    }
}

/// What a player is told of a seek that is not there (taken, withdrawn, never made).
pub const NO_SEEK: &str = "no open seek or challenge by that id or code";

fn check_room(mine: usize, all: usize) -> Result<(), BookError> {
    if mine >= MAX_SEEKS_PER_PLAYER {
        return refused(format!(
            "at most {MAX_SEEKS_PER_PLAYER} open seeks and challenges: cancel one first"
        ));
    }
    if all >= MAX_SEEKS {
        return refused("the lobby is full: accept a seek, or try again later");
    }
    Ok(())
}

fn sit(seek: &mut OpenSeek, seat: SeatHolder) {
    if let Some(open) = seek.seats.iter_mut().find(|s| s.is_none()) {
        *open = Some(seat);
    }
}

/// The seeks in Redis: each at `hexchess:seek:ID` (JSON), its id in the set of all and
/// in its owner's set, a listed one in a sorted set by age, a challenge's code at
/// `hexchess:seek-code:CODE`. Every change is one script, so the sets never disagree
/// with the seeks for long: a seek that lapsed leaves ids behind, dropped when read.
#[derive(Clone)]
pub struct SharedSeeks {
    redis: ConnectionManager,
}

const ALL: &str = "hexchess:seeks";
const LISTED: &str = "hexchess:seeks-listed";

fn seek_key(id: &str) -> String {
    format!("hexchess:seek:{id}")
}

fn owner_key(owner: &PlayerId) -> String {
    format!("hexchess:seeks-of:{}", owner.0)
}

fn code_key(code: &str) -> String {
    format!("hexchess:seek-code:{code}")
}

fn unreachable(e: redis::RedisError) -> BookError {
    BookError::Unreachable(format!("redis: {e}"))
}

impl SharedSeeks {
    /// The book in Redis at `url`.
    pub async fn connect(url: &str) -> Result<SharedSeeks, String> {
        let redis = crate::cluster::redis_connection(url)
            .await
            .map_err(|e| e.to_string())?;
        Ok(SharedSeeks { redis })
    }

    async fn has_room_for(&self, owner: &PlayerId) -> Result<(), BookError> {
        let (mine, all): (usize, usize) = redis::pipe()
            .scard(owner_key(owner))
            .scard(ALL)
            .query_async(&mut self.redis.clone())
            .await
            .map_err(unreachable)?;
        check_room(mine, all)
    }

    async fn add(&self, seek: &OpenSeek) -> Result<(), BookError> {
        let script = Script::new(
            r"if redis.call('SCARD', KEYS[3]) >= tonumber(ARGV[3]) then return 1 end
              if redis.call('SCARD', KEYS[2]) >= tonumber(ARGV[4]) then return 2 end
              redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[6])
              redis.call('SADD', KEYS[2], ARGV[2])
              redis.call('SADD', KEYS[3], ARGV[2])
              if ARGV[7] == '' then
                redis.call('ZADD', KEYS[4], ARGV[5], ARGV[2])
              else
                redis.call('SET', KEYS[5], ARGV[2], 'PX', ARGV[6])
              end
              return 0",
        );
        let text =
            serde_json::to_string(seek).map_err(|e| BookError::Unreachable(e.to_string()))?;
        let code = seek.code.clone().unwrap_or_default();
        let added: i64 = script
            .key(seek_key(&seek.id))
            .key(ALL)
            .key(owner_key(&seek.owner))
            .key(LISTED)
            .key(code_key(&code))
            .arg(&text)
            .arg(&seek.id)
            .arg(MAX_SEEKS_PER_PLAYER)
            .arg(MAX_SEEKS)
            .arg(seek.made_ms)
            .arg(SHARED_SEEK_LIFE.as_millis() as u64)
            .arg(&code)
            .invoke_async(&mut self.redis.clone())
            .await
            .map_err(unreachable)?;
        match added {
            0 => Ok(()),
            1 => check_room(MAX_SEEKS_PER_PLAYER, 0),
            _ => check_room(0, MAX_SEEKS),
        }
    }

    /// The seek named `key` as Redis holds it, with its text (to change it only if
    /// it is still that).
    async fn read(&self, key: &str) -> Result<Option<(OpenSeek, String)>, BookError> {
        let mut redis = self.redis.clone();
        let code = key.trim().to_uppercase();
        let by_code: Option<String> = redis::cmd("GET")
            .arg(code_key(&code))
            .query_async(&mut redis)
            .await
            .map_err(unreachable)?;
        let id = by_code.unwrap_or_else(|| key.to_string());
        let text: Option<String> = redis::cmd("GET")
            .arg(seek_key(&id))
            .query_async(&mut redis)
            .await
            .map_err(unreachable)?;
        Ok(text.and_then(|t| serde_json::from_str(&t).ok().map(|s| (s, t))))
    }

    /// Writes `new` (none: the seek goes) in place of `old`, if Redis still holds
    /// `old`'s text; whether it did.
    async fn replace(
        &self,
        old: &OpenSeek,
        old_text: &str,
        new: Option<&OpenSeek>,
    ) -> Result<bool, BookError> {
        let script = Script::new(
            r"if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
              if ARGV[2] == '' then
                redis.call('DEL', KEYS[1])
                redis.call('SREM', KEYS[2], ARGV[3])
                redis.call('SREM', KEYS[3], ARGV[3])
                redis.call('ZREM', KEYS[4], ARGV[3])
                if ARGV[4] ~= '' then redis.call('DEL', KEYS[5]) end
              else
                redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
              end
              return 1",
        );
        let new_text = match new {
            Some(seek) => {
                serde_json::to_string(seek).map_err(|e| BookError::Unreachable(e.to_string()))?
            }
            None => String::new(),
        };
        let code = old.code.clone().unwrap_or_default();
        let done: i64 = script
            .key(seek_key(&old.id))
            .key(ALL)
            .key(owner_key(&old.owner))
            .key(LISTED)
            .key(code_key(&code))
            .arg(old_text)
            .arg(&new_text)
            .arg(&old.id)
            .arg(&code)
            .invoke_async(&mut self.redis.clone())
            .await
            .map_err(unreachable)?;
        Ok(done == 1)
    }

    async fn take_seat(
        &self,
        key: &str,
        seat: SeatHolder,
        allowed: impl Fn(&OpenSeek) -> Result<(), String>,
    ) -> Result<Seated, BookError> {
        for _ in 0..TRIES {
            let Some((seek, text)) = self.read(key).await? else {
                return refused(NO_SEEK);
            };
            allowed(&seek).map_err(BookError::Refused)?;
            let mut seated = seek.clone();
            sit(&mut seated, seat.clone());
            let full = seated.open_seats() == 0;
            let new = (!full).then_some(&seated);
            if self.replace(&seek, &text, new).await? {
                return Ok(if full {
                    Seated::Full(seated)
                } else {
                    Seated::Waiting
                });
            }
        }
        refused("this seek is changing too fast: try again")
    }

    async fn cancel(&self, owner: &PlayerId, id: &str) -> Result<bool, BookError> {
        for _ in 0..TRIES {
            let Some((seek, text)) = self.read(id).await? else {
                return Ok(false);
            };
            if seek.owner != *owner || seek.id != id {
                return Ok(false);
            }
            if self.replace(&seek, &text, None).await? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    async fn withdraw_listed(&self, owner: &PlayerId) -> Result<bool, BookError> {
        let ids: Vec<String> = redis::cmd("SMEMBERS")
            .arg(owner_key(owner))
            .query_async(&mut self.redis.clone())
            .await
            .map_err(unreachable)?;
        let mut any = false;
        for id in ids {
            if let Some((seek, text)) = self.read(&id).await?
                && seek.code.is_none()
                && seek.owner == *owner
            {
                any |= self.replace(&seek, &text, None).await?;
            }
        }
        Ok(any)
    }

    async fn listed(&self, limit: usize) -> Result<Vec<OpenSeek>, BookError> {
        let mut redis = self.redis.clone();
        let ids: Vec<String> = redis::cmd("ZRANGE")
            .arg(LISTED)
            .arg(0)
            .arg(limit.max(1) as i64 - 1)
            .query_async(&mut redis)
            .await
            .map_err(unreachable)?;
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let keys: Vec<String> = ids.iter().map(|id| seek_key(id)).collect();
        let texts: Vec<Option<String>> = redis::cmd("MGET")
            .arg(&keys)
            .query_async(&mut redis)
            .await
            .map_err(unreachable)?;
        let mut seeks = Vec::with_capacity(ids.len());
        let mut lapsed = Vec::new();
        for (id, text) in ids.iter().zip(texts) {
            match text.and_then(|t| serde_json::from_str::<OpenSeek>(&t).ok()) {
                Some(seek) => seeks.push(seek),
                None => lapsed.push(id.clone()),
            }
        }
        if !lapsed.is_empty() {
            let _: Result<(), _> = redis::pipe()
                .zrem(LISTED, &lapsed)
                .srem(ALL, &lapsed)
                .query_async(&mut redis)
                .await;
        }
        Ok(seeks)
    }
}
