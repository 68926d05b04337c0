//! Where the server keeps what must outlive it: players, games and every move, and
//! ratings. One set of migrations and one set of queries serve SQLite (the default: a
//! file in the per-user data folder) and PostgreSQL (by URL), through sqlx's `Any`
//! driver; every value reaches the database as a bound parameter (`$1`), never in
//! the SQL text.
//!
//! A move is written, in one transaction with the game's event version and clocks,
//! before its player is acknowledged: a server killed at any moment restarts with
//! every acknowledged move (see [`Store::games_in_progress`]).

use std::fmt;
use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use sqlx::any::{AnyPoolOptions, install_default_drivers};
use sqlx::{AnyConnection, AnyPool, Connection, Row};

use hexchess_protocol::{ChatLine, ChatRoom};

use crate::ratings::Rating;

/// The schema, by version: each applied once, in order, in a transaction, and
/// recorded in `schema_version`. The same text on both databases (types both know:
/// TEXT, BIGINT, DOUBLE PRECISION).
const MIGRATIONS: &[&str] = &[
    // 1: players, games, moves, ratings.
    "CREATE TABLE players (
        id TEXT PRIMARY KEY,
        token_hash TEXT NOT NULL UNIQUE,
        name TEXT UNIQUE,
        password_hash TEXT,
        created_ms BIGINT NOT NULL
    );
    CREATE TABLE games (
        id TEXT PRIMARY KEY,
        variant TEXT NOT NULL,
        seats TEXT NOT NULL,
        control TEXT NOT NULL,
        rated BIGINT NOT NULL,
        status TEXT NOT NULL,
        result TEXT,
        why TEXT,
        version BIGINT NOT NULL,
        clocks TEXT,
        pgn TEXT,
        created_ms BIGINT NOT NULL,
        updated_ms BIGINT NOT NULL
    );
    CREATE INDEX games_by_status ON games (status);
    CREATE TABLE moves (
        game_id TEXT NOT NULL REFERENCES games (id),
        ply BIGINT NOT NULL,
        step TEXT NOT NULL,
        at_ms BIGINT NOT NULL,
        PRIMARY KEY (game_id, ply)
    );
    CREATE TABLE ratings (
        player_id TEXT NOT NULL REFERENCES players (id),
        variant TEXT NOT NULL,
        speed TEXT NOT NULL,
        rating DOUBLE PRECISION NOT NULL,
        deviation DOUBLE PRECISION NOT NULL,
        volatility DOUBLE PRECISION NOT NULL,
        games BIGINT NOT NULL,
        PRIMARY KEY (player_id, variant, speed)
    )",
    // 2: the draw offers standing in a game in play (a JSON list of seat numbers), so
    // that an offer the players were told of survives a restart.
    "ALTER TABLE games ADD COLUMN draw_offers TEXT",
    // 3: each game's chat, stored with it (its line number, the event version that
    // told it, which chat, who, what); the names each player mutes; and each game's
    // players by seat, so that a player's games are found without reading every
    // game's seats (games stored before are filled in by `fill_game_players`).
    "CREATE TABLE chat (
        game_id TEXT NOT NULL REFERENCES games (id),
        line BIGINT NOT NULL,
        version BIGINT NOT NULL,
        room TEXT NOT NULL,
        author TEXT NOT NULL,
        text TEXT NOT NULL,
        at_ms BIGINT NOT NULL,
        PRIMARY KEY (game_id, line)
    );
    CREATE TABLE mutes (
        player_id TEXT NOT NULL REFERENCES players (id),
        muted TEXT NOT NULL,
        PRIMARY KEY (player_id, muted)
    );
    CREATE TABLE game_players (
        game_id TEXT NOT NULL REFERENCES games (id),
        seat BIGINT NOT NULL,
        player_id TEXT NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX game_players_by_player ON game_players (player_id);
    CREATE INDEX ratings_by_variant ON ratings (variant, speed, rating)",
    // 4: accounts a program plays for (a bridge's bot), marked as bots in the lists.
    "ALTER TABLE players ADD COLUMN bot BIGINT NOT NULL DEFAULT 0",
    // 5: the fencing token of the game's owner (docs/online.md, "Beyond one machine"):
    // a write that carries an older token than the game's is refused.
    "ALTER TABLE games ADD COLUMN fence BIGINT NOT NULL DEFAULT 0",
    // 6: tournaments (issue 67): each one, its entrants (a player, or an engine seat
    // the creator added), and its pairings with their results (a bye has no game).
    "CREATE TABLE tournaments (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        name TEXT NOT NULL,
        variant TEXT NOT NULL,
        minutes BIGINT NOT NULL,
        increment BIGINT NOT NULL,
        rated BIGINT NOT NULL,
        bots BIGINT NOT NULL,
        creator TEXT NOT NULL,
        creator_name TEXT NOT NULL,
        starts_ms BIGINT NOT NULL,
        seconds BIGINT NOT NULL,
        rounds BIGINT NOT NULL,
        first_move BIGINT NOT NULL,
        status TEXT NOT NULL,
        round BIGINT NOT NULL,
        created_ms BIGINT NOT NULL,
        updated_ms BIGINT NOT NULL,
        berserk BIGINT NOT NULL
    );
    CREATE INDEX tournaments_by_status ON tournaments (status);
    CREATE TABLE tournament_entries (
        tournament_id TEXT NOT NULL REFERENCES tournaments (id),
        entrant TEXT NOT NULL,
        number BIGINT,
        player_id TEXT,
        name TEXT NOT NULL,
        engine BIGINT,
        bot BIGINT NOT NULL,
        rating DOUBLE PRECISION NOT NULL,
        joined_ms BIGINT NOT NULL,
        withdrawn BIGINT NOT NULL,
        PRIMARY KEY (tournament_id, entrant)
    );
    CREATE TABLE tournament_games (
        tournament_id TEXT NOT NULL REFERENCES tournaments (id),
        round BIGINT NOT NULL,
        board BIGINT NOT NULL,
        game_id TEXT,
        white TEXT NOT NULL,
        black TEXT,
        result TEXT,
        plies BIGINT,
        berserk TEXT NOT NULL,
        PRIMARY KEY (tournament_id, round, board)
    );
    CREATE INDEX tournament_games_by_game ON tournament_games (game_id)",
];

