//! A strategy knows only what its player knows: a guard or score that
//! reads another player's hand (or anything its player does not know) is
//! refused by `dealer check FILE.strat` and by every command that seats a
//! strategy, with the rule's line and the subformula; every shipped
//! strategy passes; a psychic player's `glimpse` rules are the documented
//! exception, and `check` says rule by rule what it checked.

use std::path::PathBuf;

use assert_cmd::Command;
use dealer::cards::{game_named, Size};
use dealer::strategy::knowledge::{describe, Checked};
use dealer::strategy::{vetted, vetted_checked, BUILT_IN};

/// One cheating strategy per game: each reads the hidden cards of others.
const CHEATS: &[(&str, &str, &str)] = &[
    (
        "gofish",
        "strategy cheat for gofish\n# asks where it sees the cards\nrule peek: ask me x r when hand_x(r)\n",
        "hand_2(",
    ),
    (
        "kwartet",
        "strategy cheat for kwartet\nrule peek: ask me x c when hand_x(c)\n",
        "hand_2(",
    ),
    (
        "kemps",
        "strategy cheat for kemps\nrule peek: pick me c when any(y in others: hand_y(rank(c)) >= 1)\nrule wait: pass me\n",
        "hand_2(",
    ),
    (
        "konigrufen",
        "strategy cheat for konigrufen\nrule lead: play me card when any(y in others: hand_y(suit(card)) = 0)\n",
        "hand_Jakob(",
    ),
    (
        "cabo",
        "strategy cheat for cabo\nrule peek: draw me when any(y in others: y.3(0..1))\nrule away: discard me c\n",
        "2.3(0..1)",
    ),
];

