//! The symbolic engine against the explicit one on the engine's fixtures.

use std::rc::Rc;

use super::*;
use crate::engine::formula::Cmp;
use crate::engine::testkit::*;
use crate::engine::{Event, Post, Relation};

fn qa_spec() -> DealSpec {
    DealSpec {
        copies: vec![4, 4],
        sizes: vec![1, 1, 1, 5],
        observers: vec![vec![0], vec![1], vec![2]],
        props: 1,
        actual: vec![vec![1, 0], vec![1, 0], vec![0, 1], vec![2, 3]],
    }
}

fn queries() -> Vec<Formula> {
    let has_a = Formula::count(1, vec![A], Cmp::Ge, 1);
    let stock4 = Formula::count(STOCK, vec![Q, A], Cmp::Eq, 4);
    vec![
        has_a.clone().known_by(1),
        has_a.clone().known_by(0),
        Formula::Kw(2, Box::new(has_a.clone())),
        Formula::C(vec![0, 1, 2], Box::new(stock4.clone())),
        Formula::C(vec![0, 1], Box::new(Formula::holds(0, Q).known_by(0))),
        Formula::D(vec![0, 1, 2], Box::new(has_a.clone())),
        Formula::D(vec![], Box::new(stock4)),
        Formula::M(0, Box::new(Formula::count(1, vec![Q], Cmp::Eq, 2))),
        Formula::E(
            vec![0, 2],
            Box::new(Formula::count(STOCK, vec![A], Cmp::Le, 3)),
        ),
        Formula::Announce(Box::new(has_a.clone()), Box::new(has_a.clone().known_by(0))),
        Formula::Update(Rc::new(vec![draw(1)]), Box::new(has_a.clone().known_by(1))),
        Formula::UpdateDiamond(Rc::new(vec![draw(2), draw(0)]), Box::new(has_a.known_by(2))),
    ]
}

fn same(e: &dyn Backend, s: &dyn Backend) {
    assert_eq!(e.world_count(), s.world_count());
    for a in 0..e.agents() {
        assert_eq!(e.considers(a), s.considers(a), "agent {a}");
    }
    for q in queries() {
        assert_eq!(
            e.eval_actual(&q).unwrap(),
            s.eval_actual(&q).unwrap(),
            "{q:?}"
        );
        assert_eq!(
            e.eval_valid(&q).unwrap(),
            s.eval_valid(&q).unwrap(),
            "valid {q:?}"
        );
    }
}

#[test]
fn deal_then_updates_agree() {
    let spec = qa_spec();
    let e: Rc<dyn Backend> = Rc::new(ExplicitModel::from_deal(&spec, 1000).unwrap());
    let s: Rc<dyn Backend> =
        Rc::new(SymbolicModel::from_deal(&spec, &SymbolicLimits::default()).unwrap());
    same(&*e, &*s);
    let ann = EventModel::announcement("no Q", 3, Formula::holds(2, Q).not());
    let (e, s) = (e.apply(&ann, None).unwrap(), s.apply(&ann, None).unwrap());
    same(&*e, &*s);
    assert_eq!(
        e.possible_events(&draw(1)).unwrap(),
        s.possible_events(&draw(1)).unwrap()
    );
    let (e, s) = (
        e.apply(&draw(1), Some(1)).unwrap(),
        s.apply(&draw(1), Some(1)).unwrap(),
    );
    same(&*e, &*s);
    let (e, s) = (
        e.apply(&draw(0), Some(0)).unwrap(),
        s.apply(&draw(0), Some(0)).unwrap(),
    );
    same(&*e, &*s);
}

#[test]
fn refusals_agree() {
    let spec = qa_spec();
    let e = ExplicitModel::from_deal(&spec, 1000).unwrap();
    let s = SymbolicModel::from_deal(&spec, &SymbolicLimits::default()).unwrap();
    let ann = EventModel::announcement("hand1 has no Q", 3, Formula::holds(1, Q).not());
    let steal = Event {
        name: "steal".into(),
        pre: Formula::Top,
        post: vec![Post::Move {
            kind: Q,
            from: 2,
            to: 0,
            n: 1,
        }],
    };
    let steal = EventModel::public("steal", 3, vec![steal]);
    for (em, ev) in [
        (&ann, Some(0)),
        (&ann, None),
        (&draw(0), None),
        (&steal, None),
    ] {
        let a = e.apply(em, ev).map(|_| ()).unwrap_err();
        let b = s.apply(em, ev).map(|_| ()).unwrap_err();
        assert_eq!(
            std::mem::discriminant(&a),
            std::mem::discriminant(&b),
            "{a} / {b}"
        );
    }
}

