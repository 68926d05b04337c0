//! How the board and pieces are shaded: one small material of our own.
//!
//! Bevy's `StandardMaterial` runs its full physically based shader for every pixel, even
//! when unlit. On a GPU that is free; on a software rasteriser (Mesa's llvmpipe under
//! Xvfb, machines without a GPU) it was measured at about 18 times the cost of a flat
//! colour and made frames several hundred milliseconds long. The game needs little:
//! a colour, sometimes an image, ambient light plus the scene's directional lights
//! (with their shadows where the renderer makes them) and a highlight.

use bevy::asset::uuid_handle;
use bevy::mesh::MeshVertexBufferLayoutRef;
use bevy::pbr::{MaterialPipeline, MaterialPipelineKey};
use bevy::prelude::*;
use bevy::render::render_resource::{
    AsBindGroup, RenderPipelineDescriptor, ShaderType, SpecializedMeshPipelineError,
};
use bevy::render::renderer::RenderAdapterInfo;

use crate::look::mesh;
use crate::machine::{Rasteriser, is_software_renderer};
use bevy::shader::{ShaderDefVal, ShaderRef};

/// Registers [`Surface`] with the renderer.
pub struct ShadingPlugin;

const SURFACE_SHADER: Handle<Shader> = uuid_handle!("5b0e3c1e-8f7a-4d2b-9c61-0a4f2e7d9b13");

impl Plugin for ShadingPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins(MaterialPlugin::<Surface>::default())
            .add_systems(Startup, warm_up_pipelines);
    }

    /// The renderer is known by now: software rasterisers get the shader without
    /// shadow sampling (and the lights cast none there, see `camera`).
    fn finish(&self, app: &mut App) {
        let software = app
            .world()
            .get_resource::<RenderAdapterInfo>()
            .is_some_and(is_software_renderer);
        app.insert_resource(if software {
            Rasteriser::Software
        } else {
            Rasteriser::Gpu
        });
        let defs: Vec<ShaderDefVal> = if software {
            Vec::new()
        } else {
            vec!["RECEIVE_SHADOWS".into()]
        };
        let shader = Shader::from_wgsl_with_defs(
            include_str!("../../assets/shaders/surface.wgsl"),
            "hexchess/shaders/surface.wgsl",
            defs,
        );
        if let Some(mut shaders) = app.world_mut().get_resource_mut::<Assets<Shader>>() {
            // The handle is a fixed id; inserting at it cannot fail.
            let _ = shaders.insert(&SURFACE_SHADER, shader);
        }
    }
}

/// Marks the hidden meshes that make the renderer build every kind of surface pipeline
/// at startup.
#[derive(Component)]
pub struct PipelineWarmUp;

/// Each kind of [`Surface`] needs its own render pipeline, built (on a software
/// rasteriser: compiled to machine code, tens of milliseconds of CPU) the first time
/// such a surface is drawn. Left to the game, that happens mid-game: the first move's
/// highlight, the first check, the first sprite. A few tiny meshes of every kind, far
/// below the board where no camera sees them, make it happen while the game loads.
fn warm_up_pipelines(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<Surface>>,
    mut images: ResMut<Assets<Image>>,
) {
    let plain = meshes.add(mesh::hex_ring(0.01, 0.0, true).into_mesh());
    let textured = meshes.add(Rectangle::new(0.01, 0.01));
    let image = images.add(Image::default());
    let kinds = [
        (plain.clone(), Surface::lit(Color::WHITE, 0.0, 1.0)),
        (plain.clone(), Surface::flat(Color::WHITE)),
        (plain, Surface::flat(Color::srgba(1.0, 1.0, 1.0, 0.5))),
        (textured, Surface::image(image)),
    ];
    for (mesh, surface) in kinds {
        commands.spawn((
            PipelineWarmUp,
            Mesh3d(mesh),
            MeshMaterial3d(materials.add(surface)),
            Transform::from_xyz(0.0, -50.0, 0.0),
        ));
    }
}

/// How a surface answers light.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Lighting {
    /// Drawn in its own colour whatever the light: the 2D view, overlays, sprites.
    Flat,
    /// Lit by the scene: `specular` scales the highlight, `shininess` narrows it, `rim`
    /// lights the outline (see [`crate::look::theme::Finish::rim`]).
    Lit {
        specular: f32,
        shininess: f32,
        rim: f32,
    },
}

/// The material of every board and piece mesh.
#[derive(Asset, TypePath, AsBindGroup, Clone, Debug)]
#[uniform(0, SurfaceUniform)]
#[bind_group_data(SurfaceKey)]
pub struct Surface {
    pub colour: Color,
    /// Multiplied into the colour, through the mesh's first UV set.
    #[texture(1)]
    #[sampler(2)]
    pub image: Option<Handle<Image>>,
    pub lighting: Lighting,
    /// Blend with what is behind (translucent overlays, sprites with transparent
    /// corners) rather than cover it.
    pub blend: bool,
}

impl Surface {
    /// A lit, opaque surface.
    pub fn lit(colour: Color, specular: f32, shininess: f32) -> Surface {
        Surface {
            colour,
            image: None,
            lighting: Lighting::Lit {
                specular,
                shininess,
                rim: 0.0,
            },
            blend: false,
        }
    }

