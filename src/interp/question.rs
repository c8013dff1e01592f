//! Exercises: the answer to a `question` and, for an answer given, whether
//! it is right and why.
//!
//! [`ask`] decides a question in the actual world of the current model: a
//! yes-or-no question by model checking, a number by counting worlds (the
//! counts `expect considers` and `expect worlds where` use), a "who" by
//! asking `K_a φ` of every player. [`check`] compares an answer with it and
//! explains a yes-or-no or "who" answer by a [`Witness`]: a world the player
//! (or the group) considers possible where the formula has the value that
//! decides, or the whole class when every world of it decides. A witness is
//! found in the model and shown by its world line, so a front end (and a
//! test) can ask it again. A model too large to list is explained by the
//! per-card view of a card the formula mentions (`why φ for CARD`).

use std::collections::HashSet;
use std::fmt;

use num_bigint::BigUint;

use crate::cards::rules::{describe_location, describe_player};
use crate::diag::{Diagnostic, Span};
use crate::engine::{Agent, Atom, Backend, Formula, GroupAccess, Kind, WorldId};
use crate::syntax::ast::{self, Ask};

use super::errors;
use super::explain::{count_text, world_line};
use super::per_card::PerCard;
use super::resolve::Scope;
use super::session::WorldNames;
use super::wording;

/// The most worlds of a class an explanation lists.
pub const LISTED: usize = 6;

/// The answer to a question.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Yes (true) or no.
    YesNo(bool),
    /// A number of worlds.
    Number(BigUint),
    /// Players, in seating order.
    Players(Vec<String>),
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Answer::YesNo(true) => f.write_str("yes"),
            Answer::YesNo(false) => f.write_str("no"),
            Answer::Number(n) => write!(f, "{n}"),
            Answer::Players(p) if p.is_empty() => f.write_str("nobody"),
            Answer::Players(p) => f.write_str(&p.join(" ")),
        }
    }
}

impl Answer {
    /// Reads a given answer of the same sort as `self`: `y`/`yes`/`n`/`no`
    /// (also `true`/`false`), a number, or players separated by blanks or
    /// commas (`nobody`, `none` or `-` for none); the error says what was
    /// expected.
    pub fn read(&self, text: &str, players: &[String]) -> Result<Answer, String> {
        let t = text.trim();
        match self {
            Answer::YesNo(_) => match t.to_lowercase().as_str() {
                "y" | "yes" | "true" | "t" => Ok(Answer::YesNo(true)),
                "n" | "no" | "false" | "f" => Ok(Answer::YesNo(false)),
                _ => Err(format!("`{t}`: answer y or n")),
            },
            Answer::Number(_) => t
                .replace(',', "")
                .parse::<BigUint>()
                .map(Answer::Number)
                .map_err(|_| format!("`{t}`: answer with a number, such as 4")),
            Answer::Players(_) => {
                let lower = t.to_lowercase();
                if matches!(lower.as_str(), "nobody" | "none" | "-" | "no one") {
                    return Ok(Answer::Players(Vec::new()));
                }
                let mut given = Vec::new();
                for word in t.split([' ', ',', '\t']).filter(|w| !w.is_empty()) {
                    match players.iter().position(|p| p.eq_ignore_ascii_case(word)) {
                        Some(i) => given.push(i),
                        None => {
                            return Err(format!(
                                "`{word}` is not a player (the players are {}; `nobody` for none)",
                                players.join(", ")
                            ))
                        }
                    }
                }
                given.sort_unstable();
                given.dedup();
                Ok(Answer::Players(
                    given.into_iter().map(|i| players[i].clone()).collect(),
                ))
            }
        }
    }

    /// The opposite of a yes-or-no answer.
    pub fn opposite(&self) -> Option<Answer> {
        match self {
            Answer::YesNo(v) => Some(Answer::YesNo(!v)),
            _ => None,
        }
    }
}

/// A question decided in the actual world.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Asked {
    /// The question in words: the text written, or dealer's wording.
    pub text: String,
    /// What is asked, as written after `question` (and its text).
    pub formula: String,
    /// The answer.
    pub answer: Answer,
}

