//! Product update: `M ⊗ E` keeps the pairs `(w, e)` with `w ⊨ pre(e)`,
//! relates `(w, e) R_a (v, f)` iff `w R_a v` and `e R_a f`, and applies
//! `post(e)` to `w`'s row.

use std::ops::Range;

use fixedbitset::FixedBitSet;

use super::eval::{eval_set, full};
use super::event::{EventId, EventModel, Post};
use super::formula::Formula;
use super::hash::{intern, FxMap};
use super::model::{Csr, ExplicitModel, Partition, Rel};
use super::EngineError;

/// The result of a product update, before any choice of the actual event.
pub(crate) struct Product {
    /// The product model (its actual world is a placeholder).
    pub model: ExplicitModel,
    /// The old world each new world comes from.
    pub origin: Vec<u32>,
    /// The event each new world comes from.
    pub event: Vec<u32>,
    /// `first[w]..first[w + 1]` are the new worlds coming from old world `w`,
    /// in increasing order of events.
    pub first: Vec<usize>,
}

/// A postcondition compiled against a model's layout.
enum Op {
    /// Move `n` copies held in `cols` from `from` to `to`.
    Move {
        cols: Range<usize>,
        from: u8,
        to: u8,
        n: u32,
    },
    /// Move every card at `from` to `to`.
    MoveAll { from: u8, to: u8 },
    /// Set column `col` to the value in `values` of the old world.
    Set { col: usize, values: FixedBitSet },
}

/// Checks `em` against `m` and converts its relations.
fn check(m: &ExplicitModel, em: &EventModel) -> Result<Vec<Rel>, EngineError> {
    let bad = |why: String| EngineError::Malformed(format!("event model `{}`: {why}", em.name));
    if em.relations.len() != m.rels.len() {
        return Err(bad(format!(
            "{} relations for {} agents",
            em.relations.len(),
            m.rels.len()
        )));
    }
    if let Some(e) = em.designated.iter().find(|&&e| e >= em.events.len()) {
        return Err(bad(format!("designated event {e} out of range")));
    }
    em.relations
        .iter()
        .map(|r| Rel::from_relation(r, em.events.len()).map_err(bad))
        .collect()
}

/// The precondition of every event, as a set of worlds.
fn pre_sets(m: &ExplicitModel, em: &EventModel) -> Result<Vec<FixedBitSet>, EngineError> {
    em.events.iter().map(|e| eval_set(m, &e.pre)).collect()
}

/// The events of `em` whose preconditions hold in the actual world of `m`.
pub(crate) fn possible_events(
    m: &ExplicitModel,
    em: &EventModel,
) -> Result<Vec<EventId>, EngineError> {
    check(m, em)?;
    let pres = pre_sets(m, em)?;
    Ok((0..em.events.len())
        .filter(|&e| pres[e].contains(m.actual))
        .collect())
}

/// The event that happens: `actual` if its precondition holds, else the
/// unique possible one.
fn choose(
    m: &ExplicitModel,
    em: &EventModel,
    pres: &[FixedBitSet],
    actual: Option<EventId>,
) -> Result<EventId, EngineError> {
    match actual {
        Some(e) if e >= em.events.len() => Err(EngineError::Malformed(format!(
            "event model `{}` has no event {e}",
            em.name
        ))),
        Some(e) if pres[e].contains(m.actual) => Ok(e),
        Some(e) => Err(EngineError::EventImpossible {
            model: em.name.clone(),
            event: em.events[e].name.clone(),
        }),
        None => {
            let mut possible = (0..em.events.len()).filter(|&e| pres[e].contains(m.actual));
            match (possible.next(), possible.next()) {
                (Some(e), None) => Ok(e),
                (None, _) => Err(EngineError::NoEventPossible {
                    model: em.name.clone(),
                }),
                (Some(_), Some(_)) => Err(EngineError::AmbiguousEvent {
                    model: em.name.clone(),
                }),
            }
        }
    }
}

