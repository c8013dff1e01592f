//! Accessibility relations of explicit models and event models: partitions
//! (equivalence relations, one class number per element) and successor
//! lists in compressed form.

use std::sync::OnceLock;

use super::event::Relation;
use super::hash::{intern, FxMap};

/// Successor lists in compressed form: `items[start[x]..start[x + 1]]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Csr {
    /// Where each element's list starts; one more entry than elements.
    pub start: Vec<usize>,
    /// The lists, each sorted.
    pub items: Vec<u32>,
}

impl Csr {
    /// An empty structure ready for [`Csr::push`].
    pub fn new() -> Csr {
        Csr {
            start: vec![0],
            items: Vec::new(),
        }
    }

    /// The list of element `x`.
    #[inline]
    pub fn get(&self, x: usize) -> &[u32] {
        &self.items[self.start[x]..self.start[x + 1]]
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.start.len() - 1
    }

    /// Closes the list of the next element (its items were pushed to `items`).
    #[inline]
    pub fn push(&mut self) {
        self.start.push(self.items.len());
    }

    /// The elements of each group, `group[x] < groups`, in increasing order.
    pub fn groups(group: &[u32], groups: usize) -> Csr {
        let mut start = vec![0usize; groups + 1];
        for &g in group {
            start[g as usize + 1] += 1;
        }
        for g in 0..groups {
            start[g + 1] += start[g];
        }
        let mut fill = start.clone();
        let mut items = vec![0u32; group.len()];
        for (x, &g) in group.iter().enumerate() {
            items[fill[g as usize]] = x as u32;
            fill[g as usize] += 1;
        }
        Csr { start, items }
    }

    /// The reverse relation.
    pub fn reverse(&self) -> Csr {
        let n = self.len();
        let mut start = vec![0usize; n + 1];
        for &y in &self.items {
            start[y as usize + 1] += 1;
        }
        for y in 0..n {
            start[y + 1] += start[y];
        }
        let mut fill = start.clone();
        let mut items = vec![0u32; self.items.len()];
        for x in 0..n {
            for &y in self.get(x) {
                items[fill[y as usize]] = x as u32;
                fill[y as usize] += 1;
            }
        }
        Csr { start, items }
    }
}

/// An equivalence relation: a class number per element, numbered densely.
#[derive(Clone, Debug)]
pub(crate) struct Partition {
    /// The class of each element.
    pub class: Vec<u32>,
    /// The number of classes (every class number is below it).
    pub count: usize,
    members: OnceLock<Csr>,
    sizes: OnceLock<Vec<u32>>,
}

impl Partition {
    /// The partition with the given classes, all below `count`.
    pub fn new(class: Vec<u32>, count: usize) -> Partition {
        Partition {
            class,
            count,
            members: OnceLock::new(),
            sizes: OnceLock::new(),
        }
    }

    /// The partition with arbitrary class labels, renumbered densely.
    pub fn from_labels<T: std::hash::Hash + Eq>(labels: impl Iterator<Item = T>) -> Partition {
        let mut ids: FxMap<T, u32> = FxMap::default();
        let class: Vec<u32> = labels.map(|l| intern(&mut ids, l)).collect();
        Partition::new(class, ids.len())
    }

    /// The partition whose classes are the distinct pairs of classes
    /// `(l, r)`, `l < left` and `r < right`, renumbered densely (through a
    /// direct table when the pairs are few, else by hashing).
    pub fn from_pairs(
        pairs: impl Iterator<Item = (u32, u32)>,
        left: usize,
        right: usize,
        n: usize,
    ) -> Partition {
        let range = left as u64 * right as u64;
        if range > (4 * n as u64).max(1 << 16) {
            return Partition::from_labels(pairs.map(|(l, r)| u64::from(l) << 32 | u64::from(r)));
        }
        let mut table = vec![u32::MAX; range as usize];
        let mut count = 0u32;
        let mut class = Vec::with_capacity(n);
        for (l, r) in pairs {
            let slot = &mut table[l as usize * right + r as usize];
            if *slot == u32::MAX {
                *slot = count;
                count += 1;
            }
            class.push(*slot);
        }
        Partition::new(class, count as usize)
    }

