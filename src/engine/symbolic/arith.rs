//! Integer terms over variables as bit vectors of BDDs: the comparisons
//! `x + y <= 100`, `x * y = 52`, `x < y` of scenarios with variables.
//!
//! A variable is a group of propositions, its value in binary. A term with
//! subtraction is kept as a difference `P - N` of two terms without it, so
//! every vector holds a natural number: `L ⋈ R` is `Lp + Rn ⋈ Rp + Ln`.

use oxidd::BooleanFunction;

use super::vars::{add, constant, oom, Bdd, BitVec, Meta, Res};
use crate::engine::formula::{Cmp, Comparison, Term};
use crate::engine::{EngineError, Prop};
use oxidd::VarNo;

/// A natural number as bits, with the largest value it can take.
struct Nat {
    bits: BitVec,
    max: u128,
}

/// Widest vector built (a term this large is refused, not truncated).
const MAX_WIDTH: usize = 64;

fn width(max: u128) -> Res<usize> {
    let w = if max == 0 {
        1
    } else {
        128 - max.leading_zeros() as usize
    };
    if w > MAX_WIDTH {
        return Err(EngineError::Unsupported(format!(
            "a term can reach {max}, more than {MAX_WIDTH} bits"
        )));
    }
    Ok(w)
}

fn zero() -> Nat {
    Nat {
        bits: Vec::new(),
        max: 0,
    }
}

fn sum(meta: &Meta, a: &Nat, b: &Nat) -> Res<Nat> {
    if a.max == 0 {
        return Ok(Nat {
            bits: b.bits.clone(),
            max: b.max,
        });
    }
    if b.max == 0 {
        return Ok(Nat {
            bits: a.bits.clone(),
            max: a.max,
        });
    }
    let max = a.max.saturating_add(b.max);
    let w = width(max)?;
    Ok(Nat {
        bits: add(meta, &a.bits, &b.bits, w)?,
        max,
    })
}

/// Shift-and-add: for each bit of `b`, `a` shifted where that bit is set.
fn product(meta: &Meta, a: &Nat, b: &Nat) -> Res<Nat> {
    let max = a.max.saturating_mul(b.max);
    if max == 0 {
        return Ok(zero());
    }
    let w = width(max)?;
    let mut acc: BitVec = Vec::new();
    let bot = meta.bot();
    for (j, yj) in b.bits.iter().enumerate() {
        if j >= w {
            break;
        }
        let mut partial = vec![bot.clone(); j];
        for xi in a.bits.iter().take(w - j) {
            partial.push(oom(xi.and(yj))?);
        }
        acc = add(meta, &acc, &partial, w)?;
    }
    Ok(Nat { bits: acc, max })
}

/// The largest values of `(P, N)` for term `t` held as `P - N` (as
/// [`term`] builds them), refused as [`term`] would refuse them, with no
/// BDD built: a product of wide variables is refused before its
/// multiplication is attempted.
fn maxima(t: &Term) -> Res<(u128, u128)> {
    let sum = |a: u128, b: u128| -> Res<u128> {
        let m = a.saturating_add(b);
        width(m)?;
        Ok(m)
    };
    let product = |a: u128, b: u128| -> Res<u128> {
        let m = a.saturating_mul(b);
        width(m)?;
        Ok(m)
    };
    Ok(match t {
        Term::Const(c) => {
            let max = u128::from(*c);
            width(max)?;
            (max, 0)
        }
        Term::Var(bits) => ((1u128 << bits.len().min(127)) - 1, 0),
        Term::Add(a, b) => {
            let ((ap, an), (bp, bn)) = (maxima(a)?, maxima(b)?);
            (sum(ap, bp)?, sum(an, bn)?)
        }
        Term::Sub(a, b) => {
            let ((ap, an), (bp, bn)) = (maxima(a)?, maxima(b)?);
            (sum(ap, bn)?, sum(an, bp)?)
        }
        Term::Mul(a, b) => {
            let ((ap, an), (bp, bn)) = (maxima(a)?, maxima(b)?);
            let pos = sum(product(ap, bp)?, product(an, bn)?)?;
            let neg = sum(product(ap, bn)?, product(an, bp)?)?;
            (pos, neg)
        }
    })
}

/// Whether the symbolic engine can hold term `t`: every part of it fits
/// in 64 bits. The error is the one building it would give.
pub fn fits(t: &Term) -> Res<()> {
    maxima(t).map(|_| ())
}

/// A term as `(P, N)`: its value is `P - N`. Refused (by [`maxima`])
/// before any BDD is built when a part of it is too wide.
fn term(meta: &Meta, props: &[VarNo], t: &Term) -> Res<(Nat, Nat)> {
    maxima(t)?;
    build(meta, props, t)
}

