//! Where cells are in the world: the board lies in the XZ plane, White at +Z, so "up
//! the board" (toward Black) is -Z. Every view and the pointer map cells through here.

use bevy::prelude::*;
use hexchess_core::bitboard::CellSet;
use hexchess_core::{Cell, Hex, Layout, Rules};

/// Cell circumradius in world units.
pub const CELL_SIZE: f32 = 1.0;

/// The world position of a cell's centre on the board's top surface. The board lies in
/// the XZ plane; White sits at +Z, so "up the board" (toward Black) is -Z.
pub fn cell_world<B: CellSet>(rules: &Rules<B>, cell: Cell) -> Vec3 {
    hex_world(rules.layout(), rules.board().hex(cell))
}

/// The world position of any cube coordinate (on the board or not).
pub fn hex_world(layout: Layout, h: Hex) -> Vec3 {
    let (x, y) = layout.to_pixel(h);
    Vec3::new(x * CELL_SIZE, 0.0, -y * CELL_SIZE)
}

/// The cell under a point of the board plane, if any.
pub fn world_cell<B: CellSet>(rules: &Rules<B>, p: Vec3) -> Option<Cell> {
    let h = rules.layout().from_pixel(p.x / CELL_SIZE, -p.z / CELL_SIZE);
    rules.board().cell(h)
}

/// The centre of the board's cells (for cameras).
pub fn board_centre<B: CellSet>(rules: &Rules<B>) -> Vec3 {
    let b = rules.board();
    let sum: Vec3 = b.cells().map(|c| cell_world(rules, c)).sum();
    sum / b.len().max(1) as f32
}

/// Half the board's extent (for fitting cameras).
pub fn board_radius<B: CellSet>(rules: &Rules<B>) -> f32 {
    let c = board_centre(rules);
    rules
        .board()
        .cells()
        .map(|cell| cell_world(rules, cell).distance(c))
        .fold(0.0, f32::max)
        + CELL_SIZE
}

#[cfg(test)]
mod tests {
    use super::*;
    use hexchess_core::Catalog;

    #[test]
    fn world_positions_round_trip_to_cells() {
        let catalog = Catalog::builtin();
        for e in catalog.entries() {
            let Some(rules) = e.two_player_rules() else {
                continue;
            };
            let rules = &rules;
            for c in rules.board().cells() {
                let p = cell_world(rules, c);
                assert_eq!(world_cell(rules, p + Vec3::new(0.3, 0.0, -0.4)), Some(c));
            }
            assert_eq!(world_cell(rules, Vec3::new(100.0, 0.0, 0.0)), None);
        }
    }
}
