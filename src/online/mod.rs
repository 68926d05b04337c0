//! Playing on a server (docs/online.md): the game as a client of `hexchess-server`.
//!
//! The connection lives on its own thread ([`link`]); this plugin turns what the
//! server says into the game's own requests and resources, so that the board,
//! animation, sound and clocks of an online game are those of local play:
//!
//! - the server's `state` puts its game on the board (a reset), each `step` is a
//!   [`StepDecided`] (animated and heard like any move), `end` ends the game;
//! - while an online game is on the board, [`Authority::Remote`] makes a person's
//!   moves [`StepProposed`]: sent with their ply, played when the server sends them
//!   back; a move not yet acknowledged is sent again after a reconnection (the server
//!   plays it once);
//! - the lobby (seeks, your games, ratings) is kept in [`Online`] for the interface,
//!   which asks for things with [`OnlineRequest`].

pub mod link;
pub mod secrets;

use std::time::Duration;

use bevy::prelude::*;
use hexchess_core::piece::MAX_SIDES;
use hexchess_core::{Game, GameOutcome, Points, Side, Termination};
use hexchess_protocol::{
    ChatLine, ClientMessage, FromServer, GameEvent, GameInPlay, GameState, Leaderboard, Numbered,
    PlayerProfile, RatingChange, RatingLine, SeatRating, SeekListing, SeekRequest, ServerMessage,
    Welcome, YourGame,
};

use crate::game::{
    Authority, CurrentGame, EndRequest, GameNotice, GameSet, LoadRequest, ReplaceRequest,
    StepDecided, StepProposed, Variants,
};
use crate::play::{Clocks, Seats, Session};
use link::{Link, LinkEvent, LinkStatus};

/// The server a desktop's game connects to unless told otherwise.
pub const DEFAULT_SERVER: &str = "ws://127.0.0.1:7474/socket";

/// The server the game connects to unless told otherwise: on a desktop
/// [`DEFAULT_SERVER`]; in a browser the host the page came from (a hexchess-server
/// serving the game is its own online home).
pub fn default_server() -> String {
    #[cfg(target_arch = "wasm32")]
    if let Some(page) = crate::web::page::default_server() {
        return page;
    }
    DEFAULT_SERVER.to_string()
}

/// The server kept in the settings, as the game uses it: in a browser a page whose
/// settings hold the desktop's default (written before pages defaulted to their own
/// host) gets the page's host instead.
pub fn kept_server(kept: String) -> String {
    if kept == DEFAULT_SERVER {
        default_server()
    } else {
        kept
    }
}

/// The address a friend opens to take challenge `code` on `server`: the server's own
/// browser game (`hexchess-server --web`) with the code in its fragment; `None` for an
/// address that is not a websocket's. In a browser the page's own address is used
/// instead (see `crate::web::page::challenge_link`).
pub fn challenge_link(server: &str, code: &str) -> Option<String> {
    let (scheme, rest) = if let Some(rest) = server.strip_prefix("wss://") {
        ("https", rest)
    } else {
        ("http", server.strip_prefix("ws://")?)
    };
    let host = rest
        .split(['/', '?', '#'])
        .next()
        .filter(|h| !h.is_empty())?;
    Some(format!("{scheme}://{host}/#challenge={code}"))
}

/// The link to challenge `code` on `server` this game shows: in a browser the page's
/// own address, on a desktop the server's page ([`challenge_link`]).
pub fn link_to_challenge(server: &str, code: &str) -> Option<String> {
    #[cfg(target_arch = "wasm32")]
    if let Some(link) = crate::web::page::challenge_link(code) {
        return Some(link);
    }
    challenge_link(server, code)
}

/// Whether the device says it has no network at all (a browser's `navigator.onLine`);
/// a desktop cannot tell, and says no.
pub fn network_absent() -> bool {
    #[cfg(target_arch = "wasm32")]
    return crate::web::page::offline();
    #[cfg(not(target_arch = "wasm32"))]
    false
}

/// The player as the server knows them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Me {
    pub player: String,
    pub name: String,
    pub account: bool,
}

/// A move sent and not yet acknowledged.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Pending {
    ply: u32,
    step: String,
    ack: u64,
}

/// The server's game on the board: the one this program follows, as a player or a
/// spectator (named apart from a "table", which is a game of more sides).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FollowedGame {
    /// The game's id.
    pub game: String,
    pub variant: String,
    pub names: Vec<String>,
    /// Which seats a program plays (the server's engine), in seat order.
    pub bots: Vec<bool>,
    /// The sides this player holds (none: watching).
    pub mine: Vec<Side>,
    /// The newest event version received.
    pub seen: u64,
    pub draw_offers: Vec<String>,
    /// The result once over (`*` for an aborted game), and why.
    pub result: Option<(String, String)>,
    pub rated: bool,
    pub speed: String,
    /// The seats that have asked for a rematch once it is over, by their names.
    pub rematch_asked: Vec<String>,
    /// Each seat's rating in the game's variant and speed (none: an engine's seat).
    pub ratings: Vec<Option<SeatRating>>,
    /// After a rated game: each seat's rating before and after.
    pub rating_changes: Vec<Option<RatingChange>>,
    /// The chat as this player may read it, oldest first.
    pub chat: Vec<ChatLine>,
    /// The seats gone berserk (an arena's game), by name.
    pub berserk: Vec<String>,
    /// The seats whose players are away, by name, and from when their opponents may
    /// claim the game (once it is that seat's turn).
    pub away: Vec<(String, web_time::Instant)>,
    pending: Option<Pending>,
    /// The server's ply where the board's game begins: 0, or while deployments are
    /// hidden the ply of the view the server sent (the others' hidden steps are not
    /// on this board).
    ply_base: u32,
}

