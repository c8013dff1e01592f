//! The quiz: wrong answers are explained by witnesses that are asked again
//! of the model (the world is in the player's or group's class and the
//! formula has the claimed value there); generated questions are seeded,
//! about half true, never the same at every point, and decided by the
//! engine: answering each with the engine's own answer scores N/N, with the
//! opposite 0/N, on both engines and on a full deck; `dealer quiz` reads
//! answers from standard input and writes `--json` and `--out` records.

use assert_cmd::Command;
use dealer::engine::{Backend, GroupAccess};
use dealer::interp::generate::{generate, Settings};
use dealer::interp::question::{Access, Answer, Witness};
use dealer::interp::quiz::{Posed, Quiz};
use dealer::interp::{Engine, Options, Script, Session};

const SECTION2: &str = "scenarios/gofish/scenarios-section2.deal";
const FULL: &str = "scenarios/gofish/full-deck.deal";

fn root() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn script(path: &str) -> Script {
    let src = std::fs::read_to_string(root().join(path)).unwrap();
    Script::parse(path, &src).unwrap()
}

fn options(engine: Engine) -> Options {
    Options {
        engine,
        ..Options::default()
    }
}

/// The worlds of `access` in the actual world of `model`, asked of the model.
fn class(model: &dyn Backend, access: &Access) -> Vec<usize> {
    match access {
        Access::Player(a) => model.accessible(*a, model.actual()),
        Access::Group(g, agents) => model.group_accessible(*g, agents, model.actual()),
    }
}

/// Re-asks a witness of the model; panics with `what` when it does not hold.
fn check_witness(model: &dyn Backend, w: &Witness, what: &str) {
    match w {
        Witness::World {
            access,
            world,
            formula,
            value,
        } => {
            assert!(
                class(model, access).contains(world),
                "{what}: w{world} not in {access:?}"
            );
            assert_eq!(
                model.eval_at(formula, *world).unwrap(),
                *value,
                "{what}: at w{world}"
            );
        }
        Witness::Every {
            access,
            formula,
            value,
        } => {
            let ws = class(model, access);
            assert!(!ws.is_empty(), "{what}: an empty class");
            for v in ws {
                assert_eq!(
                    model.eval_at(formula, v).unwrap(),
                    *value,
                    "{what}: at w{v}"
                );
            }
        }
        Witness::Actual { formula, value } => {
            assert_eq!(model.eval_actual(formula).unwrap(), *value, "{what}");
        }
    }
}

/// A wrong answer of the same sort as `right`.
fn wrong(right: &Answer, players: &[String]) -> String {
    match right {
        Answer::YesNo(v) => if *v { "n" } else { "y" }.to_string(),
        Answer::Number(n) => (n + 1u32).to_string(),
        Answer::Players(p) if p.is_empty() => players.join(" "),
        Answer::Players(_) => "nobody".to_string(),
    }
}

/// Asks every question of `quiz`, each answered wrong, and checks every
/// witness against the model of the state the question is asked in.
/// Returns how many witnesses were checked.
fn answer_wrong_and_check(mut quiz: Quiz) -> usize {
    let mut checked = 0;
    loop {
        let (_, asked) = quiz.advance().unwrap();
        let Some(asked) = asked else { break };
        let play = quiz.session().playing().unwrap().clone();
        let model = play.model.clone();
        let players = play.table.players.clone();
        let given = wrong(&asked.answer, &players);
        let verdict = quiz.answer(Some(&given)).unwrap();
        assert!(
            !verdict.right,
            "{}: {given} was taken as right",
            asked.formula
        );
        assert!(verdict.lines[0].contains(&asked.answer.to_string()));
        for w in &verdict.witnesses {
            check_witness(&*model, w, &asked.formula);
            checked += 1;
        }
        // The shown world is the witness's world.
        for w in &verdict.witnesses {
            if let Witness::World { world, .. } = w {
                let line = dealer::interp::explain::world_line(
                    &play.table,
                    &play.props,
                    None,
                    &*model,
                    *world,
                );
                // Alone on its line, or the last step of a chain.
                assert!(
                    verdict
                        .lines
                        .iter()
                        .any(|l| l.trim() == line || l.ends_with(&format!(":  {line}"))),
                    "{line} not shown"
                );
            }
        }
        // A yes-or-no question's top operator is decided by its witness:
        // K false has a world where the operand fails, and so on.
        if let (Answer::YesNo(v), Some(top)) = (&asked.answer, asked.formula.get(..2)) {
            if top.starts_with('K') && !top.starts_with("Kw") && !*v {
                assert!(
                    verdict
                        .witnesses
                        .iter()
                        .any(|w| matches!(w, Witness::World { value: false, .. })),
                    "{}: no counterexample world",
                    asked.formula
                );
            }
            if top.starts_with('C') && !*v {
                assert!(verdict.witnesses.iter().any(|w| matches!(
                    w,
                    Witness::World {
                        access: Access::Group(GroupAccess::Common, _),
                        value: false,
                        ..
                    }
                )));
            }
        }
    }
    let (right, asked) = quiz.score();
    assert_eq!(right, 0);
    assert!(asked > 0);
    checked
}

const OWN: &str = crate::common::quiz_scenario!(
    "\
question Kw1 hand2(A)
question M3 1_QQQ
question C hand1 = 2
question C !3_Q
question D{1,2} !3_Q
question E hand1(Q)
question !K2 1_QQ
question considers 1
question worlds where 2_Q
question who knows !1_A
ask 1 2 Q
question who knows 2_A
question K3 K1 hand3(A)
question Kw2 3_AA
"
);

