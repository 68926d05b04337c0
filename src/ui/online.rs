//! The *Online…* window: the server's address and the connection's state, the seeks
//! to accept and a form to make one (or a private challenge, or quick pairing), a
//! challenge code to enter, your games (those on your turn first) and your ratings,
//! an account, and the game on the board's own buttons (resign, draw, abort, claim).

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use hexchess_protocol::{GameInPlay, SPEEDS, SeekListing};

use super::UiMemory;
use crate::confirm::Weighty;
use crate::game::Variants;
use crate::online::link::LinkStatus;
use crate::online::{Online, OnlineRequest, SeekForm};
use crate::prefs::KeptPreferences;

/// What the window keeps between frames.
#[derive(Clone, Debug)]
pub(super) struct OnlineForm {
    pub open: bool,
    seek: SeekForm,
    /// Index into the clocks offered.
    clock: usize,
    code: String,
    name: String,
    password: String,
    /// The lists show seeks and games of this variant only (none: all).
    filter_variant: Option<String>,
    /// ...and of this speed only.
    filter_speed: Option<&'static str>,
}

impl Default for OnlineForm {
    fn default() -> OnlineForm {
        OnlineForm {
            open: false,
            seek: SeekForm {
                variant: "glinski".into(),
                clock: Some((5, 3)),
                days: None,
                rated: false,
                side: None,
                engines: 0,
                level: 8,
            },
            clock: 2,
            code: String::new(),
            name: String::new(),
            password: String::new(),
            filter_variant: None,
            filter_speed: None,
        }
    }
}