    /// The partition of the `kept` elements (old numbers, increasing); the
    /// others are `dropped`.
    ///
    /// The classes that lose every member are found from the class sizes
    /// and the dropped elements alone; the kept elements keep their class
    /// numbers when there are none (a gather), else the classes left are
    /// renumbered in their old order, in the same pass. The new sizes
    /// follow from the old ones, so a chain of restrictions counts the
    /// members of each class once.
    pub fn restrict(&self, kept: &[u32], dropped: &[u32]) -> Partition {
        let mut sizes = self.sizes().to_vec();
        for &x in dropped {
            sizes[self.class[x as usize] as usize] -= 1;
        }
        let gather = |renumber: Option<&[u32]>| -> Vec<u32> {
            match renumber {
                None => kept.iter().map(|&x| self.class[x as usize]).collect(),
                Some(r) => kept
                    .iter()
                    .map(|&x| r[self.class[x as usize] as usize])
                    .collect(),
            }
        };
        if sizes.iter().all(|&s| s > 0) {
            return Partition::with_sizes(gather(None), sizes);
        }
        // The new number of each class left: the number of classes left before it.
        let mut total = 0u32;
        let renumber: Vec<u32> = sizes
            .iter()
            .map(|&s| {
                let new = total;
                total += u32::from(s > 0);
                new
            })
            .collect();
        sizes.retain(|&s| s > 0);
        Partition::with_sizes(gather(Some(&renumber)), sizes)
    }

    /// A partition whose class sizes are known.
    fn with_sizes(class: Vec<u32>, sizes: Vec<u32>) -> Partition {
        let p = Partition::new(class, sizes.len());
        p.sizes.get_or_init(|| sizes);
        p
    }

    /// The number of members of every class (computed once).
    pub fn sizes(&self) -> &[u32] {
        self.sizes.get_or_init(|| {
            let mut sizes = vec![0u32; self.count];
            for &c in &self.class {
                sizes[c as usize] += 1;
            }
            sizes
        })
    }

    /// The members of every class (computed once).
    pub fn members(&self) -> &Csr {
        self.members
            .get_or_init(|| Csr::groups(&self.class, self.count))
    }
}

/// An agent's accessibility relation between worlds (or events).
#[derive(Clone, Debug)]
pub(crate) enum Rel {
    /// An equivalence relation.
    Partition(Partition),
    /// Any relation, as sorted successor lists.
    General(Csr),
}

impl Rel {
    /// The elements related to `x`, in increasing order.
    #[inline]
    pub fn successors(&self, x: usize) -> &[u32] {
        match self {
            Rel::Partition(p) => p.members().get(p.class[x] as usize),
            Rel::General(g) => g.get(x),
        }
    }

    /// Whether `x` is related to `y`.
    pub fn related(&self, x: usize, y: usize) -> bool {
        match self {
            Rel::Partition(p) => p.class[x] == p.class[y],
            Rel::General(g) => g.get(x).binary_search(&(y as u32)).is_ok(),
        }
    }

    /// The relation from a [`Relation`] over `n` elements, checked.
    pub fn from_relation(rel: &Relation, n: usize) -> Result<Rel, String> {
        match rel {
            Relation::Partition(classes) => {
                if classes.len() != n {
                    return Err(format!(
                        "a partition of {} elements, expected {n}",
                        classes.len()
                    ));
                }
                Ok(Rel::Partition(Partition::from_labels(
                    classes.iter().copied(),
                )))
            }
            Relation::General(succ) => {
                if succ.len() != n {
                    return Err(format!(
                        "successor lists for {} elements, expected {n}",
                        succ.len()
                    ));
                }
                let mut csr = Csr::new();
                for list in succ {
                    if let Some(y) = list.iter().find(|&&y| y >= n) {
                        return Err(format!(
                            "successor {y} out of range (fewer than {n} elements)"
                        ));
                    }
                    let mut sorted: Vec<u32> = list.iter().map(|&y| y as u32).collect();
                    sorted.sort_unstable();
                    sorted.dedup();
                    csr.items.extend(sorted);
                    csr.push();
                }
                Ok(Rel::General(csr).normalized())
            }
        }
    }

