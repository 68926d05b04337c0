//! One client's websocket: its messages read under a size and a rate limit, each
//! answered or handed to the hub or a game's room; its outbox written back in order.
//! A client over its rate is closed with code 1008 (policy violation), as lila-ws
//! does; a message that cannot be read is answered with an error and the
//! connection goes on.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::sync::{mpsc, oneshot};

use crate::hub::{Hub, HubError, Identity};
use crate::message::{ClientMessage, MessageError};
use crate::rate::RateLimit;
use crate::room::{Act, ConnId, Outbox, RoomCommand};

/// The protocol this server speaks (docs/online.md).
pub const PROTOCOL: u32 = 1;

/// Messages queued to a client before it counts as not reading (and rooms drop it).
const OUTBOX: usize = 512;

/// The close code for a client over its limits (RFC 6455: policy violation).
pub const POLICY_VIOLATION: u16 = 1008;

/// Serves one websocket until it closes.
pub async fn run(socket: WebSocket, hub: Arc<Hub>, allowed: bool) {
    let (mut sink, mut stream) = socket.split();
    if !allowed {
        let _ = sink
            .send(close_frame("too many connections from your address"))
            .await;
        return;
    }
    let (out, mut outbox) = mpsc::channel::<String>(OUTBOX);
    let (close_tx, mut close_rx) = oneshot::channel::<Message>();
    let writer = tokio::spawn(async move {
        loop {
            tokio::select! {
                text = outbox.recv() => match text {
                    Some(text) => if sink.send(Message::Text(text.into())).await.is_err() { return },
                    None => break,
                },
                close = &mut close_rx => {
                    if let Ok(frame) = close {
                        let _ = sink.send(frame).await;
                    }
                    return;
                }
            }
        }
        // The reader is gone. It may have left a close frame (a client over its rate)
        // that `select!` saw no sooner than the end of the outbox: both were ready by
        // the time this task ran, and it picks among ready branches at random. A plain
        // close would then lose the frame's code.
        match close_rx.try_recv() {
            Ok(frame) => {
                let _ = sink.send(frame).await;
            }
            Err(_) => {
                let _ = sink.close().await;
            }
        }
    });
    let mut client = Client {
        conn: hub.next_conn(),
        hub,
        out,
        me: None,
        following: HashSet::new(),
        limit: None,
    };
    client.limit = Some(RateLimit::player(client.hub.now()));
    while let Some(Ok(frame)) = stream.next().await {
        let bytes = match frame {
            Message::Text(text) => text.as_bytes().to_vec(),
            Message::Binary(bytes) => bytes.to_vec(),
            Message::Close(_) => break,
            Message::Ping(_) | Message::Pong(_) => continue,
        };
        if !client.within_rate() {
            let _ = close_tx.send(close_frame("too many messages: slow down"));
            break;
        }
        match ClientMessage::read(&bytes) {
            Ok(message) => client.handle(message).await,
            Err(e) => client.error(&e),
        }
    }
    client.closed().await;
    // Let the writer send what is queued (or the close frame), then end.
    drop(client);
    let _ = tokio::time::timeout(Duration::from_secs(5), writer).await;
    // Read on, and drop, what the client sent after the reader stopped, until its close
    // answers ours or a short while has passed: a socket closed with bytes unread is
    // reset, and the reset can drop our close frame before the client reads it.
    let drain = async { while let Some(Ok(_)) = stream.next().await {} };
    let _ = tokio::time::timeout(CLOSE_DRAIN, drain).await;
}

/// How long a closed connection's late messages are read and dropped, at most.
const CLOSE_DRAIN: Duration = Duration::from_secs(2);

fn close_frame(reason: &str) -> Message {
    Message::Close(Some(CloseFrame {
        code: POLICY_VIOLATION,
        reason: reason.into(),
    }))
}

/// A connection's state.
struct Client {
    conn: ConnId,
    hub: Arc<Hub>,
    out: Outbox,
    me: Option<Identity>,
    /// The games it follows.
    following: HashSet<String>,
    limit: Option<RateLimit>,
}

impl Client {
    fn within_rate(&mut self) -> bool {
        let now = self.hub.now();
        self.limit.as_mut().is_none_or(|l| l.allow(now))
    }

    fn send(&self, message: Value) {
        let _ = self.out.try_send(message.to_string());
    }

    fn error(&self, e: &MessageError) {
        self.send(json!({ "t": "error", "message": e.to_string() }));
    }

    fn refuse(&self, why: impl std::fmt::Display) {
        self.send(json!({ "t": "error", "message": why.to_string() }));
    }

