//! `hexchess-server`: serves every hex variant to players far apart (docs/online.md).
//!
//! - `hexchess-server [--listen ADDR] [--database URL]`: serve (defaults 127.0.0.1:7474
//!   and SQLite in the per-user data folder) until SIGTERM or Ctrl-C, then stop taking
//!   connections, close every socket with 1012, let the database's writes end;
//! - `hexchess-server load --url ws://ADDR --games N --seconds S [--variant V] --json`:
//!   simulated pairs of players against a server, with the figures of the run.

use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use clap::{Parser, Subcommand, ValueEnum};
use hexchess_server::cluster::game_node::GameNode;
use hexchess_server::cluster::socket_node::{Clients, SocketNode};
use hexchess_server::hub::{Hub, Limits};
use hexchess_server::rematches::RematchBook;
use hexchess_server::seek_book::{SeekBook, SharedSeeks};
use hexchess_server::store::{Store, shown_url, sqlite_url};

#[derive(Parser)]
#[command(
    name = "hexchess-server",
    version,
    about = "The online server for every hex variant",
    // A flag given twice takes its last value (a unit file's defaults, then yours).
    args_override_self = true
)]
struct Cli {
    /// The address to listen on (port 0: any free port, logged).
    #[arg(long, default_value = "127.0.0.1:7474")]
    listen: SocketAddr,
    /// `postgres://USER:PASSWORD@HOST/DB`, `sqlite://FILE?mode=rwc`, or
    /// `sqlite::memory:` (nothing kept); by default a SQLite file in the per-user data
    /// folder.
    #[arg(long)]
    database: Option<String>,
    /// The browser game's folder (`web/build.sh DIR`), served at `/`: the server is
    /// then the game's home page, and `/#challenge=CODE` a link into a challenge.
    #[arg(long)]
    web: Option<std::path::PathBuf>,
    /// New connections one address may open per 10 seconds (a load test from one
    /// machine needs many).
    #[arg(long, default_value_t = Limits::default().connections_per_address)]
    connections_per_address: u32,
    /// Connections one address may have open at once.
    #[arg(long, default_value_t = Limits::default().open_per_address)]
    open_per_address: usize,
    /// Websockets the server holds at once.
    #[arg(long, default_value_t = Limits::default().max_connections)]
    max_connections: usize,
    /// Logins and registrations one address may try per 10 minutes.
    #[arg(long, default_value_t = Limits::default().sign_ins_per_address)]
    sign_ins_per_address: u32,
    /// Logins one account's name may be tried with per 10 minutes.
    #[arg(long, default_value_t = Limits::default().sign_ins_per_name)]
    sign_ins_per_name: u32,
    /// New anonymous players one address may make per hour.
    #[arg(long, default_value_t = Limits::default().new_players_per_address)]
    new_players_per_address: u32,
    /// Pages (players, leaderboards, tournaments) one address may read per minute.
    #[arg(long, default_value_t = Limits::default().lookups_per_minute)]
    lookups_per_minute: u32,
    /// Behind a proxy on this machine (nginx, docs/deploy.md): connections from
    /// 127.0.0.1 are counted as the address the proxy names in `X-Real-IP`.
    #[arg(long)]
    behind_proxy: bool,
    /// The log's form: lines of text, or one JSON object per line (for a collector).
    #[arg(long, value_enum, default_value_t = LogFormat::Text)]
    log: LogFormat,
    /// Seconds in a correspondence game's day (86,400; the tests' games last less).
    /// What this process does: everything (one process, no Redis), the websockets
    /// and pages only (`socket`), or the games only (`game`); docs/deploy.md shows
    /// several together.
    #[arg(long, value_enum, default_value_t = Role::All)]
    role: Role,
    /// Redis, which the nodes of `--role socket` and `--role game` share:
    /// `redis://HOST:PORT/`.
    #[arg(long)]
    redis: Option<String>,
    /// This node's name among the others (letters, digits, `-`, `_`, `.`), in logs and
    /// the nodes' messages; by default the role and the process id.
    #[arg(long)]
    node: Option<String>,
    #[arg(long, default_value_t = 86_400, hide = true)]
    day_seconds: u64,
    /// Seconds a client may send nothing before it is closed (60; the tests' less).
    #[arg(long, default_value_t = 60, hide = true)]
    idle_seconds: u64,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Role {
    All,
    Socket,
    Game,
}

/// How this process takes part: alone, or as a node with its Redis and name.
enum Part {
    Alone,
    Node {
        role: Role,
        redis: String,
        node: String,
    },
}

impl Part {
    /// The part the flags ask for, or why they do not go together.
    fn of(
        role: Role,
        redis: Option<String>,
        node: Option<String>,
        database: Option<&str>,
    ) -> Result<Part, String> {
        if role == Role::All {
            return match redis {
                Some(_) => Err("--redis is for the nodes of --role socket and --role game".into()),
                None => Ok(Part::Alone),
            };
        }
        let redis = redis.ok_or("--role socket and --role game need --redis redis://HOST:PORT/")?;
        if !database
            .is_some_and(|url| url.starts_with("postgres://") || url.starts_with("postgresql://"))
        {
            return Err(
                "the nodes share one database, which must be PostgreSQL (--database postgres://...): \
                 SQLite is for one process (--role all)"
                    .into(),
            );
        }
        let node = node.unwrap_or_else(|| {
            let role = if role == Role::Socket {
                "socket"
            } else {
                "game"
            };
            format!("{role}-{}", std::process::id())
        });
        let fits = |c: char| c.is_ascii_alphanumeric() || "-_.".contains(c);
        if node.is_empty() || node.len() > 64 || !node.chars().all(fits) {
            return Err(format!(
                "--node {node:?}: 1 to 64 letters, digits, '-', '_' or '.'"
            ));
        }
        Ok(Part::Node { role, redis, node })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum LogFormat {
    Text,
    Json,
}

#[derive(Subcommand)]
enum Command {
    /// Plays simulated games against a server and prints the figures.
    Load(hexchess_server::load::LoadArgs),
    /// Pairs the next round of a Swiss tournament written in FIDE's TRF16 by the
    /// FIDE Dutch system and prints it as the FIDE-endorsed pairing programs do:
    /// the number of lines, then a board a line (`WHITE BLACK` starting numbers),
    /// the bye as `N 0`.
    PairSwiss {
        /// The tournament so far (`XXR` gives its rounds; `XXC white1` the first
        /// colour when no game is played yet).
        file: std::path::PathBuf,
    },
}

/// How long a stopping server waits for its connections to close and its last
/// writes to end.
const STOP_WAIT: Duration = Duration::from_secs(10);

fn main() -> ExitCode {
    let cli = Cli::parse();
    start_log(cli.log);
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("hexchess-server: cannot start: {e}");
            return ExitCode::FAILURE;
        }
    };
    let done = match cli.command {
        Some(Command::Load(args)) => runtime.block_on(hexchess_server::load::run(args)),
        Some(Command::PairSwiss { file }) => pair_swiss(&file),
        None => {
            let limits = Limits {
                connections_per_address: cli.connections_per_address,
                open_per_address: cli.open_per_address,
                max_connections: cli.max_connections,
                sign_ins_per_address: cli.sign_ins_per_address,
                sign_ins_per_name: cli.sign_ins_per_name,
                new_players_per_address: cli.new_players_per_address,
                lookups_per_minute: cli.lookups_per_minute.max(1),
                day: Duration::from_secs(cli.day_seconds.max(1)),
                idle: Duration::from_secs(cli.idle_seconds.clamp(3, 3600)),
                behind_proxy: cli.behind_proxy,
                ..Limits::default()
            };
            match Part::of(cli.role, cli.redis, cli.node, cli.database.as_deref()) {
                Ok(part) => {
                    runtime.block_on(serve(cli.listen, cli.database, cli.web, limits, part))
                }
                Err(why) => Err(why),
            }
        }
    };
    // Engine seats still thinking are not waited for.
    runtime.shutdown_timeout(Duration::from_secs(1));
    match done {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hexchess-server: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `pair-swiss FILE`: the pairing on standard output, or what is wrong with the file
/// (its name, the line and column) as the error.
fn pair_swiss(file: &std::path::Path) -> Result<(), String> {
    let name = file.display();
    let text = std::fs::read_to_string(file).map_err(|e| format!("{name}: {e}"))?;
    let tournament = hexchess_tournament::trf::read(&text).map_err(|e| format!("{name}: {e}"))?;
    let pairings = hexchess_tournament::swiss::pair_next_round(&tournament)
        .map_err(|e| format!("{name}: {e}"))?;
    print!("{}", pairings.to_text());
    Ok(())
}

/// Logs to standard error, as text or JSON lines; `RUST_LOG` filters (`info` by
/// default).
fn start_log(format: LogFormat) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_target(false);
    let _ = match format {
        LogFormat::Text => builder.with_ansi(false).try_init(),
        LogFormat::Json => builder.json().try_init(),
    };
}

async fn serve(
    listen: SocketAddr,
    database: Option<String>,
    web: Option<std::path::PathBuf>,
    limits: Limits,
    part: Part,
) -> Result<(), String> {
    if let Some(dir) = &web {
        hexchess_server::http::check_web(dir)?;
    }
    let url = match database {
        Some(url) => url,
        None => {
            let folder = hexchess_files::Files::disk()
                .data_dir()
                .ok_or("no per-user data folder here: give --database")?;
            std::fs::create_dir_all(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
            sqlite_url(&folder)
        }
    };
    let store = Store::open(&url).await.map_err(|e| e.to_string())?;
    if url.contains(":memory:") || url.contains("mode=memory") {
        tracing::warn!("the database is in memory: nothing is kept when the server stops");
    }
    let mut game_node = None;
    let hub = match &part {
        Part::Alone => Hub::start(store.clone(), limits)
            .await
            .map_err(|e| e.to_string())?,
        Part::Node { role, redis, node } => {
            let hub = if *role == Role::Game {
                let hub = Hub::without_games(store.clone(), limits);
                let ttl = hexchess_server::cluster::game_node::LEASE_TTL;
                game_node = Some(GameNode::start(Arc::clone(&hub), redis, node, ttl).await?);
                hub
            } else {
                let seeks = SeekBook::Shared(SharedSeeks::connect(redis).await?);
                let rematches = RematchBook::shared(redis).await?;
                let hub = Hub::with_books(store.clone(), limits, seeks, rematches);
                let weak = Arc::downgrade(&hub);
                let clients: std::sync::Weak<dyn Clients> = weak;
                let node = SocketNode::start(clients, store.clone(), redis, node).await?;
                hub.serve_games_from(node);
                hub
            };
            tracing::info!(%node, role = ?role, "a node among others");
            hub
        }
    };
    let game_only = matches!(
        part,
        Part::Node {
            role: Role::Game,
            ..
        }
    );
    let listener = tokio::net::TcpListener::bind(listen)
        .await
        .map_err(|e| format!("listening on {listen}: {e}"))?;
    let bound = listener
        .local_addr()
        .map_err(|e| format!("listening on {listen}: {e}"))?;
    if game_only {
        tracing::info!(
            status = %format!("http://{bound}/metrics"),
            database = %shown_url(&url),
            "holding games"
        );
    } else {
        tracing::info!(
            socket = %format!("ws://{bound}/socket"),
            database = %shown_url(&url),
            "serving"
        );
    }
    let stopper = Arc::clone(&hub);
    tokio::spawn(async move {
        stop_signal().await;
        tracing::info!("stopping: no new connections; closing sockets with 1012");
        stopper.stop();
    });
    let served = if game_only {
        hexchess_server::http::serve_status(listener, Arc::clone(&hub)).await
    } else {
        hexchess_server::http::serve(listener, Arc::clone(&hub), web).await
    };
    served.map_err(|e| e.to_string())?;
    if let Some(node) = &game_node {
        node.hand_over().await;
    }
    // The websockets close themselves (what they had queued sent first).
    let deadline = tokio::time::Instant::now() + STOP_WAIT;
    while hub.connections() > 0 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Writes under way finish; nothing new starts.
    if tokio::time::timeout(STOP_WAIT, store.close())
        .await
        .is_err()
    {
        tracing::warn!("the database's last writes did not end in time");
    }
    tracing::info!("stopped");
    Ok(())
}

/// SIGTERM (systemd's stop) or Ctrl-C.
async fn stop_signal() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut term) => {
                term.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {}
        () = terminate => {}
    }
}
