//! Small windows: the promotion picker (or any choice between moves to one cell), the
//! variant files that failed to load, the offer to restart a game whose variant file
//! changed, and the question before resigning, aborting or leaving a game in play.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::{UiInsets, UiMemory};
use crate::confirm::{Question, Reply};
use crate::game::variants::RestartOffer;
use crate::game::{CurrentGame, NewGameRequest, Variants};
use crate::input::{PendingPromotion, PromotionChoice};
use crate::play::Session;
use hexchess_core::VariantError;

pub(super) fn promotion_picker(
    mut contexts: EguiContexts,
    game: Res<CurrentGame>,
    pending: Res<PendingPromotion>,
    mut choices: MessageWriter<PromotionChoice>,
) -> Result {
    if pending.moves.is_empty() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let rules = game.rules();
    let moved_is_pawn = pending
        .moves
        .first()
        .and_then(|m| game.position().piece_at(m.from()))
        .is_some_and(|p| rules.pawn_kind() == Some(p.kind));
    let title = if moved_is_pawn {
        "Promote to"
    } else {
        "Which move?"
    };
    let mut chosen = None;
    let mut cancel = false;
    egui::Window::new(title)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                for (i, mv) in pending.moves.iter().enumerate() {
                    let label = match (mv.castling(), mv.promotion()) {
                        (Some(i), _) => rules
                            .castling_notation(game.position().turn(), i)
                            .unwrap_or("Castle")
                            .to_string(),
                        (None, Some(k)) => rules.kind_info(k).name.clone(),
                        (None, None) if moved_is_pawn => "Stay a pawn".to_string(),
                        (None, None) => "Ordinary move".to_string(),
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

/// The variant files that failed to load, and the offer to restart a game whose
/// variant file changed.
pub(super) fn variant_errors(
    mut contexts: EguiContexts,
    variants: Res<Variants>,
    insets: Res<UiInsets>,
    mut memory: ResMut<UiMemory>,
    mut offer: ResMut<RestartOffer>,
    mut new_game: MessageWriter<NewGameRequest>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let errors = variants.0.errors();
    // A newly broken file opens the panel; the player may close it.
    if errors.len() > memory.errors_seen {
        memory.show_errors = true;
    }
    memory.errors_seen = errors.len();
    if !errors.is_empty() {
        problem_files(ctx, errors, &insets, &mut memory);
    }
    if let Some(id) = offer.0.clone() {
        restart_offer(ctx, &variants, id, &mut offer, &mut new_game);
    }
    Ok(())
}

/// A badge naming how many files have problems, and the window listing each problem
/// with its line and column.
fn problem_files(
    ctx: &egui::Context,
    errors: &[VariantError],
    insets: &UiInsets,
    memory: &mut UiMemory,
) {
    let right = ctx.viewport_rect().right() - insets.right - 8.0;
    egui::Area::new("variant-error-badge".into())
        .fixed_pos(egui::pos2(right - 230.0, insets.top + 8.0))
        .show(ctx, |ui| {
            let n = errors.len();
            let label = format!(
                "⚠ {n} variant file{} with problems",
                if n == 1 { "" } else { "s" }
            );
            if ui
                .button(egui::RichText::new(label).color(egui::Color32::from_rgb(240, 170, 80)))
                .clicked()
            {
                memory.show_errors = !memory.show_errors;
            }
        });
    let mut open = memory.show_errors;
    egui::Window::new("Variant files with problems")
        .open(&mut open)
        .default_width(560.0)
        .show(ctx, |ui| {
            ui.label("These files were not loaded; the other variants stay playable. Fix a file and save it: it loads again by itself.");
            egui::ScrollArea::vertical().max_height(420.0).show(ui, |ui| {
                for e in errors {
                    ui.separator();
                    ui.strong(e.file());
                    for p in e.problems() {
                        let at = match (p.line, p.column) {
                            (Some(l), Some(c)) => format!("line {l}, column {c}"),
                            _ => "whole file".to_string(),
                        };
                        let place = if p.path.is_empty() { at } else { format!("{at} ({})", p.path) };
                        ui.horizontal_wrapped(|ui| {
                            ui.label(egui::RichText::new(place).monospace().small());
                            ui.label(&p.message);
                        });
                        if let Some(h) = &p.hint {
                            ui.label(egui::RichText::new(format!("hint: {h}")).italics().color(egui::Color32::from_rgb(150, 200, 255)));
                        }
                    }
                }
            });
        });
    memory.show_errors = open;
}

/// "The file for this variant changed": restart with the new rules, or keep playing.
fn restart_offer(
    ctx: &egui::Context,
    variants: &Variants,
    id: String,
    offer: &mut RestartOffer,
    new_game: &mut MessageWriter<NewGameRequest>,
) {
    let name = variants
        .0
        .get(&id)
        .map_or(id.clone(), |e| e.name().to_string());
    let mut restart = false;
    let mut dismiss = false;
    egui::Window::new("Rules changed")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_TOP, egui::vec2(-150.0, 60.0))
        .show(ctx, |ui| {
            ui.label(format!("The file for {name} changed on disk."));
            ui.horizontal(|ui| {
                restart = ui.button("Restart with the new rules").clicked();
                dismiss = ui.button("Keep playing").clicked();
            });
        });
    if restart {
        new_game.write(NewGameRequest {
            variant: Some(id),
            fen: None,
            moves: Vec::new(),
        });
    }
    if restart || dismiss {
        offer.0 = None;
    }
}

/// The question a weighty request waits on: yes does it, no (or Escape) lets it go.
pub(super) fn weighty_question(
    mut contexts: EguiContexts,
    question: Res<Question>,
    session: Res<Session>,
    keys: Res<ButtonInput<KeyCode>>,
    mut replies: MessageWriter<Reply>,
) -> Result {
    let Some(weighty) = &question.0 else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let mut reply = keys.just_pressed(KeyCode::Escape).then_some(Reply::No);
    egui::Window::new("Are you sure?")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
        .show(ctx, |ui| {
            ui.label(weighty.question(session.seats.is_online()));
            ui.horizontal(|ui| {
                if ui.button(weighty.yes()).clicked() {
                    reply = Some(Reply::Yes);
                }
                if ui.button("Cancel").clicked() {
                    reply = Some(Reply::No);
                }
            });
            ui.small("Settings: \"Ask first\" turns these questions off.");
        });
    if let Some(r) = reply {
        replies.write(r);
    }
    Ok(())
}
