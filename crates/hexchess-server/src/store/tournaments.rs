//! Tournaments as the database keeps them (migration 6): the tournament, its entries,
//! and its pairings with their results. Everything a tournament's players are told
//! is written here first: a pairing before its games start, a result before the
//! standings show it, so that a server killed at any moment goes on from here.

use sqlx::Row;

use super::{Store, StoreError, doing, now_ms};

/// A tournament's lasting facts and where it stands.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredTournament {
    /// Its id.
    pub id: String,
    /// `arena`, `swiss` or `round_robin`.
    pub kind: String,
    /// Its name.
    pub name: String,
    /// The variant's id.
    pub variant: String,
    /// Minutes on each clock.
    pub minutes: u32,
    /// Seconds added a move.
    pub increment: u32,
    /// Whether its games are rated.
    pub rated: bool,
    /// Whether bots may enter.
    pub bots: bool,
    /// Its creator's player id.
    pub creator: String,
    /// Its creator's name.
    pub creator_name: String,
    /// When it starts (ms since 1970).
    pub starts_ms: i64,
    /// An arena's length in seconds (0 for the others).
    pub seconds: u32,
    /// A Swiss's rounds, a round robin's cycles (0 for an arena).
    pub rounds: u32,
    /// Seconds for a game's first move.
    pub first_move: u32,
    /// An arena's players may go berserk.
    pub berserk: bool,
    /// `waiting`, `running` or `finished`.
    pub status: String,
    /// Rounds paired (an arena: waves of pairing).
    pub round: u32,
}

/// One entrant.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredEntry {
    /// Its key in the tournament: the player's id, or `engine-N` for an engine seat.
    pub entrant: String,
    /// Its starting number (Swiss, round robin: given at the start, or on entry after
    /// it).
    pub number: Option<u32>,
    /// The player (none for an engine seat).
    pub player: Option<String>,
    /// The name shown.
    pub name: String,
    /// An engine seat's level.
    pub engine: Option<u8>,
    /// A program plays.
    pub bot: bool,
    /// The rating at entry.
    pub rating: f64,
    /// When it entered (ms since 1970).
    pub joined_ms: i64,
    /// Withdrawn: no longer paired.
    pub withdrawn: bool,
}

/// One pairing: a game of the tournament, or a bye.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredPairing {
    /// The round (an arena: the wave of pairing).
    pub round: u32,
    /// The board within it.
    pub board: u32,
    /// The game (none for a bye).
    pub game: Option<String>,
    /// White's entrant key (a bye's player).
    pub white: String,
    /// Black's entrant key (none for a bye).
    pub black: Option<String>,
    /// The result from white's side: `1`, `=`, `0`, `+`/`-` by forfeit, `U` a bye;
    /// none while the game is on.
    pub result: Option<String>,
    /// Steps the game had.
    pub plies: Option<u32>,
    /// Who went berserk: `w`, `b`, both, or neither (empty).
    pub berserk: String,
}

fn tournament_from_row(r: &sqlx::any::AnyRow) -> Result<StoredTournament, sqlx::Error> {
    let small = |name: &str| -> Result<u32, sqlx::Error> {
        u32::try_from(r.try_get::<i64, _>(name)?)
            .map_err(|_| sqlx::Error::Decode(format!("{name} out of range").into()))
    };
    Ok(StoredTournament {
        id: r.try_get("id")?,
        kind: r.try_get("kind")?,
        name: r.try_get("name")?,
        variant: r.try_get("variant")?,
        minutes: small("minutes")?,
        increment: small("increment")?,
        rated: r.try_get::<i64, _>("rated")? != 0,
        bots: r.try_get::<i64, _>("bots")? != 0,
        creator: r.try_get("creator")?,
        creator_name: r.try_get("creator_name")?,
        starts_ms: r.try_get("starts_ms")?,
        seconds: small("seconds")?,
        rounds: small("rounds")?,
        first_move: small("first_move")?,
        berserk: r.try_get::<i64, _>("berserk")? != 0,
        status: r.try_get("status")?,
        round: small("round")?,
    })
}

