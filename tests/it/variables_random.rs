//! Random scenarios of variables, written as a puzzle author writes them
//! (`var`, `law`, `actual`, `observes` with `+`, `-`, `*`, announcements,
//! declared event models and expectations with K, M, Kw, Kv, E, C, D,
//! `[!ψ]`, `<!ψ>` and `[apply E]`), replayed as scenario text on the
//! explicit engine, on the symbolic engine with its listing, and on the
//! symbolic engine's structure alone (a budget of one world): every
//! expectation must come out as a reference evaluator says, and no engine
//! may refuse a statement.
//!
//! The reference shares no code with dealer: the scenario is this file's
//! own tree, printed to text; the reference evaluates that tree, its terms
//! and its comparisons itself, enumerates the assignments by brute force,
//! relates two worlds when the observed terms have the same values, and
//! evaluates formulas world by world from the definitions.
//!
//! 300 cases a run, drawn from a fixed seed so that every run of
//! `cargo test` checks the same cases in the same time (one random draw of
//! 300 once took 147 s, where the usual draw takes 6); `DEALER_LONG=1
//! cargo test --test it variables_random` runs 5,000 fresh random cases,
//! each failing past 30 s, so that a slow case is shrunk and saved like a
//! wrong one. A failure is shrunk by proptest and its seed saved in
//! `tests/it/variables_random.regressions`, replayed first on every run.

use std::collections::HashMap;

use dealer::interp::{Engine, Options, Output, Session};
use dealer::syntax;
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::subsequence;
use proptest::test_runner::{FileFailurePersistence, RngSeed};

const PLAYERS: [&str; 3] = ["Ann", "Bob", "Cy"];
const VARS: [&str; 3] = ["x", "y", "z"];

/// An integer term.
#[derive(Clone, Debug)]
enum T {
    Num(u64),
    Var(usize),
    Add(Box<T>, Box<T>),
    Sub(Box<T>, Box<T>),
    Mul(Box<T>, Box<T>),
}

/// A comparison.
#[derive(Clone, Copy, Debug)]
enum Op {
    Lt,
    Le,
    Eq,
    Ne,
    Ge,
    Gt,
}

/// A formula.
#[derive(Clone, Debug)]
enum F {
    Top,
    Bot,
    Cmp(T, Op, T),
    Not(Box<F>),
    And(Box<F>, Box<F>),
    Or(Box<F>, Box<F>),
    Imp(Box<F>, Box<F>),
    Iff(Box<F>, Box<F>),
    K(usize, Box<F>),
    M(usize, Box<F>),
    Kw(usize, Box<F>),
    Kv(usize, Vec<usize>),
    E(Vec<usize>, Box<F>),
    C(Vec<usize>, Box<F>),
    D(Vec<usize>, Box<F>),
    Box_(Box<F>, Box<F>),
    Dia(Box<F>, Box<F>),
    Apply(usize, Box<F>),
}

/// A declared event model: each event's precondition, each agent's
/// partition of the events (a block number per event), the actual event.
#[derive(Clone, Debug)]
struct Ev {
    pres: Vec<F>,
    blocks: Vec<Vec<usize>>,
    actual: usize,
}

#[derive(Clone, Debug)]
enum Step {
    Expect(F),
    Announce(F),
    Apply(usize),
}

#[derive(Clone, Debug)]
struct Case {
    agents: usize,
    ranges: Vec<(u64, u64)>,
    actual: Vec<u64>,
    laws: Vec<F>,
    observes: Vec<Vec<T>>,
    events: Vec<Ev>,
    steps: Vec<Step>,
}

// ---- printing ---------------------------------------------------------

fn term_text(t: &T, ctx: u8) -> String {
    let (s, prec) = match t {
        T::Num(n) => (n.to_string(), 3),
        T::Var(v) => (VARS[*v].to_string(), 3),
        T::Add(a, b) => (format!("{} + {}", term_text(a, 1), term_text(b, 2)), 1),
        T::Sub(a, b) => (format!("{} - {}", term_text(a, 1), term_text(b, 2)), 1),
        T::Mul(a, b) => (format!("{} * {}", term_text(a, 2), term_text(b, 3)), 2),
    };
    if prec < ctx {
        format!("({s})")
    } else {
        s
    }
}

