//! Inputs a new user gets wrong, from the command line and in files: each
//! ends with a clear, located error (or simply works), never a panic, an
//! abort, a hang or a silent misreading; and the numbers the README, the
//! help and docs/language.md give are the ones the code uses.

use crate::common;

use std::time::{Duration, Instant};

use assert_cmd::Command;
use common::fails;
use dealer::syntax::{self, ast::FormulaKind};

/// The dealer binary, stopped after a minute.
fn dealer() -> Command {
    let mut cmd = common::dealer();
    cmd.timeout(Duration::from_secs(60));
    cmd
}

use common::output;

/// Runs dealer with `args`; it must refuse with exit code 2, no panic, and
/// a message holding every one of `says`.
fn refused(args: &[&str], says: &[&str]) -> String {
    let (code, _, stderr) = output(dealer().args(args));
    assert_eq!(code, 2, "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    for s in says {
        assert!(stderr.contains(s), "{args:?} should say {s:?}: {stderr}");
    }
    stderr
}

fn tournament<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "tournament",
        "gofish",
        "--strategies",
        "random,random,random",
        "--games",
        "1",
    ];
    args.extend_from_slice(extra);
    args
}

// ------------------------------------------------------------ tournament flags

#[test]
fn a_bad_deck_flag_is_read_by_the_scenario_grammar_with_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t");
    let out = out.to_str().unwrap();
    for (deck, says) in [
        ("", "expected a card"),
        ("Q*x", "--deck:1:8"),
        ("Q*0 A*4", "zero copies"),
        ("garbage |", "--deck:1:14"),
    ] {
        refused(
            &tournament(&["--deck", deck, "--hand", "1", "--out", out]),
            &[says],
        );
    }
    refused(
        &tournament(&["--deck", "players 1 2", "--hand", "1", "--out", out]),
        &["not a `players` statement"],
    );
    // Nothing was played, so nothing was written.
    assert!(!std::path::Path::new(out).join("games.csv").exists());
}

#[test]
fn a_hand_that_does_not_fit_the_deck_is_refused() {
    for hand in ["0", "99"] {
        refused(
            &tournament(&["--deck", "Q*4 A*4", "--hand", hand]),
            &[&format!("--hand {hand}"), "the deck has 8"],
        );
    }
    refused(&tournament(&["--hand", "3"]), &["--deck"]);
}

#[test]
fn tournament_names_a_missing_game_and_refuses_no_games() {
    refused(
        &["tournament", "nosuch", "--strategies", "random"],
        &["no game `nosuch`", "gofish"],
    );
    refused(
        &[
            "tournament",
            "gofish",
            "--strategies",
            "random",
            "--games",
            "0",
        ],
        &["--games", "at least 1"],
    );
}

#[test]
fn a_negative_seed_is_refused_by_name() {
    for args in [
        vec!["play", "gofish", "--seed", "-1"],
        tournament(&["--seed", "-1"]),
        vec!["bench", "--play", "gofish", "--seed", "-1"],
    ] {
        refused(&args, &["--seed", "`-1` is not a whole number"]);
    }
}

#[test]
fn a_huge_thread_count_is_refused() {
    refused(
        &[
            "bench",
            "--play",
            "gofish",
            "--threads",
            "18446744073709551615",
        ],
        &["--threads", "0..=256"],
    );
}

#[test]
fn an_output_that_cannot_be_written_is_found_before_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().to_str().unwrap();
    let (code, stdout, stderr) =
        output(dealer().args(["play", "gofish", "--size", "small", "--out", folder]));
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("it is a folder"), "{stderr}");
    assert!(stdout.is_empty(), "no move was played: {stdout}");
    let missing = dir.path().join("no").join("such").join("game.deal");
    let (code, stdout, _) = output(
        dealer()
            .args(["play", "gofish", "--size", "small", "--out"])
            .arg(&missing),
    );
    assert_eq!(code, 2);
    assert!(stdout.is_empty(), "{stdout}");
}

