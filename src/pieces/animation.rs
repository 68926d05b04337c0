//! Move animations: pieces slide (knights hop), captured pieces sink and shrink,
//! promoted pawns turn into their new piece with a pop, and a check flashes.
//!
//! Each animation is a component with its own clock; the systems here advance them and
//! remove them when done. Speed and the off switch live in [`Settings`] and are applied
//! when an animation starts.

use bevy::prelude::*;

use super::{PieceAssets, PieceView, piece_look};
use crate::game::{CurrentGame, GameSet};
use crate::look::mesh;
use crate::look::{Settings, Surface, Theme};

/// Smooth start and stop.
fn ease(t: f32) -> f32 {
    let t = t.clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// A piece moving between two points.
#[derive(Component, Clone, Debug)]
pub struct Slide {
    pub from: Vec3,
    pub to: Vec3,
    pub elapsed: f32,
    pub duration: f32,
    /// Knights jump: an arc instead of a straight line.
    pub hop: bool,
}

impl Slide {
    pub fn new(from: Vec3, to: Vec3, duration: f32, hop: bool) -> Slide {
        Slide {
            from,
            to,
            elapsed: 0.0,
            duration: duration.max(1e-3),
            hop,
        }
    }
}

/// A captured piece leaving the board; despawned at the end.
#[derive(Component, Clone, Debug)]
pub struct Vanish {
    pub elapsed: f32,
    pub duration: f32,
    pub scale: Vec3,
}

impl Vanish {
    pub fn new(scale: Vec3, duration: f32) -> Vanish {
        Vanish {
            elapsed: 0.0,
            duration: duration.max(1e-3),
            scale,
        }
    }
}

/// When the slide ends, the piece becomes this one.
#[derive(Component, Clone, Copy, Debug)]
pub struct Promote(pub hexchess_core::Piece);

/// A quick grow-back after a promotion.
#[derive(Component, Clone, Debug)]
pub struct Pop {
    pub elapsed: f32,
    pub duration: f32,
}

impl Pop {
    pub fn new(duration: f32) -> Pop {
        Pop {
            elapsed: 0.0,
            duration: duration.max(1e-3),
        }
    }
}

/// A red ring pulsing around a checked king.
#[derive(Component, Clone, Debug)]
pub struct CheckFlash {
    pub elapsed: f32,
    pub duration: f32,
}

impl CheckFlash {
    pub fn new(duration: f32) -> CheckFlash {
        CheckFlash {
            elapsed: 0.0,
            duration: duration.max(1e-3),
        }
    }
}

/// The systems that advance animations (after the pieces follow the game, so a move's
/// animation starts the frame it is played).
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Animate;

pub struct AnimationPlugin;

impl Plugin for AnimationPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            Update,
            (slide_pieces, vanish_captured, pop_promoted, flash_checks)
                .in_set(GameSet::View)
                .in_set(Animate),
        );
    }
}

/// Entities with an animation still running.
pub type Animated = Or<(With<Slide>, With<Vanish>, With<Pop>, With<CheckFlash>)>;

/// Whether any animation is still running (tests and the engine wait on this).
pub fn animating(world: &mut World) -> bool {
    let mut q = world.query_filtered::<(), Animated>();
    q.iter(world).next().is_some()
}

/// The most an animation advances in one frame. The first frame of an animation may
/// come after an idle wait (see `redraw`), and a slow frame should not make a piece
/// jump: animations then run a little longer instead.
const MAX_STEP: f32 = 0.05;

fn step(time: &Time) -> f32 {
    time.delta_secs().min(MAX_STEP)
}