fn group_text(g: &[usize]) -> String {
    let names: Vec<&str> = g.iter().map(|&a| PLAYERS[a]).collect();
    format!("{{{}}}", names.join(","))
}

/// The formula as scenario text, every compound part in parentheses.
fn text(f: &F) -> String {
    let p = |g: &F| format!("({})", text(g));
    match f {
        F::Top => "true".into(),
        F::Bot => "false".into(),
        F::Cmp(l, op, r) => {
            let (l, r) = (term_text(l, 0), term_text(r, 0));
            match op {
                Op::Lt => format!("{l} < {r}"),
                Op::Le => format!("{l} <= {r}"),
                Op::Eq => format!("{l} = {r}"),
                Op::Ne => format!("{l} != {r}"),
                Op::Ge => format!("{l} >= {r}"),
                // A `>` is a comparison only before a number.
                Op::Gt if r.parse::<u64>().is_ok() => format!("{l} > {r}"),
                Op::Gt => format!("{r} < {l}"),
            }
        }
        F::Not(g) => format!("!{}", p(g)),
        F::And(a, b) => format!("{} & {}", p(a), p(b)),
        F::Or(a, b) => format!("{} | {}", p(a), p(b)),
        F::Imp(a, b) => format!("{} -> {}", p(a), p(b)),
        F::Iff(a, b) => format!("{} <-> {}", p(a), p(b)),
        F::K(a, g) => format!("K_{} {}", PLAYERS[*a], p(g)),
        F::M(a, g) => format!("M_{} {}", PLAYERS[*a], p(g)),
        F::Kw(a, g) => format!("Kw_{} {}", PLAYERS[*a], p(g)),
        F::Kv(a, vs) if vs.len() == 1 => format!("Kv_{} {}", PLAYERS[*a], VARS[vs[0]]),
        F::Kv(a, vs) => {
            let names: Vec<&str> = vs.iter().map(|&v| VARS[v]).collect();
            format!("Kv_{} ({})", PLAYERS[*a], names.join(", "))
        }
        F::E(g, h) => format!("E{} {}", group_text(g), p(h)),
        F::C(g, h) => format!("C{} {}", group_text(g), p(h)),
        F::D(g, h) => format!("D{} {}", group_text(g), p(h)),
        F::Box_(a, b) => format!("[!{}] {}", p(a), p(b)),
        F::Dia(a, b) => format!("<!{}> {}", p(a), p(b)),
        F::Apply(e, g) => format!("[apply ev{e}] {}", p(g)),
    }
}

// ---- the reference ----------------------------------------------------

/// A model: each world's values, each agent's class of each world.
#[derive(Clone)]
struct Model {
    vals: Vec<Vec<i128>>,
    class: Vec<Vec<usize>>,
    actual: usize,
}

fn value(t: &T, vals: &[i128]) -> i128 {
    match t {
        T::Num(n) => i128::from(*n),
        T::Var(v) => vals[*v],
        T::Add(a, b) => value(a, vals) + value(b, vals),
        T::Sub(a, b) => value(a, vals) - value(b, vals),
        T::Mul(a, b) => value(a, vals) * value(b, vals),
    }
}

fn compare(l: i128, op: Op, r: i128) -> bool {
    match op {
        Op::Lt => l < r,
        Op::Le => l <= r,
        Op::Eq => l == r,
        Op::Ne => l != r,
        Op::Ge => l >= r,
        Op::Gt => l > r,
    }
}

/// Numbers the keys in order of first appearance.
fn classes<K: std::hash::Hash + Eq>(keys: impl Iterator<Item = K>) -> Vec<usize> {
    let mut seen = HashMap::new();
    keys.map(|k| {
        let next = seen.len();
        *seen.entry(k).or_insert(next)
    })
    .collect()
}