#[test]
fn witnesses_of_wrong_answers_hold_in_the_model() {
    let own = Script::parse("own.deal", OWN).unwrap();
    let mut total = 0;
    for engine in [Engine::Explicit, Engine::Symbolic] {
        total += answer_wrong_and_check(Quiz::new(
            own.clone(),
            Session::new(options(engine)),
            0,
            None,
        ));
        for level in 1..=3 {
            let s = script(SECTION2);
            let settings = Settings {
                count: 12,
                seed: 7,
                level,
            };
            let generated = generate(&s, options(engine), settings).unwrap().questions;
            total += answer_wrong_and_check(Quiz::new(
                s,
                Session::new(options(engine)),
                0,
                Some(generated),
            ));
        }
    }
    assert!(total > 100, "only {total} witnesses checked");
}

/// The generated questions' formulas with the line they are asked at.
fn generated(
    path: &str,
    engine: Engine,
    seed: u64,
    level: u8,
    count: usize,
) -> Vec<(usize, String)> {
    let s = script(path);
    generate(&s, options(engine), Settings { count, seed, level })
        .unwrap()
        .questions
        .into_iter()
        .map(|(i, p)| (i, p.src.clone()))
        .collect()
}

#[test]
fn generated_questions_are_seeded_and_balanced() {
    for level in 1..=3 {
        let a = generated(SECTION2, Engine::Explicit, 11, level, 10);
        assert_eq!(
            a,
            generated(SECTION2, Engine::Explicit, 11, level, 10),
            "same seed"
        );
        // The symbolic engine's questions may differ: the generator
        // spends less on a symbolic model and tests common knowledge there
        // more cheaply; they are as many.
        assert_eq!(
            generated(SECTION2, Engine::Symbolic, 11, level, 10).len(),
            10,
            "as many on the symbolic engine"
        );
        assert_ne!(
            a,
            generated(SECTION2, Engine::Explicit, 12, level, 10),
            "another seed"
        );
        assert_eq!(a.len(), 10);
        // Each question's answer at every move and checkpoint, on the other
        // engine, through `question` statements replayed as the file's own.
        let s = script(SECTION2);
        let mut yes = 0;
        let mut yes_no = 0;
        for (index, text) in &a {
            let posed = Posed::parse(text, 0).unwrap();
            let mut session = Session::new(options(Engine::Symbolic));
            let mut answers = Vec::new();
            let mut at_index = None;
            for (i, stmt) in s.statements.iter().enumerate() {
                session.execute(stmt, &s.src).unwrap();
                let point = matches!(
                    stmt.kind,
                    dealer::syntax::ast::StatementKind::Move(_)
                        | dealer::syntax::ast::StatementKind::Checkpoint(_)
                );
                if point {
                    let ans = session
                        .ask_question(&posed.question, posed.span, &posed.src)
                        .unwrap()
                        .answer;
                    if i == *index {
                        at_index = Some(ans.clone());
                    }
                    answers.push(ans);
                }
            }
            let _ = answers;
            if let Some(Answer::YesNo(v)) = at_index {
                yes_no += 1;
                yes += usize::from(v);
            }
        }
        assert!(yes_no > 0);
        // At level 1 a player of this Go Fish game rarely knows a fact
        // about another's hand that is not common knowledge: the questions
        // worth asking are mostly answered no.
        assert!(
            level == 1 || (5 * yes >= yes_no && 5 * yes <= 4 * yes_no),
            "level {level}: {yes} of {yes_no} true"
        );
    }
}

/// The shipped game and classic scenarios, but for the full decks and the
/// private Go Fish move (seconds a level; their measurement is in
/// docs/play.md).
const MEASURED: &[&str] = &[
    "scenarios/cabo/depth.deal",
    "scenarios/classics/cheryl.deal",
    "scenarios/classics/cheryl-age.deal",
    "scenarios/classics/consecutive-numbers.deal",
    "scenarios/classics/coordinated-attack.deal",
    "scenarios/classics/dining-cryptographers.deal",
    "scenarios/classics/explicit-model.deal",
    "scenarios/classics/muddy-children.deal",
    "scenarios/classics/russian-cards.deal",
    "scenarios/classics/sally-anne.deal",
    "scenarios/classics/sum-and-product.deal",
    "scenarios/classics/what-sum.deal",
    "scenarios/classics/wise-men.deal",
    "scenarios/classics/wise-men-blind.deal",
    "scenarios/gofish/simplified.deal",
    "scenarios/gofish/scenarios-section2.deal",
    "scenarios/kemps/sixes-small.deal",
    "scenarios/kemps/sixes.deal",
    "scenarios/kemps/table1.deal",
    "scenarios/kemps/table3.deal",
    "scenarios/konigrufen/highest-trump.deal",
    "scenarios/konigrufen/teams.deal",
    "scenarios/kwartet/axioms.deal",
    "scenarios/kwartet/last-card.deal",
];

/// Whether a formula's text names no knowledge operator.
fn knowledge_free(f: &str) -> bool {
    let b = f.as_bytes();
    !(0..b.len()).any(|i| {
        let start = i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
        let op = matches!(b[i], b'K' | b'M' | b'C' | b'E' | b'D' | b'B');
        let next = b.get(i + 1).copied().unwrap_or(b' ');
        start
            && op
            && (next.is_ascii_digit()
                || next == b'_'
                || next == b'w'
                || next == b' '
                || next == b'{')
    })
}

