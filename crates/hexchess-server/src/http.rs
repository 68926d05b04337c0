//! The server's HTTP side: the websocket at `/socket`, each finished game's PGN at
//! `/game/ID.pgn`, the games in play at `/games`, and with `--web DIR` the browser
//! game (built by `web/build.sh DIR`) at `/`, so that a server is also the game's home
//! page and a challenge link (`/#challenge=CODE`) opens the game on it.

use std::net::SocketAddr;
use std::path::{Path as FilePath, PathBuf};
use std::sync::Arc;

use axum::Router;
use axum::extract::{ConnectInfo, Path, State, WebSocketUpgrade};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use tokio::net::TcpListener;

use crate::connection;
use crate::hub::Hub;
use crate::message::MAX_MESSAGE_BYTES;

/// The largest frame the socket reads at all: a little over the largest message, so
/// that a message too long gets its error rather than a closed socket.
const MAX_FRAME_BYTES: usize = 8 * MAX_MESSAGE_BYTES;

/// The server's routes over `hub`, with the browser game's folder if there is one.
pub fn router(hub: Arc<Hub>, web: Option<PathBuf>) -> Router {
    let routes = Router::new()
        .route("/socket", get(socket))
        .route("/games", get(games))
        .route("/game/{file}", get(pgn));
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

/// Serves `hub` (and the browser game's folder `web`) on `listener` until the
/// process ends.
pub async fn serve(
    listener: TcpListener,
    hub: Arc<Hub>,
    web: Option<PathBuf>,
) -> std::io::Result<()> {
    axum::serve(
        listener,
        router(hub, web).into_make_service_with_connect_info::<SocketAddr>(),
    )
    .await
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
        _ => return None,
    })
}

/// A file of the browser game's folder: a plain name (no folders, nothing hidden),
/// of a kind the game has. A client that accepts brotli or gzip gets the copy
/// `web/build.sh` compressed beside it, when there is one.
async fn web_file(dir: Arc<PathBuf>, name: String, headers: HeaderMap) -> Response {
    let plain = !name.is_empty()
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c));
    let Some(kind) = web_type(&name).filter(|_| plain) else {
        return (StatusCode::NOT_FOUND, "no such file\n").into_response();
    };
    let accepts = headers
        .get(header::ACCEPT_ENCODING)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    for (encoding, ext) in [("br", "br"), ("gzip", "gz")] {
        if accepts.contains(encoding)
            && let Some(bytes) = read_web(&dir.join(format!("{name}.{ext}"))).await
        {
            return (
                [
                    (header::CONTENT_TYPE, kind),
                    (header::CONTENT_ENCODING, encoding),
                    (header::VARY, "accept-encoding"),
                ],
                bytes,
            )
                .into_response();
        }
    }
    match read_web(&dir.join(&name)).await {
        Some(bytes) => ([(header::CONTENT_TYPE, kind)], bytes).into_response(),
        None => (StatusCode::NOT_FOUND, "no such file\n").into_response(),
    }
}

async fn read_web(path: &FilePath) -> Option<Vec<u8>> {
    tokio::fs::read(path).await.ok()
}

async fn home() -> &'static str {
    "hexchess-server: connect a websocket to /socket (protocol: docs/online.md); \
     games in play: /games; a finished game: /game/ID.pgn\n"
}

async fn socket(
    upgrade: WebSocketUpgrade,
    ConnectInfo(from): ConnectInfo<SocketAddr>,
    State(hub): State<Arc<Hub>>,
) -> Response {
    let allowed = hub.allow_connection(from.ip());
    upgrade
        .max_message_size(MAX_FRAME_BYTES)
        .max_frame_size(MAX_FRAME_BYTES)
        .on_upgrade(move |socket| connection::run(socket, hub, allowed))
}

async fn games(State(hub): State<Arc<Hub>>) -> Response {
    (
        [(header::CONTENT_TYPE, "application/json")],
        hub.games_in_play().to_string(),
    )
        .into_response()
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
