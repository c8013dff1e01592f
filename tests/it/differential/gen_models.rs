//! Written-model cases: a `model { }` block (random partitions, belief
//! arrows, row/column grids), written `event { }` models, `apply` and
//! queries, each with what the naive reference says of it.

use std::rc::Rc;

use dealer::engine::{Atom, Event, EventModel, Formula, Post, Relation};

use super::cases::{boxed, formula, Case, Expect, Gen, Pair};
use super::naive::{self, NaiveModel};

const AGENTS: [&str; 3] = ["a", "b", "c"];
const PROPS: [&str; 3] = ["p", "q", "r"];

/// A relation over `n` elements named `name(i)`, as text and data: a random
/// partition, or (unless `s5`) random arrows with at least one per element.
fn relation(g: &mut Gen, n: usize, s5: bool, name: &dyn Fn(usize) -> String) -> (String, Relation) {
    if s5 || g.chance(60) {
        let class: Vec<usize> = (0..n).map(|_| g.below(n.min(3))).collect();
        return (partition_text(&class, name), Relation::Partition(class));
    }
    let succ: Vec<Vec<usize>> = (0..n)
        .map(|_| {
            let mut s: Vec<usize> = (0..n).filter(|_| g.chance(40)).collect();
            if s.is_empty() {
                s.push(g.below(n));
            }
            s
        })
        .collect();
    let arrows: Vec<String> = (0..n)
        .flat_map(|x| succ[x].iter().map(move |&y| (x, y)))
        .map(|(x, y)| format!("{}->{}", name(x), name(y)))
        .collect();
    (arrows.join(", "), Relation::General(succ))
}

