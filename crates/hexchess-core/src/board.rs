//! Board geometry: which cells exist, their indices, their names and FEN groups.

use std::collections::HashMap;
use std::fmt;

use crate::bitboard::CellSet;
use crate::cell::{Cell, MAX_BOARD_CELLS};
use crate::hex::{Hex, Layout};

/// File letters: the alphabet without `j`, as in Gliński's notation.
pub const FILE_LETTERS: &[u8] = b"abcdefghiklmnopqrstuvwxyz";

/// How cells are named and grouped in FEN (docs/rules.md §1.6 and §8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Naming {
    /// Lettered files of constant `q`, numbered upward from each file's lowest cell
    /// (Gliński, McCooey). FEN lists files `a`, `b`, ... each from rank 1 up.
    Files,
    /// Numbered ranks of constant `r`, lettered left to right within each rank
    /// (Grand Hexachess). FEN lists ranks 1, 2, ... each from letter `a` rightward.
    Ranks,
    /// Lettered files of constant `q` like [`Naming::Files`], but ranks are lines of
    /// constant `s` numbered across the whole board (rank 1 has the largest `s`), so a
    /// rank descends to the right (Shafran's notation). FEN lists files as for `Files`.
    SlantedRanks,
}

impl Naming {
    /// The usual naming for a layout: files for flat-top, ranks for pointy-top.
    pub fn default_for(layout: Layout) -> Naming {
        match layout {
            Layout::FlatTop => Naming::Files,
            Layout::PointyTop => Naming::Ranks,
        }
    }
}

/// Why a cell list cannot make a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardError {
    /// The list is empty.
    NoCells,
    /// More cells than a cell set holds ([`MAX_BOARD_CELLS`]); the count given.
    TooManyCells(usize),
    /// A cell listed more than once.
    DuplicateCell(Hex),
    /// More letters needed than [`FILE_LETTERS`] has: the number of files from the
    /// first to the last (empty ones included), or on a ranks board the width of the
    /// widest rank.
    TooManyLines(usize),
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::NoCells => write!(f, "the board has no cells"),
            BoardError::TooManyCells(n) => {
                write!(
                    f,
                    "the board has {n} cells; at most {MAX_BOARD_CELLS} are supported"
                )
            }
            BoardError::DuplicateCell(h) => write!(f, "cell {h} is listed twice"),
            BoardError::TooManyLines(n) => write!(
                f,
                "the board needs {n} letters for its cells; only {} are available",
                FILE_LETTERS.len()
            ),
        }
    }
}

/// The cells of a board with their names.
#[derive(Clone, Debug)]
pub struct Board {
    layout: Layout,
    naming: Naming,
    hexes: Vec<Hex>,
    lookup: HashMap<Hex, Cell>,
    names: Vec<String>,
    by_name: HashMap<String, Cell>,
    /// FEN groups in order; each lists its cells in order.
    groups: Vec<Vec<Cell>>,
    /// The rank number of each cell (the digits of its name).
    ranks: Vec<u32>,
    /// The most steps any cell is from the centre.
    radius: i32,
}

impl Board {
    /// Every cell within `radius` steps of the centre.
    pub fn hexagon_cells(radius: u8) -> Vec<Hex> {
        let r = radius as i8;
        let mut v = Vec::new();
        for q in -r..=r {
            for rr in -r..=r {
                let h = Hex::new(q, rr);
                if h.length() <= r as i32 {
                    v.push(h);
                }
            }
        }
        v
    }

