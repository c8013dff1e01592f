//! Formulas in words, for questions that carry no text of their own.
//!
//! A card atom about a hand is said the way narration says it
//! ([`narrate::fact_text`]: `player 2 holds QQ`, `player 2 holds no Q`);
//! the operators read as a lecturer reads them (`player 1 knows that ...`,
//! `it is common knowledge that ...`). A formula with a part that has no
//! wording here (a term comparison, an update) is not worded at all, and
//! the question shows the formula as written instead.

use crate::cards::rules::describe_player;
use crate::cards::{LocKind, Table};
use crate::engine::formula::Term;
use crate::engine::{Agent, Atom, Cmp, Formula};
use crate::syntax::ast;

use super::narrate::{self, Fact};

/// The words for `f`, or `None` when a part of it has none.
pub fn words(table: &Table, props: &[String], f: &Formula) -> Option<String> {
    Words { table, props }.say(f)
}

/// A yes-or-no question about `f`: `Does player 1 know that player 2
/// holds no Q?`; `written` when `f` has no words.
pub fn yes_no(table: &Table, props: &[String], f: &Formula, written: &str) -> String {
    let w = Words { table, props };
    let asked = match single(f) {
        Formula::K(a, inner) => w
            .say(inner)
            .map(|x| format!("Does {} know that {x}?", w.who(*a))),
        Formula::M(a, inner) => w
            .say(inner)
            .map(|x| format!("Does {} consider it possible that {x}?", w.who(*a))),
        Formula::Kw(a, inner) => w
            .say(inner)
            .map(|x| format!("Does {} know whether {x}?", w.who(*a))),
        Formula::C(g, inner) => w
            .say(inner)
            .map(|x| format!("Is it common knowledge{} that {x}?", w.among(g))),
        _ => w.say(f).map(|x| format!("Is it true that {x}?")),
    };
    asked.unwrap_or_else(|| format!("Is `{written}` true?"))
}

/// `Which players know that ...?`
pub fn who_knows(table: &Table, props: &[String], f: &Formula, written: &str) -> String {
    match words(table, props, f) {
        Some(x) => format!("Which players know that {x}?"),
        None => format!("Which players know `{written}`?"),
    }
}

/// `f`, or its one operand when it is a conjunction or disjunction of one
/// (`2_Q` is the conjunction of its cards).
fn single(f: &Formula) -> &Formula {
    match f {
        Formula::And(xs) | Formula::Or(xs) if xs.len() == 1 => single(&xs[0]),
        _ => f,
    }
}

struct Words<'a> {
    table: &'a Table,
    props: &'a [String],
}

