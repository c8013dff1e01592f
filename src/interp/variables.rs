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

/// The model as written (every assignment that satisfies the laws, in
/// order) and the names of its worlds (`x=4 y=13`).
pub fn model(spec: &Spec, at: Span) -> Result<(ExplicitModel, Vec<String>), Diagnostic> {
    let vars = spec.vars;
    let total: u128 = vars.iter().map(|v| u128::from(v.hi - v.lo + 1)).product();
    if total > spec.budget {
        return Err(Diagnostic::error(
            "too-many-worlds",
            format!(
                "the variables have {total} assignments, more than the budget of {}",
                spec.budget
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
                None => {
                    return Err(Diagnostic::error(
                        "bad-law",
                        "a law says which assignments are worlds: it cannot speak of knowledge, cards or moves",
                        *span,
                    )
                    .with_help("write it with variables, numbers, comparisons and & | ! -> <->"))
                }
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
        let shown: Vec<String> = spec
            .vars
            .iter()
            .zip(&spec.actual)
            .map(|(v, x)| format!("{}={x}", v.name.text))
            .collect();
        return Err(Diagnostic::error(
            "bad-actual",
            format!(
                "the actual values {} break a law (or lie outside a range)",
                shown.join(", ")
            ),
            at,
        )
        .with_help("the actual world must be one of the worlds the laws allow"));
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
