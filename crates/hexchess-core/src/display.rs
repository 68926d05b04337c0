//! A text drawing of a position, laid out like the real board (for `d` in the engine).

use crate::bitboard::CellSet;
use crate::board::Naming;
use crate::hex::Layout;
use crate::position::Position;

impl<B: CellSet> Position<B> {
    /// The board as text: pieces in FEN letters, empty cells as `.`, White at the bottom,
    /// with file letters (files naming) or rank numbers (ranks naming) along the edge.
    pub fn ascii(&self) -> String {
        let rules = self.rules();
        let board = rules.board();
        // Integer drawing coordinates: flat-top files are columns four characters apart,
        // shifted by one text row per file; pointy-top ranks are text rows.
        let place = |h: crate::hex::Hex| -> (i32, i32) {
            let (q, r) = (h.q() as i32, h.r() as i32);
            match board.layout() {
                Layout::FlatTop => (4 * q, -(2 * r + q)),
                Layout::PointyTop => (2 * (2 * q + r), -r),
            }
        };
        // With more than two sides a piece is its side's letter and its own (`cQ`), as
        // in their FEN.
        let many = rules.side_count() > 2;
        let spots: Vec<(i32, i32, char)> = board
            .cells()
            .flat_map(|c| {
                let (x, y) = place(board.hex(c));
                match self.piece_at(c) {
                    Some(p) if many => vec![
                        (x, y, p.side.letter()),
                        (x + 1, y, rules.kind_info(p.kind).letter),
                    ],
                    Some(p) => vec![(x, y, rules.piece_letter(p))],
                    None => vec![(x, y, '.')],
                }
            })
            .collect();
        let min_x = spots.iter().map(|s| s.0).min().unwrap_or(0);
        let max_x = spots.iter().map(|s| s.0).max().unwrap_or(0);
        let min_y = spots.iter().map(|s| s.1).min().unwrap_or(0);
        let max_y = spots.iter().map(|s| s.1).max().unwrap_or(0);
        let margin = 5usize;
        let width = (max_x - min_x) as usize + 1 + margin;
        let height = (max_y - min_y) as usize + 1;
        let mut grid = vec![vec![' '; width]; height];
        for (x, y, ch) in &spots {
            grid[(y - min_y) as usize][(x - min_x) as usize + margin] = *ch;
        }
        if board.naming() == Naming::Ranks {
            for g in board.groups() {
                let (_, y) = place(board.hex(g[0]));
                let label = board.rank(g[0]).to_string();
                for (i, ch) in label.chars().enumerate() {
                    grid[(y - min_y) as usize][i] = ch;
                }
            }
        }
        let mut out = String::new();
        let files_line = || {
            let mut line = vec![' '; width];
            for g in board.groups() {
                let (x, _) = place(board.hex(g[0]));
                let name = board.name(g[0]);
                line[(x - min_x) as usize + margin] = name.chars().next().unwrap_or('?');
            }
            line.into_iter().collect::<String>().trim_end().to_string()
        };
        if board.naming() != Naming::Ranks {
            out.push_str(&files_line());
            out.push('\n');
        }
        for row in grid {
            let line: String = row.into_iter().collect();
            out.push_str(line.trim_end());
            out.push('\n');
        }
        if board.naming() != Naming::Ranks {
            out.push_str(&files_line());
            out.push('\n');
        }
        out
    }
}
