//! Property tests: the engine against a naive second implementation
//! (`tests/it/naive`) on small random models, formulas and event models, plus
//! validities of S5 and the reduction laws of public announcement logic.

use crate::naive;

use crate::common;

use std::rc::Rc;

use common::{any_cmp, deck_of};
use dealer::engine::deal::DealSpec;
use dealer::engine::{
    Atom, Backend, EngineError, Event, EventModel, ExplicitModel, Formula, Post, Relation,
};
use naive::NaiveModel;
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::subsequence;
use proptest::test_runner::FileFailurePersistence;

// ---------------------------------------------------------------- generators

/// A hand-written model: valuations, one relation per agent, an actual world.
#[derive(Clone, Debug)]
struct ModelSpec {
    agents: usize,
    props: usize,
    vals: Vec<Vec<bool>>,
    relations: Vec<Relation>,
    actual: usize,
}

impl ModelSpec {
    /// The engine's model.
    fn engine(&self) -> Result<Rc<dyn Backend>, TestCaseError> {
        let m = ExplicitModel::from_valuations(
            self.agents,
            self.props,
            self.vals.clone(),
            self.relations.clone(),
            self.actual,
        )
        .map_err(|e| TestCaseError::fail(format!("from_valuations: {e}")))?;
        Ok(Rc::new(m))
    }

    /// The naive model.
    fn naive(&self) -> NaiveModel {
        NaiveModel::from_valuations(&self.vals, &self.relations, self.actual)
    }
}

/// A relation over `n` elements: a partition (class numbers), or, unless
/// `s5`, possibly an arbitrary relation (successor lists).
fn relation(n: usize, s5: bool) -> BoxedStrategy<Relation> {
    let partition = vec(0..n, n).prop_map(Relation::Partition);
    if s5 {
        return partition.boxed();
    }
    let general = vec(vec(any::<bool>(), n), n).prop_map(|rows| {
        Relation::General(
            rows.iter()
                .map(|row| (0..row.len()).filter(|&y| row[y]).collect())
                .collect(),
        )
    });
    prop_oneof![partition, general].boxed()
}

/// A model of 1-6 worlds, 2-3 agents and 2-3 propositions. With `s5_only`
/// every relation is a partition; otherwise half of the models are S5 and the
/// others mix partitions and arbitrary relations.
fn model(s5_only: bool) -> impl Strategy<Value = ModelSpec> {
    (1..=6usize, 2..=3usize, 2..=3usize, any::<bool>()).prop_flat_map(
        move |(n, agents, props, s5)| {
            (
                vec(vec(any::<bool>(), props), n),
                vec(relation(n, s5_only || s5), agents),
                0..n,
            )
                .prop_map(move |(vals, relations, actual)| ModelSpec {
                    agents,
                    props,
                    vals,
                    relations,
                    actual,
                })
        },
    )
}

/// A non-empty group of agents.
fn group(agents: usize) -> impl Strategy<Value = Vec<usize>> {
    subsequence((0..agents).collect::<Vec<_>>(), 1..=agents)
}

/// An event model of 1-3 events over `agents` agents and `props`
/// propositions: random preconditions, random `Set` postconditions, random
/// relations, random designated events.
fn event_model(agents: usize, props: usize) -> BoxedStrategy<EventModel> {
    let simple = formula(agents, props, 2, false);
    let event = (simple.clone(), vec((0..props, simple), 0..=2)).prop_map(|(pre, sets)| Event {
        name: "e".into(),
        pre,
        post: sets.into_iter().map(|(p, f)| Post::Set(p, f)).collect(),
    });
    (1..=3usize)
        .prop_flat_map(move |n| {
            (
                vec(event.clone(), n),
                vec(relation(n, false), agents),
                subsequence((0..n).collect::<Vec<_>>(), 0..=n),
            )
                .prop_map(|(events, relations, designated)| EventModel {
                    name: "E".into(),
                    events,
                    relations,
                    designated,
                })
        })
        .boxed()
}

