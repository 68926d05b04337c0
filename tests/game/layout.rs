//! The game's folders import one way: each uses only the folders listed before it in
//! `docs/layout.md` (machine, game, look, board, pieces, play, input, ui, screen,
//! dev),
//! so there is no import cycle and every folder can be read without those after it.
//!
//! Read from the source: every `crate::<folder>` path outside comments counts.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The folders, lowest first.
const LAYERS: [&str; 16] = [
    "machine", "web", "game", "look", "board", "pieces", "play", "input", "editor", "sound",
    "online", "confirm", "prefs", "ui", "screen", "dev",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src is readable").flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a file of `src/` belongs to (`lib` and `main` for the roots).
fn folder_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).expect("under src");
    let first = rel.components().next().expect("a path");
    first
        .as_os_str()
        .to_string_lossy()
        .trim_end_matches(".rs")
        .to_string()
}

/// The folders a file names as `crate::<folder>`, comments left out.
fn imports(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            out.insert(name);
        }
    }
    out
}

#[test]
fn every_folder_imports_only_folders_below_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut seen = BTreeSet::new();
    let mut upward = Vec::new();
    for file in &files {
        let folder = folder_of(&src, file);
        if folder == "lib" || folder == "main" {
            continue;
        }
        let rank = LAYERS
            .iter()
            .position(|l| *l == folder)
            .unwrap_or_else(|| panic!("{folder} is not in the layer list"));
        seen.insert(folder.clone());
        let text = std::fs::read_to_string(file).expect("readable");
        for target in imports(&text) {
            let Some(target_rank) = LAYERS.iter().position(|l| *l == target) else {
                continue;
            };
            if target_rank > rank {
                upward.push(format!("{} uses crate::{target}", file.display()));
            }
        }
    }
    assert!(
        upward.is_empty(),
        "imports against the layering:\n{upward:#?}"
    );
    let all: BTreeSet<String> = LAYERS.iter().map(|s| s.to_string()).collect();
    assert_eq!(seen, all, "every layer exists and nothing else");
}

#[test]
fn imports_are_read_from_code_not_comments() {
    let text = "use crate::board::Selection; // not crate::ui\n/// see crate::dev\nfn f() { crate::look::x(); }";
    let got: Vec<String> = imports(text).into_iter().collect();
    // Doc comments start with `//` too, so they are skipped like plain comments.
    assert_eq!(got, ["board", "look"]);
}

/// One crate of docs/layout.md's picture: its layer and the crates it says it uses.
struct Drawn {
    layer: usize,
    name: String,
    uses: BTreeSet<String>,
}

/// The picture of the crates in docs/layout.md: the lines of its first code block that
/// name a `hexchess` crate, each after an optional `layer N`.
fn drawn_crates(doc: &str) -> Vec<Drawn> {
    let block = doc
        .split("```")
        .nth(1)
        .expect("docs/layout.md has the crates' picture in a code block");
    let mut layer = usize::MAX;
    let mut out = Vec::new();
    for line in block.lines() {
        let mut words = line.split_whitespace().peekable();
        if words.peek() == Some(&"layer") {
            words.next();
            layer = words.next().and_then(|n| n.parse().ok()).expect("layer N");
        }
        let Some(name) = words.next().filter(|w| w.starts_with("hexchess")) else {
            continue;
        };
        let uses = match words.next() {
            Some("->") => words.map(str::to_string).collect(),
            _ => BTreeSet::new(),
        };
        out.push(Drawn {
            layer,
            name: name.to_string(),
            uses,
        });
    }
    out
}

/// The workspace crates a `Cargo.toml` uses outside its tests: the `hexchess` names
/// under `[dependencies]`.
fn used_crates(manifest: &str) -> BTreeSet<String> {
    let mut section = "";
    let mut out = BTreeSet::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line;
            continue;
        }
        let name = line.split(['=', ' ', '.']).next().unwrap_or("");
        if section == "[dependencies]" && name.starts_with("hexchess") {
            out.insert(name.to_string());
        }
    }
    out
}

#[test]
fn the_crates_picture_is_what_the_manifests_say() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("docs/layout.md")).expect("docs/layout.md");
    let drawn = drawn_crates(&doc);
    let mut manifests = vec![("hexchess".to_string(), root.join("Cargo.toml"))];
    for entry in std::fs::read_dir(root.join("crates"))
        .expect("crates/")
        .flatten()
    {
        let name = entry.file_name().to_string_lossy().to_string();
        manifests.push((name, entry.path().join("Cargo.toml")));
    }
    for (name, manifest) in &manifests {
        let text = std::fs::read_to_string(manifest).expect("a manifest");
        let d = drawn
            .iter()
            .find(|d| d.name == *name)
            .unwrap_or_else(|| panic!("{name} is not in docs/layout.md's picture"));
        assert_eq!(
            d.uses,
            used_crates(&text),
            "{name}: the picture says otherwise"
        );
        for used in &d.uses {
            let below = drawn.iter().find(|u| u.name == *used).expect("drawn");
            assert!(
                below.layer < d.layer,
                "{name} (layer {}) uses {used} (layer {}): not above it",
                d.layer,
                below.layer
            );
        }
    }
    assert_eq!(
        drawn.len(),
        manifests.len(),
        "a crate drawn that is not in the workspace"
    );
}

/// `game/` is the one writer of `CurrentGame`: every other folder asks it through a
/// request (a step, a new game, a whole game in place of the one there ...).
#[test]
fn only_the_game_folder_changes_the_current_game() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let writers: Vec<String> = files
        .iter()
        .filter(|f| folder_of(&src, f) != "game")
        .filter(|f| {
            let text = std::fs::read_to_string(f).expect("readable");
            text.lines().any(|line| {
                let code = line.split("//").next().unwrap_or("");
                let squeezed: String = code.split_whitespace().collect();
                squeezed.contains("ResMut<CurrentGame>")
                    || squeezed.contains("ResMut<'w,CurrentGame>")
            })
        })
        .map(|f| f.display().to_string())
        .collect();
    assert!(
        writers.is_empty(),
        "CurrentGame changed outside game/: {writers:?}"
    );
}
