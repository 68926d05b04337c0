//! Several server processes on one database and one Redis (issue 66; docs/online.md,
//! "Beyond one machine"): the pieces that let game nodes share the games without two
//! of them ever writing the same one.
//!
//! - [`lease`]: which node owns a game, as a lease in Redis that its owner renews
//!   while it lives and that lapses by itself when it dies. A lease alone cannot stop
//!   an owner that paused past its lease from writing once more; the database's
//!   fencing token ([`crate::store::Store::take_game`]) does: every write carries the
//!   token its owner got when it took the game, and a write with an older one is
//!   refused.
//! - [`broker`]: the nodes' messages to each other over Redis pub/sub, each node on
//!   its own channel; what a lost message costs and why nothing acknowledged rests on
//!   it; [`wire`]: what those messages say.
//! - [`briefs`]: what the lists show of each game, from the game nodes to the socket
//!   nodes.
//! - [`game_node`]: a node that holds rooms and no sockets (`--role game`);
//!   [`socket_node`]: one that holds sockets and no rooms (`--role socket`).

pub mod briefs;
pub mod broker;
pub mod game_node;
pub mod lease;
pub mod socket_node;
pub mod wire;

use std::fmt;
use std::time::Duration;

use redis::aio::{ConnectionManager, ConnectionManagerConfig};

/// Redis failed: what the node was doing, and Redis's error.
#[derive(Debug)]
pub struct ClusterError {
    /// What the node was doing.
    pub doing: &'static str,
    /// Redis's error.
    pub error: redis::RedisError,
}

impl fmt::Display for ClusterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "redis, {}: {}", self.doing, self.error)
    }
}

impl std::error::Error for ClusterError {}

fn doing(what: &'static str) -> impl FnOnce(redis::RedisError) -> ClusterError {
    move |error| ClusterError { doing: what, error }
}

/// How long a Redis command may take before a node counts Redis as unreachable.
pub const REDIS_TIMEOUT: Duration = Duration::from_secs(2);

/// A connection to Redis at `url`, shared by a node's tasks, that comes back by itself
/// after Redis does (a command waits [`REDIS_TIMEOUT`] at most).
pub async fn redis_connection(url: &str) -> Result<ConnectionManager, ClusterError> {
    let client = redis::Client::open(url).map_err(doing("reading the Redis URL"))?;
    let config = ConnectionManagerConfig::new()
        .set_response_timeout(Some(REDIS_TIMEOUT))
        .set_connection_timeout(Some(REDIS_TIMEOUT))
        .set_number_of_retries(2)
        .set_max_delay(Duration::from_millis(500));
    ConnectionManager::new_with_config(client, config)
        .await
        .map_err(doing("connecting"))
}