impl FollowedGame {
    /// The seat on move whose player is away, and how long until it may be claimed
    /// (zero: now): what the board says and whether *Claim victory* is offered. None
    /// for a spectator, or when the side on move is here.
    pub fn claim(&self, on_move: &str) -> Option<Duration> {
        if self.mine.is_empty() || self.result.is_some() {
            return None;
        }
        let (_, at) = self.away.iter().find(|(side, _)| side == on_move)?;
        Some(at.saturating_duration_since(web_time::Instant::now()))
    }

    /// A move of this player's is on its way to the server (the next waits for it).
    pub fn waiting(&self) -> bool {
        self.pending.is_some()
    }

    /// The draw offers of other seats than this player's (the ones to accept or
    /// decline), by seat name; `rules` names the seats.
    pub fn offers_to_me(
        &self,
        rules: &hexchess_core::Rules<hexchess_core::bitboard::WideBitboard>,
    ) -> Vec<String> {
        let mine: Vec<&str> = self.mine.iter().map(|s| rules.side_name(*s)).collect();
        self.draw_offers
            .iter()
            .filter(|o| !mine.contains(&o.as_str()))
            .cloned()
            .collect()
    }

    /// Whether this player's seat has yet to make its first move (an arena's berserk
    /// is for then), and has not gone berserk already.
    pub fn may_go_berserk(&self, game: &CurrentGame) -> bool {
        let rules = game.rules();
        let ply = self.next_ply(game);
        self.result.is_none()
            && self.mine.iter().any(|s| {
                ply <= s.index() as u32 && !self.berserk.iter().any(|b| b == rules.side_name(*s))
            })
    }

    /// The server's ply of the board's next step.
    fn next_ply(&self, game: &CurrentGame) -> u32 {
        self.ply_base + game.played.steps_played() as u32
    }
}

/// Everything the game knows of the server.
#[derive(Resource, Debug)]
pub struct Online {
    /// The server's address (kept in the settings).
    pub server: String,
    pub status: LinkStatus,
    pub me: Option<Me>,
    /// The open seeks, as the server lists them.
    pub seeks: Vec<SeekListing>,
    /// This player's games in play, those on their turn first.
    pub my_games: Vec<YourGame>,
    /// The player's ratings.
    pub ratings: Vec<RatingLine>,
    /// Games in play, to watch.
    pub playing: Vec<GameInPlay>,
    /// The code of this player's private challenge, to share.
    pub challenge: Option<String>,
    /// The names whose chat this player hides, as the server keeps them.
    pub muted: Vec<String>,
    /// The last player's page asked for (the profile window shows it).
    pub profile: Option<PlayerProfile>,
    /// The last leaderboard asked for.
    pub leaderboard: Option<Leaderboard>,
    /// The tournaments, as the server lists them (once asked for: the Tournaments
    /// window).
    pub tournaments: Vec<hexchess_protocol::TournamentListing>,
    /// The tournament followed, with its standings (pushed as they change).
    pub tournament: Option<hexchess_protocol::TournamentView>,
    /// The tournament the game on the board is a round of (its `started` said so).
    pub tournament_game: Option<String>,
    /// The game on the board, when it is the server's.
    pub followed: Option<FollowedGame>,
    /// Where the secrets are kept (none: not kept, in tests).
    pub secrets: Option<secrets::SecretsFile>,
    link: Option<Link>,
    /// What the link brought and this program has not handled yet (see `receive`).
    unread: std::collections::VecDeque<LinkEvent>,
    acks: u64,
}

impl Default for Online {
    fn default() -> Online {
        Online {
            server: default_server(),
            status: LinkStatus::Closed,
            me: None,
            seeks: Vec::new(),
            my_games: Vec::new(),
            ratings: Vec::new(),
            playing: Vec::new(),
            challenge: None,
            muted: Vec::new(),
            profile: None,
            leaderboard: None,
            tournaments: Vec::new(),
            tournament: None,
            tournament_game: None,
            followed: None,
            secrets: None,
            link: None,
            unread: std::collections::VecDeque::new(),
            acks: 0,
        }
    }
}

impl Online {
    /// Whether the game of id `game` is the one on the board.
    pub fn follows(&self, game: &str) -> bool {
        self.followed.as_ref().is_some_and(|f| f.game == game)
    }

