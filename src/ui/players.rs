//! The players on the board: a bar over the board for the seats across from this
//! screen and one under it for the seat it faces, each with its side, its player's
//! name, the clock, the side on move marked and the last seconds warned of.

use std::time::Duration;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use hexchess_core::Side;

use super::UiInsets;
use super::panel::clock_text;
use crate::game::CurrentGame;
use crate::look::Settings;
use crate::online::{Online, OnlineRequest, rating_text};
use crate::pieces::ArmyColour;
use crate::play::{Clocks, Session};

/// Under this much time left a clock is shown as running out.
pub const LOW_TIME: Duration = Duration::from_secs(20);

/// One seat as the players' bars show it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatLine {
    pub side: Side,
    /// The side's name in the variant (White, Black, Red ...).
    pub colour: String,
    /// Its player's name.
    pub name: String,
    pub clock: Option<Duration>,
    pub on_move: bool,
    /// Its clock runs out soon.
    pub low_time: bool,
    /// A person at this screen plays it.
    pub yours: bool,
    /// A program plays it (an engine here, or the server's).
    pub bot: bool,
    /// Its player's rating on the server (`1500?` while provisional).
    pub rating: Option<String>,
    /// After a rated game: how the rating moved (`+12`).
    pub change: Option<String>,
}

/// The seats across the board (the top bar) and the one the board faces (the bottom
/// bar): for two sides the flip decides, at a table the seat the board turns to.
pub fn seat_lines(
    game: &CurrentGame,
    session: &Session,
    clocks: &Clocks,
    online: &Online,
    flipped: bool,
) -> (Vec<SeatLine>, SeatLine) {
    let rules = game.rules();
    let sides = game.side_count();
    let names = session.players(sides);
    let followed = online
        .followed
        .as_ref()
        .filter(|_| session.seats.is_online());
    let over = game.outcome().is_some();
    let line = |side: Side| {
        let name = match followed {
            Some(f) => f.names.get(side.index()).cloned(),
            None if sides > 2 => Some(session.seats.seat(side).label()),
            None if side == Side::White => Some(names.white.clone()),
            None => Some(names.black.clone()),
        }
        .unwrap_or_default();
        let clock = clocks.left(side);
        let on_move = !over && game.side_to_move() == side;
        SeatLine {
            side,
            colour: rules.side_name(side).to_string(),
            name,
            clock,
            on_move,
            low_time: on_move && clock.is_some_and(|t| t < LOW_TIME),
            yours: session.seats.person(side),
            bot: match followed {
                Some(f) => f.bots.get(side.index()).copied().unwrap_or(false),
                None => session.seats.engine_plays(side),
            },
            rating: followed
                .and_then(|f| f.ratings.get(side.index()).copied().flatten())
                .map(|r| rating_text(r.rating, r.provisional, sides > 2)),
            change: followed
                .and_then(|f| f.rating_changes.get(side.index()).copied().flatten())
                .map(|c| change_text(c.after - c.before, sides > 2)),
        }
    };
    let facing = if sides > 2 {
        session.seats.facing(game)
    } else if flipped {
        Side::Black
    } else {
        Side::White
    };
    let across = game
        .played
        .sides()
        .filter(|s| *s != facing)
        .map(line)
        .collect();
    (across, line(facing))
}

/// A rating's move at a game's end: `+12`, `-7`, `+0.4` at a table.
pub fn change_text(delta: f64, table: bool) -> String {
    if table {
        format!("{delta:+.1}")
    } else {
        format!("{:+}", delta.round() as i64)
    }
}

/// What the board says of the server while its game is on it: the connection lost or
/// coming back, a move of this player's not yet taken. None when all is well (or the
/// game is not the server's).
pub fn server_word(session: &Session, online: &Online) -> Option<String> {
    use crate::online::link::LinkStatus;
    if !session.seats.is_online() {
        return None;
    }
    match &online.status {
        _ if crate::online::network_absent() && !online.is_connected() => {
            Some("no network: the game waits for one to go on".into())
        }
        LinkStatus::Lost(why) => Some(format!("connection lost ({why}): reconnecting…")),
        LinkStatus::Connecting => Some("connecting…".into()),
        LinkStatus::Closed => Some("not connected".into()),
        LinkStatus::Connected if online.followed.as_ref().is_some_and(|f| f.waiting()) => {
            Some("sending your move…".into())
        }
        LinkStatus::Connected => None,
    }
}

