//! The server's HTTP side: the websocket at `/socket`, each finished game's PGN at
//! `/game/ID.pgn`, the games in play at `/games`, the operator's `/metrics` and
//! `/healthz`, and with `--web DIR` the browser game (built by `web/build.sh DIR`) at
//! `/`, so that a server is also the game's home page and a challenge link
//! (`/#challenge=CODE`) opens the game on it.
//!
//! Every connection, websocket or not, takes one of a bounded number of places
//! ([`BoundedListener`]); files are sent in chunks as the client takes them, never read
//! whole.

use std::net::{IpAddr, SocketAddr};
use std::path::{Path as FilePath, PathBuf};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::connect_info::Connected;
use axum::extract::{ConnectInfo, Path, State, WebSocketUpgrade};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::serve::{IncomingStream, Listener};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::connection;
use crate::hub::{Hub, HubError};
use crate::message::MAX_MESSAGE_BYTES;

/// The largest frame the socket reads at all: a little over the largest message, so
/// that a message too long gets its error rather than a closed socket.
const MAX_FRAME_BYTES: usize = 8 * MAX_MESSAGE_BYTES;

/// Connections (of any kind) beyond the websockets' limit: room for the browser
/// game's files, `/metrics` and the like while the websockets are full.
const HTTP_PLACES: usize = 1_024;

/// A file is sent in chunks of this size.
const CHUNK: usize = 64 * 1024;

/// The server's routes over `hub`, with the browser game's folder if there is one.
pub fn router(hub: Arc<Hub>, web: Option<PathBuf>) -> Router {
    let routes = Router::new()
        .route("/socket", get(socket))
        .route("/games", get(games))
        .route("/game/{file}", get(pgn))
        .route("/player/{name}", get(player))
        .route("/leaderboard/{variant}", get(leaderboard))
        .route("/tournaments", get(tournaments))
        .route("/tournament/{file}", get(tournament))
        .route("/metrics", get(metrics))
        .route("/healthz", get(healthz));
    let routes = match web {
        Some(dir) => {
            let dir = Arc::new(dir);
            let home_dir = Arc::clone(&dir);
            routes
                .route(
                    "/",
                    get(move |headers: HeaderMap| {
                        web_file(home_dir, "index.html".to_string(), headers)
                    }),
                )
                .route(
                    "/{file}",
                    get(move |Path(file): Path<String>, headers: HeaderMap| {
                        web_file(dir, file, headers)
                    }),
                )
        }
        None => routes.route("/", get(home)),
    };
    routes.with_state(hub)
}

/// Serves `hub` (and the browser game's folder `web`) on `listener` until the hub is
/// told to stop; then no new connection is taken, and this returns once every
/// connection has closed (the websockets close themselves with 1012).
pub async fn serve(
    listener: TcpListener,
    hub: Arc<Hub>,
    web: Option<PathBuf>,
) -> std::io::Result<()> {
    let places = hub.limits.max_connections + HTTP_PLACES;
    let listener = BoundedListener {
        inner: listener,
        places: Arc::new(Semaphore::new(places)),
    };
    let stop = Arc::clone(&hub);
    axum::serve(
        listener,
        router(hub, web).into_make_service_with_connect_info::<ClientAddress>(),
    )
    .with_graceful_shutdown(async move { stop.stopping().await })
    .await
}

/// Serves a game node's two routes, `/metrics` and `/healthz` (it has no clients),
/// until the hub is told to stop.
pub async fn serve_status(listener: TcpListener, hub: Arc<Hub>) -> std::io::Result<()> {
    let routes = Router::new()
        .route("/metrics", get(metrics))
        .route("/healthz", get(healthz))
        .with_state(Arc::clone(&hub));
    axum::serve(listener, routes)
        .with_graceful_shutdown(async move { hub.stopping().await })
        .await
}

/// A listener that takes a new connection only while it has a place for it: past the
/// limit, new connections wait in the system's backlog (and are refused by it when
/// that is full) instead of costing the server a task and buffers each.
pub struct BoundedListener {
    inner: TcpListener,
    places: Arc<Semaphore>,
}

impl Listener for BoundedListener {
    type Io = Placed;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Placed, SocketAddr) {
        let place = Arc::clone(&self.places)
            .acquire_owned()
            .await
            .expect("the places are never closed");
        let (stream, address) = Listener::accept(&mut self.inner).await;
        (
            Placed {
                stream,
                _place: place,
            },
            address,
        )
    }

    fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.inner.local_addr()
    }
}

