//! The table's interface: a side panel with each seat (its colour, who plays it, where
//! it stands: on move, checkmated and frozen, out, owing a piece), the turn in
//! progress (a second move, a removal owed, with the choices the board cannot show),
//! the turns played and the result; and the window that sets a table up.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use hexchess_core::game::{Standing, Step};
use hexchess_engine::multi::Strategy;

use super::UiMemory;
use crate::game::records;
use crate::game::{GameNotice, Variants};
use crate::pieces::ArmyColour;
use crate::table::{SeatPlayer, TableRequest, TableState};

/// The choices of the table window.
#[derive(Clone, Debug)]
pub(super) struct TableSetup {
    pub open: bool,
    pub variant: String,
    pub seats: Vec<SeatPlayer>,
    /// Turns an engine seat searches per move (its strength).
    pub nodes: u64,
}

impl Default for TableSetup {
    fn default() -> TableSetup {
        TableSetup {
            open: false,
            variant: "hexachess-3".into(),
            seats: vec![
                SeatPlayer::Human,
                SeatPlayer::Engine(Strategy::Paranoid),
                SeatPlayer::Engine(Strategy::Paranoid),
                SeatPlayer::Engine(Strategy::Paranoid),
            ],
            nodes: 3_000,
        }
    }
}

fn colour32(c: Color) -> egui::Color32 {
    let s = c.to_srgba();
    egui::Color32::from_rgb(
        (s.red * 255.0) as u8,
        (s.green * 255.0) as u8,
        (s.blue * 255.0) as u8,
    )
}

/// The side panel of a table.
pub(super) fn table_panel(
    mut contexts: EguiContexts,
    table: Option<Res<TableState>>,
    mut memory: ResMut<UiMemory>,
    mut insets: ResMut<super::UiInsets>,
    mut requests: MessageWriter<TableRequest>,
    mut notices: MessageWriter<GameNotice>,
) -> Result {
    let Some(table) = table else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let mut root = super::root_ui(ctx);
    let game = &table.game;
    let rules = game.position().rules();
    let panel = egui::Panel::right("table")
        .resizable(false)
        .exact_size(300.0)
        .show(&mut root, |ui| {
            ui.heading(rules.name());
            ui.separator();
            for side in game.sides() {
                let on_move = game.end().is_none() && game.side_to_move() == side;
                ui.horizontal(|ui| {
                    let colour = colour32(ArmyColour::of(rules, side).swatch());
                    let (rect, _) =
                        ui.allocate_exact_size(egui::vec2(18.0, 18.0), egui::Sense::hover());
                    ui.painter().circle_filled(rect.center(), 8.0, colour);
                    ui.painter()
                        .circle_stroke(rect.center(), 8.0, (1.0, egui::Color32::BLACK));
                    let name = rules.side_name(side);
                    let text = if on_move {
                        egui::RichText::new(format!("▶ {name}")).strong()
                    } else {
                        egui::RichText::new(name)
                    };
                    ui.label(text);
                    ui.label(table.seats[side.index()].label());
                });
                let standing = match game.standing(side) {
                    Standing::Playing => None,
                    Standing::Frozen => {
                        Some("checkmated: loses its turns, its pieces cannot be taken")
                    }
                    Standing::Out => Some("out: its king was taken; its army stays"),
                };
                if let Some(s) = standing {
                    ui.label(egui::RichText::new(format!("   {s}")).italics());
                }
                if game.owed(side) > 0 {
                    ui.label(
                        egui::RichText::new(format!(
                            "   owes a piece worth {} (fair exchange)",
                            game.owed(side)
                        ))
                        .color(egui::Color32::from_rgb(230, 140, 30)),
                    );
                }
            }
            ui.separator();
            turn_in_progress(ui, &table, &mut requests);
            ui.separator();
            ui.label("Turns");
            egui::ScrollArea::vertical()
                .max_height(260.0)
                .show(ui, |ui| {
                    let texts = game.turn_texts();
                    let n = rules.side_count();
                    for (i, (side, _)) in game.turns().iter().enumerate() {
                        let text = texts.get(i).cloned().unwrap_or_default();
                        ui.label(format!(
                            "{:>3}. {}: {}",
                            i / n + 1,
                            rules.side_name(*side),
                            text
                        ));
                    }
                });
            ui.separator();
            ui.horizontal(|ui| {
                if ui.button("New table…").clicked() {
                    memory.table.open = true;
                }
                if ui.button("Two players").clicked() {
                    requests.write(TableRequest::Leave);
                }
            });
            ui.horizontal(|ui| {
                if ui
                    .button("Save game")
                    .on_hover_text("as PGN in your games folder; Open… reads it back")
                    .clicked()
                {
                    let path = records::fresh_save_path(&records::games_dir(), rules.id());
                    let said = match records::save_pgn(&path, &table.pgn()) {
                        Ok(()) => format!("saved to {}", path.display()),
                        Err(e) => format!("not saved: {e}"),
                    };
                    notices.write(GameNotice(said));
                }
                if ui
                    .button("Copy game")
                    .on_hover_text("the game as PGN, with its seats")
                    .clicked()
                {
                    ui.ctx().copy_text(table.pgn().to_string());
                }
            });
        });
    insets.right = panel.response.rect.width();
    Ok(())
}