    /// A board of `cells`, drawn in `layout` and named by `naming`. The cells are
    /// indexed in (q, r) order whatever the order of the list, so that every ray is
    /// monotonic in index (see [`crate::bitboard`]).
    pub fn new(layout: Layout, naming: Naming, cells: &[Hex]) -> Result<Board, BoardError> {
        let hexes = sorted_cells(cells)?;
        let lookup: HashMap<Hex, Cell> = hexes
            .iter()
            .enumerate()
            .map(|(i, h)| (*h, Cell::from_index(i as u16)))
            .collect();
        let lines = Lines::new(&hexes, naming);
        let (names, ranks) = match naming {
            Naming::Files | Naming::SlantedRanks => name_by_files(&hexes, &lines, naming)?,
            Naming::Ranks => name_by_ranks(&hexes, &lines)?,
        };
        let by_name = names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.clone(), Cell::from_index(i as u16)))
            .collect();
        let radius = hexes.iter().map(|h| h.length()).max().unwrap_or(0);
        Ok(Board {
            layout,
            naming,
            radius,
            hexes,
            lookup,
            names,
            by_name,
            groups: lines.groups,
            ranks,
        })
    }

    /// How the board is drawn, flat-top or pointy-top.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// How the cells are named and grouped in FEN.
    pub fn naming(&self) -> Naming {
        self.naming
    }

    /// How far the board reaches: the most steps any cell is from the centre (an
    /// evaluation reads it at every leaf, so it is found once).
    pub fn radius(&self) -> i32 {
        self.radius
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.hexes.len()
    }

    /// True when the board has no cells; never for a board made by [`Board::new`].
    pub fn is_empty(&self) -> bool {
        self.hexes.is_empty()
    }

    /// Every cell, in index order.
    pub fn cells(&self) -> impl ExactSizeIterator<Item = Cell> + '_ {
        (0..self.hexes.len()).map(|i| Cell::from_index(i as u16))
    }

    /// Every cell as a set (of the narrow or the wide kind).
    pub fn all<B: CellSet>(&self) -> B {
        self.cells().collect()
    }

    /// The cube coordinates of a cell of this board.
    pub fn hex(&self, c: Cell) -> Hex {
        self.hexes[c.index()]
    }

    /// The cell at a coordinate, if it is on the board.
    pub fn cell(&self, h: Hex) -> Option<Cell> {
        self.lookup.get(&h).copied()
    }

    /// The cell one vector away, if it is on the board.
    pub fn offset(&self, c: Cell, v: Hex) -> Option<Cell> {
        self.hex(c).checked_add(v).and_then(|h| self.cell(h))
    }

    /// The cells reached by repeating `v` from `c`, up to the edge of the board.
    pub fn ray(&self, c: Cell, v: Hex) -> Vec<Cell> {
        let mut out = Vec::new();
        let mut cur = c;
        while let Some(n) = self.offset(cur, v) {
            out.push(n);
            cur = n;
        }
        out
    }

    /// The cell's name, such as `f5` or `d12`.
    pub fn name(&self, c: Cell) -> &str {
        &self.names[c.index()]
    }

    /// The number in the cell's name.
    pub fn rank(&self, c: Cell) -> u32 {
        self.ranks[c.index()]
    }

    /// The cell with this name.
    pub fn parse_cell(&self, name: &str) -> Option<Cell> {
        self.by_name.get(name).copied()
    }

    /// FEN groups (files or ranks) in order, each listing its cells in order.
    pub fn groups(&self) -> &[Vec<Cell>] {
        &self.groups
    }

    /// The mirror image of a cell (top to bottom in the drawing), if it is on the board.
    pub fn mirror(&self, c: Cell) -> Option<Cell> {
        self.cell(self.layout.mirror(self.hex(c)))
    }
}

/// The cells in (q, r) order, the order their indices follow; none twice, at least
/// one and at most [`MAX_BOARD_CELLS`].
fn sorted_cells(cells: &[Hex]) -> Result<Vec<Hex>, BoardError> {
    if cells.is_empty() {
        return Err(BoardError::NoCells);
    }
    if cells.len() > MAX_BOARD_CELLS {
        return Err(BoardError::TooManyCells(cells.len()));
    }
    let mut hexes = cells.to_vec();
    hexes.sort();
    if let Some(w) = hexes.windows(2).find(|w| w[0] == w[1]) {
        return Err(BoardError::DuplicateCell(w[0]));
    }
    Ok(hexes)
}