/// Every assignment in the ranges that keeps every law.
fn initial(case: &Case) -> Model {
    let mut all: Vec<Vec<i128>> = vec![Vec::new()];
    for &(lo, hi) in &case.ranges {
        all = all
            .into_iter()
            .flat_map(|w| {
                (lo..=hi).map(move |x| {
                    let mut w = w.clone();
                    w.push(i128::from(x));
                    w
                })
            })
            .collect();
    }
    let vals: Vec<Vec<i128>> = all
        .into_iter()
        .filter(|w| {
            let one = Model {
                vals: vec![w.clone()],
                class: vec![vec![0]; case.agents],
                actual: 0,
            };
            case.laws.iter().all(|l| eval(&one, 0, l))
        })
        .collect();
    let actual: Vec<i128> = case.actual.iter().map(|&x| i128::from(x)).collect();
    let class = case
        .observes
        .iter()
        .map(|terms| {
            classes(
                vals.iter()
                    .map(|w| terms.iter().map(|t| value(t, w)).collect::<Vec<_>>()),
            )
        })
        .collect();
    Model {
        actual: vals
            .iter()
            .position(|w| *w == actual)
            .expect("actual is a world"),
        vals,
        class,
    }
}

fn worlds(m: &Model) -> std::ops::Range<usize> {
    0..m.vals.len()
}

/// The worlds where `keep` holds, and the new number of world `w`.
fn restrict(m: &Model, keep: &[bool], w: usize) -> (Model, usize) {
    let old: Vec<usize> = worlds(m).filter(|&v| keep[v]).collect();
    let model = Model {
        vals: old.iter().map(|&v| m.vals[v].clone()).collect(),
        class: m
            .class
            .iter()
            .map(|c| old.iter().map(|&v| c[v]).collect())
            .collect(),
        actual: 0,
    };
    let at = old.iter().position(|&v| v == w).expect("w is kept");
    (model, at)
}

/// The product with an event model, and its (world, event) pairs.
fn product(m: &Model, ev: &Ev) -> (Model, Vec<(usize, usize)>) {
    let pres: Vec<Vec<bool>> = ev.pres.iter().map(|pre| sat(m, pre)).collect();
    let pairs: Vec<(usize, usize)> = worlds(m)
        .flat_map(|v| (0..ev.pres.len()).map(move |e| (v, e)))
        .filter(|&(v, e)| pres[e][v])
        .collect();
    let model = Model {
        vals: pairs.iter().map(|&(v, _)| m.vals[v].clone()).collect(),
        class: (0..m.class.len())
            .map(|a| classes(pairs.iter().map(|&(v, e)| (m.class[a][v], ev.blocks[a][e]))))
            .collect(),
        actual: 0,
    };
    (model, pairs)
}

/// Whether `f` holds at world `w` of `m`.
fn eval(m: &Model, w: usize, f: &F) -> bool {
    sat(m, f)[w]
}

/// For each world, whether `g` holds at every world with the same `key`
/// (the worlds an agent, or a group, cannot tell apart: equivalence classes).
fn all_alike<K: std::hash::Hash + Eq>(
    m: &Model,
    key: impl Fn(usize) -> K,
    g: &[bool],
) -> Vec<bool> {
    let mut all: HashMap<K, bool> = HashMap::new();
    for w in worlds(m) {
        *all.entry(key(w)).or_insert(true) &= g[w];
    }
    worlds(m).map(|w| all[&key(w)]).collect()
}

