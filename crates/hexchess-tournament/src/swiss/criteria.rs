//! The Dutch criteria as edge weights.
//!
//! A pairing of the whole field is a matching; the Dutch rules rank pairings by
//! the completion and bye criteria (C4, C5) and then the quality criteria C6 to
//! C21, each counting only where every one before it ties. Each criterion gets a
//! field of the weight, the most important highest, wide enough that a whole
//! matching's sum stays inside it; the best pairing is then the matching of the
//! greatest weight. Below the criteria lies the *order* field, free for the
//! sequence rules (Article 4: which of equally good candidates comes first), which
//! `dutch.rs` fills as it fixes pairs one by one.
//!
//! Criteria about a bracket count only for edges whose lower player is a resident
//! of the bracket being paired ("current") or of the next one (C8's look-ahead);
//! every other edge carries only the completion and bye fields, which keep the
//! rest of the field pairable (C4) with the bye where C5 wants it.

use super::field::{Entrant, Field, Float};
use super::wide::Wide;
use crate::trf::Colour;

/// Where each field of a weight lies (bit offsets from the bottom).
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    /// The distinct scores, lowest first, each with its slot's offset within a
    /// score field (a slot holds as many as the players of that score).
    slots: Vec<(u32, u32)>,
    /// Whether float criteria apply: one and two rounds back.
    floats: [bool; 2],
    completion: u32,
    pairs_here: u32,
    scores_here: u32,
    pairs_next: u32,
    scores_next: u32,
    bye_games: u32,
    colour: [u32; 4],
    down_counts: [u32; 2],
    up_counts: [u32; 2],
    down_scores: [u32; 2],
    up_scores: [u32; 2],
    /// The bits a weight needs, with room for the matching's duals.
    pub total_bits: u32,
    /// Bits a player's index takes with a spare one (`2^index_bits > 2n`).
    pub index_bits: u32,
}

fn bits_for(value: u64) -> u32 {
    64 - value.leading_zeros()
}

impl Layout {
    pub fn new(field: &Field) -> Self {
        let n = field.entrants.len() as u64;
        let mut scores: Vec<u32> = field.entrants.iter().map(|e| e.score).collect();
        scores.sort_unstable();
        let mut slots = Vec::new();
        let mut score_field = 0;
        for (i, &s) in scores.iter().enumerate() {
            if i + 1 == scores.len() || scores[i + 1] != s {
                let size = scores.iter().filter(|&&t| t == s).count() as u64;
                slots.push((s, score_field));
                // Two counts a player at most (C18 counts both ends of a pair).
                score_field += bits_for(2 * size + 1);
            }
        }
        let count = bits_for(2 * n + 1) + 1;
        let index_bits = bits_for(2 * n + 1) + 1;
        let order_bits = 3 * index_bits + 4;
        let floats = [field.played_rounds >= 1, field.played_rounds >= 2];
        // Laid out from the bottom up: the order field, then the criteria in
        // reverse priority.
        let mut at = order_bits;
        let mut take = |width: u32| {
            let offset = at;
            at += width;
            offset
        };
        let mut up_scores = [0; 2];
        let mut down_scores = [0; 2];
        let mut up_counts = [0; 2];
        let mut down_counts = [0; 2];
        for back in [1, 0] {
            if floats[back] {
                up_scores[back] = take(score_field);
                down_scores[back] = take(score_field);
            }
        }
        for back in [1, 0] {
            if floats[back] {
                up_counts[back] = take(count);
                down_counts[back] = take(count);
            }
        }
        let mut colour = [0; 4];
        for c in colour.iter_mut().rev() {
            *c = take(count);
        }
        let bye_games = take(2 * count);
        let scores_next = take(score_field);
        let pairs_next = take(count);
        let scores_here = take(score_field);
        let pairs_here = take(count);
        let completion = take(count + 2);
        let total_bits = at + 4;
        Self {
            slots,
            floats,
            completion,
            pairs_here,
            scores_here,
            pairs_next,
            scores_next,
            bye_games,
            colour,
            down_counts,
            up_counts,
            down_scores,
            up_scores,
            total_bits,
            index_bits,
        }
    }