fn write(dir: &str, name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dealer-knows-{}-{dir}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn dealer(args: &[&str]) -> (bool, String, String) {
    let out = Command::cargo_bin("dealer")
        .unwrap()
        .args(args)
        .env("NO_COLOR", "1")
        .timeout(std::time::Duration::from_secs(300))
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The cheating file of each game is refused by `dealer check`, `dealer
/// play`, `dealer tournament` and `dealer bench --play`, each time with
/// the file, the rule's line and the subformula read.
#[test]
fn a_cheating_strategy_is_refused_in_every_game_and_command() {
    for (game, text, read) in CHEATS {
        let path = write(game, &format!("{game}-cheat.strat"), text);
        let file = path.to_str().unwrap();
        let line = text.lines().position(|l| l.starts_with("rule")).unwrap() + 1;
        let located = format!("{game}-cheat.strat:{line}:1");
        let check = |(ok, out, err): (bool, String, String), what: &str| {
            assert!(!ok, "{game} {what} accepted the cheat: {out}");
            assert!(
                err.contains("error[strategy-knowledge]"),
                "{game} {what}: {err}"
            );
            assert!(err.contains(&located), "{game} {what}: {err}");
            assert!(err.contains("outside player"), "{game} {what}: {err}");
            assert!(
                err.contains(&format!("reads `{read}"))
                    || err.contains(&format!("reads `({read}"))
                    || err.contains(&format!("reads `(({read}")),
                "{game} {what}: {err}"
            );
        };
        check(dealer(&["check", file]), "check");
        check(
            dealer(&["play", game, "--agents", file, "--size", "small"]),
            "play",
        );
        let out_dir = path.parent().unwrap().join("tournament");
        check(
            dealer(&[
                "tournament",
                game,
                "--strategies",
                file,
                "--repeats",
                "--size",
                "small",
                "--games",
                "1",
                "--out",
                out_dir.to_str().unwrap(),
            ]),
            "tournament",
        );
        check(
            dealer(&[
                "bench", "--play", game, "--agents", file, "--size", "small", "--games", "1",
            ]),
            "bench",
        );
    }
}

/// The refusal is the model's: at the state where the Go Fish cheat is
/// refused (the deal of seed 1, player 1's first ask), player 1 knows
/// neither that player 2 holds the rank nor that it does not.
#[test]
fn the_refused_guard_is_unknown_in_the_model() {
    let src = CHEATS[0].1;
    let err = vetted("cheat.strat", src).unwrap_err().to_string();
    let instance = err
        .split("its guard `")
        .nth(1)
        .and_then(|r| r.split('`').next())
        .unwrap_or_else(|| panic!("no instance in {err}"));
    assert!(instance.starts_with("hand_2("), "{err}");
    let referee = game_named("gofish").unwrap().referee().unwrap();
    let setup = referee.setup(1, Size::Teaching);
    let queries = format!(
        "{setup}? K_1 {instance}\n? K_1 !{instance}\n? hand_1({})\n",
        &instance[7..instance.len() - 1]
    );
    let (ok, out, err) = {
        let path = write("model", "model.deal", &queries);
        dealer(&["run", path.to_str().unwrap()])
    };
    assert!(ok, "{err}");
    let answers: Vec<&str> = out.lines().filter(|l| l.contains("=> ")).collect();
    assert!(answers.len() >= 3, "{out}");
    assert!(
        answers[0].ends_with("=> false") && answers[1].ends_with("=> false"),
        "{out}"
    );
    // The rank is one player 1 holds: the ask was legal.
    assert!(answers[2].ends_with("=> true"), "{out}");
}

/// Every shipped strategy passes the check.
#[test]
fn every_shipped_strategy_knows_only_what_its_player_knows() {
    for (name, src) in BUILT_IN {
        if let Err(e) = vetted(name, src) {
            panic!("{name}: {e}");
        }
    }
}

/// The exemption is a psychic player's `glimpse` rules only: a strategy
/// with a glimpse rule (even a dead one, `when false`) has every other
/// rule checked, so one that reads an unseen slot is refused by `dealer
/// check` and cannot be seated in a tournament.
#[test]
fn only_a_psychic_players_glimpse_is_exempt() {
    let dead = "strategy cheat for cabo\nrule look: glimpse me s when false\nrule peek: draw me when any(y in others: y.3(0..1))\nrule away: discard me c\n";
    let err = vetted("cheat.strat", dead).unwrap_err().to_string();
    assert!(err.contains("error[strategy-knowledge]"), "{err}");
    assert!(err.contains("cheat.strat:3:1"), "{err}");
    assert!(err.contains("rule `peek` reads `2.3(0..1)`"), "{err}");
    let path = write("dead-glimpse", "cabo-cheat.strat", dead);
    let file = path.to_str().unwrap();
    let (ok, out, err) = dealer(&["check", file]);
    assert!(!ok && err.contains("rule `peek` reads"), "{out}{err}");
    let out_dir = path.parent().unwrap().join("tournament");
    let (ok, out, err) = dealer(&[
        "tournament",
        "cabo",
        "--strategies",
        &format!("{file},regular"),
        "--games",
        "1",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert!(!ok && err.contains("rule `peek` reads"), "{out}{err}");
    assert!(!out_dir.join("results.csv").exists());

    // The glimpse's own guard may read any card: it is exempt, and
    // `check` says so; the rule that reads only the player's knowledge
    // is checked.
    let seer = "strategy seer for cabo\nrule look: glimpse me s when any(y in others: y.3(0..1))\nrule open: draw me from open: t when any(w in 1..4: K_me !me.w(0..t))\nrule closed: draw me\nrule away: discard me c\n";
    let (_, checked) = vetted_checked("seer.strat", seer).unwrap();
    let Checked::Played(checks) = checked else {
        panic!("the seer was not tried: {checked:?}")
    };
    assert!(checks[1].asked > 0 && checks[1].by_syntax > 0, "{checks:?}");
    let path = write("seer", "cabo-seer.strat", seer);
    let (ok, out, err) = dealer(&["check", path.to_str().unwrap()]);
    assert!(ok, "{out}{err}");
    assert!(out.contains("rule look: a glimpse, exempt"), "{out}");
    assert!(
        out.contains(&format!(
            "rule open: {} instance(s) decided by the player's knowledge",
            checks[1].by_syntax + checks[1].by_model
        )),
        "{out}"
    );
    assert!(out.contains("rule closed: no guard or score"), "{out}");
}

/// `check` says what it checked, and it is true of every shipped
/// strategy: every rule that reads something was asked and decided in
/// the trial games, none is left unchecked.
#[test]
fn check_says_what_it_checked_of_every_shipped_strategy() {
    for (name, src) in BUILT_IN {
        let (strategy, checked) = vetted_checked(name, src).unwrap();
        let Checked::Played(checks) = checked else {
            panic!("{name} was not tried")
        };
        let lines = describe(&strategy, &checks);
        assert_eq!(lines.len(), strategy.rules.len(), "{name}");
        for ((line, rule), c) in lines.iter().zip(&strategy.rules).zip(&checks) {
            // The Cabo-like game's special cards (10, 11, 12) are not in
            // its teaching deck, so the trial games never offer their
            // moves: tests/it/cabo_special.rs checks those rules.
            let special =
                name.starts_with("cabo-") && ["peek", "spy", "swap"].contains(&rule.name.as_str());
            assert!(special || !line.contains("NOT CHECKED"), "{name}: {line}");
            if line.contains("instance(s) decided") {
                assert!(
                    c.asked > 0 && c.by_syntax + c.by_model > 0,
                    "{name}: {line}"
                );
                assert!(rule.guard.is_some() || !rule.score.is_empty(), "{name}");
            }
        }
    }
}

/// A strategy that reads only its player's knowledge passes, with its
/// rule reported checked; a rule whose move never comes up is reported
/// not checked rather than passed off as checked.
#[test]
fn a_strategy_of_own_knowledge_passes_and_an_unasked_rule_is_named() {
    let src = "strategy mine for gofish\nrule sure: ask me x r when K_me hand_x(r) ∧ ¬K_me ¬hand_me(r)\nrule never: reveal me c when hand_2(Q)\nrule rest: ask me _ _\n";
    let (strategy, checked) = vetted_checked("mine.strat", src).unwrap();
    let Checked::Played(checks) = checked else {
        panic!("not tried")
    };
    let lines = describe(&strategy, &checks);
    assert!(checks[0].by_syntax > 0, "{lines:?}");
    assert!(lines[0].starts_with("rule sure: "), "{lines:?}");
    assert!(
        lines[0].contains("decided by the player's knowledge"),
        "{lines:?}"
    );
    assert!(lines[1].contains("NOT CHECKED"), "{lines:?}");
    assert_eq!(checks[1].asked, 0);
}

/// A strategy for the free game (no referee) is parsed but cannot be
/// tried, and `check` says that nothing was checked.
#[test]
fn a_strategy_for_the_free_game_is_not_said_checked() {
    let src = "strategy f for free\nrule a: any when hand_2(Q)\n";
    let (_, checked) = vetted_checked("f.strat", src).unwrap();
    assert_eq!(checked, Checked::NoReferee);
    let path = write("free", "free-f.strat", src);
    let (ok, out, err) = dealer(&["check", path.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(
        out.contains("its knowledge was not checked: free has no referee"),
        "{out}"
    );
    assert!(!out.contains("decided by"), "{out}");
}

/// A quantifier over a huge range, or many nested ones, is refused at
/// once with the quantifier's line and column, before anything is expanded.
#[test]
fn huge_quantifiers_are_refused_fast_with_a_location() {
    let start = std::time::Instant::now();
    let range = "strategy big for gofish\nrule a: ask me x r when any(y in 1..100000000: hand_me(r) >= y)\n";
    let err = vetted("big.strat", range).unwrap_err().to_string();
    assert!(err.contains("big.strat:2:34"), "{err}");
    assert!(err.contains("1..100000000 is empty or too long"), "{err}");
    let mut f = "K_me hand_me(r)".to_string();
    for i in 0..16 {
        f = format!("any(y{i} in players: {f})");
    }
    let nested = format!("strategy deep for gofish\n\n# nested\nrule a: ask me x r when {f}\n");
    let err = vetted("deep.strat", &nested).unwrap_err().to_string();
    assert!(err.contains("deep.strat:4:25"), "{err}");
    assert!(err.contains("more than 65,536 parts"), "{err}");
    assert!(
        start.elapsed() < std::time::Duration::from_secs(1),
        "{:?}",
        start.elapsed()
    );
}

/// A strategy for a game dealer does not have is refused at its header;
/// the game is looked up among the games the caller gives (the registry
/// by default), and the trial games are played only once it is found.
#[test]
fn a_strategy_for_no_game_is_refused() {
    let err = vetted("x.strat", "strategy x for chess\nrule a: any\n")
        .unwrap_err()
        .to_string();
    assert!(err.contains("no game `chess`"), "{err}");
    assert!(err.contains("x.strat:1:"), "{err}");
    let free = dealer::cards::game_named("free").unwrap();
    let checks = dealer::strategy::knowledge::Checks::new(0);
    let src = "strategy x for gofish\nrule a: ask me x r\n";
    let err = dealer::strategy::vetted_in(&[free], &checks, "x.strat", src)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("no game `gofish`; the games are: free"),
        "{err}"
    );
    let gofish = dealer::cards::game_named("gofish").unwrap();
    let (_, checked) =
        dealer::strategy::vetted_in(&[free, gofish], &checks, "x.strat", src).unwrap();
    assert!(matches!(checked, Checked::Played(_)), "{checked:?}");
}

/// Random, mutated and truncated strategy files given to `check`, `play`
/// and `tournament`, and random quiz answers, in-process: every run ends
/// with an exit code, none panics (`examples/cli_fuzz.rs` runs many more).
#[test]
fn random_strategy_files_and_quiz_answers_end_without_a_panic() {
    use rand::SeedableRng;
    let dir = tempfile::tempdir().unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    for _ in 0..60 {
        let case = crate::common::strat_args::random_case(&mut rng, dir.path());
        let argv = std::iter::once("dealer".to_string()).chain(case.args.clone());
        let run = std::panic::catch_unwind(|| match case.input.clone() {
            Some(answers) => {
                dealer::cli::quiz::with_input(answers, || dealer::cli::main_from(argv))
            }
            None => dealer::cli::main_from(argv),
        });
        assert!(run.is_ok(), "panicked: {:?}", case.args);
    }
}
