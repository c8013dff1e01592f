//! Walks over a BDD's nodes: its support, its model count over a
//! vocabulary (exact, as a big integer) and the enumeration of its
//! models. Variables are never reordered, so a node's level is its variable.
//! The BDDs have complement edges: a step is a node reached with an even
//! or an odd number of complemented edges on the way (then it stands for
//! the node's negation).

use rustc_hash::FxHashMap;

use num_bigint::BigUint;
use num_traits::{ToPrimitive, Zero};
use oxidd::{BooleanFunction, Function, HasLevel, InnerNode, Manager, Node, VarNo};

use super::vars::Bdd;

/// A node as the walks see it: its variable and its two children's ids
/// (then, else), or a terminal.
#[derive(Clone, Copy)]
enum Step {
    Inner(VarNo, usize, usize),
    True,
    False,
}

/// The reachable part of a BDD as a table of steps, the root first.
struct Graph {
    steps: Vec<Step>,
}

impl Graph {
    /// Copies the nodes of `f` into a table (ids are positions); a node
    /// reached under an odd number of complemented edges is a step of its
    /// own (key: twice the node id, plus one when negated).
    fn of(f: &Bdd) -> Graph {
        f.with_manager_shared(|m, root| {
            let truth = Bdd::t(m);
            let true_edge = truth.as_edge(m);
            let true_id = true_edge.node_id();
            let true_neg = true_edge.tag() != Default::default();
            let key = |id: usize, neg: bool| 2 * id + usize::from(neg);
            let mut ids: FxHashMap<usize, usize> = FxHashMap::default();
            let mut steps = Vec::new();
            let root_neg = root.tag() != Default::default();
            let mut stack = vec![(root.node_id(), root_neg, root)];
            ids.insert(key(root.node_id(), root_neg), 0);
            steps.push(Step::False);
            while let Some((id, neg, e)) = stack.pop() {
                let at = ids[&key(id, neg)];
                steps[at] = match m.get_node(e) {
                    Node::Terminal(_) if id == true_id && neg == true_neg => Step::True,
                    Node::Terminal(_) => Step::False,
                    Node::Inner(node) => {
                        let mut kids = [0usize; 2];
                        for (slot, child) in kids.iter_mut().zip(node.children()) {
                            let cid = child.node_id();
                            let cneg = neg ^ (child.tag() != Default::default());
                            *slot = *ids.entry(key(cid, cneg)).or_insert_with(|| {
                                steps.push(Step::False);
                                stack.push((cid, cneg, child));
                                steps.len() - 1
                            });
                        }
                        Step::Inner(node.level(), kids[0], kids[1])
                    }
                };
            }
            Graph { steps }
        })
    }

    /// The variable of a step (`u32::MAX` for terminals).
    fn var(&self, i: usize) -> VarNo {
        match self.steps[i] {
            Step::Inner(v, _, _) => v,
            _ => VarNo::MAX,
        }
    }
}

/// The variables `f` depends on, sorted.
pub(crate) fn support(f: &Bdd) -> Vec<VarNo> {
    let g = Graph::of(f);
    let mut vars: Vec<VarNo> = (0..g.steps.len())
        .map(|i| g.var(i))
        .filter(|&v| v != VarNo::MAX)
        .collect();
    vars.sort_unstable();
    vars.dedup();
    vars
}

/// [`count_big`], saturating at `u128::MAX`.
pub(crate) fn count(f: &Bdd, vocab: &[VarNo]) -> u128 {
    saturate(&count_big(f, vocab))
}

/// A big count as a `u128`, saturating.
pub(crate) fn saturate(n: &BigUint) -> u128 {
    n.to_u128().unwrap_or(u128::MAX)
}

