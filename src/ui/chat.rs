//! The game's chat, beside the board while a server's game is on it: the lines this
//! player may read (a spectator chooses between the players' chat and the
//! spectators'), canned phrases, a line to type, and a name's menu (its page, mute).
//! A panel of its own to the right of the side panel, so it never covers the board.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use hexchess_protocol::{ChatLine, ChatRoom, MAX_CHAT_CHARS};

use super::{UiInsets, UiMemory};
use crate::online::{FollowedGame, Online, OnlineRequest};
use crate::play::Session;

/// What a player says in one click (lichess's canned phrases, in the game's words).
pub const CANNED: [&str; 6] = [
    "Hello",
    "Good luck",
    "Have fun",
    "Good game",
    "Thank you",
    "Well played",
];

/// How wide the chat is.
const WIDTH: f32 = 250.0;
/// The chat's height below the board on a portrait screen.
const CHAT_HEIGHT_BELOW: f32 = 220.0;

/// What the chat keeps between frames.
#[derive(Clone, Debug)]
pub(super) struct ChatMemory {
    /// The line being typed.
    text: String,
    /// The chat a spectator reads.
    room: ChatRoom,
}

impl Default for ChatMemory {
    fn default() -> ChatMemory {
        ChatMemory {
            text: String::new(),
            room: ChatRoom::Players,
        }
    }
}

/// The lines of `room` as `followed` holds them.
pub fn lines_of(followed: &FollowedGame, room: ChatRoom) -> impl Iterator<Item = &ChatLine> {
    followed.chat.iter().filter(move |l| l.room == room)
}

pub(super) fn chat_panel(
    mut contexts: EguiContexts,
    session: Res<Session>,
    online: Res<Online>,
    game: Res<crate::game::CurrentGame>,
    (mut memory, mut insets): (ResMut<UiMemory>, ResMut<UiInsets>),
    mut requests: MessageWriter<OnlineRequest>,
) -> Result {
    let Some(followed) = online
        .followed
        .as_ref()
        .filter(|_| session.seats.is_online())
    else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let mut root = super::root_ui_beside(ctx, insets.right, insets.below);
    let upright = super::portrait(ctx);
    let memory = &mut memory.chat;
    let spectator = followed.mine.is_empty();
    if !spectator {
        memory.room = ChatRoom::Players;
    }
    let panel = if upright {
        egui::Panel::bottom("chat-below")
            .resizable(false)
            .exact_size(CHAT_HEIGHT_BELOW)
    } else {
        egui::Panel::right("chat")
            .resizable(false)
            .exact_size(WIDTH)
    };
    let panel = panel.show(&mut root, |ui| {
        super::tournaments::standings_beside_board(ui, &online, &game, &mut requests);
        ui.heading("Chat");
        if spectator {
            ui.horizontal(|ui| {
                ui.selectable_value(&mut memory.room, ChatRoom::Players, "Players");
                ui.selectable_value(&mut memory.room, ChatRoom::Spectators, "Spectators");
            });
        }
        ui.separator();
        let lines_height = (ui.available_height() - 150.0).max(80.0);
        egui::ScrollArea::vertical()
            .max_height(lines_height)
            .stick_to_bottom(true)
            .auto_shrink([false, false])
            .show(ui, |ui| {
                for line in lines_of(followed, memory.room) {
                    chat_line(ui, line, &online, &mut requests);
                }
            });
        ui.separator();
        let may_speak = !spectator || online.me.as_ref().is_some_and(|m| m.account);
        if memory.room == ChatRoom::Players && spectator {
            ui.label(egui::RichText::new("Players speak here; you read.").weak());
        } else if !may_speak {
            ui.label(
                egui::RichText::new("Spectators chat with an account (Online → Account).").weak(),
            );
        } else {
            speak(ui, &mut memory.text, !spectator, &mut requests);
        }
        muted_names(ui, &online, &mut requests);
    });
    if upright {
        insets.below += panel.response.rect.height();
    } else {
        insets.right += panel.response.rect.width();
    }
    Ok(())
}

/// One line: its author (a menu: their page, mute) and what they said.
fn chat_line(
    ui: &mut egui::Ui,
    line: &ChatLine,
    online: &Online,
    requests: &mut MessageWriter<OnlineRequest>,
) {
    ui.horizontal_wrapped(|ui| {
        let me = online.me.as_ref().is_some_and(|m| m.name == line.from);
        let name = egui::RichText::new(&line.from).strong();
        let response = ui.add(egui::Label::new(name).sense(egui::Sense::click()));
        if !me {
            response.context_menu(|ui| {
                if ui.button("Profile").clicked() {
                    requests.write(OnlineRequest::Player(Some(line.from.clone())));
                    ui.close();
                }
                if ui.button(format!("Mute {}", line.from)).clicked() {
                    requests.write(OnlineRequest::Mute {
                        name: line.from.clone(),
                        muted: true,
                    });
                    ui.close();
                }
            });
        }
        ui.label(&line.text);
    });
}

/// The canned phrases (players only: a phrase to the players is a spectator's
/// business no more than a line) and a line to type.
fn speak(
    ui: &mut egui::Ui,
    text: &mut String,
    canned: bool,
    requests: &mut MessageWriter<OnlineRequest>,
) {
    if canned {
        ui.horizontal_wrapped(|ui| {
            for phrase in CANNED {
                if ui.small_button(phrase).clicked() {
                    requests.write(OnlineRequest::Chat(phrase.to_string()));
                }
            }
        });
    }
    ui.horizontal(|ui| {
        let field = ui.add(
            egui::TextEdit::singleline(text)
                .char_limit(MAX_CHAT_CHARS)
                .desired_width(WIDTH - 70.0)
                .hint_text("Say something"),
        );
        let entered = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        let sent = ui.button("Send").clicked() || entered;
        if sent && !text.trim().is_empty() {
            requests.write(OnlineRequest::Chat(std::mem::take(text)));
            field.request_focus();
        }
    });
}

/// The names this player mutes, each with a button to hear them again.
fn muted_names(ui: &mut egui::Ui, online: &Online, requests: &mut MessageWriter<OnlineRequest>) {
    if online.muted.is_empty() {
        return;
    }
    egui::CollapsingHeader::new(format!("Muted ({})", online.muted.len())).show(ui, |ui| {
        for name in &online.muted {
            ui.horizontal(|ui| {
                ui.label(name);
                if ui.small_button("Unmute").clicked() {
                    requests.write(OnlineRequest::Mute {
                        name: name.clone(),
                        muted: false,
                    });
                }
            });
        }
    });
}
