//! The table: players, the deck and the locations cards can lie in, with who
//! sees each location. This is the static frame every world of a card model
//! shares.

use crate::diag::{suggest, Diagnostic, Span};
use crate::engine::{Agent, Loc};
use crate::syntax::ast::Name;

use super::deck::Deck;
use super::rules::Extra;

/// What a location is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LocKind {
    /// A player's hand, seen by that player.
    Hand(Agent),
    /// The stock: face down, seen by no one.
    Stock,
    /// A declared pile.
    Pile,
    /// A face-down slot in front of a player (`1.2`), seen by no one.
    Slot(Agent, u32),
    /// The books (Go Fish) or sets (Kwartet) a player has laid down, face up.
    Books(Agent),
}

/// A place cards can lie.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// Its name (`1`, `stock`, `table`, `1.2`, `books1`).
    pub name: String,
    /// What it is.
    pub kind: LocKind,
    /// The players who see its contents.
    pub seen_by: Vec<Agent>,
}

/// Players, deck and locations.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Table {
    /// Player names in seating (clockwise) order; a player's index is its [`Agent`].
    pub players: Vec<String>,
    /// The deck.
    pub deck: Deck,
    /// The locations; the first ones are the players' hands, in player order.
    pub locations: Vec<Location>,
    /// With `uncounted`, the extra copies of every kind that the model's
    /// stock holds (the deck's size), so that no count of a kind ever binds
    /// outside the stock; 0 otherwise. No player sees them, no move draws
    /// them, and [`Table::real_cards`] leaves them out.
    pub phantom: u32,
    /// What the game's own declarations set (the Cabo-like game's
    /// `psychic` players), as the game's own type: the game reads and
    /// writes it, nothing else does.
    pub game_setup: Extra,
}

impl Table {
    /// The actual cards `model` has at `loc`, per kind, without the
    /// uncounted stock's extra copies.
    pub fn real_cards(&self, model: &dyn crate::engine::Backend, loc: Loc) -> Vec<u32> {
        let mut cards = model.actual_cards().swap_remove(loc);
        if self.phantom > 0 && loc == self.stock() {
            for n in &mut cards {
                *n = n.saturating_sub(self.phantom);
            }
        }
        cards
    }

    /// A table with a hand per player and a stock.
    pub fn new(players: Vec<String>, deck: Deck) -> Table {
        let mut locations: Vec<Location> = (0..players.len())
            .map(|p| Location {
                name: players[p].clone(),
                kind: LocKind::Hand(p),
                seen_by: vec![p],
            })
            .collect();
        locations.push(Location {
            name: "stock".into(),
            kind: LocKind::Stock,
            seen_by: Vec::new(),
        });
        Table {
            players,
            deck,
            locations,
            phantom: 0,
            game_setup: Extra::default(),
        }
    }

    /// Adds a location and returns its index.
    pub fn add_location(&mut self, name: String, kind: LocKind, seen_by: Vec<Agent>) -> Loc {
        self.locations.push(Location {
            name,
            kind,
            seen_by,
        });
        self.locations.len() - 1
    }

    /// The stock's location.
    pub fn stock(&self) -> Loc {
        self.players.len()
    }

    /// A player's hand.
    pub fn hand(&self, player: Agent) -> Loc {
        player
    }

    /// A player's books pile, if the game has one.
    pub fn books(&self, player: Agent) -> Option<Loc> {
        self.locations
            .iter()
            .position(|l| l.kind == LocKind::Books(player))
    }

    /// The locations each player sees: `observers[p]`.
    pub fn observers(&self) -> Vec<Vec<Loc>> {
        (0..self.players.len())
            .map(|p| {
                (0..self.locations.len())
                    .filter(|&l| self.locations[l].seen_by.contains(&p))
                    .collect()
            })
            .collect()
    }

    /// The player named `text`, if any.
    pub fn find_player(&self, text: &str) -> Option<Agent> {
        self.players.iter().position(|p| p == text)
    }

    /// The player a name stands for, or an error with "did you mean".
    pub fn player(&self, name: &Name) -> Result<Agent, Diagnostic> {
        self.find_player(&name.text).ok_or_else(|| {
            let mut d = Diagnostic::error(
                "unknown-player",
                format!("no player `{}`", name.text),
                name.span,
            )
            .with_label("not a player of this game");
            d.help = Some(match suggest(&name.text, &self.players) {
                Some(s) => format!(
                    "did you mean `{s}`? The players are {}",
                    self.players.join(" ")
                ),
                None if self.players.is_empty() => {
                    "declare the players first: `players 1 2 3`".into()
                }
                None => format!("the players are {}", self.players.join(" ")),
            });
            d
        })
    }