/// A clock a seek offers: its label, minutes and increment, or days per move.
type ClockChoice = (&'static str, Option<(u32, u32)>, Option<u32>);

/// The clocks a seek offers (neither: untimed).
const CLOCKS: [ClockChoice; 7] = [
    ("1+0 bullet", Some((1, 0)), None),
    ("3+2 blitz", Some((3, 2)), None),
    ("5+3 blitz", Some((5, 3)), None),
    ("10+5 rapid", Some((10, 5)), None),
    ("30+20 classical", Some((30, 20)), None),
    ("3 days a move", None, Some(3)),
    ("untimed", None, None),
];

/// A game of yours starting takes the board: the Online and Tournaments windows close
/// (their buttons open them again), as a game site goes to the board; watching a game
/// leaves them open.
pub(super) fn close_when_your_game_starts(
    online: Res<Online>,
    mut memory: ResMut<UiMemory>,
    mut seen: Local<Option<String>>,
) {
    let now = online
        .followed
        .as_ref()
        .filter(|f| !f.mine.is_empty())
        .map(|f| f.game.clone());
    if now != *seen {
        if now.is_some() {
            memory.online.open = false;
            memory.tournaments.open = false;
        }
        *seen = now;
    }
}

pub(super) fn online_window(
    mut contexts: EguiContexts,
    mut memory: ResMut<UiMemory>,
    mut online: ResMut<Online>,
    mut kept: ResMut<KeptPreferences>,
    variants: Res<Variants>,
    mut requests: MessageWriter<OnlineRequest>,
    mut weighty: MessageWriter<Weighty>,
) -> Result {
    if !memory.online.open {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    let form = &mut memory.online;
    egui::Window::new("Online")
        .open(&mut open)
        .default_width(460.0)
        .show(ctx, |ui| {
            connection(ui, &mut online, &mut kept, &mut requests);
            if !online.is_connected() {
                return;
            }
            ui.separator();
            this_game(ui, &online, &variants, &mut requests, &mut weighty);
            filters(ui, form, &variants);
            seeks(ui, form, &online, &mut requests);
            ui.separator();
            new_seek(ui, form, &variants, &online, &mut requests);
            ui.separator();
            my_games(ui, form, &online, &variants, &mut requests);
            account(ui, form, &online, &mut requests);
        });
    if !open {
        memory.online.open = false;
    }
    Ok(())
}

/// The address (kept in the settings), the state of the connection, connect.
fn connection(
    ui: &mut egui::Ui,
    online: &mut Online,
    kept: &mut KeptPreferences,
    requests: &mut MessageWriter<OnlineRequest>,
) {
    ui.horizontal(|ui| {
        ui.label("Server");
        let edit = ui.add(egui::TextEdit::singleline(&mut kept.live.server).desired_width(240.0));
        if edit.changed() {
            online.server = kept.live.server.clone();
        }
        match online.status {
            LinkStatus::Closed => {
                if ui.button("Connect").clicked() {
                    online.server = kept.live.server.clone();
                    requests.write(OnlineRequest::Connect);
                }
            }
            _ => {
                if ui.button("Disconnect").clicked() {
                    requests.write(OnlineRequest::Disconnect);
                }
            }
        }
    });
    let (colour, text) = match (&online.status, &online.me) {
        (LinkStatus::Connected, Some(me)) => (
            egui::Color32::from_rgb(110, 200, 120),
            format!(
                "connected as {}{}",
                me.name,
                if me.account { "" } else { " (anonymous)" }
            ),
        ),
        (LinkStatus::Connected, None) | (LinkStatus::Connecting, _) => (
            egui::Color32::from_rgb(220, 200, 90),
            "connecting…".to_string(),
        ),
        (LinkStatus::Lost(why), _) => (
            egui::Color32::from_rgb(230, 120, 90),
            format!("connection lost, trying again: {why}"),
        ),
        (LinkStatus::Closed, _) => (egui::Color32::GRAY, "not connected".to_string()),
    };
    let (colour, text) = if crate::online::network_absent() && !online.is_connected() {
        (
            egui::Color32::from_rgb(230, 120, 90),
            "no network: online play waits for one (the engine and every game on this \
             screen play on)"
                .to_string(),
        )
    } else {
        (colour, text)
    };
    ui.colored_label(colour, text);
}

/// A challenge's link, to copy (or hand to the system's share sheet, where the browser
/// has one): the friend who opens it lands in the game's page on the challenge.
fn share_link(ui: &mut egui::Ui, link: &str) {
    ui.horizontal_wrapped(|ui| {
        ui.label("Link:");
        ui.add(egui::Label::new(egui::RichText::new(link).monospace()).selectable(true));
        if ui.small_button("Copy link").clicked() {
            ui.ctx().copy_text(link.to_string());
        }
        #[cfg(target_arch = "wasm32")]
        if crate::web::page::can_share() && ui.small_button("Share…").clicked() {
            crate::web::page::share("A game of hexchess", link);
        }
    });
}

/// Asks for a rematch (the seats swapped), and says who has asked.
pub(super) fn rematch_button(
    ui: &mut egui::Ui,
    followed: &crate::online::FollowedGame,
    requests: &mut MessageWriter<OnlineRequest>,
) {
    ui.horizontal(|ui| {
        if ui
            .button("Rematch")
            .on_hover_text("the same game again, the seats swapped")
            .clicked()
        {
            requests.write(OnlineRequest::Rematch);
        }
        if !followed.rematch_asked.is_empty() {
            ui.label(format!("asked: {}", followed.rematch_asked.join(", ")));
        }
    });
}

/// The game on the board, when it is the server's.
fn this_game(
    ui: &mut egui::Ui,
    online: &Online,
    variants: &Variants,
    requests: &mut MessageWriter<OnlineRequest>,
    weighty: &mut MessageWriter<Weighty>,
) {
    let Some(followed) = &online.followed else {
        return;
    };
    ui.horizontal_wrapped(|ui| {
        ui.strong(format!("Game {}", followed.game));
        ui.label(followed.names.join(" – "));
        if followed.mine.is_empty() {
            ui.label("(watching)");
        }
    });
    if let Some((result, why)) = &followed.result {
        ui.label(format!("Over: {result} ({why})"));
        if !followed.mine.is_empty() {
            rematch_button(ui, followed, requests);
        }
        return;
    }
    if followed.mine.is_empty() {
        return;
    }
    ui.horizontal(|ui| {
        if ui.button("Resign").clicked() {
            weighty.write(Weighty::Resign);
        }
        // Offers of the other seats are accepted or declined; one's own stands.
        let to_me = variants
            .0
            .get(&followed.variant)
            .map_or(Vec::new(), |e| followed.offers_to_me(e.rules()));
        let mine_stands = followed.draw_offers.len() > to_me.len();
        let draw = match (to_me.is_empty(), mine_stands) {
            (false, _) => format!("Accept draw ({})", to_me.join(", ")),
            (true, true) => "Draw offered".to_string(),
            (true, false) => "Offer draw".to_string(),
        };
        if ui
            .add_enabled(!(to_me.is_empty() && mine_stands), egui::Button::new(draw))
            .clicked()
        {
            requests.write(OnlineRequest::Draw);
        }
        if !to_me.is_empty() && ui.button("Decline").clicked() {
            requests.write(OnlineRequest::Decline);
        }
        if ui
            .button("Abort")
            .on_hover_text("before every side has moved")
            .clicked()
        {
            weighty.write(Weighty::Abort);
        }
        if ui
            .button("Claim victory")
            .on_hover_text("when the side on move has left the game")
            .clicked()
        {
            requests.write(OnlineRequest::Claim);
        }
    });
    ui.separator();
}

fn time_of(seek: &SeekListing) -> String {
    match (seek.minutes, seek.days) {
        (Some(m), _) => format!("{m}+{}", seek.increment),
        (None, Some(d)) => format!("{d} days"),
        (None, None) => "untimed".into(),
    }
}

/// The lists' filter: a variant and a speed (the server pushes every list whole; the
/// filter is this window's).
fn filters(ui: &mut egui::Ui, form: &mut OnlineForm, variants: &Variants) {
    ui.horizontal(|ui| {
        ui.label("Show");
        egui::ComboBox::from_id_salt("filter variant")
            .selected_text(
                form.filter_variant
                    .clone()
                    .unwrap_or_else(|| "every variant".into()),
            )
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut form.filter_variant, None, "every variant");
                for entry in variants.0.entries() {
                    ui.selectable_value(
                        &mut form.filter_variant,
                        Some(entry.id().to_string()),
                        entry.name(),
                    );
                }
            });
        egui::ComboBox::from_id_salt("filter speed")
            .selected_text(form.filter_speed.unwrap_or("every speed"))
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut form.filter_speed, None, "every speed");
                for speed in SPEEDS {
                    ui.selectable_value(&mut form.filter_speed, Some(speed), speed);
                }
            });
    });
}