/// The worlds a witness is taken among.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Access {
    /// The worlds the player considers possible in the actual world.
    Player(Agent),
    /// The worlds a group considers possible in the sense of `E`, `C` or `D`.
    Group(GroupAccess, Vec<Agent>),
}

/// Evidence for an answer, to be found again in the model.
#[derive(Clone, Debug)]
pub enum Witness {
    /// `world` is among `access` and `formula` has `value` there.
    World {
        /// Among which worlds.
        access: Access,
        /// The world.
        world: WorldId,
        /// The formula.
        formula: Formula,
        /// Its value at the world.
        value: bool,
    },
    /// `formula` has `value` in every world of `access`.
    Every {
        /// Which worlds.
        access: Access,
        /// The formula.
        formula: Formula,
        /// Its value in each.
        value: bool,
    },
    /// `formula` has `value` in the actual world.
    Actual {
        /// The formula.
        formula: Formula,
        /// Its value.
        value: bool,
    },
}

/// Whether a given answer is right, and why.
#[derive(Clone, Debug)]
pub struct Verdict {
    /// Whether it matched the model's answer.
    pub right: bool,
    /// The explanation (empty when right).
    pub lines: Vec<String>,
    /// The evidence the explanation shows (empty when right, and for a
    /// model too large to list).
    pub witnesses: Vec<Witness>,
}

/// What a question is decided against.
pub struct Context<'a> {
    /// Name resolution.
    pub scope: &'a Scope<'a>,
    /// The current model.
    pub model: &'a dyn Backend,
    /// The written names of its worlds, if any.
    pub names: Option<&'a WorldNames>,
    /// The text the question's spans point into.
    pub src: &'a str,
}

impl Context<'_> {
    fn text(&self, span: Span) -> String {
        self.src
            .get(span.start..span.end)
            .unwrap_or("?")
            .trim()
            .to_string()
    }

    fn who(&self, a: Agent) -> String {
        describe_player(self.scope.table, a)
    }

    fn world(&self, w: WorldId) -> String {
        world_line(
            self.scope.table,
            self.scope.props,
            self.names,
            self.model,
            w,
        )
    }

    fn engine<T>(
        &self,
        r: Result<T, crate::engine::EngineError>,
        span: Span,
    ) -> Result<T, Diagnostic> {
        r.map_err(|e| errors::engine(&e, span))
    }

    fn worlds_of(&self, access: &Access) -> Vec<WorldId> {
        let actual = self.model.actual();
        match access {
            Access::Player(a) => self.model.accessible(*a, actual),
            Access::Group(g, agents) => self.model.group_accessible(*g, agents, actual),
        }
    }

    fn exact(&self, span: Span) -> Result<(), Diagnostic> {
        if self.model.counts_exact() {
            return Ok(());
        }
        Err(Diagnostic::error(
            "count-not-exact",
            "this symbolic model's states were not contracted to worlds, so a number question has no exact answer",
            span,
        )
        .with_help("ask a yes-or-no question (K, C, M) instead"))
    }

    fn listable(&self, span: Span) -> Result<(), Diagnostic> {
        self.model.listable().map_err(|e| {
            Diagnostic::error(
                "too-many-to-list",
                format!("`question worlds where` counts worlds one by one, and this model has too many: {e}"),
                span,
            )
            .with_help("ask `question considers P` or a yes-or-no question instead")
        })
    }
}

/// Whether `f` speaks of belief: `Some(Some((player, φ)))` for `B_player
/// φ` itself, `Some(None)` for a formula with a `B` inside, `None` for one
/// without.
fn believed(f: &ast::Formula) -> Option<Option<(&ast::Name, &ast::Formula)>> {
    use ast::FormulaKind as F;
    let inside = |f: &ast::Formula| f.any(&|g| matches!(g.kind, F::B(..)));
    match &f.kind {
        F::B(who, g) if !inside(g) => Some(Some((who, &**g))),
        _ if inside(f) => Some(None),
        _ => None,
    }
}

/// Whether `f` has a knowledge operator (`K`, `Kw`) of its own, besides
/// its beliefs: its words cannot all be said as belief.
fn knows_inside(f: &ast::Formula) -> bool {
    f.any(&|g| matches!(g.kind, ast::FormulaKind::K(..) | ast::FormulaKind::Kw(..)))
}