    /// Nothing known yet of the server at `server`; secrets kept in `secrets`.
    pub fn new(server: String, secrets: Option<secrets::SecretsFile>) -> Online {
        Online {
            server,
            secrets,
            ..Online::default()
        }
    }

    pub fn is_connected(&self) -> bool {
        self.status == LinkStatus::Connected && self.me.is_some()
    }

    fn send(&self, message: ClientMessage) {
        if let Some(link) = &self.link {
            link.send(&message);
        }
    }

    /// A message about the game on the board (none: no game there).
    fn about_followed(
        &self,
        message: impl FnOnce(String) -> ClientMessage,
    ) -> Option<ClientMessage> {
        self.followed.as_ref().map(|t| message(t.game.clone()))
    }
}

/// A game offered, as the interface's form sets it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeekForm {
    pub variant: String,
    /// Minutes and increment in seconds; none: untimed (or `days`).
    pub clock: Option<(u32, u32)>,
    pub days: Option<u32>,
    pub rated: bool,
    /// The side by the variant's name; none: any.
    pub side: Option<String>,
    pub engines: u32,
    pub level: u8,
}

impl SeekForm {
    fn request(&self, private: bool) -> SeekRequest {
        SeekRequest {
            variant: self.variant.clone(),
            minutes: self.clock.map(|c| c.0),
            increment: self.clock.map_or(0, |c| c.1),
            days: self.days,
            rated: self.rated,
            side: self.side.clone(),
            private,
            engines: self.engines,
            level: Some(self.level),
        }
    }
}

/// What the interface (or the command line) asks of the server.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub enum OnlineRequest {
    /// Connect to [`Online::server`] (again).
    Connect,
    Disconnect,
    Seek(SeekForm),
    /// A private challenge: the server gives a code to share.
    Challenge(SeekForm),
    Quick(SeekForm),
    /// Take a seat in a seek, or a challenge by its code.
    Accept(String),
    Cancel(String),
    /// Open a game: one's own, or another's to watch.
    Open(String),
    Resign,
    Draw,
    Abort,
    Claim,
    /// Decline the draw offered in the game followed.
    Decline,
    /// A rematch of the game followed, once it is over.
    Rematch,
    /// Ask again for the lists (your games, ratings).
    Refresh,
    /// Say something in the chat of the game followed.
    Chat(String),
    /// Hide a player's chat, or show it again.
    Mute {
        name: String,
        muted: bool,
    },
    /// A player's page (the profile window opens with it); none for your own.
    Player(Option<String>),
    /// A variant's leaderboard.
    Leaderboard(String),
    /// A finished game, into the analysis board (its record from the server).
    Analyse(String),
    Register {
        name: String,
        password: String,
    },
    Login {
        name: String,
        password: String,
    },
    /// Follow the list of tournaments.
    Tournaments,
    /// Create a tournament (the creator follows it).
    CreateTournament(Box<hexchess_protocol::TournamentRequest>),
    /// Enter a tournament.
    JoinTournament(String),
    /// Leave a tournament.
    WithdrawTournament(String),
    /// Follow a tournament's standings.
    FollowTournament(String),
    /// Go berserk in the arena game on the board.
    Berserk,
}

/// Requests held until the connection is up and the server has said welcome (the
/// command line's `--online-quick`).
#[derive(Resource, Clone, Debug, Default)]
pub struct WhenConnected(pub Vec<OnlineRequest>);

pub struct OnlinePlugin;

impl Plugin for OnlinePlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Online>()
            .init_resource::<WhenConnected>()
            .add_message::<OnlineRequest>()
            .add_systems(
                Update,
                (
                    send_when_connected,
                    handle_requests,
                    receive,
                    send_proposed_steps,
                    follow_the_session,
                )
                    .chain()
                    .in_set(GameSet::Input),
            );
    }
}

fn send_when_connected(
    online: Res<Online>,
    mut held: ResMut<WhenConnected>,
    mut requests: MessageWriter<OnlineRequest>,
) {
    if online.is_connected() && !held.0.is_empty() {
        requests.write_batch(std::mem::take(&mut held.0));
    }
}

