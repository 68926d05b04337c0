//! Table files: what is written reads back the same, and a file from other rules, of
//! another variant, cut short, damaged or not a table at all is refused with the
//! reason, never read wrong and never a panic.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

mod common;

use hexchess_core::catalog::compile_two_player as compile;
use hexchess_core::variant::parse_variant;
use hexchess_core::{Catalog, Rules};
use hexchess_files::Files;
use hexchess_tablebase::{GenerateError, Material, Table, TableFileError, rules_fingerprint};

/// The tests' files are on the disk.
const DISK: Files = Files::disk();

fn rules(id: &str) -> Arc<Rules> {
    Catalog::builtin()
        .get(id)
        .unwrap()
        .two_player_rules()
        .unwrap()
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hexchess-tb-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn krk(rules: &Arc<Rules>) -> Table {
    Table::generate(rules, &Material::parse("KRvK", rules).unwrap()).unwrap()
}

#[test]
fn a_written_table_reads_back_with_every_value() {
    let rules = rules("glinski");
    let table = krk(&rules);
    let path = temp("krk.htb");
    table.write(&DISK, &path).unwrap();
    let read = Table::read(&DISK, &path, &rules).unwrap();
    assert_eq!(read.material(), table.material());
    assert!(read.values().eq(table.values()));
    assert_eq!(read.counts(), table.counts());
}

#[test]
fn tables_of_other_rules_or_variants_are_refused() {
    let glinski = rules("glinski");
    let bytes = krk(&glinski).to_bytes();
    let path = Path::new("krk.htb");
    // Another variant with the same board and pieces but other pawns and setup.
    let e = Table::from_bytes(&bytes, path, &rules("mccooey")).unwrap_err();
    assert!(matches!(e, TableFileError::OtherVariant { .. }), "{e}");
    // The same id, but the rook now moves only three cells: other rules.
    let text = r#"(
        format_version: 1, id: "glinski", name: "Gliński, short rooks",
        board: (shape: Hexagon(5), layout: FlatTop),
        pieces: [
            (letter: 'K', name: "King", royal: true, moves: [Step(Orthogonal), Step(Diagonal)]),
            (letter: 'R', name: "Rook", moves: [SlideUpTo(Orthogonal, 3)]),
        ],
        setup: Pieces(white: [('K', ["g1"]), ('R', ["c1"])]),
    )"#;
    let changed = parse_variant(text, "glinski.ron")
        .map(|spec| compile(spec, "glinski.ron").unwrap())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_ne!(rules_fingerprint(&changed), rules_fingerprint(&glinski));
    let e = Table::from_bytes(&bytes, path, &changed).unwrap_err();
    assert!(matches!(e, TableFileError::OtherRules { .. }), "{e}");
    assert!(e.to_string().contains("build it again"), "{e}");
    // Pawn rules count too: Mini Hexchess without its pawns' double step.
    let mini_text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../variants/mini.ron"),
    )
    .unwrap();
    let mini = parse_variant(&mini_text, "mini.ron")
        .map(|spec| compile(spec, "mini.ron").unwrap())
        .unwrap_or_else(|e| panic!("{e}"));
    let single = mini_text.replace("double_step: FromStartCells,", "");
    assert_ne!(
        single, mini_text,
        "the file still has a double step to take away"
    );
    let single = parse_variant(&single, "mini.ron")
        .map(|spec| compile(spec, "mini.ron").unwrap())
        .unwrap_or_else(|e| panic!("{e}"));
    let kpk = Table::generate(&mini, &Material::parse("KPvK", &mini).unwrap()).unwrap();
    let e = Table::from_bytes(&kpk.to_bytes(), Path::new("kpk.htb"), &single).unwrap_err();
    assert!(matches!(e, TableFileError::OtherRules { .. }), "{e}");
}

#[test]
fn damaged_files_are_refused_with_the_reason() {
    let rules = rules("glinski");
    let bytes = krk(&rules).to_bytes();
    let path = Path::new("krk.htb");
    // Cut anywhere: the header or the values.
    for cut in [0, 5, 12, 30, bytes.len() / 2, bytes.len() - 1] {
        let e = Table::from_bytes(&bytes[..cut], path, &rules).unwrap_err();
        assert!(
            matches!(
                e,
                TableFileError::NotATable { .. } | TableFileError::Length { .. }
            ),
            "cut at {cut}: {e}"
        );
    }
    // One bit flipped in the values, or in the checksum.
    for at in [bytes.len() / 2, bytes.len() - 2] {
        let mut flipped = bytes.clone();
        flipped[at] ^= 0x10;
        let e = Table::from_bytes(&flipped, path, &rules).unwrap_err();
        assert!(matches!(e, TableFileError::Corrupt { .. }), "at {at}: {e}");
    }
    // Not a table; another format version.
    let e = Table::from_bytes(b"[Variant \"glinski\"]", path, &rules).unwrap_err();
    assert!(matches!(e, TableFileError::NotATable { .. }), "{e}");
    let mut newer = bytes.clone();
    newer[8] = 9;
    let e = Table::from_bytes(&newer, path, &rules).unwrap_err();
    assert!(e.to_string().contains("table format 9"), "{e}");
    // A missing file.
    let e = Table::read(&DISK, Path::new("/no/such/dir/krk.htb"), &rules).unwrap_err();
    assert!(matches!(e, TableFileError::Io { .. }), "{e}");
}

