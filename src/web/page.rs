//! What the page's address asks for, and files the player picks.
//!
//! The address stands in for the command line: `?variant=mccooey&level=5` are the
//! command line's options (`--variant mccooey --level 5`), and the fragment
//! `#challenge=CODE` opens the game straight into that online challenge on the server
//! the page came from (`--online ws(s)://HOST/socket --online-join CODE`).

use std::path::PathBuf;
use std::sync::Mutex;

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::HtmlInputElement;

use super::store::UPLOADS;

/// The command line the page's address gives, program name first.
pub fn args() -> Vec<String> {
    let mut args = vec!["hexchess".to_string()];
    let Some(location) = web_sys::window().map(|w| w.location()) else {
        return args;
    };
    let search = location.search().unwrap_or_default();
    let hash = location.hash().unwrap_or_default();
    let server = default_server();
    args.extend(super::lines::from_address(
        &search,
        &hash,
        server.as_deref(),
    ));
    args
}

/// The server socket of the host the page came from (`ws://HOST/socket`, `wss://`
/// for an https page): a hexchess-server serving the game is its own online home.
pub fn default_server() -> Option<String> {
    let location = web_sys::window()?.location();
    let host = location.host().ok()?;
    if host.is_empty() {
        return None;
    }
    let scheme = match location.protocol().ok()?.as_str() {
        "https:" => "wss",
        _ => "ws",
    };
    Some(format!("{scheme}://{host}/socket"))
}

/// The page's own address with `#challenge=CODE` in place of its fragment: the link a
/// friend opens to take the challenge (the page's server is the challenge's).
pub fn challenge_link(code: &str) -> Option<String> {
    let location = web_sys::window()?.location();
    let origin = location.origin().ok()?;
    let path = location.pathname().unwrap_or_else(|_| "/".into());
    Some(format!("{origin}{path}#challenge={code}"))
}

/// A property of the browser's `navigator`.
fn navigator_field(name: &str) -> Option<JsValue> {
    let navigator = js_sys::Reflect::get(&js_sys::global(), &"navigator".into()).ok()?;
    js_sys::Reflect::get(&navigator, &name.into())
        .ok()
        .filter(|v| !v.is_undefined())
}

/// Whether the browser says it has no network (`navigator.onLine` false).
pub fn offline() -> bool {
    navigator_field("onLine").and_then(|v| v.as_bool()) == Some(false)
}

/// Whether the browser has a system share sheet (`navigator.share`).
pub fn can_share() -> bool {
    navigator_field("share").is_some_and(|f| f.is_function())
}

/// Opens the system share sheet with `url`; a player who closes it is no error.
pub fn share(title: &str, url: &str) {
    let Some(navigator) = js_sys::Reflect::get(&js_sys::global(), &"navigator".into()).ok() else {
        return;
    };
    let Some(share) = navigator_field("share").and_then(|f| f.dyn_into::<js_sys::Function>().ok())
    else {
        return;
    };
    let data = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&data, &"title".into(), &title.into());
    let _ = js_sys::Reflect::set(&data, &"url".into(), &url.into());
    if let Ok(promise) = share.call1(&navigator, &data)
        && let Ok(promise) = promise.dyn_into::<js_sys::Promise>()
    {
        wasm_bindgen_futures::spawn_local(async move {
            let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
        });
    }
}

/// Files the player picked and the page has read, waiting for the game to open them
/// (the path each was stored at).
static PICKED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Shows the browser's file picker; the file chosen is stored under [`UPLOADS`] and
/// then handed out by [`take_picked`].
pub fn pick_file() {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Ok(input) = document.create_element("input") else {
        return;
    };
    let input: HtmlInputElement = input.unchecked_into();
    input.set_type("file");
    input.set_accept(".pgn,.txt,.fen,.ron");
    let chosen = input.clone();
    let on_change = Closure::once_into_js(move || {
        let Some(file) = chosen.files().and_then(|f| f.get(0)) else {
            return;
        };
        let name = file.name();
        wasm_bindgen_futures::spawn_local(async move {
            let Ok(text) = wasm_bindgen_futures::JsFuture::from(file.text()).await else {
                return;
            };
            hexchess_open_file(&name, &text.as_string().unwrap_or_default());
        });
    });
    input.set_onchange(Some(on_change.unchecked_ref()));
    input.click();
}

/// Stores a file the page has read (`name` and its text, see [`upload_path`]) and
/// queues it to be opened: what the picker does once the player has chosen, and what `index.html`
/// calls for a file dropped on the page (the browser's windowing gives the game no
/// drop of its own).
#[wasm_bindgen]
pub fn hexchess_open_file(name: &str, text: &str) {
    // A name is a file's name, never a path into the store's other entries.
    let name: String = name
        .chars()
        .map(|c| if c == '/' || c == '\\' { '_' } else { c })
        .collect();
    let path = upload_path(&name);
    if super::player_files()
        .write_atomic(&path, text.as_bytes())
        .is_ok()
        && let Ok(mut picked) = PICKED.lock()
    {
        picked.push(path);
    }
}

/// Where a picked file is kept: a variant file with the player's variants (in the
/// page's storage, so it is there again on the next visit, as a file in the variants
/// folder is on a desktop); any other in memory while the page is open.
fn upload_path(name: &str) -> PathBuf {
    let is_variant = name.to_ascii_lowercase().ends_with(".ron");
    match super::player_files().data_dir() {
        Some(data) if is_variant => data.join("variants").join(name),
        _ => PathBuf::from(format!("{UPLOADS}/{name}")),
    }
}

/// The files picked since the last call.
pub fn take_picked() -> Vec<PathBuf> {
    PICKED
        .lock()
        .map(|mut p| std::mem::take(&mut *p))
        .unwrap_or_default()
}
