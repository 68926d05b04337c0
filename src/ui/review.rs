//! The engine's review of the game in the side panel: the button and its progress, each
//! side's inaccuracies, mistakes, blunders and accuracy, the evaluation graph (click a
//! point to see that position), and for the move shown what it lost and what was
//! better.

use bevy_egui::egui;
use hexchess_core::Side;
use hexchess_engine::review::{GameReview, Judgement, MoveReview};

use crate::game::{CurrentGame, ReviewRequest};
use crate::play::review::{GameReviewRequest, GameReviewState};

/// Height of the evaluation graph, in points.
const GRAPH_HEIGHT: f32 = 90.0;

/// How the move list and the graph mark a judged move.
pub fn mark(judgement: Judgement) -> &'static str {
    match judgement {
        Judgement::Inaccuracy => "?!",
        Judgement::Mistake => "?",
        Judgement::Blunder => "??",
    }
}

fn colour(judgement: Judgement) -> egui::Color32 {
    // Yellow, orange and red differ in lightness as well as hue, for colour-blind eyes.
    match judgement {
        Judgement::Inaccuracy => egui::Color32::from_rgb(240, 215, 90),
        Judgement::Mistake => egui::Color32::from_rgb(235, 140, 40),
        Judgement::Blunder => egui::Color32::from_rgb(200, 40, 40),
    }
}

/// The review section: start or stop, progress, and once done the summary, the graph
/// and the shown move's judgement.
pub(super) fn review_section(
    ui: &mut egui::Ui,
    game: &CurrentGame,
    state: &GameReviewState,
    requests: &mut Vec<GameReviewRequest>,
    view: &mut Option<ReviewRequest>,
) {
    ui.horizontal(|ui| {
        ui.label("Review");
        if let Some((done, total)) = state.progress() {
            ui.add(
                egui::ProgressBar::new(done as f32 / total.max(1) as f32)
                    .text(format!("{done}/{total}"))
                    .desired_width(150.0),
            );
            if ui.button("Stop").clicked() {
                requests.push(GameReviewRequest::Stop);
            }
        } else if ui
            .add_enabled(
                game.position().ply_count() > 0,
                egui::Button::new("Review the game"),
            )
            .on_hover_text("the engine goes through every move and marks the mistakes")
            .clicked()
        {
            requests.push(GameReviewRequest::Start);
        }
    });
    let Some(review) = state.review_of(game) else {
        return;
    };
    for side in [Side::White, Side::Black] {
        ui.label(review.summary(side).to_string());
    }
    let shown = game.viewing.unwrap_or(game.position().ply_count());
    if let Some(ply) = graph(ui, review, shown) {
        *view = Some(ReviewRequest(Some(ply)));
    }
    if let Some(m) = shown.checked_sub(1).and_then(|i| review.moves.get(i)) {
        shown_move(ui, m);
    }
}

/// The move shown: its judgement, what it lost and the better move with its line.
fn shown_move(ui: &mut egui::Ui, m: &MoveReview) {
    let Some(j) = m.judgement else {
        return;
    };
    ui.colored_label(
        colour(j),
        format!(
            "{}{} {}: {:.0}% of the winning chances lost",
            m.san,
            mark(j),
            j.name(),
            m.drop
        ),
    );
    ui.label(format!("Better: {}", m.line.join(" ")))
        .on_hover_text("the engine's line from the position before the move");
}

/// White's winning chances after each ply, as bars from the middle (up: White better),
/// judged moves marked, the position shown ruled; a click returns the ply clicked.
fn graph(ui: &mut egui::Ui, review: &GameReview, shown: usize) -> Option<usize> {
    let chances: Vec<f32> = std::iter::once(review.moves.first()?.before)
        .chain(review.moves.iter().map(|m| m.after))
        .map(|e| e.win_percent(Side::White).value() as f32)
        .collect();
    let width = ui.available_width();
    let (rect, response) =
        ui.allocate_exact_size(egui::vec2(width, GRAPH_HEIGHT), egui::Sense::click());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 2.0, egui::Color32::from_gray(40));
    let plies = chances.len() - 1;
    let x = |ply: usize| rect.left() + rect.width() * ply as f32 / plies.max(1) as f32;
    let y = |chance: f32| rect.bottom() - rect.height() * chance / 100.0;
    let mid = y(50.0);
    let bar = (rect.width() / (plies + 1) as f32).max(1.0);
    for (ply, &c) in chances.iter().enumerate() {
        let (top, bottom) = (y(c).min(mid), y(c).max(mid));
        let fill = if c >= 50.0 {
            egui::Color32::from_gray(225)
        } else {
            egui::Color32::from_gray(90)
        };
        painter.rect_filled(
            egui::Rect::from_min_max(
                egui::pos2(x(ply) - bar / 2.0, top),
                egui::pos2(x(ply) + bar / 2.0, bottom),
            ),
            0.0,
            fill,
        );
    }
    painter.hline(
        rect.x_range(),
        mid,
        egui::Stroke::new(1.0, egui::Color32::GRAY),
    );
    for (i, m) in review.moves.iter().enumerate() {
        if let Some(j) = m.judgement {
            painter.circle_filled(egui::pos2(x(i + 1), y(chances[i + 1])), 3.5, colour(j));
        }
    }
    painter.vline(
        x(shown.min(plies)),
        rect.y_range(),
        egui::Stroke::new(1.5, egui::Color32::from_rgb(90, 160, 230)),
    );
    let at = |pos: egui::Pos2| {
        let f = ((pos.x - rect.left()) / rect.width()).clamp(0.0, 1.0);
        (f * plies as f32).round() as usize
    };
    let hovered = response.hover_pos().map(at);
    let clicked = response
        .clicked()
        .then(|| response.interact_pointer_pos())
        .flatten();
    if let Some(ply) = hovered {
        response.on_hover_text(hover_text(review, &chances, ply));
    }
    clicked.map(at)
}

/// `12. Qd3?? (Blunder), White 31%`.
fn hover_text(review: &GameReview, chances: &[f32], ply: usize) -> String {
    let Some(m) = ply.checked_sub(1).and_then(|i| review.moves.get(i)) else {
        return format!("start: White {:.0}%", chances[0]);
    };
    let judged = m
        .judgement
        .map_or(String::new(), |j| format!("{} ({})", mark(j), j.name()));
    format!("{}{judged}: White {:.0}%", m.san, chances[ply])
}
