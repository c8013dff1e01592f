//! A rule's formula (its guard, a score's `[φ]` or `known` atom) as the
//! scenario grammar built it, and its instance for one legal move.
//!
//! The grammar (`grammar/strategy.pest` with `grammar/dealer.pest`) reads
//! the formula once, when the strategy is loaded, into an
//! [`ast::Formula`](Formula) with the strategy's quantifiers
//! `any(y in D: φ)` as [`FormulaKind::Quant`]. What the tree cannot hold
//! as a name, the template keeps typed beside it, by where it is written:
//! a card written with variables ([`Card`]: `v*`, `rank(c)`, `0..t`,
//! `<t,v>`) and a count compared with a variable (`hand_me(v*) >= n`).
//! For a move, [`Template::instance`] walks the tree once with the move's
//! variables, `me` and `others` bound: names are replaced as
//! [`crate::syntax::subst`] replaces them, quantifiers become the
//! conjunction (disjunction) of their body over the domain, the typed
//! cards and counts get their values, and `is(c, P)` and `eq(x, y)` are
//! decided. Nothing is parsed or matched as text while a game is played,
//! and the expansion is bounded ([`MAX_EXPANDED`]).

use std::cell::Cell;

use crate::diag::{Diagnostic, Span};
use crate::syntax::ast::{Domain, Formula, FormulaKind, Group, Name, Term};
use crate::syntax::subst::{self, Binding};
use crate::syntax::GrammarRule as R;

use super::expand::CardFacts;

type Pair<'a> = pest::iterators::Pair<'a, R>;

/// The most formula nodes a rule's formula may expand to for one move:
/// about what a scenario's longest statement holds. A quantifier over a
/// larger domain, or nested deeper, is refused where it is written.
pub const MAX_EXPANDED: usize = 1 << 16;

/// A rule's formula as the grammar read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template {
    formula: Formula,
    /// The cards written with variables, by their first byte.
    cards: Vec<(usize, Card)>,
    /// The counts compared with a variable: the first byte of the atom's
    /// name, and the variable.
    counts: Vec<(usize, String)>,
}

/// A card written with variables.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Card {
    /// `v*`: the cards of rank `v`.
    Rank(String),
    /// `rank(c)`, `suit(c)`: the rank (suit) of card `c` as a pattern.
    RankOf(String),
    SuitOf(String),
    /// `0..t`: a range of values.
    Range(End, End),
    /// `<t,v>`: a set's member.
    Set(End, End),
}

/// An end of a range or a part of a set card.
#[derive(Clone, Debug, PartialEq, Eq)]
enum End {
    Num(String),
    Var(String),
    Any,
}

/// A diagnostic of a rule's formula.
fn error(message: impl Into<String>, span: Span) -> Diagnostic {
    Diagnostic::error("strategy-formula", message.into(), span)
}

impl Template {
    /// The formula of `pair` (a `formula` or an `atom` of the strategy
    /// grammar, over the blanked file `src`); an error where it is written.
    pub(crate) fn read(src: &str, pair: Pair<'_>) -> Result<Template, Diagnostic> {
        let formula = crate::syntax::strategy_formula(src, pair.clone()).map_err(|e| {
            let mut d = e.to_diagnostic();
            d.code = "strategy-formula";
            d
        })?;
        let mut cards = Vec::new();
        let mut counts = Vec::new();
        for p in std::iter::once(pair.clone()).chain(pair.into_inner().flatten()) {
            let at = p.as_span().start();
            match p.as_rule() {
                R::s_var_pattern => cards.push((at, Card::Rank(first_text(&p)))),
                R::s_card => {
                    if let Some(card) = p.into_inner().next().map(card) {
                        cards.push((at, card));
                    }
                }
                R::atom => {
                    if let Some(count) = count_var(&p) {
                        counts.push(count);
                    }
                }
                _ => {}
            }
        }
        let template = Template {
            formula,
            cards,
            counts,
        };
        template.check_size(1, 1)?;
        Ok(template)
    }

    /// The formula as read, variables unbound (for checks of its shape,
    /// such as `known ATOM`).
    pub fn formula(&self) -> &Formula {
        &self.formula
    }

    /// The formula speaks of knowledge or belief: it has an epistemic
    /// operator (`K`, `B`, `M`, `Kw`, `Kv`, `E`, `C`, `D`) anywhere.
    pub fn epistemic(&self) -> bool {
        epistemic(&self.formula)
    }

