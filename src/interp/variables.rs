//! Scenarios with variables (`var x, y in 2..99`, `law φ`, `actual x = 4`,
//! `S observes x + y`): the model whose worlds are the assignments of
//! values that satisfy every law, where a player cannot tell apart two
//! assignments that give the same values to the terms it observes.
//!
//! Each variable is held in binary by propositions `x#0`, `x#1`... (least
//! significant first), so that both engines read variables and
//! comparisons (`x + y <= 100`) as they read propositions.

use std::collections::HashMap;

use crate::diag::{Diagnostic, Span};
use crate::engine::formula::Term;
use crate::engine::{Atom, ExplicitModel, Formula, Relation};
use crate::syntax::ast::Name;

/// A declared variable.
#[derive(Clone, Debug)]
pub struct Variable {
    /// Its name.
    pub name: Name,
    /// The smallest value.
    pub lo: u64,
    /// The largest value.
    pub hi: u64,
}

/// How many bits hold values up to `hi`.
fn bits(hi: u64) -> usize {
    (64 - hi.leading_zeros() as usize).max(1)
}

/// The propositions that hold the variables' bits, in order.
pub fn props(vars: &[Variable]) -> Vec<String> {
    vars.iter()
        .flat_map(|v| (0..bits(v.hi)).map(move |i| format!("{}#{i}", v.name.text)))
        .collect()
}

/// Each variable's propositions, with its smallest and largest value.
pub fn ranges(vars: &[Variable]) -> Vec<(Vec<usize>, u64, u64)> {
    let mut next = 0;
    vars.iter()
        .map(|v| {
            let bits: Vec<usize> = (next..next + bits(v.hi)).collect();
            next += bits.len();
            (bits, v.lo, v.hi)
        })
        .collect()
}

/// The propositions' values for the variables' values.
pub fn valuation(vars: &[Variable], values: &[u64]) -> Vec<bool> {
    ranges(vars)
        .into_iter()
        .zip(values)
        .flat_map(|((bits, _, _), &x)| (0..bits.len()).map(move |i| x >> i & 1 == 1))
        .collect()
}

/// Whether `f` holds for the valuation `bit`, for a formula without
/// knowledge operators or updates (`None` otherwise).
fn plain(f: &Formula, bit: &impl Fn(usize) -> bool) -> Option<bool> {
    Some(match f {
        Formula::Top => true,
        Formula::Bottom => false,
        Formula::Atom(Atom::Prop(p)) => bit(*p),
        Formula::Atom(Atom::Compare(c)) => c.holds(bit),
        Formula::Atom(Atom::Count { .. }) => return None,
        Formula::Not(g) => !plain(g, bit)?,
        Formula::And(gs) => {
            for g in gs {
                if !plain(g, bit)? {
                    return Some(false);
                }
            }
            true
        }
        Formula::Or(gs) => {
            for g in gs {
                if plain(g, bit)? {
                    return Some(true);
                }
            }
            false
        }
        Formula::Implies(a, b) => !plain(a, bit)? || plain(b, bit)?,
        Formula::Iff(a, b) => plain(a, bit)? == plain(b, bit)?,
        _ => return None,
    })
}

/// What the model is built from, resolved.
pub struct Spec<'a> {
    /// The variables, in order of declaration.
    pub vars: &'a [Variable],
    /// The laws (each with where it was written).
    pub laws: Vec<(Formula, Span)>,
    /// The terms each player observes.
    pub observes: Vec<Vec<Term>>,
    /// The actual values, by variable.
    pub actual: Vec<u64>,
    /// The most worlds allowed.
    pub budget: u128,
}

/// How many assignments the variables have (saturating at `u128::MAX`).
pub fn assignments(vars: &[Variable]) -> u128 {
    vars.iter()
        .map(|v| u128::from(v.hi - v.lo + 1))
        .fold(1u128, u128::saturating_mul)
}

/// Whether `f` speaks of variables only: no knowledge, cards or moves.
fn is_plain(f: &Formula) -> bool {
    match f {
        Formula::Top | Formula::Bottom => true,
        Formula::Atom(Atom::Prop(_)) | Formula::Atom(Atom::Compare(_)) => true,
        Formula::Atom(Atom::Count { .. }) => false,
        Formula::Not(g) => is_plain(g),
        Formula::And(gs) | Formula::Or(gs) => gs.iter().all(is_plain),
        Formula::Implies(a, b) | Formula::Iff(a, b) => is_plain(a) && is_plain(b),
        _ => false,
    }
}