/// A connection holding its place until it closes.
pub struct Placed {
    stream: TcpStream,
    _place: OwnedSemaphorePermit,
}

impl AsyncRead for Placed {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Placed {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

/// The client's address, for the limits per address.
#[derive(Clone, Copy, Debug)]
pub struct ClientAddress(pub SocketAddr);

impl Connected<IncomingStream<'_, BoundedListener>> for ClientAddress {
    fn connect_info(stream: IncomingStream<'_, BoundedListener>) -> ClientAddress {
        ClientAddress(*stream.remote_addr())
    }
}

/// The content type of a file of the browser game, by its extension; `None` for a
/// file the game does not have (nothing else in the folder is served).
fn web_type(name: &str) -> Option<&'static str> {
    let ext = name.rsplit_once('.')?.1;
    Some(match ext {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "webmanifest" => "application/manifest+json",
        _ => return None,
    })
}

/// Each content coding's weight in an `Accept-Encoding` header (RFC 9110 §12.5.3):
/// `q` from 0 to 1, 1 when not given; `*` for any coding not named. A coding of weight
/// 0 is not acceptable.
fn encoding_weight(accept: &str, coding: &str) -> f32 {
    let mut any = None;
    for item in accept.split(',') {
        let mut parts = item.split(';');
        let name = parts.next().unwrap_or_default().trim();
        let q = parts
            .filter_map(|p| p.trim().strip_prefix("q="))
            .find_map(|q| q.trim().parse::<f32>().ok())
            .map_or(1.0, |q| q.clamp(0.0, 1.0));
        if name.eq_ignore_ascii_case(coding) {
            return q;
        }
        if name == "*" {
            any = Some(q);
        }
    }
    any.unwrap_or(0.0)
}

/// Whether `name` carries a hash of its content (`hexchess_bg.0123456789abcdef.wasm`:
/// 16 hex digits before the extension, as `web/build.sh` names every file but the page,
/// its service worker and its manifest). Such a file never changes under its name, so
/// a browser may keep it for good and never ask again.
fn fingerprinted(name: &str) -> bool {
    let mut parts = name.rsplit('.');
    let (_ext, hash) = (parts.next(), parts.next());
    parts.next().is_some()
        && hash.is_some_and(|h| {
            h.len() == 16
                && h.bytes()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        })
}

/// The `Cache-Control` of a file of the game: kept for good when its name carries its
/// hash; otherwise (`index.html`, which names the others, and the service worker)
/// asked again each time, answered by a bodiless 304 when unchanged.
fn cache_control(name: &str) -> &'static str {
    if fingerprinted(name) {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    }
}

/// A validator for one copy of a file: its length and modification time, and the
/// coding (the brotli and gzip copies are other representations).
fn entity_tag(meta: &std::fs::Metadata, coding: &str) -> String {
    let modified = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    format!("\"{:x}-{modified:x}{coding}\"", meta.len())
}

/// Whether the client's `If-None-Match` names `tag` (or is `*`).
fn not_modified(headers: &HeaderMap, tag: &str) -> bool {
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|t| t.trim().trim_start_matches("W/"))
        .any(|t| t == tag || t == "*")
}

/// One copy of a file as the answer: its body, or a 304 when the client holds it.
fn web_answer(
    (file, meta): (tokio::fs::File, std::fs::Metadata),
    name: &str,
    kind: &str,
    coding: Option<&str>,
    headers: &HeaderMap,
) -> Response {
    let tag = entity_tag(&meta, coding.map_or("", |c| c));
    let mut fields = vec![
        (header::CONTENT_TYPE, kind.to_string()),
        (header::VARY, "accept-encoding".to_string()),
        (header::CACHE_CONTROL, cache_control(name).to_string()),
        (header::ETAG, tag.clone()),
    ];
    if let Some(coding) = coding {
        fields.push((header::CONTENT_ENCODING, coding.to_string()));
    }
    let mut answer = if not_modified(headers, &tag) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        fields.push((header::CONTENT_LENGTH, meta.len().to_string()));
        file_body(file).into_response()
    };
    for (field, value) in fields {
        if let Ok(value) = value.parse() {
            answer.headers_mut().insert(field, value);
        }
    }
    answer
}