impl Words<'_> {
    fn who(&self, a: Agent) -> String {
        describe_player(self.table, a)
    }

    fn group(&self, g: &[Agent]) -> String {
        let names: Vec<String> = g.iter().map(|&a| self.who(a)).collect();
        match names.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
            _ => names.join(""),
        }
    }

    /// ` among player 1 and player 2`, or nothing for every player.
    fn among(&self, g: &[Agent]) -> String {
        if g.len() == self.table.players.len() {
            String::new()
        } else {
            format!(" among {}", self.group(g))
        }
    }

    fn say(&self, f: &Formula) -> Option<String> {
        Some(match single(f) {
            Formula::Top => "true holds".into(),
            Formula::Bottom => "false holds".into(),
            Formula::Atom(a) => self.atom(a, false)?,
            Formula::Not(inner) => self.negated(inner)?,
            Formula::And(parts) => self.list(parts, "and")?,
            Formula::Or(parts) => format!("either {}", self.list(parts, "or")?),
            Formula::Implies(a, b) => format!("if {}, then {}", self.say(a)?, self.say(b)?),
            Formula::Iff(a, b) => format!("{} exactly when {}", self.say(a)?, self.say(b)?),
            Formula::K(a, x) => format!("{} knows that {}", self.who(*a), self.say(x)?),
            Formula::M(a, x) => format!(
                "{} considers it possible that {}",
                self.who(*a),
                self.say(x)?
            ),
            Formula::Kw(a, x) => format!("{} knows whether {}", self.who(*a), self.say(x)?),
            Formula::E(g, x) => format!("{} all know that {}", self.group(g), self.say(x)?),
            Formula::C(g, x) => format!(
                "it is common knowledge{} that {}",
                self.among(g),
                self.say(x)?
            ),
            Formula::D(g, x) => format!("{} together know that {}", self.group(g), self.say(x)?),
            _ => return None,
        })
    }

    fn list(&self, parts: &[Formula], word: &str) -> Option<String> {
        // `a | b | c` is `(a | b) | c`: said as one list.
        let mut flat = Vec::new();
        let mut todo: Vec<&Formula> = parts.iter().rev().collect();
        while let Some(p) = todo.pop() {
            match (single(p), word) {
                (Formula::Or(xs), "or") | (Formula::And(xs), "and") => {
                    todo.extend(xs.iter().rev());
                }
                (q, _) => flat.push(q),
            }
        }
        let said: Option<Vec<String>> = flat.iter().map(|p| self.say(p)).collect();
        let said = said?;
        (!said.is_empty()).then(|| said.join(&format!(" {word} ")))
    }

    fn negated(&self, inner: &Formula) -> Option<String> {
        Some(match single(inner) {
            Formula::Atom(a) => self.atom(a, true)?,
            Formula::Not(x) => self.say(x)?,
            Formula::K(a, x) => format!("{} does not know that {}", self.who(*a), self.say(x)?),
            Formula::Kw(a, x) => {
                format!("{} does not know whether {}", self.who(*a), self.say(x)?)
            }
            Formula::M(a, x) => format!(
                "{} considers it impossible that {}",
                self.who(*a),
                self.say(x)?
            ),
            Formula::C(g, x) => format!(
                "it is not common knowledge{} that {}",
                self.among(g),
                self.say(x)?
            ),
            _ => format!("it is not the case that {}", self.say(inner)?),
        })
    }

    /// A card atom about a hand (or a pile), or a proposition.
    fn atom(&self, a: &Atom, negated: bool) -> Option<String> {
        match a {
            Atom::Prop(p) => {
                let name = self.props.get(*p)?;
                if name.contains('#') {
                    return None;
                }
                Some(if negated {
                    format!("{name} is false")
                } else {
                    format!("{name} is true")
                })
            }
            Atom::Count { loc, kinds, cmp, n } => {
                let location = self.table.locations.get(*loc)?;
                let whole = kinds.len() == self.table.deck.kinds.len() && kinds.len() > 1;
                if let (true, &LocKind::Hand(hand)) = (whole, &location.kind) {
                    return self.hand_size(hand, *cmp, *n, negated);
                }
                let cmp = if negated { negate(*cmp) } else { *cmp };
                let n = *n;
                let holder = match location.kind {
                    LocKind::Hand(hand) => self.who(hand),
                    LocKind::Stock | LocKind::Pile => format!("the {}", pile_name(&location.name)),
                    LocKind::Slot(p, i) => format!("slot {i} of {}", self.who(p)),
                    LocKind::Books(p) => format!("the books of {}", self.who(p)),
                };
                let [kind] = kinds[..] else {
                    // `hand2(<8,1>,<8,2>,<8,3>,<8,4>) >= 2`: cards of a set.
                    let names: Vec<String> = kinds
                        .iter()
                        .map(|&k| self.table.deck.kinds.get(k).map(|x| x.name.to_string()))
                        .collect::<Option<_>>()?;
                    let how = match (cmp, n) {
                        (Cmp::Ge, 1) => "one or more".to_string(),
                        (Cmp::Lt, 1) | (Cmp::Eq, 0) | (Cmp::Le, 0) => "none".to_string(),
                        _ => format!("{} {n}", how_many(cmp)),
                    };
                    return Some(format!(
                        "{holder} holds {how} of the cards {}",
                        and_list(&names)
                    ));
                };
                // "at least n" or "none", said as narration says them.
                let count = match (cmp, n) {
                    (Cmp::Ge, n) if n >= 1 => n,
                    (Cmp::Lt, 1) | (Cmp::Eq, 0) | (Cmp::Le, 0) => 0,
                    _ => {
                        let name = &self.table.deck.kinds.get(kind)?.name;
                        return Some(format!("{holder} holds {} {n} {name}", how_many(cmp)));
                    }
                };
                match location.kind {
                    LocKind::Hand(hand) => {
                        Some(narrate::fact_text(self.table, &Fact { hand, kind, count }))
                    }
                    _ => {
                        let name = &self.table.deck.kinds.get(kind)?.name;
                        Some(match count {
                            0 => format!("{holder} holds no {name}"),
                            1 => format!("{holder} holds {name}"),
                            c => format!("{holder} holds at least {c} {name}"),
                        })
                    }
                }
            }
            Atom::Compare(c) => {
                let left = self.term(&c.left)?;
                let right = self.term(&c.right)?;
                let cmp = if negated { negate(c.cmp) } else { c.cmp };
                let is = match cmp {
                    Cmp::Eq => "is",
                    Cmp::Ne => "is not",
                    Cmp::Lt => "is less than",
                    Cmp::Le => "is at most",
                    Cmp::Gt => "is more than",
                    Cmp::Ge => "is at least",
                };
                Some(format!("{left} {is} {right}"))
            }
        }
    }

    /// A term in words: `the day`, `14`, `the sum of x and y`.
    fn term(&self, t: &Term) -> Option<String> {
        Some(match t {
            Term::Const(c) => c.to_string(),
            Term::Var(bits) => {
                let name = self.props.get(*bits.first()?)?;
                let var = name.split('#').next()?;
                format!("the {var}")
            }
            Term::Add(a, b) => format!("the sum of {} and {}", self.term(a)?, self.term(b)?),
            Term::Sub(a, b) => format!("the difference of {} and {}", self.term(a)?, self.term(b)?),
            Term::Mul(a, b) => format!("the product of {} and {}", self.term(a)?, self.term(b)?),
        })
    }

    /// `player 1 holds 2 card(s)`, `... at least 2 ...`: a whole hand counted.
    fn hand_size(&self, hand: Agent, cmp: Cmp, n: u32, negated: bool) -> Option<String> {
        let who = self.who(hand);
        let how = match (cmp, negated) {
            (Cmp::Eq, false) | (Cmp::Ne, true) => "exactly",
            (Cmp::Ne, false) | (Cmp::Eq, true) => "other than",
            (Cmp::Ge, false) | (Cmp::Lt, true) => "at least",
            (Cmp::Le, false) | (Cmp::Gt, true) => "at most",
            (Cmp::Gt, false) | (Cmp::Le, true) => "more than",
            (Cmp::Lt, false) | (Cmp::Ge, true) => "fewer than",
        };
        let cards = if n == 1 { "card" } else { "cards" };
        Some(format!("{who} holds {how} {n} {cards}"))
    }
}

