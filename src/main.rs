//! `cargo run --release`: the hexchess game window.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use bevy::prelude::*;
use bevy::window::WindowResolution;
use bevy_egui::{EguiGlobalSettings, EguiPlugin};
use clap::{Parser, ValueEnum};
use hexchess::board::Selection;
use hexchess::dev::frames::{ExitAfter, ExitWhenOver, FrameReport};
use hexchess::dev::screenshot::ScreenshotPlan;
use hexchess::game::CurrentGame;
use hexchess::game::GameNotice;
use hexchess::look::{Theme, View};
use hexchess::machine::{cores, run_systems_on_one_thread, systems_on_one_thread};
use hexchess::play::{AppState, Matchup, Seats, TimeControl};
use hexchess::prefs::{
    KeptPreferences, Preferences, PrefsFiles, ResumeOffer, Unfinished, VariantKind,
};
use hexchess::screen::redraw::Redraw;
use hexchess::{HexchessPlugin, LaunchOptions};
use hexchess_core::{Catalog, Cell, Side};
use hexchess_engine::Skill;
use hexchess_files::{Files, variants};

#[derive(Parser)]
#[command(
    name = "hexchess",
    version,
    about = "Hexagonal chess: Gliński, McCooey, Grand Hexachess and your own variants"
)]
struct Cli {
    /// A file to open: a game file (.pgn; a file of several games lists them), a
    /// position (.fen) or a variant (.ron), as if dropped on the window.
    file: Option<PathBuf>,
    /// Variant id (see `hexchess-engine variants`).
    #[arg(long)]
    variant: Option<String>,
    /// 3d or 2d (default: as last time).
    #[arg(long, value_enum)]
    view: Option<ViewArg>,
    /// Start from this hex FEN.
    #[arg(long)]
    fen: Option<String>,
    /// Moves to play first (long algebraic or SAN).
    #[arg(long, num_args = 1..)]
    moves: Vec<String>,
    /// Continue a saved game (PGN, or a text record of an earlier version).
    #[arg(long)]
    load: Option<PathBuf>,
    /// With --load: which game of a file of several (from 1).
    #[arg(long)]
    game: Option<usize>,
    /// In a game of more sides (hexachess-3, hexachess-4): who sits in each seat, in
    /// turn order: human, brs, paranoid, maxn or random (`human,brs,brs`). Seats left
    /// out are engines (paranoid); with `--mode engine-engine` every seat is.
    #[arg(long, value_delimiter = ',')]
    seats: Vec<String>,
    /// Who plays (default: as last time).
    #[arg(long, value_enum)]
    mode: Option<ModeArg>,
    /// Your side against the engine (default: as last time, else White).
    #[arg(long, value_enum)]
    side: Option<SideArg>,
    /// Engine strength, 1 (beginner) to 20 (full strength) (default: as last time,
    /// else 11).
    #[arg(long)]
    level: Option<Skill>,
    /// Select the piece on this cell (shows its legal moves).
    #[arg(long)]
    select: Option<String>,
    /// In a setup phase: pick this piece (its letter) from the hand, marking where it
    /// may be placed.
    #[arg(long)]
    pick: Option<char>,
    /// Black at the bottom.
    #[arg(long)]
    flip: bool,
    /// Colours and sizes: a shipped theme (classic, slate) or a theme file (RON; see
    /// assets/themes/classic.ron) (default: as last time, else classic).
    #[arg(long)]
    theme: Option<String>,
    /// Start with the default settings, keep none and offer no unfinished game (the
    /// settings live in the per-user config folder; see docs/settings.md).
    #[arg(long)]
    fresh: bool,
    /// Open the new-game menu at start.
    #[arg(long)]
    menu: bool,
    /// Review the game at start (with a game file or --moves): the engine marks its
    /// mistakes and draws the evaluation graph.
    #[arg(long)]
    review: bool,
    /// Start with the analysis board on: the engine's best lines and arrows.
    #[arg(long)]
    analyse: bool,
    /// Open the board editor at start (on the position the other options set up).
    #[arg(long)]
    edit: bool,
    /// Open the settings window at start.
    #[arg(long)]
    settings: bool,
    /// Open the Online window and connect to a server at start: this address
    /// (`ws://HOST:PORT/socket`), or the one kept in the settings.
    #[arg(long, num_args = 0..=1, default_missing_value = "")]
    online: Option<String>,
    /// With --online: pair quickly in this variant (with --clock's time) once
    /// connected: two games started so meet on the server.
    #[arg(long)]
    online_quick: Option<String>,
    /// With --online: take the seat of a friend's challenge by its code once
    /// connected (the code the friend's Online window shows).
    #[arg(long)]
    online_join: Option<String>,
    /// With --online: make a private challenge in this variant (with --clock's time),
    /// you playing White, once connected; its code and link show in the Online window.
    #[arg(long)]
    online_challenge: Option<String>,
    /// With --online: open the Tournaments window and follow this tournament's
    /// standings once connected.
    #[arg(long)]
    tournament: Option<String>,
    /// With --tournament: enter it too (its games then start by themselves).
    #[arg(long)]
    tournament_join: bool,
    /// Open the endgame trainer's window at start.
    #[arg(long)]
    endgames: bool,
    /// Start an endgame drill at once: the ending (KRvKN), from a random won position.
    #[arg(long)]
    drill: Option<String>,
    /// With --drill: a position where White mates in about this many moves.
    #[arg(long)]
    drill_mate_in: Option<u16>,
    /// Render, save the window to this PNG file, and exit.
    #[arg(long)]
    screenshot: Option<PathBuf>,
    /// Frames to render before the screenshot, counted once the renderer has compiled
    /// every pipeline (so a loaded machine does not save a black picture).
    #[arg(long, default_value_t = 30)]
    frames: u32,
    /// Print frame-time statistics (mean, median, 99th percentile, longest) at exit.
    #[arg(long)]
    report_frames: bool,
    /// Exit after this many seconds (for measurements).
    #[arg(long)]
    exit_after: Option<f32>,
    /// Exit two seconds after the game ends (with --report-frames: one whole game
    /// measured, however long it lasts).
    #[arg(long)]
    exit_when_over: bool,
    /// Log the time each render pass takes on the GPU, once a second.
    #[arg(long)]
    render_diagnostics: bool,
    /// A clock for every side: minutes and increment in seconds, as MIN+INC (`5+3`;
    /// `none` for no clock) (default: as last time).
    #[arg(long, value_parser = parse_clock)]
    clock: Option<ClockArg>,
    /// The window's size in logical pixels, as WIDTHxHEIGHT (default: as last time,
    /// else 1280x800).
    #[arg(long, value_parser = parse_window_size)]
    window_size: Option<(u32, u32)>,
    /// Redraw every frame even when nothing changes (normally the game redraws on
    /// input and while something moves, and otherwise a few times a second).
    #[arg(long)]
    continuous: bool,
}

