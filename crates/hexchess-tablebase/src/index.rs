//! Where each position of a table is stored: the board's symmetries, and an index that
//! gives each position one place.
//!
//! A position is its men's cells and the side to move. The board's symmetry group (the
//! turns and reflections of the cell set that also carry every man's moves onto the
//! same man's moves: 12 on a regular hexagon with the usual pieces) maps a position to
//! others of the same value, so only one of each family is stored. The two kings fix
//! the family: every ordered pair of king cells is mapped to the least pair among its
//! images (a few hundred pairs on 91 cells, in place of 8,190), and where several
//! symmetries give that least pair (kings on one mirror line), the other men decide.
//! Men of the same side and kind are one set of cells, not an ordered list, so K+N+N
//! stores each position once, not twice.
//!
//! The index is `((side to move * pairs) + pair) * rest + rest index`, the rest index
//! mixing, for each group of like men, the rank of their sorted cells among all sets of
//! that many cells (the combinatorial number system).

use hexchess_core::{Bitboard, Cell, Hex, Piece, Rules};

use crate::material::MAX_MEN;

/// The most symmetries a hexagonal cell set can have.
const MAX_SYMMETRIES: usize = 12;
const NO_PAIR: u32 = u32::MAX;

/// The layout of one material's table.
#[derive(Debug)]
pub(crate) struct Indexer {
    /// Cells on the board.
    n: usize,
    /// The slots of the two royal men (White's, Black's) in the men's order.
    kings: [usize; 2],
    /// The slots of the other men, grouped: like men (same side and kind) together.
    groups: Vec<Vec<usize>>,
    /// For each group, how many sets of its size there are on the board.
    group_sizes: Vec<usize>,
    /// The symmetries as cell permutations: `perms[g * n + cell]`.
    perms: Vec<u8>,
    symmetries: usize,
    /// `[white king * n + black king]`: the pair's number, or [`NO_PAIR`] (same cell).
    pair_of: Vec<u32>,
    /// `[white king * n + black king]`: the symmetries (bits) that map the pair to
    /// its representative.
    pair_maps: Vec<u16>,
    /// The representative king cells of each pair.
    pairs: Vec<[u8; 2]>,
    /// Positions per king pair and side to move.
    rest: usize,
    /// `binomial[c][j]`: how many sets of `j` cells among the first `c`.
    binomial: Vec<[usize; MAX_MEN + 1]>,
    /// `[slot]`: the group of that man and what one step of its group's rank is worth
    /// in the rest index (unused for the royal men).
    group_of: [(usize, usize); MAX_MEN],
    /// Where no two men are alike (every group one man, as in every five-man table of
    /// one queen, rook, bishop or knight a side): each man's slot and the worth of his
    /// cell in the rest index, which is then a sum (the slots of moves and unmoves are
    /// most of a build's arithmetic). Empty where some group has several men.
    singles: Vec<(usize, usize)>,
}

/// A position's place in its table, kept to find the slots of its non-royal men's moves
/// with one group's rank changed instead of a whole index.
///
/// Only a position whose kings stand as their pair is stored, and whose pair no other
/// symmetry maps onto itself (kings off every mirror line), has one: there the identity
/// is the only map, before and after any move of another man.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Anchor {
    pair: u32,
    rest: usize,
}

