//! The analysis board in the side panel: on and off, how many lines, an evaluation bar,
//! and the engine's best lines in SAN (click one to play its first move).

use bevy_egui::egui;
use hexchess_core::{Position, Side};
use hexchess_engine::review::WinPercent;
use hexchess_engine::{Score, SearchInfo, pv_san};

use crate::game::{GameState, MoveRequest};
use crate::play::analysis::{Analysis, AnalysisRequest, MAX_LINES};

/// Moves of each line shown.
const LINE_MOVES: usize = 8;

/// `+0.35`, `#3` (White mates in 3), `#-2`, from White's point of view.
pub fn score_for_white(score: Score, turn: Side) -> String {
    match score.for_white(turn) {
        Score::Cp(c) => format!("{:+.2}", f64::from(c) / 100.0),
        Score::Mate(m) => format!("#{m}"),
    }
}

pub(super) fn analysis_section(
    ui: &mut egui::Ui,
    game: &GameState,
    analysis: &Analysis,
    requests: &mut Vec<AnalysisRequest>,
    moves: &mut Vec<MoveRequest>,
) {
    ui.horizontal(|ui| {
        let mut on = analysis.on;
        if ui
            .checkbox(&mut on, "Analyse")
            .on_hover_text("the engine's best lines for the position shown (A); both sides are yours to move, no clock")
            .changed()
        {
            requests.push(if on {
                AnalysisRequest::On
            } else {
                AnalysisRequest::Off
            });
        }
        let mut lines = analysis.lines;
        if ui
            .add(egui::Slider::new(&mut lines, 1..=MAX_LINES).text("lines"))
            .changed()
        {
            requests.push(AnalysisRequest::Lines(lines));
        }
    });
    if !analysis.on {
        return;
    }
    let shown = game.displayed();
    let lines = analysis.lines_for(&shown);
    let Some(best) = lines.first() else {
        ui.label(if shown.legal_moves().is_empty() {
            "No move here."
        } else {
            "Thinking…"
        });
        return;
    };
    evaluation_bar(ui, best, shown.turn());
    for (rank, info) in lines.iter().enumerate() {
        let text = format!(
            "{}. {}  {}",
            rank + 1,
            score_for_white(info.score, shown.turn()),
            pv_san(&shown, &info.pv, LINE_MOVES)
        );
        let response = ui.add(
            egui::Label::new(egui::RichText::new(text).monospace()).sense(egui::Sense::click()),
        );
        if response
            .on_hover_text("click to play the first move")
            .clicked()
            && game.is_live()
            && let Some(&mv) = info.pv.first()
        {
            moves.push(MoveRequest(mv));
        }
    }
}

/// White's share of the winning chances as a bar: white from the left, black from the
/// right, with the score and depth on it.
fn evaluation_bar(ui: &mut egui::Ui, best: &SearchInfo, turn: Side) {
    let white = WinPercent::from_score(best.score.for_white(turn)).value() as f32 / 100.0;
    let width = ui.available_width();
    let (rect, _) = ui.allocate_exact_size(egui::vec2(width, 18.0), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 3.0, egui::Color32::from_gray(30));
    let mut left = rect;
    left.max.x = rect.left() + rect.width() * white;
    painter.rect_filled(left, 3.0, egui::Color32::from_gray(235));
    painter.text(
        rect.center(),
        egui::Align2::CENTER_CENTER,
        format!(
            "{}  depth {}",
            score_for_white(best.score, turn),
            best.depth
        ),
        egui::FontId::monospace(12.0),
        egui::Color32::from_rgb(220, 120, 40),
    );
}

/// A position's description for the hint: nothing yet, or the move.
pub fn hint_text(pos: &Position, analysis: &Analysis) -> Option<String> {
    analysis
        .hint_for(pos)
        .map(|mv| format!("Hint: {}", pos.move_to_san(mv)))
}