/// The cells grouped into lines: files of constant q, or ranks of constant r for
/// [`Naming::Ranks`], each in order along the line.
struct Lines {
    groups: Vec<Vec<Cell>>,
    /// The coordinate of the first line.
    first: i8,
    /// From the first line to the last, empty ones included.
    count: usize,
}

impl Lines {
    fn new(hexes: &[Hex], naming: Naming) -> Lines {
        let line_of = |h: Hex| match naming {
            Naming::Files | Naming::SlantedRanks => h.q(),
            Naming::Ranks => h.r(),
        };
        let along = |h: Hex| match naming {
            Naming::Files | Naming::SlantedRanks => h.r(),
            Naming::Ranks => h.q(),
        };
        let mut lines: Vec<i8> = hexes.iter().map(|h| line_of(*h)).collect();
        lines.sort();
        lines.dedup();
        let first = lines[0];
        let count = (lines[lines.len() - 1] - first) as usize + 1;
        let mut groups: Vec<Vec<Cell>> = vec![Vec::new(); count];
        for (i, h) in hexes.iter().enumerate() {
            groups[(line_of(*h) - first) as usize].push(Cell::from_index(i as u16));
        }
        for g in &mut groups {
            g.sort_by_key(|c| along(hexes[c.index()]));
        }
        groups.retain(|g| !g.is_empty());
        Lines {
            groups,
            first,
            count,
        }
    }
}

/// Names by lettered files: numbered up each file from its lowest cell, or for
/// [`Naming::SlantedRanks`] along lines of constant s across the board. Each cell's
/// name and rank number.
fn name_by_files(
    hexes: &[Hex],
    lines: &Lines,
    naming: Naming,
) -> Result<(Vec<String>, Vec<u32>), BoardError> {
    if lines.count > FILE_LETTERS.len() {
        return Err(BoardError::TooManyLines(lines.count));
    }
    let mut names = vec![String::new(); hexes.len()];
    let mut ranks = vec![0; hexes.len()];
    let s_max = hexes.iter().map(|h| h.s()).max().unwrap_or(0);
    for g in &lines.groups {
        let q = hexes[g[0].index()].q();
        let letter = FILE_LETTERS[(q - lines.first) as usize] as char;
        let r_min = hexes[g[0].index()].r();
        for c in g {
            let rank = match naming {
                Naming::SlantedRanks => (s_max - hexes[c.index()].s()) as u32 + 1,
                _ => (hexes[c.index()].r() - r_min) as u32 + 1,
            };
            names[c.index()] = format!("{letter}{rank}");
            ranks[c.index()] = rank;
        }
    }
    Ok((names, ranks))
}