impl Indexer {
    /// The layout for `men` (White's, then Black's, each side's royal man first) on
    /// `rules`' board, using every symmetry of the board that also maps each man's moves
    /// onto its own.
    pub(crate) fn new(rules: &Rules, men: &[Piece]) -> Indexer {
        let n = rules.board().len();
        let perms = symmetries(rules, men);
        let symmetries = perms.len() / n.max(1);
        let white = men.iter().take_while(|m| m.side == men[0].side).count();
        let kings = [0, white];
        let groups = like_men(men, kings);
        let binomial = binomials(n);
        let group_sizes: Vec<usize> = groups.iter().map(|g| binomial[n][g.len()]).collect();
        let mut group_of = [(0, 0); MAX_MEN];
        for (g, group) in groups.iter().enumerate() {
            let stride = group_sizes[g + 1..].iter().product();
            for &slot in group {
                group_of[slot] = (g, stride);
            }
        }
        let singles = if groups.iter().all(|g| g.len() == 1) {
            groups.iter().map(|g| (g[0], group_of[g[0]].1)).collect()
        } else {
            Vec::new()
        };
        let mut indexer = Indexer {
            singles,
            n,
            kings,
            groups,
            rest: group_sizes.iter().product(),
            group_sizes,
            perms,
            symmetries,
            pair_of: vec![NO_PAIR; n * n],
            pair_maps: vec![0; n * n],
            pairs: Vec::new(),
            binomial,
            group_of,
        };
        indexer.find_pairs();
        indexer
    }

    /// Numbers each family of king pairs, from its least member.
    fn find_pairs(&mut self) {
        let n = self.n;
        for w in 0..n {
            for b in (0..n).filter(|&b| b != w) {
                let images: Vec<(u8, u8)> = (0..self.symmetries)
                    .map(|g| (self.perms[g * n + w], self.perms[g * n + b]))
                    .collect();
                let least = *images.iter().min().expect("the identity at least");
                let mut maps = 0u16;
                for (g, image) in images.iter().enumerate() {
                    if *image == least {
                        maps |= 1 << g;
                    }
                }
                let (lw, lb) = (least.0 as usize, least.1 as usize);
                if (lw, lb) == (w, b) {
                    self.pair_of[w * n + b] = self.pairs.len() as u32;
                    self.pairs.push([least.0, least.1]);
                } else {
                    self.pair_of[w * n + b] = self.pair_of[lw * n + lb];
                }
                self.pair_maps[w * n + b] = maps;
            }
        }
    }

    /// Slots in the table, with either side to move (some unused: arrangements stored
    /// under another index, or men sharing a cell).
    pub(crate) fn len(&self) -> usize {
        2 * self.pairs.len() * self.rest
    }

    /// How many symmetries the table uses (1 when none).
    pub(crate) fn symmetries(&self) -> usize {
        self.symmetries
    }

    /// The side to move at slot `i`.
    pub(crate) fn side_to_move(&self, i: usize) -> usize {
        i / (self.pairs.len() * self.rest)
    }

    /// The slot of the men on `cells` (cell indices in the men's order) with `stm` to
    /// move; `None` when two like men, or the kings, share a cell.
    #[inline]
    pub(crate) fn index(&self, stm: usize, cells: &[u8]) -> Option<usize> {
        let key = cells[self.kings[0]] as usize * self.n + cells[self.kings[1]] as usize;
        let pair = self.pair_of[key];
        if pair == NO_PAIR {
            return None;
        }
        let start = (stm * self.pairs.len() + pair as usize) * self.rest;
        let mut maps = self.pair_maps[key];
        let mut best: Option<usize> = None;
        while maps != 0 {
            let g = maps.trailing_zeros() as usize;
            maps &= maps - 1;
            let rest = self.rest_index(g, cells)?;
            best = Some(best.map_or(rest, |b| b.min(rest)));
        }
        best.map(|r| start + r)
    }

    /// The rest index of the men other than the kings, after symmetry `g`.
    #[inline]
    fn rest_index(&self, g: usize, cells: &[u8]) -> Option<usize> {
        let perm = &self.perms[g * self.n..(g + 1) * self.n];
        if self.singles.len() == self.groups.len() {
            let cell = |slot: usize| usize::from(perm[usize::from(cells[slot])]);
            return Some(self.singles.iter().map(|&(slot, w)| cell(slot) * w).sum());
        }
        self.rest_by_ranks(perm, cells)
    }

    /// The rest index as each group's rank after the last: what the sum for single men
    /// is a shortcut of.
    fn rest_by_ranks(&self, perm: &[u8], cells: &[u8]) -> Option<usize> {
        let mut acc = 0;
        for (group, size) in self.groups.iter().zip(&self.group_sizes) {
            acc = acc * size + self.group_rank(perm, group, cells)?;
        }
        Some(acc)
    }

