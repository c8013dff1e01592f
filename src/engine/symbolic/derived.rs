//! The derived location: one location whose counts have no variables.
//!
//! Every move conserves the cards (a move needs the cards it moves, a
//! "move all" moves all of them, setting a proposition touches no card),
//! so in every state of every law, for each kind k, `Σ_l count(k, l) =
//! copies[k]`. One location D can therefore be left without variables:
//! its count of kind k is the bit vector `copies[k] − Σ_{l≠D} x_{k,l}`,
//! computed where it is read. The deal's law then only says that the
//! other locations hold at most the copies of each kind (`≤` instead of
//! `=`) and gives D no size: its size follows from the others'.
//!
//! D is chosen at the deal among the locations no agent observes (the
//! stock): an observed location needs variables for its observers to see.
//! The arithmetic is modulo `2^full_width(k)`, exact in every state of the
//! law (there `Σ_{l≠D} x_{k,l} ≤ copies[k]`); truth sets mean something
//! only inside the law anyway.
//!
//! **Rests.** A location of one card (a forehead, a coin, a slot) holds
//! that one card in every state of the deal's law, so one of the kinds it
//! can hold needs no variables either: its count is the size less the
//! other kinds' counts there (`1 − Σ`, one bit). Muddy children's
//! foreheads, which hold M or C, then have one variable each, as in
//! SMCDEL's structures, instead of two. The rest stays derived only while
//! no move changes the location: the first event that changes one of its
//! counts gives the rest kind variables too (`transform.rs`), and the
//! location is an ordinary one from then on.

use oxidd::{BooleanFunction, VarNo};

use super::vars::{add, constant, oom, vec_of, width_for, Bdd, BitVec, Meta, Res, State};
use crate::engine::counters::{self, Counter};
use crate::engine::deal::{pinned, DealSpec};
use crate::engine::formula::Cmp;

/// The location of a deal to hold derived: among those no agent observes
/// (and so not pinned, when there are agents) and that can hold every
/// kind, the one dealt the most cards
/// (the first of those); none when every location is observed. An empty
/// location is never chosen: it has no variables at the deal anyway (its
/// counts are 0 bits wide), and the law "the others hold exactly the
/// copies" is then cheaper than "at most the copies" (Kwartet's empty stock).
pub(crate) fn choose(spec: &DealSpec) -> Option<usize> {
    let pins = pinned(spec);
    let seen = |l: usize| spec.observers.iter().any(|o| o.contains(&l));
    (0..spec.sizes.len())
        .filter(|&l| !seen(l) && !pins[l] && spec.sizes[l] > 0)
        .filter(|&l| spec.only.get(l).is_none_or(Option::is_none))
        .max_by_key(|&l| (spec.sizes[l], std::cmp::Reverse(l)))
}

/// For each location of a deal, its rest (the kind whose count has no
/// variables, and the size): at every location of one card that can hold
/// at most two kinds (a forehead of M or C, a coin), other than the
/// derived one, the last kind it can hold. Its count is then the
/// negation of the other kind's bit. A slot that can hold any of many
/// kinds gets none: its rest would save one variable of many and cost a
/// sum over all the others wherever it is read.
pub(crate) fn rests(spec: &DealSpec, derived: Option<usize>) -> Vec<Option<(usize, u32)>> {
    (0..spec.sizes.len())
        .map(|l| {
            if derived == Some(l) || spec.sizes[l] != 1 {
                return None;
            }
            let held: Vec<usize> = (0..spec.copies.len())
                .filter(|&k| spec.copies[k] > 0 && spec.allows(l, k))
                .collect();
            match held.as_slice() {
                [.., k] if held.len() <= 2 => Some((*k, spec.sizes[l])),
                _ => None,
            }
        })
        .collect()
}

/// The rest of location `l`, if it has one.
pub(crate) fn rest_of_loc(st: &State, l: usize) -> Option<(usize, u32)> {
    st.rest.get(l).copied().flatten()
}