/// What the person on move may do beyond clicking the board.
fn turn_in_progress(
    ui: &mut egui::Ui,
    table: &TableState,
    requests: &mut MessageWriter<TableRequest>,
) {
    let game = &table.game;
    let rules = game.position().rules();
    if let Some(end) = game.end() {
        let names: Vec<&str> = end.winners().iter().map(|s| rules.side_name(*s)).collect();
        let text = if end.is_draw() {
            format!("Drawn ({}) among {}", end.termination, names.join(", "))
        } else {
            format!("{} won ({})", names.join(" and "), end.termination)
        };
        ui.label(egui::RichText::new(text).strong());
        return;
    }
    let side = game.side_to_move();
    let (allowed, played) = game.moves_this_turn();
    if allowed > 1 {
        ui.label(format!(
            "{} is threatened by {} opponents: up to {allowed} moves this turn ({played} played)",
            rules.side_name(side),
            game.threatening(side).len().max(2),
        ));
    }
    if !table.human_on_move() {
        ui.label(format!("{} is thinking…", rules.side_name(side)));
        return;
    }
    let steps = game.steps();
    if game.owed(side) > 0 {
        ui.label("Remove a piece first: click a marked piece, or swap:");
        for s in &steps {
            let Step::Play(m) = s else { continue };
            if m.promotion().is_some() && ui.button(game.step_text(*s)).clicked() {
                requests.write(TableRequest::Step(*s));
            }
        }
        return;
    }
    if let Some((from, to)) = table.promoting {
        ui.label("Promote to:");
        ui.horizontal(|ui| {
            for s in &steps {
                let Step::Play(m) = s else { continue };
                if m.from() == from && m.to() == to && !m.is_edit() {
                    let name = m
                        .promotion()
                        .map_or("stay a pawn", |k| rules.kind_info(k).name.as_str());
                    if ui.button(name).clicked() {
                        requests.write(TableRequest::Step(*s));
                    }
                }
            }
        });
    }
    if steps.contains(&Step::Stop) && ui.button("End the turn (no second move)").clicked() {
        requests.write(TableRequest::Step(Step::Stop));
    }
}

/// The window that sets a table up: the game, and who sits in each seat.
pub(super) fn table_setup(
    mut contexts: EguiContexts,
    variants: Res<Variants>,
    mut memory: ResMut<UiMemory>,
    mut requests: MessageWriter<TableRequest>,
) -> Result {
    if !memory.table.open {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut start = false;
    let mut cancel = false;
    let setup = &mut memory.table;
    egui::Window::new("Table for 3 or 4")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
        .show(ctx, |ui| {
            for entry in variants.0.entries().iter().filter(|e| e.side_count() > 2) {
                ui.radio_value(&mut setup.variant, entry.id().to_string(), entry.name());
            }
            let Some(entry) = variants
                .0
                .get(&setup.variant)
                .filter(|e| e.side_count() > 2)
            else {
                return;
            };
            let rules = &entry.rules;
            egui::Grid::new("seats").show(ui, |ui| {
                for side in rules.sides() {
                    ui.label(rules.side_name(side));
                    let seat = &mut setup.seats[side.index()];
                    egui::ComboBox::from_id_salt(("seat", side.index()))
                        .selected_text(seat.label())
                        .show_ui(ui, |ui| {
                            ui.selectable_value(seat, SeatPlayer::Human, "person");
                            for s in Strategy::ALL {
                                ui.selectable_value(
                                    seat,
                                    SeatPlayer::Engine(s),
                                    SeatPlayer::Engine(s).label(),
                                );
                            }
                        });
                    ui.end_row();
                }
            });
            ui.horizontal(|ui| {
                ui.label("Engine strength (turns searched per move)");
                ui.add(egui::Slider::new(&mut setup.nodes, 100..=20_000).logarithmic(true));
            });
            ui.horizontal(|ui| {
                start = ui.button("Start").clicked();
                cancel = ui.button("Cancel").clicked();
            });
        });
    if start {
        requests.write(TableRequest::Start {
            variant: setup.variant.clone(),
            seats: setup.seats.clone(),
            fen: None,
            turns: Vec::new(),
        });
        requests.write(TableRequest::Strength(setup.nodes));
        setup.open = false;
    }
    if cancel {
        setup.open = false;
    }
    Ok(())
}
