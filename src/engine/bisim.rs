//! Bisimulation contraction by partition refinement.
//!
//! Worlds start in blocks of equal rows (cards and propositions); a block is
//! split by the signature (block, and for each agent the set of blocks its
//! successors lie in) until no block splits. The stable partition is the
//! largest bisimulation, and merging each block into one world gives the
//! minimal model. Signatures are interned by hashing, so each round is
//! linear in the size of the model.

use super::groups::MAX_GROUP_AGENTS;
use super::hash::{hash_of, number_by, FxMap};
use super::model::{Csr, ExplicitModel, Partition, Rel};

/// What an agent sees of the blocks: a set of blocks for each class
/// (partitions) or each world (general relations).
struct View {
    /// The set number of each class or world.
    ids: Vec<u32>,
    /// The distinct sets, each a sorted list of blocks.
    sets: Csr,
}

impl View {
    /// The set number seen from world `x` through `rel`.
    #[inline]
    fn of(&self, rel: &Rel, x: usize) -> u32 {
        match rel {
            Rel::Partition(p) => self.ids[p.class[x] as usize],
            Rel::General(_) => self.ids[x],
        }
    }
}

/// The block of each world under the largest collective bisimulation of
/// `m` (each agent and each group of two or more agents, as [`contract`]
/// refines); `None` above [`MAX_GROUP_AGENTS`] agents.
pub(crate) fn blocks(m: &ExplicitModel) -> Option<Vec<u32>> {
    if m.rels.len() > MAX_GROUP_AGENTS {
        return None;
    }
    let (mut block, mut count) = initial_blocks(m);
    let groups = m.group_relations();
    let active: Vec<&Rel> = m.rels.iter().chain(&groups).collect();
    loop {
        let views: Vec<View> = active.iter().map(|r| view(r, &block, count)).collect();
        let (next, next_count) = refine(&block, &active, &views);
        if next_count == count {
            return Some(block);
        }
        block = next;
        count = next_count;
    }
}

/// The bisimulation contraction of `m`, with its actual world tracked.
///
/// The refinement also respects the relation of every group of two or more
/// agents (see [`super::groups`]), so that distributed knowledge survives;
/// the merged model stores those relations. With more than
/// [`MAX_GROUP_AGENTS`] agents, worlds are not merged.
pub(crate) fn contract(m: ExplicitModel) -> ExplicitModel {
    if m.n == 0 || m.rels.len() > MAX_GROUP_AGENTS {
        return m;
    }
    let (mut block, mut count) = initial_blocks(&m);
    if count == m.n {
        return m;
    }
    let groups = m.group_relations();
    // Identity relations tell nothing beyond the block itself.
    let all: Vec<&Rel> = m.rels.iter().chain(&groups).collect();
    let identity: Vec<bool> = all.iter().map(|r| is_identity(r, m.n)).collect();
    let active: Vec<&Rel> = all
        .iter()
        .zip(&identity)
        .filter(|(_, &id)| !id)
        .map(|(&r, _)| r)
        .collect();
    loop {
        let views: Vec<View> = active.iter().map(|r| view(r, &block, count)).collect();
        let (next, next_count) = refine(&block, &active, &views);
        if next_count == count {
            // Stable: `views` were computed from the final blocks.
            let mut views = views.into_iter();
            let quotients: Vec<Rel> = all
                .iter()
                .zip(&identity)
                .map(|(&rel, &id)| {
                    let view = if id { None } else { views.next() };
                    quotient(rel, view.as_ref(), &block, count)
                })
                .collect();
            return merge(m, quotients, &block, count);
        }
        block = next;
        count = next_count;
    }
}

/// Whether `rel` is the identity relation on `n` elements.
fn is_identity(rel: &Rel, n: usize) -> bool {
    match rel {
        Rel::Partition(p) => p.count == n,
        Rel::General(g) => (0..n).all(|x| g.get(x) == [x as u32]),
    }
}

