//! What cannot be taken back is asked twice: resigning, aborting a game on a server,
//! and starting a new game or a drill while one is in play wait for the person's yes (unless the
//! setting [`AskFirst`] is off). The interface shows the [`Question`] and sends the
//! [`Reply`]; this plugin does what was asked, here or on the server.

use bevy::prelude::*;
use hexchess_core::Termination;

use crate::game::{CurrentGame, EndRequest, GameSet};
use crate::online::OnlineRequest;
use crate::play::{Session, StartDrill, StartGame, Trainer, loss_of};

/// Something a person asks for that cannot be taken back.
#[derive(Message, Clone, Debug)]
pub enum Weighty {
    /// Give up the game (here, or on the server): the seat a person holds loses.
    Resign,
    /// Call off a game on the server before it has really begun.
    Abort,
    /// Start another game (the one on the board is left).
    NewGame(Box<StartGame>),
    /// Start an endgame drill (a game of its own, in place of the one on the board).
    Drill(StartDrill),
}

impl Weighty {
    /// The question, as the dialog asks it.
    pub fn question(&self, online: bool) -> &'static str {
        match (self, online) {
            (Weighty::Resign, _) => "Resign this game?",
            (Weighty::Abort, _) => "Abort this game? It ends unrated, with no result.",
            (Weighty::NewGame(_), true) => {
                "Leave the game on the server? It goes on there, and your clock with it."
            }
            (Weighty::NewGame(_) | Weighty::Drill(_), false) => {
                "Start a new game? The game in progress ends here."
            }
            (Weighty::Drill(_), true) => {
                "Leave the game on the server for a drill? It goes on there, and your clock with it."
            }
        }
    }

    /// The button that says yes.
    pub fn yes(&self) -> &'static str {
        match self {
            Weighty::Resign => "Resign",
            Weighty::Abort => "Abort",
            Weighty::NewGame(_) => "New game",
            Weighty::Drill(_) => "Start the drill",
        }
    }
}

/// Whether weighty requests are asked again first (the settings file's `ask_first`).
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct AskFirst(pub bool);

impl Default for AskFirst {
    fn default() -> AskFirst {
        AskFirst(true)
    }
}

/// The request waiting for the person's answer, when one is.
#[derive(Resource, Clone, Debug, Default)]
pub struct Question(pub Option<Weighty>);

/// The person's answer to the [`Question`].
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reply {
    Yes,
    No,
}

pub struct ConfirmPlugin;

impl Plugin for ConfirmPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<AskFirst>()
            .init_resource::<Question>()
            .add_message::<Weighty>()
            .add_message::<Reply>()
            .add_systems(
                Update,
                (ask_or_do, take_the_reply, forget_a_question_overtaken)
                    .chain()
                    .in_set(GameSet::Input),
            );
    }
}

/// Whether `weighty` needs asking now: a new game only while a game is in play, a
/// drill only over a game that is not a drill (one drill after another is not asked).
fn needs_asking(weighty: &Weighty, doors: &Doors) -> bool {
    let (game, session) = (&doors.game, &doors.session);
    let in_play = || {
        let begun = game.turn_count() > 0 || !game.played.current_steps().is_empty();
        game.outcome().is_none() && (begun || session.seats.is_online())
    };
    match weighty {
        Weighty::Resign | Weighty::Abort => true,
        Weighty::NewGame(_) => in_play(),
        Weighty::Drill(_) => doors.trainer.drill.is_none() && in_play(),
    }
}

/// The doors a weighty request goes out by.
#[derive(bevy::ecs::system::SystemParam)]
struct Doors<'w> {
    game: Res<'w, CurrentGame>,
    session: Res<'w, Session>,
    end: MessageWriter<'w, EndRequest>,
    online: MessageWriter<'w, OnlineRequest>,
    start: MessageWriter<'w, StartGame>,
    drill: MessageWriter<'w, StartDrill>,
    trainer: Res<'w, Trainer>,
}

impl Doors<'_> {
    /// Does what was asked: a resignation of the game here or on the server, an abort,
    /// a new game.
    fn carry_out(&mut self, weighty: Weighty) {
        let online = self.session.seats.is_online();
        match weighty {
            Weighty::Resign if online => {
                self.online.write(OnlineRequest::Resign);
            }
            Weighty::Resign => {
                if self.game.outcome().is_none() {
                    let g = &self.game;
                    let side = self
                        .session
                        .seats
                        .resigning(g.side_to_move(), g.played.sides());
                    let end = loss_of(g, side, Termination::Resignation);
                    self.end.write(EndRequest(end));
                }
            }
            Weighty::Abort => {
                self.online.write(OnlineRequest::Abort);
            }
            Weighty::NewGame(start) => {
                self.start.write(*start);
            }
            Weighty::Drill(drill) => {
                self.drill.write(drill);
            }
        }
    }
}

/// A weighty request: asked first when it must be, else done at once.
fn ask_or_do(
    mut asked: MessageReader<Weighty>,
    ask_first: Res<AskFirst>,
    mut question: ResMut<Question>,
    mut doors: Doors,
) {
    for weighty in asked.read() {
        if ask_first.0 && needs_asking(weighty, &doors) {
            question.0 = Some(weighty.clone());
        } else {
            doors.carry_out(weighty.clone());
        }
    }
}

/// The person's answer: yes does it, no lets it go.
fn take_the_reply(
    mut replies: MessageReader<Reply>,
    mut question: ResMut<Question>,
    mut doors: Doors,
) {
    for reply in replies.read() {
        let Some(weighty) = question.0.take() else {
            continue;
        };
        if *reply == Reply::Yes {
            doors.carry_out(weighty);
        }
    }
}

/// A question about a game that has ended meanwhile (a flag, the opponent's
/// resignation) is not asked any more; a new game's question stays.
fn forget_a_question_overtaken(game: Res<CurrentGame>, mut question: ResMut<Question>) {
    let about_the_game = matches!(question.0, Some(Weighty::Resign | Weighty::Abort));
    if about_the_game && game.outcome().is_some() {
        question.0 = None;
    }
}
