//! Full-size deals through the symbolic engine, timed (ignored by default):
//! `cargo test --release --test it symbolic_scale -- --ignored --nocapture`.
//!
//! 52-card Go Fish (3 hands of 7, a stock of 31), 52-card Kwartet (4 hands
//! of 13) and the muddy children for n = 40 and n = 100.

use std::time::Instant;

use dealer::engine::deal::DealSpec;
use dealer::engine::{
    Backend, Cmp, Event, EventModel, Formula, Post, SymbolicLimits, SymbolicModel,
};

/// Runs `f`, printing how long it took.
fn timed<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = f();
    println!("{what:<48} {:>9.3} s", start.elapsed().as_secs_f64());
    out
}

/// 52 distinct cards dealt in order: `hands` hands of `size`, the rest in a stock.
fn deal52(hands: usize, size: u32) -> DealSpec {
    let mut sizes = vec![size; hands];
    let stock = 52 - size * hands as u32;
    if stock > 0 {
        sizes.push(stock);
    }
    let mut actual = vec![vec![0u32; 52]; sizes.len()];
    let mut card = 0;
    for (l, &s) in sizes.iter().enumerate() {
        for _ in 0..s {
            // Spread the ranks: card c is rank c % 13, suit c / 13.
            let k = (card % 4) * 13 + card / 4;
            actual[l][k] = 1;
            card += 1;
        }
    }
    DealSpec::dealt(vec![1; 52], actual, (0..hands).map(|a| vec![a]).collect())
}

/// The cards of rank r (suits 0..4).
fn rank(r: usize) -> Vec<usize> {
    (0..4).map(|s| s * 13 + r).collect()
}

/// `asker` asks `asked` for rank r: one public event per subset of the
/// rank's cards the asked player may hold, moving them to the asker.
fn ask(agents: usize, asker: usize, asked: usize, r: usize) -> EventModel {
    let cards = rank(r);
    let events = (0..16u32)
        .map(|mask| {
            let held: Vec<Formula> = cards
                .iter()
                .enumerate()
                .map(|(i, &k)| {
                    let f = Formula::holds(asked, k);
                    if mask >> i & 1 == 1 {
                        f
                    } else {
                        f.not()
                    }
                })
                .collect();
            let post = cards
                .iter()
                .enumerate()
                .filter(|(i, _)| mask >> i & 1 == 1)
                .map(|(_, &k)| Post::Move {
                    kind: k,
                    from: asked,
                    to: asker,
                    n: 1,
                })
                .collect();
            Event {
                name: format!("gives {mask:04b}"),
                pre: Formula::And(held),
                post,
            }
        })
        .collect();
    EventModel::public("ask", agents, events)
}

/// `drawer` draws from the stock: one event per card, seen by the drawer only.
fn draw(agents: usize, drawer: usize, stock: usize) -> EventModel {
    let events = (0..52)
        .map(|k| Event {
            name: format!("draws {k}"),
            pre: Formula::holds(stock, k),
            post: vec![Post::Move {
                kind: k,
                from: stock,
                to: drawer,
                n: 1,
            }],
        })
        .collect();
    EventModel::semi_private("draw", agents, &[drawer], events)
}

fn report(m: &SymbolicModel) {
    println!(
        "    states {:>30}  exact {:5}  law {:>7} nodes  {:>4} variables",
        m.world_count(),
        m.count_is_exact(),
        m.bdd_nodes(),
        m.variables()
    );
}

#[test]
#[ignore]
fn go_fish_full_deck() {
    let spec = deal52(3, 7);
    let limits = SymbolicLimits::default();
    let m = timed("go fish: deal", || {
        SymbolicModel::from_deal(&spec, &limits).unwrap()
    });
    report(&m);
    let has = |a: usize, k: usize| Formula::holds(a, k);
    let q = has(1, 4).known_by(0);
    timed("go fish: K0 hand1(card 4)", || m.eval_actual(&q).unwrap());
    let some_rank = Formula::Or(rank(2).iter().map(|&k| has(1, k)).collect());
    let c = Formula::C(
        vec![0, 1, 2],
        Box::new(Formula::Kw(0, Box::new(some_rank.clone()))),
    );
    timed("go fish: C012 Kw0 hand1(rank 2)", || {
        m.eval_actual(&c).unwrap()
    });
    let mut m: std::rc::Rc<dyn Backend> = std::rc::Rc::new(m);
    let moves: Vec<(String, EventModel)> = vec![
        ("ask 0 1 rank 1".into(), ask(3, 0, 1, 1)),
        ("draw 0".into(), draw(3, 0, 3)),
        ("ask 1 2 rank 0".into(), ask(3, 1, 2, 0)),
        ("draw 1".into(), draw(3, 1, 3)),
        ("ask 2 0 rank 1".into(), ask(3, 2, 0, 1)),
        ("draw 2".into(), draw(3, 2, 3)),
        ("ask 0 2 rank 5".into(), ask(3, 0, 2, 5)),
        ("draw 0".into(), draw(3, 0, 3)),
    ];
    for (name, em) in moves {
        let e = m.possible_events(&em).unwrap()[0];
        m = timed(&format!("go fish: {name}"), || {
            m.apply(&em, Some(e)).unwrap()
        });
        timed("    K0 hand1(card 4)", || m.eval_actual(&q).unwrap());
        timed("    C012 Kw0 hand1(rank 2)", || m.eval_actual(&c).unwrap());
        timed("    world count", || m.world_count());
    }
}

