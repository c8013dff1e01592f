//! Playing games: seeded matches between agents are deterministic and end
//! in a legal final state; the written game replays with every expectation
//! holding on both engines; a person's desk refuses illegal moves with the
//! rule and changes nothing; the knowledge views agree with queries asked
//! of a fresh replay on the other engine; `dealer play` through a pipe.

use crate::common;
use assert_cmd::Command;
use dealer::cards::{game_named, Move, Size};
use dealer::interp::{Engine, Options, Output, Session};
use dealer::play::game_loop::playable;
use dealer::play::views::{first_order, second_order};
use dealer::play::{Desk, Match, Reply, Seat};
use dealer::syntax;
use proptest::prelude::*;

/// A match of `game` with every seat random (or `me` a person), seated
/// by the one seat factory.
fn seated(game: &str, seed: u64, size: Size, me: Option<usize>, engine: Engine) -> Match {
    let options = Options {
        engine,
        ..Options::default()
    };
    let mut m = Match::new(game, seed, size, options).expect("the game deals");
    m.seat_named(&[], me, &mut |name| {
        Err(dealer::diag::Diagnostic::unlocated("no-agent", format!("no agent {name}")).into())
    })
    .expect("one seat per player");
    m
}

/// Plays a match between agents to its end.
fn played(game: &str, seed: u64, size: Size) -> Match {
    let mut m = seated(game, seed, size, None, Engine::Auto);
    let mut moves = 0;
    while let Some(result) = m.agent_move() {
        if let Err(d) = result {
            panic!("{game} seed {seed}: {}", d.message);
        }
        moves += 1;
        assert!(moves < 5_000, "{game} seed {seed}: no end");
    }
    m
}

/// Replays scenario text on `engine`: the number of expectations, all held.
fn replay(text: &str, engine: Engine) -> (usize, Session) {
    common::all_held(text, engine)
}

#[test]
fn every_playable_game_is_played_to_a_legal_end() {
    let games = playable();
    assert!(
        games.contains(&"gofish") && games.contains(&"kwartet"),
        "{games:?}"
    );
    for game in games {
        for seed in 0..6 {
            let m = played(game, seed, Size::Teaching);
            assert!(m.is_over(), "{game} seed {seed}");
            assert!(m.legal_moves().is_empty());
            assert_eq!(m.current_player(), None);
            assert!(!m.winners().is_empty());
            assert!(!m.history().is_empty(), "{game} seed {seed}: no move");
        }
    }
}

#[test]
fn go_fish_and_kwartet_end_with_every_book_down() {
    for (game, books) in [("gofish", 3), ("kwartet", 3)] {
        for seed in 0..8 {
            let m = played(game, seed, Size::Teaching);
            assert_eq!(m.scores().iter().sum::<i64>(), books, "{game} seed {seed}");
        }
    }
}

#[test]
fn the_same_seed_plays_the_same_game() {
    for game in playable() {
        let a = played(game, 11, Size::Teaching).scenario();
        let b = played(game, 11, Size::Teaching).scenario();
        assert_eq!(a, b, "{game}: not deterministic");
        let others: Vec<String> = (12..16)
            .map(|s| played(game, s, Size::Teaching).scenario())
            .collect();
        assert!(
            others.iter().any(|o| *o != a),
            "{game}: every seed plays alike"
        );
    }
}

#[test]
fn a_written_game_replays_on_both_engines() {
    for game in playable() {
        for seed in 0..3 {
            let text = played(game, seed, Size::Teaching).scenario();
            assert!(text.contains("checkpoint \"turn 1\""), "{text}");
            assert!(text.contains("checkpoint \"end\""));
            assert!(text.contains("# final score:"));
            let (explicit, _) = replay(&text, Engine::Explicit);
            let (symbolic, _) = replay(&text, Engine::Symbolic);
            assert!(explicit > 0);
            assert_eq!(explicit, symbolic);
        }
    }
}

