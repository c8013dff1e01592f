//! One game between strategies: a [`Match`] (the one game loop) dealt
//! from the tournament's deal, with a strategy's agent at every seat.

pub use crate::play::GameOutcome;

use std::collections::BTreeMap;

use crate::cards::{Deal as CardDeal, Deck, Referee, Size};
use crate::diag::{Diagnostic, Report};
use crate::interp::Options;
use crate::play::{Match, Seat};
use crate::strategy::agent::StrategyAgent;
use crate::strategy::Strategy;

/// Which deal a game starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Deal {
    /// The referee's deal of this size.
    Referee(Size),
    /// A deck and a hand size, dealt to the referee's full-size players
    /// (`deck ranks A K Q J suits S H D C`, 3; a deck given as text is read
    /// once, by [`read_custom_deck`]).
    Custom {
        /// The deck.
        deck: Deck,
        /// Cards dealt to each player.
        hand: usize,
    },
}

/// A game's deal of `seed`: the referee's, or the custom deck dealt to
/// the referee's full-size players.
pub fn deal_of(game: &str, deal: &Deal, seed: u64) -> Result<CardDeal, Report> {
    let referee = referee_of(game)?;
    match deal {
        Deal::Referee(size) => Ok(referee.deal(seed, *size)),
        Deal::Custom { deck, hand } => Ok(referee.deal_custom(seed, deck.clone(), *hand)?),
    }
}

/// The deck of a custom deal, read once from the `deck ...` line a user
/// gave (`--deck`): the deck, or the reason it is none (the deck's own
/// errors rendered against the line, as `--deck`).
pub fn read_custom_deck(deck_line: &str) -> Result<Deck, Report> {
    let given = deck_line.trim_start_matches("deck").trim_start();
    let first = given.split_whitespace().next().unwrap_or("");
    if first != "deck" && crate::syntax::LANGUAGE_WORDS.contains(&first) {
        return Err(Report::from(Diagnostic::unlocated(
            "custom-deck",
            format!(
                "--deck takes the cards of a deck, such as `Q*4 A*4`, not a `{first}` statement"
            ),
        )));
    }
    Deck::read_line(deck_line).map_err(|d| Report::one("--deck", deck_line, d))
}

/// The referee of a game, or an error naming the games that have one.
pub fn referee_of(game: &str) -> Result<&'static dyn Referee, Report> {
    crate::play::refereed(game).map(|(_, referee)| referee)
}

/// The game's deal as a [`Match`] with no seat taken yet.
pub fn dealt(
    game: &str,
    deal: &Deal,
    seed: u64,
    options: impl Into<Options>,
) -> Result<Match, Report> {
    let options = options.into();
    let described = match deal {
        Deal::Referee(size) => format!("size {size}"),
        Deal::Custom { deck, hand } => format!("deck {}, {hand} card(s) each", deck.line()),
    };
    Match::with_deal(game, deal_of(game, deal, seed)?, described, options)
}

/// Plays a game to its end, or to its limit (`max_moves` moves when
/// given, else the game's own: [`crate::cards::stopped`]), where it ends as
/// it stands (its scores so far, [`GameOutcome::capped`]): `seats[i]`
/// plays player `i`. With the outcome, how many moves each rule of each
/// seat's strategy chose (seat by seat, by rule name: Kemps' `block`
/// among them).
pub fn play_game(
    game: &str,
    deal: &Deal,
    seed: u64,
    seats: &[&Strategy],
    options: impl Into<Options>,
    max_moves: impl Into<Option<usize>>,
) -> Result<(GameOutcome, Vec<BTreeMap<String, u64>>), Report> {
    let mut m = dealt(game, deal, seed, options)?;
    let agents = seats
        .iter()
        .map(|s| Box::new(StrategyAgent::new((*s).clone())) as Box<dyn crate::play::Agent>)
        .collect();
    m.seat_agents(agents, None)?;
    m.set_move_cap(max_moves.into());
    m.play_agents().map_err(|mut d| {
        d.message = format!("game {seed}: {}", d.message);
        Report::from(d)
    })?;
    let fired = m
        .seats()
        .iter()
        .map(|seat| match seat {
            Seat::Agent { agent, .. } => agent.rules_fired().unwrap_or_default(),
            Seat::Person => BTreeMap::new(),
        })
        .collect();
    Ok((m.outcome(), fired))
}
