//! The setup phase: the tray of pieces in hand (pick one, or drag it onto the board)
//! and, for Screen HexaChess at one screen, the hand-over screen between the hidden
//! deployments.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use hexchess_core::{Phase, Piece};

use crate::board::Selection;
use crate::game::CurrentGame;
use crate::input::HandDrag;
use crate::play::Session;
use crate::play::hidden::{HandOver, ScreenReady, ScreenState, hand_over, hiding};

/// The side to move's hand, while it places and its player is a person who may look.
pub(super) fn hand_tray(
    mut contexts: EguiContexts,
    game: Res<CurrentGame>,
    session: Res<Session>,
    screen: Res<ScreenState>,
    mut selection: ResMut<Selection>,
    mut drag: ResMut<HandDrag>,
) -> Result {
    let pos = &game.position();
    let us = pos.turn();
    let may_look = !hiding(&game, &screen) || screen.viewer == Some(us);
    if pos.phase() != Phase::Setup || !session.seats.person(us) || !game.is_live() || !may_look {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let rules = game.rules();
    // One row along the bottom edge, under the board's lowest cells.
    egui::Window::new(format!("{us} to place"))
        .id(egui::Id::new("hand tray"))
        .collapsible(false)
        .resizable(false)
        .title_bar(false)
        .anchor(egui::Align2::LEFT_BOTTOM, egui::vec2(12.0, -34.0))
        .show(ctx, |ui| {
            ui.set_min_width(460.0);
            ui.label(format!(
                "{} to place: pick a piece, or drag it onto a marked cell.",
                rules.side_name(us)
            ));
            ui.horizontal_wrapped(|ui| {
                for k in rules.kinds() {
                    let held = pos.in_hand(us, k);
                    if held == 0 {
                        continue;
                    }
                    let glyph = rules.piece_letter(Piece::new(us, k));
                    let name = &rules.kind_info(k).name;
                    let text = egui::RichText::new(format!("{glyph}  {name} ×{held}")).size(17.0);
                    let picked = selection.hand == Some(k);
                    let response = ui.add(
                        egui::Button::selectable(picked, text).sense(egui::Sense::click_and_drag()),
                    );
                    if response.clicked() {
                        selection.hand = if picked { None } else { Some(k) };
                        selection.from = None;
                    }
                    if response.drag_started() {
                        selection.hand = Some(k);
                        selection.from = None;
                        drag.0 = true;
                    }
                }
            });
        });
    if drag.0
        && let (Some(k), Some(at)) = (selection.hand, ctx.pointer_latest_pos())
    {
        let glyph = rules.piece_letter(Piece::new(us, k));
        egui::Area::new(egui::Id::new("dragged from hand"))
            .fixed_pos(at + egui::vec2(8.0, 8.0))
            .order(egui::Order::Tooltip)
            .interactable(false)
            .show(ctx, |ui| ui.label(egui::RichText::new(glyph).size(34.0)));
    }
    Ok(())
}

/// Between hidden deployments at one screen: the board is covered until the next
/// player says they are at the screen, and again before both armies are revealed.
pub(super) fn hand_over_screen(
    mut contexts: EguiContexts,
    game: Res<CurrentGame>,
    session: Res<Session>,
    screen: Res<ScreenState>,
    mut ready: MessageWriter<ScreenReady>,
) -> Result {
    let Some(question) = hand_over(&game, &screen, &session.seats) else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let (title, body, button) = match question {
        HandOver::PassTo(side) if game.position().ply_count() == 0 => (
            format!("{side} deploys first"),
            format!(
                "Screen HexaChess: each player places his whole army on his side of the board, \
                 unseen by the other.\n\n{side}'s player only, please: {} looks away.",
                !side
            ),
            format!("I am {side}: show my side"),
        ),
        HandOver::PassTo(side) => (
            format!("Pass the screen to {side}"),
            format!(
                "{} has deployed. Hand the screen to {side}'s player; {} looks away.",
                !side, !side
            ),
            format!("I am {side}: show my side"),
        ),
        HandOver::Reveal => (
            "Both armies are deployed".to_string(),
            "Show both armies and begin the game.".to_string(),
            "Reveal".to_string(),
        ),
    };
    egui::Area::new(egui::Id::new("screen cover"))
        .fixed_pos(egui::Pos2::ZERO)
        .order(egui::Order::Foreground)
        .show(ctx, |ui| {
            let rect = ctx.content_rect();
            ui.painter()
                .rect_filled(rect, 0.0, egui::Color32::from_rgb(12, 14, 20));
            ui.allocate_rect(rect, egui::Sense::click());
        });
    egui::Window::new(title)
        .id(egui::Id::new("hand over"))
        .collapsible(false)
        .resizable(false)
        .order(egui::Order::Tooltip)
        .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
        .show(ctx, |ui| {
            ui.set_max_width(360.0);
            ui.label(body);
            ui.add_space(8.0);
            if ui.button(egui::RichText::new(button).size(18.0)).clicked() {
                ready.write(ScreenReady);
            }
        });
    Ok(())
}