/// Knowledge words said as belief: `Does Sally know that Anne knows
/// that ...` is `Does Sally believe that Anne believes that ...`.
fn believe(text: &str) -> String {
    text.replace(" does not know that ", " does not believe that ")
        .replace(" knows that ", " believes that ")
        .replace(" know that ", " believe that ")
}

/// Decides `q` in the actual world (`span`: the statement's).
pub fn ask(cx: &Context, q: &ast::Question, span: Span) -> Result<Asked, Diagnostic> {
    let table = cx.scope.table;
    let props = cx.scope.props;
    let (formula, worded, answer) = match &q.ask {
        Ask::YesNo(f) => {
            let phi = cx.scope.formula(f)?;
            let written = cx.text(f.span);
            let value = cx.engine(cx.model.eval_actual(&phi), f.span)?;
            let worded = match believed(f) {
                // `B1 φ` is `K1 φ` to the engine: worded from what was written.
                Some(Some((who, inner))) => {
                    let a = cx.scope.agent(who)?;
                    let inner = cx.scope.formula(inner)?;
                    wording::words(table, props, &inner).map_or_else(
                        || format!("Is `{written}` true?"),
                        |x| format!("Does {} believe that {x}?", cx.who(a)),
                    )
                }
                // Beliefs inside: the engine reads `B` as its `K`, and in a
                // model of beliefs every `K` is a belief.
                Some(None) => {
                    let worded = wording::yes_no(table, props, &phi, &written);
                    if knows_inside(f) {
                        format!("Is `{written}` true?")
                    } else if worded.contains('`') {
                        worded
                    } else {
                        believe(&worded)
                    }
                }
                None => wording::yes_no(table, props, &phi, &written),
            };
            (written, worded, Answer::YesNo(value))
        }
        Ask::WhoKnows(f) => {
            let phi = cx.scope.formula(f)?;
            let written = cx.text(f.span);
            let mut knowers = Vec::new();
            for a in 0..table.players.len() {
                let k = Formula::K(a, Box::new(phi.clone()));
                if cx.engine(cx.model.eval_actual(&k), f.span)? {
                    knowers.push(table.players[a].clone());
                }
            }
            let worded = wording::who_knows(table, props, &phi, &written);
            (
                format!("who knows {written}"),
                worded,
                Answer::Players(knowers),
            )
        }
        Ask::Considers(p) => {
            let a = cx.scope.agent(p)?;
            cx.exact(span)?;
            (
                format!("considers {}", p.text),
                format!("How many worlds does {} consider possible?", cx.who(a)),
                Answer::Number(cx.model.considers_big(a)),
            )
        }
        Ask::Worlds(None) => {
            cx.exact(span)?;
            (
                "worlds".to_string(),
                "How many worlds does the model have?".to_string(),
                Answer::Number(cx.model.world_count_big()),
            )
        }
        Ask::Worlds(Some(f)) => {
            let phi = cx.scope.formula(f)?;
            cx.listable(span)?;
            let n = cx.engine(cx.model.satisfying(&phi), f.span)?.len();
            let written = cx.text(f.span);
            let worded = match wording::words(table, props, &phi) {
                Some(w) => format!("In how many worlds is it true that {w}?"),
                None => format!("In how many worlds does `{written}` hold?"),
            };
            (
                format!("worlds where {written}"),
                worded,
                Answer::Number(BigUint::from(n)),
            )
        }
    };
    Ok(Asked {
        text: q.text.as_ref().map_or(worded, |t| t.text.to_string()),
        formula,
        answer,
    })
}

