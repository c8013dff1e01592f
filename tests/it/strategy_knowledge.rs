//! A strategy knows only what its player knows: a guard or score that
//! reads another player's hand (or anything its player does not know) is
//! refused by `dealer check FILE.strat` and by every command that seats a
//! strategy, with the rule's line and the subformula; every shipped
//! strategy passes; a psychic player is the documented exception.

use std::path::PathBuf;

use assert_cmd::Command;
use dealer::cards::{game_named, Size};
use dealer::strategy::{vetted, BUILT_IN};

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
    let err = vetted("cheat.strat", src).unwrap_err();
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

/// A psychic player is the exception: the same cheat in a strategy that
/// glimpses (its player is declared `psychic`) is accepted.
#[test]
fn a_psychic_strategy_is_not_checked() {
    let src = "strategy seer for cabo\nrule look: glimpse me s when !Kv_me s\nrule peek: draw me when any(y in others: y.3(0..1))\nrule away: discard me c\n";
    assert!(vetted("seer.strat", src).is_ok());
    let path = write("seer", "cabo-seer.strat", src);
    let (ok, out, err) = dealer(&["check", path.to_str().unwrap()]);
    assert!(ok, "{out}{err}");
}

/// A strategy for a game dealer does not have is refused at its header.
#[test]
fn a_strategy_for_no_game_is_refused() {
    let err = vetted("x.strat", "strategy x for chess\nrule a: any\n").unwrap_err();
    assert!(err.contains("no game `chess`"), "{err}");
    assert!(err.contains("x.strat:1:"), "{err}");
}
