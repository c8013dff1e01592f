//! The checking pass: resolves the names of an AST formula or move against
//! the declared players, deck, piles, propositions, `let` names and event
//! models, and builds the engine's formula or the rules' move. Unknown names
//! get located errors with "did you mean".

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use rustc_hash::FxHashMap;

use crate::cards::deck::normalise;
use crate::cards::{Game, GameState, Move, Table};
use crate::diag::{suggest, Diagnostic};
use crate::engine::formula::{Comparison, Term};
use crate::engine::{Agent, Cmp, EventId, EventModel, Formula, Kind, Loc};
use crate::syntax::ast::{self, CmpOp, Domain, FormulaKind, Group, MoveKind, Name};
use crate::syntax::subst::{substitute, Binding};

/// Everything names can refer to.
pub struct Scope<'a> {
    /// Players, deck, locations.
    pub table: &'a Table,
    /// The game (for moves inside formulas).
    pub game: Game,
    /// The game state (the called king of `partner(P)`, the trick of `[play ...]`).
    pub state: &'a GameState,
    /// Declared propositions, by index.
    pub props: &'a [String],
    /// `let` names.
    pub lets: &'a HashMap<String, Formula>,
    /// Declared event models with their actual event.
    pub events: &'a HashMap<String, (EventModel, EventId)>,
    /// `let` names with parameters.
    pub macros: &'a HashMap<String, Macro>,
    /// How many `let`s with parameters are being expanded, one inside the other.
    pub expanding: Cell<usize>,
    /// The kinds of each card pattern met so far (a strategy's guard
    /// names the same few patterns many times).
    pub patterns: RefCell<FxHashMap<String, Vec<Kind>>>,
}

/// A `let` with parameters: its formula as written, expanded where it is used.
#[derive(Clone, Debug)]
pub struct Macro {
    /// The parameters.
    pub params: Vec<Name>,
    /// The formula.
    pub body: ast::Formula,
}

/// How deeply `let`s with parameters may use one another (a name that uses
/// itself is refused when this is reached).
const MAX_EXPANSION: usize = 64;

/// The most operators a quantified formula may expand to.
pub const MAX_EXPANDED_SIZE: usize = 2_000_000;

/// The engine's comparison for a written one.
pub fn cmp(op: CmpOp) -> Cmp {
    match op {
        CmpOp::Lt => Cmp::Lt,
        CmpOp::Le => Cmp::Le,
        CmpOp::Eq => Cmp::Eq,
        CmpOp::Ne => Cmp::Ne,
        CmpOp::Ge => Cmp::Ge,
        CmpOp::Gt => Cmp::Gt,
    }
}

fn boxed(f: Formula) -> Box<Formula> {
    Box::new(f)
}

