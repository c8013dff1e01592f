//! The per-card view in text (`worlds for CARD`, `why φ for CARD`) and the
//! engine's split behind it (`Backend::shares`).
//!
//! - The symbolic engine's split (from sets of states) and the explicit
//!   engine's (from listed worlds) are compared with a naive reference that
//!   lists the explicit model's worlds and evaluates the formula in each,
//!   for every card, every step, every agent and group, and several
//!   formulas.
//! - `why φ for CARD` is checked against the model: its verdict is the
//!   engine's answer, and the placement it names as a witness has a world
//!   the agent considers possible where the formula fails (asked as a
//!   formula of its own).
//! - On the full-deck Go Fish model, too large to list, the statements
//!   answer, and their counts add up to the engine's counts of worlds.

use std::collections::BTreeMap;

use dealer::engine::{Among, Backend, Cmp, Formula, GroupAccess, Share};
use dealer::interp::{Engine, Options, Output, Session};
use dealer::syntax;
use num_bigint::BigUint;

/// The reference: the worlds `among` counts, listed, grouped by where
/// `kind` lies, with how many satisfy `f` (evaluated world by world).
fn reference(m: &dyn Backend, kind: usize, among: &Among, f: &Formula) -> Vec<Share> {
    let actual = m.actual();
    let worlds: Vec<usize> = match among {
        Among::Reachable => (0..m.world_count() as usize).collect(),
        Among::Agent(a) => m.accessible(*a, actual),
        Among::Group(access, g) => m.group_accessible(*access, g, actual),
    };
    let key = |w| -> Vec<u32> { m.world(w).cards.iter().map(|at| at[kind]).collect() };
    let mut by: BTreeMap<Vec<u32>, (u32, u32)> = BTreeMap::new();
    for w in worlds {
        let e = by.entry(key(w)).or_default();
        e.0 += 1;
        e.1 += u32::from(m.eval_at(f, w).unwrap());
    }
    let here = key(actual);
    by.into_iter()
        .map(|(key, (worlds, holding))| Share {
            actual: key == here,
            key,
            worlds: worlds.into(),
            holding: holding.into(),
        })
        .collect()
}

/// The formulas asked of every split: true, an atom of the card, what an
/// agent knows of it, and common knowledge.
fn formulas(kind: usize, locs: usize, agents: usize) -> Vec<Formula> {
    let mut out = vec![Formula::Top];
    for loc in 0..locs.min(3) {
        let atom = Formula::count(loc, vec![kind], Cmp::Ge, 1);
        out.push(atom.clone());
        out.push(Formula::K(loc % agents, Box::new(atom.clone())));
        out.push(Formula::M(
            (loc + 1) % agents,
            Box::new(Formula::Not(Box::new(atom.clone()))),
        ));
        out.push(Formula::C(
            (0..agents).collect(),
            Box::new(Formula::Not(Box::new(atom))),
        ));
    }
    out
}

fn amongs(agents: usize) -> Vec<Among> {
    let everyone: Vec<usize> = (0..agents).collect();
    let mut out = vec![Among::Reachable];
    out.extend((0..agents).map(Among::Agent));
    for access in [
        GroupAccess::Everybody,
        GroupAccess::Common,
        GroupAccess::Distributed,
    ] {
        out.push(Among::Group(access, everyone.clone()));
        out.push(Among::Group(access, vec![0, agents - 1]));
    }
    out
}

/// The symbolic split without the counts, when they count states rather
/// than worlds: whether the formula holds in all, some or none.
fn shape(shares: &[Share]) -> Vec<(Vec<u32>, bool, u8)> {
    shares
        .iter()
        .map(|s| {
            let how = if s.holding == s.worlds {
                2
            } else if s.holding == BigUint::ZERO {
                0
            } else {
                1
            };
            (s.key.clone(), s.actual, how)
        })
        .collect()
}

/// Replays `src` under both engines; after every statement, compares
/// both engines' splits with the reference. Returns the comparisons made.
fn compare(src: &str) -> usize {
    let mut checked = 0;
    crate::common::side_by_side(src, |line, ex, sy| {
        let (pe, ps) = (ex.playing().unwrap(), sy.playing().unwrap());
        let (locs, agents) = (pe.table.locations.len(), pe.model.agents());
        for kind in 0..pe.table.deck.kinds.len() {
            for among in amongs(agents) {
                for f in formulas(kind, locs, agents) {
                    let want = reference(&*pe.model, kind, &among, &f);
                    let explicit = pe.model.shares(kind, &among, &f, 1000).unwrap();
                    assert_eq!(
                        explicit, want,
                        "explicit, kind {kind}, {among:?}, line {line}"
                    );
                    let symbolic = ps.model.shares(kind, &among, &f, 1000).unwrap();
                    if ps.model.counts_exact() {
                        assert_eq!(
                            symbolic, want,
                            "symbolic, kind {kind}, {among:?}, line {line}"
                        );
                    } else {
                        assert_eq!(shape(&symbolic), shape(&want), "line {line}");
                    }
                    checked += 1;
                }
            }
        }
    });
    checked
}

