//! The side panel: the variant and players, the engine's evaluation and line,
//! the endgame table's verdict, the move list (click to review), captured pieces, move
//! entry, the position as FEN, and saving and loading the game.

use std::path::PathBuf;
use std::time::Duration;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use hexchess_core::{Piece, Side};

use crate::PlayerFiles;
use crate::play::hidden::{ScreenState, hiding};
use hexchess_engine::Score;

use super::dialogs_files::{FileDialog, Purpose, SaveTo};
use super::{UiInsets, UiMemory, root_ui};
use crate::game::files::{OpenFile, OpenText};
use crate::game::records;
use crate::game::{CurrentGame, GameNotice, NewGameRequest, ReviewRequest, StepRequest};
use crate::play::analysis::{Analysis, AnalysisRequest};
use crate::play::review::{GameReviewRequest, GameReviewState};
use crate::play::variations::{VariationRequest, Variations};
use crate::play::{EnginePlayer, Session, Trainer};

pub(super) fn clock_text(d: Duration) -> String {
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

/// The requests the side panel sends.
#[derive(SystemParam)]
pub(super) struct PanelRequests<'w> {
    review: MessageWriter<'w, ReviewRequest>,
    moves: MessageWriter<'w, StepRequest>,
    new_game: MessageWriter<'w, NewGameRequest>,
    open_file: MessageWriter<'w, OpenFile>,
    open_text: MessageWriter<'w, OpenText>,
    notices: MessageWriter<'w, GameNotice>,
    clipboard: Option<ResMut<'w, bevy_egui::EguiClipboard>>,
    game_review: MessageWriter<'w, GameReviewRequest>,
    reviewed: Res<'w, GameReviewState>,
    analysis: Res<'w, Analysis>,
    analysis_requests: MessageWriter<'w, AnalysisRequest>,
    variations: Res<'w, Variations>,
    variation_requests: MessageWriter<'w, VariationRequest>,
    file_dialog: ResMut<'w, FileDialog>,
    player: Res<'w, PlayerFiles>,
}

/// What the side panel shows besides the game: who plays, the engine's
/// word, the endgame tables, who may look during a hidden deployment.
#[derive(SystemParam)]
pub(super) struct PanelView<'w> {
    session: Res<'w, Session>,
    player: Res<'w, EnginePlayer>,
    trainer: Res<'w, Trainer>,
    screen: Res<'w, ScreenState>,
}

