//! Checking cases: each scenario is replayed by both engines and compared,
//! statement by statement, with the naive reference; many cases run on
//! every core.

use dealer::interp::{Engine, Output};
use dealer::syntax;
use rayon::prelude::*;

use super::cases::{case, Case, Expect};

/// What one engine said of each statement: an answer, done, or refused
/// (with the error's code).
#[derive(Clone, Debug, PartialEq)]
pub enum Said {
    Done,
    Answer(bool),
    Refused(String),
}

pub fn replay(src: &str, engine: Engine) -> Result<Vec<Said>, String> {
    let scenario = syntax::parse(src).map_err(|e| format!("does not parse: {e:?}"))?;
    let mut session = crate::common::session_on(engine);
    let mut said = Vec::new();
    for stmt in &scenario.statements {
        match session.execute(stmt, src) {
            Err(d) => said.push(Said::Refused(d.render("case.deal", src, false))),
            Ok(outputs) => said.push(
                outputs
                    .iter()
                    .find_map(|o| match o {
                        Output::Answer { value, .. } | Output::Valid { value, .. } => {
                            Some(Said::Answer(*value))
                        }
                        _ => None,
                    })
                    .unwrap_or(Said::Done),
            ),
        }
    }
    Ok(said)
}

/// Checks one case; the message of the first disagreement.
pub fn check(case: &Case) -> Result<(), String> {
    let explicit = replay(&case.src, Engine::Explicit)?;
    // A written model of beliefs is a belief structure on the symbolic
    // engine: it answers every case too.
    let symbolic = replay(&case.src, Engine::Symbolic)?;
    if explicit.len() != case.expected.len() {
        return Err(format!(
            "{} statements, {} expected",
            explicit.len(),
            case.expected.len()
        ));
    }
    for (i, want) in case.expected.iter().enumerate() {
        let (x, s) = (&explicit[i], &symbolic[i]);
        let same_kind = matches!((x, s), (Said::Refused(_), Said::Refused(_))) || x == s;
        if !same_kind {
            return Err(format!(
                "statement {}: explicit {x:?}, symbolic {s:?}",
                i + 1
            ));
        }
        let agrees = match (want, x) {
            (Expect::Done, Said::Done) => true,
            (Expect::Refused, Said::Refused(_)) => true,
            (Expect::Answer(None), Said::Answer(_)) => true,
            (Expect::Answer(Some(v)), Said::Answer(a)) => v == a,
            _ => false,
        };
        if !agrees {
            return Err(format!(
                "statement {}: the engines say {x:?}, the naive reference {want:?}",
                i + 1
            ));
        }
    }
    Ok(())
}

/// Seeds that once failed, replayed first.
pub fn regressions() -> Vec<u64> {
    let text = include_str!("../differential.regressions");
    text.lines()
        .filter_map(|l| l.split('#').next())
        .filter_map(|l| l.trim().parse().ok())
        .collect()
}

/// What a run of many cases found: how many ran, and the failing seeds with
/// their messages and scenarios, in the order of the seeds.
pub struct Report {
    /// The cases checked.
    pub cases: usize,
    /// `(seed, message)` of every failing case, by seed.
    pub failures: Vec<(u64, String)>,
}

/// Checks the seeds on every core. The report does not depend on the
/// number of threads: every seed is checked and failures are sorted.
/// `progress` is called with the running count every `every` cases.
pub fn run_all(seeds: &[u64], every: usize, progress: &(dyn Fn(usize) + Sync)) -> Report {
    let done = std::sync::atomic::AtomicUsize::new(0);
    let mut failures: Vec<(u64, String)> = seeds
        .par_iter()
        .filter_map(|&seed| {
            let c = case(seed);
            let result = check(&c)
                .err()
                .map(|why| (seed, format!("{why}\n{}", c.src)));
            let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            if every > 0 && n.is_multiple_of(every) {
                progress(n);
            }
            result
        })
        .collect();
    failures.sort_by_key(|(seed, _)| *seed);
    Report {
        cases: seeds.len(),
        failures,
    }
}

/// Runs the seeds; panics with the first five failing seeds and their
/// scenarios. The number of cases checked.
pub fn run(seeds: impl Iterator<Item = u64>) -> usize {
    let seeds: Vec<u64> = seeds.collect();
    let report = run_all(&seeds, 0, &|_| {});
    let shown: Vec<String> = report
        .failures
        .iter()
        .take(5)
        .map(|(seed, why)| format!("seed {seed}: {why}"))
        .collect();
    assert!(
        report.failures.is_empty(),
        "{} failing case(s), the first {}:\n\n{}",
        report.failures.len(),
        shown.len(),
        shown.join("\n")
    );
    report.cases
}
