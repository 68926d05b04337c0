//! The variant card in the new-game menu: the variant's description, its board with the
//! starting armies, and every piece's moves: a click on a piece shows where it goes
//! from a cell in the middle of the empty board.

use std::sync::Arc;

use bevy_egui::egui;
use hexchess_core::bitboard::{CellSet, WideBitboard};
use hexchess_core::{Cell, Hex, Kind, Piece, Position, Rules, Setup, Side};

use crate::look::Theme;

/// The card's board drawing, in points.
const BOARD_SIZE: f32 = 300.0;

/// The piece whose moves the card shows, per variant (kept between frames).
#[derive(Clone, Debug, Default)]
pub(super) struct CardChoice {
    pub variant: String,
    pub kind: Option<Kind>,
}

pub(super) fn variant_card(
    ui: &mut egui::Ui,
    rules: &Arc<Rules<WideBitboard>>,
    description: &str,
    theme: &Theme,
    choice: &mut CardChoice,
) {
    if choice.variant != rules.id() {
        *choice = CardChoice {
            variant: rules.id().to_string(),
            kind: None,
        };
    }
    ui.set_max_width(BOARD_SIZE + 20.0);
    if !description.is_empty() {
        ui.label(description);
    }
    ui.horizontal_wrapped(|ui| {
        ui.label("Pieces:");
        for kind in rules.kinds() {
            let info = rules.kind_info(kind);
            if ui
                .selectable_label(choice.kind == Some(kind), &info.name)
                .on_hover_text("click to see where it goes")
                .clicked()
            {
                choice.kind = (choice.kind != Some(kind)).then_some(kind);
            }
        }
    });
    let (pieces, marks, from) = match choice.kind {
        Some(kind) => {
            let (from, targets) = moves_from_the_middle(rules, kind);
            (
                vec![(from, Piece::new(Side::White, kind))],
                targets,
                Some(from),
            )
        }
        None => (
            Position::start(Arc::clone(rules)).pieces().collect(),
            Vec::new(),
            None,
        ),
    };
    board(ui, rules, theme, &pieces, &marks, from);
    if let Some(kind) = choice.kind
        && rules.kind_info(kind).pawn
    {
        ui.label("A White pawn's steps forward; it captures as the rules say (docs/rules.md).");
    }
}

/// The cell nearest the board's middle and where a White `kind` goes from there on an
/// otherwise empty board (a pawn: its legal moves with the two kings far away).
fn moves_from_the_middle(rules: &Arc<Rules<WideBitboard>>, kind: Kind) -> (Cell, Vec<Cell>) {
    let board = rules.board();
    let middle = board
        .cells()
        .min_by_key(|&c| board.hex(c).distance(Hex::ORIGIN))
        .expect("a board has cells");
    let piece = Piece::new(Side::White, kind);
    if !rules.kind_info(kind).pawn {
        let none = WideBitboard::EMPTY;
        let reach = rules.reach(piece, middle, none, none, none);
        return (
            middle,
            board.cells().filter(|&c| reach.contains(c)).collect(),
        );
    }
    (middle, pawn_steps(rules, middle))
}

/// A pawn's legal moves from `from` with only the two royal pieces on the board, placed
/// on the cells farthest from it (none if no such position is legal).
fn pawn_steps(rules: &Arc<Rules<WideBitboard>>, from: Cell) -> Vec<Cell> {
    let board = rules.board();
    let Some(pawn) = rules.kinds().find(|&k| rules.kind_info(k).pawn) else {
        return Vec::new();
    };
    let Some(king) = rules.kinds().find(|&k| rules.kind_info(k).royal) else {
        return Vec::new();
    };
    let farthest_from = |cell: Cell| {
        board
            .cells()
            .max_by_key(|&c| board.hex(c).distance(board.hex(cell)))
            .unwrap_or(cell)
    };
    // White's king far from the pawn, Black's far from White's.
    let white = farthest_from(from);
    let black = farthest_from(white);
    let mut setup = Setup::empty(Arc::clone(rules));
    let placed = setup.place(from, Piece::new(Side::White, pawn)).is_ok()
        && setup.place(white, Piece::new(Side::White, king)).is_ok()
        && setup.place(black, Piece::new(Side::Black, king)).is_ok();
    match setup.validate() {
        Ok(pos) if placed => pos
            .legal_moves()
            .into_iter()
            .filter(|m| m.from() == from)
            .map(|m| m.to())
            .collect(),
        _ => Vec::new(),
    }
}

