//! Product update: `M ⊗ E` keeps the pairs `(w, e)` with `w ⊨ pre(e)`,
//! relates `(w, e) R_a (v, f)` iff `w R_a v` and `e R_a f`, and applies
//! `post(e)` to `w`'s row.

use std::ops::Range;

use fixedbitset::FixedBitSet;

use super::eval::{eval_set, eval_sets, full};
use super::event::{EventId, EventModel, Post};
use super::formula::Formula;
use super::groups;
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
    let pres: Vec<&Formula> = em.events.iter().map(|e| &e.pre).collect();
    eval_sets(m, &pres)
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

/// Product update with `em`, the actual event chosen, then restriction to
/// the worlds reachable from the new actual world and contraction.
pub(crate) fn apply(
    m: &ExplicitModel,
    em: &EventModel,
    actual: Option<EventId>,
) -> Result<ExplicitModel, EngineError> {
    let erels = check(m, em)?;
    let pres = pre_sets(m, em)?;
    let possible: Vec<bool> = pres.iter().map(|p| p.contains(m.actual)).collect();
    let e = super::event::choose(em, &possible, actual)?;
    if is_public_test(em, &erels, &pres, e) {
        // M ⊗ E is M restricted to the precondition: no rows to rewrite; and
        // M itself (already generated and minimal) when it holds everywhere.
        if pres[e].is_full() {
            return Ok(m.clone());
        }
        let (sub, _) = m.restrict(&pres[e]);
        return Ok(sub.generated().contracted());
    }
    let mut p = product(m, em, &pres, &erels)?;
    let from = p.first[m.actual]..p.first[m.actual + 1];
    p.model.actual = from
        .into_iter()
        .find(|&x| p.event[x] as usize == e)
        .expect("the actual event's precondition holds in the actual world");
    Ok(p.model.generated().contracted())
}

/// Whether `e` is the only event of `em` possible in some world of the
/// model (`pres`), has no postconditions and is related to itself by every
/// agent (a public announcement or test): then the product is the submodel
/// of the worlds where its precondition holds.
fn is_public_test(em: &EventModel, erels: &[Rel], pres: &[FixedBitSet], e: usize) -> bool {
    em.events[e].post.is_empty()
        && erels.iter().all(|r| r.related(e, e))
        && (0..pres.len()).all(|f| f == e || pres[f].is_clear())
}

/// The product `m ⊗ em`, keeping every pair (no actual event, no contraction).
pub(crate) fn product(
    m: &ExplicitModel,
    em: &EventModel,
    pres: &[FixedBitSet],
    erels: &[Rel],
) -> Result<Product, EngineError> {
    super::cancel::check()?;
    let ops = compile(m, em)?;
    let width = m.shape.width();
    let mut rows = Vec::new();
    let (mut origin, mut event, mut first) = (Vec::new(), Vec::new(), Vec::with_capacity(m.n + 1));
    for w in 0..m.n {
        if w % 4096 == 4095 {
            super::cancel::check()?;
        }
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
    let groups = m.groups.as_ref().map(|gs| {
        let events = groups::intersections(erels, em.events.len());
        gs.iter()
            .zip(&events)
            .map(|(wr, er)| product_rel(wr, er, &origin, &event, &first))
            .collect()
    });
    let model = ExplicitModel {
        shape: m.shape.clone(),
        rows,
        n: origin.len(),
        rels,
        groups,
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
        let pairs = origin
            .iter()
            .zip(event)
            .map(|(&w, &e)| (wp.class[w as usize], ep.class[e as usize]));
        return Rel::Partition(Partition::from_pairs(
            pairs,
            wp.count,
            ep.count,
            origin.len(),
        ));
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

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use super::*;
    use crate::engine::formula::Cmp;
    use crate::engine::testkit::*;
    use crate::engine::Backend;

    fn queries() -> Vec<Formula> {
        let has_a = Formula::count(1, vec![A], Cmp::Ge, 1);
        vec![
            has_a.clone().known_by(1),
            has_a.clone().known_by(0),
            Formula::Kw(2, Box::new(has_a.clone())),
            Formula::C(
                vec![0, 1, 2],
                Box::new(Formula::count(STOCK, vec![Q, A], Cmp::Eq, 4)),
            ),
            Formula::M(0, Box::new(Formula::count(1, vec![Q], Cmp::Eq, 2))),
        ]
    }

    #[test]
    fn update_diamond_agrees_with_applying() {
        let m = qa_deal();
        for e in 0..2 {
            let mut em = draw(1);
            em.designated = vec![e];
            let models = Rc::new(vec![em.clone()]);
            for w in 0..m.len() {
                let here = at(&m, w);
                for phi in queries() {
                    let f = Formula::UpdateDiamond(models.clone(), Box::new(phi.clone()));
                    let expected = holds(&*here.apply(&em, Some(e)).unwrap(), &phi);
                    assert_eq!(holds(&here, &f), expected);
                }
            }
        }
    }

    #[test]
    fn update_box_quantifies_over_events() {
        let m = qa_deal();
        let em = draw(1);
        let models = Rc::new(vec![em.clone(), draw(0)]);
        for phi in queries() {
            let f = Formula::Update(models.clone(), Box::new(phi.clone()));
            let mut expected = true;
            for e in m.possible_events(&em).unwrap() {
                let mid = m.apply(&em, Some(e)).unwrap();
                for f2 in mid.possible_events(&draw(0)).unwrap() {
                    expected &= holds(&*mid.apply(&draw(0), Some(f2)).unwrap(), &phi);
                }
            }
            assert_eq!(holds(&m, &f), expected);
        }
        let nothing = Formula::Update(Rc::new(Vec::new()), Box::new(Formula::holds(0, Q)));
        assert!(holds(&m, &nothing));
    }

    #[test]
    fn set_uses_the_old_world() {
        let m = muddy();
        let flip = crate::engine::Event {
            name: "flip".into(),
            pre: Formula::Top,
            post: vec![Post::Set(0, p(1)), Post::Set(1, p(0).not())],
        };
        let em = EventModel::public("flip", 3, vec![flip]);
        let after = m.apply(&em, None).unwrap();
        // Actual world: 0 and 1 muddy, so p0 := p1 = true, p1 := ¬p0 = false.
        assert!(holds(&*after, &p(0)));
        assert!(!holds(&*after, &p(1)));
    }

    #[test]
    fn move_all_and_resorting() {
        let m = qa_deal();
        let dump = crate::engine::Event {
            name: "dump".into(),
            pre: Formula::Top,
            post: vec![Post::MoveAll { from: STOCK, to: 2 }],
        };
        let em = EventModel::public("dump", 3, vec![dump]);
        let after = m.apply(&em, None).unwrap();
        let view = after.world(after.actual());
        assert_eq!(
            view.cards,
            vec![vec![1, 0], vec![1, 0], vec![2, 4], vec![0, 0]]
        );
        assert_eq!(after.world_count(), 4);
    }
}
