//! Maximum-weight matching on a general graph: Edmonds' blossom algorithm with dual
//! variables (the primal-dual method as Galil describes it, O(n³)).
//!
//! The Dutch pairing asks, bracket after bracket, for the pairing of the whole field
//! that is best by a list of criteria; with those criteria encoded into edge
//! weights (see `wide.rs`), that is a maximum-weight matching. Players meet across
//! parity freely, so the graph is general, not bipartite, and blossoms are needed.
//!
//! Weights are doubled on the way in so that every dual update stays an integer.

use std::ops::{Add, Sub};

use super::wide::Wide;

/// What the matching needs of a weight.
pub trait Weight: Copy + Ord + Add<Output = Self> + Sub<Output = Self> {
    /// Zero.
    const ZERO: Self;
    /// Half, rounded down.
    fn half(self) -> Self;
}

impl Weight for u64 {
    const ZERO: Self = 0;
    fn half(self) -> Self {
        self / 2
    }
}

impl Weight for u128 {
    const ZERO: Self = 0;
    fn half(self) -> Self {
        self / 2
    }
}

impl<const N: usize> Weight for Wide<N> {
    const ZERO: Self = Wide::<N>::ZERO;
    fn half(self) -> Self {
        Wide::half(self)
    }
}

const NONE: usize = usize::MAX;

/// A maximum-weight matching of the graph whose edge weights are `weight(i, j)` for
/// `i < j < vertices` (zero: no edge). `mate[v]` is `v`'s partner, if any.
pub fn max_weight_matching<W: Weight>(
    vertices: usize,
    weight: impl Fn(usize, usize) -> W,
) -> Vec<Option<usize>> {
    let mut edges = Vec::new();
    for i in 0..vertices {
        for j in i + 1..vertices {
            let w = weight(i, j);
            if w > W::ZERO {
                // Doubled: slacks between S-vertices are then even, so halving
                // them (delta 3) is exact.
                edges.push((i, j, w + w));
            }
        }
    }
    let mut solver = Blossoms::new(vertices, edges);
    solver.solve();
    solver
        .mate
        .iter()
        .map(|&p| (p != NONE).then(|| solver.endpoint[p]))
        .collect()
}

/// The algorithm's state, named as in the literature: vertices are `0..n`,
/// blossoms `n..2n`; an edge `k` has endpoints `2k` (its first vertex) and `2k + 1`.
struct Blossoms<W> {
    n: usize,
    edges: Vec<(usize, usize, W)>,
    endpoint: Vec<usize>,
    /// For each vertex, the endpoints on the far side of its edges.
    neighbours: Vec<Vec<usize>>,
    /// For each vertex, the far endpoint of its matched edge.
    mate: Vec<usize>,
    /// 0 free, 1 S, 2 T (bit 4 marks a blossom during a scan).
    label: Vec<u8>,
    /// The endpoint through which a labelled vertex or blossom got its label.
    label_end: Vec<usize>,
    in_blossom: Vec<usize>,
    parent: Vec<usize>,
    children: Vec<Vec<usize>>,
    base: Vec<usize>,
    /// The endpoints joining a blossom's children in turn.
    child_ends: Vec<Vec<usize>>,
    best_edge: Vec<usize>,
    best_edges: Vec<Option<Vec<usize>>>,
    unused: Vec<usize>,
    dual: Vec<W>,
    allowed: Vec<bool>,
    queue: Vec<usize>,
}

