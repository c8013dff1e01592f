//! Every shipped scenario through every surface: `run`; `export` at the
//! start and at every checkpoint in SVG, PNG, TikZ and DOT; generated
//! quizzes at every level (a heavy scenario at one); the REPL stepping to the end; the web lecture
//! (load, figure and quiz at every step, step to the end). The files are
//! found by walking `scenarios/`, so a new scenario is covered without a
//! line of code. Nothing may panic or answer 5xx; a figure that cannot be
//! drawn must say why (or project), and every answer given is checked.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use axum::http::StatusCode;
use rayon::prelude::*;
use serde_json::{json, Value};

use dealer::interp::question::Answer;
use dealer::interp::quiz::Quiz;
use dealer::interp::{Options, Script, Session};
use dealer::repl::{Item, Repl};
use dealer::syntax::ast::StatementKind;

/// Every `.deal` under `scenarios/`, by path relative to it.
fn shipped() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let mut files = Vec::new();
    common::scenario_files(&root, &mut files);
    assert!(files.len() >= 40, "expected the scenarios, found {files:?}");
    // `DEALER_SWEEP_ONLY=kwartet/full` sweeps the files whose path
    // contains it (to time or debug one file).
    if let Some(only) = std::env::var_os("DEALER_SWEEP_ONLY") {
        let only = only.to_string_lossy().into_owned();
        files.retain(|f| f.to_string_lossy().contains(&only));
    }
    files
}

fn script(path: &Path) -> Script {
    let src = std::fs::read_to_string(path).unwrap();
    Script::parse(&path.display().to_string(), &src)
        .unwrap_or_else(|_| panic!("{} does not parse", path.display()))
}

/// The names of the scenario's checkpoints, in order.
fn checkpoints(script: &Script) -> Vec<String> {
    script
        .statements
        .iter()
        .filter_map(|s| match &s.kind {
            StatementKind::Checkpoint(n) => Some(n.text.to_string()),
            _ => None,
        })
        .collect()
}

/// Whether a scenario is a benchmark (under `scenarios/bench/`) or starts
/// from a symbolic model (a full deck): the generated quiz asks it two
/// questions at one level rather than four at each (the full-deck Kwartet,
/// replayed for each level and explained on its symbolic model, takes
/// seconds a question; the heavy files together still meet every level),
/// and the web lecture does not ask its Ask box's example (a
/// first question may build its deal for longer than the time limit).
/// The web lecture draws it at every step like any other, first, so that
/// the two workers share the long ones.
fn heavy(path: &Path) -> bool {
    if path.starts_with(Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/bench")) {
        return true;
    }
    let script = script(path);
    let mut session = Session::new(Options::default());
    for stmt in &script.statements {
        if dealer::interp::is_move(stmt) || session.execute(stmt, &script.src).is_err() {
            break;
        }
    }
    let _ = session.finish(Default::default());
    session.playing().is_some_and(|p| {
        !matches!(
            p.model.representation(),
            dealer::engine::Representation::Explicit
        )
    })
}

/// Runs dealer's command line in-process; its exit code, or the panic.
fn dealer(args: &[&str]) -> Result<ExitCode, String> {
    let argv: Vec<String> = std::iter::once("dealer")
        .chain(args.iter().copied())
        .map(String::from)
        .collect();
    std::panic::catch_unwind(|| dealer::cli::main_from(argv)).map_err(|p| {
        p.downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default()
    })
}

