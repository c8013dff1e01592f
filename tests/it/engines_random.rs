//! The symbolic engine against the explicit one on random small deals,
//! random sequences of event models and random formulas, and on random S5
//! models and grid models: every answer (truth at the actual world,
//! validity, possible events, refusals, world counts, what each agent and
//! group considers) must agree.

use crate::common;

use std::rc::Rc;

use common::{any_cmp, deck_of};
use dealer::engine::deal::DealSpec;
use dealer::engine::{
    Atom, Backend, EngineError, Event, EventModel, ExplicitModel, Formula, GroupAccess, Post,
    Relation, SymbolicLimits, SymbolicModel,
};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::subsequence;
use proptest::test_runner::FileFailurePersistence;

/// A small deal: one hand per agent (seen by its owner), a public pile seen
/// by everyone and a stock nobody sees (the symbolic engine's derived
/// location). `view` varies who sees the piles: 0 as said, 1 the public
/// pile seen by nobody either (two unseen locations, one derived), 2 the
/// stock seen by agent 0 (nothing derived).
#[derive(Clone, Debug)]
struct Case {
    agents: usize,
    copies: Vec<u32>,
    actual: Vec<Vec<u32>>,
    props: usize,
    view: u8,
    /// The kinds each location can hold (`pile ... holds`), when restricted:
    /// the actual deal's and some more.
    only: Vec<Option<Vec<bool>>>,
}

impl Case {
    fn public(&self) -> usize {
        self.agents
    }
    fn stock(&self) -> usize {
        self.agents + 1
    }
    fn locs(&self) -> usize {
        self.agents + 2
    }
    fn kinds(&self) -> usize {
        self.copies.len()
    }
    fn spec(&self) -> DealSpec {
        let mut observers: Vec<Vec<usize>> = (0..self.agents)
            .map(|a| match self.view {
                1 => vec![a],
                _ => vec![a, self.public()],
            })
            .collect();
        if self.view == 2 {
            observers[0].push(self.stock());
        }
        for o in &mut observers {
            o.sort_unstable();
        }
        DealSpec {
            only: self.only.clone(),
            props: self.props,
            ..DealSpec::dealt(self.copies.clone(), self.actual.clone(), observers)
        }
    }
}

prop_compose! {
    /// 2-3 agents, 3-5 kinds of 1-2 copies, hands of 0-2 cards, a public
    /// pile of 0-1 card, the rest in the stock; a shuffled actual deal;
    /// who sees the piles varied by `view`.
    fn deal()(agents in 2..=3usize, copies in vec(prop_oneof![3 => Just(1u32), 1 => Just(2u32)], 3..=5),
              hands in vec(0..=2u32, 3), public in 0..=1u32, props in 0..=2usize,
              view in prop_oneof![4 => Just(0u8), 1 => Just(1u8), 1 => Just(2u8)],
              masks in prop_oneof![3 => Just(None), 1 => vec(any::<u8>(), 5).prop_map(Some)])
        (deck in Just(deck_of(&copies)).prop_shuffle(), agents in Just(agents), copies in Just(copies),
         hands in Just(hands), public in Just(public), props in Just(props), view in Just(view),
         masks in Just(masks)) -> Case
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
        // A location whose mask has bit 7 set can hold only the kinds it
        // holds in the actual deal and those of the mask's low bits.
        let only = match masks {
            None => Vec::new(),
            Some(masks) => (0..sizes.len())
                .map(|l| {
                    let m = masks[l % masks.len()];
                    (m & 0x80 != 0).then(|| {
                        (0..copies.len()).map(|k| actual[l][k] > 0 || m >> k & 1 == 1).collect()
                    })
                })
                .collect(),
        };
        Case { agents, copies, actual, props, view, only }
    }
}

fn group(agents: usize) -> impl Strategy<Value = Vec<usize>> {
    subsequence((0..agents).collect::<Vec<_>>(), 1..=agents)
}

/// A count atom or a proposition.
fn atom(locs: usize, kinds: usize, props: usize) -> BoxedStrategy<Formula> {
    if kinds == 0 {
        return (0..props)
            .prop_map(|p| Formula::Atom(Atom::Prop(p)))
            .boxed();
    }
    let cmp = any_cmp();
    let count = (
        0..locs,
        subsequence((0..kinds).collect::<Vec<_>>(), 1..=kinds),
        cmp,
        0..=3u32,
    )
        .prop_map(|(loc, kinds, cmp, n)| Formula::Atom(Atom::Count { loc, kinds, cmp, n }));
    if props > 0 {
        prop_oneof![5 => count, 1 => (0..props).prop_map(|p| Formula::Atom(Atom::Prop(p)))].boxed()
    } else {
        count.boxed()
    }
}