impl<W: Weight> Blossoms<W> {
    fn new(n: usize, edges: Vec<(usize, usize, W)>) -> Self {
        let max = edges.iter().map(|e| e.2).max().unwrap_or(W::ZERO);
        let mut endpoint = Vec::with_capacity(2 * edges.len());
        let mut neighbours = vec![Vec::new(); n];
        for (k, &(i, j, _)) in edges.iter().enumerate() {
            endpoint.push(i);
            endpoint.push(j);
            neighbours[i].push(2 * k + 1);
            neighbours[j].push(2 * k);
        }
        let mut dual = vec![max; n];
        dual.extend(std::iter::repeat_n(W::ZERO, n));
        let mut base: Vec<usize> = (0..n).collect();
        base.extend(std::iter::repeat_n(NONE, n));
        let m = edges.len();
        Self {
            n,
            edges,
            endpoint,
            neighbours,
            mate: vec![NONE; n],
            label: vec![0; 2 * n],
            label_end: vec![NONE; 2 * n],
            in_blossom: (0..n).collect(),
            parent: vec![NONE; 2 * n],
            children: vec![Vec::new(); 2 * n],
            base,
            child_ends: vec![Vec::new(); 2 * n],
            best_edge: vec![NONE; 2 * n],
            best_edges: vec![None; 2 * n],
            unused: (n..2 * n).collect(),
            dual,
            allowed: vec![false; m],
            queue: Vec::new(),
        }
    }

    /// `dual[i] + dual[j] - 2w`, never negative for a feasible dual.
    fn slack(&self, k: usize) -> W {
        let (i, j, w) = self.edges[k];
        self.dual[i] + self.dual[j] - w - w
    }

    fn leaves(&self, b: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut stack = vec![b];
        while let Some(t) = stack.pop() {
            if t < self.n {
                out.push(t);
            } else {
                // Reversed so that leaves come out in the children's order.
                stack.extend(self.children[t].iter().rev());
            }
        }
        out
    }

    fn assign_label(&mut self, w: usize, t: u8, p: usize) {
        let mut w = w;
        let mut t = t;
        let mut p = p;
        loop {
            let b = self.in_blossom[w];
            self.label[w] = t;
            self.label[b] = t;
            self.label_end[w] = p;
            self.label_end[b] = p;
            self.best_edge[w] = NONE;
            self.best_edge[b] = NONE;
            if t == 1 {
                let leaves = self.leaves(b);
                self.queue.extend(leaves);
                return;
            }
            // A T-blossom's base is matched: its mate becomes S.
            let base = self.base[b];
            let m = self.mate[base];
            w = self.endpoint[m];
            t = 1;
            p = m ^ 1;
        }
    }

