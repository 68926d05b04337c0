//! The server's HTTP side: the websocket at `/socket`, each finished game's PGN at
//! `/game/ID.pgn`, and the games in play at `/games`.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::extract::{ConnectInfo, Path, State, WebSocketUpgrade};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use tokio::net::TcpListener;

use crate::connection;
use crate::hub::Hub;
use crate::message::MAX_MESSAGE_BYTES;

/// The largest frame the socket reads at all: a little over the largest message, so
/// that a message too long gets its error rather than a closed socket.
const MAX_FRAME_BYTES: usize = 8 * MAX_MESSAGE_BYTES;

/// The server's routes over `hub`.
pub fn router(hub: Arc<Hub>) -> Router {
    Router::new()
        .route("/", get(home))
        .route("/socket", get(socket))
        .route("/games", get(games))
        .route("/game/{file}", get(pgn))
        .with_state(hub)
}

/// Serves `hub` on `listener` until the process ends.
pub async fn serve(listener: TcpListener, hub: Arc<Hub>) -> std::io::Result<()> {
    axum::serve(
        listener,
        router(hub).into_make_service_with_connect_info::<SocketAddr>(),
    )
    .await
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