/// Compares `given` (`None`: no answer) with the answer `asked` and, when
/// it is wrong, explains the right one.
pub fn check(
    cx: &Context,
    q: &ast::Question,
    asked: &Asked,
    given: Option<&Answer>,
) -> Result<Verdict, Diagnostic> {
    if given == Some(&asked.answer) {
        return Ok(Verdict {
            right: true,
            lines: Vec::new(),
            witnesses: Vec::new(),
        });
    }
    let mut lines = vec![format!("the answer is {}", asked.answer)];
    let mut witnesses = Vec::new();
    match &q.ask {
        Ask::YesNo(f) => {
            let phi = cx.scope.formula(f)?;
            let value = asked.answer == Answer::YesNo(true);
            let moved = if cx.model.listable().is_ok() {
                before_and_after(cx, &phi, value, f.span)?
            } else {
                None
            };
            if let Some(said) = moved {
                lines.extend(said);
            } else if cx.model.listable().is_ok() {
                let found = witness(cx, &phi, value, f.span)?;
                for w in &found {
                    lines.extend(show(cx, w));
                }
                witnesses = found;
            } else {
                lines.extend(per_card(cx, f, &phi)?);
            }
        }
        Ask::WhoKnows(f) => {
            let phi = cx.scope.formula(f)?;
            if cx.model.listable().is_ok() {
                for a in 0..cx.scope.table.players.len() {
                    let k = Formula::K(a, Box::new(phi.clone()));
                    let knows = cx.engine(cx.model.eval_actual(&k), f.span)?;
                    for w in witness(cx, &k, knows, f.span)? {
                        lines.extend(show(cx, &w));
                        witnesses.push(w);
                    }
                }
            } else {
                lines.extend(per_card(cx, f, &phi)?);
            }
        }
        Ask::Considers(p) => {
            let a = cx.scope.agent(p)?;
            lines.extend(arithmetic(cx, a));
            lines.extend(class(cx, &Access::Player(a)));
        }
        Ask::Worlds(filter) => {
            if cx.model.listable().is_ok() {
                let ids = match filter {
                    Some(f) => cx.engine(cx.model.satisfying(&cx.scope.formula(f)?), f.span)?,
                    None => (0..cx.model.world_count() as usize).collect(),
                };
                lines.push(format!("{}:", worlds(ids.len())));
                lines.extend(listed(cx, &ids));
            }
        }
    }
    if lines.len() > SCREEN {
        let more = lines.len() - (SCREEN - 1);
        lines.truncate(SCREEN - 1);
        lines.push(format!(
            "... and {more} more lines (the REPL's :why shows them all)"
        ));
    }
    Ok(Verdict {
        right: false,
        lines,
        witnesses,
    })
}

/// The count of worlds `a` considers possible as arithmetic, when it is
/// the number of ways to lay the cards `a` does not see (all different)
/// in the places that hold them: `1680 = 9!/(3!·3!·3!)`. Nothing when the
/// moves so far have ruled deals out (the count is then smaller) or cards
/// repeat.
fn arithmetic(cx: &Context, a: Agent) -> Option<String> {
    let table = cx.scope.table;
    if table.deck.kinds.is_empty() || cx.model.actual_cards().len() != table.locations.len() {
        return None;
    }
    let mut places = Vec::new();
    let mut per_kind = vec![0u32; table.deck.kinds.len()];
    for (loc, l) in table.locations.iter().enumerate() {
        if l.seen_by.contains(&a) {
            continue;
        }
        let cards = table.real_cards(cx.model, loc);
        let n: u32 = cards.iter().sum();
        if n == 0 {
            continue;
        }
        for (k, c) in cards.iter().enumerate() {
            *per_kind.get_mut(k)? += c;
        }
        places.push((loc, n));
    }
    let total: u32 = places.iter().map(|(_, n)| n).sum();
    if places.len() < 2 || places.len() > 6 || per_kind.iter().any(|&c| c > 1) || total > 30 {
        return None;
    }
    let fact = |n: u32| (1..=n).fold(BigUint::from(1u32), |acc, i| acc * i);
    let ways = places
        .iter()
        .fold(fact(total), |acc, &(_, n)| acc / fact(n));
    if ways != cx.model.considers_big(a) {
        return None;
    }
    let below: Vec<String> = places.iter().map(|(_, n)| format!("{n}!")).collect();
    let lie: Vec<String> = places
        .iter()
        .map(|&(loc, n)| format!("{n} with {}", describe_location(table, loc)))
        .collect();
    Some(format!(
        "  {ways} = {total}!/({}): {} does not see {total} cards, all different, and they lie {}",
        below.join("·"),
        cx.who(a),
        and_list(&lie)
    ))
}