/// `exactly`, `at least`, ... before a number.
fn how_many(cmp: Cmp) -> &'static str {
    match cmp {
        Cmp::Eq => "exactly",
        Cmp::Ne => "other than",
        Cmp::Ge => "at least",
        Cmp::Le => "at most",
        Cmp::Gt => "more than",
        Cmp::Lt => "fewer than",
    }
}

/// `f` in the scenario language, near enough to read (term comparisons
/// and updates are elided): what a witness shows when `f` has no words.
pub fn written(table: &Table, props: &[String], f: &Formula) -> String {
    let w = |x: &Formula| written(table, props, x);
    let who = |a: &Agent| agent(table, *a);
    let group = |g: &[Agent]| {
        let names: Vec<String> = g.iter().map(|&a| table.players[a].clone()).collect();
        format!("{{{}}}", names.join(","))
    };
    let join = |xs: &[Formula], op: &str| {
        let parts: Vec<String> = xs.iter().map(|x| format!("({})", w(x))).collect();
        parts.join(op)
    };
    match f {
        Formula::Top => "true".into(),
        Formula::Bottom => "false".into(),
        Formula::Atom(Atom::Prop(p)) => props.get(*p).cloned().unwrap_or_default(),
        Formula::Atom(Atom::Count { loc, kinds, cmp, n }) => {
            let names: Vec<&str> = kinds
                .iter()
                .map(|&k| table.deck.kinds[k].name.as_str())
                .collect();
            let place = table.location_name(*loc);
            let what = if kinds.len() == table.deck.kinds.len() {
                String::new()
            } else {
                format!("({})", names.join(","))
            };
            match (cmp, n) {
                (Cmp::Ge, 1) if !what.is_empty() => format!("{place}{what}"),
                _ => format!("{place}{what} {} {n}", cmp_text(*cmp)),
            }
        }
        Formula::Atom(Atom::Compare(_)) => "(a comparison of terms)".into(),
        Formula::Not(x) => format!("!({})", w(x)),
        Formula::And(xs) => join(xs, " & "),
        Formula::Or(xs) => join(xs, " | "),
        Formula::Implies(a, b) => format!("({}) -> ({})", w(a), w(b)),
        Formula::Iff(a, b) => format!("({}) <-> ({})", w(a), w(b)),
        Formula::K(a, x) => format!("K{} {}", who(a), w(x)),
        Formula::M(a, x) => format!("M{} {}", who(a), w(x)),
        Formula::Kw(a, x) => format!("Kw{} {}", who(a), w(x)),
        Formula::E(g, x) => format!("E{} {}", group(g), w(x)),
        Formula::C(g, x) => format!("C{} {}", group(g), w(x)),
        Formula::D(g, x) => format!("D{} {}", group(g), w(x)),
        Formula::Announce(a, x) => format!("[!{}] {}", w(a), w(x)),
        Formula::AnnounceDiamond(a, x) => format!("<!{}> {}", w(a), w(x)),
        Formula::Update(_, x) => format!("[a move] {}", w(x)),
        Formula::UpdateDiamond(_, x) => format!("<a move> {}", w(x)),
    }
}