/// Whether fact (k, l) is a rest: a count without variables.
pub(crate) fn is_rest(st: &State, k: usize, l: usize) -> bool {
    rest_of_loc(st, l).is_some_and(|(r, _)| r == k)
}

/// The count of kind `k` at location `l` as a bit vector of BDDs: the
/// fact's variables, for the derived location the copies not elsewhere,
/// for a rest the size less the other kinds there.
pub(crate) fn fact_value(st: &State, k: usize, l: usize) -> Res<BitVec> {
    let meta = &*st.meta;
    if !is_rest(st, k, l) && st.derived != Some(l) {
        return vec_of(meta, &st.facts[meta.fact(k, l)]);
    }
    // A sum over many counts (the derived location's, after every move
    // and in every query about the stock): kept in the lineage by what it
    // reads, the variables of each count summed.
    let mut key = vec![k as VarNo, l as VarNo];
    reads(st, k, l, &mut key);
    if let Some(v) = meta.sums.borrow().get(&key) {
        return Ok(v.clone());
    }
    let value = sum_value(st, k, l)?;
    let mut sums = meta.sums.borrow_mut();
    if sums.len() >= SUMS {
        sums.clear();
    }
    sums.insert(key, value.clone());
    Ok(value)
}

/// "The derived location `l` holds `cmp n` cards of kind `k`", built
/// directly from the variables of the kind's counts elsewhere, when none
/// of them is a rest (`None` otherwise, or for any other location).
///
/// The derived count is `copies − S` modulo `2^w` (`sum_value`, w the
/// kind's full width), S the sum of the other counts, and an atom reads
/// it through [`sum_table`](super::vars::sum_table) with every value
/// above `cap` read as `cap`. Here that truth is tabled for each `S mod
/// 2^w` and met by a dynamic program over the counts' bits (bit i
/// weighs `2^i`), from the last variable up: `items × 2^w`
/// if-then-else steps on small BDDs, the same function as summing the
/// counts with adders and comparing the result, without building the
/// sum. In the Cabo-like game, every draw asks "the closed pile holds a
/// k" for each kind k, and after a card is placed in a slot (new
/// variables), the adders' sums over every slot would be built again.
pub(crate) fn count_atom(
    st: &State,
    k: usize,
    l: usize,
    cmp: Cmp,
    n: u32,
    cap: u32,
) -> Res<Option<Bdd>> {
    let meta = &*st.meta;
    let w = meta.full_width(k);
    if st.derived != Some(l) || w > 8 || (0..meta.locs).any(|m| is_rest(st, k, m)) {
        return Ok(None);
    }
    let mut key = vec![k as VarNo, l as VarNo, cmp as VarNo, n, cap];
    reads(st, k, l, &mut key);
    if let Some(b) = meta.count_atoms.borrow().get(&key) {
        return Ok(Some(b.clone()));
    }
    let modulus = 1u32 << w;
    let mask = modulus - 1;
    let copies = meta.copies[k];
    let mut items: Vec<(VarNo, u32)> = Vec::new();
    for m in (0..meta.locs).filter(|&m| m != l) {
        for (i, &v) in st.facts[meta.fact(k, m)].iter().enumerate() {
            items.push((v, if i < 32 { (1u32 << i) & mask } else { 0 }));
        }
    }
    items.sort_unstable();
    // below[r]: the atom's truth when the counts still to be read add
    // up to what takes the sum so far, r, to its final value.
    let mut below: Vec<Bdd> = (0..modulus)
        .map(|r| {
            let value = copies.wrapping_sub(r) & mask;
            if cmp.holds(value.min(cap), n) {
                meta.top()
            } else {
                meta.bot()
            }
        })
        .collect();
    for &(v, weight) in items.iter().rev() {
        let x = meta.var(v)?;
        let mut here = Vec::with_capacity(below.len());
        for r in 0..modulus {
            let taken = &below[((r + weight) & mask) as usize];
            here.push(oom(x.ite(taken, &below[r as usize]))?);
        }
        below = here;
    }
    let atom = below.swap_remove(0);
    let mut kept = meta.count_atoms.borrow_mut();
    if kept.len() >= SUMS {
        kept.clear();
    }
    kept.insert(key, atom.clone());
    Ok(Some(atom))
}

