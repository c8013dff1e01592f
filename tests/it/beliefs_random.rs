//! Belief structures against the explicit engine and the naive reference:
//! random small deals, then random moves among which private moves
//! (`unseen-by`), messages that may be lost and random event models with
//! belief arrows, and random formulas with nested `[apply E]` of such
//! models. The symbolic engine runs twice: with a listing limit of zero
//! (every answer from the BDDs, counts compared when they are exact) and
//! with the usual limit (counts from its listing, which must be
//! bisimilar to the naive model, so that `why`, `worlds` and figures show
//! real worlds and arrows).

use crate::common;
#[allow(dead_code)] // the reference has more than these tests use
use crate::naive;

use std::rc::Rc;

use common::{any_cmp, deck_of};
use dealer::engine::deal::DealSpec;
use dealer::engine::{
    Atom, Backend, EngineError, Event, EventModel, ExplicitModel, Formula, Post, Relation,
    SymbolicLimits, SymbolicModel,
};
use naive::NaiveModel;
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::subsequence;

/// One hand per agent (seen by its owner), a public pile and a stock.
/// `view` 1: nobody sees the public pile; 2: agent 0 sees the stock.
#[derive(Clone, Debug)]
struct Case {
    agents: usize,
    copies: Vec<u32>,
    sizes: Vec<u32>,
    actual: Vec<Vec<u32>>,
    props: usize,
    view: u8,
}

impl Case {
    fn locs(&self) -> usize {
        self.agents + 2
    }
    fn public(&self) -> usize {
        self.agents
    }
    fn stock(&self) -> usize {
        self.agents + 1
    }
    fn observers(&self) -> Vec<Vec<usize>> {
        let mut observers: Vec<Vec<usize>> = (0..self.agents)
            .map(|a| match self.view {
                1 => vec![a],
                _ => vec![a, self.public()],
            })
            .collect();
        if self.view == 2 {
            observers[0].push(self.stock());
        }
        observers
    }
    fn spec(&self) -> DealSpec {
        DealSpec {
            props: self.props,
            ..DealSpec::dealt(self.copies.clone(), self.actual.clone(), self.observers())
        }
    }
    fn naive(&self) -> NaiveModel {
        naive::reachable_part(&naive::deal_model(
            &self.copies,
            &self.sizes,
            &self.observers(),
            self.props,
            &self.actual,
        ))
    }
}

prop_compose! {
    /// 2-3 agents, 2-4 kinds of 1-2 copies, hands of 0-2 cards, a public
    /// pile of 0-1 card, the rest in the stock.
    fn deal()(agents in 2..=3usize, copies in vec(prop_oneof![3 => Just(1u32), 1 => Just(2u32)], 2..=4),
              hands in vec(0..=2u32, 3), public in 0..=1u32, props in 0..=1usize,
              view in prop_oneof![4 => Just(0u8), 1 => Just(1u8), 1 => Just(2u8)])
        (deck in Just(deck_of(&copies)).prop_shuffle(), agents in Just(agents), copies in Just(copies),
         hands in Just(hands), public in Just(public), props in Just(props), view in Just(view)) -> Case
    {
        let mut left = deck.len() as u32;
        let mut sizes = Vec::new();
        for &h in hands.iter().take(agents) {
            sizes.push(h.min(left));
            left -= h.min(left);
        }
        sizes.push(public.min(left));
        left -= public.min(left);
        sizes.push(left);
        let mut actual = vec![vec![0; copies.len()]; sizes.len()];
        let mut cards = deck.into_iter();
        for (loc, &size) in sizes.iter().enumerate() {
            for kind in cards.by_ref().take(size as usize) {
                actual[loc][kind] += 1;
            }
        }
        Case { agents, copies, sizes, actual, props, view }
    }
}

fn atom(case: &Case) -> BoxedStrategy<Formula> {
    let count = (
        0..case.locs(),
        subsequence(
            (0..case.copies.len()).collect::<Vec<_>>(),
            1..=case.copies.len(),
        ),
        any_cmp(),
        0..=2u32,
    )
        .prop_map(|(loc, kinds, cmp, n)| Formula::Atom(Atom::Count { loc, kinds, cmp, n }));
    if case.props > 0 {
        let props = case.props;
        prop_oneof![4 => count, 1 => (0..props).prop_map(|p| Formula::Atom(Atom::Prop(p)))].boxed()
    } else {
        count.boxed()
    }
}

fn group(agents: usize, min: usize) -> impl Strategy<Value = Vec<usize>> {
    subsequence((0..agents).collect::<Vec<_>>(), min..=agents)
}