/// A question about what holds after a move (`[ask 1 2 Q] C 1_Q`),
/// explained before and after it: the actual world before, the actual
/// world after, and the evidence in the model after the move. `None`
/// when `phi` is not about a move, or the move cannot be played here (its
/// event is not the one the actual world allows).
fn before_and_after(
    cx: &Context,
    phi: &Formula,
    value: bool,
    span: Span,
) -> Result<Option<Vec<String>>, Diagnostic> {
    let (mut f, mut value) = (phi, value);
    while let Formula::Not(x) = f {
        f = x;
        value = !value;
    }
    let Formula::Update(models, inner) = f else {
        return Ok(None);
    };
    let mut after: Option<std::rc::Rc<dyn Backend>> = None;
    for em in models.iter() {
        let now: &dyn Backend = after.as_deref().unwrap_or(cx.model);
        match now.apply(em, None) {
            Ok(next) => after = Some(next),
            Err(_) => return Ok(None),
        }
    }
    let Some(after) = after else {
        return Ok(None);
    };
    if after.listable().is_err() {
        return Ok(None);
    }
    let later = Context {
        scope: cx.scope,
        model: &*after,
        names: None,
        src: cx.src,
    };
    let mut lines = vec![
        format!(
            "before the move, the actual world:  {}",
            cx.world(cx.model.actual())
        ),
        format!(
            "after it, the actual world:  {} ({} in all)",
            later.world(after.actual()),
            worlds(after.world_count())
        ),
        format!("after the move, {}:", said(cx, inner, value)),
    ];
    for w in witness(&later, inner, value, span)? {
        lines.extend(show(&later, &w).into_iter().map(|l| format!("  {l}")));
    }
    Ok(Some(lines))
}

/// The most lines an explanation takes: a screenful.
pub const SCREEN: usize = 20;

/// The first step of reasoning towards the answer of `q`, without the
/// answer: what a student is told after a first wrong try. In words, with
/// no formula syntax.
pub fn hint(cx: &Context, q: &ast::Question) -> Result<String, Diagnostic> {
    let table = cx.scope.table;
    let props = cx.scope.props;
    let about = |f: &Formula| {
        wording::words(table, props, f).unwrap_or_else(|| "the fact asked about".into())
    };
    Ok(match &q.ask {
        Ask::YesNo(f) => {
            let phi = cx.scope.formula(f)?;
            format!("Hint: {}", step_hint(cx, &phi, &about))
        }
        Ask::WhoKnows(f) => {
            let phi = cx.scope.formula(f)?;
            format!(
                "Hint: take the players one by one: does each know that {}? (Knowing needs it true in every world the player considers possible.)",
                about(&phi)
            )
        }
        Ask::Considers(p) => {
            let a = cx.scope.agent(p)?;
            format!(
                "Hint: count the deals {} cannot tell apart from the actual one: {} sees its own cards and what lies face up; in how many ways can the cards it does not see lie, given what the moves so far have shown?",
                cx.who(a),
                cx.who(a)
            )
        }
        Ask::Worlds(None) => {
            "Hint: count the deals still possible after what has happened so far: each move rules out the deals where it could not have happened as it did.".into()
        }
        Ask::Worlds(Some(f)) => {
            let phi = cx.scope.formula(f)?;
            format!(
                "Hint: among the deals still possible, count those where {}.",
                about(&phi)
            )
        }
    })
}

