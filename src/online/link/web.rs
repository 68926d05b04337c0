//! The link in a browser: the page's `WebSocket`. Its callbacks run between frames on
//! the page's one thread and put what they hear in a queue the frame reads; a lost
//! connection is tried again from [`Link::poll`] once its wait is over, as the
//! desktop's thread does.
//!
//! A `WebSocket` cannot leave the page's thread (it is not `Send`), while a [`Link`]
//! sits in a resource: the socket and its state live in a thread-local table, and the
//! link holds only its key.

use std::cell::RefCell;
use std::collections::HashMap;
use std::time::Duration;

use hexchess_protocol::{ClientMessage, FromServer};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{CloseEvent, MessageEvent, WebSocket};
use web_time::Instant;

use super::{FIRST_WAIT, Heard, LinkEvent, LinkStatus, MAX_WAIT, hello, meaning};

/// A connection to one server.
pub struct Link {
    key: u64,
}

impl std::fmt::Debug for Link {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Link")
    }
}

/// One link's socket and what it remembers between connections.
struct State {
    url: String,
    token: Option<String>,
    socket: Option<WebSocket>,
    /// The callbacks the socket calls (kept alive as long as it is).
    callbacks: Vec<Closure<dyn FnMut(JsValue)>>,
    welcomed: bool,
    /// Messages asked for before the server's welcome, sent once it comes.
    queued: Vec<String>,
    events: Vec<LinkEvent>,
    wait: Duration,
    /// When to try again after a loss.
    retry_at: Option<Instant>,
}

thread_local! {
    static LINKS: RefCell<HashMap<u64, State>> = RefCell::new(HashMap::new());
    static NEXT_KEY: RefCell<u64> = const { RefCell::new(1) };
}

fn with_state<R>(key: u64, f: impl FnOnce(&mut State) -> R) -> Option<R> {
    LINKS.with(|links| links.borrow_mut().get_mut(&key).map(f))
}

impl Link {
    /// Connects to `url`, saying hello with `token` (none: as a new player).
    pub fn open(url: String, token: Option<String>) -> Link {
        let key = NEXT_KEY.with(|k| {
            let mut k = k.borrow_mut();
            *k += 1;
            *k
        });
        let state = State {
            url,
            token,
            socket: None,
            callbacks: Vec::new(),
            welcomed: false,
            queued: Vec::new(),
            events: Vec::new(),
            wait: FIRST_WAIT,
            retry_at: None,
        };
        LINKS.with(|links| links.borrow_mut().insert(key, state));
        connect(key);
        Link { key }
    }

    /// Sends a message (queued while the connection is down, sent once it is up).
    pub fn send(&self, message: &ClientMessage) {
        let text = message.to_text();
        with_state(self.key, |s| match &s.socket {
            Some(socket) if s.welcomed && socket.ready_state() == WebSocket::OPEN => {
                if socket.send_with_str(&text).is_err() {
                    s.queued.push(text);
                }
            }
            _ => s.queued.push(text),
        });
    }

    /// What happened since the last call; tries again once a lost connection's wait
    /// is over.
    pub fn poll(&self) -> Vec<LinkEvent> {
        let due = with_state(self.key, |s| {
            s.retry_at.is_some_and(|at| Instant::now() >= at)
        });
        if due == Some(true) {
            connect(self.key);
        }
        with_state(self.key, |s| std::mem::take(&mut s.events)).unwrap_or_default()
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        if let Some(state) = LINKS.with(|links| links.borrow_mut().remove(&self.key))
            && let Some(socket) = state.socket
        {
            socket.set_onmessage(None);
            socket.set_onclose(None);
            socket.set_onopen(None);
            let _ = socket.close();
        }
    }
}

/// Opens the socket of link `key`, with its callbacks.
fn connect(key: u64) {
    let Some(url) = with_state(key, |s| {
        s.retry_at = None;
        s.welcomed = false;
        s.events.push(LinkEvent::Status(LinkStatus::Connecting));
        s.url.clone()
    }) else {
        return;
    };
    let socket = match WebSocket::new(&url) {
        Ok(socket) => socket,
        Err(e) => return lost(key, format!("{url}: {}", describe(&e))),
    };
    let on_open = Closure::<dyn FnMut(JsValue)>::new(move |_: JsValue| opened(key));
    let on_message = Closure::<dyn FnMut(JsValue)>::new(move |event: JsValue| {
        if let Some(text) = event
            .dyn_ref::<MessageEvent>()
            .and_then(|m| m.data().as_string())
        {
            heard(key, &text);
        }
    });
    let on_close = Closure::<dyn FnMut(JsValue)>::new(move |event: JsValue| {
        let why = match event.dyn_ref::<CloseEvent>() {
            Some(c) if c.code() != 1006 => {
                format!("closed by the server ({}): {}", c.code(), c.reason())
            }
            _ => "no connection to the server".to_string(),
        };
        lost(key, why);
    });
    socket.set_onopen(Some(on_open.as_ref().unchecked_ref()));
    socket.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    socket.set_onclose(Some(on_close.as_ref().unchecked_ref()));
    with_state(key, |s| {
        s.socket = Some(socket);
        s.callbacks = vec![on_open, on_message, on_close];
    });
}

/// The socket is open: say hello.
fn opened(key: u64) {
    with_state(key, |s| {
        s.wait = FIRST_WAIT;
        if let Some(socket) = &s.socket {
            let _ = socket.send_with_str(&hello(s.token.as_deref()));
        }
        s.events.push(LinkEvent::Status(LinkStatus::Connected));
    });
}

/// A message from the server: the welcome (keep the secret, send what waited), a
/// refused secret (start again as a new player), or anything for the game.
fn heard(key: u64, text: &str) {
    let Ok(message) = FromServer::read(text) else {
        return;
    };
    with_state(key, |s| {
        match meaning(&message) {
            Heard::Welcome(secret) => {
                s.welcomed = true;
                s.token = Some(secret);
                if let Some(socket) = &s.socket {
                    for text in s.queued.drain(..) {
                        let _ = socket.send_with_str(&text);
                    }
                }
            }
            Heard::Error if !s.welcomed && s.token.is_some() => {
                s.token = None;
                if let Some(socket) = &s.socket {
                    let _ = socket.send_with_str(&hello(None));
                }
            }
            _ => {}
        }
        s.events.push(LinkEvent::Message(Box::new(message)));
    });
}

/// The connection is gone: say why, and try again after the wait (doubled each time).
fn lost(key: u64, why: String) {
    with_state(key, |s| {
        if let Some(socket) = s.socket.take() {
            socket.set_onmessage(None);
            socket.set_onclose(None);
            socket.set_onopen(None);
        }
        s.welcomed = false;
        s.events.push(LinkEvent::Status(LinkStatus::Lost(why)));
        s.retry_at = Some(Instant::now() + s.wait);
        s.wait = (s.wait * 2).min(MAX_WAIT);
    });
}

fn describe(e: &JsValue) -> String {
    e.as_string()
        .or_else(|| {
            e.dyn_ref::<js_sys::Error>()
                .map(|e| String::from(e.message()))
        })
        .unwrap_or_else(|| "the browser refused the address".to_string())
}
