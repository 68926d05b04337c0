//! Variant files read through [`Files`]: a folder of them loads into the catalog, a
//! file that goes takes its variants with it, and a file that is not a file (a FIFO) or
//! starts with a byte order mark reads as a player expects.

use hexchess_core::variant::Variant;
use hexchess_files::{Files, variants};

const GLINSKI: &str = include_str!("../../../variants/glinski.ron");

/// A variant file deleted while a program runs: its variants leave the catalog, a
/// built-in it replaced comes back, and its errors go.
#[test]
fn a_deleted_file_takes_its_variants_and_errors_with_it() {
    use hexchess_core::catalog::{Catalog, VariantSource};
    let dir = std::env::temp_dir().join(format!("hexchess-forget-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let variants = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../variants");
    let read = |f: &str| std::fs::read_to_string(variants.join(f)).unwrap();
    let files = [
        (
            "copy.ron",
            read("glinski.ron").replacen("id: \"glinski\"", "id: \"glinski-copy\"", 1),
        ),
        (
            "mccooey.ron",
            read("mccooey.ron").replacen("name: \"", "name: \"My ", 1),
        ),
        (
            "three.ron",
            read("hexachess-3.ron").replacen("id: \"hexachess-3\"", "id: \"three-copy\"", 1),
        ),
        ("broken.ron", "(id: \"broken\", name: 7)".to_string()),
    ];
    for (name, text) in &files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let mut catalog = Catalog::builtin();
    let builtin_name = catalog.get("mccooey").unwrap().name().to_string();
    variants::load_dir(&Files::disk(), &mut catalog, &dir);
    assert!(catalog.get("glinski-copy").is_some());
    assert_eq!(catalog.get("three-copy").map(|e| e.side_count()), Some(3));
    assert!(catalog.get("mccooey").unwrap().name().starts_with("My "));
    assert_eq!(catalog.errors().len(), 1);

    let mut gone = Vec::new();
    for (name, _) in &files {
        let path = dir.join(name);
        std::fs::remove_file(&path).unwrap();
        gone.extend(catalog.forget_file(&path));
    }
    gone.sort();
    assert_eq!(gone, ["glinski-copy", "mccooey", "three-copy"]);
    assert!(catalog.get("glinski-copy").is_none());
    assert!(catalog.get("three-copy").is_none());
    let mccooey = catalog.get("mccooey").unwrap();
    assert_eq!(mccooey.name(), builtin_name);
    assert_eq!(mccooey.source, VariantSource::Builtin);
    assert!(catalog.errors().is_empty(), "{:?}", catalog.errors());
    assert_eq!(
        catalog.ids(),
        Catalog::builtin().ids(),
        "the menu's order is kept"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A FIFO named like a variant file, in a folder of them or named directly, is refused
/// at once: opening it would wait for a writer that never comes.
#[cfg(unix)]
#[test]
fn a_fifo_named_like_a_variant_file_is_refused_not_waited_on() {
    use hexchess_core::catalog::Catalog;
    use std::sync::mpsc::channel;
    use std::time::Duration;
    let dir = std::env::temp_dir().join(format!("hexchess-fifo-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("x.ron");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    let (send, receive) = channel();
    let (d, f) = (dir.clone(), fifo.clone());
    std::thread::spawn(move || {
        let mut catalog = Catalog::builtin();
        variants::load_dir(&Files::disk(), &mut catalog, &d);
        let errors: Vec<String> = catalog.errors().iter().map(|e| e.to_string()).collect();
        let direct = variants::read_spec(&Files::disk(), &f).map(|_| ());
        let _ = send.send((errors, direct));
    });
    let (errors, direct) = receive
        .recv_timeout(Duration::from_secs(10))
        .expect("loading did not block on the FIFO");
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].contains("x.ron") && errors[0].contains("FIFO"),
        "{errors:?}"
    );
    let e = direct.unwrap_err();
    assert!(e.to_string().contains("FIFO"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 62: a file saved by Windows Notepad starts with a byte order mark; read from
/// files, as the game and the engine read them, a variant of its own loads, and a copy
/// of a built-in stays the built-in (as a copy without the mark does).
#[test]
fn a_variant_file_with_a_byte_order_mark_loads_as_without_it() {
    use hexchess_core::catalog::{Catalog, VariantSource};
    let dir = std::env::temp_dir().join(format!("hexchess-bom-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let own = GLINSKI.replacen("id: \"glinski\"", "id: \"glinski-notepad\"", 1);
    std::fs::write(dir.join("own.ron"), format!("\u{feff}{own}")).unwrap();
    std::fs::write(dir.join("glinski.ron"), format!("\u{feff}{GLINSKI}")).unwrap();
    let spec =
        variants::read_spec(&Files::disk(), &dir.join("own.ron")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(spec.id(), "glinski-notepad");
    let mut catalog = Catalog::builtin();
    variants::load_dir(&Files::disk(), &mut catalog, &dir);
    assert!(catalog.errors().is_empty(), "{:?}", catalog.errors());
    assert!(catalog.get("glinski-notepad").is_some());
    assert_eq!(
        catalog.get("glinski").unwrap().source,
        VariantSource::Builtin
    );
    let _ = std::fs::remove_dir_all(&dir);
}