    /// The bit of `score`'s slot within a score field at `field`.
    fn slot_bit(&self, field: u32, score: u32) -> u32 {
        let place = self.slots.partition_point(|&(s, _)| s < score);
        field + self.slots.get(place).map_or(0, |&(_, offset)| offset)
    }
}

/// Where the bye goes, once known (C5, C9).
#[derive(Clone, Debug, Default)]
pub(crate) struct ByePlan {
    /// The lowest score the bye can go to (C5); `None` for an even field.
    pub score: Option<u32>,
    /// Whether C9 applies to the brackets now weighed: the bracket downfloats one
    /// player, who will take the bye.
    pub single_downfloater: bool,
    /// For each number of games played, a rank among the players at the bye's
    /// score: more unplayed games, a higher rank, so that matching them leaves the
    /// bye to the one with the fewest (C9).
    pub unplayed_rank: Vec<(u32, u64)>,
}

impl ByePlan {
    fn candidate(&self, e: &Entrant) -> bool {
        e.bye_eligible && e.score <= self.score.unwrap_or(0)
    }

    fn rank(&self, e: &Entrant) -> u64 {
        if self.score != Some(e.score) {
            return 0;
        }
        self.unplayed_rank
            .iter()
            .find(|(g, _)| *g == e.played_games)
            .map_or(0, |(_, r)| *r)
    }
}

/// Where the lower player of an edge stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Place {
    /// A resident of the bracket being paired.
    Current,
    /// In the next scoregroup.
    Next,
    /// Further down: only completion counts.
    Beyond,
}

/// The weight of pairing `higher` (earlier in pairing order) with `lower`, zero
/// when they may not meet.
pub(crate) fn weight<const N: usize>(
    field: &Field,
    layout: &Layout,
    bye: &ByePlan,
    higher: &Entrant,
    lower: &Entrant,
    place: Place,
) -> Wide<N> {
    if !field.compatible(higher, lower) {
        return Wide::ZERO;
    }
    let mut w = Wide::<N>::ZERO;
    // C4 and C5: every pair counts, and more for players who may not take the bye.
    let completion = 1 + u64::from(!bye.candidate(higher)) + u64::from(!bye.candidate(lower));
    w = w.with_field(layout.completion, completion);
    match place {
        Place::Current => {
            // C6, C7: pairs in the bracket, and the higher of them the better.
            w = w.with_field(layout.pairs_here, 1);
            w = w.with_field(layout.slot_bit(layout.scores_here, higher.score), 1);
        }
        Place::Next => {
            // C8: the same, one bracket ahead.
            w = w.with_field(layout.pairs_next, 1);
            w = w.with_field(layout.slot_bit(layout.scores_next, higher.score), 1);
        }
        Place::Beyond => {}
    }
    if bye.single_downfloater {
        w = w.with_field(layout.bye_games, bye.rank(higher) + bye.rank(lower));
    }
    if place != Place::Current {
        return w;
    }
    for (bit, kept) in layout.colour.iter().zip(colour_criteria(lower, higher)) {
        w = w.with_field(*bit, u64::from(kept));
    }
    let higher_is_mdp = higher.score > lower.score;
    for back in 0..2 {
        if !layout.floats[back] {
            continue;
        }
        // C14/C16: a resident who downfloated then is paired here.
        let downs = u64::from(lower.floats[back] == Float::Down)
            + u64::from(!higher_is_mdp && higher.floats[back] == Float::Down);
        w = w.with_field(layout.down_counts[back], downs);
        // C15/C17: an MDP's opponent who upfloated then.
        let up_kept = !(higher_is_mdp && lower.floats[back] == Float::Up);
        w = w.with_field(layout.up_counts[back], u64::from(up_kept));
        // C18/C20: MDPs who downfloated then are paired, the higher the better.
        if lower.floats[back] == Float::Down {
            w = w.with_field(layout.slot_bit(layout.down_scores[back], lower.score), 1);
        }
        if higher.floats[back] == Float::Down {
            w = w.with_field(layout.slot_bit(layout.down_scores[back], higher.score), 1);
        }
        // C19/C21: an upfloater again only against a low MDP.
        if up_kept {
            w = w.with_field(layout.slot_bit(layout.up_scores[back], higher.score), 1);
        }
    }
    w
}

