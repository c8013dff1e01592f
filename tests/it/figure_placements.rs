//! The per-card view of a model too large to list (`export ... for CARD`
//! under the symbolic engine) is computed from sets of states
//! (`Backend::placements`). It is checked here against a naive reference
//! that lists the explicit engine's worlds: the same placements, the same
//! actual one, the same pairs each agent connects, the same common
//! knowledge, on every card of every step of the scenarios below.

use std::collections::{BTreeMap, BTreeSet};

use dealer::engine::{Atom, Cmp};
use dealer::engine::{Backend, Formula, GroupAccess, Placements};

/// 4 players, 12 distinct cards, 3 each: 369,600 worlds, over the symbolic
/// engine's listing limit, so its figures take the per-card path.
const KWARTET_3: &str = "game kwartet\nplayers 1 2 3 4\ndeck sets 1..3 of 4\n\
deal 1: <1,1> <2,1> <3,1> | 2: <1,2> <2,2> <3,2> | 3: <1,3> <2,3> <3,3> | 4: <1,4> <2,4> <3,4>\n\
ask 1 2 <1,2>\nask 1 3 <2,3>\nask 1 4 <3,2>\n";

/// The placements as a comparable value: keyed by placement, with the
/// actual placement, each agent's pairs and the common counts.
type Normal = (
    Vec<u32>,
    BTreeMap<Vec<u32>, Vec<u32>>,
    Vec<BTreeSet<(Vec<u32>, Vec<u32>)>>,
);

fn normal(p: &Placements) -> Normal {
    let common = p
        .keys
        .iter()
        .cloned()
        .zip(p.common.iter().cloned())
        .collect();
    let linked = p
        .linked
        .iter()
        .map(|pairs| {
            pairs
                .iter()
                .map(|&(i, j)| {
                    let (a, b) = (p.keys[i].clone(), p.keys[j].clone());
                    if a < b {
                        (a, b)
                    } else {
                        (b, a)
                    }
                })
                .collect()
        })
        .collect();
    (p.keys[p.actual].clone(), common, linked)
}

/// The reference: list the reachable worlds (with `only`, the worlds that
/// agent considers possible) and read everything off them.
fn reference(m: &dyn Backend, kind: usize, only: Option<usize>) -> Normal {
    let everyone: Vec<usize> = (0..m.agents()).collect();
    let mut worlds = match only {
        Some(a) => m.accessible(a, m.actual()),
        None => m.group_accessible(GroupAccess::Common, &everyone, m.actual()),
    };
    worlds.push(m.actual());
    worlds.sort_unstable();
    worlds.dedup();
    let key = |w| -> Vec<u32> { m.world(w).cards.iter().map(|at| at[kind]).collect() };
    let mut common: BTreeMap<Vec<u32>, Vec<u32>> = BTreeMap::new();
    for &w in &worlds {
        let k = key(w);
        let here: Vec<u32> = k
            .iter()
            .enumerate()
            .map(|(loc, &count)| {
                (1..=count)
                    .take_while(|&n| {
                        let atom = Atom::Count {
                            loc,
                            kinds: vec![kind],
                            cmp: Cmp::Ge,
                            n,
                        };
                        let c = Formula::C(everyone.clone(), Box::new(Formula::Atom(atom)));
                        m.eval_at(&c, w).unwrap()
                    })
                    .count() as u32
            })
            .collect();
        let entry = common.entry(k).or_insert_with(|| here.clone());
        for (e, h) in entry.iter_mut().zip(&here) {
            *e = (*e).min(*h);
        }
    }
    let linked = everyone
        .iter()
        .map(|&a| {
            let mut pairs = BTreeSet::new();
            for &w in &worlds {
                for v in m.accessible(a, w) {
                    if worlds.binary_search(&v).is_err() {
                        continue;
                    }
                    let (x, y) = (key(w), key(v));
                    if x < y {
                        pairs.insert((x, y));
                    } else if y < x {
                        pairs.insert((y, x));
                    }
                }
            }
            pairs
        })
        .collect();
    (key(m.actual()), common, linked)
}

/// Runs `src` under both engines; after every statement, compares the
/// symbolic placements of every kind with the reference on the explicit
/// model. Returns how many comparisons were made.
fn compare(src: &str) -> usize {
    let mut checked = 0;
    crate::common::side_by_side(src, |line, ex, sy| {
        let (pe, ps) = (ex.playing().unwrap(), sy.playing().unwrap());
        let views = std::iter::once(None).chain((0..pe.model.agents()).map(Some));
        for only in views {
            for kind in 0..pe.table.deck.kinds.len() {
                let fast = ps
                    .model
                    .placements(kind, only, 1000)
                    .expect("symbolic view")
                    .unwrap();
                assert_eq!(
                    normal(&fast),
                    reference(&*pe.model, kind, only),
                    "kind {kind}, only {only:?}, after line {line}"
                );
                checked += 1;
            }
        }
    });
    checked
}

#[test]
fn go_fish_placements_agree_with_the_listed_worlds() {
    let src = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/gofish/simplified.deal"
    ))
    .unwrap();
    assert!(compare(&src) > 50);
}

/// Three players, nine cards: 1,680 worlds, small enough to list.
const KWARTET_SMALL: &str = "game kwartet\nplayers 1 2 3\ndeck sets 1..3 of 3\n\
deal 1: <1,1> <2,1> <3,1> | 2: <1,2> <2,2> <3,2> | 3: <1,3> <2,3> <3,3>\n\
ask 1 2 <1,2>\nask 1 3 <2,3>\nask 1 2 <3,3>\n";

#[test]
fn kwartet_placements_agree_with_the_listed_worlds() {
    assert!(compare(KWARTET_SMALL) >= 27);
}

/// A symbolic model over the listing limit draws its per-card figure, and
/// it is the figure the explicit engine draws; without `for` it is refused.
#[test]
fn a_per_card_figure_of_a_model_too_large_to_list() {
    let dir = std::env::temp_dir().join(format!("dealer-placements-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let run = |engine: &str, name: &str, options: &str| {
        let file = dir.join(format!("{name}.dot"));
        let src = format!(
            "{KWARTET_3}export \"{}\" for <1,3>{options}\n",
            file.display()
        );
        let deal = dir.join(format!("{name}.deal"));
        std::fs::write(&deal, src).unwrap();
        let out = assert_cmd::Command::cargo_bin("dealer")
            .unwrap()
            .args(["run", "--engine", engine])
            .arg(&deal)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        std::fs::read_to_string(file).unwrap()
    };
    let symbolic = run("symbolic", "sym", "");
    let explicit = run("explicit", "exp", "");
    assert_eq!(symbolic, explicit);
    // Only the worlds player 2 considers possible: fewer placements.
    let mine = run("symbolic", "sym2", " only 2");
    assert_eq!(mine, run("explicit", "exp2", " only 2"));
    assert!(mine.matches("label=").count() < symbolic.matches("label=").count());
    assert!(
        symbolic.contains("peripheries=\"2\""),
        "the actual placement is marked"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
