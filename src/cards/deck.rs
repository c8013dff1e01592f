//! Decks: card kinds, their attributes (rank, suit, set, value), and how
//! written card names and patterns resolve to kinds.
//!
//! A *kind* is one card face; a deck may hold several copies of a kind
//! (`deck Q*4 A*4` has two kinds with four copies each). Names are
//! case-insensitive and suit symbols are read as letters (`6♠` is `6S`).

use crate::diag::{suggest, Diagnostic};
use crate::engine::Kind;
use crate::syntax::ast::{DeckItem, DeckSpec, Name, StatementKind};

/// One card kind of a deck.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardKind {
    /// The canonical name (`QH`, `Q`, `<8,4>`, `7`).
    pub name: String,
    /// The rank (`Q`, `10`, `7`), when the card has one; a set card's rank is its set.
    pub rank: Option<String>,
    /// The suit letter (`S`, `H`, `D`, `C`), when the card has one.
    pub suit: Option<char>,
    /// Set and member of a set card `<t,v>`.
    pub set: Option<(u32, u32)>,
    /// The numeric value of a value card (`0`..`12`) or a numeric rank.
    pub value: Option<u32>,
    /// How many copies the deck holds.
    pub copies: u32,
}

impl CardKind {
    /// The rank's name (`Q`, `<8,*>`'s set), or the card's own name when it
    /// has no rank.
    pub fn rank_name(&self) -> String {
        self.rank.clone().unwrap_or_else(|| self.name.clone())
    }
}

/// A deck: its card kinds in declaration order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Deck {
    /// The kinds; a [`Kind`] is an index into this list.
    pub kinds: Vec<CardKind>,
}

/// Canonical form of a written card: upper case, suit symbols as letters, no spaces.
pub fn normalise(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| match c {
            '♠' | '♤' => 'S',
            '♥' | '♡' => 'H',
            '♦' | '♢' => 'D',
            '♣' | '♧' => 'C',
            c => c.to_ascii_uppercase(),
        })
        .collect()
}

/// Splits `10H` into rank `10` and suit `H` when it has that shape.
fn rank_suit(name: &str) -> Option<(String, char)> {
    let suit = name.chars().last()?;
    let rank = &name[..name.len() - 1];
    let is_rank = matches!(rank, "A" | "J" | "Q" | "K") || rank.parse::<u32>().is_ok();
    (matches!(suit, 'S' | 'H' | 'D' | 'C') && is_rank).then(|| (rank.to_string(), suit))
}

/// Reads `<8,4>` as set 8, member 4.
fn set_card(name: &str) -> Option<(u32, u32)> {
    let inner = name.strip_prefix('<')?.strip_suffix('>')?;
    let (t, v) = inner.split_once(',')?;
    Some((t.parse().ok()?, v.parse().ok()?))
}

/// Reads `0..12` as a value range.
fn value_range(name: &str) -> Option<(u32, u32)> {
    let (a, b) = name.split_once("..")?;
    Some((a.parse().ok()?, b.parse().ok()?))
}

impl CardKind {
    /// A kind from its canonical name, with its attributes read off the name.
    pub fn named(name: String, copies: u32) -> CardKind {
        let mut kind = CardKind {
            rank: Some(name.clone()),
            suit: None,
            set: None,
            value: name.parse().ok(),
            copies,
            name,
        };
        if let Some((rank, suit)) = rank_suit(&kind.name) {
            kind.value = rank.parse().ok();
            kind.rank = Some(rank);
            kind.suit = Some(suit);
        } else if let Some((t, v)) = set_card(&kind.name) {
            kind.name = format!("<{t},{v}>");
            kind.rank = Some(t.to_string());
            kind.set = Some((t, v));
            kind.value = None;
        }
        kind
    }
}

/// The ranks of a tarock suit, strongest first: red suits count their
/// number cards downwards (1 beats 4), black suits upwards (10 beats 7).
pub fn tarock_ranks(suit: char) -> &'static [&'static str] {
    match suit {
        'H' | 'D' => &["K", "Q", "C", "J", "1", "2", "3", "4"],
        _ => &["K", "Q", "C", "J", "10", "9", "8", "7"],
    }
}