    /// The rank of the set of cells `group`'s men stand on, mapped by `perm`, among all
    /// sets of that many cells; `None` when two of them share a cell.
    #[inline(always)]
    fn group_rank(&self, perm: &[u8], group: &[usize], cells: &[u8]) -> Option<usize> {
        if let [slot] = group {
            return Some(perm[cells[*slot] as usize] as usize);
        }
        let mut set = [0u8; MAX_MEN];
        let k = group.len();
        for (j, &slot) in group.iter().enumerate() {
            set[j] = perm[cells[slot] as usize];
        }
        set[..k].sort_unstable();
        let mut rank = 0;
        for j in 0..k {
            if j > 0 && set[j] == set[j - 1] {
                return None;
            }
            rank += self.binomial[set[j] as usize][j + 1];
        }
        Some(rank)
    }

    /// The anchor of the men on `cells`, when they have one (see [`Anchor`]).
    #[inline]
    pub(crate) fn anchor(&self, cells: &[u8]) -> Option<Anchor> {
        let key = cells[self.kings[0]] as usize * self.n + cells[self.kings[1]] as usize;
        if self.pair_maps[key] != 1 {
            return None;
        }
        Some(Anchor {
            pair: self.pair_of[key],
            rest: self.rest_index(0, cells)?,
        })
    }

    /// Whether the men on `cells` are stored as they stand, so that their slot decodes
    /// to these very cells in this order: their kings stand as their pair with no
    /// other symmetry keeping it (as for an [`Anchor`]), and no two men are alike
    /// (like men are stored as a set, in the order of their cells).
    #[inline]
    pub(crate) fn stored_as_is(&self, cells: &[u8]) -> bool {
        let key = cells[self.kings[0]] as usize * self.n + cells[self.kings[1]] as usize;
        self.pair_maps[key] == 1 && self.singles.len() == self.groups.len()
    }

    /// [`Indexer::index`] of the men on `cells` with `stm` to move, just after man `j`
    /// came to its cell from `from` in a position anchored at `anchor` (if it was):
    /// for a non-royal man, its group's rank is all that changes.
    #[inline]
    pub(crate) fn index_after(
        &self,
        anchor: Option<Anchor>,
        stm: usize,
        cells: &[u8],
        j: usize,
        from: u8,
    ) -> Option<usize> {
        let Some(anchor) = anchor.filter(|_| !self.kings.contains(&j)) else {
            return self.index(stm, cells);
        };
        let (g, stride) = self.group_of[j];
        let group = &self.groups[g];
        let identity = &self.perms[..self.n];
        let now = self.group_rank(identity, group, cells)?;
        let before = if group.len() == 1 {
            from as usize
        } else {
            let mut was = [0u8; MAX_MEN];
            was[..cells.len()].copy_from_slice(cells);
            was[j] = from;
            self.group_rank(identity, group, &was[..cells.len()])?
        };
        let rest = anchor.rest + now * stride - before * stride;
        Some((stm * self.pairs.len() + anchor.pair as usize) * self.rest + rest)
    }

    /// The side to move and the men's cells stored at slot `i`, whether or not the slot
    /// is the one [`Indexer::index`] gives them (see [`Indexer::is_canonical`]).
    #[inline]
    pub(crate) fn cells_at(&self, i: usize) -> (usize, [u8; MAX_MEN]) {
        // 32-bit division is several times faster than 64-bit, and every table of up to
        // four men on up to 128 cells fits.
        if let Ok(i) = u32::try_from(i) {
            return self.cells_at_narrow(i);
        }
        let mut cells = [0u8; MAX_MEN];
        let mut rest = i % self.rest;
        let upper = i / self.rest;
        let [w, b] = self.pairs[upper % self.pairs.len()];
        cells[self.kings[0]] = w;
        cells[self.kings[1]] = b;
        for (group, size) in self.groups.iter().zip(&self.group_sizes).rev() {
            self.unrank(group, rest % size, &mut cells);
            rest /= size;
        }
        (upper / self.pairs.len(), cells)
    }