    /// Refuses a formula whose quantifiers would expand past
    /// [`MAX_EXPANDED`] nodes at a table of `players` players and a deck
    /// of `ranks` ranks, at the outermost quantifier that does.
    pub fn check_size(&self, players: usize, ranks: usize) -> Result<(), Diagnostic> {
        let domain = |d: &Domain| match d {
            Domain::Range(lo, hi, _) => (u64::from(*hi) + 1).saturating_sub(u64::from(*lo)),
            Domain::Players => players as u64,
            Domain::Cards => 1,
            Domain::List(names) => match names.first().map(|n| n.text.as_str()) {
                Some("others") if names.len() == 1 => players.saturating_sub(1) as u64,
                Some("ranks") if names.len() == 1 => ranks as u64,
                _ => names.len() as u64,
            },
        };
        let mut too_large = None;
        let n = size(&self.formula, &domain, &mut too_large);
        if n <= MAX_EXPANDED as u64 {
            return Ok(());
        }
        let (span, var, values) = too_large.unwrap_or((self.formula.span, String::new(), 0));
        Err(error(
            format!(
                "this quantifier over {values} values of `{var}` expands the formula to more than {} parts, more than dealer asks of a move",
                crate::diag::thousands(MAX_EXPANDED as u64)
            ),
            span,
        )
        .with_label("too large a domain")
        .with_help("quantify over a smaller domain, or nest fewer quantifiers"))
    }

    /// The formula for one move: `binding` holds the rule's variables,
    /// `me`, `others` (a list, `2,3`) and `ranks` (the deck's ranks, a
    /// list); `players` are the table's players (the domain `players`).
    pub fn instance(
        &self,
        binding: &Binding,
        players: &[String],
        facts: &dyn CardFacts,
    ) -> Result<Formula, Diagnostic> {
        let walk = Walk {
            template: self,
            players,
            facts,
            budget: Cell::new(MAX_EXPANDED),
        };
        walk.formula(&self.formula, binding)
    }
}

/// The text of a pair's first inner pair (a variable's name).
fn first_text(p: &Pair<'_>) -> String {
    p.clone()
        .into_inner()
        .next()
        .map_or_else(String::new, |v| v.as_str().to_string())
}

/// The typed card of an `s_card` pair's alternative.
fn card(p: Pair<'_>) -> Card {
    let end = |e: Pair<'_>| match e.as_rule() {
        R::s_num => End::Num(e.as_str().to_string()),
        R::s_star => End::Any,
        _ => End::Var(e.as_str().to_string()),
    };
    let rule = p.as_rule();
    let mut inner = p.into_inner();
    let fun = inner.next();
    if rule == R::s_card_fn {
        let is_rank = fun.as_ref().map(|f| f.as_rule()) == Some(R::s_fn_rank);
        let arg = inner.next().map_or_else(String::new, |a| a.as_str().to_string());
        return if is_rank {
            Card::RankOf(arg)
        } else {
            Card::SuitOf(arg)
        };
    }
    let a = fun.map_or(End::Any, end);
    let b = inner.next().map_or(End::Any, end);
    if rule == R::s_var_range {
        Card::Range(a, b)
    } else {
        Card::Set(a, b)
    }
}

/// An atom's count compared with a variable: the first byte of the atom's
/// name and the variable.
fn count_var(atom: &Pair<'_>) -> Option<(usize, String)> {
    let mut name = None;
    let mut var = None;
    for p in atom.clone().into_inner() {
        match p.as_rule() {
            R::atom_head => {
                name = p
                    .into_inner()
                    .find(|q| matches!(q.as_rule(), R::name_plain | R::name_bracket))
                    .map(|q| q.as_span().start());
            }
            R::count => {
                var = p
                    .into_inner()
                    .find(|q| q.as_rule() == R::s_count_var)
                    .map(|q| q.as_str().to_string());
            }
            _ => {}
        }
    }
    Some((name?, var?))
}

/// How many nodes `f` expands to, with `domain` the number of values of
/// a quantifier's domain (saturating); `too_large` is set to the
/// outermost quantifier that expands past [`MAX_EXPANDED`].
fn size(
    f: &Formula,
    domain: &dyn Fn(&Domain) -> u64,
    too_large: &mut Option<(Span, String, u64)>,
) -> u64 {
    use FormulaKind::*;
    let mut one = |g: &Formula| size(g, domain, too_large);
    match &f.kind {
        Not(g) | K(_, g) | B(_, g) | M(_, g) | Kw(_, g) | E(_, g) | C(_, g) | D(_, g) => {
            1 + one(g)
        }
        After(_, g) | AfterDiamond(_, g) => 1 + one(g),
        And(a, b) | Or(a, b) | Implies(a, b) | Iff(a, b) | Announce(a, b)
        | AnnounceDiamond(a, b) => {
            let a = one(a);
            1u64.saturating_add(a).saturating_add(one(b))
        }
        Quant {
            var, domain: d, body, ..
        } => {
            let values = domain(d);
            let n = values.saturating_mul(size(body, domain, too_large)).max(1);
            if n > MAX_EXPANDED as u64 {
                *too_large = Some((f.span, var.text.to_string(), values));
            }
            n
        }
        _ => 1,
    }
}