/// The tarock deck: four suits of eight (king, queen, cavalier `C`, jack,
/// four number cards) and 22 trumps `T1`..`T21` and `SKUS` (the fool, the
/// highest trump here, value 22). Trumps have suit `T`. The Königrufen
/// report's `reduced` deck leaves out each suit's lowest card (4 of the red
/// suits, 7 of the black) and the trumps 2 and 3: 48 cards.
fn tarock(reduced: bool) -> Vec<CardKind> {
    let mut kinds = Vec::new();
    for suit in ['H', 'D', 'S', 'C'] {
        let ranks = tarock_ranks(suit);
        let keep = if reduced {
            ranks.len() - 1
        } else {
            ranks.len()
        };
        for rank in &ranks[..keep] {
            kinds.push(CardKind {
                name: format!("{rank}{suit}"),
                rank: Some(rank.to_string()),
                suit: Some(suit),
                set: None,
                value: rank.parse().ok(),
                copies: 1,
            });
        }
    }
    for n in (1..=22).filter(|&n| !(reduced && (n == 2 || n == 3))) {
        kinds.push(CardKind {
            name: if n == 22 {
                "SKUS".into()
            } else {
                format!("T{n}")
            },
            rank: Some("T".into()),
            suit: Some('T'),
            set: None,
            value: Some(n),
            copies: 1,
        });
    }
    kinds
}

/// The most kinds of card a deck may have (a value range, `ranks` and
/// `sets` included): checked as each kind is added, so no declaration
/// allocates more.
pub const MAX_KINDS: usize = 1000;

/// The most cards (copies counted) a deck may have.
pub const MAX_CARDS: u64 = 1_000_000;

impl Deck {
    /// Builds a deck from its declaration.
    pub fn from_spec(spec: &DeckSpec) -> Result<Deck, Diagnostic> {
        let mut deck = Deck::default();
        match spec {
            DeckSpec::Kinds(items) => {
                for item in items {
                    deck.add_item(item)?;
                }
            }
            DeckSpec::RanksSuits { ranks, suits } => {
                for rank in ranks {
                    for suit in suits {
                        let name = normalise(&format!("{}{}", rank.text, suit.text));
                        deck.add(CardKind::named(name, 1), &rank.span.to(suit.span))?;
                    }
                }
            }
            DeckSpec::Tarock {
                reduced,
                cards,
                span,
            } => deck.add_tarock(*reduced, cards, span)?,
            DeckSpec::Sets {
                first,
                last,
                members,
                span,
            } => {
                if first > last || *members == 0 {
                    return Err(
                        Diagnostic::error("bad-deck", "this deck has no cards", *span)
                            .with_help("write the sets as `sets 1..13 of 4`"),
                    );
                }
                for t in *first..=*last {
                    for v in 1..=*members {
                        deck.add(CardKind::named(format!("<{t},{v}>"), 1), span)?;
                    }
                }
            }
        }
        Ok(deck)
    }

    /// The deck a `deck ...` line declares, read by the scenario grammar:
    /// the edge where a deck given as text (a tournament's `--deck`)
    /// becomes a [`Deck`], or a diagnostic located in `line`.
    pub fn read_line(line: &str) -> Result<Deck, Diagnostic> {
        let statements =
            crate::syntax::parse_statement(line).map_err(|errors| errors[0].to_diagnostic())?;
        let help = "write a deck such as `deck Q*4 A*4` or `deck ranks A K Q J suits S H D C`";
        match statements.as_slice() {
            [] => Err(Diagnostic::unlocated("bad-deck", "no deck was given").with_help(help)),
            [one] => match &one.kind {
                StatementKind::Deck(spec) => Deck::from_spec(spec),
                _ => Err(
                    Diagnostic::error("bad-deck", "this is not a deck", one.span).with_help(help),
                ),
            },
            [_, second, ..] => {
                Err(
                    Diagnostic::error("bad-deck", "only one deck can be given", second.span)
                        .with_help(help),
                )
            }
        }
    }

    /// `deck ranks R.. suits S..`: one card of each rank in each suit,
    /// rank by rank (`ranks 2..6 suits S H D C`: 2S 2H 2D 2C 3S ...).
    pub fn ranks_suits(ranks: &[&str], suits: &[char]) -> Deck {
        let kinds = ranks
            .iter()
            .flat_map(|r| {
                suits
                    .iter()
                    .map(move |s| CardKind::named(normalise(&format!("{r}{s}")), 1))
            })
            .collect();
        Deck { kinds }
    }

