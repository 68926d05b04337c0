//! The Dutch pairing, bracket by bracket.
//!
//! Each bracket (the players moved down from above, the MDPs, with a scoregroup's
//! residents) is paired by asking for the best matching of everyone still
//! unpaired under the criteria's weights (`criteria.rs`), then fixing that
//! bracket's pairs one decision at a time in the order the sequence rules give
//! (Article 4), each time nudging the order field so that among the equally good
//! pairings the one generated first by the rules wins:
//!
//! 1. which MDPs are paired here (4.4: the set with the smallest differing
//!    pairing order, so each MDP in turn if it can be);
//! 2. each paired MDP's opponent (4.2: the first in S2's order that still allows
//!    the best pairing);
//! 3. in the remainder, which players change between S1 and S2 (4.3: fewest
//!    exchanged, then the smallest difference of the sums of their bracket
//!    numbers, then the lowest of S1 moved down and the highest of S2 moved up);
//! 4. each S1 player's opponent, as in 2.
//!
//! Whoever the bracket leaves unpaired moves down to the next one.

use super::SwissError;
use super::criteria::{ByePlan, Layout, Place, weight};
use super::field::Field;
use super::matching::max_weight_matching;
use super::wide::Wide;

/// A round's pairs (indices into the field's entrants, in no colour yet) and the
/// player left for the bye.
#[derive(Clone, Debug)]
pub(crate) struct Matched {
    pub pairs: Vec<(usize, usize)>,
    pub bye: Option<usize>,
}

struct Pairer<'a, const N: usize> {
    field: &'a Field,
    layout: &'a Layout,
    bye: ByePlan,
    n: usize,
    /// The criteria's weight of each pair (zero: they may not meet).
    base: Vec<Wide<N>>,
    /// The order field's nudges, below every criterion.
    order: Vec<u64>,
    done: Vec<bool>,
    pairs: Vec<(usize, usize)>,
    /// Each player's partner in the latest best matching.
    mate: Vec<Option<usize>>,
}

/// Pairs the round; `N` limbs must hold `layout.total_bits`.
pub(crate) fn pair<const N: usize>(field: &Field, layout: &Layout) -> Result<Matched, SwissError> {
    let n = field.entrants.len();
    let mut p = Pairer::<N> {
        field,
        layout,
        bye: ByePlan::default(),
        n,
        base: vec![Wide::ZERO; n * n],
        order: vec![0; n * n],
        done: vec![false; n],
        pairs: Vec::new(),
        mate: vec![None; n],
    };
    p.plan_bye()?;
    p.weigh_all(Place::Beyond);
    p.solve();
    if p.mate.iter().filter(|m| m.is_none()).count() > n % 2 {
        return Err(SwissError::NoPairing);
    }
    let groups = p.scoregroups();
    let mut carried: Vec<usize> = Vec::new();
    for (g, residents) in groups.iter().enumerate() {
        let next = groups.get(g + 1).cloned().unwrap_or(n..n);
        carried = p.pair_bracket(&carried, residents.clone(), next.clone());
        p.bye.single_downfloater = p.next_bracket_downfloats_the_bye(&carried, next);
    }
    let left: Vec<usize> = (0..n).filter(|&i| !p.done[i]).collect();
    match left.as_slice() {
        [] => Ok(Matched {
            pairs: p.pairs,
            bye: None,
        }),
        [one] if field.entrants[*one].bye_eligible => Ok(Matched {
            pairs: p.pairs,
            bye: Some(*one),
        }),
        _ => Err(SwissError::NoPairing),
    }
}

