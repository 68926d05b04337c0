//! The *Tournaments…* window: the server's tournaments (waiting, running, the last
//! finished) to enter or follow, a form to create one, and the followed tournament's
//! standings (its final table once it is over); beside the board during a
//! tournament's game, the standings' top and your own line, and the arena's berserk.
//! The next game opens by itself: the server starts it, and `started` puts it on the
//! board as any game of yours.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use hexchess_protocol::{
    StandingLine, TournamentKind, TournamentListing, TournamentRequest, TournamentView,
};

use super::UiMemory;
use crate::game::Variants;
use crate::online::{Online, OnlineRequest};

/// What the window keeps between frames.
#[derive(Clone, Debug)]
pub(super) struct TournamentsForm {
    pub open: bool,
    /// The list was asked for on this connection.
    asked: bool,
    kind: TournamentKind,
    name: String,
    variant: String,
    /// Index into [`CLOCKS`].
    clock: usize,
    rounds: u32,
    /// An arena's length, in minutes.
    arena_minutes: u32,
    /// Minutes until the start.
    starts_in: u32,
    rated: bool,
    bots: bool,
    berserk: bool,
}

impl Default for TournamentsForm {
    fn default() -> TournamentsForm {
        TournamentsForm {
            open: false,
            asked: false,
            kind: TournamentKind::Arena,
            name: "Hex arena".into(),
            variant: "glinski".into(),
            clock: 1,
            rounds: 5,
            arena_minutes: 30,
            starts_in: 5,
            rated: true,
            bots: false,
            berserk: true,
        }
    }
}

/// The clocks a tournament offers (minutes, increment).
const CLOCKS: [(&str, u32, u32); 5] = [
    ("1+0 bullet", 1, 0),
    ("3+2 blitz", 3, 2),
    ("5+3 blitz", 5, 3),
    ("10+5 rapid", 10, 5),
    ("15+10 rapid", 15, 10),
];

pub(super) fn tournaments_window(
    mut contexts: EguiContexts,
    mut memory: ResMut<UiMemory>,
    online: Res<Online>,
    variants: Res<Variants>,
    mut requests: MessageWriter<OnlineRequest>,
) -> Result {
    let form = &mut memory.tournaments;
    if !online.is_connected() {
        form.asked = false;
    }
    if !form.open {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    egui::Window::new("Tournaments")
        .open(&mut open)
        .default_width(560.0)
        .show(ctx, |ui| {
            if !online.is_connected() {
                ui.label("Not connected: connect in Online… first.");
                return;
            }
            if !form.asked {
                requests.write(OnlineRequest::Tournaments);
                form.asked = true;
            }
            listing(ui, &online, &variants, &mut requests);
            ui.separator();
            if let Some(view) = &online.tournament {
                standings(ui, view, &online, &mut requests);
                ui.separator();
            }
            create(ui, form, &online, &variants, &mut requests);
        });
    if !open {
        form.open = false;
    }
    Ok(())
}

fn variant_name(variants: &Variants, id: &str) -> String {
    variants
        .0
        .get(id)
        .map_or_else(|| id.to_string(), |e| e.name().to_string())
}

fn kind_name(kind: TournamentKind) -> &'static str {
    match kind {
        TournamentKind::Arena => "Arena",
        TournamentKind::Swiss => "Swiss",
        TournamentKind::RoundRobin => "Round robin",
    }
}

/// Where a tournament stands, in words.
fn stage(t: &TournamentListing) -> String {
    let now = web_time::SystemTime::now()
        .duration_since(web_time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64);
    match t.status.as_str() {
        "waiting" => {
            let minutes = (t.starts_ms - now).max(0) / 60_000;
            format!("starts in {minutes} min")
        }
        "running" => match (t.round, t.rounds, t.ends_ms) {
            (Some(r), Some(n), _) => format!("round {r} of {n}"),
            (_, _, Some(end)) => match (end - now).max(0) / 1000 {
                s if s < 60 => format!("{s} s left"),
                s => format!("{} min left", s / 60),
            },
            _ => "running".into(),
        },
        _ => "finished".into(),
    }
}

fn listing(
    ui: &mut egui::Ui,
    online: &Online,
    variants: &Variants,
    requests: &mut MessageWriter<OnlineRequest>,
) {
    ui.heading("Tournaments");
    if online.tournaments.is_empty() {
        ui.label("None yet: create one below.");
        return;
    }
    egui::ScrollArea::vertical()
        .id_salt("tournament list")
        .max_height(200.0)
        .show(ui, |ui| {
            egui::Grid::new("tournaments")
                .striped(true)
                .num_columns(6)
                .show(ui, |ui| {
                    for t in &online.tournaments {
                        ui.label(&t.name);
                        ui.label(format!(
                            "{} · {} · {}+{}{}",
                            kind_name(t.kind),
                            variant_name(variants, &t.variant),
                            t.minutes,
                            t.increment,
                            if t.rated { " · rated" } else { "" }
                        ));
                        ui.label(stage(t));
                        ui.label(format!("{} players", t.players));
                        let followed = online
                            .tournament
                            .as_ref()
                            .is_some_and(|v| v.listing.id == t.id);
                        if ui
                            .add_enabled(!followed, egui::Button::new("Standings"))
                            .clicked()
                        {
                            requests.write(OnlineRequest::FollowTournament(t.id.clone()));
                        }
                        if t.status != "finished" && ui.button("Join").clicked() {
                            requests.write(OnlineRequest::JoinTournament(t.id.clone()));
                        }
                        ui.end_row();
                    }
                });
        });
}

