//! The play page's games: a person at one seat of a [`Match`], agents at
//! the others, and the JSON the page draws (the person's view of the
//! table, the legal moves, the history, and the knowledge panel decided by
//! the engine, as the terminal desk's `know` and `known`).
//!
//! Each request does one thing: the person's move (refused moves leave the
//! game as it was), or one agent's move, so that no request runs for a
//! whole game; the page asks for agents' moves until it is the person's
//! turn. A game lives on a thread of its own (see
//! [`super::pool`]).

use serde::Serialize;

use crate::cards::{LocKind, Size};
use crate::diag::{Diagnostic, Report};
use crate::engine::Agent as Player;
use crate::interp::Options;
use crate::play::{agent_named, views, Agent, Match};
use crate::strategy::knowledge::Checks;

/// A game on the play page.
pub struct WebGame {
    game: Match,
    me: Player,
}

/// What the page asks for when it starts a game.
#[derive(Clone, Debug, serde::Deserialize)]
pub struct NewGame {
    /// The game (`gofish`, `kwartet`, ...).
    pub game: String,
    /// `teaching` (small deck, the default) or `full`.
    pub size: Option<String>,
    /// The deal's seed.
    pub seed: Option<u64>,
    /// The person's seat: a player's name (the first player by default).
    pub me: Option<String>,
    /// An agent per other seat, in seating order: `random` or a built-in
    /// strategy's name for the game (one name: every seat).
    pub agents: Option<Vec<String>>,
}

/// A location as the person sees it.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct Place {
    /// Its name (`1`, `stock`, `books2`).
    pub name: String,
    /// `hand`, `books`, `stock`, `pile` or `slot`.
    pub kind: &'static str,
    /// The player it belongs to, if any.
    pub owner: Option<String>,
    /// Whether it is the person's own hand.
    pub mine: bool,
    /// How many cards lie there.
    pub count: u32,
    /// The cards, when the person sees them (or the teaching switch is on).
    pub cards: Option<Vec<String>>,
}

/// A fact of the knowledge panel.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct Known {
    /// Whom it is about.
    pub about: String,
    /// What kind of fact.
    pub label: String,
    /// The item.
    pub item: String,
    /// The formula the engine decided.
    pub formula: String,
}

/// A played move.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct Move {
    /// Who played it.
    pub player: String,
    /// The move.
    pub text: String,
    /// What the rules did on their own.
    pub notes: Vec<String>,
}

/// What the play page draws.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct GameState {
    /// The game.
    pub game: String,
    /// The seed.
    pub seed: u64,
    /// The players, in seating order.
    pub players: Vec<String>,
    /// Who sits where: `person`, `random`, a strategy's name.
    pub seats: Vec<String>,
    /// The person's player.
    pub me: String,
    /// Whose turn it is (`None` at the end).
    pub turn: Option<String>,
    /// Whether the person is to move.
    pub my_turn: bool,
    /// Whether the game is over.
    pub over: bool,
    /// Why the game ended as it stood at its limit, before its rules
    /// ended it (Kemps' 10,000 turns; [`crate::cards::stopped`]); the
    /// game is then over too.
    pub stopped: Option<String>,
    /// The table as the person sees it.
    pub places: Vec<Place>,
    /// The person's legal moves (empty when it is not their turn).
    pub legal: Vec<String>,
    /// Every move so far.
    pub history: Vec<Move>,
    /// The scores, at the end (in some games they depend on hidden cards).
    pub scores: Option<Vec<i64>>,
    /// The winners, at the end.
    pub winners: Option<Vec<String>>,
    /// What the person knows (first order), decided by the engine; `None`
    /// while agents are still to move (the page keeps the last panel).
    pub know: Option<Vec<Known>>,
    /// What the others know about the person (second order); `None` as
    /// `know`.
    pub known: Option<Vec<Known>>,
}