/// Reads `--window-size`: two positive numbers joined by `x` ("1280x800").
fn parse_window_size(s: &str) -> Result<(u32, u32), String> {
    let bad = || format!("'{s}' is not WIDTHxHEIGHT with two positive numbers, like 1280x800");
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    let w: u32 = w.trim().parse().map_err(|_| bad())?;
    let h: u32 = h.trim().parse().map_err(|_| bad())?;
    if w == 0 || h == 0 || w > 16_384 || h > 16_384 {
        return Err(bad());
    }
    Ok((w, h))
}

/// `--clock`'s value: a time control, or none.
#[derive(Clone, Copy, Debug)]
struct ClockArg(Option<TimeControl>);

/// Reads `--clock`: `none`, or whole minutes and seconds of increment joined by `+`
/// ("5+3", the menu's choices and any other).
fn parse_clock(s: &str) -> Result<ClockArg, String> {
    if s.trim().eq_ignore_ascii_case("none") {
        return Ok(ClockArg(None));
    }
    let bad =
        || format!("'{s}' is not MIN+INC (minutes and seconds of increment, like 5+3) or none");
    let (minutes, increment) = s.split_once('+').ok_or_else(bad)?;
    let minutes: u64 = minutes.trim().parse().map_err(|_| bad())?;
    let increment: u64 = increment.trim().parse().map_err(|_| bad())?;
    if !(1..=600).contains(&minutes) || increment > 600 {
        return Err(bad());
    }
    Ok(ClockArg(Some(TimeControl {
        base: Duration::from_secs(minutes * 60),
        increment: Duration::from_secs(increment),
    })))
}

