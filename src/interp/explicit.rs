//! Explicit models and event models written out in a scenario (LANGUAGE.md §5).

use std::collections::HashMap;

use crate::cards::{Deck, Table};
use crate::diag::{suggest, Diagnostic, Span};
use crate::engine::{Event, EventId, EventModel, ExplicitModel, Post, Relation};
use crate::syntax::ast::{EventDef, ModelDef, Name, RelationDef, RelationSpec};

use super::resolve::Scope;

/// Looks a name up among declared ones, with "did you mean".
fn lookup(names: &[String], name: &Name, what: &str) -> Result<usize, Diagnostic> {
    names.iter().position(|n| *n == name.text).ok_or_else(|| {
        let d = Diagnostic::error(
            "unknown-name",
            format!("no {what} `{}`", name.text),
            name.span,
        )
        .with_label(format!("not a declared {what}"));
        match suggest(&name.text, names) {
            Some(s) => d.with_help(format!("did you mean `{s}`?")),
            None => d.with_help(format!("the declared ones are: {}", names.join(" "))),
        }
    })
}

fn texts(names: &[Name]) -> Vec<String> {
    names.iter().map(|n| n.text.clone()).collect()
}

fn no_duplicates(names: &[Name], what: &str) -> Result<(), Diagnostic> {
    for (i, n) in names.iter().enumerate() {
        if names[..i].iter().any(|m| m.text == n.text) {
            return Err(Diagnostic::error(
                "duplicate-declaration",
                format!("{what} `{}` is declared twice", n.text),
                n.span,
            ));
        }
    }
    Ok(())
}

/// One relation per agent from the written ones: partitions stay S5,
/// arrows make a general relation.
fn relations(
    agents: &[String],
    elems: &[String],
    defs: &[RelationDef],
    what: &str,
    block: Span,
) -> Result<Vec<Relation>, Diagnostic> {
    let mut out: Vec<Option<Relation>> = vec![None; agents.len()];
    for def in defs {
        let a = lookup(agents, &def.agent, "agent")?;
        let rel = match &def.relation {
            RelationSpec::Partition(blocks) => partition(elems, blocks, what, def.agent.span)?,
            RelationSpec::Arrows(arrows) => {
                let mut succ = match out[a].take() {
                    Some(Relation::General(s)) => s,
                    _ => vec![Vec::new(); elems.len()],
                };
                for (from, to) in arrows {
                    let (f, t) = (lookup(elems, from, what)?, lookup(elems, to, what)?);
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
                Diagnostic::error(
                    "missing-relation",
                    format!("no relation is given for agent `{}`", agents[a]),
                    block,
                )
                .with_help(format!(
                    "add a line like `{}: {{...}} {{...}}` (a partition) or `{}: x->y` (arrows)",
                    agents[a], agents[a]
                ))
            })
        })
        .collect()
}

fn partition(
    elems: &[String],
    blocks: &[Vec<Name>],
    what: &str,
    at: Span,
) -> Result<Relation, Diagnostic> {
    let mut class = vec![usize::MAX; elems.len()];
    for (c, block) in blocks.iter().enumerate() {
        for name in block {
            let i = lookup(elems, name, what)?;
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
            format!("{what} `{}` is in no block", elems[i]),
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
    no_duplicates(&def.agents, "agent")?;
    no_duplicates(&def.props, "proposition")?;
    let world_names: Vec<Name> = def.worlds.iter().map(|w| w.name.clone()).collect();
    no_duplicates(&world_names, "world")?;
    let (agents, props, worlds) = (texts(&def.agents), texts(&def.props), texts(&world_names));
    if worlds.is_empty() {
        return Err(
            Diagnostic::error("empty-model", "the model has no worlds", def.span)
                .with_help("add `world w1: p`"),
        );
    }
    let mut valuations = Vec::new();
    for w in &def.worlds {
        let mut val = vec![false; props.len()];
        for p in &w.true_props {
            val[lookup(&props, p, "proposition")?] = true;
        }
        valuations.push(val);
    }
    let rels = relations(&agents, &worlds, &def.relations, "world", def.span)?;
    let actual = lookup(&worlds, &def.actual, "world")?;
    let model = ExplicitModel::from_valuations_as_written(
        agents.len(),
        props.len(),
        valuations,
        rels,
        actual,
    )
    .map_err(|e| super::errors::engine(&e, def.span))?;
    Ok((Table::new(agents, Deck::default()), props, model))
}

/// An `event NAME { ... }` block: the event model and its actual event.
pub fn event(def: &EventDef, scope: &Scope) -> Result<(EventModel, EventId), Diagnostic> {
    no_duplicates(&def.events, "event")?;
    let names = texts(&def.events);
    let mut events: Vec<Event> = names
        .iter()
        .map(|n| Event {
            name: n.clone(),
            pre: crate::engine::Formula::Top,
            post: Vec::new(),
        })
        .collect();
    for (name, f) in &def.pre {
        events[lookup(&names, name, "event")?].pre = scope.formula(f)?;
    }
    for (name, sets) in &def.post {
        let e = lookup(&names, name, "event")?;
        for (prop, f) in sets {
            let p = lookup(scope.props, prop, "proposition")?;
            events[e].post.push(Post::Set(p, scope.formula(f)?));
        }
    }
    let relations = relations(
        &scope.table.players,
        &names,
        &def.relations,
        "event",
        def.span,
    )?;
    let actual = lookup(&names, &def.actual, "event")?;
    let model = EventModel {
        name: def.name.text.clone(),
        events,
        relations,
        designated: Vec::new(),
    };
    Ok((model, actual))
}

/// The declared event models by name.
pub type EventTable = HashMap<String, (EventModel, EventId)>;