/// A formula over `agents` agents and `props` propositions, of depth at most
/// `depth`, using every connective; updates only when `updates`.
fn formula(agents: usize, props: usize, depth: u32, updates: bool) -> BoxedStrategy<Formula> {
    let leaf = prop_oneof![
        1 => Just(Formula::Top),
        1 => Just(Formula::Bottom),
        6 => (0..props).prop_map(|p| Formula::Atom(Atom::Prop(p))),
    ];
    leaf.prop_recursive(depth, 16, 3, move |inner| {
        let b = |f: Formula| Box::new(f);
        let mut arms: Vec<(u32, BoxedStrategy<Formula>)> = vec![
            (
                3,
                inner.clone().prop_map(move |f| Formula::Not(b(f))).boxed(),
            ),
            (2, vec(inner.clone(), 0..=3).prop_map(Formula::And).boxed()),
            (2, vec(inner.clone(), 0..=3).prop_map(Formula::Or).boxed()),
            (
                2,
                (inner.clone(), inner.clone())
                    .prop_map(move |(x, y)| Formula::Implies(b(x), b(y)))
                    .boxed(),
            ),
            (
                1,
                (inner.clone(), inner.clone())
                    .prop_map(move |(x, y)| Formula::Iff(b(x), b(y)))
                    .boxed(),
            ),
            (
                3,
                (0..agents, inner.clone())
                    .prop_map(move |(a, f)| Formula::K(a, b(f)))
                    .boxed(),
            ),
            (
                2,
                (0..agents, inner.clone())
                    .prop_map(move |(a, f)| Formula::M(a, b(f)))
                    .boxed(),
            ),
            (
                1,
                (0..agents, inner.clone())
                    .prop_map(move |(a, f)| Formula::Kw(a, b(f)))
                    .boxed(),
            ),
            (
                1,
                (group(agents), inner.clone())
                    .prop_map(move |(g, f)| Formula::E(g, b(f)))
                    .boxed(),
            ),
            (
                2,
                (group(agents), inner.clone())
                    .prop_map(move |(g, f)| Formula::C(g, b(f)))
                    .boxed(),
            ),
            (
                1,
                (group(agents), inner.clone())
                    .prop_map(move |(g, f)| Formula::D(g, b(f)))
                    .boxed(),
            ),
            (
                2,
                (inner.clone(), inner.clone())
                    .prop_map(move |(x, y)| Formula::Announce(b(x), b(y)))
                    .boxed(),
            ),
            (
                1,
                (inner.clone(), inner.clone())
                    .prop_map(move |(x, y)| Formula::AnnounceDiamond(b(x), b(y)))
                    .boxed(),
            ),
        ];
        if updates {
            let ems = vec(event_model(agents, props), 1..=2);
            arms.push((
                1,
                (ems.clone(), inner.clone())
                    .prop_map(move |(e, f)| Formula::Update(Rc::new(e), b(f)))
                    .boxed(),
            ));
            arms.push((
                1,
                (ems, inner.clone())
                    .prop_map(move |(e, f)| Formula::UpdateDiamond(Rc::new(e), b(f)))
                    .boxed(),
            ));
        }
        proptest::strategy::Union::new_weighted(arms)
    })
    .boxed()
}

/// A model and `count` formulas for it.
fn model_and_formulas(
    s5_only: bool,
    depth: u32,
    count: usize,
) -> impl Strategy<Value = (ModelSpec, Vec<Formula>)> {
    model(s5_only).prop_flat_map(move |spec| {
        let fs = vec(formula(spec.agents, spec.props, depth, true), count);
        (Just(spec), fs)
    })
}

// ---------------------------------------------------------------- helpers

/// 500 cases (or `PROPTEST_CASES`); failures are saved next to the naive
/// evaluator (tests/it/naive).
fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok());
    ProptestConfig {
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "tests/it/naive/properties.proptest-regressions",
        ))),
        ..ProptestConfig::with_cases(cases.unwrap_or(500))
    }
}

/// Turns an engine error into a test failure.
fn ok<T>(r: Result<T, EngineError>, what: &str) -> Result<T, TestCaseError> {
    r.map_err(|e| TestCaseError::fail(format!("{what}: engine error: {e}")))
}

/// Checks that the engine and the naive model agree on `f` at the actual world.
fn same_at_actual(eng: &dyn Backend, nm: &NaiveModel, f: &Formula) -> Result<(), TestCaseError> {
    let expected = naive::eval(nm, nm.actual, f);
    let got = ok(eng.eval_actual(f), "eval_actual")?;
    prop_assert_eq!(got, expected, "eval_actual disagrees on {:?}", f);
    Ok(())
}

