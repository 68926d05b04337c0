//! The menu bar along the top (new game, undo and redo, resign, draw, engine-game
//! controls, view and animation) and the status line along the bottom.

use std::time::Duration;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::{UiInsets, UiMemory};
use crate::confirm::Weighty;
use crate::game::{CurrentGame, RedoRequest, UndoRequest};
use crate::look::{Settings, ViewChanged};
use crate::play::{AppState, DrawOffer, Session, undo_turns};

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

/// The requests the menu bar sends.
#[derive(SystemParam)]
pub(super) struct BarRequests<'w> {
    undo: MessageWriter<'w, UndoRequest>,
    redo: MessageWriter<'w, RedoRequest>,
    weighty: MessageWriter<'w, Weighty>,
    draw: MessageWriter<'w, DrawOffer>,
    views: MessageWriter<'w, ViewChanged>,
    editor: MessageWriter<'w, crate::editor::EditorRequest>,
    online: MessageWriter<'w, crate::online::OnlineRequest>,
    /// The server's game followed (its draw offers).
    server: Res<'w, crate::online::Online>,
}

pub(super) fn menu_bar(
    mut contexts: EguiContexts,
    game: Res<CurrentGame>,
    mut session: ResMut<Session>,
    (mut settings, mut sound): (ResMut<Settings>, ResMut<crate::sound::SoundSettings>),
    (mut memory, mut insets): (ResMut<UiMemory>, ResMut<UiInsets>),
    mut next_state: ResMut<NextState<AppState>>,
    mut out: BarRequests,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut root = super::root_ui_beside(ctx, insets.right, insets.below);
    let top = egui::Panel::top("menu").show(&mut root, |ui| {
        ui.horizontal_wrapped(|ui| {
            if ui.button("New game…").clicked() {
                next_state.set(AppState::NewGameMenu);
            }
            if ui.button("Endgames…").clicked() {
                memory.drill.open = true;
            }
            if ui.button("Edit board…").clicked() {
                out.editor.write(crate::editor::EditorRequest::Open);
            }
            if ui.button("Settings…").clicked() {
                memory.settings_open = true;
            }
            if ui.button("Online…").clicked() {
                memory.online.open = true;
            }
            if ui.button("Tournaments…").clicked() {
                memory.tournaments.open = true;
            }
            game_buttons(ui, &game, &session, &mut out);
            if session.seats.engines_only(game.side_count()) {
                ui.separator();
                engine_game_controls(ui, &mut session);
            }
            ui.separator();
            view_controls(ui, &mut settings, &mut out.views);
            ui.separator();
            animation_controls(ui, &mut settings);
            ui.separator();
            ui.checkbox(&mut sound.on, "Sound")
                .on_hover_text("moves, captures, checks and the game's end; loudness in Settings");
        });
    });
    let bottom = egui::Panel::bottom("status").show(&mut root, |ui| {
        ui.horizontal(|ui| {
            ui.label(status_line(&game));
            if let Some(notice) = &memory.notice
                && notice.at.elapsed() < Duration::from_secs(6)
            {
                ui.separator();
                ui.colored_label(egui::Color32::from_rgb(230, 170, 90), &notice.text);
            }
        });
    });
    insets.top = top.response.rect.height();
    insets.bottom = bottom.response.rect.height() + insets.below;
    Ok(())
}