#[test]
#[ignore]
fn kwartet_full_deck() {
    let spec = deal52(4, 13);
    let limits = SymbolicLimits::default();
    let m = timed("kwartet: deal", || {
        SymbolicModel::from_deal(&spec, &limits).unwrap()
    });
    report(&m);
    let mut m: std::rc::Rc<dyn Backend> = std::rc::Rc::new(m);
    for i in 0..12 {
        let (asker, asked) = (i % 4, (i + 1) % 4);
        let card = (i * 7) % 52;
        let yes = Event {
            name: "yes".into(),
            pre: Formula::holds(asked, card),
            post: vec![Post::Move {
                kind: card,
                from: asked,
                to: asker,
                n: 1,
            }],
        };
        let no = Event {
            name: "no".into(),
            pre: Formula::holds(asked, card).not(),
            post: vec![],
        };
        // Asking for a card announces that the asker holds one of its set.
        let set: Vec<usize> = (0..4).map(|s| (card / 4) * 4 + s).collect();
        let holds_set = Formula::Or(set.iter().map(|&k| Formula::holds(asker, k)).collect());
        let em = EventModel::public(format!("ask {asker} {asked} {card}"), 4, vec![yes, no]);
        let ann = EventModel::announcement("asks", 4, holds_set);
        if let Ok(after) = m.apply(&ann, None) {
            m = after;
        }
        m = timed(&format!("kwartet: ask {asker} {asked} card {card}"), || {
            m.apply(&em, None).unwrap()
        });
    }
    let q = Formula::holds(3, 10).known_by(0);
    timed("kwartet: K0 hand3(card 10)", || m.eval_actual(&q).unwrap());
    let c = Formula::C(
        vec![0, 1, 2, 3],
        Box::new(Formula::count(0, (0..52).collect(), Cmp::Ge, 1)),
    );
    timed("kwartet: C hand0 not empty", || m.eval_actual(&c).unwrap());
    timed("kwartet: world count", || m.world_count());
}

/// Muddy children: n foreheads of one card (M or C) each seen by every
/// other child, the other n cards in a pile nobody sees; every child muddy.
fn muddy(n: usize) {
    let spec = crate::common::muddy_deal(n);
    let start = Instant::now();
    let limits = SymbolicLimits::default();
    let mut m: std::rc::Rc<dyn Backend> =
        std::rc::Rc::new(timed(&format!("muddy {n}: deal"), || {
            SymbolicModel::from_deal(&spec, &limits).unwrap()
        }));
    let muddy_i = |i: usize| Formula::count(i, vec![0], Cmp::Eq, 1);
    let father = Formula::Or((0..n).map(muddy_i).collect());
    m = m
        .apply(&EventModel::announcement("father", n, father), None)
        .unwrap();
    let nobody = Formula::And(
        (0..n)
            .map(|i| Formula::Kw(i, Box::new(muddy_i(i))).not())
            .collect(),
    );
    let everyone = Formula::And((0..n).map(|i| muddy_i(i).known_by(i)).collect());
    // As in scenarios/bench/muddy-10.deal: n - 1 rounds of "nobody knows",
    // after which everyone knows.
    for _ in 0..n - 1 {
        m = m
            .apply(&EventModel::announcement("nobody", n, nobody.clone()), None)
            .unwrap();
    }
    assert!(m.eval_actual(&everyone).unwrap());
    let rounds = n - 1;
    println!(
        "muddy {n}: {rounds} rounds, total {:.3} s",
        start.elapsed().as_secs_f64()
    );
}

#[test]
#[ignore]
fn muddy_children_40() {
    muddy(40);
}

#[test]
#[ignore]
fn muddy_children_100() {
    muddy(100);
}