/// The worlds of `m` where `f` holds, by the definitions. Every agent's
/// relation is an equivalence (the events' relations are partitions), so
/// "every world `a` considers possible" is "every world of `a`'s class".
fn sat(m: &Model, f: &F) -> Vec<bool> {
    let each = |holds: &dyn Fn(usize) -> bool| worlds(m).map(holds).collect::<Vec<bool>>();
    let not = |v: Vec<bool>| v.into_iter().map(|b| !b).collect::<Vec<bool>>();
    let k = |a: usize, g: &[bool]| all_alike(m, |w| m.class[a][w], g);
    match f {
        F::Top => vec![true; m.vals.len()],
        F::Bot => vec![false; m.vals.len()],
        F::Cmp(l, op, r) => each(&|w| compare(value(l, &m.vals[w]), *op, value(r, &m.vals[w]))),
        F::Not(g) => not(sat(m, g)),
        F::And(a, b) | F::Or(a, b) | F::Imp(a, b) | F::Iff(a, b) => {
            let (a, b) = (sat(m, a), sat(m, b));
            each(&|w| match f {
                F::And(..) => a[w] && b[w],
                F::Or(..) => a[w] || b[w],
                F::Imp(..) => !a[w] || b[w],
                _ => a[w] == b[w],
            })
        }
        F::K(a, g) => k(*a, &sat(m, g)),
        F::M(a, g) => not(k(*a, &not(sat(m, g)))),
        F::Kw(a, g) => {
            let g = sat(m, g);
            let (yes, no) = (k(*a, &g), k(*a, &not(g)));
            each(&|w| yes[w] || no[w])
        }
        F::Kv(a, vs) => {
            // Kv: every world of the class has the values this one has.
            let mut first: HashMap<usize, usize> = HashMap::new();
            for w in worlds(m) {
                first.entry(m.class[*a][w]).or_insert(w);
            }
            let same: Vec<bool> = each(&|w| {
                let f = first[&m.class[*a][w]];
                vs.iter().all(|&x| m.vals[f][x] == m.vals[w][x])
            });
            k(*a, &same)
        }
        F::E(g, h) => {
            let h = sat(m, h);
            let per: Vec<Vec<bool>> = g.iter().map(|&a| k(a, &h)).collect();
            each(&|w| per.iter().all(|p| p[w]))
        }
        F::D(g, h) => all_alike(
            m,
            |w| g.iter().map(|&a| m.class[a][w]).collect::<Vec<_>>(),
            &sat(m, h),
        ),
        F::C(g, h) => {
            // The worlds reachable by the group's agents: joined classes
            // (union-find, each world joined with the first of its class).
            let mut parent: Vec<usize> = worlds(m).collect();
            fn root(parent: &mut [usize], mut x: usize) -> usize {
                while parent[x] != x {
                    parent[x] = parent[parent[x]];
                    x = parent[x];
                }
                x
            }
            for &a in g {
                let mut first: HashMap<usize, usize> = HashMap::new();
                for w in worlds(m) {
                    let f = *first.entry(m.class[a][w]).or_insert(w);
                    let (x, y) = (root(&mut parent, f), root(&mut parent, w));
                    parent[x] = y;
                }
            }
            let roots: Vec<usize> = worlds(m).map(|w| root(&mut parent, w)).collect();
            all_alike(m, |w| roots[w], &sat(m, h))
        }
        F::Box_(psi, g) | F::Dia(psi, g) => {
            let diamond = matches!(f, F::Dia(..));
            let keep = sat(m, psi);
            let Some(first) = keep.iter().position(|&b| b) else {
                return vec![!diamond; m.vals.len()];
            };
            let (r, _) = restrict(m, &keep, first);
            let after = sat(&r, g);
            // A kept world's number in the restriction: the kept worlds before it.
            let new_id: Vec<usize> = keep
                .iter()
                .scan(0, |n, &k| {
                    let id = *n;
                    *n += usize::from(k);
                    Some(id)
                })
                .collect();
            each(&|w| if keep[w] { after[new_id[w]] } else { !diamond })
        }
        F::Apply(e, g) => EVENTS.with(|evs| {
            let evs = evs.borrow();
            let ev = &evs[*e];
            let happens = sat(m, &ev.pres[ev.actual]);
            if !happens.contains(&true) {
                return vec![true; m.vals.len()];
            }
            let (p, pairs) = product(m, ev);
            let after = sat(&p, g);
            let at: HashMap<(usize, usize), usize> =
                pairs.iter().enumerate().map(|(i, &pr)| (pr, i)).collect();
            each(&|w| !happens[w] || after[at[&(w, ev.actual)]])
        }),
    }
}