/// A formula of depth at most `depth` with every operator, and updates
/// by the event models of `ems` when given.
fn formula(
    case: &Case,
    depth: u32,
    ems: Option<BoxedStrategy<EventModel>>,
) -> BoxedStrategy<Formula> {
    let agents = case.agents;
    atom(case)
        .prop_recursive(depth, 12, 3, move |inner| {
            let b = |f: Formula| Box::new(f);
            let base = prop_oneof![
                2 => inner.clone().prop_map(move |f| Formula::Not(b(f))),
                2 => vec(inner.clone(), 0..=3).prop_map(Formula::And),
                1 => vec(inner.clone(), 0..=3).prop_map(Formula::Or),
                1 => (inner.clone(), inner.clone()).prop_map(move |(x, y)| Formula::Implies(b(x), b(y))),
                3 => (0..agents, inner.clone()).prop_map(move |(a, f)| Formula::K(a, b(f))),
                2 => (0..agents, inner.clone()).prop_map(move |(a, f)| Formula::M(a, b(f))),
                1 => (0..agents, inner.clone()).prop_map(move |(a, f)| Formula::Kw(a, b(f))),
                1 => (group(agents, 1), inner.clone()).prop_map(move |(g, f)| Formula::E(g, b(f))),
                2 => (group(agents, 1), inner.clone()).prop_map(move |(g, f)| Formula::C(g, b(f))),
                1 => (group(agents, 0), inner.clone()).prop_map(move |(g, f)| Formula::D(g, b(f))),
                1 => (inner.clone(), inner.clone()).prop_map(move |(x, y)| Formula::Announce(b(x), b(y))),
            ];
            match &ems {
                None => base.boxed(),
                Some(ems) => prop_oneof![
                    6 => base,
                    2 => (vec(ems.clone(), 1..=2), inner.clone(), any::<bool>()).prop_map(move |(ms, f, d)| {
                        if d {
                            Formula::UpdateDiamond(Rc::new(ms), b(f))
                        } else {
                            Formula::Update(Rc::new(ms), b(f))
                        }
                    }),
                ]
                .boxed(),
            }
        })
        .boxed()
}

/// The card moves from `from` to `to`; the agents in `unseen` believe
/// nothing happened (as `move M basket -> box unseen-by Sally`).
fn secret_move(agents: usize, kind: usize, from: usize, to: usize, unseen: &[usize]) -> EventModel {
    let events = vec![
        Event {
            name: "move".into(),
            pre: Formula::holds(from, kind),
            post: vec![Post::Move {
                kind,
                from,
                to,
                n: 1,
            }],
        },
        Event {
            name: "nothing".into(),
            pre: Formula::Top,
            post: Vec::new(),
        },
    ];
    let relations = (0..agents)
        .map(|a| {
            if unseen.contains(&a) {
                Relation::General(vec![vec![1], vec![1]])
            } else {
                Relation::Partition(vec![0, 1])
            }
        })
        .collect();
    EventModel {
        name: "secret move".into(),
        events,
        relations,
        designated: Vec::new(),
    }
}

/// A message saying `what` from `from` to `to`, delivered or lost: only
/// the receiver tells the two apart (as `send P -> Q φ`).
fn send(agents: usize, from: usize, to: usize, what: Formula) -> EventModel {
    let events = vec![
        Event {
            name: "delivered".into(),
            pre: what,
            post: Vec::new(),
        },
        Event {
            name: "lost".into(),
            pre: Formula::Top,
            post: Vec::new(),
        },
    ];
    let relations = (0..agents)
        .map(|a| {
            Relation::Partition(if a == to && a != from {
                vec![0, 1]
            } else {
                vec![0, 0]
            })
        })
        .collect();
    EventModel {
        name: "message".into(),
        events,
        relations,
        designated: Vec::new(),
    }
}

