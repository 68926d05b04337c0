//! The protocol's types against the wire: every message written and read back the
//! same, the examples of docs/online.md read as the types they show, and the shipped
//! JSON Schema the one the types generate.

use hexchess_protocol::*;
use serde_json::{Value, json};

fn state() -> GameState {
    GameState {
        game: "ABCDEFGHJKMN".into(),
        rated: false,
        speed: "blitz".into(),
        deadline_ms: None,
        names: vec!["Anonymous K3M7".into(), "ann".into()],
        bots: vec![false, false],
        ratings: vec![
            Some(SeatRating {
                rating: 1500.0,
                provisional: true,
            }),
            None,
        ],
        away: vec![AwaySeat {
            side: "Black".into(),
            claim_in_ms: 38_500,
        }],
        chat: vec![ChatLine {
            from: "ann".into(),
            text: "good luck".into(),
            room: ChatRoom::Players,
        }],
        you: vec!["White".into()],
        board: BoardView {
            variant: "glinski".into(),
            steps: vec![Some("f5f6".into()), None],
            to_move: "White".into(),
            legal: Some(vec!["f6f7".into()]),
            ply: 2,
            view_fen: None,
            clocks_ms: Some(vec![298_000, 300_000]),
            running: Some("White".into()),
            draw_offers: vec![],
            result: None,
            why: None,
            points: None,
            v: 2,
        },
    }
}

