//! Arrows on the board for the analysis' best moves (the best green and bold, the next
//! ones fainter) and for the hint (blue). Drawn as gizmos over everything: an arrow is
//! advice about the board, not a thing standing on it.

use bevy::prelude::*;
use hexchess_core::{Move, Step};

use crate::board::space::cell_world;
use crate::game::{BoardPosition, CurrentGame};
use crate::play::analysis::Analysis;

/// The arrows' own gizmo settings: thick lines drawn in front of the board and pieces.
#[derive(Default, Reflect, GizmoConfigGroup)]
pub struct ArrowGizmos;

/// Height above the board's surface the arrows lie at.
const LIFT: f32 = 0.35;

pub(super) fn configure_arrows(mut store: ResMut<GizmoConfigStore>) {
    let (config, _) = store.config_mut::<ArrowGizmos>();
    config.line.width = 7.0;
    config.depth_bias = -1.0;
}

/// The colour of the arrow for the analysis line of `rank` (0: the best).
fn line_colour(rank: usize) -> Color {
    let alpha = [0.9, 0.55, 0.4, 0.3, 0.25][rank.min(4)];
    Color::srgba(0.15, 0.7, 0.3, alpha)
}

pub(super) fn draw_arrows(
    analysis: Res<Analysis>,
    game: Res<CurrentGame>,
    mut gizmos: Gizmos<ArrowGizmos>,
) {
    // Nothing to draw: the position shown is not made (under review it is replayed).
    if !analysis.on && !analysis.has_hint() {
        return;
    }
    let shown = game.displayed();
    if analysis.on {
        // Worst first, so that the best is drawn over the others.
        let lines = analysis.lines_for(&shown);
        for (rank, info) in lines.iter().enumerate().rev() {
            if let Some(&mv) = info.pv.first() {
                arrow(&mut gizmos, &shown, mv, line_colour(rank));
            }
        }
    }
    if analysis.on {
        // A game of more sides: the best turn's moves, each from where it starts.
        for step in analysis.best_turn_for(&shown).unwrap_or_default() {
            if let Step::Play(mv) = step
                && !mv.is_edit()
                && !mv.is_placement()
            {
                let rules = shown.rules();
                let from = cell_world(rules, mv.from()) + Vec3::Y * LIFT;
                let to = cell_world(rules, mv.to()) + Vec3::Y * LIFT;
                gizmos.arrow(from, to, line_colour(0)).with_tip_length(0.45);
            }
        }
    }
    if let Some(mv) = analysis.hint_for(&shown) {
        arrow(&mut gizmos, &shown, mv, Color::srgba(0.2, 0.45, 0.95, 0.9));
    }
}

/// An arrow from a move's cell to its target (a placement has no arrow).
fn arrow(gizmos: &mut Gizmos<ArrowGizmos>, pos: &BoardPosition, mv: Move, colour: Color) {
    if mv.is_placement() || !pos.is_legal(mv) {
        return;
    }
    let rules = pos.rules();
    let from = cell_world(rules, mv.from()) + Vec3::Y * LIFT;
    let to = cell_world(rules, mv.to()) + Vec3::Y * LIFT;
    gizmos.arrow(from, to, colour).with_tip_length(0.45);
}