/// Collects the failures of `check` over every shipped file, two at a time.
fn sweep(check: impl Fn(&Path) -> Vec<String> + Sync) {
    let failures: Vec<String> = shipped()
        .par_iter()
        .flat_map_iter(|path| {
            let started = std::time::Instant::now();
            let failures = check(path);
            if std::env::var_os("DEALER_SWEEP_TIMES").is_some() {
                eprintln!(
                    "{:>7.2}s {}",
                    started.elapsed().as_secs_f64(),
                    path.display()
                );
            }
            failures
                .into_iter()
                .map(move |f| format!("{}: {f}", path.display()))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_scenario_runs() {
    sweep(|path| match dealer(&["run", path.to_str().unwrap()]) {
        Ok(code) if code == ExitCode::SUCCESS => Vec::new(),
        Ok(code) => vec![format!("`dealer run` exited with {code:?}")],
        Err(panic) => vec![format!("`dealer run` panicked: {panic}")],
    });
}

/// What a written figure of each format must start with or contain.
fn looks_like(format: &str, bytes: &[u8]) -> bool {
    let text = String::from_utf8_lossy(bytes);
    match format {
        "svg" => text.contains("<svg") && text.trim_end().ends_with("</svg>"),
        "png" => bytes.starts_with(b"\x89PNG\r\n\x1a\n"),
        "tex" => text.contains("\\begin{tikzpicture}") && text.contains("\\end{tikzpicture}"),
        "dot" => text.starts_with("graph") || text.starts_with("digraph"),
        _ => false,
    }
}

/// `dealer export` at the start and at every checkpoint, in every format
/// of a slide or a page (one replay a point, its four files). Every such
/// figure is drawn: a model too large to draw is projected or drawn as its
/// actual world, with its counts. The one refusal allowed is at the start
/// of a scenario that announces first (its deal is built with the
/// announcement), and it is checked to be that.
#[test]
fn every_scenario_exports_at_its_start_and_every_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    sweep(|path| {
        let script = script(path);
        let name = path
            .strip_prefix(Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios"))
            .unwrap()
            .display()
            .to_string()
            .replace(['/', '.'], "-");
        let mut failures = Vec::new();
        let points = std::iter::once("start".to_string()).chain(checkpoints(&script));
        for (i, at) in points.enumerate() {
            let formats = ["svg", "png", "tex", "dot"];
            let outs: Vec<PathBuf> = formats
                .iter()
                .map(|f| dir.path().join(format!("{name}-{i}.{f}")))
                .collect();
            let mut args = vec!["export", path.to_str().unwrap(), "--at", &at];
            for out in &outs {
                args.extend(["-o", out.to_str().unwrap()]);
            }
            let refusal_allowed = i == 0 && announces_first(&script);
            match dealer(&args) {
                Ok(code) if code == ExitCode::SUCCESS => {
                    for (format, out) in formats.iter().zip(&outs) {
                        let bytes = std::fs::read(out).unwrap_or_default();
                        if !looks_like(format, &bytes) {
                            failures.push(format!("export --at {at:?}: no {format} figure"));
                        }
                    }
                }
                Ok(code) if refusal_allowed && code == ExitCode::from(2) => {
                    if outs.iter().any(|o| o.exists()) {
                        failures.push("a refused export left a file".into());
                    }
                }
                Ok(code) => failures.push(format!("export --at {at:?}: exit {code:?}")),
                Err(panic) => failures.push(format!("export --at {at:?}: panicked: {panic}")),
            }
        }
        failures
    });
}

/// Whether the scenario's first move is an announcement made before any
/// model was built (the deal is built with it).
fn announces_first(script: &Script) -> bool {
    let mut session = Session::new(Options::default());
    for stmt in &script.statements {
        if dealer::interp::is_move(stmt) {
            return session.playing().is_none()
                && matches!(
                    &stmt.kind,
                    StatementKind::Move(m) if matches!(m.kind, dealer::syntax::ast::MoveKind::Announce(_))
                );
        }
        if session.execute(stmt, &script.src).is_err() {
            return false;
        }
    }
    false
}

/// A wrong answer of the sort of `right`.
fn wrong(right: &Answer, players: &[String]) -> String {
    match right {
        Answer::YesNo(b) => if *b { "no" } else { "yes" }.into(),
        Answer::Number(n) => (n + 1u32).to_string(),
        Answer::Players(p) if p.is_empty() => players[0].clone(),
        Answer::Players(_) => "nobody".into(),
    }
}

/// What in a question's text is not in words: a formula's syntax
/// (backquotes, `K_`, `!`, `&`, `|`) or a place's identifier with a number
/// glued to its word (`forehead1`, `hand3`).
fn leak(text: &str) -> Option<String> {
    for syntax in ["`", "K_", "!", "&", "|"] {
        if text.contains(syntax) {
            return Some(syntax.to_string());
        }
    }
    text.split(|c: char| !c.is_alphanumeric())
        .find(|w| {
            let letters = w.chars().take_while(char::is_ascii_lowercase).count();
            letters >= 2 && w[letters..].starts_with(|c: char| c.is_ascii_digit())
        })
        .map(str::to_string)
}

/// Questions generated at every level, answered right and wrong in turn:
/// the quiz counts each as it should; every question is in words
/// ([`leak`]), every explanation too. A scenario the generator has nothing
/// to ask about says why. A [`heavy`] scenario gets two questions a level.
#[test]
fn every_scenario_is_quizzed_at_every_level() {
    use dealer::interp::generate::{generate, Settings};
    sweep(|path| {
        // A heavy scenario gets two questions at one level (the levels
        // shared out among the heavy files by their names): replaying it
        // and explaining on its symbolic model take seconds a question.
        let heavy = heavy(path);
        let count = if heavy { 2 } else { 4 };
        let levels = if heavy {
            let name = path.file_name().map_or(0, |n| n.len()) as u8;
            let level = 1 + name % 3;
            level..=level
        } else {
            1..=3u8
        };
        let script = script(path);
        let mut failures = Vec::new();
        for level in levels {
            let settings = Settings {
                count,
                seed: 1,
                level,
            };
            let generated = match generate(&script, Options::default(), settings) {
                Ok(g) => g.questions,
                Err(d) => {
                    if d.message.is_empty() || d.code.is_empty() {
                        failures.push(format!("level {level}: an error without a message"));
                    }
                    continue;
                }
            };
            let mut quiz = Quiz::new(
                script.clone(),
                Session::new(Options::default()),
                0,
                Some(generated),
            );
            let mut asked = 0;
            loop {
                let question = match quiz.advance() {
                    Ok((_, Some(q))) => q,
                    Ok((_, None)) => break,
                    Err(d) => {
                        failures.push(format!("level {level}: {}", d.message));
                        break;
                    }
                };
                if let Some(leak) = leak(&question.text) {
                    failures.push(format!(
                        "level {level}: {:?} is not in words ({leak})",
                        question.text
                    ));
                }
                let players = quiz.session().playing().unwrap().table.players.clone();
                let give_right = asked % 2 == 0;
                let given = if give_right {
                    question.answer.to_string()
                } else {
                    wrong(&question.answer, &players)
                };
                match quiz.answer(Some(&given)) {
                    Ok(v) if v.right == give_right => {
                        let said = v.lines.join("\n");
                        if said.contains('`') || said.contains("K_") {
                            failures.push(format!(
                                "level {level}: the explanation of {:?} is not in words:\n{said}",
                                question.text
                            ));
                        }
                    }
                    Ok(_) => failures.push(format!(
                        "level {level}: `{given}` to {:?} (answer {}) counted wrongly",
                        question.text, question.answer
                    )),
                    Err(e) => failures.push(format!("level {level}: {e:?}")),
                }
                asked += 1;
            }
            let (right, total) = quiz.score();
            if total != asked || right != asked.div_ceil(2) {
                failures.push(format!(
                    "level {level}: score {right}/{total} after {asked}"
                ));
            }
        }
        failures
    });
}

/// The REPL loads each scenario and steps to its end with `:next`; no
/// step fails, and the position says it is at the end.
#[test]
fn every_scenario_steps_to_its_end_in_the_repl() {
    sweep(|path| {
        let mut repl = Repl::new(Options::default());
        let mut failures = Vec::new();
        let errors = |items: &[Item]| -> Vec<String> {
            items
                .iter()
                .filter_map(|i| match i {
                    Item::Error { diag, .. } => Some(diag.message.clone()),
                    _ => None,
                })
                .collect()
        };
        failures.extend(errors(&repl.load(path.to_str().unwrap())));
        let statements = repl.script().map_or(0, |s| s.statements.len());
        for _ in 0..=statements {
            if repl.prompt().ends_with(":end> ") {
                break;
            }
            failures.extend(errors(&repl.eval(":next")));
            if !failures.is_empty() {
                break;
            }
        }
        if failures.is_empty() && !repl.prompt().ends_with(":end> ") {
            failures.push("`:next` never reached the end".into());
        }
        failures
    });
}

/// The web lecture: load, then at every step the figure and the step's
/// questions (each answered), then a step, to the end. No request answers
/// 5xx; a figure that cannot be drawn is refused with a reason.
#[test]
fn every_scenario_is_lectured_on_the_web() {
    use crate::common::web_call::call;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    // A long time limit: the test build on a loaded 2-core machine loads
    // the largest benchmarks (dc-80) in tens of seconds, where a release
    // build takes under one.
    let app = dealer::web::router(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios"),
        std::time::Duration::from_secs(300),
    );
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    // The heavy scenarios first, then the rest; two workers take the next
    // file as they finish one.
    let mut files: Vec<(bool, PathBuf)> = shipped().into_iter().map(|p| (heavy(&p), p)).collect();
    files.sort_by_key(|(heavy, _)| !heavy);
    let queue = std::sync::Arc::new(std::sync::Mutex::new(files.into_iter()));
    let failures: Vec<String> = runtime.block_on(async {
        let mut all = Vec::new();
        let tasks: Vec<_> = (0..2)
            .map(|_| {
                let app = app.clone();
                let queue = queue.clone();
                let root = root.clone();
                tokio::spawn(async move {
                    let mut failures = Vec::new();
                    loop {
                        let Some((heavy, path)) = queue.lock().unwrap().next() else {
                            break;
                        };
                        let rel = path.strip_prefix(&root).unwrap().display().to_string();
                        let started = std::time::Instant::now();
                        for f in lecture(&app, &rel, !heavy).await {
                            failures.push(format!("{rel}: {f}"));
                        }
                        if std::env::var_os("DEALER_SWEEP_TIMES").is_some() {
                            eprintln!("{:>7.2}s web {rel}", started.elapsed().as_secs_f64());
                        }
                    }
                    failures
                })
            })
            .collect();
        for t in tasks {
            all.extend(t.await.unwrap());
        }
        all
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));

    async fn lecture(app: &axum::Router, rel: &str, ask_example: bool) -> Vec<String> {
        let mut failures = Vec::new();
        let (s, v) = call(app, "POST", "/api/sessions", Some(json!({ "path": rel }))).await;
        if s != StatusCode::OK {
            return vec![format!("load: {s} {v}")];
        }
        let id = v["id"].as_str().unwrap().to_string();
        let statements = v["state"]["statements"].as_array().map_or(0, Vec::len);
        let mut state = v["state"].clone();
        for _ in 0..=statements {
            let (s, fig) = call(app, "GET", &format!("/api/sessions/{id}/figure"), None).await;
            if s.is_server_error() || (s != StatusCode::OK && fig["error"].as_str().is_none()) {
                failures.push(format!("figure at step {}: {s} {fig}", state["step"]));
            }
            // The Ask box's example parses and answers here (not asked of
            // a heavy scenario, whose first question may build its deal
            // for longer than the time limit, in a step the engine cannot
            // stop).
            match state["example"].as_str() {
                Some(example) if ask_example => {
                    let (s, a) = call(
                        app,
                        "POST",
                        &format!("/api/sessions/{id}/query"),
                        Some(json!({ "q": example })),
                    )
                    .await;
                    if s != StatusCode::OK || a["lines"].as_array().is_none_or(Vec::is_empty) {
                        failures.push(format!(
                            "example {example:?} at step {}: {s} {a}",
                            state["step"]
                        ));
                    }
                }
                Some(_) => {}
                None => failures.push("no example query".into()),
            }
            let (s, q) = call(app, "GET", &format!("/api/sessions/{id}/quiz"), None).await;
            if s != StatusCode::OK {
                failures.push(format!("quiz at step {}: {s} {q}", state["step"]));
            }
            for question in q["questions"].as_array().cloned().unwrap_or_default() {
                let index = &question["index"];
                let (s, a) = call(
                    app,
                    "POST",
                    &format!("/api/sessions/{id}/quiz/{index}"),
                    Some(json!({ "given": "yes" })),
                )
                .await;
                if s.is_server_error() {
                    failures.push(format!("answer to {}: {s} {a}", question["text"]));
                }
            }
            if at_end(&state) {
                break;
            }
            let (s, next) = call(app, "POST", &format!("/api/sessions/{id}/step"), None).await;
            if s != StatusCode::OK {
                failures.push(format!("step from {}: {s} {next}", state["step"]));
                break;
            }
            state = next;
        }
        if failures.is_empty() && !at_end(&state) {
            failures.push("stepping never reached the end".into());
        }
        failures
    }

    fn at_end(state: &Value) -> bool {
        let pos = state["pos"].as_u64().unwrap_or(0) as usize;
        pos >= state["statements"].as_array().map_or(0, Vec::len)
    }
}