/// Product update with `em`, the actual event chosen, then restriction to
/// the worlds reachable from the new actual world and contraction.
pub(crate) fn apply(
    m: &ExplicitModel,
    em: &EventModel,
    actual: Option<EventId>,
) -> Result<ExplicitModel, EngineError> {
    let erels = check(m, em)?;
    let pres = pre_sets(m, em)?;
    let e = choose(m, em, &pres, actual)?;
    let mut p = product(m, em, &pres, &erels)?;
    let from = p.first[m.actual]..p.first[m.actual + 1];
    p.model.actual = from
        .into_iter()
        .find(|&x| p.event[x] as usize == e)
        .expect("the actual event's precondition holds in the actual world");
    Ok(p.model.generated().contracted())
}

/// The product `m ⊗ em`, keeping every pair (no actual event, no contraction).
pub(crate) fn product(
    m: &ExplicitModel,
    em: &EventModel,
    pres: &[FixedBitSet],
    erels: &[Rel],
) -> Result<Product, EngineError> {
    let ops = compile(m, em)?;
    let width = m.shape.width();
    let mut rows = Vec::new();
    let (mut origin, mut event, mut first) = (Vec::new(), Vec::new(), Vec::with_capacity(m.n + 1));
    for w in 0..m.n {
        first.push(origin.len());
        for (e, pre) in pres.iter().enumerate() {
            if !pre.contains(w) {
                continue;
            }
            origin.push(w as u32);
            event.push(e as u32);
            let at = rows.len();
            rows.extend_from_slice(m.row(w));
            if !run(&mut rows[at..at + width], &m.shape.offsets, &ops[e], w) {
                return Err(EngineError::MissingCards {
                    model: em.name.clone(),
                    event: em.events[e].name.clone(),
                });
            }
        }
    }
    first.push(origin.len());
    let rels = m
        .rels
        .iter()
        .zip(erels)
        .map(|(wr, er)| product_rel(wr, er, &origin, &event, &first))
        .collect();
    let model = ExplicitModel {
        shape: m.shape.clone(),
        rows,
        n: origin.len(),
        rels,
        actual: 0,
    };
    Ok(Product {
        model,
        origin,
        event,
        first,
    })
}

/// Compiles every event's postcondition, checking its indices.
fn compile(m: &ExplicitModel, em: &EventModel) -> Result<Vec<Vec<Op>>, EngineError> {
    let shape = &m.shape;
    let bad = |why: String| EngineError::Malformed(format!("event model `{}`: {why}", em.name));
    let loc = |l: usize| {
        if l < shape.locations {
            Ok(l as u8)
        } else {
            Err(bad(format!("location {l} out of range")))
        }
    };
    let mut all = Vec::with_capacity(em.events.len());
    for event in &em.events {
        let mut ops = Vec::with_capacity(event.post.len());
        for post in &event.post {
            ops.push(match post {
                Post::Move { kind, from, to, n } => {
                    if *kind >= shape.kinds() {
                        return Err(bad(format!("card kind {kind} out of range")));
                    }
                    Op::Move {
                        cols: shape.columns(*kind),
                        from: loc(*from)?,
                        to: loc(*to)?,
                        n: *n,
                    }
                }
                Post::MoveAll { from, to } => Op::MoveAll {
                    from: loc(*from)?,
                    to: loc(*to)?,
                },
                Post::Set(p, phi) => {
                    if *p >= shape.props {
                        return Err(bad(format!("proposition {p} out of range")));
                    }
                    Op::Set {
                        col: shape.cards() + p,
                        values: eval_set(m, phi)?,
                    }
                }
            });
        }
        all.push(ops);
    }
    Ok(all)
}

