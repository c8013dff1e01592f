//! Fixtures shared by the integration tests: replaying a scenario, and
//! checking that a failing statement leaves the session exactly as it was.
// Each test crate uses only some of these helpers.
#![allow(dead_code)]

pub mod browser;
pub mod cli_args;
pub mod load;
pub mod strat_args;
pub mod web_call;

use std::path::{Path, PathBuf};
use std::rc::Rc;

use dealer::diag::{line_col, Diagnostic};
use dealer::engine::deal::DealSpec;
use dealer::engine::Cmp;
use dealer::interp::{Engine, Options, Output, Session};
use dealer::syntax;
use proptest::prelude::*;

/// A quiz scenario on a small Go Fish deal (three players, Q*4 A*4, dealt
/// 1: Q Q | 2: A Q | 3: A A) whose first question is `K1 !2_Q`, followed
/// by the literal `rest`: the whole is a literal too.
#[allow(unused_macros)] // not every test crate has quiz scenarios
macro_rules! quiz_scenario {
    ($rest:literal) => {
        concat!(
            "game gofish\nplayers 1 2 3\ndeck Q*4 A*4\ndeal 1: Q Q | 2: A Q | 3: A A\n",
            "question K1 !2_Q\n",
            $rest
        )
    };
}
#[allow(unused_imports)]
pub(crate) use quiz_scenario;

/// Whether each `expect` among `outputs` held, in order.
pub fn held(outputs: &[Output]) -> Vec<bool> {
    outputs
        .iter()
        .filter_map(|o| match o {
            Output::Expect { held, .. } => Some(*held),
            _ => None,
        })
        .collect()
}

/// Replays a scenario that must succeed; its outputs and the session.
pub fn run(src: &str) -> (Vec<Output>, Session) {
    run_with(src, Options::default())
}

/// [`run`] with the given options.
pub fn run_with(src: &str, options: Options) -> (Vec<Output>, Session) {
    let scenario = syntax::parse(src).unwrap_or_else(|e| panic!("parse error: {e:?}"));
    let engine = options.engine;
    let mut session = Session::new(options);
    let mut outputs = Vec::new();
    for stmt in &scenario.statements {
        let out = session
            .execute(stmt, src)
            .unwrap_or_else(|d| panic!("{engine:?}: {}", d.render("t.deal", src, false)));
        outputs.extend(out);
    }
    (outputs, session)
}

/// Replays `text` on `engine`; every statement must succeed and every
/// expectation hold. How many held, and the session.
pub fn all_held(text: &str, engine: Engine) -> (usize, Session) {
    let (outputs, session) = run_on(text, engine);
    let mut held = 0;
    for o in outputs {
        if let Output::Expect {
            source,
            held: ok,
            detail,
            ..
        } = o
        {
            assert!(ok, "{engine:?}: {source} failed: {detail}\n{text}");
            held += 1;
        }
    }
    (held, session)
}

/// Replays `src` on the explicit and the symbolic engine side by side,
/// every statement succeeding on both; after each statement that leaves
/// both playing, calls `check` with the statement's line and both sessions.
pub fn side_by_side(src: &str, mut check: impl FnMut(usize, &Session, &Session)) {
    let scenario = syntax::parse(src).unwrap_or_else(|e| panic!("parse error: {e:?}"));
    let (mut ex, mut sy) = (session_on(Engine::Explicit), session_on(Engine::Symbolic));
    for stmt in &scenario.statements {
        ex.execute(stmt, src).unwrap();
        sy.execute(stmt, src).unwrap();
        if ex.playing().is_some() && sy.playing().is_some() {
            check(line_col(src, stmt.span.start).0, &ex, &sy);
        }
    }
}

/// A new session on `engine`, every other option the default.
pub fn session_on(engine: Engine) -> Session {
    Session::new(Options {
        engine,
        ..Options::default()
    })
}

/// [`run`] on `engine`.
pub fn run_on(src: &str, engine: Engine) -> (Vec<Output>, Session) {
    run_with(
        src,
        Options {
            engine,
            ..Options::default()
        },
    )
}

/// The answers of `?` and `??` and whether each `expect` held, in order,
/// each with its source text.
pub fn verdicts(outputs: &[Output]) -> Vec<(String, bool)> {
    outputs
        .iter()
        .filter_map(|o| match o {
            Output::Answer { source, value } | Output::Valid { source, value } => {
                Some((source.clone(), *value))
            }
            Output::Expect { source, held, .. } => Some((source.clone(), *held)),
            _ => None,
        })
        .collect()
}

/// The answers of `?` and `??` and whether each `expect` held, in order,
/// when `src` is replayed on `engine` (every statement must succeed).
pub fn answers(src: &str, engine: Engine) -> Vec<bool> {
    verdicts(&run_on(src, engine).0)
        .into_iter()
        .map(|(_, v)| v)
        .collect()
}

/// Runs every statement but the last, then the last, which must fail and
/// change nothing. Returns the error and its `line:col`.
pub fn fails(src: &str) -> (Diagnostic, String) {
    fails_with(src, Options::default())
}

/// [`fails`] with the given session options (an engine, a budget).
pub fn fails_with(src: &str, options: Options) -> (Diagnostic, String) {
    let scenario = syntax::parse(src).unwrap_or_else(|e| panic!("parse error: {e:?}"));
    let (last, before) = scenario.statements.split_last().expect("a statement");
    let mut session = Session::new(options);
    for stmt in before {
        session
            .execute(stmt, src)
            .unwrap_or_else(|d| panic!("{}", d.render("t.deal", src, false)));
    }
    let snapshot = session.clone();
    let err = session
        .execute(last, src)
        .err()
        .or_else(|| session.finish(last.span).err())
        .expect("the last statement should fail");
    assert_unchanged(&snapshot, &session);
    let (line, col) = line_col(src, err.span.start);
    (err, format!("{line}:{col}"))
}

