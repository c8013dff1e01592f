//! The engine against the naive evaluator of `tests/it/naive/` on the same
//! inputs, timed in the same run: the initial Go Fish deal of the
//! simplified game (an ask, a private draw, the report's queries) and
//! muddy children with eight children (256 worlds, the father and the
//! rounds of "nobody knows"). Both must give the same answers; the ratio of
//! their times is printed. Ignored by default (timings are not tests):
//!
//! ```text
//! cargo test --release --test it naive_ratio -- --ignored --nocapture
//! ```

use crate::naive;

use std::rc::Rc;
use std::time::{Duration, Instant};

use dealer::engine::deal::DealSpec;
use dealer::engine::{Backend, Cmp, Event, EventModel, ExplicitModel, Formula, Post, Relation};

const Q: usize = 0;
const A: usize = 1;
const STOCK: usize = 3;

/// Runs `f` until a quarter of a second has passed; the time per call.
fn per_call<T>(mut f: impl FnMut() -> T) -> (Duration, T) {
    let start = Instant::now();
    let mut calls = 0u32;
    loop {
        let out = f();
        calls += 1;
        if start.elapsed() > Duration::from_millis(250) {
            return (start.elapsed() / calls, out);
        }
    }
}

/// Player `p` draws from the stock in private: one event per kind.
fn draw(p: usize) -> EventModel {
    let events = [Q, A]
        .iter()
        .map(|&k| Event {
            name: format!("{k}"),
            pre: Formula::holds(STOCK, k),
            post: vec![Post::Move {
                kind: k,
                from: STOCK,
                to: p,
                n: 1,
            }],
        })
        .collect();
    let relations = (0..3)
        .map(|a| Relation::Partition(if a == p { vec![0, 1] } else { vec![0, 0] }))
        .collect();
    EventModel {
        name: format!("draw {p}"),
        events,
        relations,
        designated: Vec::new(),
    }
}

fn go_fish_queries() -> Vec<Formula> {
    let q = |l| Formula::holds(l, Q);
    let a = |l| Formula::holds(l, A);
    vec![
        q(0).known_by(0),
        q(1).and(a(2)).known_by(0).not(),
        Formula::C(
            vec![0, 1, 2],
            Box::new(Formula::count(STOCK, vec![Q, A], Cmp::Eq, 5)),
        ),
        Formula::C(vec![0, 1, 2], Box::new(q(0))),
        Formula::E(vec![0, 1], Box::new(Formula::Or(vec![q(0), a(0)]))),
        Formula::D(vec![1, 2], Box::new(q(1).and(a(2)))),
        Formula::Kw(2, Box::new(Formula::count(1, vec![Q], Cmp::Ge, 2))),
    ]
}

/// The engine's answers: the queries at the start, after the ask (an
/// announcement) and after player 2's draw of the actual card.
fn engine_run(spec: &DealSpec, queries: &[Formula], events: &[(EventModel, usize)]) -> Vec<bool> {
    let mut m: Rc<dyn Backend> = Rc::new(ExplicitModel::from_deal(spec, 1 << 20).unwrap());
    let mut out: Vec<bool> = queries.iter().map(|f| m.eval_actual(f).unwrap()).collect();
    for (em, e) in events {
        m = m.apply(em, Some(*e)).unwrap();
        out.extend(queries.iter().map(|f| m.eval_actual(f).unwrap()));
    }
    out
}

fn naive_run(spec: &DealSpec, queries: &[Formula], events: &[(EventModel, usize)]) -> Vec<bool> {
    let mut m = naive::deal_model(&spec.copies, &spec.sizes, &spec.observers, 0, &spec.actual);
    let mut out: Vec<bool> = queries
        .iter()
        .map(|f| naive::eval(&m, m.actual, f))
        .collect();
    for (em, e) in events {
        m = naive::apply(&m, em, *e);
        out.extend(queries.iter().map(|f| naive::eval(&m, m.actual, f)));
    }
    out
}

fn compare(name: &str, spec: &DealSpec, queries: &[Formula], events: &[(EventModel, usize)]) {
    let (engine_time, engine) = per_call(|| engine_run(spec, queries, events));
    let (naive_time, naive) = per_call(|| naive_run(spec, queries, events));
    assert_eq!(
        engine, naive,
        "{name}: the engine and the naive evaluator disagree"
    );
    println!(
        "{name}: engine {engine_time:?}, naive {naive_time:?}, naive / engine = {:.1}",
        naive_time.as_secs_f64() / engine_time.as_secs_f64()
    );
}

#[test]
#[ignore = "a timing comparison: run with --ignored --nocapture"]
fn go_fish_initial_deal_against_naive() {
    let spec = DealSpec::dealt(
        vec![4, 4],
        vec![vec![1, 0], vec![1, 0], vec![0, 1], vec![2, 3]],
        vec![vec![0], vec![1], vec![2]],
    );
    let ask = EventModel::announcement("ask 1 2 Q", 3, Formula::holds(0, Q));
    let events = [(ask, 0), (draw(1), 1), (draw(0), 0)];
    compare("go fish (8 worlds)", &spec, &go_fish_queries(), &events);
}

#[test]
#[ignore = "a timing comparison: run with --ignored --nocapture"]
fn muddy_children_against_naive() {
    let n = 8;
    let spec = crate::common::muddy_deal(n);
    let muddy = |i| Formula::holds(i, 0);
    let father = Formula::Or((0..n).map(muddy).collect());
    let nobody = Formula::And(
        (0..n)
            .map(|i| Formula::Kw(i, Box::new(muddy(i))).not())
            .collect(),
    );
    let everyone = Formula::And((0..n).map(|i| muddy(i).known_by(i)).collect());
    let mut events = vec![(EventModel::announcement("father", n, father), 0)];
    for _ in 1..n {
        events.push((EventModel::announcement("nobody", n, nobody.clone()), 0));
    }
    compare(
        "muddy children n = 8 (256 worlds)",
        &spec,
        &[nobody, everyone],
        &events,
    );
}