fn handle_requests(mut requests: MessageReader<OnlineRequest>, mut online: ResMut<Online>) {
    for request in requests.read() {
        let message = match request {
            OnlineRequest::Connect => {
                let token = online.secrets.as_ref().and_then(|f| f.read(&online.server));
                online.me = None;
                online.unread.clear();
                online.link = Some(Link::open(online.server.clone(), token));
                if network_absent() {
                    crate::web::milestone("online no network");
                }
                continue;
            }
            OnlineRequest::Disconnect => {
                online.link = None;
                online.unread.clear();
                online.me = None;
                online.status = LinkStatus::Closed;
                continue;
            }
            OnlineRequest::Seek(form) => Some(ClientMessage::Seek(form.request(false))),
            OnlineRequest::Challenge(form) => Some(ClientMessage::Seek(form.request(true))),
            OnlineRequest::Quick(form) => Some(ClientMessage::Quick(form.request(false))),
            OnlineRequest::Accept(id) => Some(ClientMessage::Accept { seek: id.clone() }),
            OnlineRequest::Cancel(id) => Some(ClientMessage::Cancel { seek: id.clone() }),
            OnlineRequest::Open(id) => {
                online.tournament_game = None;
                online.followed = Some(FollowedGame {
                    game: id.clone(),
                    ..FollowedGame::default()
                });
                Some(ClientMessage::Join {
                    game: id.clone(),
                    seen: None,
                })
            }
            OnlineRequest::Resign => online.about_followed(|game| ClientMessage::Resign { game }),
            OnlineRequest::Draw => online.about_followed(|game| ClientMessage::Draw { game }),
            OnlineRequest::Abort => online.about_followed(|game| ClientMessage::Abort { game }),
            OnlineRequest::Claim => online.about_followed(|game| ClientMessage::Claim { game }),
            OnlineRequest::Decline => online.about_followed(|game| ClientMessage::Decline { game }),
            OnlineRequest::Rematch => online.about_followed(|game| ClientMessage::Rematch { game }),
            OnlineRequest::Refresh => {
                online.send(ClientMessage::Games);
                online.send(ClientMessage::Playing);
                Some(ClientMessage::Ratings)
            }
            OnlineRequest::Chat(text) => online.about_followed(|game| ClientMessage::Chat {
                game,
                text: text.clone(),
            }),
            OnlineRequest::Mute { name, muted: true } => {
                Some(ClientMessage::Mute { name: name.clone() })
            }
            OnlineRequest::Mute { name, muted: false } => {
                Some(ClientMessage::Unmute { name: name.clone() })
            }
            OnlineRequest::Player(name) => Some(ClientMessage::Player { name: name.clone() }),
            OnlineRequest::Leaderboard(variant) => Some(ClientMessage::Leaderboard {
                variant: variant.clone(),
            }),
            OnlineRequest::Analyse(game) => Some(ClientMessage::Record { game: game.clone() }),
            OnlineRequest::Register { name, password } => Some(ClientMessage::Register {
                name: name.clone(),
                password: password.clone(),
                bot: false,
            }),
            OnlineRequest::Login { name, password } => Some(ClientMessage::Login {
                name: name.clone(),
                password: password.clone(),
            }),
            OnlineRequest::Tournaments => Some(ClientMessage::Tournaments),
            OnlineRequest::CreateTournament(request) => {
                Some(ClientMessage::TournamentCreate(request.clone()))
            }
            OnlineRequest::JoinTournament(id) => Some(ClientMessage::TournamentJoin {
                tournament: id.clone(),
                engine: None,
            }),
            OnlineRequest::WithdrawTournament(id) => Some(ClientMessage::TournamentWithdraw {
                tournament: id.clone(),
            }),
            OnlineRequest::FollowTournament(id) => Some(ClientMessage::Tournament {
                tournament: id.clone(),
            }),
            OnlineRequest::Berserk => online.about_followed(|game| ClientMessage::Berserk { game }),
        };
        if let Some(message) = message {
            online.send(message);
        }
    }
}

/// What [`receive`] changes on the board.
#[derive(bevy::ecs::system::SystemParam)]
struct Board<'w> {
    /// Read only: the game changes through the game's requests, as for every player.
    game: Res<'w, CurrentGame>,
    session: ResMut<'w, Session>,
    clocks: ResMut<'w, Clocks>,
    settings: ResMut<'w, crate::look::Settings>,
    variants: Res<'w, Variants>,
    replace: MessageWriter<'w, ReplaceRequest>,
    end: MessageWriter<'w, EndRequest>,
    load: MessageWriter<'w, LoadRequest>,
    analysis: MessageWriter<'w, crate::play::analysis::AnalysisRequest>,
    decided: MessageWriter<'w, StepDecided>,
    notices: MessageWriter<'w, GameNotice>,
    /// An offer to answer is heard too.
    cues: MessageWriter<'w, crate::sound::Cue>,
}

/// Whether a message asked the game to change (a whole game, or a step played).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Read {
    Handled,
    BoardChanges,
}

/// Handles what the link has brought. A message that changes the game on the board (a
/// whole game, a step the server played) ends this frame's reading: the game takes it
/// in this frame's `GameSet::Apply`, and the messages after it are read next frame,
/// against the game as it is then: a step after a whole game meets that game, a second
/// step meets the first played (no resync for a gap that is not one), and the end after
/// a mating step comes once the step is on the board (before, the end came first and
/// the board refused the step: "the game is over").
fn receive(mut online: ResMut<Online>, mut board: Board) {
    let Some(link) = &online.link else { return };
    let events = link.poll();
    online.unread.extend(events);
    while let Some(event) = online.unread.pop_front() {
        let read = match event {
            LinkEvent::Status(status) => {
                online.status = status;
                Read::Handled
            }
            LinkEvent::Message(message) => received(&mut online, &mut board, *message),
        };
        if read == Read::BoardChanges {
            break;
        }
    }
}