fn entry_from_row(r: &sqlx::any::AnyRow) -> Result<StoredEntry, sqlx::Error> {
    Ok(StoredEntry {
        entrant: r.try_get("entrant")?,
        number: r
            .try_get::<Option<i64>, _>("number")?
            .and_then(|n| u32::try_from(n).ok()),
        player: r.try_get("player_id")?,
        name: r.try_get("name")?,
        engine: r
            .try_get::<Option<i64>, _>("engine")?
            .and_then(|n| u8::try_from(n).ok()),
        bot: r.try_get::<i64, _>("bot")? != 0,
        rating: r.try_get("rating")?,
        joined_ms: r.try_get("joined_ms")?,
        withdrawn: r.try_get::<i64, _>("withdrawn")? != 0,
    })
}

fn pairing_from_row(r: &sqlx::any::AnyRow) -> Result<StoredPairing, sqlx::Error> {
    let small = |v: i64| u32::try_from(v).unwrap_or(0);
    Ok(StoredPairing {
        round: small(r.try_get("round")?),
        board: small(r.try_get("board")?),
        game: r.try_get("game_id")?,
        white: r.try_get("white")?,
        black: r.try_get("black")?,
        result: r.try_get("result")?,
        plies: r.try_get::<Option<i64>, _>("plies")?.map(small),
        berserk: r
            .try_get::<Option<String>, _>("berserk")?
            .unwrap_or_default(),
    })
}

impl Store {
    /// Stores a new tournament.
    pub async fn add_tournament(&self, t: &StoredTournament) -> Result<(), StoreError> {
        let now = now_ms();
        sqlx::query(
            "INSERT INTO tournaments (id, kind, name, variant, minutes, increment, rated, \
             bots, creator, creator_name, starts_ms, seconds, rounds, first_move, status, \
             round, created_ms, updated_ms, berserk) VALUES ($1, $2, $3, $4, $5, $6, $7, \
             $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $17, $18)",
        )
        .bind(&t.id)
        .bind(&t.kind)
        .bind(&t.name)
        .bind(&t.variant)
        .bind(i64::from(t.minutes))
        .bind(i64::from(t.increment))
        .bind(i64::from(t.rated))
        .bind(i64::from(t.bots))
        .bind(&t.creator)
        .bind(&t.creator_name)
        .bind(t.starts_ms)
        .bind(i64::from(t.seconds))
        .bind(i64::from(t.rounds))
        .bind(i64::from(t.first_move))
        .bind(&t.status)
        .bind(i64::from(t.round))
        .bind(now)
        .bind(i64::from(t.berserk))
        .execute(&self.pool)
        .await
        .map_err(doing("adding a tournament"))?;
        Ok(())
    }

    /// The tournaments not finished, and the `finished` last finished ones.
    pub async fn tournaments(&self, finished: u32) -> Result<Vec<StoredTournament>, StoreError> {
        let mut out = Vec::new();
        for (query, limit) in [
            (
                "SELECT * FROM tournaments WHERE status <> 'finished' ORDER BY starts_ms, id LIMIT $1",
                i64::MAX,
            ),
            (
                "SELECT * FROM tournaments WHERE status = 'finished' ORDER BY updated_ms DESC, id LIMIT $1",
                i64::from(finished),
            ),
        ] {
            let rows = sqlx::query(query)
                .bind(limit)
                .fetch_all(&self.pool)
                .await
                .map_err(doing("listing tournaments"))?;
            for r in &rows {
                out.push(tournament_from_row(r).map_err(doing("reading a tournament"))?);
            }
        }
        Ok(out)
    }

    /// One tournament (finished ones too).
    pub async fn tournament(&self, id: &str) -> Result<Option<StoredTournament>, StoreError> {
        let row = sqlx::query("SELECT * FROM tournaments WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await
            .map_err(doing("reading a tournament"))?;
        row.map(|r| tournament_from_row(&r))
            .transpose()
            .map_err(doing("reading a tournament"))
    }

    /// A tournament's status and rounds paired.
    pub async fn set_tournament_status(
        &self,
        id: &str,
        status: &str,
        round: u32,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE tournaments SET status = $1, round = $2, updated_ms = $3 WHERE id = $4",
        )
        .bind(status)
        .bind(i64::from(round))
        .bind(now_ms())
        .bind(id)
        .execute(&self.pool)
        .await
        .map_err(doing("updating a tournament"))?;
        Ok(())
    }