thread_local! {
    /// The event models of the case being evaluated.
    static EVENTS: std::cell::RefCell<Vec<Ev>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The scenario's text and what each expectation must give, by the
/// reference. An announcement of a formula false at the actual world is
/// written as the announcement of its negation.
fn script(case: &Case) -> (String, Vec<bool>) {
    EVENTS.with(|e| *e.borrow_mut() = case.events.clone());
    let mut out = format!("players {}\n", PLAYERS[..case.agents].join(" "));
    for (v, (lo, hi)) in case.ranges.iter().enumerate() {
        out += &format!("var {} in {lo}..{hi}\n", VARS[v]);
    }
    for law in &case.laws {
        out += &format!("law {}\n", text(law));
    }
    let actual: Vec<String> = case
        .actual
        .iter()
        .enumerate()
        .map(|(v, x)| format!("{} = {x}", VARS[v]))
        .collect();
    out += &format!("actual {}\n", actual.join(", "));
    for (a, terms) in case.observes.iter().enumerate() {
        if !terms.is_empty() {
            let ts: Vec<String> = terms.iter().map(|t| term_text(t, 0)).collect();
            out += &format!("{} observes {}\n", PLAYERS[a], ts.join(", "));
        }
    }
    for (i, ev) in case.events.iter().enumerate() {
        let names: Vec<String> = (0..ev.pres.len()).map(|e| format!("u{e}")).collect();
        out += &format!("event ev{i} {{\n  events {}\n", names.join(" "));
        for (e, pre) in ev.pres.iter().enumerate() {
            out += &format!("  pre u{e}: {}\n", text(pre));
        }
        for (a, blocks) in ev.blocks.iter().enumerate() {
            let mut parts = Vec::new();
            for b in 0..ev.pres.len() {
                let members: Vec<String> = (0..ev.pres.len())
                    .filter(|&e| blocks[e] == b)
                    .map(|e| format!("u{e}"))
                    .collect();
                if !members.is_empty() {
                    parts.push(format!("{{{}}}", members.join(" ")));
                }
            }
            out += &format!("  {}: {}\n", PLAYERS[a], parts.join(" "));
        }
        out += &format!("  actual u{}\n}}\n", ev.actual);
    }
    let mut m = initial(case);
    let mut expected = Vec::new();
    for step in &case.steps {
        match step {
            Step::Expect(f) => {
                expected.push(eval(&m, m.actual, f));
                out += &format!("expect {}\n", text(f));
            }
            Step::Announce(f) => {
                let f = if eval(&m, m.actual, f) {
                    f.clone()
                } else {
                    F::Not(Box::new(f.clone()))
                };
                let keep: Vec<bool> = worlds(&m).map(|v| eval(&m, v, &f)).collect();
                let (r, at) = restrict(&m, &keep, m.actual);
                m = Model { actual: at, ..r };
                out += &format!("announce {}\n", text(&f));
            }
            Step::Apply(e) => {
                let ev = &case.events[*e];
                let (p, pairs) = product(&m, ev);
                let at = pairs
                    .iter()
                    .position(|&pr| pr == (m.actual, ev.actual))
                    .expect("the actual event happens");
                m = Model { actual: at, ..p };
                out += &format!("apply ev{e}\n");
            }
        }
    }
    (out, expected)
}

// ---- the engines ------------------------------------------------------

/// Replays `src`: each expectation's outcome, or the first refusal.
fn replay(src: &str, options: Options) -> Result<Vec<bool>, String> {
    let scenario = syntax::parse(src).map_err(|d| format!("{d:?}"))?;
    let mut session = Session::new(options);
    let mut held = Vec::new();
    for stmt in &scenario.statements {
        let outputs = session.execute(stmt, src).map_err(|d| {
            format!(
                "`{}` refused: {} {}",
                &src[stmt.span.start..stmt.span.end],
                d.code,
                d.message
            )
        })?;
        for out in outputs {
            if let Output::Expect { held: h, .. } = out {
                held.push(h);
            }
        }
    }
    Ok(held)
}

fn modes() -> [(&'static str, Options); 3] {
    let with = |engine, max_worlds| Options {
        engine,
        max_worlds,
        ..Options::default()
    };
    [
        ("explicit", with(Engine::Explicit, 1_000_000)),
        ("symbolic", with(Engine::Symbolic, 1_000_000)),
        // A budget no scenario fits: the structure of laws and observations alone.
        ("symbolic structure", with(Engine::Symbolic, 1)),
    ]
}

// ---- the generator ----------------------------------------------------

fn term(vars: usize) -> impl Strategy<Value = T> {
    let leaf = prop_oneof![(0..=6u64).prop_map(T::Num), (0..vars).prop_map(T::Var)];
    leaf.prop_recursive(2, 6, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| T::Add(Box::new(a), Box::new(b))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| T::Sub(Box::new(a), Box::new(b))),
            (inner.clone(), inner).prop_map(|(a, b)| T::Mul(Box::new(a), Box::new(b))),
        ]
    })
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        Just(Op::Lt),
        Just(Op::Le),
        Just(Op::Eq),
        Just(Op::Ne),
        Just(Op::Ge),
        Just(Op::Gt)
    ]
}