pub(super) fn side_panel(
    mut contexts: EguiContexts,
    game: Res<CurrentGame>,
    view: PanelView,
    (mut memory, mut insets): (ResMut<UiMemory>, ResMut<UiInsets>),
    mut out: PanelRequests,
) -> Result {
    let PanelView {
        session,
        player,
        trainer,
        screen,
    } = &view;
    let ctx = contexts.ctx_mut()?;
    let mut root = root_ui(ctx);
    let key = (game.position().hash(), game.position().ply_count());
    if memory.moves.made_for != key {
        memory.moves.made_for = key;
        memory.moves.san = game.move_texts();
        memory.moves.captured = game.captured();
    }
    let memory = &mut *memory;
    let upright = super::portrait(ctx);
    let panel = if upright {
        egui::Panel::bottom("side-below")
            .resizable(false)
            .exact_size(super::panel_height_below(ctx))
    } else {
        egui::Panel::right("side")
            .resizable(false)
            .exact_size(300.0)
    };
    let panel = panel.show(&mut root, |ui| {
        egui::ScrollArea::vertical().show(ui, |ui| {
            players(ui, &game, session);
            if game.has_more_sides() {
                ui.separator();
                super::seats::seat_list(ui, &game, &session.seats);
                let mut steps = Vec::new();
                super::seats::turn_in_progress(ui, &game, &session.seats, &mut steps);
                out.moves.write_batch(steps);
            }
            // Behind Screen HexaChess's screen the engine's line is its deployment.
            let unseen = hiding(&game, screen);
            if !session.seats.people_only(game.side_count()) && !unseen {
                ui.separator();
                engine_report(ui, player);
            }
            if !unseen {
                ui.separator();
                let (mut requests, mut moves) = (Vec::new(), Vec::new());
                super::analysis::analysis_section(
                    ui,
                    &game,
                    &out.analysis,
                    &mut requests,
                    &mut moves,
                );
                if let Some(hint) = super::analysis::hint_text(&game, &out.analysis) {
                    ui.label(hint);
                }
                out.analysis_requests.write_batch(requests);
                out.moves.write_batch(moves);
                if out.analysis.on {
                    let mut edits = Vec::new();
                    super::analysis::variation_tree(ui, &out.variations, &mut edits);
                    out.variation_requests.write_batch(edits);
                }
            }
            let shown = game.two_player_displayed();
            let verdict = shown
                .as_ref()
                .and_then(|p| trainer.tables.probe_full(p).map(|v| (v, p.turn())));
            if trainer.drill.is_some() || verdict.is_some() {
                ui.separator();
                super::trainer::table_report(ui, verdict, trainer, &mut out.review);
            }
            // On the analysis board, every move of a table position.
            let explored = shown
                .as_ref()
                .filter(|_| out.analysis.on && verdict.is_some())
                .and_then(|p| {
                    let ranked = trainer.tables.rank_moves(p)?;
                    Some(ranked.into_iter().map(|(m, v)| (p.move_to_san(m), v)))
                })
                .map(Vec::from_iter);
            if let Some(moves) = explored.filter(|m| !m.is_empty()) {
                super::trainer::explorer(ui, &moves);
            }
            ui.separator();
            let seen = |i: usize| !unseen || placed_by(&game, i) == screen.viewer;
            let review = out.reviewed.review_of(&game);
            let marks = |i: usize| {
                review
                    .and_then(|r| r.moves.get(i))
                    .and_then(|m| m.judgement)
                    .map_or("", super::review::mark)
            };
            move_list(ui, &game, &memory.moves.san, &seen, &marks, &mut out.review);
            ui.separator();
            // The engine's review judges two-player moves.
            if !unseen && !game.has_more_sides() {
                let (mut requests, mut view) = (Vec::new(), None);
                super::review::review_section(ui, &game, &out.reviewed, &mut requests, &mut view);
                out.game_review.write_batch(requests);
                if let Some(v) = view {
                    out.review.write(v);
                }
                ui.separator();
            }
            captured(ui, &game, &memory.moves.captured);
            ui.separator();
            move_entry(ui, &game, &mut memory.move_text, &mut out);
            ui.separator();
            if unseen {
                ui.label("Position: hidden until both armies are revealed.");
            } else {
                position(ui, &game, &mut memory.fen_text, &mut out.new_game);
            }
            ui.separator();
            game_file(ui, &game, session, &mut memory.file_text, &mut out);
        });
    });
    if upright {
        (insets.right, insets.below) = (0.0, panel.response.rect.height());
    } else {
        (insets.right, insets.below) = (panel.response.rect.width(), 0.0);
    }
    Ok(())
}

/// The variant, who plays, and the engine's level.
fn players(ui: &mut egui::Ui, game: &CurrentGame, session: &Session) {
    ui.heading(game.rules().name());
    let sides = game.side_count();
    let who = session.seats.label(sides);
    // The level is the two-sided engine's; a table's engines say their own strength.
    let engine = sides == 2 && game.played.sides().any(|s| session.seats.engine_plays(s));
    ui.label(if engine {
        format!("{who} | level {}", session.level)
    } else {
        who
    });
}