    #[inline]
    fn cells_at_narrow(&self, i: u32) -> (usize, [u8; MAX_MEN]) {
        let mut cells = [0u8; MAX_MEN];
        let rest_size = self.rest as u32;
        let mut rest = i % rest_size;
        let upper = i / rest_size;
        let pairs = self.pairs.len() as u32;
        let [w, b] = self.pairs[(upper % pairs) as usize];
        cells[self.kings[0]] = w;
        cells[self.kings[1]] = b;
        for (group, &size) in self.groups.iter().zip(&self.group_sizes).rev() {
            let size = size as u32;
            self.unrank(group, (rest % size) as usize, &mut cells);
            rest /= size;
        }
        ((upper / pairs) as usize, cells)
    }

    /// Writes the cells of the set of rank `rank` to the slots of `group`.
    #[inline]
    fn unrank(&self, group: &[usize], mut rank: usize, cells: &mut [u8; MAX_MEN]) {
        for j in (1..=group.len()).rev() {
            let c = if j == 1 {
                rank
            } else {
                (j - 1..self.n)
                    .rev()
                    .find(|&c| self.binomial[c][j] <= rank)
                    .expect("a rank below C(n, j)")
            };
            rank -= self.binomial[c][j];
            cells[group[j - 1]] = c as u8;
        }
    }

    /// Whether slot `i` is where its own position is stored (not an unused copy).
    pub(crate) fn is_canonical(&self, i: usize, men: usize) -> bool {
        let (stm, cells) = self.cells_at(i);
        self.index(stm, &cells[..men]) == Some(i)
    }

    /// How many positions the one at slot `i` stands for: its images under the
    /// symmetries, counted once each.
    pub(crate) fn family(&self, i: usize) -> usize {
        let (_, cells) = self.cells_at(i);
        let key = cells[self.kings[0]] as usize * self.n + cells[self.kings[1]] as usize;
        let mut maps = self.pair_maps[key];
        let own = self.rest_index(0, &cells);
        let mut fixed = 0;
        while maps != 0 {
            let g = maps.trailing_zeros() as usize;
            maps &= maps - 1;
            if self.rest_index(g, &cells) == own {
                fixed += 1;
            }
        }
        self.symmetries / fixed.max(1)
    }

    /// The image of `cell` under symmetry `g` (tests and statistics).
    pub(crate) fn map(&self, g: usize, cell: u8) -> u8 {
        self.perms[g * self.n + cell as usize]
    }
}

/// The non-royal men grouped by side and kind, in order of first appearance.
fn like_men(men: &[Piece], kings: [usize; 2]) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (slot, man) in men.iter().enumerate() {
        if kings.contains(&slot) {
            continue;
        }
        match groups.iter_mut().find(|g| men[g[0]] == *man) {
            Some(g) => g.push(slot),
            None => groups.push(vec![slot]),
        }
    }
    groups
}

fn binomials(n: usize) -> Vec<[usize; MAX_MEN + 1]> {
    let mut b = vec![[0usize; MAX_MEN + 1]; n + 1];
    for c in 0..=n {
        b[c][0] = 1;
        for j in 1..=MAX_MEN {
            b[c][j] = if c == 0 {
                0
            } else {
                b[c - 1][j - 1] + b[c - 1][j]
            };
        }
    }
    b
}

