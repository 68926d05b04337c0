//! Variant files while the game runs: every `*.ron` in the variants folders is watched
//! (by polling modification times, which needs no platform file-watcher), reloaded when
//! it changes, and its errors kept for the error panel. A broken file never stops the
//! game; a file that failed and is then fixed loads on its next save; a file deleted
//! takes its variants out of the menu (a built-in it replaced comes back).

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use bevy::prelude::*;
use hexchess_files::variants as variant_files;

use crate::PlayerFiles;
use crate::game::{CurrentGame, GameNotice, Variants};

/// The folders to watch and how often.
#[derive(Resource, Clone, Debug)]
pub struct VariantFolders {
    pub dirs: Vec<PathBuf>,
    pub every: Duration,
}

impl FromWorld for VariantFolders {
    /// The usual folders of the player's files ([`variant_files::default_dirs`]).
    fn from_world(world: &mut World) -> Self {
        let files = world.resource::<PlayerFiles>();
        VariantFolders {
            dirs: variant_files::default_dirs(files),
            every: Duration::from_millis(700),
        }
    }
}

/// A variant file changed (or appeared, or was fixed).
#[derive(Message, Clone, Debug)]
pub struct VariantFileChanged {
    pub path: PathBuf,
    /// The variant's id, when the file loaded.
    pub id: Option<String>,
}

/// The variant of the game in progress was reloaded: the interface offers a restart.
#[derive(Resource, Clone, Debug, Default)]
pub struct RestartOffer(pub Option<String>);

/// Modification times seen so far.
#[derive(Resource, Default)]
struct Seen {
    times: HashMap<PathBuf, SystemTime>,
    since_poll: Duration,
    primed: bool,
}

pub struct VariantsPlugin;

impl Plugin for VariantsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<VariantFolders>()
            .init_resource::<Seen>()
            .init_resource::<RestartOffer>()
            .add_message::<VariantFileChanged>()
            .add_systems(Update, (poll_variant_files, offer_restart).chain());
    }
}

/// Every `*.ron` file of the folders with its modification time.
fn scan(folders: &VariantFolders) -> HashMap<PathBuf, SystemTime> {
    let mut out = HashMap::new();
    for dir in &folders.dirs {
        let Ok(read) = std::fs::read_dir(dir) else {
            continue;
        };
        for entry in read.flatten() {
            let path = entry.path();
            if path.extension().is_some_and(|x| x == "ron")
                && let Ok(meta) = entry.metadata()
                && let Ok(modified) = meta.modified()
            {
                out.insert(path, modified);
            }
        }
    }
    out
}

fn poll_variant_files(
    time: Res<Time<Real>>,
    folders: Res<VariantFolders>,
    player: Res<PlayerFiles>,
    mut seen: ResMut<Seen>,
    mut variants: ResMut<Variants>,
    mut changed: MessageWriter<VariantFileChanged>,
    mut notices: MessageWriter<GameNotice>,
) {
    seen.since_poll += time.delta();
    if seen.primed && seen.since_poll < folders.every {
        return;
    }
    seen.since_poll = Duration::ZERO;
    let now = scan(&folders);
    if !seen.primed {
        // The catalog was loaded at start; only later changes reload.
        seen.times = now;
        seen.primed = true;
        return;
    }
    let mut paths: Vec<&PathBuf> = now
        .iter()
        .filter(|(p, t)| seen.times.get(*p) != Some(*t))
        .map(|(p, _)| p)
        .collect();
    paths.sort();
    for path in paths {
        match variant_files::load_file(&player, &mut variants.0, path) {
            Ok(entry) if entry.side_count() > 2 => {
                notices.write(GameNotice(format!(
                    "loaded {} (a game of more than two sides)",
                    path.display()
                )));
                info!(
                    "variant file {} loaded: a game of more sides",
                    path.display()
                );
            }
            Ok(entry) => {
                let id = entry.id().to_string();
                notices.write(GameNotice(format!(
                    "loaded {} ({})",
                    path.display(),
                    entry.name()
                )));
                info!("variant file {} loaded as '{id}'", path.display());
                changed.write(VariantFileChanged {
                    path: path.clone(),
                    id: Some(id),
                });
            }
            Err(e) => {
                warn!("{e}");
                notices.write(GameNotice(format!(
                    "{} has problems: see the variant errors",
                    path.display()
                )));
                changed.write(VariantFileChanged {
                    path: path.clone(),
                    id: None,
                });
            }
        }
    }
    forget_deleted_files(&seen.times, &now, &mut variants, &mut changed, &mut notices);
    seen.times = now;
}

/// The files seen before and gone now: their variants leave the catalog, and a game
/// in progress of one of them keeps its rules until it ends.
fn forget_deleted_files(
    before: &HashMap<PathBuf, SystemTime>,
    now: &HashMap<PathBuf, SystemTime>,
    variants: &mut Variants,
    changed: &mut MessageWriter<VariantFileChanged>,
    notices: &mut MessageWriter<GameNotice>,
) {
    let mut gone: Vec<&PathBuf> = before.keys().filter(|p| !now.contains_key(*p)).collect();
    gone.sort();
    for path in gone {
        let ids = variants.0.forget_file(path);
        info!("variant file {} deleted: {ids:?} forgotten", path.display());
        notices.write(GameNotice(if ids.is_empty() {
            format!("{} deleted", path.display())
        } else {
            format!("{} deleted: {} removed", path.display(), ids.join(", "))
        }));
        for id in ids {
            // A built-in the file replaced is back: the game of it may restart.
            let back = variants.0.get(&id).map(|e| e.id().to_string());
            changed.write(VariantFileChanged {
                path: path.clone(),
                id: back,
            });
        }
    }
}

/// When the current game's variant was reloaded, offer to restart it with the new rules.
fn offer_restart(
    mut changes: MessageReader<VariantFileChanged>,
    game: Res<CurrentGame>,
    mut offer: ResMut<RestartOffer>,
) {
    for c in changes.read() {
        if c.id.as_deref() == Some(game.rules().id()) {
            offer.0 = c.id.clone();
        }
    }
}
