//! The user interface (egui): the menu bar, the side panel (clocks, evaluation, move
//! list, captured pieces, position and game files, move entry), the new-game menu, the
//! game-over dialog and the promotion picker.
//!
//! The interface only reads state and sends requests; the game plugin applies them.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy_egui::input::EguiWantsInput;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use hexchess_core::{GameOutcome, Piece, Side, Termination};
use hexchess_engine::{Score, Skill};

use crate::ai::{DrawOffer, EnginePlayer};
use crate::files;
use crate::game::{
    EndRequest, GameNotice, GameState, LoadRequest, MoveRequest, NewGameRequest, RedoRequest,
    ReviewRequest, UndoRequest, Variants,
};
use crate::input::{PendingPromotion, PointerOverUi, PromotionChoice};
use crate::session::{AppState, Clocks, GameOverDialog, Mode, Session, TIME_CONTROLS, TimeControl};
use crate::settings::{Settings, ViewChanged};

pub struct UiPlugin;

impl Plugin for UiPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<UiMemory>()
            .init_resource::<UiInsets>()
            .add_systems(
                EguiPrimaryContextPass,
                (
                    // The side panel first: the bars then take the width it leaves, so
                    // none of their controls hides under it.
                    side_panel,
                    menu_bar,
                    new_game_menu,
                    game_over_dialog,
                    promotion_picker,
                    variant_errors,
                )
                    .chain(),
            )
            .add_systems(PreUpdate, note_pointer_over_ui)
            .add_systems(Update, remember_notices);
    }
}

/// Room the panels take along the window's edges (logical pixels): the board's camera
/// draws in what is left.
#[derive(Resource, Default, Clone, Copy, Debug, PartialEq)]
pub struct UiInsets {
    pub top: f32,
    pub bottom: f32,
    pub right: f32,
}

/// What the interface keeps between frames: text fields, the last notice, the setup
/// being edited in the new-game menu.
#[derive(Resource)]
pub struct UiMemory {
    move_text: String,
    fen_text: String,
    file_text: String,
    notice: Option<(String, Instant)>,
    setup: Setup,
    show_errors: bool,
    errors_seen: usize,
    /// Cache of the move list: (position hash, plies) it was made for, and the moves.
    moves: ((u64, usize), Vec<String>, Vec<Piece>),
}

impl Default for UiMemory {
    fn default() -> Self {
        UiMemory {
            move_text: String::new(),
            fen_text: String::new(),
            file_text: String::new(),
            notice: None,
            setup: Setup::default(),
            show_errors: false,
            errors_seen: 0,
            moves: ((0, usize::MAX), Vec::new(), Vec::new()),
        }
    }
}

/// The choices in the new-game menu.
#[derive(Clone, Debug)]
struct Setup {
    variant: String,
    mode: Mode,
    level: Skill,
    time_control: Option<TimeControl>,
}

impl Default for Setup {
    fn default() -> Self {
        let s = Session::default();
        Setup {
            variant: "glinski".into(),
            mode: s.mode,
            level: s.level,
            time_control: s.time_control,
        }
    }
}

/// Clicks on the interface never reach the board beneath it.
fn note_pointer_over_ui(wants: Option<Res<EguiWantsInput>>, mut over: ResMut<PointerOverUi>) {
    let now = wants.is_some_and(|w| w.wants_any_pointer_input());
    if over.0 != now {
        over.0 = now;
    }
}

fn remember_notices(mut notices: MessageReader<GameNotice>, mut memory: ResMut<UiMemory>) {
    if let Some(GameNotice(text)) = notices.read().last() {
        memory.notice = Some((text.clone(), Instant::now()));
    }
}

/// Room a slider with its value and label takes in the menu bar.
const SLIDER_ROOM: f32 = 220.0;

/// Starts a new row of a wrapping layout unless `width` is left on this one. A slider
/// lays itself out in a row of its own, which a wrapping layout cannot break, so it
/// would run past the bar's end (under the side panel) instead of wrapping.
fn wrap_unless_room(ui: &mut egui::Ui, width: f32) {
    // (`available_width` is the whole row's width in a wrapping layout.)
    if ui.max_rect().max.x - ui.cursor().min.x < width {
        ui.end_row();
    }
}