/// The agent a name stands for at `game`: `random`, or a built-in
/// strategy (`second-order` is `strategies/gofish-second-order.strat`).
/// Names only: the page cannot load files.
pub fn agent_for(checks: &Checks, game: &str, name: &str) -> Result<Box<dyn Agent>, Report> {
    if let Some(agent) = agent_named(name) {
        return Ok(agent);
    }
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
        return Err(Report::from(Diagnostic::unlocated(
            "agent-name",
            format!("{name:?}: an agent is named by letters, digits and `-`"),
        )));
    }
    crate::strategy::agent::built_in_with(checks, game, name)
}

/// The agents the page offers for `game`: `random` and the built-in
/// strategies.
pub fn agents_for(game: &str) -> Vec<String> {
    let prefix = format!("{game}-");
    std::iter::once("random".to_string())
        .chain(
            crate::strategy::BUILT_IN
                .iter()
                .filter_map(|(n, _)| n.strip_prefix(&prefix))
                .filter(|n| *n != "random")
                .map(str::to_string),
        )
        .collect()
}

impl WebGame {
    /// Deals and seats a game; the strategies' checks are kept in
    /// `checks` (the server's).
    pub fn new(req: &NewGame, options: Options, checks: &Checks) -> Result<WebGame, Report> {
        let size: Size = req
            .size
            .as_deref()
            .unwrap_or("small")
            .parse()
            .map_err(|m: String| Diagnostic::unlocated("size", m))?;
        let mut game = Match::new(&req.game, req.seed.unwrap_or(1), size, options)?;
        let players = game.playing().table.players.clone();
        let me = match &req.me {
            None => 0,
            Some(name) => players.iter().position(|p| p == name).ok_or_else(|| {
                Diagnostic::unlocated(
                    "no-player",
                    format!("no player {name:?}; the players are {}", players.join(", ")),
                )
            })?,
        };
        let names = req.agents.clone().unwrap_or_default();
        game.seat_named(&names, Some(me), &mut |name| {
            agent_for(checks, &req.game, name)
        })?;
        Ok(WebGame { game, me })
    }

    /// About how many bytes the game's model takes (see
    /// [`super::lecture::models_bytes`]; the agents' own records are not
    /// counted).
    pub fn estimated_bytes(&self) -> u64 {
        super::lecture::models_bytes(std::iter::once(self.game.session()))
    }

    /// The match.
    pub fn game(&self) -> &Match {
        &self.game
    }

    /// The person's player.
    pub fn me(&self) -> Player {
        self.me
    }

    /// Whether an agent is to move.
    pub fn agents_turn(&self) -> bool {
        !self.game.is_over() && self.game.current_player() != Some(self.me)
    }

    /// The person's move: played when it is one of their legal moves;
    /// otherwise refused with the rule that forbids it (or why it is not
    /// theirs to make), and the game is as it was.
    pub fn person_move(&mut self, text: &str) -> Result<(), String> {
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if self.game.is_over() {
            return Err("the game is over".into());
        }
        if self.game.current_player() != Some(self.me) {
            return Err("it is not your turn".into());
        }
        let legal = self.game.legal_moves();
        if let Some(l) = legal.iter().find(|l| l.text == text) {
            return self
                .game
                .play_legal(l)
                .map(|_| ())
                .map_err(|d| d.message.clone());
        }
        let offered: Vec<&str> = legal.iter().map(|l| l.text.as_str()).collect();
        let why = match self.game.try_move(&text) {
            Err(d) => d.message,
            Ok(()) => "the rules allow this move, but it is not one of yours to make now".into(),
        };
        Err(format!("{why} (your moves now: {})", offered.join(", ")))
    }

    /// One agent's move, when an agent is to move (none after
    /// the game's limit: it is then over).
    pub fn agent_move(&mut self) -> Result<bool, String> {
        if !self.agents_turn() {
            return Ok(false);
        }
        match self.game.agent_move() {
            None => Ok(false),
            Some(Ok(_)) => Ok(true),
            Some(Err(d)) => Err(d.message),
        }
    }