/// Blocks of worlds with equal rows.
fn initial_blocks(m: &ExplicitModel) -> (Vec<u32>, usize) {
    number_by(m.n, |x| hash_of(m.row(x)), |x, y| m.row(x) == m.row(y))
}

/// The sets of blocks seen through `rel` (`blocks` blocks in all).
fn view(rel: &Rel, block: &[u32], blocks: usize) -> View {
    let mut lists = Csr::new();
    let sources: &Csr = match rel {
        Rel::Partition(p) => p.members(),
        Rel::General(g) => g,
    };
    // `mark[b]` is the last list block b was put in: duplicates are skipped
    // without sorting the (possibly huge) member list.
    let mut mark = vec![u32::MAX; blocks];
    for i in 0..sources.len() {
        let from = lists.items.len();
        for &y in sources.get(i) {
            let b = block[y as usize];
            if mark[b as usize] != i as u32 {
                mark[b as usize] = i as u32;
                lists.items.push(b);
            }
        }
        lists.items[from..].sort_unstable();
        lists.push();
    }
    let mut map: FxMap<&[u32], u32> = FxMap::default();
    let mut sets = Csr::new();
    let mut ids = Vec::with_capacity(lists.len());
    for i in 0..lists.len() {
        let list = lists.get(i);
        let next = map.len() as u32;
        let id = *map.entry(list).or_insert_with(|| {
            sets.items.extend_from_slice(list);
            sets.push();
            next
        });
        ids.push(id);
    }
    View { ids, sets }
}

/// One round of refinement: the new block of each world and their number.
fn refine(block: &[u32], rels: &[&Rel], views: &[View]) -> (Vec<u32>, usize) {
    let width = 1 + views.len();
    let mut flat = Vec::with_capacity(block.len() * width);
    for (x, &b) in block.iter().enumerate() {
        flat.push(b);
        flat.extend(views.iter().zip(rels).map(|(v, r)| v.of(r, x)));
    }
    let sig = |x: usize| &flat[x * width..(x + 1) * width];
    number_by(block.len(), |x| hash_of(sig(x)), |x, y| sig(x) == sig(y))
}

/// The quotient of `m` by the stable partition `block`, given the quotients
/// of its agents' relations followed by those of its group relations.
fn merge(m: ExplicitModel, mut quotients: Vec<Rel>, block: &[u32], count: usize) -> ExplicitModel {
    let rep = representatives(block, count);
    let mut rows = Vec::with_capacity(count * m.shape.width());
    for &r in &rep {
        rows.extend_from_slice(m.row(r as usize));
    }
    let groups = quotients.split_off(m.rels.len());
    ExplicitModel {
        shape: m.shape.clone(),
        rows,
        n: count,
        actual: block[m.actual] as usize,
        rels: quotients,
        groups: Some(groups),
    }
}

/// The first world of each block.
fn representatives(block: &[u32], count: usize) -> Vec<u32> {
    let mut rep = vec![u32::MAX; count];
    for (x, &b) in block.iter().enumerate().rev() {
        rep[b as usize] = x as u32;
    }
    rep
}

