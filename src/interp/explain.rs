//! Explanations built from the model: `worlds`, `stats` and `why`.
//!
//! Worlds are shown by their id (`w3`) and their cards, player 1 first:
//! `w3  1:QQ 2:A 3:A stock:QQA`, or by their true propositions for explicit
//! models; the worlds of a written `model { }` by the names written there
//! (until the first move), the same on both engines. The actual world is
//! marked with `*`.
//!
//! `why φ` explains the top operator of φ in the actual world from the model:
//! a world a player considers possible where the formula fails (or "in all N
//! worlds..."), a chain of players and worlds for C, the group's worlds for
//! D, the announced model for `[!ψ]`. The explanation goes on into nested
//! operators, at the witness worlds, down to [`MAX_DEPTH`] levels.

use std::collections::{HashMap, HashSet, VecDeque};

use crate::cards::events;
use crate::cards::rules::describe_player;
use crate::cards::{LocKind, Table};
use crate::diag::Diagnostic;
use crate::engine::{Agent, Backend, EngineError, Formula, GroupAccess, Representation, WorldId};
use crate::syntax::ast::{self, FormulaKind, Group};

use super::errors;
use super::resolve::Scope;
use super::session::WorldNames;

/// A world's name, as `worlds`, `why` and the figures give it: its written
/// name with `names` (the worlds of a written model), its values for a
/// world of variables (`month=7,day=16`), else `w3`.
pub fn world_name(
    table: &Table,
    props: &[String],
    names: Option<&WorldNames>,
    model: &dyn Backend,
    w: WorldId,
) -> String {
    if let Some(name) = names.and_then(|n| n.names.get(w)) {
        return name.clone();
    }
    if table.deck.kinds.is_empty() {
        let shown = values(props, &model.world(w).props);
        if !shown.is_empty() {
            return shown.join(",");
        }
    }
    format!("w{w}")
}

/// The values of a world's variables (`month=7`), from the bits of their
/// propositions (`month#0`, `month#1`...).
fn values(props: &[String], bits: &[bool]) -> Vec<String> {
    let mut values: Vec<(&str, u128)> = Vec::new();
    for (p, &v) in props.iter().zip(bits) {
        if let Some((var, bit)) = p.split_once('#') {
            let bit: u32 = bit.parse().unwrap_or(0);
            match values.last_mut() {
                Some((last, value)) if *last == var => *value |= u128::from(v) << bit,
                _ => values.push((var, u128::from(v) << bit)),
            }
        }
    }
    values.iter().map(|(var, v)| format!("{var}={v}")).collect()
}

/// A world in one line: `w3* 1:QQ 2:A 3:A stock:QQA` or `w1* p q`, named
/// by [`world_name`].
pub fn world_line(
    table: &Table,
    props: &[String],
    names: Option<&WorldNames>,
    model: &dyn Backend,
    w: WorldId,
) -> String {
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
    let shown = values(props, &view.props);
    let true_props: Vec<&str> = props
        .iter()
        .zip(&view.props)
        .filter(|(p, &v)| v && !p.contains('#'))
        .map(|(p, _)| p.as_str())
        .chain(shown.iter().map(String::as_str))
        .collect();
    // A world of variables is named by its values (`month=7,day=16`), as
    // the whole model names it, whether or not this model keeps names.
    let by_values = table.deck.kinds.is_empty() && !shown.is_empty();
    if (names.is_some() || by_values) && !shown.is_empty() {
        parts.clear();
    } else if !true_props.is_empty() || table.deck.kinds.is_empty() {
        parts.push(if true_props.is_empty() {
            "(no proposition true)".into()
        } else {
            true_props.join(" ")
        });
    }
    let name = world_name(table, props, names, model, w);
    format!("{name}{mark} {}", parts.join(" "))
        .trim_end()
        .to_string()
}

/// `worlds` / `worlds P`: every world, or the ones P considers possible.
pub fn worlds(
    table: &Table,
    props: &[String],
    names: Option<&WorldNames>,
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
    listed(table, props, names, model, ids, head)
}