/// A refused input of a table: `(head, tail, code, at, message, help)`,
/// the scenario being `head` followed by `tail`.
pub type Refusal<'a> = (&'a str, &'a str, &'a str, &'a str, &'a str, &'a str);

/// Each case's scenario's last statement is refused with the error `code` and changes
/// nothing (see [`fails`]), at `line:col` `at`, with the `message` and the
/// `help` given ([`fits`]); an empty `at`, `message` or `help` is not
/// checked. A failure names its case's last line. The errors, in order.
pub fn refusals(cases: &[Refusal]) -> Vec<Diagnostic> {
    cases
        .iter()
        .map(|(head, tail, code, at, message, help)| {
            let src = format!("{head}{tail}");
            let case = src.lines().last().unwrap_or_default();
            let (e, got_at) = fails(&src);
            assert_eq!(e.code, *code, "`{case}`: {}", e.message);
            assert!(at.is_empty() || got_at == *at, "`{case}` at {got_at}");
            assert!(fits(&e.message, message), "`{case}`: {}", e.message);
            let got_help = e.help.as_deref().unwrap_or_default();
            assert!(
                help.is_empty() || fits(got_help, help),
                "`{case}`: {got_help}"
            );
            e
        })
        .collect()
}

/// Whether `text` is what `pattern` says: the same text, where a `…` at
/// the start or the end of `pattern` stands for any text there; an empty
/// `pattern` fits any text.
pub fn fits(text: &str, pattern: &str) -> bool {
    match (pattern.strip_prefix('…'), pattern.strip_suffix('…')) {
        _ if pattern.is_empty() => true,
        (Some(tail), Some(_)) => text.contains(tail.strip_suffix('…').unwrap_or(tail)),
        (Some(tail), None) => text.ends_with(tail),
        (None, Some(head)) => text.starts_with(head),
        (None, None) => text == pattern,
    }
}

/// The session's checkpoints, model and game state are those of `before`.
pub fn assert_unchanged(before: &Session, after: &Session) {
    assert_eq!(before.checkpoints(), after.checkpoints());
    match (before.playing(), after.playing()) {
        (None, None) => {}
        (Some(a), Some(b)) => {
            assert!(Rc::ptr_eq(&a.model, &b.model), "the model changed");
            assert_eq!(a.state, b.state, "the game state changed");
        }
        _ => panic!("the session started or stopped"),
    }
}

/// The dealer binary, run in the crate's folder.
pub fn dealer() -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::cargo_bin("dealer").unwrap();
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"));
    cmd
}

/// Exit code, standard output and standard error of `cmd`, run to its end.
pub fn output(cmd: &mut assert_cmd::Command) -> (i32, String, String) {
    let out = cmd.output().unwrap();
    let text = |b: Vec<u8>| String::from_utf8_lossy(&b).into_owned();
    (
        out.status.code().unwrap_or(-1),
        text(out.stdout),
        text(out.stderr),
    )
}

/// Every `.deal` file under `dir`, recursively, in sorted order.
pub fn scenario_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            scenario_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "deal") {
            out.push(path);
        }
    }
}

/// Muddy children as a deal: `n` foreheads of one card each (kind 0 muddy,
/// kind 1 clean), every child muddy and seeing every other forehead; the
/// other `n` cards in a box nobody sees (the last location).
pub fn muddy_deal(n: usize) -> DealSpec {
    let mut actual = vec![vec![1u32, 0]; n];
    actual.push(vec![0, n as u32]);
    let observers = (0..n)
        .map(|i| (0..n).filter(|&j| j != i).collect())
        .collect();
    DealSpec::dealt(vec![n as u32, n as u32], actual, observers)
}

/// The deck as a list of kinds, one entry per copy.
pub fn deck_of(copies: &[u32]) -> Vec<usize> {
    (0..copies.len())
        .flat_map(|k| std::iter::repeat_n(k, copies[k] as usize))
        .collect()
}

/// Any comparison of a count atom.
pub fn any_cmp() -> impl Strategy<Value = Cmp> + Clone {
    prop_oneof![
        Just(Cmp::Lt),
        Just(Cmp::Le),
        Just(Cmp::Eq),
        Just(Cmp::Ne),
        Just(Cmp::Ge),
        Just(Cmp::Gt)
    ]
}

/// Whether a test that needs an outside tool (Graphviz, pdflatex, Chromium,
/// a pseudo-terminal, bash) runs: `true` when the tool is `present`. Without
/// it the test is skipped with a line on stderr, unless
/// `DEALER_REQUIRE_TOOLS=1` (as `.ci/run` sets after installing every tool),
/// when the missing tool fails the test instead of passing silently.
pub fn tool(present: bool, what: &str) -> bool {
    if present {
        return true;
    }
    let required = std::env::var("DEALER_REQUIRE_TOOLS").is_ok_and(|v| v == "1");
    assert!(!required, "DEALER_REQUIRE_TOOLS=1 but {what} is missing");
    eprintln!("skipped: {what} is missing");
    false
}

/// `pdflatex` on the file `main` in `dir`, which must compile; its log.
pub fn pdflatex(dir: &Path, main: &str) -> String {
    let out = std::process::Command::new("pdflatex")
        .args(["-interaction=nonstopmode", "-halt-on-error", main])
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{main}: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    std::fs::read_to_string(dir.join(main.replace(".tex", ".log"))).unwrap()
}
