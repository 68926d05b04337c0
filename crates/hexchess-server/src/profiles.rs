//! Players' pages and the leaderboards: what `GET /player/NAME` and
//! `GET /leaderboard/VARIANT` answer (and `player` and `leaderboard` over the socket),
//! read from the database. Only accounts have pages and places: an anonymous player's
//! name is not theirs alone.

use std::net::IpAddr;

use hexchess_core::Side;
use hexchess_protocol::{
    LeaderLine, Leaderboard, PlayedGame, PlayerProfile, RatingLine, SPEEDS, ServerMessage,
    SpeedBoard,
};

use crate::hub::{Hub, HubError, Identity, StoredControl, seats_from_text};
use crate::rate::address_key;
use crate::ratings::is_provisional;
use crate::store::PlayerGame;

/// Games a player's page lists, newest first.
pub const PROFILE_GAMES: u32 = 30;

/// Players on one speed's leaderboard.
pub const LEADERBOARD_SIZE: usize = 50;

/// Ratings read for one speed's leaderboard: the best established ones among them
/// come first, then provisional ones fill the board.
const LEADERBOARD_READ: u32 = 200;

impl Hub {
    /// Counts a page or leaderboard read from `from` against its limit.
    pub fn lookup_allowed(&self, from: IpAddr) -> Result<(), HubError> {
        self.lookups
            .check(&address_key(from), self.now())
            .map_err(|wait| {
                HubError::Refused(format!("too many pages read from your address: {wait}"))
            })
    }

    /// A finished game's record, as a message.
    pub async fn record(&self, game: &str) -> Result<ServerMessage, HubError> {
        match self.store.pgn(game).await? {
            Some(pgn) => Ok(ServerMessage::Record {
                game: game.to_string(),
                pgn,
            }),
            None => Err(HubError::Refused(format!("no finished game '{game}'"))),
        }
    }

    /// Account `name`'s page: ratings per variant and speed, and last games.
    pub async fn profile(&self, name: &str) -> Result<PlayerProfile, HubError> {
        let name = name.trim().to_lowercase();
        let Some(player) = self.store.player_by_name(&name).await? else {
            return Err(HubError::Refused(format!("no player named '{name}'")));
        };
        self.page_of(&player.id, name).await
    }

    /// The page of the player asking: an account's is its public page; an anonymous
    /// player's lists their games and ratings under the name the lists show them by.
    pub async fn own_page(&self, me: &Identity) -> Result<PlayerProfile, HubError> {
        self.page_of(&me.id.0, me.name.clone()).await
    }

    /// Player `id`'s page, shown under `name`.
    async fn page_of(&self, id: &str, name: String) -> Result<PlayerProfile, HubError> {
        let ratings = self
            .store
            .ratings_of(id)
            .await?
            .into_iter()
            .map(|(variant, speed, r, games)| {
                let table = self
                    .catalog
                    .get(&variant)
                    .is_some_and(|e| e.side_count() > 2);
                RatingLine {
                    variant,
                    speed,
                    rating: r.rating,
                    deviation: r.deviation,
                    games,
                    provisional: is_provisional(r, games, table),
                }
            })
            .collect();
        let games = self
            .store
            .games_of_player(id, PROFILE_GAMES)
            .await?
            .iter()
            .filter_map(|g| self.played_game(g))
            .collect();
        Ok(PlayerProfile {
            name,
            bot: self.store.is_bot(id).await?,
            ratings,
            games,
        })
    }

    /// One game of a player's page (none when its row cannot be read: it is left out,
    /// the page still served).
    fn played_game(&self, g: &PlayerGame) -> Option<PlayedGame> {
        let control = StoredControl::read(&g.control).ok()?;
        let clock = control.clock().ok()?;
        let seats = seats_from_text(&g.seats).ok()?;
        let seat = match self.catalog.get(&g.variant) {
            Some(entry) if g.seat < entry.side_count() => entry
                .rules()
                .side_name(Side::from_index(g.seat))
                .to_string(),
            _ => format!("seat {}", g.seat + 1),
        };
        Some(PlayedGame {
            game: g.id.clone(),
            variant: g.variant.clone(),
            speed: control.speed(clock),
            rated: g.rated,
            seat,
            names: seats.iter().map(|s| s.name()).collect(),
            result: g.result.clone(),
            why: g.why.clone(),
            updated_ms: g.updated_ms,
        })
    }

    /// Variant `variant`'s leaderboard at every speed it has been played rated.
    pub async fn leaderboard(&self, variant: &str) -> Result<Leaderboard, HubError> {
        let Some(entry) = self.catalog.get(variant) else {
            return Err(HubError::Refused(format!("no variant '{variant}' here")));
        };
        let table = entry.side_count() > 2;
        let mut speeds = self.store.rated_speeds(variant).await?;
        speeds.sort_by_key(|s| SPEEDS.iter().position(|k| k == s).unwrap_or(SPEEDS.len()));
        let mut boards = Vec::new();
        for speed in speeds {
            let read = self
                .store
                .leaderboard(variant, &speed, LEADERBOARD_READ)
                .await?;
            let lines = read.into_iter().map(|a| LeaderLine {
                provisional: is_provisional(a.rating, a.games, table),
                name: a.name,
                rating: a.rating.rating,
                deviation: a.rating.deviation,
                games: a.games,
            });
            let (mut players, provisional): (Vec<_>, Vec<_>) =
                lines.partition(|line| !line.provisional);
            players.extend(provisional);
            players.truncate(LEADERBOARD_SIZE);
            boards.push(SpeedBoard { speed, players });
        }
        Ok(Leaderboard {
            variant: variant.to_string(),
            speeds: boards,
        })
    }
}
