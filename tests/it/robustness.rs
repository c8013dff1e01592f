//! Regression tests for answers that were wrong or refused, and for inputs
//! that crashed dealer (issue 14): each is replayed on both engines where
//! it concerns a model, and each crash is now a clear, located error or
//! the obvious success.

use crate::common;

use assert_cmd::Command;
use common::{fails, fails_with};
use dealer::interp::{Engine, Options};
use dealer::syntax::ast::{FormulaKind, StatementKind};
use dealer::syntax::{self, parse_formula};

use common::answers;

/// The answers on both engines, which must agree.
fn both(src: &str) -> Vec<bool> {
    let explicit = answers(src, Engine::Explicit);
    assert_eq!(
        explicit,
        answers(src, Engine::Symbolic),
        "engines differ on\n{src}"
    );
    explicit
}

// ------------------------------------------------------------ wrong answers

#[test]
fn reveal_of_a_card_that_is_not_the_first_kind() {
    let src = "players 1 2\ndeck A*2 B*2 C*2\ndeal 1: B C | 2: A A\n\
               ? K2 hand1(B)\nreveal 1 B\n? K2 hand1(B)\n? C hand1(B)\nreveal 1 C\n? K2 hand1(C)\n";
    assert_eq!(both(src), [false, true, true, true]);
    // A card that is not there is refused, and changes nothing.
    let (e, at) = fails("players 1 2\ndeck A*2 B*2 C*2\ndeal 1: B C | 2: A A\nreveal 1 A\n");
    assert_eq!((e.code, at.as_str()), ("card-not-there", "4:1"));
}

#[test]
fn a_diamond_before_a_number_is_a_diamond() {
    let kind = |src: &str| {
        parse_formula(src)
            .unwrap_or_else(|e| panic!("{src}: {e:?}"))
            .kind
    };
    for src in [
        "<!p> 2_AA",
        "<!hand2(Q)> 1.1(A)",
        "<!p>2_AA",
        "<announce p> 2_AA",
    ] {
        match kind(src) {
            FormulaKind::AnnounceDiamond(what, _) => {
                assert!(
                    matches!(what.kind, FormulaKind::Named { count: None, .. }),
                    "{src}"
                )
            }
            FormulaKind::AfterDiamond(..) => {}
            other => panic!("{src} is not a diamond: {other:?}"),
        }
    }
    assert!(
        matches!(kind("<!p> 2_AA & q"), FormulaKind::And(l, _) if matches!(l.kind, FormulaKind::AnnounceDiamond(..)))
    );
    // A count inside the diamond still reads as a count.
    let FormulaKind::AnnounceDiamond(what, _) = kind("<!hand1 > 1> q") else {
        panic!("not a diamond");
    };
    assert!(matches!(
        what.kind,
        FormulaKind::Named { count: Some(_), .. }
    ));
    assert!(matches!(
        kind("hand1 > 2"),
        FormulaKind::Named { count: Some(_), .. }
    ));
    // The same on a model, on both engines.
    let src = "players 1 2\ndeck A*2 B*2 Q\ndeal 1: A A | 2: B Q\n\
               ? <!hand2(Q)> 1_AA\n? <!hand2(Q)> 2_AA\n? <!hand1 > 1> 1_AA\n";
    assert_eq!(both(src), [true, false, true]);
}

