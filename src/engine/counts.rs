//! Card-count atoms, evaluated for all worlds at once.
//!
//! A formula often asks many atoms about the same kinds at different
//! locations (`forehead1(M)`, ..., `forehead20(M)`). Scanning a world's copy
//! columns once per atom costs `atoms × copies` per world; instead, the
//! first time one of them is evaluated, one pass over the worlds computes
//! the truth sets of every atom of that kind set, a block of worlds at a
//! time.

use fixedbitset::FixedBitSet;

use super::eval::bits_where;
use super::formula::{Atom, Cmp, Formula, Kind, Loc};
use super::hash::FxMap;
use super::model::ExplicitModel;

/// One count atom without its kinds: location, comparison, number.
type Test = (Loc, Cmp, u32);

/// The truth sets of the atoms of a formula that share their kind set with
/// another atom.
pub(crate) struct CountTables {
    /// For each shared kind set, its distinct atoms and, once one of them
    /// was asked for, the truth set of each.
    tables: FxMap<Vec<Kind>, (Vec<Test>, Option<Vec<FixedBitSet>>)>,
}

impl CountTables {
    /// The kind sets asked about by two or more atoms of `f` (at any depth).
    pub fn for_formula(f: &Formula) -> CountTables {
        let mut uses: FxMap<&[Kind], (u32, Vec<Test>)> = FxMap::default();
        collect(f, &mut uses);
        let tables = uses
            .into_iter()
            .filter(|(_, (n, _))| *n >= 2)
            .map(|(kinds, (_, tests))| (kinds.to_vec(), (tests, None)))
            .collect();
        CountTables { tables }
    }

    /// The truth set of `Count { loc, kinds, cmp, n }` in `m`, the indices
    /// already checked.
    pub fn atom(&mut self, m: &ExplicitModel, a: &Atom) -> FixedBitSet {
        let Atom::Count { loc, kinds, cmp, n } = a else {
            unreachable!("count atoms only");
        };
        let cols: Vec<usize> = kinds.iter().flat_map(|&k| m.shape.columns(k)).collect();
        let total: u32 = kinds.iter().map(|&k| m.shape.copies[k]).sum();
        let shared = self
            .tables
            .get_mut(kinds.as_slice())
            .filter(|_| total < 256);
        if let Some((tests, sets)) = shared {
            let i = tests
                .iter()
                .position(|t| *t == (*loc, *cmp, *n))
                .expect("every atom of the formula was collected");
            let sets = sets.get_or_insert_with(|| truth_sets(m, kinds, tests));
            return sets[i].clone();
        }
        let here = *loc as u8;
        bits_where(m.n, |x| {
            let row = m.row(x);
            let count = cols.iter().filter(|&&c| row[c] == here).count();
            cmp.holds(count as u32, *n)
        })
    }
}

/// The number of worlds in a block: the bits of a word of a bit set.
const BITS: usize = usize::BITS as usize;

/// The truth sets of `tests` on the cards of `kinds` (at most 255 copies
/// in all), a block of [`BITS`] worlds at a time.
///
/// The block's columns of `kinds` are copied into one array per column
/// (so that what follows runs over consecutive bytes, without branches);
/// then each test counts, for the whole block at once, the columns that
/// hold its location, and compares the counts with its number.
fn truth_sets(m: &ExplicitModel, kinds: &[Kind], tests: &[Test]) -> Vec<FixedBitSet> {
    let cols: Vec<usize> = kinds.iter().flat_map(|&k| m.shape.columns(k)).collect();
    let mut block_cols = vec![[0u8; BITS]; cols.len()];
    let mut sets = vec![FixedBitSet::with_capacity(m.n); tests.len()];
    for block in 0..m.n.div_ceil(BITS) {
        let base = block * BITS;
        let len = BITS.min(m.n - base);
        for i in 0..len {
            let row = m.row(base + i);
            for (col, &c) in block_cols.iter_mut().zip(&cols) {
                col[i] = row[c];
            }
        }
        let live = usize::MAX >> (BITS - len);
        for (set, &(loc, cmp, n)) in sets.iter_mut().zip(tests) {
            // A location out of range is refused before its set is read.
            let Ok(loc) = u8::try_from(loc) else { continue };
            let mut count = [0u8; BITS];
            for col in &block_cols {
                for (c, &l) in count.iter_mut().zip(col) {
                    *c += u8::from(l == loc);
                }
            }
            set.as_mut_slice()[block] = compare(&count, cmp, n) & live;
        }
    }
    sets
}

