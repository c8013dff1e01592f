//! A seeded deal as a value: the game, the players, the deck (a typed
//! [`Deck`]), the cards at each place, the stock's order, the psychic
//! players and the opening moves (typed [`Opening`]s), with one printer to
//! scenario text ([`Deal::to_text`]) and one reader back
//! ([`Deal::from_text`]). A referee deals from the typed deck and never
//! reads text; its setup is its deal printed, so a played game still goes
//! through the parser and the interpreter like any scenario.

use crate::diag::Diagnostic;
use crate::syntax::ast::{MoveKind, StatementKind};

use super::deck::Deck;

/// The comment a deal starts with, which also records its seed.
const SEEDED: &str = "# a seeded deal (seed ";

/// The comment before `uncounted` in a deal.
const UNCOUNTED: &str = "# the players do not count cards (the report's model)";

/// A whole game's start.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Deal {
    /// The game's name (`game NAME`).
    pub game: String,
    /// The seed the deck was shuffled with.
    pub seed: u64,
    /// The players, in seat order.
    pub players: Vec<String>,
    /// The seats of the psychic players (`psychic P`), in order.
    pub psychic: Vec<usize>,
    /// The deck: its kinds in order, each with its name and copies;
    /// written back as a `deck` line by [`Deck::line`].
    pub deck: Deck,
    /// Whether the players do not count cards (`uncounted`).
    pub uncounted: bool,
    /// The cards dealt to each place (a hand, a pile, a slot), in order.
    pub parts: Vec<(String, Vec<String>)>,
    /// The stock, top first.
    pub stock: Vec<String>,
    /// The opening moves, played before the first turn (the Cabo-like
    /// game's peeks).
    pub opening: Vec<Opening>,
}

/// A move a deal opens with, before the first turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Opening {
    /// `peek P PLACE`: the player at seat `player` looks at the card at
    /// `place` (a slot of the Cabo-like game).
    Peek {
        /// The seat of the player who looks.
        player: usize,
        /// The place looked at.
        place: String,
    },
}

impl Deal {
    /// The deal with the players at `seats` (indices into
    /// [`players`](Deal::players)) declared psychic, in the order given.
    pub fn with_psychic(mut self, seats: &[usize]) -> Deal {
        for &s in seats {
            if s < self.players.len() && !self.psychic.contains(&s) {
                self.psychic.push(s);
            }
        }
        self
    }

    /// The deal as scenario text: a comment with the seed, `game`,
    /// `players`, `psychic`, `deck`, `uncounted`, `deal`, `stock` and the
    /// opening moves, one statement a line.
    pub fn to_text(&self) -> String {
        let mut out = format!(
            "{SEEDED}{})\ngame {}\nplayers {}\n",
            self.seed,
            self.game,
            self.players.join(" ")
        );
        if !self.psychic.is_empty() {
            let names: Vec<&str> = self
                .psychic
                .iter()
                .map(|&s| self.players[s].as_str())
                .collect();
            out.push_str(&format!("psychic {}\n", names.join(" ")));
        }
        if !self.deck.kinds.is_empty() {
            out.push_str(&format!("deck {}\n", self.deck.line()));
        }
        if self.uncounted {
            out.push_str(&format!("{UNCOUNTED}\nuncounted\n"));
        }
        if !self.parts.is_empty() {
            let parts: Vec<String> = self
                .parts
                .iter()
                .map(|(place, cards)| format!("{place}: {}", cards.join(" ")))
                .collect();
            out.push_str(&format!("deal {}\n", parts.join(" | ")));
        }
        if !self.stock.is_empty() {
            out.push_str(&format!("stock {}\n", self.stock.join(" ")));
        }
        for opening in &self.opening {
            match opening {
                Opening::Peek { player, place } => {
                    out.push_str(&format!("peek {} {place}\n", self.players[*player]));
                }
            }
        }
        out
    }

    /// Reads a deal written by [`to_text`](Deal::to_text) (or by hand in
    /// its form): the `peek`s after the deal are its opening moves. A
    /// statement that does not parse, a deck the deck's rules refuse, a
    /// `psychic` or peeking player not among the players, or a statement
    /// that is no part of a deal is an error, located in `text`.
    pub fn from_text(text: &str) -> Result<Deal, Diagnostic> {
        let scenario = crate::syntax::parse(text).map_err(|errors| errors[0].to_diagnostic())?;
        let mut deal = Deal::default();
        if let Some(rest) = text.lines().next().and_then(|l| l.strip_prefix(SEEDED)) {
            deal.seed = rest.trim_end_matches(')').parse().unwrap_or(0);
        }
        let seat = |players: &[String], n: &crate::syntax::ast::Name| {
            players.iter().position(|p| *p == n.text).ok_or_else(|| {
                Diagnostic::error("unknown-player", format!("no player `{}`", n.text), n.span)
            })
        };
        for stmt in &scenario.statements {
            match &stmt.kind {
                StatementKind::Game(name) => deal.game = name.text.to_string(),
                StatementKind::Players(names) => {
                    deal.players = names.iter().map(|n| n.text.to_string()).collect();
                }
                StatementKind::Deck(spec) => deal.deck = Deck::from_spec(spec)?,
                StatementKind::Uncounted => deal.uncounted = true,
                StatementKind::Deal(parts) => deal.parts.extend(parts.iter().map(|p| {
                    (
                        p.location.text.to_string(),
                        p.cards.iter().map(|c| c.text.to_string()).collect(),
                    )
                })),
                StatementKind::Stock(cards) => {
                    deal.stock = cards.iter().map(|c| c.text.to_string()).collect();
                }
                StatementKind::Move(mv) => match &mv.kind {
                    MoveKind::Peek { player, slot } => deal.opening.push(Opening::Peek {
                        player: seat(&deal.players, player)?,
                        place: slot.text.to_string(),
                    }),
                    // The Cabo-like game's declaration, in a game's form.
                    MoveKind::Game { word, args } if word.text == "psychic" => {
                        for n in args {
                            deal.psychic.push(seat(&deal.players, n)?);
                        }
                    }
                    _ => return Err(not_a_deal(stmt.span)),
                },
                _ => return Err(not_a_deal(stmt.span)),
            }
        }
        Ok(deal)
    }
}

/// A statement that is no part of a deal.
fn not_a_deal(span: crate::diag::Span) -> Diagnostic {
    Diagnostic::error("not-a-deal", "this is no part of a deal", span).with_help(
        "a deal holds `game`, `players`, `psychic`, `deck`, `uncounted`, `deal`, `stock` and opening `peek`s",
    )
}
