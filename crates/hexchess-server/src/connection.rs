//! One client's websocket: its messages read under a size and a rate limit, each
//! answered or handed to the hub or a game's room; its outbox written back in order.
//!
//! A client over its rate is closed with code 1008 (policy violation), as lila-ws
//! does; so is a client that does not read (its outbox overflows, or one write waits
//! half of [`crate::hub::Limits::idle`], 30 s by default). The server pings every third of it; a
//! client from which nothing at all (a message, a ping, a pong) arrives for the whole
//! of it (60 s) is closed. A message that cannot be read is answered with an error
//! and the connection goes on.
//! When the server stops, every connection is sent what it has queued and closed
//! with 1012 (service restart), so that clients come back by themselves.

use std::collections::HashSet;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures_util::stream::SplitSink;
use futures_util::{SinkExt, StreamExt};
use hexchess_protocol::{ErrorMessage, ServerMessage, Welcome};
use tokio::time::Instant;

use crate::chat::Muted;
use crate::cluster::socket_node::NotSent;
use crate::hub::{ConnectionPlace, Hub, HubError, Identity, MAX_FOLLOWED};
use crate::message::{ClientMessage, MessageError};
use crate::metrics::CloseReason;
use crate::outbox::{Ending, List, Next, Outbox, POLICY_VIOLATION};
use crate::rate::RateLimit;
use crate::room::{Act, ConnId, RoomCommand};

/// The protocol this server speaks (docs/online.md).
pub use hexchess_protocol::PROTOCOL;

/// The close code when the server stops (RFC 6455: service restart; a client comes
/// back by itself).
pub const SERVICE_RESTART: u16 = 1012;

/// Serves one websocket from `from` until it closes; `place` is its place among the
/// server's connections, or why it has none (it is then closed at once, with 1008).
pub async fn run(
    socket: WebSocket,
    hub: Arc<Hub>,
    place: Result<ConnectionPlace, String>,
    from: IpAddr,
) {
    let (mut sink, mut stream) = socket.split();
    let _place = match place {
        Ok(place) => place,
        Err(why) => {
            hub.metrics.closed(CloseReason::Connections);
            let _ = tokio::time::timeout(
                Duration::from_secs(2),
                sink.send(close_frame(POLICY_VIOLATION, &why)),
            )
            .await;
            return;
        }
    };
    let out = Outbox::new();
    let writer = tokio::spawn(write(sink, out.clone(), Arc::clone(&hub)));
    let mut client = Client {
        conn: hub.next_conn(),
        hub: Arc::clone(&hub),
        out: out.clone(),
        me: None,
        following: HashSet::new(),
        limit: RateLimit::player(hub.now()),
        from,
        muted: Muted::default(),
    };
    let idle = hub.limits.idle;
    let mut heard = Instant::now();
    // Made once, not at each message: the end of the outbox, the server's stop, and a
    // timer that, when it rings, closes the client only if nothing came since.
    let ended = out.ended();
    let stopping = hub.stopping();
    let silence = tokio::time::sleep_until(heard + idle);
    tokio::pin!(ended, stopping, silence);
    loop {
        let frame = tokio::select! {
            frame = stream.next() => frame,
            () = &mut ended => break,
            () = &mut stopping => {
                out.end(Ending {
                    frame: Some((SERVICE_RESTART, "the server is restarting: come back in a moment".into())),
                    drain: true,
                });
                break;
            }
            () = &mut silence => {
                if heard.elapsed() < idle {
                    silence.as_mut().reset(heard + idle);
                    continue;
                }
                hub.metrics.closed(CloseReason::Idle);
                out.end(Ending {
                    frame: Some((POLICY_VIOLATION, format!("nothing heard for {} s", idle.as_secs()))),
                    drain: false,
                });
                break;
            }
        };
        let frame = match frame {
            Some(Ok(frame)) => frame,
            None | Some(Err(_)) => break,
        };
        heard = Instant::now();
        let bytes = match frame {
            Message::Text(text) => text,
            Message::Binary(_) => {
                if client.within_rate() {
                    client.error(&MessageError::Binary);
                    continue;
                }
                client.over_rate();
                break;
            }
            Message::Close(_) => break,
            Message::Ping(_) | Message::Pong(_) => continue,
        };
        if !client.within_rate() {
            client.over_rate();
            break;
        }
        match ClientMessage::read(bytes.as_bytes()) {
            Ok(message) => client.handle(message, heard).await,
            Err(e) => client.error(&e),
        }
    }
    client.closed().await;
    out.end(Ending {
        frame: None,
        drain: true,
    });
    drop(client);
    // Let the writer send what is queued (or the close frame), then end.
    let _ = tokio::time::timeout(hub.limits.write_stall(), writer).await;
    // Read on, and drop, what the client sent after the reader stopped, until its close
    // answers ours or a short while has passed: a socket closed with bytes unread is
    // reset, and the reset can drop our close frame before the client reads it.
    let drain = async { while let Some(Ok(_)) = stream.next().await {} };
    let _ = tokio::time::timeout(CLOSE_DRAIN, drain).await;
}