#[derive(Clone, Copy, ValueEnum)]
enum ViewArg {
    #[value(name = "3d")]
    ThreeD,
    #[value(name = "2d")]
    TwoD,
}

#[derive(Clone, Copy, ValueEnum)]
enum ModeArg {
    HumanEngine,
    EngineEngine,
    HumanHuman,
}

#[derive(Clone, Copy, ValueEnum)]
enum SideArg {
    White,
    Black,
}

/// The command line: the process's own, or in a browser the page's address (see
/// [`hexchess::web::page_args`]); a bad one there is reported and left out.
fn read_cli() -> Cli {
    let Some(args) = hexchess::web::page_args() else {
        return Cli::parse();
    };
    Cli::try_parse_from(&args).unwrap_or_else(|e| {
        eprintln!("warning: the page's address: {e}");
        Cli::parse_from(["hexchess"])
    })
}

fn main() -> ExitCode {
    let cli = read_cli();
    // The disk, or in a browser the page's storage: every file of this run goes there.
    let player = hexchess::web::player_files();
    let catalog = variants::load_default(&player);
    for e in catalog.errors() {
        eprintln!("warning: {e}");
    }
    let mut kept = KeptSettings::read(&cli, &player, &catalog);
    let resume = kept.unfinished_game(&player, &catalog);
    for w in &kept.warnings {
        eprintln!("warning: {w}");
    }
    let (options, selection) = match launch_options(&cli, &player, &kept.prefs, &catalog) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let state = match options.game_state(&catalog) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let selection = match selection.map(|name| parse_cell(&state, &name)).transpose() {
        Ok(cell) => cell,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let theme_name = cli
        .theme
        .clone()
        .unwrap_or_else(|| kept.prefs.theme.clone());
    let theme = Theme::find(&player, &theme_name).unwrap_or_else(|e| {
        eprintln!("warning: {e}; using the classic theme");
        Theme::default()
    });
    let hand = cli
        .pick
        .and_then(|letter| state.rules().kind_by_letter(letter));
    let mut app = App::new();
    let window_size = cli.window_size.unwrap_or(kept.prefs.window);
    add_window_and_game(
        &mut app,
        player.clone(),
        window_size,
        catalog,
        state,
        options,
        theme,
    );
    // The theme kept is the one this run uses (a `--theme` given becomes the default).
    let prefs = Preferences {
        theme: theme_name,
        ..kept.prefs.clone()
    };
    // The player's own sounds, beside the data the game keeps (none in a fresh run).
    let sounds = kept
        .files
        .settings
        .as_ref()
        .and_then(|_| player.data_dir())
        .map(|d| d.join("sounds"));
    app.insert_resource(prefs.sound_settings())
        .insert_resource(hexchess::confirm::AskFirst(prefs.ask_first))
        .insert_resource(hexchess::sound::SoundFolder(sounds))
        .insert_resource(KeptPreferences::new(prefs))
        .insert_resource(ResumeOffer(resume))
        .insert_resource(kept.files.clone());
    for w in kept.warnings {
        app.world_mut().write_message(GameNotice(w));
    }
    app.insert_resource(Selection {
        from: selection,
        hand,
    });
    add_redraw_policy(&mut app, &cli);
    if cli.menu {
        app.world_mut()
            .resource_mut::<NextState<AppState>>()
            .set(AppState::NewGameMenu);
    }
    if cli.endgames {
        app.world_mut().write_message(hexchess::ui::OpenTrainer);
    }
    if let Some(path) = &cli.file {
        app.world_mut()
            .write_message(hexchess::game::files::OpenFile(path.clone()));
    }
    if cli.review {
        app.world_mut()
            .write_message(hexchess::play::review::GameReviewRequest::Start);
    }
    if cli.analyse {
        app.world_mut()
            .write_message(hexchess::play::analysis::AnalysisRequest::On);
    }
    if cli.edit {
        app.world_mut()
            .write_message(hexchess::editor::EditorRequest::Open);
    }
    if cli.settings {
        app.world_mut().write_message(hexchess::ui::OpenSettings);
    }
    start_online(&mut app, &cli, &player, &kept.files);
    if let Some(ending) = &cli.drill {
        app.world_mut().write_message(hexchess::play::StartDrill {
            variant: cli.variant.clone().unwrap_or_else(|| "glinski".into()),
            ending: ending.clone(),
            target: cli.drill_mate_in.map_or(
                hexchess::play::Target::Random,
                hexchess::play::Target::MateIn,
            ),
        });
    }
    add_measuring_tools(&mut app, &cli);
    if systems_on_one_thread(cores()) {
        run_systems_on_one_thread(&mut app);
    }
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(_) => ExitCode::FAILURE,
    }
}

