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
use std::time::{SystemTime, UNIX_EPOCH};

use sqlx::any::{AnyPoolOptions, install_default_drivers};
use sqlx::{AnyPool, Row};

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
];

/// A database error, with what the server was doing.
#[derive(Debug)]
pub struct StoreError {
    doing: String,
    error: sqlx::Error,
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "database, {}: {}", self.doing, self.error)
    }
}

impl std::error::Error for StoreError {}

fn doing(what: &str) -> impl FnOnce(sqlx::Error) -> StoreError + '_ {
    move |error| StoreError {
        doing: what.to_string(),
        error,
    }
}

/// A player as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredPlayer {
    pub id: String,
    pub name: Option<String>,
    pub password_hash: Option<String>,
}

/// A new game's row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewGame {
    pub id: String,
    pub variant: String,
    /// JSON: each seat's holder.
    pub seats: String,
    /// JSON: the time control.
    pub control: String,
    pub rated: bool,
}

/// A game that was in progress, with every stored step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameInProgress {
    pub game: NewGame,
    pub steps: Vec<String>,
    pub version: u64,
    /// JSON: each seat's time left in milliseconds, when timed.
    pub clocks: Option<String>,
    /// When its last move was stored (ms since 1970): a correspondence move's days
    /// count from it.
    pub updated_ms: i64,
}

/// A finished game's summary, for lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FinishedGame {
    pub id: String,
    pub variant: String,
    pub result: String,
    pub why: String,
}