/// Over the shipped explicit game and classic scenarios, levels 1-3: each
/// gets at least 5 of 10 generated questions, and no "does A know
/// (whether) φ" question (φ free of knowledge) is answered by the facts
/// alone: φ false under `K`, or φ or its negation common knowledge, as
/// the engine says at the point the question is asked.
#[test]
fn generated_questions_need_reasoning_about_knowledge() {
    let mut plain = 0;
    let mut by_facts = Vec::new();
    // Seed 1 in the test; `DEALER_MEASURE_SEEDS=5` measures seeds 1-5.
    let seeds: u64 = std::env::var("DEALER_MEASURE_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let mut least = usize::MAX;
    // `DEALER_MEASURE_ALL=1` adds the full decks and the private move.
    let heavy: &[&str] = if std::env::var_os("DEALER_MEASURE_ALL").is_some() {
        &[
            "scenarios/gofish/full-deck.deal",
            "scenarios/gofish/private-move.deal",
            "scenarios/kwartet/full-deck.deal",
        ]
    } else {
        &[]
    };
    for path in MEASURED.iter().chain(heavy) {
        for (level, seed) in (1..=3u8).flat_map(|l| (1..=seeds).map(move |s| (l, s))) {
            let s = script(path);
            let g = generate(
                &s,
                options(Engine::Auto),
                Settings {
                    count: 10,
                    seed,
                    level,
                },
            )
            .unwrap();
            least = least.min(g.questions.len());
            assert!(
                g.questions.len() >= 5,
                "{path} level {level}: {} questions ({:?})",
                g.questions.len(),
                g.note
            );
            let mut quiz = Quiz::new(s, Session::new(options(Engine::Auto)), 0, Some(g.questions));
            while let (_, Some(asked)) = quiz.advance().unwrap() {
                let f = asked.formula.trim();
                let form = if let Some(rest) = f.strip_prefix("Kw") {
                    Some((false, rest))
                } else {
                    f.strip_prefix('K').map(|rest| (true, rest))
                };
                if let Some((knows_that, rest)) = form {
                    if let Some((_, phi)) = rest.split_once(' ') {
                        if knowledge_free(phi) {
                            plain += 1;
                            let holds = |t: &str| {
                                quiz.session()
                                    .holds(&dealer::syntax::parse_formula(t).unwrap())
                                    .unwrap()
                            };
                            let trivial = (knows_that && !holds(phi))
                                || holds(&format!("C ({phi})"))
                                || holds(&format!("C !({phi})"));
                            if trivial {
                                by_facts.push(format!("{path} level {level}: {f}"));
                            }
                        }
                    }
                }
                quiz.answer(Some(&asked.answer.to_string())).unwrap();
            }
        }
    }
    println!(
        "{} of {plain} \"does A know (whether) φ\" questions answered by the facts alone; at least {least} questions a scenario and level",
        by_facts.len()
    );
    assert!(plain >= 50, "only {plain} questions of the form K_a φ");
    assert!(
        10 * by_facts.len() <= plain,
        "{} of {plain} answered by the facts alone: {by_facts:#?}",
        by_facts.len()
    );
}

/// `dealer quiz ARGS` with `input` on stdin: (stdout, exit code).
fn quiz_cli(args: &[&str], input: &str) -> (String, i32) {
    let out = Command::cargo_bin("dealer")
        .unwrap()
        .current_dir(root())
        .env("NO_COLOR", "1")
        .arg("quiz")
        .args(args)
        .write_stdin(input)
        .output()
        .unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

fn records(json: &str) -> Vec<serde_json::Value> {
    let v: serde_json::Value = serde_json::from_str(json).unwrap();
    v["records"].as_array().unwrap().clone()
}

/// N/N with the engine's answers and 0/N with the opposite ones.
fn engine_answers_score_all(path: &str, engine: &str, level: &str) {
    let base = [
        "--generate",
        "10",
        "--seed",
        "5",
        "--level",
        level,
        "--engine",
        engine,
        "--json",
    ];
    let mut args = vec![path];
    args.extend(base);
    // Levels 1 and 2 ask yes or no: a `y` to each question reads every
    // answer (the end of the answers would stop the quiz).
    let (first, code) = quiz_cli(&args, &"y\n".repeat(10));
    assert_eq!(code, 0);
    let recs = records(&first);
    assert!(recs.len() >= 6, "{path}: {} questions", recs.len());
    let expected: Vec<String> = recs
        .iter()
        .map(|r| r["expected"].as_str().unwrap().to_string())
        .collect();
    let yes_no: Vec<&String> = expected
        .iter()
        .filter(|e| *e == "yes" || *e == "no")
        .collect();
    assert_eq!(yes_no.len(), expected.len(), "levels 1 and 2 ask yes or no");
    let right: String = expected.iter().map(|e| format!("{e}\n")).collect();
    let (out, _) = quiz_cli(&args, &right);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["right"], v["asked"]);
    assert_eq!(v["asked"].as_u64().unwrap() as usize, recs.len());
    let opposite: String = expected
        .iter()
        .map(|e| if e == "yes" { "no\n" } else { "yes\n" })
        .collect();
    let (out, _) = quiz_cli(&args, &opposite);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["right"], 0);
    for r in records(&out) {
        assert_eq!(r["right"], false);
        assert_ne!(r["given"], r["expected"]);
    }
}

#[test]
fn engine_answers_score_all_on_both_engines() {
    for engine in ["explicit", "symbolic"] {
        for level in ["1", "2"] {
            engine_answers_score_all(SECTION2, engine, level);
        }
    }
}

#[test]
fn engine_answers_score_all_on_a_full_deck() {
    engine_answers_score_all(FULL, "symbolic", "1");
}

#[test]
fn a_file_without_questions_says_so() {
    let out = Command::cargo_bin("dealer")
        .unwrap()
        .current_dir(root())
        .args(["quiz", "scenarios/gofish/simplified.deal"])
        .write_stdin("")
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .ends_with("score 0/0\n"));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("has no `question` statement"), "{err}");
    assert!(err.contains("--generate N"), "{err}");
}