    /// `deck A..B*N`: the values `A..=B`, `copies` cards of each.
    pub fn values(values: std::ops::RangeInclusive<u32>, copies: u32) -> Deck {
        let kinds = values
            .map(|v| CardKind::named(v.to_string(), copies))
            .collect();
        Deck { kinds }
    }

    /// `deck sets A..B of N`: the sets `A..=B` with members `1..=N`, cards
    /// `<t,v>`.
    pub fn sets(sets: std::ops::RangeInclusive<u32>, members: u32) -> Deck {
        let kinds = sets
            .flat_map(|t| (1..=members).map(move |v| CardKind::named(format!("<{t},{v}>"), 1)))
            .collect();
        Deck { kinds }
    }

    /// `deck tarock` (all 54 cards) or `deck tarock reduced` (the
    /// Königrufen report's 48).
    pub fn tarock(reduced: bool) -> Deck {
        Deck {
            kinds: tarock(reduced),
        }
    }

    /// `deck tarock T1 KH ...`: the tarock cards named, in the order given
    /// (a name that is no tarock card is left out).
    pub fn tarock_cards(names: &[&str]) -> Deck {
        let all = tarock(false);
        let kinds = names
            .iter()
            .filter_map(|n| all.iter().find(|k| k.name == normalise(n)).cloned())
            .collect();
        Deck { kinds }
    }

    /// Every card of the deck, copies counted: each kind's name as many
    /// times as it has copies, kind by kind (the order a deal shuffles).
    pub fn cards(&self) -> Vec<String> {
        self.kinds
            .iter()
            .flat_map(|k| std::iter::repeat_n(k.name.clone(), k.copies as usize))
            .collect()
    }

    /// The deck as written after `deck`, in the shortest form that reads
    /// back to this very deck (kinds, order, copies and attributes):
    /// `tarock` or `tarock reduced`, `sets 1..13 of 4`, `ranks 2..10 J Q K
    /// A suits S H D C`, items such as `0..12*4` or `Q*4 A*4 7S`, or
    /// `tarock KH QH T4` for some tarock cards. A deck no form writes
    /// (its kinds set by hand) is written as its items.
    pub fn line(&self) -> String {
        let kinds = &self.kinds;
        if kinds.is_empty() {
            return String::new();
        }
        if *kinds == tarock(false) {
            return "tarock".into();
        }
        if *kinds == tarock(true) {
            return "tarock reduced".into();
        }
        if let Some(line) = self.sets_line() {
            return line;
        }
        if let Some(line) = self.ranks_line() {
            return line;
        }
        let plain = |k: &CardKind| *k == CardKind::named(k.name.clone(), k.copies);
        let all = tarock(false);
        if !kinds.iter().all(plain) && kinds.iter().all(|k| all.contains(k)) {
            let names: Vec<&str> = kinds.iter().map(|k| k.name.as_str()).collect();
            return format!("tarock {}", names.join(" "));
        }
        self.items_line()
    }

    /// `sets A..B of N`, when the deck is exactly that.
    fn sets_line(&self) -> Option<String> {
        let (first, _) = self.kinds.first()?.set?;
        let (last, members) = self.kinds.last()?.set?;
        (first <= last && *self == Deck::sets(first..=last, members))
            .then(|| format!("sets {first}..{last} of {members}"))
    }

    /// `ranks R.. suits S..` (two ranks and two suits at least), when the
    /// deck is exactly that.
    fn ranks_line(&self) -> Option<String> {
        let first = self.kinds.first()?;
        let suits: Vec<char> = self
            .kinds
            .iter()
            .take_while(|k| k.rank.is_some() && k.rank == first.rank)
            .map(|k| k.suit)
            .collect::<Option<_>>()?;
        if suits.len() < 2 || !self.kinds.len().is_multiple_of(suits.len()) {
            return None;
        }
        let ranks: Vec<&str> = self
            .kinds
            .iter()
            .step_by(suits.len())
            .map(|k| k.rank.as_deref())
            .collect::<Option<_>>()?;
        if ranks.len() < 2 || *self != Deck::ranks_suits(&ranks, &suits) {
            return None;
        }
        let suits: Vec<String> = suits.iter().map(char::to_string).collect();
        Some(format!(
            "ranks {} suits {}",
            runs(&ranks).join(" "),
            suits.join(" ")
        ))
    }