/// A formula of depth at most `depth` with every operator; updates by the
/// event models of `ems` when given.
fn formula(
    case: &Case,
    depth: u32,
    ems: Option<BoxedStrategy<EventModel>>,
) -> BoxedStrategy<Formula> {
    let agents = case.agents;
    let leaf = atom(case.locs(), case.kinds(), case.props);
    leaf.prop_recursive(depth, 12, 3, move |inner| {
        let b = |f: Formula| Box::new(f);
        let base = prop_oneof![
            2 => inner.clone().prop_map(move |f| Formula::Not(b(f))),
            2 => vec(inner.clone(), 0..=3).prop_map(Formula::And),
            1 => vec(inner.clone(), 0..=3).prop_map(Formula::Or),
            1 => (inner.clone(), inner.clone()).prop_map(move |(x, y)| Formula::Implies(b(x), b(y))),
            3 => (0..agents, inner.clone()).prop_map(move |(a, f)| Formula::K(a, b(f))),
            2 => (0..agents, inner.clone()).prop_map(move |(a, f)| Formula::M(a, b(f))),
            1 => (0..agents, inner.clone()).prop_map(move |(a, f)| Formula::Kw(a, b(f))),
            1 => (group(agents), inner.clone()).prop_map(move |(g, f)| Formula::E(g, b(f))),
            2 => (group(agents), inner.clone()).prop_map(move |(g, f)| Formula::C(g, b(f))),
            1 => (subsequence((0..agents).collect::<Vec<_>>(), 0..=agents), inner.clone())
                .prop_map(move |(g, f)| Formula::D(g, b(f))),
            1 => (inner.clone(), inner.clone()).prop_map(move |(x, y)| Formula::Announce(b(x), b(y))),
            1 => (inner.clone(), inner.clone()).prop_map(move |(x, y)| Formula::AnnounceDiamond(b(x), b(y))),
        ];
        match &ems {
            None => base.boxed(),
            Some(ems) => prop_oneof![
                8 => base,
                1 => (vec(ems.clone(), 1..=2), inner.clone(), any::<bool>()).prop_map(move |(ms, f, d)| {
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

/// The event models of card games, and random S5 event models with moves and `Set`.
fn event_model(case: &Case) -> BoxedStrategy<EventModel> {
    let c = case.clone();
    let agents = case.agents;
    let kinds = case.kinds();
    let per_kind = move |loc: usize, post: &dyn Fn(usize) -> Vec<Post>| -> Vec<Event> {
        (0..kinds)
            .map(|kind| Event {
                name: format!("kind {kind}"),
                pre: Formula::holds(loc, kind),
                post: post(kind),
            })
            .collect()
    };
    let stock = case.stock();
    let public = case.public();
    let draw = (0..agents).prop_map(move |a| {
        let post = |kind| {
            vec![Post::Move {
                kind,
                from: stock,
                to: a,
                n: 1,
            }]
        };
        EventModel::semi_private("draw", agents, &[a], per_kind(stock, &post))
    });
    let show = (0..agents, 0..agents).prop_map(move |(from, to)| {
        EventModel::semi_private("show", agents, &[from, to], per_kind(from, &|_| Vec::new()))
    });
    let peek = (0..agents).prop_map(move |a| {
        EventModel::semi_private("peek", agents, &[a], per_kind(stock, &|_| Vec::new()))
    });
    let play = (0..agents).prop_map(move |a| {
        let post = |kind| {
            vec![Post::Move {
                kind,
                from: a,
                to: public,
                n: 1,
            }]
        };
        EventModel::public("play", agents, per_kind(a, &post))
    });
    let give_all = (0..agents + 2, 0..agents + 2).prop_map(move |(from, to)| {
        let event = Event {
            name: "give".into(),
            pre: Formula::Top,
            post: vec![Post::MoveAll { from, to }],
        };
        EventModel::public("give all", agents, vec![event])
    });
    let ann =
        formula(case, 2, None).prop_map(move |f| EventModel::announcement("announce", agents, f));
    let random = random_event_model(&c);
    prop_oneof![
        3 => draw,
        1 => show,
        1 => peek,
        1 => play,
        1 => give_all,
        2 => ann,
        2 => random,
    ]
    .boxed()
}

/// 1-3 events with random preconditions, moves, `Set`s and partitions.
fn random_event_model(case: &Case) -> BoxedStrategy<EventModel> {
    let agents = case.agents;
    let (locs, kinds, props) = (case.locs(), case.kinds(), case.props);
    let post = prop_oneof![
        3 => (0..kinds, 0..locs, 0..locs, 1..=2u32).prop_map(|(kind, from, to, n)| Post::Move { kind, from, to, n }),
        1 => (0..locs, 0..locs).prop_map(|(from, to)| Post::MoveAll { from, to }),
    ];
    let set = if props > 0 {
        (0..props, formula(case, 1, None))
            .prop_map(|(p, f)| Post::Set(p, f))
            .boxed()
    } else {
        post.clone().boxed()
    };
    let posts = vec(prop_oneof![2 => post, 1 => set], 0..=2);
    let event = (formula(case, 1, None), posts).prop_map(|(pre, post)| Event {
        name: "e".into(),
        pre,
        post,
    });
    (1..=3usize)
        .prop_flat_map(move |n| {
            (
                vec(event.clone(), n),
                vec(vec(0..n, n).prop_map(Relation::Partition), agents),
                subsequence((0..n).collect::<Vec<_>>(), 0..=n),
            )
                .prop_map(|(events, relations, designated)| EventModel {
                    name: "random".into(),
                    events,
                    relations,
                    designated,
                })
        })
        .boxed()
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 200,
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource("regressions"))),
        ..ProptestConfig::default()
    }
}

fn limits() -> SymbolicLimits {
    // Every deal's law that splits is kept as factors (however small), so
    // that the factored updates meet the explicit engine here too.
    SymbolicLimits {
        list: 200_000,
        nodes: 1 << 20,
        factor_from: 0,
        ..SymbolicLimits::default()
    }
}

fn same_counts(e: &dyn Backend, s: &dyn Backend) -> Result<(), TestCaseError> {
    prop_assert_eq!(e.world_count(), s.world_count(), "world_count");
    for a in 0..e.agents() {
        prop_assert_eq!(e.considers(a), s.considers(a), "considers {}", a);
    }
    Ok(())
}

fn same_answers(e: &dyn Backend, s: &dyn Backend, fs: &[Formula]) -> Result<(), TestCaseError> {
    for f in fs {
        let (a, b) = (e.eval_actual(f), s.eval_actual(f));
        prop_assert_eq!(
            a.is_ok(),
            b.is_ok(),
            "eval_actual {:?}: {:?} / {:?}",
            f,
            a,
            b
        );
        if let (Ok(a), Ok(b)) = (a, b) {
            prop_assert_eq!(a, b, "eval_actual {:?}", f);
        }
        let (a, b) = (e.eval_valid(f), s.eval_valid(f));
        if let (Ok(a), Ok(b)) = (a, b) {
            prop_assert_eq!(a, b, "eval_valid {:?}", f);
        }
    }
    Ok(())
}

fn variant(e: &EngineError) -> std::mem::Discriminant<EngineError> {
    std::mem::discriminant(e)
}

proptest! {
    #![proptest_config(config())]

    /// Random deals, 1-3 random moves, random formulas (with updates).
    #[test]
    fn deals_and_moves_agree(
        (case, fs, steps) in deal().prop_flat_map(|case| {
            let ems = event_model(&case);
            let fs = vec(formula(&case, 3, Some(ems.clone())), 3);
            let steps = vec((ems, any::<usize>(), any::<bool>()), 1..=3);
            (Just(case), fs, steps)
        }),
    ) {
        let spec = case.spec();
        let mut e: Rc<dyn Backend> = Rc::new(ExplicitModel::from_deal(&spec, 1_000_000).unwrap());
        let mut s: Rc<dyn Backend> = Rc::new(SymbolicModel::from_deal(&spec, &limits()).unwrap());
        same_counts(&*e, &*s)?;
        same_answers(&*e, &*s, &fs)?;
        for (em, choice, named) in &steps {
            let pe = e.possible_events(em).unwrap();
            prop_assert_eq!(&pe, &s.possible_events(em).unwrap(), "possible_events of {}", em.name);
            let chosen = if *named { Some(choice % em.events.len()) } else { None };
            match (e.apply(em, chosen), s.apply(em, chosen)) {
                (Ok(e2), Ok(s2)) => {
                    e = e2;
                    s = s2;
                }
                (Err(a), Err(b)) => {
                    prop_assert_eq!(variant(&a), variant(&b), "refusals: {} / {}", a, b);
                    continue;
                }
                (a, b) => {
                    return Err(TestCaseError::fail(format!(
                        "apply {em:?}: {:?} / {:?}",
                        a.map(|_| ()),
                        b.map(|_| ())
                    )));
                }
            }
            same_counts(&*e, &*s)?;
            same_answers(&*e, &*s, &fs)?;
        }
    }

    /// Random S5 models through `from_explicit`, then random announcements.
    #[test]
    fn explicit_models_agree(
        (n, agents, props, vals, rels, actual, fs) in (1..=6usize, 2..=3usize, 1..=3usize).prop_flat_map(|(n, agents, props)| {
            let case = Case { agents, copies: vec![], actual: vec![vec![], vec![]], props, view: 0, only: Vec::new() };
            (Just(n), Just(agents), Just(props),
             vec(vec(any::<bool>(), props), n),
             vec(vec(0..n, n).prop_map(Relation::Partition), agents),
             0..n,
             vec(formula(&case, 3, None), 4))
        }),
    ) {
        let _ = n;
        models_agree(agents, props, vals, rels, actual, &fs)?;
    }

    /// Grid models: the worlds of a rows × columns grid, agent 0 sees the
    /// row, agent 1 the column (agent 2, if any, a random partition), with
    /// random valuations. Contraction merges worlds of equal valuations that
    /// the pair {0, 1} tells apart: distributed knowledge must survive it.
    #[test]
    fn grid_models_agree(
        (agents, props, vals, rels, actual, fs) in (1..=4usize, 1..=4usize, 2..=3usize, 1..=2usize).prop_flat_map(|(rows, cols, agents, props)| {
            let n = rows * cols;
            let case = Case { agents, copies: vec![], actual: vec![vec![], vec![]], props, view: 0, only: Vec::new() };
            let row = Relation::Partition((0..n).map(|w| w / cols).collect());
            let col = Relation::Partition((0..n).map(|w| w % cols).collect());
            let rels = (vec(0..n, n), Just(row), Just(col)).prop_map(move |(third, row, col)| {
                let mut rels = vec![row, col];
                if agents == 3 {
                    rels.push(Relation::Partition(third));
                }
                rels
            });
            let d = Formula::D(vec![0, 1], Box::new(Formula::Atom(Atom::Prop(0))));
            let fs = vec(formula(&case, 3, None), 4).prop_map(move |mut fs| {
                fs.push(d.clone());
                fs.push(Formula::D(vec![0, 1], Box::new(d.clone().not())).not());
                fs
            });
            (Just(agents), Just(props), vec(vec(any::<bool>(), props), n), rels, 0..n, fs)
        }),
    ) {
        models_agree(agents, props, vals, rels, actual, &fs)?;
    }
}

/// A written model on both engines (the symbolic one built from the model
/// before contraction), then the formulas announced one after another.
fn models_agree(
    agents: usize,
    props: usize,
    vals: Vec<Vec<bool>>,
    rels: Vec<Relation>,
    actual: usize,
    fs: &[Formula],
) -> Result<(), TestCaseError> {
    let written =
        ExplicitModel::from_valuations_generated(agents, props, vals, rels, actual).unwrap();
    let s = SymbolicModel::from_explicit(&written).unwrap();
    let mut e: Rc<dyn Backend> = Rc::new(written.contract());
    let mut s: Rc<dyn Backend> = Rc::new(s);
    same_counts(&*e, &*s)?;
    same_answers(&*e, &*s, fs)?;
    same_group_access(&*e, &*s)?;
    for f in fs {
        let ann = EventModel::announcement("ann", agents, f.clone());
        if let (Ok(e2), Ok(s2)) = (e.apply(&ann, None), s.apply(&ann, None)) {
            e = e2;
            s = s2;
            same_counts(&*e, &*s)?;
            same_answers(&*e, &*s, fs)?;
            same_group_access(&*e, &*s)?;
        }
    }
    Ok(())
}

/// Both engines list the same worlds each group considers possible from the
/// actual world (as sets of valuations), for E, C and D, and `D` agrees
/// with the listed worlds: `D_G p` holds exactly when p holds in each.
fn same_group_access(e: &dyn Backend, s: &dyn Backend) -> Result<(), TestCaseError> {
    let props = e.actual_world().props.len();
    let agents = e.agents();
    for group in [vec![0, 1], (0..agents).collect::<Vec<_>>()] {
        for access in [
            GroupAccess::Everybody,
            GroupAccess::Common,
            GroupAccess::Distributed,
        ] {
            let valuations = |m: &dyn Backend| {
                let mut v: Vec<Vec<bool>> = m
                    .group_accessible(access, &group, m.actual())
                    .into_iter()
                    .map(|w| m.world(w).props)
                    .collect();
                v.sort();
                v.dedup();
                v
            };
            prop_assert_eq!(valuations(e), valuations(s), "{:?} of {:?}", access, group);
        }
        for p in 0..props {
            for m in [e, s] {
                let d = Formula::D(group.clone(), Box::new(Formula::Atom(Atom::Prop(p))));
                let listed = m
                    .group_accessible(GroupAccess::Distributed, &group, m.actual())
                    .into_iter()
                    .all(|w| m.world(w).props[p]);
                prop_assert_eq!(m.eval_actual(&d).unwrap(), listed, "D{:?} p{}", group, p);
            }
        }
    }
    Ok(())
}