/// The written game states every player's final score as an `expect
/// score` line (checked by replaying it); a tampered score fails, on both
/// engines, and `dealer run` exits with the failure.
#[test]
fn the_written_score_is_checked_and_a_tampered_one_fails() {
    for game in playable() {
        let m = played(game, 5, Size::Teaching);
        let text = m.scenario();
        let lines: Vec<String> = m
            .scores()
            .iter()
            .enumerate()
            .map(|(p, s)| format!("expect score {} = {s}", m.player_name(p)))
            .collect();
        for line in &lines {
            assert!(
                text.contains(&format!("{line}\n")),
                "{game}: no `{line}`\n{text}"
            );
        }
        let first = &lines[0];
        let (head, n) = first.rsplit_once(' ').expect("a score");
        let wrong: i64 = n.parse::<i64>().expect("a number") + 1;
        let tampered = text.replacen(first, &format!("{head} {wrong}"), 1);
        for engine in [Engine::Explicit, Engine::Symbolic] {
            assert_eq!(
                failed_expectations(&tampered, engine),
                vec![format!("{head} {wrong}")]
            );
            assert!(failed_expectations(&text, engine).is_empty());
        }
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let m = played("gofish", 5, Size::Teaching);
    let score = m.scores()[1];
    let bad = m.scenario().replacen(
        &format!("expect score 2 = {score}"),
        &format!("expect score 2 = {}", score + 2),
        1,
    );
    let path = dir.path().join("bad.deal");
    std::fs::write(&path, bad).expect("written");
    let run = Command::cargo_bin("dealer")
        .expect("binary")
        .arg("run")
        .arg(&path)
        .assert()
        .failure();
    let out = String::from_utf8_lossy(&run.get_output().stdout).to_string()
        + &String::from_utf8_lossy(&run.get_output().stderr);
    assert!(out.contains(&format!("player 2 scores {score}")), "{out}");
}

/// The sources of the expectations of `text` that fail on `engine`.
fn failed_expectations(text: &str, engine: Engine) -> Vec<String> {
    common::run_on(text, engine)
        .0
        .into_iter()
        .filter_map(|o| match o {
            Output::Expect {
                held: false,
                source,
                ..
            } => Some(source),
            _ => None,
        })
        .collect()
}

/// Go Fish (report 002 §1.1): a player with no cards draws at once; with
/// the stock empty they sit out, so no ask of them is ever offered and a
/// written one is refused. Over many seeded games such positions occur.
#[test]
fn go_fish_never_offers_an_ask_of_an_empty_hand() {
    let referee = game_named("gofish")
        .and_then(|g| g.referee())
        .expect("referee");
    let mut empty_seen = 0;
    for seed in 0..40 {
        let mut m = seated("gofish", seed, Size::Teaching, None, Engine::Auto);
        while !m.is_over() {
            let play = m.playing();
            let pos = play.position();
            let holds = |q: usize| pos.count(play.table.hand(q)) > 0;
            let moves = referee.legal_moves(&pos);
            for mv in &moves {
                if let Move::Ask { asker, asked, .. } = mv {
                    assert!(
                        holds(*asker) && holds(*asked),
                        "seed {seed}: {mv:?} offered"
                    );
                }
            }
            if let Some(Move::Ask { asker, kinds, .. }) = moves.first() {
                let rank = play.table.deck.kinds[kinds[0]].rank_name();
                for q in (0..play.table.players.len()).filter(|&q| q != *asker && !holds(q)) {
                    empty_seen += 1;
                    let line = format!("ask {} {} {rank}", asker + 1, q + 1);
                    let err = m.try_move(&line).expect_err("an ask of an empty hand");
                    assert_eq!(err.code, "asked-empty-hand", "{line}: {}", err.message);
                    assert!(err.message.contains("holds no cards"), "{}", err.message);
                }
            }
            assert!(m.agent_move().expect("not over").is_ok());
        }
    }
    assert!(empty_seen > 0, "no position with an empty hand to ask");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Every move a random agent makes is one the rules accept (the game
    /// loop plays it through the session, which refuses illegal moves),
    /// and every move offered to it is accepted too.
    #[test]
    fn random_agents_make_only_legal_moves(seed in 0u64..10_000, which in 0usize..5) {
        let games = playable();
        let game = games[which % games.len()];
        let mut m = seated(game, seed, Size::Teaching, None, Engine::Auto);
        while !m.is_over() {
            for l in m.legal_moves() {
                prop_assert!(m.try_move(&l.text).is_ok(), "{} refused", l.text);
            }
            let before = m.history().len();
            prop_assert!(m.agent_move().expect("not over").is_ok());
            prop_assert_eq!(m.history().len(), before + 1);
        }
    }
}

/// The lines of replies, as text (moves as their statements).
fn text(replies: &[Reply]) -> String {
    let mut out = String::new();
    for r in replies {
        match r {
            Reply::Lines(lines) => lines.iter().for_each(|l| out.push_str(&format!("{l}\n"))),
            Reply::Moved(p) => out.push_str(&format!("moved {}\n", p.text)),
            Reply::Refused { diagnostic, source } => {
                out.push_str(&diagnostic.render("input", source, false))
            }
            Reply::Saved(p) => out.push_str(&format!("saved {p}\n")),
            Reply::Quit => out.push_str("quit\n"),
        }
    }
    out
}

/// A desk for player 1 of a small Go Fish game at its first turn.
fn desk(seed: u64) -> Desk {
    desk_of("gofish", seed)
}

/// A desk for the first player of a small game at its first turn.
fn desk_of(game: &str, seed: u64) -> Desk {
    let mut d = Desk::new(seated(game, seed, Size::Teaching, Some(0), Engine::Auto), 0);
    d.advance();
    d
}

#[test]
fn an_illegal_move_is_refused_with_the_rule_and_changes_nothing() {
    let mut d = desk(3);
    assert!(d.my_turn());
    let before = d.game().scenario();
    let screen = d.screen();
    // Player 1 holds QH QD (seed 3): asking for a rank it lacks breaks the rule.
    let hand = d.game().position().cards(0);
    let table = &d.game().playing().table;
    let lacked = table
        .deck
        .ranks()
        .into_iter()
        .find(|(_, kinds)| kinds.iter().all(|&k| hand[k] == 0))
        .expect("a rank player 1 lacks")
        .0;
    for bad in [
        format!("ask 1 2 {lacked}"),
        "ask 1 1 Q".to_string(),
        "ask 2 1 Q".to_string(),
        "ask 1 2 Z".to_string(),
        "announce hand2(A)".to_string(),
        "stats".to_string(),
    ] {
        let replies = d.eval(&bad);
        assert!(
            matches!(replies.as_slice(), [Reply::Refused { .. }]),
            "{bad}: {}",
            text(&replies)
        );
        assert_eq!(d.game().scenario(), before, "{bad} changed the game");
        assert_eq!(d.screen(), screen);
    }
    let refusal = text(&d.eval(&format!("ask 1 2 {lacked}")));
    assert!(refusal.contains("holds no"), "{refusal}");
    assert!(refusal.contains("your moves now: ask 1 2 Q"), "{refusal}");
    // A legal move is played, then the agents play up to the person's turn.
    let replies = d.eval("ask 1 3 Q");
    assert!(matches!(replies.first(), Some(Reply::Moved(p)) if p.text == "ask 1 3 Q"));
    assert!(d.my_turn() || d.game().is_over());
}

/// The facts of a view as the desk lists them (`know formulas`): the
/// formula lines.
fn listed(d: &mut Desk, command: &str) -> Vec<String> {
    text(&d.eval(&format!("{command} formulas")))
        .lines()
        .filter(|l| l.trim_start().starts_with('K'))
        .map(|l| l.trim().to_string())
        .collect()
}

#[test]
fn the_knowledge_views_agree_with_a_replay_on_the_other_engine() {
    let mut shown_per_game = std::collections::HashMap::new();
    for (game, seed) in playable()
        .into_iter()
        .flat_map(|g| [(g, 3), (g, 5), (g, 9)])
    {
        let mut d = desk_of(game, seed);
        // Play the person's first legal moves until a few turns are done.
        for _ in 0..3 {
            if !d.my_turn() {
                break;
            }
            let mv = d.game().legal_moves()[0].text.clone();
            d.eval(&mv);
        }
        let rules = game_named(game).unwrap();
        for (command, facts) in [
            ("know", first_order(rules, &d.game().position(), 0)),
            ("known", second_order(rules, &d.game().position(), 0)),
        ] {
            let mut shown = listed(&mut d, command);
            shown.sort();
            // A fresh session replays the game on the symbolic engine and is
            // asked every candidate formula directly.
            let (_, mut session) = replay(&d.game().scenario(), Engine::Symbolic);
            let mut expected = Vec::new();
            for f in &facts {
                let src = format!("? {}", f.text);
                let stmt = &syntax::parse(&src).expect("parses").statements[0];
                let out = session
                    .execute(stmt, &src)
                    .unwrap_or_else(|d| panic!("{game}: {}: {d:?}", f.text));
                if matches!(out[0], Output::Answer { value: true, .. }) {
                    expected.push(f.text.clone());
                }
            }
            expected.sort();
            assert_eq!(shown, expected, "{game} seed {seed} `{command}`");
            *shown_per_game.entry(game).or_insert(0) += shown.len();
        }
    }
    // Every game's views showed some fact in these games.
    for (game, n) in shown_per_game {
        assert!(n > 0, "{game}: the views never showed a fact");
    }
}

#[test]
fn an_ask_shows_in_both_views() {
    // Seed 3: player 1 holds QH QD, player 2 AS KH; player 3 holds QS.
    let mut m = seated("gofish", 3, Size::Teaching, Some(0), Engine::Auto);
    m.play("ask 1 2 Q").expect("legal");
    let mut d = Desk::new(m, 0);
    let know = listed(&mut d, "know");
    let known = listed(&mut d, "known");
    // Player 2 said "Go Fish!": everyone knows it has no Q.
    assert!(know.contains(&"K_1 hand2(Q*) = 0".to_string()), "{know:?}");
    // By asking, player 1 told both opponents it holds a Q.
    for q in ["K_2 hand1(Q*) >= 1", "K_3 hand1(Q*) >= 1"] {
        assert!(known.contains(&q.to_string()), "{known:?}");
    }
    // Nobody knows which of A and K player 1 lacks: it lacks both, but
    // the others cannot tell.
    assert!(
        !known.iter().any(|f| f.contains("hand1(A*) = 0")),
        "{known:?}"
    );
}

#[test]
fn a_game_saved_at_the_desk_replays() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("game.deal");
    let mut d = desk(3);
    while let Some(mv) = d.my_turn().then(|| d.game().legal_moves()[0].text.clone()) {
        d.eval(&mv);
    }
    assert!(d.game().is_over());
    let replies = d.eval(&format!("save {}", path.display()));
    assert!(
        matches!(replies.as_slice(), [Reply::Saved(_)]),
        "{}",
        text(&replies)
    );
    let saved = std::fs::read_to_string(&path).expect("saved");
    assert!(replay(&saved, Engine::Explicit).0 > 0);
    assert!(matches!(d.eval("quit").as_slice(), [Reply::Quit]));
}

#[test]
fn dealer_play_writes_a_game_that_dealer_run_replays() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("g.deal");
    let assert = Command::cargo_bin("dealer")
        .expect("binary")
        .args(["play", "kwartet", "--size", "small", "--seed", "4", "--out"])
        .arg(&out)
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&assert.get_output().stdout).to_string();
    assert!(stdout.contains("final score"), "{stdout}");
    let run = Command::cargo_bin("dealer")
        .expect("binary")
        .arg("run")
        .arg(&out)
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&run.get_output().stdout).to_string();
    assert!(stdout.contains(" held, 0 failed"), "{stdout}");
}