fn every_server_message() -> Vec<FromServer> {
    use FromServer::{Event, Hidden as H, Message as M};
    let game = || "ABCDEFGHJKMN".to_string();
    vec![
        M(ServerMessage::Welcome(Welcome {
            protocol: PROTOCOL,
            player: "K3M7AAAA".into(),
            name: "Anonymous K3M7".into(),
            token: "9f0c".into(),
            account: false,
            muted: vec![],
        })),
        M(ServerMessage::error("say hello first")),
        M(ServerMessage::Error(ErrorMessage {
            game: Some(game()),
            message: "no game".into(),
        })),
        M(ServerMessage::Pong),
        M(ServerMessage::Seeks {
            seeks: vec![SeekListing {
                id: "S1".into(),
                variant: "mccooey".into(),
                minutes: Some(5),
                increment: 3,
                days: None,
                rated: true,
                by: Some("ann".into()),
                seats: 2,
                open: 1,
                bot: false,
                rating: Some(SeatRating {
                    rating: 1612.5,
                    provisional: false,
                }),
            }],
        }),
        M(ServerMessage::Seek(SeekReply {
            id: "S1".into(),
            code: None,
        })),
        M(ServerMessage::Started(Started {
            game: game(),
            variant: "glinski".into(),
            side: "White".into(),
            tournament: None,
        })),
        M(ServerMessage::Games {
            games: vec![YourGame {
                game: game(),
                variant: "glinski".into(),
                speed: "blitz".into(),
                names: vec!["a".into(), "b".into()],
                your_turn: true,
            }],
        }),
        M(ServerMessage::Playing { games: vec![] }),
        M(ServerMessage::Ratings {
            ratings: vec![RatingLine {
                variant: "glinski".into(),
                speed: "untimed".into(),
                rating: 1662.0,
                deviation: 290.0,
                games: 1,
                provisional: true,
            }],
        }),
        M(ServerMessage::State(Box::new(state()))),
        M(ServerMessage::Joined(Joined { game: game(), v: 7 })),
        M(ServerMessage::Ack(Ack {
            game: game(),
            ack: 17,
        })),
        M(ServerMessage::Refused(Box::new(Refused {
            game: game(),
            ack: Some(17),
            why: "that move is for another ply: resync".into(),
            state: Some(state()),
        }))),
        M(ServerMessage::Refused(Box::new(Refused {
            game: game(),
            ack: None,
            why: "the game is over".into(),
            state: None,
        }))),
        Event(Numbered {
            game: game(),
            v: 3,
            event: GameEvent::Step {
                ply: 2,
                side: "White".into(),
                step: "f6f7".into(),
                left_ms: Some(297_100),
                to_move: "Black".into(),
                legal: None,
            },
        }),
        Event(Numbered {
            game: game(),
            v: 9,
            event: GameEvent::Reveal {
                steps: vec![RevealedStep {
                    ply: 0,
                    step: "K@f2".into(),
                }],
            },
        }),
        Event(Numbered {
            game: game(),
            v: 5,
            event: GameEvent::DrawOffer {
                side: "White".into(),
            },
        }),
        Event(Numbered {
            game: game(),
            v: 6,
            event: GameEvent::End {
                result: "1-0".into(),
                why: "checkmate".into(),
                points: Some(vec![1000, 0]),
            },
        }),
        Event(Numbered {
            game: game(),
            v: 6,
            event: GameEvent::End {
                result: "*".into(),
                why: "aborted".into(),
                points: None,
            },
        }),
        H(Hidden { game: game(), v: 4 }),
        M(ServerMessage::Rematch(RematchAsked {
            game: game(),
            asked: vec!["Black".into()],
        })),
        Event(Numbered {
            game: game(),
            v: 7,
            event: GameEvent::DrawDeclined {
                side: "Black".into(),
            },
        }),
        M(ServerMessage::Player(Box::new(PlayerProfile {
            name: "ann".into(),
            bot: false,
            ratings: vec![],
            games: vec![PlayedGame {
                game: game(),
                variant: "glinski".into(),
                speed: "blitz".into(),
                rated: true,
                seat: "White".into(),
                names: vec!["ann".into(), "bob".into()],
                result: Some("1-0".into()),
                why: Some("checkmate".into()),
                updated_ms: 1_796_615_865_000,
            }],
        }))),
        M(ServerMessage::Leaderboard(Leaderboard {
            variant: "glinski".into(),
            speeds: vec![SpeedBoard {
                speed: "blitz".into(),
                players: vec![LeaderLine {
                    name: "ann".into(),
                    rating: 1662.0,
                    deviation: 60.0,
                    games: 40,
                    provisional: false,
                }],
            }],
        })),
        M(ServerMessage::Muted {
            names: vec!["troll".into()],
        }),
        Event(Numbered {
            game: game(),
            v: 13,
            event: GameEvent::Away {
                side: "Black".into(),
                claim_in_ms: 40_000,
            },
        }),
        Event(Numbered {
            game: game(),
            v: 14,
            event: GameEvent::Back {
                side: "Black".into(),
            },
        }),
        Event(Numbered {
            game: game(),
            v: 11,
            event: GameEvent::Chat(ChatLine {
                from: "bob".into(),
                text: "nice move".into(),
                room: ChatRoom::Spectators,
            }),
        }),
        Event(Numbered {
            game: game(),
            v: 12,
            event: GameEvent::Rated {
                changes: vec![
                    Some(RatingChange {
                        before: 1500.0,
                        after: 1662.25,
                        provisional: true,
                    }),
                    None,
                ],
            },
        }),
        M(ServerMessage::Started(Started {
            game: game(),
            variant: "glinski".into(),
            side: "Black".into(),
            tournament: Some("T1".into()),
        })),
        Event(Numbered {
            game: game(),
            v: 15,
            event: GameEvent::Berserk {
                side: "White".into(),
            },
        }),
        M(ServerMessage::Tournaments(TournamentList {
            tournaments: vec![listing()],
        })),
        M(ServerMessage::Tournament(Box::new(TournamentView {
            listing: listing(),
            standings: vec![StandingLine {
                rank: 1,
                number: Some(1),
                name: "ann".into(),
                bot: false,
                rating: 1500,
                points: 1.5,
                games: 2,
                tie_breaks: vec![1.0, 0.75],
                sheet: vec!["1".into(), "½".into()],
                on_fire: false,
                withdrawn: false,
                playing: Some(game()),
            }],
        }))),
    ]
}

fn listing() -> TournamentListing {
    TournamentListing {
        id: "T1".into(),
        kind: TournamentKind::Swiss,
        name: "Friday Swiss".into(),
        variant: "glinski".into(),
        minutes: 3,
        increment: 2,
        rated: true,
        bots: false,
        berserk: false,
        status: "running".into(),
        starts_ms: 1_765_000_000_000,
        ends_ms: None,
        round: Some(2),
        rounds: Some(5),
        players: 9,
        by: "ann".into(),
    }
}

#[test]
fn every_server_message_reads_back_as_written() {
    for message in every_server_message() {
        let text = message.to_text();
        assert_eq!(FromServer::read(&text), Ok(message.clone()), "{text}");
    }
}