/// Whether the engine thinks, its evaluation and its line.
fn engine_report(ui: &mut egui::Ui, player: &EnginePlayer) {
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

/// The moves, numbered, each a button to review the position after it; and the
/// buttons that step through the game.
/// The side that placed the piece of ply `i`, while the game is still in its setup
/// (every ply so far a placement, every placed piece still on its cell).
fn placed_by(game: &CurrentGame, i: usize) -> Option<Side> {
    let pos = &game.position();
    let mv = pos.moves_played().nth(i)?;
    pos.piece_at(mv.to()).map(|p| p.side)
}

/// The moves so far, each a button that shows the position after it; a placement the
/// player may not see (`seen` false) is written `?@?`.
fn move_list(
    ui: &mut egui::Ui,
    game: &CurrentGame,
    moves: &[String],
    seen: &dyn Fn(usize) -> bool,
    marks: &dyn Fn(usize) -> &'static str,
    review: &mut MessageWriter<ReviewRequest>,
) {
    ui.label("Moves");
    let shown = game.viewing.unwrap_or(moves.len());
    if game.has_more_sides() {
        turn_list(ui, game, moves, review);
        step_buttons(ui, game, moves.len(), shown, review);
        return;
    }
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
                            let text = if seen(i) {
                                format!("{}{}", moves[i], marks(i))
                            } else {
                                "?@?".to_string()
                            };
                            if ui.selectable_label(current, text).clicked() {
                                review.write(ReviewRequest(Some(i + 1)));
                            }
                        }
                        ui.end_row();
                    }
                });
        });
    step_buttons(ui, game, moves.len(), shown, review);
}

/// A game of more sides' turns, one a line with its side, each a button that shows the
/// position after it.
fn turn_list(
    ui: &mut egui::Ui,
    game: &CurrentGame,
    turns: &[String],
    review: &mut MessageWriter<ReviewRequest>,
) {
    let rules = game.rules();
    let shown = game.viewing.unwrap_or(turns.len());
    let n = rules.side_count();
    egui::ScrollArea::vertical()
        .max_height(260.0)
        .id_salt("turns")
        .stick_to_bottom(true)
        .show(ui, |ui| {
            for (i, (side, _)) in game.played.turns().iter().enumerate() {
                let text = turns.get(i).map_or("", String::as_str);
                let line = format!("{:>3}. {}: {text}", i / n + 1, rules.side_name(*side));
                if ui.selectable_label(i + 1 == shown, line).clicked() {
                    review.write(ReviewRequest(Some(i + 1)));
                }
            }
        });
}