#[test]
fn dealer_play_with_a_person_from_a_pipe() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("mine.deal");
    let script = format!(
        "look\nask 1 2 J\nmoves\nknow\nknown formulas\nask 1 3 Q\nhistory\nsave {}\nquit\n",
        out.display()
    );
    let assert = Command::cargo_bin("dealer")
        .expect("binary")
        .args([
            "play", "gofish", "--size", "small", "--seed", "3", "--me", "1",
        ])
        .args(["--agents", "random,random"])
        .write_stdin(script)
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&assert.get_output().stdout).to_string();
    assert!(stdout.contains("player 1> ask 1 2 J"), "{stdout}");
    assert!(stdout.contains("your hand"), "{stdout}");
    assert!(
        stdout.contains("you know (each line decided by the engine)"),
        "{stdout}"
    );
    assert!(stdout.contains("saved the game to"), "{stdout}");
    let saved = std::fs::read_to_string(&out).expect("saved");
    assert!(saved.contains("ask 1 3 Q"), "{saved}");
    assert!(!saved.contains("ask 1 2 J"), "{saved}");
}

#[test]
fn bad_play_arguments_are_clear_errors() {
    for (args, says) in [
        (vec!["play", "poker"], "no game `poker`"),
        (
            vec!["play", "gofish", "--agents", "random,random"],
            "give 3 agent(s)",
        ),
        (
            vec!["play", "gofish", "--agents", "clever"],
            "no agent `clever`",
        ),
        (vec!["play", "gofish", "--me", "7"], "no such player"),
        // One `Size` for every command that takes `--size`.
        (
            vec!["play", "gofish", "--size", "huge"],
            "[possible values: full, small]",
        ),
        (
            vec!["tournament", "gofish", "--size", "huge"],
            "[possible values: full, small]",
        ),
        (
            vec!["bench", "--play", "gofish", "--size", "huge"],
            "[possible values: full, small]",
        ),
    ] {
        let run = Command::cargo_bin("dealer")
            .expect("binary")
            .args(&args)
            .assert()
            .code(2);
        let stderr = String::from_utf8_lossy(&run.get_output().stderr).to_string();
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
}

/// A strategy file that is refused is shown once, at its place in the
/// file, by `play` and by `tournament` alike: the diagnostic the strategy
/// room made, not a message wrapped around its rendering.
#[test]
fn a_refused_strategy_file_is_shown_at_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("x.strat");
    std::fs::write(&file, "strategy x for gofish\nrule a: pick me c\n").unwrap();
    let path = file.display().to_string();
    let strategies = format!("{path},random");
    for args in [
        vec!["play", "gofish", "--agents", path.as_str()],
        vec!["tournament", "gofish", "--strategies", strategies.as_str()],
    ] {
        let run = Command::cargo_bin("dealer")
            .unwrap()
            .current_dir(dir.path())
            .args(&args)
            .assert()
            .code(2);
        let stderr = String::from_utf8_lossy(&run.get_output().stderr).to_string();
        assert!(
            stderr.starts_with("error[strategy-move]: in rule a, `pick` is no move of gofish"),
            "{args:?}: {stderr}"
        );
        assert_eq!(stderr.matches("error").count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(&format!("{path}:2:1")), "{stderr}");
        assert!(stderr.contains("2 | rule a: pick me c"), "{stderr}");
    }
}