#[test]
fn muddy_children_from_explicit() {
    let e: Rc<dyn Backend> = Rc::new(muddy());
    let s: Rc<dyn Backend> = Rc::new(SymbolicModel::from_explicit(&muddy()).unwrap());
    let father = Formula::Or(vec![p(0), p(1), p(2)]);
    let nobody = Formula::And(
        (0..3)
            .map(|i| Formula::Kw(i, Box::new(p(i))).not())
            .collect(),
    );
    let check = |e: &dyn Backend, s: &dyn Backend| {
        assert_eq!(e.world_count(), s.world_count());
        for i in 0..3 {
            let k = Formula::Kw(i, Box::new(p(i)));
            assert_eq!(e.eval_actual(&k).unwrap(), s.eval_actual(&k).unwrap());
            assert_eq!(e.considers(i), s.considers(i));
        }
    };
    check(&*e, &*s);
    let ann = EventModel::announcement("father", 3, father);
    let (e, s) = (e.apply(&ann, None).unwrap(), s.apply(&ann, None).unwrap());
    check(&*e, &*s);
    let ann = EventModel::announcement("nobody", 3, nobody);
    let (e, s) = (e.apply(&ann, None).unwrap(), s.apply(&ann, None).unwrap());
    check(&*e, &*s);
    assert_eq!(s.world_count(), 4);
}

#[test]
fn beliefs_hand_over_to_the_explicit_engine_or_are_refused() {
    let s = SymbolicModel::from_explicit(&muddy()).unwrap();
    let skip = Event {
        name: "skip".into(),
        pre: Formula::Top,
        post: Vec::new(),
    };
    let em = EventModel {
        name: "secret".into(),
        events: vec![skip.clone(), skip],
        relations: vec![
            Relation::Partition(vec![0, 1]),
            Relation::General(vec![vec![1], vec![1]]),
            Relation::Partition(vec![0, 0]),
        ],
        designated: Vec::new(),
    };
    // Small enough to list: the explicit engine takes over, with the same answers.
    let handed = s.apply(&em, Some(0)).unwrap();
    let direct = muddy().apply(&em, Some(0)).unwrap();
    assert_eq!(
        handed.representation(),
        crate::engine::Representation::Explicit
    );
    assert!(!handed.is_s5());
    assert_eq!(handed.world_count(), direct.world_count());
    for i in 0..3 {
        let f = Formula::K(i, Box::new(p(i)));
        assert_eq!(
            handed.eval_actual(&f).unwrap(),
            direct.eval_actual(&f).unwrap()
        );
    }
    // Too large to list: refused.
    let limits = SymbolicLimits {
        list: 0,
        ..SymbolicLimits::default()
    };
    let big = SymbolicModel::from_deal(&qa_spec(), &limits).unwrap();
    assert!(matches!(
        big.apply(&em, Some(0)),
        Err(EngineError::Unsupported(_))
    ));
}

#[test]
fn actual_view_and_worlds() {
    let spec = qa_spec();
    let s = SymbolicModel::from_deal(&spec, &SymbolicLimits::default()).unwrap();
    let view = s.actual_view();
    assert_eq!(view.cards, spec.actual);
    assert_eq!(view.props, vec![false]);
    assert!(s.listable().is_ok() && s.count_is_exact());
    assert_eq!(s.world(s.actual()).cards, spec.actual);
    assert_eq!(s.accessible(0, s.actual()).len(), 4);
    let tiny = SymbolicLimits {
        list: 3,
        ..SymbolicLimits::default()
    };
    let s = SymbolicModel::from_deal(&spec, &tiny).unwrap();
    assert!(matches!(
        s.listable(),
        Err(EngineError::TooManyWorlds {
            count: 8,
            budget: 3
        })
    ));
    assert_eq!(s.world_count(), 8);
    assert_eq!(s.world(s.actual()).cards, spec.actual);
}

#[test]
fn empty_group_reads_the_reachable_states() {
    let spec = DealSpec {
        copies: vec![1, 1, 1],
        sizes: vec![1, 2, 0, 0],
        observers: vec![vec![0, 2], vec![1, 2]],
        props: 1,
        actual: vec![vec![0, 1, 0], vec![1, 0, 1], vec![0, 0, 0], vec![0, 0, 0]],
    };
    let e = ExplicitModel::from_deal(&spec, 1000).unwrap();
    let s = SymbolicModel::from_deal(&spec, &SymbolicLimits::default()).unwrap();
    assert_eq!(e.world_count(), s.world_count());
    let f = Formula::D(vec![], Box::new(Formula::count(0, vec![2], Cmp::Ne, 1)));
    assert_eq!(e.eval_actual(&f).unwrap(), s.eval_actual(&f).unwrap());
    let em = EventModel::announcement("d", 2, f);
    assert_eq!(
        e.possible_events(&em).unwrap(),
        s.possible_events(&em).unwrap()
    );
}

#[test]
fn kept_classes_are_renumbered_densely() {
    // An agent whose classes 1 and 1 are all that is left of [0, 1, 1]
    // has one class among the kept events, not two.
    assert_eq!(super::transform::dense([1u32, 1].into_iter()), vec![0, 0]);
    assert_eq!(
        super::transform::dense([2u32, 0, 2, 5].into_iter()),
        vec![0, 1, 0, 2]
    );
}