fn scenario(path: &str) -> String {
    std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

#[test]
fn go_fish_splits_agree_with_the_listed_worlds() {
    let n = compare(&scenario("scenarios/gofish/simplified.deal"));
    assert!(n > 1000, "{n}");
}

/// Three players, nine cards: 1,680 worlds.
const KWARTET_SMALL: &str = "game kwartet\nplayers 1 2 3\ndeck sets 1..3 of 3\n\
deal 1: <1,1> <2,1> <3,1> | 2: <1,2> <2,2> <3,2> | 3: <1,3> <2,3> <3,3>\n\
ask 1 2 <1,2>\nask 1 3 <2,3>\nask 1 2 <3,3>\n";

#[test]
fn kwartet_splits_agree_with_the_listed_worlds() {
    assert!(compare(KWARTET_SMALL) > 1000);
}

/// Runs `src` and returns the lines every statement printed, in order.
fn run(src: &str, engine: Engine) -> Vec<String> {
    let scenario = syntax::parse(src).unwrap();
    let mut s = Session::new(Options {
        engine,
        ..Options::default()
    });
    let mut lines = Vec::new();
    for stmt in &scenario.statements {
        for out in s.execute(stmt, src).unwrap() {
            if let Output::Lines(l) = out {
                lines.extend(l);
            }
        }
    }
    lines
}

/// `why K1 φ for C` and `why M1 φ for C`: the verdict is the engine's, and
/// the witness placement it names has the world it claims, asked of the
/// engine as `M1 (¬φ ∧ the placement)` (for K) or `M1 (φ ∧ the placement)`.
#[test]
fn why_for_names_a_witness_the_model_has() {
    let base =
        "game gofish\nplayers 1 2 3\ndeck Q*4 A*4\ndeal 1: Q | 2: Q | 3: A\nstock A A Q Q A\n";
    let cases = [
        ("K1 2_Q", "Q", false),
        ("K1 1_Q", "Q", true),
        ("M1 3_QQ", "Q", false),
        ("M2 3_Q", "Q", true),
        ("K3 !2_A", "A", false),
    ];
    for engine in [Engine::Explicit, Engine::Symbolic] {
        for (formula, card, value) in cases {
            let src = format!("{base}why {formula} for {card}\n");
            let lines = run(&src, engine);
            let verdict = format!("{formula} is {value} in the actual world");
            assert!(lines[0].starts_with(&verdict), "{lines:?}");
            let last = lines.last().unwrap().trim();
            let diamond = formula.starts_with('M');
            let inner = &formula[3..];
            if value != diamond {
                // K true or M false: no witness, a claim about all placements.
                assert!(last.starts_with("so "), "{last}");
                assert!(!last.contains(" where "), "{last}");
                continue;
            }
            // K false or M true: a witness placement, such as `3:Q stock:QQQ`.
            let place = last.rsplit(" where ").next().unwrap();
            let atoms: Vec<String> = [
                ("1", "hand1"),
                ("2", "hand2"),
                ("3", "hand3"),
                ("stock", "stock"),
            ]
            .iter()
            .map(|(loc, atom)| {
                let n = place
                    .split(' ')
                    .find_map(|p| p.strip_prefix(&format!("{loc}:")))
                    .map_or(0, |cards| cards.len());
                format!("{atom}({card}) = {n}")
            })
            .collect();
            let fact = if diamond {
                format!("({inner})")
            } else {
                format!("!({inner})")
            };
            let ask = format!(
                "{base}? M{} ({fact} & {})\n",
                &formula[1..2],
                atoms.join(" & ")
            );
            let scenario = syntax::parse(&ask).unwrap();
            let mut s = Session::new(Options {
                engine,
                ..Options::default()
            });
            let mut answer = None;
            for stmt in &scenario.statements {
                for out in s.execute(stmt, &ask).unwrap() {
                    if let Output::Answer { value, .. } = out {
                        answer = Some(value);
                    }
                }
            }
            assert_eq!(answer, Some(true), "{formula}: witness {place} ({ask})");
        }
    }
}

/// The full-deck Go Fish model (about 7.7e22 worlds) cannot be listed, but
/// its per-card view can: the placements' counts add up to the engine's
/// counts of worlds, `worlds` alone is refused, and `why` agrees with `?`.
#[test]
fn per_card_statements_answer_on_a_model_too_large_to_list() {
    let full = scenario("scenarios/gofish/full-deck.deal");
    let head: String = full
        .lines()
        .take_while(|l| !l.starts_with("stock"))
        .map(|l| format!("{l}\n"))
        .collect();
    let src = format!("{head}ask 1 2 Q\n");
    let scenario = syntax::parse(&src).unwrap();
    let mut s = Session::new(Options {
        engine: Engine::Symbolic,
        ..Options::default()
    });
    for stmt in &scenario.statements {
        s.execute(stmt, &src).unwrap();
    }
    let play = s.playing().unwrap();
    let m = &*play.model;
    assert!(m.listable().is_err());
    let qs = play
        .table
        .deck
        .kinds
        .iter()
        .position(|k| k.name == "QS")
        .unwrap();
    let total: BigUint = m
        .shares(qs, &Among::Reachable, &Formula::Top, 100)
        .unwrap()
        .iter()
        .map(|s| s.worlds.clone())
        .sum();
    assert_eq!(total, m.world_count_big());
    for a in 0..3 {
        let mine = m.shares(qs, &Among::Agent(a), &Formula::Top, 100).unwrap();
        let sum: BigUint = mine.iter().map(|s| s.worlds.clone()).sum();
        assert_eq!(sum, m.considers_big(a), "player {}", a + 1);
        // Player 1 holds QS. Player 3 holds QD and QC and saw QH handed
        // over, so the queen player 1 had to hold to ask is QS; player 2
        // cannot tell QS from QD and QC.
        assert_eq!(mine.len() == 1, a != 1, "player {}: {mine:?}", a + 1);
    }
    let mut ask = |text: &str| -> Vec<String> {
        let stmt = syntax::parse_statement(text).unwrap();
        match s.execute(&stmt[0], text) {
            Ok(out) => out
                .into_iter()
                .flat_map(|o| match o {
                    Output::Lines(l) => l,
                    Output::Answer { value, .. } => vec![value.to_string()],
                    _ => Vec::new(),
                })
                .collect(),
            Err(d) => vec![format!("error[{}]", d.code)],
        }
    };
    assert_eq!(ask("worlds"), vec!["error[too-many-to-list]"]);
    let listing = ask("worlds for AS");
    assert!(listing[0].starts_with("AS lies in 4 way(s)"), "{listing:?}");
    for (formula, card) in [
        ("K1 !hand2(AS)", "AS"),
        ("M3 hand1(AS)", "AS"),
        ("C !hand1(AS)", "AS"),
        ("K2 hand1(QH)", "QH"),
    ] {
        let answer = ask(&format!("? {formula}"));
        let why = ask(&format!("why {formula} for {card}"));
        assert!(
            why[0].starts_with(&format!("{formula} is {} ", answer[0])),
            "{why:?} against {answer:?}"
        );
    }
}

/// Bad input gets a located error, and the session is as it was.
#[test]
fn per_card_refusals_are_located() {
    let src = "game gofish\nplayers 1 2 3\ndeck Q*4 A*4\ndeal 1: Q | 2: Q | 3: A\n";
    let scenario = syntax::parse(src).unwrap();
    let mut s = Session::new(Options::default());
    for stmt in &scenario.statements {
        s.execute(stmt, src).unwrap();
    }
    for (text, code) in [
        ("worlds all where 1_Q for Q", "per-card-whole"),
        ("worlds for 7H", "unknown-card"),
        ("why K9 1_Q for Q", "unknown-player"),
        ("worlds 4 for Q", "unknown-player"),
    ] {
        let stmt = syntax::parse_statement(text).unwrap();
        let err = s.execute(&stmt[0], text).unwrap_err();
        assert_eq!(err.code, code, "{text}: {}", err.message);
        assert!(err.span.end > err.span.start, "{text}");
    }
    let none = "model {\n agents a b\n props p\n world w1: p\n world w2:\n a: {w1 w2}\n b: {w1} {w2}\n actual w1\n}\nwhy K_a p for Q\n";
    let scenario = syntax::parse(none).unwrap();
    let mut s = Session::new(Options::default());
    let mut codes = Vec::new();
    for stmt in &scenario.statements {
        if let Err(d) = s.execute(stmt, none) {
            codes.push(d.code);
        }
    }
    assert_eq!(codes, vec!["no-cards"]);
}