fn partition_text(class: &[usize], name: &dyn Fn(usize) -> String) -> String {
    let mut blocks: Vec<Vec<usize>> = Vec::new();
    let mut ids: Vec<usize> = class.to_vec();
    ids.sort_unstable();
    ids.dedup();
    for id in ids {
        blocks.push((0..class.len()).filter(|&x| class[x] == id).collect());
    }
    blocks
        .iter()
        .map(|b| {
            format!(
                "{{{}}}",
                b.iter().map(|&x| name(x)).collect::<Vec<_>>().join(" ")
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn prop_atom(g: &mut Gen, props: usize) -> Pair {
    match g.below(10) {
        0 => ("true".into(), Some(Formula::Top)),
        1 => ("false".into(), Some(Formula::Bottom)),
        _ => {
            let p = g.below(props);
            (PROPS[p].into(), Some(Formula::Atom(Atom::Prop(p))))
        }
    }
}

/// A model case: a written model (random, or a row/column grid), then 3-8
/// statements: queries, written event models and `apply`.
pub fn model_case(seed: u64) -> Case {
    let mut g = Gen::new(seed);
    let grid = g.chance(30);
    let agents = if grid && g.chance(70) {
        2
    } else {
        2 + g.below(2)
    };
    // Grids with few propositions have bisimilar worlds that a group tells
    // apart: where contraction and distributed knowledge meet.
    let props = if grid { 1 + g.below(2) } else { 2 + g.below(2) };
    let s5 = grid || g.chance(50);
    let (n, rels): (usize, Vec<(String, Relation)>) = if grid {
        let (rows, cols) = (2 + g.below(2), 2 + g.below(2));
        let n = rows * cols;
        let w = |i: usize| format!("w{i}");
        let row: Vec<usize> = (0..n).map(|i| i / cols).collect();
        let col: Vec<usize> = (0..n).map(|i| i % cols).collect();
        let mut rels = vec![
            (partition_text(&row, &w), Relation::Partition(row)),
            (partition_text(&col, &w), Relation::Partition(col)),
        ];
        for _ in 2..agents {
            rels.push(relation(&mut g, n, true, &w));
        }
        (n, rels)
    } else {
        let n = 1 + g.below(5);
        let w = |i: usize| format!("w{i}");
        (
            n,
            (0..agents).map(|_| relation(&mut g, n, s5, &w)).collect(),
        )
    };
    let vals: Vec<Vec<bool>> = (0..n)
        .map(|_| (0..props).map(|_| g.chance(50)).collect())
        .collect();
    let actual = g.below(n);
    let mut src = format!(
        "model {{\n  agents {}\n  props {}\n",
        AGENTS[..agents].join(" "),
        PROPS[..props].join(" ")
    );
    for (i, v) in vals.iter().enumerate() {
        let true_props: Vec<&str> = (0..props).filter(|&p| v[p]).map(|p| PROPS[p]).collect();
        src.push_str(&format!("  world w{i}: {}\n", true_props.join(" ")));
    }
    for (a, (text, _)) in rels.iter().enumerate() {
        src.push_str(&format!("  {}: {text}\n", AGENTS[a]));
    }
    src.push_str(&format!("  actual w{actual}\n}}\n"));
    let relations: Vec<Relation> = rels.into_iter().map(|(_, r)| r).collect();
    let mut nm = NaiveModel::from_valuations(&vals, &relations, actual);
    let mut expected = vec![Expect::Done];
    let names = |a: usize| format!("_{}", AGENTS[a]);
    let mut events: Vec<(String, EventModel)> = Vec::new();
    for _ in 0..3 + g.below(6) {
        let mut atom = |g: &mut Gen| prop_atom(g, props);
        let mut dynamic = |g: &mut Gen, (t, f): Pair| -> Option<Pair> {
            if events.is_empty() {
                return None;
            }
            let (name, em) = events[g.below(events.len())].clone();
            let ems = Rc::new(vec![em]);
            Some(if g.chance(50) {
                (
                    format!("<apply {name}> ({t})"),
                    f.map(|f| Formula::UpdateDiamond(ems, boxed(f))),
                )
            } else {
                (
                    format!("[apply {name}] ({t})"),
                    f.map(|f| Formula::Update(ems, boxed(f))),
                )
            })
        };
        let depth = 1 + g.below(3);
        let (mut text, mut f) = formula(&mut g, depth, agents, &names, &mut atom, &mut dynamic);
        if grid && g.chance(40) {
            // Distributed knowledge of the row and the column agents.
            text = format!("D{{a,b}} ({text})");
            f = f.map(|f| Formula::D(vec![0, 1], boxed(f)));
        }
        let here = nm.actual;
        match g.below(8) {
            0..=3 => {
                src.push_str(&format!("? {text}\n"));
                expected.push(Expect::Answer(f.map(|f| naive::eval(&nm, here, &f))));
            }
            4 => {
                src.push_str(&format!("?? {text}\n"));
                let reach = naive::reachable_part(&nm);
                expected.push(Expect::Answer(f.map(|f| naive::valid(&reach, &f))));
            }
            5 | 6 => {
                // A written event model, declared (no answer).
                let name = format!("ev{}", events.len());
                let (text, em) = event_text(&mut g, &name, agents, props, &names);
                src.push_str(&text);
                expected.push(Expect::Done);
                events.push((name, em));
            }
            _ => {
                if events.is_empty() {
                    continue;
                }
                let (name, em) = events[g.below(events.len())].clone();
                src.push_str(&format!("apply {name}\n"));
                let e = em.designated[0];
                if naive::eval(&nm, here, &em.events[e].pre) {
                    nm = naive::apply(&nm, &em, e);
                    expected.push(Expect::Done);
                } else {
                    expected.push(Expect::Refused);
                }
            }
        }
    }
    Case { src, expected }
}

/// A written event model: 1-3 events with preconditions, perhaps a
/// postcondition, a relation per agent, an actual event.
fn event_text(
    g: &mut Gen,
    name: &str,
    agents: usize,
    props: usize,
    names: &dyn Fn(usize) -> String,
) -> (String, EventModel) {
    let n = 1 + g.below(3);
    let e = |i: usize| format!("e{i}");
    let mut text = format!(
        "event {name} {{\n  events {}\n",
        (0..n).map(e).collect::<Vec<_>>().join(" ")
    );
    let mut evs = Vec::new();
    for i in 0..n {
        let mut atom = |g: &mut Gen| prop_atom(g, props);
        let mut none = |_: &mut Gen, _: Pair| None;
        let depth = 1 + g.below(2);
        let (pre_text, pre) = formula(g, depth, agents, names, &mut atom, &mut none);
        text.push_str(&format!("  pre {}: {pre_text}\n", e(i)));
        let mut post = Vec::new();
        if g.chance(40) {
            let p = g.below(props);
            let (t, f) = formula(g, 1, agents, names, &mut atom, &mut none);
            text.push_str(&format!("  post {}: {} := {t}\n", e(i), PROPS[p]));
            post.push(Post::Set(p, f.expect("a propositional formula")));
        }
        evs.push(Event {
            name: e(i),
            pre: pre.expect("a propositional formula"),
            post,
        });
    }
    let relations: Vec<Relation> = (0..agents)
        .map(|a| {
            let (t, r) = relation(g, n, false, &e);
            text.push_str(&format!("  {}: {t}\n", AGENTS[a]));
            r
        })
        .collect();
    let actual = g.below(n);
    text.push_str(&format!("  actual {}\n}}\n", e(actual)));
    let em = EventModel {
        name: name.into(),
        events: evs,
        relations,
        designated: vec![actual],
    };
    (text, em)
}
