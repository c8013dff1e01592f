//! The REPL's `:quiz`: the file's questions from the current step, each
//! typed line an answer, checked against the model; an answer that cannot
//! be read asks again; `:quiz stop` ends with the score; the REPL's own
//! position does not move.

use assert_cmd::Command;
use dealer::interp::Options;
use dealer::repl::{render, Repl};

const FILE: &str = crate::common::quiz_scenario!(
    "\
question considers 1
ask 1 2 Q
question who knows 2_A
ask 1 3 Q
draw 1: A
question \"Can player 3 rule out that player 1 holds QQQ?\" K3 !1_QQQ
"
);

fn repl_with_file() -> (Repl, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("q.deal");
    std::fs::write(&path, FILE).unwrap();
    let mut repl = Repl::new(Options::default());
    repl.eval(&format!(":load {}", path.display()));
    (repl, dir)
}

fn say(repl: &mut Repl, line: &str) -> String {
    render(&repl.eval(line), false)
}

#[test]
fn the_quiz_asks_checks_and_scores() {
    let (mut repl, _dir) = repl_with_file();
    let before = repl.prompt();
    let out = say(&mut repl, ":quiz");
    assert!(
        out.contains("Q1. Does player 1 know that player 2 holds no Q?  [y/n]"),
        "{out}"
    );
    assert!(repl.quizzing_now());
    assert_eq!(repl.prompt(), "answer> ");
    // K1 !2_Q is false: player 1 considers the actual world possible, where 2 holds a Q.
    let out = say(&mut repl, "yes");
    assert!(out.starts_with("wrong\n  the answer is no"), "{out}");
    assert!(out.contains("where player 2 holds Q"), "{out}");
    assert!(
        out.contains("Q2. How many worlds does player 1 consider possible?"),
        "{out}"
    );
    let out = say(&mut repl, "six");
    assert_eq!(out.trim(), "`six`: answer with a number, such as 4");
    let out = say(&mut repl, "6");
    assert!(out.starts_with("right\n"), "{out}");
    assert!(
        out.contains("player 1 asks player 2 for a queen"),
        "the move is said in words: {out}"
    );
    assert!(
        !out.contains(">>"),
        "a quiz does not narrate by default: {out}"
    );
    assert!(
        out.contains("Q3. Which players know that player 2 holds A?"),
        "{out}"
    );
    let out = say(&mut repl, ":next");
    assert!(out.contains("a quiz is on"), "{out}");
    let out = say(&mut repl, "3 1 2");
    assert!(out.starts_with("right\n"), "{out}");
    assert!(
        out.contains("Q4. Can player 3 rule out that player 1 holds QQQ?"),
        "{out}"
    );
    let out = say(&mut repl, "n");
    assert!(out.contains("the quiz is over: score 3/4"), "{out}");
    assert!(!repl.quizzing_now());
    assert_eq!(repl.prompt(), before, "the REPL's position did not move");
}

/// `:next` plays up to the next move, its questions included; `:quiz`
/// there asks the questions of the point reached (after `ask 1 2 Q`), not
/// those before it.
#[test]
fn the_quiz_starts_at_the_current_step_and_stops() {
    let (mut repl, _dir) = repl_with_file();
    say(&mut repl, ":next");
    let out = say(&mut repl, ":quiz");
    assert!(
        out.contains("Q1. Which players know that player 2 holds A?"),
        "{out}"
    );
    assert!(!out.contains("holds no Q"), "{out}");
    let out = say(&mut repl, "1 2 3");
    assert!(out.contains("player 1 asks player 3 for a queen"), "{out}");
    assert!(out.contains("Q2. Can player 3 rule out"), "{out}");
    let out = say(&mut repl, ":quiz stop");
    assert_eq!(out.trim(), "quiz stopped: score 1/1");
    // `:narrate short` turns narration on in a quiz too.
    say(&mut repl, ":narrate short");
    say(&mut repl, ":quiz");
    let out = say(&mut repl, "1 2 3");
    assert!(out.contains(">> "), "{out}");
    say(&mut repl, ":quiz stop");
    let out = say(&mut repl, ":quiz now");
    assert!(out.contains("`:quiz stop` ends it"), "{out}");
}

