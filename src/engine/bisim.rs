//! Bisimulation contraction by partition refinement.
//!
//! Worlds start in blocks of equal rows (cards and propositions); a block is
//! split by the signature (block, and for each agent the set of blocks its
//! successors lie in) until no block splits. The stable partition is the
//! largest bisimulation, and merging each block into one world gives the
//! minimal model. Signatures are interned by hashing, so each round is
//! linear in the size of the model.

use super::hash::{intern, FxMap};
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

/// The bisimulation contraction of `m`, with its actual world tracked.
pub(crate) fn contract(m: ExplicitModel) -> ExplicitModel {
    if m.n == 0 {
        return m;
    }
    let (mut block, mut count) = initial_blocks(&m);
    if count == m.n {
        return m;
    }
    loop {
        let views: Vec<View> = m.rels.iter().map(|r| view(r, &block)).collect();
        let (next, next_count) = refine(&m, &block, &views);
        if next_count == count {
            return merge(m, &block, count, &views);
        }
        block = next;
        count = next_count;
    }
}

/// Blocks of worlds with equal rows.
fn initial_blocks(m: &ExplicitModel) -> (Vec<u32>, usize) {
    let mut ids: FxMap<&[u8], u32> = FxMap::default();
    let block = (0..m.n).map(|x| intern(&mut ids, m.row(x))).collect();
    (block, ids.len())
}

/// The sets of blocks seen through `rel`.
fn view(rel: &Rel, block: &[u32]) -> View {
    let mut lists = Csr::new();
    let sources: &Csr = match rel {
        Rel::Partition(p) => p.members(),
        Rel::General(g) => g,
    };
    for i in 0..sources.len() {
        let from = lists.items.len();
        lists
            .items
            .extend(sources.get(i).iter().map(|&y| block[y as usize]));
        let tail = &mut lists.items[from..];
        tail.sort_unstable();
        let mut kept = 0;
        for j in 0..tail.len() {
            if j == 0 || tail[j] != tail[kept - 1] {
                tail[kept] = tail[j];
                kept += 1;
            }
        }
        lists.items.truncate(from + kept);
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
fn refine(m: &ExplicitModel, block: &[u32], views: &[View]) -> (Vec<u32>, usize) {
    let width = 1 + views.len();
    let mut flat = Vec::with_capacity(m.n * width);
    for (x, &b) in block.iter().enumerate() {
        flat.push(b);
        flat.extend(views.iter().zip(&m.rels).map(|(v, r)| v.of(r, x)));
    }
    let mut ids: FxMap<&[u32], u32> = FxMap::default();
    let next = flat
        .chunks(width)
        .map(|sig| intern(&mut ids, sig))
        .collect();
    (next, ids.len())
}

/// The quotient of `m` by the stable partition `block`.
fn merge(m: ExplicitModel, block: &[u32], count: usize, views: &[View]) -> ExplicitModel {
    let mut rep = vec![u32::MAX; count];
    for (x, &b) in block.iter().enumerate() {
        if rep[b as usize] == u32::MAX {
            rep[b as usize] = x as u32;
        }
    }
    let mut rows = Vec::with_capacity(count * m.shape.width());
    for &r in &rep {
        rows.extend_from_slice(m.row(r as usize));
    }
    let rels = m
        .rels
        .iter()
        .zip(views)
        .map(|(rel, v)| match rel {
            // The class of a merged world is the set of blocks its class
            // meets: by stability the same for every world of the block, and
            // two merged worlds are related iff their sets are equal.
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
        })
        .collect();
    ExplicitModel {
        shape: m.shape.clone(),
        rows,
        n: count,
        actual: block[m.actual] as usize,
        rels,
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::model::ExplicitModel;
    use crate::engine::testkit::*;
    use crate::engine::{Backend, Relation};

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
    fn distinct_rows_are_kept() {
        let m = qa_deal();
        assert_eq!(m.world_count(), 8);
        let mm = muddy();
        assert_eq!(mm.world_count(), 8);
    }
}
