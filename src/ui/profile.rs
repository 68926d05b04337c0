//! A player's page and a variant's leaderboard, as the server sends them: the page
//! opens when asked for (a name on the board, in the chat or in a list; *Your page*),
//! with the player's ratings and last games, a finished one opening in the analysis
//! board; the leaderboard shows each speed's best players, a name opening its page.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use hexchess_protocol::{Leaderboard, PlayedGame, PlayerProfile};

use crate::game::Variants;
use crate::online::{Online, OnlineRequest, rating_text};

pub(super) fn profile_window(
    mut contexts: EguiContexts,
    mut online: ResMut<Online>,
    variants: Res<Variants>,
    mut requests: MessageWriter<OnlineRequest>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    if let Some(profile) = &online.profile {
        let mut open = true;
        egui::Window::new(format!("Player: {}", profile.name))
            .id("player page".into())
            .open(&mut open)
            .default_width(420.0)
            .show(ctx, |ui| {
                page(ui, profile, &variants, &online, &mut requests)
            });
        if !open {
            online.profile = None;
        }
    }
    if let Some(board) = &online.leaderboard {
        let mut open = true;
        egui::Window::new(format!(
            "Leaderboard: {}",
            variant_name(&variants, &board.variant)
        ))
        .id("leaderboard".into())
        .open(&mut open)
        .default_width(340.0)
        .show(ctx, |ui| leaderboard(ui, board, &variants, &mut requests));
        if !open {
            online.leaderboard = None;
        }
    }
    Ok(())
}

fn variant_name(variants: &Variants, id: &str) -> String {
    variants
        .0
        .get(id)
        .map_or_else(|| id.to_string(), |e| e.name().to_string())
}

fn is_table(variants: &Variants, id: &str) -> bool {
    variants.0.get(id).is_some_and(|e| e.side_count() > 2)
}

/// The page: a bot's mark, each rating, the last games.
fn page(
    ui: &mut egui::Ui,
    profile: &PlayerProfile,
    variants: &Variants,
    online: &Online,
    requests: &mut MessageWriter<OnlineRequest>,
) {
    if profile.bot {
        ui.label(egui::RichText::new("BOT: a program plays for this account").strong());
    }
    ui.strong("Ratings");
    if profile.ratings.is_empty() {
        ui.label("no rated game yet");
    }
    egui::Grid::new("page ratings")
        .striped(true)
        .show(ui, |ui| {
            for r in &profile.ratings {
                ui.label(variant_name(variants, &r.variant));
                ui.label(&r.speed);
                let table = is_table(variants, &r.variant);
                ui.strong(rating_text(r.rating, r.provisional, table));
                ui.label(format!("{} games", r.games));
                ui.end_row();
            }
        });
    ui.separator();
    ui.strong("Last games");
    if profile.games.is_empty() {
        ui.label("none yet");
    }
    egui::ScrollArea::vertical()
        .max_height(320.0)
        .show(ui, |ui| {
            for game in &profile.games {
                played(ui, game, variants, online, requests);
            }
        });
}

/// One game of the page: who played, how it ended, and a button to study it (or to
/// watch it while it is on).
fn played(
    ui: &mut egui::Ui,
    game: &PlayedGame,
    variants: &Variants,
    online: &Online,
    requests: &mut MessageWriter<OnlineRequest>,
) {
    ui.horizontal_wrapped(|ui| {
        ui.label(format!(
            "{} {}{}",
            variant_name(variants, &game.variant),
            game.speed,
            if game.rated { ", rated" } else { "" }
        ));
        ui.label(egui::RichText::new(game.names.join(" – ")).strong());
        match (&game.result, &game.why) {
            (Some(result), Some(why)) if result != "*" => {
                ui.label(format!("{result} ({why})"));
                if ui
                    .small_button("Analyse")
                    .on_hover_text("open it in the analysis board")
                    .clicked()
                {
                    requests.write(OnlineRequest::Analyse(game.game.clone()));
                }
            }
            (Some(_), _) => {
                ui.label("aborted");
            }
            (None, _) => {
                ui.label("in play");
                if online.is_connected()
                    && !online.follows(&game.game)
                    && ui.small_button("Watch").clicked()
                {
                    requests.write(OnlineRequest::Open(game.game.clone()));
                }
            }
        }
    });
}

/// Each speed's best players, a name opening its page.
fn leaderboard(
    ui: &mut egui::Ui,
    board: &Leaderboard,
    variants: &Variants,
    requests: &mut MessageWriter<OnlineRequest>,
) {
    if board.speeds.is_empty() {
        ui.label("no rated game of this variant yet");
    }
    let table = is_table(variants, &board.variant);
    for speed in &board.speeds {
        ui.collapsing(&speed.speed, |ui| {
            egui::Grid::new(("board", &speed.speed))
                .striped(true)
                .show(ui, |ui| {
                    for (place, line) in speed.players.iter().enumerate() {
                        ui.label(format!("{}.", place + 1));
                        if ui.link(&line.name).clicked() {
                            requests.write(OnlineRequest::Player(Some(line.name.clone())));
                        }
                        ui.strong(rating_text(line.rating, line.provisional, table));
                        ui.label(format!("{} games", line.games));
                        ui.end_row();
                    }
                });
        });
    }
}