/// The buttons that step through the game: its start, a turn back, a turn on, live.
fn step_buttons(
    ui: &mut egui::Ui,
    game: &CurrentGame,
    total: usize,
    shown: usize,
    review: &mut MessageWriter<ReviewRequest>,
) {
    ui.horizontal(|ui| {
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
}

/// What each side has taken (with more sides, what each has lost).
fn captured(ui: &mut egui::Ui, game: &CurrentGame, captured: &[Piece]) {
    let rules = game.rules();
    if game.has_more_sides() {
        for side in game.played.sides() {
            let lost: String = captured
                .iter()
                .filter(|p| p.side == side)
                .map(|p| rules.piece_letter(*p))
                .collect();
            let name = rules.side_name(side);
            ui.label(format!(
                "{name} has lost: {}",
                if lost.is_empty() { "-" } else { &lost }
            ));
        }
        return;
    }
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
}

/// A text field for a move in SAN or long algebraic (with more sides, one step: a
/// move, a removal `-Bf6` or a swap `Qd4>R`).
fn move_entry(ui: &mut egui::Ui, game: &CurrentGame, text: &mut String, out: &mut PanelRequests) {
    ui.label("Type a move (SAN or long algebraic):");
    let entry = ui.text_edit_singleline(text);
    if entry.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
        let typed = text.trim().to_string();
        match game.played.parse_step(&typed) {
            Ok(step) => {
                out.moves.write(StepRequest(step));
                text.clear();
            }
            Err(e) => {
                out.notices.write(GameNotice(e.to_string()));
            }
        }
    }
}

/// The position as hex FEN, to copy, and a field to set up another.
fn position(
    ui: &mut egui::Ui,
    game: &CurrentGame,
    fen_text: &mut String,
    new_game: &mut MessageWriter<NewGameRequest>,
) {
    ui.label("Position (hex FEN):");
    let fen = game.displayed_game().to_fen();
    ui.add(
        egui::Label::new(egui::RichText::new(&fen).monospace().small())
            .wrap_mode(egui::TextWrapMode::Wrap),
    );
    ui.horizontal(|ui| {
        if ui.button("Copy FEN").clicked() {
            ui.ctx().copy_text(fen.clone());
        }
        ui.add(egui::TextEdit::singleline(fen_text).desired_width(150.0))
            .on_hover_text("paste a FEN here");
        if ui.button("Set").clicked() {
            new_game.write(NewGameRequest {
                variant: None,
                fen: Some(fen_text.trim().to_string()),
                moves: Vec::new(),
            });
        }
    });
}

/// Saves the game where a save dialog chose.
pub(super) fn save_to_chosen_paths(
    mut chosen: MessageReader<SaveTo>,
    game: Res<CurrentGame>,
    session: Res<Session>,
    variations: Res<Variations>,
    player: Res<PlayerFiles>,
    mut memory: ResMut<UiMemory>,
    mut notices: MessageWriter<GameNotice>,
) {
    for SaveTo(path) in chosen.read() {
        let tree = variations.worth_saving(&game);
        let pgn = records::game_pgn_with(&game, &session.players(game.side_count()), tree);
        match records::save_pgn(&player, path, &pgn) {
            Ok(()) => {
                memory.file_text = path.display().to_string();
                notices.write(GameNotice(format!("saved {}", path.display())));
            }
            Err(e) => {
                notices.write(GameNotice(e));
            }
        }
    }
}

/// Saving the game as PGN, opening a game file (or a FEN or variant file), and the
/// game or position through the clipboard.
fn game_file(
    ui: &mut egui::Ui,
    game: &CurrentGame,
    session: &Session,
    file_text: &mut String,
    out: &mut PanelRequests,
) {
    ui.label("Game file (PGN):");
    ui.text_edit_singleline(file_text)
        .on_hover_text("a path; empty saves under a new name in your games folder. You can also drop a .pgn, .fen or .ron file on the window");
    ui.horizontal(|ui| {
        if ui.button("Save").clicked() {
            let path = if file_text.trim().is_empty() {
                let games = records::games_dir(&out.player);
                records::fresh_save_path(&out.player, &games, game.rules().id())
            } else {
                PathBuf::from(file_text.trim())
            };
            let tree = out.variations.worth_saving(game);
            let pgn = records::game_pgn_with(game, &session.players(game.side_count()), tree);
            match records::save_pgn(&out.player, &path, &pgn) {
                Ok(()) => {
                    *file_text = path.display().to_string();
                    out.notices
                        .write(GameNotice(format!("saved {}", path.display())));
                }
                Err(e) => {
                    out.notices.write(GameNotice(e));
                }
            }
        }
        if ui.button("Open").clicked() {
            out.open_file
                .write(OpenFile(PathBuf::from(file_text.trim())));
        }
    });
    ui.horizontal(|ui| {
        let busy = out.file_dialog.is_open();
        if ui
            .add_enabled(!busy, egui::Button::new("Open…"))
            .on_hover_text("choose a game, position or variant file")
            .clicked()
        {
            let games = records::games_dir(&out.player);
            out.file_dialog.open(Purpose::Open, games, String::new());
        }
        if ui
            .add_enabled(!busy, egui::Button::new("Save as…"))
            .on_hover_text("choose where to save the game as PGN")
            .clicked()
        {
            let name =
                records::fresh_save_path(&out.player, std::path::Path::new(""), game.rules().id())
                    .display()
                    .to_string();
            let games = records::games_dir(&out.player);
            out.file_dialog.open(Purpose::Save, games, name);
        }
        if ui
            .button("Copy game")
            .on_hover_text("the game as PGN, to paste into other chess programs")
            .clicked()
        {
            let tree = out.variations.worth_saving(game);
            let pgn = records::game_pgn_with(game, &session.players(game.side_count()), tree);
            ui.ctx().copy_text(pgn.to_string());
        }
        if ui
            .button("Paste")
            .on_hover_text("a game (PGN) or a position (hex FEN) from the clipboard")
            .clicked()
        {
            match out.clipboard.as_mut().and_then(|c| c.get_text()) {
                Some(text) => {
                    out.open_text.write(OpenText(text));
                }
                None => {
                    out.notices
                        .write(GameNotice("the clipboard holds no text".into()));
                }
            }
        }
    });
}
