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

use oxidd::{BooleanFunction, VarNo};

use super::vars::{add, constant, oom, vec_of, Bdd, BitVec, Meta, Res, State};
use crate::engine::deal::{pinned, DealSpec};

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

/// The count of kind `k` at location `l` as a bit vector of BDDs: the
/// fact's variables, or for the derived location the copies not elsewhere.
pub(crate) fn fact_value(st: &State, k: usize, l: usize) -> Res<BitVec> {
    let meta = &*st.meta;
    if st.derived == Some(l) {
        let others: Vec<&[VarNo]> = (0..meta.locs)
            .filter(|&m| m != l)
            .map(|m| st.facts[meta.fact(k, m)].as_slice())
            .collect();
        rest_of(meta, k, &others)
    } else {
        vec_of(meta, &st.facts[meta.fact(k, l)])
    }
}

/// `copies[k] − Σ others` on the full width of kind `k`.
fn rest_of(meta: &Meta, k: usize, others: &[&[VarNo]]) -> Res<BitVec> {
    let w = meta.full_width(k);
    let mut sum = constant(meta, 0, w);
    for vars in others {
        sum = add(meta, &sum, &vec_of(meta, vars)?, w)?;
    }
    minus(meta, meta.copies[k], &sum, w)
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
    add(meta, &constant(meta, c1, width), &not_x, width)
}

/// One kind's count at the derived location from its counts elsewhere:
/// `row` holds the kind's count at every location (the derived one's
/// ignored and overwritten with `copies` minus the others).
pub(crate) fn fill(copies: u32, derived: Option<usize>, row: &mut [u32]) {
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