fn build(meta: &Meta, props: &[VarNo], t: &Term) -> Res<(Nat, Nat)> {
    Ok(match t {
        Term::Const(c) => {
            let max = u128::from(*c);
            let bits = constant(meta, max, width(max)?);
            (Nat { bits, max }, zero())
        }
        Term::Var(bits) => {
            let vars = bits
                .iter()
                .map(|&p: &Prop| match props.get(p) {
                    Some(&v) => meta.var(v),
                    None => Err(EngineError::Malformed(format!(
                        "proposition {p} out of range ({} propositions)",
                        props.len()
                    ))),
                })
                .collect::<Res<BitVec>>()?;
            let max = (1u128 << bits.len().min(127)) - 1;
            (Nat { bits: vars, max }, zero())
        }
        Term::Add(a, b) => {
            let ((ap, an), (bp, bn)) = (build(meta, props, a)?, build(meta, props, b)?);
            (sum(meta, &ap, &bp)?, sum(meta, &an, &bn)?)
        }
        Term::Sub(a, b) => {
            let ((ap, an), (bp, bn)) = (build(meta, props, a)?, build(meta, props, b)?);
            (sum(meta, &ap, &bn)?, sum(meta, &an, &bp)?)
        }
        Term::Mul(a, b) => {
            let ((ap, an), (bp, bn)) = (build(meta, props, a)?, build(meta, props, b)?);
            let pos = sum(meta, &product(meta, &ap, &bp)?, &product(meta, &an, &bn)?)?;
            let neg = sum(meta, &product(meta, &ap, &bn)?, &product(meta, &an, &bp)?)?;
            (pos, neg)
        }
    })
}

/// `a < b` and `a = b` for natural numbers as bits.
fn lt_eq(meta: &Meta, a: &[Bdd], b: &[Bdd]) -> Res<(Bdd, Bdd)> {
    let bot = meta.bot();
    let (mut lt, mut eq) = (meta.bot(), meta.top());
    for i in 0..a.len().max(b.len()) {
        let x = a.get(i).unwrap_or(&bot);
        let y = b.get(i).unwrap_or(&bot);
        let same = oom(oom(x.xor(y))?.not())?;
        let less = oom(oom(x.not())?.and(y))?;
        lt = oom(less.or(&oom(same.and(&lt))?))?;
        eq = oom(eq.and(&same))?;
    }
    Ok((lt, eq))
}

/// The truth set of a comparison, over the propositions' variables `props`.
pub(crate) fn compare(meta: &Meta, props: &[VarNo], c: &Comparison) -> Res<Bdd> {
    let (lp, ln) = term(meta, props, &c.left)?;
    let (rp, rn) = term(meta, props, &c.right)?;
    let left = sum(meta, &lp, &rn)?;
    let right = sum(meta, &rp, &ln)?;
    let (lt, eq) = lt_eq(meta, &left.bits, &right.bits)?;
    Ok(match c.cmp {
        Cmp::Lt => lt,
        Cmp::Eq => eq,
        Cmp::Ne => oom(eq.not())?,
        Cmp::Ge => oom(lt.not())?,
        Cmp::Le => oom(lt.or(&eq))?,
        Cmp::Gt => oom(oom(lt.or(&eq))?.not())?,
    })
}

/// An observed term made a natural number: its value plus `offset` (the
/// largest value its subtracted part can take), so that a difference below
/// zero (`x - y` with `x < y`) is observed too. The observer's fresh bits
/// hold that shifted value, tied to the term by [`Observed::law`].
pub(crate) struct Observed {
    /// The largest shifted value.
    pub max: u128,
    /// What is added to the term's value.
    pub offset: u128,
    /// `P + offset`, for the term `P - N`.
    plus: Nat,
    /// `N`.
    minus: Nat,
}

impl Observed {
    /// "`fresh` holds the shifted value": `fresh + N = P + offset`.
    pub fn law(&self, meta: &Meta, fresh: &[Bdd]) -> Res<Bdd> {
        let fresh = Nat {
            bits: fresh.to_vec(),
            max: self.max,
        };
        let left = sum(meta, &fresh, &self.minus)?;
        Ok(lt_eq(meta, &left.bits, &self.plus.bits)?.1)
    }
}

/// An observed term as a shifted natural number (see [`Observed`]).
pub(crate) fn observed(meta: &Meta, props: &[VarNo], t: &Term) -> Res<Observed> {
    let (p, minus) = term(meta, props, t)?;
    let offset = minus.max;
    let shift = Nat {
        bits: constant(meta, offset, width(offset)?),
        max: offset,
    };
    let plus = sum(meta, &p, &shift)?;
    let max = p.max.saturating_add(offset);
    width(max)?;
    Ok(Observed {
        max,
        offset,
        plus,
        minus,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::symbolic::vars::{test_meta, vec_of};

    /// `x - y` observed on x, y of two bits each: the fresh bits hold
    /// `x - y + 3` exactly, values below zero included.
    #[test]
    fn an_observed_difference_is_held_shifted() {
        let m = test_meta(7);
        let props: Vec<VarNo> = (0..4).collect();
        let t = Term::Sub(
            Box::new(Term::Var(vec![0, 1])),
            Box::new(Term::Var(vec![2, 3])),
        );
        let o = observed(&m, &props, &t).unwrap();
        assert_eq!((o.offset, o.max), (3, 6));
        let law = o.law(&m, &vec_of(&m, &[4, 5, 6]).unwrap()).unwrap();
        for bits in 0..128u32 {
            let env = (0..7).map(|v| (v as VarNo, bits >> v & 1 == 1));
            let (x, y, f) = (bits & 3, bits >> 2 & 3, bits >> 4);
            assert_eq!(law.eval(env), f + y == x + 3, "x={x} y={y} fresh={f}");
        }
    }
}
