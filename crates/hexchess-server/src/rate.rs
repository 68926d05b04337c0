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
}
