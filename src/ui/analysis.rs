//! The analysis board in the side panel: on and off, how many lines, an evaluation bar,
//! and the engine's best lines in SAN (click one to play its first move).

use bevy_egui::egui;
use hexchess_core::Side;
use hexchess_core::pgn::{GameTree, NodeId};
use hexchess_engine::review::WinPercent;
use hexchess_engine::{Score, SearchInfo, pv_san};

use crate::game::{CurrentGame, StepRequest};
use crate::play::analysis::{Analysis, AnalysisRequest, MAX_LINES};
use crate::play::variations::{VariationRequest, Variations};

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
    game: &CurrentGame,
    analysis: &Analysis,
    requests: &mut Vec<AnalysisRequest>,
    moves: &mut Vec<StepRequest>,
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
    if game.has_more_sides() {
        best_turn(ui, game, analysis);
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
            moves.push(StepRequest::play(mv));
        }
    }
}

/// A game of more sides: the best turn for the side on move in the position shown.
fn best_turn(ui: &mut egui::Ui, game: &CurrentGame, analysis: &Analysis) {
    let shown = game.displayed_game();
    if shown.end().is_some() {
        ui.label("No move here.");
        return;
    }
    let side = game.rules().side_name(shown.side_to_move());
    let Some(steps) = analysis.best_turn_for(shown.position()) else {
        ui.label(format!("Thinking about {side}'s turn…"));
        return;
    };
    let turn = shown.clone().write_turn(&steps).replace('&', " & ");
    ui.label(
        egui::RichText::new(format!("Best turn for {side}: {turn}"))
            .monospace()
            .strong(),
    );
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
pub fn hint_text(game: &CurrentGame, analysis: &Analysis) -> Option<String> {
    let pos = game.position();
    analysis
        .hint_for(pos)
        .map(|mv| format!("Hint: {}", pos.move_to_san(mv)))
}

/// Where move numbers start: the start's fullmove number, and whether Black moves first.
#[derive(Clone, Copy)]
struct Numbering {
    first: u32,
    black_first: bool,
}

impl Numbering {
    /// `12.` before White's move at `ply` (1 for the first move), `12...` before
    /// Black's when `force`d (at the start of a line, or after a side line).
    fn label(self, ply: usize, force: bool) -> Option<String> {
        let index = ply - 1 + usize::from(self.black_first);
        let number = self.first as usize + index / 2;
        match (index.is_multiple_of(2), force) {
            (true, _) => Some(format!("{number}.")),
            (false, true) => Some(format!("{number}...")),
            (false, false) => None,
        }
    }
}

/// The tree of lines tried: the main line with side lines in parentheses, each move a
/// button to go there (right-click: promote the line, or delete from the move on).
pub(super) fn variation_tree(
    ui: &mut egui::Ui,
    variations: &Variations,
    out: &mut Vec<VariationRequest>,
) {
    let tree = &variations.tree;
    if tree.children(tree.root()).is_empty() {
        return;
    }
    let numbering = Numbering {
        first: variations.start_number,
        black_first: variations.start_turn != Side::White,
    };
    ui.label("Lines tried");
    egui::ScrollArea::vertical()
        .max_height(180.0)
        .id_salt("variations")
        .show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                ui.spacing_mut().item_spacing.x = 3.0;
                let mut printer = TreePrinter {
                    tree,
                    at: variations.at,
                    numbering,
                    out,
                };
                printer.line_after(ui, tree.root(), 0, true, 0);
            });
        });
    if let Some(at) = variations.at.filter(|&n| n != tree.root()) {
        ui.horizontal(|ui| {
            if ui
                .button("Promote line")
                .on_hover_text("make the line of the move shown the main line where it branches")
                .clicked()
            {
                out.push(VariationRequest::Promote(at));
            }
            if ui
                .button("Delete from here")
                .on_hover_text("remove the move shown and everything after it")
                .clicked()
            {
                out.push(VariationRequest::Delete(at));
            }
        });
    }
}

/// Lays out a tree's moves as PGN writes them.
struct TreePrinter<'a> {
    tree: &'a GameTree,
    at: Option<NodeId>,
    numbering: Numbering,
    out: &'a mut Vec<VariationRequest>,
}

/// Side lines nested deeper than this are shown as `(…)`: a tree built by hand never
/// gets there, and the panel stays readable.
const MAX_NESTING: usize = 8;

impl TreePrinter<'_> {
    /// The moves after `node` (at `ply`): its main child, then its other children as
    /// side lines in parentheses, then on along the main child.
    fn line_after(
        &mut self,
        ui: &mut egui::Ui,
        node: NodeId,
        ply: usize,
        force: bool,
        nest: usize,
    ) {
        let (mut at, mut ply, mut force) = (node, ply, force);
        while let Some((&main, others)) = self.tree.children(at).split_first() {
            self.move_button(ui, main, ply + 1, force);
            force = false;
            for &side in others {
                ui.label("(");
                if nest >= MAX_NESTING {
                    ui.label("…");
                } else {
                    self.move_button(ui, side, ply + 1, true);
                    self.line_after(ui, side, ply + 1, false, nest + 1);
                }
                ui.label(")");
                force = true;
            }
            at = main;
            ply += 1;
        }
    }

    fn move_button(&mut self, ui: &mut egui::Ui, node: NodeId, ply: usize, force: bool) {
        if let Some(number) = self.numbering.label(ply, force) {
            ui.label(egui::RichText::new(number).weak());
        }
        let current = self.at == Some(node);
        let response = ui.selectable_label(current, self.tree.san(node));
        if response.clicked() {
            self.out.push(VariationRequest::GoTo(node));
        }
        response.context_menu(|ui| {
            if ui.button("Promote line").clicked() {
                self.out.push(VariationRequest::Promote(node));
                ui.close();
            }
            if ui.button("Delete from here").clicked() {
                self.out.push(VariationRequest::Delete(node));
                ui.close();
            }
        });
    }
}