/// A player after an operator letter: `1` or `_Bruno`.
pub fn agent(table: &Table, a: Agent) -> String {
    let name = &table.players[a];
    if name.chars().all(|c| c.is_ascii_digit()) {
        name.clone()
    } else {
        format!("_{name}")
    }
}

fn cmp_text(c: Cmp) -> &'static str {
    match c {
        Cmp::Lt => "<",
        Cmp::Le => "<=",
        Cmp::Eq => "=",
        Cmp::Ne => "!=",
        Cmp::Ge => ">=",
        Cmp::Gt => ">",
    }
}

/// A pile's name as words: a word and a number glued to it are said
/// apart (`forehead1` is `forehead 1`, `hat_2` is `hat 2`).
pub fn pile_name(name: &str) -> String {
    let mut out = String::new();
    let mut last: Option<char> = None;
    for c in name
        .chars()
        .map(|c| if matches!(c, '_' | '-') { ' ' } else { c })
    {
        if let Some(l) = last {
            if l.is_alphabetic() != c.is_alphabetic() && (l.is_ascii_digit() || c.is_ascii_digit())
            {
                out.push(' ');
            }
        }
        out.push(c);
        last = Some(c);
    }
    out
}

/// A card or rank as the scenario names it, in words with its article:
/// `Q` is `a queen`, `8` `an 8`, `QS` `the queen of spades`, `10H` `the
/// 10 of hearts`; any other name `the card M`.
pub fn card_words(name: &str) -> String {
    fn rank(r: &str) -> Option<&'static str> {
        Some(match r {
            "A" => "ace",
            "K" => "king",
            "Q" => "queen",
            "J" => "jack",
            _ => return None,
        })
    }
    fn number(r: &str) -> bool {
        !r.is_empty() && r.len() <= 2 && r.chars().all(|c| c.is_ascii_digit())
    }
    let article = |word: &str| {
        if word.starts_with(['a', 'e', 'i', 'o', 'u', '8']) || word == "11" || word == "18" {
            format!("an {word}")
        } else {
            format!("a {word}")
        }
    };
    if let Some(r) = rank(name) {
        return article(r);
    }
    if number(name) {
        return article(name);
    }
    let suit = match name.chars().last() {
        Some('S') => "spades",
        Some('H') => "hearts",
        Some('D') => "diamonds",
        Some('C') => "clubs",
        _ => "",
    };
    let r = &name[..name.len() - 1];
    if !suit.is_empty() {
        if let Some(word) = rank(r) {
            return format!("the {word} of {suit}");
        }
        if number(r) {
            return format!("the {r} of {suit}");
        }
    }
    format!("the card {name}")
}