/// The number of assignments of the variables `vocab` (sorted, a superset
/// of the support of `f`) that satisfy `f`.
pub(crate) fn count_big(f: &Bdd, vocab: &[VarNo]) -> BigUint {
    let g = Graph::of(f);
    let above = |v: VarNo| vocab.partition_point(|&x| x < v) as u32;
    let total = vocab.len() as u32;
    let level = |i: usize| match g.var(i) {
        VarNo::MAX => total,
        v => above(v),
    };
    let mut memo: Vec<Option<BigUint>> = vec![None; g.steps.len()];
    let shl = |x: &BigUint, by: u32| -> BigUint { x << by };
    // Children have larger ids than... not necessarily: compute by explicit post-order.
    let mut stack = vec![(0usize, false)];
    while let Some((i, done)) = stack.pop() {
        if memo[i].is_some() {
            continue;
        }
        match g.steps[i] {
            Step::True => memo[i] = Some(BigUint::from(1u32)),
            Step::False => memo[i] = Some(BigUint::zero()),
            Step::Inner(_, t, e) => {
                if done {
                    let here = level(i);
                    let zero = BigUint::zero();
                    let part =
                        |c: usize| shl(memo[c].as_ref().unwrap_or(&zero), level(c) - here - 1);
                    memo[i] = Some(part(t) + part(e));
                } else {
                    stack.push((i, true));
                    stack.push((t, false));
                    stack.push((e, false));
                }
            }
        }
    }
    let zero = BigUint::zero();
    shl(memo[0].as_ref().unwrap_or(&zero), level(0))
}

/// Whether `f` has exactly one model over `vocab` (sorted, a superset of
/// the support of `f`): [`count`] is 1. Without counting: such an `f` is
/// a path with a node at every variable of `vocab`, each with one false
/// child, and the walk stops at the first node that is not.
pub(crate) fn one_model(f: &Bdd, vocab: &[VarNo]) -> bool {
    f.with_manager_shared(|m, root| {
        let truth = Bdd::t(m);
        let true_edge = truth.as_edge(m);
        let (true_id, true_neg) = (true_edge.node_id(), true_edge.tag() != Default::default());
        let is_false = |id: usize, neg: bool| id == true_id && neg != true_neg;
        let mut edge = root;
        let mut neg = root.tag() != Default::default();
        for &v in vocab {
            let Node::Inner(node) = m.get_node(edge) else {
                return false;
            };
            if node.level() != v {
                return false;
            }
            let mut open = None;
            for child in node.children() {
                let cneg = neg ^ (child.tag() != Default::default());
                if !is_false(child.node_id(), cneg) {
                    if open.is_some() {
                        return false;
                    }
                    open = Some((child, cneg));
                }
            }
            let Some((child, cneg)) = open else {
                return false;
            };
            edge = child;
            neg = cneg;
        }
        matches!(m.get_node(edge), Node::Terminal(_))
            && edge.node_id() == true_id
            && neg == true_neg
    })
}

/// The value of `f` at the assignment `values` (indexed by variable;
/// a variable past its end is false): one path from the root, instead of
/// the library's evaluation, which reads a value for every variable of
/// the manager first (thousands, for a card game's spare slots).
pub(crate) fn value_at(f: &Bdd, values: &[bool]) -> bool {
    f.with_manager_shared(|m, root| {
        let truth = Bdd::t(m);
        let true_edge = truth.as_edge(m);
        let (true_id, true_neg) = (true_edge.node_id(), true_edge.tag() != Default::default());
        let mut edge = root;
        let mut neg = root.tag() != Default::default();
        loop {
            match m.get_node(edge) {
                Node::Inner(node) => {
                    let value = values.get(node.level() as usize).copied().unwrap_or(false);
                    let mut children = node.children();
                    let (then, other) = (children.next(), children.next());
                    let Some(child) = (if value { then } else { other }) else {
                        return false;
                    };
                    neg ^= child.tag() != Default::default();
                    edge = child;
                }
                Node::Terminal(_) => return edge.node_id() == true_id && neg == true_neg,
            }
        }
    })
}