/// The shipped strategies are built into the binary: `dealer play` finds
/// them from any directory; a file in `strategies/` of the working
/// directory, or in `--strategies-dir`, takes precedence.
#[test]
fn strategies_are_found_from_any_directory() {
    let dir = tempfile::tempdir().expect("temp dir");
    let play = |extra: &[&str]| {
        let run = Command::cargo_bin("dealer")
            .expect("binary")
            .current_dir(dir.path())
            .args(["play", "gofish", "--size", "small", "--seed", "2"])
            .args(["--agents", "first-order,random,second-order"])
            .args(extra)
            .assert()
            .success();
        // The game, without the line of timings.
        String::from_utf8_lossy(&run.get_output().stdout)
            .lines()
            .filter(|l| !l.contains(" moves in "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let built_in = play(&[]);
    assert!(built_in.contains("final score"), "{built_in}");
    assert!(built_in.contains("first-order"), "{built_in}");
    // A folder of the user's own: its first-order always asks player 3.
    let mine = dir.path().join("mine");
    std::fs::create_dir(&mine).expect("folder");
    std::fs::write(
        mine.join("gofish-first-order.strat"),
        "strategy mine for gofish\nrule third: ask me 3 _\n",
    )
    .expect("written");
    let chosen = play(&["--strategies-dir", "mine"]);
    assert!(chosen.contains("mine"), "{chosen}");
    assert_ne!(chosen, built_in);
    // The same folder as `strategies/` of the working directory.
    std::fs::rename(&mine, dir.path().join("strategies")).expect("renamed");
    assert_eq!(play(&[]), chosen);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// The Go Fish strategies, seated together, only ever make moves the
    /// referee offers (so never an ask of an empty hand), and the session
    /// accepts each of them.
    #[test]
    fn go_fish_strategies_make_only_offered_moves(seed in 0u64..10_000, first in 0usize..4) {
        let names = ["first-order", "second-order", "careful", "most-cards"];
        let options = Options::default();
        let mut m = Match::new("gofish", seed, Size::Teaching, options).expect("deals");
        let seats = (0..3)
            .map(|p| {
                let name = names[(first + p) % names.len()];
                let agent = dealer::strategy::agent::named(None, "gofish", name).expect("built in");
                m.agent_seat(agent, p)
            })
            .collect();
        m.seat(seats).expect("three seats");
        while !m.is_over() {
            let offered: Vec<String> = m.legal_moves().into_iter().map(|l| l.text).collect();
            let before = m.history().len();
            prop_assert!(m.agent_move().expect("not over").is_ok());
            prop_assert_eq!(m.history().len(), before + 1);
            let made = &m.history()[before].text;
            prop_assert!(offered.contains(made), "{} was not offered: {:?}", made, offered);
        }
    }
}

/// The model and game state of two sessions are the same: the state, the
/// worlds, the actual deal and, where the worlds can be listed, what each
/// player considers possible at the actual world.
fn assert_same_position(a: &Session, b: &Session, what: &str) {
    let (pa, pb) = (a.playing().unwrap(), b.playing().unwrap());
    assert_eq!(pa.state, pb.state, "{what}: the game state");
    let (ma, mb) = (&pa.model, &pb.model);
    assert_eq!(ma.world_count(), mb.world_count(), "{what}: the worlds");
    assert_eq!(ma.actual_cards(), mb.actual_cards(), "{what}: the deal");
    if ma.listable().is_ok() && mb.listable().is_ok() {
        for p in 0..ma.agents() {
            let (mut xa, mut xb) = (
                ma.accessible(p, ma.actual())
                    .into_iter()
                    .map(|w| ma.world(w).cards)
                    .collect::<Vec<_>>(),
                mb.accessible(p, mb.actual())
                    .into_iter()
                    .map(|w| mb.world(w).cards)
                    .collect::<Vec<_>>(),
            );
            xa.sort();
            xb.sort();
            assert_eq!(xa, xb, "{what}: what player {p} considers possible");
        }
    }
    assert_eq!(a.move_cards(), b.move_cards(), "{what}: the cards moved");
}

/// A legal move played as a resolved `Move` (`Session::apply`, what every
/// match plays) leaves the session as its statement does when parsed and
/// executed (`dealer run`), with the same output; a move the rules refuse
/// (one that was legal earlier) leaves the session exactly as it was.
#[test]
fn applying_a_legal_move_is_playing_its_statement() {
    let mut refused = 0;
    for game in playable() {
        for seed in 1..=2u64 {
            let mut m = seated(game, seed, Size::Teaching, None, Engine::Auto);
            let mut earlier: Vec<dealer::play::Legal> = Vec::new();
            for turn in 0..30 {
                if m.is_over() {
                    break;
                }
                let legal = m.legal_moves();
                for l in legal.iter().take(3) {
                    let what = format!("{game} seed {seed} turn {turn}: {}", l.text);
                    let mut typed = m.session().clone();
                    let stmt = syntax::parse_statement(&l.text).unwrap().remove(0);
                    let said = typed.execute(&stmt, &l.text).unwrap();
                    let mut applied = m.session().clone();
                    let done = applied.apply(&l.mv, &l.text).unwrap();
                    assert_eq!(said, done, "{what}");
                    assert_same_position(&typed, &applied, &what);
                }
                for old in &earlier {
                    let mut copy = m.session().clone();
                    if let Err(d) = copy.apply(&old.mv, &old.text) {
                        assert!(d.message.starts_with(&old.text), "{}", d.message);
                        crate::common::assert_unchanged(m.session(), &copy);
                        refused += 1;
                    }
                }
                earlier = legal.into_iter().take(2).collect();
                m.agent_move().expect("not over").expect("a legal move");
            }
        }
    }
    assert!(refused >= 10, "only {refused} refusals tried");
    // Before a deal there is nothing to play.
    let m = seated("gofish", 1, Size::Teaching, None, Engine::Auto);
    let mv = m.legal_moves().remove(0);
    let mut empty = Session::new(Options::default());
    assert_eq!(empty.apply(&mv.mv, &mv.text).unwrap_err().code, "not-dealt");
}

/// One `Size` for every front end: `full`, `small` (`teaching` too), and
/// a clear refusal of anything else; what it prints reads back.
#[test]
fn sizes_read_as_every_front_end_writes_them() {
    for (text, size) in [
        ("full", Size::Full),
        ("small", Size::Teaching),
        ("teaching", Size::Teaching),
    ] {
        assert_eq!(text.parse::<Size>(), Ok(size));
        assert_eq!(size.to_string().parse::<Size>(), Ok(size));
    }
    let err = "huge".parse::<Size>().unwrap_err();
    assert!(err.contains("huge") && err.contains("small"), "{err}");
}

/// The one seat factory: one name for every seat, a name per seat, the
/// person's seat left to the person, strategies looked up only for names
/// that are not agents, and a clear error for a wrong count.
#[test]
fn the_seat_factory_seats_every_front_end() {
    let deal = || Match::new("gofish", 4, Size::Teaching, Options::default()).unwrap();
    let looked_up = std::cell::RefCell::new(Vec::new());
    let mut lookup = |name: &str| -> Result<Box<dyn dealer::play::Agent>, dealer::diag::Report> {
        looked_up.borrow_mut().push(name.to_string());
        dealer::strategy::agent::built_in("gofish", name)
    };
    let mut m = deal();
    m.seat_named(&["first-order".into()], Some(1), &mut lookup)
        .unwrap();
    let names: Vec<&str> = m.seats().iter().map(Seat::name).collect();
    assert_eq!(names, ["first-order", "person", "first-order"]);
    let mut m = deal();
    m.seat_named(
        &["random".into(), "careful".into(), "random".into()],
        None,
        &mut lookup,
    )
    .unwrap();
    let names: Vec<&str> = m.seats().iter().map(Seat::name).collect();
    assert_eq!(names, ["random", "careful", "random"]);
    assert_eq!(
        *looked_up.borrow(),
        ["first-order", "first-order", "careful"]
    );
    let err = deal()
        .seat_named(&["random".into(), "random".into()], None, &mut lookup)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("give 3 agent(s)") && err.contains("2 given"),
        "{err}"
    );
    let err = deal()
        .seat_named(&["nobody".into()], None, &mut lookup)
        .unwrap_err()
        .to_string();
    assert!(err.contains("nobody"), "{err}");
    // The same seed and seats give the same game, seated either way.
    let mut a = deal();
    a.seat_named(&[], None, &mut lookup).unwrap();
    let mut b = deal();
    let agents = (0..3)
        .map(|_| dealer::play::agent_named("random").unwrap())
        .collect();
    b.seat_agents(agents, None).unwrap();
    a.play_agents().unwrap();
    b.play_agents().unwrap();
    assert_eq!(a.outcome(), b.outcome());
    assert_eq!(a.scenario(), b.scenario());
}

/// `play --max-moves N` stops the game after N moves, says so, and the
/// written game has exactly those N moves and replays with its score.
#[test]
fn play_stops_at_max_moves_and_the_written_game_replays() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("short.deal");
    let run = Command::cargo_bin("dealer")
        .expect("binary")
        .args([
            "play",
            "kemps",
            "--size",
            "small",
            "--seed",
            "3",
            "--max-moves",
            "7",
            "--out",
        ])
        .arg(&out)
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&run.get_output().stdout).to_string();
    assert!(
        stdout.contains("at its limit: 7 moves (--max-moves)"),
        "{stdout}"
    );
    assert!(stdout.contains("7 moves in"), "{stdout}");
    let text = std::fs::read_to_string(&out).expect("the game written");
    assert!(failed_expectations(&text, Engine::Explicit).is_empty());
    assert!(text.contains("checkpoint \"turn 7\"\n"), "{text}");
    assert!(!text.contains("checkpoint \"turn 8\""), "{text}");
}