fn comparison(vars: usize) -> impl Strategy<Value = F> {
    (term(vars), op(), term(vars)).prop_map(|(l, o, r)| F::Cmp(l, o, r))
}

fn boolean(inner: BoxedStrategy<F>) -> BoxedStrategy<F> {
    let pair = (inner.clone(), inner.clone());
    prop_oneof![
        inner.prop_map(|g| F::Not(Box::new(g))),
        pair.clone()
            .prop_map(|(a, b)| F::And(Box::new(a), Box::new(b))),
        pair.clone()
            .prop_map(|(a, b)| F::Or(Box::new(a), Box::new(b))),
        pair.clone()
            .prop_map(|(a, b)| F::Imp(Box::new(a), Box::new(b))),
        pair.prop_map(|(a, b)| F::Iff(Box::new(a), Box::new(b))),
    ]
    .boxed()
}

/// A formula without knowledge: laws and preconditions.
fn plain(vars: usize) -> BoxedStrategy<F> {
    comparison(vars)
        .boxed()
        .prop_recursive(2, 4, 2, boolean)
        .boxed()
}

fn group(agents: usize) -> impl Strategy<Value = Vec<usize>> {
    subsequence((0..agents).collect::<Vec<_>>(), 1..=agents)
}

/// A formula with every operator; `[apply evN]` for `events` declared models.
fn formula(agents: usize, vars: usize, events: usize) -> BoxedStrategy<F> {
    let leaf = prop_oneof![
        6 => comparison(vars),
        2 => (0..agents, subsequence((0..vars).collect::<Vec<_>>(), 1..=vars))
            .prop_map(|(a, vs)| F::Kv(a, vs)),
        1 => prop_oneof![Just(F::Top), Just(F::Bot)],
    ];
    leaf.boxed()
        .prop_recursive(3, 10, 2, move |inner| {
            let one = || (0..agents, inner.clone());
            let grouped = || (group(agents), inner.clone());
            let mut choices = vec![
                (3, boolean(inner.clone())),
                (2, one().prop_map(|(a, g)| F::K(a, Box::new(g))).boxed()),
                (1, one().prop_map(|(a, g)| F::M(a, Box::new(g))).boxed()),
                (1, one().prop_map(|(a, g)| F::Kw(a, Box::new(g))).boxed()),
                (1, grouped().prop_map(|(g, h)| F::E(g, Box::new(h))).boxed()),
                (1, grouped().prop_map(|(g, h)| F::C(g, Box::new(h))).boxed()),
                (1, grouped().prop_map(|(g, h)| F::D(g, Box::new(h))).boxed()),
                (
                    1,
                    (inner.clone(), inner.clone())
                        .prop_map(|(a, b)| F::Box_(Box::new(a), Box::new(b)))
                        .boxed(),
                ),
                (
                    1,
                    (inner.clone(), inner.clone())
                        .prop_map(|(a, b)| F::Dia(Box::new(a), Box::new(b)))
                        .boxed(),
                ),
            ];
            if events > 0 {
                choices.push((
                    1,
                    (0..events, inner.clone())
                        .prop_map(|(e, g)| F::Apply(e, Box::new(g)))
                        .boxed(),
                ));
            }
            proptest::strategy::Union::new_weighted(choices).boxed()
        })
        .boxed()
}

