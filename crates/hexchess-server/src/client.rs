//! A client of the protocol, for the load tool and the tests: a websocket that sends
//! and receives the protocol's messages (`hexchess-protocol`), and waits for a message
//! of a type. The tests also speak raw JSON through it, as a client in another
//! language would, to hold the wire itself to docs/online.md.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, connect_async};

use hexchess_protocol::{ClientMessage, FromServer, PROTOCOL, ServerMessage};

/// One connection to a server.
pub struct Client {
    socket: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// The secret the server gave (kept for reconnecting).
    pub token: Option<String>,
    /// The player's id, once welcomed.
    pub player: Option<String>,
}

/// How long [`Client::wait_for`] waits at most.
pub const WAIT: Duration = Duration::from_secs(10);

impl Client {
    /// Connects to `url` (`ws://127.0.0.1:7474/socket`).
    pub async fn connect(url: &str) -> Result<Client, String> {
        let (socket, _) = connect_async(url)
            .await
            .map_err(|e| format!("connecting to {url}: {e}"))?;
        Ok(Client {
            socket,
            token: None,
            player: None,
        })
    }

    /// Connects and says hello (with `token`, or as a new player).
    pub async fn hello(url: &str, token: Option<&str>) -> Result<Client, String> {
        let mut client = Client::connect(url).await?;
        client
            .send_message(&ClientMessage::Hello {
                protocol: PROTOCOL,
                token: token.map(String::from),
            })
            .await?;
        let welcome = client
            .wait_message(
                |m| matches!(m, FromServer::Message(ServerMessage::Welcome(_))),
                "welcome",
            )
            .await?;
        if let FromServer::Message(ServerMessage::Welcome(w)) = welcome {
            client.token = Some(w.token);
            client.player = Some(w.player);
        }
        Ok(client)
    }

    /// Sends a message of the protocol.
    pub async fn send_message(&mut self, message: &ClientMessage) -> Result<(), String> {
        self.send_text(message.to_text()).await
    }

    /// The next message of the server; `Err` when the connection closed (with its close
    /// code when there was one), or for a text that is not a message of the protocol.
    pub async fn recv_message(&mut self) -> Result<FromServer, String> {
        let text = self.recv_text().await?;
        FromServer::read(&text).map_err(|e| format!("{e}: {text}"))
    }

    /// Messages until one that `wanted` accepts, within [`WAIT`]; an `error` on the way
    /// is returned as `Err`.
    pub async fn wait_message(
        &mut self,
        wanted: impl Fn(&FromServer) -> bool,
        what: &str,
    ) -> Result<FromServer, String> {
        let deadline = tokio::time::Instant::now() + WAIT;
        loop {
            let message = tokio::time::timeout_at(deadline, self.recv_message())
                .await
                .map_err(|_| format!("no '{what}' within {} s", WAIT.as_secs()))??;
            if wanted(&message) {
                return Ok(message);
            }
            if let FromServer::Message(ServerMessage::Error(e)) = &message {
                return Err(format!("waiting for '{what}': {}", e.message));
            }
        }
    }

    /// Sends one message (a test may send any JSON, well formed or not).
    pub async fn send(&mut self, message: &Value) -> Result<(), String> {
        self.send_text(message.to_string()).await
    }

    /// Sends text as it is (the tests send what is not JSON, too).
    pub async fn send_text(&mut self, text: String) -> Result<(), String> {
        self.socket
            .send(Message::Text(text.into()))
            .await
            .map_err(|e| format!("sending: {e}"))
    }

    /// The next message as raw JSON; `Err` when the connection closed, with the
    /// close code when there was one.
    pub async fn recv(&mut self) -> Result<Value, String> {
        let text = self.recv_text().await?;
        serde_json::from_str(&text).map_err(|e| format!("{e}: {text}"))
    }

    /// The next text frame.
    async fn recv_text(&mut self) -> Result<String, String> {
        loop {
            match self.socket.next().await {
                Some(Ok(Message::Text(text))) => return Ok(text.to_string()),
                Some(Ok(Message::Close(frame))) => {
                    return Err(match frame {
                        Some(f) => format!("closed {}: {}", u16::from(f.code), f.reason),
                        None => "closed".into(),
                    });
                }
                Some(Ok(_)) => continue,
                Some(Err(e)) => return Err(format!("receiving: {e}")),
                None => return Err("closed".into()),
            }
        }
    }

    /// Messages until one of type `t` (those before it are dropped), within [`WAIT`].
    pub async fn wait_for(&mut self, t: &str) -> Result<Value, String> {
        self.wait_until(|m| m["t"] == t, t).await
    }

    /// Messages until one that `wanted` accepts, within [`WAIT`]; an error message
    /// on the way is returned as `Err`.
    pub async fn wait_until(
        &mut self,
        wanted: impl Fn(&Value) -> bool,
        what: &str,
    ) -> Result<Value, String> {
        let deadline = tokio::time::Instant::now() + WAIT;
        loop {
            let message = tokio::time::timeout_at(deadline, self.recv())
                .await
                .map_err(|_| format!("no '{what}' within {} s", WAIT.as_secs()))??;
            if wanted(&message) {
                return Ok(message);
            }
            if message["t"] == "error" {
                return Err(format!("waiting for '{what}': {message}"));
            }
        }
    }

    /// Closes the socket.
    pub async fn close(mut self) {
        let _ = self.socket.close(None).await;
    }
}
