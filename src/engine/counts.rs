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
use super::par::{self, BITS};

/// One count atom without its kinds: location, comparison, number.
type Test = (Loc, Cmp, u32);

/// A shared kind set's distinct tests, and their truth sets once computed.
type Shared = (Vec<Test>, Option<Vec<FixedBitSet>>);

/// The truth sets of the atoms of a formula that share their kind set with
/// another atom.
pub(crate) struct CountTables {
    /// For each shared kind set, its distinct atoms and, once one of them
    /// was asked for, the truth set of each.
    tables: FxMap<Vec<Kind>, Shared>,
}

impl CountTables {
    /// The kind sets asked about by two or more atoms of `f` (at any depth).
    pub fn for_formula(f: &Formula) -> CountTables {
        CountTables::for_formulas(&[f])
    }

    /// The kind sets asked about by two or more atoms of all of `fs`
    /// together (the preconditions of an event model often repeat atoms).
    pub fn for_formulas(fs: &[&Formula]) -> CountTables {
        let mut uses: FxMap<&[Kind], (u32, Vec<Test>)> = FxMap::default();
        for f in fs {
            collect(f, &mut uses);
        }
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

/// The truth sets of `tests` on the cards of `kinds` (at most 255 copies
/// in all), a block of [`BITS`] worlds at a time (ranges of blocks in
/// parallel for large models).
fn truth_sets(m: &ExplicitModel, kinds: &[Kind], tests: &[Test]) -> Vec<FixedBitSet> {
    const CHUNK: usize = 1 << 10;
    let cols: Vec<usize> = kinds.iter().flat_map(|&k| m.shape.columns(k)).collect();
    let blocks = m.n.div_ceil(BITS);
    let starts: Vec<usize> = (0..blocks).step_by(CHUNK).collect();
    let words = par::map(m.n, &starts, |&b| {
        block_words(m, &cols, tests, b..(b + CHUNK).min(blocks))
    });
    let mut sets = vec![FixedBitSet::with_capacity(m.n); tests.len()];
    for (&b, part) in starts.iter().zip(&words) {
        for (set, w) in sets.iter_mut().zip(part) {
            set.as_mut_slice()[b..b + w.len()].copy_from_slice(w);
        }
    }
    sets
}

/// The words of each test's truth set for the blocks `range`.
///
/// For each block, a table of the counts at every location of each of its
/// worlds (one byte per location and world, filled a column at a time so
/// that consecutive increments never wait for each other); each test then compares a
/// row of the table with its number, for the whole block at once.
fn block_words(
    m: &ExplicitModel,
    cols: &[usize],
    tests: &[Test],
    range: std::ops::Range<usize>,
) -> Vec<Vec<usize>> {
    let width = m.shape.width();
    let mut count = vec![[0u8; BITS]; m.shape.locations];
    let mut words = vec![Vec::with_capacity(range.len()); tests.len()];
    for block in range {
        let base = block * BITS;
        let len = BITS.min(m.n - base);
        count.iter_mut().for_each(|c| *c = [0; BITS]);
        // Column by column, so that consecutive increments touch different
        // worlds' bytes even when a world's copies share a location.
        let rows = &m.rows[base * width..(base + len) * width];
        for &c in cols {
            for (i, row) in rows.chunks_exact(width).enumerate() {
                count[row[c] as usize][i] += 1;
            }
        }
        let live = usize::MAX >> (BITS - len);
        for (out, &(loc, cmp, n)) in words.iter_mut().zip(tests) {
            // A location out of range is refused before its set is read.
            out.push(count.get(loc).map_or(0, |c| compare(c, cmp, n) & live));
        }
    }
    words
}

/// The bits of the counts `c` with `c ⋈ n`.
fn compare(count: &[u8; BITS], cmp: Cmp, n: u32) -> usize {
    /// Eight 0/1 bytes to eight bits: byte k lands on bit 56 + k of the
    /// product (the partial products never overlap, so nothing carries).
    const GATHER: u64 = 0x0102_0408_1020_4080;
    fn word(count: &[u8; BITS], f: impl Fn(u32) -> bool) -> usize {
        let mut w = 0usize;
        for (j, chunk) in count.chunks_exact(8).enumerate() {
            let flags: [u8; 8] = std::array::from_fn(|k| u8::from(f(u32::from(chunk[k]))));
            let bits = u64::from_le_bytes(flags).wrapping_mul(GATHER) >> 56;
            w |= (bits as usize) << (8 * j);
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
    f.for_each_atom(&mut |atom| {
        if let Atom::Count { loc, kinds, cmp, n } = atom {
            let (count, tests) = uses.entry(kinds.as_slice()).or_default();
            *count += 1;
            if !tests.contains(&(*loc, *cmp, *n)) {
                tests.push((*loc, *cmp, *n));
            }
        }
    });
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

    #[test]
    fn formulas_sharing_tables_agree_with_each_alone() {
        let m = qa_deal();
        let count =
            |loc, kinds: Vec<Kind>, cmp, n| Formula::Atom(Atom::Count { loc, kinds, cmp, n });
        // Atoms repeated across the formulas, as in an event model's
        // preconditions, and some only in one of them.
        let fs = [
            Formula::And(vec![
                count(0, vec![Q], Cmp::Ge, 1),
                count(1, vec![A], Cmp::Eq, 0),
            ]),
            Formula::Or(vec![
                count(0, vec![Q], Cmp::Ge, 1),
                count(2, vec![Q, A], Cmp::Le, 2),
            ]),
            Formula::Not(Box::new(count(1, vec![A], Cmp::Eq, 0))),
            count(2, vec![Q], Cmp::Lt, 2),
        ];
        let refs: Vec<&Formula> = fs.iter().collect();
        let together = crate::engine::eval::eval_sets(&m, &refs).unwrap();
        for (f, set) in fs.iter().zip(&together) {
            assert_eq!(*set, crate::engine::eval::eval_set(&m, f).unwrap(), "{f:?}");
        }
    }

    #[test]
    fn comparisons_fill_every_bit_of_a_word() {
        let count: [u8; BITS] = std::array::from_fn(|i| (i * 7 % 5) as u8);
        for cmp in [Cmp::Lt, Cmp::Le, Cmp::Eq, Cmp::Ne, Cmp::Ge, Cmp::Gt] {
            for n in 0..6 {
                let expected = (0..BITS)
                    .filter(|&i| cmp.holds(u32::from(count[i]), n))
                    .fold(0usize, |w, i| w | 1 << i);
                assert_eq!(compare(&count, cmp, n), expected, "{cmp:?} {n}");
            }
        }
    }
}