/// An event model of 2-3 events over the variables.
fn event(agents: usize, vars: usize) -> impl Strategy<Value = Ev> {
    (2..=3usize).prop_flat_map(move |n| {
        (
            vec(prop_oneof![1 => Just(F::Top), 3 => plain(vars)], n),
            vec(vec(0..n, n), agents),
            0..n,
        )
            .prop_map(|(pres, blocks, actual)| Ev {
                pres,
                blocks,
                actual,
            })
    })
}

fn step(agents: usize, vars: usize, events: usize) -> BoxedStrategy<Step> {
    let f = || formula(agents, vars, events);
    if events == 0 {
        return prop_oneof![5 => f().prop_map(Step::Expect), 2 => f().prop_map(Step::Announce)]
            .boxed();
    }
    prop_oneof![
        5 => f().prop_map(Step::Expect),
        2 => f().prop_map(Step::Announce),
        1 => (0..events).prop_map(Step::Apply),
    ]
    .boxed()
}

prop_compose! {
    /// 2-3 players, 2-3 variables of 2-4 values each, 0-2 laws, 0-2
    /// observed terms a player, 0-2 event models, 8-20 steps.
    fn case()(agents in 2..=3usize, vars in 2..=3usize, events in 0..=2usize)
        (ranges in vec((0..=2u64, 1..=3u64).prop_map(|(lo, span)| (lo, lo + span)), vars),
         picks in vec(any::<prop::sample::Index>(), vars),
         laws in vec(plain(vars), 0..=2),
         observes in vec(vec(term(vars), 0..=2), agents),
         events in vec(event(agents, vars), events),
         steps in vec(step(agents, vars, events), 8..=20),
         agents in Just(agents)) -> Case
    {
        let actual: Vec<u64> = ranges
            .iter()
            .zip(&picks)
            .map(|(&(lo, hi), i)| lo + i.index((hi - lo + 1) as usize) as u64)
            .collect();
        let mut case = Case { agents, ranges, actual, laws, observes, events, steps };
        // The actual values keep every law, and the actual event of every
        // event model happens there (no move changes a value).
        let at: Vec<i128> = case.actual.iter().map(|&x| i128::from(x)).collect();
        let one = Model { vals: vec![at], class: vec![vec![0]; agents], actual: 0 };
        for law in &mut case.laws {
            if !eval(&one, 0, law) {
                *law = F::Not(Box::new(law.clone()));
            }
        }
        for ev in &mut case.events {
            let pre = &mut ev.pres[ev.actual];
            if !eval(&one, 0, pre) {
                *pre = F::Not(Box::new(pre.clone()));
            }
        }
        case
    }
}

fn config() -> ProptestConfig {
    let long = std::env::var("DEALER_LONG").is_ok_and(|v| v == "1");
    ProptestConfig {
        cases: if long { 5000 } else { 300 },
        rng_seed: if long {
            RngSeed::Random
        } else {
            RngSeed::Fixed(56)
        },
        timeout: if long { 30_000 } else { 0 },
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource("regressions"))),
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn every_engine_answers_random_scenarios_of_variables_as_the_reference(case in case()) {
        let (src, expected) = script(&case);
        for (name, options) in modes() {
            let got = replay(&src, options);
            prop_assert_eq!(
                got.as_ref(),
                Ok(&expected),
                "{} engine on\n{}",
                name,
                src
            );
        }
    }
}