impl OnlineForm {
    /// Whether a game of `variant` at `speed` passes the filter.
    fn shows(&self, variant: &str, speed: &str) -> bool {
        self.filter_variant.as_deref().is_none_or(|v| v == variant)
            && self.filter_speed.is_none_or(|s| s == speed)
    }
}

/// A player's name as a link to their page (a bot's marked).
fn name_link(
    ui: &mut egui::Ui,
    name: &str,
    bot: bool,
    requests: &mut MessageWriter<OnlineRequest>,
) {
    let shown = if bot {
        format!("{name} [BOT]")
    } else {
        name.to_string()
    };
    if ui.link(shown).on_hover_text("their page").clicked() {
        requests.write(OnlineRequest::Player(Some(name.to_string())));
    }
}

/// The open seeks that pass the filter, each with its Accept.
fn seeks(
    ui: &mut egui::Ui,
    form: &OnlineForm,
    online: &Online,
    requests: &mut MessageWriter<OnlineRequest>,
) {
    ui.strong("Seeks");
    let shown: Vec<&SeekListing> = online
        .seeks
        .iter()
        .filter(|s| form.shows(&s.variant, s.speed()))
        .collect();
    if shown.is_empty() {
        ui.label("none open: make one below, or pair quickly");
    }
    egui::Grid::new("seeks").striped(true).show(ui, |ui| {
        for seek in shown {
            match &seek.by {
                Some(by) => name_link(ui, by, seek.bot, requests),
                None => {
                    ui.label("");
                }
            }
            ui.label(seek.rating.map_or(String::new(), |r| {
                crate::online::rating_text(r.rating, r.provisional, seek.seats > 2)
            }));
            ui.label(&seek.variant);
            ui.label(time_of(seek));
            ui.label(if seek.rated { "rated" } else { "casual" });
            ui.label(format!("{} of {} seats open", seek.open, seek.seats));
            let mine = seek.by.as_deref() == online.me.as_ref().map(|m| m.name.as_str());
            if mine {
                if ui.button("Cancel").clicked() {
                    requests.write(OnlineRequest::Cancel(seek.id.clone()));
                }
            } else if ui.button("Accept").clicked() {
                requests.write(OnlineRequest::Accept(seek.id.clone()));
            }
            ui.end_row();
        }
    });
}