/// The lines of `worlds`: a head line, then the worlds `ids`, in the order
/// their names were written when they have names.
pub fn listed(
    table: &Table,
    props: &[String],
    names: Option<&WorldNames>,
    model: &dyn Backend,
    mut ids: Vec<WorldId>,
    head: String,
) -> Vec<String> {
    if let Some(n) = names {
        let mut rank = vec![usize::MAX; n.names.len()];
        for (i, &w) in n.order.iter().enumerate() {
            if let Some(r) = rank.get_mut(w) {
                *r = i;
            }
        }
        ids.sort_by_key(|&w| rank.get(w).copied().unwrap_or(usize::MAX));
    }
    let mut out = vec![head];
    out.extend(
        ids.into_iter()
            .map(|w| format!("  {}", world_line(table, props, names, model, w))),
    );
    out
}

/// A count as a person reads it: as it is below 10,000; with its digits
/// grouped by commas from there; and from 10^9 on, also in short
/// scientific form: `76,904,685,192,464,566,747,136 (7.7e22)`. The digits
/// stay exact (`--json` gives the bare number).
pub fn count_text(n: &num_bigint::BigUint) -> String {
    let grouped = crate::diag::thousands(n);
    let digits = grouped.bytes().filter(u8::is_ascii_digit).count();
    if digits < 10 {
        return grouped;
    }
    let short = n
        .to_string()
        .parse::<f64>()
        .map_or(String::new(), |x| format!(" ({x:.1e})"));
    format!("{grouped}{short}")
}

/// `stats`: the number of worlds and how many each player considers possible.
pub fn stats(table: &Table, model: &dyn Backend) -> Vec<String> {
    let mut out = vec![format!("worlds: {}", count_text(&model.world_count_big()))];
    for p in 0..table.players.len() {
        out.push(format!(
            "  {} considers {} possible",
            describe_player(table, p),
            count_text(&model.considers_big(p))
        ));
    }
    if !model.is_s5() {
        out.push("  (relations are not all S5: K reads as belief)".into());
    }
    if let Representation::Symbolic {
        nodes,
        variables,
        factored,
        ..
    } = model.representation()
    {
        let kept = if factored {
            "in the law's factors, one per location"
        } else {
            "in the law"
        };
        out.push(format!(
            "  engine: symbolic ({nodes} BDD nodes {kept}, {variables} variables)"
        ));
    }
    if !model.counts_exact() {
        out.push(
            "  (states of the knowledge structure, not contracted: counts are upper bounds)".into(),
        );
    }
    out
}

/// How many nested operators `why` explains.
pub const MAX_DEPTH: usize = 3;

/// The context `why` works in.
pub struct Why<'a> {
    /// Name resolution.
    pub scope: &'a Scope<'a>,
    /// The model.
    pub model: &'a dyn Backend,
    /// The written names of its worlds, if any.
    pub names: Option<&'a WorldNames>,
    /// The scenario's source, for quoting subformulas.
    pub src: &'a str,
}

fn engine_error(e: EngineError, f: &ast::Formula) -> Diagnostic {
    errors::engine(&e, f.span)
}

/// `true` or `false`.
pub(crate) fn word(value: bool) -> &'static str {
    if value {
        "true"
    } else {
        "false"
    }
}

