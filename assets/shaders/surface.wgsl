// The game's one surface shader: a colour, optionally times an image (SURFACE_IMAGE),
// either as it is or lit (SURFACE_LIT) by the scene's ambient and directional lights
// with a Blinn-Phong highlight, sampling shadow maps when RECEIVE_SHADOWS is set.
//
// Every choice is made when the pipeline is built, not by branching here: a software
// rasteriser (llvmpipe) runs both sides of a branch for every pixel, so code behind a
// branch that is never taken still costs its full price there.

#import bevy_pbr::{
    forward_io::VertexOutput,
    mesh_view_bindings::{view, lights},
}
#ifdef RECEIVE_SHADOWS
#import bevy_pbr::{
    mesh_view_types::DIRECTIONAL_LIGHT_FLAGS_SHADOWS_ENABLED_BIT,
    shadows,
}
#endif

struct Surface {
    colour: vec4<f32>,
    specular: f32,
    shininess: f32,
    rim: f32,
}

@group(#{MATERIAL_BIND_GROUP}) @binding(0) var<uniform> surface: Surface;
@group(#{MATERIAL_BIND_GROUP}) @binding(1) var image: texture_2d<f32>;
@group(#{MATERIAL_BIND_GROUP}) @binding(2) var image_sampler: sampler;

struct LightOnSurface {
    diffuse: vec3<f32>,
    highlight: vec3<f32>,
}

/// What directional light `index` gives the surface (nothing if the scene has fewer).
fn directional_light(index: u32, n: vec3<f32>, to_eye: vec3<f32>, in: VertexOutput) -> LightOnSurface {
    let to_light = lights.directional_lights[index].direction_to_light;
    let present = select(0.0, 1.0, index < lights.n_directional_lights);
    var light = lights.directional_lights[index].color.rgb * present;
#ifdef RECEIVE_SHADOWS
    if (lights.directional_lights[index].flags & DIRECTIONAL_LIGHT_FLAGS_SHADOWS_ENABLED_BIT) != 0u {
        let view_z = dot(vec4<f32>(
            view.view_from_world[0].z,
            view.view_from_world[1].z,
            view.view_from_world[2].z,
            view.view_from_world[3].z
        ), in.world_position);
        light *= shadows::fetch_directional_shadow(index, in.world_position, n, view_z, in.position.xy);
    }
#endif
    let half_way = normalize(to_light + to_eye);
    var out: LightOnSurface;
    out.diffuse = light * max(dot(n, to_light), 0.0);
    out.highlight = light * pow(max(dot(n, half_way), 0.0), surface.shininess);
    return out;
}

@fragment
fn fragment(in: VertexOutput) -> @location(0) vec4<f32> {
    var albedo = surface.colour;
#ifdef SURFACE_IMAGE
#ifdef VERTEX_UVS_A
    albedo *= textureSample(image, image_sampler, in.uv);
#endif
#endif

#ifdef SURFACE_LIT
    let n = normalize(in.world_normal);
    let to_eye = normalize(view.world_position - in.world_position.xyz);
    // The scene has a key light and a fill light (see `camera.rs`). They are taken one
    // by one with constant indices: a loop over the light array costs a software
    // rasteriser three times the rest of this shader.
    let key = directional_light(0u, n, to_eye, in);
    let fill = directional_light(1u, n, to_eye, in);
    let diffuse = lights.ambient_color.rgb + key.diffuse + fill.diffuse;
    let highlight = key.highlight + fill.highlight;
    // A rim: light along the outline, where the surface turns away from the eye, so that
    // a dark piece's shape shows against dark cells (in display units, after exposure).
    let edge = 1.0 - max(dot(n, to_eye), 0.0);
    let rim = surface.rim * edge * edge * edge;
    // Light values are physical (lux); the camera's exposure brings them to display range.
    albedo = vec4<f32>((albedo.rgb * diffuse + highlight * surface.specular) * view.exposure + vec3<f32>(rim), albedo.a);
#endif
    return albedo;
}
