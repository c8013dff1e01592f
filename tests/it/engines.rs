//! The two engines agree: every scenario under `scenarios/` is replayed once
//! with the explicit engine and once with the symbolic one, and every answer
//! is compared statement by statement — query values, validity, every
//! `expect` (formulas and world counts), the notes of every move, and the
//! code of every refusal.
//!
//! Scenarios whose deal the explicit engine refuses (over its budget) are
//! replayed on the symbolic engine alone by `tests/it/scenarios.rs`; they are
//! listed here so that the list cannot go stale.

use crate::common;

use std::path::Path;

use common::scenario_files;

use dealer::engine::Representation;
use dealer::interp::{Engine, Options, Output, Session};
use dealer::syntax;

/// Scenarios too large for the explicit engine (compared nowhere, replayed
/// by `tests/it/scenarios.rs` on the symbolic engine).
const SYMBOLIC_ONLY: &[&str] = &[
    "gofish/full-deck.deal",
    "gofish/private-move.deal",
    "kemps/table3.deal",
    "kwartet/full-deck.deal",
    "bench/muddy-40.deal",
    "bench/muddy-100.deal",
    "bench/muddy-vars-40.deal",
    "bench/dc-40.deal",
    "bench/dc-80.deal",
    // The rules announced first: the deal before them is over the budget.
    "bench/dc-16-announced.deal",
    "bench/dc-80-announced.deal",
    "bench/muddy-40-announced.deal",
];

/// Scenarios too slow for a comparison in the unoptimised test build
/// (compared by `cargo test --release`).
const SLOW_IN_DEBUG: &[&str] = &[
    "bench/muddy-20.deal",
    "bench/sum-and-product-500.deal",
    "bench/kemps-table1.deal",
    "bench/dc-16.deal",
];

/// What a statement answered, in a form both engines must produce alike.
#[derive(Debug, PartialEq, Eq)]
enum Answer {
    Value(String, bool),
    Expect(String, bool, String),
    Moved(String, Vec<String>),
    Refused(String),
    Nothing,
}

/// Replays `src` with `engine`: one answer list per statement.
fn answers(file: &str, src: &str, engine: Engine) -> Vec<(usize, Vec<Answer>)> {
    let scenario = syntax::parse(src).unwrap_or_else(|_| panic!("{file} does not parse"));
    let mut session = crate::common::session_on(engine);
    let mut all = Vec::new();
    for stmt in &scenario.statements {
        let (line, _) = dealer::diag::line_col(src, stmt.span.start);
        let got = match session.execute(stmt, src) {
            Ok(outputs) => outputs.into_iter().map(answer).collect(),
            Err(d) => vec![Answer::Refused(d.code.to_string())],
        };
        all.push((line, got));
    }
    all
}

fn answer(out: Output) -> Answer {
    match out {
        Output::Answer { source, value } | Output::Valid { source, value } => {
            Answer::Value(source, value)
        }
        Output::Expect {
            source,
            held,
            detail,
            ..
        } => Answer::Expect(source, held, detail),
        Output::Moved { source, notes } => Answer::Moved(source, notes),
        // Explanations, world lists, statistics and figures describe the
        // model, not an answer; the engines may number worlds differently.
        _ => Answer::Nothing,
    }
}

fn listed(path: &Path, names: &[&str]) -> bool {
    names.iter().any(|n| path.ends_with(n))
}

#[test]
fn both_engines_answer_every_scenario_alike() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let mut files = Vec::new();
    scenario_files(&root, &mut files);
    for name in SYMBOLIC_ONLY.iter().chain(SLOW_IN_DEBUG) {
        assert!(
            files.iter().any(|p| p.ends_with(name)),
            "{name} is listed but not under scenarios/"
        );
    }
    let mut compared = 0;
    let mut differences = Vec::new();
    for path in &files {
        if listed(path, SYMBOLIC_ONLY) || (cfg!(debug_assertions) && listed(path, SLOW_IN_DEBUG)) {
            continue;
        }
        let file = path.display().to_string();
        let src = std::fs::read_to_string(path).unwrap();
        let explicit = answers(&file, &src, Engine::Explicit);
        let symbolic = answers(&file, &src, Engine::Symbolic);
        assert_eq!(explicit.len(), symbolic.len());
        for ((line, e), (_, s)) in explicit.iter().zip(&symbolic) {
            if e != s {
                differences.push(format!(
                    "{file}:{line}:\n  explicit: {e:?}\n  symbolic: {s:?}"
                ));
            }
        }
        compared += 1;
    }
    assert!(compared >= 15, "compared only {compared} scenarios");
    assert!(
        differences.is_empty(),
        "the engines disagree:\n{}",
        differences.join("\n")
    );
}

/// The explicit engine really does refuse the symbolic-only scenarios (so
/// they are not compared by mistake), and auto picks the symbolic engine.
#[test]
fn symbolic_only_scenarios_are_over_the_explicit_budget() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    for name in SYMBOLIC_ONLY {
        let path = root.join(name);
        let src = std::fs::read_to_string(&path).unwrap();
        let scenario = syntax::parse(&src).unwrap();
        let mut session = common::session_on(Engine::Explicit);
        let refused = scenario
            .statements
            .iter()
            .find_map(|stmt| session.execute(stmt, &src).err())
            .unwrap_or_else(|| panic!("{name}: the explicit engine accepted it"));
        assert_eq!(refused.code, "too-many-worlds", "{name}");
    }
}

