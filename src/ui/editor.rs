//! The board editor's window: the pieces of both sides to place (and the eraser), the
//! side to move, pieces in hand where the variant has hands, empty board and start
//! position, the setup as FEN, every problem that keeps it from being a position, and
//! the way out to a game or the analysis board.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiTextureHandle, egui};
use hexchess_core::bitboard::WideBitboard;
use hexchess_core::{Piece, Position, Setup};

use crate::editor::{BoardEditor, EditorRequest, Tool, sides};
use crate::game::CurrentGame;
use crate::pieces::PieceAssets;

/// How large the palette draws each piece.
const PALETTE_PIECE: f32 = 30.0;

pub(super) fn editor_window(
    mut contexts: EguiContexts,
    mut editor: ResMut<BoardEditor>,
    game: Res<CurrentGame>,
    assets: Res<PieceAssets>,
    mut requests: MessageWriter<EditorRequest>,
) -> Result {
    let Some(setup) = &editor.setup else {
        return Ok(());
    };
    let pictures = palette_pictures(&mut contexts, &assets, setup);
    let ctx = contexts.ctx_mut()?;
    let checked = editor.checked();
    let mut open = true;
    let editor = &mut *editor;
    egui::Window::new("Board editor")
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .default_pos(egui::pos2(12.0, 70.0))
        .show(ctx, |ui| {
            let Some(setup) = editor.setup.as_mut() else {
                return;
            };
            ui.label("Click a cell to place the piece chosen (again to take it away); drag a piece to move it; right-click empties a cell.");
            palette(ui, setup, &pictures, &mut editor.tool);
            ui.separator();
            turn_and_hands(ui, setup);
            ui.horizontal(|ui| {
                if ui.button("Empty board").clicked() {
                    setup.clear();
                }
                if ui.button("Start position").clicked() {
                    *setup = Setup::from_position(&Position::start(std::sync::Arc::clone(
                        game.position().rules_arc(),
                    )));
                }
            });
            ui.label(egui::RichText::new(setup.to_fen()).small().monospace())
                .on_hover_text("the setup as hex FEN");
            ui.separator();
            match &checked {
                Some(Ok(_)) => {
                    ui.colored_label(egui::Color32::from_rgb(120, 200, 120), "A legal position.");
                }
                Some(Err(e)) => {
                    for problem in e.descriptions() {
                        ui.colored_label(egui::Color32::from_rgb(230, 120, 90), problem);
                    }
                }
                None => {}
            }
            let legal = matches!(checked, Some(Ok(_)));
            ui.horizontal(|ui| {
                if ui.add_enabled(legal, egui::Button::new("Play from here")).clicked() {
                    requests.write(EditorRequest::Play);
                }
                if ui.add_enabled(legal, egui::Button::new("Analyse")).clicked() {
                    requests.write(EditorRequest::Analyse);
                }
                if ui.button("Cancel").clicked() {
                    requests.write(EditorRequest::Close);
                }
            });
        });
    if !open {
        requests.write(EditorRequest::Close);
    }
    Ok(())
}

/// The image of each piece the palette offers, as egui knows it (none for a piece
/// told by its letter).
fn palette_pictures(
    contexts: &mut EguiContexts,
    assets: &PieceAssets,
    setup: &Setup<WideBitboard>,
) -> Vec<(Piece, egui::TextureId)> {
    let rules = setup.rules();
    let mut out = Vec::new();
    for &side in sides(setup) {
        for kind in rules.kinds() {
            let piece = Piece::new(side, kind);
            if let Some(image) = assets.picture(rules, piece) {
                out.push((
                    piece,
                    contexts.add_image(EguiTextureHandle::Weak(image.id())),
                ));
            }
        }
    }
    out
}

/// A button per piece of each side (its image, or its letter, upper case for White as
/// in FEN), and the eraser.
fn palette(
    ui: &mut egui::Ui,
    setup: &Setup<WideBitboard>,
    pictures: &[(Piece, egui::TextureId)],
    tool: &mut Tool,
) {
    let rules = setup.rules();
    for &side in sides(setup) {
        ui.horizontal_wrapped(|ui| {
            ui.label(format!("{}:", rules.side_name(side)));
            for kind in rules.kinds() {
                let piece = Piece::new(side, kind);
                let info = rules.kind_info(kind);
                let chosen = *tool == Tool::Place(piece);
                let picture = pictures.iter().find(|(p, _)| *p == piece);
                let button = match picture {
                    Some((_, texture)) => egui::Button::image(egui::Image::new((
                        *texture,
                        egui::vec2(PALETTE_PIECE, PALETTE_PIECE),
                    ))),
                    None => egui::Button::new(if side == hexchess_core::Side::White {
                        info.letter.to_ascii_uppercase().to_string()
                    } else {
                        info.letter.to_ascii_lowercase().to_string()
                    }),
                };
                if ui
                    .add(button.selected(chosen))
                    .on_hover_text(format!("{} {}", rules.side_name(side), info.name))
                    .clicked()
                {
                    *tool = Tool::Place(piece);
                }
            }
        });
    }
    if ui
        .selectable_label(*tool == Tool::Erase, "Eraser")
        .clicked()
    {
        *tool = Tool::Erase;
    }
}

/// The side to move, and for a variant with hands each side's pieces in hand.
fn turn_and_hands(ui: &mut egui::Ui, setup: &mut Setup<WideBitboard>) {
    let rules = std::sync::Arc::clone(setup.rules_arc());
    ui.horizontal(|ui| {
        ui.label("To move:");
        for &side in sides(setup) {
            let mut turn = setup.turn();
            if ui
                .radio_value(&mut turn, side, rules.side_name(side))
                .changed()
            {
                let _ = setup.set_turn(turn);
            }
        }
    });
    if !rules.has_setup_phase() {
        return;
    }
    for &side in sides(setup) {
        ui.horizontal_wrapped(|ui| {
            ui.label(format!("{} in hand:", rules.side_name(side)));
            for kind in rules.kinds() {
                let mut n = setup.in_hand(side, kind);
                let letter = rules.kind_info(kind).letter;
                if ui
                    .add(
                        egui::DragValue::new(&mut n)
                            .range(0..=63)
                            .prefix(format!("{letter} ")),
                    )
                    .changed()
                {
                    let _ = setup.set_in_hand(side, kind, n);
                }
            }
        });
    }
}
