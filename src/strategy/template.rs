//! A rule's formula (its guard, a score's `[φ]` or `known` atom) as the
//! scenario grammar built it, and its instance for one legal move.
//!
//! The grammar (`grammar/strategy.pest` with `grammar/dealer.pest`) reads
//! the formula once, when the strategy is loaded, into an
//! [`ast::Formula`](Formula) with the strategy's quantifiers
//! `any(y in D: φ)` as [`FormulaKind::Quant`]. What the tree cannot hold
//! as a name, the template keeps typed beside it, by where it is written:
//! a card written with variables (`v*`, `rank(c)`, `0..t`, `<t,v>`) and a count compared with a variable (`hand_me(v*) >= n`).
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

type Pair<'a> = pest::iterators::Pair<'a, R>;

/// The most formula nodes a rule's formula may expand to for one move (a
/// formula asked move after move, so far fewer than a scenario's
/// quantifier may make once). A quantifier over a larger domain, or
/// nested deeper, is refused where it is written.
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

/// What a rule's card functions (`rank(c)`, `suit(c)`, `is(c, P)`) and
/// the domain `ranks` ask of the deck.
pub trait CardFacts {
    /// The pattern of the card's rank (`5*`).
    fn rank(&self, card: &str) -> Option<String>;
    /// The pattern of the card's suit (`*S`; trumps `*T`).
    fn suit(&self, card: &str) -> Option<String>;
    /// Whether the card matches the pattern.
    fn is(&self, card: &str, pattern: &str) -> Result<bool, String>;
    /// The deck's ranks in deck order (`2` … `6`, or `2` … `A`): the
    /// domain `ranks` of a quantifier.
    fn ranks(&self) -> Vec<String>;
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
        let arg = inner
            .next()
            .map_or_else(String::new, |a| a.as_str().to_string());
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

/// How many nodes an instance of `f` visits (what [`Walk`] spends), with
/// `domain` the number of values of a quantifier's domain (saturating);
/// `too_large` is set to the outermost quantifier that expands past
/// [`MAX_EXPANDED`].
fn size(
    f: &Formula,
    domain: &dyn Fn(&Domain) -> u64,
    too_large: &mut Option<(Span, String, u64)>,
) -> u64 {
    use FormulaKind::*;
    let mut one = |g: &Formula| size(g, domain, too_large);
    match &f.kind {
        Not(g) | K(_, g) | B(_, g) | M(_, g) | Kw(_, g) | E(_, g) | C(_, g) | D(_, g) => 1 + one(g),
        After(_, g) | AfterDiamond(_, g) => 1 + one(g),
        And(a, b)
        | Or(a, b)
        | Implies(a, b)
        | Iff(a, b)
        | Announce(a, b)
        | AnnounceDiamond(a, b) => {
            let a = one(a);
            1u64.saturating_add(a).saturating_add(one(b))
        }
        Quant {
            var,
            domain: d,
            body,
            ..
        } => {
            // The quantifier itself, then its body once a value.
            let values = domain(d);
            let n = values
                .saturating_mul(size(body, domain, too_large))
                .saturating_add(1);
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
                    card: card
                        .as_deref()
                        .map(|c| self.card(c, b))
                        .transpose()?
                        .map(Box::new),
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
            AfterDiamond(m, x) => AfterDiamond(Box::new(subst::move_(m, b, &|_, _| None)), g(x)?),
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
                    ("is", _) => {
                        return Err(error("write `is(CARD, PATTERN)`, e.g. `is(c, *T)`", f.span))
                    }
                    ("eq", _) => {
                        return Err(error("write `eq(x, y)`, e.g. `eq(y, Bruno)`", f.span))
                    }
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
            Domain::Cards => {
                return Err(error(
                    "a strategy quantifies over `players`, `others`, `ranks` or a range",
                    span,
                ))
            }
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
            let kind = if all {
                FormulaKind::True
            } else {
                FormulaKind::False
            };
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::parse;
    use crate::syntax::parse_formula;

    /// Card facts for a deck of ranks 2 and 3 whose spades are `*S`.
    struct Spades;

    impl CardFacts for Spades {
        fn rank(&self, c: &str) -> Option<String> {
            c.strip_suffix('S').map(|r| format!("{r}*"))
        }
        fn suit(&self, c: &str) -> Option<String> {
            c.ends_with('S').then(|| "*S".to_string())
        }
        fn is(&self, c: &str, pattern: &str) -> Result<bool, String> {
            if !c.ends_with('S') {
                return Err(format!("`{c}` is no card"));
            }
            Ok(pattern == "*S" || pattern.strip_suffix('*') == c.strip_suffix('S'))
        }
        fn ranks(&self) -> Vec<String> {
            ["2", "3"].map(String::from).to_vec()
        }
    }

    fn players() -> Vec<String> {
        ["1", "2", "3"].map(String::from).to_vec()
    }

    /// The guard of a one-rule strategy whose move binds `x`, `r`, `c`, `t`
    /// and `w`.
    fn guard(text: &str) -> Template {
        let src = format!("strategy s for g\nrule r: deal x r c t w when {text}\n");
        let s = parse(&src).unwrap_or_else(|d| panic!("{text}: {d:?}"));
        s.rules[0].guard.clone().expect("a guard")
    }

    /// A formula's shape and names, without where they were written.
    fn unspanned(f: &Formula) -> String {
        let debug = format!("{:?}", f.kind);
        debug
            .split("span: Span")
            .map(|s| s.split_once('}').map_or(s, |(_, rest)| rest))
            .collect()
    }

    /// The guard's instance for `pairs` (with `me` = 1, `others` = 2,3 and
    /// the ranks 2, 3) is the formula written out by hand: the same
    /// `Formula` value but for the places.
    fn agree(text: &str, pairs: &[(&str, &str)], by_hand: &str) {
        let mut b: Binding = pairs.iter().copied().collect();
        b.extend([("me", "1"), ("others", "2,3"), ("ranks", "2,3")]);
        let got = guard(text).instance(&b, &players(), &Spades).unwrap();
        let want = parse_formula(by_hand).unwrap();
        assert_eq!(unspanned(&got), unspanned(&want), "{text}");
        assert_eq!(got.to_string(), want.to_string(), "{text}");
    }

    #[test]
    fn a_variable_substituted_on_the_tree_is_the_formula_written_by_hand() {
        agree(
            "K_me hand_x(r) & K_me E{others} hand_me(r)",
            &[("x", "2"), ("r", "Q")],
            "K_1 hand_2(Q) & K_1 E{2, 3} hand_1(Q)",
        );
        agree(
            "any(y in others: K_me hand_y(rank(c)) >= 1)",
            &[("c", "5S")],
            "(K_1 hand_2(5*) >= 1) | (K_1 hand_3(5*) >= 1)",
        );
        agree(
            "any(w in 1..2: K_me !me.w(0..t)) & is(c, *S) & !eq(x, 3)",
            &[("t", "7"), ("c", "4S"), ("x", "3")],
            "((K_1 !1.1(0..7)) | (K_1 !1.2(0..7))) & true & !true",
        );
        agree(
            "hand_x(<3,w>) & hand_me(suit(c)) = 0 & table(rank(5S)) & hand_x(<t,*>)",
            &[("x", "2"), ("w", "4"), ("c", "9S"), ("t", "6")],
            "hand_2(<3,4>) & hand_1(*S) = 0 & table(5*) & hand_2(<6,*>)",
        );
        // Counts and comparisons with a bound number are counts, as
        // `played_2 = 1` is.
        agree(
            "all(v in ranks: all(n in 1..2: hand_me(v*) >= n -> played_x = n))",
            &[("x", "2")],
            "((hand_1(2*) >= 1 -> played_2 = 1) & (hand_1(2*) >= 2 -> played_2 = 2)) \
             & ((hand_1(3*) >= 1 -> played_2 = 1) & (hand_1(3*) >= 2 -> played_2 = 2))",
        );
        // A name bound again by an inner quantifier is the inner one's.
        agree(
            "any(y in players: K_y any(y in 1..2: hand_y(Q)))",
            &[],
            "(K_1 (hand_1(Q) | hand_2(Q))) | (K_2 (hand_1(Q) | hand_2(Q))) | (K_3 (hand_1(Q) | hand_2(Q)))",
        );
    }

    /// A quantifier over a domain too large to expand is refused where it
    /// is written: a range as a scenario's (at most 1,000 values) and
    /// nested ranges when the file is read, `players` when the strategy is
    /// seated at a table; none is ever listed.
    #[test]
    fn a_quantifier_over_a_huge_domain_is_refused_where_it_is_written() {
        let start = std::time::Instant::now();
        let src =
            "strategy s for g\nrule r: any \\\n  when p & any(y in 1..100000000: hand_me = 1)\n";
        let d = parse(src).unwrap_err();
        assert_eq!(d.code, "strategy-formula", "{d:?}");
        assert_eq!(crate::diag::line_col(src, d.span.start), (3, 21), "{d:?}");
        assert!(d.message.contains("too long"), "{}", d.message);
        let src = "strategy s for g\nrule r: any when any(y in 1..99999999999: p)\n";
        let d = parse(src).unwrap_err();
        assert!(src[d.span.start..].starts_with("1..99999999999"), "{d:?}");
        // Two nested ranges of 1,000 values: a million copies.
        let src =
            "strategy s for g\n\nrule r: any when p | all(a in 1..1000: any(b in 1..1000: q))\n";
        let d = parse(src).unwrap_err();
        assert_eq!(crate::diag::line_col(src, d.span.start), (3, 22), "{d:?}");
        assert!(d.message.contains("1000 values of `a`"), "{}", d.message);
        // Nine nested quantifiers over four players: 4^9 copies.
        let mut text = "hand_me(Q)".to_string();
        for i in 0..9 {
            text = format!("any(y{i} in players: K_y{i} {text})");
        }
        let t = guard(&text);
        t.check_size(3, 13).unwrap();
        let d = t.check_size(4, 13).unwrap_err();
        assert_eq!(d.span.start, t.formula().span.start, "{d:?}");
        assert!(
            d.message.contains("more than 65,536 parts"),
            "{}",
            d.message
        );
        assert!(start.elapsed() < std::time::Duration::from_secs(2));
    }

    /// A guard's error, from the grammar or from building its formula,
    /// points at its line and column in the file.
    #[test]
    fn a_guard_error_points_at_its_line_and_column() {
        for (src, line, at) in [
            // `K` without its player, on the rule's second line.
            (
                "strategy s for g\n# comment\nrule r: ask me x y \\\n  when K hand_x(y)\n",
                4,
                "K hand_x",
            ),
            // A bracket not closed: the grammar stops at the line's end.
            (
                "strategy s for g\nrule r: ask me x y when K_me (hand_x(y)\n",
                2,
                "\n",
            ),
            // A count too large for the builder.
            (
                "strategy s for g\nrule r: any when hand_me(Q) >= 99999999999\n",
                2,
                "99999999999",
            ),
            // Non-ASCII where a formula should go on.
            ("strategy s for g\nrule r: any when p ∧ ∧ q\n", 2, "∧ q"),
        ] {
            let d = parse(src).expect_err(src);
            assert_eq!(
                crate::diag::line_col(src, d.span.start).0,
                line,
                "{src}: {d:?}"
            );
            assert!(src[d.span.start..].starts_with(at), "{src}: {d:?}");
        }
        // A formula with the language's symbols is read.
        assert_eq!(
            guard("¬hand_x(r) ∧ K_me hand_me(r)").formula().to_string(),
            "!hand_x(r) & K_me hand_me(r)"
        );
    }

    #[test]
    fn a_bad_card_in_a_function_is_an_error_at_the_move() {
        let b: Binding = [("c", "ZZ")].into_iter().collect();
        let err = guard("is(c, *S)")
            .instance(&b, &players(), &Spades)
            .unwrap_err();
        assert!(err.message.contains("`ZZ` is no card"), "{err:?}");
        let err = guard("hand_me(rank(c))")
            .instance(&b, &players(), &Spades)
            .unwrap_err();
        assert!(err.message.contains("`ZZ` is no card"), "{err:?}");
    }

    /// A guard is about knowledge when an epistemic operator occurs
    /// anywhere in it, under connectives and announcements too; a fact of
    /// the hands or the piles is not.
    #[test]
    fn a_guard_is_about_knowledge_when_an_epistemic_operator_occurs_in_it() {
        for (text, knows) in [
            ("K1 hand_2(Q)", true),
            ("hand_1(Q) & ~hand_2(Q)", false),
            ("hand_1(Q) & ~(hand_2(K) | M1 hand_2(Q))", true),
            ("[!hand_1(Q)] Kw2 hand_1(Q)", true),
            ("[!hand_2(Q)] hand_1(Q)", false),
            ("C{1,2} hand_1(Q)", true),
            ("any(y in others: hand_y(Q))", false),
            ("any(y in others: K_y hand_me(Q))", true),
        ] {
            assert_eq!(guard(text).epistemic(), knows, "{text}");
        }
    }
}