/// Writes the outbox to the socket, pinging the client now and then, until the outbox
/// ends; a write that waits too long ends it (the client does not read).
async fn write(mut sink: SplitSink<WebSocket, Message>, out: Outbox, hub: Arc<Hub>) {
    let every = hub.limits.ping_every();
    let stall = hub.limits.write_stall();
    let mut ping = tokio::time::interval_at(Instant::now() + every, every);
    loop {
        let message = tokio::select! {
            next = out.next() => match next {
                Next::Text(text) => Message::Text(text.into()),
                Next::End(frame) => {
                    let closing = match frame {
                        Some((code, reason)) => sink.send(close_frame(code, &reason)).await,
                        None => sink.close().await,
                    };
                    drop(closing);
                    return;
                }
            },
            _ = ping.tick() => Message::Ping(Vec::new().into()),
        };
        match tokio::time::timeout(stall, sink.send(message)).await {
            Ok(Ok(())) => {}
            Ok(Err(_)) => {
                out.end(Ending {
                    frame: None,
                    drain: false,
                });
                return;
            }
            Err(_) => {
                hub.metrics.closed(CloseReason::NotReading);
                out.end(Ending {
                    frame: None,
                    drain: false,
                });
                return;
            }
        }
    }
}

/// How long a closed connection's late messages are read and dropped, at most.
const CLOSE_DRAIN: Duration = Duration::from_secs(2);

