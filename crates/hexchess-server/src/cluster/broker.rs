//! The nodes' messages to each other, over Redis pub/sub: each node reads its own
//! channel, `hexchess:node:NAME`, and the channel every node reads, `hexchess:all`.
//! A command for a game goes to the channel of the node that owns it (its lease says
//! which); a game's events go to the channel of each socket node whose clients follow
//! it. Channels are few and fixed, so a lost subscription is remade whole.
//!
//! Pub/sub keeps nothing: a message published while a node is not subscribed (Redis
//! restarting, the node reconnecting, a reader too slow for Redis's output buffer) is
//! lost. The node is then told of a [`Delivery::Gap`], and what rides on these
//! messages recovers by the game protocol's own means: every event has a version, a
//! client that misses one resyncs (`joined` with the state), and a move is judged by
//! its ply, so a move sent again is played once. Nothing a client was told rests on
//! the broker: it is in the database before it is sent.

use std::time::Duration;

use futures_util::StreamExt;
use redis::aio::{ConnectionManager, PubSubSink};
use tokio::sync::mpsc;

use super::{ClusterError, doing};

/// The channel every node reads.
pub const ALL: &str = "hexchess:all";

/// A node's own channel.
pub fn node_channel(node: &str) -> String {
    format!("hexchess:node:{node}")
}

/// The longest message a node takes from the broker; longer ones are dropped with a
/// word in the log (every message a node makes is far shorter: a client's own
/// messages are limited before they are passed on).
pub const MAX_PAYLOAD: usize = 256 * 1024;

/// Messages received but not yet handled before the reader waits (and Redis, its
/// output buffer full, drops the subscription: a [`Delivery::Gap`]).
const QUEUE: usize = 16 * 1024;

/// How often the subscription is checked with a ping; one unanswered for this long
/// counts it lost, even when the connection has not said so.
const PING_EVERY: Duration = Duration::from_secs(2);

/// How long a node waits between tries to subscribe again.
const RETRY_EVERY: Duration = Duration::from_millis(250);

/// What reaches a node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Delivery {
    /// A message on the node's own channel.
    ToNode(String),
    /// A message on the channel every node reads.
    ToAll(String),
    /// The subscription was lost and is made again: messages may have been lost in
    /// between. The first delivery after a node connects is also a gap.
    Gap,
}

/// A node's way to publish; its deliveries come on the receiver [`Broker::connect`]
/// returns.
#[derive(Clone)]
pub struct Broker {
    redis: ConnectionManager,
    node: String,
}

impl std::fmt::Debug for Broker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Broker")
            .field("node", &self.node)
            .finish_non_exhaustive()
    }
}

impl Broker {
    /// Connects node `node` to Redis at `url`: a connection to publish on, and a
    /// task that keeps the node subscribed to its channels (remade after every loss,
    /// each loss delivered as a [`Delivery::Gap`]) until the receiver is dropped.
    pub async fn connect(
        url: &str,
        node: &str,
    ) -> Result<(Broker, mpsc::Receiver<Delivery>), ClusterError> {
        let client = redis::Client::open(url).map_err(doing("reading the Redis URL"))?;
        let redis = super::redis_connection(url).await?;
        let (tx, rx) = mpsc::channel(QUEUE);
        let first = subscribe(&client, node)
            .await
            .map_err(doing("subscribing"))?;
        tokio::spawn(keep_subscribed(client, node.to_string(), first, tx));
        Ok((
            Broker {
                redis,
                node: node.to_string(),
            },
            rx,
        ))
    }

    /// This node's name.
    pub fn node(&self) -> &str {
        &self.node
    }

    /// Publishes `payload` on node `node`'s channel; how many nodes got it (0: that
    /// node is not subscribed now).
    pub async fn to_node(&self, node: &str, payload: &str) -> Result<u64, ClusterError> {
        self.publish(&node_channel(node), payload).await
    }

    /// Publishes `payload` to every node (this one too); how many got it.
    pub async fn to_all(&self, payload: &str) -> Result<u64, ClusterError> {
        self.publish(ALL, payload).await
    }

    async fn publish(&self, channel: &str, payload: &str) -> Result<u64, ClusterError> {
        redis::cmd("PUBLISH")
            .arg(channel)
            .arg(payload)
            .query_async(&mut self.redis.clone())
            .await
            .map_err(doing("publishing"))
    }
}

/// A subscription: the sink that pings it, and its messages.
type Subscription = (PubSubSink, redis::aio::PubSubStream);

async fn subscribe(client: &redis::Client, node: &str) -> redis::RedisResult<Subscription> {
    let pubsub = client.get_async_pubsub().await?;
    let (mut sink, stream) = pubsub.split();
    sink.subscribe(&[node_channel(node), ALL.to_string()])
        .await?;
    Ok((sink, stream))
}

/// Reads `first` until it is lost, then subscribes again (as often as it takes), a
/// gap told each time; stops when the node drops its receiver.
async fn keep_subscribed(
    client: redis::Client,
    node: String,
    first: Subscription,
    tx: mpsc::Sender<Delivery>,
) {
    let own = node_channel(&node);
    let mut subscription = Some(first);
    loop {
        let (sink, stream) = match subscription.take() {
            Some(s) => s,
            None => match subscribe(&client, &node).await {
                Ok(s) => s,
                Err(error) => {
                    tracing::debug!(%error, "subscribing to the broker again");
                    tokio::time::sleep(RETRY_EVERY).await;
                    if tx.is_closed() {
                        return;
                    }
                    continue;
                }
            },
        };
        if tx.send(Delivery::Gap).await.is_err() {
            return;
        }
        if !read_until_lost(sink, stream, &own, &tx).await {
            return;
        }
        tracing::warn!(node = %node, "the broker's subscription was lost; subscribing again");
    }
}

/// Passes on what `stream` brings until it ends or a ping goes unanswered (`true`),
/// or the node drops its receiver (`false`).
async fn read_until_lost(
    mut sink: PubSubSink,
    mut stream: redis::aio::PubSubStream,
    own: &str,
    tx: &mpsc::Sender<Delivery>,
) -> bool {
    let mut ping = tokio::time::interval(PING_EVERY);
    ping.tick().await;
    loop {
        tokio::select! {
            message = stream.next() => {
                let Some(message) = message else { return true };
                let Some(delivery) = delivery(&message, own) else { continue };
                if tx.send(delivery).await.is_err() {
                    return false;
                }
            }
            _ = ping.tick() => {
                // Subscribed, Redis answers a ping with a message, not "PONG": any
                // answer will do.
                let answered = tokio::time::timeout(PING_EVERY, sink.ping::<redis::Value>()).await;
                if !matches!(answered, Ok(Ok(_))) {
                    return true;
                }
                if tx.is_closed() {
                    return false;
                }
            }
        }
    }
}

/// The delivery a message makes, if it is one to pass on.
fn delivery(message: &redis::Msg, own: &str) -> Option<Delivery> {
    let payload = message.get_payload_bytes();
    if payload.len() > MAX_PAYLOAD {
        tracing::warn!(
            bytes = payload.len(),
            "a broker message over the limit was dropped"
        );
        return None;
    }
    let Ok(text) = std::str::from_utf8(payload) else {
        tracing::warn!("a broker message not in UTF-8 was dropped");
        return None;
    };
    let channel = message.get_channel_name();
    if channel == own {
        Some(Delivery::ToNode(text.to_string()))
    } else if channel == ALL {
        Some(Delivery::ToAll(text.to_string()))
    } else {
        None
    }
}
