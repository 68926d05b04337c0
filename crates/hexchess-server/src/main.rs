//! `hexchess-server`: serves every hex variant to players far apart (docs/online.md).
//!
//! - `hexchess-server [--listen ADDR] [--database URL]`: serve (defaults 127.0.0.1:7474
//!   and SQLite in the per-user data folder);
//! - `hexchess-server load --url ws://ADDR --games N --seconds S [--variant V] --json`:
//!   simulated pairs of players against a server, with the figures of the run.

use std::net::SocketAddr;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use hexchess_server::hub::{Hub, Limits};
use hexchess_server::store::{Store, sqlite_url};

#[derive(Parser)]
#[command(
    name = "hexchess-server",
    version,
    about = "The online server for every hex variant"
)]
struct Cli {
    /// The address to listen on.
    #[arg(long, default_value = "127.0.0.1:7474")]
    listen: SocketAddr,
    /// `postgres://USER:PASSWORD@HOST/DB`, or `sqlite://FILE?mode=rwc`; by default a
    /// SQLite file in the per-user data folder.
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
    /// Seconds in a correspondence game's day (86,400; the tests' games last less).
    #[arg(long, default_value_t = 86_400, hide = true)]
    day_seconds: u64,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Plays simulated games against a server and prints the figures.
    Load(hexchess_server::load::LoadArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("hexchess-server: cannot start: {e}");
            return ExitCode::FAILURE;
        }
    };
    let done = match cli.command {
        Some(Command::Load(args)) => runtime.block_on(hexchess_server::load::run(args)),
        None => {
            let limits = Limits {
                connections_per_address: cli.connections_per_address,
                day: std::time::Duration::from_secs(cli.day_seconds.max(1)),
                ..Limits::default()
            };
            runtime.block_on(serve(cli.listen, cli.database, cli.web, limits))
        }
    };
    match done {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hexchess-server: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn serve(
    listen: SocketAddr,
    database: Option<String>,
    web: Option<std::path::PathBuf>,
    limits: Limits,
) -> Result<(), String> {
    let url = match database {
        Some(url) => url,
        None => {
            let folder = hexchess_core::folders::data_dir()
                .ok_or("no per-user data folder here: give --database")?;
            std::fs::create_dir_all(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
            sqlite_url(&folder)
        }
    };
    let store = Store::open(&url).await.map_err(|e| e.to_string())?;
    let hub = Hub::start(store, limits).await.map_err(|e| e.to_string())?;
    let listener = tokio::net::TcpListener::bind(listen)
        .await
        .map_err(|e| format!("listening on {listen}: {e}"))?;
    eprintln!(
        "hexchess-server: serving ws://{listen}/socket ({})",
        shown(&url)
    );
    hexchess_server::http::serve(listener, hub, web)
        .await
        .map_err(|e| e.to_string())
}

/// A database URL without its password, for the log.
fn shown(url: &str) -> String {
    match (url.find("://"), url.find('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let user_end = url[scheme + 3..at].find(':').map_or(at, |c| scheme + 3 + c);
            format!("{}:***{}", &url[..user_end], &url[at..])
        }
        _ => url.to_string(),
    }
}