/// A Ui covering the whole window, for the panels along its edges.
pub fn root_ui(ctx: &egui::Context) -> egui::Ui {
    root_ui_left_of(ctx, 0.0)
}

/// A Ui covering the window but a strip of `right` pixels along its right edge.
fn root_ui_left_of(ctx: &egui::Context, right: f32) -> egui::Ui {
    let mut rect = ctx.viewport_rect();
    rect.max.x = (rect.max.x - right).max(rect.min.x);
    egui::Ui::new(
        ctx.clone(),
        "root".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(rect),
    )
}

/// How many plies "undo" takes back: against the engine, back to the player's turn.
pub fn undo_plies(game: &GameState, session: &Session, engine_thinking: bool) -> usize {
    match session.mode {
        Mode::HumanVsEngine { human } if !engine_thinking && game.position.turn() == human => 2,
        _ => 1,
    }
}

#[allow(clippy::too_many_arguments)]
fn menu_bar(
    mut contexts: EguiContexts,
    game: Res<GameState>,
    player: Res<EnginePlayer>,
    mut session: ResMut<Session>,
    mut settings: ResMut<Settings>,
    mut memory: ResMut<UiMemory>,
    mut next_state: ResMut<NextState<AppState>>,
    mut undo: MessageWriter<UndoRequest>,
    mut redo: MessageWriter<RedoRequest>,
    mut end: MessageWriter<EndRequest>,
    mut draw: MessageWriter<DrawOffer>,
    mut views: MessageWriter<ViewChanged>,
    mut insets: ResMut<UiInsets>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut root = root_ui_left_of(ctx, insets.right);
    let top = egui::Panel::top("menu").show(&mut root, |ui| {
        ui.horizontal_wrapped(|ui| {
            if ui.button("New game…").clicked() {
                memory.setup = Setup {
                    variant: game.rules().id().to_string(),
                    mode: session.mode,
                    level: session.level,
                    time_control: session.time_control,
                };
                next_state.set(AppState::NewGameMenu);
            }
            let plies = undo_plies(&game, &session, player.is_thinking());
            if ui
                .add_enabled(game.position.ply_count() > 0, egui::Button::new("Undo"))
                .on_hover_text("Ctrl+Z")
                .clicked()
            {
                undo.write(UndoRequest(plies));
            }
            if ui
                .add_enabled(!game.redo.is_empty(), egui::Button::new("Redo"))
                .on_hover_text("Ctrl+Y")
                .clicked()
            {
                redo.write(RedoRequest(plies.min(game.redo.len())));
            }
            let playing = game.outcome().is_none();
            if ui
                .add_enabled(playing, egui::Button::new("Resign"))
                .clicked()
            {
                let loser = match session.mode {
                    Mode::HumanVsEngine { human } => human,
                    _ => game.position.turn(),
                };
                end.write(EndRequest(GameOutcome::win(
                    !loser,
                    Termination::Resignation,
                )));
            }
            let vs_engine = matches!(session.mode, Mode::HumanVsEngine { .. });
            if ui
                .add_enabled(playing && vs_engine, egui::Button::new("Offer draw"))
                .clicked()
            {
                draw.write(DrawOffer);
            }
            if session.mode == Mode::EngineVsEngine {
                ui.separator();
                let label = if session.paused { "Resume" } else { "Pause" };
                if ui.button(label).clicked() {
                    session.paused = !session.paused;
                }
                if ui
                    .add_enabled(session.paused, egui::Button::new("Step"))
                    .clicked()
                {
                    session.step = true;
                }
                let mut delay = session.move_delay.as_secs_f32();
                wrap_unless_room(ui, SLIDER_ROOM);
                ui.add(egui::Slider::new(&mut delay, 0.1..=3.0).text("s/move"));
                if (delay - session.move_delay.as_secs_f32()).abs() > 1e-3 {
                    session.move_delay = Duration::from_secs_f32(delay);
                }
            }
            ui.separator();
            let mut view = settings.view;
            if ui
                .button(format!("View: {}", view.label()))
                .on_hover_text("V")
                .clicked()
            {
                view = view.toggled();
            }
            let mut flipped = settings.flipped;
            ui.checkbox(&mut flipped, "Flip").on_hover_text("F");
            if view != settings.view || flipped != settings.flipped {
                settings.view = view;
                settings.flipped = flipped;
                views.write(ViewChanged);
            }
            ui.separator();
            let mut animate = settings.animate;
            wrap_unless_room(ui, SLIDER_ROOM + 80.0);
            ui.checkbox(&mut animate, "Animate");
            let mut speed = settings.animation_speed;
            ui.add_enabled(
                animate,
                egui::Slider::new(&mut speed, 0.25..=4.0)
                    .text("speed")
                    .logarithmic(true),
            );
            if animate != settings.animate || speed != settings.animation_speed {
                settings.animate = animate;
                settings.animation_speed = speed;
            }
        });
    });
    let bottom = egui::Panel::bottom("status").show(&mut root, |ui| {
        ui.horizontal(|ui| {
            ui.label(status_line(&game));
            if let Some((text, at)) = &memory.notice
                && at.elapsed() < Duration::from_secs(6)
            {
                ui.separator();
                ui.colored_label(egui::Color32::from_rgb(230, 170, 90), text);
            }
        });
    });
    insets.top = top.response.rect.height();
    insets.bottom = bottom.response.rect.height();
    Ok(())
}

