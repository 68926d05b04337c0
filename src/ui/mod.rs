//! The user interface (egui): the menu bar and status line (`bar`), the side panel
//! with clocks, evaluation, move list, captured pieces, position and game files and
//! move entry (`panel`), the new-game menu and game-over dialog (`new_game`), the
//! endgame trainer's window and verdicts (`trainer`), the tray of pieces in hand and
//! Screen HexaChess's hand-over screen (`tray`), the promotion picker and
//! variant-file errors (`dialogs`), the games of a file to pick from (`files`), and the
//! settings window and the offer to continue
//! an unfinished game (`settings`).
//!
//! The interface only reads state and sends requests; the game and play plugins apply
//! them. It tells the screen how much of the window its panels take ([`UiInsets`]).

mod analysis;
mod bar;
pub mod chat;
mod dialogs;
mod dialogs_files;
mod editor;
mod files;
mod new_game;
mod online;
mod panel;
pub mod players;
mod profile;
mod review;
mod seats;
mod settings;
mod tournaments;
mod trainer;
mod tray;
mod variant_card;

use web_time::Instant;

use bevy::prelude::*;
use bevy_egui::input::EguiWantsInput;
use bevy_egui::{EguiPrimaryContextPass, egui};
use hexchess_core::Piece;

pub use bar::status_line;
pub use settings::OpenSettings;
pub use trainer::OpenTrainer;

/// Opens the *Online…* window (the menu bar's button, `--online`).
#[derive(Message, Clone, Copy, Debug)]
pub struct OpenOnline;

fn open_online(mut opens: MessageReader<OpenOnline>, mut memory: ResMut<UiMemory>) {
    if opens.read().count() > 0 {
        memory.online.open = true;
    }
}

/// Opens the *Tournaments…* window (`--tournament`).
#[derive(Message, Clone, Copy, Debug)]
pub struct OpenTournaments;

fn open_tournaments(mut opens: MessageReader<OpenTournaments>, mut memory: ResMut<UiMemory>) {
    if opens.read().count() > 0 {
        memory.tournaments.open = true;
    }
}

use crate::game::GameNotice;
use crate::input::PointerOverUi;
use new_game::Setup;

pub struct UiPlugin;

impl Plugin for UiPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<UiMemory>()
            .init_resource::<UiInsets>()
            .add_systems(
                EguiPrimaryContextPass,
                (
                    // The side panel first: the bars then take the width it leaves, so
                    // none of their controls hides under it.
                    panel::side_panel,
                    chat::chat_panel,
                    bar::menu_bar,
                    players::players_bars,
                    new_game::new_game_menu,
                    new_game::game_over_dialog,
                    trainer::trainer_window,
                    dialogs::promotion_picker,
                    dialogs::variant_errors,
                    dialogs::weighty_question,
                    settings::settings_window,
                    (online::online_window, tournaments::tournaments_window).chain(),
                    profile::profile_window,
                    files::game_choice,
                    editor::editor_window,
                    settings::resume_offer,
                    tray::hand_tray,
                    tray::hand_over_screen,
                    settings::apply_ui_scale,
                    piece_name,
                )
                    .chain(),
            )
            .add_systems(PreUpdate, note_pointer_over_ui)
            .add_message::<OpenTrainer>()
            .add_message::<OpenSettings>()
            .add_message::<OpenOnline>()
            .add_message::<OpenTournaments>()
            .init_resource::<dialogs_files::FileDialog>()
            .add_message::<dialogs_files::SaveTo>()
            .add_systems(
                Update,
                (
                    dialogs_files::collect_choices,
                    dialogs_files::open_picked_files,
                    panel::save_to_chosen_paths,
                )
                    .chain(),
            )
            .add_systems(
                OnEnter(crate::play::AppState::NewGameMenu),
                new_game::start_from_the_game,
            )
            .add_systems(
                Update,
                (
                    remember_notices,
                    trainer::open_trainer,
                    settings::open_settings,
                    (open_online, online::close_when_your_game_starts).chain(),
                    open_tournaments,
                ),
            );
    }
}

/// Room the panels take along the window's edges (logical pixels): the board's camera
/// draws in what is left.
#[derive(Resource, Default, Clone, Copy, Debug, PartialEq)]
pub struct UiInsets {
    /// The menu bar.
    pub top: f32,
    /// The status line, and below it the side panel and the chat on a portrait screen.
    pub bottom: f32,
    /// The side panel and the chat on a landscape screen.
    pub right: f32,
    /// The side panel's and the chat's part of `bottom` on a portrait screen.
    pub below: f32,
}

/// Narrower than this (logical pixels) and taller than wide, the screen is a portrait
/// one (a phone held upright): the panels go below the board, not beside it.
const PORTRAIT_WIDTH: f32 = 700.0;