/// Draws the two bars at the board's top and bottom left corners.
pub(super) fn players_bars(
    mut contexts: EguiContexts,
    (game, session, clocks): (Res<CurrentGame>, Res<Session>, Res<Clocks>),
    (online, settings, insets): (Res<Online>, Res<Settings>, Res<UiInsets>),
    mut requests: MessageWriter<OnlineRequest>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let (across, facing) = seat_lines(&game, &session, &clocks, &online, settings.flipped);
    let rules = game.rules();
    egui::Area::new("players across".into())
        .anchor(egui::Align2::LEFT_TOP, [8.0, insets.top + 8.0])
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                for line in &across {
                    let swatch = ArmyColour::of(rules, line.side).swatch();
                    seat_card(ui, line, swatch, &mut requests);
                }
            });
        });
    let word = server_word(&session, &online);
    egui::Area::new("player facing".into())
        .anchor(egui::Align2::LEFT_BOTTOM, [8.0, -(insets.bottom + 8.0)])
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                let swatch = ArmyColour::of(rules, facing.side).swatch();
                seat_card(ui, &facing, swatch, &mut requests);
                if let Some(word) = &word {
                    let amber = egui::Color32::from_rgb(235, 180, 80);
                    ui.label(egui::RichText::new(word).strong().color(amber));
                }
            });
        });
    Ok(())
}

/// One seat: its colour, on-move mark, name (a rated player's a link to their page)
/// and rating, side, and clock.
fn seat_card(
    ui: &mut egui::Ui,
    line: &SeatLine,
    colour: Color,
    requests: &mut MessageWriter<OnlineRequest>,
) {
    let frame = egui::Frame::new()
        .fill(egui::Color32::from_black_alpha(if line.on_move {
            200
        } else {
            140
        }))
        .corner_radius(6.0)
        .inner_margin(egui::Margin::symmetric(10, 6));
    frame.show(ui, |ui| {
        ui.horizontal(|ui| {
            let (rect, _) = ui.allocate_exact_size(egui::vec2(16.0, 16.0), egui::Sense::hover());
            let fill = super::seats::colour32(colour);
            ui.painter().circle_filled(rect.center(), 7.0, fill);
            ui.painter()
                .circle_stroke(rect.center(), 7.0, (1.0, egui::Color32::GRAY));
            let mark = if line.on_move { "▶ " } else { "" };
            let name = egui::RichText::new(format!("{mark}{}", line.name)).size(16.0);
            let name = if line.yours || line.on_move {
                name.strong()
            } else {
                name
            };
            if line.rating.is_some() && !line.bot {
                let link = ui.add(egui::Label::new(name).sense(egui::Sense::click()));
                if link.on_hover_text("their page").clicked() {
                    requests.write(OnlineRequest::Player(Some(line.name.clone())));
                }
            } else {
                ui.label(name);
            }
            if let Some(rating) = &line.rating {
                ui.label(egui::RichText::new(rating).monospace());
            }
            if let Some(change) = &line.change {
                let colour = if change.starts_with('-') {
                    egui::Color32::from_rgb(235, 90, 70)
                } else {
                    egui::Color32::from_rgb(110, 200, 120)
                };
                ui.label(egui::RichText::new(change).strong().color(colour));
            }
            if line.bot {
                ui.label(
                    egui::RichText::new("BOT")
                        .small()
                        .strong()
                        .color(egui::Color32::from_rgb(120, 170, 235)),
                )
                .on_hover_text("played by a program");
            }
            ui.label(egui::RichText::new(&line.colour).weak());
            if let Some(t) = line.clock {
                let text = egui::RichText::new(clock_text(t)).monospace().size(20.0);
                ui.label(match (line.low_time, line.on_move) {
                    (true, _) => text.strong().color(egui::Color32::from_rgb(235, 90, 70)),
                    (false, true) => text.strong(),
                    (false, false) => text.weak(),
                });
            }
        });
    });
}