/// Checks the number of worlds against the naive contraction of the reachable part.
fn same_world_count(eng: &dyn Backend, nm: &NaiveModel) -> Result<(), TestCaseError> {
    let (_, classes) = naive::collective_classes(&naive::reachable_part(nm));
    prop_assert_eq!(eng.world_count(), classes as u128, "world_count");
    Ok(())
}

/// Checks that the engine's model is bisimilar to the naive one (actual
/// worlds related) and generated from its actual world. (That it is
/// contracted is checked by comparing world counts with the naive
/// collective quotient: the engine's stored group relations are not
/// visible through `Backend`, so the read-back cannot be re-contracted.)
fn same_model(eng: &dyn Backend, nm: &NaiveModel) -> Result<(), TestCaseError> {
    let back = naive::of_backend(eng);
    prop_assert!(
        naive::bisimilar(&back, nm),
        "the engine's model is not bisimilar to the naive one"
    );
    prop_assert_eq!(
        naive::reachable_part(&back).len(),
        back.len(),
        "the engine's model has unreachable worlds"
    );
    Ok(())
}

// ---------------------------------------------------------------- properties

proptest! {
    #![proptest_config(config())]

    /// 1. Engine and naive evaluator agree at the actual world (and on validity
    /// over the reachable part, the size of the contraction, S5-ness).
    #[test]
    fn explicit_models_agree_with_naive((spec, fs) in model_and_formulas(false, 4, 1)) {
        let eng = spec.engine()?;
        let nm = spec.naive();
        let f = &fs[0];
        same_at_actual(&*eng, &nm, f)?;
        let reach = naive::reachable_part(&nm);
        prop_assert_eq!(ok(eng.eval_valid(f), "eval_valid")?, naive::valid(&reach, f), "eval_valid disagrees on {:?}", f);
        same_world_count(&*eng, &nm)?;
        prop_assert_eq!(eng.is_s5(), naive::is_s5(&naive::quotient(&reach)), "is_s5");
        prop_assert_eq!(eng.agents(), spec.agents, "agents");
        same_model(&*eng, &nm)?;
        // The engine's own views of one truth set agree with each other.
        let sat = ok(eng.satisfying(f), "satisfying")?;
        let n = eng.world_count() as usize;
        let at: Vec<usize> = (0..n).filter(|&w| eng.eval_at(f, w) == Ok(true)).collect();
        prop_assert_eq!(sat, at, "satisfying and eval_at disagree on {:?}", f);
    }

    /// 2. Sequences of event models applied in the engine and naively.
    #[test]
    fn updates_agree_with_naive(
        (spec, fs, ems) in model_and_formulas(false, 3, 3).prop_flat_map(|(spec, fs)| {
            let ems = vec(event_model(spec.agents, spec.props), 1..=3);
            (Just(spec), Just(fs), ems)
        }),
        choices in vec(any::<usize>(), 3),
    ) {
        let mut eng = spec.engine()?;
        let mut nm = spec.naive();
        for (i, em) in ems.iter().enumerate() {
            let possible = naive::possible_events(&nm, em);
            prop_assert_eq!(ok(eng.possible_events(em), "possible_events")?, possible.clone(), "possible_events");
            match (possible.len(), eng.apply(em, None)) {
                (0, Err(EngineError::NoEventPossible { .. })) => {}
                (1, Ok(_)) => {}
                (n, Err(EngineError::AmbiguousEvent { .. })) if n > 1 => {}
                (n, r) => prop_assert!(false, "apply(None) with {} possible events gave {:?}", n, r.err()),
            }
            if let Some(e) = (0..em.events.len()).find(|e| !possible.contains(e)) {
                let r = eng.apply(em, Some(e));
                prop_assert!(matches!(r, Err(EngineError::EventImpossible { .. })), "apply of an impossible event gave {:?}", r.err());
            }
            if possible.is_empty() {
                break;
            }
            let e = possible[choices[i] % possible.len()];
            eng = ok(eng.apply(em, Some(e)), "apply")?;
            nm = naive::apply(&nm, em, e);
            for f in &fs {
                same_at_actual(&*eng, &nm, f)?;
            }
            same_world_count(&*eng, &nm)?;
            same_model(&*eng, &nm)?;
            let reach = naive::reachable_part(&nm);
            let (class, _) = naive::collective_classes(&reach);
            for a in 0..spec.agents {
                let mut seen: Vec<usize> = reach.successors(a, reach.actual).iter().map(|&v| class[v]).collect();
                seen.sort_unstable();
                seen.dedup();
                prop_assert_eq!(eng.considers(a), seen.len() as u128, "considers({}) after {} updates", a, i + 1);
            }
        }
    }

    /// 3. Validities of S5 hold in every S5 model.
    #[test]
    fn s5_validities(
        (spec, fs, a, g) in model_and_formulas(true, 3, 2).prop_flat_map(|(spec, fs)| {
            let agents = spec.agents;
            (Just(spec), Just(fs), 0..agents, group(agents))
        }),
    ) {
        let eng = spec.engine()?;
        prop_assert!(eng.is_s5(), "a model of partitions is not S5");
        let (phi, psi) = (fs[0].clone(), fs[1].clone());
        let k = |a: usize, f: Formula| Formula::K(a, Box::new(f));
        let imp = |x: Formula, y: Formula| Formula::Implies(Box::new(x), Box::new(y));
        let not = |x: Formula| Formula::Not(Box::new(x));
        let c = Formula::C(g.clone(), Box::new(phi.clone()));
        let laws = vec![
            imp(k(a, phi.clone()), phi.clone()),
            imp(k(a, phi.clone()), k(a, k(a, phi.clone()))),
            imp(not(k(a, phi.clone())), k(a, not(k(a, phi.clone())))),
            imp(c.clone(), Formula::E(g.clone(), Box::new(phi.clone()))),
            imp(c.clone(), Formula::E(g.clone(), Box::new(c))),
            imp(k(a, imp(phi.clone(), psi.clone())), imp(k(a, phi.clone()), k(a, psi))),
            imp(Formula::Or(g.iter().map(|&b| k(b, phi.clone())).collect()), Formula::D(g.clone(), Box::new(phi))),
        ];
        let nm = spec.naive();
        for law in &laws {
            prop_assert!(naive::valid(&nm, law), "naive: not valid: {:?}", law);
            prop_assert!(ok(eng.eval_valid(law), "eval_valid")?, "engine: not valid: {:?}", law);
        }
    }

    /// 4. Reduction laws of public announcement logic.
    #[test]
    fn announcement_reduction_laws(
        (spec, fs, a, p, q) in model_and_formulas(false, 3, 3).prop_flat_map(|(spec, fs)| {
            let (agents, props) = (spec.agents, spec.props);
            (Just(spec), Just(fs), 0..agents, 0..props, 0..props)
        }),
    ) {
        let eng = spec.engine()?;
        let (psi, phi, chi) = (fs[0].clone(), fs[1].clone(), fs[2].clone());
        let bx = |f: Formula| Box::new(f);
        let ann = |x: &Formula, y: Formula| Formula::Announce(bx(x.clone()), bx(y));
        let iff = |x: Formula, y: Formula| Formula::Iff(bx(x), bx(y));
        let imp = |x: Formula, y: Formula| Formula::Implies(bx(x), bx(y));
        let not = |x: Formula| Formula::Not(bx(x));
        let (p, q) = (Formula::Atom(Atom::Prop(p)), Formula::Atom(Atom::Prop(q)));
        let laws = vec![
            iff(ann(&p, q.clone()), imp(p.clone(), q)),
            iff(ann(&psi, not(phi.clone())), imp(psi.clone(), not(ann(&psi, phi.clone())))),
            iff(
                ann(&psi, Formula::And(vec![phi.clone(), chi.clone()])),
                Formula::And(vec![ann(&psi, phi.clone()), ann(&psi, chi)]),
            ),
            iff(ann(&psi, Formula::K(a, bx(phi.clone()))), imp(psi.clone(), Formula::K(a, bx(ann(&psi, phi.clone()))))),
            iff(
                Formula::AnnounceDiamond(bx(psi.clone()), bx(phi.clone())),
                Formula::And(vec![psi.clone(), ann(&psi, phi)]),
            ),
        ];
        let nm = spec.naive();
        for law in &laws {
            prop_assert!(naive::valid(&nm, law), "naive: not valid: {:?}", law);
            prop_assert!(ok(eng.eval_actual(law), "eval_actual")?, "engine: false at the actual world: {:?}", law);
            prop_assert!(ok(eng.eval_valid(law), "eval_valid")?, "engine: not valid: {:?}", law);
        }
    }
}

