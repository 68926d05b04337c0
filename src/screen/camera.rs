//! The board camera: an orbiting perspective camera in 3D (drag with the right or
//! middle button, scroll to zoom, R to reset) and a top-down orthographic one in 2D.
//! Flipping turns either round so Black sits at the bottom.

use bevy::camera::visibility::RenderLayers;
use bevy::camera::{CameraOutputMode, ScalingMode};
use bevy::core_pipeline::tonemapping::Tonemapping;
use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll, MouseScrollUnit};
use bevy::prelude::*;
use bevy::render::render_resource::BlendState;
use bevy::render::renderer::RenderAdapterInfo;
use bevy::render::view::NoIndirectDrawing;

use crate::board::{SceneRebuilt, board_centre, board_radius};

use crate::game::{CurrentGame, GameSet};
use crate::input::PointerOverUi;
use crate::look::{Settings, Theme, View, ViewChanged};
use crate::machine::Rasteriser;
use crate::play::Session;
use crate::ui::UiInsets;

#[derive(Component)]
pub struct BoardCamera;

/// Where the camera looks from.
#[derive(Resource, Clone, Copy, Debug)]
pub struct Orbit {
    pub target: Vec3,
    /// Turn around the board (radians); 0 looks from White's side.
    pub yaw: f32,
    /// Angle above the board (radians).
    pub pitch: f32,
    pub distance: f32,
    /// Board radius, for fitting and zoom limits.
    pub fit: f32,
    /// 2D zoom: 1 fits the board.
    pub zoom: f32,
    /// The seat the board is turned to (radians; a game of more sides turns it to the
    /// player on move), added to `yaw` in 3D and turning the 2D view.
    pub turn: f32,
}

impl Orbit {
    /// About 49 degrees above the board: lower than the 57 it was, so that the pieces
    /// show their profiles (a pawn, a bishop and a queen looked alike from higher up),
    /// and nearer (2.45 board radii, from 2.7) so the board still fills the view.
    const DEFAULT_PITCH: f32 = 0.85;

    pub fn fitted(target: Vec3, radius: f32) -> Orbit {
        Orbit {
            target,
            yaw: 0.0,
            pitch: Orbit::DEFAULT_PITCH,
            distance: radius * 2.45,
            fit: radius,
            zoom: 1.0,
            turn: 0.0,
        }
    }
}

pub struct CameraPlugin;

impl Plugin for CameraPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(Orbit::fitted(Vec3::ZERO, 10.0))
            .add_systems(Startup, spawn_camera_and_lights)
            .add_systems(Update, (adapt_to_renderer, follow_theme))
            .add_systems(
                Update,
                (
                    fit_to_board,
                    turn_to_the_seat,
                    orbit_controls,
                    place_camera,
                    fit_viewport,
                )
                    .chain()
                    .in_set(GameSet::View),
            );
    }
}

/// The scene's key light (it casts the shadows).
#[derive(Component, Debug)]
struct KeyLight;

/// The scene's weaker fill light, from the other side.
#[derive(Component, Debug)]
struct FillLight;

/// A theme switched while the game runs: the lights, ambient light and background take
/// its values.
fn follow_theme(
    theme: Res<Theme>,
    mut key: Query<&mut DirectionalLight, (With<KeyLight>, Without<FillLight>)>,
    mut fill: Query<&mut DirectionalLight, (With<FillLight>, Without<KeyLight>)>,
    mut ambient: ResMut<GlobalAmbientLight>,
    mut clear: ResMut<ClearColor>,
) {
    if !theme.is_changed() || theme.is_added() {
        return;
    }
    let scene = &theme.scene;
    for mut light in &mut key {
        light.illuminance = scene.key_light;
    }
    for mut light in &mut fill {
        light.illuminance = scene.fill_light;
    }
    ambient.color = scene.ambient.into();
    ambient.brightness = scene.ambient_brightness;
    clear.0 = scene.background.into();
}