/// The followed tournament's table (the final one once it is over).
fn standings(
    ui: &mut egui::Ui,
    view: &TournamentView,
    online: &Online,
    requests: &mut MessageWriter<OnlineRequest>,
) {
    let t = &view.listing;
    let title = if t.status == "finished" {
        format!("{}: final standings", t.name)
    } else {
        format!("{}: standings ({})", t.name, stage(t))
    };
    ui.heading(title);
    let me = online.me.as_ref().map(|m| m.name.clone());
    let entered = view
        .standings
        .iter()
        .any(|l| Some(&l.name) == me.as_ref() && !l.withdrawn);
    if entered && t.status != "finished" && ui.button("Withdraw").clicked() {
        requests.write(OnlineRequest::WithdrawTournament(t.id.clone()));
    }
    egui::ScrollArea::vertical()
        .id_salt("standings")
        .max_height(260.0)
        .show(ui, |ui| table(ui, view, me.as_deref(), usize::MAX));
}

/// The standings as a grid, at most `rows` lines (and yours, if below them).
fn table(ui: &mut egui::Ui, view: &TournamentView, me: Option<&str>, rows: usize) {
    let arena = view.listing.kind == TournamentKind::Arena;
    egui::Grid::new(("standings grid", rows))
        .striped(true)
        .num_columns(6)
        .show(ui, |ui| {
            ui.strong("#");
            ui.strong("Player");
            ui.strong("Points");
            ui.strong("Games");
            ui.strong(if arena { "Sheet" } else { "Buchholz · SB" });
            ui.strong("");
            ui.end_row();
            let mine = view
                .standings
                .iter()
                .position(|l| Some(l.name.as_str()) == me);
            for (i, line) in view.standings.iter().enumerate() {
                if i >= rows && Some(i) != mine {
                    continue;
                }
                row(ui, line, arena, Some(line.name.as_str()) == me);
            }
        });
}

fn row(ui: &mut egui::Ui, line: &StandingLine, arena: bool, mine: bool) {
    ui.label(line.rank.to_string());
    let mut name = line.name.clone();
    if line.bot {
        name.push_str(" (bot)");
    }
    if line.withdrawn {
        name.push_str(" (withdrawn)");
    }
    let name = egui::RichText::new(name);
    ui.label(if mine { name.strong() } else { name });
    ui.label(points_label(line, arena));
    ui.label(line.games.to_string());
    if arena {
        let recent: Vec<&str> = line
            .sheet
            .iter()
            .rev()
            .take(12)
            .rev()
            .map(String::as_str)
            .collect();
        ui.label(recent.join(" "));
    } else {
        let tb: Vec<String> = line.tie_breaks.iter().map(|v| points_text(*v)).collect();
        ui.label(tb.join(" · "));
    }
    ui.label(if line.playing.is_some() {
        "playing"
    } else {
        ""
    });
    ui.end_row();
}

/// A line's points: an arena's as a number, orange while on fire; a Swiss's as a
/// chess table writes them.
fn points_label(line: &StandingLine, arena: bool) -> egui::RichText {
    let text = if arena {
        format!("{}", line.points)
    } else {
        points_text(line.points)
    };
    let points = egui::RichText::new(text);
    if line.on_fire {
        points.color(egui::Color32::from_rgb(230, 120, 30))
    } else {
        points
    }
}

/// `2½`, `3`, `0.75` → `¾`: scores as a chess table writes them.
fn points_text(value: f64) -> String {
    let whole = value.trunc();
    let rest = value - whole;
    let tail = if (rest - 0.5).abs() < 1e-9 {
        "½"
    } else if (rest - 0.25).abs() < 1e-9 {
        "¼"
    } else if (rest - 0.75).abs() < 1e-9 {
        "¾"
    } else {
        ""
    };
    match (whole as i64, tail) {
        (0, t) if !t.is_empty() => t.to_string(),
        (w, t) => format!("{w}{t}"),
    }
}