/// Belief event models (private moves, messages, random arrows) and a
/// few S5 ones (a private draw, a public play, an announcement).
fn event_model(case: &Case) -> BoxedStrategy<EventModel> {
    let agents = case.agents;
    let (locs, kinds, props) = (case.locs(), case.copies.len(), case.props);
    let stock = case.stock();
    let public = case.public();
    // Moves to or from the public pile most often: a move between
    // locations the unseen agents do not see makes no false belief.
    let ends = prop_oneof![
        (0..locs).prop_map(move |from| (from, public)),
        (0..locs).prop_map(move |to| (public, to)),
        (0..locs, 0..locs),
    ]
    .prop_filter("a move to another location", |(from, to)| from != to);
    let secret = (0..kinds, ends, group(agents, 1))
        .prop_map(move |(k, (from, to), unseen)| secret_move(agents, k, from, to, &unseen));
    let message = (0..agents, 0..agents, formula(case, 1, None))
        .prop_map(move |(from, to, what)| send(agents, from, to, what));
    let draw = (0..agents).prop_map(move |a| {
        let events = (0..kinds)
            .map(|kind| Event {
                name: format!("kind {kind}"),
                pre: Formula::holds(stock, kind),
                post: vec![Post::Move {
                    kind,
                    from: stock,
                    to: a,
                    n: 1,
                }],
            })
            .collect();
        EventModel::semi_private("draw", agents, &[a], events)
    });
    let play = (0..agents, 0..kinds).prop_map(move |(a, kind)| {
        let event = Event {
            name: "play".into(),
            pre: Formula::holds(a, kind),
            post: vec![Post::Move {
                kind,
                from: a,
                to: public,
                n: 1,
            }],
        };
        EventModel::public("play", agents, vec![event])
    });
    let ann =
        formula(case, 2, None).prop_map(move |f| EventModel::announcement("announce", agents, f));
    let post = (0..kinds, 0..locs, 0..locs, 1..=2u32).prop_map(|(kind, from, to, n)| Post::Move {
        kind,
        from,
        to,
        n,
    });
    let set = if props > 0 {
        (0..props, formula(case, 1, None))
            .prop_map(|(p, f)| Post::Set(p, f))
            .boxed()
    } else {
        post.clone().boxed()
    };
    // A move's cards are guarded by the precondition (else every engine
    // refuses the event model as moving cards that are not there).
    let event = (
        formula(case, 1, None),
        vec(prop_oneof![2 => post, 1 => set], 0..=2),
    )
        .prop_map(|(pre, post)| {
            let mut guards = vec![pre];
            let mut kept = Vec::new();
            for p in post {
                match p {
                    Post::Move { kind, from, n, .. } => {
                        if kept.iter().any(|q| !matches!(q, Post::Set(..))) {
                            continue;
                        }
                        guards.push(Formula::Atom(Atom::Count {
                            loc: from,
                            kinds: vec![kind],
                            cmp: dealer::engine::Cmp::Ge,
                            n,
                        }));
                        kept.push(p);
                    }
                    Post::MoveAll { .. } => {
                        if kept.iter().any(|q| !matches!(q, Post::Set(..))) {
                            continue;
                        }
                        kept.push(p);
                    }
                    Post::Set(..) => kept.push(p),
                }
            }
            Event {
                name: "e".into(),
                pre: Formula::And(guards),
                post: kept,
            }
        });
    let random = (1..=3usize)
        .prop_flat_map(move |n| {
            (
                vec(event.clone(), n),
                vec(
                    vec(subsequence((0..n).collect::<Vec<_>>(), 0..=n), n),
                    agents,
                ),
                subsequence((0..n).collect::<Vec<_>>(), 0..=n),
            )
                .prop_map(|(events, succ, designated)| EventModel {
                    name: "random".into(),
                    events,
                    relations: succ.into_iter().map(Relation::General).collect(),
                    designated,
                })
        })
        .boxed();
    prop_oneof![
        3 => secret,
        2 => message,
        3 => random,
        1 => draw,
        1 => play,
        1 => ann,
    ]
    .boxed()
}

/// The listing limit zero: the symbolic engine answers from its BDDs only.
fn unlisted() -> SymbolicLimits {
    SymbolicLimits {
        list: 0,
        nodes: 1 << 20,
        factor_from: 0,
        ..SymbolicLimits::default()
    }
}

fn listed() -> SymbolicLimits {
    SymbolicLimits {
        list: 200_000,
        nodes: 1 << 20,
        factor_from: 0,
        ..SymbolicLimits::default()
    }
}

/// Every engine gives the naive reference's answers (the explicit engine,
/// the listed and the unlisted symbolic model).
fn same_answers(n: &NaiveModel, ms: &[&dyn Backend], fs: &[Formula]) -> Result<(), TestCaseError> {
    for f in fs {
        let truth = naive::eval(n, n.actual, f);
        let valid = naive::valid(n, f);
        for (i, m) in ms.iter().enumerate() {
            prop_assert_eq!(
                m.eval_actual(f).unwrap(),
                truth,
                "engine {} at the actual world: {:?}",
                i,
                f
            );
            prop_assert_eq!(
                m.eval_valid(f).unwrap(),
                valid,
                "engine {} valid: {:?}",
                i,
                f
            );
        }
    }
    Ok(())
}

