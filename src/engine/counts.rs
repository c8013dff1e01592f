//! Card-count atoms, evaluated for all worlds at once.
//!
//! A formula often asks many atoms about the same kinds at different
//! locations (`forehead1(M)`, ..., `forehead20(M)`). Scanning a world's copy
//! columns once per atom costs `atoms × copies` per world; instead, the
//! evaluation of a formula counts, once per world, the cards of such a kind
//! set at every location (a table of `worlds × locations` bytes) and reads
//! each atom off that table.

use fixedbitset::FixedBitSet;

use super::eval::bits_where;
use super::formula::{Atom, Formula, Kind};
use super::hash::FxMap;
use super::model::ExplicitModel;

/// The per-world location counts of the kind sets that several atoms of a
/// formula ask about.
pub(crate) struct CountTables {
    /// For each shared kind set, `None` until first used, then the table
    /// (`table[l * worlds + x]` is the number of its cards at `l` in world x).
    tables: FxMap<Vec<Kind>, Option<Vec<u8>>>,
}

impl CountTables {
    /// The kind sets asked about by two or more atoms of `f` (at any depth).
    pub fn for_formula(f: &Formula) -> CountTables {
        let mut uses: FxMap<&[Kind], u32> = FxMap::default();
        collect(f, &mut uses);
        let tables = uses
            .into_iter()
            .filter(|&(_, n)| n >= 2)
            .map(|(kinds, _)| (kinds.to_vec(), None))
            .collect();
        CountTables { tables }
    }

    /// The truth set of `Count { loc, kinds, cmp, n }` in `m`, the indices
    /// already checked.
    pub fn atom(&mut self, m: &ExplicitModel, a: &Atom) -> FixedBitSet {
        let Atom::Count { loc, kinds, cmp, n } = a else {
            unreachable!("count atoms only");
        };
        let locs = m.shape.locations;
        let total: u32 = kinds.iter().map(|&k| m.shape.copies[k]).sum();
        let shared = total < 256 && m.n * locs <= 1 << 28;
        match self.tables.get_mut(kinds.as_slice()).filter(|_| shared) {
            Some(slot) => {
                let table = slot.get_or_insert_with(|| table(m, kinds));
                let here = &table[loc * m.n..(loc + 1) * m.n];
                bits_where(m.n, |x| cmp.holds(u32::from(here[x]), *n))
            }
            None => {
                let cols: Vec<usize> = kinds.iter().flat_map(|&k| m.shape.columns(k)).collect();
                let here = *loc as u8;
                bits_where(m.n, |x| {
                    let row = m.row(x);
                    let count = cols.iter().filter(|&&c| row[c] == here).count();
                    cmp.holds(count as u32, *n)
                })
            }
        }
    }
}

/// The number of cards of `kinds` at every location of every world.
fn table(m: &ExplicitModel, kinds: &[Kind]) -> Vec<u8> {
    let locs = m.shape.locations;
    let cols: Vec<usize> = kinds.iter().flat_map(|&k| m.shape.columns(k)).collect();
    let mut table = vec![0u8; m.n * locs];
    for x in 0..m.n {
        let row = m.row(x);
        for &c in &cols {
            table[row[c] as usize * m.n + x] += 1;
        }
    }
    table
}

/// Counts the atoms of each kind set in `f`.
fn collect<'f>(f: &'f Formula, uses: &mut FxMap<&'f [Kind], u32>) {
    match f {
        Formula::Top | Formula::Bottom => {}
        Formula::Atom(Atom::Count { kinds, .. }) => *uses.entry(kinds.as_slice()).or_insert(0) += 1,
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