#[test]
fn server_messages_have_the_wire_form_of_docs_online_md() {
    let all = every_server_message();
    let wire: Vec<Value> = all
        .iter()
        .map(|m| serde_json::from_str(&m.to_text()).unwrap())
        .collect();
    // Replies carry their type; events their type, game and version; a hidden event
    // only the game and the version.
    assert_eq!(wire[3], json!({"t": "pong"}));
    assert_eq!(wire[5], json!({"t": "seek", "id": "S1", "code": null}));
    assert_eq!(
        wire[1],
        json!({"t": "error", "message": "say hello first"}),
        "no game: no field"
    );
    assert_eq!(
        wire[15],
        json!({"t": "step", "game": "ABCDEFGHJKMN", "v": 3, "ply": 2, "side": "White",
               "step": "f6f7", "left_ms": 297100, "to_move": "Black", "legal": null})
    );
    assert_eq!(
        wire[19],
        json!({"t": "end", "game": "ABCDEFGHJKMN", "v": 6, "result": "*", "why": "aborted"})
    );
    assert_eq!(wire[20], json!({"game": "ABCDEFGHJKMN", "v": 4}));
    let state = &wire[10];
    for field in [
        "game",
        "variant",
        "names",
        "you",
        "steps",
        "ply",
        "to_move",
        "legal",
        "clocks_ms",
        "running",
        "draw_offers",
        "rated",
        "speed",
        "result",
        "why",
        "v",
        "view_fen",
        "points",
        "deadline_ms",
    ] {
        assert!(state.get(field).is_some(), "state lacks {field}: {state}");
    }
    assert_eq!(state["t"], "state");
    assert_eq!(state["steps"], json!(["f5f6", null]));
    let refused = &wire[14];
    assert!(
        refused.get("ack").is_none() && refused.get("state").is_none(),
        "{refused}"
    );
    assert_eq!(
        wire[13]["state"]["t"],
        Value::Null,
        "the state inside is the object alone"
    );
    assert_eq!(wire[13]["state"]["ply"], 2);
}

#[test]
fn every_client_message_reads_back_as_written() {
    let seek = SeekRequest {
        variant: "glinski".into(),
        minutes: Some(5),
        increment: 3,
        rated: true,
        side: Some("white".into()),
        ..SeekRequest::default()
    };
    let game = || "ABCDEFGHJKMN".to_string();
    for message in [
        ClientMessage::Hello {
            protocol: PROTOCOL,
            token: Some("9f0c".into()),
        },
        ClientMessage::Register {
            name: "ann".into(),
            password: "a long password".into(),
            bot: true,
        },
        ClientMessage::Login {
            name: "ann".into(),
            password: "a long password".into(),
        },
        ClientMessage::Lobby,
        ClientMessage::Seek(seek.clone()),
        ClientMessage::Quick(seek),
        ClientMessage::Cancel { seek: "S1".into() },
        ClientMessage::Accept {
            seek: "Q7KD3MPA".into(),
        },
        ClientMessage::Join {
            game: game(),
            seen: Some(41),
        },
        ClientMessage::Leave { game: game() },
        ClientMessage::Move {
            game: game(),
            ply: 2,
            step: "f6f7".into(),
            ack: 17,
            lag_ms: Some(40),
        },
        ClientMessage::Chat {
            game: game(),
            text: "good luck".into(),
        },
        ClientMessage::Mute {
            name: "troll".into(),
        },
        ClientMessage::Unmute {
            name: "troll".into(),
        },
        ClientMessage::Player {
            name: Some("ann".into()),
        },
        ClientMessage::Player { name: None },
        ClientMessage::Leaderboard {
            variant: "glinski".into(),
        },
        ClientMessage::Resign { game: game() },
        ClientMessage::Draw { game: game() },
        ClientMessage::Abort { game: game() },
        ClientMessage::Claim { game: game() },
        ClientMessage::Decline { game: game() },
        ClientMessage::Rematch { game: game() },
        ClientMessage::Games,
        ClientMessage::Ratings,
        ClientMessage::Playing,
        ClientMessage::Tournaments,
        ClientMessage::TournamentCreate(Box::new(TournamentRequest {
            kind: TournamentKind::Swiss,
            name: "Friday Swiss".into(),
            variant: "glinski".into(),
            minutes: 3,
            increment: 2,
            rated: true,
            starts_in: 600,
            seconds: None,
            rounds: Some(5),
            bots: true,
            first_move_seconds: None,
            berserk: false,
        })),
        ClientMessage::Berserk { game: "G1".into() },
        ClientMessage::TournamentJoin {
            tournament: "T1".into(),
            engine: Some(3),
        },
        ClientMessage::TournamentWithdraw {
            tournament: "T1".into(),
        },
        ClientMessage::Tournament {
            tournament: "T1".into(),
        },
        ClientMessage::Ping,
    ] {
        let text = message.to_text();
        assert_eq!(
            ClientMessage::read(text.as_bytes()),
            Ok(message.clone()),
            "{text}"
        );
    }
}