    /// The page's view of the game; `reveal` shows every hand (the
    /// teaching switch). The knowledge panel is decided only when the
    /// person is to move or the game has ended (on a full deck it is some
    /// dozens of queries, and the agents' moves in between need none).
    pub fn state(&self, reveal: bool) -> Result<GameState, String> {
        let g = &self.game;
        let table = &g.playing().table;
        let pos = g.position();
        let name = |p: Player| table.players[p].clone();
        let places = table
            .locations
            .iter()
            .enumerate()
            .map(|(l, loc)| {
                let counts = pos.cards(l);
                let mine = loc.kind == LocKind::Hand(self.me);
                let seen = mine || loc.seen_by.contains(&self.me) || reveal;
                let (kind, owner) = match loc.kind {
                    LocKind::Hand(p) => ("hand", Some(name(p))),
                    LocKind::Books(p) => ("books", Some(name(p))),
                    LocKind::Slot(p, _) => ("slot", Some(name(p))),
                    LocKind::Stock => ("stock", None),
                    LocKind::Pile => ("pile", None),
                };
                Place {
                    name: loc.name.clone(),
                    kind,
                    owner,
                    mine,
                    count: counts.iter().sum(),
                    cards: seen.then(|| {
                        counts
                            .iter()
                            .enumerate()
                            .flat_map(|(k, &n)| {
                                std::iter::repeat_n(table.deck.kinds[k].name.clone(), n as usize)
                            })
                            .collect()
                    }),
                }
            })
            .collect();
        let facts =
            |f: fn(crate::cards::Game, &crate::cards::Position, Player) -> Vec<views::Fact>| {
                views::holding(g, f(g.rules(), &g.position(), self.me))
                    .map(|kept| {
                        kept.into_iter()
                            .map(|f| Known {
                                about: f.about,
                                label: f.label,
                                item: f.item,
                                formula: f.text,
                            })
                            .collect::<Vec<_>>()
                    })
                    .map_err(|d| d.message)
            };
        let over = g.is_over();
        let my_turn = g.current_player() == Some(self.me);
        let panel = !self.agents_turn();
        Ok(GameState {
            game: g.game().to_string(),
            seed: g.seed(),
            players: table.players.clone(),
            seats: g.seats().iter().map(|s| s.name().to_string()).collect(),
            me: name(self.me),
            turn: g.current_player().map(name),
            my_turn,
            over,
            stopped: g.stopped(),
            places,
            legal: if my_turn && !over {
                g.legal_moves().into_iter().map(|l| l.text).collect()
            } else {
                Vec::new()
            },
            history: g
                .history()
                .iter()
                .map(|p| Move {
                    player: name(p.player),
                    text: p.text.clone(),
                    notes: p.notes.clone(),
                })
                .collect(),
            scores: over.then(|| g.scores()),
            winners: over.then(|| g.winners().into_iter().map(name).collect()),
            know: panel.then(|| facts(views::first_order)).transpose()?,
            known: panel.then(|| facts(views::second_order)).transpose()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game at its limit (here a cap of 6 moves) is over as it stands:
    /// no agent moves, the person's moves are refused, the state says why
    /// and offers no move, and the scores and winners are shown.
    #[test]
    fn a_game_stops_at_its_move_cap() {
        let req = NewGame {
            game: "kemps".into(),
            size: None,
            seed: Some(5),
            me: None,
            agents: None,
        };
        let mut g = WebGame::new(&req, Options::default(), &Checks::default()).unwrap();
        g.game.set_move_cap(Some(6));
        while !g.game.is_over() {
            if g.game.current_player() == Some(g.me) {
                let first = g.game.legal_moves()[0].text.clone();
                g.person_move(&first).unwrap();
            } else {
                assert!(g.agent_move().unwrap());
            }
        }
        assert_eq!(g.game.history().len(), 6);
        let s = g.state(false).unwrap();
        assert!(s.over && s.legal.is_empty() && s.turn.is_none());
        assert_eq!(s.stopped.as_deref(), Some("6 moves (--max-moves)"));
        assert_eq!(s.scores, Some(g.game.scores()));
        assert!(!g.agent_move().unwrap());
        assert!(g.person_move("pass 1").is_err());
        assert_eq!(g.game.history().len(), 6);
    }
}