    /// The kinds as items: `Q*4 A*4 7S`, three or more consecutive values
    /// with the same copies as a range (`0..12*4`).
    fn items_line(&self) -> String {
        let mut items = Vec::new();
        let mut i = 0;
        while i < self.kinds.len() {
            let k = &self.kinds[i];
            let copies = |n: u32| {
                if n == 1 {
                    String::new()
                } else {
                    format!("*{n}")
                }
            };
            let mut j = i + 1;
            if let Some(v) = number(&k.name) {
                while j < self.kinds.len()
                    && self.kinds[j].copies == k.copies
                    && number(&self.kinds[j].name) == v.checked_add((j - i) as u32)
                {
                    j += 1;
                }
                if j - i >= 3 {
                    items.push(format!(
                        "{v}..{}{}",
                        v + (j - i - 1) as u32,
                        copies(k.copies)
                    ));
                    i = j;
                    continue;
                }
            }
            items.push(format!("{}{}", k.name, copies(k.copies)));
            i += 1;
        }
        items.join(" ")
    }

    /// `deck tarock`: all 54 cards; `reduced`: the Königrufen report's 48;
    /// with cards: those tarock cards only.
    fn add_tarock(
        &mut self,
        reduced: bool,
        cards: &[Name],
        span: &crate::diag::Span,
    ) -> Result<(), Diagnostic> {
        let all = tarock(reduced);
        if cards.is_empty() {
            for kind in all {
                self.add(kind, span)?;
            }
            return Ok(());
        }
        let full = Deck { kinds: all };
        for card in cards {
            let text = normalise(&card.text);
            match full.kinds.iter().find(|k| k.name == text) {
                Some(kind) => self.add(kind.clone(), &card.span)?,
                None => {
                    let mut d = full.unknown(card);
                    d.message = format!("no card `{}` in the tarock deck", card.text);
                    d.help = Some(format!(
                        "{}; tarock cards are T1..T21, SKUS and KH QH CH JH 1H..4H, KS QS CS JS 10S..7S (and D, C alike)",
                        d.help.unwrap_or_default()
                    ));
                    return Err(d);
                }
            }
        }
        Ok(())
    }

    fn add_item(&mut self, item: &DeckItem) -> Result<(), Diagnostic> {
        let text = normalise(&item.card.text);
        if item.copies == 0 {
            return Err(Diagnostic::error(
                "bad-deck",
                "a card kind needs at least one copy",
                item.card.span,
            )
            .with_label("zero copies"));
        }
        if let Some((a, b)) = value_range(&text) {
            if a > b {
                return Err(Diagnostic::error(
                    "bad-deck",
                    "an empty range of values",
                    item.card.span,
                )
                .with_help(format!("write the smaller value first: {b}..{a}")));
            }
            if (b - a) as usize >= MAX_KINDS {
                return Err(Diagnostic::error(
                    "bad-deck",
                    format!("the range {a}..{b} has too many values"),
                    item.card.span,
                )
                .with_help(format!("a deck may have at most {MAX_KINDS} kinds of card")));
            }
            for v in a..=b {
                self.add(CardKind::named(v.to_string(), item.copies), &item.card.span)?;
            }
            return Ok(());
        }
        if text.contains('*') {
            return Err(Diagnostic::error(
                "bad-deck",
                format!("`{}` is a pattern, not a card", item.card.text),
                item.card.span,
            )
            .with_help("a deck lists cards with their copies, like `Q*4 A*4`"));
        }
        self.add(CardKind::named(text, item.copies), &item.card.span)
    }

