//! The endgame trainer's window (pick an ending and a start) and its part of the side
//! panel: the table's verdict on the position, and on each move of a drill.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use hexchess_core::Side;
use hexchess_tablebase::{Material, Value};

use super::UiMemory;
use crate::game::{CurrentGame, ReviewRequest, Variants};
use crate::play::{ENDINGS, StartDrill, Target, Trainer};

/// The trainer window's choices.
#[derive(Clone, Debug)]
pub(super) struct DrillSetup {
    pub(super) open: bool,
    ending: String,
    /// 0: any won position; else the mate distance wanted, in moves.
    mate_in: u16,
}

impl Default for DrillSetup {
    fn default() -> Self {
        DrillSetup {
            open: false,
            ending: "KRvK".into(),
            mate_in: 0,
        }
    }
}

/// `KRvKN` as players write it: K+R v K+N.
pub(super) fn ending_label(name: &str) -> String {
    let (white, black) = name.split_once('v').unwrap_or((name, ""));
    let plus = |s: &str| {
        s.chars()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join("+")
    };
    format!("{} v {}", plus(white), plus(black))
}

/// What a table value says, for the side to move in a position.
pub(super) fn verdict_text(v: Value, to_move: Side) -> String {
    let other = !to_move;
    let moves = |d: u16| d.div_ceil(2);
    match v {
        Value::Win(d) => format!("{to_move} mates in {} ({d} plies)", moves(d)),
        Value::Loss(0) => format!("{to_move} is checkmated"),
        Value::Loss(d) => format!("{other} mates in {} ({d} plies)", d / 2),
        Value::StalemateWin(d) => format!("{to_move} forces stalemate in {d} plies"),
        Value::StalemateLoss(0) => format!("{to_move} is stalemated"),
        Value::StalemateLoss(d) => format!("{other} forces stalemate in {d} plies"),
        Value::Draw => "a draw (fortress)".into(),
        Value::DrawPerpetual => "a draw (perpetual check)".into(),
    }
}

/// Open the endgame trainer's window (the command line's `--endgames`).
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct OpenTrainer;

pub(super) fn open_trainer(mut opens: MessageReader<OpenTrainer>, mut memory: ResMut<UiMemory>) {
    if opens.read().count() > 0 {
        memory.drill.open = true;
    }
}

/// How long a table built for the trainer is kept: on disk natively; in a browser in
/// the page's memory (megabytes are too many for its storage).
#[cfg(not(target_arch = "wasm32"))]
const KEPT: &str = "it is saved for next time";
#[cfg(target_arch = "wasm32")]
const KEPT: &str = "it is kept while this page is open";

pub(super) fn trainer_window(
    mut contexts: EguiContexts,
    mut memory: ResMut<UiMemory>,
    variants: Res<Variants>,
    game: Res<CurrentGame>,
    trainer: Res<Trainer>,
    mut drills: MessageWriter<StartDrill>,
) -> Result {
    if !memory.drill.open && trainer.building.is_none() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let setup = &mut memory.drill;
    let variant = game.rules().id().to_string();
    let rules = variants.0.get(&variant).and_then(|e| e.two_player_rules());
    let mut start = false;
    let mut close = false;
    egui::Window::new("Endgame trainer")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
        .show(ctx, |ui| {
            if let Some(b) = &trainer.building {
                ui.label(format!(
                    "Solving {} once for this variant ({KEPT})…",
                    ending_label(&b.ending)
                ));
                ui.horizontal(|ui| {
                    ui.spinner();
                    let line = b.progress.lock().map(|p| p.clone()).unwrap_or_default();
                    ui.label(line);
                });
                if ui.button("Cancel").clicked() {
                    b.cancel();
                }
                return;
            }
            ui.label(format!(
                "Win an ending against perfect defence, in {}.",
                game.rules().name()
            ));
            egui::Grid::new("drill")
                .num_columns(2)
                .spacing([16.0, 8.0])
                .show(ui, |ui| {
                    ui.label("Ending");
                    egui::ComboBox::from_id_salt("ending")
                        .selected_text(ending_label(&setup.ending))
                        .show_ui(ui, |ui| {
                            for e in ENDINGS {
                                let playable = rules
                                    .as_ref()
                                    .is_some_and(|r| Material::parse(e, r).is_ok());
                                if playable {
                                    ui.selectable_value(
                                        &mut setup.ending,
                                        e.to_string(),
                                        ending_label(e),
                                    );
                                }
                            }
                        });
                    ui.end_row();
                    ui.label("Start");
                    ui.vertical(|ui| {
                        ui.radio_value(&mut setup.mate_in, 0, "any won position");
                        let mut wanted = setup.mate_in.max(2);
                        let chosen = setup.mate_in > 0;
                        if ui.radio(chosen, "White mates in about").clicked() {
                            setup.mate_in = wanted;
                        }
                        if ui
                            .add(egui::Slider::new(&mut wanted, 2..=60).suffix(" moves"))
                            .changed()
                        {
                            setup.mate_in = wanted;
                        }
                    });
                    ui.end_row();
                });
            ui.horizontal(|ui| {
                start = ui.button("Start").clicked();
                close = ui.button("Close").clicked();
            });
        });
    if start {
        drills.write(StartDrill {
            variant,
            ending: setup.ending.clone(),
            target: match setup.mate_in {
                0 => Target::Random,
                n => Target::MateIn(n),
            },
        });
        setup.open = false;
    } else if close {
        setup.open = false;
    }
    Ok(())
}

