//! Scenarios with variables whose assignments are too many to list: the
//! symbolic engine builds the knowledge structure from the laws and the
//! observations alone (as SMCDEL's observational structures), with no
//! written model. Checked against the explicit engine on every classic
//! scenario with variables (forced onto the structure by a budget of one
//! world) and on muddy children with queries after every round.

use std::path::Path;

use dealer::interp::{Engine, Options, Output, Session};
use dealer::syntax;

/// What a statement answered: a query's value, an expectation's outcome,
/// a move, or the code of a refusal.
#[derive(Debug, PartialEq, Eq)]
enum Answer {
    Value(String, bool),
    Expect(String, bool),
    Moved(String),
    Refused(String),
    Nothing,
}

/// Replays `src` with `options`: one answer list per statement.
fn answers(src: &str, options: Options) -> Vec<(String, Vec<Answer>)> {
    let scenario = syntax::parse(src).expect("the scenario parses");
    let mut session = Session::new(options);
    let mut all = Vec::new();
    for stmt in &scenario.statements {
        let text = src[stmt.span.start..stmt.span.end].to_string();
        let got = match session.execute(stmt, src) {
            Ok(outputs) => outputs
                .into_iter()
                .map(|out| match out {
                    Output::Answer { source, value } | Output::Valid { source, value } => {
                        Answer::Value(source, value)
                    }
                    Output::Expect { source, held, .. } => Answer::Expect(source, held),
                    Output::Moved { source, .. } => Answer::Moved(source),
                    _ => Answer::Nothing,
                })
                .collect(),
            Err(d) => vec![Answer::Refused(d.code.to_string())],
        };
        all.push((text, got));
    }
    all
}

fn listed() -> Options {
    Options {
        engine: Engine::Explicit,
        ..Options::default()
    }
}

/// The symbolic engine with a budget no scenario fits: the structure alone.
fn structure(engine: Engine) -> Options {
    Options {
        engine,
        max_worlds: 1,
        ..Options::default()
    }
}

/// Whether a statement reads the whole model (`expect all worlds`, `worlds all`).
fn reads_all(text: &str) -> bool {
    text.split_whitespace().any(|w| w == "all")
}

#[test]
fn a_structure_alone_answers_every_classic_as_the_explicit_engine() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/classics");
    let mut checked = 0;
    for name in [
        "cheryl.deal",
        "cheryl-age.deal",
        "consecutive-numbers.deal",
        "what-sum.deal",
        "dining-cryptographers.deal",
        "sum-and-product.deal",
    ] {
        let src = std::fs::read_to_string(root.join(name)).unwrap();
        assert!(
            src.lines().any(|l| l.starts_with("var ")),
            "{name} has variables"
        );
        let want = answers(&src, listed());
        for engine in [Engine::Symbolic, Engine::Auto] {
            let got = answers(&src, structure(engine));
            assert_eq!(want.len(), got.len());
            for ((text, w), (_, g)) in want.iter().zip(&got) {
                if reads_all(text) && !w.iter().all(|a| matches!(a, Answer::Refused(_))) {
                    assert_eq!(
                        g,
                        &vec![Answer::Refused("no-whole-model".into())],
                        "{name}: `{text}` needs the whole model, which a structure alone does not keep"
                    );
                    continue;
                }
                assert_eq!(w, g, "{name} ({engine:?}): `{text}`");
                checked += w
                    .iter()
                    .filter(|a| matches!(a, Answer::Value(..) | Answer::Expect(..)))
                    .count();
            }
        }
    }
    assert!(checked >= 30, "only {checked} answers compared");
}

#[test]
fn muddy_children_as_variables_agree_round_by_round() {
    let n = 6;
    let mut src = String::new();
    for line in dealer::cli::gen::muddy_vars(n).lines() {
        src.push_str(line);
        src.push('\n');
        if line.starts_with("announce") {
            // After every announcement: who knows, and what child 1
            // considers about child 2.
            for i in 1..=n {
                src.push_str(&format!("? Kv_{i} m{i}\n"));
            }
            src.push_str("? M_1 (m2 = 0)\n? K_1 K_2 (m3 = 1)\n");
        }
    }
    let want = answers(&src, listed());
    let got = answers(&src, structure(Engine::Symbolic));
    assert_eq!(want, got);
    // The answers are the puzzle's: nobody knows until the last round.
    let knows: Vec<bool> = want
        .iter()
        .flat_map(|(_, a)| a)
        .filter_map(|a| match a {
            Answer::Value(q, v) if q.trim_start_matches('?').trim() == "Kv_1 m1" => Some(*v),
            _ => None,
        })
        .collect();
    let mut expected = vec![false; n];
    expected[n - 1] = true;
    assert_eq!(knows, expected);
    let held = want
        .iter()
        .flat_map(|(_, a)| a)
        .filter(|a| matches!(a, Answer::Expect(_, true)))
        .count();
    assert_eq!(held, 4, "every expectation of the generated scenario holds");
}

#[test]
fn a_structure_alone_refuses_what_the_listing_refused() {
    // A law that speaks of knowledge, at the law.
    let bad_law =
        "players a b\nvar x in 0..3\nlaw K_a x = 1\nactual x = 1\na observes x\n? x = 1\n";
    // Actual values that break a law.
    let bad_actual =
        "players a b\nvar x, y in 0..3\nlaw x < y\nactual x = 2, y = 1\na observes x\n? x = 2\n";
    // Outside the range.
    let out_of_range = "players a b\nvar x in 1..3\nactual x = 0\na observes x\n? x = 0\n";
    for (src, code) in [
        (bad_law, "bad-law"),
        (bad_actual, "bad-actual"),
        (out_of_range, "bad-actual"),
    ] {
        for options in [
            listed(),
            structure(Engine::Symbolic),
            structure(Engine::Auto),
        ] {
            let got = answers(src, options);
            let refused: Vec<&Answer> = got
                .iter()
                .flat_map(|(_, a)| a)
                .filter(|a| matches!(a, Answer::Refused(_)))
                .collect();
            assert_eq!(
                refused.first(),
                Some(&&Answer::Refused(code.into())),
                "{src} with {options:?}"
            );
        }
    }
    // The explicit engine still refuses what it cannot list.
    let big = dealer::cli::gen::muddy_vars(30);
    let got = answers(&big, listed());
    assert!(got
        .iter()
        .flat_map(|(_, a)| a)
        .any(|a| *a == Answer::Refused("too-many-worlds".into())));
}

#[test]
fn muddy_children_with_forty_variables_run_on_the_structure() {
    // 2^40 assignments: far over the default budget, so `auto` builds the
    // structure alone.
    let src = dealer::cli::gen::muddy_vars(40);
    let got = answers(&src, Options::default());
    let expects: Vec<&Answer> = got
        .iter()
        .flat_map(|(_, a)| a)
        .filter(|a| matches!(a, Answer::Expect(..)))
        .collect();
    assert_eq!(expects.len(), 4);
    assert!(
        expects.iter().all(|a| matches!(a, Answer::Expect(_, true))),
        "{expects:?}"
    );
}
