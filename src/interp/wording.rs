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
use crate::engine::{Agent, Atom, Cmp, Formula};

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
                let [kind] = kinds[..] else {
                    return None;
                };
                // "at least n" or "none", said as narration says them.
                let (cmp, n) = match (cmp, negated) {
                    (c, false) => (*c, *n),
                    (Cmp::Ge, true) => (Cmp::Lt, *n),
                    (Cmp::Lt, true) => (Cmp::Ge, *n),
                    _ => return None,
                };
                let count = match (cmp, n) {
                    (Cmp::Ge, n) if n >= 1 => n,
                    (Cmp::Lt, 1) | (Cmp::Eq, 0) | (Cmp::Le, 0) => 0,
                    _ => return None,
                };
                match location.kind {
                    LocKind::Hand(hand) => {
                        Some(narrate::fact_text(self.table, &Fact { hand, kind, count }))
                    }
                    LocKind::Stock | LocKind::Pile => {
                        let name = &self.table.deck.kinds.get(kind)?.name;
                        Some(match count {
                            0 => format!("the {} holds no {name}", location.name),
                            1 => format!("the {} holds a {name}", location.name),
                            c => format!("the {} holds at least {c} {name}", location.name),
                        })
                    }
                    _ => None,
                }
            }
            Atom::Compare(_) => None,
        }
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
        Some(format!("{who} holds {how} {n} card(s)"))
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