/// The first step of reasoning about `phi`, by its top operator.
fn step_hint(cx: &Context, phi: &Formula, about: &dyn Fn(&Formula) -> String) -> String {
    let group = |g: &[Agent]| {
        let names: Vec<String> = g.iter().map(|&a| cx.who(a)).collect();
        and_list(&names)
    };
    match phi {
        Formula::Not(x) => step_hint(cx, x, about),
        Formula::K(a, x) => format!(
            "think of the worlds {} considers possible (the deals {} cannot tell apart from the actual one): is it true in every one of them that {}?",
            cx.who(*a),
            cx.who(*a),
            about(x)
        ),
        Formula::M(a, x) => format!(
            "think of the worlds {} considers possible: is there at least one where {}?",
            cx.who(*a),
            about(x)
        ),
        Formula::Kw(a, x) => format!(
            "think of the worlds {} considers possible: is it true in all of them, or false in all of them, that {}?",
            cx.who(*a),
            about(x)
        ),
        Formula::E(g, x) => format!(
            "take {} one by one: does each of them know that {}?",
            group(g),
            about(x)
        ),
        Formula::C(g, x) => format!(
            "common knowledge fails as soon as a chain of possibilities leads to a world where it fails: from the actual world, go to a world one of {} considers possible, from there to one another of them considers possible, and so on. Is there such a chain to a world where it is not true that {}?",
            group(g),
            about(x)
        ),
        Formula::D(g, x) => format!(
            "pool what {} know: keep only the worlds that every one of them considers possible. Is it true in each of those that {}?",
            group(g),
            about(x)
        ),
        Formula::Announce(..) | Formula::AnnounceDiamond(..) | Formula::Update(..) | Formula::UpdateDiamond(..) => {
            "first play the move the question speaks of: which deals does it rule out, and what does each player see of it? Then decide the question in the model after it.".into()
        }
        _ => format!("look at the actual deal: is it true that {}?", about(phi)),
    }
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(xs: &[String]) -> String {
    match xs.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => xs.join(""),
    }
}

/// A number of worlds: `1 world`, `4 worlds`.
fn worlds(n: impl std::fmt::Display) -> String {
    let n = n.to_string();
    if n == "1" {
        "1 world".into()
    } else {
        format!("{n} worlds")
    }
}

/// A shortest chain of possibilities of `agents` from the actual world to
/// `target`: each step an agent and the world it considers possible from
/// the world before (`None` when `target` is not reachable).
fn chain(cx: &Context, agents: &[Agent], target: WorldId) -> Option<Vec<(Agent, WorldId)>> {
    let actual = cx.model.actual();
    let mut before: std::collections::HashMap<WorldId, (Agent, WorldId)> = Default::default();
    let mut seen: HashSet<WorldId> = [actual].into_iter().collect();
    let mut todo = std::collections::VecDeque::from([actual]);
    // In a model of knowledge a player's possibilities are classes: a
    // class is expanded once, from the first of its worlds reached, so the
    // search takes time in the worlds, not in the worlds times the class.
    let classes = cx.model.is_s5();
    let mut expanded: HashSet<(Agent, WorldId)> = HashSet::new();
    while let Some(w) = todo.pop_front() {
        if w == target {
            let mut steps = Vec::new();
            let mut at = w;
            while let Some(&(a, from)) = before.get(&at) {
                steps.push((a, at));
                at = from;
            }
            steps.reverse();
            return Some(steps);
        }
        for &a in agents {
            if classes && expanded.contains(&(a, w)) {
                continue;
            }
            for v in cx.model.accessible(a, w) {
                if classes {
                    expanded.insert((a, v));
                }
                if seen.insert(v) {
                    before.insert(v, (a, w));
                    todo.push_back(v);
                }
            }
        }
    }
    None
}

