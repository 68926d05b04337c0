//! The settings window (view, sound, the interface's zoom, full screen, where the
//! settings are kept) and the offer to continue an unfinished game found at start.

use bevy::prelude::*;
use bevy::window::{PrimaryWindow, WindowMode};
use bevy_egui::{EguiContexts, egui};

use super::UiMemory;
use crate::confirm::AskFirst;
use crate::input::fullscreen_mode;
use crate::look::{Settings, Theme, View, ViewChanged};
use crate::prefs::{KeptPreferences, PrefsFiles, Resume, ResumeOffer};
use crate::sound::{Cue, SoundSettings};

/// Opens the settings window (the menu bar's button, `--settings`).
#[derive(Message, Clone, Copy, Debug)]
pub struct OpenSettings;

pub(super) fn open_settings(mut opens: MessageReader<OpenSettings>, mut memory: ResMut<UiMemory>) {
    if opens.read().count() > 0 {
        memory.settings_open = true;
    }
}

/// The zooms the settings offer for the interface.
const UI_SCALES: std::ops::RangeInclusive<f32> = 0.5..=3.0;

/// The interface at the player's zoom (a change takes effect at the next frame).
pub(super) fn apply_ui_scale(mut contexts: EguiContexts, kept: Res<KeptPreferences>) -> Result {
    let ctx = contexts.ctx_mut()?;
    let zoom = kept.live.ui_scale;
    if (ctx.zoom_factor() - zoom).abs() > f32::EPSILON {
        ctx.set_zoom_factor(zoom);
    }
    Ok(())
}

pub(super) fn settings_window(
    mut contexts: EguiContexts,
    mut memory: ResMut<UiMemory>,
    (mut settings, mut sound, mut drawn): (ResMut<Settings>, ResMut<SoundSettings>, ResMut<Theme>),
    (mut kept, files): (ResMut<KeptPreferences>, Res<PrefsFiles>),
    mut window: Query<&mut Window, With<PrimaryWindow>>,
    (mut views, mut cues): (MessageWriter<ViewChanged>, MessageWriter<Cue>),
    mut ask_first: ResMut<AskFirst>,
) -> Result {
    if !memory.settings_open {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    egui::Window::new("Settings")
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            egui::Grid::new("settings").num_columns(2).show(ui, |ui| {
                ui.label("View");
                let mut view = settings.view;
                ui.horizontal(|ui| {
                    ui.radio_value(&mut view, View::ThreeD, "3D");
                    ui.radio_value(&mut view, View::TwoD, "2D");
                });
                if view != settings.view {
                    settings.view = view;
                    views.write(ViewChanged);
                }
                ui.end_row();
                ui.label("Coordinates");
                ui.checkbox(&mut settings.show_coordinates, "shown");
                ui.end_row();
                ui.label("Ask first");
                let mut ask = ask_first.0;
                ui.checkbox(&mut ask, "before resigning, aborting or leaving a game");
                // Set only on a change: the settings file is written when it changes.
                if ask != ask_first.0 {
                    ask_first.0 = ask;
                }
                ui.end_row();
                ui.label("Sound");
                ui.horizontal(|ui| {
                    ui.checkbox(&mut sound.on, "on");
                    let volume = ui.add_enabled(
                        sound.on,
                        egui::Slider::new(&mut sound.volume, 0.0..=1.0)
                            .text("loudness")
                            .show_value(false),
                    );
                    // Let the player hear the loudness chosen.
                    if volume.drag_stopped() || (volume.changed() && !volume.dragged()) {
                        cues.write(Cue::Move);
                    }
                });
                ui.end_row();
                ui.label("Interface size");
                let mut zoom = kept.live.ui_scale;
                ui.add(egui::Slider::new(&mut zoom, UI_SCALES).step_by(0.05));
                if zoom != kept.live.ui_scale {
                    kept.live.ui_scale = zoom;
                }
                ui.end_row();
                if let Ok(mut w) = window.single_mut() {
                    ui.label("Full screen");
                    let mut full = w.mode != WindowMode::Windowed;
                    if ui.checkbox(&mut full, "F11").changed() {
                        w.mode = fullscreen_mode(full);
                    }
                    ui.end_row();
                }
                ui.label("Theme");
                ui.horizontal(|ui| {
                    let mut theme = kept.live.theme.clone();
                    egui::ComboBox::from_id_salt("theme")
                        .selected_text(&theme)
                        .show_ui(ui, |ui| {
                            for (name, _) in crate::look::theme::SHIPPED {
                                ui.selectable_value(&mut theme, name.to_string(), name)
                                    .on_hover_text(match name {
                                        "contrast" => {
                                            "marks told apart under every kind of colour blindness"
                                        }
                                        _ => "",
                                    });
                            }
                        });
                    if theme != kept.live.theme {
                        switch_theme(&theme, &mut drawn, &mut views);
                        kept.live.theme = theme;
                    }
                });
                ui.end_row();
            });
            ui.separator();
            match &files.settings {
                Some(path) => ui.label(format!("Kept in {}", path.display())),
                None => ui.label("Not kept: this run started without settings (--fresh)."),
            };
        });
    memory.settings_open = open;
    Ok(())
}

/// Draws the game with the shipped theme `name` from now on: the board, pieces, marks
/// and lights are made again (the view's rebuild).
fn switch_theme(name: &str, drawn: &mut Theme, views: &mut MessageWriter<ViewChanged>) {
    match Theme::shipped(name) {
        Some(theme) => {
            *drawn = theme;
            views.write(ViewChanged);
        }
        None => warn!("no shipped theme '{name}'"),
    }
}

/// "An unfinished game was found": continue it, keep it for a later start, or discard
/// it. Until the player answers, nothing overwrites it.
pub(super) fn resume_offer(
    mut contexts: EguiContexts,
    offer: Res<ResumeOffer>,
    variants: Res<crate::game::Variants>,
    mut answers: MessageWriter<Resume>,
) -> Result {
    let Some(unfinished) = &offer.0 else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    egui::Window::new("Unfinished game")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .show(ctx, |ui| {
            let players = match (
                unfinished.record.tag("White"),
                unfinished.record.tag("Black"),
            ) {
                (Some(w), Some(b)) => format!(", {w} vs {b}"),
                _ => String::new(),
            };
            let id = unfinished.variant.as_str();
            let (variant, played) = match variants.0.get(id) {
                Some(e) if e.side_count() > 2 => (e.name(), "turns"),
                Some(e) => (e.name(), "half-moves"),
                None => (id, "half-moves"),
            };
            let turns = unfinished.record.main_line_turns();
            let last = turns.last().copied().unwrap_or("");
            ui.label(format!(
                "Your last game was not finished: {variant}{players}; {} {played} played, the last {last}.",
                unfinished.plies
            ));
            ui.label(
                egui::RichText::new("Until you choose, the game on the board is not autosaved.")
                    .small()
                    .weak(),
            );
            ui.horizontal(|ui| {
                if ui.button("Continue it").clicked() {
                    answers.write(Resume::Continue);
                }
                if ui
                    .button("Keep it for later")
                    .on_hover_text("Leave it for the next start; this game is not autosaved")
                    .clicked()
                {
                    answers.write(Resume::KeepForLater);
                }
                if ui
                    .button("Discard it")
                    .on_hover_text("Remove it; the game on the board is autosaved instead")
                    .clicked()
                {
                    answers.write(Resume::Discard);
                }
            });
        });
    Ok(())
}
