//! The page store: where there is no file system (a browser page), a program's
//! [`Files`] read and write through a `PageStore`, with the same results and errors as
//! files on a disk; and a store is a value, so files in one never leak into another or
//! onto the disk.

use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use hexchess_files::{FileError, Files, PAGE_CONFIG, PAGE_DATA, PageStore, variants};

#[derive(Default)]
struct Memory(Mutex<HashMap<String, Vec<u8>>>);

impl PageStore for Memory {
    fn get(&self, key: &str) -> Option<Vec<u8>> {
        self.0.lock().unwrap().get(key).cloned()
    }
    fn set(&self, key: &str, bytes: &[u8]) -> io::Result<()> {
        if key.ends_with("full.txt") {
            return Err(io::Error::other("quota exceeded"));
        }
        self.0
            .lock()
            .unwrap()
            .insert(key.to_string(), bytes.to_vec());
        Ok(())
    }
    fn remove(&self, key: &str) {
        self.0.lock().unwrap().remove(key);
    }
    fn keys(&self, prefix: &str) -> Vec<String> {
        let files = self.0.lock().unwrap();
        files
            .keys()
            .filter(|k| k.starts_with(prefix))
            .cloned()
            .collect()
    }
}

#[test]
fn files_go_to_the_page_store_with_the_same_checks() {
    let files = Files::pages(Memory::default());

    // The folders are the store's.
    let data = files.data_dir().unwrap();
    assert_eq!(data, PathBuf::from(PAGE_DATA));
    let config = files.config_dir().unwrap();
    assert_eq!(config, PathBuf::from(PAGE_CONFIG));

    let path = config.join("settings.ron");
    let missing = files.read_text(&path, 1000).unwrap_err();
    assert!(missing.is_not_found(), "{missing}");
    assert!(missing.to_string().contains("settings.ron"), "{missing}");

    files.write_atomic(&path, b"(view: TwoD)\n").unwrap();
    assert_eq!(files.read_text(&path, 1000).unwrap(), "(view: TwoD)\n");
    files.check_regular(&path).unwrap();
    // The size limit and UTF-8 check are the files' own.
    assert!(matches!(
        files.read_bytes(&path, 4),
        Err(FileError::TooLarge { limit: 4, .. })
    ));
    files.write_atomic(&path, b"ok\n\xff").unwrap();
    let bad = files.read_text(&path, 1000).unwrap_err();
    assert!(
        matches!(
            bad,
            FileError::NotUtf8 {
                line: 2,
                column: 1,
                ..
            }
        ),
        "{bad}"
    );
    // Kept aside, as a refused file is.
    let aside = files.copy_aside(&path).unwrap();
    assert_eq!(aside, config.join("settings.ron.bad"));
    assert_eq!(files.read_bytes(&aside, 100).unwrap(), b"ok\n\xff");
    // A store that refuses a write says so; the old content stays.
    let full = Path::new("/hexchess/data/full.txt");
    assert!(files.write_atomic(full, b"x").is_err());
    assert!(files.read_bytes(full, 10).unwrap_err().is_not_found());
    // Removed, and removing again is no error.
    files.remove(&path).unwrap();
    files.remove(&path).unwrap();
    assert!(files.read_text(&path, 1000).unwrap_err().is_not_found());

    // A folder's listing: its own files only, in name order; the catalog loads the
    // variant files of a folder in the store as it does a disk's.
    let variants = data.join("variants");
    let glinski = include_str!("../../../variants/glinski.ron");
    let mine = glinski.replace("\"glinski\"", "\"my-glinski\"");
    files
        .write_atomic(&variants.join("b.ron"), mine.as_bytes())
        .unwrap();
    files
        .write_atomic(&variants.join("a.txt"), b"notes")
        .unwrap();
    files
        .write_atomic(&variants.join("old/c.ron"), b"(")
        .unwrap();
    assert_eq!(
        files.list_dir(&variants).unwrap(),
        vec![variants.join("a.txt"), variants.join("b.ron")]
    );
    assert_eq!(files.stamp(&variants.join("b.ron")), Some(None));
    assert_eq!(files.stamp(&variants.join("z.ron")), None);
    let mut catalog = hexchess_core::catalog::Catalog::builtin();
    variants::load_dir(&files, &mut catalog, &variants);
    assert!(
        catalog.get("my-glinski").is_some(),
        "{:?}",
        catalog.errors()
    );
    assert!(catalog.errors().is_empty(), "{:?}", catalog.errors());
}

#[test]
fn two_stores_and_the_disk_hold_files_of_their_own() {
    let one = Files::pages(Memory::default());
    let two = Files::pages(Memory::default());
    let path = one.config_dir().unwrap().join("settings.ron");
    one.write_atomic(&path, b"(view: TwoD)\n").unwrap();
    assert!(two.read_text(&path, 100).unwrap_err().is_not_found());
    assert!(
        Files::disk()
            .read_text(&path, 100)
            .unwrap_err()
            .is_not_found(),
        "nothing reached the disk"
    );
    // A clone is the same files.
    let again = one.clone();
    assert_eq!(again.read_text(&path, 100).unwrap(), "(view: TwoD)\n");
}