#[test]
fn a_person_whose_input_ends_keeps_the_game_played_so_far() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("part.deal");
    let (code, stdout, stderr) = output(
        dealer()
            .args(["play", "gofish", "--size", "small", "--seed", "3"])
            .args(["--me", "1", "--agents", "random,random", "--out"])
            .arg(&out)
            .write_stdin("look\nask 1 3 Q\n"),
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("the input ended before the game did: it stops after"),
        "{stdout}"
    );
    let saved = std::fs::read_to_string(&out).expect("the game so far is kept");
    assert!(saved.contains("ask 1 3 Q"), "{saved}");
    // What was kept replays.
    let (code, _, stderr) = output(dealer().arg("run").arg(&out));
    assert_eq!(code, 0, "{stderr}");

    // A byte that is not UTF-8 stops the game with a word, and keeps it too.
    let (code, _, stderr) = output(
        dealer()
            .args(["play", "gofish", "--size", "small", "--seed", "3"])
            .args(["--me", "1", "--agents", "random,random", "--out"])
            .arg(&out)
            .write_stdin(b"look\n\xff\xfe\n".to_vec()),
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("cannot read the input (line 2"), "{stderr}");
    assert!(out.exists());
}

// ------------------------------------------------------------ files

fn run_file(bytes: &[u8]) -> (i32, String, String, Duration) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.deal");
    std::fs::write(&path, bytes).unwrap();
    let start = Instant::now();
    let (code, stdout, stderr) = output(dealer().arg("run").arg(&path));
    (code, stdout, stderr, start.elapsed())
}

#[test]
fn huge_decks_are_refused_before_anything_is_allocated() {
    for (deck, at, says) in [
        ("Q*4000000000", "2:6", "more than 1,000,000 cards"),
        ("0..100000000", "2:6", "too many values"),
        ("sets 1..9 of 4000000", "2:6", "more than 1000 kinds"),
    ] {
        let src = format!("players 1 2\ndeck {deck}\n");
        let (code, _, stderr, took) = run_file(src.as_bytes());
        assert_eq!(code, 2, "{deck}: {stderr}");
        assert!(stderr.contains(&format!("t.deal:{at}")), "{deck}: {stderr}");
        assert!(stderr.contains(says), "{deck}: {stderr}");
        assert!(took < Duration::from_secs(20), "{deck}: {took:?}");
    }
    let (e, at) = fails("players 1 2\ndeck 0..1000\n");
    assert_eq!((e.code, at.as_str()), ("bad-deck", "2:6"));
    let many: Vec<String> = (1..=1001).map(|i| i.to_string()).collect();
    let (e, at) = fails(&format!("players {}\n", many.join(" ")));
    assert_eq!((e.code, at.as_str()), ("too-many-players", "1:1"));
    let (code, _, stderr) = output(dealer().args(["gen", "muddy", "100000000"]));
    assert_eq!(code, 2);
    assert!(stderr.contains("at most 1000 players"), "{stderr}");
}

#[test]
fn a_byte_that_is_not_utf8_is_located() {
    let (code, _, stderr, _) = run_file(b"players 1 2\ndeck A \xff B\n");
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("t.deal:2:8"), "{stderr}");
    assert!(stderr.contains("byte 0xFF is not UTF-8"), "{stderr}");
}

#[test]
fn lines_ended_by_a_lone_carriage_return_are_lines() {
    let src = b"players 1 2\rdeck Q A\rdeal 1: Q | 2: A\rexpect K1 hand1(Q)\r? K2 hand1(Q)\r";
    let (code, stdout, stderr, _) = run_file(src);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("   5  ? K2 hand1(Q)  => true"), "{stdout}");
    assert!(stdout.contains("1 held, 0 failed"), "{stdout}");
}

#[test]
fn a_huge_line_is_refused_at_once_and_shown_in_part() {
    let mut src = b"players 1 2\ndeck A B\ndeal 1: A | 2: B\n? ".to_vec();
    src.extend(std::iter::repeat_n(b"p & ".as_slice(), 500_000).flatten());
    src.extend(b"p\n");
    let (code, _, stderr, took) = run_file(&src);
    assert_eq!(code, 2, "{}", &stderr[..stderr.len().min(2000)]);
    assert!(stderr.contains("t.deal:4:1"), "{stderr}");
    assert!(stderr.contains("bytes long"), "{stderr}");
    assert!(stderr.len() < 2000, "the line is not repeated whole");
    assert!(took < Duration::from_secs(20), "{took:?}");
    // A line of garbage: one located error, the line shown in part.
    let mut junk = b"players 1 2\n".to_vec();
    junk.extend(std::iter::repeat_n(b"#( ".as_slice(), 100_000).flatten());
    let (code, _, stderr, _) = run_file(&junk);
    assert_eq!(code, 2);
    assert!(stderr.len() < 2000, "{}", stderr.len());
}