/// The columns a game in progress is read from (a macro: queries are static text).
macro_rules! in_progress_columns {
    () => {
        "id, variant, seats, control, rated, version, clocks, updated_ms, created_ms, draw_offers"
    };
}

/// A database error, with what the server was doing.
#[derive(Debug)]
pub enum StoreError {
    /// A query failed.
    Query {
        /// What the server was doing.
        doing: String,
        /// The database's error.
        error: sqlx::Error,
    },
    /// The database could not be opened: which one (its password hidden), and why.
    Open {
        /// The database's URL, its password hidden.
        database: String,
        /// Why.
        why: String,
    },
    /// The server is stopping: no more writes.
    Closed,
    /// The game has a newer owner than the one writing (its fencing token is newer):
    /// the write was refused, and the writer no longer holds the game.
    Fenced {
        /// The game's id.
        game: String,
    },
    /// A write for a game the database does not have.
    Missing {
        /// The game's id.
        game: String,
    },
    /// The database was made by a newer server.
    Newer {
        /// The database's URL, its password hidden.
        database: String,
        /// Its schema version.
        found: i64,
        /// The newest this server knows.
        known: usize,
    },
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Query { doing, error } => write!(f, "database, {doing}: {error}"),
            StoreError::Open { database, why } => write!(f, "database {database}: {why}"),
            StoreError::Closed => f.write_str("database: the server is stopping"),
            StoreError::Fenced { game } => write!(
                f,
                "database: game {game} was taken over by a newer owner; this one's write was refused"
            ),
            StoreError::Missing { game } => write!(f, "database: no game {game} to store"),
            StoreError::Newer {
                database,
                found,
                known,
            } => write!(
                f,
                "database {database}: its schema is version {found}, newer than this \
                 server's {known}; run the newer hexchess-server that made it"
            ),
        }
    }
}

impl std::error::Error for StoreError {}

fn doing(what: &str) -> impl FnOnce(sqlx::Error) -> StoreError + '_ {
    move |error| StoreError::Query {
        doing: what.to_string(),
        error,
    }
}

/// How long opening the database, or waiting for one of its connections, may take
/// before the server says why it cannot.
pub const OPEN_TIMEOUT: Duration = Duration::from_secs(5);

/// A database URL without its password, for messages and the log.
pub fn shown_url(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let user_end = url[scheme + 3..at].find(':').map_or(at, |c| scheme + 3 + c);
            format!("{}:***{}", &url[..user_end], &url[at..])
        }
        _ => url.to_string(),
    }
}

/// Where a SQLite URL keeps its database: a file, or memory.
#[derive(Clone, Debug, PartialEq, Eq)]
enum SqliteAt {
    File(std::path::PathBuf),
    Memory,
}

fn sqlite_at(url: &str) -> Option<SqliteAt> {
    let rest = url.strip_prefix("sqlite:")?;
    let rest = rest.strip_prefix("//").unwrap_or(rest);
    let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
    if path == ":memory:" || path.is_empty() || query.split('&').any(|p| p == "mode=memory") {
        return Some(SqliteAt::Memory);
    }
    Some(SqliteAt::File(path.into()))
}

/// Checks a SQLite file before anything opens it (so that nothing writes to a file
/// that is not a sound database): a regular file, readable, empty or with SQLite's
/// header, and as long as its header says. A missing file is fine (it is made).
fn check_sqlite_file(path: &Path) -> Result<(), String> {
    use std::io::Read;
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(format!("cannot read it: {e}")),
    };
    if !meta.is_file() {
        return Err("is not a regular file".into());
    }
    let mut header = Vec::with_capacity(100);
    std::fs::File::open(path)
        .and_then(|f| f.take(100).read_to_end(&mut header))
        .map_err(|e| format!("cannot read it: {e}"))?;
    if header.is_empty() {
        return Ok(());
    }
    if header.len() < 100 || !header.starts_with(b"SQLite format 3\0") {
        let start: String = header
            .iter()
            .take(16)
            .map(|b| {
                if b.is_ascii_graphic() || *b == b' ' {
                    *b as char
                } else {
                    '.'
                }
            })
            .collect();
        return Err(format!(
            "is not a SQLite database (it starts with \"{start}\"); it was left as it is"
        ));
    }
    let page_size = match u32::from(u16::from_be_bytes([header[16], header[17]])) {
        1 => 65_536,
        n => n,
    };
    let pages = u32::from_be_bytes([header[28], header[29], header[30], header[31]]);
    // The header's page count holds only when its two change counters agree.
    let counted = header[24..28] == header[92..96];
    let needed = u64::from(page_size) * u64::from(pages);
    if counted && meta.len() < needed {
        return Err(format!(
            "is cut short: its header says {pages} pages of {page_size} bytes \
             ({needed} bytes), the file has {}; it was left as it is \
             (restore it from a copy)",
            meta.len()
        ));
    }
    Ok(())
}

/// A player as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredPlayer {
    /// The player's id.
    pub id: String,
    /// An account's name (none for an anonymous player).
    pub name: Option<String>,
    /// An account's password hash (Argon2, PHC string).
    pub password_hash: Option<String>,
    /// Whether a program plays for the account.
    pub bot: bool,
}

/// A new game's row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewGame {
    /// The game's id.
    pub id: String,
    /// The variant's id.
    pub variant: String,
    /// JSON: each seat's holder.
    pub seats: String,
    /// JSON: the time control.
    pub control: String,
    /// Whether it moves ratings.
    pub rated: bool,
    /// Each seat's player id, in seat order (none for an engine's seat).
    pub players: Vec<Option<String>>,
}

