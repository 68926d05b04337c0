//! What the game learns about the machine it runs on, and how it adapts: how many cores
//! it may use, whether pixels are shaded by a GPU or on the CPU, and how the frame's
//! systems share the cores.
//!
//! Bevy hands a frame's systems to a pool of threads. On a machine with two cores that
//! buys nothing: the render thread, the software rasteriser (where there is no GPU)
//! and the engine's search already want both cores, and handing each of the frame's
//! small systems to another thread costs a wake-up per hand-over. Measured in paired
//! engine-vs-engine games under Xvfb on two cores, running them one after another on
//! the main thread cut the time a frame spends in systems from typically 7-10 ms to
//! 2-5 ms.

use bevy::ecs::schedule::{Schedules, SingleThreadedExecutor};
use bevy::prelude::*;
use bevy::render::renderer::RenderAdapterInfo;

/// Where pixels are shaded, known once the renderer has started: the scene is built
/// lighter (coarser models, no shadows or multisampling) when it is the CPU.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Rasteriser {
    #[default]
    Gpu,
    Software,
}

/// Whether pixels are shaded on the CPU (Mesa's llvmpipe, WARP, SwiftShader).
pub fn is_software_renderer(info: &RenderAdapterInfo) -> bool {
    // wgpu's `DeviceType` is not re-exported by Bevy; its Debug name is stable.
    format!("{:?}", info.device_type) == "Cpu"
}

/// The cores this process may use (one when the system cannot tell).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Whether a machine with `cores` cores should run each frame's systems on one thread.
pub fn systems_on_one_thread(cores: usize) -> bool {
    cores <= 2
}

/// Runs every schedule the app has so far one system at a time on the thread that runs
/// the schedule. Call it once the plugins are added: schedules made later keep Bevy's
/// default executor.
pub fn run_systems_on_one_thread(app: &mut App) {
    let mut schedules = app.world_mut().resource_mut::<Schedules>();
    for (_, schedule) in schedules.iter_mut() {
        schedule.set_executor(SingleThreadedExecutor::new());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::thread::ThreadId;

    #[derive(Resource, Default)]
    struct Ran(Vec<ThreadId>);

    fn note_thread(mut ran: ResMut<Ran>) {
        ran.0.push(std::thread::current().id());
    }

    fn read_only_a(_: Query<&Transform>) {}
    fn read_only_b(_: Query<&Name>) {}

    #[test]
    fn every_system_runs_on_the_thread_that_updates_the_app() {
        let mut app = App::new();
        app.add_plugins(TaskPoolPlugin::default())
            .init_resource::<Ran>()
            .add_systems(
                Update,
                (
                    note_thread,
                    read_only_a,
                    read_only_b,
                    note_thread.after(read_only_a),
                ),
            )
            .add_systems(PostUpdate, note_thread);
        run_systems_on_one_thread(&mut app);
        for _ in 0..20 {
            app.update();
        }
        let ran = &app.world().resource::<Ran>().0;
        assert_eq!(ran.len(), 60);
        let here = std::thread::current().id();
        assert!(ran.iter().all(|id| *id == here));
    }

    #[test]
    fn only_machines_of_two_cores_or_fewer_give_up_the_thread_pool() {
        assert!(systems_on_one_thread(1));
        assert!(systems_on_one_thread(2));
        assert!(!systems_on_one_thread(4));
    }
}
