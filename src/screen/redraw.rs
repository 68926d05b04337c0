//! Drawing only when something can change.
//!
//! A chess game spends most of its time waiting for a player to think. Redrawing a still
//! board as fast as the machine allows meanwhile keeps a processor core (or the GPU)
//! busy for nothing: on a machine without a GPU the game used the whole processor while
//! the player pondered. So while the game waits for a person (their move, a paused
//! engine game, a finished game) it updates on input and otherwise four times a second
//! (ten while a clock runs); while pieces move, the engine thinks or anything on the
//! board changes, it draws continuously.
//!
//! Why not rest while the engine thinks too (it would get more of the processor)? On a
//! software renderer the frames after a rest are slow (measured in engine-vs-engine
//! games under Xvfb: 99% of frames within 100 ms instead of 65 ms), and they would land
//! on the engine's move animation.

use std::time::Duration;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy::window::RequestRedraw;
use bevy::winit::{UpdateMode, WinitSettings};
use bevy_egui::{EguiInput, EguiInputSet, egui};

use super::camera::Orbit;
use crate::board::Selection;
use crate::game::{CurrentGame, StepRequest};
use crate::look::Settings;
use crate::pieces::animation::Animated;
use crate::play::{AppState, Clocks, EnginePlayer, Session};

/// The longest the game waits between updates when nothing happens.
pub const IDLE_WAIT: Duration = Duration::from_millis(250);

/// The same while a clock runs: clocks show tenths of a second in their last minute.
pub const CLOCK_WAIT: Duration = Duration::from_millis(100);

/// When the window is redrawn.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Redraw {
    /// After input and while something changes; otherwise every [`IDLE_WAIT`]
    /// ([`CLOCK_WAIT`] while a clock runs).
    #[default]
    OnChange,
    /// Every frame, as fast as the machine allows (for screenshots and comparisons).
    Continuous,
}

impl Redraw {
    /// The window loop's settings for this policy, focused or not: an unattended
    /// engine-vs-engine game must go on when another window has the focus.
    pub fn winit_settings(self) -> WinitSettings {
        loop_settings(match self {
            Redraw::OnChange => UpdateMode::reactive(IDLE_WAIT),
            Redraw::Continuous => UpdateMode::Continuous,
        })
    }
}

fn loop_settings(mode: UpdateMode) -> WinitSettings {
    WinitSettings {
        focused_mode: mode,
        unfocused_mode: mode,
    }
}

pub struct RedrawPlugin;

impl Plugin for RedrawPlugin {
    fn build(&self, app: &mut App) {
        app.add_message::<RequestRedraw>()
            .init_resource::<Redraw>()
            .add_systems(Last, request_redraw_while_changing.in_set(RedrawSet))
            .add_systems(
                PreUpdate,
                drop_unchanged_modifier_events.after(EguiInputSet::WriteEguiEvents),
            );
    }
}

/// The system that asks for the next frame; frame statistics run after it.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RedrawSet;

/// While pieces move, while the engine thinks, and after any change to what the board
/// shows (a move, a view setting, the camera, a selection, a new screen), the window
/// loop runs continuously, so that the change's consequences (a move request answered
/// next frame, an animation) follow at once; otherwise it goes back to waiting.
/// Switching the loop's mode, rather than only asking for single redraws, keeps frames
/// back to back: a reactive loop first catches up with its own schedule.
/// What keeps the picture changing: a move asked for, an engine thinking or about to,
/// pieces moving, or a change to the game, the view, the camera, the selection or the
/// app's state.
#[derive(SystemParam)]
struct Changing<'w, 's> {
    requests: MessageReader<'w, 's, StepRequest>,
    engine: Res<'w, EnginePlayer>,
    session: Res<'w, Session>,
    animated: Query<'w, 's, (), Animated>,
    game: Res<'w, CurrentGame>,
    settings: Res<'w, Settings>,
    orbit: Res<'w, Orbit>,
    selection: Res<'w, Selection>,
    state: Res<'w, State<AppState>>,
}

impl Changing<'_, '_> {
    fn busy(&mut self) -> bool {
        let requested = self.requests.read().count() > 0;
        requested
            || self.engine.is_thinking()
            || engine_to_move(&self.game, &self.session)
            || !self.animated.is_empty()
            || self.game.is_changed()
            || self.settings.is_changed()
            || self.orbit.is_changed()
            || self.selection.is_changed()
            || self.state.is_changed()
    }
}

fn request_redraw_while_changing(
    policy: Res<Redraw>,
    mut changing: Changing,
    mut redraw: MessageWriter<RequestRedraw>,
    clocks: Res<Clocks>,
    winit: Option<ResMut<WinitSettings>>,
) {
    let busy = changing.busy();
    let game = &changing.game;
    if busy {
        redraw.write(RequestRedraw);
    }
    if *policy == Redraw::OnChange
        && let Some(mut winit) = winit
    {
        let wanted = if busy {
            UpdateMode::Continuous
        } else if clocks.remaining.is_some() && game.outcome().is_none() {
            UpdateMode::reactive(CLOCK_WAIT)
        } else {
            UpdateMode::reactive(IDLE_WAIT)
        };
        if winit.focused_mode != wanted {
            *winit = loop_settings(wanted);
        }
    }
}

/// Whether an engine is about to think: between a move's animation and the start of
/// the search there is a frame with neither, and resting there would delay the game.
fn engine_to_move(game: &CurrentGame, session: &Session) -> bool {
    let paused = session.held(game.side_count());
    session.seats.engine_plays(game.side_to_move())
        && game.outcome().is_none()
        && game.is_live()
        && !paused
}

/// bevy_egui 0.42 gives egui a `ModifiersChanged` event on every frame, changed or not,
/// and egui asks for another frame whenever its input holds an event: the window would
/// never rest. The event is dropped when the modifier keys are as they were (egui keeps
/// the last state it was told).
fn drop_unchanged_modifier_events(
    mut inputs: Query<(Entity, &mut EguiInput)>,
    mut known: Local<Vec<(Entity, egui::Modifiers)>>,
) {
    for (entity, mut input) in &mut inputs {
        let slot = match known.iter().position(|(e, _)| *e == entity) {
            Some(i) => i,
            None => {
                known.push((entity, egui::Modifiers::NONE));
                known.len() - 1
            }
        };
        let mut last = known[slot].1;
        input.0.events.retain(|event| match event {
            egui::Event::ModifiersChanged(m) if *m == last => false,
            egui::Event::ModifiersChanged(m) => {
                last = *m;
                true
            }
            _ => true,
        });
        known[slot].1 = last;
    }
}
