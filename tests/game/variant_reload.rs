//! Editing a variant file while the game runs reloads it (a temporary folder stands in
//! for `variants/`).

use crate::common;

use std::path::Path;
use std::time::Duration;

use bevy::prelude::*;
use hexchess::game::variants::{RestartOffer, VariantFolders};
use hexchess::game::{CurrentGame, NewGameRequest, Variants};
use hexchess::look::Settings;
use hexchess::play::{Seats, Session};

const GLINSKI: &str = include_str!("../../variants/glinski.ron");

fn mod_text(name: &str) -> String {
    GLINSKI
        .replace("id: \"glinski\"", "id: \"mine\"")
        .replace("name: \"Gliński\"", &format!("name: \"{name}\""))
}

fn app(dir: &Path) -> App {
    let session = Session {
        seats: Seats::people(),
        ..Session::default()
    };
    let mut app = common::headless_app("glinski", None, Settings::default(), session, None);
    app.insert_resource(VariantFolders {
        dirs: vec![dir.to_path_buf()],
        every: Duration::ZERO,
    });
    app.update();
    app
}

/// Writes a file so that its modification time surely changes, then runs a few frames.
fn write_and_run(app: &mut App, path: &Path, text: &str) {
    std::thread::sleep(Duration::from_millis(30));
    std::fs::write(path, text).unwrap();
    for _ in 0..3 {
        app.update();
    }
}

fn name_of(app: &App, id: &str) -> Option<String> {
    app.world()
        .resource::<Variants>()
        .0
        .get(id)
        .map(|e| e.name().to_string())
}

#[test]
fn editing_a_variant_file_reloads_it() {
    let dir = std::env::temp_dir().join(format!("hexchess-reload-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("mine.ron");
    let mut app = app(&dir);
    assert_eq!(name_of(&app, "mine"), None);

    // A new file appears in the menu.
    write_and_run(&mut app, &path, &mod_text("Mine"));
    assert_eq!(name_of(&app, "mine").as_deref(), Some("Mine"));

    // Playing it, then editing it: the next game uses the new file, and a restart is
    // offered.
    app.world_mut().write_message(NewGameRequest {
        variant: Some("mine".into()),
        fen: None,
        moves: Vec::new(),
    });
    app.update();
    assert_eq!(app.world().resource::<CurrentGame>().rules().id(), "mine");
    write_and_run(&mut app, &path, &mod_text("Mine, edited"));
    assert_eq!(name_of(&app, "mine").as_deref(), Some("Mine, edited"));
    assert_eq!(
        app.world().resource::<RestartOffer>().0.as_deref(),
        Some("mine")
    );

    // A broken save: reported, and the last good version stays playable.
    write_and_run(
        &mut app,
        &path,
        &mod_text("Broken").replace("layout: FlatTop,", "layout: FlatTop"),
    );
    let errors: Vec<String> = app
        .world()
        .resource::<Variants>()
        .0
        .errors()
        .iter()
        .map(|e| e.to_string())
        .collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains("mine.ron:"), "{errors:?}");
    assert_eq!(name_of(&app, "mine").as_deref(), Some("Mine, edited"));

    // Fixed: it loads on its next save and the error goes away.
    write_and_run(&mut app, &path, &mod_text("Mine, fixed"));
    assert_eq!(name_of(&app, "mine").as_deref(), Some("Mine, fixed"));
    assert!(app.world().resource::<Variants>().0.errors().is_empty());

    // Deleted: it leaves the menu; the game in progress goes on with its rules.
    std::fs::remove_file(&path).unwrap();
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(name_of(&app, "mine"), None);
    assert_eq!(app.world().resource::<CurrentGame>().rules().id(), "mine");
    std::fs::remove_dir_all(&dir).ok();
}