/// Whether the window is a portrait screen ([`PORTRAIT_WIDTH`]).
pub(crate) fn portrait(ctx: &egui::Context) -> bool {
    let screen = ctx.viewport_rect();
    screen.width() < PORTRAIT_WIDTH && screen.height() > screen.width()
}

/// The height the side panel takes below the board on a portrait screen: the board
/// keeps the larger part.
fn panel_height_below(ctx: &egui::Context) -> f32 {
    (ctx.viewport_rect().height() * 0.36).max(160.0)
}

/// What the interface keeps between frames: text fields, the last notice, the setup
/// being edited in the new-game menu.
#[derive(Resource)]
pub struct UiMemory {
    move_text: String,
    fen_text: String,
    file_text: String,
    notice: Option<Notice>,
    setup: Setup,
    drill: trainer::DrillSetup,
    show_errors: bool,
    errors_seen: usize,
    settings_open: bool,
    online: online::OnlineForm,
    tournaments: tournaments::TournamentsForm,
    chat: chat::ChatMemory,
    card: variant_card::CardChoice,
    moves: MoveListCache,
}

/// The last thing the game had to say, and when: shown for a few seconds.
struct Notice {
    text: String,
    at: Instant,
}

/// The move list in SAN and the captured pieces, made once per position rather than
/// every frame.
struct MoveListCache {
    /// The position it was made for: its hash and ply count.
    made_for: (u64, usize),
    san: Vec<String>,
    captured: Vec<Piece>,
}

impl Default for UiMemory {
    fn default() -> Self {
        UiMemory {
            move_text: String::new(),
            fen_text: String::new(),
            file_text: String::new(),
            notice: None,
            setup: Setup::default(),
            drill: trainer::DrillSetup::default(),
            show_errors: false,
            errors_seen: 0,
            settings_open: false,
            online: online::OnlineForm::default(),
            tournaments: tournaments::TournamentsForm::default(),
            chat: chat::ChatMemory::default(),
            card: variant_card::CardChoice::default(),
            moves: MoveListCache {
                made_for: (0, usize::MAX),
                san: Vec::new(),
                captured: Vec::new(),
            },
        }
    }
}

/// The name of the piece under the pointer beside it (`White Queen, 9 moves`): the
/// board's fairy pieces are not all known at sight.
fn piece_name(
    mut contexts: bevy_egui::EguiContexts,
    hovered: Res<crate::board::highlights::Hovered>,
    game: Res<crate::game::CurrentGame>,
    picture: Res<crate::game::BoardPicture>,
) -> Result {
    let Some(cell) = hovered.0.filter(|_| picture.0.is_none()) else {
        return Ok(());
    };
    let shown = game.displayed();
    let Some(piece) = shown.piece_at(cell) else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let Some(at) = ctx.pointer_hover_pos() else {
        return Ok(());
    };
    let rules = shown.rules();
    let mut text = format!(
        "{} {} on {}",
        rules.side_name(piece.side),
        rules.kind_info(piece.kind).name,
        rules.board().name(cell)
    );
    if piece.side == shown.turn() {
        let n = shown
            .legal_moves()
            .into_iter()
            .filter(|m| m.from() == cell)
            .count();
        text.push_str(&format!(", {n} move{}", if n == 1 { "" } else { "s" }));
    }
    egui::Area::new(egui::Id::new("piece-name"))
        .order(egui::Order::Tooltip)
        .fixed_pos(at + egui::vec2(16.0, 16.0))
        .interactable(false)
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| ui.label(text));
        });
    Ok(())
}

/// Clicks on the interface never reach the board beneath it.
fn note_pointer_over_ui(wants: Option<Res<EguiWantsInput>>, mut over: ResMut<PointerOverUi>) {
    let now = wants.is_some_and(|w| w.wants_any_pointer_input());
    if over.0 != now {
        over.0 = now;
    }
}

fn remember_notices(mut notices: MessageReader<GameNotice>, mut memory: ResMut<UiMemory>) {
    if let Some(GameNotice(text)) = notices.read().last() {
        memory.notice = Some(Notice {
            text: text.clone(),
            at: Instant::now(),
        });
    }
}

/// A Ui covering the whole window, for the panels along its edges.
pub fn root_ui(ctx: &egui::Context) -> egui::Ui {
    root_ui_beside(ctx, 0.0, 0.0)
}

/// A Ui covering the window but the strips the side panel and the chat take: `right`
/// pixels along the right edge, `below` along the bottom.
pub(crate) fn root_ui_beside(ctx: &egui::Context, right: f32, below: f32) -> egui::Ui {
    let mut rect = ctx.viewport_rect();
    rect.max.x = (rect.max.x - right).max(rect.min.x);
    rect.max.y = (rect.max.y - below).max(rect.min.y);
    egui::Ui::new(
        ctx.clone(),
        "root".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(rect),
    )
}