/// The board's symmetries that carry every man's moves onto its own, as cell
/// permutations laid end to end (the identity first).
///
/// Candidates are the 12 turns and reflections of the hexagonal grid about the cell
/// set's centre (which may fall on a cell, a corner or an edge); one is kept when it
/// maps every cell onto a cell, and, for every man and cell, the man's reach under
/// sample occupancies (empty, then pseudo-random) onto its reach from the image cell.
fn symmetries(rules: &Rules, men: &[Piece]) -> Vec<u8> {
    let board = rules.board();
    let n = board.len() as i64;
    let hexes: Vec<Hex> = board.cells().map(|c| board.hex(c)).collect();
    let sum_q: i64 = hexes.iter().map(|h| h.q() as i64).sum();
    let sum_r: i64 = hexes.iter().map(|h| h.r() as i64).sum();
    let mut out = Vec::new();
    for t in 0..MAX_SYMMETRIES {
        let perm: Option<Vec<u8>> = hexes
            .iter()
            .map(|h| {
                // About the centre, in units of 1/n cell: exact for any centre.
                let (x, y) = (h.q() as i64 * n - sum_q, h.r() as i64 * n - sum_r);
                let (x, y) = turn_or_reflect(t, x, y);
                let (q, r) = (x + sum_q, y + sum_r);
                if q % n != 0 || r % n != 0 {
                    return None;
                }
                let (q, r) = (q / n, r / n);
                let image = Hex::cube(q as i32, r as i32, -(q as i32) - r as i32)?;
                board.cell(image).map(|c| c.index() as u8)
            })
            .collect();
        if let Some(perm) = perm.filter(|p| moves_agree(rules, men, p)) {
            out.extend(perm);
        }
    }
    out
}

/// Cube vector `(x, y, -x-y)`: symmetry `t` (0-5 turns by 60 degrees, 6-11 a reflection
/// then a turn), as `(q, r)`.
fn turn_or_reflect(t: usize, x: i64, y: i64) -> (i64, i64) {
    let z = -x - y;
    let (mut a, mut b, mut c) = if t >= 6 { (x, z, y) } else { (x, y, z) };
    for _ in 0..t % 6 {
        (a, b, c) = (-b, -c, -a);
    }
    let _ = c;
    (a, b)
}

/// Whether permutation `perm` carries a pawn's advances (each line, in order), its
/// captures and where it promotes onto those at the image cell.
fn pawn_moves_agree(rules: &Rules, pawn: Piece, perm: &[u8]) -> bool {
    let board = rules.board();
    let cells: Vec<Cell> = board.cells().collect();
    let image = |c: Cell| cells[perm[c.index()] as usize];
    let side = pawn.side;
    cells.iter().all(|&c| {
        let there = image(c);
        let mut mapped: Vec<Vec<Cell>> = rules
            .pawn_advance_lines(side, c)
            .into_iter()
            .map(|line| line.into_iter().map(image).collect())
            .collect();
        let mut theirs = rules.pawn_advance_lines(side, there);
        mapped.sort();
        theirs.sort();
        let captures: Bitboard = rules.pawn_captures(side, c).map(image).collect();
        mapped == theirs
            && captures == rules.pawn_captures(side, there)
            && rules.is_promotion_cell(side, c) == rules.is_promotion_cell(side, there)
            && rules.is_optional_promotion_cell(side, c)
                == rules.is_optional_promotion_cell(side, there)
    })
}