/// The reference itself, on a scenario worked out by hand: x, y in 0..2,
/// Ann sees x - y, Bob sees x * y; actual x = 0, y = 2.
#[test]
fn the_reference_agrees_with_a_scenario_worked_by_hand() {
    let sub = T::Sub(Box::new(T::Var(0)), Box::new(T::Var(1)));
    let mul = T::Mul(Box::new(T::Var(0)), Box::new(T::Var(1)));
    let case = Case {
        agents: 2,
        ranges: vec![(0, 2), (0, 2)],
        actual: vec![0, 2],
        laws: vec![],
        observes: vec![vec![sub], vec![mul]],
        events: vec![],
        steps: vec![
            // Ann sees -2: only x=0,y=2.
            Step::Expect(F::Kv(0, vec![0, 1])),
            // Bob sees 0: five worlds (x=0 or y=0).
            Step::Expect(F::Kv(1, vec![0])),
            // Once y = 2 is announced, Bob knows x = 0.
            Step::Expect(F::Box_(
                Box::new(F::Cmp(T::Var(1), Op::Eq, T::Num(2))),
                Box::new(F::Kv(1, vec![0])),
            )),
        ],
    };
    let (src, expected) = script(&case);
    assert_eq!(expected, [true, false, true]);
    assert!(
        src.contains("Ann observes x - y\nBob observes x * y\n"),
        "{src}"
    );
    for (name, options) in modes() {
        assert_eq!(replay(&src, options), Ok(expected.clone()), "{name}");
    }
}

/// This file's term as the engine's data (three bits a variable), for the
/// naive reference.
fn engine_term(t: &T) -> dealer::engine::formula::Term {
    use dealer::engine::formula::Term;
    let two = |a: &T, b: &T| (Box::new(engine_term(a)), Box::new(engine_term(b)));
    match t {
        T::Num(n) => Term::Const(*n),
        T::Var(v) => Term::Var((3 * v..3 * v + 3).collect()),
        T::Add(a, b) => {
            let (a, b) = two(a, b);
            Term::Add(a, b)
        }
        T::Sub(a, b) => {
            let (a, b) = two(a, b);
            Term::Sub(a, b)
        }
        T::Mul(a, b) => {
            let (a, b) = two(a, b);
            Term::Mul(a, b)
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    /// The naive reference (`tests/it/naive`) evaluates comparisons of
    /// terms itself, and agrees with this file's evaluator.
    #[test]
    fn the_naive_reference_compares_terms_as_this_one(
        l in term(3), o in op(), r in term(3), values in vec(0..=7u64, 3)
    ) {
        use dealer::engine::formula::Comparison;
        use dealer::engine::{Atom, Cmp, Formula, Relation};
        let cmp = match o {
            Op::Lt => Cmp::Lt,
            Op::Le => Cmp::Le,
            Op::Eq => Cmp::Eq,
            Op::Ne => Cmp::Ne,
            Op::Ge => Cmp::Ge,
            Op::Gt => Cmp::Gt,
        };
        let props: Vec<bool> = values
            .iter()
            .flat_map(|&x| (0..3).map(move |i| x >> i & 1 == 1))
            .collect();
        let m = crate::naive::NaiveModel::from_valuations(
            &[props],
            &[Relation::Partition(vec![0])],
            0,
        );
        let f = Formula::Atom(Atom::Compare(std::rc::Rc::new(Comparison {
            left: engine_term(&l),
            cmp,
            right: engine_term(&r),
        })));
        let vals: Vec<i128> = values.iter().map(|&x| i128::from(x)).collect();
        prop_assert_eq!(
            crate::naive::eval(&m, 0, &f),
            compare(value(&l, &vals), o, value(&r, &vals))
        );
    }
}
