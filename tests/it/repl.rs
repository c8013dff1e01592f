//! The REPL: transcripts of piped sessions (golden output), the tutorial's
//! transcripts, and bad input that must leave the session unchanged.

use assert_cmd::Command;
use dealer::interp::Options;
use dealer::repl::{render, Repl};
use proptest::prelude::*;

const GOFISH: &str = "scenarios/gofish/simplified.deal";

/// Runs `dealer repl ARGS` with `input` on stdin; the plain output.
fn session(args: &[&str], input: &str) -> String {
    let out = Command::cargo_bin("dealer")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .arg("repl")
        .args(args)
        .write_stdin(input)
        .output()
        .unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn stepping_with_narration() {
    let out = session(&[GOFISH], ":next\n:n 2\n:list\n");
    insta::assert_snapshot!(out);
}

#[test]
fn back_and_goto() {
    let out = session(
        &[GOFISH],
        ":goto \"turn 3\"\n:stats\n:back 2\n:stats\n:goto initial\n:stats\n:restart\n:back\n",
    );
    insta::assert_snapshot!(out);
}

#[test]
fn why_explains_from_the_model() {
    let input =
        ":goto \"turn 1\"\n:why K1 2_A\nwhy K2 1_QQ\n:why C !2_Q\nwhy M1 3_A\nwhy Kw3 2_A\n\
                 why D{1,2} 3_A\nwhy E 1_QQ\nwhy K1 !K2 3_Q\nwhy [!3_A] K1 3_A\nwhy <!2_A> C 2_A\n\
                 why [ask 1 3 Q] C 1_Q\n";
    insta::assert_snapshot!(session(&[GOFISH], input));
}

#[test]
fn narration_modes() {
    let out = session(
        &[GOFISH],
        ":narrate off\n:next\n:narrate full\n:next\n:narrate loud\n",
    );
    insta::assert_snapshot!(out);
}

#[test]
fn errors_are_located_and_change_nothing() {
    let input = "ask 3 1 Q\nask 1 2 J\n? K1 (2_Q &\n\n:nxet\n:goto turn 9\n:next x\n\
                 garbage ((\n\n)))\n? K9 1_Q\nplayers 4 5\n:load no/such/file.deal\n:stats\n";
    insta::assert_snapshot!(session(&[GOFISH], input));
}

#[test]
fn typing_a_scenario_without_a_file() {
    let input = "players 1 2\ndeck Q A K\ndeal 1: Q | 2: A\n? K1 !2_Q\nshow 2 -> 1 A\n? K1 2_A\n:back\n? K1 2_A\n:next\n:quit\n? true\n";
    insta::assert_snapshot!(session(&[], input));
}

/// The transcripts of `docs/tutorial.md`: each ```repl block starts with
/// `$ dealer repl ARGS`; the lines after a prompt are typed, and the whole
/// block must be the output.
#[test]
fn the_tutorial_transcripts_run() {
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/tutorial.md")).unwrap();
    let mut blocks = 0;
    for block in doc.split("```repl\n").skip(1) {
        let block = &block[..block.find("```").expect("closed block")];
        let (command, expected) = block.split_once('\n').unwrap();
        let args: Vec<&str> = command
            .strip_prefix("$ dealer repl")
            .expect("a block starts with `$ dealer repl`")
            .split_whitespace()
            .collect();
        let input: String = expected
            .lines()
            .filter_map(typed)
            .map(|l| format!("{l}\n"))
            .collect();
        let out = session(&args, &input);
        assert_eq!(out, expected, "tutorial block {blocks} is out of date");
        blocks += 1;
    }
    assert!(blocks >= 3, "the tutorial has its transcripts");
}

/// The typed part of a transcript line, when it starts with a prompt.
fn typed(line: &str) -> Option<&str> {
    let (prompt, rest) = line
        .split_once("> ")
        .or_else(|| line.strip_suffix('>').map(|p| (p, "")))?;
    let ok = !prompt.is_empty() && !prompt.contains(' ') && !prompt.starts_with('-');
    ok.then_some(rest)
}

fn stats(repl: &mut Repl) -> String {
    render(&repl.eval(":stats"), false) + &render(&repl.eval(":worlds"), false) + &repl.prompt()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Any line at all: an answer or a located error, never a panic; a line
    /// that fails leaves the model, the position and the prompt as they were.
    #[test]
    fn any_line_is_safe(line in "[ -~]{0,30}|:[a-z]{0,8} [ -~]{0,12}|(ask|draw|why|\\?|K1|C) [ -~]{0,16}") {
        let mut repl = Repl::new(Options::default());
        repl.load(GOFISH);
        repl.eval(":next");
        let before = stats(&mut repl);
        let items = repl.eval(&line);
        let failed = items.iter().any(|i| matches!(i, dealer::repl::Item::Error { .. }));
        if failed {
            prop_assert_eq!(stats(&mut repl), before);
        }
    }
}

#[test]
fn export_draws_the_current_model() {
    let dir = std::env::temp_dir().join(format!("dealer-repl-export-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let dot = dir.join("turn1.dot");
    let input = format!(
        ":goto \"turn 1\"\n:export \"{}\" only 1\n:export turn1.dot\n",
        dot.display()
    );
    let out = session(&[GOFISH], &input);
    assert!(
        out.contains(&format!("wrote {} (4 node(s)", dot.display())),
        "{out}"
    );
    assert!(
        out.contains("error[bad-argument]: the file name goes in quotes"),
        "{out}"
    );
    let text = std::fs::read_to_string(&dot).unwrap();
    assert!(text.starts_with("graph kripke {"), "{text}");
    assert_eq!(
        text.matches("[label=<").count(),
        4,
        "player 1 considers 4 worlds at turn 1"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A figure written by an `export` statement of the loaded file goes beside
/// the file (the path rule of `figure::files`), as in `dealer run`, and the
/// REPL's items report it; the rendering writes nothing.
#[test]
fn export_statements_of_a_loaded_file_write_beside_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a.deal");
    std::fs::write(
        &file,
        "players 1 2\ndeck A B\ndeal 1: A | 2: B\nannounce hand1(A)\nexport \"out/f.dot\"\n",
    )
    .unwrap();
    let mut repl = Repl::new(Options::default());
    repl.load(file.to_str().unwrap());
    let items = repl.eval(":next");
    let text = render(&items, false);
    let target = dir.path().join("out/f.dot");
    assert!(
        text.contains(&format!("wrote {}", target.display())),
        "{text}"
    );
    assert!(std::fs::read_to_string(&target)
        .unwrap()
        .starts_with("graph"));
}

/// `dealer repl -` loads the scenario from standard input, up to its first
/// move, as it loads a file.
#[test]
fn the_scenario_can_come_from_standard_input() {
    let input = "players 1 2\ndeck A B\ndeal 1: A | 2: B\n? K1 hand1(A)\nshow 1 -> 2 A\n";
    let out = session(&["-"], input);
    assert!(out.contains("loaded <stdin>: 5 statement(s)"), "{out}");
    assert!(out.contains("? K1 hand1(A)  => true"), "{out}");
    assert!(out.contains("next: line 5: show 1 -> 2 A"), "{out}");
}

/// `:strategy` names the rule that fired and every guard's answer; each
/// answer is checked against the model by asking the guard as a query in
/// the same REPL, and the move shown is the one the rule kept.
#[test]
fn strategy_explains_its_choice_and_the_guards_agree_with_the_model() {
    let mut repl = Repl::new(Options::default());
    repl.load("tests/data/kemps-blocking.deal");
    repl.eval(":next 4");
    let before = stats(&mut repl);
    let out = render(&repl.eval(":strategy kb-blocking"), false);
    assert_eq!(
        stats(&mut repl),
        before,
        "asking a strategy changes nothing"
    );
    assert!(
        out.contains("rule block: 1 of 5 matching moves pass the guard"),
        "{out}"
    );
    assert!(out.contains("→ pick 3 6  (rule block"), "{out}");
    let mut checked = (0, 0);
    for line in out.lines() {
        let (held, rest) = if let Some((_, r)) = line.split_once(" holds: ") {
            (true, r)
        } else if let Some((_, r)) = line.split_once(" fails: ") {
            (false, r)
        } else {
            continue;
        };
        if rest.starts_with("(no guard)") {
            continue;
        }
        let guard = rest.split("  score ").next().unwrap();
        let answer = render(&repl.eval(&format!("? {guard}")), false);
        assert_eq!(
            answer.trim(),
            if held { "true" } else { "false" },
            "{guard}"
        );
        if held {
            checked.0 += 1;
        } else {
            checked.1 += 1;
        }
    }
    assert!(checked.0 >= 1 && checked.1 >= 5, "{checked:?}");
}

/// The lecturer's notes: the comment lines right above a statement and the
/// comment at the end of its line are shown with it while stepping; a `#`
/// inside quotes is not a comment, and a declaration's notes are not shown.
#[test]
fn stepping_shows_the_comments_beside_the_statements() {
    let dir = std::env::temp_dir().join(format!("dealer-notes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("notes.deal");
    std::fs::write(
        &file,
        "# the header\ngame gofish\nplayers 1 2\n# about the deck\ndeck Q*4\ndeal 1: Q | 2: Q\n\n\
         # first note\n# second note\nask 1 2 Q   # one at the end\nexpect C 1_Q\n\
         ? true # a closing remark\n",
    )
    .unwrap();
    let mut repl = Repl::new(Options::default());
    repl.eval(&format!(":load {}", file.display()));
    let out = render(&repl.eval(":next"), false);
    std::fs::remove_dir_all(&dir).unwrap();
    let lines: Vec<&str> = out.lines().map(str::trim).collect();
    let at = |s: &str| {
        lines
            .iter()
            .position(|l| l.contains(s))
            .unwrap_or_else(|| panic!("{s} in {out}"))
    };
    assert!(at("# first note") < at("# second note"));
    assert!(at("# second note") < at("ask 1 2 Q"));
    assert!(at("ask 1 2 Q") < at("# one at the end"));
    assert!(at("# one at the end") < at("expect C 1_Q"));
    assert!(at("=> true") < at("# a closing remark"));
    assert!(
        !out.contains("the header") && !out.contains("about the deck"),
        "{out}"
    );
    // The statement line itself does not repeat its comment.
    assert!(!lines[at("ask 1 2 Q")].contains('#'), "{out}");
}