impl Scope<'_> {
    /// Resolves a formula.
    pub fn formula(&self, f: &ast::Formula) -> Result<Formula, Diagnostic> {
        Ok(match &f.kind {
            FormulaKind::True => Formula::Top,
            FormulaKind::False => Formula::Bottom,
            FormulaKind::Named { name, card, count } => {
                self.named(name, card.as_deref(), *count)?
            }
            FormulaKind::HoldsSeq { player, cards } => self.holds_seq(player, cards)?,
            FormulaKind::Not(a) => Formula::Not(boxed(self.formula(a)?)),
            FormulaKind::And(a, b) => Formula::And(vec![self.formula(a)?, self.formula(b)?]),
            FormulaKind::Or(a, b) => Formula::Or(vec![self.formula(a)?, self.formula(b)?]),
            FormulaKind::Implies(a, b) => {
                Formula::Implies(boxed(self.formula(a)?), boxed(self.formula(b)?))
            }
            FormulaKind::Iff(a, b) => {
                Formula::Iff(boxed(self.formula(a)?), boxed(self.formula(b)?))
            }
            FormulaKind::K(p, a) | FormulaKind::B(p, a) => {
                Formula::K(self.agent(p)?, boxed(self.formula(a)?))
            }
            FormulaKind::M(p, a) => Formula::M(self.agent(p)?, boxed(self.formula(a)?)),
            FormulaKind::Kw(p, a) => Formula::Kw(self.agent(p)?, boxed(self.formula(a)?)),
            FormulaKind::Kv(p, loc) => self.knows_value(p, loc)?,
            FormulaKind::E(g, a) => Formula::E(self.group(g)?, boxed(self.formula(a)?)),
            FormulaKind::C(g, a) => Formula::C(self.group(g)?, boxed(self.formula(a)?)),
            FormulaKind::D(g, a) => Formula::D(self.group(g)?, boxed(self.formula(a)?)),
            FormulaKind::Announce(a, b) => {
                Formula::Announce(boxed(self.formula(a)?), boxed(self.formula(b)?))
            }
            FormulaKind::AnnounceDiamond(a, b) => {
                Formula::AnnounceDiamond(boxed(self.formula(a)?), boxed(self.formula(b)?))
            }
            FormulaKind::After(m, a) => {
                Formula::Update(self.move_events(m)?, boxed(self.formula(a)?))
            }
            FormulaKind::AfterDiamond(m, a) => {
                Formula::UpdateDiamond(self.move_events(m)?, boxed(self.formula(a)?))
            }
            FormulaKind::Quant {
                all,
                var,
                domain,
                body,
            } => self.quantified(*all, var, domain, body, f.span)?,
            FormulaKind::Call { name, args } => self.call(name, args)?,
            FormulaKind::Compare {
                left,
                cmp: op,
                right,
            } => self.compare(self.term(left)?, cmp(*op), self.term(right)?),
            FormulaKind::KvTerms(p, terms) => self.knows_values(p, terms)?,
        })
    }

    /// The bits of variable `name` (its propositions `name#0`, `name#1`...).
    pub fn variable(&self, name: &str) -> Option<Vec<crate::engine::Prop>> {
        let mut bits: Vec<(usize, crate::engine::Prop)> = self
            .props
            .iter()
            .enumerate()
            .filter_map(|(p, text)| {
                let (var, bit) = text.split_once('#')?;
                (var == name).then(|| bit.parse().ok().map(|b| (b, p)))?
            })
            .collect();
        if bits.is_empty() {
            return None;
        }
        bits.sort_unstable();
        Some(bits.into_iter().map(|(_, p)| p).collect())
    }

    /// The names of the declared variables.
    fn variable_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .props
            .iter()
            .filter_map(|p| p.split_once('#').map(|(v, _)| v.to_string()))
            .collect();
        names.dedup();
        names
    }

    /// A term: numbers and variables.
    pub fn term(&self, t: &ast::Term) -> Result<Term, Diagnostic> {
        let b = |x: &ast::Term| self.term(x).map(Box::new);
        Ok(match t {
            ast::Term::Num(n, _) => Term::Const(*n),
            ast::Term::Name(name) => {
                if let Ok(n) = name.text.parse::<u64>() {
                    return Ok(Term::Const(n));
                }
                match self.variable(&name.text) {
                    Some(bits) => Term::Var(bits),
                    None => return Err(self.unknown_variable(name)),
                }
            }
            ast::Term::Add(x, y) => Term::Add(b(x)?, b(y)?),
            ast::Term::Sub(x, y) => Term::Sub(b(x)?, b(y)?),
            ast::Term::Mul(x, y) => Term::Mul(b(x)?, b(y)?),
        })
    }

    fn unknown_variable(&self, name: &Name) -> Diagnostic {
        let vars = self.variable_names();
        let d = Diagnostic::error(
            "unknown-variable",
            format!("no variable `{}`", name.text),
            name.span,
        )
        .with_label("not declared with `var`");
        match suggest(&name.text, &vars) {
            Some(s) => d.with_help(format!("did you mean `{s}`?")),
            None if vars.is_empty() => d.with_help("declare it first: `var x in 2..99`"),
            None => d.with_help(format!("the variables are: {}", vars.join(" "))),
        }
    }

    fn compare(&self, left: Term, op: Cmp, right: Term) -> Formula {
        Formula::Atom(crate::engine::Atom::Compare(Rc::new(Comparison {
            left,
            cmp: op,
            right,
        })))
    }

    /// `Kv_P (x, y)`: for every bit of each variable, P knows whether it is set.
    fn knows_values(&self, player: &Name, terms: &[ast::Term]) -> Result<Formula, Diagnostic> {
        let p = self.agent(player)?;
        let mut parts = Vec::new();
        for t in terms {
            let ast::Term::Name(name) = t else {
                return Err(Diagnostic::error(
                    "kv-term",
                    "`Kv` takes variables, such as `Kv_P (x, y)`",
                    t.span(),
                )
                .with_help("to say that P knows the value of a term, name its values: `any v in 2..200: K_P (x + y = v)`"));
            };
            let bits = self
                .variable(&name.text)
                .ok_or_else(|| self.unknown_variable(name))?;
            parts.extend(
                bits.into_iter()
                    .map(|b| Formula::Kw(p, boxed(Formula::Atom(crate::engine::Atom::Prop(b))))),
            );
        }
        Ok(Formula::And(parts))
    }

    /// The values a quantified name ranges over.
    fn values(&self, domain: &Domain) -> Vec<String> {
        match domain {
            Domain::Range(lo, hi, _) => (*lo..=*hi).map(|v| v.to_string()).collect(),
            Domain::Players => self.table.players.clone(),
            Domain::Cards => self
                .table
                .deck
                .kinds
                .iter()
                .map(|k| k.name.clone())
                .collect(),
            Domain::List(names) => names.iter().map(|n| n.text.to_string()).collect(),
        }
    }

    /// `all x in D: φ` (a conjunction) and `any x in D: φ` (a disjunction).
    fn quantified(
        &self,
        all: bool,
        var: &Name,
        domain: &Domain,
        body: &ast::Formula,
        span: crate::diag::Span,
    ) -> Result<Formula, Diagnostic> {
        let mut parts = Vec::new();
        let mut size = 0;
        for value in self.values(domain) {
            let binding: Binding = [(var.text.as_str(), value.as_str())].into_iter().collect();
            let part = self.formula(&substitute(body, &binding))?;
            size += part.size_and_depth().0;
            if size > MAX_EXPANDED_SIZE {
                return Err(Diagnostic::error(
                    "formula-too-large",
                    format!("this quantifier expands to more than {MAX_EXPANDED_SIZE} operators"),
                    span,
                )
                .with_help("quantify over a smaller range, or nest fewer quantifiers"));
            }
            parts.push(part);
        }
        Ok(if all {
            Formula::And(parts)
        } else {
            Formula::Or(parts)
        })
    }

    /// `f(a, b)`: a `let` with parameters, its formula with the arguments
    /// in place of the parameters.
    fn call(&self, name: &Name, args: &[Name]) -> Result<Formula, Diagnostic> {
        let Some(m) = self.macros.get(name.text.as_str()) else {
            return Err(Diagnostic::error(
                "unknown-name",
                format!("no `let` with parameters named `{}`", name.text),
                name.span,
            )
            .with_label("not declared")
            .with_help(format!(
                "declare it first: `let {}({}) = ...`",
                name.text,
                (0..args.len())
                    .map(|i| format!("x{}", i + 1))
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        };
        if m.params.len() != args.len() {
            return Err(Diagnostic::error(
                "wrong-arguments",
                format!(
                    "`{}` takes {} argument(s), {} given",
                    name.text,
                    m.params.len(),
                    args.len()
                ),
                name.span,
            )
            .with_help(format!(
                "it was declared as `let {}({}) = ...`",
                name.text,
                m.params
                    .iter()
                    .map(|p| p.text.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        let depth = self.expanding.get();
        if depth >= MAX_EXPANSION {
            return Err(Diagnostic::error(
                "recursive-let",
                format!(
                    "`{}` uses itself (or its uses nest more than {MAX_EXPANSION} deep)",
                    name.text
                ),
                name.span,
            )
            .with_help(
                "a `let` with parameters is expanded where it is used, so it cannot use itself",
            ));
        }
        let binding: Binding = m
            .params
            .iter()
            .zip(args)
            .map(|(p, a)| (p.text.as_str(), a.text.as_str()))
            .collect();
        self.expanding.set(depth + 1);
        let result = self.formula(&substitute(&m.body, &binding));
        self.expanding.set(depth);
        result.map_err(|d| {
            let note = format!(
                "in `{}`, used here with ({})",
                name.text,
                args.iter()
                    .map(|a| a.text.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            match d.help.clone() {
                Some(h) => d.with_help(format!("{h} ({note})")),
                None => d.with_help(note),
            }
        })
    }

    /// A player.
    pub fn agent(&self, name: &Name) -> Result<Agent, Diagnostic> {
        self.table.player(name)
    }

    /// The players of a group (`{1,2}`, or every player).
    pub fn group(&self, g: &Group) -> Result<Vec<Agent>, Diagnostic> {
        match g {
            Group::All => Ok((0..self.table.players.len()).collect()),
            Group::Listed(names) => names.iter().map(|n| self.agent(n)).collect(),
        }
    }

    /// A location (hand, pile, slot, stock).
    pub fn location(&self, name: &Name) -> Result<Loc, Diagnostic> {
        self.table.location(name)
    }

    /// The number a count at `loc` compares with: with `uncounted`, the
    /// stock's size is public (its extra copies are added), but its count
    /// of some kinds is not what any player tracks, and is refused.
    fn uncounted(&self, loc: Loc, kinds: &[usize], n: u32, name: &Name) -> Result<u32, Diagnostic> {
        let phantom = self.table.phantom;
        if phantom == 0 || loc != self.table.stock() {
            return Ok(n);
        }
        if kinds.len() < self.table.deck.kinds.len() {
            return Err(Diagnostic::error(
                "uncounted-stock",
                "the players do not count cards (`uncounted`): the stock's cards of a kind are not part of the model",
                name.span,
            )
            .with_label("which cards the stock holds")
            .with_help(format!("ask how many cards it holds: `{} = 3`", name.text)));
        }
        Ok(n.saturating_add(phantom.saturating_mul(kinds.len() as u32)))
    }

    /// `p`, `AllOwn1`, `hand3(6S)`, `hand2 = 3`, `1.2(0..6)`.
    fn named(
        &self,
        name: &Name,
        card: Option<&Name>,
        count: Option<(CmpOp, u32)>,
    ) -> Result<Formula, Diagnostic> {
        if let (None, Some((op, n))) = (card, count) {
            if let Some(bits) = self.variable(&name.text) {
                return Ok(self.compare(Term::Var(bits), cmp(op), Term::Const(n.into())));
            }
        }
        if let (Some(arg), None) = (card, count) {
            if self.macros.contains_key(name.text.as_str()) {
                return self.call(name, std::slice::from_ref(arg));
            }
        }
        let (op, n) = count.map_or((Cmp::Ge, 1), |(op, n)| (cmp(op), n));
        if let (Some(arg), None) = (card, count) {
            if let Some(f) = self.game.atom(self.table, self.state, name, arg)? {
                return Ok(f);
            }
        }
        if let Some(card) = card {
            let loc = self.location(name)?;
            let kinds = self.pattern(card)?;
            let n = self.uncounted(loc, &kinds, n, name)?;
            return Ok(Formula::count(loc, kinds, op, n));
        }
        if count.is_some() {
            let loc = self.location(name)?;
            let kinds: Vec<_> = (0..self.table.deck.kinds.len()).collect();
            let n = self.uncounted(loc, &kinds, n, name)?;
            return Ok(Formula::count(loc, kinds, op, n));
        }
        if let Some(p) = self.props.iter().position(|p| *p == name.text) {
            return Ok(Formula::Atom(crate::engine::Atom::Prop(p)));
        }
        if let Some(f) = self.lets.get(name.text.as_str()) {
            return Ok(f.clone());
        }
        if self.table.find_location(&name.text).is_some() {
            return Err(Diagnostic::error(
                "missing-card",
                format!("`{}` is a location: say which card or how many", name.text),
                name.span,
            )
            .with_label("a location, not a formula")
            .with_help(format!("write `{0}(Q)` or `{0} = 2`", name.text)));
        }
        Err(self.unknown_name(name))
    }

    /// The kinds a card pattern names ([`crate::cards::deck::Deck::pattern`]),
    /// each pattern looked up once.
    fn pattern(&self, card: &Name) -> Result<Vec<Kind>, Diagnostic> {
        if let Some(kinds) = self.patterns.borrow().get(card.text.as_str()) {
            return Ok(kinds.clone());
        }
        let kinds = self.table.deck.pattern(card)?;
        self.patterns
            .borrow_mut()
            .insert(card.text.to_string(), kinds.clone());
        Ok(kinds)
    }

    fn unknown_name(&self, name: &Name) -> Diagnostic {
        let mut known: Vec<String> = self.props.to_vec();
        known.extend(self.lets.keys().cloned());
        let d = Diagnostic::error(
            "unknown-name",
            format!("no proposition or `let` name `{}`", name.text),
            name.span,
        )
        .with_label("not declared");
        match suggest(&name.text, &known) {
            Some(s) => d.with_help(format!("did you mean `{s}`?")),
            None => d.with_help("declare it with `prop NAME` or `let NAME = formula`; a card atom needs its location, like `hand1(Q)`"),
        }
    }

    /// `1_QQA`: player 1 holds at least two Qs and an A.
    fn holds_seq(&self, player: &Name, cards: &Name) -> Result<Formula, Diagnostic> {
        let p = self.agent(player)?;
        let mut counts: Vec<(Vec<Kind>, u32)> = Vec::new();
        for token in self.split_cards(cards)? {
            let name = Name {
                text: token.into(),
                span: cards.span,
            };
            let kinds = self.pattern(&name)?;
            match counts.iter_mut().find(|(k, _)| *k == kinds) {
                Some((_, n)) => *n += 1,
                None => counts.push((kinds, 1)),
            }
        }
        let hand = self.table.hand(p);
        Ok(Formula::And(
            counts
                .into_iter()
                .map(|(kinds, n)| Formula::count(hand, kinds, Cmp::Ge, n))
                .collect(),
        ))
    }

    /// Splits `QAAA` or `10QA` into card names, longest match first.
    fn split_cards(&self, cards: &Name) -> Result<Vec<String>, Diagnostic> {
        let mut names: Vec<String> = self
            .table
            .deck
            .kinds
            .iter()
            .map(|k| k.name.clone())
            .collect();
        names.extend(self.table.deck.ranks().into_iter().map(|(r, _)| r));
        names.sort_by_key(|n| std::cmp::Reverse(n.len()));
        let text = normalise(&cards.text);
        let mut rest = text.as_str();
        let mut out = Vec::new();
        while !rest.is_empty() {
            let Some(name) = names.iter().find(|n| rest.starts_with(n.as_str())) else {
                return Err(Diagnostic::error(
                    "unknown-card",
                    format!("`{}` is not a sequence of cards of this deck", cards.text),
                    cards.span,
                )
                .with_help(format!("the deck has {}", self.table.deck.describe())));
            };
            out.push(name.clone());
            rest = &rest[name.len()..];
        }
        Ok(out)
    }

    /// `Kv1 1.2`: for every kind, player 1 knows whether it lies at 1.2.
    fn knows_value(&self, player: &Name, loc: &Name) -> Result<Formula, Diagnostic> {
        if self.variable(&loc.text).is_some() {
            return self.knows_values(player, &[ast::Term::Name(loc.clone())]);
        }
        let p = self.agent(player)?;
        let l = self.location(loc)?;
        let all =
            (0..self.table.deck.kinds.len()).map(|k| Formula::Kw(p, boxed(Formula::holds(l, k))));
        Ok(Formula::And(all.collect()))
    }

    /// A move's event models for `[move]φ`; a named card or event is the only
    /// designated event.
    fn move_events(&self, m: &ast::Move) -> Result<Rc<Vec<EventModel>>, Diagnostic> {
        let mv = self.move_(m)?;
        let label = "move";
        let mut models = self
            .game
            .event_models(self.table, self.state, &mv, label)
            .map_err(|r| super::errors::refusal(&r, m.span))?;
        let designated = match &mv {
            Move::Draw { kind: Some(k), .. } | Move::Show { kind: k, .. } => Some(*k),
            Move::Apply(_, e) => Some(*e),
            _ => None,
        };
        if let (Some(e), Some(first)) = (designated, models.first_mut()) {
            first.designated = vec![e];
        }
        Ok(Rc::new(models))
    }

    /// Resolves a move.
    pub fn move_(&self, m: &ast::Move) -> Result<Move, Diagnostic> {
        let deck = &self.table.deck;
        Ok(match &m.kind {
            MoveKind::Announce(f) => Move::Announce(self.formula(f)?),
            MoveKind::Transfer { card, from, to } => Move::Transfer {
                kind: deck.card(card)?,
                from: self.location(from)?,
                to: self.location(to)?,
            },
            MoveKind::Draw { player, card, from } => Move::Draw {
                player: self.agent(player)?,
                kind: card.as_ref().map(|c| deck.card(c)).transpose()?,
                from: match from {
                    Some(pile) => self.location(pile)?,
                    None => self.table.stock(),
                },
            },
            MoveKind::Show { from, to, card } => Move::Show {
                from: self.agent(from)?,
                to: self.agent(to)?,
                kind: deck.card(card)?,
            },
            MoveKind::Reveal { player, card } => Move::Reveal {
                player: self.agent(player)?,
                kind: deck.card(card)?,
            },
            MoveKind::Peek { player, slot } => Move::Peek {
                player: self.agent(player)?,
                slot: self.slot(slot)?,
            },
            MoveKind::Ask { asker, asked, card } => Move::Ask {
                asker: self.agent(asker)?,
                asked: self.agent(asked)?,
                kinds: self.asked_rank(card)?,
            },
            MoveKind::Game { word, args } => {
                crate::cards::read_move(self.game, self.table, word, args, m.span)?
            }
            MoveKind::SecretTransfer {
                card,
                from,
                to,
                unseen,
            } => {
                let (kind, from, to) = (deck.card(card)?, self.location(from)?, self.location(to)?);
                let unseen = unseen
                    .iter()
                    .map(|p| self.agent(p))
                    .collect::<Result<Vec<_>, _>>()?;
                Move::Apply(
                    super::private::secret_move(self.table, kind, from, to, &unseen),
                    0,
                )
            }
            MoveKind::Send {
                from,
                to,
                what,
                lost,
            } => {
                let (from, to) = (self.agent(from)?, self.agent(to)?);
                let what = self.formula(what)?;
                let em = super::private::send(self.table, from, to, what);
                Move::Apply(em, usize::from(*lost))
            }
            MoveKind::Apply(name) => {
                let Some((em, e)) = self.events.get(name.text.as_str()) else {
                    let names: Vec<&String> = self.events.keys().collect();
                    let d = Diagnostic::error(
                        "unknown-event",
                        format!("no event model `{}`", name.text),
                        name.span,
                    )
                    .with_label("not declared");
                    return Err(match suggest(&name.text, &names) {
                        Some(s) => d.with_help(format!("did you mean `{s}`?")),
                        None => d.with_help("declare it first with `event NAME { ... }`"),
                    });
                };
                Move::Apply(em.clone(), *e)
            }
        })
    }

    fn slot(&self, name: &Name) -> Result<Loc, Diagnostic> {
        self.table.slot(name)
    }

    /// The cards an ask asks for, by the game's rules (Go Fish: a rank).
    fn asked_rank(&self, card: &Name) -> Result<Vec<Kind>, Diagnostic> {
        self.game.asked_kinds(&self.table.deck, card)
    }
}
