//! The command line: exit codes, located messages, plain output when piped.

use assert_cmd::Command;

fn dealer() -> Command {
    let mut cmd = Command::cargo_bin("dealer").unwrap();
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("NO_COLOR");
    cmd
}

fn output(args: &[&str]) -> (i32, String, String) {
    let out = dealer().args(args).output().unwrap();
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (
        out.status.code().unwrap(),
        text(out.stdout),
        text(out.stderr),
    )
}

#[test]
fn run_replays_the_go_fish_game() {
    let (code, stdout, stderr) = output(&["run", "scenarios/gofish/simplified.deal"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("  34  ask 1 2 Q\n"), "{stdout}");
    assert!(stdout.contains("  38  -- turn 1 --\n"));
    assert!(stdout.contains("  41  expect considers 1 = 4  ok\n"));
    assert!(stdout.contains("player 3 lays down the book of Q"));
    assert!(stdout.ends_with("expectations: 53 held, 0 failed\n"));
    assert!(!stdout.contains('\u{1b}'), "piped output must be plain");
}

#[test]
fn a_failing_expectation_exits_1_and_names_its_place() {
    let (code, stdout, stderr) = output(&["run", "tests/data/failing.deal"]);
    assert_eq!(code, 1);
    assert!(
        stdout.contains("expect K1 hand2(Q)  FAILED: false in the actual world"),
        "{stdout}"
    );
    assert!(stdout.ends_with("expectations: 2 held, 1 failed\n"));
    assert_eq!(
        stderr,
        "failed[expect-failed]: expectation does not hold: expect K1 hand2(Q)\n \
         --> tests/data/failing.deal:6:1\n  |\n6 | expect K1 hand2(Q)\n  | ^^^^^^^^^^^^^^^^^^ false in the actual world\n"
    );
}

#[test]
fn an_illegal_move_exits_2_with_a_located_error() {
    let (code, _, stderr) = output(&["run", "tests/data/illegal.deal"]);
    assert_eq!(code, 2);
    assert!(
        stderr.starts_with(
            "error[out-of-turn]: ask 2 1 A: Go Fish: it is player 1's turn, not player 2's\n"
        ),
        "{stderr}"
    );
    assert!(stderr.contains("--> tests/data/illegal.deal:5:1"));
}

#[test]
fn syntax_errors_are_all_reported() {
    let (code, stdout, stderr) = output(&["check", "tests/data/syntax.deal"]);
    assert_eq!(code, 2);
    assert!(stdout.is_empty());
    assert!(
        stderr.contains("--> tests/data/syntax.deal:3:1"),
        "{stderr}"
    );
    assert!(stderr.contains("--> tests/data/syntax.deal:4:"), "{stderr}");
}

#[test]
fn check_resolves_names_without_playing() {
    let (code, stdout, _) = output(&["check", "scenarios/gofish/simplified.deal"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("statement(s) checked, no errors"));
    assert!(!stdout.contains("expectations"));
    // check still finds the bad names in a move that `run` would refuse later
    let (code, _, stderr) = output(&["check", "tests/data/illegal.deal"]);
    assert_eq!(
        code, 0,
        "an out-of-turn move is a rule error, found by run: {stderr}"
    );
}

#[test]
fn a_missing_file_is_an_error() {
    let (code, _, stderr) = output(&["run", "no/such/file.deal"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("cannot read no/such/file.deal"));
}

#[test]
fn the_engine_is_chosen_on_the_command_line() {
    // The symbolic engine replays the Go Fish game with the same answers.
    let (code, stdout, stderr) = output(&[
        "run",
        "--engine",
        "symbolic",
        "scenarios/gofish/simplified.deal",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.ends_with("expectations: 53 held, 0 failed\n"),
        "{stdout}"
    );
    // The explicit engine refuses a full deck with its exact count and
    // points to the symbolic engine.
    let (code, _, stderr) = output(&[
        "run",
        "--engine",
        "explicit",
        "scenarios/gofish/full-deck.deal",
    ]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("the deal has 76,618,741,482,378,698,803,200 possible worlds"),
        "{stderr}"
    );
    assert!(stderr.contains("--engine auto"), "{stderr}");
    let (code, _, stderr) = output(&["run", "--engine", "bdd", "x.deal"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("explicit, symbolic, auto"), "{stderr}");
}

#[test]
fn a_refused_move_inside_a_modality_prints_no_empty_hint() {
    let (code, _, stderr) = output(&["run", "tests/data/kwartet-pattern-ask.deal"]);
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        "error[kwartet-one-card]: Kwartet: a player asks for one card, not a pattern\n \
         --> tests/data/kwartet-pattern-ask.deal:6:4\n  |\n6 | ? [ask 1 2 <1,*>] true\n  |    ^^^^^^^^^^^^^\n"
    );
}

#[test]
fn export_writes_into_a_directory_it_creates() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("new/sub/fig.dot");
    let (code, stdout, stderr) = output(&[
        "export",
        "scenarios/gofish/simplified.deal",
        "--at",
        "turn 1",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("wrote "), "{stdout}");
    assert!(std::fs::read_to_string(&out).unwrap().starts_with("graph"));
}

/// `dealer bench --parse` times parsing alone; its statement counts and
/// fast-path share are those of `syntax::both_parsers`.
#[test]
fn bench_parse_prints_each_file_with_its_fast_path_share() {
    let file = "scenarios/bench/muddy-10.deal";
    let (code, stdout, stderr) = output(&["bench", "--parse", "--runs", "1", file]);
    assert_eq!(code, 0, "{stderr}");
    let src = std::fs::read_to_string(file).unwrap();
    let both = dealer::syntax::both_parsers(&src);
    let fast = both.iter().filter(|(quick, _)| quick.is_some()).count();
    assert!(fast > 0 && fast < both.len());
    let row = stdout.lines().find(|l| l.starts_with(file)).expect(&stdout);
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(cells[2], both.len().to_string(), "{row}");
    let share = format!("{:.0}%", 100.0 * fast as f64 / both.len() as f64);
    assert_eq!(cells[3], share, "{row}");
    assert!(row.contains("MB/s"), "{row}");
    let (code, _, stderr) = output(&["bench", "--parse", "nowhere.deal"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("cannot read nowhere.deal"), "{stderr}");
}

#[test]
fn the_bdd_memory_changes_no_answer() {
    // Muddy children as variables keep every round's dead nodes with the
    // scenario budget (run's default) and collect them early with the
    // game budget: the same output, every expectation held.
    let mut outputs = Vec::new();
    for memory in [None, Some("game"), Some("scenario")] {
        let mut args = vec!["run", "--engine", "symbolic"];
        if let Some(m) = memory {
            args.extend(["--bdd-memory", m]);
        }
        args.push("scenarios/bench/muddy-vars-40.deal");
        let (code, stdout, stderr) = output(&args);
        assert_eq!(code, 0, "{memory:?}: {stderr}");
        assert!(stdout.contains(" held, 0 failed\n"), "{stdout}");
        outputs.push(stdout);
    }
    assert_eq!(outputs[0], outputs[1]);
    assert_eq!(outputs[0], outputs[2]);
    let (code, _, stderr) = output(&["run", "--bdd-memory", "lots", "x.deal"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("game, scenario"), "{stderr}");
}