/// 4 players, 12 distinct cards, 3 each: 369,600 worlds, over the symbolic
/// engine's listing limit of 200,000.
const KWARTET_3: &str = "game kwartet\nplayers 1 2 3 4\ndeck sets 1..3 of 4\n\
deal 1: <1,1> <2,1> <3,1> | 2: <1,2> <2,2> <3,2> | 3: <1,3> <2,3> <3,3> | 4: <1,4> <2,4> <3,4>\n";

fn session(src: &str, engine: Engine) -> Session {
    let scenario = syntax::parse(src).unwrap();
    let mut session = crate::common::session_on(engine);
    for stmt in &scenario.statements {
        session.execute(stmt, src).unwrap();
    }
    session.finish(scenario.statements[0].span).unwrap();
    session
}

/// On a symbolic model too large to list, statements that list worlds stop
/// with a located error and change nothing; queries and counts still work.
#[test]
fn large_symbolic_models_refuse_to_list_worlds() {
    for (tail, what) in [
        ("why K1 H1<1,1>", "`why`"),
        ("worlds 1", "`worlds`"),
        ("export \"k.svg\"", "a figure"),
    ] {
        let src = format!("{KWARTET_3}? K1 H1<1,1>\n{tail}\n");
        let scenario = syntax::parse(&src).unwrap();
        let (last, before) = scenario.statements.split_last().unwrap();
        let mut session = common::session_on(Engine::Symbolic);
        for stmt in before {
            session.execute(stmt, &src).unwrap();
        }
        let model = session.playing().unwrap().model.clone();
        let err = session.execute(last, &src).unwrap_err();
        assert_eq!(err.code, "too-many-to-list", "{tail}");
        assert!(err.message.starts_with(what), "{}", err.message);
        assert!(std::rc::Rc::ptr_eq(
            &model,
            &session.playing().unwrap().model
        ));
        assert_eq!(dealer::diag::line_col(&src, err.span.start).0, 6);
    }
    let s = session(KWARTET_3, Engine::Symbolic);
    let model = &s.playing().unwrap().model;
    assert_eq!(model.world_count(), 369_600);
    assert_eq!(model.considers(0), 1680);
    assert!(model.counts_exact());
    assert!(matches!(
        model.representation(),
        Representation::Symbolic { .. }
    ));
}

/// `auto` picks the explicit engine within the budget and the symbolic one
/// above it; the budget moves the line.
#[test]
fn auto_picks_the_engine_by_budget_and_cost() {
    let engine_of = |src: &str, max_worlds: u128| {
        let scenario = syntax::parse(src).unwrap();
        let mut session = Session::new(Options {
            max_worlds,
            ..Options::default()
        });
        for stmt in &scenario.statements {
            session.execute(stmt, src).unwrap();
        }
        session.finish(scenario.statements[0].span).unwrap();
        match session.playing().unwrap().model.representation() {
            Representation::Explicit => "explicit",
            Representation::Symbolic { .. } => "symbolic",
        }
    };
    // Over the budget: symbolic, whatever the estimate.
    assert_eq!(engine_of(KWARTET_3, 369_599), "symbolic");
    // A small deal stays explicit.
    let small = "players 1 2 3\ndeck Q*2 A*2 K*2\ndeal 1: Q A | 2: Q K | 3: A K\n";
    assert_eq!(engine_of(small, 10_000_000), "explicit");
    // Muddy children with 20 children: 2^20 worlds, within the budget, but
    // 20 bits for the symbolic engine: symbolic by the estimate.
    let muddy = std::fs::read_to_string("scenarios/bench/muddy-20.deal").unwrap();
    let deal_only: String = muddy
        .lines()
        .take_while(|l| !l.starts_with("expect") && !l.starts_with("announce"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(engine_of(&deal_only, 10_000_000), "symbolic");
    // More cards than the explicit engine holds, one world: symbolic.
    let big = "players 1 2\ndeck Q*300\ndeal 1: Q\n";
    assert_eq!(engine_of(big, 10_000_000), "symbolic");
}

/// The BDD budget is a session's option, kept by each of its models: two
/// sessions of one process with different budgets, used in turn, each
/// build and update their models within their own budget.
#[test]
fn two_sessions_keep_their_own_bdd_budget() {
    use dealer::engine::{BddBudget, SymbolicLimits};
    let src = "players 1 2 3\ndeck A*2 K*2 Q*2\ndeal 1: A K | 2: K Q | 3: Q A\n\
               announce hand1(A)\n? K1 hand3(A)\n";
    let scenario = syntax::parse(src).unwrap();
    let budgets = [BddBudget::Scenario, BddBudget::Game];
    let mut sessions: Vec<Session> = budgets
        .iter()
        .map(|&bdd_budget| {
            Session::new(Options {
                engine: Engine::Symbolic,
                bdd_budget,
                ..Options::default()
            })
        })
        .collect();
    let collects = |s: &Session| match s.playing().unwrap().model.representation() {
        Representation::Symbolic { collect_from, .. } => collect_from,
        Representation::Explicit => panic!("the symbolic engine was asked for"),
    };
    for stmt in &scenario.statements {
        for (session, budget) in sessions.iter_mut().zip(budgets) {
            session.execute(stmt, src).unwrap();
            if session.playing().is_some() {
                let own = SymbolicLimits::for_budget(budget).collect_from;
                assert_eq!(collects(session), own, "{budget:?}");
            }
        }
    }
    assert_ne!(collects(&sessions[0]), collects(&sessions[1]));
}