/// The bits of the counts `c` with `c ⋈ n`.
fn compare(count: &[u8; BITS], cmp: Cmp, n: u32) -> usize {
    fn word(count: &[u8; BITS], f: impl Fn(u32) -> bool) -> usize {
        let mut w = 0usize;
        for (i, &c) in count.iter().enumerate() {
            w |= usize::from(f(u32::from(c))) << i;
        }
        w
    }
    match cmp {
        Cmp::Lt => word(count, |c| c < n),
        Cmp::Le => word(count, |c| c <= n),
        Cmp::Eq => word(count, |c| c == n),
        Cmp::Ne => word(count, |c| c != n),
        Cmp::Ge => word(count, |c| c >= n),
        Cmp::Gt => word(count, |c| c > n),
    }
}

/// Counts the atoms of each kind set in `f`.
fn collect<'f>(f: &'f Formula, uses: &mut FxMap<&'f [Kind], (u32, Vec<Test>)>) {
    match f {
        Formula::Top | Formula::Bottom => {}
        Formula::Atom(Atom::Count { loc, kinds, cmp, n }) => {
            let (count, tests) = uses.entry(kinds.as_slice()).or_default();
            *count += 1;
            if !tests.contains(&(*loc, *cmp, *n)) {
                tests.push((*loc, *cmp, *n));
            }
        }
        Formula::Atom(_) => {}
        Formula::Not(g)
        | Formula::K(_, g)
        | Formula::M(_, g)
        | Formula::Kw(_, g)
        | Formula::E(_, g)
        | Formula::C(_, g)
        | Formula::D(_, g) => collect(g, uses),
        Formula::And(gs) | Formula::Or(gs) => gs.iter().for_each(|g| collect(g, uses)),
        Formula::Implies(a, b)
        | Formula::Iff(a, b)
        | Formula::Announce(a, b)
        | Formula::AnnounceDiamond(a, b) => {
            collect(a, uses);
            collect(b, uses);
        }
        Formula::Update(_, g) | Formula::UpdateDiamond(_, g) => collect(g, uses),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::testkit::*;

    #[test]
    fn shared_atoms_agree_with_one_at_a_time() {
        let m = qa_deal();
        let mut atoms = Vec::new();
        for loc in 0..m.shape.locations {
            for cmp in [Cmp::Lt, Cmp::Le, Cmp::Eq, Cmp::Ne, Cmp::Ge, Cmp::Gt] {
                for n in 0..4 {
                    atoms.push(Atom::Count {
                        loc,
                        kinds: vec![Q, A],
                        cmp,
                        n,
                    });
                }
            }
        }
        let f = Formula::And(atoms.iter().cloned().map(Formula::Atom).collect());
        let mut shared = CountTables::for_formula(&f);
        let mut alone = CountTables::for_formula(&Formula::Top);
        for a in &atoms {
            let Atom::Count { loc, cmp, n, .. } = a else {
                unreachable!()
            };
            let expected = bits_where(m.n, |x| {
                let cards = &m.row(x)[..m.shape.cards()];
                let count = cards.iter().filter(|&&l| usize::from(l) == *loc).count();
                cmp.holds(count as u32, *n)
            });
            assert_eq!(shared.atom(&m, a), expected, "{a:?}");
            assert_eq!(alone.atom(&m, a), expected, "{a:?}");
        }
    }
}