/// A folder holding the scenario `src` as `name.deal`, and that file.
fn scenario_file(name: &str, src: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(format!("{name}.deal"));
    std::fs::write(&file, src).unwrap();
    (dir, file)
}

/// `dealer quiz` on the scenario `src` (written as `name.deal`) with
/// `answers` on its input and `--out sheet.csv`: the folder, the
/// scenario's path, the sheet's path, the output and the exit code.
fn quiz_to_sheet(
    name: &str,
    src: &str,
    answers: &str,
) -> (tempfile::TempDir, String, std::path::PathBuf, String, i32) {
    let (dir, file) = scenario_file(name, src);
    let sheet = dir.path().join("sheet.csv");
    let f = file.to_str().unwrap().to_string();
    let (out, code) = quiz_cli(&[&f, "--out", sheet.to_str().unwrap()], answers);
    (dir, f, sheet, out, code)
}

#[test]
fn the_quiz_reads_answers_and_writes_records() {
    // K1 !2_Q is false: `n` is right, and `maybe` cannot be read (wrong).
    // The answers end there: the quiz stops, its score is of the two
    // questions answered, and the twelve not reached are not recorded.
    let (_dir, f, sheet, out, code) = quiz_to_sheet("own", OWN, "n\nmaybe\n");
    assert_eq!(code, 0);
    assert!(
        out.contains("Q1. Does player 1 know that player 2 holds no Q?"),
        "{out}"
    );
    assert!(out.contains("`maybe`: answer y or n"), "{out}");
    assert!(!out.contains("Q4."), "{out}");
    assert_eq!(
        out.lines().last().unwrap(),
        format!(
            "stopped: end of input; score 1/2 of the questions answered, kept in {}",
            sheet.display()
        )
    );
    let csv = std::fs::read_to_string(&sheet).unwrap();
    let mut rows = csv.lines();
    assert_eq!(
        rows.next().unwrap(),
        "step,line,question,formula,expected,given,right,tries"
    );
    assert_eq!(
        rows.next().unwrap(),
        "0,5,Does player 1 know that player 2 holds no Q?,K1 !2_Q,no,no,true,1"
    );
    assert!(rows.next().unwrap().ends_with(",no,maybe,false,1"));
    assert_eq!(csv.lines().count(), 3);
    let (json, code) = quiz_cli(&[&f, "--json"], "no\nno\nno\n");
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["stopped"], "stopped: end of input");
    let recs = records(&json);
    assert_eq!(recs.len(), 3);
    assert_eq!(recs[0]["step"], 0);
    assert_eq!(recs[0]["formula"], "K1 !2_Q");
    assert_eq!(recs[2]["given"], "no");
    assert_eq!(recs[2]["right"], true);
    // An answer to every question: the quiz runs to its end.
    let (out, code) = quiz_cli(&[&f], &"n\n".repeat(14));
    assert_eq!(code, 0);
    assert!(
        out.contains("player 1 asks player 2 for a queen"),
        "the move is said in words: {out}"
    );
    assert!(!out.contains(">>"), "no narration by default: {out}");
    assert!(out.lines().last().unwrap().starts_with("score "), "{out}");
    let (json, _) = quiz_cli(&[&f, "--json"], &"n\n".repeat(14));
    let recs = records(&json);
    assert_eq!(recs.len(), 14);
    assert_eq!(recs[11]["step"], 1, "after the ask");
    assert_eq!(recs[11]["expected"], "1 2 3");
}

/// `quit` (or `:q`) stops the quiz: the score is of the questions
/// answered, and a `--out` file named `.json` holds them, written whole
/// after each answer, with why the quiz stopped.
#[test]
fn quit_keeps_the_score_of_the_questions_answered() {
    let (dir, file) = scenario_file("own", OWN);
    let f = file.to_str().unwrap();
    let sheet = dir.path().join("sheet.json");
    let (out, code) = quiz_cli(&[f, "--out", sheet.to_str().unwrap()], "n\ny\nquit\nn\n");
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("Q2."), "{out}");
    assert!(!out.contains("Q4."), "{out}");
    assert!(
        out.contains("stopped: quit; score 1/2 of the questions answered"),
        "{out}"
    );
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&sheet).unwrap()).unwrap();
    assert_eq!(v["schema"], "dealer-quiz/1");
    assert_eq!(v["asked"], 2);
    assert_eq!(v["right"], 1);
    assert_eq!(v["stopped"], "stopped: quit");
    let recs = v["records"].as_array().unwrap();
    assert_eq!(recs[1]["formula"], "Kw1 hand2(A)");
    assert_eq!(recs[1]["given"], "yes");
    assert!(!dir.path().join("sheet.json.part").exists());
    let (out, _) = quiz_cli(&[f], "y\n:q\n");
    assert!(
        out.contains("stopped: quit; score 0/1 of the questions answered"),
        "{out}"
    );
    // An unwritable `.json` is refused before the first question too.
    let bad = dir.path().join("no such folder").join("sheet.json");
    let (out, code) = quiz_cli(&[f, "--out", bad.to_str().unwrap()], "n\n");
    assert_eq!(code, 2);
    assert!(!out.contains("Q1."), "{out}");
}