/// The values each variable of `f`'s support takes in some model of `f`
/// (bit 1: false, bit 2: true), in one pass over its nodes; empty when `f`
/// is false. A variable outside the support takes both in a satisfiable
/// `f`. Every inner node of a reduced BDD is satisfiable, so a node's
/// variable takes the value of each child that is not false, and every
/// variable an edge to a child that is not false skips takes both.
pub(crate) fn values_taken(f: &Bdd) -> FxHashMap<VarNo, u8> {
    let g = Graph::of(f);
    let mut vars: Vec<VarNo> = (0..g.steps.len())
        .map(|i| g.var(i))
        .filter(|&v| v != VarNo::MAX)
        .collect();
    vars.sort_unstable();
    vars.dedup();
    let mut taken = FxHashMap::default();
    if matches!(g.steps[0], Step::False) {
        return taken;
    }
    // The position of a step's variable among `vars` (terminals: past the end).
    let at = |i: usize| match g.var(i) {
        VarNo::MAX => vars.len(),
        v => vars.partition_point(|&x| x < v),
    };
    // skipped[j] > 0 after the prefix sums: some edge skips vars[j].
    let mut skipped = vec![0i64; vars.len() + 1];
    skipped[0] += 1;
    skipped[at(0)] -= 1;
    for (i, step) in g.steps.iter().enumerate() {
        let Step::Inner(v, hi, lo) = *step else {
            continue;
        };
        let here = at(i);
        for (child, bit) in [(hi, 2u8), (lo, 1u8)] {
            if matches!(g.steps[child], Step::False) {
                continue;
            }
            *taken.entry(v).or_insert(0) |= bit;
            skipped[here + 1] += 1;
            skipped[at(child)] -= 1;
        }
    }
    let mut open = 0;
    for (j, &v) in vars.iter().enumerate() {
        open += skipped[j];
        if open > 0 {
            taken.insert(v, 3);
        }
    }
    taken
}

/// Calls `visit` with every model of `f` over the variables `vocab` (sorted,
/// a superset of the support): `values[i]` is the value of `vocab[i]`.
pub(crate) fn models(f: &Bdd, vocab: &[VarNo], visit: &mut dyn FnMut(&[bool])) {
    let g = Graph::of(f);
    let mut values = vec![false; vocab.len()];
    let index = |v: VarNo| vocab.partition_point(|&x| x < v);
    walk_models(&g, 0, 0, &index, &mut values, visit);
}

/// The models below step `i`, with the variables `vocab[from..]` still free.
fn walk_models(
    g: &Graph,
    i: usize,
    from: usize,
    index: &dyn Fn(VarNo) -> usize,
    values: &mut Vec<bool>,
    visit: &mut dyn FnMut(&[bool]),
) {
    let upto = match g.steps[i] {
        Step::False => return,
        Step::True => values.len(),
        Step::Inner(v, _, _) => index(v),
    };
    if from < upto {
        // A free variable the node skips: both values.
        for b in [false, true] {
            values[from] = b;
            walk_models(g, i, from + 1, index, values, visit);
        }
        return;
    }
    match g.steps[i] {
        Step::Inner(_, t, e) => {
            values[from] = true;
            walk_models(g, t, from + 1, index, values, visit);
            values[from] = false;
            walk_models(g, e, from + 1, index, values, visit);
        }
        _ => visit(values),
    }
}

