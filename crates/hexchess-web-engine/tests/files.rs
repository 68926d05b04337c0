//! The worker's files: where files are a page store's (a browser's worker keeps what
//! the page hands it in memory), a variant file put there is found through
//! `VariantPath` and played, and tables built go there.

use std::path::Path;
use std::sync::{Arc, Mutex};

use hexchess_files::{Files, MemoryStore};
use hexchess_web_engine::{build_tables, web_engine};

#[test]
fn a_variant_file_handed_over_is_played_and_tables_go_to_the_store() {
    let files = Files::pages(MemoryStore::default());
    let lines = Arc::new(Mutex::new(Vec::<String>::new()));
    let sink = Arc::clone(&lines);
    let mut engine = web_engine(files.clone(), move |l| {
        sink.lock().unwrap().push(l.to_string())
    });
    let take = || std::mem::take(&mut *lines.lock().unwrap());

    // As the page hands a player's variant over: the file, then the folder.
    let glinski = include_str!("../../../variants/glinski.ron");
    let mine = glinski.replace("\"glinski\"", "\"my-hex\"");
    files
        .write_atomic(
            Path::new("/hexchess/data/variants/my-hex.ron"),
            mine.as_bytes(),
        )
        .unwrap();
    engine.handle("setoption name VariantPath value /hexchess/data/variants");
    engine.handle("setoption name UCI_Variant value my-hex");
    engine.handle("position startpos moves f5f6");
    engine.handle("go depth 2");
    engine.wait();
    let said = take();
    assert!(said.iter().all(|l| !l.contains("error")), "{said:?}");
    assert!(
        said.iter()
            .any(|l| l.starts_with("bestmove ") && l != "bestmove (none)"),
        "{said:?}"
    );
    // A folder with nothing in it is no error in a store (it lists empty), and a
    // file that is not a variant is named.
    files
        .write_atomic(Path::new("/hexchess/data/variants/bad.ron"), b"(")
        .unwrap();
    engine.handle("setoption name VariantPath value /hexchess/data/variants");
    let said = take();
    assert!(
        said.iter().any(|l| l.starts_with(
            "info string error: variant file left out: /hexchess/data/variants/bad.ron"
        )),
        "{said:?}"
    );

    // Tables built in the worker land in its store, where its searches find them.
    let dir = hexchess_tablebase::default_dir(&files).unwrap();
    assert_eq!(dir, Path::new("/hexchess/data/tables"));
    let mut made = Vec::new();
    build_tables(&engine, "glinski", "KRvK", &dir, &mut |_| {}, &mut |p| {
        made.push(p.to_path_buf())
    });
    assert!(made.contains(&dir.join("glinski/KRvK.htb")), "{made:?}");
    for path in &made {
        assert_eq!(files.stamp(path), Some(None), "{}", path.display());
    }
    engine.handle("setoption name UCI_Variant value glinski");
    engine.handle("position fen 6/1R5/8/6K2/10/k10/10/9/8/7/6 w - 0 1");
    engine.handle("go depth 3");
    engine.wait();
    let said = take();
    assert!(said.iter().all(|l| !l.contains("error")), "{said:?}");
    assert!(
        said.iter()
            .any(|l| l.contains("score mate") || l.contains("tbhits")),
        "the table is used: {said:?}"
    );
}

/// The worker's files are its own: nothing it is handed or builds reaches the disk.
#[test]
fn a_worker_s_files_stay_in_its_store() {
    let files = Files::pages(MemoryStore::default());
    let engine = web_engine(files.clone(), |_| {});
    let dir = hexchess_tablebase::default_dir(&files).unwrap();
    build_tables(&engine, "glinski", "KvK", &dir, &mut |_| {}, &mut |_| {});
    let table = dir.join("glinski/KvK.htb");
    assert_eq!(files.stamp(&table), Some(None));
    assert_eq!(Files::disk().stamp(&table), None, "not on the disk");
}