/// Every spelling of a location in docs/language.md, in every position a
/// location can take (an atom with a card, a count, `#`, `Kv`, inside
/// announcements, a move's source): each answers like the first spelling
/// of its row.
#[test]
fn every_documented_location_spelling_works_everywhere() {
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/language.md")).unwrap();
    let table = doc
        .split("### Locations in formulas")
        .nth(1)
        .expect("the table of locations");
    let rows: Vec<Vec<String>> = table
        .lines()
        .skip_while(|l| !l.starts_with("|---"))
        .skip(1)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let first = l.split('|').nth(1).unwrap_or("");
            first
                .split('`')
                .skip(1)
                .step_by(2)
                .map(str::to_string)
                .collect()
        })
        .collect();
    assert!(rows.len() >= 6, "the table has its rows: {rows:?}");
    let mut walked = 0;
    for row in &rows {
        for spelling in row {
            let (setup, card) = setup_for(spelling);
            let positions = [
                format!("? {spelling}({card})"),
                format!("? {spelling} >= 0"),
                format!("? #{spelling} = 1"),
                format!("? {spelling}({card}) >= 1"),
                format!("? Kv1 {spelling}"),
                format!("? K1 {spelling}({card}) | !K1 {spelling}({card})"),
                format!("? [!{spelling}({card})] {spelling}({card})"),
                format!("? <!{spelling}({card})> {spelling}({card})"),
                format!("expect {spelling}({card}) | !{spelling}({card})"),
            ];
            let same = canonical(spelling);
            for position in positions {
                let src = format!("{setup}{position}\n");
                let reference = format!("{setup}{}\n", position.replace(spelling.as_str(), same));
                assert_eq!(
                    answers(&src, Engine::Explicit),
                    answers(&reference, Engine::Explicit),
                    "{spelling} in `{position}`"
                );
                walked += 1;
            }
        }
    }
    assert!(walked >= 15 * 9, "{walked} positions walked");
}

/// The plain spelling of the same location (itself when it is one).
fn canonical(spelling: &str) -> &str {
    match spelling {
        "H3" | "hand_3" => "hand3",
        "hand[Bruno]" | "H_Bruno" => "hand_Bruno",
        other => other,
    }
}

/// A scenario in which `spelling` names a location, and a card to ask about.
fn setup_for(spelling: &str) -> (String, &'static str) {
    let free =
        "players 1 2 3 Bruno\ndeck Q*2 A*2 K*2\npile table public\npile forehead1 seen-by 2 3\n\
                deal 1: Q | 3: A | Bruno: Q | table: A | forehead1: K\n";
    if spelling.starts_with("played") {
        let s =
            "game konigrufen\nplayers Bruno 1 Katrin Nadine\ndeck tarock KH QH 1H 2H KS QS 9S T4\n\
                 deal Bruno: QH 9S | 1: 1H QS | Katrin: T4 KS | Nadine: KH 2H\ncall Bruno KH\n";
        return (s.into(), "QH");
    }
    if spelling == "open" {
        return (
            "game cabo\nplayers 1 2\ndeck 0..3*3\ndeal 1.1: 1 | 1.2: 0 | 1.3: 0 | 1.4: 0 | 2.1: 3 | 2.2: 2 | 2.3: 3 | 2.4: 2 | open: 2\n".into(),
            "2",
        );
    }
    if spelling.starts_with("books") {
        return (
            "game gofish\nplayers 1 Bruno\ndeck Q*2 A*2 K*2\ndeal 1: Q Q A | Bruno: K A\n".into(),
            "Q",
        );
    }
    if spelling.contains('.') {
        return (format!("{free}deal 1.2: K\n"), "K");
    }
    (free.into(), "Q")
}

#[test]
fn kv_accepts_every_hand_spelling() {
    let src = "players 1 2\ndeck Q A\ndeal 1: Q | 2: A\n? Kv1 hand[2]\n? Kv1 hand2\n? Kv1 hand_2\n? Kv1 H2\n";
    assert_eq!(both(src), [true, true, true, true]);
}

#[test]
fn beliefs_inside_a_dynamic_modality_on_the_symbolic_engine() {
    // b believes that nothing happened: the relation is not an equivalence.
    let src = "model {\n  agents a b\n  props p q\n  world w1: p\n  world w2: p q\n  \
               a: {w1 w2}\n  b: {w1 w2}\n  actual w1\n}\n\
               event change {\n  events change skip\n  post change: q := true\n  \
               a: {change} {skip}\n  b: change->skip, skip->skip\n  actual change\n}\n\
               ? [apply change] q\n? [apply change] K_b q\n? [apply change] K_a q\n\
               ? <apply change> !K_b q\n?? [apply change] (q -> K_a q)\n\
               apply change\n? q\n? K_b q\n? K_a q\n";
    let explicit = answers(src, Engine::Explicit);
    assert_eq!(explicit, [true, false, true, true, true, true, false, true]);
    assert_eq!(answers(src, Engine::Symbolic), explicit);
}

