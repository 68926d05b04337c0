//! The games of a file (or of the clipboard) to pick from: one line each with its
//! players, result and length, and the games that could not be read with their line.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use hexchess_core::pgn::PgnGame;

use crate::game::files::{GameChoice, LoadTree, loadable};
use crate::game::{LoadRequest, Variants};

/// A game of the choice as the game opens it, with its side lines and comments for
/// two sides (a game of more sides opens with the seats it was saved with, or a
/// person in every seat if it names none); an unknown variant cannot open.
fn pick(game: &PgnGame, variants: &Variants) -> Result<(PgnGame, Option<LoadTree>), String> {
    let id = game.variant();
    if variants.0.get(id).is_none() {
        return Err(format!("unknown variant '{id}'"));
    }
    Ok(loadable(game, &variants.0))
}

/// One line for a game: `3. Anna - Ben 1-0 (Gliński, 41 moves, Club, 2026.11.20)`.
fn summary(game: &PgnGame, variants: &Variants) -> String {
    let tag = |k: &str| game.tag(k).filter(|v| !v.is_empty() && *v != "?");
    let variant = variants
        .0
        .get(game.variant())
        .map(|e| e.name().to_string())
        .unwrap_or_else(|| game.variant().to_string());
    let mut details = vec![variant, format!("{} moves", game.tree.main_line().len())];
    details.extend(tag("Event").map(str::to_string));
    details.extend(
        tag("Date")
            .filter(|d| !d.starts_with("????"))
            .map(str::to_string),
    );
    format!(
        "{}. {} - {} {} ({})",
        game.number.max(1),
        tag("White").unwrap_or("?"),
        tag("Black").unwrap_or("?"),
        game.result(),
        details.join(", ")
    )
}

pub(super) fn game_choice(
    mut contexts: EguiContexts,
    mut choice: ResMut<GameChoice>,
    variants: Res<Variants>,
    mut load: MessageWriter<LoadRequest>,
    mut trees: MessageWriter<LoadTree>,
) -> Result {
    if choice.games.is_empty() && choice.problems.is_empty() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut chosen = None;
    let mut open = true;
    egui::Window::new(format!("Games in {}", choice.source))
        .open(&mut open)
        .collapsible(false)
        .default_width(520.0)
        .show(ctx, |ui| {
            egui::ScrollArea::vertical()
                .max_height(360.0)
                .show(ui, |ui| {
                    for (i, game) in choice.games.iter().enumerate() {
                        if ui
                            .selectable_label(false, summary(game, &variants))
                            .clicked()
                        {
                            chosen = Some(i);
                        }
                    }
                });
            if !choice.problems.is_empty() {
                ui.separator();
                ui.label(format!("{} could not be read:", choice.problems.len()));
                for p in &choice.problems {
                    ui.colored_label(egui::Color32::from_rgb(230, 120, 90), p);
                }
            }
        });
    if let Some(i) = chosen {
        match pick(&choice.games[i], &variants) {
            Ok((record, tree)) => {
                load.write(LoadRequest(record));
                trees.write_batch(tree);
            }
            Err(e) => {
                choice.problems.push(format!("game {}: {e}", i + 1));
                return Ok(());
            }
        }
        open = false;
    }
    if !open {
        *choice = GameChoice::default();
    }
    Ok(())
}