/// C10 to C13 for one pair, each true when the pair keeps it: no topscorer's
/// colour difference beyond two, no topscorer's third colour in a row, both
/// preferences granted, both strong preferences granted.
fn colour_criteria(a: &Entrant, b: &Entrant) -> [bool; 4] {
    let same = a.prefer.is_some() && a.prefer == b.prefer;
    let difference_kept = !(a.absolute_imbalance() && b.absolute_imbalance() && same);
    let run_kept = !(a.absolute() && b.absolute() && same) || {
        if a.imbalance == b.imbalance {
            a.repeated.is_none() || a.repeated != b.repeated
        } else {
            // The one with the smaller difference yields; a third colour in a row
            // if their last two were the colour they now get.
            let yields = if a.imbalance > b.imbalance { b } else { a };
            yields.repeated != a.prefer.map(super::field::opposite)
        }
    };
    let strong = |e: &Entrant| e.strong || e.absolute();
    let strong_kept = !same || !strong(a) || !strong(b) || (a.absolute() && b.absolute());
    [difference_kept, run_kept, !same, strong_kept]
}

/// The colours of a pair (Article 5): `(white, black)` of `x` and `y`.
pub(crate) fn colours<'a>(
    field: &Field,
    x: &'a Entrant,
    y: &'a Entrant,
) -> (&'a Entrant, &'a Entrant) {
    let (higher, lower) =
        if (y.score, std::cmp::Reverse(y.rank)) > (x.score, std::cmp::Reverse(x.rank)) {
            (y, x)
        } else {
            (x, y)
        };
    let higher_gets = colour_for_higher(field, higher, lower);
    match higher_gets {
        Colour::White => (higher, lower),
        Colour::Black => (lower, higher),
    }
}

fn colour_for_higher(field: &Field, h: &Entrant, l: &Entrant) -> Colour {
    use super::field::opposite;
    // 5.2.1: both preferences granted.
    if h.prefer != l.prefer || h.prefer.is_none() || l.prefer.is_none() {
        if let Some(c) = h.prefer {
            return c;
        }
        if let Some(c) = l.prefer {
            return opposite(c);
        }
        return by_pairing_number(field, h);
    }
    let wanted = h.prefer.expect("both prefer the same colour");
    // 5.2.2: the stronger preference; of two absolute ones, the wider difference.
    if h.absolute() && (h.imbalance > l.imbalance || !l.absolute()) {
        return wanted;
    }
    if l.absolute() && (l.imbalance > h.imbalance || !h.absolute()) {
        return opposite(wanted);
    }
    if h.strong && !l.strong {
        return wanted;
    }
    if l.strong && !h.strong {
        return opposite(wanted);
    }
    // 5.2.3: alternate to the most recent game in which their colours differed.
    let differ = h
        .colours
        .iter()
        .rev()
        .zip(l.colours.iter().rev())
        .find(|(a, b)| a != b);
    if let Some((_, &theirs)) = differ {
        return theirs;
    }
    // 5.2.4: the higher ranked player's preference.
    wanted
}

/// 5.2.5: the higher player takes the initial colour with an odd pairing number,
/// the other with an even one.
fn by_pairing_number(field: &Field, h: &Entrant) -> Colour {
    if h.rank.is_multiple_of(2) {
        field.initial_colour
    } else {
        super::field::opposite(field.initial_colour)
    }
}