/// Names by numbered ranks, lettered left to right within each rank. Each cell's
/// name and rank number.
fn name_by_ranks(hexes: &[Hex], lines: &Lines) -> Result<(Vec<String>, Vec<u32>), BoardError> {
    let mut names = vec![String::new(); hexes.len()];
    let mut ranks = vec![0; hexes.len()];
    for g in &lines.groups {
        let h0 = hexes[g[0].index()];
        let rank = (h0.r() - lines.first) as u32 + 1;
        let span = (hexes[g[g.len() - 1].index()].q() - h0.q()) as usize + 1;
        if span > FILE_LETTERS.len() {
            return Err(BoardError::TooManyLines(span));
        }
        for c in g {
            let letter = FILE_LETTERS[(hexes[c.index()].q() - h0.q()) as usize] as char;
            names[c.index()] = format!("{letter}{rank}");
            ranks[c.index()] = rank;
        }
    }
    Ok((names, ranks))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glinski() -> Board {
        Board::new(Layout::FlatTop, Naming::Files, &Board::hexagon_cells(5)).unwrap()
    }

    fn grand() -> Board {
        Board::new(Layout::PointyTop, Naming::Ranks, &Board::hexagon_cells(6)).unwrap()
    }

    #[test]
    fn glinski_names_match_the_rules() {
        let b = glinski();
        assert_eq!(b.len(), 91);
        let at = |q, r| b.name(b.cell(Hex::new(q, r)).unwrap()).to_string();
        assert_eq!(at(0, -5), "f1");
        assert_eq!(at(0, 0), "f6");
        assert_eq!(at(-5, 0), "a1");
        assert_eq!(at(5, -5), "l1");
        assert_eq!(at(0, 5), "f11");
        let sizes: Vec<usize> = b.groups().iter().map(|g| g.len()).collect();
        assert_eq!(sizes, vec![6, 7, 8, 9, 10, 11, 10, 9, 8, 7, 6]);
        let tops: Vec<&str> = b
            .groups()
            .iter()
            .map(|g| b.name(*g.last().unwrap()))
            .collect();
        assert_eq!(
            tops,
            [
                "a6", "b7", "c8", "d9", "e10", "f11", "g10", "h9", "i8", "k7", "l6"
            ]
        );
    }

    #[test]
    fn grand_names_match_the_rules() {
        let b = grand();
        assert_eq!(b.len(), 127);
        let sizes: Vec<usize> = b.groups().iter().map(|g| g.len()).collect();
        assert_eq!(sizes, vec![7, 8, 9, 10, 11, 12, 13, 12, 11, 10, 9, 8, 7]);
        let first_rank: Vec<&str> = b.groups()[0].iter().map(|c| b.name(*c)).collect();
        assert_eq!(first_rank, ["a1", "b1", "c1", "d1", "e1", "f1", "g1"]);
        // Letters run left to right in the drawing.
        for g in b.groups() {
            let xs: Vec<f32> = g.iter().map(|c| b.layout().to_pixel(b.hex(*c)).0).collect();
            assert!(xs.windows(2).all(|w| w[0] < w[1]));
        }
        let d1 = b.parse_cell("d1").unwrap();
        assert_eq!(b.hex(d1), Hex::new(3, -6));
        assert_eq!(b.rank(b.parse_cell("n7").unwrap()), 7);
    }

    #[test]
    fn names_are_unique_and_parse_back() {
        for b in [glinski(), grand()] {
            for c in b.cells() {
                assert_eq!(b.parse_cell(b.name(c)), Some(c));
            }
        }
    }

    #[test]
    fn slanted_ranks_follow_shafrans_notation() {
        // Shafran's 70 cells: -4 <= q <= 4, -4 <= r <= 5, -5 <= s <= 4.
        let cells: Vec<Hex> = (-4i8..=4)
            .flat_map(|q| (-4i8..=5).map(move |r| Hex::new(q, r)))
            .filter(|h| (-5..=4).contains(&h.s()))
            .collect();
        assert_eq!(cells.len(), 70);
        let b = Board::new(Layout::FlatTop, Naming::SlantedRanks, &cells).unwrap();
        let at = |q, r| b.name(b.cell(Hex::new(q, r)).unwrap()).to_string();
        assert_eq!(at(-4, 0), "a1");
        assert_eq!(at(0, -4), "e1");
        assert_eq!(at(4, -4), "i5");
        assert_eq!(at(1, -4), "f2");
        assert_eq!(at(0, 5), "e10");
        assert_eq!(at(4, 1), "i10");
        assert!(b.parse_cell("f1").is_none());
    }

    #[test]
    fn rejects_bad_cell_lists() {
        let l = Layout::FlatTop;
        assert_eq!(
            Board::new(l, Naming::Files, &[]).unwrap_err(),
            BoardError::NoCells
        );
        let dup = [Hex::new(0, 0), Hex::new(0, 0)];
        assert!(matches!(
            Board::new(l, Naming::Files, &dup),
            Err(BoardError::DuplicateCell(_))
        ));
        // The base-10 hexagon (271 cells) fits; one ring more does not.
        assert_eq!(
            Board::new(l, Naming::Files, &Board::hexagon_cells(9))
                .unwrap()
                .len(),
            271
        );
        assert!(matches!(
            Board::new(l, Naming::Files, &Board::hexagon_cells(10)),
            Err(BoardError::TooManyCells(331))
        ));
    }
}
