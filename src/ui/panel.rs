//! The side panel: the variant and players, clocks, the engine's evaluation and line,
//! the move list (click to review), captured pieces, move entry, the position as FEN,
//! and saving and loading the game.

use std::path::PathBuf;
use std::time::Duration;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use hexchess_core::Side;
use hexchess_engine::Score;

use super::{UiInsets, UiMemory, root_ui};
use crate::game::records;
use crate::game::{GameNotice, GameState, LoadRequest, MoveRequest, NewGameRequest, ReviewRequest};
use crate::play::{Clocks, EnginePlayer, Mode, Session};

fn clock_text(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 60 {
        format!("{}:{:02}", s / 60, s % 60)
    } else {
        format!("{}.{}", s, d.subsec_millis() / 100)
    }
}

fn score_text(score: Score) -> String {
    match score {
        Score::Cp(c) => format!("{:+.2}", c as f64 / 100.0),
        Score::Mate(m) if m > 0 => format!("White mates in {m}"),
        Score::Mate(m) => format!("Black mates in {}", -m),
    }
}

#[allow(clippy::too_many_arguments)]
pub(super) fn side_panel(
    mut contexts: EguiContexts,
    game: Res<GameState>,
    session: Res<Session>,
    clocks: Res<Clocks>,
    player: Res<EnginePlayer>,
    mut memory: ResMut<UiMemory>,
    mut review: MessageWriter<ReviewRequest>,
    mut requests: MessageWriter<MoveRequest>,
    mut new_game: MessageWriter<NewGameRequest>,
    mut load: MessageWriter<LoadRequest>,
    mut notices: MessageWriter<GameNotice>,
    mut insets: ResMut<UiInsets>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut root = root_ui(ctx);
    let key = (game.position.hash(), game.position.ply_count());
    if memory.moves.made_for != key {
        memory.moves.made_for = key;
        memory.moves.san = game.san_moves();
        memory.moves.captured = game.captured();
    }
    let rules = game.rules();
    let panel = egui::Panel::right("side")
        .resizable(false)
        .exact_size(300.0)
        .show(&mut root, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                ui.heading(rules.name());
                ui.label(match session.mode {
                    Mode::HumanVsHuman => session.mode.label().to_string(),
                    _ => format!("{} | level {}", session.mode.label(), session.level),
                });
                if let Some([w, b]) = clocks.remaining {
                    ui.separator();
                    let turn = game.position.turn();
                    for (side, t) in [(Side::White, w), (Side::Black, b)] {
                        let text = egui::RichText::new(format!("{side}: {}", clock_text(t)))
                            .monospace()
                            .size(18.0);
                        ui.label(if side == turn {
                            text.strong()
                        } else {
                            text.weak()
                        });
                    }
                }
                if session.mode != Mode::HumanVsHuman {
                    ui.separator();
                    if let Some(side) = player.thinking_for() {
                        ui.horizontal(|ui| {
                            ui.spinner();
                            ui.label(format!("Engine ({side}) is thinking…"));
                        });
                    }
                    if let Some(r) = &player.report {
                        ui.label(format!(
                            "Evaluation: {} (depth {})",
                            score_text(r.score),
                            r.depth
                        ));
                        ui.add(
                            egui::Label::new(egui::RichText::new(&r.line).monospace().small())
                                .wrap_mode(egui::TextWrapMode::Wrap),
                        );
                    }
                }

                ui.separator();
                ui.label("Moves");
                let moves = memory.moves.san.clone();
                let shown = game.viewing.unwrap_or(moves.len());
                let black_first = game
                    .start_fen
                    .as_deref()
                    .is_some_and(|f| f.split_whitespace().nth(1) == Some("b"));
                let first_number = game
                    .start_fen
                    .as_deref()
                    .and_then(|f| f.split_whitespace().nth(4))
                    .and_then(|n| n.parse::<usize>().ok())
                    .unwrap_or(1);
                egui::ScrollArea::vertical()
                    .max_height(260.0)
                    .id_salt("moves")
                    .stick_to_bottom(true)
                    .show(ui, |ui| {
                        egui::Grid::new("movelist")
                            .num_columns(3)
                            .striped(true)
                            .show(ui, |ui| {
                                let offset = usize::from(black_first);
                                let rows = (moves.len() + offset).div_ceil(2);
                                for row in 0..rows {
                                    ui.label(format!("{}.", first_number + row));
                                    for col in 0..2 {
                                        let ply = row * 2 + col;
                                        if ply < offset || ply - offset >= moves.len() {
                                            ui.label("");
                                            continue;
                                        }
                                        let i = ply - offset;
                                        let current = i + 1 == shown;
                                        if ui.selectable_label(current, &moves[i]).clicked() {
                                            review.write(ReviewRequest(Some(i + 1)));
                                        }
                                    }
                                    ui.end_row();
                                }
                            });
                    });
                ui.horizontal(|ui| {
                    let total = moves.len();
                    if ui.button("⏮").on_hover_text("Start").clicked() {
                        review.write(ReviewRequest(Some(0)));
                    }
                    if ui.button("◀").on_hover_text("Left arrow").clicked() && shown > 0 {
                        review.write(ReviewRequest(Some(shown - 1)));
                    }
                    if ui.button("▶").on_hover_text("Right arrow").clicked() {
                        review.write(ReviewRequest((shown + 1 < total).then_some(shown + 1)));
                    }
                    if ui
                        .add_enabled(!game.is_live(), egui::Button::new("Back to live"))
                        .clicked()
                    {
                        review.write(ReviewRequest(None));
                    }
                });

                ui.separator();
                let captured = memory.moves.captured.clone();
                for side in Side::BOTH {
                    let taken: String = captured
                        .iter()
                        .filter(|p| p.side == !side)
                        .map(|p| rules.piece_letter(*p))
                        .collect();
                    ui.label(format!(
                        "{side} has taken: {}",
                        if taken.is_empty() { "-" } else { &taken }
                    ));
                }

                ui.separator();
                ui.label("Type a move (SAN or long algebraic):");
                let entry = ui.text_edit_singleline(&mut memory.move_text);
                if entry.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                    let text = memory.move_text.trim().to_string();
                    match game.position.parse_move(&text) {
                        Ok(mv) => {
                            requests.write(MoveRequest(mv));
                            memory.move_text.clear();
                        }
                        Err(e) => {
                            notices.write(GameNotice(e.to_string()));
                        }
                    }
                }

                ui.separator();
                ui.label("Position (hex FEN):");
                let fen = game.displayed().to_fen();
                ui.add(
                    egui::Label::new(egui::RichText::new(&fen).monospace().small())
                        .wrap_mode(egui::TextWrapMode::Wrap),
                );
                ui.horizontal(|ui| {
                    if ui.button("Copy FEN").clicked() {
                        ui.ctx().copy_text(fen.clone());
                    }
                    ui.add(egui::TextEdit::singleline(&mut memory.fen_text).desired_width(150.0))
                        .on_hover_text("paste a FEN here");
                    if ui.button("Set").clicked() {
                        new_game.write(NewGameRequest {
                            variant: None,
                            fen: Some(memory.fen_text.trim().to_string()),
                        });
                    }
                });

                ui.separator();
                ui.label("Game file:");
                ui.text_edit_singleline(&mut memory.file_text)
                    .on_hover_text("a path; empty saves under a new name here");
                ui.horizontal(|ui| {
                    if ui.button("Save").clicked() {
                        let path = if memory.file_text.trim().is_empty() {
                            records::default_save_path(std::path::Path::new("."), &game)
                        } else {
                            PathBuf::from(memory.file_text.trim())
                        };
                        let record = records::game_record(&game, &session.players());
                        match records::save(&path, &record) {
                            Ok(()) => {
                                memory.file_text = path.display().to_string();
                                notices.write(GameNotice(format!("saved {}", path.display())));
                            }
                            Err(e) => {
                                notices.write(GameNotice(e));
                            }
                        }
                    }
                    if ui.button("Load").clicked() {
                        match records::load(std::path::Path::new(memory.file_text.trim())) {
                            Ok(record) => {
                                load.write(LoadRequest(record));
                            }
                            Err(e) => {
                                notices.write(GameNotice(e));
                            }
                        }
                    }
                });
            });
        });
    insets.right = panel.response.rect.width();
    Ok(())
}