#[test]
fn a_deck_form_missing_its_number_is_an_error() {
    let errors = syntax::parse("players 1 2\ndeck sets 1..2 of\n").expect_err("refused");
    let e = errors[0].to_diagnostic();
    assert_eq!(e.code, "syntax");
    assert_eq!(e.span.start, "players 1 2\ndeck ".len());
    assert!(e.message.contains("`sets`"), "{}", e.message);
    assert!(e.help.unwrap().contains("deck sets 1..13 of 4"));
}

// ------------------------------------------------------------ the language

fn formula(src: &str) -> FormulaKind {
    syntax::parse_formula(src)
        .unwrap_or_else(|e| panic!("{src}: {e:?}"))
        .kind
}

#[test]
fn a_card_term_may_have_blanks() {
    let glued = formula("K1 H4<8,4>");
    for spaced in [
        "K1 H4<8, 4>",
        "K1 H4 <8,4>",
        "K1 H4 < 8 , 4 >",
        "K1 hand4(<8, 4>)",
    ] {
        let read = formula(spaced);
        // The same card, named without blanks (spans differ).
        assert!(format!("{read:?}").contains("<8,4>"), "{spaced}: {read:?}");
        let card = |k: &FormulaKind| match k {
            FormulaKind::K(_, f) => match &f.kind {
                FormulaKind::Named { card, count, .. } => {
                    (card.as_ref().map(|c| c.text.to_string()), *count)
                }
                other => panic!("{other:?}"),
            },
            other => panic!("{other:?}"),
        };
        assert_eq!(card(&read), card(&glued), "{spaced}");
    }
    // A count stays a count.
    assert!(matches!(
        formula("H4 < 8"),
        FormulaKind::Named { count: Some(_), .. }
    ));
    let src = "players 1 2 3 4\ndeck sets 8..9 of 4\ndeal 1: <8,1> <8,2> | 2: <8,3> | 3: <9,1> | 4: <8,4>\n\
               expect hand4(<8, 4>)\nask 1 4 <8, 4>\n";
    let scenario = syntax::parse(src).expect("parses");
    assert_eq!(scenario.statements.len(), 5);
}

#[test]
fn a_glued_count_gets_a_hint_from_check() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("k.deal");
    std::fs::write(
        &path,
        "game kwartet\nplayers 1 2 3 4\ndeck sets 8..9 of 4\n\
         deal 1: <8,1> <8,2> | 2: <8,3> | 3: <9,1> <9,2> | 4: <8,4> <9,3> <9,4>\n\
         expect K1 H4<8\n",
    )
    .unwrap();
    let (code, _, stderr) = output(dealer().arg("check").arg(&path));
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("warning[glued-count]"), "{stderr}");
    assert!(stderr.contains("k.deal:5:11"), "{stderr}");
    assert!(stderr.contains("H4<8,M>"), "{stderr}");
}

#[test]
fn an_interrupted_move_is_not_called_illegal() {
    use dealer::cards::Refusal;
    use dealer::diag::Span;
    use dealer::engine::EngineError;
    let span = Span::new(0, 4);
    let d = dealer::interp::errors::refused_move(&Refusal::from(EngineError::Interrupted), span);
    assert_eq!(d.code, "interrupted");
    assert!(!d.label.contains("illegal"), "{}", d.label);
    let d = dealer::interp::errors::refused_move(&Refusal::new("out-of-turn", "not yet"), span);
    assert_eq!(d.label, "illegal move");
}

// ------------------------------------------------------------ run's output

#[test]
fn run_names_the_statement_of_every_answer() {
    let src =
        "players 1 2\ndeck Q A B\ndeal 1: Q | 2: A\nwhy K1 hand2(A)\nwhy K1 hand2(B)\nstats\n";
    let (code, stdout, stderr, _) = run_file(src.as_bytes());
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("   4  why K1 hand2(A)"), "{stdout}");
    assert!(stdout.contains("   5  why K1 hand2(B)"), "{stdout}");
    assert!(stdout.contains("   6  stats"), "{stdout}");
}

#[test]
fn counts_are_grouped_by_thousands_everywhere() {
    let src = "players 1 2 3\ndeck ranks A K Q J 10 9 8 suits S H D C\n\
               deal 1: AS AH AD AC | 2: KS KH KD KC | 3: QS QH QD QC\n\
               expect considers 1 = 5\nexpect worlds = 5\n";
    let (code, stdout, _, _) = run_file(src.as_bytes());
    assert_eq!(code, 1);
    assert!(stdout.contains("considers 51,482,970 world(s)"), "{stdout}");
    assert!(stdout.contains("1,054,113,810,750"), "{stdout}");
    assert_eq!(dealer::diag::thousands(34650u32), "34,650");
    assert_eq!(dealer::diag::thousands(1000u32), "1000");
}