/// An agent may ask only what its player decides, checked on the syntax
/// tree as strategies are (`interp::decides`). The check was a prefix of
/// the text, so `K_1 φ & hand_2(X)` was answered: it reads player 2's
/// hand, which player 1 does not see. Now it is refused with what it
/// reads; what the player decides by form or by the model is answered as
/// the engine answers it.
#[test]
fn an_agent_asks_only_what_its_player_decides() {
    use dealer::play::agent::View;
    let m = Match::new("gofish", 3, Size::Teaching, Options::default()).unwrap();
    let session = m.session();
    let view = View::new(session, 0, &[], &[]);
    let engine = |f: &str| m.ask_all(&[f.to_string()]).unwrap()[0];
    // A kind whose place in hands 2 and 3 player 1 does not know.
    let kind = m
        .playing()
        .table
        .deck
        .kinds
        .iter()
        .map(|k| k.name.clone())
        .find(|k| !engine(&format!("Kw_1 hand_2({k}) | Kw_1 hand_3({k})")))
        .expect("a kind player 1 cannot place");

    for sneaky in [
        format!("K_1 true & hand_2({kind})"),
        format!("hand_2({kind})"),
        format!("K_2 hand_2({kind})"),
        format!("hand_3({kind}) | K_1 false"),
    ] {
        assert!(!engine(&format!("Kw_1 ({sneaky})")), "{sneaky}");
        let err = view.ask_all(std::slice::from_ref(&sneaky)).unwrap_err();
        assert_eq!(err.code, "not-own-perspective", "{sneaky}");
        assert!(
            err.message.contains("player 1 does not know"),
            "{}",
            err.message
        );
        assert!(
            err.message.contains(&format!("reads `hand_2({kind})`"))
                || err.message.contains(&format!("reads `K_2 hand_2({kind})`"))
                || err.message.contains(&format!("reads `hand_3({kind})`")),
            "{}",
            err.message
        );
    }
    for fair in [
        format!("K_1 hand_2({kind})"),
        format!("hand_1({kind})"),
        format!("!M_1 hand_2({kind}) | Kw_1 hand_3({kind})"),
        // Not by its form, but by the model: a tautology is known.
        format!("hand_2({kind}) | !hand_2({kind})"),
    ] {
        let got = view.ask_all(std::slice::from_ref(&fair)).unwrap();
        assert_eq!(got, vec![engine(&fair)], "{fair}");
    }
}