const CHECKPOINTS: &str = crate::common::quiz_scenario!(
    "\
ask 1 2 Q
checkpoint \"after the ask\"
question \"Does player 3 know that player 1 holds three queens?\" K3 1_QQQ
expect !K3 1_QQQ
question considers 3
ask 1 3 Q
question Kw2 3_AA
"
);

/// `:goto` a checkpoint then `:quiz` asks that checkpoint's questions
/// (which `:goto` itself has played), and nothing before them.
#[test]
fn the_quiz_after_goto_asks_the_checkpoints_questions() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.deal");
    std::fs::write(&path, CHECKPOINTS).unwrap();
    let mut repl = Repl::new(Options::default());
    repl.eval(&format!(":load {}", path.display()));
    let out = say(&mut repl, ":goto \"after the ask\"");
    assert!(out.contains("next: line 11: ask 1 3 Q"), "{out}");
    let out = say(&mut repl, ":quiz");
    assert!(
        out.contains("Q1. Does player 3 know that player 1 holds three queens?"),
        "{out}"
    );
    assert!(!out.contains("holds no Q"), "{out}");
    let out = say(&mut repl, "n");
    assert!(out.starts_with("right"), "{out}");
    assert!(out.contains("Q2. How many worlds does player 3"), "{out}");
    // `quit` ends the quiz with the score of what was answered.
    let out = say(&mut repl, "quit");
    assert_eq!(out.trim(), "quiz stopped: score 1/1");
    assert!(!repl.quitting());
    // `:quit` during a quiz prints its score, then leaves.
    say(&mut repl, ":quiz");
    let out = say(&mut repl, "y");
    assert!(out.starts_with("wrong"), "{out}");
    let out = say(&mut repl, ":quit");
    assert_eq!(out.trim(), "quiz stopped: score 0/1");
    assert!(repl.quitting());
}

#[test]
fn the_quiz_runs_from_a_pipe() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("q.deal");
    std::fs::write(&path, FILE).unwrap();
    let out = Command::cargo_bin("dealer")
        .unwrap()
        .env("NO_COLOR", "1")
        .arg("repl")
        .arg(&path)
        .write_stdin(":quiz\nn\n5\nnobody\ny\n")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("the quiz is over: score 1/4"), "{text}");
    // The end of input in the middle of a quiz prints its score.
    let out = Command::cargo_bin("dealer")
        .unwrap()
        .env("NO_COLOR", "1")
        .arg("repl")
        .arg(&path)
        .write_stdin(":quiz\nn\n")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("quiz stopped at the end of input: score 1/1"),
        "{text}"
    );
}

/// At a terminal (`set_quiz_tries(2)`), a wrong first answer in `:quiz`
/// gets a hint and a second try before the answer is shown.
#[test]
fn the_quiz_gives_a_hint_and_a_second_try() {
    let (mut repl, _dir) = repl_with_file();
    repl.set_quiz_tries(2);
    say(&mut repl, ":quiz");
    let out = say(&mut repl, "yes");
    assert!(
        out.starts_with(
            "not quite: try again\n  Hint: think of the worlds player 1 considers possible"
        ),
        "{out}"
    );
    assert!(!out.contains("the answer is"), "{out}");
    assert!(repl.quizzing_now());
    let out = say(&mut repl, "yes");
    assert!(out.starts_with("wrong\n  the answer is no"), "{out}");
    assert!(out.contains("Q2. "), "{out}");
    let out = say(&mut repl, "7");
    assert!(
        out.contains("Hint: count the deals player 1 cannot tell apart"),
        "{out}"
    );
    let out = say(&mut repl, "6");
    assert!(out.starts_with("right"), "{out}");
}