    /// A new entrant (or one withdrawn, back).
    pub async fn add_entry(&self, tournament: &str, e: &StoredEntry) -> Result<(), StoreError> {
        let mut tx = self
            .pool
            .begin()
            .await
            .map_err(doing("entering a tournament"))?;
        sqlx::query("DELETE FROM tournament_entries WHERE tournament_id = $1 AND entrant = $2")
            .bind(tournament)
            .bind(&e.entrant)
            .execute(&mut *tx)
            .await
            .map_err(doing("entering a tournament"))?;
        sqlx::query(
            "INSERT INTO tournament_entries (tournament_id, entrant, number, player_id, name, \
             engine, bot, rating, joined_ms, withdrawn) VALUES ($1, $2, $3, $4, $5, $6, $7, \
             $8, $9, $10)",
        )
        .bind(tournament)
        .bind(&e.entrant)
        .bind(e.number.map(i64::from))
        .bind(e.player.as_deref())
        .bind(&e.name)
        .bind(e.engine.map(i64::from))
        .bind(i64::from(e.bot))
        .bind(e.rating)
        .bind(e.joined_ms)
        .bind(i64::from(e.withdrawn))
        .execute(&mut *tx)
        .await
        .map_err(doing("entering a tournament"))?;
        tx.commit().await.map_err(doing("entering a tournament"))?;
        Ok(())
    }