/// A belief structure held symbolically (a card moved while a player
/// looks away, in a full deck) is quizzed wherever `dealer run` answers
/// its questions: the answer is checked, and the explanation says why it
/// shows no worlds.
#[test]
fn a_belief_model_can_be_quizzed() {
    let src = std::fs::read_to_string(root().join("scenarios/gofish/private-move.deal")).unwrap();
    let upto: String = src
        .lines()
        .take_while(|l| !l.starts_with("expect 3(QS)"))
        .map(|l| format!("{l}\n"))
        .collect();
    let text = format!("{upto}question B1 2(QS)\nquestion K2 3(QS)\n");
    let script = Script::parse("private.deal", &text).unwrap();
    let mut quiz = Quiz::new(script, Session::new(options(Engine::Auto)), 0, None);
    let (events, asked) = quiz.advance().unwrap();
    assert!(events.len() >= 4, "{events:?}");
    let asked = asked.unwrap();
    assert_eq!(asked.text, "Does player 1 believe that player 2 holds QS?");
    assert_eq!(asked.answer, Answer::YesNo(true));
    let verdict = quiz.answer(Some("n")).unwrap();
    assert!(!verdict.right);
    assert_eq!(verdict.lines[0], "the answer is yes");
    let (_, asked) = quiz.advance().unwrap();
    assert_eq!(asked.unwrap().answer, Answer::YesNo(true));
    assert!(quiz.answer(Some("y")).unwrap().right);
    assert_eq!(quiz.score(), (1, 2));
}

/// A scenario whose third statement after its questions fails: a false
/// announcement.
const FAILS_LATER: &str = crate::common::quiz_scenario!(
    "\
question Kw1 hand2(A)
announce hand1(A)
question K3 K1 hand3(A)
"
);

/// An `--out` that cannot be written is refused before the first
/// question is asked.
#[test]
fn an_unwritable_sheet_is_refused_before_any_question() {
    let (dir, file) = scenario_file("own", OWN);
    let sheet = dir.path().join("no such folder").join("sheet.csv");
    let out = Command::cargo_bin("dealer")
        .unwrap()
        .env("NO_COLOR", "1")
        .args(["quiz", file.to_str().unwrap(), "--out"])
        .arg(&sheet)
        .write_stdin("n\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(!stdout.contains("Q1."), "{stdout}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("cannot write") && err.contains("sheet.csv"),
        "{err}"
    );
}

/// A step that fails after some questions stops the quiz with the score
/// of what was answered; the sheet holds every answer, and cells that a
/// spreadsheet would read as formulas start with `'`.
#[test]
fn an_error_later_keeps_every_answer_given() {
    let (dir, f, sheet, out, code) = quiz_to_sheet("fails", FAILS_LATER, "n\n=1+1\n");
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("stopped by an error: announce hand1(A)"),
        "{out}"
    );
    assert!(out.contains("score 1/2"), "{out}");
    assert!(!out.contains("Q3."), "{out}");
    let csv = std::fs::read_to_string(&sheet).unwrap();
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows.len(), 3, "{csv}");
    assert!(rows[1].ends_with(",no,no,true,1"), "{csv}");
    assert!(rows[2].ends_with(",no,'=1+1,false,1"), "{csv}");
    let (json, code) = quiz_cli(&[&f, "--json"], "n\ny\n");
    assert_eq!(code, 2);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["records"].as_array().unwrap().len(), 2);
    assert_eq!(v["right"], 1);
    assert!(
        v["stopped"].as_str().unwrap().contains("announce"),
        "{json}"
    );
    // A quiz that runs to its end has no `stopped`.
    let own = dir.path().join("own.deal");
    std::fs::write(&own, OWN).unwrap();
    let (json, code) = quiz_cli(&[own.to_str().unwrap(), "--json"], &"n\n".repeat(14));
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert!(v.get("stopped").is_none(), "{json}");
}

/// Ctrl-C while a question waits for its answer stops the quiz with the
/// score so far; the sheet was written as each answer came and keeps
/// them.
#[cfg(unix)]
#[test]
fn an_interrupt_keeps_every_answer_given() {
    use std::io::Write;
    use std::process::Stdio;
    let (dir, file) = scenario_file("own", OWN);
    let sheet = dir.path().join("sheet.csv");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("dealer"))
        .env("NO_COLOR", "1")
        .args(["quiz", file.to_str().unwrap(), "--out"])
        .arg(&sheet)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"n\n+3\n").unwrap();
    stdin.flush().unwrap();
    // Both answers are on the sheet before the quiz ends.
    let started = std::time::Instant::now();
    let rows = loop {
        let csv = std::fs::read_to_string(&sheet).unwrap_or_default();
        if csv.lines().count() == 3 || started.elapsed().as_secs() > 20 {
            break csv;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert_eq!(rows.lines().count(), 3, "{rows}");
    assert!(
        rows.lines().nth(2).unwrap().contains(",'+3,false"),
        "{rows}"
    );
    // SAFETY: a signal to the child this test started.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGINT);
    }
    let out = child.wait_with_output().unwrap();
    drop(stdin);
    assert_eq!(out.status.code(), Some(130));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.contains("stopped: interrupted; score 1/2 of the questions answered"),
        "{stdout}"
    );
    assert_eq!(std::fs::read_to_string(&sheet).unwrap(), rows);
}

