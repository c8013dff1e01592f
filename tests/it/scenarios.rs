//! Examples are tests: every scenario under `scenarios/` is replayed, and
//! every `expect` in it must hold. Each scenario must state at least one
//! expectation.

use crate::common;

use std::path::Path;

use common::scenario_files;

use dealer::interp::{Options, Output, Session};
use dealer::syntax;

/// Replays a scenario; returns (expectations held, failures as messages).
fn replay(path: &Path) -> (usize, Vec<String>) {
    replay_on(path, Options::default())
}

/// [`replay`] with the given options (an engine).
fn replay_on(path: &Path, options: Options) -> (usize, Vec<String>) {
    let src = std::fs::read_to_string(path).unwrap();
    let file = path.display().to_string();
    let scenario = syntax::parse(&src).unwrap_or_else(|errs| {
        let shown: Vec<String> = errs
            .iter()
            .map(|e| e.to_diagnostic().render(&file, &src, false))
            .collect();
        panic!("{file} does not parse:\n{}", shown.join("\n"))
    });
    let mut session = Session::new(options);
    let (mut held, mut failed) = (0, Vec::new());
    for stmt in &scenario.statements {
        let outputs = session
            .execute(stmt, &src)
            .unwrap_or_else(|d| panic!("{}", d.render(&file, &src, false)));
        for out in outputs {
            if let Output::Expect {
                held: ok,
                source,
                span,
                detail,
            } = out
            {
                if ok {
                    held += 1;
                } else {
                    let (line, col) = dealer::diag::line_col(&src, span.start);
                    failed.push(format!("{file}:{line}:{col}: {source}: {detail}"));
                }
            }
        }
    }
    (held, failed)
}

#[test]
fn every_scenario_holds() {
    let mut files = Vec::new();
    scenario_files(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenarios")
            .as_path(),
        &mut files,
    );
    assert!(files.len() >= 5, "expected the scenarios, found {files:?}");
    let mut failures = Vec::new();
    for path in files.iter().filter(|p| !skipped_here(p)) {
        let (held, failed) = replay(path);
        if held == 0 {
            failures.push(format!("{}: states no expectation", path.display()));
        }
        failures.extend(failed);
    }
    assert!(
        failures.is_empty(),
        "failed expectations:\n{}",
        failures.join("\n")
    );
}

/// The classic puzzles hold on both engines, with the same expectations.
#[test]
fn classics_hold_on_both_engines() {
    let mut files = Vec::new();
    scenario_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/classics"),
        &mut files,
    );
    assert!(files.len() >= 12, "expected the classics, found {files:?}");
    let mut failures = Vec::new();
    for engine in [
        dealer::interp::Engine::Explicit,
        dealer::interp::Engine::Symbolic,
    ] {
        for path in &files {
            let (held, failed) = replay_on(
                path,
                Options {
                    engine,
                    ..Options::default()
                },
            );
            if held == 0 {
                failures.push(format!("{engine:?}: {}: no expectation", path.display()));
            }
            failures.extend(failed.into_iter().map(|f| format!("{engine:?}: {f}")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Scenarios too slow for the unoptimised test build: replayed in full only
/// by `cargo test --release` and by `dealer bench`.
const SLOW_IN_DEBUG: &[&str] = &["bench/muddy-20.deal", "bench/sum-and-product-500.deal"];

/// Scenarios only the symbolic engine can play (their deals are far over
/// any explicit budget): replayed by their own test, in every build.
const SYMBOLIC_ONLY: &[&str] = &[
    "bench/muddy-100.deal",
    "bench/muddy-vars-40.deal",
    "gofish/full-deck.deal",
    "kwartet/full-deck.deal",
];

/// Whether `path` is replayed by another test, or is a slow scenario and
/// this build has debug assertions.
fn skipped_here(path: &Path) -> bool {
    SYMBOLIC_ONLY.iter().any(|s| path.ends_with(s))
        || cfg!(debug_assertions) && SLOW_IN_DEBUG.iter().any(|s| path.ends_with(s))
}

/// The scenarios only the symbolic engine can play hold (that the explicit
/// engine refuses their deals is
/// `engines::symbolic_only_scenarios_are_over_the_explicit_budget`).
#[test]
fn symbolic_only_scenarios_hold() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    for name in SYMBOLIC_ONLY {
        let path = root.join(name);
        let (held, failed) = replay(&path);
        assert!(held > 0 && failed.is_empty(), "{name}: {failed:?}");
    }
}

/// Every benchmark and every slow scenario parses and passes the checking
/// pass (names, moves) in every build.
#[test]
fn slow_scenarios_check() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let mut files = Vec::new();
    scenario_files(&root, &mut files);
    for name in SLOW_IN_DEBUG {
        assert!(
            files.iter().any(|p| p.ends_with(name)),
            "{name} is listed as slow but is not under scenarios/"
        );
    }
    let bench = root.join("bench");
    let slow = |p: &Path| SLOW_IN_DEBUG.iter().any(|s| p.ends_with(s));
    for path in files.iter().filter(|p| p.starts_with(&bench) || slow(p)) {
        let src = std::fs::read_to_string(path).unwrap();
        let file = path.display().to_string();
        let scenario = syntax::parse(&src).unwrap_or_else(|_| panic!("{file} does not parse"));
        let mut session = Session::new(Options {
            check_only: true,
            ..Options::default()
        });
        for stmt in &scenario.statements {
            session
                .execute(stmt, &src)
                .unwrap_or_else(|d| panic!("{}", d.render(&file, &src, false)));
        }
    }
}

#[test]
fn go_fish_checks_every_claim() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/gofish/simplified.deal");
    let (held, failed) = replay(&path);
    assert!(failed.is_empty(), "{failed:?}");
    assert_eq!(held, 53);
}

/// Every code block of the language reference parses (the reference cannot
/// drift from the parser).
#[test]
fn language_reference_examples_parse() {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/language.md"))
            .unwrap();
    let blocks: Vec<&str> = doc.split("```").skip(1).step_by(2).collect();
    assert!(blocks.len() >= 6, "found {} blocks", blocks.len());
    for block in blocks {
        if block.trim_start().starts_with("dealer ") {
            continue; // command lines, not scenario text
        }
        if block.lines().any(|l| l.starts_with("strategy ")) {
            // A strategy (docs/language.md §7), read by its own parser.
            if let Err(d) = dealer::strategy::parse(block) {
                panic!("{}", d.render("language.md", block, false));
            }
            continue;
        }
        if let Err(errs) = syntax::parse(block) {
            let shown: Vec<String> = errs
                .iter()
                .map(|e| e.to_diagnostic().render("language.md", block, false))
                .collect();
            panic!(
                "a docs/language.md example does not parse:\n{}",
                shown.join("\n")
            );
        }
    }
}
