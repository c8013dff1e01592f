//! Explicit models and event models written out in a scenario (LANGUAGE.md §5).

use std::collections::HashMap;

use crate::cards::{Deck, Table};
use crate::diag::{suggest, Diagnostic, Span};
use crate::engine::{Event, EventId, EventModel, ExplicitModel, Post, Relation};
use crate::syntax::ast::{EventDef, ModelDef, Name, RelationDef, RelationSpec};

use super::resolve::Scope;

/// Declared names by their text: lookups in constant time, so a written
/// model is read in time linear in its size.
pub struct Names {
    names: Vec<String>,
    index: HashMap<String, usize>,
    what: &'static str,
}

impl Names {
    /// The names as declared, refusing the first one declared twice.
    pub fn new(declared: &[Name], what: &'static str) -> Result<Names, Diagnostic> {
        let mut index = HashMap::with_capacity(declared.len());
        for (i, n) in declared.iter().enumerate() {
            if index.insert(n.text.to_string(), i).is_some() {
                return Err(Diagnostic::error(
                    "duplicate-declaration",
                    format!("{what} `{}` is declared twice", n.text),
                    n.span,
                ));
            }
        }
        Ok(Names {
            names: declared.iter().map(|n| n.text.to_string()).collect(),
            index,
            what,
        })
    }

    /// Names known to be distinct (declared propositions, players).
    fn from_texts(names: &[String], what: &'static str) -> Names {
        let index = names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.clone(), i))
            .collect();
        Names {
            names: names.to_vec(),
            index,
            what,
        }
    }

    fn len(&self) -> usize {
        self.names.len()
    }

    /// The index of `name`, or a located error with "did you mean".
    pub fn lookup(&self, name: &Name) -> Result<usize, Diagnostic> {
        if let Some(&i) = self.index.get(name.text.as_str()) {
            return Ok(i);
        }
        let what = self.what;
        let d = Diagnostic::error(
            "unknown-name",
            format!("no {what} `{}`", name.text),
            name.span,
        )
        .with_label(format!("not a declared {what}"));
        Err(match suggest(&name.text, &self.names) {
            Some(s) => d.with_help(format!("did you mean `{s}`?")),
            None if self.names.len() <= 20 => {
                d.with_help(format!("the declared ones are: {}", self.names.join(" ")))
            }
            None => d,
        })
    }
}

/// One relation per agent from the written ones: partitions stay S5,
/// arrows make a general relation.
fn relations(
    agents: &Names,
    elems: &Names,
    defs: &[RelationDef],
    block: Span,
) -> Result<Vec<Relation>, Diagnostic> {
    let mut out: Vec<Option<Relation>> = vec![None; agents.len()];
    for def in defs {
        let a = agents.lookup(&def.agent)?;
        let rel = match &def.relation {
            RelationSpec::Partition(blocks) => partition(elems, blocks, def.agent.span)?,
            RelationSpec::Arrows(arrows) => {
                let mut succ = match out[a].take() {
                    Some(Relation::General(s)) => s,
                    _ => vec![Vec::new(); elems.len()],
                };
                for (from, to) in arrows {
                    let (f, t) = (elems.lookup(from)?, elems.lookup(to)?);
                    if !succ[f].contains(&t) {
                        succ[f].push(t);
                    }
                }
                Relation::General(succ)
            }
        };
        out[a] = Some(rel);
    }
    out.into_iter()
        .enumerate()
        .map(|(a, r)| {
            r.ok_or_else(|| {
                let agent = &agents.names[a];
                Diagnostic::error(
                    "missing-relation",
                    format!("no relation is given for agent `{agent}`"),
                    block,
                )
                .with_help(format!(
                    "add a line like `{agent}: {{...}} {{...}}` (a partition) or `{agent}: x->y` (arrows)"
                ))
            })
        })
        .collect()
}

fn partition(elems: &Names, blocks: &[Vec<Name>], at: Span) -> Result<Relation, Diagnostic> {
    let what = elems.what;
    let mut class = vec![usize::MAX; elems.len()];
    for (c, block) in blocks.iter().enumerate() {
        for name in block {
            let i = elems.lookup(name)?;
            if class[i] != usize::MAX {
                return Err(Diagnostic::error(
                    "bad-partition",
                    format!("{what} `{}` is in two blocks", name.text),
                    name.span,
                )
                .with_help("a partition puts each element in exactly one block"));
            }
            class[i] = c;
        }
    }
    if let Some(i) = class.iter().position(|&c| c == usize::MAX) {
        return Err(Diagnostic::error(
            "bad-partition",
            format!("{what} `{}` is in no block", elems.names[i]),
            at,
        )
        .with_help("a partition puts each element in exactly one block"));
    }
    Ok(Relation::Partition(class))
}

/// A `model { ... }` block: its table (the agents as players, no cards),
/// its propositions and the model exactly as written (every world, in the
/// order written: world `i` is the `i`-th `world` line).
pub fn model(def: &ModelDef) -> Result<(Table, Vec<String>, ExplicitModel), Diagnostic> {
    let agents = Names::new(&def.agents, "agent")?;
    let props = Names::new(&def.props, "proposition")?;
    let world_names: Vec<Name> = def.worlds.iter().map(|w| w.name.clone()).collect();
    let worlds = Names::new(&world_names, "world")?;
    if worlds.len() == 0 {
        return Err(
            Diagnostic::error("empty-model", "the model has no worlds", def.span)
                .with_help("add `world w1: p`"),
        );
    }
    let mut valuations = Vec::with_capacity(worlds.len());
    for w in &def.worlds {
        let mut val = vec![false; props.len()];
        for p in &w.true_props {
            val[props.lookup(p)?] = true;
        }
        valuations.push(val);
    }
    let rels = relations(&agents, &worlds, &def.relations, def.span)?;
    let actual = worlds.lookup(&def.actual)?;
    let model = ExplicitModel::from_valuations_as_written(
        agents.len(),
        props.len(),
        valuations,
        rels,
        actual,
    )
    .map_err(|e| super::errors::engine(&e, def.span))?;
    Ok((
        Table::new(agents.names, Deck::default()),
        props.names,
        model,
    ))
}

/// An `event NAME { ... }` block: the event model and its actual event.
pub fn event(def: &EventDef, scope: &Scope) -> Result<(EventModel, EventId), Diagnostic> {
    let names = Names::new(&def.events, "event")?;
    let mut events: Vec<Event> = names
        .names
        .iter()
        .map(|n| Event {
            name: n.clone(),
            pre: crate::engine::Formula::Top,
            post: Vec::new(),
        })
        .collect();
    let props = Names::from_texts(scope.props, "proposition");
    for (name, f) in &def.pre {
        events[names.lookup(name)?].pre = scope.formula(f)?;
    }
    for (name, sets) in &def.post {
        let e = names.lookup(name)?;
        for (prop, f) in sets {
            let p = props.lookup(prop)?;
            events[e].post.push(Post::Set(p, scope.formula(f)?));
        }
    }
    let players = Names::from_texts(&scope.table.players, "agent");
    let relations = relations(&players, &names, &def.relations, def.span)?;
    let actual = names.lookup(&def.actual)?;
    let model = EventModel {
        name: def.name.text.to_string(),
        events,
        relations,
        designated: Vec::new(),
    };
    Ok((model, actual))
}

/// The declared event models by name.
pub type EventTable = HashMap<String, (EventModel, EventId)>;