proptest! {
    #![proptest_config(config())]

    /// 4b. Definitions and fixpoints valid in every model (S5 or not): Kw's
    /// definition, M as the dual of K, the fixpoint of C, `K_a φ → D{a,b} φ`
    /// for every member, and an announced atom becoming common knowledge.
    #[test]
    fn definitions_and_fixpoints(
        (spec, fs, a, g, p) in model_and_formulas(false, 2, 2).prop_flat_map(|(spec, fs)| {
            let (agents, props) = (spec.agents, spec.props);
            (Just(spec), Just(fs), 0..agents, group(agents), 0..props)
        }),
    ) {
        let eng = spec.engine()?;
        let phi = fs[0].clone();
        let bx = |f: Formula| Box::new(f);
        let iff = |x: Formula, y: Formula| Formula::Iff(bx(x), bx(y));
        let imp = |x: Formula, y: Formula| Formula::Implies(bx(x), bx(y));
        let not = |x: Formula| Formula::Not(bx(x));
        let k = |a: usize, f: Formula| Formula::K(a, bx(f));
        let c = Formula::C(g.clone(), bx(phi.clone()));
        let atom = Formula::Atom(Atom::Prop(p));
        let mut laws = vec![
            iff(Formula::Kw(a, bx(phi.clone())), Formula::Or(vec![k(a, phi.clone()), k(a, not(phi.clone()))])),
            iff(Formula::M(a, bx(phi.clone())), not(k(a, not(phi.clone())))),
            iff(c.clone(), Formula::E(g.clone(), bx(Formula::And(vec![phi.clone(), c.clone()])))),
            Formula::Announce(bx(atom.clone()), bx(Formula::C(g.clone(), bx(atom.clone())))),
            Formula::Announce(bx(atom.clone()), bx(Formula::C((0..spec.agents).collect(), bx(atom)))),
        ];
        let mut pair = g.clone();
        if !pair.contains(&a) {
            pair.push(a);
            pair.sort_unstable();
        }
        laws.push(imp(k(a, phi.clone()), Formula::D(pair, bx(phi))));
        let nm = spec.naive();
        for law in &laws {
            prop_assert!(naive::valid(&nm, law), "naive: not valid: {:?}", law);
            prop_assert!(ok(eng.eval_valid(law), "eval_valid")?, "engine: not valid: {:?}", law);
            prop_assert!(ok(eng.eval_actual(law), "eval_actual")?, "engine: false at the actual world: {:?}", law);
        }
    }
}

