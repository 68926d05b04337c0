//! The link on a desktop: a blocking websocket on its own thread, talking to the
//! frame through channels.

use std::net::TcpStream;
use std::sync::Mutex;
use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::thread::JoinHandle;
use std::time::Duration;

use hexchess_protocol::{ClientMessage, FromServer};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

use super::{FIRST_WAIT, Heard, LinkEvent, LinkStatus, MAX_WAIT, hello, meaning};

enum Command {
    Send(String),
    Close,
}

/// A connection to one server.
pub struct Link {
    commands: Sender<Command>,
    /// Behind a mutex only so that the link can sit in a resource (a receiver is not
    /// `Sync`); only the frame's system reads it.
    events: Mutex<Receiver<LinkEvent>>,
    thread: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for Link {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Link")
    }
}

/// How often the thread looks for messages to send while it waits for the server's.
const POLL: Duration = Duration::from_millis(20);

impl Link {
    /// Connects to `url` on a new thread, saying hello with `token` (none: as a new
    /// player; the server's `welcome` gives the secret to keep).
    pub fn open(url: String, token: Option<String>) -> Link {
        let (commands, command_rx) = mpsc::channel();
        let (event_tx, events) = mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("hexchess-online".into())
            .spawn(move || run(&url, token, &command_rx, &event_tx))
            .ok();
        Link {
            commands,
            events: Mutex::new(events),
            thread,
        }
    }

    /// Sends a message (queued while the connection is down, sent once it is up).
    pub fn send(&self, message: &ClientMessage) {
        let _ = self.commands.send(Command::Send(message.to_text()));
    }

    /// What happened since the last call.
    pub fn poll(&self) -> Vec<LinkEvent> {
        match self.events.lock() {
            Ok(events) => events.try_iter().collect(),
            Err(_) => Vec::new(),
        }
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        let _ = self.commands.send(Command::Close);
        // Not joined: a connection attempt may take a while to time out, and the
        // thread ends by itself once it sees the close.
        self.thread.take();
    }
}

fn run(
    url: &str,
    mut token: Option<String>,
    commands: &Receiver<Command>,
    events: &Sender<LinkEvent>,
) {
    let mut wait = FIRST_WAIT;
    // Messages asked for while the connection was down (a move, a seek), sent first
    // once it is up again.
    let mut queued: Vec<String> = Vec::new();
    loop {
        let _ = events.send(LinkEvent::Status(LinkStatus::Connecting));
        let why = match connect(url) {
            Ok(mut socket) => {
                wait = FIRST_WAIT;
                let _ = socket.send(Message::Text(hello(token.as_deref()).into()));
                let _ = events.send(LinkEvent::Status(LinkStatus::Connected));
                match serve(&mut socket, &mut token, &mut queued, commands, events) {
                    Ended::Closed => {
                        let _ = socket.close(None);
                        let _ = socket.flush();
                        let _ = events.send(LinkEvent::Status(LinkStatus::Closed));
                        return;
                    }
                    Ended::Lost(why) => why,
                }
            }
            Err(why) => why,
        };
        let _ = events.send(LinkEvent::Status(LinkStatus::Lost(why)));
        // Wait before the next try, still listening for a close or messages to queue.
        let until = std::time::Instant::now() + wait;
        while std::time::Instant::now() < until {
            match commands.recv_timeout(POLL) {
                Ok(Command::Close) | Err(mpsc::RecvTimeoutError::Disconnected) => {
                    let _ = events.send(LinkEvent::Status(LinkStatus::Closed));
                    return;
                }
                Ok(Command::Send(text)) => queued.push(text),
                Err(mpsc::RecvTimeoutError::Timeout) => {}
            }
        }
        wait = (wait * 2).min(MAX_WAIT);
    }
}

type Socket = WebSocket<MaybeTlsStream<TcpStream>>;

fn connect(url: &str) -> Result<Socket, String> {
    let (socket, _) = tungstenite::connect(url).map_err(|e| e.to_string())?;
    if let MaybeTlsStream::Plain(stream) = socket.get_ref() {
        // Reads wake up often, to send what the game asks for.
        stream
            .set_read_timeout(Some(POLL))
            .map_err(|e| e.to_string())?;
        let _ = stream.set_nodelay(true);
    }
    Ok(socket)
}

enum Ended {
    Closed,
    Lost(String),
}

fn serve(
    socket: &mut Socket,
    token: &mut Option<String>,
    queued: &mut Vec<String>,
    commands: &Receiver<Command>,
    events: &Sender<LinkEvent>,
) -> Ended {
    let mut welcomed = false;
    loop {
        if welcomed {
            for text in queued.drain(..) {
                if let Err(e) = socket.send(Message::Text(text.into())) {
                    return Ended::Lost(e.to_string());
                }
            }
        }
        loop {
            match commands.try_recv() {
                Ok(Command::Send(text)) if welcomed => {
                    if let Err(e) = socket.send(Message::Text(text.into())) {
                        return Ended::Lost(e.to_string());
                    }
                }
                Ok(Command::Send(text)) => queued.push(text),
                Ok(Command::Close) | Err(TryRecvError::Disconnected) => return Ended::Closed,
                Err(TryRecvError::Empty) => break,
            }
        }
        match socket.read() {
            Ok(Message::Text(text)) => {
                let Ok(message) = FromServer::read(&text) else {
                    continue;
                };
                match meaning(&message) {
                    Heard::Welcome(secret) => {
                        welcomed = true;
                        *token = Some(secret);
                    }
                    Heard::Error if !welcomed && token.is_some() => {
                        // A secret this server does not know (its database was reset):
                        // start again as a new player.
                        *token = None;
                        if let Err(e) = socket.send(Message::Text(hello(None).into())) {
                            return Ended::Lost(e.to_string());
                        }
                    }
                    _ => {}
                }
                if events.send(LinkEvent::Message(Box::new(message))).is_err() {
                    return Ended::Closed;
                }
            }
            Ok(Message::Close(frame)) => {
                return Ended::Lost(match frame {
                    Some(f) => {
                        format!("closed by the server ({}): {}", u16::from(f.code), f.reason)
                    }
                    None => "closed by the server".into(),
                });
            }
            Ok(_) => {}
            Err(tungstenite::Error::Io(e))
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(e) => return Ended::Lost(e.to_string()),
        }
    }
}
