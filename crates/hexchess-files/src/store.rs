//! Files where there is no file system (a browser page): a store of keys and bytes.

use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use crate::FileError;

/// Where files live on a system with no file system of its own (a browser page): a
/// key for each path (its text) and the file's bytes. A program there makes its
/// [`crate::Files`] with one ([`crate::Files::pages`]); every read and write through
/// that value then goes to it, so settings, autosave, uploaded games and variants,
/// and saved games work there as files do elsewhere, with the same checks and errors.
pub trait PageStore: Send + Sync {
    /// The file's bytes, if it is there.
    fn get(&self, key: &str) -> Option<Vec<u8>>;
    /// Writes the whole file (or fails, leaving it as it was).
    fn set(&self, key: &str, bytes: &[u8]) -> io::Result<()>;
    /// Removes the file (one that is not there is no error).
    fn remove(&self, key: &str);
    /// Every key that starts with `prefix`, in any order (a folder's listing).
    fn keys(&self, prefix: &str) -> Vec<String>;
    /// Whether the file is there (without copying it out, where the store can).
    fn contains(&self, key: &str) -> bool {
        self.get(key).is_some()
    }
}

/// A page store in memory, gone with the process: a Web Worker's files (the tables
/// and variant files the page hands it), or files a page keeps only while it is open.
#[derive(Debug, Default)]
pub struct MemoryStore(Mutex<HashMap<String, Vec<u8>>>);

impl MemoryStore {
    fn files(&self) -> MutexGuard<'_, HashMap<String, Vec<u8>>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl PageStore for MemoryStore {
    fn get(&self, key: &str) -> Option<Vec<u8>> {
        self.files().get(key).cloned()
    }
    fn set(&self, key: &str, bytes: &[u8]) -> io::Result<()> {
        self.files().insert(key.to_string(), bytes.to_vec());
        Ok(())
    }
    fn remove(&self, key: &str) {
        self.files().remove(key);
    }
    fn keys(&self, prefix: &str) -> Vec<String> {
        self.files()
            .keys()
            .filter(|k| k.starts_with(prefix))
            .cloned()
            .collect()
    }
    fn contains(&self, key: &str) -> bool {
        self.files().contains_key(key)
    }
}

/// A path's key in a store: its text.
pub(crate) fn key(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// The file's bytes, or a not-found error worded as the system's.
pub(crate) fn read(store: &dyn PageStore, path: &Path) -> Result<Vec<u8>, FileError> {
    store
        .get(&key(path))
        .ok_or_else(|| FileError::not_found(path))
}

/// The files directly in folder `dir` (keys one `/` below it), in any order.
pub(crate) fn list_dir(store: &dyn PageStore, dir: &Path) -> Vec<PathBuf> {
    let prefix = format!("{}/", key(dir).trim_end_matches('/'));
    store
        .keys(&prefix)
        .into_iter()
        .filter(|k| !k[prefix.len()..].contains('/'))
        .map(PathBuf::from)
        .collect()
}

/// The file copied to `<name>.bad` (one copy, the latest: a page's storage has no room
/// to keep every refused version).
pub(crate) fn copy_aside(store: &dyn PageStore, path: &Path) -> io::Result<PathBuf> {
    let bytes = store.get(&key(path)).unwrap_or_default();
    let aside = crate::aside_candidates(path)
        .next()
        .unwrap_or_else(|| path.with_extension("bad"));
    store.set(&key(&aside), &bytes)?;
    Ok(aside)
}