/// The most sums [`fact_value`] keeps.
const SUMS: usize = 4096;

/// What [`sum_value`] of (k, l) reads, appended to `out`: every variable
/// list it sums (each closed by a separator) and the sizes of rests.
fn reads(st: &State, k: usize, l: usize, out: &mut Vec<VarNo>) {
    const END: VarNo = VarNo::MAX;
    let meta = &*st.meta;
    match rest_of_loc(st, l) {
        Some((r, size)) if r == k => {
            out.extend([END - 1, size]);
            for other in (0..meta.copies.len()).filter(|&o| o != k) {
                out.extend(&st.facts[meta.fact(other, l)]);
                out.push(END);
            }
        }
        _ if st.derived == Some(l) => {
            for m in (0..meta.locs).filter(|&m| m != l) {
                reads(st, k, m, out);
            }
        }
        _ => {
            out.extend(&st.facts[meta.fact(k, l)]);
            out.push(END);
        }
    }
}

/// The count of a rest or of the derived location, summed.
fn sum_value(st: &State, k: usize, l: usize) -> Res<BitVec> {
    let meta = &*st.meta;
    if let Some((r, size)) = rest_of_loc(st, l) {
        if r == k {
            let w = width_for(meta.copies[k].min(size));
            let mut sum = constant(meta, 0, w);
            for other in (0..meta.copies.len()).filter(|&o| o != k) {
                sum = add(
                    meta,
                    &sum,
                    &vec_of(meta, &st.facts[meta.fact(other, l)])?,
                    w,
                )?;
            }
            return minus(meta, size, &sum, w);
        }
    }
    // `copies[k] − Σ` of the other locations' counts (rests included),
    // on the full width of kind `k`.
    let w = meta.full_width(k);
    let others: Vec<usize> = (0..meta.locs).filter(|&m| m != l).collect();
    // Only sums of variables alone are kept for the next one.
    let plain = !others.iter().any(|&m| is_rest(st, k, m));
    if plain {
        if let Some(sum) = sum_from_last(st, k, l, &others, w)? {
            return minus(meta, meta.copies[k], &sum, w);
        }
    }
    let mut sum = constant(meta, 0, w);
    for &m in &others {
        sum = add(meta, &sum, &fact_value(st, k, m)?, w)?;
    }
    if plain {
        remember(st, k, l, &others, &sum);
    }
    minus(meta, meta.copies[k], &sum, w)
}

/// `Σ_{m ∈ others} count(k, m)` from the last such sum of the lineage,
/// when at most a third of its counts have other variables now (a move
/// gives new variables to the counts of the locations it changes): the
/// old counts subtracted and the new ones added, modulo `2^w`. The same
/// function as the sum of every count, so the same BDDs. `None` (summed
/// from scratch) when there is no last sum or too much changed. No
/// count of `others` is a rest.
fn sum_from_last(
    st: &State,
    k: usize,
    l: usize,
    others: &[usize],
    w: usize,
) -> Res<Option<BitVec>> {
    let meta = &*st.meta;
    let now: Vec<&[VarNo]> = others
        .iter()
        .map(|&m| st.facts[meta.fact(k, m)].as_slice())
        .collect();
    let last = meta.last_sums.borrow();
    let Some((before, sum)) = last.get(&(k, l)) else {
        return Ok(None);
    };
    if before.len() != now.len() {
        return Ok(None);
    }
    let changed: Vec<usize> = (0..now.len()).filter(|&i| before[i] != now[i]).collect();
    if changed.len() * 3 > now.len() {
        return Ok(None);
    }
    let mut sum = sum.clone();
    for &i in &changed {
        let old = minus(meta, 0, &vec_of(meta, &before[i])?, w)?;
        sum = add(meta, &sum, &old, w)?;
        sum = add(meta, &sum, &vec_of(meta, now[i])?, w)?;
    }
    drop(last);
    remember(st, k, l, others, &sum);
    counters::count(Counter::SumFromLast);
    Ok(Some(sum))
}

