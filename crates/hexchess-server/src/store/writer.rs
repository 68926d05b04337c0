//! The games' changes, written in groups: each transaction takes every
//! change waiting when it starts (up to [`MAX_GROUP`]), so that under load a commit
//! carries many moves instead of one.
//!
//! Every move is stored before its player is told, so a commit's cost is on every
//! move's path. Alone, a commit is a few statements and a trip to the database's
//! thread; a thousand games each committing on their own made SQLite's writers wait
//! on its lock, and its busy handler sleeps in steps of milliseconds (the relay's p99
//! was 60-130 ms at 1,000 games on this machine). A group is one transaction and one
//! lock for all of them. A group that fails is written again one change at a time, so
//! that each room learns of its own failure alone.

use std::sync::Arc;

use sqlx::AnyPool;
use tokio::sync::{Mutex, mpsc, oneshot};

use super::{Changes, StoreError, doing, now_ms, write_rating};

/// Changes in one transaction at most.
const MAX_GROUP: usize = 128;

/// Changes waiting for the writer before rooms wait to hand theirs over.
const QUEUE: usize = 4096;

/// One game's changes, and where to say whether they are stored.
#[derive(Debug)]
pub struct Job {
    pub game: String,
    pub changes: Changes,
    pub done: oneshot::Sender<Result<(), StoreError>>,
}

/// Starts `writers` writers on `pool` (one for SQLite, which writes one transaction at
/// a time anyway; several for PostgreSQL, whose transactions on different games run
/// side by side); their mailbox.
pub fn start(pool: AnyPool, writers: usize) -> mpsc::Sender<Job> {
    let (tx, rx) = mpsc::channel(QUEUE);
    let rx = Arc::new(Mutex::new(rx));
    for _ in 0..writers.max(1) {
        tokio::spawn(run(pool.clone(), Arc::clone(&rx)));
    }
    tx
}

/// The next group: the first change to come, and every one waiting behind it.
async fn next_group(jobs: &Mutex<mpsc::Receiver<Job>>, group: &mut Vec<Job>) -> bool {
    let mut jobs = jobs.lock().await;
    let Some(first) = jobs.recv().await else {
        return false;
    };
    group.push(first);
    while group.len() < MAX_GROUP {
        match jobs.try_recv() {
            Ok(job) => group.push(job),
            Err(_) => break,
        }
    }
    true
}

async fn run(pool: AnyPool, jobs: Arc<Mutex<mpsc::Receiver<Job>>>) {
    let mut group = Vec::with_capacity(MAX_GROUP);
    while next_group(&jobs, &mut group).await {
        if write(&pool, &group).await.is_ok() {
            for job in group.drain(..) {
                let _ = job.done.send(Ok(()));
            }
            continue;
        }
        for job in group.drain(..) {
            let alone = write(&pool, std::slice::from_ref(&job)).await;
            let _ = job.done.send(alone);
        }
    }
}

/// Writes `jobs` in one transaction.
async fn write(pool: &AnyPool, jobs: &[Job]) -> Result<(), StoreError> {
    let mut tx = pool.begin().await.map_err(doing("storing a game"))?;
    for job in jobs {
        write_one(&mut tx, &job.game, &job.changes).await?;
    }
    tx.commit().await.map_err(doing("storing a game"))
}

async fn write_one(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    game: &str,
    changes: &Changes,
) -> Result<(), StoreError> {
    let now = now_ms();
    // The game's row first, only while its fencing token is not newer than the
    // writer's: a stale owner changes nothing at all.
    let update = if changes.steps.is_empty() {
        sqlx::query("UPDATE games SET version = $1, draw_offers = $2 WHERE id = $3 AND fence <= $4")
            .bind(changes.version as i64)
            .bind(&changes.offers)
            .bind(game)
            .bind(changes.fence as i64)
    } else {
        // A correspondence move's days count from `updated_ms`: only a move sets it.
        sqlx::query(
            "UPDATE games SET version = $1, draw_offers = $2, clocks = $3, updated_ms = $4 \
             WHERE id = $5 AND fence <= $6",
        )
        .bind(changes.version as i64)
        .bind(&changes.offers)
        .bind(&changes.clocks)
        .bind(now)
        .bind(game)
        .bind(changes.fence as i64)
    };
    let updated = update
        .execute(&mut **tx)
        .await
        .map_err(doing("storing a game"))?;
    if updated.rows_affected() == 0 {
        let game = game.to_string();
        let found = sqlx::query("SELECT 1 FROM games WHERE id = $1")
            .bind(&game)
            .fetch_optional(&mut **tx)
            .await
            .map_err(doing("storing a game"))?;
        return Err(match found {
            Some(_) => StoreError::Fenced { game },
            None => StoreError::Missing { game },
        });
    }
    for (i, step) in changes.steps.iter().enumerate() {
        sqlx::query("INSERT INTO moves (game_id, ply, step, at_ms) VALUES ($1, $2, $3, $4)")
            .bind(game)
            .bind(i64::from(changes.first_ply) + i as i64)
            .bind(step)
            .bind(now)
            .execute(&mut **tx)
            .await
            .map_err(doing("storing a move"))?;
    }
    for (i, (version, line)) in changes.chat.iter().enumerate() {
        sqlx::query(
            "INSERT INTO chat (game_id, line, version, room, author, text, at_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(game)
        .bind(i64::from(changes.first_line) + i as i64)
        .bind(*version as i64)
        .bind(super::chat_room_name(line.room))
        .bind(&line.from)
        .bind(&line.text)
        .bind(now)
        .execute(&mut **tx)
        .await
        .map_err(doing("storing a chat line"))?;
    }
    if let Some(end) = &changes.end {
        sqlx::query(
            "UPDATE games SET status = $1, result = $2, why = $3, pgn = $4, updated_ms = $5 \
             WHERE id = $6",
        )
        .bind(end.status)
        .bind(&end.result)
        .bind(&end.why)
        .bind(&end.pgn)
        .bind(now)
        .bind(game)
        .execute(&mut **tx)
        .await
        .map_err(doing("finishing a game"))?;
        for r in &end.ratings {
            write_rating(tx, r).await?;
        }
    }
    Ok(())
}