/// `∨_c (x_c ∧ f[x_c := 0])` over the one-bit variables `draw` (sorted):
/// the sets of values f holds with exactly one of those variables turned
/// from 0 to 1 (a private draw of one card into a hand of distinct
/// cards, `factors::private_draw`), in one pass over f's nodes instead of
/// a cofactor and a disjunction per variable. Recursion on a node and the
/// next draw variable j: at a draw variable (in f or skipped by it) the
/// new value 1 is either the drawn card (the old value 0, nothing drawn
/// below) or an old 1 with the card drawn below; 0 is an old 0 with the
/// card drawn below. At the bottom nothing is left to draw: false.
pub(crate) fn shift_in(meta: &super::vars::Meta, f: &Bdd, draw: &[VarNo]) -> super::vars::Res<Bdd> {
    use super::vars::oom;
    let g = Graph::of(f);
    // The BDD of each step, rebuilt bottom-up.
    let mut whole: FxHashMap<usize, Bdd> = FxHashMap::default();
    let mut shifted: FxHashMap<(usize, usize), Bdd> = FxHashMap::default();
    fn plain(
        meta: &super::vars::Meta,
        g: &Graph,
        i: usize,
        memo: &mut FxHashMap<usize, Bdd>,
    ) -> super::vars::Res<Bdd> {
        if let Some(b) = memo.get(&i) {
            return Ok(b.clone());
        }
        let b = match g.steps[i] {
            Step::True => meta.top(),
            Step::False => meta.bot(),
            Step::Inner(v, hi, lo) => {
                let (h, l) = (plain(meta, g, hi, memo)?, plain(meta, g, lo, memo)?);
                oom(meta.var(v)?.ite(&h, &l))?
            }
        };
        memo.insert(i, b.clone());
        Ok(b)
    }
    #[allow(clippy::too_many_arguments)]
    fn shift(
        meta: &super::vars::Meta,
        g: &Graph,
        draw: &[VarNo],
        i: usize,
        j: usize,
        whole: &mut FxHashMap<usize, Bdd>,
        memo: &mut FxHashMap<(usize, usize), Bdd>,
    ) -> super::vars::Res<Bdd> {
        if let Some(b) = memo.get(&(i, j)) {
            return Ok(b.clone());
        }
        let v = g.var(i);
        let b = if j < draw.len() && draw[j] < v {
            // A draw variable f does not read here.
            let later = shift(meta, g, draw, i, j + 1, whole, memo)?;
            let here = oom(plain(meta, g, i, whole)?.or(&later))?;
            oom(meta.var(draw[j])?.ite(&here, &later))?
        } else {
            match g.steps[i] {
                Step::True | Step::False => meta.bot(),
                Step::Inner(v, hi, lo) if j < draw.len() && draw[j] == v => {
                    let later_hi = shift(meta, g, draw, hi, j + 1, whole, memo)?;
                    let later_lo = shift(meta, g, draw, lo, j + 1, whole, memo)?;
                    let here = oom(plain(meta, g, lo, whole)?.or(&later_hi))?;
                    oom(meta.var(v)?.ite(&here, &later_lo))?
                }
                Step::Inner(v, hi, lo) => {
                    let h = shift(meta, g, draw, hi, j, whole, memo)?;
                    let l = shift(meta, g, draw, lo, j, whole, memo)?;
                    oom(meta.var(v)?.ite(&h, &l))?
                }
            }
        };
        memo.insert((i, j), b.clone());
        Ok(b)
    }
    shift(meta, &g, draw, 0, 0, &mut whole, &mut shifted)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::symbolic::vars::test_meta;

    #[test]
    fn counts_and_models_agree() {
        let m = test_meta(5);
        let (a, b, d) = (m.var(0).unwrap(), m.var(1).unwrap(), m.var(3).unwrap());
        let f = a.or(&b).unwrap().and(&d.not().unwrap()).unwrap();
        assert_eq!(support(&f), vec![0, 1, 3]);
        assert_eq!(count(&f, &[0, 1, 3]), 3);
        assert_eq!(count(&f, &[0, 1, 2, 3, 4]), 12);
        let mut seen = Vec::new();
        models(&f, &[0, 1, 2, 3], &mut |v| seen.push(v.to_vec()));
        assert_eq!(seen.len(), 6);
        assert!(seen.iter().all(|v| (v[0] || v[1]) && !v[3]));
        assert_eq!(count(&m.top(), &[]), 1);
        assert_eq!(count(&m.bot(), &[0]), 0);
        let wide: Vec<VarNo> = (0..200).collect();
        m.fresh(200);
        assert_eq!(count(&m.top(), &wide), u128::MAX);
        assert_eq!(count_big(&m.top(), &wide), BigUint::from(1u32) << 200u32);
        let g = a.not().unwrap().and(&b.not().unwrap()).unwrap();
        assert_eq!(count_big(&g, &wide), BigUint::from(1u32) << 198u32);
    }

    /// A random function of the variables `0..vars`: a disjunction of
    /// fewer than `cubes` cubes, each variable's literal in a cube picked
    /// by `literal` (`None`: left out).
    fn random_cubes(
        m: &crate::engine::symbolic::vars::Meta,
        rng: &mut rand_chacha::ChaCha8Rng,
        vars: VarNo,
        cubes: u32,
        mut literal: impl FnMut(&mut rand_chacha::ChaCha8Rng) -> Option<bool>,
    ) -> Bdd {
        use rand::RngExt;
        let mut f = m.bot();
        for _ in 0..rng.random_range(0..cubes) {
            let mut cube = m.top();
            for v in 0..vars {
                if let Some(value) = literal(rng) {
                    cube = cube.and(&m.lit(v, value).unwrap()).unwrap();
                }
            }
            f = f.or(&cube).unwrap();
        }
        f
    }

    #[test]
    fn the_values_taken_are_those_of_the_models() {
        use rand::{RngExt, SeedableRng};
        let m = test_meta(6);
        let vocab: Vec<VarNo> = (0..6).collect();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut partial = 0;
        for _ in 0..400 {
            let f = random_cubes(&m, &mut rng, 6, 4, |rng| match rng.random_range(0..3) {
                0 => Some(true),
                1 => Some(false),
                _ => None,
            });
            let mut seen = [0u8; 6];
            models(&f, &vocab, &mut |vals| {
                for (v, &b) in vals.iter().enumerate() {
                    seen[v] |= if b { 2 } else { 1 };
                }
            });
            let taken = values_taken(&f);
            for v in 0..6u32 {
                let got = match taken.get(&v) {
                    Some(&bits) => bits,
                    None if f.satisfiable() => 3,
                    None => 0,
                };
                assert_eq!(got, seen[v as usize], "variable {v}");
                partial += usize::from(got == 1 || got == 2);
            }
        }
        assert!(partial > 100, "{partial}");
    }

    #[test]
    fn the_value_at_an_assignment_is_the_library_s() {
        use rand::{RngExt, SeedableRng};
        let m = test_meta(6);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let (mut ones, mut zeros) = (0, 0);
        for _ in 0..300 {
            let f = random_cubes(&m, &mut rng, 6, 4, |rng| match rng.random_range(0..3) {
                0 => Some(true),
                1 => Some(false),
                _ => None,
            });
            for _ in 0..8 {
                let values: Vec<bool> = (0..6).map(|_| rng.random_range(0..2) == 1).collect();
                let want = f.eval((0..6).map(|v| (v as VarNo, values[v])));
                assert_eq!(value_at(&f, &values), want);
                // A shorter assignment reads the missing variables as false.
                let short = &values[..3];
                let padded = (0..6).map(|v| (v as VarNo, v < 3 && values[v]));
                assert_eq!(value_at(&f, short), f.eval(padded));
                if want {
                    ones += 1;
                } else {
                    zeros += 1;
                }
            }
        }
        assert!(ones > 200 && zeros > 200, "{ones} true, {zeros} false");
    }

    #[test]
    fn one_model_is_a_count_of_one() {
        use rand::{RngExt, SeedableRng};
        let m = test_meta(5);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let (mut ones, mut others) = (0, 0);
        for _ in 0..600 {
            let f = random_cubes(&m, &mut rng, 5, 3, |rng| match rng.random_range(0..10) {
                0..4 => Some(true),
                4..9 => Some(false),
                _ => None,
            });
            for vocab in [vec![0, 1, 2, 3, 4], vec![0, 1, 2, 3, 4, 5]] {
                let one = count(&f, &vocab) == 1;
                assert_eq!(one_model(&f, &vocab), one);
                ones += usize::from(one);
                others += usize::from(!one);
            }
        }
        eprintln!("{ones} {others}");
        assert!(ones > 100 && others > 100, "{ones} {others}");
    }
}