/// Every exercise file under `scenarios/exercises/`, by walking the folder.
fn exercise_files() -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(root().join("scenarios/exercises"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "deal"))
        .map(|p| {
            p.strip_prefix(root())
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    files.sort();
    assert!(files.len() >= 3, "{files:?}");
    files
}

/// What a question's answer says in words, yes and no (`player 1 knows
/// whether ...`, `it is not the case that ...`): the text that would give
/// it away if it were printed before the question.
fn answer_words(session: &Session, formula: &str) -> Vec<String> {
    let Ok(posed) = Posed::parse(&format!("question {formula}"), 0) else {
        return Vec::new();
    };
    let dealer::syntax::ast::Ask::YesNo(f) = &posed.question.ask else {
        return Vec::new();
    };
    let play = session.playing().unwrap();
    let phi = session.formula(f).unwrap();
    let not = dealer::engine::Formula::Not(Box::new(phi.clone()));
    [phi, not]
        .iter()
        .filter_map(|x| dealer::interp::wording::words(&play.table, &play.props, x))
        .collect()
}

/// The shipped exercises are not given away by what the quiz prints before
/// each question: no narration (off by default, and each of its lines is
/// looked for), no statement in the scenario language, no card of a place
/// nobody sees, and not the question's answer in words. The quiz opens
/// with the file's comment and the deal; `--narrate` brings narration
/// back.
#[test]
fn the_exercises_are_not_given_away_before_their_questions() {
    for file in exercise_files() {
        // The questions, their answers and the narration, in-process.
        let mut quiz = Quiz::new(script(&file), Session::new(Options::default()), 0, None);
        quiz.set_narrate(true);
        let opening = quiz.opening().unwrap();
        let mut narration = Vec::new();
        let mut asked = Vec::new();
        loop {
            let (events, question) = quiz.advance().unwrap();
            for e in events {
                if let dealer::interp::quiz::Event::Moved {
                    narration: n,
                    said,
                    source,
                    ..
                } = e
                {
                    narration.extend(n);
                    assert!(!said.contains('`'), "{file}: {said}");
                    if source.starts_with("announce") || source.starts_with("ask") {
                        assert_ne!(said, source, "{file}: a move said as written");
                    }
                }
            }
            let Some(q) = question else { break };
            let words = answer_words(quiz.session(), &q.formula);
            let answer = q.answer.to_string();
            assert!(quiz.answer(Some(&answer)).unwrap().right);
            asked.push((q.text.clone(), words, answer));
        }
        assert!(asked.len() >= 5, "{file}");
        assert!(
            !narration.is_empty(),
            "{file}: the moves make something known"
        );
        let src = std::fs::read_to_string(root().join(&file)).unwrap();
        let first_comment = src.lines().next().unwrap().trim_start_matches("# ");
        assert_eq!(opening[0], first_comment, "{file}");
        assert!(
            opening.iter().any(|l| l == "The deal, as you may see it:"),
            "{file}: {opening:#?}"
        );
        // The quiz as a student takes it, every answer right.
        let input: String = asked.iter().map(|(_, _, a)| format!("{a}\n")).collect();
        let (out, code) = quiz_cli(&[&file], &input);
        assert_eq!(code, 0, "{file}: {out}");
        assert!(
            out.ends_with(&format!("score {n}/{n}\n", n = asked.len())),
            "{file}: {out}"
        );
        let mut shown = String::new();
        let mut n = 0;
        for line in out.lines() {
            if line.starts_with(&format!("Q{}. ", n + 1)) {
                let (text, words, _) = &asked[n];
                assert!(line.contains(text.as_str()), "{file}: {line}");
                for l in &narration {
                    assert!(!shown.contains(l.as_str()), "{file}: narrated `{l}`");
                }
                for w in words {
                    assert!(
                        !shown.contains(w.as_str()),
                        "{file}: Q{} ({text}) given away by `{w}` in\n{shown}",
                        n + 1
                    );
                }
                // The file's own comment may speak of its syntax; what
                // the quiz says after it may not.
                let said = shown
                    .split("The deal, as you may see it:")
                    .last()
                    .unwrap_or_default();
                for syntax in ["`", "expect", "question", " K1", "announce ", "ask 1"] {
                    assert!(
                        !said.contains(syntax),
                        "{file}: `{syntax}` before Q{}:\n{shown}",
                        n + 1
                    );
                }
                shown.clear();
                n += 1;
            } else if line != "  right" {
                shown.push_str(line);
                shown.push('\n');
            }
        }
        assert_eq!(n, asked.len(), "{file}: {out}");
    }
    // The stock's cards are not shown; --narrate says what the moves made known.
    let table1 = "scenarios/exercises/gofish-table1.deal";
    let (out, _) = quiz_cli(&[table1], "");
    assert!(
        out.contains("  player 3 holds A\n  the stock: 5 cards, face down\n"),
        "{out}"
    );
    let (out, _) = quiz_cli(&[table1, "--narrate"], "n\n4\ny\n");
    assert!(
        out.contains("  24  player 1 asks player 2 for a queen\n"),
        "{out}"
    );
    assert!(out.contains(">> now common knowledge"), "{out}");
}

/// A wrong first try gets a hint (the first step of reasoning, in words,
/// without the answer) and a second try; the answer and its explanation
/// come after the last try. The record keeps the tries taken.
#[test]
fn a_wrong_first_try_gets_a_hint_and_another_try() {
    use dealer::interp::quiz::Attempt;
    let own = Script::parse("own.deal", OWN).unwrap();
    let mut quiz = Quiz::new(own, Session::new(Options::default()), 0, None);
    quiz.set_tries(2);
    // Q1 `K1 !2_Q`: no. A first wrong try: a hint, the question stays.
    let (_, q) = quiz.advance().unwrap();
    assert_eq!(q.unwrap().answer, Answer::YesNo(false));
    let Attempt::TryAgain(hint) = quiz.attempt("y").unwrap() else {
        panic!("a second try")
    };
    assert!(
        hint.starts_with("Hint: think of the worlds player 1 considers possible"),
        "{hint}"
    );
    assert!(hint.contains("player 2 holds no Q"), "{hint}");
    for leak in ["`", "K1", "the answer", " no.", " yes"] {
        assert!(!hint.contains(leak), "{hint}");
    }
    assert!(quiz.pending().is_some());
    assert!(matches!(quiz.attempt("n").unwrap(), Attempt::Right(_)));
    assert_eq!(quiz.records()[0].tries, 2);
    assert!(quiz.records()[0].right);
    // Q2 `Kw1 hand2(A)`: no. Two wrong tries: the answer is shown.
    quiz.advance().unwrap();
    assert!(matches!(quiz.attempt("y").unwrap(), Attempt::TryAgain(_)));
    let Attempt::Wrong(v) = quiz.attempt("yes").unwrap() else {
        panic!("wrong after the last try")
    };
    assert_eq!(v.lines[0], "the answer is no");
    assert_eq!(quiz.records()[1].tries, 2);
    // Q3 right at once: one try.
    quiz.advance().unwrap();
    let right = quiz.pending().unwrap().answer.to_string();
    assert!(matches!(quiz.attempt(&right).unwrap(), Attempt::Right(_)));
    assert_eq!(quiz.records()[2].tries, 1);
    // A common-knowledge question's hint speaks of chains; a count's of deals.
    quiz.advance().unwrap();
    let hint = quiz.hint().unwrap();
    assert!(hint.contains("chain of possibilities"), "{hint}");
    // The command line: --tries 2 from a pipe.
    let (_dir, file) = scenario_file("own", OWN);
    let (out, _) = quiz_cli(&[file.to_str().unwrap(), "--tries", "2"], "y\nn\ny\ny\n");
    assert!(
        out.contains("not quite: try again\n  Hint: think of the worlds player 1"),
        "{out}"
    );
    assert!(out.contains("Q2. "), "{out}");
    assert!(
        out.contains("stopped: end of input; score 1/2 of the questions answered"),
        "{out}"
    );
}

/// A false common knowledge is explained by a chain of possibilities from
/// the actual world to a world where the fact fails, each step a player
/// and a world the model has in that player's class, in at most a
/// screenful of lines.
#[test]
fn common_knowledge_is_explained_by_a_chain() {
    let src =
        std::fs::read_to_string(root().join("scenarios/exercises/muddy-children.deal")).unwrap();
    let script = Script::parse("muddy.deal", &src).unwrap();
    let mut quiz = Quiz::new(script, Session::new(Options::default()), 0, None);
    loop {
        let (_, q) = quiz.advance().unwrap();
        let q = q.expect("a common-knowledge question");
        if q.formula.starts_with("C ") && q.answer == Answer::YesNo(false) {
            break;
        }
        let right = q.answer.to_string();
        quiz.answer(Some(&right)).unwrap();
    }
    let play = quiz.session().playing().unwrap().clone();
    let v = quiz.answer(Some("yes")).unwrap();
    assert!(
        v.lines.len() <= dealer::interp::question::SCREEN,
        "{:#?}",
        v.lines
    );
    assert!(
        v.lines[1].starts_with("a chain of possibilities from the actual world"),
        "{:#?}",
        v.lines
    );
    assert!(v.lines[2].contains("the actual world:"), "{:#?}", v.lines);
    // Each step is a world the named player considers possible from the one before.
    let line_of = |w: usize| {
        dealer::interp::explain::world_line(&play.table, &play.props, None, &*play.model, w)
    };
    let worlds: Vec<usize> = (0..play.model.world_count() as usize).collect();
    let find = |l: &str| *worlds.iter().find(|&&w| l.ends_with(&line_of(w))).unwrap();
    let mut at = play.model.actual();
    assert!(v.lines[2].ends_with(&line_of(at)));
    let steps: Vec<&String> = v.lines[3..]
        .iter()
        .take_while(|l| l.contains("considers possible:"))
        .collect();
    assert!(steps.len() >= 2, "{:#?}", v.lines);
    for l in steps {
        let who = l.trim().trim_start_matches("there, ");
        let p: usize = who["player ".len()..]
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        let w = find(l);
        assert!(play.model.accessible(p - 1, at).contains(&w), "{l}");
        at = w;
    }
    assert!(v
        .lines
        .last()
        .unwrap()
        .contains("not everybody knows that everybody knows"));
    for l in &v.lines {
        assert!(!l.contains('`') && !l.contains("(s)"), "{l}");
    }
}

/// In a model of beliefs (a move a player did not see), generated
/// questions ask what players believe, a false belief included: Sally
/// believes the marble is still in the basket. Where fewer questions than
/// asked for are worth asking, the note says why, with the facts there
/// are to ask about.
#[test]
fn generated_questions_ask_beliefs_in_a_model_of_beliefs() {
    let s = script("scenarios/classics/sally-anne.deal");
    let settings = Settings {
        count: 10,
        seed: 1,
        level: 1,
    };
    let g = generate(&s, Options::default(), settings).unwrap();
    assert!(g.questions.len() >= 3, "{:?}", g.note);
    assert!(
        g.note
            .as_ref()
            .unwrap()
            .contains("this scenario has 4 facts"),
        "{:?}",
        g.note
    );
    let mut quiz = Quiz::new(s, Session::new(Options::default()), 0, Some(g.questions));
    let mut asked = Vec::new();
    while let (_, Some(q)) = quiz.advance().unwrap() {
        assert!(q.formula.starts_with("B_"), "{}", q.formula);
        assert!(q.text.contains("believe"), "{}", q.text);
        asked.push((q.text.clone(), q.answer.clone()));
        quiz.answer(Some(&q.answer.to_string())).unwrap();
    }
    assert!(
        asked.contains(&(
            "Does Sally believe that the basket holds M?".to_string(),
            Answer::YesNo(true)
        )),
        "{asked:#?}"
    );
    let attack = script("scenarios/classics/coordinated-attack.deal");
    let g = generate(&attack, Options::default(), settings).unwrap();
    assert!(g
        .note
        .unwrap()
        .contains("this scenario has 1 fact to ask about"));
}

/// A count of worlds is explained by its arithmetic where it is short:
/// Kwartet's 1680 deals player 1 considers are the ways to lay the 9 cards
/// it does not see, 3 to each other player; after a move has shown cards
/// the count is smaller and no such formula is claimed.
#[test]
fn a_count_is_explained_by_its_arithmetic() {
    let mut quiz = Quiz::new(
        script("scenarios/exercises/kwartet.deal"),
        Session::new(Options::default()),
        0,
        None,
    );
    let (_, q) = quiz.advance().unwrap();
    let q = q.unwrap();
    assert_eq!(q.formula, "considers 1");
    assert_eq!(q.answer, Answer::Number(1680u32.into()));
    let v = quiz.answer(Some("5")).unwrap();
    assert!(
        v.lines.iter().any(|l| l.trim()
            == "1680 = 9!/(3!·3!·3!): player 1 does not see 9 cards, all different, and they lie 3 with player 2, 3 with player 3 and 3 with player 4"),
        "{:#?}",
        v.lines
    );
    let own = Script::parse("own.deal", OWN).unwrap();
    let mut quiz = Quiz::new(own, Session::new(Options::default()), 0, None);
    loop {
        let (_, q) = quiz.advance().unwrap();
        let q = q.unwrap();
        if q.formula.starts_with("considers") {
            // Repeated cards (queens and aces): no formula is claimed.
            let v = quiz.answer(Some("0")).unwrap();
            assert!(!v.lines.iter().any(|l| l.contains("!/(")), "{:#?}", v.lines);
            break;
        }
        quiz.answer(Some(&q.answer.to_string())).unwrap();
    }
}

/// A question about what holds after a move is explained before and
/// after it: the actual world before, the actual world after, and the
/// evidence in the model after the move (Table 1: once player 1 asks for
/// a queen, every world reachable has player 1 holding one).
#[test]
fn a_question_with_a_move_is_explained_before_and_after() {
    let mut quiz = Quiz::new(
        script("scenarios/exercises/gofish-table1.deal"),
        Session::new(Options::default()),
        0,
        None,
    );
    loop {
        let (_, q) = quiz.advance().unwrap();
        let q = q.unwrap();
        if q.formula.starts_with("[ask 1 2 Q]") {
            assert_eq!(q.answer, Answer::YesNo(true));
            let v = quiz.answer(Some("n")).unwrap();
            assert!(
                v.lines[1].starts_with("before the move, the actual world:  w6* 1:Q 2:Q 3:A"),
                "{:#?}",
                v.lines
            );
            assert!(
                v.lines[2].starts_with("after it, the actual world:  w0* 1:QQ 2:- 3:A"),
                "{:#?}",
                v.lines
            );
            assert!(v.lines[2].ends_with("(2 worlds in all)"), "{:#?}", v.lines);
            assert!(
                v.lines[3].contains("after the move, it is common knowledge that player 1 holds Q"),
                "{:#?}",
                v.lines
            );
            assert!(
                v.witnesses.is_empty(),
                "worlds of another model are not the figure's"
            );
            break;
        }
        quiz.answer(Some(&q.answer.to_string())).unwrap();
    }
}

/// On a model too large to list (dining cryptographers on a ring of 40,
/// symbolic), a wrong answer is explained card by card in words (the
/// statement quoted in words, the places named: no formula syntax), and a
/// card that lies in too many ways to list is said so in one line: the
/// quiz goes on to its score instead of stopping at the explanation.
#[test]
fn a_model_too_large_to_list_is_explained_in_words_and_the_quiz_goes_on() {
    let input = "y\n".repeat(10);
    let (out, code) = quiz_cli(
        &[
            "scenarios/bench/dc-40.deal",
            "--generate",
            "10",
            "--level",
            "1",
            "--seed",
            "1",
            "--tries",
            "1",
        ],
        &input,
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("too many to show one by one"), "{out}");
    assert!(!out.contains("stopped by an error"), "{out}");
    let score = out.lines().last().unwrap();
    assert!(
        score.starts_with("score ") && score.ends_with("/10"),
        "{out}"
    );
    // The explanations: a per-card table with places in words, the
    // statement in words, and no formula syntax anywhere.
    assert!(
        out.contains("” is false in the actual world, where P lies at the pay 1"),
        "{out}"
    );
    assert!(out.contains("world(s); true in "), "{out}");
    // A world's line (`w64  1:- ... pay1:P`) is the notation the opening
    // explains.
    assert!(out.contains("“pay1:P” means the pay 1 holds P"), "{out}");
    let syntax = fancy_regex::Regex::new(r"\b(pay|coin)\d+\(|\bK\d|!\w|:P\b").unwrap();
    for line in out
        .lines()
        .filter(|l| !l.trim_start().starts_with(['w', '(']))
    {
        assert!(!syntax.is_match(line).unwrap(), "syntax in `{line}`");
    }
}

/// A quiz narrates its moves only when asked (`--narrate`, `:narrate`):
/// off, no move carries narration and none is computed; on, the moves
/// of an exercise carry what they made known, the same lines each time
/// the quiz is taken.
#[test]
fn a_quiz_narrates_only_when_asked() {
    let file = &exercise_files()[0];
    let narrations = |narrate: bool| {
        let mut quiz = Quiz::new(script(file), Session::new(Options::default()), 0, None);
        quiz.set_narrate(narrate);
        let mut all = Vec::new();
        loop {
            let (events, question) = quiz.advance().unwrap();
            for e in events {
                if let dealer::interp::quiz::Event::Moved { narration, .. } = e {
                    all.push(narration);
                }
            }
            let Some(q) = question else { break };
            quiz.answer(Some(&q.answer.to_string())).unwrap();
        }
        all
    };
    let off = narrations(false);
    assert!(!off.is_empty() && off.iter().all(Vec::is_empty), "{off:?}");
    let on = narrations(true);
    assert_eq!(on.len(), off.len());
    assert!(on.iter().any(|n| !n.is_empty()), "{file}: {on:?}");
    assert_eq!(on, narrations(true));
}