/// The cards a move is about are read from the resolved move, not its
/// text: the card it shows, reveals or moves, the cards an announcement's
/// counts name (in the order written; a whole location's count names
/// none), then those whose place it changed.
#[test]
fn the_cards_a_move_is_about_come_from_the_move() {
    let src = "players Ann Bob\ndeck A K Q J 9 8\ndeal Ann: A K 9 | Bob: Q J 8\n";
    let mut session = Session::new(Options::default());
    let run = |session: &mut Session, line: &str| -> Vec<String> {
        let stmt = syntax::parse(line).unwrap().statements.remove(0);
        session.execute(&stmt, line).unwrap();
        let table = &session.playing().unwrap().table;
        session
            .move_cards()
            .iter()
            .map(|&k| table.deck.kinds[k].name.to_string())
            .collect()
    };
    for stmt in syntax::parse(src).unwrap().statements {
        session.execute(&stmt, src).unwrap();
    }
    assert_eq!(run(&mut session, "show Ann -> Bob 9"), ["9"]);
    assert_eq!(
        run(&mut session, "announce Bob(J) & K_Ann Ann(K) & Ann >= 3"),
        ["J", "K"]
    );
    assert_eq!(run(&mut session, "announce Ann = 3"), Vec::<String>::new());
    assert_eq!(run(&mut session, "reveal Bob Q"), ["Q"]);
    assert_eq!(run(&mut session, "move A Ann -> Bob"), ["A"]);
}