    /// The location a name stands for, if any: a pile, a slot or the stock by
    /// its name; a hand as `hand3`, `H3`, `hand_3`, `hand_Bruno` or just the
    /// player (`3`, `Bruno`); books as `books3`, `books_Bruno`.
    pub fn find_location(&self, text: &str) -> Option<Loc> {
        // `hand[Bruno]` is `hand_Bruno`.
        if let Some((base, who)) = text.strip_suffix(']').and_then(|t| t.split_once('[')) {
            return self.find_location(&format!("{base}_{who}"));
        }
        if let Some(l) = self
            .locations
            .iter()
            .position(|l| l.name == text && !matches!(l.kind, LocKind::Hand(_)))
        {
            return Some(l);
        }
        if let Some(p) = self.find_player(text) {
            return Some(self.hand(p));
        }
        for prefix in ["hand", "H", "books"] {
            let Some(rest) = text.strip_prefix(prefix) else {
                continue;
            };
            let by_name = rest.strip_prefix('_');
            let player = by_name.or_else(|| {
                rest.chars()
                    .all(|c| c.is_ascii_digit())
                    .then_some(rest)
                    .filter(|r| !r.is_empty())
            });
            if let Some(p) = player.and_then(|p| self.find_player(p)) {
                return if prefix == "books" {
                    self.books(p)
                } else {
                    Some(self.hand(p))
                };
            }
        }
        None
    }

    /// The location a name stands for, or an error listing the locations.
    pub fn location(&self, name: &Name) -> Result<Loc, Diagnostic> {
        self.find_location(&name.text)
            .ok_or_else(|| self.unknown_location(&name.text, name.span))
    }

    /// A face-down slot by name (`1.2`), or a located error.
    pub fn slot(&self, name: &Name) -> Result<Loc, Diagnostic> {
        let loc = self.location(name)?;
        match self.locations[loc].kind {
            LocKind::Slot(..) => Ok(loc),
            _ => Err(Diagnostic::error(
                "not-a-slot",
                format!("`{}` is not a face-down slot", name.text),
                name.span,
            )
            .with_help("`peek` looks at a slot such as 1.2, dealt with `deal 1.2: C`")),
        }
    }

    fn unknown_location(&self, text: &str, span: Span) -> Diagnostic {
        let names: Vec<String> = self.locations.iter().map(|l| self.display(l)).collect();
        let hint = match suggest(text, &names) {
            Some(s) => format!("did you mean `{s}`? The locations are {}", names.join(" ")),
            None => format!("the locations are {}", names.join(" ")),
        };
        Diagnostic::error(
            "unknown-location",
            format!("no player or pile `{text}`"),
            span,
        )
        .with_label("not a hand, pile or slot of this game")
        .with_help(hint)
    }

    fn display(&self, l: &Location) -> String {
        match l.kind {
            LocKind::Hand(p) if self.players[p].chars().all(|c| c.is_ascii_digit()) => {
                format!("hand{}", self.players[p])
            }
            LocKind::Hand(p) => format!("hand_{}", self.players[p]),
            _ => l.name.clone(),
        }
    }

    /// A location's name as formulas write it (`hand1`, `stock`, `1.2`).
    pub fn location_name(&self, loc: Loc) -> String {
        self.display(&self.locations[loc])
    }

    /// The next player clockwise.
    pub fn next_player(&self, p: Agent) -> Agent {
        (p + 1) % self.players.len()
    }

    /// Adds a face-up books pile per player ([`books_name`]), for the games
    /// that lay down books or sets.
    pub fn add_books(&mut self) {
        for p in 0..self.players.len() {
            let name = books_name(&self.players[p]);
            let everyone = (0..self.players.len()).collect();
            self.add_location(name, LocKind::Books(p), everyone);
        }
    }
}

/// The name of player `p`'s books pile: `books1`, `books_Bruno`.
pub fn books_name(player: &str) -> String {
    if player.chars().all(|c| c.is_ascii_digit()) {
        format!("books{player}")
    } else {
        format!("books_{player}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Table {
        let mut t = Table::new(
            vec!["1".into(), "2".into(), "Bruno".into()],
            Deck::default(),
        );
        t.add_location("table".into(), LocKind::Pile, vec![0, 1, 2]);
        t.add_location("1.2".into(), LocKind::Slot(0, 2), vec![]);
        t.add_location(books_name("Bruno"), LocKind::Books(2), vec![0, 1, 2]);
        t
    }

    #[test]
    fn location_names() {
        let t = table();
        assert_eq!(t.find_location("hand2"), Some(1));
        assert_eq!(t.find_location("H2"), Some(1));
        assert_eq!(t.find_location("hand_Bruno"), Some(2));
        assert_eq!(t.find_location("Bruno"), Some(2));
        assert_eq!(t.find_location("stock"), Some(3));
        assert_eq!(t.find_location("table"), Some(4));
        assert_eq!(t.find_location("1.2"), Some(5));
        assert_eq!(t.find_location("books_Bruno"), Some(6));
        assert_eq!(t.find_location("hand7"), None);
        assert_eq!(t.find_location("handBruno"), None);
        assert_eq!(t.observers()[0], vec![0, 4, 6]);
    }

    #[test]
    fn unknown_names_suggest() {
        let t = table();
        let name = Name {
            text: "tabel".into(),
            span: Span::new(0, 5),
        };
        let err = t.location(&name).unwrap_err();
        assert_eq!(err.code, "unknown-location");
        assert!(err.help.unwrap().starts_with("did you mean `table`?"));
        let name = Name {
            text: "Brno".into(),
            span: Span::new(0, 4),
        };
        assert!(t
            .player(&name)
            .unwrap_err()
            .help
            .unwrap()
            .starts_with("did you mean `Bruno`?"));
    }
}