/// The seats of a game of more sides (`--variant` one of them): as `--seats` names
/// them, the rest engines; without `--seats`, a person in the first seat (none with
/// `--mode engine-engine`). `None` for a two-player variant.
fn table_seats(cli: &Cli, catalog: &Catalog) -> Result<Option<Seats>, String> {
    let Some(variant) = &cli.variant else {
        return Ok(None);
    };
    let Some(entry) = catalog.get(variant).filter(|e| e.side_count() > 2) else {
        return Ok(None);
    };
    let n = entry.side_count();
    let mut words = cli.seats.clone();
    if words.is_empty() && !matches!(cli.mode, Some(ModeArg::EngineEngine)) {
        words.push("human".into());
    }
    if words.len() > n {
        return Err(format!(
            "--seats: {} seats given; {variant} has {n}",
            words.len()
        ));
    }
    Seats::from_list(&words)
        .map(Some)
        .map_err(|e| format!("--seats: {e}"))
}

/// The server kept in the settings (or `--online`'s), the secrets file when settings
/// are kept, and `--online`/`--online-quick` at start.
fn start_online(app: &mut App, cli: &Cli, player: &Files, files: &PrefsFiles) {
    use hexchess::online::{Online, OnlineRequest, SeekForm, WhenConnected, secrets};
    let kept = app
        .world()
        .resource::<KeptPreferences>()
        .live
        .server
        .clone();
    let server = match cli.online.as_deref() {
        Some(url) if !url.is_empty() => url.to_string(),
        _ => hexchess::online::kept_server(kept),
    };
    let kept_secrets = files
        .settings
        .as_ref()
        .and_then(|_| secrets::SecretsFile::in_data_folder(player));
    app.insert_resource(Online::new(server.clone(), kept_secrets));
    app.world_mut()
        .resource_mut::<KeptPreferences>()
        .live
        .server = server;
    if cli.online.is_none() {
        return;
    }
    // With a tournament to follow, its window opens instead of the Online window.
    if cli.tournament.is_none() {
        app.world_mut().write_message(hexchess::ui::OpenOnline);
    }
    app.world_mut().write_message(OnlineRequest::Connect);
    let mut held = Vec::new();
    if let Some(code) = &cli.online_join {
        held.push(OnlineRequest::Accept(code.clone()));
    }
    let clock = match cli.clock {
        Some(ClockArg(Some(tc))) => Some((
            (tc.base.as_secs() / 60) as u32,
            tc.increment.as_secs() as u32,
        )),
        _ => None,
    };
    let form = |variant: &String| SeekForm {
        variant: variant.clone(),
        clock,
        days: None,
        rated: false,
        side: None,
        engines: 0,
        level: 8,
    };
    if let Some(variant) = &cli.online_quick {
        held.push(OnlineRequest::Quick(form(variant)));
    }
    if let Some(id) = &cli.tournament {
        app.world_mut().write_message(hexchess::ui::OpenTournaments);
        held.push(OnlineRequest::Tournaments);
        held.push(OnlineRequest::FollowTournament(id.clone()));
        if cli.tournament_join {
            held.push(OnlineRequest::JoinTournament(id.clone()));
        }
    }
    if let Some(variant) = &cli.online_challenge {
        held.push(OnlineRequest::Challenge(SeekForm {
            side: Some("White".into()),
            ..form(variant)
        }));
    }
    app.insert_resource(WhenConnected(held));
}