    fn add(&mut self, kind: CardKind, span: &crate::diag::Span) -> Result<(), Diagnostic> {
        if self.kinds.len() >= MAX_KINDS {
            return Err(Diagnostic::error(
                "bad-deck",
                format!("this deck has more than {MAX_KINDS} kinds of card"),
                *span,
            )
            .with_help(format!("a deck may have at most {MAX_KINDS} kinds of card")));
        }
        if u64::from(self.total()) + u64::from(kind.copies) > MAX_CARDS {
            return Err(Diagnostic::error(
                "bad-deck",
                format!(
                    "this deck has more than {} cards",
                    crate::diag::thousands(MAX_CARDS)
                ),
                *span,
            )
            .with_help(format!(
                "a deck may have at most {} cards, copies counted",
                crate::diag::thousands(MAX_CARDS)
            )));
        }
        if self.kinds.iter().any(|k| k.name == kind.name) {
            return Err(Diagnostic::error(
                "bad-deck",
                format!("card `{}` is declared twice", kind.name),
                *span,
            )
            .with_help("give the copies once, like `Q*4`"));
        }
        self.kinds.push(kind);
        Ok(())
    }

    /// The total number of cards (copies counted).
    pub fn total(&self) -> u32 {
        self.kinds.iter().map(|k| k.copies).sum()
    }

    /// The kinds' copies, indexed by kind.
    pub fn copies(&self) -> Vec<u32> {
        self.kinds.iter().map(|k| k.copies).collect()
    }

    /// A short description for hints: `Q A`, or `2S .. 6C (20 cards)`.
    pub fn describe(&self) -> String {
        let names: Vec<&str> = self.kinds.iter().map(|k| k.name.as_str()).collect();
        match names.len() {
            0 => "no cards".into(),
            1..=12 => names.join(" "),
            n => format!("{} .. {} ({n} kinds)", names[0], names[n - 1]),
        }
    }

    /// The kind named exactly by `name` (a single card, not a pattern).
    pub fn card(&self, name: &Name) -> Result<Kind, Diagnostic> {
        let text = normalise(&name.text);
        if let Some(k) = self.kinds.iter().position(|k| k.name == text) {
            return Ok(k);
        }
        let matches = self.pattern_kinds(&text);
        if !matches.is_empty() {
            let listed: Vec<&str> = matches
                .iter()
                .map(|&k| self.kinds[k].name.as_str())
                .collect();
            return Err(Diagnostic::error(
                "ambiguous-card",
                format!("`{}` names {} cards, not one", name.text, matches.len()),
                name.span,
            )
            .with_label("say which card")
            .with_help(format!("one of {}", listed.join(" "))));
        }
        Err(self.unknown(name))
    }

    /// The kinds a card name or pattern stands for: `6S`, `Q` (every Q of a
    /// suited deck), `6*`, `*S`, `<8,*>`, `0..6`, `*`.
    pub fn pattern(&self, name: &Name) -> Result<Vec<Kind>, Diagnostic> {
        let text = normalise(&name.text);
        if let Some(k) = self.kinds.iter().position(|k| k.name == text) {
            return Ok(vec![k]);
        }
        let matches = self.pattern_kinds(&text);
        if matches.is_empty() {
            return Err(self.unknown(name));
        }
        Ok(matches)
    }

    fn pattern_kinds(&self, text: &str) -> Vec<Kind> {
        let kinds = |test: &dyn Fn(&CardKind) -> bool| -> Vec<Kind> {
            (0..self.kinds.len())
                .filter(|&k| test(&self.kinds[k]))
                .collect()
        };
        if text == "*" {
            kinds(&|_| true)
        } else if let Some((a, b)) = value_range(text) {
            kinds(&|k| k.value.is_some_and(|v| a <= v && v <= b))
        } else if let Some(rank) = text.strip_suffix('*') {
            kinds(&|k| k.rank.as_deref() == Some(rank))
        } else if let Some(suit) = text.strip_prefix('*') {
            let suit = suit.chars().next();
            kinds(&|k| k.suit.is_some() && k.suit == suit)
        } else if let Some(set) = text.strip_prefix('<').and_then(|t| t.strip_suffix(",*>")) {
            let set: Option<u32> = set.parse().ok();
            kinds(&|k| set.is_some() && k.set.map(|s| s.0) == set)
        } else {
            kinds(&|k| k.suit.is_some() && k.rank.as_deref() == Some(text))
        }
    }

    fn unknown(&self, name: &Name) -> Diagnostic {
        let names: Vec<String> = self.kinds.iter().map(|k| k.name.clone()).collect();
        let mut d = Diagnostic::error(
            "unknown-card",
            format!("no card `{}` in this deck", name.text),
            name.span,
        )
        .with_label("not a card of the deck");
        let hint = match suggest(&normalise(&name.text), &names) {
            Some(s) => format!("did you mean `{s}`? The deck has {}", self.describe()),
            None => format!("the deck has {}", self.describe()),
        };
        d.help = Some(hint);
        d
    }