/// The quotient of one relation by the stable partition `block` (`count`
/// blocks), from its view of the blocks (`None` for the identity).
fn quotient(rel: &Rel, view: Option<&View>, block: &[u32], count: usize) -> Rel {
    let Some(v) = view else {
        return Rel::Partition(Partition::new((0..count as u32).collect(), count));
    };
    let rep = representatives(block, count);
    match rel {
        // The class of a merged world is the set of blocks its class meets:
        // by stability the same for every world of the block, and two
        // merged worlds are related iff their sets are equal.
        Rel::Partition(_) => Rel::Partition(Partition::new(
            rep.iter().map(|&r| v.of(rel, r as usize)).collect(),
            v.sets.len(),
        )),
        Rel::General(_) => {
            let mut csr = Csr::new();
            for &r in &rep {
                let set = v.of(rel, r as usize) as usize;
                csr.items.extend_from_slice(v.sets.get(set));
                csr.push();
            }
            Rel::General(csr)
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::model::ExplicitModel;
    use crate::engine::testkit::*;
    use crate::engine::{Backend, EventModel, Formula, Relation};

    #[test]
    fn bisimilar_copies_merge() {
        let m = ExplicitModel::from_valuations(
            2,
            1,
            vec![vec![true], vec![true], vec![false], vec![false]],
            vec![
                Relation::Partition(vec![0, 0, 0, 0]),
                Relation::Partition(vec![0, 1, 0, 1]),
            ],
            0,
        )
        .unwrap();
        assert_eq!(m.world_count(), 2);
        assert!(m.is_s5());
        assert_eq!(m.considers(0), 2);
        assert_eq!(m.considers(1), 2);
        assert!(holds(&m, &p(0)));
    }

    #[test]
    fn partitions_merge_consistently() {
        // Agent 0 cannot tell {0,1} apart nor {2,3}; 1 and 3 are copies of
        // each other, as are 0 and 2, though they lie in different classes.
        let m = ExplicitModel::from_valuations(
            1,
            1,
            vec![vec![true], vec![false], vec![true], vec![false]],
            vec![Relation::Partition(vec![0, 0, 1, 1])],
            0,
        )
        .unwrap();
        assert_eq!(m.world_count(), 2);
        assert_eq!(m.considers(0), 2);
    }

    #[test]
    fn general_relations_contract() {
        let loops = ExplicitModel::from_valuations(
            1,
            1,
            vec![vec![true]; 3],
            vec![Relation::General(vec![vec![1], vec![2], vec![2]])],
            0,
        )
        .unwrap();
        assert_eq!(loops.world_count(), 1);
        assert!(loops.is_s5());
        let chain = ExplicitModel::from_valuations(
            1,
            1,
            vec![vec![true]; 3],
            vec![Relation::General(vec![vec![1], vec![2], vec![]])],
            0,
        )
        .unwrap();
        assert_eq!(chain.world_count(), 3);
        assert!(!chain.is_s5());
        assert_eq!(chain.accessible(0, chain.actual()).len(), 1);
    }

    #[test]
    fn distributed_knowledge_survives_contraction() {
        // Every p-world is bisimilar to every other one, but at world 0 the
        // two relations meet only in world 0.
        let vals = vec![vec![true], vec![false], vec![true], vec![false]];
        let rels = vec![
            Relation::Partition(vec![0, 0, 1, 1]),
            Relation::Partition(vec![0, 1, 1, 0]),
        ];
        let m = ExplicitModel::from_valuations(2, 1, vals, rels, 0).unwrap();
        assert_eq!(m.world_count(), 2);
        assert_eq!(m.considers(0), 2);
        let d = Formula::D(vec![0, 1], Box::new(p(0)));
        assert!(holds(&m, &d));
        assert!(!holds(&m, &Formula::E(vec![0, 1], Box::new(p(0)))));
        // After an update the stored group relations are multiplied too.
        let ann = EventModel::announcement("top", 2, Formula::Top);
        let after = m.apply(&ann, None).unwrap();
        assert!(holds(&*after, &d));
        // Without S5: D_{0,1} ⊥ holds at world 1 only, which keeps the two
        // (otherwise bisimilar) worlds apart.
        let rels = vec![
            Relation::General(vec![vec![0], vec![0]]),
            Relation::General(vec![vec![0], vec![1]]),
        ];
        let m = ExplicitModel::from_valuations(2, 0, vec![vec![], vec![]], rels, 1).unwrap();
        assert!(holds(
            &m,
            &Formula::D(vec![0, 1], Box::new(Formula::Bottom))
        ));
        assert_eq!(m.world_count(), 2);
    }

    #[test]
    fn distinct_rows_are_kept() {
        let m = qa_deal();
        assert_eq!(m.world_count(), 8);
        let mm = muddy();
        assert_eq!(mm.world_count(), 8);
    }
}
