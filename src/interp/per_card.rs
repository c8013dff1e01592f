//! The per-card view in text: `worlds for CARD` and `why φ for CARD`.
//!
//! A model too large to list (a full deck under the symbolic engine) still
//! has few *placements* of one card: the ways its copies can lie over the
//! locations. These statements group the worlds by placement and count
//! them, with the engine's [`Backend::shares`], so they answer at any size
//! (and, on a model that can be listed, exactly what listing the worlds
//! and grouping them by hand would give; the tests compare the two).
//!
//! `why φ for CARD` explains the top operator of φ in the actual world as
//! `why` does, with placements in place of witness worlds: for `K1 ψ`
//! false, the placements player 1 considers possible, how many worlds of
//! each there are and in how many ψ holds, and one where ψ fails. Below
//! `¬` and the connectives it goes on into the operands, down to
//! [`MAX_DEPTH`] levels.

use num_bigint::BigUint;
use num_traits::Zero;

use crate::cards::rules::describe_player;
use crate::cards::table::LocKind;
use crate::diag::{Diagnostic, Span};
use crate::engine::{Agent, Among, Backend, Formula, GroupAccess, Kind, Share};
use crate::syntax::ast::{self, FormulaKind, Name};

use super::errors;
use super::explain::{count_text, indent, word};
use super::resolve::Scope;

/// The most placements a per-card statement lists.
pub const MOST_PLACEMENTS: usize = 2_000;

/// How deep `why φ for CARD` follows nested operators.
pub const MAX_DEPTH: usize = 3;

/// The card kind of `for CARD`, refused in a scenario without cards.
pub fn card(scope: &Scope, name: &Name) -> Result<Kind, Diagnostic> {
    if scope.table.deck.kinds.is_empty() {
        return Err(Diagnostic::error(
            "no-cards",
            format!("`for {}`: this scenario has no cards", name.text),
            name.span,
        )
        .with_help("`for CARD` projects a card game's model; drop it for an explicit model"));
    }
    scope.table.deck.card(name)
}

/// The per-card view of one model.
pub struct PerCard<'a> {
    /// Name resolution.
    pub scope: &'a Scope<'a>,
    /// The model.
    pub model: &'a dyn Backend,
    /// The statement's source, for quoting subformulas.
    pub src: &'a str,
    /// The card kind.
    pub kind: Kind,
    /// Where the statement is (for errors).
    pub span: Span,
    /// Formulas said in words (the quiz) rather than quoted from the
    /// source (`why φ for CARD`).
    pub worded: bool,
}