    /// An entrant withdrawn (or back).
    pub async fn set_withdrawn(
        &self,
        tournament: &str,
        entrant: &str,
        withdrawn: bool,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE tournament_entries SET withdrawn = $1 WHERE tournament_id = $2 AND entrant = $3",
        )
        .bind(i64::from(withdrawn))
        .bind(tournament)
        .bind(entrant)
        .execute(&self.pool)
        .await
        .map_err(doing("withdrawing from a tournament"))?;
        Ok(())
    }

    /// A tournament's entrants, in order of entry.
    pub async fn entries(&self, tournament: &str) -> Result<Vec<StoredEntry>, StoreError> {
        let rows = sqlx::query(
            "SELECT * FROM tournament_entries WHERE tournament_id = $1 ORDER BY joined_ms, entrant",
        )
        .bind(tournament)
        .fetch_all(&self.pool)
        .await
        .map_err(doing("reading a tournament's entrants"))?;
        rows.iter()
            .map(entry_from_row)
            .collect::<Result<_, _>>()
            .map_err(doing("reading a tournament's entrants"))
    }

    /// The start: starting numbers given, the status and round set, and the first
    /// pairings, in one transaction.
    pub async fn start_tournament(
        &self,
        tournament: &str,
        numbers: &[(String, u32)],
        round: u32,
        pairings: &[StoredPairing],
    ) -> Result<(), StoreError> {
        let mut tx = self
            .pool
            .begin()
            .await
            .map_err(doing("starting a tournament"))?;
        for (entrant, number) in numbers {
            sqlx::query(
                "UPDATE tournament_entries SET number = $1 WHERE tournament_id = $2 AND entrant = $3",
            )
            .bind(i64::from(*number))
            .bind(tournament)
            .bind(entrant)
            .execute(&mut *tx)
            .await
            .map_err(doing("numbering a tournament's entrants"))?;
        }
        insert_pairings(&mut tx, tournament, pairings).await?;
        sqlx::query(
            "UPDATE tournaments SET status = 'running', round = $1, updated_ms = $2 WHERE id = $3",
        )
        .bind(i64::from(round))
        .bind(now_ms())
        .bind(tournament)
        .execute(&mut *tx)
        .await
        .map_err(doing("starting a tournament"))?;
        tx.commit().await.map_err(doing("starting a tournament"))?;
        Ok(())
    }

    /// A round's (or an arena wave's) pairings, with the rounds paired now `round`, in
    /// one transaction: stored before any of their games start.
    pub async fn add_pairings(
        &self,
        tournament: &str,
        round: u32,
        pairings: &[StoredPairing],
    ) -> Result<(), StoreError> {
        self.start_tournament(tournament, &[], round, pairings)
            .await
    }

    /// Every pairing of a tournament, in round and board order.
    pub async fn pairings(&self, tournament: &str) -> Result<Vec<StoredPairing>, StoreError> {
        let rows = sqlx::query(
            "SELECT * FROM tournament_games WHERE tournament_id = $1 ORDER BY round, board",
        )
        .bind(tournament)
        .fetch_all(&self.pool)
        .await
        .map_err(doing("reading a tournament's pairings"))?;
        rows.iter()
            .map(pairing_from_row)
            .collect::<Result<_, _>>()
            .map_err(doing("reading a tournament's pairings"))
    }

    /// A pairing's result, its length and who went berserk.
    pub async fn set_pairing_result(
        &self,
        tournament: &str,
        (round, board): (u32, u32),
        result: &str,
        plies: u32,
        berserk: &str,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE tournament_games SET result = $1, plies = $2, berserk = $6 WHERE \
             tournament_id = $3 AND round = $4 AND board = $5",
        )
        .bind(result)
        .bind(i64::from(plies))
        .bind(tournament)
        .bind(i64::from(round))
        .bind(i64::from(board))
        .bind(berserk)
        .execute(&self.pool)
        .await
        .map_err(doing("storing a tournament game's result"))?;
        Ok(())
    }

    /// A game's end as stored: `None` while it is on (or unknown), else its result
    /// (`*` when aborted), its steps and its stored time control (a tournament's mark).
    pub async fn game_end(&self, game: &str) -> Result<Option<(String, u32, String)>, StoreError> {
        let row = sqlx::query(
            "SELECT g.status, g.result, g.control, (SELECT COUNT(*) FROM moves m WHERE \
             m.game_id = g.id) AS plies FROM games g WHERE g.id = $1",
        )
        .bind(game)
        .fetch_optional(&self.pool)
        .await
        .map_err(doing("reading a game's end"))?;
        let Some(row) = row else {
            return Ok(None);
        };
        let read = doing("reading a game's end");
        let status: String = row.try_get("status").map_err(read)?;
        if status == "playing" {
            return Ok(None);
        }
        let result: Option<String> = row
            .try_get("result")
            .map_err(doing("reading a game's end"))?;
        let plies: i64 = row
            .try_get("plies")
            .map_err(doing("reading a game's end"))?;
        let control: String = row
            .try_get("control")
            .map_err(doing("reading a game's end"))?;
        Ok(Some((
            result.unwrap_or_else(|| "*".into()),
            u32::try_from(plies).unwrap_or(0),
            control,
        )))
    }

    /// A game's stored time control, rewritten (a tournament's mark: who went berserk).
    pub async fn set_game_control(&self, game: &str, control: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE games SET control = $1 WHERE id = $2")
            .bind(control)
            .bind(game)
            .execute(&self.pool)
            .await
            .map_err(doing("storing a game's berserk"))?;
        Ok(())
    }

    /// Whether the database has a game (a pairing stored just before a kill may have
    /// none yet).
    pub async fn has_game(&self, game: &str) -> Result<bool, StoreError> {
        let row = sqlx::query("SELECT id FROM games WHERE id = $1")
            .bind(game)
            .fetch_optional(&self.pool)
            .await
            .map_err(doing("finding a game"))?;
        Ok(row.is_some())
    }
}

async fn insert_pairings(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    tournament: &str,
    pairings: &[StoredPairing],
) -> Result<(), StoreError> {
    for p in pairings {
        sqlx::query(
            "INSERT INTO tournament_games (tournament_id, round, board, game_id, white, black, \
             result, plies, berserk) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(tournament)
        .bind(i64::from(p.round))
        .bind(i64::from(p.board))
        .bind(p.game.as_deref())
        .bind(&p.white)
        .bind(p.black.as_deref())
        .bind(p.result.as_deref())
        .bind(p.plies.map(i64::from))
        .bind(&p.berserk)
        .execute(&mut **tx)
        .await
        .map_err(doing("storing a tournament's pairings"))?;
    }
    Ok(())
}
