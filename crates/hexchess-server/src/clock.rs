//! A clock for every seat, run by the server: Fischer increment, and the network's lag
//! given back to the player who suffered it, within a quota, so that a player far from
//! the server is not flagged by the wire and a player cannot claim lag without limit.
//!
//! The quota works as lichess's lag compensation does (docs/online-research.md §3):
//! each seat starts with three moves' worth of allowance and may bank up to seven;
//! every move adds one move's worth and spends what was credited. A move's worth is
//! larger for slower games (0.4 cs for each second of the expected game length, plus
//! 15 cs, at most one second). The seat's remaining quota, up to two seconds, is also
//! the grace before its flag is called.

use std::time::Duration;

use hexchess_core::Side;

/// Minutes and increment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// The time each seat starts with.
    pub base: Duration,
    /// Added after each of its turns.
    pub increment: Duration,
}

impl TimeControl {
    /// lichess's speed of a game with this clock, by the length of a game of 40 moves
    /// a side: ratings are kept per variant and speed.
    pub fn speed(self) -> &'static str {
        hexchess_protocol::speed_of_clock(self.base.as_secs(), self.increment.as_secs())
    }

    /// The length of a game of 40 moves a side, which sizes the lag quota.
    fn expected_length(self) -> Duration {
        self.base + self.increment * 40
    }
}

/// A seat's allowance for lag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LagQuota {
    gain: Duration,
    quota: Duration,
    max: Duration,
}

/// The longest grace given before a flag falls.
const MAX_GRACE: Duration = Duration::from_secs(2);

impl LagQuota {
    /// The quota for a time control: a move's worth is 0.4 cs per second of the
    /// expected game plus 15 cs, at most one second; it starts at three moves' worth
    /// and is never more than seven.
    pub fn for_control(tc: TimeControl) -> LagQuota {
        let centis = (tc.expected_length().as_secs_f64() * 0.4 + 15.0).min(100.0);
        let gain = Duration::from_millis((centis * 10.0).round() as u64);
        LagQuota {
            gain,
            quota: gain * 3,
            max: gain * 7,
        }
    }

    /// One move's worth.
    pub fn gain(&self) -> Duration {
        self.gain
    }

    /// What is banked now.
    pub fn banked(&self) -> Duration {
        self.quota
    }

    /// The time given back for a move whose player's lag was `lag`: all of it, or what
    /// the quota holds; the quota spends that and gains a move's worth.
    pub fn credit(&mut self, lag: Duration) -> Duration {
        let credited = lag.min(self.quota);
        self.quota = (self.quota - credited + self.gain).min(self.max);
        credited
    }

    /// How long past zero a flag waits: the quota, at most two seconds (a move may be
    /// on the wire).
    pub fn grace(&self) -> Duration {
        self.quota.min(MAX_GRACE)
    }
}

/// The seat whose time ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flagged(pub Side);

/// Every seat's clock; at most one runs.
#[derive(Clone, Debug)]
pub struct Clock {
    control: TimeControl,
    left: Vec<Duration>,
    quota: Vec<LagQuota>,
    /// The seat whose clock runs, and since when.
    running: Option<(Side, Duration)>,
    /// Seats gone berserk: no increment.
    berserk: Vec<bool>,
}

impl Clock {
    /// Clocks for `seats` seats, none running.
    pub fn new(control: TimeControl, seats: usize) -> Clock {
        Clock {
            control,
            left: vec![control.base; seats],
            quota: vec![LagQuota::for_control(control); seats],
            running: None,
            berserk: vec![false; seats],
        }
    }

    /// `side`'s clock starts at `now` (the game's first turn, or after a pause).
    pub fn start(&mut self, side: Side, now: Duration) {
        self.running = Some((side, now));
    }

    /// Each seat's time left as stored before a restart; none runs.
    pub fn restore(&mut self, left: &[Duration]) {
        for (kept, stored) in self.left.iter_mut().zip(left) {
            *kept = *stored;
        }
        self.running = None;
    }

    /// `side` goes berserk: no increment from now on, and (`halve`) half the time it
    /// has (not halved again when a restart restores a berserk seat's stored time).
    pub fn berserk(&mut self, side: Side, halve: bool) {
        let i = side.index();
        if halve {
            self.left[i] /= 2;
        }
        self.berserk[i] = true;
    }

    /// Whether `side` went berserk.
    pub fn is_berserk(&self, side: Side) -> bool {
        self.berserk[side.index()]
    }

    /// The time control.
    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// The seat whose clock runs.
    pub fn running(&self) -> Option<Side> {
        self.running.map(|(s, _)| s)
    }

    /// The time `side` has left at `now`.
    pub fn left(&self, side: Side, now: Duration) -> Duration {
        let left = self.left[side.index()];
        match self.running {
            Some((s, since)) if s == side => left.saturating_sub(now.saturating_sub(since)),
            _ => left,
        }
    }

    /// `side`'s lag quota.
    pub fn quota(&self, side: Side) -> LagQuota {
        self.quota[side.index()]
    }

