//! What a game of more sides adds to the interface: each seat in the side panel (its
//! colour, who plays it, where it stands: on move, checkmated and frozen, out, owing a
//! piece), the turn in progress (a second move, a removal owed, with the choices the
//! board cannot show), and the seat choices of the new-game menu.

use bevy::prelude::*;
use bevy_egui::egui;
use hexchess_core::bitboard::WideBitboard;
use hexchess_core::{Rules, Standing, Step};
use hexchess_engine::multi::Strategy;

use crate::game::{CurrentGame, StepRequest};
use crate::pieces::ArmyColour;
use crate::play::{EngineSeat, Seat, Seats};

/// A Bevy colour as egui paints it.
pub(super) fn colour32(c: Color) -> egui::Color32 {
    let s = c.to_srgba();
    egui::Color32::from_rgb(
        (s.red * 255.0) as u8,
        (s.green * 255.0) as u8,
        (s.blue * 255.0) as u8,
    )
}

/// A side's colour as a small disc.
fn swatch(ui: &mut egui::Ui, colour: Color) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(18.0, 18.0), egui::Sense::hover());
    ui.painter()
        .circle_filled(rect.center(), 8.0, colour32(colour));
    ui.painter()
        .circle_stroke(rect.center(), 8.0, (1.0, egui::Color32::BLACK));
}

/// Each seat: its colour and name, who plays it, and where it stands.
pub(super) fn seat_list(ui: &mut egui::Ui, game: &CurrentGame, seats: &Seats) {
    let rules = game.rules();
    let g = &game.played;
    for side in g.sides() {
        let on_move = g.end().is_none() && g.side_to_move() == side;
        ui.horizontal(|ui| {
            swatch(ui, ArmyColour::of(rules, side).swatch());
            let name = rules.side_name(side);
            ui.label(if on_move {
                egui::RichText::new(format!("▶ {name}")).strong()
            } else {
                egui::RichText::new(name)
            });
            ui.label(seats.seat(side).label());
        });
        let standing = match g.standing(side) {
            Standing::Playing => None,
            Standing::Frozen => Some("checkmated: loses its turns, its pieces cannot be taken"),
            Standing::Out => Some("out: its king was taken; its army stays"),
        };
        if let Some(s) = standing {
            ui.label(egui::RichText::new(format!("   {s}")).italics());
        }
        if g.owed(side) > 0 {
            ui.label(
                egui::RichText::new(format!(
                    "   owes a piece worth {} (fair exchange)",
                    g.owed(side)
                ))
                .color(egui::Color32::from_rgb(230, 140, 30)),
            );
        }
    }
}

/// What the person on move may do beyond clicking the board: end a turn after one of
/// two moves, or swap instead of removing; and how the game ended.
pub(super) fn turn_in_progress(
    ui: &mut egui::Ui,
    game: &CurrentGame,
    seats: &Seats,
    requests: &mut Vec<StepRequest>,
) {
    let g = &game.played;
    let rules = game.rules();
    if let Some(end) = game.outcome() {
        let names: Vec<&str> = end.winners().iter().map(|s| rules.side_name(*s)).collect();
        let text = if end.is_draw() {
            format!("Drawn ({}) among {}", end.termination, names.join(", "))
        } else {
            format!("{} won ({})", names.join(" and "), end.termination)
        };
        ui.label(egui::RichText::new(text).strong());
        return;
    }
    let side = g.side_to_move();
    let (allowed, played) = g.moves_this_turn();
    if allowed > 1 {
        ui.label(format!(
            "{} is threatened by {} opponents: up to {allowed} moves this turn ({played} played)",
            rules.side_name(side),
            g.threatening(side).len().max(2),
        ));
    }
    if !seats.person(side) || !game.is_live() {
        return;
    }
    let steps = g.steps();
    if g.owed(side) > 0 {
        ui.label("Remove a piece first: click a marked piece, or swap:");
        for s in &steps {
            let Step::Play(m) = s else { continue };
            if m.promotion().is_some() && ui.button(g.step_text(*s)).clicked() {
                requests.push(StepRequest(*s));
            }
        }
        return;
    }
    if steps.contains(&Step::Stop) && ui.button("End the turn (no second move)").clicked() {
        requests.push(StepRequest(Step::Stop));
    }
}

/// The new-game menu's seats for a variant of more sides: who sits in each, and each
/// engine seat's strength (turns searched per move).
pub(super) fn seat_choices(ui: &mut egui::Ui, rules: &Rules<WideBitboard>, seats: &mut Seats) {
    egui::Grid::new("seats").show(ui, |ui| {
        for side in rules.sides() {
            ui.label(rules.side_name(side));
            let seat = seats.seat_mut(side);
            // A strategy chosen keeps the seat's budget; a person's seat had none.
            let nodes = match *seat {
                Seat::Engine(e) => e.nodes,
                _ => crate::play::SEAT_NODES,
            };
            egui::ComboBox::from_id_salt(("seat", side.index()))
                .selected_text(seat.label())
                .show_ui(ui, |ui| {
                    ui.selectable_value(seat, Seat::Person, "person");
                    for strategy in Strategy::ALL {
                        let engine = Seat::Engine(EngineSeat { strategy, nodes });
                        ui.selectable_value(seat, engine, engine.label());
                    }
                });
            if let Seat::Engine(engine) = seat {
                ui.add(
                    egui::Slider::new(&mut engine.nodes, 100..=20_000)
                        .logarithmic(true)
                        .text("turns searched"),
                );
            }
            ui.end_row();
        }
    });
}