/// Undo, redo, resign and offer a draw (in a game on a server: resign and the draw,
/// asked of the server).
fn game_buttons(ui: &mut egui::Ui, game: &CurrentGame, session: &Session, out: &mut BarRequests) {
    if session.seats.is_online() {
        let mine = game.played.sides().any(|s| session.seats.person(s));
        let playing = game.outcome().is_none() && mine;
        if ui
            .add_enabled(playing, egui::Button::new("Resign"))
            .clicked()
        {
            out.weighty.write(Weighty::Resign);
        }
        // Before every side has moved, the game may be called off instead.
        if playing
            && game.turn_count() < game.side_count()
            && ui
                .button("Abort")
                .on_hover_text("call the game off: no result, no rating")
                .clicked()
        {
            out.weighty.write(Weighty::Abort);
        }
        // A seat on move whose player left: claimed once its wait is over.
        let on_move = game.rules().side_name(game.side_to_move());
        let claim = out.server.followed.as_ref().and_then(|f| f.claim(on_move));
        if let Some(left) = claim {
            let ready = left.is_zero();
            let label = if ready {
                format!("Claim victory ({on_move} left)")
            } else {
                format!("{on_move} left: claim in {} s", left.as_secs() + 1)
            };
            if ui
                .add_enabled(playing && ready, egui::Button::new(label))
                .clicked()
            {
                out.online.write(crate::online::OnlineRequest::Claim);
            }
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(500));
        }
        // A draw offered to this player is answered here: accepted or declined.
        let offered = out
            .server
            .followed
            .as_ref()
            .map_or(Vec::new(), |f| f.offers_to_me(game.rules()));
        if offered.is_empty() {
            if ui
                .add_enabled(playing, egui::Button::new("Offer draw"))
                .clicked()
            {
                out.online.write(crate::online::OnlineRequest::Draw);
            }
            return;
        }
        let accept = format!("Accept draw ({})", offered.join(", "));
        if ui.add_enabled(playing, egui::Button::new(accept)).clicked() {
            out.online.write(crate::online::OnlineRequest::Draw);
        }
        if ui
            .add_enabled(playing, egui::Button::new("Decline"))
            .clicked()
        {
            out.online.write(crate::online::OnlineRequest::Decline);
        }
        return;
    }
    let turns = undo_turns(game, session);
    let started = game.turn_count() > 0 || !game.played.current_steps().is_empty();
    if ui
        .add_enabled(started, egui::Button::new("Undo"))
        .on_hover_text("Ctrl+Z: back to your turn (a whole turn)")
        .clicked()
    {
        out.undo.write(UndoRequest(turns));
    }
    if ui
        .add_enabled(!game.redo.is_empty(), egui::Button::new("Redo"))
        .on_hover_text("Ctrl+Y")
        .clicked()
    {
        out.redo.write(RedoRequest(turns.clamp(1, game.redo.len())));
    }
    let playing = game.outcome().is_none();
    if ui
        .add_enabled(playing, egui::Button::new("Resign"))
        .clicked()
    {
        out.weighty.write(Weighty::Resign);
    }
    let vs_engine = session.seats.engine_opponent(game.side_count()).is_some();
    if ui
        .add_enabled(playing && vs_engine, egui::Button::new("Offer draw"))
        .clicked()
    {
        out.draw.write(DrawOffer);
    }
}

/// Engine against engine: pause, step and the time each move stays in view.
/// (Takes the resource itself, not `&mut Session`, so that only a real change marks it
/// changed: the redraw policy and the seating watch for changes.)
fn engine_game_controls(ui: &mut egui::Ui, session: &mut ResMut<Session>) {
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

/// 2D or 3D, and which side is at the bottom. (The resource itself: see
/// [`engine_game_controls`].)
fn view_controls(
    ui: &mut egui::Ui,
    settings: &mut ResMut<Settings>,
    views: &mut MessageWriter<ViewChanged>,
) {
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
}

/// Animation on or off, and its speed.
fn animation_controls(ui: &mut egui::Ui, settings: &mut ResMut<Settings>) {
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
}

/// "White to move", "Black to move, in check", or the result.
pub fn status_line(game: &CurrentGame) -> String {
    let pos = game.position();
    let side = game.side_to_move();
    let name = game.rules().side_name(side);
    let mut s = match game.outcome() {
        Some(o) => o.description(),
        None if pos.phase() == hexchess_core::Phase::Setup => {
            let held: u32 = pos
                .rules()
                .kinds()
                .map(|k| u32::from(pos.in_hand(pos.turn(), k)))
                .sum();
            format!("{name} to place ({held} in hand)")
        }
        None => {
            let check = if game.played.in_check(side) {
                ", in check"
            } else {
                ""
            };
            format!("{name} to move{check} (move {})", pos.fullmove_number())
        }
    };
    if let Some(turn) = game.viewing {
        let unit = if game.has_more_sides() {
            "turns"
        } else {
            "plies"
        };
        s.push_str(&format!(
            " | reviewing after {turn} of {} {unit}",
            game.turn_count()
        ));
    }
    s
}
