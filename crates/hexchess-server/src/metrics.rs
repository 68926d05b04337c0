//! What an operator watches, at `/metrics` in Prometheus's text format, through the
//! Prometheus project's own Rust client (`prometheus-client`): the games in play and
//! the open sockets, moves played, how long a move takes from its arrival to its
//! event's leaving for the followers (the relay, database commit included) and a
//! database commit alone, sockets closed for their limits by reason, and sign-ins
//! refused.

use std::sync::atomic::AtomicU64;
use std::time::Duration;

use prometheus_client::encoding::text::encode;
use prometheus_client::encoding::{EncodeLabelSet, EncodeLabelValue};
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

/// Why a socket was closed by the server.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq, EncodeLabelValue)]
pub enum CloseReason {
    /// Over its rate of messages.
    Rate,
    /// Its outbox overflowed, or a write stalled: it does not read.
    NotReading,
    /// Neither a message nor an answer to the server's pings for too long.
    Idle,
    /// Over the connections of its address, or of the server.
    Connections,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct CloseLabels {
    reason: CloseReason,
}

/// Why a sign-in (a login or a registration) was refused.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq, EncodeLabelValue)]
pub enum SignInRefusal {
    /// A wrong name or password.
    Wrong,
    /// Over the address's or the name's limit.
    Limited,
    /// The hashing pool's queue was full.
    Busy,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct SignInLabels {
    why: SignInRefusal,
}

/// The server's metrics; cheap to update from any task.
pub struct Metrics {
    registry: Registry,
    /// Games whose room is open.
    pub games_in_play: Gauge<i64, std::sync::atomic::AtomicI64>,
    /// Websockets open.
    pub sockets: Gauge<i64, std::sync::atomic::AtomicI64>,
    /// Moves stored and sent on.
    pub moves: Counter<u64, AtomicU64>,
    /// Games a game node took (new ones, and those of a node that died).
    pub games_taken: Counter<u64, AtomicU64>,
    /// Writes refused because another node had taken the game (a stale owner's).
    pub writes_fenced: Counter<u64, AtomicU64>,
    /// Subscriptions to the broker lost and made again.
    pub broker_gaps: Counter<u64, AtomicU64>,
    relay: Histogram,
    commit: Histogram,
    closes: Family<CloseLabels, Counter>,
    sign_ins_refused: Family<SignInLabels, Counter>,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Metrics")
    }
}

impl Default for Metrics {
    fn default() -> Metrics {
        Metrics::new()
    }
}

impl Metrics {
    /// Every metric at zero, registered under the `hexchess` prefix.
    pub fn new() -> Metrics {
        let mut registry = Registry::with_prefix("hexchess");
        let games_in_play = Gauge::default();
        let sockets = Gauge::default();
        let moves = Counter::default();
        let games_taken = Counter::default();
        let writes_fenced = Counter::default();
        let broker_gaps = Counter::default();
        // 0.1 ms to about 3.3 s, doubling.
        let relay = Histogram::new(exponential_buckets(0.0001, 2.0, 16));
        let commit = Histogram::new(exponential_buckets(0.0001, 2.0, 16));
        let closes = Family::default();
        let sign_ins_refused = Family::default();
        registry.register("games_in_play", "Games in play now", games_in_play.clone());
        registry.register("sockets", "Websockets open now", sockets.clone());
        registry.register("moves", "Steps played and stored", moves.clone());
        registry.register(
            "games_taken",
            "Games this game node took: new ones, and those of a node that died",
            games_taken.clone(),
        );
        registry.register(
            "writes_fenced",
            "Writes refused because another node had taken the game",
            writes_fenced.clone(),
        );
        registry.register(
            "broker_gaps",
            "Subscriptions to the broker lost and made again",
            broker_gaps.clone(),
        );
        registry.register(
            "relay_seconds",
            "From a move's arrival to its events leaving for the followers, stored in between",
            relay.clone(),
        );
        registry.register(
            "db_commit_seconds",
            "One database write of a game's events (a move, an offer, an end)",
            commit.clone(),
        );
        registry.register(
            "socket_closes",
            "Sockets the server closed for their limits, by reason",
            closes.clone(),
        );
        registry.register(
            "sign_ins_refused",
            "Logins and registrations refused, by why",
            sign_ins_refused.clone(),
        );
        Metrics {
            registry,
            games_in_play,
            sockets,
            moves,
            games_taken,
            writes_fenced,
            broker_gaps,
            relay,
            commit,
            closes,
            sign_ins_refused,
        }
    }

    /// A move's relay time: from the connection reading it to its followers told.
    pub fn relay(&self, took: Duration) {
        self.relay.observe(took.as_secs_f64());
    }

    /// A database transaction's time.
    pub fn commit(&self, took: Duration) {
        self.commit.observe(took.as_secs_f64());
    }

    /// A socket closed, and why.
    pub fn closed(&self, reason: CloseReason) {
        self.closes.get_or_create(&CloseLabels { reason }).inc();
    }

    /// A sign-in refused, and why.
    pub fn sign_in_refused(&self, why: SignInRefusal) {
        self.sign_ins_refused
            .get_or_create(&SignInLabels { why })
            .inc();
    }

    /// Every metric in the Prometheus text format (OpenMetrics).
    pub fn render(&self) -> String {
        let mut text = String::new();
        if encode(&mut text, &self.registry).is_err() {
            text.clear();
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_has_each_metric_with_its_values() {
        let m = Metrics::new();
        m.moves.inc();
        m.moves.inc();
        m.games_in_play.set(3);
        m.relay(Duration::from_millis(2));
        m.closed(CloseReason::NotReading);
        m.sign_in_refused(SignInRefusal::Wrong);
        let text = m.render();
        assert!(text.contains("hexchess_moves_total 2"), "{text}");
        assert!(text.contains("hexchess_games_in_play 3"), "{text}");
        assert!(text.contains("hexchess_relay_seconds_count 1"), "{text}");
        assert!(
            text.contains("hexchess_socket_closes_total{reason=\"NotReading\"} 1"),
            "{text}"
        );
        assert!(
            text.contains("hexchess_sign_ins_refused_total{why=\"Wrong\"} 1"),
            "{text}"
        );
        assert!(text.ends_with("# EOF\n"), "{text}");
    }
}