/// The evidence that `phi` has `value` in the actual world, by its top
/// operator (a negation flips the value sought).
pub fn witness(
    cx: &Context,
    phi: &Formula,
    value: bool,
    span: Span,
) -> Result<Vec<Witness>, Diagnostic> {
    let (access, inner, diamond) = match phi {
        Formula::Not(inner) => return witness(cx, inner, !value, span),
        Formula::K(a, x) => (Access::Player(*a), x, false),
        Formula::M(a, x) => (Access::Player(*a), x, true),
        Formula::C(g, x) => (Access::Group(GroupAccess::Common, g.clone()), x, false),
        Formula::D(g, x) => (Access::Group(GroupAccess::Distributed, g.clone()), x, false),
        Formula::Kw(a, x) => return knows_whether(cx, *a, x, value, span),
        Formula::E(g, x) => {
            let mut out = Vec::new();
            for &a in g {
                let k = Formula::K(a, x.clone());
                let knows = cx.engine(cx.model.eval_actual(&k), span)?;
                // True: every agent's class; false: one agent who does not know.
                if value || !knows {
                    out.extend(witness(cx, &k, knows, span)?);
                }
                if !value && !knows {
                    break;
                }
            }
            return Ok(out);
        }
        _ => {
            return Ok(vec![Witness::Actual {
                formula: phi.clone(),
                value,
            }])
        }
    };
    let inner = (**inner).clone();
    // K true / M false: the whole class; K false / M true: one world.
    if value != diamond {
        return Ok(vec![Witness::Every {
            access,
            formula: inner,
            value,
        }]);
    }
    let sat: HashSet<WorldId> = cx
        .engine(cx.model.satisfying(&inner), span)?
        .into_iter()
        .collect();
    let sought = diamond;
    let found = cx
        .worlds_of(&access)
        .into_iter()
        .find(|w| sat.contains(w) == sought);
    Ok(found
        .map(|world| Witness::World {
            access,
            world,
            formula: inner,
            value: sought,
        })
        .into_iter()
        .collect())
}

fn knows_whether(
    cx: &Context,
    a: Agent,
    x: &Formula,
    value: bool,
    span: Span,
) -> Result<Vec<Witness>, Diagnostic> {
    let access = Access::Player(a);
    if value {
        let here = cx.engine(cx.model.eval_actual(x), span)?;
        return Ok(vec![Witness::Every {
            access,
            formula: x.clone(),
            value: here,
        }]);
    }
    let sat: HashSet<WorldId> = cx
        .engine(cx.model.satisfying(x), span)?
        .into_iter()
        .collect();
    let class = cx.worlds_of(&access);
    let mut out = Vec::new();
    for sought in [true, false] {
        if let Some(&world) = class.iter().find(|w| sat.contains(w) == sought) {
            out.push(Witness::World {
                access: access.clone(),
                world,
                formula: x.clone(),
                value: sought,
            });
        }
    }
    Ok(out)
}

/// `player 1 considers possible`, `players 1, 2 together consider
/// possible`, `reachable along the possibilities of players 1, 2`: the
/// worlds of `access`, in words.
fn whose(cx: &Context, access: &Access) -> String {
    match access {
        Access::Player(a) => format!("{} considers possible", cx.who(*a)),
        Access::Group(g, agents) => {
            let names: Vec<String> = agents.iter().map(|&a| cx.who(a)).collect();
            let names = and_list(&names);
            match g {
                GroupAccess::Common => {
                    format!("reachable along the possibilities of {names}")
                }
                GroupAccess::Distributed => format!("{names} together consider possible"),
                GroupAccess::Everybody => format!("one of {names} considers possible"),
            }
        }
    }
}

/// `f` (or, when `value` is false, its negation) in words.
fn said(cx: &Context, f: &Formula, value: bool) -> String {
    let f = if value {
        f.clone()
    } else {
        Formula::Not(Box::new(f.clone()))
    };
    wording::words(cx.scope.table, cx.scope.props, &f).unwrap_or_else(|| {
        if value {
            "the fact asked about holds".into()
        } else {
            "the fact asked about does not hold".into()
        }
    })
}