fn received(online: &mut Online, board: &mut Board, message: FromServer) -> Read {
    let about_followed = message.game().is_some_and(|id| online.follows(id));
    match message {
        FromServer::Message(message) => return replied(online, board, message, about_followed),
        FromServer::Event(event) if about_followed => return game_event(online, board, event),
        // Another side's hidden step (one ply): the view changed (whose turn it is,
        // what is in hand), so ask for it again.
        FromServer::Hidden(hidden) if about_followed => {
            if let Some(t) = online.followed.as_mut()
                && hidden.v > t.seen
            {
                t.seen = hidden.v;
                let game = t.game.clone();
                online.send(ClientMessage::Join { game, seen: None });
            }
        }
        _ => {}
    }
    Read::Handled
}

/// A reply or a list.
fn replied(
    online: &mut Online,
    board: &mut Board,
    message: ServerMessage,
    about_followed: bool,
) -> Read {
    match message {
        ServerMessage::Welcome(welcome) => welcomed(online, welcome),
        ServerMessage::Seeks { seeks } => online.seeks = seeks,
        ServerMessage::Games { games } => online.my_games = games,
        ServerMessage::Ratings { ratings } => online.ratings = ratings,
        ServerMessage::Player(profile) => online.profile = Some(*profile),
        ServerMessage::Leaderboard(board) => online.leaderboard = Some(board),
        ServerMessage::Record { game, pgn } => open_record(online, board, &game, &pgn),
        ServerMessage::Muted { names } => {
            if let Some(t) = online.followed.as_mut() {
                t.chat.retain(|line| !names.contains(&line.from));
            }
            online.muted = names;
        }
        ServerMessage::Playing { games } => online.playing = games,
        ServerMessage::Seek(reply) => {
            if let Some(code) = reply.code {
                if let Some(link) = link_to_challenge(&online.server, &code) {
                    crate::web::milestone(&format!("challenge link {link}"));
                }
                online.challenge = Some(code);
            }
        }
        ServerMessage::Tournaments(list) => online.tournaments = list.tournaments,
        ServerMessage::Tournament(view) => online.tournament = Some(*view),
        ServerMessage::Started(started) => {
            online.challenge = None;
            // A tournament's game: its standings follow it beside the board.
            if let Some(t) = &started.tournament
                && online
                    .tournament
                    .as_ref()
                    .is_none_or(|v| v.listing.id != *t)
            {
                online.send(ClientMessage::Tournament {
                    tournament: t.clone(),
                });
            }
            online.tournament_game = started.tournament.clone();
            online.followed = Some(FollowedGame {
                game: started.game.clone(),
                ..FollowedGame::default()
            });
            online.send(ClientMessage::Join {
                game: started.game,
                seen: None,
            });
            online.send(ClientMessage::Games);
        }
        ServerMessage::State(state) if about_followed => {
            return put_on_board(online, board, &state);
        }
        ServerMessage::Rematch(asked) if about_followed => {
            if let Some(t) = online.followed.as_mut() {
                let theirs: Vec<&String> = asked
                    .asked
                    .iter()
                    .filter(|s| side_named(board, s).is_none_or(|side| !t.mine.contains(&side)))
                    .collect();
                if !theirs.is_empty() && !t.rematch_asked.iter().eq(asked.asked.iter()) {
                    let who: Vec<&str> = theirs.iter().map(|s| s.as_str()).collect();
                    board.notices.write(GameNotice(format!(
                        "{} asks for a rematch",
                        who.join(" and ")
                    )));
                    board.cues.write(crate::sound::Cue::Offer);
                }
                t.rematch_asked = asked.asked;
            }
        }
        ServerMessage::Refused(refused) if about_followed => {
            if let Some(t) = online.followed.as_mut()
                && t.pending.as_ref().map(|p| p.ack) == refused.ack
            {
                t.pending = None;
            }
            board
                .notices
                .write(GameNotice(format!("the server: {}", refused.why)));
            if let Some(state) = &refused.state {
                return put_on_board(online, board, state);
            }
        }
        ServerMessage::Error(e) => {
            board
                .notices
                .write(GameNotice(format!("the server: {}", e.message)));
        }
        // The end of a catch-up carries the version of the last event caught up,
        // never a new one: a move the server has not acknowledged goes again now.
        ServerMessage::Joined(_) if about_followed => {
            if let Some(t) = &online.followed {
                let ply = t.next_ply(&board.game);
                resend_pending(online, ply);
            }
        }
        ServerMessage::Ack(ack) if about_followed => {
            if let Some(t) = online.followed.as_mut()
                && t.pending.as_ref().map(|p| p.ack) == Some(ack.ack)
            {
                t.pending = None;
            }
        }
        _ => {}
    }
    Read::Handled
}