// ---------------------------------------------------------------- card deals

/// A small deal: copies per kind, hand sizes per player (the stock, the last
/// location, holds the rest), the actual allocation, the number of propositions.
#[derive(Clone, Debug)]
struct DealCase {
    copies: Vec<u32>,
    sizes: Vec<u32>,
    actual: Vec<Vec<u32>>,
    props: usize,
}

impl DealCase {
    fn players(&self) -> usize {
        self.sizes.len() - 1
    }
    fn stock(&self) -> usize {
        self.sizes.len() - 1
    }
}

prop_compose! {
    /// 2-3 kinds of 1-3 copies, 2-3 players with hands of 0-2 cards, a
    /// stock with the rest, and the actual deal from a shuffled deck.
    fn deal()(copies in vec(1..=3u32, 2..=3), hands in vec(0..=2u32, 2..=3), props in 0..=1usize)
        (deck in Just(deck_of(&copies)).prop_shuffle(), copies in Just(copies), hands in Just(hands), props in Just(props))
        -> DealCase
    {
        let mut sizes = Vec::new();
        let mut left = deck.len() as u32;
        for h in hands {
            sizes.push(h.min(left));
            left -= h.min(left);
        }
        sizes.push(left);
        let mut actual = vec![vec![0; copies.len()]; sizes.len()];
        let mut cards = deck.into_iter();
        for (loc, &size) in sizes.iter().enumerate() {
            for kind in cards.by_ref().take(size as usize) {
                actual[loc][kind] += 1;
            }
        }
        DealCase { copies, sizes, actual, props }
    }
}