#[test]
fn the_word_not_binds_like_the_symbol() {
    let src = "players 1 2\ndeck A*2 B*2 Q\ndeal 1: A A | 2: B Q\n\
               ? not hand1(A) & hand2(A)\n? !hand1(A) & hand2(A)\n? not (hand1(A) & hand2(A))\n";
    assert_eq!(both(src), [false, false, true]);
}

// ------------------------------------------------------------ crashes

use common::{dealer, output};

#[cfg(unix)]
#[test]
fn a_closed_standard_output_ends_quietly() {
    use std::io::Read;
    use std::process::Stdio;
    let exe = assert_cmd::cargo::cargo_bin("dealer");
    let mut child = std::process::Command::new(exe)
        .args(["run", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Many lines of output; the reader goes away after the first bytes.
    let mut src = String::from("players 1 2\ndeck Q*2 A*2\ndeal 1: Q | 2: A\n");
    for _ in 0..20_000 {
        src.push_str("? hand1(Q)\n");
    }
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let _ = stdin.write_all(src.as_bytes());
    });
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 16];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    writer.join().unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let status = child.wait().unwrap();
    assert_ne!(status.code(), Some(101), "a panic: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// A full standard output (`dealer run x.deal >/dev/full`) is an error
/// said on standard error with exit code 1, not a panic, for every command
/// that prints.
#[cfg(target_os = "linux")]
#[test]
fn a_full_standard_output_is_an_error_not_a_panic() {
    for args in [
        &["run", "scenarios/gofish/simplified.deal"][..],
        &["check", "scenarios/gofish/simplified.deal"],
        &[
            "play",
            "gofish",
            "--seed",
            "1",
            "--agents",
            "random,random,random",
        ],
        &["completions", "bash"],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("dealer"))
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(full)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.contains("standard output") && !stderr.contains("panicked"),
            "{args:?}: {stderr}"
        );
    }
}

/// Under an address-space limit (`ulimit -v`) the symbolic engine makes
/// its BDD store smaller instead of aborting at its first allocation.
#[cfg(target_os = "linux")]
#[test]
fn a_symbolic_scenario_runs_under_an_address_space_limit() {
    let exe = assert_cmd::cargo::cargo_bin("dealer");
    let script = format!(
        "ulimit -v 3000000 && exec '{}' run scenarios/bench/muddy-vars-40.deal",
        exe.display()
    );
    let (code, stdout, stderr) = output(
        Command::new("sh")
            .args(["-c", &script])
            .current_dir(env!("CARGO_MANIFEST_DIR")),
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("held"), "{stdout}");
}

/// The figure of a model of variables too large to draw is its actual
/// world with its values and the counts (it panicked on the hands that
/// hold no cards).
#[test]
fn a_large_model_of_variables_is_drawn_as_its_actual_world() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sp.svg");
    let (code, _, stderr) = output(dealer().args([
        "export",
        "scenarios/classics/sum-and-product.deal",
        "--at",
        "start",
        "-o",
        out.to_str().unwrap(),
    ]));
    assert_eq!(code, 0, "{stderr}");
    let svg = std::fs::read_to_string(&out).unwrap();
    assert!(svg.contains("x=4 y=13"), "{svg}");
    assert!(svg.contains("the actual world alone"), "{svg}");
    // The counts the figure states hold in the engine.
    let number = |after: &str, before: &str| -> String {
        let start = svg.find(after).unwrap_or_else(|| panic!("{after}: {svg}")) + after.len();
        let end = start + svg[start..].find(before).unwrap();
        svg[start..end].replace(',', "")
    };
    let worlds = number("the model has ", " worlds");
    let s = number("S considers ", " possible");
    let p = number("P considers ", " possible");
    let src = format!(
        "players S P\nvar x, y in 2..100\nlaw x < y & x + y <= 100\nactual x = 4, y = 13\n\
         S observes x + y\nP observes x * y\nexpect worlds = {worlds}\n\
         expect considers S = {s}\nexpect considers P = {p}\n"
    );
    let (code, stdout, stderr) = output(dealer().args(["run", "-"]).write_stdin(src));
    assert_eq!(code, 0, "{stdout}{stderr}");
}