/// A witness in lines.
pub fn show(cx: &Context, w: &Witness) -> Vec<String> {
    match w {
        Witness::World {
            access: Access::Group(GroupAccess::Common, agents),
            world,
            formula,
            value,
        } => match chain(cx, agents, *world) {
            Some(steps) if !steps.is_empty() => {
                let mut lines = vec![
                    format!(
                        "a chain of possibilities from the actual world to a world where {}:",
                        said(cx, formula, *value)
                    ),
                    format!("  the actual world:  {}", cx.world(cx.model.actual())),
                ];
                for (i, (a, w)) in steps.iter().enumerate() {
                    let there = if i == 0 { "" } else { "there, " };
                    lines.push(format!(
                        "  {there}{} considers possible:  {}",
                        cx.who(*a),
                        cx.world(*w)
                    ));
                }
                lines.push(match steps[..] {
                    [(a, _)] => format!(
                        "  so {} does not even know that {}",
                        cx.who(a),
                        said(cx, formula, !*value)
                    ),
                    _ => format!(
                        "  so not everybody knows that everybody knows ... that {}",
                        said(cx, formula, !*value)
                    ),
                });
                lines
            }
            _ => vec![
                format!(
                    "a world {}, where {}:",
                    whose(cx, &Access::Group(GroupAccess::Common, agents.clone())),
                    said(cx, formula, *value)
                ),
                format!("  {}", cx.world(*world)),
            ],
        },
        Witness::World {
            access,
            world,
            formula,
            value,
        } => vec![
            format!(
                "a world {}, where {}:",
                whose(cx, access),
                said(cx, formula, *value)
            ),
            format!("  {}", cx.world(*world)),
        ],
        Witness::Every {
            access,
            formula,
            value,
        } => {
            let mut lines = vec![format!(
                "in every world {}, {}:",
                whose(cx, access),
                said(cx, formula, *value)
            )];
            lines.extend(class(cx, access));
            lines
        }
        Witness::Actual { formula, value } => vec![
            format!("in the actual world, {}:", said(cx, formula, *value)),
            format!("  {}", cx.world(cx.model.actual())),
        ],
    }
}

/// The class of `access`: how many worlds, and the first [`LISTED`].
fn class(cx: &Context, access: &Access) -> Vec<String> {
    if cx.model.listable().is_err() {
        return match access {
            Access::Player(a) => vec![format!(
                "  {} considers {} possible",
                cx.who(*a),
                worlds(count_text(&cx.model.considers_big(*a)))
            )],
            Access::Group(..) => Vec::new(),
        };
    }
    let ids = cx.worlds_of(access);
    let head = match access {
        Access::Player(a) => format!("{} considers {} possible:", cx.who(*a), worlds(ids.len())),
        Access::Group(..) => format!("{} {}:", worlds(ids.len()), whose(cx, access)),
    };
    let mut lines = vec![format!("  {head}")];
    lines.extend(listed(cx, &ids).into_iter().map(|l| format!("  {l}")));
    lines
}

fn listed(cx: &Context, ids: &[WorldId]) -> Vec<String> {
    let mut lines: Vec<String> = ids
        .iter()
        .take(LISTED)
        .map(|&w| format!("  {}", cx.world(w)))
        .collect();
    if ids.len() > LISTED {
        lines.push(format!("  ... and {} more", ids.len() - LISTED));
    }
    lines
}

/// `why φ for CARD` with the first card kind `phi` mentions; nothing when
/// it mentions none.
/// A model the engine answers but cannot lay out card by card (a belief
/// structure held symbolically) gets the answer alone, with why.
fn per_card(cx: &Context, f: &ast::Formula, phi: &Formula) -> Result<Vec<String>, Diagnostic> {
    let Some(kind) = first_kind(phi) else {
        return Ok(Vec::new());
    };
    let view = PerCard {
        scope: cx.scope,
        model: cx.model,
        src: cx.src,
        kind,
        span: f.span,
        worded: true,
    };
    match view.why(f) {
        Err(d) if d.code == "too-many-to-list" => Ok(vec![format!(
            "({}: too many to show one by one)",
            d.message
        )]),
        Err(d) if matches!(d.code, "too-many-worlds" | "unsupported" | "out-of-memory") => {
            Ok(vec![
                "(this model is too large to show world by world, and its worlds cannot be grouped card by card)".into(),
            ])
        }
        other => other,
    }
}

/// The first card kind an atom of `f` counts.
fn first_kind(f: &Formula) -> Option<Kind> {
    match f {
        Formula::Atom(Atom::Count { kinds, .. }) => kinds.first().copied(),
        Formula::Not(x)
        | Formula::K(_, x)
        | Formula::M(_, x)
        | Formula::Kw(_, x)
        | Formula::E(_, x)
        | Formula::C(_, x)
        | Formula::D(_, x) => first_kind(x),
        Formula::And(xs) | Formula::Or(xs) => xs.iter().find_map(first_kind),
        Formula::Implies(a, b) | Formula::Iff(a, b) => first_kind(a).or_else(|| first_kind(b)),
        _ => None,
    }
}