impl PerCard<'_> {
    /// "world(s)", or "state(s)" when the engine counts the states of a
    /// structure that may hold several copies of a world.
    fn unit(&self) -> &'static str {
        if self.model.counts_exact() {
            "world(s)"
        } else {
            "state(s)"
        }
    }

    fn card_name(&self) -> &str {
        &self.scope.table.deck.kinds[self.kind].name
    }

    fn who(&self, a: Agent) -> String {
        describe_player(self.scope.table, a)
    }

    /// A placement in words: `the pay 1`, `2 in player 2's hand`.
    fn placement_words(&self, key: &[u32]) -> String {
        let table = self.scope.table;
        let parts: Vec<String> = key
            .iter()
            .enumerate()
            .filter(|(l, &n)| n > 0 && !(table.phantom > 0 && *l == table.stock()))
            .map(|(l, &n)| {
                let loc = &table.locations[l];
                let place = match loc.kind {
                    LocKind::Hand(a) => format!("{}'s hand", self.who(a)),
                    LocKind::Stock => "the stock".to_string(),
                    LocKind::Pile => format!("the {}", super::wording::pile_name(&loc.name)),
                    LocKind::Slot(a, i) => format!("{}'s slot {i}", self.who(a)),
                    LocKind::Books(a) => format!("{}'s books", self.who(a)),
                };
                if n > 1 {
                    format!("{n} in {place}")
                } else {
                    place
                }
            })
            .collect();
        if parts.is_empty() {
            "nowhere".to_string()
        } else {
            parts.join(", ")
        }
    }

    fn text(&self, f: &ast::Formula) -> String {
        if self.worded {
            if let Some(words) = self
                .scope
                .formula(f)
                .ok()
                .and_then(|phi| super::wording::words(self.scope.table, self.scope.props, &phi))
            {
                return format!("“{words}”");
            }
        }
        self.src
            .get(f.span.start..f.span.end)
            .unwrap_or("?")
            .trim()
            .to_string()
    }

    /// A placement as `2:5S stock:5S`, the locations that hold a copy.
    /// With `uncounted`, the stock's cards are not part of the model and
    /// are left out.
    pub fn placement(&self, key: &[u32]) -> String {
        let table = self.scope.table;
        if self.worded {
            return self.placement_words(key);
        }
        let deck = &table.deck;
        let parts: Vec<String> = key
            .iter()
            .enumerate()
            .filter(|(l, &n)| n > 0 && !(table.phantom > 0 && *l == table.stock()))
            .map(|(l, &n)| {
                let mut counts = vec![0; deck.kinds.len()];
                counts[self.kind] = n;
                format!(
                    "{}:{}",
                    self.scope.table.locations[l].name,
                    deck.show_cards(&counts)
                )
            })
            .collect();
        if parts.is_empty() {
            "nowhere".to_string()
        } else {
            parts.join(" ")
        }
    }

    /// The engine's split of the worlds `among` counts, refused past
    /// [`MOST_PLACEMENTS`].
    fn shares(&self, among: &Among, f: &Formula) -> Result<Vec<Share>, Diagnostic> {
        let found = self
            .model
            .shares(self.kind, among, f, MOST_PLACEMENTS)
            .map_err(|e| errors::engine(&e, self.span))?;
        if found.len() > MOST_PLACEMENTS {
            return Err(Diagnostic::error(
                "too-many-to-list",
                format!(
                    "{} lies in more than {MOST_PLACEMENTS} ways in these worlds",
                    self.card_name()
                ),
                self.span,
            )
            .with_label("too many placements to list")
            .with_help("ask with `?` or `expect` instead"));
        }
        Ok(found)
    }

    fn value(&self, f: &ast::Formula) -> Result<bool, Diagnostic> {
        let phi = self.scope.formula(f)?;
        self.model
            .eval_actual(&phi)
            .map_err(|e| errors::engine(&e, f.span))
    }

    /// The table of placements: one line each, the actual one marked `*`,
    /// with its count of worlds and, when `holds` names a formula, in how
    /// many of them it holds.
    fn table(&self, shares: &[Share], holds: Option<&str>) -> Vec<String> {
        let width = shares
            .iter()
            .map(|s| self.placement(&s.key).chars().count())
            .max()
            .unwrap_or(0);
        shares
            .iter()
            .map(|s| {
                let mark = if s.actual { "*" } else { " " };
                let place = self.placement(&s.key);
                let pad = " ".repeat(width - place.chars().count());
                let count = format!("{} {}", count_text(&s.worlds), self.unit());
                match holds {
                    None => format!("{mark} {place}{pad}  {count}"),
                    Some(_) if self.worded => format!(
                        "{mark} {place}{pad}  {count}; true in {}",
                        amount(&s.holding, &s.worlds)
                    ),
                    Some(text) => format!(
                        "{mark} {place}{pad}  {count}; {text} in {}",
                        amount(&s.holding, &s.worlds)
                    ),
                }
            })
            .collect()
    }

    /// `worlds for CARD`, `worlds P for CARD`, `worlds where φ for CARD`.
    pub fn worlds(
        &self,
        player: Option<Agent>,
        filter: Option<&ast::Formula>,
    ) -> Result<Vec<String>, Diagnostic> {
        let phi = match filter {
            Some(f) => self.scope.formula(f)?,
            None => Formula::Top,
        };
        let among = match player {
            Some(p) => Among::Agent(p),
            None => Among::Reachable,
        };
        let shares = self.shares(&among, &phi)?;
        let total: BigUint = shares.iter().map(|s| &s.worlds).sum();
        let whose = match player {
            Some(p) => format!("{} considers possible", self.who(p)),
            None => "reachable".to_string(),
        };
        let mut out = vec![format!(
            "{} lies in {} way(s) among the {} {} {whose} (* is the actual world's):",
            self.card_name(),
            shares.len(),
            count_text(&total),
            self.unit(),
        )];
        let text = filter.map(|f| self.text(f));
        out.extend(indent(self.table(&shares, text.as_deref())));
        Ok(out)
    }

    /// `why φ for CARD`.
    pub fn why(&self, f: &ast::Formula) -> Result<Vec<String>, Diagnostic> {
        let value = self.value(f)?;
        let mut out = vec![format!(
            "{} is {} in the actual world, where {} lies at {}",
            self.text(f),
            word(value),
            self.card_name(),
            self.placement(&self.actual_key()),
        )];
        out.extend(indent(self.reason(f, value, 0)?));
        Ok(out)
    }

    fn actual_key(&self) -> Vec<u32> {
        self.model
            .actual_cards()
            .iter()
            .map(|at| at.get(self.kind).copied().unwrap_or(0))
            .collect()
    }

    fn names(&self, agents: &[Agent]) -> String {
        agents
            .iter()
            .map(|&a| self.who(a))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Why `f` has `value` in the actual world.
    fn reason(
        &self,
        f: &ast::Formula,
        value: bool,
        depth: usize,
    ) -> Result<Vec<String>, Diagnostic> {
        match &f.kind {
            FormulaKind::K(p, inner) | FormulaKind::B(p, inner) => {
                let a = self.scope.agent(p)?;
                let who = format!("{} considers possible", self.who(a));
                self.over(&Among::Agent(a), &who, inner, Quantifier::All)
            }
            FormulaKind::M(p, inner) => {
                let a = self.scope.agent(p)?;
                let who = format!("{} considers possible", self.who(a));
                self.over(&Among::Agent(a), &who, inner, Quantifier::Some)
            }
            FormulaKind::Kw(p, inner) => {
                let a = self.scope.agent(p)?;
                let who = format!("{} considers possible", self.who(a));
                self.over(&Among::Agent(a), &who, inner, Quantifier::Whether)
            }
            FormulaKind::E(g, inner) => {
                let agents = self.scope.group(g)?;
                let who = format!("one of {} considers possible", self.names(&agents));
                let among = Among::Group(GroupAccess::Everybody, agents);
                self.over(&among, &who, inner, Quantifier::All)
            }
            FormulaKind::C(g, inner) => {
                let agents = self.scope.group(g)?;
                let who = format!(
                    "are reachable along the possibilities of {}",
                    self.names(&agents)
                );
                let among = Among::Group(GroupAccess::Common, agents);
                self.over(&among, &who, inner, Quantifier::All)
            }
            FormulaKind::D(g, inner) => {
                let agents = self.scope.group(g)?;
                let who = format!("{} together consider possible", self.names(&agents));
                let among = Among::Group(GroupAccess::Distributed, agents);
                self.over(&among, &who, inner, Quantifier::All)
            }
            FormulaKind::Not(inner) => {
                let mut lines = vec![format!("because {} is {}", self.text(inner), word(!value))];
                lines.extend(self.deeper(inner, !value, depth)?);
                Ok(lines)
            }
            FormulaKind::And(a, b)
            | FormulaKind::Or(a, b)
            | FormulaKind::Implies(a, b)
            | FormulaKind::Iff(a, b) => {
                let mut lines = Vec::new();
                for part in [a, b] {
                    let v = self.value(part)?;
                    lines.push(format!("{} is {}", self.text(part), word(v)));
                    lines.extend(self.deeper(part, v, depth)?);
                }
                Ok(lines)
            }
            _ => Ok(Vec::new()),
        }
    }

    /// The explanation of a subformula, when the depth allows it.
    fn deeper(
        &self,
        f: &ast::Formula,
        value: bool,
        depth: usize,
    ) -> Result<Vec<String>, Diagnostic> {
        if depth + 1 >= MAX_DEPTH {
            return Ok(Vec::new());
        }
        Ok(indent(self.reason(f, value, depth + 1)?))
    }

    /// The placements among the worlds `among` counts, with how often
    /// `inner` holds in each, and the conclusion that `quantifier` draws.
    fn over(
        &self,
        among: &Among,
        who: &str,
        inner: &ast::Formula,
        quantifier: Quantifier,
    ) -> Result<Vec<String>, Diagnostic> {
        let phi = self.scope.formula(inner)?;
        let shares = self.shares(among, &phi)?;
        let text = self.text(inner);
        let total: BigUint = shares.iter().map(|s| &s.worlds).sum();
        let holding: BigUint = shares.iter().map(|s| &s.holding).sum();
        let unit = self.unit();
        let mut lines = vec![format!(
            "the {} {unit} that {who}: {} lies in {} way(s) there",
            count_text(&total),
            self.card_name(),
            shares.len()
        )];
        lines.extend(indent(self.table(&shares, Some(&text))));
        let all = holding == total;
        let none = holding.is_zero();
        let fails = shares.iter().find(|s| s.holding < s.worlds);
        let holds = shares.iter().find(|s| !s.holding.is_zero());
        let place = |s: &Share| self.placement(&s.key);
        lines.push(match quantifier {
            _ if total.is_zero() => format!("so no {unit} at all"),
            Quantifier::All if all => format!("so {text} holds in every one of them"),
            Quantifier::Some if none => format!("so {text} holds in none of them"),
            Quantifier::Whether if all || none => {
                format!("so {text} is {} in every one of them", word(all))
            }
            Quantifier::All => match fails {
                Some(s) => format!("so not everywhere: {text} fails where {}", place(s)),
                None => format!("so not everywhere: {text} fails in some"),
            },
            Quantifier::Some => match holds {
                Some(s) => format!("so {text} holds in some: where {}", place(s)),
                None => format!("so {text} holds in some"),
            },
            Quantifier::Whether => match (holds, fails) {
                (Some(h), Some(f)) => format!(
                    "so both: {text} holds where {} and fails where {}",
                    place(h),
                    place(f)
                ),
                _ => format!("so {text} is true in some and false in others"),
            },
        });
        Ok(lines)
    }
}

/// How an operator reads its worlds: □ (all), ◇ (some), or whether.
#[derive(Clone, Copy)]
enum Quantifier {
    All,
    Some,
    Whether,
}

/// `all`, `none`, or how many.
fn amount(part: &BigUint, whole: &BigUint) -> String {
    if part == whole {
        "all".to_string()
    } else if part.is_zero() {
        "none".to_string()
    } else {
        count_text(part)
    }
}