/// The deck as a list of kinds, one entry per card.
/// A formula about cards: counts at any location, K/M/C/E/D over the players,
/// announcements; depth at most 3.
fn card_formula(players: usize, kinds: usize, props: usize) -> BoxedStrategy<Formula> {
    let cmp = any_cmp();
    let count = (
        0..=players,
        subsequence((0..kinds).collect::<Vec<_>>(), 1..=kinds),
        cmp,
        0..=3u32,
    )
        .prop_map(|(loc, kinds, cmp, n)| Formula::Atom(Atom::Count { loc, kinds, cmp, n }));
    let leaf = if props > 0 {
        prop_oneof![6 => count, 1 => (0..props).prop_map(|p| Formula::Atom(Atom::Prop(p)))].boxed()
    } else {
        count.boxed()
    };
    leaf.prop_recursive(3, 12, 3, move |inner| {
        let b = |f: Formula| Box::new(f);
        prop_oneof![
            2 => inner.clone().prop_map(move |f| Formula::Not(b(f))),
            2 => vec(inner.clone(), 0..=3).prop_map(Formula::And),
            1 => vec(inner.clone(), 0..=3).prop_map(Formula::Or),
            1 => (inner.clone(), inner.clone()).prop_map(move |(x, y)| Formula::Implies(b(x), b(y))),
            3 => (0..players, inner.clone()).prop_map(move |(a, f)| Formula::K(a, b(f))),
            2 => (0..players, inner.clone()).prop_map(move |(a, f)| Formula::M(a, b(f))),
            1 => (group(players), inner.clone()).prop_map(move |(g, f)| Formula::E(g, b(f))),
            2 => (group(players), inner.clone()).prop_map(move |(g, f)| Formula::C(g, b(f))),
            1 => (group(players), inner.clone()).prop_map(move |(g, f)| Formula::D(g, b(f))),
            1 => (inner.clone(), inner.clone()).prop_map(move |(x, y)| Formula::Announce(b(x), b(y))),
        ]
    })
    .boxed()
}

/// A move of a card game, as an event model.
#[derive(Clone, Debug)]
enum Step {
    /// The player takes one card from the stock: one event per kind (pre: the
    /// stock holds one; post: it moves to the player's hand); the drawer
    /// tells the events apart, the others do not.
    Draw(usize),
    /// `from` shows `to` one card of its hand: one event per kind (pre: the
    /// hand holds one), told apart by the two of them only.
    Show { from: usize, to: usize },
    /// `from` publicly gives its whole hand to `to` (one event, `MoveAll`).
    GiveAll { from: usize, to: usize },
}

impl Step {
    fn model(&self, players: usize, kinds: usize, stock: usize) -> EventModel {
        let per_kind = |loc: usize, post: &dyn Fn(usize) -> Vec<Post>| -> Vec<Event> {
            (0..kinds)
                .map(|kind| Event {
                    name: format!("kind {kind}"),
                    pre: Formula::holds(loc, kind),
                    post: post(kind),
                })
                .collect()
        };
        match *self {
            Step::Draw(drawer) => {
                let post = |kind| {
                    vec![Post::Move {
                        kind,
                        from: stock,
                        to: drawer,
                        n: 1,
                    }]
                };
                EventModel::semi_private("draw", players, &[drawer], per_kind(stock, &post))
            }
            Step::Show { from, to } => {
                let events = per_kind(from, &|_| Vec::new());
                EventModel::semi_private("show", players, &[from, to], events)
            }
            Step::GiveAll { from, to } => {
                let event = Event {
                    name: "give".into(),
                    pre: Formula::Top,
                    post: vec![Post::MoveAll { from, to }],
                };
                EventModel::public("give all", players, vec![event])
            }
        }
    }
}

/// A step with one of the players; draws are the most frequent.
fn step(players: usize) -> impl Strategy<Value = Step> {
    prop_oneof![
        3 => (0..players).prop_map(Step::Draw),
        1 => (0..players, 0..players).prop_map(|(from, to)| Step::Show { from, to }),
        1 => (0..players, 0..players).prop_map(|(from, to)| Step::GiveAll { from, to }),
    ]
}