#[test]
fn a_huge_world_budget_does_not_allocate_a_huge_model() {
    let src = "players 1 2 3 4\ndeck ranks 2..10 J Q K A suits S H D C\n\
               deal 1: 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS\n? hand1(2S)\n";
    let (e, at) = fails_with(
        src,
        Options {
            max_worlds: u128::MAX,
            engine: Engine::Explicit,
            ..Options::default()
        },
    );
    assert_eq!((e.code, at.as_str()), ("too-many-worlds", "3:1"), "{e:?}");
    assert!(
        e.message.contains("GiB") && e.message.contains("no --max-worlds"),
        "{}",
        e.message
    );
    assert!(e.help.unwrap().contains("symbolic"));
    // With `auto`, the same deal goes to the symbolic engine.
    let auto = Options {
        max_worlds: u128::MAX,
        engine: Engine::Auto,
        ..Options::default()
    };
    common::run_with(src, auto);
}

#[test]
fn deep_and_long_formulas_are_parsed_or_refused_with_a_location() {
    let long = vec!["p"; 10_000].join(" & ");
    assert!(parse_formula(&long).is_ok());
    let long_or = vec!["K1 p"; 5_000].join(" | ");
    assert!(parse_formula(&long_or).is_ok());
    let iff = vec!["p"; 10_000].join(" <-> ");
    assert!(parse_formula(&iff).is_ok());
    for deep in [
        format!("{}p", "K1 ".repeat(10_000)),
        format!("{}p", "not ".repeat(10_000)),
        format!("{}p", "[!p] ".repeat(10_000)),
        format!("{}p", "<!q> ".repeat(10_000)),
        vec!["p"; 10_000].join(" -> "),
        format!("{}p{}", "(".repeat(10_000), ")".repeat(10_000)),
    ] {
        let e = parse_formula(&deep).expect_err("too deep");
        assert_eq!(e.message, "this formula is nested too deeply");
        assert!(e.span.start > 0 && e.span.end <= deep.len());
    }
    // 200 levels are allowed and evaluated.
    let src = format!(
        "players 1 2\ndeck Q A\ndeal 1: Q | 2: A\n? {}hand1(Q)\n? {}\n",
        "K1 ".repeat(190),
        vec!["hand1(Q)"; 10_000].join(" & ")
    );
    assert_eq!(both(&src), [true, true]);
}

#[test]
fn let_names_cannot_blow_up() {
    let mut src = String::from("players 1 2\ndeck Q A\ndeal 1: Q | 2: A\nlet a0 = hand1(Q)\n");
    for i in 1..=19 {
        src.push_str(&format!("let a{i} = a{} & a{}\n", i - 1, i - 1));
    }
    // a19 stands for 2^20 - 1 operators, the first over a million.
    let (e, at) = fails(&src);
    assert_eq!((e.code, at.as_str()), ("formula-too-large", "23:5"));
}

#[test]
fn a_byte_order_mark_is_ignored() {
    let src = "\u{feff}players 1 2\ndeck Q A\ndeal 1: Q | 2: A\n? hand1(Q)\n";
    assert_eq!(both(src), [true]);
}

#[test]
fn an_empty_file_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.deal");
    std::fs::write(&empty, "# only a comment\n\n").unwrap();
    for cmd in ["run", "check"] {
        let (code, _, stderr) = output(dealer().arg(cmd).arg(&empty));
        assert_eq!(code, 2, "{cmd}");
        assert!(stderr.contains("has no statements"), "{stderr}");
    }
}