/// A game that was in progress, with every stored step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameInProgress {
    /// Its row as it started.
    pub game: NewGame,
    /// Every step stored, in order.
    pub steps: Vec<String>,
    /// Its event version.
    pub version: u64,
    /// JSON: each seat's time left in milliseconds, when timed.
    pub clocks: Option<String>,
    /// When its last move was stored (ms since 1970): a correspondence move's days
    /// count from it.
    pub updated_ms: i64,
    /// When it started (ms since 1970): the record's date.
    pub created_ms: i64,
    /// JSON: the seats offering a draw, by number.
    pub draw_offers: Option<String>,
    /// Its chat, oldest first.
    pub chat: Vec<ChatLine>,
}

/// A stored game that could not be read back: its id (or its row's place), and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unreadable {
    /// Its id, or its row's place.
    pub id: String,
    /// Why it could not be read.
    pub why: String,
}

/// A game's end as stored: its status, result and why, its record, and the ratings it
/// moves (each player's new rating and rated games).
#[derive(Clone, Debug, PartialEq)]
pub struct GameEnd {
    /// `over` or `aborted`.
    pub status: &'static str,
    /// Each seat's points joined by `-`, or `*`.
    pub result: String,
    /// Why it ended.
    pub why: String,
    /// Its record.
    pub pgn: String,
    /// The ratings it moves (none for a casual game).
    pub ratings: Vec<NewRating>,
}

/// What a room stores after a change, in one transaction: the steps new since the
/// last write (their first ply), the event version and the clocks after them, the draw
/// offers standing (JSON: seat numbers), and the end if the game just ended.
#[derive(Clone, Debug, PartialEq)]
pub struct Changes {
    /// The ply of the first new step.
    pub first_ply: u32,
    /// The new steps.
    pub steps: Vec<String>,
    /// The event version after them.
    pub version: u64,
    /// JSON: each seat's time left in milliseconds, when timed.
    pub clocks: Option<String>,
    /// JSON: the seats offering a draw, by number.
    pub offers: String,
    /// The number of the first new chat line (how many the game had stored).
    pub first_line: u32,
    /// The new chat lines, each with the event version that told it.
    pub chat: Vec<(u64, ChatLine)>,
    /// The end, if the game just ended.
    pub end: Option<GameEnd>,
    /// The writer's fencing token for the game (0 where one process holds every game):
    /// refused, changing nothing, when the game has a newer one.
    pub fence: u64,
}

/// A player's rating after a rated game.
#[derive(Clone, Debug, PartialEq)]
pub struct NewRating {
    /// The player's id.
    pub player: String,
    /// The variant's id.
    pub variant: String,
    /// The speed.
    pub speed: String,
    /// The new rating.
    pub rating: Rating,
    /// Rated games it rests on, this one counted.
    pub games: u32,
}

/// One of a player's games, as stored (for their page).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerGame {
    /// The game's id.
    pub id: String,
    /// The variant's id.
    pub variant: String,
    /// JSON: each seat's holder.
    pub seats: String,
    /// JSON: the time control.
    pub control: String,
    /// Whether it moved ratings.
    pub rated: bool,
    /// The player's seat.
    pub seat: usize,
    /// Each seat's points joined by `-`, or `*` (none while it is on).
    pub result: Option<String>,
    /// Why it ended.
    pub why: Option<String>,
    /// When it last changed (ms since 1970).
    pub updated_ms: i64,
}

/// One rating on a leaderboard, as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct RatedAccount {
    /// The account's name.
    pub name: String,
    /// The speed.
    pub speed: String,
    /// The rating.
    pub rating: Rating,
    /// Rated games it rests on.
    pub games: u32,
}

/// A finished game's summary, for lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FinishedGame {
    /// The game's id.
    pub id: String,
    /// The variant's id.
    pub variant: String,
    /// Each seat's points joined by `-`, or `*`.
    pub result: String,
    /// Why it ended.
    pub why: String,
}

/// The database: a pool of connections to SQLite or PostgreSQL, and the task that
/// writes the games' changes in groups (`store/writer.rs`).
#[derive(Clone, Debug)]
pub struct Store {
    pool: AnyPool,
    writes: tokio::sync::mpsc::Sender<writer::Job>,
}

mod tournaments;
mod writer;

pub use tournaments::{StoredEntry, StoredPairing, StoredTournament};

/// Milliseconds since 1970, for the rows' times.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// The URL of the default database: `hexchess.sqlite3` in `folder`.
pub fn sqlite_url(folder: &Path) -> String {
    format!(
        "sqlite://{}?mode=rwc",
        folder.join("hexchess.sqlite3").display()
    )
}