fn close_frame(code: u16, reason: &str) -> Message {
    Message::Close(Some(CloseFrame {
        code,
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
    limit: RateLimit,
    from: IpAddr,
    /// The names whose chat this player hides (shared with the games it follows).
    muted: Muted,
}

impl Client {
    fn within_rate(&mut self) -> bool {
        let now = self.hub.now();
        self.limit.allow(now)
    }

    /// Over its rate: closed with 1008, what was queued for it dropped.
    fn over_rate(&self) {
        self.hub.metrics.closed(CloseReason::Rate);
        self.out.end(Ending {
            frame: Some((POLICY_VIOLATION, "too many messages: slow down".into())),
            drain: false,
        });
    }

    fn send(&self, message: ServerMessage) {
        self.out.send(message.to_text());
    }

    /// This connection follows `tournament`'s standings (its view comes at once, in
    /// the standings' slot).
    async fn follow_tournament(
        &self,
        t: &crate::tournaments::Tournaments,
        tournament: String,
    ) -> Result<Option<ServerMessage>, HubError> {
        t.follow(self.conn, self.out.clone(), tournament)
            .await
            .map(|()| None)
            .map_err(HubError::Refused)
    }

    fn error(&self, e: &MessageError) {
        self.send(ServerMessage::error(e.to_string()));
    }

    fn refuse(&self, why: impl std::fmt::Display) {
        self.send(ServerMessage::error(why.to_string()));
    }

    async fn handle(&mut self, message: ClientMessage, received: Instant) {
        if let ClientMessage::Hello { protocol, token } = &message {
            return self.hello(*protocol, token.as_deref()).await;
        }
        if let ClientMessage::Ping = message {
            return self.send(ServerMessage::Pong);
        }
        let Some(me) = self.me.clone() else {
            return self.refuse("say hello first");
        };
        let hub = Arc::clone(&self.hub);
        let answer: Result<Option<ServerMessage>, HubError> = match message {
            ClientMessage::Hello { .. } | ClientMessage::Ping => Ok(None),
            ClientMessage::Register {
                name,
                password,
                bot,
            } => hub
                .register(&me, &name, &password, bot, self.from)
                .await
                .map(|who| {
                    let welcome = welcome(&who, &self.muted);
                    self.me = Some(who);
                    Some(welcome)
                }),
            ClientMessage::Login { name, password } => {
                match hub.login(&name, &password, self.from).await {
                    Ok(who) => {
                        hub.offline(Some(&me.id), self.conn);
                        hub.online(&who.id, self.conn, self.out.clone());
                        self.read_mutes(&who).await;
                        let welcome = welcome(&who, &self.muted);
                        self.me = Some(who);
                        Ok(Some(welcome))
                    }
                    Err(e) => Err(e),
                }
            }
            ClientMessage::Chat { game, text } => {
                self.to_room(&game, |out| RoomCommand::Chat {
                    who: me.id.clone(),
                    name: me.name.clone(),
                    account: me.account,
                    text,
                    out,
                })
                .await;
                Ok(None)
            }
            ClientMessage::Record { game } => hub.record(&game).await.map(Some),
            ClientMessage::Player { name } => match hub.lookup_allowed(self.from) {
                Ok(()) => match name {
                    Some(name) => hub.profile(&name).await,
                    None => hub.own_page(&me).await,
                }
                .map(|p| Some(ServerMessage::Player(Box::new(p)))),
                Err(e) => Err(e),
            },
            ClientMessage::Leaderboard { variant } => match hub.lookup_allowed(self.from) {
                Ok(()) => hub
                    .leaderboard(&variant)
                    .await
                    .map(|b| Some(ServerMessage::Leaderboard(b))),
                Err(e) => Err(e),
            },
            ClientMessage::Mute { name } => hub.mute(&me, &self.muted, &name, true).await.map(Some),
            ClientMessage::Unmute { name } => {
                hub.mute(&me, &self.muted, &name, false).await.map(Some)
            }
            ClientMessage::Lobby => {
                hub.follow_lobby(self.conn, self.out.clone()).await;
                Ok(None)
            }
            ClientMessage::Seek(request) => hub.seek(&me, request).await.map(Some),
            ClientMessage::Quick(request) => hub.quick(&me, request).await.map(Some),
            ClientMessage::Cancel { seek } => hub.cancel(&me.id, &seek).await.map(|()| None),
            ClientMessage::Accept { seek } => hub.accept(&me, &seek).await.map(|()| None),
            ClientMessage::Games => {
                hub.follow_games(self.conn, &me.id, self.out.clone());
                Ok(None)
            }
            ClientMessage::Ratings => hub.ratings_of(&me.id).await.map(Some),
            ClientMessage::Playing => {
                self.out
                    .set_list(List::Playing, hub.playing_list().to_text());
                Ok(None)
            }
            ClientMessage::Join { game, .. }
                if !self.following.contains(&game) && self.following.len() >= MAX_FOLLOWED =>
            {
                Err(HubError::Refused(format!(
                    "you follow {MAX_FOLLOWED} games already: leave one first"
                )))
            }
            ClientMessage::Join { game, seen } => {
                let joined = self
                    .to_room(&game, |out| RoomCommand::Join {
                        conn: 0,
                        who: Some(me.id.clone()),
                        seen,
                        out,
                        muted: self.muted.clone(),
                    })
                    .await;
                if joined {
                    self.following.insert(game);
                }
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
                    received,
                })
                .await;
                Ok(None)
            }
            ClientMessage::Resign { game } => self.act(&game, &me, Act::Resign).await,
            ClientMessage::Draw { game } => self.act(&game, &me, Act::Draw).await,
            ClientMessage::Abort { game } => self.act(&game, &me, Act::Abort).await,
            ClientMessage::Berserk { game } => self.act(&game, &me, Act::Berserk).await,
            ClientMessage::Claim { game } => self.act(&game, &me, Act::Claim).await,
            ClientMessage::Decline { game } => self.act(&game, &me, Act::Decline).await,
            ClientMessage::Rematch { game } => hub.rematch(&me, &game).await.map(|()| None),
            ClientMessage::Tournaments => match hub.tournaments() {
                Ok(t) => {
                    t.follow_list(self.conn, self.out.clone()).await;
                    Ok(None)
                }
                Err(e) => Err(e),
            },
            ClientMessage::TournamentCreate(request) => match hub.tournaments() {
                Ok(t) => match t.create(&me, *request).await {
                    // The creator follows it (`tournament` comes as the answer).
                    Ok(view) => self.follow_tournament(t, view.listing.id).await,
                    Err(why) => Err(HubError::Refused(why)),
                },
                Err(e) => Err(e),
            },
            ClientMessage::TournamentJoin { tournament, engine } => match hub.tournaments() {
                Ok(t) => match t.join(&me, tournament.clone(), engine).await {
                    Ok(()) => self.follow_tournament(t, tournament).await,
                    Err(why) => Err(HubError::Refused(why)),
                },
                Err(e) => Err(e),
            },
            ClientMessage::TournamentWithdraw { tournament } => match hub.tournaments() {
                Ok(t) => match t.withdraw(&me.id, tournament.clone()).await {
                    Ok(()) => self.follow_tournament(t, tournament).await,
                    Err(why) => Err(HubError::Refused(why)),
                },
                Err(e) => Err(e),
            },
            ClientMessage::Tournament { tournament } => match hub.tournaments() {
                Ok(t) => self.follow_tournament(t, tournament).await,
                Err(e) => Err(e),
            },
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
        match self.hub.hello(token, self.from).await {
            Ok(who) => {
                self.hub.online(&who.id, self.conn, self.out.clone());
                self.read_mutes(&who).await;
                self.send(welcome(&who, &self.muted));
                self.me = Some(who);
            }
            Err(e) => self.refuse(e),
        }
    }

    /// The names `who` mutes, from the database (none when it cannot be read: chat is
    /// shown rather than the connection refused).
    async fn read_mutes(&mut self, who: &Identity) {
        self.muted = Muted::of(self.hub.mutes_of(&who.id).await);
    }

    async fn act(
        &self,
        game: &str,
        me: &Identity,
        act: Act,
    ) -> Result<Option<ServerMessage>, HubError> {
        self.to_room(game, |out| RoomCommand::Act {
            who: me.id.clone(),
            act,
            out,
        })
        .await;
        Ok(None)
    }

    /// Hands a command to game `game`'s room (a join is given this connection's
    /// number): whether the room took it.
    async fn to_room(&self, game: &str, command: impl FnOnce(Outbox) -> RoomCommand) -> bool {
        if let Some(node) = self.hub.socket_node() {
            return match node.send(game, self.conn, command(self.out.clone())).await {
                Ok(()) => true,
                Err(NotSent::NoGame) => {
                    self.no_game(game);
                    false
                }
                Err(NotSent::Unreachable(why)) => {
                    tracing::warn!(%game, %why, "a command for a game elsewhere was not passed on");
                    self.send(ServerMessage::Error(ErrorMessage {
                        game: Some(game.to_string()),
                        message: "the server cannot reach this game now: try again in a moment"
                            .into(),
                    }));
                    false
                }
            };
        }
        let Some(room) = self.hub.room(game) else {
            self.no_game(game);
            return false;
        };
        let mut command = command(self.out.clone());
        if let RoomCommand::Join { conn, .. } = &mut command {
            *conn = self.conn;
        }
        room.send(command).await.is_ok()
    }

    fn no_game(&self, game: &str) {
        self.send(ServerMessage::Error(ErrorMessage {
            game: Some(game.to_string()),
            message: format!(
                "no game '{game}' in play (a finished game's record: /game/{game}.pgn)"
            ),
        }));
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

fn welcome(who: &Identity, muted: &Muted) -> ServerMessage {
    ServerMessage::Welcome(Welcome {
        protocol: PROTOCOL,
        player: who.id.0.clone(),
        name: who.name.clone(),
        token: who.token.clone(),
        account: who.account,
        muted: muted.names(),
    })
}