// ------------------------------------------------------------ docs and help

#[test]
fn the_readme_help_and_language_reference_give_the_codes_numbers() {
    use dealer::engine::symbolic::{BddBudget, SymbolicLimits};
    let root = env!("CARGO_MANIFEST_DIR");
    let readme = std::fs::read_to_string(format!("{root}/README.md")).unwrap();
    let language = std::fs::read_to_string(format!("{root}/docs/language.md")).unwrap();
    let (_, help, _) = output(dealer().args(["run", "--help"]));
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    let power = |n: usize| {
        assert!(n.is_power_of_two());
        format!("2^{}", n.trailing_zeros())
    };
    let game = power(SymbolicLimits::for_budget(BddBudget::Game).collect_from);
    let scenario = power(SymbolicLimits::for_budget(BddBudget::Scenario).collect_from);
    let budget = dealer::diag::thousands(dealer::interp::DEFAULT_MAX_WORLDS);
    let margin = format!("{}", dealer::engine::deal::SYMBOLIC_MARGIN);
    let cards = dealer::engine::deal::EXPLICIT_CARDS.to_string();
    let locations = dealer::engine::deal::EXPLICIT_LOCATIONS.to_string();
    for (name, text) in [("README.md", &readme), ("docs/language.md", &language)] {
        for number in [&game, &scenario, &budget, &margin, &cards, &locations] {
            assert!(text.contains(number.as_str()), "{name} should say {number}");
        }
        assert!(!text.contains("8 million"), "{name}");
        assert!(!text.contains("names only"), "{name}");
    }
    for number in [&game, &scenario, &margin, &cards, &locations] {
        assert!(
            help.contains(number.as_str()),
            "--help should say {number}: {help}"
        );
    }
    assert!(help.contains("[default: 10000000]"), "{help}");
}

// ------------------------------------------------------------ random flags

use crate::common::cli_args;

/// Random command lines (`examples/cli_fuzz.rs` runs as many as asked,
/// in-process): every run of the binary ends with exit code 0, 1 or 2 and
/// no panic, well within its time.
#[test]
fn random_flags_end_in_an_answer_or_a_clear_error() {
    use rand::SeedableRng;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("file"), b"players 1 2\ndeck \xff Q\n").unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(42);
    for _ in 0..120 {
        let args = cli_args::random_args(&mut rng, dir.path());
        let mut cmd = dealer();
        cmd.current_dir(dir.path())
            .args(&args)
            .timeout(Duration::from_secs(30));
        let (code, _, stderr) = output(&mut cmd);
        assert!(matches!(code, 0..=2), "{args:?}: exit {code}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

/// Every referee deals both its sizes: its deck text (which may go on
/// after the deck line) is read as the referee's, not as a user's flag.
#[test]
fn every_referee_deals_both_sizes() {
    use dealer::cards::Size;
    for game in dealer::play::playable() {
        let (_, referee) = dealer::play::refereed(game).expect("a referee");
        for size in [Size::Full, Size::Teaching] {
            let setup = referee.setup(1, size);
            syntax::parse(&setup).unwrap_or_else(|e| panic!("{game}: {e:?}"));
        }
    }
}

/// A world of variables is listed the same way whether the listing reads
/// the current model (`worlds`) or the whole written one (`worlds all`).
#[test]
fn a_world_of_variables_is_listed_one_way() {
    let (code, stdout, stderr) = output(dealer().args(["run", "scenarios/classics/cheryl.deal"]));
    assert_eq!(code, 0, "{stderr}");
    let src = std::fs::read_to_string(format!(
        "{}/scenarios/classics/cheryl.deal",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let extra = format!("{src}\nworlds where true\n");
    let (code, reachable, _, _) = run_file(extra.as_bytes());
    assert_eq!(code, 0);
    assert!(stdout.contains("          month=7,day=16*"), "{stdout}");
    assert!(
        reachable.ends_with("          month=7,day=16*\nexpectations: 7 held, 0 failed\n"),
        "{reachable}"
    );
    assert!(!reachable.contains("w0"), "{reachable}");
}