/// A new seek: variant, time, rated, side, engine seats; seek, quick pairing or a
/// private challenge; a challenge code to enter.
fn new_seek(
    ui: &mut egui::Ui,
    form: &mut OnlineForm,
    variants: &Variants,
    online: &Online,
    requests: &mut MessageWriter<OnlineRequest>,
) {
    ui.strong("New game");
    egui::Grid::new("seek form").num_columns(2).show(ui, |ui| {
        ui.label("Variant");
        egui::ComboBox::from_id_salt("online variant")
            .selected_text(form.seek.variant.clone())
            .show_ui(ui, |ui| {
                for entry in variants.0.entries() {
                    ui.selectable_value(
                        &mut form.seek.variant,
                        entry.id().to_string(),
                        entry.name(),
                    );
                }
            });
        ui.end_row();
        ui.label("Time");
        egui::ComboBox::from_id_salt("online clock")
            .selected_text(CLOCKS[form.clock].0)
            .show_ui(ui, |ui| {
                for (i, (label, _, _)) in CLOCKS.iter().enumerate() {
                    ui.selectable_value(&mut form.clock, i, *label);
                }
            });
        ui.end_row();
        ui.label("Side");
        let sides: Vec<String> = variants
            .0
            .get(&form.seek.variant)
            .map(|e| {
                e.rules()
                    .sides()
                    .map(|s| e.rules().side_name(s).to_string())
                    .collect()
            })
            .unwrap_or_default();
        egui::ComboBox::from_id_salt("online side")
            .selected_text(form.seek.side.clone().unwrap_or_else(|| "any".into()))
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut form.seek.side, None, "any");
                for side in sides.iter() {
                    ui.selectable_value(&mut form.seek.side, Some(side.clone()), side);
                }
            });
        ui.end_row();
        ui.label("Engine seats");
        ui.horizontal(|ui| {
            ui.add(
                egui::DragValue::new(&mut form.seek.engines)
                    .range(0..=sides.len().saturating_sub(1) as u32),
            );
            ui.label("at level");
            ui.add(egui::DragValue::new(&mut form.seek.level).range(1..=20));
        });
        ui.end_row();
        ui.label("");
        ui.add_enabled(
            form.seek.engines == 0,
            egui::Checkbox::new(&mut form.seek.rated, "rated"),
        );
        ui.end_row();
    });
    let (_, clock, days) = CLOCKS[form.clock];
    form.seek.clock = clock;
    form.seek.days = days;
    if form.seek.engines > 0 {
        form.seek.rated = false;
    }
    ui.horizontal(|ui| {
        if ui.button("Seek").clicked() {
            requests.write(OnlineRequest::Seek(form.seek.clone()));
        }
        if ui
            .button("Quick pairing")
            .on_hover_text("play the first seek like this one, or seek it")
            .clicked()
        {
            requests.write(OnlineRequest::Quick(form.seek.clone()));
        }
        if ui
            .button("Challenge a friend")
            .on_hover_text("a private game: share its code")
            .clicked()
        {
            requests.write(OnlineRequest::Challenge(form.seek.clone()));
        }
    });
    if let Some(code) = &online.challenge {
        ui.horizontal(|ui| {
            ui.label("Your challenge's code:");
            ui.strong(code);
            if ui.small_button("Copy").clicked() {
                ui.ctx().copy_text(code.clone());
            }
        });
        if let Some(link) = crate::online::link_to_challenge(&online.server, code) {
            share_link(ui, &link);
        }
    }
    ui.horizontal(|ui| {
        ui.label("A friend's code");
        ui.add(egui::TextEdit::singleline(&mut form.code).desired_width(100.0));
        if ui
            .add_enabled(!form.code.trim().is_empty(), egui::Button::new("Join"))
            .clicked()
        {
            requests.write(OnlineRequest::Accept(form.code.trim().to_string()));
            form.code.clear();
        }
    });
}