/// A file of the browser game's folder: a plain name (no folders, nothing hidden),
/// of a kind the game has, a regular file (not a pipe or a device). A client that
/// accepts brotli or gzip (by its `Accept-Encoding` weights, the heavier first) gets
/// the copy `web/build.sh` compressed beside it, when there is one. Every answer says
/// how long it may be kept ([`cache_control`]) and carries a validator.
async fn web_file(dir: Arc<PathBuf>, name: String, headers: HeaderMap) -> Response {
    let plain = !name.is_empty()
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c));
    let Some(kind) = web_type(&name).filter(|_| plain) else {
        return not_found();
    };
    let accepts = headers
        .get(header::ACCEPT_ENCODING)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let mut codings: Vec<(&str, &str, f32)> = [("br", "br"), ("gzip", "gz")]
        .into_iter()
        .map(|(coding, ext)| (coding, ext, encoding_weight(accepts, coding)))
        .filter(|(_, _, q)| *q > 0.0)
        .collect();
    codings.sort_by(|a, b| b.2.total_cmp(&a.2));
    for (coding, ext, _) in codings {
        if let Some(copy) = open_web(&dir.join(format!("{name}.{ext}"))).await {
            return web_answer(copy, &name, kind, Some(coding), &headers);
        }
    }
    match open_web(&dir.join(&name)).await {
        Some(copy) => web_answer(copy, &name, kind, None, &headers),
        None => not_found(),
    }
}

fn not_found() -> Response {
    (StatusCode::NOT_FOUND, "no such file\n").into_response()
}

/// A regular file opened for reading, and what the file system says of it; `None` for
/// anything else. The kind is checked before opening: opening a pipe would wait for a
/// writer.
async fn open_web(path: &FilePath) -> Option<(tokio::fs::File, std::fs::Metadata)> {
    let meta = tokio::fs::metadata(path).await.ok()?;
    if !meta.is_file() {
        return None;
    }
    let file = tokio::fs::File::open(path).await.ok()?;
    Some((file, meta))
}

/// A file's bytes as a body, read a chunk at a time as the client takes them.
fn file_body(file: tokio::fs::File) -> Body {
    let chunks = futures_util::stream::unfold(Some(file), |file| async move {
        let mut file = file?;
        let mut chunk = vec![0; CHUNK];
        match file.read(&mut chunk).await {
            Ok(0) => None,
            Ok(n) => {
                chunk.truncate(n);
                Some((Ok(Bytes::from(chunk)), Some(file)))
            }
            Err(e) => Some((Err(e), None)),
        }
    });
    Body::from_stream(chunks)
}

/// Checks the browser game's folder at start: a folder, with the game's page in it.
pub fn check_web(dir: &FilePath) -> Result<(), String> {
    let meta = std::fs::metadata(dir).map_err(|e| format!("--web {}: {e}", dir.display()))?;
    if !meta.is_dir() {
        return Err(format!("--web {}: not a folder", dir.display()));
    }
    if !dir.join("index.html").is_file() {
        return Err(format!(
            "--web {}: no index.html in it (build the game into it with web/build.sh {})",
            dir.display(),
            dir.display()
        ));
    }
    Ok(())
}

async fn home() -> &'static str {
    "hexchess-server: connect a websocket to /socket (protocol: docs/online.md); \
     games in play: /games; a finished game: /game/ID.pgn; a player: /player/NAME; \
     a leaderboard: /leaderboard/VARIANT\n"
}

async fn socket(
    upgrade: WebSocketUpgrade,
    ConnectInfo(ClientAddress(peer)): ConnectInfo<ClientAddress>,
    headers: HeaderMap,
    State(hub): State<Arc<Hub>>,
) -> Response {
    let from = client_address(peer.ip(), &headers, hub.limits.behind_proxy);
    let place = hub.admit(from);
    upgrade
        .max_message_size(MAX_FRAME_BYTES)
        .max_frame_size(MAX_FRAME_BYTES)
        .on_upgrade(move |socket| connection::run(socket, hub, place, from))
}

/// Whom a connection's limits count: its peer, or, behind a proxy on this machine, the
/// address the proxy read (`X-Real-IP`, which nginx sets from the connection it took:
/// a client cannot choose it). A header from any other peer is ignored, as is one
/// that is not an address.
fn client_address(peer: IpAddr, headers: &HeaderMap, behind_proxy: bool) -> IpAddr {
    if !behind_proxy || !peer.is_loopback() {
        return peer;
    }
    headers
        .get("x-real-ip")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(peer)
}