    async fn handle(&mut self, message: ClientMessage) {
        if let ClientMessage::Hello { protocol, token } = &message {
            return self.hello(*protocol, token.as_deref()).await;
        }
        if let ClientMessage::Ping = message {
            return self.send(json!({ "t": "pong" }));
        }
        let Some(me) = self.me.clone() else {
            return self.refuse("say hello first");
        };
        let hub = Arc::clone(&self.hub);
        let answer: Result<Option<Value>, HubError> = match message {
            ClientMessage::Hello { .. } | ClientMessage::Ping => Ok(None),
            ClientMessage::Register { name, password } => {
                hub.register(&me, &name, &password).await.map(|who| {
                    let welcome = welcome(&who);
                    self.me = Some(who);
                    Some(welcome)
                })
            }
            ClientMessage::Login { name, password } => {
                hub.login(&name, &password).await.map(|who| {
                    hub.offline(Some(&me.id), self.conn);
                    hub.online(&who.id, self.conn, self.out.clone());
                    let welcome = welcome(&who);
                    self.me = Some(who);
                    Some(welcome)
                })
            }
            ClientMessage::Lobby => {
                hub.follow_lobby(self.conn, self.out.clone());
                Ok(None)
            }
            ClientMessage::Seek(request) => hub.seek(&me, request).await.map(Some),
            ClientMessage::Quick(request) => hub.quick(&me, request).await.map(Some),
            ClientMessage::Cancel { seek } => hub.cancel(&me.id, &seek).map(|()| None),
            ClientMessage::Accept { seek } => hub.accept(&me, &seek).await.map(|()| None),
            ClientMessage::Games => Ok(Some(hub.games_of(&me.id))),
            ClientMessage::Ratings => hub.ratings_of(&me.id).await.map(Some),
            ClientMessage::Playing => {
                let mut list = hub.games_in_play();
                list["t"] = json!("playing");
                Ok(Some(list))
            }
            ClientMessage::Join { game, seen } => {
                self.to_room(&game, |out| RoomCommand::Join {
                    conn: 0,
                    who: Some(me.id.clone()),
                    seen,
                    out,
                })
                .await;
                self.following.insert(game);
                Ok(None)
            }
            ClientMessage::Leave { game } => {
                let conn = self.conn;
                self.to_room(&game, |_| RoomCommand::Leave {
                    conn,
                    on_purpose: true,
                })
                .await;
                self.following.remove(&game);
                Ok(None)
            }
            ClientMessage::Move {
                game,
                ply,
                step,
                ack,
                lag_ms,
            } => {
                let lag = Duration::from_millis(u64::from(lag_ms.unwrap_or(0).min(5_000)));
                self.to_room(&game, |out| RoomCommand::Move {
                    who: me.id.clone(),
                    ply,
                    step,
                    ack,
                    lag,
                    out,
                })
                .await;
                Ok(None)
            }
            ClientMessage::Resign { game } => self.act(&game, &me, Act::Resign).await,
            ClientMessage::Draw { game } => self.act(&game, &me, Act::Draw).await,
            ClientMessage::Abort { game } => self.act(&game, &me, Act::Abort).await,
            ClientMessage::Claim { game } => self.act(&game, &me, Act::Claim).await,
        };
        match answer {
            Ok(Some(answer)) => self.send(answer),
            Ok(None) => {}
            Err(e) => self.refuse(e),
        }
    }

    async fn hello(&mut self, protocol: u32, token: Option<&str>) {
        if protocol != PROTOCOL {
            return self.refuse(format!(
                "this server speaks protocol {PROTOCOL}, not {protocol}"
            ));
        }
        if self.me.is_some() {
            return self.refuse("hello was said already");
        }
        match self.hub.hello(token).await {
            Ok(who) => {
                self.hub.online(&who.id, self.conn, self.out.clone());
                self.send(welcome(&who));
                self.me = Some(who);
            }
            Err(e) => self.refuse(e),
        }
    }

    async fn act(&self, game: &str, me: &Identity, act: Act) -> Result<Option<Value>, HubError> {
        self.to_room(game, |out| RoomCommand::Act {
            who: me.id.clone(),
            act,
            out,
        })
        .await;
        Ok(None)
    }

    /// Hands a command to game `game`'s room (a join is given this connection's
    /// number and remembered).
    async fn to_room(&self, game: &str, command: impl FnOnce(Outbox) -> RoomCommand) {
        let Some(room) = self.hub.room(game) else {
            return self.send(json!({
                "t": "error",
                "game": game,
                "message": format!("no game '{game}' in play (a finished game's record: /game/{game}.pgn)"),
            }));
        };
        let mut command = command(self.out.clone());
        if let RoomCommand::Join { conn, .. } = &mut command {
            *conn = self.conn;
        }
        let _ = room.send(command).await;
    }

    /// The connection is gone: it leaves its games (a lost connection, not on
    /// purpose) and the lists.
    async fn closed(&mut self) {
        let games: Vec<String> = self.following.drain().collect();
        for game in games {
            let conn = self.conn;
            self.to_room(&game, |_| RoomCommand::Leave {
                conn,
                on_purpose: false,
            })
            .await;
        }
        self.hub.offline(self.me.as_ref().map(|m| &m.id), self.conn);
    }
}

fn welcome(who: &Identity) -> Value {
    json!({
        "t": "welcome",
        "protocol": PROTOCOL,
        "player": who.id.0,
        "name": who.name,
        "token": who.token,
        "account": who.account,
    })
}
