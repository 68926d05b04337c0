//! The user interface (egui): the menu bar, the status line and the promotion picker.

use bevy::prelude::*;
use bevy_egui::input::EguiWantsInput;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::game::{GameState, NewGameRequest, UndoRequest, Variants};
use crate::input::{PendingPromotion, PointerOverUi, PromotionChoice};
use crate::settings::{Settings, ViewChanged};

pub struct UiPlugin;

impl Plugin for UiPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(EguiPrimaryContextPass, (menu_bar, promotion_picker))
            .add_systems(PreUpdate, note_pointer_over_ui);
    }
}

/// Clicks on the interface never reach the board beneath it.
fn note_pointer_over_ui(wants: Option<Res<EguiWantsInput>>, mut over: ResMut<PointerOverUi>) {
    let now = wants.is_some_and(|w| w.wants_any_pointer_input());
    if over.0 != now {
        over.0 = now;
    }
}

#[allow(clippy::too_many_arguments)]
fn menu_bar(
    mut contexts: EguiContexts,
    game: Res<GameState>,
    variants: Res<Variants>,
    mut settings: ResMut<Settings>,
    mut new_game: MessageWriter<NewGameRequest>,
    mut undo: MessageWriter<UndoRequest>,
    mut views: MessageWriter<ViewChanged>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut root = root_ui(ctx);
    egui::Panel::top("menu").show(&mut root, |ui| {
        ui.horizontal_wrapped(|ui| {
            let current = game.rules().id().to_string();
            let current_name = game.rules().name().to_string();
            egui::ComboBox::from_id_salt("variant")
                .selected_text(current_name)
                .show_ui(ui, |ui| {
                    for entry in variants.0.entries() {
                        if ui
                            .selectable_label(entry.id() == current, entry.name())
                            .clicked()
                            && entry.id() != current
                        {
                            new_game.write(NewGameRequest {
                                variant: Some(entry.id().to_string()),
                                fen: None,
                            });
                        }
                    }
                });
            if ui.button("New game").clicked() {
                new_game.write(NewGameRequest::default());
            }
            if ui.button("Undo").clicked() {
                undo.write(UndoRequest);
            }
            ui.separator();
            let mut view = settings.view;
            if ui
                .button(format!("View: {}", view.label()))
                .on_hover_text("V")
                .clicked()
            {
                view = view.toggled();
            }
            let mut flipped = settings.flipped;
            ui.checkbox(&mut flipped, "Flip").on_hover_text("F");
            if view != settings.view || flipped != settings.flipped {
                settings.view = view;
                settings.flipped = flipped;
                views.write(ViewChanged);
            }
            ui.separator();
            let mut animate = settings.animate;
            ui.checkbox(&mut animate, "Animate");
            let mut speed = settings.animation_speed;
            ui.add_enabled(
                animate,
                egui::Slider::new(&mut speed, 0.25..=4.0)
                    .text("speed")
                    .logarithmic(true),
            );
            if animate != settings.animate || speed != settings.animation_speed {
                settings.animate = animate;
                settings.animation_speed = speed;
            }
        });
    });
    egui::Panel::bottom("status").show(&mut root, |ui| {
        ui.label(status_line(&game));
    });
    Ok(())
}

/// A Ui covering the whole window, for the panels along its edges.
pub fn root_ui(ctx: &egui::Context) -> egui::Ui {
    egui::Ui::new(
        ctx.clone(),
        "root".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    )
}

/// "White to move", "Black to move, in check", or the result.
pub fn status_line(game: &GameState) -> String {
    let pos = &game.position;
    match game.outcome() {
        Some(o) => o.description(),
        None => {
            let check = if pos.in_check() { ", in check" } else { "" };
            format!(
                "{} to move{check} (move {})",
                pos.turn(),
                pos.fullmove_number()
            )
        }
    }
}

fn promotion_picker(
    mut contexts: EguiContexts,
    game: Res<GameState>,
    pending: Res<PendingPromotion>,
    mut choices: MessageWriter<PromotionChoice>,
) -> Result {
    if pending.moves.is_empty() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let rules = game.rules();
    let mut chosen = None;
    let mut cancel = false;
    egui::Window::new("Promote to")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                for (i, mv) in pending.moves.iter().enumerate() {
                    let label = match mv.promotion() {
                        Some(k) => rules.kind_info(k).name.clone(),
                        None => "Stay a pawn".to_string(),
                    };
                    if ui.button(label).clicked() {
                        chosen = Some(i);
                    }
                }
            });
            if ui.button("Cancel").clicked() {
                cancel = true;
            }
        });
    if chosen.is_some() || cancel {
        choices.write(PromotionChoice(chosen));
    }
    Ok(())
}