    /// Walks up from `v` and `w` to find a new blossom's base, or `NONE` when the
    /// two trees differ (an augmenting path).
    fn scan_blossom(&mut self, v: usize, w: usize) -> usize {
        let mut path = Vec::new();
        let mut base = NONE;
        let (mut v, mut w) = (v, w);
        while v != NONE || w != NONE {
            let mut b = self.in_blossom[v];
            if self.label[b] & 4 != 0 {
                base = self.base[b];
                break;
            }
            path.push(b);
            self.label[b] = 5;
            if self.label_end[b] == NONE {
                v = NONE;
            } else {
                v = self.endpoint[self.label_end[b]];
                b = self.in_blossom[v];
                v = self.endpoint[self.label_end[b]];
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = 1;
        }
        base
    }

    fn add_blossom(&mut self, base: usize, k: usize) {
        let (mut v, mut w, _) = self.edges[k];
        let bb = self.in_blossom[base];
        let mut bv = self.in_blossom[v];
        let mut bw = self.in_blossom[w];
        let b = self.unused.pop().expect("at most n blossoms exist at once");
        self.base[b] = base;
        self.parent[b] = NONE;
        self.parent[bb] = b;
        let mut path = Vec::new();
        let mut ends = Vec::new();
        while bv != bb {
            self.parent[bv] = b;
            path.push(bv);
            ends.push(self.label_end[bv]);
            v = self.endpoint[self.label_end[bv]];
            bv = self.in_blossom[v];
        }
        path.push(bb);
        path.reverse();
        ends.reverse();
        ends.push(2 * k);
        while bw != bb {
            self.parent[bw] = b;
            path.push(bw);
            ends.push(self.label_end[bw] ^ 1);
            w = self.endpoint[self.label_end[bw]];
            bw = self.in_blossom[w];
        }
        self.label[b] = 1;
        self.label_end[b] = self.label_end[bb];
        self.dual[b] = W::ZERO;
        for leaf in self.leaves_of(&path) {
            if self.label[self.in_blossom[leaf]] == 2 {
                self.queue.push(leaf);
            }
            self.in_blossom[leaf] = b;
        }
        let mut best_to = vec![NONE; 2 * self.n];
        for &child in &path {
            let lists: Vec<Vec<usize>> = match self.best_edges[child].take() {
                Some(list) => vec![list],
                None => self
                    .leaves(child)
                    .into_iter()
                    .map(|leaf| self.neighbours[leaf].iter().map(|p| p / 2).collect())
                    .collect(),
            };
            for list in lists {
                for k in list {
                    let (mut i, mut j, _) = self.edges[k];
                    if self.in_blossom[j] == b {
                        std::mem::swap(&mut i, &mut j);
                    }
                    let _ = i;
                    let bj = self.in_blossom[j];
                    if bj != b
                        && self.label[bj] == 1
                        && (best_to[bj] == NONE || self.slack(k) < self.slack(best_to[bj]))
                    {
                        best_to[bj] = k;
                    }
                }
            }
            self.best_edge[child] = NONE;
        }
        let list: Vec<usize> = best_to.into_iter().filter(|&k| k != NONE).collect();
        self.best_edge[b] = NONE;
        for &k in &list {
            if self.best_edge[b] == NONE || self.slack(k) < self.slack(self.best_edge[b]) {
                self.best_edge[b] = k;
            }
        }
        self.best_edges[b] = Some(list);
        self.children[b] = path;
        self.child_ends[b] = ends;
    }

    fn leaves_of(&self, children: &[usize]) -> Vec<usize> {
        children.iter().flat_map(|&c| self.leaves(c)).collect()
    }

    fn expand_blossom(&mut self, b: usize, end_stage: bool) {
        let children = self.children[b].clone();
        for &s in &children {
            self.parent[s] = NONE;
            if s < self.n {
                self.in_blossom[s] = s;
            } else if end_stage && self.dual[s] == W::ZERO {
                self.expand_blossom(s, end_stage);
            } else {
                for leaf in self.leaves(s) {
                    self.in_blossom[leaf] = s;
                }
            }
        }
        if !end_stage && self.label[b] == 2 {
            self.relabel_expanded_t_blossom(b);
        }
        self.label[b] = 0;
        self.label_end[b] = NONE;
        self.children[b].clear();
        self.child_ends[b].clear();
        self.base[b] = NONE;
        self.best_edges[b] = None;
        self.best_edge[b] = NONE;
        self.unused.push(b);
    }

    /// After a T-blossom is taken apart mid-stage, its children on the path from
    /// where it was entered to its base become T and S in turn; the rest go free
    /// unless reached otherwise.
    fn relabel_expanded_t_blossom(&mut self, b: usize) {
        let len = self.children[b].len() as isize;
        let entry_child = self.in_blossom[self.endpoint[self.label_end[b] ^ 1]];
        let mut j = self.children[b]
            .iter()
            .position(|&c| c == entry_child)
            .expect("the entry child is a child") as isize;
        let (step, trick): (isize, usize) = if j & 1 == 1 {
            j -= len;
            (1, 0)
        } else {
            (-1, 1)
        };
        let at = |v: &Vec<usize>, i: isize| v[i.rem_euclid(len) as usize];
        let mut p = self.label_end[b];
        while j != 0 {
            let q = self.endpoint[p ^ 1];
            self.label[q] = 0;
            let e = at(&self.child_ends[b], j - trick as isize);
            let r = self.endpoint[e ^ trick ^ 1];
            self.label[r] = 0;
            self.assign_label(q, 2, p);
            self.allowed[e / 2] = true;
            j += step;
            p = at(&self.child_ends[b], j - trick as isize) ^ trick;
            self.allowed[p / 2] = true;
            j += step;
        }
        let bv = at(&self.children[b], j);
        let q = self.endpoint[p ^ 1];
        self.label[q] = 2;
        self.label[bv] = 2;
        self.label_end[q] = p;
        self.label_end[bv] = p;
        self.best_edge[bv] = NONE;
        j += step;
        while at(&self.children[b], j) != entry_child {
            let bv = at(&self.children[b], j);
            if self.label[bv] == 1 {
                j += step;
                continue;
            }
            if let Some(v) = self.leaves(bv).into_iter().find(|&v| self.label[v] != 0) {
                self.label[v] = 0;
                let m = self.mate[self.base[bv]];
                self.label[self.endpoint[m]] = 0;
                let end = self.label_end[v];
                self.assign_label(v, 2, end);
            }
            j += step;
        }
    }

    /// Swaps matched and unmatched edges along the path inside blossom `b` from
    /// vertex `v` to the base, and makes `v` the base.
    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.parent[t] != b {
            t = self.parent[t];
        }
        if t >= self.n {
            self.augment_blossom(t, v);
        }
        let len = self.children[b].len() as isize;
        let i = self.children[b]
            .iter()
            .position(|&c| c == t)
            .expect("t is a child");
        let mut j = i as isize;
        let (step, trick): (isize, usize) = if j & 1 == 1 {
            j -= len;
            (1, 0)
        } else {
            (-1, 1)
        };
        while j != 0 {
            j += step;
            let t = self.children[b][j.rem_euclid(len) as usize];
            let p = self.child_ends[b][(j - trick as isize).rem_euclid(len) as usize] ^ trick;
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p]);
            }
            j += step;
            let t = self.children[b][j.rem_euclid(len) as usize];
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p ^ 1]);
            }
            self.mate[self.endpoint[p]] = p ^ 1;
            self.mate[self.endpoint[p ^ 1]] = p;
        }
        self.children[b].rotate_left(i);
        self.child_ends[b].rotate_left(i);
        self.base[b] = self.base[self.children[b][0]];
    }

    fn augment_matching(&mut self, k: usize) {
        let (v, w, _) = self.edges[k];
        for (mut s, mut p) in [(v, 2 * k + 1), (w, 2 * k)] {
            loop {
                let bs = self.in_blossom[s];
                if bs >= self.n {
                    self.augment_blossom(bs, s);
                }
                self.mate[s] = p;
                if self.label_end[bs] == NONE {
                    break;
                }
                let t = self.endpoint[self.label_end[bs]];
                let bt = self.in_blossom[t];
                s = self.endpoint[self.label_end[bt]];
                let j = self.endpoint[self.label_end[bt] ^ 1];
                if bt >= self.n {
                    self.augment_blossom(bt, j);
                }
                self.mate[j] = self.label_end[bt];
                p = self.label_end[bt] ^ 1;
            }
        }
    }

    fn solve(&mut self) {
        for _ in 0..self.n {
            if !self.stage() {
                break;
            }
            for b in self.n..2 * self.n {
                if self.parent[b] == NONE
                    && self.base[b] != NONE
                    && self.label[b] == 1
                    && self.dual[b] == W::ZERO
                {
                    self.expand_blossom(b, true);
                }
            }
        }
    }

    /// One stage: grow trees from the free vertices until the matching grows
    /// (true) or no augmenting path can pay (false).
    fn stage(&mut self) -> bool {
        self.label.fill(0);
        self.best_edge.fill(NONE);
        for b in self.n..2 * self.n {
            self.best_edges[b] = None;
        }
        self.allowed.fill(false);
        self.queue.clear();
        for v in 0..self.n {
            if self.mate[v] == NONE && self.label[self.in_blossom[v]] == 0 {
                self.assign_label(v, 1, NONE);
            }
        }
        loop {
            if self.grow_trees() {
                return true;
            }
            match self.best_delta() {
                Delta::Vertex(delta) => {
                    self.apply_delta(delta);
                    return false;
                }
                Delta::FreeEdge(delta, k) => {
                    self.apply_delta(delta);
                    self.allowed[k] = true;
                    let (mut i, j, _) = self.edges[k];
                    if self.label[self.in_blossom[i]] == 0 {
                        i = j;
                    }
                    self.queue.push(i);
                }
                Delta::InnerEdge(delta, k) => {
                    self.apply_delta(delta);
                    self.allowed[k] = true;
                    self.queue.push(self.edges[k].0);
                }
                Delta::Blossom(delta, b) => {
                    self.apply_delta(delta);
                    self.expand_blossom(b, false);
                }
            }
        }
    }

    /// Scans queued S-vertices over tight edges; true once an augmenting path was
    /// found and used.
    fn grow_trees(&mut self) -> bool {
        while let Some(v) = self.queue.pop() {
            let ends = self.neighbours[v].clone();
            for p in ends {
                let k = p / 2;
                let w = self.endpoint[p];
                if self.in_blossom[v] == self.in_blossom[w] {
                    continue;
                }
                let mut slack = None;
                if !self.allowed[k] {
                    let s = self.slack(k);
                    if s == W::ZERO {
                        self.allowed[k] = true;
                    }
                    slack = Some(s);
                }
                if self.allowed[k] {
                    if self.label[self.in_blossom[w]] == 0 {
                        self.assign_label(w, 2, p ^ 1);
                    } else if self.label[self.in_blossom[w]] == 1 {
                        let base = self.scan_blossom(v, w);
                        if base != NONE {
                            self.add_blossom(base, k);
                        } else {
                            self.augment_matching(k);
                            return true;
                        }
                    } else if self.label[w] == 0 {
                        self.label[w] = 2;
                        self.label_end[w] = p ^ 1;
                    }
                } else if self.label[self.in_blossom[w]] == 1 {
                    let b = self.in_blossom[v];
                    let s = slack.expect("computed above");
                    if self.best_edge[b] == NONE || s < self.slack(self.best_edge[b]) {
                        self.best_edge[b] = k;
                    }
                } else if self.label[w] == 0 {
                    let s = slack.expect("computed above");
                    if self.best_edge[w] == NONE || s < self.slack(self.best_edge[w]) {
                        self.best_edge[w] = k;
                    }
                }
            }
        }
        false
    }

    fn best_delta(&self) -> Delta<W> {
        let mut best = Delta::Vertex(self.dual[..self.n].iter().copied().min().unwrap_or(W::ZERO));
        for v in 0..self.n {
            if self.label[self.in_blossom[v]] == 0 && self.best_edge[v] != NONE {
                let d = self.slack(self.best_edge[v]);
                if d < best.amount() {
                    best = Delta::FreeEdge(d, self.best_edge[v]);
                }
            }
        }
        for b in 0..2 * self.n {
            if self.parent[b] == NONE && self.label[b] == 1 && self.best_edge[b] != NONE {
                let d = self.slack(self.best_edge[b]).half();
                if d < best.amount() {
                    best = Delta::InnerEdge(d, self.best_edge[b]);
                }
            }
        }
        for b in self.n..2 * self.n {
            if self.base[b] != NONE
                && self.parent[b] == NONE
                && self.label[b] == 2
                && self.dual[b] < best.amount()
            {
                best = Delta::Blossom(self.dual[b], b);
            }
        }
        best
    }

    fn apply_delta(&mut self, delta: W) {
        for v in 0..self.n {
            match self.label[self.in_blossom[v]] {
                1 => self.dual[v] = self.dual[v] - delta,
                2 => self.dual[v] = self.dual[v] + delta,
                _ => {}
            }
        }
        for b in self.n..2 * self.n {
            if self.base[b] != NONE && self.parent[b] == NONE {
                match self.label[b] {
                    1 => self.dual[b] = self.dual[b] + delta,
                    2 => self.dual[b] = self.dual[b] - delta,
                    _ => {}
                }
            }
        }
    }
}

