//! The page's files: `localStorage`, one entry per file (its path is the key), files
//! too large for it in memory while the page is open (uploads, endgame tables), and
//! games saved to the downloads folder as browser downloads.
//!
//! `localStorage` keeps text, so a file is kept as text (the game's own files are
//! all text: settings, PGN, RON, secrets).

use std::collections::HashMap;
use std::io;
use std::sync::Mutex;

use hexchess_files::PageStore;
use wasm_bindgen::JsCast;
use web_sys::{Blob, BlobPropertyBag, HtmlAnchorElement, Storage, Url};

/// Where a saved game goes to become a download: the file dialog's "save" answers with
/// a path here, and writing it hands the bytes to the browser.
pub const DOWNLOADS: &str = "/downloads";

/// Where picked and dropped files are kept while the page is open: in memory, not in
/// `localStorage`, whose few megabytes a large game file would fill.
pub const UPLOADS: &str = "/uploads";

static IN_MEMORY: Mutex<Option<HashMap<String, Vec<u8>>>> = Mutex::new(None);

fn in_memory<R>(f: impl FnOnce(&mut HashMap<String, Vec<u8>>) -> R) -> R {
    let mut files = IN_MEMORY.lock().unwrap_or_else(|e| e.into_inner());
    f(files.get_or_insert_with(HashMap::new))
}

/// Where the trainer's endgame tables are kept while the page is open: in memory,
/// as they are megabytes (built again in a worker on the next visit). The folder
/// `hexchess_tablebase::default_dir` names in a page store.
const TABLES: &str = "/hexchess/data/tables";

/// Files kept in memory, not in `localStorage`: uploads and tables.
fn in_memory_only(key: &str) -> bool {
    [UPLOADS, TABLES].iter().any(|folder| {
        key.strip_prefix(folder)
            .is_some_and(|rest| rest.starts_with('/'))
    })
}

/// The files of the game's page.
pub struct LocalStorage;

fn storage() -> Option<Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

fn js_error(e: wasm_bindgen::JsValue) -> io::Error {
    io::Error::other(
        e.as_string()
            .unwrap_or_else(|| "the browser refused to store it (storage full?)".into()),
    )
}

impl PageStore for LocalStorage {
    fn get(&self, key: &str) -> Option<Vec<u8>> {
        if in_memory_only(key) {
            return in_memory(|files| files.get(key).cloned());
        }
        storage()?
            .get_item(key)
            .ok()
            .flatten()
            .map(String::into_bytes)
    }

    fn set(&self, key: &str, bytes: &[u8]) -> io::Result<()> {
        if let Some(name) = key
            .strip_prefix(DOWNLOADS)
            .and_then(|n| n.strip_prefix('/'))
        {
            return download(name, bytes);
        }
        if in_memory_only(key) {
            in_memory(|files| files.insert(key.to_string(), bytes.to_vec()));
            return Ok(());
        }
        let text = String::from_utf8_lossy(bytes);
        storage()
            .ok_or_else(|| io::Error::other("this page may keep no files (storage is off)"))?
            .set_item(key, &text)
            .map_err(js_error)
    }

    fn remove(&self, key: &str) {
        if in_memory_only(key) {
            in_memory(|files| files.remove(key));
            return;
        }
        if let Some(s) = storage() {
            let _ = s.remove_item(key);
        }
    }

    fn keys(&self, prefix: &str) -> Vec<String> {
        let mut keys: Vec<String> = in_memory(|files| {
            files
                .keys()
                .filter(|k| k.starts_with(prefix))
                .cloned()
                .collect()
        });
        if let Some(s) = storage() {
            let count = s.length().unwrap_or(0);
            keys.extend(
                (0..count)
                    .filter_map(|i| s.key(i).ok().flatten())
                    .filter(|k| k.starts_with(prefix)),
            );
        }
        keys
    }

    fn contains(&self, key: &str) -> bool {
        if in_memory_only(key) {
            return in_memory(|files| files.contains_key(key));
        }
        storage().is_some_and(|s| s.get_item(key).ok().flatten().is_some())
    }
}

/// Gives `bytes` to the browser as a download named `name`.
fn download(name: &str, bytes: &[u8]) -> io::Result<()> {
    let parts = js_sys::Array::new();
    parts.push(&js_sys::Uint8Array::from(bytes));
    let options = BlobPropertyBag::new();
    options.set_type("application/octet-stream");
    let blob = Blob::new_with_u8_array_sequence_and_options(&parts, &options).map_err(js_error)?;
    let url = Url::create_object_url_with_blob(&blob).map_err(js_error)?;
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or_else(|| io::Error::other("no page to download from"))?;
    let link: HtmlAnchorElement = document
        .create_element("a")
        .map_err(js_error)?
        .unchecked_into();
    link.set_href(&url);
    link.set_download(name);
    link.click();
    let _ = Url::revoke_object_url(&url);
    Ok(())
}
