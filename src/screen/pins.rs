//! Places text pinned to the board ([`ScreenPin`]) where the camera shows its point,
//! after transforms are final for the frame; a pin whose entity is gone goes too.

use bevy::prelude::*;

use super::camera::BoardCamera;
use crate::look::ScreenPin;
use crate::pieces::animation::Vanish;

pub(super) fn place_pins(
    mut commands: Commands,
    camera: Query<(&Camera, &GlobalTransform), With<BoardCamera>>,
    // A captured piece's letter goes as soon as the piece starts to vanish.
    anchors: Query<&GlobalTransform, Without<Vanish>>,
    mut pins: Query<(
        Entity,
        &ScreenPin,
        &mut Node,
        &mut Visibility,
        &ComputedNode,
    )>,
) {
    let camera = camera.single().ok();
    for (e, pin, mut node, mut vis, computed) in &mut pins {
        let world = match *pin {
            ScreenPin::Point(p) => p,
            ScreenPin::Above { entity, lift } => match anchors.get(entity) {
                Ok(at) => at.translation() + Vec3::Y * lift,
                Err(_) => {
                    commands.entity(e).despawn();
                    continue;
                }
            },
        };
        let Some((camera, transform)) = camera else {
            continue;
        };
        match camera.world_to_viewport(transform, world) {
            Ok(p) => {
                let size = computed.size() * computed.inverse_scale_factor();
                node.left = Val::Px(p.x - size.x / 2.0);
                node.top = Val::Px(p.y - size.y / 2.0);
                *vis = Visibility::Inherited;
            }
            Err(_) => *vis = Visibility::Hidden,
        }
    }
}