proptest! {
    #![proptest_config(config())]

    /// 5. Card deals: the engine's deal model against naive enumeration,
    /// before and after each of 1-3 moves (draws from the stock, private
    /// shows, public gifts of a whole hand).
    #[test]
    fn card_deals_agree_with_naive(
        (case, fs, steps) in deal().prop_flat_map(|case| {
            let fs = vec(card_formula(case.players(), case.copies.len(), case.props), 3);
            let steps = vec((step(case.players()), any::<usize>()), 1..=3);
            (Just(case), fs, steps)
        }),
    ) {
        let players = case.players();
        let observers: Vec<Vec<usize>> = (0..players).map(|a| vec![a]).collect();
        let total = naive::deal_allocations(&case.copies, &case.sizes).len();
        prop_assert_eq!(dealer::engine::deal::count_worlds(&case.copies, &case.sizes), total as u128, "count_worlds");
        let spec = DealSpec {
            props: case.props,
            ..DealSpec::dealt(case.copies.clone(), case.actual.clone(), observers.clone())
        };
        let mut eng: Rc<dyn Backend> = Rc::new(ok(ExplicitModel::from_deal(&spec, 1_000_000), "from_deal")?);
        let mut nm = naive::deal_model(&case.copies, &case.sizes, &observers, case.props, &case.actual);
        let reach = naive::reachable_part(&nm);
        let (_, classes) = naive::bisimulation_classes(&reach);
        prop_assert_eq!(classes, reach.len(), "naive: distinct allocations were bisimilar");
        prop_assert_eq!(eng.world_count(), reach.len() as u128, "world_count of the deal");
        same_model(&*eng, &nm)?;
        for f in &fs {
            same_at_actual(&*eng, &nm, f)?;
        }
        for (step, choice) in &steps {
            let em = step.model(players, case.copies.len(), case.stock());
            let possible = naive::possible_events(&nm, &em);
            prop_assert_eq!(ok(eng.possible_events(&em), "possible_events")?, possible.clone(), "possible_events of {:?}", step);
            if possible.is_empty() {
                break;
            }
            let e = possible[choice % possible.len()];
            eng = ok(eng.apply(&em, Some(e)), "apply")?;
            nm = naive::apply(&nm, &em, e);
            same_world_count(&*eng, &nm)?;
            same_model(&*eng, &nm)?;
            for f in &fs {
                same_at_actual(&*eng, &nm, f)?;
            }
        }
    }
}

// ---------------------------------------------------------------- regressions

/// Distributed knowledge is not invariant under (plain) bisimulation: in this
/// S5 model every p-world is bisimilar to every other p-world, so the
/// contraction has two worlds and both relations become total, but at world
/// 0 the intersection of the two relations is {0} and `D_{0,1} p` holds.
/// (Engine bug found by `explicit_models_agree_with_naive`.)
#[test]
fn distributed_knowledge_survives_contraction() {
    let vals = vec![vec![true], vec![false], vec![true], vec![false]];
    let rels = vec![
        Relation::Partition(vec![0, 0, 1, 1]),
        Relation::Partition(vec![0, 1, 1, 0]),
    ];
    let d = Formula::D(vec![0, 1], Box::new(Formula::Atom(Atom::Prop(0))));
    let nm = NaiveModel::from_valuations(&vals, &rels, 0);
    assert!(naive::eval(&nm, 0, &d));
    let m = ExplicitModel::from_valuations(2, 1, vals, rels, 0).unwrap();
    assert_eq!(m.eval_actual(&d), Ok(true), "D_{{0,1}} p at world 0");
    // Without S5: at world 1 the two relations ({0} and {1}) do not meet, so
    // `D_{0,1} ⊥` holds; both worlds are bisimilar (no propositions, every
    // world has successors), and the one-world contraction makes it false.
    let rels = vec![
        Relation::General(vec![vec![0], vec![0]]),
        Relation::General(vec![vec![0], vec![1]]),
    ];
    let bottom = Formula::D(vec![0, 1], Box::new(Formula::Bottom));
    let nm = NaiveModel::from_valuations(&[vec![], vec![]], &rels, 1);
    assert!(naive::eval(&nm, 1, &bottom));
    let m = ExplicitModel::from_valuations(2, 0, vec![vec![], vec![]], rels, 1).unwrap();
    assert_eq!(m.eval_actual(&bottom), Ok(true), "D_{{0,1}} ⊥ at world 1");
}