    /// The same surface with its outline lit by `rim` (0 to 1; nothing if not lit).
    pub fn with_rim(mut self, rim: f32) -> Surface {
        if let Lighting::Lit { rim: r, .. } = &mut self.lighting {
            *r = rim.clamp(0.0, 1.0);
        }
        self
    }

    /// A surface in its own colour, blended when the colour is translucent.
    pub fn flat(colour: Color) -> Surface {
        Surface {
            colour,
            image: None,
            lighting: Lighting::Flat,
            blend: colour.alpha() < 1.0,
        }
    }

    /// An image in its own colours, blended over what is behind it.
    pub fn image(image: Handle<Image>) -> Surface {
        Surface {
            colour: Color::WHITE,
            image: Some(image),
            lighting: Lighting::Flat,
            blend: true,
        }
    }
}

impl Material for Surface {
    fn fragment_shader() -> ShaderRef {
        ShaderRef::Handle(SURFACE_SHADER)
    }

    fn specialize(
        _pipeline: &MaterialPipeline,
        descriptor: &mut RenderPipelineDescriptor,
        _layout: &MeshVertexBufferLayoutRef,
        key: MaterialPipelineKey<Self>,
    ) -> Result<(), SpecializedMeshPipelineError> {
        if let Some(fragment) = descriptor.fragment.as_mut() {
            if key.bind_group_data.lit {
                fragment.shader_defs.push("SURFACE_LIT".into());
            }
            if key.bind_group_data.image {
                fragment.shader_defs.push("SURFACE_IMAGE".into());
            }
        }
        Ok(())
    }

    fn alpha_mode(&self) -> AlphaMode {
        if self.blend {
            AlphaMode::Blend
        } else {
            AlphaMode::Opaque
        }
    }
}

/// What selects a [`Surface`]'s shader variant: one pipeline per combination.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SurfaceKey {
    lit: bool,
    image: bool,
}

impl From<&Surface> for SurfaceKey {
    fn from(s: &Surface) -> SurfaceKey {
        SurfaceKey {
            lit: matches!(s.lighting, Lighting::Lit { .. }),
            image: s.image.is_some(),
        }
    }
}

/// The uniform block of `surface.wgsl`.
#[derive(Clone, Copy, Debug, ShaderType)]
pub struct SurfaceUniform {
    colour: Vec4,
    specular: f32,
    shininess: f32,
    rim: f32,
}

impl From<&Surface> for SurfaceUniform {
    fn from(s: &Surface) -> SurfaceUniform {
        let (specular, shininess, rim) = match s.lighting {
            Lighting::Flat => (0.0, 1.0, 0.0),
            Lighting::Lit {
                specular,
                shininess,
                rim,
            } => (specular, shininess.max(1.0), rim),
        };
        SurfaceUniform {
            colour: s.colour.to_linear().to_vec4(),
            specular,
            shininess,
            rim,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shader_variant_follows_the_surface() {
        let lit = Surface::lit(Color::WHITE, 0.3, 40.0);
        assert_eq!(
            SurfaceKey::from(&lit),
            SurfaceKey {
                lit: true,
                image: false
            }
        );
        assert_eq!(SurfaceUniform::from(&lit).shininess, 40.0);
        let flat = Surface::flat(Color::srgba(1.0, 0.0, 0.0, 0.5));
        assert_eq!(
            SurfaceKey::from(&flat),
            SurfaceKey {
                lit: false,
                image: false
            }
        );
        assert_eq!(SurfaceUniform::from(&flat).colour.w, 0.5);
        let sprite = Surface::image(Handle::default());
        assert_eq!(
            SurfaceKey::from(&sprite),
            SurfaceKey {
                lit: false,
                image: true
            }
        );
    }

    #[test]
    fn a_rim_reaches_the_shader_only_on_lit_surfaces() {
        let rimmed = SurfaceUniform::from(&Surface::lit(Color::BLACK, 0.5, 48.0).with_rim(0.4));
        assert_eq!(rimmed.rim, 0.4);
        let clamped = SurfaceUniform::from(&Surface::lit(Color::BLACK, 0.5, 48.0).with_rim(7.0));
        assert_eq!(clamped.rim, 1.0);
        let flat = SurfaceUniform::from(&Surface::flat(Color::BLACK).with_rim(0.4));
        assert_eq!(flat.rim, 0.0);
    }

    #[test]
    fn only_translucent_or_image_surfaces_blend() {
        assert_eq!(Surface::flat(Color::BLACK).alpha_mode(), AlphaMode::Opaque);
        assert_eq!(
            Surface::flat(Color::srgba(0.0, 0.0, 0.0, 0.5)).alpha_mode(),
            AlphaMode::Blend
        );
        assert_eq!(
            Surface::image(Handle::default()).alpha_mode(),
            AlphaMode::Blend
        );
        assert_eq!(
            Surface::lit(Color::WHITE, 0.0, 1.0).alpha_mode(),
            AlphaMode::Opaque
        );
    }
}