fn create(
    ui: &mut egui::Ui,
    form: &mut TournamentsForm,
    online: &Online,
    variants: &Variants,
    requests: &mut MessageWriter<OnlineRequest>,
) {
    ui.collapsing("Create a tournament", |ui| {
        if !online.me.as_ref().is_some_and(|m| m.account) {
            ui.label("Sign in to an account (Online…) to create one.");
            return;
        }
        ui.horizontal(|ui| {
            for kind in [
                TournamentKind::Arena,
                TournamentKind::Swiss,
                TournamentKind::RoundRobin,
            ] {
                ui.selectable_value(&mut form.kind, kind, kind_name(kind));
            }
        });
        ui.horizontal(|ui| {
            ui.label("Name");
            ui.add(egui::TextEdit::singleline(&mut form.name).char_limit(40));
        });
        ui.horizontal(|ui| {
            egui::ComboBox::from_id_salt("tournament variant")
                .selected_text(variant_name(variants, &form.variant))
                .show_ui(ui, |ui| {
                    for entry in variants.0.entries() {
                        if entry.side_count() == 2 {
                            ui.selectable_value(
                                &mut form.variant,
                                entry.id().to_string(),
                                entry.name(),
                            );
                        }
                    }
                });
            egui::ComboBox::from_id_salt("tournament clock")
                .selected_text(CLOCKS[form.clock].0)
                .show_ui(ui, |ui| {
                    for (i, (label, _, _)) in CLOCKS.iter().enumerate() {
                        ui.selectable_value(&mut form.clock, i, *label);
                    }
                });
        });
        ui.horizontal(|ui| match form.kind {
            TournamentKind::Arena => {
                ui.add(egui::Slider::new(&mut form.arena_minutes, 10..=180).text("minutes long"));
                ui.checkbox(&mut form.berserk, "Berserk");
            }
            TournamentKind::Swiss => {
                ui.add(egui::Slider::new(&mut form.rounds, 1..=15).text("rounds"));
            }
            TournamentKind::RoundRobin => {
                form.rounds = form.rounds.clamp(1, 2);
                ui.radio_value(&mut form.rounds, 1, "once around");
                ui.radio_value(&mut form.rounds, 2, "twice (double)");
            }
        });
        ui.horizontal(|ui| {
            ui.add(egui::Slider::new(&mut form.starts_in, 0..=120).text("minutes to the start"));
            ui.checkbox(&mut form.rated, "Rated");
            ui.checkbox(&mut form.bots, "Bots may enter");
        });
        if ui.button("Create").clicked() {
            let (_, minutes, increment) = CLOCKS[form.clock];
            requests.write(OnlineRequest::CreateTournament(Box::new(
                TournamentRequest {
                    kind: form.kind,
                    name: form.name.clone(),
                    variant: form.variant.clone(),
                    minutes,
                    increment,
                    rated: form.rated,
                    starts_in: form.starts_in * 60,
                    seconds: (form.kind == TournamentKind::Arena)
                        .then_some(form.arena_minutes * 60),
                    rounds: (form.kind != TournamentKind::Arena).then_some(form.rounds),
                    bots: form.bots,
                    first_move_seconds: None,
                    berserk: form.berserk && form.kind == TournamentKind::Arena,
                },
            )));
        }
    });
}

/// During a tournament's game, at the top of the column beside the board: the
/// tournament's standings (the first eight and your line) and, in an arena that allows
/// it, berserk before your first move.
pub(super) fn standings_beside_board(
    ui: &mut egui::Ui,
    online: &Online,
    game: &crate::game::CurrentGame,
    requests: &mut MessageWriter<OnlineRequest>,
) {
    let (Some(view), Some(game_of)) = (&online.tournament, &online.tournament_game) else {
        return;
    };
    let Some(followed) = online.followed.as_ref().filter(|f| !f.mine.is_empty()) else {
        return;
    };
    if view.listing.id != *game_of {
        return;
    }
    ui.heading(&view.listing.name);
    ui.label(egui::RichText::new(stage(&view.listing)).weak());
    let me = online.me.as_ref().map(|m| m.name.clone());
    let arena = view.listing.kind == TournamentKind::Arena;
    let mine = view
        .standings
        .iter()
        .position(|l| Some(l.name.as_str()) == me.as_deref());
    egui::Grid::new("standings beside the board")
        .striped(true)
        .num_columns(3)
        .show(ui, |ui| {
            for (i, line) in view.standings.iter().enumerate() {
                if i >= 8 && Some(i) != mine {
                    continue;
                }
                ui.label(line.rank.to_string());
                let mut name = egui::RichText::new(&line.name);
                if Some(i) == mine {
                    name = name.strong();
                }
                ui.label(name);
                ui.label(points_label(line, arena));
                ui.end_row();
            }
        });
    if view.listing.berserk
        && followed.may_go_berserk(game)
        && ui
            .button("Berserk: half your clock, a point more")
            .clicked()
    {
        requests.write(OnlineRequest::Berserk);
    }
    ui.separator();
}

#[cfg(test)]
mod tests {
    use super::points_text;

    #[test]
    fn scores_are_written_as_a_chess_table_writes_them() {
        assert_eq!(points_text(2.5), "2½");
        assert_eq!(points_text(0.5), "½");
        assert_eq!(points_text(3.0), "3");
        assert_eq!(points_text(0.0), "0");
        assert_eq!(points_text(10.75), "10¾");
    }
}