/// A player or place the scenario names: `player 2`, `Sally`, `the
/// basket`, `the forehead 1`.
fn place_words(table: &Table, name: &str) -> String {
    match table.players.iter().position(|p| p == name) {
        Some(a) => describe_player(table, a),
        None => format!("the {}", pile_name(name)),
    }
}

/// A move in words, for a student who should not read the scenario
/// language: `player 1 asks player 2 for a queen`, `player 2 draws a card`
/// (the card drawn is not said: the other players do not see it), `it is
/// announced that ...`. `formula` resolves a formula of the move (`None`:
/// it cannot be, or has no words: the move is then said without it).
pub fn move_words(
    table: &Table,
    props: &[String],
    m: &ast::MoveKind,
    formula: impl Fn(&ast::Formula) -> Option<Formula>,
) -> String {
    let place = |n: &ast::Name| place_words(table, &n.text);
    let said = |f: &ast::Formula| formula(f).and_then(|phi| words(table, props, &phi));
    match m {
        ast::MoveKind::Announce(f) => match said(f) {
            Some(x) => format!("it is announced that {x}"),
            None => "an announcement is made".into(),
        },
        ast::MoveKind::Transfer { card, from, to } => format!(
            "{} goes from {} to {}",
            card_words(&card.text),
            place(from),
            place(to)
        ),
        ast::MoveKind::SecretTransfer {
            card,
            from,
            to,
            unseen,
        } => {
            let who: Vec<String> = unseen.iter().map(|n| place_words(table, &n.text)).collect();
            format!(
                "{} goes from {} to {}, unseen by {}",
                card_words(&card.text),
                place(from),
                place(to),
                and_list(&who)
            )
        }
        ast::MoveKind::Send {
            from,
            to,
            what,
            lost,
        } => {
            let message = match said(what) {
                Some(x) => format!("a message saying that {x}"),
                None => "a message".into(),
            };
            let fate = if *lost { ", which is lost" } else { "" };
            format!("{} sends {} {message}{fate}", place(from), place(to))
        }
        ast::MoveKind::Draw { player, from, .. } => match from {
            Some(pile) => format!("{} draws a card from {}", place(player), place(pile)),
            None => format!("{} draws a card", place(player)),
        },
        ast::MoveKind::Show { from, to, card } => format!(
            "{} shows {} to {}",
            place(from),
            card_words(&card.text),
            place(to)
        ),
        ast::MoveKind::Reveal { player, card } => format!(
            "{} shows {} to everybody",
            place(player),
            card_words(&card.text)
        ),
        ast::MoveKind::Peek { player, slot } => {
            format!("{} looks at the card in slot {}", place(player), slot.text)
        }
        ast::MoveKind::Ask { asker, asked, card } => format!(
            "{} asks {} for {}",
            place(asker),
            place(asked),
            card_words(&card.text)
        ),
        ast::MoveKind::Apply(name) => format!("the event {} happens", name.text),
        ast::MoveKind::Game { word, args } => {
            let mut said = vec![word.text.to_string()];
            said.extend(args.iter().map(|a| a.text.to_string()));
            said.join(" ")
        }
    }
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(xs: &[String]) -> String {
    match xs.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => xs.join(""),
    }
}

/// The comparison that holds exactly when `c` does not.
fn negate(c: Cmp) -> Cmp {
    match c {
        Cmp::Eq => Cmp::Ne,
        Cmp::Ne => Cmp::Eq,
        Cmp::Lt => Cmp::Ge,
        Cmp::Ge => Cmp::Lt,
        Cmp::Le => Cmp::Gt,
        Cmp::Gt => Cmp::Le,
    }
}