/// Your games in play (your turn first) to open, others' to watch (both lists pushed
/// by the server as they change), your ratings, your page and the leaderboard.
fn my_games(
    ui: &mut egui::Ui,
    form: &OnlineForm,
    online: &Online,
    variants: &Variants,
    requests: &mut MessageWriter<OnlineRequest>,
) {
    ui.horizontal(|ui| {
        ui.strong("Your games");
        if online.me.is_some() && ui.small_button("Your page").clicked() {
            requests.write(OnlineRequest::Player(None));
        }
        if ui.small_button("Leaderboard").clicked() {
            let variant = form
                .filter_variant
                .clone()
                .unwrap_or_else(|| form.seek.variant.clone());
            requests.write(OnlineRequest::Leaderboard(variant));
        }
    });
    if online.my_games.is_empty() {
        ui.label("none in play");
    }
    for brief in &online.my_games {
        ui.horizontal(|ui| {
            if brief.your_turn {
                ui.colored_label(egui::Color32::from_rgb(110, 200, 120), "your turn");
            }
            ui.label(format!(
                "{} {} – {}",
                brief.variant,
                brief.speed,
                brief.names.join(" – ")
            ));
            if !online.follows(&brief.game) && ui.small_button("Open").clicked() {
                requests.write(OnlineRequest::Open(brief.game.clone()));
            }
        });
    }
    let others: Vec<&GameInPlay> = online
        .playing
        .iter()
        .filter(|g| !online.my_games.iter().any(|m| m.game == g.game))
        .filter(|g| form.shows(&g.variant, &g.speed))
        .collect();
    if !others.is_empty() {
        ui.strong("Watch");
        for brief in others.into_iter().take(12) {
            ui.horizontal(|ui| {
                ui.label(format!("{} {} –", brief.variant, brief.speed));
                for (i, name) in brief.names.iter().enumerate() {
                    let bot = brief.bots.get(i).copied().unwrap_or(false);
                    name_link(ui, name, bot, requests);
                }
                if !online.follows(&brief.game) && ui.small_button("Watch").clicked() {
                    requests.write(OnlineRequest::Open(brief.game.clone()));
                }
            });
        }
    }
    if !online.ratings.is_empty() {
        ui.horizontal(|ui| {
            ui.strong("Ratings");
            if ui.small_button("Refresh").clicked() {
                requests.write(OnlineRequest::Refresh);
            }
        });
        for r in &online.ratings {
            let table = variants
                .0
                .get(&r.variant)
                .is_some_and(|e| e.side_count() > 2);
            ui.label(format!(
                "{} {}: {} ± {} ({} games)",
                r.variant,
                r.speed,
                crate::online::rating_text(r.rating, r.provisional, table),
                r.deviation,
                r.games
            ));
        }
    }
}

/// An account: a name and a password for the player this machine is.
fn account(
    ui: &mut egui::Ui,
    form: &mut OnlineForm,
    online: &Online,
    requests: &mut MessageWriter<OnlineRequest>,
) {
    if online.me.as_ref().is_some_and(|m| m.account) {
        return;
    }
    ui.separator();
    ui.collapsing("Account", |ui| {
        ui.label("Keep your games and ratings under a name, and sign in from another machine.");
        ui.horizontal(|ui| {
            ui.label("Name");
            ui.add(egui::TextEdit::singleline(&mut form.name).desired_width(120.0));
            ui.label("Password");
            ui.add(
                egui::TextEdit::singleline(&mut form.password)
                    .password(true)
                    .desired_width(120.0),
            );
        });
        ui.horizontal(|ui| {
            let filled = !form.name.is_empty() && !form.password.is_empty();
            if ui
                .add_enabled(filled, egui::Button::new("Make this player an account"))
                .clicked()
            {
                requests.write(OnlineRequest::Register {
                    name: form.name.clone(),
                    password: std::mem::take(&mut form.password),
                });
            }
            if ui
                .add_enabled(filled, egui::Button::new("Sign in"))
                .clicked()
            {
                requests.write(OnlineRequest::Login {
                    name: form.name.clone(),
                    password: std::mem::take(&mut form.password),
                });
            }
        });
    });
}
