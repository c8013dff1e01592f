//! Explanations built from the model: `worlds`, `stats` and `why`.
//!
//! Worlds are shown by their id (`w3`) and their cards, player 1 first:
//! `w3  1:QQ 2:A 3:A stock:QQA`, or by their true propositions for explicit
//! models. The actual world is marked with `*`.

use std::collections::{HashSet, VecDeque};

use crate::cards::rules::describe_player;
use crate::cards::{LocKind, Table};
use crate::diag::Diagnostic;
use crate::engine::{Agent, Backend, Formula, WorldId};
use crate::syntax::ast::{self, FormulaKind, Group};

use super::resolve::Scope;

/// A world in one line: `w3* 1:QQ 2:A 3:A stock:QQA` or `w1* p q`.
pub fn world_line(table: &Table, props: &[String], model: &dyn Backend, w: WorldId) -> String {
    let view = model.world(w);
    let mark = if w == model.actual() { "*" } else { " " };
    let mut parts = Vec::new();
    if !table.deck.kinds.is_empty() {
        for (l, loc) in table.locations.iter().enumerate() {
            let empty = view.cards[l].iter().all(|&n| n == 0);
            if empty && !matches!(loc.kind, LocKind::Hand(_)) {
                continue;
            }
            parts.push(format!(
                "{}:{}",
                loc.name,
                table.deck.show_cards(&view.cards[l])
            ));
        }
    }
    let true_props: Vec<&str> = props
        .iter()
        .zip(&view.props)
        .filter(|(_, &v)| v)
        .map(|(p, _)| p.as_str())
        .collect();
    if !true_props.is_empty() || table.deck.kinds.is_empty() {
        parts.push(if true_props.is_empty() {
            "(no proposition true)".into()
        } else {
            true_props.join(" ")
        });
    }
    format!("w{w}{mark} {}", parts.join(" "))
}

/// `worlds` / `worlds P`: every world, or the ones P considers possible.
pub fn worlds(
    table: &Table,
    props: &[String],
    model: &dyn Backend,
    player: Option<Agent>,
) -> Vec<String> {
    let ids: Vec<WorldId> = match player {
        Some(p) => model.accessible(p, model.actual()),
        None => (0..model.world_count() as usize).collect(),
    };
    let head = match player {
        Some(p) => format!(
            "{} considers {} world(s) possible:",
            describe_player(table, p),
            ids.len()
        ),
        None => format!("{} world(s) (* is the actual world):", ids.len()),
    };
    let mut out = vec![head];
    out.extend(
        ids.into_iter()
            .map(|w| format!("  {}", world_line(table, props, model, w))),
    );
    out
}

/// `stats`: the number of worlds and how many each player considers possible.
pub fn stats(table: &Table, model: &dyn Backend) -> Vec<String> {
    let mut out = vec![format!("worlds: {}", model.world_count())];
    for p in 0..table.players.len() {
        out.push(format!(
            "  {} considers {} possible",
            describe_player(table, p),
            model.considers(p)
        ));
    }
    if !model.is_s5() {
        out.push("  (relations are not all S5: K reads as belief)".into());
    }
    out
}

/// The context `why` works in.
pub struct Why<'a> {
    /// Name resolution.
    pub scope: &'a Scope<'a>,
    /// The model.
    pub model: &'a dyn Backend,
    /// The scenario's source, for quoting subformulas.
    pub src: &'a str,
}