    /// The ranks of the deck in order of first appearance, each with its kinds
    /// (Go Fish books: all cards of one rank).
    pub fn ranks(&self) -> Vec<(String, Vec<Kind>)> {
        let mut ranks: Vec<(String, Vec<Kind>)> = Vec::new();
        for (k, kind) in self.kinds.iter().enumerate() {
            let rank = kind.rank_name();
            match ranks.iter_mut().find(|(r, _)| *r == rank) {
                Some((_, kinds)) => kinds.push(k),
                None => ranks.push((rank, vec![k])),
            }
        }
        ranks
    }

    /// Whether every kind's name is one character, so hands print as `QQA`.
    pub fn short_names(&self) -> bool {
        self.kinds.iter().all(|k| k.name.chars().count() == 1)
    }

    /// Writes a multiset of cards (`counts[kind]`): `QQA` for one-letter
    /// names, `2H 5H 4H` otherwise, `-` when empty.
    pub fn show_cards(&self, counts: &[u32]) -> String {
        let mut parts = Vec::new();
        for (k, &n) in counts.iter().enumerate() {
            for _ in 0..n {
                parts.push(self.kinds[k].name.as_str());
            }
        }
        if parts.is_empty() {
            "-".into()
        } else if self.short_names() {
            parts.concat()
        } else {
            parts.join(" ")
        }
    }
}

/// The number a name writes in its plain form (`7`, not `07`).
fn number(name: &str) -> Option<u32> {
    name.parse::<u32>().ok().filter(|v| v.to_string() == name)
}