/// The database: a pool of connections to SQLite or PostgreSQL.
#[derive(Clone, Debug)]
pub struct Store {
    pool: AnyPool,
}

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
    /// Connects to `url` (`sqlite://FILE?mode=rwc` or `postgres://...`) and brings its
    /// schema up to date.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        install_default_drivers();
        let sqlite = url.starts_with("sqlite:");
        let pool = AnyPoolOptions::new()
            // SQLite writes one at a time: more connections only wait on its lock.
            .max_connections(if sqlite { 4 } else { 16 })
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    // Both databases keep a committed move through a killed server;
                    // neither waits for the disk at each commit, so a power cut (or
                    // the database itself crashing) may lose the last moment's
                    // moves: a move a second per game is too many disk flushes for
                    // one disk (on PostgreSQL the relay's p99 went from 85 ms to
                    // under 25, docs/online.md).
                    let settings: &[&'static str] = if sqlite {
                        // The write-ahead log lets readers go on during a write, and
                        // NORMAL syncs it at checkpoints.
                        &[
                            "PRAGMA journal_mode = WAL",
                            "PRAGMA synchronous = NORMAL",
                            "PRAGMA busy_timeout = 5000",
                            "PRAGMA foreign_keys = ON",
                        ]
                    } else {
                        &["SET synchronous_commit = off"]
                    };
                    for &setting in settings {
                        sqlx::query(setting).execute(&mut *conn).await?;
                    }
                    Ok(())
                })
            })
            .connect(url)
            .await
            .map_err(doing("connecting"))?;
        let store = Store { pool };
        store.migrate().await?;
        Ok(store)
    }

    /// Applies the migrations not applied yet.
    async fn migrate(&self) -> Result<(), StoreError> {
        sqlx::query("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")
            .execute(&self.pool)
            .await
            .map_err(doing("creating schema_version"))?;
        let applied: i64 = sqlx::query("SELECT COUNT(*) FROM schema_version")
            .fetch_one(&self.pool)
            .await
            .and_then(|r| r.try_get(0))
            .map_err(doing("reading schema_version"))?;
        for (i, migration) in MIGRATIONS.iter().enumerate().skip(applied as usize) {
            let mut tx = self.pool.begin().await.map_err(doing("migrating"))?;
            for statement in migration.split(';').filter(|s| !s.trim().is_empty()) {
                sqlx::query(statement)
                    .execute(&mut *tx)
                    .await
                    .map_err(doing("migrating"))?;
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
        let row = sqlx::query("SELECT id, name, password_hash FROM players WHERE token_hash = $1")
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
        let row = sqlx::query("SELECT id, name, password_hash FROM players WHERE name = $1")
            .bind(name)
            .fetch_optional(&self.pool)
            .await
            .map_err(doing("finding an account"))?;
        row.map(|r| player_from_row(&r))
            .transpose()
            .map_err(doing("reading an account"))
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

    /// Stores a new game, before its first event.
    pub async fn add_game(&self, game: &NewGame) -> Result<(), StoreError> {
        let now = now_ms();
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
        .execute(&self.pool)
        .await
        .map_err(doing("adding a game"))?;
        Ok(())
    }

    /// Stores the step played at `ply` with the game's event version and clocks after
    /// it, in one transaction.
    pub async fn add_step(
        &self,
        game: &str,
        ply: u32,
        step: &str,
        version: u64,
        clocks: Option<&str>,
    ) -> Result<(), StoreError> {
        let now = now_ms();
        let mut tx = self.pool.begin().await.map_err(doing("storing a move"))?;
        sqlx::query("INSERT INTO moves (game_id, ply, step, at_ms) VALUES ($1, $2, $3, $4)")
            .bind(game)
            .bind(i64::from(ply))
            .bind(step)
            .bind(now)
            .execute(&mut *tx)
            .await
            .map_err(doing("storing a move"))?;
        sqlx::query("UPDATE games SET version = $1, clocks = $2, updated_ms = $3 WHERE id = $4")
            .bind(version as i64)
            .bind(clocks)
            .bind(now)
            .bind(game)
            .execute(&mut *tx)
            .await
            .map_err(doing("storing a move"))?;
        tx.commit().await.map_err(doing("storing a move"))?;
        Ok(())
    }

    /// Records the end of a game: its result, why, and its PGN (`status` is `over` or
    /// `aborted`).
    pub async fn finish_game(
        &self,
        game: &str,
        status: &str,
        result: &str,
        why: &str,
        pgn: &str,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE games SET status = $1, result = $2, why = $3, pgn = $4, updated_ms = $5 \
             WHERE id = $6",
        )
        .bind(status)
        .bind(result)
        .bind(why)
        .bind(pgn)
        .bind(now_ms())
        .bind(game)
        .execute(&self.pool)
        .await
        .map_err(doing("finishing a game"))?;
        Ok(())
    }

    /// Every game still being played, with its steps in order (what a restart
    /// resumes).
    pub async fn games_in_progress(&self) -> Result<Vec<GameInProgress>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, variant, seats, control, rated, version, clocks, updated_ms FROM games \
             WHERE status = 'playing' ORDER BY created_ms",
        )
        .fetch_all(&self.pool)
        .await
        .map_err(doing("reading games in progress"))?;
        let mut games = Vec::with_capacity(rows.len());
        for row in rows {
            let read = |row: &sqlx::any::AnyRow| -> Result<GameInProgress, sqlx::Error> {
                Ok(GameInProgress {
                    game: NewGame {
                        id: row.try_get("id")?,
                        variant: row.try_get("variant")?,
                        seats: row.try_get("seats")?,
                        control: row.try_get("control")?,
                        rated: row.try_get::<i64, _>("rated")? != 0,
                    },
                    steps: Vec::new(),
                    version: row.try_get::<i64, _>("version")? as u64,
                    clocks: row.try_get("clocks")?,
                    updated_ms: row.try_get("updated_ms")?,
                })
            };
            let mut game = read(&row).map_err(doing("reading a game in progress"))?;
            game.steps = self.steps(&game.game.id).await?;
            games.push(game);
        }
        Ok(games)
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
    pub async fn set_rating(
        &self,
        player: &str,
        variant: &str,
        speed: &str,
        rating: Rating,
        games: u32,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await.map_err(doing("storing a rating"))?;
        sqlx::query("DELETE FROM ratings WHERE player_id = $1 AND variant = $2 AND speed = $3")
            .bind(player)
            .bind(variant)
            .bind(speed)
            .execute(&mut *tx)
            .await
            .map_err(doing("storing a rating"))?;
        sqlx::query(
            "INSERT INTO ratings (player_id, variant, speed, rating, deviation, volatility, \
             games) VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(player)
        .bind(variant)
        .bind(speed)
        .bind(rating.rating)
        .bind(rating.deviation)
        .bind(rating.volatility)
        .bind(i64::from(games))
        .execute(&mut *tx)
        .await
        .map_err(doing("storing a rating"))?;
        tx.commit().await.map_err(doing("storing a rating"))?;
        Ok(())
    }
}

fn player_from_row(row: &sqlx::any::AnyRow) -> Result<StoredPlayer, sqlx::Error> {
    Ok(StoredPlayer {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        password_hash: row.try_get("password_hash")?,
    })
}