async fn games(State(hub): State<Arc<Hub>>) -> Response {
    (
        [(header::CONTENT_TYPE, "application/json")],
        hub.games_in_play().to_text(),
    )
        .into_response()
}

async fn metrics(State(hub): State<Arc<Hub>>) -> Response {
    (
        [(
            header::CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        hub.metrics.render(),
    )
        .into_response()
}

/// 200 while the server serves and its database answers; 503 (with why) otherwise.
async fn healthz(State(hub): State<Arc<Hub>>) -> Response {
    if hub.is_stopping() {
        return (StatusCode::SERVICE_UNAVAILABLE, "stopping\n").into_response();
    }
    match hub.store.healthy().await {
        Ok(()) => (StatusCode::OK, "ok\n").into_response(),
        Err(why) => (
            StatusCode::SERVICE_UNAVAILABLE,
            format!("the database does not answer: {why}\n"),
        )
            .into_response(),
    }
}

/// A player's page as JSON (404 for no such account, 429 over the address's limit).
async fn player(
    Path(name): Path<String>,
    ConnectInfo(ClientAddress(peer)): ConnectInfo<ClientAddress>,
    headers: HeaderMap,
    State(hub): State<Arc<Hub>>,
) -> Response {
    if let Some(refused) = over_the_lookups(&hub, peer, &headers) {
        return refused;
    }
    json_or_error(hub.profile(&name).await)
}

/// The tournaments as JSON (what `tournaments` pushes), within the lookups' limit.
async fn tournaments(
    ConnectInfo(ClientAddress(peer)): ConnectInfo<ClientAddress>,
    headers: HeaderMap,
    State(hub): State<Arc<Hub>>,
) -> Response {
    if let Some(refused) = over_the_lookups(&hub, peer, &headers) {
        return refused;
    }
    match hub.tournaments() {
        Ok(t) => (
            [(header::CONTENT_TYPE, "application/json")],
            t.list().await.to_text(),
        )
            .into_response(),
        Err(e) => (StatusCode::NOT_FOUND, format!("{e}\n")).into_response(),
    }
}

/// One tournament: `/tournament/ID` its standings as JSON, `/tournament/ID.trf` the
/// whole of it in FIDE's TRF16 (every finished round; an arena's pairing waves as
/// its rounds).
async fn tournament(
    Path(file): Path<String>,
    ConnectInfo(ClientAddress(peer)): ConnectInfo<ClientAddress>,
    headers: HeaderMap,
    State(hub): State<Arc<Hub>>,
) -> Response {
    if let Some(refused) = over_the_lookups(&hub, peer, &headers) {
        return refused;
    }
    let t = match hub.tournaments() {
        Ok(t) => t,
        Err(e) => return (StatusCode::NOT_FOUND, format!("{e}\n")).into_response(),
    };
    let missing = || (StatusCode::NOT_FOUND, "no tournament by that id\n").into_response();
    match file.strip_suffix(".trf") {
        Some(id) => match t.trf(id.to_string()).await {
            Some(text) => (
                [
                    (
                        header::CONTENT_TYPE,
                        "text/plain; charset=utf-8".to_string(),
                    ),
                    (
                        header::CONTENT_DISPOSITION,
                        format!("attachment; filename=\"hexchess-{id}.trf\""),
                    ),
                ],
                text,
            )
                .into_response(),
            None => missing(),
        },
        None => match t.view(file).await {
            Some(view) => (
                [(header::CONTENT_TYPE, "application/json")],
                serde_json::to_string(&view).unwrap_or_default(),
            )
                .into_response(),
            None => missing(),
        },
    }
}

/// A 429 when the address behind `peer` has read its pages for the minute.
fn over_the_lookups(hub: &Hub, peer: SocketAddr, headers: &HeaderMap) -> Option<Response> {
    let from = client_address(peer.ip(), headers, hub.limits.behind_proxy);
    hub.lookup_allowed(from)
        .err()
        .map(|e| (StatusCode::TOO_MANY_REQUESTS, format!("{e}\n")).into_response())
}

/// A variant's leaderboard as JSON (404 for no such variant, 429 over the limit).
async fn leaderboard(
    Path(variant): Path<String>,
    ConnectInfo(ClientAddress(peer)): ConnectInfo<ClientAddress>,
    headers: HeaderMap,
    State(hub): State<Arc<Hub>>,
) -> Response {
    if let Some(refused) = over_the_lookups(&hub, peer, &headers) {
        return refused;
    }
    json_or_error(hub.leaderboard(&variant).await)
}

/// A found thing as JSON; not found is 404 with why, a database failure 500.
fn json_or_error<T: serde::Serialize>(found: Result<T, HubError>) -> Response {
    match found {
        Ok(value) => match serde_json::to_string(&value) {
            Ok(text) => ([(header::CONTENT_TYPE, "application/json")], text).into_response(),
            Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, format!("{e}\n")).into_response(),
        },
        Err(HubError::Refused(why)) => (StatusCode::NOT_FOUND, format!("{why}\n")).into_response(),
        Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, format!("{e}\n")).into_response(),
    }
}

