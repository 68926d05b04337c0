//! Coordinate labels: file letters and rank numbers along the board's edge, pinned
//! to their world points (see [`crate::look::pin`]).

use bevy::prelude::*;
use hexchess_core::bitboard::CellSet;
use hexchess_core::{Cell, Hex, Naming, Rules};

use super::space::CELL_SIZE;
use crate::look::Theme;
use crate::look::pin::{ScreenPin, pinned_text};

/// A coordinate label (its text node is a [`ScreenPin`]).
#[derive(Component)]
pub struct BoardLabel {
    pub world: Vec3,
}

/// A coordinate label's text and the board point it stands on.
#[derive(Clone, Debug, PartialEq)]
pub struct LabelPlace {
    pub text: String,
    pub world: Vec3,
}

/// Where each coordinate label goes: file letters and rank numbers at the board's edge,
/// each next to the first cell it names.
pub fn label_positions<B: CellSet>(rules: &Rules<B>) -> Vec<LabelPlace> {
    let b = rules.board();
    let layout = rules.layout();
    let split = |c: Cell| {
        let n = b.name(c);
        let i = n.find(|ch: char| ch.is_ascii_digit()).unwrap_or(n.len());
        (n[..i].to_string(), n[i..].to_string())
    };
    let px = |c: Cell| layout.to_pixel(b.hex(c));
    // Files naming: letters straight below each file, numbers at the outer edge.
    // Ranks naming: numbers straight left of each rank, letters at the outer edge.
    let (fixed_dir, fixed_is_letter) = match b.naming() {
        Naming::Files | Naming::SlantedRanks => (Hex::new(0, -1), true),
        Naming::Ranks => (Hex::new(-1, 0), false),
    };
    let outward = |c: Cell| -> Vec2 {
        let mut v = Vec2::ZERO;
        for d in hexchess_core::hex::ORTHOGONAL {
            if d != fixed_dir && b.offset(c, d).is_none() {
                let (x, y) = layout.to_pixel(d);
                v += Vec2::new(x, y);
            }
        }
        v.normalize_or(Vec2::new(0.0, -1.0))
    };
    let fixed = {
        let (x, y) = layout.to_pixel(fixed_dir);
        Vec2::new(x, y).normalize()
    };
    let mut out: Vec<LabelPlace> = Vec::new();
    let mut add = |text: String, c: Cell, dir: Vec2| {
        if out.iter().any(|l| l.text == text) {
            return;
        }
        let (x, y) = px(c);
        let p = Vec2::new(x, y) + dir * 1.45 * CELL_SIZE;
        out.push(LabelPlace {
            text,
            world: Vec3::new(p.x, 0.0, -p.y),
        });
    };
    // Letters: the lowest cell with each letter; numbers: the leftmost with each.
    let mut by_letter: Vec<Cell> = b.cells().collect();
    by_letter.sort_by(|a, c| {
        px(*a)
            .1
            .total_cmp(&px(*c).1)
            .then(px(*a).0.total_cmp(&px(*c).0))
    });
    for c in by_letter {
        let dir = if fixed_is_letter { fixed } else { outward(c) };
        add(split(c).0, c, dir);
    }
    let mut by_number: Vec<Cell> = b.cells().collect();
    by_number.sort_by(|a, c| {
        px(*a)
            .0
            .total_cmp(&px(*c).0)
            .then(px(*a).1.total_cmp(&px(*c).1))
    });
    for c in by_number {
        let dir = if fixed_is_letter { outward(c) } else { fixed };
        add(split(c).1, c, dir);
    }
    out
}

/// Spawns the labels of `rules`' board, pinned to their world points.
pub fn spawn_labels<B: CellSet>(commands: &mut Commands, rules: &Rules<B>, theme: &Theme) {
    for LabelPlace { text, world } in label_positions(rules) {
        commands.spawn((
            BoardLabel { world },
            pinned_text(
                ScreenPin::Point(world),
                text,
                theme.board.label_size,
                theme.board.labels.into(),
            ),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::space::cell_world;
    use hexchess_core::Catalog;

    #[test]
    fn every_file_and_rank_gets_one_label_off_the_board() {
        let catalog = Catalog::builtin();
        for (id, count) in [("glinski", 11 + 11), ("grand", 13 + 13)] {
            let rules = &catalog.get(id).unwrap().two_player_rules().unwrap();
            let labels = label_positions(rules);
            assert_eq!(labels.len(), count, "{id}: {labels:?}");
            for LabelPlace { text, world: p } in &labels {
                // Outside every cell, but near one.
                let nearest = rules
                    .board()
                    .cells()
                    .map(|c| cell_world(rules, c).distance(*p))
                    .fold(f32::MAX, f32::min);
                assert!(
                    nearest > 0.9 * CELL_SIZE && nearest < 2.0 * CELL_SIZE,
                    "{id} {text} at {nearest}"
                );
            }
        }
    }
}