/// One instance being made: the template, the table and what is left of
/// the node budget.
struct Walk<'a> {
    template: &'a Template,
    players: &'a [String],
    facts: &'a dyn CardFacts,
    budget: Cell<usize>,
}

impl Walk<'_> {
    fn spend(&self, n: usize, span: Span) -> Result<(), Diagnostic> {
        let left = self.budget.get().checked_sub(n).ok_or_else(|| {
            error(
                format!(
                    "the formula expands to more than {} parts, more than dealer asks of a move",
                    crate::diag::thousands(MAX_EXPANDED as u64)
                ),
                span,
            )
        })?;
        self.budget.set(left);
        Ok(())
    }

    fn formula(&self, f: &Formula, b: &Binding) -> Result<Formula, Diagnostic> {
        self.spend(1, f.span)?;
        let g = |g: &Formula| self.formula(g, b).map(Box::new);
        use FormulaKind::*;
        let kind = match &f.kind {
            True => True,
            False => False,
            Named { name, card, count } => {
                let count = match self.template.counts.iter().find(|c| c.0 == name.span.start) {
                    Some((_, var)) => {
                        let value = b.get(var.as_str()).copied().unwrap_or(var);
                        let n: u32 = value.parse().map_err(|_| {
                            error(format!("`{value}` is no count of cards"), name.span)
                        })?;
                        count.map(|(op, _)| (op, n))
                    }
                    None => *count,
                };
                Named {
                    name: subst::parts(name, b),
                    card: card.as_deref().map(|c| self.card(c, b)).transpose()?.map(Box::new),
                    count,
                }
            }
            HoldsSeq { player, cards } => HoldsSeq {
                player: subst::whole(player, b),
                cards: cards.clone(),
            },
            Not(x) => Not(g(x)?),
            And(x, y) => And(g(x)?, g(y)?),
            Or(x, y) => Or(g(x)?, g(y)?),
            Implies(x, y) => Implies(g(x)?, g(y)?),
            Iff(x, y) => Iff(g(x)?, g(y)?),
            K(a, x) => K(subst::whole(a, b), g(x)?),
            B(a, x) => B(subst::whole(a, b), g(x)?),
            M(a, x) => M(subst::whole(a, b), g(x)?),
            Kw(a, x) => Kw(subst::whole(a, b), g(x)?),
            Kv(a, l) => Kv(subst::whole(a, b), Box::new(subst::parts(l, b))),
            E(grp, x) => E(group(grp, b), g(x)?),
            C(grp, x) => C(group(grp, b), g(x)?),
            D(grp, x) => D(group(grp, b), g(x)?),
            Announce(x, y) => Announce(g(x)?, g(y)?),
            AnnounceDiamond(x, y) => AnnounceDiamond(g(x)?, g(y)?),
            After(m, x) => After(Box::new(subst::move_(m, b, &|_, _| None)), g(x)?),
            AfterDiamond(m, x) => {
                AfterDiamond(Box::new(subst::move_(m, b, &|_, _| None)), g(x)?)
            }
            Quant {
                all,
                var,
                domain,
                body,
            } => return self.quantified(*all, var, domain, body, f.span, b),
            Compare { left, cmp, right } => {
                let (left, right) = (term(left, b), term(right, b));
                // `played_y = n` with `n` bound is a count, as the grammar
                // reads `played_2 = 3`.
                match (&left, &right) {
                    (Term::Name(name), Term::Num(n, _)) if u32::try_from(*n).is_ok() => Named {
                        name: name.clone(),
                        card: None,
                        count: Some((*cmp, *n as u32)),
                    },
                    _ => Compare {
                        left: Box::new(left),
                        cmp: *cmp,
                        right: Box::new(right),
                    },
                }
            }
            KvTerms(a, ts) => KvTerms(subst::whole(a, b), ts.iter().map(|t| term(t, b)).collect()),
            Call { name, args } => {
                let args: Box<[Name]> = args.iter().map(|a| subst::whole(a, b)).collect();
                match (name.text.as_str(), &*args) {
                    ("is", [card, pattern]) => {
                        let is = self
                            .facts
                            .is(&card.text, &pattern.text)
                            .map_err(|m| error(m, f.span))?;
                        if is {
                            True
                        } else {
                            False
                        }
                    }
                    ("eq", [x, y]) => {
                        if x.text == y.text {
                            True
                        } else {
                            False
                        }
                    }
                    ("is", _) => return Err(error("write `is(CARD, PATTERN)`, e.g. `is(c, *T)`", f.span)),
                    ("eq", _) => return Err(error("write `eq(x, y)`, e.g. `eq(y, Bruno)`", f.span)),
                    _ => Call {
                        name: name.clone(),
                        args,
                    },
                }
            }
        };
        Ok(Formula { kind, span: f.span })
    }

    /// `body` for each value of `domain`, joined by `&` (`all`) or `|`.
    fn quantified(
        &self,
        all: bool,
        var: &Name,
        domain: &Domain,
        body: &Formula,
        span: Span,
        b: &Binding,
    ) -> Result<Formula, Diagnostic> {
        let values: Vec<String> = match domain {
            Domain::Range(lo, hi, at) => {
                let n = (u64::from(*hi) + 1).saturating_sub(u64::from(*lo));
                if n > self.budget.get() as u64 {
                    self.spend(usize::MAX, *at)?;
                }
                (*lo..=*hi).map(|v| v.to_string()).collect()
            }
            Domain::Players => self.players.to_vec(),
            Domain::Cards => return Err(error("a strategy quantifies over `players`, `others`, `ranks` or a range", span)),
            Domain::List(names) => subst::listed(names, b)
                .into_iter()
                .map(|n| n.text.to_string())
                .collect(),
        };
        let mut parts = Vec::with_capacity(values.len());
        for value in &values {
            let mut inner: Binding = b.iter().map(|(k, v)| (*k, *v)).collect();
            inner.insert(var.text.as_str(), value.as_str());
            parts.push(Box::new(self.formula(body, &inner)?));
        }
        if parts.is_empty() {
            let kind = if all { FormulaKind::True } else { FormulaKind::False };
            return Ok(Formula { kind, span });
        }
        Ok(crate::syntax::chain(parts, all))
    }

    /// A card of an atom: a card written with variables gets its value,
    /// any other is replaced when it is bound as a whole.
    fn card(&self, c: &Name, b: &Binding) -> Result<Name, Diagnostic> {
        let Some((_, form)) = self.template.cards.iter().find(|x| x.0 == c.span.start) else {
            return Ok(subst::whole(c, b));
        };
        let value = |v: &str| b.get(v).copied().unwrap_or(v).to_string();
        let end = |e: &End| match e {
            End::Num(n) => n.clone(),
            End::Var(v) => value(v),
            End::Any => "*".to_string(),
        };
        let no_card = |v: &str| error(format!("`{}` is no card", value(v)), c.span);
        let text = match form {
            Card::Rank(v) => format!("{}*", value(v)),
            Card::RankOf(v) => self.facts.rank(&value(v)).ok_or_else(|| no_card(v))?,
            Card::SuitOf(v) => self.facts.suit(&value(v)).ok_or_else(|| no_card(v))?,
            Card::Range(x, y) => format!("{}..{}", end(x), end(y)),
            Card::Set(x, y) => format!("<{},{}>", end(x), end(y)),
        };
        Ok(Name {
            text: text.into(),
            span: c.span,
        })
    }
}

/// A term with its names replaced; a name bound to a number is the number.
fn term(t: &Term, b: &Binding) -> Term {
    let sub = |x: &Term| Box::new(term(x, b));
    match t {
        Term::Num(..) => t.clone(),
        Term::Name(name) => {
            let name = subst::parts(name, b);
            match name.text.parse::<u64>() {
                Ok(n) => Term::Num(n, name.span),
                Err(_) => Term::Name(name),
            }
        }
        Term::Add(x, y) => Term::Add(sub(x), sub(y)),
        Term::Sub(x, y) => Term::Sub(sub(x), sub(y)),
        Term::Mul(x, y) => Term::Mul(sub(x), sub(y)),
    }
}

fn group(g: &Group, b: &Binding) -> Group {
    match g {
        Group::All => Group::All,
        Group::Listed(names) => Group::Listed(subst::listed(names, b)),
    }
}

/// `f` has an epistemic operator anywhere.
pub fn epistemic(f: &Formula) -> bool {
    use crate::syntax::ast::FormulaKind::*;
    f.any(&|g| {
        matches!(
            g.kind,
            K(..) | B(..) | M(..) | Kw(..) | Kv(..) | KvTerms(..) | E(..) | C(..) | D(..)
        )
    })
}