/// The settings kept from last time (none with `--fresh` or `--screenshot`, which
/// must look the same on every machine), where they are kept, and what was wrong
/// with them.
struct KeptSettings {
    prefs: Preferences,
    files: PrefsFiles,
    warnings: Vec<String>,
}

impl KeptSettings {
    fn read(cli: &Cli, player: &Files, catalog: &Catalog) -> KeptSettings {
        if cli.fresh || cli.screenshot.is_some() {
            return KeptSettings {
                prefs: Preferences::default(),
                files: PrefsFiles::default(),
                warnings: Vec::new(),
            };
        }
        let files = PrefsFiles::user(player);
        let (prefs, warnings) = match &files.settings {
            Some(path) => {
                Preferences::read_or_default(player, path, |id| VariantKind::of(catalog, id))
            }
            None => (Preferences::default(), Vec::new()),
        };
        KeptSettings {
            prefs,
            files,
            warnings,
        }
    }

    /// The unfinished game to offer. It is offered even when the command line sets up
    /// a game of its own: while the offer waits nothing overwrites it, so a start with
    /// `--moves` or `--load` never replaces the player's game without asking.
    fn unfinished_game(&mut self, player: &Files, catalog: &Catalog) -> Option<Unfinished> {
        let path = self.files.autosave.as_ref()?;
        let (offer, warning) = hexchess::prefs::autosave::offer_at_start(player, path, catalog);
        self.warnings.extend(warning);
        offer
    }
}

/// The game the command line asks for, and the cell to select (`--select`), or why
/// it cannot start. What the command line leaves out is as it was last time (`prefs`).
fn launch_options(
    cli: &Cli,
    player: &Files,
    prefs: &Preferences,
    catalog: &Catalog,
) -> Result<(LaunchOptions, Option<String>), String> {
    let record = match &cli.load {
        Some(path) => Some(hexchess::game::records::load(player, path, cli.game)?),
        None => None,
    };
    let mut session = prefs.session();
    let mut settings = prefs.settings();
    if let Some(view) = cli.view {
        settings.view = match view {
            ViewArg::ThreeD => View::ThreeD,
            ViewArg::TwoD => View::TwoD,
        };
    }
    if cli.mode.is_some() || cli.side.is_some() {
        let human = match cli.side {
            Some(SideArg::Black) => Side::Black,
            _ => Side::White,
        };
        session.seats = match cli.mode.unwrap_or(ModeArg::HumanEngine) {
            ModeArg::HumanEngine => Matchup::You(human),
            ModeArg::EngineEngine => Matchup::Engines,
            ModeArg::HumanHuman => Matchup::People,
        }
        .seats();
    }
    let table = table_seats(cli, catalog)?;
    if let Some(seats) = table {
        session.seats = seats;
    }
    let black = Matchup::of(&session.seats) == Some(Matchup::You(Side::Black));
    settings.flipped = cli.flip || (table.is_none() && black);
    if let Some(level) = cli.level {
        session.level = level;
    }
    if let Some(ClockArg(clock)) = cli.clock {
        session.time_control = clock;
    }
    // Last time's variant, when the command line sets up no game of its own and the
    // variant is still there.
    let variant = cli.variant.clone().or_else(|| {
        let own_start = cli.fen.is_some() || !cli.moves.is_empty();
        let two_player = catalog
            .get(&prefs.variant)
            .is_some_and(|e| e.two_player.is_some());
        (!own_start && two_player).then(|| prefs.variant.clone())
    });
    let options = LaunchOptions {
        variant,
        fen: cli.fen.clone(),
        moves: cli.moves.clone(),
        record,
        settings,
        session,
    };
    Ok((options, cli.select.clone()))
}

