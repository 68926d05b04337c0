//! The new-game menu (variant, players or seats, engine level, clock) for every
//! variant, of two sides or more, and the game-over dialog that leads back to it.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use hexchess_core::Side;
use hexchess_engine::Skill;

use super::UiMemory;
use crate::confirm::Weighty;
use crate::game::{CurrentGame, Variants};
use crate::play::{
    AppState, GameOverDialog, Matchup, Seats, Session, StartGame, TIME_CONTROLS, TimeControl,
};

/// The choices in the new-game menu.
#[derive(Clone, Debug)]
pub(super) struct Setup {
    variant: String,
    /// Who plays a two-player variant.
    matchup: Matchup,
    /// Who sits where at a variant of more sides.
    seats: Seats,
    level: Skill,
    time_control: Option<TimeControl>,
}

impl Default for Setup {
    fn default() -> Self {
        let s = Session::default();
        Setup {
            variant: "glinski".into(),
            matchup: Matchup::You(Side::White),
            seats: s.seats,
            level: s.level,
            time_control: s.time_control,
        }
    }
}

impl Setup {
    /// The setup of the game on the board, to start the menu from.
    pub(super) fn from_session(game: &CurrentGame, session: &Session) -> Setup {
        // A game of more sides' seats for the seats' choices; a two-sided game's (or
        // an online game's) for the two-player choices, the seats then the default.
        let (matchup, seats) = match Matchup::of(&session.seats) {
            _ if game.has_more_sides() => (Matchup::You(Side::White), session.seats),
            Some(two) => (two, Seats::default()),
            None => (Matchup::You(Side::White), Seats::default()),
        };
        Setup {
            variant: game.rules().id().to_string(),
            matchup,
            seats,
            level: session.level,
            time_control: session.time_control,
        }
    }
}

/// The menu opens on the game on the board (its variant, players, level and clock),
/// however it is opened: the bar, the game-over dialog, or `--menu` at start.
pub(super) fn start_from_the_game(
    game: Res<CurrentGame>,
    session: Res<Session>,
    mut memory: ResMut<UiMemory>,
) {
    memory.setup = Setup::from_session(&game, &session);
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

pub(super) fn new_game_menu(
    mut contexts: EguiContexts,
    state: Res<State<AppState>>,
    variants: Res<Variants>,
    theme: Res<crate::look::Theme>,
    mut memory: ResMut<UiMemory>,
    mut next_state: ResMut<NextState<AppState>>,
    mut start_game: MessageWriter<Weighty>,
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
            let memory = &mut *memory;
            ui.horizontal_top(|ui| {
                ui.vertical(|ui| {
                    setup_grid(ui, &variants, &mut memory.setup);
                    ui.horizontal(|ui| {
                        start = ui.button("Start").clicked();
                        cancel = ui.button("Cancel").clicked();
                    });
                });
                if let Some(entry) = variants.0.get(&memory.setup.variant) {
                    let rules = &entry.rules();
                    ui.separator();
                    ui.vertical(|ui| {
                        super::variant_card::variant_card(
                            ui,
                            rules,
                            &entry.spec.description,
                            &theme,
                            &mut memory.card,
                        );
                    });
                }
            });
        });
    if start {
        let s = memory.setup.clone();
        let more_sides = variants
            .0
            .get(&s.variant)
            .is_some_and(|e| e.side_count() > 2);
        start_game.write(Weighty::NewGame(Box::new(StartGame {
            variant: s.variant,
            seats: if more_sides {
                s.seats
            } else {
                s.matchup.seats()
            },
            level: s.level,
            time_control: s.time_control,
            fen: None,
            moves: Vec::new(),
        })));
        next_state.set(AppState::Playing);
    } else if cancel {
        next_state.set(AppState::Playing);
    }
    Ok(())
}

pub(super) fn game_over_dialog(
    mut contexts: EguiContexts,
    state: Res<State<AppState>>,
    mut dialog: ResMut<GameOverDialog>,
    mut next_state: ResMut<NextState<AppState>>,
    online: Res<crate::online::Online>,
    mut requests: MessageWriter<crate::online::OnlineRequest>,
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
            // A game of one's own on a server: the same again, the seats swapped.
            if let Some(followed) = online.followed.as_ref().filter(|f| !f.mine.is_empty()) {
                super::online::rematch_button(ui, followed, &mut requests);
            }
            ui.horizontal(|ui| {
                again = ui.button("New game").clicked();
                review = ui.button("Review").clicked();
            });
        });
    if again {
        dialog.dismissed = true;
        next_state.set(AppState::NewGameMenu);
    } else if review {
        dialog.dismissed = true;
    }
    Ok(())
}

/// The choices: variant, players, engine level and clock.
fn setup_grid(ui: &mut egui::Ui, variants: &Variants, setup: &mut Setup) {
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
                        let name = match e.side_count() {
                            2 => e.name().to_string(),
                            n => format!("{} ({n} players)", e.name()),
                        };
                        ui.selectable_value(&mut setup.variant, e.id().to_string(), name);
                    }
                });
            ui.end_row();
            ui.label("Players");
            match variants
                .0
                .get(&setup.variant)
                .filter(|e| e.side_count() > 2)
            {
                Some(entry) => {
                    super::seats::seat_choices(ui, entry.rules(), &mut setup.seats);
                }
                None => {
                    ui.vertical(|ui| {
                        for matchup in Matchup::ALL {
                            ui.radio_value(&mut setup.matchup, matchup, matchup.label());
                        }
                    });
                }
            }
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
            let label = |tc: Option<TimeControl>| tc.map_or("none".to_string(), |t| t.label());
            egui::ComboBox::from_id_salt("clock")
                .selected_text(label(setup.time_control))
                .show_ui(ui, |ui| {
                    for tc in TIME_CONTROLS {
                        ui.selectable_value(&mut setup.time_control, tc, label(tc));
                    }
                });
            ui.end_row();
        });
}
