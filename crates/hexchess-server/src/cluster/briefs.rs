//! The games' briefs (what the lists show of each game in play: who plays, whose turn
//! it is) shared from the game nodes, which hold the rooms that write them, to the
//! socket nodes, whose clients follow the lists.
//!
//! Each game node keeps its own hash in Redis, `hexchess:briefs:NODE` (game id to
//! brief and the fencing token it holds the game with), writes only what changed once
//! a second and keeps the hash alive for [`LIFE`]: a node that dies takes its briefs
//! with it a few seconds later, and the node that takes its games over writes them
//! again in its own. A socket node reads every game node's hash when told of a change
//! (and every few seconds in any case, for the hashes that lapsed), keeps the brief of
//! the newest owner of each game, and its lists go on as in one process.

use std::collections::HashMap;
use std::time::Duration;

use redis::aio::ConnectionManager;
use serde::{Deserialize, Serialize};

use crate::lists::Brief;

/// How long a game node's briefs outlive its last write.
pub const LIFE: Duration = Duration::from_secs(10);

/// The set of game nodes that share briefs.
const NODES: &str = "hexchess:brief-nodes";

fn node_key(node: &str) -> String {
    format!("hexchess:briefs:{node}")
}

/// A brief as shared: with the token its node holds the game with (two nodes may list
/// one game for a moment after a take-over; the newer token wins).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SharedBrief {
    /// The owner's fencing token for the game.
    pub fence: u64,
    /// The brief.
    pub brief: Brief,
}

/// A handle on the shared briefs.
#[derive(Clone)]
pub struct Briefs {
    redis: ConnectionManager,
}

impl Briefs {
    /// The shared briefs in Redis at `url`.
    pub async fn connect(url: &str) -> Result<Briefs, String> {
        let redis = super::redis_connection(url)
            .await
            .map_err(|e| e.to_string())?;
        Ok(Briefs { redis })
    }

    /// Writes game node `node`'s `changed` briefs, drops its `gone` ones, and keeps
    /// its hash alive for another [`LIFE`]; how many briefs the hash holds after (fewer
    /// than the node has: Redis lost them, and they are written again).
    pub async fn write(
        &self,
        node: &str,
        changed: &[(String, SharedBrief)],
        gone: &[String],
    ) -> Result<usize, String> {
        let key = node_key(node);
        let mut pipe = redis::pipe();
        for (game, brief) in changed {
            let text = serde_json::to_string(brief).map_err(|e| e.to_string())?;
            pipe.hset(&key, game, text).ignore();
        }
        if !gone.is_empty() {
            pipe.hdel(&key, gone).ignore();
        }
        pipe.pexpire(&key, LIFE.as_millis() as i64).ignore();
        pipe.sadd(NODES, node).ignore();
        pipe.hlen(&key);
        let (held,): (usize,) = pipe
            .query_async(&mut self.redis.clone())
            .await
            .map_err(|e| format!("redis: {e}"))?;
        Ok(held)
    }

    /// Every game's brief from every game node, the newest owner's for a game listed
    /// twice.
    pub async fn read_all(&self) -> Result<HashMap<String, Brief>, String> {
        let mut redis = self.redis.clone();
        let nodes: Vec<String> = redis::cmd("SMEMBERS")
            .arg(NODES)
            .query_async(&mut redis)
            .await
            .map_err(|e| format!("redis: {e}"))?;
        if nodes.is_empty() {
            return Ok(HashMap::new());
        }
        let mut pipe = redis::pipe();
        for node in &nodes {
            pipe.hgetall(node_key(node));
        }
        let hashes: Vec<HashMap<String, String>> = pipe
            .query_async(&mut redis)
            .await
            .map_err(|e| format!("redis: {e}"))?;
        let mut newest: HashMap<String, SharedBrief> = HashMap::new();
        let mut lapsed = Vec::new();
        for (node, hash) in nodes.iter().zip(hashes) {
            if hash.is_empty() {
                lapsed.push(node.clone());
            }
            for (game, text) in hash {
                let Ok(shared) = serde_json::from_str::<SharedBrief>(&text) else {
                    continue;
                };
                if newest.get(&game).is_none_or(|had| had.fence < shared.fence) {
                    newest.insert(game, shared);
                }
            }
        }
        if !lapsed.is_empty() {
            let _: Result<(), _> = redis::cmd("SREM")
                .arg(NODES)
                .arg(&lapsed)
                .query_async(&mut redis)
                .await;
        }
        Ok(newest.into_iter().map(|(g, s)| (g, s.brief)).collect())
    }
}