/// The derived location's count of kind `k`, summed from scratch
/// without anything kept (tests compare the kept and updated sums to it).
#[cfg(test)]
pub(crate) fn summed_afresh(st: &State, k: usize) -> Res<BitVec> {
    let meta = &*st.meta;
    let l = st.derived.expect("a derived location");
    let w = meta.full_width(k);
    let mut sum = constant(meta, 0, w);
    for m in (0..meta.locs).filter(|&m| m != l) {
        let x = if is_rest(st, k, m) {
            sum_value(st, k, m)?
        } else {
            vec_of(meta, &st.facts[meta.fact(k, m)])?
        };
        sum = add(meta, &sum, &x, w)?;
    }
    minus(meta, meta.copies[k], &sum, w)
}

/// Keeps `sum` as the lineage's last sum of kind `k` outside `l`, with
/// the variables of the counts it summed (none of them a rest).
fn remember(st: &State, k: usize, l: usize, others: &[usize], sum: &BitVec) {
    let meta = &*st.meta;
    let vars = others
        .iter()
        .map(|&m| st.facts[meta.fact(k, m)].clone())
        .collect();
    meta.last_sums
        .borrow_mut()
        .insert((k, l), (vars, sum.clone()));
}

/// `c − x` modulo `2^width`: `c + ¬x + 1`, the bits of `x` past its end
/// taken as zero (so their complement as one).
pub(crate) fn minus(meta: &Meta, c: u32, x: &[Bdd], width: usize) -> Res<BitVec> {
    let mut not_x = Vec::with_capacity(width);
    for i in 0..width {
        not_x.push(match x.get(i) {
            Some(b) => oom(b.not())?,
            None => meta.top(),
        });
    }
    let modulus = if width >= 32 { 0 } else { 1u32 << width };
    let c1 = c.wrapping_add(1) & modulus.wrapping_sub(1);
    add(meta, &constant(meta, c1.into(), width), &not_x, width)
}

/// Every count of a state from its stored ones: `counts[meta.fact(k, l)]`
/// holds what the variables say (0 for a fact without variables); the
/// rests are filled in, then the derived location.
pub(crate) fn fill_all(st: &State, counts: &mut [u32]) {
    let meta = &*st.meta;
    for (l, rest) in st.rest.iter().enumerate() {
        if let Some((r, size)) = *rest {
            let others = (0..meta.copies.len())
                .filter(|&k| k != r)
                .fold(0u32, |acc, k| acc.saturating_add(counts[meta.fact(k, l)]));
            counts[meta.fact(r, l)] = size.saturating_sub(others);
        }
    }
    for (k, &copies) in meta.copies.iter().enumerate() {
        fill(
            copies,
            st.derived,
            &mut counts[k * meta.locs..(k + 1) * meta.locs],
        );
    }
}

/// One kind's count at the derived location from its counts elsewhere:
/// `row` holds the kind's count at every location (the derived one's
/// ignored and overwritten with `copies` minus the others).
fn fill(copies: u32, derived: Option<usize>, row: &mut [u32]) {
    let Some(d) = derived else {
        return;
    };
    let elsewhere = row
        .iter()
        .enumerate()
        .filter(|&(l, _)| l != d)
        .fold(0u32, |acc, (_, &c)| acc.saturating_add(c));
    if let Some(slot) = row.get_mut(d) {
        *slot = copies.saturating_sub(elsewhere);
    }
}