/// The JSON examples docs/online.md shows read as the types they stand for.
#[test]
fn the_examples_of_the_docs_read() {
    let docs = include_str!("../../../docs/online.md");
    let state = docs
        .split("```json\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("the state example")
        .replace(",...]", "]");
    match FromServer::read(&state) {
        Ok(FromServer::Message(ServerMessage::State(s))) => {
            assert_eq!(s.board.ply, 2);
            assert_eq!(s.you, ["White"]);
        }
        other => panic!("{other:?}"),
    }
    let events = [
        r#"{"t":"step","ply":2,"side":"White","step":"f6f7","left_ms":297100,"to_move":"Black","legal":[],"v":3,"game":"ID"}"#,
        r#"{"v":4,"game":"ID"}"#,
        r#"{"t":"reveal","steps":[{"ply":0,"step":"K@f2"}],"v":9,"game":"ID"}"#,
        r#"{"t":"draw_offer","side":"White","v":5,"game":"ID"}"#,
        r#"{"t":"end","result":"1-0","why":"checkmate","points":[1000,0],"v":6,"game":"ID"}"#,
    ];
    for text in events {
        let read = FromServer::read(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(read.game(), Some("ID"));
        assert!(read.version().is_some());
    }
    let tournament = docs
        .split("<!-- tournament-example -->\n```json\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("the tournament example");
    match FromServer::read(tournament) {
        Ok(FromServer::Message(ServerMessage::Tournament(t))) => {
            assert_eq!(t.listing.kind, TournamentKind::Swiss);
            assert_eq!(t.standings.len(), 2);
            assert_eq!(t.standings[1].playing.as_deref(), Some("GAMEID"));
        }
        other => panic!("{other:?}"),
    }
    let berserk = r#"{"t":"berserk","side":"White","v":7,"game":"ID"}"#;
    assert!(FromServer::read(berserk).is_ok_and(|e| e.version() == Some(7)));
    let unknown = FromServer::read(r#"{"t":"castle","game":"ID"}"#).unwrap_err();
    assert!(unknown.contains("unknown variant `castle`"), "{unknown}");
    let newer = FromServer::read(r#"{"t":"pong","from_a_newer_server":1}"#);
    assert_eq!(
        newer,
        Ok(FromServer::Message(ServerMessage::Pong)),
        "unknown fields pass"
    );
}

/// docs/protocol.schema.json is what the types generate (regenerate it with
/// `HEXCHESS_WRITE_SCHEMA=1 cargo test -p hexchess-protocol --test wire`).
#[test]
fn the_shipped_schema_is_the_generated_one() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/protocol.schema.json"
    );
    let generated = serde_json::to_string_pretty(&schema()).unwrap() + "\n";
    if std::env::var_os("HEXCHESS_WRITE_SCHEMA").is_some() {
        std::fs::write(path, &generated).unwrap();
    }
    let shipped = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        shipped == generated,
        "docs/protocol.schema.json is not the types' schema: regenerate it \
         (HEXCHESS_WRITE_SCHEMA=1 cargo test -p hexchess-protocol --test wire)"
    );
}

/// Every message written by the types is valid under the shipped schema's structure:
/// each one's `t` is named in it.
#[test]
fn the_schema_names_every_type_of_message() {
    let text = serde_json::to_string(&schema()).unwrap();
    for t in [
        "welcome",
        "error",
        "pong",
        "seeks",
        "seek",
        "started",
        "rematch",
        "games",
        "playing",
        "ratings",
        "state",
        "joined",
        "ack",
        "refused",
        "step",
        "reveal",
        "draw_offer",
        "draw_declined",
        "decline",
        "end",
        "hello",
        "register",
        "login",
        "lobby",
        "cancel",
        "accept",
        "quick",
        "join",
        "leave",
        "move",
        "resign",
        "draw",
        "abort",
        "claim",
        "ping",
    ] {
        assert!(text.contains(&format!("\"{t}\"")), "{t}");
    }
}