/// Ranks as written in `ranks ...`: three or more consecutive numbers as
/// a range (`2..10 J Q K A`).
fn runs(ranks: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < ranks.len() {
        let mut j = i + 1;
        if let Some(v) = number(ranks[i]) {
            while j < ranks.len() && number(ranks[j]) == v.checked_add((j - i) as u32) {
                j += 1;
            }
            if j - i >= 3 {
                out.push(format!("{v}..{}", v + (j - i - 1) as u32));
                i = j;
                continue;
            }
        }
        out.push(ranks[i].to_string());
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Span;

    fn name(text: &str) -> Name {
        Name {
            text: text.into(),
            span: Span::new(0, text.len()),
        }
    }

    fn kinds(items: &[(&str, u32)]) -> Deck {
        let items = items
            .iter()
            .map(|(c, n)| DeckItem {
                card: name(c),
                copies: *n,
            })
            .collect();
        Deck::from_spec(&DeckSpec::Kinds(items)).unwrap()
    }

    #[test]
    fn ranks_and_suits() {
        let spec = DeckSpec::RanksSuits {
            ranks: ["2", "10", "Q"].iter().map(|r| name(r)).collect(),
            suits: ["S", "H"].iter().map(|s| name(s)).collect(),
        };
        let deck = Deck::from_spec(&spec).unwrap();
        assert_eq!(deck.total(), 6);
        assert_eq!(deck.card(&name("10h")).unwrap(), 3);
        assert_eq!(deck.card(&name("Q♠")).unwrap(), 4);
        assert_eq!(deck.pattern(&name("Q")).unwrap(), vec![4, 5]);
        assert_eq!(deck.pattern(&name("*H")).unwrap(), vec![1, 3, 5]);
        assert_eq!(deck.pattern(&name("10*")).unwrap(), vec![2, 3]);
        let err = deck.card(&name("Q")).unwrap_err();
        assert_eq!(err.code, "ambiguous-card");
        assert_eq!(err.help.as_deref(), Some("one of QS QH"));
    }

    #[test]
    fn copies_values_and_sets() {
        let deck = kinds(&[("Q", 4), ("A", 4)]);
        assert_eq!(deck.copies(), vec![4, 4]);
        assert_eq!(deck.card(&name("a")).unwrap(), 1);
        assert_eq!(
            deck.ranks(),
            vec![("Q".into(), vec![0]), ("A".into(), vec![1])]
        );
        assert_eq!(deck.show_cards(&[2, 1]), "QQA");
        let values = kinds(&[("0..3", 2)]);
        assert_eq!(values.total(), 8);
        assert_eq!(values.pattern(&name("1..2")).unwrap(), vec![1, 2]);
        let sets = Deck::from_spec(&DeckSpec::Sets {
            first: 7,
            last: 8,
            members: 4,
            span: Span::default(),
        })
        .unwrap();
        assert_eq!(sets.card(&name("<8, 4>")).unwrap(), 7);
        assert_eq!(sets.pattern(&name("<8,*>")).unwrap(), vec![4, 5, 6, 7]);
    }

    #[test]
    fn unknown_cards_get_a_suggestion() {
        let deck = kinds(&[("Q", 4), ("A", 4)]);
        let err = deck.card(&name("K")).unwrap_err();
        assert_eq!(err.code, "unknown-card");
        assert_eq!(err.message, "no card `K` in this deck");
        assert_eq!(
            err.help.as_deref(),
            Some("did you mean `Q`? The deck has Q A")
        );
        let dup = Deck::from_spec(&DeckSpec::Kinds(vec![
            DeckItem {
                card: name("Q"),
                copies: 1,
            },
            DeckItem {
                card: name("q"),
                copies: 1,
            },
        ]));
        assert_eq!(dup.unwrap_err().message, "card `Q` is declared twice");
    }

    /// The deck a `deck` line declares, read by the grammar.
    fn read(line: &str) -> Deck {
        Deck::read_line(line).unwrap_or_else(|d| panic!("{line}: {d:?}"))
    }

    #[test]
    fn each_built_deck_is_the_deck_its_line_declares_and_prints_that_line() {
        let ranks = [
            "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A",
        ];
        let cases = [
            (
                Deck::ranks_suits(&ranks, &['S', 'H', 'D', 'C']),
                "ranks 2..10 J Q K A suits S H D C",
            ),
            (
                Deck::ranks_suits(&["A", "K", "Q"], &['S', 'H', 'D']),
                "ranks A K Q suits S H D",
            ),
            (Deck::values(0..=12, 4), "0..12*4"),
            (Deck::values(1..=6, 1), "1..6"),
            (Deck::sets(1..=13, 4), "sets 1..13 of 4"),
            (Deck::tarock(false), "tarock"),
            (Deck::tarock(true), "tarock reduced"),
            (
                Deck::tarock_cards(&["KH", "QH", "1H", "2H", "KS", "QS", "9S", "T4"]),
                "tarock KH QH 1H 2H KS QS 9S T4",
            ),
        ];
        for (deck, line) in cases {
            assert_eq!(deck, read(&format!("deck {line}")), "{line}");
            assert_eq!(deck.line(), line);
        }
        assert_eq!(Deck::tarock(false).total(), 54);
        assert_eq!(Deck::tarock(true).total(), 48);
        assert_eq!(
            Deck::tarock_cards(&["T4", "nonesuch", "skus"]).line(),
            "tarock T4 SKUS"
        );
    }

    #[test]
    fn a_deck_prints_a_line_that_reads_back_to_it() {
        for (written, line) in [
            ("deck Q*4 A*4", "Q*4 A*4"),
            ("deck 0..3*3 7S", "0..3*3 7S"),
            ("deck 1 2 4*2", "1 2 4*2"),
            ("deck 3 4 5 6*2", "3..5 6*2"),
            ("deck <8,4> <8,1>", "<8,4> <8,1>"),
            ("deck sets 2..3 of 2", "sets 2..3 of 2"),
            ("deck ranks 9 10 J suits H", "9H 10H JH"),
            ("deck ranks 9 10 J suits X Y", "9X 9Y 10X 10Y JX JY"),
            ("deck tarock KH QH", "KH QH"),
            ("deck tarock CH 1H", "tarock CH 1H"),
            ("deck 2S 2H 3S 3H", "ranks 2 3 suits S H"),
        ] {
            let deck = read(written);
            assert_eq!(deck.line(), line, "{written}");
            assert_eq!(read(&format!("deck {line}")), deck, "{written}");
        }
        assert_eq!(Deck::default().line(), "");
        assert_eq!(Deck::values(0..=1, 2).cards(), ["0", "0", "1", "1"]);
    }
}
