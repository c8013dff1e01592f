//! A seeded deal as a value: the game, the players, the deck (a typed
//! [`Deck`]), the cards at each place, the stock's order, the game's own
//! declarations (typed [`Declaration`]s) and the opening moves (typed
//! [`Opening`]s). A session is dealt the value itself
//! (`interp::Session::deal`); [`Deal::to_text`] prints it as the first
//! statements of a played game's scenario, and [`Deal::from_text`] reads
//! such text back. A referee deals from the typed deck and never reads
//! text.

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
    /// The game's own declarations (the Cabo-like game's players who look
    /// at cards unnoticed), in order.
    pub declarations: Vec<Declaration>,
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

/// A declaration of the deal's game about some of its players, in the
/// generic form of a game's words: `WORD P...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Declaration {
    /// The game's word.
    pub word: String,
    /// The seats of the players it declares, in order.
    pub seats: Vec<usize>,
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
    /// [`players`](Deal::players)) in the game's declaration `word`, in
    /// the order given (each once; a seat that is no player's is left
    /// out).
    pub fn with_declared(mut self, word: &str, seats: &[usize]) -> Deal {
        let n = self.players.len();
        let at = match self.declarations.iter().position(|d| d.word == word) {
            Some(at) => at,
            None => {
                self.declarations.push(Declaration {
                    word: word.to_string(),
                    seats: Vec::new(),
                });
                self.declarations.len() - 1
            }
        };
        let declared = &mut self.declarations[at].seats;
        for &s in seats {
            if s < n && !declared.contains(&s) {
                declared.push(s);
            }
        }
        if declared.is_empty() {
            self.declarations.remove(at);
        }
        self
    }

    /// The seats the game's declaration `word` declares (none when the
    /// deal has no such declaration).
    pub fn declared(&self, word: &str) -> &[usize] {
        self.declarations
            .iter()
            .find(|d| d.word == word)
            .map_or(&[], |d| &d.seats)
    }

    /// The deal as scenario text: a comment with the seed, `game`,
    /// `players`, the game's declarations, `deck`, `uncounted`, `deal`,
    /// `stock` and the opening moves, one statement a line.
    pub fn to_text(&self) -> String {
        let mut out = format!(
            "{SEEDED}{})\ngame {}\nplayers {}\n",
            self.seed,
            self.game,
            self.players.join(" ")
        );
        for d in &self.declarations {
            let names: Vec<&str> = d.seats.iter().map(|&s| self.players[s].as_str()).collect();
            out.push_str(&format!("{} {}\n", d.word, names.join(" ")));
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
    /// its form): the `peek`s after the deal are its opening moves, and a
    /// game's word with players (`WORD P...`) before them is one of the
    /// game's declarations. A statement that does not parse, a deck the
    /// deck's rules refuse, a declared or peeking player not among the
    /// players, or a statement that is no part of a deal is an error,
    /// located in `text`.
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
                    // A declaration of the game, in a game's form.
                    MoveKind::Game { word, args } if deal.opening.is_empty() => {
                        let seats = args
                            .iter()
                            .map(|n| seat(&deal.players, n))
                            .collect::<Result<Vec<_>, _>>()?;
                        deal = deal.with_declared(&word.text, &seats);
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
        "a deal holds `game`, `players`, the game's declarations, `deck`, `uncounted`, `deal`, `stock` and opening `peek`s",
    )
}