#[allow(clippy::type_complexity)]
fn slide_pieces(
    mut commands: Commands,
    time: Res<Time>,
    game: Res<CurrentGame>,
    settings: Res<Settings>,
    assets: Res<PieceAssets>,
    mut moving: Query<(
        Entity,
        &mut Slide,
        &mut Transform,
        Option<&Promote>,
        Option<&mut PieceView>,
    )>,
) {
    for (e, mut slide, mut t, promote, view) in &mut moving {
        slide.elapsed += step(&time);
        let k = ease(slide.elapsed / slide.duration);
        let mut p = slide.from.lerp(slide.to, k);
        if slide.hop {
            p.y += (k * std::f32::consts::PI).sin() * 0.9;
        } else {
            // A small lift so pieces glide over the others.
            p.y += (k * std::f32::consts::PI).sin() * 0.12;
        }
        t.translation = p;
        if slide.elapsed >= slide.duration {
            t.translation = slide.to;
            commands.entity(e).remove::<Slide>();
            if let (Some(Promote(piece)), Some(mut view)) = (promote, view) {
                view.piece = *piece;
                let (mesh, material, rotation) =
                    piece_look(&assets, game.rules(), *piece, &settings);
                t.rotation = rotation;
                let speed = settings.animation_speed.max(0.05);
                commands.entity(e).remove::<Promote>().insert((
                    Mesh3d(mesh),
                    MeshMaterial3d(material),
                    Pop::new(0.3 / speed),
                ));
            }
        }
    }
}

fn vanish_captured(
    mut commands: Commands,
    time: Res<Time>,
    mut leaving: Query<(Entity, &mut Vanish, &mut Transform)>,
) {
    for (e, mut v, mut t) in &mut leaving {
        v.elapsed += step(&time);
        let k = ease(v.elapsed / v.duration);
        t.scale = v.scale * (1.0 - k).max(0.001);
        t.translation.y = -0.4 * k;
        if v.elapsed >= v.duration {
            commands.entity(e).despawn();
        }
    }
}

fn pop_promoted(
    mut commands: Commands,
    time: Res<Time>,
    mut popping: Query<(Entity, &mut Pop, &mut Transform)>,
) {
    for (e, mut pop, mut t) in &mut popping {
        pop.elapsed += step(&time);
        let k = (pop.elapsed / pop.duration).clamp(0.0, 1.0);
        // Shrink to half, then overshoot a little and settle.
        let s = if k < 0.4 {
            1.0 - 1.2 * k
        } else {
            0.52 + 0.48 * ease((k - 0.4) / 0.6) * 1.08
        };
        t.scale = Vec3::splat(s.min(1.04));
        if pop.elapsed >= pop.duration {
            t.scale = Vec3::ONE;
            commands.entity(e).remove::<Pop>();
        }
    }
}

fn flash_checks(
    mut commands: Commands,
    time: Res<Time>,
    game: Res<CurrentGame>,
    mut flashes: Query<(
        Entity,
        &mut CheckFlash,
        &mut Transform,
        Option<&MeshMaterial3d<Surface>>,
    )>,
    theme: Res<Theme>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<Surface>>,
) {
    let flat_top = game.rules().layout() == hexchess_core::Layout::FlatTop;
    let flash_colour = theme.highlights.check_flash;
    for (e, mut flash, mut t, material) in &mut flashes {
        let Some(material) = material else {
            // First frame: give the flash its ring.
            let ring = meshes.add(mesh::hex_ring(1.15, 0.9, flat_top).into_mesh());
            let m = materials.add(Surface::flat(flash_colour.into()));
            commands.entity(e).insert((Mesh3d(ring), MeshMaterial3d(m)));
            continue;
        };
        flash.elapsed += step(&time);
        let k = (flash.elapsed / flash.duration).clamp(0.0, 1.0);
        t.translation.y = 0.02;
        t.scale = Vec3::splat(1.0 + 0.35 * k);
        if let Some(mut m) = materials.get_mut(&material.0) {
            let pulse = (k * std::f32::consts::PI * 3.0).sin().abs();
            let c = flash_colour;
            m.colour = Color::srgba(c.0, c.1, c.2, (1.0 - k) * (0.4 + 0.6 * pulse));
        }
        if flash.elapsed >= flash.duration {
            commands.entity(e).despawn();
        }
    }
}
