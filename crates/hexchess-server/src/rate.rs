//! How many messages a client may send: a number of credits for each window of time,
//! spent one a message and given back whole when the window is over (as lila-ws limits
//! its clients: docs/online-research.md §4). A client over its limit is refused until
//! the window ends; the server closes a connection that keeps on.

use std::time::Duration;

/// Credits per window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateLimit {
    credits: u32,
    window: Duration,
    left: u32,
    window_start: Duration,
}

impl RateLimit {
    /// A limit of `credits` messages each `window`, starting at `now`.
    pub fn new(credits: u32, window: Duration, now: Duration) -> RateLimit {
        RateLimit {
            credits,
            window,
            left: credits,
            window_start: now,
        }
    }

    /// A player at a game: 100 messages each 20 seconds (moves, clocks, chat).
    pub fn player(now: Duration) -> RateLimit {
        RateLimit::new(100, Duration::from_secs(20), now)
    }

    /// A spectator: 50 each 20 seconds.
    pub fn spectator(now: Duration) -> RateLimit {
        RateLimit::new(50, Duration::from_secs(20), now)
    }

    /// Whether a message at `now` is allowed (and spends a credit if it is).
    pub fn allow(&mut self, now: Duration) -> bool {
        if now.saturating_sub(self.window_start) >= self.window {
            self.window_start = now;
            self.left = self.credits;
        }
        if self.left == 0 {
            return false;
        }
        self.left -= 1;
        true
    }

    /// How long until the window ends and the credits come back.
    pub fn retry_after(&self, now: Duration) -> Duration {
        (self.window_start + self.window).saturating_sub(now)
    }

    /// Whether its window has ended (it is as good as a new one).
    fn expired(&self, now: Duration) -> bool {
        now.saturating_sub(self.window_start) >= self.window
    }
}

/// A limit per key (an address, an account's name): each key its own [`RateLimit`],
/// at most `max_keys` of them remembered. Keys whose window has ended are forgotten
/// first; when every remembered key is still counting, a new key is refused (a flood
/// from more addresses than that is refused as a whole, not remembered without end).
#[derive(Debug)]
pub struct KeyedLimits<K> {
    credits: u32,
    window: Duration,
    max_keys: usize,
    keys: std::sync::Mutex<std::collections::HashMap<K, RateLimit>>,
}

/// Why a keyed limit refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TryAgain(pub Duration);

impl std::fmt::Display for TryAgain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "try again in {} s", self.0.as_secs() + 1)
    }
}

impl<K: std::hash::Hash + Eq + Clone> KeyedLimits<K> {
    /// `credits` each `window` per key, at most `max_keys` keys.
    pub fn new(credits: u32, window: Duration, max_keys: usize) -> KeyedLimits<K> {
        KeyedLimits {
            credits,
            window,
            max_keys,
            keys: std::sync::Mutex::default(),
        }
    }

    /// Spends one of `key`'s credits at `now`, or says how long until it may.
    pub fn check(&self, key: &K, now: Duration) -> Result<(), TryAgain> {
        let mut keys = self.keys.lock().unwrap_or_else(|p| p.into_inner());
        if !keys.contains_key(key) && keys.len() >= self.max_keys {
            keys.retain(|_, limit| !limit.expired(now));
            if keys.len() >= self.max_keys {
                return Err(TryAgain(self.window));
            }
        }
        let limit = keys
            .entry(key.clone())
            .or_insert_with(|| RateLimit::new(self.credits, self.window, now));
        if limit.allow(now) {
            Ok(())
        } else {
            Err(TryAgain(limit.retry_after(now)))
        }
    }

    /// Keys remembered now.
    pub fn len(&self) -> usize {
        self.keys.lock().map_or(0, |k| k.len())
    }

    /// Whether no key is being counted.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// What a client's address counts as for the limits: an IPv4 address itself, an IPv6
/// address by its /64 network (one machine is given a whole /64, so counting single
/// IPv6 addresses would let it pass any limit).
pub fn address_key(address: std::net::IpAddr) -> std::net::IpAddr {
    match address {
        std::net::IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => std::net::IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                std::net::IpAddr::V6(std::net::Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
        v4 => v4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_is_refused_past_its_credits_until_the_window_ends() {
        let s = Duration::from_secs;
        let mut limit = RateLimit::new(3, s(10), s(0));
        assert!(limit.allow(s(1)) && limit.allow(s(2)) && limit.allow(s(3)));
        assert!(!limit.allow(s(4)), "the fourth in the window");
        assert!(!limit.allow(s(9)));
        assert!(limit.allow(s(10)), "a new window");
        assert!(limit.allow(s(11)) && limit.allow(s(12)));
        assert!(!limit.allow(s(13)));
        // The shipped limits.
        let mut player = RateLimit::player(s(0));
        assert_eq!((0..150).filter(|_| player.allow(s(5))).count(), 100);
        let mut watcher = RateLimit::spectator(s(0));
        assert_eq!((0..150).filter(|_| watcher.allow(s(5))).count(), 50);
    }

    #[test]
    fn each_key_has_its_own_limit_and_the_map_stays_bounded() {
        let s = Duration::from_secs;
        let limits = KeyedLimits::new(2, s(60), 3);
        assert!(limits.check(&"a", s(0)).is_ok() && limits.check(&"a", s(1)).is_ok());
        assert_eq!(limits.check(&"a", s(10)), Err(TryAgain(s(50))));
        assert_eq!(TryAgain(s(50)).to_string(), "try again in 51 s");
        assert!(limits.check(&"b", s(10)).is_ok(), "another key");
        assert!(limits.check(&"c", s(10)).is_ok());
        // Three keys counting: a fourth is refused, not remembered.
        assert!(limits.check(&"d", s(20)).is_err());
        assert_eq!(limits.len(), 3);
        // Once a's window is over, it is forgotten to make room.
        assert!(limits.check(&"d", s(60)).is_ok());
        assert_eq!(limits.len(), 3);
        assert!(limits.check(&"a", s(61)).is_err(), "b, c and d still count");
        assert!(
            limits.check(&"a", s(70)).is_ok(),
            "b and c are over: a starts again"
        );
    }

    #[test]
    fn an_ipv6_address_counts_by_its_network() {
        let a: std::net::IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: std::net::IpAddr = "2001:db8:1:2:bbbb::9".parse().unwrap();
        let c: std::net::IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(address_key(a), address_key(b));
        assert_ne!(address_key(a), address_key(c));
        let v4: std::net::IpAddr = "127.0.0.1".parse().unwrap();
        let mapped: std::net::IpAddr = "::ffff:127.0.0.1".parse().unwrap();
        assert_eq!(address_key(mapped), v4);
        assert_eq!(address_key(v4), v4);
    }
}