/// A finished game's record, into the analysis board: the board is this program's
/// again (the server's game on it, if any, is left), the game loaded from its PGN.
fn open_record(online: &mut Online, board: &mut Board, game: &str, pgn: &str) {
    let records = hexchess_core::pgn::read_games(pgn);
    let Some(Ok(record)) = records.into_iter().next() else {
        board.notices.write(GameNotice(format!(
            "the server's record of game {game} could not be read"
        )));
        return;
    };
    if let Some(followed) = online.followed.take() {
        online.send(ClientMessage::Leave {
            game: followed.game,
        });
    }
    board.load.write(LoadRequest(record));
    board
        .analysis
        .write(crate::play::analysis::AnalysisRequest::On);
}

/// Hello answered: the secret kept, the lists asked for, and a game on the board
/// followed again from the version last seen.
fn welcomed(online: &mut Online, welcome: Welcome) {
    if let Some(file) = &online.secrets
        && let Err(e) = file.write(&online.server, &welcome.token)
    {
        warn!(
            "the online secret could not be kept in {}: {e}",
            file.path().display()
        );
    }
    online.me = Some(Me {
        player: welcome.player,
        name: welcome.name,
        account: welcome.account,
    });
    online.muted = welcome.muted;
    online.send(ClientMessage::Lobby);
    online.send(ClientMessage::Games);
    online.send(ClientMessage::Ratings);
    online.send(ClientMessage::Playing);
    if let Some(t) = &online.followed {
        let seen = (t.seen > 0).then_some(t.seen);
        online.send(ClientMessage::Join {
            game: t.game.clone(),
            seen,
        });
    }
}

/// The server's whole game, on the board.
fn put_on_board(online: &mut Online, board: &mut Board, state: &GameState) -> Read {
    let Some(followed) = online.followed.as_mut() else {
        return Read::Handled;
    };
    let first_look = followed.variant.is_empty();
    let view = &state.board;
    let Some(entry) = board.variants.0.get(&view.variant) else {
        board.notices.write(GameNotice(format!(
            "the server plays '{}', which this game does not know",
            view.variant
        )));
        return Read::Handled;
    };
    if first_look {
        crate::web::milestone(&format!("online joined {}", followed.game));
    }
    // While deployments are hidden, the server sends the position as this player may
    // see it; otherwise the game is its steps from the start.
    let hidden_view = view.view_fen.as_deref().and_then(|fen| {
        Game::from_moves(
            std::sync::Arc::clone(entry.rules()),
            Some(fen),
            &[] as &[&str],
        )
        .ok()
    });
    followed.ply_base = if hidden_view.is_some() { view.ply } else { 0 };
    let mut game = hidden_view.unwrap_or_else(|| Game::new(std::sync::Arc::clone(entry.rules())));
    let steps: &[Option<String>] = if followed.ply_base > 0 {
        &[]
    } else {
        &view.steps
    };
    for step in steps {
        // A hidden step of another side (null) ends what can be shown; the reveal
        // brings the rest.
        let Some(text) = step else { break };
        match game.parse_step(text) {
            Ok(s) if game.play(s).is_ok() => {}
            _ => {
                board.notices.write(GameNotice(format!(
                    "the server's '{text}' does not play here"
                )));
                break;
            }
        }
    }
    let rules = std::sync::Arc::clone(entry.rules());
    followed.variant = view.variant.clone();
    followed.names = state.names.clone();
    followed.bots = state.bots.clone();
    followed.ratings = state.ratings.clone();
    followed.chat = state.chat.clone();
    let now = web_time::Instant::now();
    followed.away = state
        .away
        .iter()
        .map(|a| (a.side.clone(), now + Duration::from_millis(a.claim_in_ms)))
        .collect();
    followed.mine = state
        .you
        .iter()
        .filter_map(|n| rules.sides().find(|s| rules.side_name(*s) == n))
        .collect();
    followed.draw_offers = view.draw_offers.clone();
    followed.rated = state.rated;
    followed.speed = state.speed.clone();
    followed.seen = view.v;
    let sides = rules.side_count();
    board.replace.write(ReplaceRequest {
        game,
        ended: outcome_of(view.why.as_deref(), view.points.as_deref(), sides),
        authority: Authority::Remote,
    });
    followed.result = view
        .result
        .clone()
        .map(|r| (r, view.why.clone().unwrap_or_default()));
    board.session.seats = Seats::online(&followed.mine);
    if first_look && sides == 2 {
        // Seen from one's own side (the player may flip it afterwards).
        let black_only = followed.mine == [Side::Black];
        if board.settings.flipped != black_only {
            board.settings.flipped = black_only;
        }
    }
    set_clocks(&mut board.clocks, view.clocks_ms.as_deref(), None);
    resend_pending(online, view.ply);
    Read::BoardChanges
}

/// After a reconnection: a move the server had not acknowledged goes again with its
/// ply (played once whatever became of it); one for a ply long past is forgotten.
fn resend_pending(online: &mut Online, ply: u32) {
    let Some(followed) = online.followed.as_mut() else {
        return;
    };
    let Some(p) = followed.pending.clone() else {
        return;
    };
    if p.ply < ply {
        followed.pending = None;
        return;
    }
    let message = ClientMessage::Move {
        game: followed.game.clone(),
        ply: p.ply,
        step: p.step,
        ack: p.ack,
        lag_ms: None,
    };
    online.send(message);
}