/// `--select`'s cell on the game's board.
fn parse_cell(state: &CurrentGame, name: &str) -> Result<Cell, String> {
    state
        .rules()
        .board()
        .parse_cell(name)
        .ok_or_else(|| format!("--select: no cell '{name}' on this board"))
}

/// The window, egui, and the game with its camera and interface.
fn add_window_and_game(
    app: &mut App,
    player: Files,
    window_size: (u32, u32),
    catalog: Catalog,
    state: CurrentGame,
    options: LaunchOptions,
    theme: Theme,
) {
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window {
            title: "hexchess".into(),
            resolution: WindowResolution::new(window_size.0, window_size.1),
            // In a browser: the page's canvas, as large as the page.
            canvas: Some("#hexchess".into()),
            fit_canvas_to_parent: true,
            ..default()
        }),
        ..default()
    }))
    .add_plugins(EguiPlugin::default())
    // The interface's camera is made by the camera plugin, over the whole window.
    .insert_resource(EguiGlobalSettings {
        auto_create_primary_context: false,
        ..default()
    })
    .add_plugins(HexchessPlugin {
        files: player,
        catalog,
        state,
        settings: options.settings,
        session: options.session,
        theme,
    });
}

/// Redraw on change, or every frame for screenshots (they count frames) and
/// `--continuous`.
fn add_redraw_policy(app: &mut App, cli: &Cli) {
    let redraw = if cli.continuous || cli.screenshot.is_some() {
        Redraw::Continuous
    } else {
        Redraw::OnChange
    };
    app.insert_resource(redraw)
        .insert_resource(redraw.winit_settings());
}

/// `--screenshot`, `--report-frames`, `--render-diagnostics`, `--exit-after` and
/// `--exit-when-over`.
fn add_measuring_tools(app: &mut App, cli: &Cli) {
    if let Some(path) = &cli.screenshot {
        app.insert_resource(ScreenshotPlan {
            path: path.clone(),
            frames: cli.frames,
        });
    }
    if cli.report_frames {
        app.insert_resource(FrameReport::default());
    }
    if cli.render_diagnostics {
        app.add_plugins((
            bevy::render::diagnostic::RenderDiagnosticsPlugin,
            bevy::diagnostic::LogDiagnosticsPlugin::default(),
        ));
    }
    if let Some(s) = cli.exit_after {
        app.insert_resource(ExitAfter(Duration::from_secs_f32(s.max(0.0))));
    }
    if cli.exit_when_over {
        app.insert_resource(ExitWhenOver::new(Duration::from_secs(2)));
    }
}

#[cfg(test)]
mod tests {
    use super::{parse_clock, parse_window_size};
    use std::time::Duration;

    #[test]
    fn window_sizes_read_as_width_by_height() {
        assert_eq!(parse_window_size("1280x800"), Ok((1280, 800)));
        assert_eq!(parse_window_size("960X600"), Ok((960, 600)));
        for bad in [
            "1280",
            "x800",
            "0x800",
            "1280x",
            "-5x10",
            "wide x tall",
            "99999x10",
        ] {
            let e = parse_window_size(bad).unwrap_err();
            assert!(e.contains("WIDTHxHEIGHT"), "{bad}: {e}");
        }
    }

    #[test]
    fn clocks_read_as_minutes_plus_increment() {
        let tc = parse_clock("5+3").unwrap().0.unwrap();
        assert_eq!(tc.base, Duration::from_secs(300));
        assert_eq!(tc.increment, Duration::from_secs(3));
        assert!(parse_clock("none").unwrap().0.is_none());
        for bad in ["5", "+3", "0+2", "5+-1", "1.5+2", "601+0", "five+3"] {
            let e = parse_clock(bad).unwrap_err();
            assert!(e.contains("MIN+INC"), "{bad}: {e}");
        }
    }
}