/// The lines indented by two spaces.
pub(crate) fn indent(lines: Vec<String>) -> Vec<String> {
    lines.into_iter().map(|l| format!("  {l}")).collect()
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
        world_line(
            self.scope.table,
            self.scope.props,
            self.names,
            self.model,
            w,
        )
    }

    fn who(&self, a: Agent) -> String {
        describe_player(self.scope.table, a)
    }

    fn truth(&self, f: &ast::Formula) -> Result<HashSet<WorldId>, Diagnostic> {
        let sat = self
            .model
            .satisfying(&self.scope.formula(f)?)
            .map_err(|e| engine_error(e, f))?;
        Ok(sat.into_iter().collect())
    }

    fn value_at(&self, f: &ast::Formula, w: WorldId) -> Result<bool, Diagnostic> {
        self.model
            .eval_at(&self.scope.formula(f)?, w)
            .map_err(|e| engine_error(e, f))
    }

    /// Explains why `f` is true or false in the actual world.
    pub fn explain(&self, f: &ast::Formula) -> Result<Vec<String>, Diagnostic> {
        let actual = self.model.actual();
        let value = self.value_at(f, actual)?;
        let mut out = vec![format!(
            "{} is {} in the actual world",
            self.text(f),
            word(value)
        )];
        out.extend(indent(self.reason(f, actual, value, 0)?));
        Ok(out)
    }

    /// Why `f` has `value` at `w`, explaining nested operators below `depth`.
    fn reason(
        &self,
        f: &ast::Formula,
        w: WorldId,
        value: bool,
        depth: usize,
    ) -> Result<Vec<String>, Diagnostic> {
        match &f.kind {
            FormulaKind::K(p, inner) | FormulaKind::B(p, inner) | FormulaKind::M(p, inner) => {
                let diamond = matches!(f.kind, FormulaKind::M(..));
                let agent = self.scope.agent(p)?;
                let access = self.model.accessible(agent, w);
                let who = format!("{} considers", self.who(agent));
                self.over(&access, &who, inner, diamond, depth)
            }
            FormulaKind::Kw(p, inner) => self.knows_whether(self.scope.agent(p)?, inner, w, depth),
            FormulaKind::D(g, inner) => {
                let agents = self.scope.group(g)?;
                let access = self
                    .model
                    .group_accessible(GroupAccess::Distributed, &agents, w);
                let who = format!("{} together consider", self.names(&agents));
                self.over(&access, &who, inner, false, depth)
            }
            FormulaKind::C(g, inner) => self.common(g, inner, w, value, depth),
            FormulaKind::E(g, inner) => self.everybody(g, inner, w, value, depth),
            FormulaKind::Not(inner) => {
                let mut lines = vec![format!("because {} is {}", self.text(inner), word(!value))];
                lines.extend(self.deeper(inner, w, !value, depth)?);
                Ok(lines)
            }
            FormulaKind::And(a, b)
            | FormulaKind::Or(a, b)
            | FormulaKind::Implies(a, b)
            | FormulaKind::Iff(a, b) => self.connective(a, b, w, depth),
            FormulaKind::Announce(a, b) | FormulaKind::AnnounceDiamond(a, b) => {
                let diamond = matches!(f.kind, FormulaKind::AnnounceDiamond(..));
                self.announcement(a, b, w, diamond, depth)
            }
            FormulaKind::After(..) | FormulaKind::AfterDiamond(..) => self.after(f, w, value),
            _ => Ok(vec![format!("in {}", self.world(w))]),
        }
    }

    /// The explanation of a subformula, when the depth allows it.
    fn deeper(
        &self,
        f: &ast::Formula,
        w: WorldId,
        value: bool,
        depth: usize,
    ) -> Result<Vec<String>, Diagnostic> {
        if depth + 1 >= MAX_DEPTH || is_atomic(f) {
            return Ok(Vec::new());
        }
        Ok(indent(self.reason(f, w, value, depth + 1)?))
    }

    /// K (or M, when `diamond`) over the worlds `access`: all of them
    /// satisfy `inner`, none does, or a witness world.
    fn over(
        &self,
        access: &[WorldId],
        who: &str,
        inner: &ast::Formula,
        diamond: bool,
        depth: usize,
    ) -> Result<Vec<String>, Diagnostic> {
        let sat = self.truth(inner)?;
        let n = access.len();
        let text = self.text(inner);
        if !diamond && access.iter().all(|v| sat.contains(v)) {
            return Ok(vec![format!(
                "in all {n} world(s) {who} possible, {text} holds"
            )]);
        }
        if diamond && !access.iter().any(|v| sat.contains(v)) {
            return Ok(vec![format!(
                "in none of the {n} world(s) {who} possible does {text} hold"
            )]);
        }
        let Some(&v) = access.iter().find(|v| sat.contains(v) == diamond) else {
            return Ok(vec![format!("{who} no world possible")]);
        };
        let mut lines = vec![
            format!("{who} possible a world where {text} is {}:", word(diamond)),
            format!("  {}", self.world(v)),
        ];
        lines.extend(self.deeper(inner, v, diamond, depth)?);
        Ok(lines)
    }

    fn knows_whether(
        &self,
        agent: Agent,
        inner: &ast::Formula,
        w: WorldId,
        depth: usize,
    ) -> Result<Vec<String>, Diagnostic> {
        let sat = self.truth(inner)?;
        let access = self.model.accessible(agent, w);
        let (who, text, n) = (self.who(agent), self.text(inner), access.len());
        let yes = access.iter().copied().find(|v| sat.contains(v));
        let no = access.iter().copied().find(|v| !sat.contains(v));
        match (yes, no) {
            (Some(y), Some(n)) => {
                let mut lines = vec![
                    format!("{who} considers possible both a world where {text} holds:"),
                    format!("  {}", self.world(y)),
                    "and one where it does not:".to_string(),
                    format!("  {}", self.world(n)),
                ];
                lines.extend(self.deeper(inner, n, false, depth)?);
                Ok(lines)
            }
            (_, None) => Ok(vec![format!(
                "in all {n} world(s) {who} considers possible, {text} holds"
            )]),
            (None, _) => Ok(vec![format!(
                "in all {n} world(s) {who} considers possible, {text} is false"
            )]),
        }
    }

    fn names(&self, agents: &[Agent]) -> String {
        agents
            .iter()
            .map(|&a| self.who(a))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn everybody(
        &self,
        g: &Group,
        inner: &ast::Formula,
        w: WorldId,
        value: bool,
        depth: usize,
    ) -> Result<Vec<String>, Diagnostic> {
        let sat = self.truth(inner)?;
        let text = self.text(inner);
        let mut lines = Vec::new();
        for a in self.scope.group(g)? {
            let access = self.model.accessible(a, w);
            let knows = access.iter().all(|v| sat.contains(v));
            lines.push(format!(
                "{} {} {text}",
                self.who(a),
                if knows { "knows" } else { "does not know" }
            ));
            if !knows && !value && lines.len() < 2 + MAX_DEPTH {
                lines.extend(indent(self.over(
                    &access,
                    &format!("{} considers", self.who(a)),
                    inner,
                    false,
                    depth,
                )?));
            }
        }
        Ok(lines)
    }

    fn connective(
        &self,
        a: &ast::Formula,
        b: &ast::Formula,
        w: WorldId,
        depth: usize,
    ) -> Result<Vec<String>, Diagnostic> {
        let mut lines = Vec::new();
        for side in [a, b] {
            let v = self.value_at(side, w)?;
            lines.push(format!("{} is {}", self.text(side), word(v)));
            lines.extend(self.deeper(side, w, v, depth)?);
        }
        Ok(lines)
    }

    fn announcement(
        &self,
        a: &ast::Formula,
        b: &ast::Formula,
        w: WorldId,
        diamond: bool,
        depth: usize,
    ) -> Result<Vec<String>, Diagnostic> {
        let (ta, tb) = (self.text(a), self.text(b));
        if !self.value_at(a, w)? {
            let then = if diamond {
                "so it cannot be announced truthfully".to_string()
            } else {
                format!("so it cannot be announced truthfully and [!{ta}] {tb} holds trivially")
            };
            return Ok(vec![format!("{ta} is false, {then}")]);
        }
        if w != self.model.actual() {
            return Ok(vec![format!("{ta} is true here and can be announced")]);
        }
        let announced = events::announce(self.scope.table, self.scope.formula(a)?, "announcement");
        let after = self
            .model
            .apply(&announced, None)
            .map_err(|e| engine_error(e, a))?;
        let inner = Why {
            scope: self.scope,
            model: &*after,
            names: None,
            src: self.src,
        };
        let value = inner.value_at(b, after.actual())?;
        let mut lines = vec![format!(
            "after announcing {ta}, {} world(s) remain (of {}); there {tb} is {}",
            after.world_count(),
            self.model.world_count(),
            word(value)
        )];
        if depth + 1 < MAX_DEPTH && !is_atomic(b) {
            lines.extend(indent(inner.reason(b, after.actual(), value, depth + 1)?));
        }
        Ok(lines)
    }

    /// `[move] φ` and `<move> φ`: in how many ways the move can happen here.
    fn after(&self, f: &ast::Formula, w: WorldId, value: bool) -> Result<Vec<String>, Diagnostic> {
        let (FormulaKind::After(_, inner) | FormulaKind::AfterDiamond(_, inner)) = &f.kind else {
            return Ok(Vec::new());
        };
        let text = self.text(inner);
        let resolved = self.scope.formula(f)?;
        let ways = match (&resolved, w == self.model.actual()) {
            (Formula::Update(models, _) | Formula::UpdateDiamond(models, _), true) => {
                match models.first() {
                    Some(m) => self
                        .model
                        .possible_events(m)
                        .map_err(|e| engine_error(e, f))?
                        .len(),
                    None => 0,
                }
            }
            _ => return Ok(vec![format!("{} is {} here", self.text(f), word(value))]),
        };
        let box_ = matches!(f.kind, FormulaKind::After(..));
        Ok(vec![match (box_, value) {
            (true, true) => {
                format!("the move can happen in {ways} way(s) here; after each, {text} holds")
            }
            (true, false) => {
                format!("the move can happen in {ways} way(s) here; after some, {text} fails")
            }
            (false, true) => {
                format!("the move can happen in {ways} way(s) here; after some, {text} holds")
            }
            (false, false) => {
                format!("the move can happen in {ways} way(s) here; after none does {text} hold")
            }
        }])
    }

    fn common(
        &self,
        g: &Group,
        inner: &ast::Formula,
        w: WorldId,
        value: bool,
        depth: usize,
    ) -> Result<Vec<String>, Diagnostic> {
        let agents = self.scope.group(g)?;
        let sat = self.truth(inner)?;
        let text = self.text(inner);
        let reach = self.model.group_accessible(GroupAccess::Common, &agents, w);
        if value || reach.iter().all(|v| sat.contains(v)) {
            return Ok(vec![format!(
                "{text} holds in all {} world(s) reachable from here along the players' possibilities",
                reach.len()
            )]);
        }
        let path = self.search(&agents, &sat, w);
        let mut lines = vec![format!(
            "a chain of possibilities leads to a world where {text} is false:"
        )];
        let mut last = w;
        for (i, (agent, v)) in path.iter().enumerate() {
            let step = match (i, agent) {
                (0, _) | (_, None) => "from".to_string(),
                (_, Some(a)) => format!("{} considers possible", self.who(*a)),
            };
            lines.push(format!("  {step}: {}", self.world(*v)));
            last = *v;
        }
        lines.extend(self.deeper(inner, last, false, depth)?);
        Ok(lines)
    }

    /// A shortest path of one or more steps along the agents' relations from
    /// `start` to a world outside `sat` (empty when there is none): the
    /// chain that shows why `C` fails.
    fn search(
        &self,
        agents: &[Agent],
        sat: &HashSet<WorldId>,
        start: WorldId,
    ) -> Vec<(Option<Agent>, WorldId)> {
        let mut parent: HashMap<WorldId, (WorldId, Agent)> = HashMap::new();
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
                        return chain(&parent, start, v);
                    }
                    queue.push_back(v);
                }
            }
        }
        Vec::new()
    }
}