impl Store {
    /// Connects to `url` (`sqlite://FILE?mode=rwc`, `sqlite::memory:` or
    /// `postgres://...`) and brings its schema up to date. Within [`OPEN_TIMEOUT`] it
    /// opens, or says which database and why not: a file that is not a sound SQLite
    /// database is refused before anything writes to it, and a database made by a
    /// newer server is refused with both versions.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        install_default_drivers();
        let shown = shown_url(url);
        let opening = |why: String| StoreError::Open {
            database: shown.clone(),
            why,
        };
        let sqlite = sqlite_at(url);
        if let Some(SqliteAt::File(path)) = &sqlite {
            check_sqlite_file(path).map_err(|why| opening(format!("{}: {why}", path.display())))?;
        }
        // One connection first, with no settings: its error is the database's own
        // (a pool would retry until its timeout and say only that it timed out).
        let found = tokio::time::timeout(OPEN_TIMEOUT, async {
            let mut probe = AnyConnection::connect(url).await?;
            let version = schema_version(&mut probe, sqlite.is_some()).await;
            let _ = probe.close().await;
            version
        })
        .await
        .map_err(|_| opening(format!("no answer within {} s", OPEN_TIMEOUT.as_secs())))?
        .map_err(|e| opening(e.to_string()))?;
        if found > MIGRATIONS.len() as i64 {
            return Err(StoreError::Newer {
                database: shown,
                found,
                known: MIGRATIONS.len(),
            });
        }
        let memory = sqlite == Some(SqliteAt::Memory);
        let options = AnyPoolOptions::new().acquire_timeout(OPEN_TIMEOUT);
        let options = if memory {
            // Each connection to `:memory:` is a database of its own: one connection,
            // kept open for the server's life, is the whole database.
            options
                .max_connections(1)
                .min_connections(1)
                .idle_timeout(None)
                .max_lifetime(None)
        } else {
            // SQLite writes one at a time: more connections only wait on its lock.
            options.max_connections(if sqlite.is_some() { 4 } else { 16 })
        };
        let is_sqlite = sqlite.is_some();
        let pool = options
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    for &setting in connection_settings(is_sqlite, memory) {
                        sqlx::query(setting).execute(&mut *conn).await?;
                    }
                    Ok(())
                })
            })
            .connect(url)
            .await
            .map_err(|e| opening(e.to_string()))?;
        let writes = writer::start(pool.clone(), if is_sqlite { 1 } else { 4 });
        let store = Store { pool, writes };
        store.migrate(!is_sqlite).await?;
        Ok(store)
    }

    /// Whether the database answers now (for `/healthz`), within a second.
    pub async fn healthy(&self) -> Result<(), String> {
        let ping = sqlx::query("SELECT 1").fetch_one(&self.pool);
        match tokio::time::timeout(Duration::from_secs(1), ping).await {
            Ok(Ok(_)) => Ok(()),
            Ok(Err(e)) => Err(e.to_string()),
            Err(_) => Err("no answer within 1 s".into()),
        }
    }

    /// Waits for the queries under way, then closes every connection.
    pub async fn close(&self) {
        self.pool.close().await;
    }

    /// Applies the migrations not applied yet. On PostgreSQL, which several server
    /// processes may share and start at once, one migrates at a time (an advisory
    /// lock, held by this connection until it is done): the others then find the
    /// schema made.
    async fn migrate(&self, shared: bool) -> Result<(), StoreError> {
        let mut conn = self.pool.acquire().await.map_err(doing("migrating"))?;
        if shared {
            sqlx::query("SELECT pg_advisory_lock($1)")
                .bind(MIGRATION_LOCK)
                .execute(&mut *conn)
                .await
                .map_err(doing("waiting for another server's migration"))?;
        }
        let migrated = migrate_on(&mut conn).await;
        if shared {
            let _ = sqlx::query("SELECT pg_advisory_unlock($1)")
                .bind(MIGRATION_LOCK)
                .execute(&mut *conn)
                .await;
        }
        migrated
    }
}

/// The advisory lock's key for migrations (any number the application keeps for it).
const MIGRATION_LOCK: i64 = 0x6865_7863_6865_7373; // "hexchess"

async fn migrate_on(conn: &mut sqlx::AnyConnection) -> Result<(), StoreError> {
    sqlx::query("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")
        .execute(&mut *conn)
        .await
        .map_err(doing("creating schema_version"))?;
    let applied: i64 = sqlx::query("SELECT COALESCE(MAX(version), 0) FROM schema_version")
        .fetch_one(&mut *conn)
        .await
        .and_then(|r| r.try_get(0))
        .map_err(doing("reading schema_version"))?;
    for (i, migration) in MIGRATIONS.iter().enumerate().skip(applied as usize) {
        let mut tx = conn.begin().await.map_err(doing("migrating"))?;
        for statement in migration.split(';').filter(|s| !s.trim().is_empty()) {
            sqlx::query(statement)
                .execute(&mut *tx)
                .await
                .map_err(doing("migrating"))?;
        }
        if i + 1 == GAME_PLAYERS_MIGRATION {
            fill_game_players(&mut tx).await?;
        }
        sqlx::query("INSERT INTO schema_version (version) VALUES ($1)")
            .bind(i as i64 + 1)
            .execute(&mut *tx)
            .await
            .map_err(doing("migrating"))?;
        tx.commit().await.map_err(doing("migrating"))?;
    }
    Ok(())
}

impl Store {
    /// A new anonymous player known by the hash of its secret.
    pub async fn add_player(&self, id: &str, token_hash: &str) -> Result<(), StoreError> {
        sqlx::query("INSERT INTO players (id, token_hash, created_ms) VALUES ($1, $2, $3)")
            .bind(id)
            .bind(token_hash)
            .bind(now_ms())
            .execute(&self.pool)
            .await
            .map_err(doing("adding a player"))?;
        Ok(())
    }

    /// The player whose secret hashes to `token_hash`.
    pub async fn player_by_token(
        &self,
        token_hash: &str,
    ) -> Result<Option<StoredPlayer>, StoreError> {
        let row =
            sqlx::query("SELECT id, name, password_hash, bot FROM players WHERE token_hash = $1")
                .bind(token_hash)
                .fetch_optional(&self.pool)
                .await
                .map_err(doing("finding a player"))?;
        row.map(|r| player_from_row(&r))
            .transpose()
            .map_err(doing("reading a player"))
    }

    /// The account named `name` (names compare as stored: the server lowercases them).
    pub async fn player_by_name(&self, name: &str) -> Result<Option<StoredPlayer>, StoreError> {
        let row = sqlx::query("SELECT id, name, password_hash, bot FROM players WHERE name = $1")
            .bind(name)
            .fetch_optional(&self.pool)
            .await
            .map_err(doing("finding an account"))?;
        row.map(|r| player_from_row(&r))
            .transpose()
            .map_err(doing("reading an account"))
    }