fn spawn_camera_and_lights(mut commands: Commands, theme: Res<Theme>) {
    let scene = &theme.scene;
    commands.spawn((
        BoardCamera,
        Camera3d::default(),
        Transform::default(),
        Msaa::Sample4,
        // `shading::Surface` writes display colours itself.
        Tonemapping::None,
        // The scene's lights are directional only: one light cluster is plenty.
        // (`ClusterConfig::None` makes Bevy 0.19 create a zero-sized texture and quit.)
        bevy::light::cluster::ClusterConfig::Single,
    ));
    // The interface gets its own camera over the whole window, drawn after the board:
    // the board's camera only draws where no panel covers it.
    commands.spawn((
        bevy_egui::PrimaryEguiContext,
        IsDefaultUiCamera,
        Camera2d,
        RenderLayers::none(),
        // It draws nothing but the interface: no multisampling, no tone mapping.
        Msaa::Off,
        Tonemapping::None,
        Camera {
            order: 1,
            output_mode: CameraOutputMode::Write {
                blend_state: Some(BlendState::ALPHA_BLENDING),
                clear_color: ClearColorConfig::None,
            },
            clear_color: ClearColorConfig::Custom(Color::NONE),
            ..default()
        },
    ));
    // A key light from the upper left that casts shadows where the renderer makes them,
    // a weaker fill from the other side, and ambient light (lux; the camera's default
    // exposure maps about 1000 lux to full brightness).
    commands.spawn((
        KeyLight,
        DirectionalLight {
            illuminance: scene.key_light,
            shadow_maps_enabled: true,
            ..default()
        },
        Transform::from_xyz(-6.0, 14.0, 8.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    commands.spawn((
        FillLight,
        DirectionalLight {
            illuminance: scene.fill_light,
            shadow_maps_enabled: false,
            ..default()
        },
        Transform::from_xyz(8.0, 10.0, -6.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    commands.insert_resource(GlobalAmbientLight {
        color: scene.ambient.into(),
        brightness: scene.ambient_brightness,
        affects_lightmapped_meshes: true,
    });
    commands.insert_resource(ClearColor(scene.background.into()));
}

/// Software rasterisers (Mesa's llvmpipe under Xvfb, machines without a GPU) pay for
/// every sample and every compute dispatch on the CPU; there the board is drawn without
/// multisampling and shadows (`look::shading` also drops them from the shader), and meshes are
/// culled and batched on the CPU rather than by GPU compute passes.
///
/// Without multisampling both cameras share one main texture (Bevy shares it between
/// cameras with the same target, format and sample count), so the interface is drawn
/// straight over the board's picture and copied to the window once, instead of each
/// camera clearing and copying a whole window of pixels: 8-20% shorter frames in paired
/// runs of `--mode engine-engine --report-frames` under Xvfb.
fn adapt_to_renderer(
    mut commands: Commands,
    rasteriser: Option<Res<Rasteriser>>,
    info: Option<Res<RenderAdapterInfo>>,
    mut done: Local<bool>,
    mut cameras: Query<(Entity, &mut Msaa, &mut Camera), With<BoardCamera>>,
    mut interface: Query<&mut Camera, (With<bevy_egui::PrimaryEguiContext>, Without<BoardCamera>)>,
    mut lights: Query<&mut DirectionalLight>,
) {
    if *done || rasteriser.as_deref() != Some(&Rasteriser::Software) {
        return;
    }
    *done = true;
    if let Some(info) = info {
        info!(
            "software renderer ({}): no multisampling or shadows, CPU culling",
            info.name
        );
    }
    for (camera, mut msaa, mut settings) in &mut cameras {
        *msaa = Msaa::Off;
        settings.output_mode = CameraOutputMode::Skip;
        commands.entity(camera).insert(NoIndirectDrawing);
    }
    for mut camera in &mut interface {
        camera.clear_color = ClearColorConfig::None;
        camera.output_mode = CameraOutputMode::Write {
            blend_state: None,
            clear_color: ClearColorConfig::None,
        };
    }
    for mut light in &mut lights {
        light.shadow_maps_enabled = false;
    }
}

/// A new board or view: aim at the board and fit it.
fn fit_to_board(
    mut scenes: MessageReader<SceneRebuilt>,
    mut views: MessageReader<ViewChanged>,
    game: Res<CurrentGame>,
    mut orbit: ResMut<Orbit>,
) {
    let scene = scenes.read().count() > 0;
    let view = views.read().count() > 0;
    if scene || view {
        let rules = game.rules();
        let fitted = Orbit::fitted(board_centre(rules), board_radius(rules));
        if scene {
            *orbit = fitted;
        } else {
            orbit.target = fitted.target;
            orbit.fit = fitted.fit;
        }
    }
}

/// A game of more sides: the board turns (smoothly) to the seat it faces; in 2D the
/// piece images turn with it, upright for that seat.
fn turn_to_the_seat(
    time: Res<Time>,
    settings: Res<Settings>,
    game: Res<CurrentGame>,
    session: Res<Session>,
    mut orbit: ResMut<Orbit>,
    mut pieces: Query<&mut Transform, With<crate::pieces::PieceView>>,
) {
    if !game.has_more_sides() {
        return;
    }
    let side = session.seats.facing(&game);
    let turn = game.rules().side_rotation_degrees(side).to_radians();
    let mut gap = (turn - orbit.turn).rem_euclid(std::f32::consts::TAU);
    if gap > std::f32::consts::PI {
        gap -= std::f32::consts::TAU;
    }
    if gap.abs() > 1e-3 {
        let step = (time.delta_secs() * 4.0).min(1.0);
        orbit.turn += if settings.animate { gap * step } else { gap };
    } else if orbit.turn != turn {
        orbit.turn = turn;
    }
    if settings.view == View::TwoD {
        let flip = if settings.flipped {
            std::f32::consts::PI
        } else {
            0.0
        };
        let upright = Quat::from_rotation_y(orbit.turn + flip);
        for mut t in &mut pieces {
            if t.rotation != upright {
                t.rotation = upright;
            }
        }
    }
}

fn orbit_controls(
    buttons: Option<Res<ButtonInput<MouseButton>>>,
    keys: Option<Res<ButtonInput<KeyCode>>>,
    motion: Option<Res<AccumulatedMouseMotion>>,
    scroll: Option<Res<AccumulatedMouseScroll>>,
    over_ui: Res<PointerOverUi>,
    settings: Res<Settings>,
    mut orbit: ResMut<Orbit>,
) {
    if let Some(keys) = &keys
        && keys.just_pressed(KeyCode::KeyR)
    {
        let turn = orbit.turn;
        *orbit = Orbit::fitted(orbit.target, orbit.fit);
        orbit.turn = turn;
    }
    if over_ui.0 {
        return;
    }
    if let (Some(buttons), Some(motion)) = (&buttons, &motion)
        && settings.view == View::ThreeD
        && (buttons.pressed(MouseButton::Right) || buttons.pressed(MouseButton::Middle))
        && motion.delta != Vec2::ZERO
    {
        orbit.yaw -= motion.delta.x * 0.006;
        orbit.pitch = (orbit.pitch + motion.delta.y * 0.005).clamp(0.2, 1.55);
    }
    if let Some(scroll) = &scroll
        && scroll.delta.y != 0.0
    {
        let lines = match scroll.unit {
            MouseScrollUnit::Line => scroll.delta.y,
            MouseScrollUnit::Pixel => scroll.delta.y / 40.0,
        };
        let factor = (1.0 - lines * 0.1).clamp(0.5, 1.5);
        match settings.view {
            View::ThreeD => {
                orbit.distance = (orbit.distance * factor).clamp(orbit.fit * 0.8, orbit.fit * 5.0)
            }
            View::TwoD => orbit.zoom = (orbit.zoom * factor).clamp(0.3, 2.5),
        }
    }
}

/// The camera draws only where no panel covers the window.
fn fit_viewport(
    insets: Option<Res<UiInsets>>,
    windows: Query<&Window>,
    mut camera: Query<&mut Camera, With<BoardCamera>>,
) {
    let (Some(insets), Ok(window), Ok(mut camera)) =
        (insets, windows.single(), camera.single_mut())
    else {
        return;
    };
    let scale = window.scale_factor();
    let w = window.physical_width();
    let h = window.physical_height();
    let top = (insets.top * scale) as u32;
    let bottom = (insets.bottom * scale) as u32;
    let right = (insets.right * scale) as u32;
    let size = UVec2::new(
        w.saturating_sub(right).max(1),
        h.saturating_sub(top + bottom).max(1),
    );
    let wanted = Some(bevy::camera::Viewport {
        physical_position: UVec2::new(0, top.min(h.saturating_sub(1))),
        physical_size: size,
        ..default()
    });
    let same = match (&camera.viewport, &wanted) {
        (Some(a), Some(b)) => {
            a.physical_position == b.physical_position && a.physical_size == b.physical_size
        }
        _ => false,
    };
    if !same {
        camera.viewport = wanted;
    }
}

fn place_camera(
    orbit: Res<Orbit>,
    settings: Res<Settings>,
    mut camera: Query<(&mut Transform, &mut Projection), With<BoardCamera>>,
) {
    if !orbit.is_changed() && !settings.is_changed() {
        return;
    }
    let Ok((mut t, mut projection)) = camera.single_mut() else {
        return;
    };
    let flip = if settings.flipped {
        std::f32::consts::PI
    } else {
        0.0
    };
    match settings.view {
        View::ThreeD => {
            let yaw = orbit.yaw + orbit.turn + flip;
            let offset = Quat::from_rotation_y(yaw)
                * Vec3::new(0.0, orbit.pitch.sin(), orbit.pitch.cos())
                * orbit.distance;
            // Aim a little in front of the centre: perspective makes the near edge
            // larger, and this keeps it in view.
            let aim = orbit.target + Quat::from_rotation_y(yaw) * Vec3::Z * orbit.fit * 0.16;
            *t = Transform::from_translation(aim + offset).looking_at(aim, Vec3::Y);
            if !matches!(*projection, Projection::Perspective(_)) {
                *projection = Projection::Perspective(PerspectiveProjection {
                    fov: 0.7,
                    ..default()
                });
            }
        }
        View::TwoD => {
            let up = Quat::from_rotation_y(orbit.turn + flip) * Vec3::NEG_Z;
            *t = Transform::from_translation(orbit.target + Vec3::Y * 40.0)
                .looking_at(orbit.target, up);
            let size = orbit.fit * 2.0 + 3.0;
            *projection = Projection::Orthographic(OrthographicProjection {
                scaling_mode: ScalingMode::AutoMin {
                    min_width: size,
                    min_height: size,
                },
                scale: orbit.zoom,
                ..OrthographicProjection::default_3d()
            });
        }
    }
}