/// The checks of [`model`] that need no listing, for a model built as a
/// structure only (too many assignments to list): every law speaks of
/// variables only, and the actual values lie in their ranges and keep
/// every law. The errors are [`model`]'s.
pub fn check(spec: &Spec, at: Span) -> Result<(), Diagnostic> {
    for (law, span) in &spec.laws {
        if !is_plain(law) {
            return Err(bad_law(*span));
        }
    }
    let in_range = spec
        .vars
        .iter()
        .zip(&spec.actual)
        .all(|(v, &x)| v.lo <= x && x <= v.hi);
    let val = valuation(spec.vars, &spec.actual);
    let bit = |p: usize| val.get(p).copied().unwrap_or(false);
    let keeps = spec
        .laws
        .iter()
        .all(|(law, _)| plain(law, &bit) == Some(true));
    if in_range && keeps {
        Ok(())
    } else {
        Err(bad_actual(spec, at))
    }
}

/// A law that is not about variables only.
fn bad_law(span: Span) -> Diagnostic {
    Diagnostic::error(
        "bad-law",
        "a law says which assignments are worlds: it cannot speak of knowledge, cards or moves",
        span,
    )
    .with_help("write it with variables, numbers, comparisons and & | ! -> <->")
}

/// Actual values that are not a world.
fn bad_actual(spec: &Spec, at: Span) -> Diagnostic {
    let shown: Vec<String> = spec
        .vars
        .iter()
        .zip(&spec.actual)
        .map(|(v, x)| format!("{}={x}", v.name.text))
        .collect();
    Diagnostic::error(
        "bad-actual",
        format!(
            "the actual values {} break a law (or lie outside a range)",
            shown.join(", ")
        ),
        at,
    )
    .with_help("the actual world must be one of the worlds the laws allow")
}

/// The model as written (every assignment that satisfies the laws, in
/// order) and the names of its worlds (`x=4 y=13`).
pub fn model(spec: &Spec, at: Span) -> Result<(ExplicitModel, Vec<String>), Diagnostic> {
    let vars = spec.vars;
    let total = assignments(vars);
    if total > spec.budget {
        return Err(Diagnostic::error(
            "too-many-worlds",
            format!(
                "the variables have {} assignments, more than the budget of {}",
                crate::diag::thousands(total),
                crate::diag::thousands(spec.budget)
            ),
            at,
        )
        .with_help("use smaller ranges, or raise the budget with --max-worlds"));
    }
    let width: Vec<usize> = vars.iter().map(|v| bits(v.hi)).collect();
    let offsets: Vec<usize> = width
        .iter()
        .scan(0, |acc, w| {
            let o = *acc;
            *acc += w;
            Some(o)
        })
        .collect();
    let nprops: usize = width.iter().sum();
    let mut values: Vec<u64> = vars.iter().map(|v| v.lo).collect();
    let (mut valuations, mut names) = (Vec::new(), Vec::new());
    let mut classes: Vec<HashMap<Vec<i128>, usize>> = vec![HashMap::new(); spec.observes.len()];
    let mut rels: Vec<Vec<usize>> = vec![Vec::new(); spec.observes.len()];
    let mut actual = None;
    loop {
        let mut val = vec![false; nprops];
        for (i, &x) in values.iter().enumerate() {
            for b in 0..width[i] {
                val[offsets[i] + b] = x >> b & 1 == 1;
            }
        }
        let bit = |p: usize| val[p];
        let mut keep = true;
        for (law, span) in &spec.laws {
            match plain(law, &bit) {
                Some(true) => {}
                Some(false) => {
                    keep = false;
                    break;
                }
                None => return Err(bad_law(*span)),
            }
        }
        if keep {
            let w = valuations.len();
            for (a, terms) in spec.observes.iter().enumerate() {
                let key: Vec<i128> = terms.iter().map(|t| t.value(&bit)).collect();
                let next = classes[a].len();
                rels[a].push(*classes[a].entry(key).or_insert(next));
            }
            if values == spec.actual {
                actual = Some(w);
            }
            names.push(
                vars.iter()
                    .zip(&values)
                    .map(|(v, x)| format!("{}={x}", v.name.text))
                    .collect::<Vec<_>>()
                    .join(","),
            );
            valuations.push(val);
        }
        // The next assignment (the last variable changes fastest).
        let mut i = vars.len();
        loop {
            if i == 0 {
                return finish(spec, valuations, names, rels, actual, nprops, at);
            }
            i -= 1;
            if values[i] < vars[i].hi {
                values[i] += 1;
                break;
            }
            values[i] = vars[i].lo;
        }
    }
}

fn finish(
    spec: &Spec,
    valuations: Vec<Vec<bool>>,
    names: Vec<String>,
    rels: Vec<Vec<usize>>,
    actual: Option<usize>,
    nprops: usize,
    at: Span,
) -> Result<(ExplicitModel, Vec<String>), Diagnostic> {
    let Some(actual) = actual else {
        return Err(bad_actual(spec, at));
    };
    let model = ExplicitModel::from_valuations_as_written(
        rels.len(),
        nprops,
        valuations,
        rels.into_iter().map(Relation::Partition).collect(),
        actual,
    )
    .map_err(|e| super::errors::engine(&e, at))?;
    Ok((model, names))
}