/// The dual change a stage takes next, and what it makes tight.
enum Delta<W> {
    /// A free vertex's dual reaches zero: the matching is optimal.
    Vertex(W),
    /// An edge from an S-vertex to a free vertex becomes tight.
    FreeEdge(W, usize),
    /// An edge between two S-blossoms becomes tight.
    InnerEdge(W, usize),
    /// A T-blossom's dual reaches zero: it is expanded.
    Blossom(W, usize),
}

impl<W: Weight> Delta<W> {
    fn amount(&self) -> W {
        match *self {
            Delta::Vertex(d)
            | Delta::FreeEdge(d, _)
            | Delta::InnerEdge(d, _)
            | Delta::Blossom(d, _) => d,
        }
    }
}

#[cfg(test)]
// Symmetric weight matrices are filled and read by index pairs.
#[allow(clippy::needless_range_loop)]
mod tests {
    use super::*;

    fn total(weights: &[Vec<u64>], mate: &[Option<usize>]) -> u64 {
        let mut sum = 0;
        for (v, m) in mate.iter().enumerate() {
            if let Some(u) = *m {
                assert_eq!(mate[u], Some(v), "the matching is symmetric");
                if v < u {
                    assert!(weights[v][u] > 0, "only edges are used");
                    sum += weights[v][u];
                }
            }
        }
        sum
    }