    /// Whether an account is a bot's (a program plays for it).
    pub async fn is_bot(&self, id: &str) -> Result<bool, StoreError> {
        let row = sqlx::query("SELECT bot FROM players WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await
            .map_err(doing("reading an account"))?;
        Ok(row.and_then(|r| r.try_get::<i64, _>(0).ok()) == Some(1))
    }

    /// Marks an account as a bot's, for good.
    pub async fn make_bot(&self, id: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE players SET bot = 1 WHERE id = $1")
            .bind(id)
            .execute(&self.pool)
            .await
            .map_err(doing("marking a bot"))?;
        Ok(())
    }

    /// A player's newest games first, at most `limit`.
    pub async fn games_of_player(
        &self,
        player: &str,
        limit: u32,
    ) -> Result<Vec<PlayerGame>, StoreError> {
        let rows = sqlx::query(
            "SELECT g.id, g.variant, g.seats, g.control, g.rated, g.result, g.why, \
             g.updated_ms, p.seat FROM game_players p JOIN games g ON g.id = p.game_id \
             WHERE p.player_id = $1 ORDER BY g.updated_ms DESC, g.id LIMIT $2",
        )
        .bind(player)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await
        .map_err(doing("listing a player's games"))?;
        rows.iter()
            .map(|r| {
                Ok(PlayerGame {
                    id: r.try_get("id")?,
                    variant: r.try_get("variant")?,
                    seats: r.try_get("seats")?,
                    control: r.try_get("control")?,
                    rated: r.try_get::<i64, _>("rated")? != 0,
                    seat: usize::try_from(r.try_get::<i64, _>("seat")?).unwrap_or(0),
                    result: r.try_get("result")?,
                    why: r.try_get("why")?,
                    updated_ms: r.try_get("updated_ms")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(doing("listing a player's games"))
    }

    /// The speeds a variant has been played rated at.
    pub async fn rated_speeds(&self, variant: &str) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query("SELECT DISTINCT speed FROM ratings WHERE variant = $1")
            .bind(variant)
            .fetch_all(&self.pool)
            .await
            .map_err(doing("reading a leaderboard"))?;
        rows.iter()
            .map(|r| r.try_get::<String, _>(0))
            .collect::<Result<_, _>>()
            .map_err(doing("reading a leaderboard"))
    }

    /// The best `limit` ratings of accounts in a variant at a speed, best first.
    pub async fn leaderboard(
        &self,
        variant: &str,
        speed: &str,
        limit: u32,
    ) -> Result<Vec<RatedAccount>, StoreError> {
        let rows = sqlx::query(
            "SELECT p.name, r.speed, r.rating, r.deviation, r.volatility, r.games \
             FROM ratings r JOIN players p ON p.id = r.player_id \
             WHERE r.variant = $1 AND r.speed = $2 AND p.name IS NOT NULL \
             ORDER BY r.rating DESC, p.name LIMIT $3",
        )
        .bind(variant)
        .bind(speed)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await
        .map_err(doing("reading a leaderboard"))?;
        rows.iter()
            .map(|r| {
                Ok(RatedAccount {
                    name: r.try_get("name")?,
                    speed: r.try_get("speed")?,
                    rating: Rating {
                        rating: r.try_get("rating")?,
                        deviation: r.try_get("deviation")?,
                        volatility: r.try_get("volatility")?,
                    },
                    games: r.try_get::<i64, _>("games")? as u32,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(doing("reading a leaderboard"))
    }

    /// Gives player `id` a name and a password hash (an account); false when the name
    /// is taken.
    pub async fn name_player(
        &self,
        id: &str,
        name: &str,
        password_hash: &str,
    ) -> Result<bool, StoreError> {
        if self.player_by_name(name).await?.is_some() {
            return Ok(false);
        }
        let done = sqlx::query(
            "UPDATE players SET name = $1, password_hash = $2 WHERE id = $3 AND name IS NULL",
        )
        .bind(name)
        .bind(password_hash)
        .bind(id)
        .execute(&self.pool)
        .await;
        match done {
            Ok(r) => Ok(r.rows_affected() == 1),
            // Another registration took the name in between: the UNIQUE index says so.
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Ok(false),
            Err(e) => Err(doing("naming a player")(e)),
        }
    }

    /// A new secret for player `id` (a login on another machine).
    pub async fn set_token(&self, id: &str, token_hash: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE players SET token_hash = $1 WHERE id = $2")
            .bind(token_hash)
            .bind(id)
            .execute(&self.pool)
            .await
            .map_err(doing("renewing a secret"))?;
        Ok(())
    }

    /// Stores a new game, before its first event; the moment it was stored at (ms since
    /// 1970: its start).
    pub async fn add_game(&self, game: &NewGame) -> Result<i64, StoreError> {
        let now = now_ms();
        let mut tx = self.pool.begin().await.map_err(doing("adding a game"))?;
        sqlx::query(
            "INSERT INTO games (id, variant, seats, control, rated, status, version, \
             created_ms, updated_ms) VALUES ($1, $2, $3, $4, $5, 'playing', 0, $6, $6)",
        )
        .bind(&game.id)
        .bind(&game.variant)
        .bind(&game.seats)
        .bind(&game.control)
        .bind(i64::from(game.rated))
        .bind(now)
        .execute(&mut *tx)
        .await
        .map_err(doing("adding a game"))?;
        for (seat, player) in game.players.iter().enumerate() {
            if let Some(player) = player {
                add_game_player(&mut tx, &game.id, seat, player).await?;
            }
        }
        tx.commit().await.map_err(doing("adding a game"))?;
        Ok(now)
    }

    /// Stores a game's changes (see [`Changes`]) in one transaction (shared with other
    /// games' changes that wait at the same moment): a server killed at any moment
    /// restarts with all of them or none.
    pub async fn save_game(&self, game: &str, changes: Changes) -> Result<(), StoreError> {
        let (done, answer) = tokio::sync::oneshot::channel();
        let job = writer::Job {
            game: game.to_string(),
            changes,
            done,
        };
        self.writes
            .send(job)
            .await
            .map_err(|_| StoreError::Closed)?;
        answer.await.map_err(|_| StoreError::Closed)?
    }

    /// Takes a game over: its fencing token goes up by one and is returned, so that
    /// from then on writes with any earlier token (an owner that has not learnt it lost
    /// the game) are refused. The database, not the broker, counts the tokens: they
    /// only ever grow, whatever the broker forgets.
    pub async fn take_game(&self, game: &str) -> Result<u64, StoreError> {
        let row = sqlx::query("UPDATE games SET fence = fence + 1 WHERE id = $1 RETURNING fence")
            .bind(game)
            .fetch_optional(&self.pool)
            .await
            .map_err(doing("taking a game over"))?;
        let Some(row) = row else {
            return Err(StoreError::Missing {
                game: game.to_string(),
            });
        };
        let fence: i64 = row.try_get("fence").map_err(doing("taking a game over"))?;
        Ok(fence as u64)
    }

    /// Every game still being played, with its steps in order (what a restart
    /// resumes); each game that cannot be read back comes as [`Unreadable`], with its
    /// id and why, and the others are read all the same.
    pub async fn games_in_progress(
        &self,
    ) -> Result<Vec<Result<GameInProgress, Unreadable>>, StoreError> {
        let rows = sqlx::query(concat!(
            "SELECT ",
            in_progress_columns!(),
            " FROM games WHERE status = 'playing' ORDER BY created_ms"
        ))
        .fetch_all(&self.pool)
        .await
        .map_err(doing("reading games in progress"))?;
        let mut games = Vec::with_capacity(rows.len());
        for (i, row) in rows.iter().enumerate() {
            let id = row
                .try_get::<String, _>("id")
                .unwrap_or_else(|_| format!("(the {}th game in play, its id unreadable)", i + 1));
            games.push(self.in_progress(id, row).await);
        }
        Ok(games)
    }

    /// Game `id`, if it is still being played (what a node that takes it over
    /// resumes), as [`Store::games_in_progress`] reads each.
    pub async fn game_in_progress(
        &self,
        id: &str,
    ) -> Result<Option<Result<GameInProgress, Unreadable>>, StoreError> {
        let row = sqlx::query(concat!(
            "SELECT ",
            in_progress_columns!(),
            " FROM games WHERE status = 'playing' AND id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await
        .map_err(doing("reading a game in progress"))?;
        Ok(match row {
            Some(row) => Some(self.in_progress(id.to_string(), &row).await),
            None => None,
        })
    }

    /// Whether game `id` is being played.
    pub async fn is_in_play(&self, id: &str) -> Result<bool, StoreError> {
        let row = sqlx::query("SELECT 1 FROM games WHERE id = $1 AND status = 'playing'")
            .bind(id)
            .fetch_optional(&self.pool)
            .await
            .map_err(doing("reading a game"))?;
        Ok(row.is_some())
    }

    /// The ids of the games still being played, oldest first.
    pub async fn ids_in_play(&self) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query("SELECT id FROM games WHERE status = 'playing' ORDER BY created_ms")
            .fetch_all(&self.pool)
            .await
            .map_err(doing("reading the games in play"))?;
        rows.iter()
            .map(|r| r.try_get("id").map_err(doing("reading the games in play")))
            .collect()
    }

    /// A game in progress from its row (`id`: how to name it if the row is unreadable),
    /// with its steps and chat.
    async fn in_progress(
        &self,
        id: String,
        row: &sqlx::any::AnyRow,
    ) -> Result<GameInProgress, Unreadable> {
        let unreadable = |e: &dyn fmt::Display| Unreadable {
            id: id.clone(),
            why: e.to_string(),
        };
        let mut game = game_from_row(row).map_err(|e| unreadable(&e))?;
        let (steps, chat) = self
            .steps_and_chat(&game.game.id)
            .await
            .map_err(|e| unreadable(&e))?;
        game.steps = steps;
        game.chat = chat;
        Ok(game)
    }

    async fn steps_and_chat(&self, game: &str) -> Result<(Vec<String>, Vec<ChatLine>), StoreError> {
        Ok((self.steps(game).await?, self.chat(game).await?))
    }

    /// A game's chat, oldest first.
    pub async fn chat(&self, game: &str) -> Result<Vec<ChatLine>, StoreError> {
        let rows =
            sqlx::query("SELECT room, author, text FROM chat WHERE game_id = $1 ORDER BY line")
                .bind(game)
                .fetch_all(&self.pool)
                .await
                .map_err(doing("reading a chat"))?;
        rows.iter()
            .map(|r| {
                let room: String = r.try_get("room")?;
                Ok(ChatLine {
                    from: r.try_get("author")?,
                    text: r.try_get("text")?,
                    room: chat_room(&room).ok_or_else(|| {
                        sqlx::Error::Decode(format!("a chat room '{room}'").into())
                    })?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(doing("reading a chat"))
    }

    /// The names a player mutes, in order.
    pub async fn mutes_of(&self, player: &str) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query("SELECT muted FROM mutes WHERE player_id = $1 ORDER BY muted")
            .bind(player)
            .fetch_all(&self.pool)
            .await
            .map_err(doing("reading mutes"))?;
        rows.iter()
            .map(|r| r.try_get::<String, _>(0))
            .collect::<Result<_, _>>()
            .map_err(doing("reading mutes"))
    }

    /// Mutes `name` for `player`, or shows it again.
    pub async fn set_mute(&self, player: &str, name: &str, muted: bool) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await.map_err(doing("storing a mute"))?;
        sqlx::query("DELETE FROM mutes WHERE player_id = $1 AND muted = $2")
            .bind(player)
            .bind(name)
            .execute(&mut *tx)
            .await
            .map_err(doing("storing a mute"))?;
        if muted {
            sqlx::query("INSERT INTO mutes (player_id, muted) VALUES ($1, $2)")
                .bind(player)
                .bind(name)
                .execute(&mut *tx)
                .await
                .map_err(doing("storing a mute"))?;
        }
        tx.commit().await.map_err(doing("storing a mute"))
    }

    /// A game's steps in order.
    pub async fn steps(&self, game: &str) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query("SELECT step FROM moves WHERE game_id = $1 ORDER BY ply")
            .bind(game)
            .fetch_all(&self.pool)
            .await
            .map_err(doing("reading moves"))?;
        rows.iter()
            .map(|r| r.try_get::<String, _>(0))
            .collect::<Result<_, _>>()
            .map_err(doing("reading moves"))
    }

    /// A finished game's PGN.
    pub async fn pgn(&self, game: &str) -> Result<Option<String>, StoreError> {
        let row = sqlx::query("SELECT pgn FROM games WHERE id = $1")
            .bind(game)
            .fetch_optional(&self.pool)
            .await
            .map_err(doing("reading a game"))?;
        Ok(row.and_then(|r| r.try_get::<Option<String>, _>(0).ok().flatten()))
    }

    /// The newest finished games, for the lobby's list of games to download.
    pub async fn finished_games(&self, limit: u32) -> Result<Vec<FinishedGame>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, variant, result, why FROM games WHERE status = 'over' \
             ORDER BY updated_ms DESC LIMIT $1",
        )
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await
        .map_err(doing("listing games"))?;
        rows.iter()
            .map(|r| {
                Ok(FinishedGame {
                    id: r.try_get("id")?,
                    variant: r.try_get("variant")?,
                    result: r.try_get("result")?,
                    why: r.try_get("why")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(doing("listing games"))
    }

    /// A player's rating in a variant at a speed (new players: [`Rating::NEW`]), and
    /// how many rated games it rests on.
    pub async fn rating(
        &self,
        player: &str,
        variant: &str,
        speed: &str,
    ) -> Result<(Rating, u32), StoreError> {
        let row = sqlx::query(
            "SELECT rating, deviation, volatility, games FROM ratings \
             WHERE player_id = $1 AND variant = $2 AND speed = $3",
        )
        .bind(player)
        .bind(variant)
        .bind(speed)
        .fetch_optional(&self.pool)
        .await
        .map_err(doing("reading a rating"))?;
        let Some(row) = row else {
            return Ok((Rating::NEW, 0));
        };
        let read = || -> Result<(Rating, u32), sqlx::Error> {
            Ok((
                Rating {
                    rating: row.try_get("rating")?,
                    deviation: row.try_get("deviation")?,
                    volatility: row.try_get("volatility")?,
                },
                row.try_get::<i64, _>("games")? as u32,
            ))
        };
        read().map_err(doing("reading a rating"))
    }

    /// A player's ratings in every variant and speed they have played rated.
    pub async fn ratings_of(
        &self,
        player: &str,
    ) -> Result<Vec<(String, String, Rating, u32)>, StoreError> {
        let rows = sqlx::query(
            "SELECT variant, speed, rating, deviation, volatility, games FROM ratings \
             WHERE player_id = $1 ORDER BY variant, speed",
        )
        .bind(player)
        .fetch_all(&self.pool)
        .await
        .map_err(doing("reading ratings"))?;
        rows.iter()
            .map(|r| {
                Ok((
                    r.try_get("variant")?,
                    r.try_get("speed")?,
                    Rating {
                        rating: r.try_get("rating")?,
                        deviation: r.try_get("deviation")?,
                        volatility: r.try_get("volatility")?,
                    },
                    r.try_get::<i64, _>("games")? as u32,
                ))
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(doing("reading ratings"))
    }

    /// Stores a player's rating after a rated game.
    pub async fn set_rating(&self, rating: &NewRating) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await.map_err(doing("storing a rating"))?;
        write_rating(&mut tx, rating).await?;
        tx.commit().await.map_err(doing("storing a rating"))?;
        Ok(())
    }
}

async fn write_rating(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    r: &NewRating,
) -> Result<(), StoreError> {
    sqlx::query("DELETE FROM ratings WHERE player_id = $1 AND variant = $2 AND speed = $3")
        .bind(&r.player)
        .bind(&r.variant)
        .bind(&r.speed)
        .execute(&mut **tx)
        .await
        .map_err(doing("storing a rating"))?;
    sqlx::query(
        "INSERT INTO ratings (player_id, variant, speed, rating, deviation, volatility, \
         games) VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(&r.player)
    .bind(&r.variant)
    .bind(&r.speed)
    .bind(r.rating.rating)
    .bind(r.rating.deviation)
    .bind(r.rating.volatility)
    .bind(i64::from(r.games))
    .execute(&mut **tx)
    .await
    .map_err(doing("storing a rating"))?;
    Ok(())
}

/// The migration that made `game_players`.
const GAME_PLAYERS_MIGRATION: usize = 3;

/// Fills `game_players` for the games stored before it was made, from each game's
/// seats (`[{"player":ID,"name":NAME} or {"engine":LEVEL}, ...]`). Seats that cannot be
/// read are left out: the game stays, only the player's list misses it.
async fn fill_game_players(tx: &mut sqlx::Transaction<'_, sqlx::Any>) -> Result<(), StoreError> {
    let rows = sqlx::query("SELECT id, seats FROM games")
        .fetch_all(&mut **tx)
        .await
        .map_err(doing("listing games' players"))?;
    for row in rows {
        let (Ok(id), Ok(seats)) = (
            row.try_get::<String, _>("id"),
            row.try_get::<String, _>("seats"),
        ) else {
            continue;
        };
        let Ok(serde_json::Value::Array(seats)) = serde_json::from_str(&seats) else {
            continue;
        };
        for (seat, holder) in seats.iter().enumerate() {
            if let Some(player) = holder.get("player").and_then(|p| p.as_str()) {
                add_game_player(tx, &id, seat, player).await?;
            }
        }
    }
    Ok(())
}

/// The chat a stored room name means.
fn chat_room(name: &str) -> Option<ChatRoom> {
    match name {
        "players" => Some(ChatRoom::Players),
        "spectators" => Some(ChatRoom::Spectators),
        _ => None,
    }
}

/// How a chat's room is stored.
pub(crate) fn chat_room_name(room: ChatRoom) -> &'static str {
    match room {
        ChatRoom::Players => "players",
        ChatRoom::Spectators => "spectators",
    }
}

async fn add_game_player(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    game: &str,
    seat: usize,
    player: &str,
) -> Result<(), StoreError> {
    sqlx::query("INSERT INTO game_players (game_id, seat, player_id) VALUES ($1, $2, $3)")
        .bind(game)
        .bind(seat as i64)
        .bind(player)
        .execute(&mut **tx)
        .await
        .map_err(doing("adding a game's players"))?;
    Ok(())
}

fn game_from_row(row: &sqlx::any::AnyRow) -> Result<GameInProgress, sqlx::Error> {
    Ok(GameInProgress {
        game: NewGame {
            id: row.try_get("id")?,
            variant: row.try_get("variant")?,
            seats: row.try_get("seats")?,
            control: row.try_get("control")?,
            rated: row.try_get::<i64, _>("rated")? != 0,
            players: Vec::new(),
        },
        steps: Vec::new(),
        chat: Vec::new(),
        version: u64::try_from(row.try_get::<i64, _>("version")?)
            .map_err(|_| sqlx::Error::Decode("a negative event version".into()))?,
        clocks: row.try_get("clocks")?,
        updated_ms: row.try_get("updated_ms")?,
        created_ms: row.try_get("created_ms")?,
        draw_offers: row.try_get("draw_offers")?,
    })
}

/// Each new connection's settings.
///
/// Both databases keep a committed move through a killed server; neither waits for
/// the disk at each commit, so a power cut (or the database itself crashing) may lose
/// the last moment's moves: a move a second per game is too many disk flushes for one
/// disk (on PostgreSQL the relay's p99 went from 85 ms to under 25, docs/online.md).
fn connection_settings(sqlite: bool, memory: bool) -> &'static [&'static str] {
    match (sqlite, memory) {
        // The write-ahead log lets readers go on during a write, and NORMAL syncs it
        // at checkpoints.
        (true, false) => &[
            "PRAGMA journal_mode = WAL",
            "PRAGMA synchronous = NORMAL",
            "PRAGMA busy_timeout = 5000",
            "PRAGMA foreign_keys = ON",
        ],
        (true, true) => &["PRAGMA foreign_keys = ON"],
        (false, _) => &["SET synchronous_commit = off"],
    }
}

/// The schema version a database holds (0 for a new one), read without writing.
async fn schema_version(conn: &mut AnyConnection, sqlite: bool) -> Result<i64, sqlx::Error> {
    let exists = if sqlite {
        "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
    } else {
        "SELECT COUNT(*) FROM information_schema.tables \
         WHERE table_name = 'schema_version' AND table_schema = current_schema()"
    };
    let tables: i64 = sqlx::query(exists)
        .fetch_one(&mut *conn)
        .await?
        .try_get(0)?;
    if tables == 0 {
        return Ok(0);
    }
    sqlx::query("SELECT COALESCE(MAX(version), 0) FROM schema_version")
        .fetch_one(&mut *conn)
        .await?
        .try_get(0)
}

fn player_from_row(row: &sqlx::any::AnyRow) -> Result<StoredPlayer, sqlx::Error> {
    Ok(StoredPlayer {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        password_hash: row.try_get("password_hash")?,
        bot: row.try_get::<i64, _>("bot")? != 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A database of schema 2 (before `game_players`), with one game of two people
    /// and one against the engine, brought up to date: the games are found by player.
    #[tokio::test]
    async fn games_stored_before_game_players_are_found_by_player_after_the_migration() {
        install_default_drivers();
        let dir = std::env::temp_dir().join(format!(
            "hexchess-migrate-{}-{}",
            std::process::id(),
            now_ms()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let url = sqlite_url(&dir);
        let pool = AnyPoolOptions::new().connect(&url).await.unwrap();
        sqlx::query("CREATE TABLE schema_version (version BIGINT NOT NULL)")
            .execute(&pool)
            .await
            .unwrap();
        for (i, migration) in MIGRATIONS[..2].iter().enumerate() {
            for statement in migration.split(';').filter(|s| !s.trim().is_empty()) {
                sqlx::query(statement).execute(&pool).await.unwrap();
            }
            sqlx::query("INSERT INTO schema_version (version) VALUES ($1)")
                .bind(i as i64 + 1)
                .execute(&pool)
                .await
                .unwrap();
        }
        let games = [
            (
                "G1",
                r#"[{"player":"ann","name":"ann"},{"player":"bob","name":"bob"}]"#,
                1,
            ),
            ("G2", r#"[{"engine":3},{"player":"ann","name":"ann"}]"#, 2),
            ("G3", "not json", 3),
        ];
        for (id, seats, at) in games {
            sqlx::query(
                "INSERT INTO games (id, variant, seats, control, rated, status, version, \
                 created_ms, updated_ms) VALUES ($1, 'glinski', $2, '{}', 0, 'playing', 0, \
                 $3, $3)",
            )
            .bind(id)
            .bind(seats)
            .bind(at as i64)
            .execute(&pool)
            .await
            .unwrap();
        }
        pool.close().await;
        let store = Store::open(&url).await.unwrap();
        let ann: Vec<(String, usize)> = store
            .games_of_player("ann", 10)
            .await
            .unwrap()
            .into_iter()
            .map(|g| (g.id, g.seat))
            .collect();
        assert_eq!(ann, [("G2".to_string(), 1), ("G1".to_string(), 0)]);
        let bob = store.games_of_player("bob", 10).await.unwrap();
        assert_eq!(bob.len(), 1);
        assert_eq!(bob[0].seat, 1);
        store.close().await;
        let _ = std::fs::remove_dir_all(&dir);
    }
}