impl Why<'_> {
    fn text(&self, f: &ast::Formula) -> String {
        self.src
            .get(f.span.start..f.span.end)
            .unwrap_or("?")
            .trim()
            .to_string()
    }

    fn world(&self, w: WorldId) -> String {
        world_line(self.scope.table, self.scope.props, self.model, w)
    }

    fn truth(&self, f: &Formula) -> Result<HashSet<WorldId>, Diagnostic> {
        let sat = self
            .model
            .satisfying(f)
            .map_err(|e| Diagnostic::error("engine", e.to_string(), Default::default()))?;
        Ok(sat.into_iter().collect())
    }

    /// Explains why `f` is true or false in the actual world.
    pub fn explain(&self, f: &ast::Formula) -> Result<Vec<String>, Diagnostic> {
        let resolved = self.scope.formula(f)?;
        let value = self
            .model
            .eval_actual(&resolved)
            .map_err(|e| Diagnostic::error("engine", e.to_string(), f.span))?;
        let mut out = vec![format!(
            "{} is {} in the actual world",
            self.text(f),
            if value { "true" } else { "false" }
        )];
        out.extend(self.reason(f, value)?.into_iter().map(|l| format!("  {l}")));
        Ok(out)
    }

    fn reason(&self, f: &ast::Formula, value: bool) -> Result<Vec<String>, Diagnostic> {
        let actual = self.model.actual();
        Ok(match &f.kind {
            FormulaKind::K(p, inner) | FormulaKind::B(p, inner) | FormulaKind::M(p, inner) => {
                let diamond = matches!(f.kind, FormulaKind::M(..));
                self.modal(self.scope.agent(p)?, inner, value, diamond)?
            }
            FormulaKind::C(g, inner) => self.common(g, inner, value)?,
            FormulaKind::E(g, inner) => {
                let agents = self.group(g)?;
                let inner_f = self.scope.formula(inner)?;
                let mut lines = Vec::new();
                for a in agents {
                    let knows = self
                        .model
                        .eval_actual(&Formula::K(a, Box::new(inner_f.clone())))
                        .unwrap_or(false);
                    lines.push(format!(
                        "{} {} {}",
                        describe_player(self.scope.table, a),
                        if knows { "knows" } else { "does not know" },
                        self.text(inner)
                    ));
                }
                lines
            }
            FormulaKind::Not(inner) => vec![format!(
                "because {} is {}",
                self.text(inner),
                if value { "false" } else { "true" }
            )],
            FormulaKind::And(a, b)
            | FormulaKind::Or(a, b)
            | FormulaKind::Implies(a, b)
            | FormulaKind::Iff(a, b) => {
                let va = self
                    .model
                    .eval_actual(&self.scope.formula(a)?)
                    .unwrap_or(false);
                let vb = self
                    .model
                    .eval_actual(&self.scope.formula(b)?)
                    .unwrap_or(false);
                vec![
                    format!("{} is {}", self.text(a), va),
                    format!("{} is {}", self.text(b), vb),
                ]
            }
            _ => vec![format!("the actual world: {}", self.world(actual))],
        })
    }

    fn group(&self, g: &Group) -> Result<Vec<Agent>, Diagnostic> {
        match g {
            Group::All => Ok((0..self.scope.table.players.len()).collect()),
            Group::Listed(names) => names.iter().map(|n| self.scope.agent(n)).collect(),
        }
    }

    fn modal(
        &self,
        agent: Agent,
        inner: &ast::Formula,
        value: bool,
        diamond: bool,
    ) -> Result<Vec<String>, Diagnostic> {
        let sat = self.truth(&self.scope.formula(inner)?)?;
        let access = self.model.accessible(agent, self.model.actual());
        let who = describe_player(self.scope.table, agent);
        let n = access.len();
        let text = self.text(inner);
        let witness = |want: bool| access.iter().copied().find(|w| sat.contains(w) == want);
        Ok(match (diamond, value) {
            (false, true) => vec![format!(
                "in all {n} world(s) {who} considers possible, {text} holds"
            )],
            (true, false) => vec![format!(
                "in none of the {n} world(s) {who} considers possible does {text} hold"
            )],
            (false, false) => {
                let w = witness(false).unwrap_or(self.model.actual());
                vec![
                    format!("{who} considers possible a world where {text} is false:"),
                    format!("  {}", self.world(w)),
                ]
            }
            (true, true) => {
                let w = witness(true).unwrap_or(self.model.actual());
                vec![
                    format!("{who} considers possible a world where {text} holds:"),
                    format!("  {}", self.world(w)),
                ]
            }
        })
    }

    fn common(
        &self,
        g: &Group,
        inner: &ast::Formula,
        value: bool,
    ) -> Result<Vec<String>, Diagnostic> {
        let agents = self.group(g)?;
        let sat = self.truth(&self.scope.formula(inner)?)?;
        let text = self.text(inner);
        let (reach, path) = self.search(&agents, &sat);
        if value {
            return Ok(vec![format!(
                "{text} holds in all {reach} world(s) reachable from the actual world"
            )]);
        }
        let mut lines = vec![format!(
            "a chain of possibilities leads to a world where {text} is false:"
        )];
        let mut prev: Option<WorldId> = None;
        for (agent, w) in path {
            let step = match (prev, agent) {
                (Some(_), Some(a)) => format!(
                    "{} considers possible",
                    describe_player(self.scope.table, a)
                ),
                _ => "the actual world".into(),
            };
            lines.push(format!("  {step}: {}", self.world(w)));
            prev = Some(w);
        }
        Ok(lines)
    }

    /// Breadth-first search from the actual world along the agents'
    /// relations (paths of length ≥ 1): the number of worlds reached, and the
    /// shortest path to a world outside `sat` (empty when there is none).
    fn search(
        &self,
        agents: &[Agent],
        sat: &HashSet<WorldId>,
    ) -> (usize, Vec<(Option<Agent>, WorldId)>) {
        let start = self.model.actual();
        let mut parent: std::collections::HashMap<WorldId, (WorldId, Agent)> = Default::default();
        let mut seen = HashSet::new();
        let mut queue = VecDeque::from([start]);
        while let Some(w) = queue.pop_front() {
            for &a in agents {
                for v in self.model.accessible(a, w) {
                    if !seen.insert(v) {
                        continue;
                    }
                    parent.entry(v).or_insert((w, a));
                    if !sat.contains(&v) {
                        return (seen.len(), chain(&parent, start, v));
                    }
                    queue.push_back(v);
                }
            }
        }
        (seen.len(), Vec::new())
    }
}

fn chain(
    parent: &std::collections::HashMap<WorldId, (WorldId, Agent)>,
    start: WorldId,
    end: WorldId,
) -> Vec<(Option<Agent>, WorldId)> {
    let mut path = vec![];
    let mut w = end;
    while let Some(&(p, a)) = parent.get(&w) {
        path.push((Some(a), w));
        if p == start {
            break;
        }
        w = p;
    }
    path.push((None, start));
    path.reverse();
    path
}