async fn pgn(Path(file): Path<String>, State(hub): State<Arc<Hub>>) -> Response {
    let Some(id) = file.strip_suffix(".pgn") else {
        return (StatusCode::NOT_FOUND, "ask for /game/ID.pgn\n").into_response();
    };
    match hub.store.pgn(id).await {
        Ok(Some(pgn)) => (
            [
                (header::CONTENT_TYPE, "application/x-chess-pgn".to_string()),
                (
                    header::CONTENT_DISPOSITION,
                    format!("attachment; filename=\"hexchess-{id}.pgn\""),
                ),
            ],
            pgn,
        )
            .into_response(),
        Ok(None) => (StatusCode::NOT_FOUND, "no finished game by that id\n").into_response(),
        Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, format!("{e}\n")).into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::{cache_control, client_address, encoding_weight, fingerprinted};
    use axum::http::HeaderMap;

    #[test]
    fn behind_a_proxy_on_this_machine_the_client_is_the_one_it_names() {
        let mut named = HeaderMap::new();
        named.insert("x-real-ip", "203.0.113.9".parse().unwrap());
        let local: std::net::IpAddr = "127.0.0.1".parse().unwrap();
        let far: std::net::IpAddr = "198.51.100.7".parse().unwrap();
        let client: std::net::IpAddr = "203.0.113.9".parse().unwrap();
        assert_eq!(client_address(local, &named, true), client);
        assert_eq!(
            client_address(local, &named, false),
            local,
            "not behind a proxy"
        );
        assert_eq!(
            client_address(far, &named, true),
            far,
            "only the local proxy is believed"
        );
        let mut junk = HeaderMap::new();
        junk.insert("x-real-ip", "not an address".parse().unwrap());
        assert_eq!(client_address(local, &junk, true), local);
        assert_eq!(client_address(local, &HeaderMap::new(), true), local);
    }

    #[test]
    fn a_name_with_its_contents_hash_is_kept_for_good() {
        for kept in [
            "hexchess_bg.0123456789abcdef.wasm",
            "a.b.fedcba9876543210.js",
        ] {
            assert!(fingerprinted(kept), "{kept}");
            assert!(cache_control(kept).contains("immutable"));
        }
        for asked in [
            "index.html",
            "sw.js",
            "0123456789abcdef.js",
            "x.0123456789ABCDEF.js",
            "x.0123456789abcde.js",
            "x.0123456789abcdefa.js",
            "x.0123456789abcdeg.js",
        ] {
            assert!(!fingerprinted(asked), "{asked}");
            assert_eq!(cache_control(asked), "no-cache");
        }
    }

    #[test]
    fn accept_encoding_is_read_with_its_weights() {
        assert_eq!(encoding_weight("gzip, deflate, br", "br"), 1.0);
        assert_eq!(encoding_weight("br;q=0, gzip", "br"), 0.0);
        assert_eq!(encoding_weight("br;q=0, gzip", "gzip"), 1.0);
        assert_eq!(encoding_weight("gzip;q=0.5, br;q=0.2", "br"), 0.2);
        assert_eq!(encoding_weight("gzip;q=0.5, br;q=0.2", "gzip"), 0.5);
        assert_eq!(encoding_weight("*", "br"), 1.0);
        assert_eq!(encoding_weight("*;q=0, gzip", "br"), 0.0);
        assert_eq!(encoding_weight("identity", "gzip"), 0.0);
        assert_eq!(encoding_weight("", "gzip"), 0.0);
        assert_eq!(encoding_weight("BR ; q=0.7", "br"), 0.7);
        assert_eq!(encoding_weight("br;q=nonsense", "br"), 1.0);
    }
}