fn game_event(online: &mut Online, board: &mut Board, numbered: Numbered) -> Read {
    let Some(followed) = online.followed.as_mut() else {
        return Read::Handled;
    };
    if numbered.v <= followed.seen {
        return Read::Handled; // seen already
    }
    followed.seen = numbered.v;
    let mut read = Read::Handled;
    match numbered.event {
        GameEvent::Step {
            ply,
            side,
            step,
            left_ms,
            ..
        } => {
            let Some(ply) = ply.checked_sub(followed.ply_base) else {
                return Read::Handled;
            };
            let ply = ply as usize;
            let played = board.game.played.steps_played();
            if ply < played {
                return Read::Handled;
            }
            if ply > played {
                // A gap: ask for the whole game.
                let game = followed.game.clone();
                online.send(ClientMessage::Join { game, seen: None });
                return Read::Handled;
            }
            match board.game.played.parse_step(&step) {
                Ok(s) => {
                    crate::web::milestone(&format!("online step {step}"));
                    board.decided.write(StepDecided(s));
                    read = Read::BoardChanges;
                }
                Err(e) => {
                    board
                        .notices
                        .write(GameNotice(format!("the server's '{step}': {e}")));
                }
            }
            if let (Some(mover), Some(ms)) = (side_named(board, &side), left_ms)
                && let Some(r) = board.clocks.remaining.as_mut()
            {
                r[mover.index()] = Duration::from_millis(ms);
            }
            followed.draw_offers.clear();
        }
        GameEvent::DrawOffer { side } => {
            let theirs = side_named(board, &side).is_none_or(|s| !followed.mine.contains(&s));
            if theirs && !followed.mine.is_empty() {
                board.cues.write(crate::sound::Cue::Offer);
            }
            board
                .notices
                .write(GameNotice(format!("{side} offers a draw")));
            followed.draw_offers.push(side);
        }
        GameEvent::Berserk { side } => {
            followed.berserk.push(side.clone());
            if let (Some(seat), Some(r)) =
                (side_named(board, &side), board.clocks.remaining.as_mut())
            {
                r[seat.index()] /= 2;
            }
            board.notices.write(GameNotice(format!(
                "{side} goes berserk: half the clock, no increment, a point more for a win"
            )));
        }
        GameEvent::DrawDeclined { side } => {
            board
                .notices
                .write(GameNotice(format!("{side} declines the draw")));
            followed.draw_offers.clear();
        }
        GameEvent::Chat(line) => followed.chat.push(line),
        GameEvent::Away { side, claim_in_ms } => {
            let theirs = side_named(board, &side).is_none_or(|s| !followed.mine.contains(&s));
            if theirs && !followed.mine.is_empty() {
                board.notices.write(GameNotice(format!(
                    "{side} left the game: on their turn you may claim it in {} s",
                    claim_in_ms.div_ceil(1000)
                )));
            }
            let at = web_time::Instant::now() + Duration::from_millis(claim_in_ms);
            followed.away.retain(|(s, _)| *s != side);
            followed.away.push((side, at));
        }
        GameEvent::Back { side } => {
            if followed.away.iter().any(|(s, _)| *s == side) && !followed.mine.is_empty() {
                board.notices.write(GameNotice(format!("{side} is back")));
            }
            followed.away.retain(|(s, _)| *s != side);
        }
        GameEvent::Rated { changes } => {
            for (seat, change) in changes.iter().enumerate() {
                if let (Some(change), Some(rating)) = (change, followed.ratings.get_mut(seat)) {
                    *rating = Some(SeatRating {
                        rating: change.after,
                        provisional: change.provisional,
                    });
                }
            }
            let mine = followed
                .mine
                .first()
                .and_then(|side| changes.get(side.index()).copied().flatten());
            if let Some(change) = mine {
                board.notices.write(GameNotice(format!(
                    "your rating: {}",
                    rating_change_text(&change, followed.names.len() > 2)
                )));
            }
            followed.rating_changes = changes;
        }
        GameEvent::Reveal { .. } => {
            let game = followed.game.clone();
            online.send(ClientMessage::Join { game, seen: None });
        }
        GameEvent::End {
            result,
            why,
            points,
        } => {
            // An end the rules saw already stays (the game's end_games keeps it).
            if let Some(outcome) =
                outcome_of(Some(&why), points.as_deref(), board.game.side_count())
            {
                board.end.write(EndRequest(outcome));
            }
            board
                .notices
                .write(GameNotice(format!("game over: {result} ({why})")));
            followed.result = Some((result, why));
            // An offer does not outlive the game.
            followed.draw_offers.clear();
            online.send(ClientMessage::Games);
            online.send(ClientMessage::Ratings);
            online.send(ClientMessage::Playing);
        }
    }
    read
}