/// "White to move", "Black to move, in check", or the result.
pub fn status_line(game: &GameState) -> String {
    let pos = &game.position;
    let mut s = match game.outcome() {
        Some(o) => o.description(),
        None => {
            let check = if pos.in_check() { ", in check" } else { "" };
            format!(
                "{} to move{check} (move {})",
                pos.turn(),
                pos.fullmove_number()
            )
        }
    };
    if let Some(ply) = game.viewing {
        s.push_str(&format!(
            " | reviewing after {ply} of {} plies",
            pos.ply_count()
        ));
    }
    s
}

fn clock_text(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 60 {
        format!("{}:{:02}", s / 60, s % 60)
    } else {
        format!("{}.{}", s, d.subsec_millis() / 100)
    }
}

/// A word for a level's strength in the new-game menu.
fn strength_label(level: Skill) -> &'static str {
    match level.level() {
        _ if level.is_full() => "full strength",
        1..=5 => "beginner",
        6..=10 => "casual",
        11..=15 => "club",
        _ => "strong",
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
fn side_panel(
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
    if memory.moves.0 != key {
        memory.moves = (key, game.san_moves(), game.captured());
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
                let moves = memory.moves.1.clone();
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
                let captured = memory.moves.2.clone();
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
                            files::default_save_path(std::path::Path::new("."), &game)
                        } else {
                            PathBuf::from(memory.file_text.trim())
                        };
                        let record = files::game_record(&game, &session);
                        match files::save(&path, &record) {
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
                        match files::load(std::path::Path::new(memory.file_text.trim())) {
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

#[allow(clippy::too_many_arguments)]
fn new_game_menu(
    mut contexts: EguiContexts,
    state: Res<State<AppState>>,
    variants: Res<Variants>,
    mut memory: ResMut<UiMemory>,
    mut session: ResMut<Session>,
    mut clocks: ResMut<Clocks>,
    mut next_state: ResMut<NextState<AppState>>,
    mut new_game: MessageWriter<NewGameRequest>,
) -> Result {
    if *state.get() != AppState::NewGameMenu {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut start = false;
    let mut cancel = false;
    egui::Window::new("New game")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
        .show(ctx, |ui| {
            let setup = &mut memory.setup;
            egui::Grid::new("setup")
                .num_columns(2)
                .spacing([16.0, 8.0])
                .show(ui, |ui| {
                    ui.label("Variant");
                    let name = variants
                        .0
                        .get(&setup.variant)
                        .map_or(setup.variant.clone(), |e| e.name().to_string());
                    egui::ComboBox::from_id_salt("variant")
                        .selected_text(name)
                        .show_ui(ui, |ui| {
                            for e in variants.0.entries() {
                                ui.selectable_value(
                                    &mut setup.variant,
                                    e.id().to_string(),
                                    e.name(),
                                );
                            }
                        });
                    ui.end_row();
                    ui.label("Players");
                    ui.vertical(|ui| {
                        for mode in [
                            Mode::HumanVsEngine { human: Side::White },
                            Mode::HumanVsEngine { human: Side::Black },
                            Mode::EngineVsEngine,
                            Mode::HumanVsHuman,
                        ] {
                            ui.radio_value(&mut setup.mode, mode, mode.label());
                        }
                    });
                    ui.end_row();
                    ui.label("Engine level");
                    let mut level = setup.level.level();
                    ui.add(
                        egui::Slider::new(&mut level, Skill::MIN.level()..=Skill::FULL.level())
                            .text(strength_label(setup.level)),
                    );
                    setup.level = Skill::new(level).unwrap_or(setup.level);
                    ui.end_row();
                    ui.label("Clock");
                    let label =
                        |tc: Option<TimeControl>| tc.map_or("none".to_string(), |t| t.label());
                    egui::ComboBox::from_id_salt("clock")
                        .selected_text(label(setup.time_control))
                        .show_ui(ui, |ui| {
                            for tc in TIME_CONTROLS {
                                ui.selectable_value(&mut setup.time_control, tc, label(tc));
                            }
                        });
                    ui.end_row();
                });
            ui.horizontal(|ui| {
                start = ui.button("Start").clicked();
                cancel = ui.button("Cancel").clicked();
            });
        });
    if start {
        let s = memory.setup.clone();
        session.mode = s.mode;
        session.level = s.level;
        session.time_control = s.time_control;
        session.paused = false;
        clocks.reset(s.time_control);
        new_game.write(NewGameRequest {
            variant: Some(s.variant),
            fen: None,
        });
        next_state.set(AppState::Playing);
    } else if cancel {
        next_state.set(AppState::Playing);
    }
    Ok(())
}

fn game_over_dialog(
    mut contexts: EguiContexts,
    state: Res<State<AppState>>,
    mut dialog: ResMut<GameOverDialog>,
    mut next_state: ResMut<NextState<AppState>>,
    mut memory: ResMut<UiMemory>,
    game: Res<GameState>,
    session: Res<Session>,
) -> Result {
    if *state.get() != AppState::GameOver || dialog.dismissed {
        return Ok(());
    }
    let Some(outcome) = dialog.outcome else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let mut again = false;
    let mut review = false;
    egui::Window::new("Game over")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
        .show(ctx, |ui| {
            ui.heading(outcome.result_text());
            ui.label(outcome.description());
            ui.horizontal(|ui| {
                again = ui.button("New game").clicked();
                review = ui.button("Review").clicked();
            });
        });
    if again {
        memory.setup = Setup {
            variant: game.rules().id().to_string(),
            mode: session.mode,
            level: session.level,
            time_control: session.time_control,
        };
        dialog.dismissed = true;
        next_state.set(AppState::NewGameMenu);
    } else if review {
        dialog.dismissed = true;
    }
    Ok(())
}

fn promotion_picker(
    mut contexts: EguiContexts,
    game: Res<GameState>,
    pending: Res<PendingPromotion>,
    mut choices: MessageWriter<PromotionChoice>,
) -> Result {
    if pending.moves.is_empty() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let rules = game.rules();
    let moved_is_pawn = pending
        .moves
        .first()
        .and_then(|m| game.position.piece_at(m.from()))
        .is_some_and(|p| rules.pawn_kind() == Some(p.kind));
    let title = if moved_is_pawn {
        "Promote to"
    } else {
        "Which move?"
    };
    let mut chosen = None;
    let mut cancel = false;
    egui::Window::new(title)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                for (i, mv) in pending.moves.iter().enumerate() {
                    let label = match (mv.castling(), mv.promotion()) {
                        (Some(i), _) => rules
                            .castling_notation(game.position.turn(), i)
                            .unwrap_or("Castle")
                            .to_string(),
                        (None, Some(k)) => rules.kind_info(k).name.clone(),
                        (None, None) if moved_is_pawn => "Stay a pawn".to_string(),
                        (None, None) => "Ordinary move".to_string(),
                    };
                    if ui.button(label).clicked() {
                        chosen = Some(i);
                    }
                }
            });
            if ui.button("Cancel").clicked() {
                cancel = true;
            }
        });
    if chosen.is_some() || cancel {
        choices.write(PromotionChoice(chosen));
    }
    Ok(())
}

/// The variant files that failed to load, and the offer to restart a game whose
/// variant file changed.
fn variant_errors(
    mut contexts: EguiContexts,
    variants: Res<Variants>,
    insets: Res<UiInsets>,
    mut memory: ResMut<UiMemory>,
    mut offer: ResMut<crate::variants::RestartOffer>,
    mut new_game: MessageWriter<NewGameRequest>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let errors = variants.0.errors();
    // A newly broken file opens the panel; the player may close it.
    if errors.len() > memory.errors_seen {
        memory.show_errors = true;
    }
    memory.errors_seen = errors.len();
    if !errors.is_empty() {
        let right = ctx.viewport_rect().right() - insets.right - 8.0;
        egui::Area::new("variant-error-badge".into())
            .fixed_pos(egui::pos2(right - 230.0, insets.top + 8.0))
            .show(ctx, |ui| {
                let n = errors.len();
                let label = format!(
                    "⚠ {n} variant file{} with problems",
                    if n == 1 { "" } else { "s" }
                );
                if ui
                    .button(egui::RichText::new(label).color(egui::Color32::from_rgb(240, 170, 80)))
                    .clicked()
                {
                    memory.show_errors = !memory.show_errors;
                }
            });
        let mut open = memory.show_errors;
        egui::Window::new("Variant files with problems")
            .open(&mut open)
            .default_width(560.0)
            .show(ctx, |ui| {
                ui.label("These files were not loaded; the other variants stay playable. Fix a file and save it: it loads again by itself.");
                egui::ScrollArea::vertical().max_height(420.0).show(ui, |ui| {
                    for e in errors {
                        ui.separator();
                        ui.strong(e.file());
                        for p in e.problems() {
                            let at = match (p.line, p.column) {
                                (Some(l), Some(c)) => format!("line {l}, column {c}"),
                                _ => "whole file".to_string(),
                            };
                            let place = if p.path.is_empty() { at } else { format!("{at} ({})", p.path) };
                            ui.horizontal_wrapped(|ui| {
                                ui.label(egui::RichText::new(place).monospace().small());
                                ui.label(&p.message);
                            });
                            if let Some(h) = &p.hint {
                                ui.label(egui::RichText::new(format!("hint: {h}")).italics().color(egui::Color32::from_rgb(150, 200, 255)));
                            }
                        }
                    }
                });
            });
        memory.show_errors = open;
    }
    if let Some(id) = offer.0.clone() {
        let name = variants
            .0
            .get(&id)
            .map_or(id.clone(), |e| e.name().to_string());
        let mut restart = false;
        let mut dismiss = false;
        egui::Window::new("Rules changed")
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_TOP, egui::vec2(-150.0, 60.0))
            .show(ctx, |ui| {
                ui.label(format!("The file for {name} changed on disk."));
                ui.horizontal(|ui| {
                    restart = ui.button("Restart with the new rules").clicked();
                    dismiss = ui.button("Keep playing").clicked();
                });
            });
        if restart {
            new_game.write(NewGameRequest {
                variant: Some(id),
                fen: None,
            });
        }
        if restart || dismiss {
            offer.0 = None;
        }
    }
    Ok(())
}