/// Applies `ops` to `row`, a copy of old world `w`; false if cards are missing.
fn run(row: &mut [u8], offsets: &[usize], ops: &[Op], w: usize) -> bool {
    for op in ops {
        match op {
            Op::Move { cols, from, to, n } => {
                let seg = &mut row[cols.clone()];
                let mut left = *n;
                for l in seg.iter_mut() {
                    if left == 0 {
                        break;
                    }
                    if *l == *from {
                        *l = *to;
                        left -= 1;
                    }
                }
                if left > 0 {
                    return false;
                }
                seg.sort_unstable();
            }
            Op::MoveAll { from, to } => {
                for k in 0..offsets.len() - 1 {
                    let seg = &mut row[offsets[k]..offsets[k + 1]];
                    let mut moved = false;
                    for l in seg.iter_mut().filter(|l| **l == *from) {
                        *l = *to;
                        moved = true;
                    }
                    if moved {
                        seg.sort_unstable();
                    }
                }
            }
            Op::Set { col, values } => row[*col] = u8::from(values.contains(w)),
        }
    }
    true
}

/// One agent's relation in the product.
fn product_rel(wr: &Rel, er: &Rel, origin: &[u32], event: &[u32], first: &[usize]) -> Rel {
    if let (Rel::Partition(wp), Rel::Partition(ep)) = (wr, er) {
        let mut ids: FxMap<u64, u32> = FxMap::default();
        let class = origin
            .iter()
            .zip(event)
            .map(|(&w, &e)| {
                let key = u64::from(wp.class[w as usize]) * ep.count as u64
                    + u64::from(ep.class[e as usize]);
                intern(&mut ids, key)
            })
            .collect();
        return Rel::Partition(Partition::new(class, ids.len()));
    }
    let mut csr = Csr::new();
    for (&w, &e) in origin.iter().zip(event) {
        let fs = er.successors(e as usize);
        for &v in wr.successors(w as usize) {
            let (mut i, end, mut j) = (first[v as usize], first[v as usize + 1], 0);
            while i < end && j < fs.len() {
                match event[i].cmp(&fs[j]) {
                    std::cmp::Ordering::Less => i += 1,
                    std::cmp::Ordering::Greater => j += 1,
                    std::cmp::Ordering::Equal => {
                        csr.items.push(i as u32);
                        i += 1;
                        j += 1;
                    }
                }
            }
        }
        csr.push();
    }
    Rel::General(csr)
}

/// \[E₁;…;Eₙ\]φ (or the diamond): the product with every model in turn,
/// keeping all pairs, then φ checked on the results coming from each world
/// through designated events.
pub(crate) fn eval_update(
    m: &ExplicitModel,
    models: &[EventModel],
    phi: &Formula,
    diamond: bool,
) -> Result<FixedBitSet, EngineError> {
    let mut owned: Option<ExplicitModel> = None;
    let mut origin: Vec<u32> = (0..m.n as u32).collect();
    let mut designated = full(m.n);
    for em in models {
        let cur = owned.as_ref().unwrap_or(m);
        let erels = check(cur, em)?;
        let pres = pre_sets(cur, em)?;
        let p = product(cur, em, &pres, &erels)?;
        let mut chosen = FixedBitSet::with_capacity(em.events.len());
        for e in em.designated_events() {
            chosen.insert(e);
        }
        let mut next = FixedBitSet::with_capacity(p.model.n);
        for x in 0..p.model.n {
            let from = p.origin[x] as usize;
            next.set(
                x,
                designated.contains(from) && chosen.contains(p.event[x] as usize),
            );
        }
        origin = p.origin.iter().map(|&w| origin[w as usize]).collect();
        designated = next;
        owned = Some(p.model);
    }
    let cur = owned.as_ref().unwrap_or(m);
    let truth = eval_set(cur, phi)?;
    let mut out = if diamond {
        FixedBitSet::with_capacity(m.n)
    } else {
        full(m.n)
    };
    for x in designated.ones() {
        if truth.contains(x) == diamond {
            out.set(origin[x] as usize, diamond);
        }
    }
    Ok(out)
}