fn is_atomic(f: &ast::Formula) -> bool {
    matches!(
        f.kind,
        FormulaKind::True
            | FormulaKind::False
            | FormulaKind::Named { .. }
            | FormulaKind::HoldsSeq { .. }
    )
}

fn chain(
    parent: &HashMap<WorldId, (WorldId, Agent)>,
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

#[cfg(test)]
mod count_tests {
    use super::count_text;
    use num_bigint::BigUint;

    fn text(s: &str) -> String {
        count_text(&s.parse::<BigUint>().unwrap())
    }

    #[test]
    fn counts_read_as_a_person_reads_them() {
        assert_eq!(text("0"), "0");
        assert_eq!(text("9999"), "9999");
        assert_eq!(text("10000"), "10,000");
        assert_eq!(text("123456789"), "123,456,789");
        assert_eq!(text("1000000000"), "1,000,000,000 (1.0e9)");
        assert_eq!(
            text("76904685192464566747136"),
            "76,904,685,192,464,566,747,136 (7.7e22)"
        );
        // The digits stay exact: removing the commas gives the number back.
        let big = "3".repeat(200);
        let shown = text(&big);
        let digits: String = shown.split(' ').next().unwrap().replace(',', "");
        assert_eq!(digits, big);
        assert!(shown.ends_with("(3.3e199)"), "{shown}");
    }
}