    /// The seat on move ended its turn at `now` (when its move reached the server),
    /// its lag measured as `lag`: charged the time it took less the lag credited,
    /// given the increment; `next`'s clock starts. Its time left, or the flag when it
    /// had run out beyond the grace.
    pub fn turn_ended(
        &mut self,
        side: Side,
        now: Duration,
        lag: Duration,
        next: Side,
    ) -> Result<Duration, Flagged> {
        let since = match self.running {
            Some((s, since)) if s == side => since,
            // Not its clock that ran: nothing to charge.
            _ => now,
        };
        let i = side.index();
        // The grace as it stood while the clock ran, as `flagged` judges it.
        let grace = self.quota[i].grace();
        let credited = self.quota[i].credit(lag);
        let took = now.saturating_sub(since).saturating_sub(credited);
        if took > self.left[i] + grace {
            self.left[i] = Duration::ZERO;
            self.running = None;
            return Err(Flagged(side));
        }
        let increment = if self.berserk[i] {
            Duration::ZERO
        } else {
            self.control.increment
        };
        self.left[i] = self.left[i].saturating_sub(took) + increment;
        self.running = Some((next, now));
        Ok(self.left[i])
    }

    /// The seat whose flag has fallen at `now` (its time and its grace spent).
    pub fn flagged(&self, now: Duration) -> Option<Side> {
        let (side, since) = self.running?;
        let i = side.index();
        let spent = now.saturating_sub(since);
        (spent > self.left[i] + self.quota[i].grace()).then_some(side)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_clock_has_lichess_s_speed() {
        let tc = |m: u64, i: u64| TimeControl {
            base: Duration::from_secs(m * 60),
            increment: Duration::from_secs(i),
        };
        assert_eq!(tc(0, 0).speed(), "ultrabullet");
        assert_eq!(tc(1, 0).speed(), "bullet");
        assert_eq!(tc(2, 1).speed(), "bullet"); // 120 + 40 = 160 s
        assert_eq!(tc(3, 0).speed(), "blitz");
        assert_eq!(tc(5, 3).speed(), "blitz"); // 300 + 120 = 420 s
        assert_eq!(tc(10, 0).speed(), "rapid");
        assert_eq!(tc(15, 10).speed(), "rapid"); // 900 + 400 = 1300 s
        assert_eq!(tc(30, 0).speed(), "classical");
    }

    use super::*;

    fn secs(s: f64) -> Duration {
        Duration::from_secs_f64(s)
    }

    fn control(minutes: u64, increment: u64) -> TimeControl {
        TimeControl {
            base: Duration::from_secs(minutes * 60),
            increment: Duration::from_secs(increment),
        }
    }

    #[test]
    fn a_moves_worth_of_quota_grows_with_the_game_and_stops_at_a_second() {
        // 1+0: 60 s expected, 0.4 * 60 + 15 = 39 cs.
        let bullet = LagQuota::for_control(control(1, 0));
        assert_eq!(bullet.gain(), Duration::from_millis(390));
        assert_eq!(bullet.banked(), Duration::from_millis(1170));
        // 3+2: 180 + 80 = 260 s expected, 104 + 15 cs: at most a second.
        assert_eq!(
            LagQuota::for_control(control(3, 2)).gain(),
            Duration::from_secs(1)
        );
    }

    #[test]
    fn lag_is_given_back_within_the_quota_which_refills_a_moves_worth_at_a_time() {
        let mut q = LagQuota::for_control(control(1, 0)); // gain 0.39 s, banked 1.17 s
        // A 0.3 s lag is given back whole; the bank gains 0.09 s.
        assert_eq!(q.credit(secs(0.3)), secs(0.3));
        assert_eq!(q.banked(), Duration::from_millis(1260));
        // Claimed lag of 5 s: only what is banked.
        assert_eq!(q.credit(secs(5.0)), Duration::from_millis(1260));
        assert_eq!(q.banked(), Duration::from_millis(390));
        // Never more than seven moves' worth however long without lag.
        for _ in 0..20 {
            q.credit(Duration::ZERO);
        }
        assert_eq!(q.banked(), Duration::from_millis(2730));
        assert_eq!(q.grace(), Duration::from_secs(2));
    }

    #[test]
    fn a_turn_is_charged_its_time_less_lag_plus_the_increment_and_the_next_clock_runs() {
        let mut clock = Clock::new(control(3, 2), 3);
        clock.start(Side::White, secs(0.0));
        // White took 10 s by the server's clock, 0.5 s of it on the wire.
        let left = clock.turn_ended(Side::White, secs(10.0), secs(0.5), Side::Black);
        assert_eq!(left, Ok(secs(180.0 - 9.5 + 2.0)));
        assert_eq!(clock.running(), Some(Side::Black));
        assert_eq!(clock.left(Side::Black, secs(15.0)), secs(175.0));
        assert_eq!(clock.left(Side::Third, secs(15.0)), secs(180.0));
        assert_eq!(clock.flagged(secs(15.0)), None);
    }

    #[test]
    fn a_flag_falls_after_the_time_and_the_grace_not_before() {
        let mut clock = Clock::new(control(1, 0), 2);
        clock.start(Side::White, secs(0.0));
        // Grace: the quota banked (1.17 s), under two seconds.
        assert_eq!(clock.flagged(secs(61.0)), None);
        assert_eq!(clock.flagged(secs(61.2)), Some(Side::White));
        // A move reaching the server within the grace still counts...
        let mut late = clock.clone();
        assert!(
            late.turn_ended(Side::White, secs(61.0), Duration::ZERO, Side::Black)
                .is_ok()
        );
        // ...one beyond it is a flag.
        assert_eq!(
            clock.turn_ended(Side::White, secs(62.0), Duration::ZERO, Side::Black),
            Err(Flagged(Side::White))
        );
        assert_eq!(clock.running(), None);
    }
}