    /// The same relation, as a partition if it is an equivalence relation.
    ///
    /// With `c(x)` the least successor of `x`, the relation is an equivalence
    /// iff every `x` is its own successor, every successor `y` of `x` has
    /// `c(y) = c(x)`, and `x` has as many successors as there are elements
    /// with its `c`.
    pub fn normalized(self) -> Rel {
        let Rel::General(g) = &self else { return self };
        let n = g.len();
        let mut class = Vec::with_capacity(n);
        for x in 0..n {
            match g.get(x).first() {
                Some(&c) => class.push(c),
                None => return self,
            }
        }
        let mut size = vec![0usize; n];
        for &c in &class {
            size[c as usize] += 1;
        }
        for x in 0..n {
            let succ = g.get(x);
            if succ.binary_search(&(x as u32)).is_err()
                || succ.len() != size[class[x] as usize]
                || succ.iter().any(|&y| class[y as usize] != class[x])
            {
                return self;
            }
        }
        Rel::Partition(Partition::from_labels(class.into_iter()))
    }

    /// The relation restricted to the kept elements, renumbered by `map`
    /// (old → new, `u32::MAX` for dropped elements); `kept` lists the old
    /// numbers of the new elements, `dropped` the others.
    pub fn restrict(&self, kept: &[u32], dropped: &[u32], map: &[u32]) -> Rel {
        match self {
            Rel::Partition(p) => Rel::Partition(p.restrict(kept, dropped)),
            Rel::General(g) => {
                let mut csr = Csr::new();
                for &x in kept {
                    csr.items.extend(
                        g.get(x as usize)
                            .iter()
                            .map(|&y| map[y as usize])
                            .filter(|&y| y != u32::MAX),
                    );
                    csr.push();
                }
                Rel::General(csr)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether two partitions of the same elements are the same equivalence,
    /// numbered densely.
    fn same(p: &Partition, q: &Partition) -> bool {
        let dense = |r: &Partition| {
            let mut used = vec![false; r.count];
            r.class.iter().for_each(|&c| used[c as usize] = true);
            used.iter().all(|&u| u)
        };
        let n = p.class.len();
        dense(p)
            && dense(q)
            && p.count == q.count
            && (0..n)
                .all(|x| (0..n).all(|y| (p.class[x] == p.class[y]) == (q.class[x] == q.class[y])))
    }

    #[test]
    fn restriction_keeps_or_renumbers_classes() {
        let p = Partition::from_labels([0, 1, 0, 2, 1, 3, 3].into_iter());
        // Every class keeps a member: the numbers are kept.
        let kept = [0, 1, 3, 5];
        let r = p.restrict(&kept, &[2, 4, 6]);
        assert_eq!(r.class, vec![0, 1, 2, 3]);
        assert_eq!(r.sizes(), [1, 1, 1, 1]);
        assert_eq!(r.count, 4);
        // Classes 0 and 2 lose every member: the others are renumbered densely.
        let kept = [1, 4, 5, 6];
        let r = p.restrict(&kept, &[0, 2, 3]);
        assert_eq!(r.sizes(), [2, 2]);
        let expected = Partition::from_labels(kept.iter().map(|&x| p.class[x as usize]));
        assert!(same(&r, &expected));
        assert_eq!(r.class, vec![0, 0, 1, 1]);
        let empty = p.restrict(&[], &[0, 1, 2, 3, 4, 5, 6]);
        assert_eq!(empty.count, 0);
    }
}