/// Whether permutation `perm` carries each man's reach onto its reach from the image
/// cell, on an empty board and under pseudo-random occupancies.
fn moves_agree(rules: &Rules, men: &[Piece], perm: &[u8]) -> bool {
    let board = rules.board();
    let cells: Vec<Cell> = board.cells().collect();
    let map =
        |set: Bitboard| -> Bitboard { set.map(|c| cells[perm[c.index()] as usize]).collect() };
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for man in men {
        if rules.pawn_kind() == Some(man.kind) && !pawn_moves_agree(rules, *man, perm) {
            return false;
        }
        for &c in &cells {
            for sample in 0..12 {
                let (own, enemy) = if sample == 0 {
                    (Bitboard::EMPTY, Bitboard::EMPTY)
                } else {
                    let mut wide = || (u128::from(next()) << 64) | u128::from(next());
                    let filled = Bitboard(wide() & wide()) & board.all();
                    let split = Bitboard(wide());
                    let mut own = filled & split;
                    own.remove(c);
                    let mut enemy = filled & !split;
                    enemy.remove(c);
                    (own, enemy)
                };
                let there = cells[perm[c.index()] as usize];
                let reach = rules.reach(*man, c, own, enemy, own | enemy);
                let image = rules.reach(*man, there, map(own), map(enemy), map(own | enemy));
                if map(reach) != image {
                    return false;
                }
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use hexchess_core::{Catalog, Piece};

    use super::Indexer;
    use crate::material::Material;

    /// Gliński's rules and the indexer of `material` on them.
    fn glinski_indexer(material: &str) -> (Vec<Piece>, Indexer, u64) {
        let rules = Catalog::builtin()
            .get("glinski")
            .unwrap()
            .two_player_rules()
            .unwrap();
        let men: Vec<Piece> = Material::parse(material, &rules).unwrap().men_in_order();
        let indexer = Indexer::new(&rules, &men);
        (men, indexer, rules.board().len() as u64)
    }

    /// Cells below `n` drawn by a xorshift from `seed`: the same every run.
    fn cells_below(n: u64, mut seed: u64) -> impl FnMut() -> u8 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n) as u8
        }
    }

    /// Where no two men are alike, the rest index as a sum is the one of the groups'
    /// ranks, under every symmetry; and men that are stored as they stand decode to
    /// the same cells.
    #[test]
    fn single_men_sum_to_the_ranks_and_decode_as_they_stand() {
        let (_, indexer, n) = glinski_indexer("KQvKRN");
        assert_eq!(indexer.singles.len(), 3);
        let mut next = cells_below(n, 0x9E37_79B9_7F4A_7C15);
        let mut as_is = 0;
        for _ in 0..2000 {
            let cells: [u8; 5] = std::array::from_fn(|_| next());
            let mut sorted = cells;
            sorted.sort_unstable();
            if sorted.windows(2).any(|w| w[0] == w[1]) {
                continue;
            }
            for g in 0..indexer.symmetries() {
                let perm = &indexer.perms[g * indexer.n..(g + 1) * indexer.n];
                assert_eq!(
                    indexer.rest_index(g, &cells),
                    indexer.rest_by_ranks(perm, &cells),
                    "{cells:?} under symmetry {g}"
                );
            }
            if indexer.stored_as_is(&cells) {
                as_is += 1;
                let (stm, stored) = indexer.cells_at(indexer.index(1, &cells).unwrap());
                assert_eq!((stm, &stored[..5]), (1, &cells[..]));
            }
        }
        assert!(as_is > 50, "only {as_is} positions stood as stored");
    }

    /// From anchored stored positions (and the others, where it falls back), the slot after
    /// each non-royal man's move to every empty cell, found by one group's rank, is
    /// the whole index's: with a man alone in its group and two like men in one.
    #[test]
    fn the_slot_after_a_move_from_an_anchor_is_the_whole_index() {
        let (men, indexer, n) = glinski_indexer("KNvKRR");
        let mut next = cells_below(n, 0x2545_F491_4F6C_DD1D);
        let (mut anchored, mut checked) = (0, 0);
        for _ in 0..400 {
            let mut cells = [0u8; 5];
            for c in cells.iter_mut() {
                *c = next();
            }
            let mut sorted = cells;
            sorted.sort_unstable();
            if sorted.windows(2).any(|w| w[0] == w[1]) {
                continue;
            }
            // As stored: the kings on their pair's representative cells.
            let stored = indexer.cells_at(indexer.index(0, &cells).unwrap()).1;
            cells.copy_from_slice(&stored[..5]);
            let anchor = indexer.anchor(&cells);
            anchored += usize::from(anchor.is_some());
            for j in 0..men.len() {
                for to in (0..n as u8).filter(|t| !cells.contains(t)) {
                    let mut after = cells;
                    after[j] = to;
                    for stm in 0..2 {
                        assert_eq!(
                            indexer.index_after(anchor, stm, &after, j, cells[j]),
                            indexer.index(stm, &after),
                            "{cells:?}: man {j} to {to}"
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert!(
            anchored > 250,
            "most stored positions are anchored: {anchored}"
        );
        assert!(checked > 100_000, "{checked}");
    }
}