/// The table's word on the position shown (`verdict`: its value and side to move, when
/// a table holds it), and a drill's progress; the move where a win slipped can be looked
/// at (the review shows the position before it).
pub(super) fn table_report(
    ui: &mut egui::Ui,
    verdict: Option<(Value, Side)>,
    trainer: &Trainer,
    review: &mut MessageWriter<ReviewRequest>,
) {
    if let Some(drill) = &trainer.drill {
        ui.label(egui::RichText::new(format!("Drill: {}", ending_label(&drill.ending))).strong());
        let slip = drill.verdicts.iter().position(|v| v.slipped);
        match slip.map(|j| (j, &drill.verdicts[j])) {
            Some((j, v)) => {
                ui.colored_label(
                    egui::Color32::from_rgb(220, 90, 70),
                    format!(
                        "The win slipped with {}{}",
                        v.san,
                        v.best
                            .as_ref()
                            .map_or(String::new(), |b| format!(" ({b} kept it)"))
                    ),
                );
                if ui.small_button("Show the position before it").clicked() {
                    review.write(ReviewRequest(Some(j)));
                }
            }
            None if drill.verdicts.is_empty() => {
                ui.label(format!(
                    "You have {}: win it against perfect defence.",
                    drill.player
                ));
            }
            None => {
                ui.label("Still winning.");
            }
        }
        for v in drill.verdicts.iter().rev().take(6) {
            let mark = if v.slipped {
                "??"
            } else if v.slower {
                "?!"
            } else {
                ""
            };
            let better = v
                .best
                .as_ref()
                .map_or(String::new(), |b| format!(" (best {b})"));
            ui.label(
                egui::RichText::new(format!("{}{mark}{better}", v.san))
                    .monospace()
                    .small(),
            );
        }
    }
    if let Some((v, to_move)) = verdict {
        ui.label(format!("Table: {}", verdict_text(v, to_move)));
    }
}

#[cfg(test)]
mod tests {
    use hexchess_core::Side;
    use hexchess_tablebase::Value;

    use super::{ending_label, verdict_text};

    #[test]
    fn endings_and_verdicts_read_as_players_say_them() {
        assert_eq!(ending_label("KRvKN"), "K+R v K+N");
        assert_eq!(ending_label("KNNvK"), "K+N+N v K");
        assert_eq!(
            verdict_text(Value::Win(7), Side::White),
            "White mates in 4 (7 plies)"
        );
        assert_eq!(
            verdict_text(Value::Loss(6), Side::Black),
            "White mates in 3 (6 plies)"
        );
        assert_eq!(
            verdict_text(Value::Loss(0), Side::Black),
            "Black is checkmated"
        );
        assert_eq!(
            verdict_text(Value::DrawPerpetual, Side::White),
            "a draw (perpetual check)"
        );
    }
}