#[test]
fn a_deal_that_cannot_be_built_is_reported_at_the_deal() {
    let src = "players 1 2 3\ndeck ranks 2..10 J Q K A suits S H D C\n\
               deal 1: 2S 3S 4S 5S | 2: 6S 7S 8S 9S\nprop p\n\n? hand1(2S)\n";
    let (e, at) = fails_with(
        src,
        Options {
            max_worlds: 1000,
            engine: Engine::Explicit,
            ..Options::default()
        },
    );
    assert_eq!((e.code, at.as_str()), ("too-many-worlds", "3:1"));
}

#[test]
fn go_fish_draw_from_an_empty_stock() {
    let src = "game gofish\nplayers 1 2 3\ndeck Q*2 A*2 K*2\ndeal 1: Q A | 2: K Q | 3: K A\n\
               ask 1 2 A\ndraw 1\n";
    let (e, at) = fails(src);
    assert_eq!((e.code, at.as_str()), ("empty-stock", "6:1"));
    assert!(e.message.contains("the stock is empty"), "{}", e.message);
}

#[test]
fn zero_and_negative_counts() {
    let (code, _, stderr) = output(dealer().args([
        "bench",
        "--runs",
        "0",
        "scenarios/classics/explicit-model.deal",
    ]));
    assert_eq!(code, 2);
    assert!(stderr.contains("'--runs"), "{stderr}");
    let (code, _, stderr) = output(dealer().args(["run", "--max-worlds", "-5", "x.deal"]));
    assert_eq!(code, 2, "{stderr}");
    let (e, at) = fails("players 1 2\ndeck A*0 B\n");
    assert_eq!((e.code, at.as_str()), ("bad-deck", "2:6"));
    let (e, _) = fails("players 1 2\ndeck sets 1..3 of 0\n");
    assert_eq!(e.code, "bad-deck");
}

#[test]
fn export_into_a_missing_folder() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("missing").join("fig.dot");
    let (code, _, stderr) = output(
        dealer()
            .args(["export", "scenarios/classics/explicit-model.deal", "-o"])
            .arg(&out),
    );
    // The obvious success: the folder is made and the figure written.
    assert_eq!(code, 0, "{stderr}");
    assert!(out.exists());
}

#[test]
fn a_dash_reads_the_scenario_from_standard_input() {
    let src = "players 1 2\ndeck Q A\ndeal 1: Q | 2: A\nexpect K1 hand1(Q)\n";
    let (code, stdout, stderr) = output(dealer().args(["run", "-"]).write_stdin(src));
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("expectations: 1 held, 0 failed"),
        "{stdout}"
    );
    let (code, _, stderr) = output(
        dealer()
            .args(["check", "-"])
            .write_stdin("players 1 2\ndeck Q\ndeal 1: K\n"),
    );
    assert_eq!(code, 2);
    assert!(stderr.contains("<stdin>:3:9"), "{stderr}");
}

#[test]
fn check_warns_about_a_bare_not_before_a_binary_operator() {
    let src = "players 1 2\ndeck Q A\ndeal 1: Q | 2: A\n? not hand1(Q) & hand2(A)\n? (not hand1(Q)) & hand2(A)\n";
    let (code, stdout, stderr) = output(dealer().args(["check", "-"]).write_stdin(src));
    assert_eq!(code, 0, "a warning is not an error: {stderr}");
    assert!(stdout.contains("no errors, 1 warning"), "{stdout}");
    assert_eq!(
        stderr.matches("warning[not-precedence]").count(),
        1,
        "{stderr}"
    );
    assert!(stderr.contains("<stdin>:4:3"), "{stderr}");
    assert!(stderr.contains("not (hand1(Q) & hand2(A))"), "{stderr}");
}

#[test]
fn statements_with_a_bom_parse_as_without() {
    let with = syntax::parse("\u{feff}? p\n").unwrap();
    assert!(matches!(with.statements[0].kind, StatementKind::Query(_)));
}