    /// The best total by trying every matching (small graphs only).
    fn brute(weights: &[Vec<u64>], free: u32) -> u64 {
        let Some(v) = (0..weights.len()).find(|&v| free & (1 << v) != 0) else {
            return 0;
        };
        let rest = free & !(1 << v);
        let mut best = brute(weights, rest);
        for u in 0..weights.len() {
            if rest & (1 << u) != 0 && weights[v][u] > 0 {
                best = best.max(weights[v][u] + brute(weights, rest & !(1 << u)));
            }
        }
        best
    }

    /// A small deterministic generator, so that the test needs no crate.
    fn next(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    #[test]
    fn agrees_with_brute_force_on_random_graphs() {
        let mut state = 0x9e37_79b9_7f4a_7c15;
        for case in 0..3000 {
            let n = 1 + (next(&mut state) % 12) as usize;
            let density = 1 + next(&mut state) % 4;
            let range = [3, 10, 1000][case % 3];
            let mut weights = vec![vec![0u64; n]; n];
            for i in 0..n {
                for j in i + 1..n {
                    if next(&mut state) % 4 < density {
                        let w = 1 + next(&mut state) % range;
                        weights[i][j] = w;
                        weights[j][i] = w;
                    }
                }
            }
            let mate = max_weight_matching(n, |i, j| weights[i][j]);
            assert_eq!(
                total(&weights, &mate),
                brute(&weights, (1 << n) - 1),
                "case {case}: {weights:?}"
            );
        }
    }

    #[test]
    fn wide_weights_give_the_same_matching_as_small_ones() {
        let mut state = 12345;
        for _ in 0..200 {
            let n = 2 + (next(&mut state) % 10) as usize;
            let mut weights = vec![vec![0u64; n]; n];
            for i in 0..n {
                for j in i + 1..n {
                    let w = next(&mut state) % 50;
                    weights[i][j] = w;
                    weights[j][i] = w;
                }
            }
            // The same weights shifted high in a wide integer: the same optimum.
            let mate = max_weight_matching(n, |i, j| Wide::<4>::from_u64(weights[i][j]).shl(150));
            assert_eq!(total(&weights, &mate), brute(&weights, (1 << n) - 1));
        }
    }

    #[test]
    fn a_blossom_is_formed_and_used() {
        // An odd cycle 0-1-2 with tails: the best matching goes through the cycle's
        // blossom (weights from the classic worked examples of the algorithm).
        let edges = [
            (0, 1, 8),
            (0, 2, 9),
            (1, 2, 10),
            (2, 3, 7),
            (0, 5, 5),
            (3, 4, 6),
        ];
        let mut weights = vec![vec![0u64; 6]; 6];
        for (a, b, w) in edges {
            weights[a][b] = w;
            weights[b][a] = w;
        }
        let mate = max_weight_matching(6, |i, j| weights[i][j]);
        assert_eq!(
            mate,
            vec![Some(5), Some(2), Some(1), Some(4), Some(3), Some(0)]
        );
        assert_eq!(total(&weights, &mate), 21);
    }
}