fn same_counts(
    n: &NaiveModel,
    e: &dyn Backend,
    s: &dyn Backend,
    bare: &dyn Backend,
) -> Result<(), TestCaseError> {
    let q = naive::quotient(n);
    prop_assert_eq!(e.world_count(), q.len() as u128, "explicit world count");
    prop_assert_eq!(s.world_count(), q.len() as u128, "listed world count");
    prop_assert!(s.counts_exact());
    prop_assert!(
        naive::bisimilar(&naive::of_backend(s), n),
        "the listing is not bisimilar to the model"
    );
    prop_assert_eq!(s.is_s5(), e.is_s5(), "is_s5");
    for a in 0..e.agents() {
        let c = q.successors(a, q.actual).len() as u128;
        prop_assert_eq!(e.considers(a), c, "explicit considers {}", a);
        prop_assert_eq!(s.considers(a), c, "listed considers {}", a);
    }
    if bare.counts_exact() {
        prop_assert_eq!(bare.world_count(), q.len() as u128, "unlisted world count");
        for a in 0..e.agents() {
            let c = q.successors(a, q.actual).len() as u128;
            prop_assert_eq!(bare.considers(a), c, "unlisted considers {}", a);
        }
    }
    Ok(())
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 400,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    /// Random deals, 1-3 moves (mostly belief events), random formulas with
    /// nested updates: every engine agrees with the naive reference.
    #[test]
    fn belief_scenarios_agree(
        (case, fs, steps) in deal().prop_flat_map(|case| {
            let ems = event_model(&case);
            let fs = vec(formula(&case, 3, Some(ems.clone())), 3);
            let steps = vec((ems, any::<usize>(), any::<bool>()), 1..=3);
            (Just(case), fs, steps)
        }),
    ) {
        let spec = case.spec();
        let mut n = case.naive();
        let mut e: Rc<dyn Backend> = Rc::new(ExplicitModel::from_deal(&spec, 1_000_000).unwrap());
        let mut s: Rc<dyn Backend> = Rc::new(SymbolicModel::from_deal(&spec, &listed()).unwrap());
        let mut bare: Rc<dyn Backend> = Rc::new(SymbolicModel::from_deal(&spec, &unlisted()).unwrap());
        same_answers(&n, &[&*e, &*s, &*bare], &fs)?;
        for (em, choice, named) in &steps {
            let possible = naive::possible_events(&n, em);
            prop_assert_eq!(&e.possible_events(em).unwrap(), &possible);
            prop_assert_eq!(&s.possible_events(em).unwrap(), &possible);
            prop_assert_eq!(&bare.possible_events(em).unwrap(), &possible);
            let chosen = if *named { Some(choice % em.events.len()) } else { None };
            let results = [e.apply(em, chosen), s.apply(em, chosen), bare.apply(em, chosen)];
            match results {
                [Ok(e2), Ok(s2), Ok(b2)] => {
                    let event = chosen.unwrap_or(possible[0]);
                    n = naive::apply(&n, em, event);
                    e = e2;
                    s = s2;
                    bare = b2;
                }
                [Err(a), Err(b), Err(c)] => {
                    let v = std::mem::discriminant::<EngineError>;
                    prop_assert_eq!(v(&a), v(&b), "refusals: {} / {}", a, b);
                    prop_assert_eq!(v(&a), v(&c), "refusals: {} / {}", a, c);
                    continue;
                }
                [a, b, c] => {
                    return Err(TestCaseError::fail(format!(
                        "apply {em:?}: {:?} / {:?} / {:?}",
                        a.map(|_| ()),
                        b.map(|_| ()),
                        c.map(|_| ())
                    )));
                }
            }
            same_counts(&n, &*e, &*s, &*bare)?;
            same_answers(&n, &[&*e, &*s, &*bare], &fs)?;
        }
    }
}

/// The symbolic engine keeps its representation through belief moves at
/// any size: no hand-over to the explicit engine, no refusal.
#[test]
fn private_moves_stay_symbolic_without_a_listing() {
    let case = Case {
        agents: 2,
        copies: vec![1, 1, 1],
        sizes: vec![1, 1, 0, 1],
        actual: vec![vec![1, 0, 0], vec![0, 1, 0], vec![0, 0, 0], vec![0, 0, 1]],
        props: 0,
        view: 0,
    };
    let s = SymbolicModel::from_deal(&case.spec(), &unlisted()).unwrap();
    // Agent 1 does not see agent 0 put card 0 on the public pile.
    let em = secret_move(2, 0, 0, 2, &[1]);
    let after = s.apply(&em, Some(0)).unwrap();
    assert!(matches!(
        after.representation(),
        dealer::engine::Representation::Symbolic { .. }
    ));
    let on_pile = Formula::holds(2, 0);
    let k = |a: usize, f: Formula| Formula::K(a, Box::new(f));
    assert!(after.eval_actual(&on_pile).unwrap());
    assert!(after.eval_actual(&k(0, on_pile.clone())).unwrap());
    // Agent 1 believes the pile is still empty, wrongly.
    assert!(after.eval_actual(&k(1, on_pile.clone().not())).unwrap());
    assert!(after
        .eval_actual(&k(0, k(1, on_pile.clone().not())))
        .unwrap());
    // Too large to list: `why` and `worlds` are refused, not wrong.
    assert!(matches!(
        after.listable(),
        Err(EngineError::TooManyWorlds { .. })
    ));
}