/// The board as flat hexagons in the theme's cell colours, pieces as their letters,
/// `marks` ringed and `from` outlined.
fn board(
    ui: &mut egui::Ui,
    rules: &Rules<WideBitboard>,
    theme: &Theme,
    pieces: &[(Cell, Piece)],
    marks: &[Cell],
    from: Option<Cell>,
) {
    let b = rules.board();
    let layout = rules.layout();
    let points: Vec<(Cell, (f32, f32))> =
        b.cells().map(|c| (c, layout.to_pixel(b.hex(c)))).collect();
    let (min_x, max_x, min_y, max_y) = points.iter().fold(
        (f32::MAX, f32::MIN, f32::MAX, f32::MIN),
        |(a, b, c, d), (_, (x, y))| (a.min(*x), b.max(*x), c.min(*y), d.max(*y)),
    );
    let span = (max_x - min_x).max(max_y - min_y) + 2.0;
    let scale = BOARD_SIZE / span;
    let (rect, _) =
        ui.allocate_exact_size(egui::vec2(BOARD_SIZE, BOARD_SIZE), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    let centre = |x: f32, y: f32| {
        egui::pos2(
            rect.center().x + (x - (min_x + max_x) / 2.0) * scale,
            // Up the board is up the card.
            rect.center().y - (y - (min_y + max_y) / 2.0) * scale,
        )
    };
    let flat_top = layout == hexchess_core::Layout::FlatTop;
    for &(cell, (x, y)) in &points {
        let c = centre(x, y);
        let colour =
            theme.board.cells[usize::from(b.hex(cell).colour()) % theme.board.cells.len().max(1)];
        let fill = egui::Color32::from_rgb(
            (colour.0 * 255.0) as u8,
            (colour.1 * 255.0) as u8,
            (colour.2 * 255.0) as u8,
        );
        let corners: Vec<egui::Pos2> = (0..6)
            .map(|i| {
                let a = std::f32::consts::PI / 3.0 * i as f32
                    + if flat_top {
                        0.0
                    } else {
                        std::f32::consts::PI / 6.0
                    };
                c + egui::vec2(a.cos(), a.sin()) * scale * 0.98
            })
            .collect();
        painter.add(egui::Shape::convex_polygon(
            corners,
            fill,
            egui::Stroke::NONE,
        ));
        if marks.contains(&cell) {
            painter.circle_stroke(
                c,
                scale * 0.45,
                egui::Stroke::new(2.0, egui::Color32::from_rgb(40, 150, 70)),
            );
        }
        if from == Some(cell) {
            painter.circle_stroke(
                c,
                scale * 0.8,
                egui::Stroke::new(2.0, egui::Color32::from_rgb(40, 110, 220)),
            );
        }
    }
    for &(cell, piece) in pieces {
        let (x, y) = layout.to_pixel(b.hex(cell));
        let letter = rules.kind_info(piece.kind).letter;
        // A light disc with a dark letter for White, the other way round for Black, as
        // the pieces themselves look; a third or fourth side in its army's colour.
        let (text, ink, disc) = match piece.side {
            Side::White => (
                letter.to_ascii_uppercase(),
                egui::Color32::from_gray(25),
                egui::Color32::from_gray(240),
            ),
            Side::Black => (
                letter.to_ascii_lowercase(),
                egui::Color32::from_gray(240),
                egui::Color32::from_gray(35),
            ),
            other => {
                let c = crate::pieces::ArmyColour::of(rules, other)
                    .swatch()
                    .to_srgba();
                let disc = egui::Color32::from_rgb(
                    (c.red * 255.0) as u8,
                    (c.green * 255.0) as u8,
                    (c.blue * 255.0) as u8,
                );
                (
                    letter.to_ascii_lowercase(),
                    egui::Color32::from_gray(245),
                    disc,
                )
            }
        };
        let at = centre(x, y);
        painter.circle_filled(at, scale * 0.62, disc);
        painter.text(
            at,
            egui::Align2::CENTER_CENTER,
            text,
            egui::FontId::proportional(scale * 1.1),
            ink,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hexchess_core::Catalog;

    /// From the middle of Gliński's empty board (radius 5): a rook slides 5 cells in each
    /// of 6 directions (30), a bishop 2 cells along each of 6 diagonals (12), the queen
    /// both (42), a knight leaps to 12 cells, the king steps to 12; a pawn not on its
    /// start cell steps once.
    #[test]
    fn each_piece_shows_where_it_goes_from_the_middle() {
        let catalog = Catalog::builtin();
        let rules = Arc::clone(catalog.get("glinski").unwrap().rules());
        let count = |letter: char| {
            let kind = rules.kind_by_letter(letter).unwrap();
            moves_from_the_middle(&rules, kind).1.len()
        };
        assert_eq!(
            ['R', 'B', 'Q', 'N', 'K', 'P'].map(count),
            [30, 12, 42, 12, 12, 1]
        );
        let (middle, _) = moves_from_the_middle(&rules, rules.kind_by_letter('Q').unwrap());
        assert_eq!(rules.board().name(middle), "f6");
    }
}