impl<const N: usize> Pairer<'_, N> {
    fn at(&self, i: usize, j: usize) -> usize {
        if i < j {
            i * self.n + j
        } else {
            j * self.n + i
        }
    }

    fn edge(&self, i: usize, j: usize) -> Wide<N> {
        let k = self.at(i, j);
        if self.base[k].is_zero() {
            Wide::ZERO
        } else {
            self.base[k] + Wide::from_u64(self.order[k])
        }
    }

    fn has_edge(&self, i: usize, j: usize) -> bool {
        !self.base[self.at(i, j)].is_zero()
    }

    fn set_order(&mut self, i: usize, j: usize, value: u64) {
        let k = self.at(i, j);
        self.order[k] = value;
    }

    fn forbid(&mut self, i: usize, j: usize) {
        let k = self.at(i, j);
        self.base[k] = Wide::ZERO;
        self.order[k] = 0;
    }

    /// The best matching of everyone not yet paired.
    fn solve(&mut self) {
        let active: Vec<usize> = (0..self.n).filter(|&i| !self.done[i]).collect();
        let mate = max_weight_matching(active.len(), |a, b| self.edge(active[a], active[b]));
        self.mate = vec![None; self.n];
        for (a, m) in mate.into_iter().enumerate() {
            self.mate[active[a]] = m.map(|b| active[b]);
        }
    }

    fn finalize(&mut self, a: usize, b: usize) {
        self.done[a] = true;
        self.done[b] = true;
        self.pairs.push((a, b));
    }

    fn scoregroups(&self) -> Vec<std::ops::Range<usize>> {
        let mut out = Vec::new();
        let mut start = 0;
        for i in 1..=self.n {
            if i == self.n || self.field.entrants[i].score != self.field.entrants[start].score {
                out.push(start..i);
                start = i;
            }
        }
        out
    }

    /// Weighs every pair with the lower player at `place` (the completion and bye
    /// fields only, for `Beyond`).
    fn weigh_all(&mut self, place: Place) {
        for j in 0..self.n {
            for i in 0..j {
                self.weigh(i, j, place);
            }
        }
    }

    fn weigh(&mut self, i: usize, j: usize, place: Place) {
        let e = &self.field.entrants;
        let w = weight::<N>(self.field, self.layout, &self.bye, &e[i], &e[j], place);
        let k = self.at(i, j);
        self.base[k] = w;
        self.order[k] = 0;
    }

    /// C5 and C9 need to know, before any bracket is paired, the lowest score the
    /// bye can go to: found by a first matching that leaves out one player who
    /// may take the bye, as low as possible.
    fn plan_bye(&mut self) -> Result<(), SwissError> {
        let e = &self.field.entrants;
        let n = self.n;
        if n.is_multiple_of(2) {
            return Ok(());
        }
        let groups = self.scoregroups();
        let group_of = |i: usize| groups.iter().position(|g| g.contains(&i)).unwrap_or(0) as u64;
        let top = e.first().map_or(0, |p| p.score);
        // Wide enough for a whole matching's sums.
        let place_bits = 64 - (2 * (n * groups.len()) as u64 + 1).leading_zeros() + 1;
        let count_bits = 64 - (2 * n as u64 + 1).leading_zeros() + 1;
        let mate = max_weight_matching(n, |i, j| {
            if !self.field.compatible(&e[i], &e[j]) {
                return 0u128;
            }
            let completion = 1 + u128::from(!e[i].bye_eligible) + u128::from(!e[j].bye_eligible);
            // Lowest groups hold the lowest places: keeping high places matched
            // leaves the bye as low as it can go.
            let place = u128::from(groups.len() as u64 - 1 - group_of(i))
                + u128::from(groups.len() as u64 - 1 - group_of(j));
            let both_top = u128::from(e[j].score >= top && e[i].score >= top);
            (((completion << place_bits) + place) << count_bits) + both_top
        });
        let unmatched: Vec<usize> = (0..n).filter(|&i| mate[i].is_none()).collect();
        let [bye] = unmatched.as_slice() else {
            return Err(SwissError::NoPairing);
        };
        if !e[*bye].bye_eligible {
            return Err(SwissError::NoPairing);
        }
        let score = e[*bye].score;
        self.bye.score = Some(score);
        self.bye.single_downfloater = score >= top
            && (0..n)
                .filter(|&i| e[i].score >= top)
                .all(|i| mate[i].is_none_or(|m| e[m].score >= top));
        let at_bye: Vec<u32> = e
            .iter()
            .filter(|p| p.score == score)
            .map(|p| p.played_games)
            .collect();
        let mut ranks: Vec<(u32, u64)> = at_bye
            .iter()
            .map(|&g| (g, at_bye.iter().filter(|&&h| h >= g).count() as u64 - 1))
            .collect();
        ranks.sort_unstable();
        ranks.dedup();
        self.bye.unplayed_rank = ranks;
        Ok(())
    }

    /// Pairs one bracket (`carried` MDPs and the `residents`) with `next` as the
    /// look-ahead; returns who moves down.
    fn pair_bracket(
        &mut self,
        carried: &[usize],
        residents: std::ops::Range<usize>,
        next: std::ops::Range<usize>,
    ) -> Vec<usize> {
        for j in residents.clone().chain(next.clone()) {
            let place = if residents.contains(&j) {
                Place::Current
            } else {
                Place::Next
            };
            let earlier: Vec<usize> = carried
                .iter()
                .copied()
                .chain(residents.start..j)
                .filter(|&i| !self.done[i])
                .collect();
            for i in earlier {
                self.weigh(i, j, place);
            }
        }
        self.solve();
        let locked = self.choose_paired_mdps(carried, residents.clone());
        self.pair_mdps(&locked, residents.clone());
        let remainder: Vec<usize> = residents.clone().filter(|&r| !self.done[r]).collect();
        self.pair_remainder(&remainder, next);
        carried
            .iter()
            .copied()
            .chain(residents)
            .filter(|&i| !self.done[i])
            .collect()
    }

    fn paired_with_resident(&self, m: usize, residents: &std::ops::Range<usize>) -> bool {
        self.mate[m].is_some_and(|r| residents.contains(&r))
    }

    fn lock(&self) -> u64 {
        1 << self.layout.index_bits
    }

    /// 4.4: the MDPs paired in the bracket, each score's in pairing order as long as
    /// the best pairing still allows it.
    fn choose_paired_mdps(
        &mut self,
        carried: &[usize],
        residents: std::ops::Range<usize>,
    ) -> Vec<usize> {
        let e = &self.field.entrants;
        let mut locked = Vec::new();
        let mut start = 0;
        while start < carried.len() {
            let score = e[carried[start]].score;
            let end = start
                + carried[start..]
                    .iter()
                    .take_while(|&&m| e[m].score == score)
                    .count();
            let group = &carried[start..end];
            start = end;
            let mut matched = group
                .iter()
                .filter(|&&m| self.paired_with_resident(m, &residents))
                .count();
            let mut remaining = group.len();
            for &m in group {
                if matched == 0 {
                    break;
                }
                if remaining > matched {
                    remaining -= 1;
                    if !self.paired_with_resident(m, &residents) {
                        self.nudge_to(m, residents.clone(), 1);
                        self.solve();
                    }
                    if !self.paired_with_resident(m, &residents) {
                        self.nudge_to(m, residents.clone(), 0);
                        continue;
                    }
                    matched -= 1;
                }
                let lock = self.lock();
                self.nudge_to(m, residents.clone(), lock);
                locked.push(m);
            }
        }
        locked
    }

    fn nudge_to(&mut self, m: usize, to: std::ops::Range<usize>, value: u64) {
        for r in to {
            if !self.done[r] && self.has_edge(m, r) {
                self.set_order(m, r, value);
            }
        }
    }

    /// 4.2 for the MDP-pairing: each paired MDP in turn meets the highest resident
    /// that still allows the best pairing.
    fn pair_mdps(&mut self, locked: &[usize], residents: std::ops::Range<usize>) {
        for &m in locked {
            let mut nudge = self.lock() + 1;
            for r in residents.clone().rev() {
                if !self.done[r] && self.has_edge(m, r) {
                    self.set_order(m, r, nudge);
                    nudge += 1;
                }
            }
            let first = residents
                .clone()
                .find(|&r| !self.done[r] && self.has_edge(m, r));
            if self.mate[m] != first {
                self.solve();
            }
            if let Some(r) = self.mate[m] {
                self.finalize(m, r);
            }
        }
    }

    /// The order nudge of the remainder's pair (i, j), positions in it: S1 players
    /// as the higher of a pair first (fewest exchanges), then the lowest sum of
    /// the higher players' positions (4.3's difference of sums); the bottom bit
    /// is left for trying one player at a time.
    fn exchange_nudge(&self, i: usize, s1: usize) -> u64 {
        let b = self.layout.index_bits;
        let in_s1 = u64::from(i < s1);
        ((in_s1 << (2 * b)) + ((1 << b) - 1 - i as u64)) * 2
    }

    fn is_higher_in(&self, remainder: &[usize], i: usize) -> bool {
        self.mate[remainder[i]]
            .and_then(|m| remainder.iter().position(|&r| r == m))
            .is_some_and(|j| j > i)
    }

    fn pair_remainder(&mut self, remainder: &[usize], next: std::ops::Range<usize>) {
        let s1 = (0..remainder.len())
            .filter(|&j| {
                self.mate[remainder[j]]
                    .and_then(|m| remainder.iter().position(|&r| r == m))
                    .is_some_and(|i| i < j)
            })
            .count();
        let len = remainder.len();
        for i in 0..len {
            for j in i + 1..len {
                if self.has_edge(remainder[i], remainder[j]) {
                    let v = self.exchange_nudge(i, s1);
                    self.set_order(remainder[i], remainder[j], v);
                }
            }
        }
        self.solve();
        let exchanges = (0..s1)
            .filter(|&i| !self.is_higher_in(remainder, i))
            .count();
        self.move_down_from_s1(remainder, s1, exchanges);
        self.move_up_from_s2(remainder, s1, exchanges, next);
        // The exchanges are settled: only S1's players may pair downwards, only
        // with S2's.
        for i in 0..len {
            for j in i + 1..len {
                let (a, b) = (remainder[i], remainder[j]);
                if !self.is_higher_in(remainder, i) || self.is_higher_in(remainder, j) {
                    self.forbid(a, b);
                } else {
                    self.set_order(a, b, 0);
                }
            }
        }
        for i in 0..len {
            if self.done[remainder[i]] || !self.is_higher_in(remainder, i) {
                continue;
            }
            let mut nudge = 0;
            for j in (i + 1..len).rev() {
                if self.done[remainder[j]] {
                    continue;
                }
                if self.has_edge(remainder[i], remainder[j]) {
                    self.set_order(remainder[i], remainder[j], nudge);
                }
                nudge += 1;
            }
            let first = (i + 1..len)
                .map(|j| remainder[j])
                .find(|&r| !self.done[r] && self.has_edge(remainder[i], r));
            if self.mate[remainder[i]] != first {
                self.solve();
            }
            if let Some(m) = self.mate[remainder[i]] {
                self.finalize(remainder[i], m);
            }
        }
    }

    /// 4.3 c: of S1, the lowest players go to S2 first.
    fn move_down_from_s1(&mut self, remainder: &[usize], s1: usize, exchanges: usize) {
        let len = remainder.len();
        let mut left = exchanges;
        for i in (0..s1).rev() {
            if left == 0 {
                break;
            }
            if self.is_higher_in(remainder, i) {
                for j in i + 1..len {
                    if self.has_edge(remainder[i], remainder[j]) {
                        let v = self.exchange_nudge(i, s1) - 1;
                        self.set_order(remainder[i], remainder[j], v);
                    }
                }
                self.solve();
            }
            let moved = !self.is_higher_in(remainder, i);
            left -= usize::from(moved);
            for j in i + 1..len {
                if moved {
                    self.forbid(remainder[i], remainder[j]);
                } else if self.has_edge(remainder[i], remainder[j]) {
                    let v = self.exchange_nudge(i, s1);
                    self.set_order(remainder[i], remainder[j], v);
                }
            }
        }
    }

    /// 4.3 d: of S2, the highest players go to S1 first.
    fn move_up_from_s2(
        &mut self,
        remainder: &[usize],
        s1: usize,
        exchanges: usize,
        next: std::ops::Range<usize>,
    ) {
        let len = remainder.len();
        let mut left = exchanges;
        for j in s1..len {
            if left <= 1 {
                break;
            }
            let already = self.is_higher_in(remainder, j);
            if !already {
                for k in j + 1..len {
                    if self.has_edge(remainder[j], remainder[k]) {
                        let v = self.exchange_nudge(j, s1) + 1;
                        self.set_order(remainder[j], remainder[k], v);
                    }
                }
                self.solve();
            }
            if self.is_higher_in(remainder, j) {
                left -= 1;
                for i in 0..j {
                    self.forbid(remainder[i], remainder[j]);
                }
                for x in next.clone() {
                    self.forbid(remainder[j], x);
                }
            }
            if !already {
                for k in j + 1..len {
                    if self.has_edge(remainder[j], remainder[k]) {
                        let v = self.exchange_nudge(j, s1);
                        self.set_order(remainder[j], remainder[k], v);
                    }
                }
            }
        }
    }

    /// C9 weighs the next bracket when the bye's score is at or below it and,
    /// in the best matching, nobody from it or above it still unpaired goes
    /// further down.
    fn next_bracket_downfloats_the_bye(
        &self,
        carried: &[usize],
        next: std::ops::Range<usize>,
    ) -> bool {
        let e = &self.field.entrants;
        let Some(bye) = self.bye.score else {
            return false;
        };
        if next.is_empty() {
            return false;
        }
        let floor = e[next.start].score;
        bye >= floor
            && carried
                .iter()
                .copied()
                .chain(next)
                .all(|i| self.mate[i].is_none_or(|m| e[m].score >= floor))
    }
}
