//! Which game node owns a game: a key in Redis per game, `hexchess:lease:ID`, holding
//! the owner's node name and a nonce, that lapses after a time to live unless its
//! owner renews it. A node that dies stops renewing, and once its leases lapse another
//! node may take its games (resuming them from the database, as a restart does).
//!
//! The lease is the fast answer to "who has this game?"; it is not what keeps two
//! writers apart. A node paused (a long stop of its process, a network cut) can go on
//! believing in a lease that lapsed and was taken: the database's fencing token
//! refuses its writes ([`crate::store::Store::take_game`]).

use std::time::Duration;

use redis::aio::ConnectionManager;
use redis::{AsyncCommands, Script};

use super::{ClusterError, doing};

/// The prefix of every lease's key.
const PREFIX: &str = "hexchess:lease:";

/// A lease this node holds: its game, and the value that proves the lease its own (a
/// lease taken again by the same node after it lapsed has another).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lease {
    game: String,
    holder: String,
}

impl Lease {
    /// The game it is for.
    pub fn game(&self) -> &str {
        &self.game
    }
}

/// A node's handle on the leases: its name, and how long a lease lives unrenewed.
#[derive(Clone)]
pub struct Leases {
    redis: ConnectionManager,
    node: String,
    ttl: Duration,
}

impl std::fmt::Debug for Leases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Leases")
            .field("node", &self.node)
            .field("ttl", &self.ttl)
            .finish_non_exhaustive()
    }
}

impl Leases {
    /// Connects to Redis at `url` as node `node`; leases live `ttl` unrenewed. The
    /// connection comes back by itself after Redis does.
    pub async fn connect(url: &str, node: &str, ttl: Duration) -> Result<Leases, ClusterError> {
        let redis = super::redis_connection(url).await?;
        Ok(Leases {
            redis,
            node: node.to_string(),
            ttl,
        })
    }

    /// This node's name.
    pub fn node(&self) -> &str {
        &self.node
    }

    /// How long a lease lives unrenewed.
    pub fn ttl(&self) -> Duration {
        self.ttl
    }

    /// Takes `game`'s lease if no node holds it; `None` when one does.
    pub async fn claim(&self, game: &str) -> Result<Option<Lease>, ClusterError> {
        let holder = format!("{} {}", self.node, crate::secret::new_code(12));
        let taken: Option<String> = redis::cmd("SET")
            .arg(key(game))
            .arg(&holder)
            .arg("NX")
            .arg("PX")
            .arg(millis(self.ttl))
            .query_async(&mut self.redis.clone())
            .await
            .map_err(doing("taking a lease"))?;
        Ok(taken.map(|_| Lease {
            game: game.to_string(),
            holder,
        }))
    }

    /// Renews `leases` for another time to live, in one round trip; for each, whether
    /// it is still this node's. A lease another node holds is not: its game is no
    /// longer this node's to write. A lease Redis no longer has (it lapsed, or Redis
    /// restarted empty) is taken again: no other node took the game since, or it would
    /// hold the lease (and if one took it and gave it up, its newer fencing token
    /// refuses this node's writes all the same).
    pub async fn renew(&self, leases: &[Lease]) -> Result<Vec<bool>, ClusterError> {
        if leases.is_empty() {
            return Ok(Vec::new());
        }
        let script = Script::new(
            r"local kept = {}
              for i, key in ipairs(KEYS) do
                local holder = redis.call('GET', key)
                if holder == ARGV[i + 1] then
                  redis.call('PEXPIRE', key, ARGV[1])
                  kept[i] = 1
                elseif not holder then
                  redis.call('SET', key, ARGV[i + 1], 'PX', ARGV[1])
                  kept[i] = 1
                else
                  kept[i] = 0
                end
              end
              return kept",
        );
        let mut invocation = script.prepare_invoke();
        invocation.arg(millis(self.ttl));
        for lease in leases {
            invocation.key(key(&lease.game)).arg(&lease.holder);
        }
        let kept: Vec<i64> = invocation
            .invoke_async(&mut self.redis.clone())
            .await
            .map_err(doing("renewing leases"))?;
        Ok(kept.into_iter().map(|k| k == 1).collect())
    }

    /// Gives a lease up (its game ended, or the node is stopping); whether it was
    /// still this node's.
    pub async fn release(&self, lease: &Lease) -> Result<bool, ClusterError> {
        let script = Script::new(
            r"if redis.call('GET', KEYS[1]) == ARGV[1] then
                return redis.call('DEL', KEYS[1])
              end
              return 0",
        );
        let released: i64 = script
            .key(key(&lease.game))
            .arg(&lease.holder)
            .invoke_async(&mut self.redis.clone())
            .await
            .map_err(doing("giving a lease up"))?;
        Ok(released == 1)
    }

    /// The node that holds each of `games`' leases, if one does, in one round trip.
    pub async fn owners(&self, games: &[String]) -> Result<Vec<Option<String>>, ClusterError> {
        if games.is_empty() {
            return Ok(Vec::new());
        }
        let keys: Vec<String> = games.iter().map(|g| key(g)).collect();
        let holders: Vec<Option<String>> = redis::cmd("MGET")
            .arg(&keys)
            .query_async(&mut self.redis.clone())
            .await
            .map_err(doing("reading leases"))?;
        Ok(holders.into_iter().map(|h| h.map(node_of)).collect())
    }

    /// The node that holds `game`'s lease, if one does.
    pub async fn owner(&self, game: &str) -> Result<Option<String>, ClusterError> {
        let holder: Option<String> = self
            .redis
            .clone()
            .get(key(game))
            .await
            .map_err(doing("reading a lease"))?;
        Ok(holder.map(node_of))
    }
}

/// The node's name in a lease's value (`NODE NONCE`).
fn node_of(holder: String) -> String {
    match holder.split_once(' ') {
        Some((node, _)) => node.to_string(),
        None => holder,
    }
}

fn key(game: &str) -> String {
    format!("{PREFIX}{game}")
}

fn millis(d: Duration) -> u64 {
    d.as_millis().max(1) as u64
}