/// A rating as the bars show it: rounded, `?` while provisional (a table's skill
/// with one decimal: it moves by less than one).
pub fn rating_text(rating: f64, provisional: bool, table: bool) -> String {
    let mark = if provisional { "?" } else { "" };
    if table {
        format!("{rating:.1}{mark}")
    } else {
        format!("{}{mark}", rating.round() as i64)
    }
}

/// A rating's change after a game: `1500 -> 1662 (+162)`.
pub fn rating_change_text(change: &RatingChange, table: bool) -> String {
    let delta = change.after - change.before;
    let delta = if table {
        format!("{delta:+.1}")
    } else {
        format!("{:+}", delta.round() as i64)
    };
    format!(
        "{} -> {} ({delta})",
        rating_text(change.before, false, table),
        rating_text(change.after, change.provisional, table),
    )
}

fn side_named(board: &Board, name: &str) -> Option<Side> {
    let rules = board.game.rules();
    rules.sides().find(|s| rules.side_name(*s) == name)
}

/// The end the server sent, as the game's own outcome (none for an abort).
fn outcome_of(why: Option<&str>, points: Option<&[u32]>, sides: usize) -> Option<GameOutcome> {
    let termination = Termination::from_name(why?)?;
    let points: Vec<Points> = points?
        .iter()
        .take(sides.min(MAX_SIDES))
        .map(|m| {
            u16::try_from(*m)
                .ok()
                .and_then(Points::from_millis)
                .unwrap_or(Points::ZERO)
        })
        .collect();
    Some(GameOutcome::scored(termination, &points))
}

fn set_clocks(clocks: &mut Clocks, ms: Option<&[u64]>, increment: Option<Duration>) {
    let Some(ms) = ms else {
        clocks.remaining = None;
        return;
    };
    let mut remaining = [Duration::ZERO; MAX_SIDES];
    for (r, m) in remaining.iter_mut().zip(ms) {
        *r = Duration::from_millis(*m);
    }
    clocks.remaining = Some(remaining);
    if let Some(i) = increment {
        clocks.increment = i;
    }
}

/// A person's move in the server's game: sent with its ply and a number to match the
/// acknowledgement.
fn send_proposed_steps(
    mut proposed: MessageReader<StepProposed>,
    mut online: ResMut<Online>,
    game: Res<CurrentGame>,
    mut notices: MessageWriter<GameNotice>,
) {
    for StepProposed(step) in proposed.read() {
        let Some(followed) = online.followed.as_ref() else {
            continue;
        };
        if followed.pending.is_some() {
            notices.write(GameNotice(
                "waiting for the server to take your last move".into(),
            ));
            continue;
        }
        if !online.is_connected() {
            // Kept as the move waiting for its acknowledgement: sent again once the
            // connection is back (the server plays it once, whatever happened to it).
            notices.write(GameNotice(
                "not connected: your move goes to the server when the connection is back".into(),
            ));
        }
        let id = followed.game.clone();
        let text = game.played.step_lan(*step);
        let ply = followed.next_ply(&game);
        online.acks += 1;
        let ack = online.acks;
        if let Some(t) = online.followed.as_mut() {
            t.pending = Some(Pending {
                ply,
                step: text.clone(),
                ack,
            });
        }
        online.send(ClientMessage::Move {
            game: id,
            ply,
            step: text,
            ack,
            lag_ms: None,
        });
    }
}

/// A local game started from the menu leaves the server's game: the board is this
/// program's again.
fn follow_the_session(
    session: Res<Session>,
    mut authority: ResMut<Authority>,
    mut online: ResMut<Online>,
) {
    if !session.is_changed() || session.seats.is_online() {
        return;
    }
    *authority = Authority::Local;
    if let Some(followed) = online.followed.take() {
        online.send(ClientMessage::Leave {
            game: followed.game,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::{DEFAULT_SERVER, challenge_link, kept_server};

    #[test]
    fn a_challenge_link_opens_the_servers_own_page() {
        assert_eq!(
            challenge_link("ws://127.0.0.1:7474/socket", "Q7KD3MPA").as_deref(),
            Some("http://127.0.0.1:7474/#challenge=Q7KD3MPA")
        );
        assert_eq!(
            challenge_link("wss://hex.example.org/socket", "AB").as_deref(),
            Some("https://hex.example.org/#challenge=AB")
        );
        assert_eq!(
            challenge_link("ws://[::1]:80?x", "AB").as_deref(),
            Some("http://[::1]:80/#challenge=AB")
        );
        for not_a_socket in ["http://h/socket", "ws://", "wss:///socket", ""] {
            assert_eq!(challenge_link(not_a_socket, "AB"), None, "{not_a_socket}");
        }
    }

    #[test]
    fn a_kept_server_is_kept_on_a_desktop() {
        assert_eq!(kept_server("ws://h:1/socket".into()), "ws://h:1/socket");
        assert_eq!(kept_server(DEFAULT_SERVER.into()), DEFAULT_SERVER);
    }
}
