//! The endgame trainer's window (pick an ending and a start) and its part of the side
//! panel: the table's verdict on the position, on each move of a drill, and (on the
//! analysis board) on every move of the position, as lichess's tablebase view shows.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use hexchess_core::Side;
use hexchess_engine::endgame::TableValue;
use hexchess_tablebase::{Material, RuleValue, Value};

use super::UiMemory;
use crate::confirm::Weighty;
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

/// What the move rule adds to a table's verdict for the side to move, where the table
/// keeps the rule: the wins it spoils and the losses it saves, or how soon the next
/// capture, pawn move or mate must come.
pub(super) fn rule_text(v: TableValue, to_move: Side) -> Option<String> {
    let r = v.rule?;
    Some(match (r.value, r.dtz) {
        (RuleValue::CursedWin, _) => {
            format!("a cursed win: the move rule draws before {to_move} can mate")
        }
        (RuleValue::BlessedLoss, _) => format!("a blessed loss: the move rule saves {to_move}"),
        (RuleValue::Win | RuleValue::Loss, Some(d)) if d > 0 => {
            format!("within the move rule: a capture, pawn move or mate in {d} plies")
        }
        _ => return None,
    })
}

/// One move's line in the explorer: its result under the move rule (or by mate where
/// the table keeps no rule), distance to zeroing and distance to mate, for its mover.
fn explorer_row(ui: &mut egui::Ui, san: &str, v: TableValue) {
    let result = v.rule_value();
    let colour = match result {
        RuleValue::Win => egui::Color32::from_rgb(90, 190, 110),
        RuleValue::CursedWin | RuleValue::BlessedLoss => egui::Color32::from_rgb(220, 170, 60),
        RuleValue::Draw => egui::Color32::GRAY,
        RuleValue::Loss => egui::Color32::from_rgb(220, 90, 70),
    };
    let dtz = v
        .rule
        .and_then(|r| r.dtz)
        .map_or("-".to_string(), |d| d.to_string());
    let dtm = match v.value {
        Value::Win(d) | Value::Loss(d) => d.to_string(),
        Value::StalemateWin(d) | Value::StalemateLoss(d) => format!("stalemate {d}"),
        Value::Draw | Value::DrawPerpetual => "-".to_string(),
    };
    ui.label(egui::RichText::new(san).monospace());
    ui.colored_label(colour, result.to_string());
    ui.label(dtz);
    ui.label(dtm);
    ui.end_row();
}

/// The tablebase explorer: every legal move of the position shown, best first for the
/// side to move, with what the tables say of it.
pub(super) fn explorer(ui: &mut egui::Ui, moves: &[(String, TableValue)]) {
    ui.label(egui::RichText::new("Every move, by the tables").small());
    egui::ScrollArea::vertical()
        .id_salt("table-explorer")
        .max_height(180.0)
        .show(ui, |ui| {
            egui::Grid::new("table-explorer-grid")
                .striped(true)
                .show(ui, |ui| {
                    for head in ["move", "result", "DTZ", "DTM"] {
                        ui.label(egui::RichText::new(head).small().strong());
                    }
                    ui.end_row();
                    for (san, v) in moves {
                        explorer_row(ui, san, *v);
                    }
                });
        });
}

/// Open the endgame trainer's window (the command line's `--endgames`).
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct OpenTrainer;

pub(super) fn open_trainer(mut opens: MessageReader<OpenTrainer>, mut memory: ResMut<UiMemory>) {
    if opens.read().count() > 0 {
        memory.drill.open = true;
    }
}

use crate::play::work::tablebases::KEPT;

pub(super) fn trainer_window(
    mut contexts: EguiContexts,
    mut memory: ResMut<UiMemory>,
    variants: Res<Variants>,
    game: Res<CurrentGame>,
    trainer: Res<Trainer>,
    mut drills: MessageWriter<Weighty>,
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
                    let line = b.build.progress();
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
        drills.write(Weighty::Drill(StartDrill {
            variant,
            ending: setup.ending.clone(),
            target: match setup.mate_in {
                0 => Target::Random,
                n => Target::MateIn(n),
            },
        }));
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
    verdict: Option<(TableValue, Side)>,
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
            // The mover's view: a win the rule spoils is a cursed win.
            let cursed = if v.after.spoiled() { " cursed" } else { "" };
            ui.label(
                egui::RichText::new(format!("{}{mark}{cursed}{better}", v.san))
                    .monospace()
                    .small(),
            );
        }
    }
    if let Some((v, to_move)) = verdict {
        ui.label(format!("Table: {}", verdict_text(v.value, to_move)));
        if let Some(rule) = rule_text(v, to_move) {
            ui.label(egui::RichText::new(rule).small());
        }
    }
}

#[cfg(test)]
mod tests {
    use hexchess_core::Side;
    use hexchess_engine::endgame::TableValue;
    use hexchess_tablebase::{RuleValue, Ruled, Value};

    use super::{ending_label, rule_text, verdict_text};

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
        let ruled = |value, dtz| TableValue {
            value: Value::Win(121),
            rule: Some(Ruled { value, dtz }),
        };
        assert_eq!(
            rule_text(ruled(RuleValue::CursedWin, None), Side::White).as_deref(),
            Some("a cursed win: the move rule draws before White can mate")
        );
        assert_eq!(
            rule_text(ruled(RuleValue::Win, Some(9)), Side::White).as_deref(),
            Some("within the move rule: a capture, pawn move or mate in 9 plies")
        );
        let no_rule = TableValue {
            value: Value::Win(3),
            rule: None,
        };
        assert_eq!(rule_text(no_rule, Side::White), None);
    }
}