/// Garbage in, clear error out (docs/hardening.md): random damage to a small table's
/// file is refused with a reason, or (where it hit nothing checked) reads as a table.
#[test]
fn randomly_damaged_files_never_panic() {
    let rules = rules("glinski");
    let table = Table::generate(&rules, &Material::parse("KvK", &rules).unwrap()).unwrap();
    let bytes = table.to_bytes();
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let mut refused = 0;
    for _ in 0..300 {
        let mut damaged = bytes.clone();
        for _ in 0..1 + next(3) {
            match next(3) {
                0 => {
                    let at = next(damaged.len());
                    damaged[at] ^= 1 << next(8);
                }
                1 => damaged.truncate(next(damaged.len() + 1)),
                _ => {
                    let at = next(damaged.len() + 1);
                    damaged.insert(at, next(256) as u8);
                }
            }
            if damaged.is_empty() {
                break;
            }
        }
        match Table::from_bytes(&damaged, Path::new("kk.htb"), &rules) {
            Ok(t) => assert_eq!(t.len(), table.len()),
            Err(e) => {
                refused += 1;
                assert!(e.to_string().starts_with("kk.htb: "), "{e}");
            }
        }
    }
    assert!(refused > 250, "{refused}");
}

/// Runs `f` on a thread of its own and returns its result, or `None` if it has not
/// returned within `bound` (a hang then fails the test instead of blocking it).
fn within<T: Send + 'static>(
    bound: std::time::Duration,
    f: impl FnOnce() -> T + Send + 'static,
) -> Option<T> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(bound).ok()
}

/// A FIFO named like a table: opening it would wait for a writer, forever.
#[cfg(unix)]
#[test]
fn a_fifo_named_like_a_table_is_refused_not_waited_on() {
    let dir = temp("fifo");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("KRvK.htb");
    let _ = std::fs::remove_file(&path);
    let made = std::process::Command::new("mkfifo").arg(&path).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    let rules = rules("glinski");
    let (read_path, read_rules) = (path.clone(), Arc::clone(&rules));
    let read = within(std::time::Duration::from_secs(30), move || {
        Table::read(&DISK, &read_path, &read_rules).err()
    })
    .expect("the read returns at once");
    let e = read.expect("a FIFO is not a table");
    assert_eq!(
        e.to_string(),
        format!(
            "{}: a FIFO (named pipe), not a regular file",
            path.display()
        )
    );
    // Nor is a table written into it (nothing would read it).
    let kvk = Table::generate(&rules, &Material::parse("KvK", &rules).unwrap()).unwrap();
    let write_path = path.clone();
    let written = within(std::time::Duration::from_secs(30), move || {
        kvk.write(&DISK, &write_path).err()
    })
    .expect("the write returns at once");
    assert!(
        written.is_some_and(|e| e.to_string().contains("not a regular file")),
        "refused"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_table_is_written_whole_over_the_old_one_without_a_temporary_left() {
    let dir = temp("atomic");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("KRvK.htb");
    std::fs::write(&path, "an old, damaged table").unwrap();
    let rules = rules("glinski");
    let table = krk(&rules);
    table.write(&DISK, &path).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), table.to_bytes());
    let names: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(names.len(), 1, "only the table itself");
    // A folder in the table's place is refused, and left as it was.
    let folder = dir.join("KvK.htb");
    std::fs::create_dir_all(folder.join("inside")).unwrap();
    let kvk = Table::generate(&rules, &Material::parse("KvK", &rules).unwrap()).unwrap();
    let e = kvk.write(&DISK, &folder).unwrap_err();
    assert!(
        e.to_string().contains("a folder, not a regular file"),
        "{e}"
    );
    assert!(folder.join("inside").is_dir());
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        2,
        "no temporary left"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// A table written as it is built (its values, then the move rule's codes made in their
/// place: what keeps a five-man build within one byte a slot) is the very file of the
/// table built whole and written: with perpetual-check draws to split and a 12-ply rule
/// (K+R v K+N on 37 cells), and with pawns on both sides that take en passant (K+P v
/// K+P on 19 cells, its promotions).
/// A path it cannot write is refused, and no temporary file is left.
#[test]
fn a_table_written_as_it_is_built_is_the_table_built_whole() {
    let dir = temp("into");
    std::fs::create_dir_all(&dir).unwrap();
    let stop = AtomicBool::new(false);
    let cases = [
        (common::tiny(Some(12)), "KRvKN"),
        (common::pawns_both_sides(Some(16)), "KPvKP"),
    ];
    for (rules, name) in cases {
        let material = Material::parse(name, &rules).unwrap();
        let whole = Table::generate(&rules, &material).unwrap();
        assert!(
            whole.rule_plies().is_some(),
            "{name} keeps the rule's codes"
        );
        let path = dir.join(format!("{name}.htb"));
        let slots =
            Table::generate_into(&DISK, &rules, &material, &path, &mut |_| {}, &stop, 2).unwrap();
        assert_eq!(slots, whole.len());
        assert!(std::fs::read(&path).unwrap() == whole.to_bytes(), "{name}");
        let read = Table::read(&DISK, &path, &rules).unwrap();
        assert!(read.values().eq(whole.values()), "{name}");
    }
    let rules = rules("glinski");
    let folder = dir.join("KRvK.htb");
    std::fs::create_dir_all(&folder).unwrap();
    let material = Material::parse("KRvK", &rules).unwrap();
    let e =
        Table::generate_into(&DISK, &rules, &material, &folder, &mut |_| {}, &stop, 1).unwrap_err();
    assert!(matches!(e, GenerateError::File(_)), "{e}");
    assert!(
        e.to_string().contains("a folder, not a regular file"),
        "{e}"
    );
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        3,
        "no temporary left"
    );
    std::fs::remove_dir_all(&dir).ok();
}
