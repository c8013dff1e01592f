//! `uncounted`: players who do not count cards (the Cabo report's model),
//! and the Cabo-like game at the report's size, which uses it.
//!
//! - On a small deal both engines give the same worlds and the same
//!   answers to every first- and second-order question about every slot,
//!   after every move.
//! - The semantics: an uncounted player who has seen every copy of a value
//!   still considers that value possible in a hidden slot; a counting one
//!   does not. The deal has one world per assignment of values to the
//!   hidden slots.
//! - The stock's size stays public; its cards of a kind are refused.
//! - Full-size games between random agents end, and the written game
//!   replays with every expectation holding.

use crate::common::session_on;
use dealer::cards::Size;
use dealer::interp::{Engine, Options, Output, Session};
use dealer::play::{agent_named, Match};
use dealer::syntax;

/// Two players, four slots each, values 0..2 four times each (12 cards:
/// eight slots, the open pile and a stock of three). Player 1 sees the
/// four 0s: two in its own slots, one on the open pile, one drawn.
const SMALL: &str = "game cabo
players 1 2
deck 0..2*4
uncounted
deal 1.1: 0 | 1.2: 0 | 1.3: 1 | 1.4: 2 | 2.1: 1 | 2.2: 2 | 2.3: 1 | 2.4: 2 | open: 0
stock 0 1 2
peek 1 1.1
peek 1 1.2
peek 2 2.1
draw 1
place 1 1.3
draw 2
discard 2 1
draw 1 from open: 1
place 1 1.4
";

/// Runs `src` on `engine`; returns the session.
fn run(src: &str, engine: Engine) -> Session {
    let scenario = syntax::parse(src).expect("parses");
    let mut s = session_on(engine);
    for stmt in &scenario.statements {
        s.execute(stmt, src)
            .unwrap_or_else(|d| panic!("{}", d.render("t.deal", src, false)));
    }
    s
}

/// Whether `f` holds in `s`, asked as scenario text.
fn ask(s: &Session, f: &str) -> bool {
    let formula = syntax::parse_formula(f).expect("a formula");
    s.holds(&formula).expect("answers")
}

/// After every statement of `SMALL`, both engines agree on the number of
/// worlds and on K, M, Kv and second-order K about every slot and value.
#[test]
fn both_engines_agree_on_an_uncounted_game() {
    let slots: Vec<String> = ["1", "2"]
        .iter()
        .flat_map(|p| (1..=4).map(move |n| format!("{p}.{n}")))
        .collect();
    let mut checked = 0;
    crate::common::side_by_side(SMALL, |line, ex, sy| {
        let (pe, ps) = (ex.playing().unwrap(), sy.playing().unwrap());
        assert_eq!(pe.model.world_count(), ps.model.world_count());
        for p in 0..2 {
            assert_eq!(pe.model.considers(p), ps.model.considers(p));
        }
        for slot in &slots {
            for v in 0..3 {
                for p in ["1", "2"] {
                    let q = if p == "1" { "2" } else { "1" };
                    for f in [
                        format!("K{p} {slot}({v})"),
                        format!("M{p} {slot}({v})"),
                        format!("Kv{p} {slot}"),
                        format!("K{q} Kv{p} {slot}"),
                        format!("K{q} !K{p} !{slot}({v})"),
                    ] {
                        assert_eq!(ask(ex, &f), ask(sy, &f), "`{f}` after line {line}");
                        checked += 1;
                    }
                }
            }
        }
    });
    assert!(checked > 2_000, "{checked}");
}

/// The deal has one world per assignment of values to the eight hidden
/// slots (3^8), whatever the copies; counting players have fewer.
#[test]
fn an_uncounted_deal_has_every_assignment_of_the_hidden_slots() {
    let deal = SMALL.lines().take(6).collect::<Vec<_>>().join("\n") + "\ncheckpoint \"dealt\"\n";
    for engine in [Engine::Explicit, Engine::Symbolic] {
        let s = run(&deal, engine);
        assert_eq!(s.playing().unwrap().model.world_count(), 3u128.pow(8));
        let counted = run(&deal.replace("uncounted\n", ""), engine);
        let n = counted.playing().unwrap().model.world_count();
        assert!(n < 3u128.pow(8), "{n}");
    }
}

/// Player 1 has seen all four 0s (1.1, 1.2, the open pile's first card,
/// the drawn card now in 1.3). Counting, it knows no other slot holds a 0;
/// uncounted, it does not.
#[test]
fn a_player_who_does_not_count_still_considers_a_seen_out_value() {
    let upto = SMALL.lines().take(11).collect::<Vec<_>>().join("\n") + "\n";
    for engine in [Engine::Explicit, Engine::Symbolic] {
        let uncounted = run(&upto, engine);
        let counted = run(&upto.replace("uncounted\n", ""), engine);
        assert!(ask(&counted, "K1 !2.2(0)"), "{engine:?}");
        assert!(!ask(&uncounted, "K1 !2.2(0)"), "{engine:?}");
        assert!(ask(&uncounted, "M1 2.2(0) & K1 1.3(0)"), "{engine:?}");
        // What it saw, it knows either way.
        assert!(ask(&uncounted, "K1 1.1(0) & K1 1.2(0)"));
    }
}

/// The stock's size is public and read as the real one; its cards of a
/// kind are refused with a located error.
#[test]
fn the_uncounted_stock_keeps_its_size_and_refuses_its_kinds() {
    let deal = SMALL.lines().take(6).collect::<Vec<_>>().join("\n") + "\ncheckpoint \"dealt\"\n";
    for engine in [Engine::Explicit, Engine::Symbolic] {
        let s = run(&deal, engine);
        assert!(ask(&s, "C stock = 3"));
        assert!(ask(&s, "stock >= 3 & !(stock >= 4)"));
        let src = format!("{deal}expect stock(1) = 1\n");
        let scenario = syntax::parse(&src).unwrap();
        let mut s = session_on(engine);
        let mut err = None;
        for stmt in &scenario.statements {
            if let Err(d) = s.execute(stmt, &src) {
                err = Some(d);
                break;
            }
        }
        let d = err.expect("refused");
        assert_eq!(d.code, "uncounted-stock");
        assert_eq!(&src[d.span.start..d.span.end], "stock");
    }
    // The real stock runs out: after three draws the game knows it is empty.
    let s = run(SMALL, Engine::Symbolic);
    assert!(ask(&s, "C stock = 1"));
}

fn full_game(seed: u64) -> Match {
    let options = Options {
        engine: Engine::Symbolic,
        ..Options::default()
    };
    let mut m = Match::new("cabo", seed, Size::Full, options).expect("deals");
    let seats = (0..4)
        .map(|p| m.agent_seat(agent_named("random").unwrap(), p))
        .collect();
    m.seat(seats).unwrap();
    m
}

/// The report's size: four players, 13 values four times. The deal has
/// 13^16 worlds (the report's count); random games end with the closed
/// pile empty, and the written game replays with every expectation.
#[test]
fn full_size_cabo_plays_to_its_end_and_replays() {
    for seed in 0..2 {
        let mut m = full_game(seed);
        assert_eq!(
            m.playing().model.world_count(),
            13u128.pow(16),
            "the report's 13^16"
        );
        let mut moves = 0;
        while let Some(r) = m.agent_move() {
            r.unwrap();
            moves += 1;
            assert!(moves < 1_000);
        }
        assert!(m.is_over());
        let text = m.scenario();
        assert!(text.contains("uncounted"));
        assert!(text.contains("expect stock = 0"));
        let scenario = syntax::parse(&text).unwrap();
        let mut s = session_on(Engine::Symbolic);
        let mut held = 0;
        for stmt in &scenario.statements {
            for o in s.execute(stmt, &text).unwrap() {
                if let Output::Expect {
                    held: ok, source, ..
                } = o
                {
                    assert!(ok, "{source}");
                    held += 1;
                }
            }
        }
        assert!(held > 20, "{held}");
        // Every slot still holds one card, and everybody knows it.
        assert!(ask(&s, "C (1.1 = 1 & 2.3 = 1 & 4.4 = 1)"));
    }
}

/// The per-card view of an uncounted deal leaves the stock out of its
/// placements (its cards are not part of the model), and its counts still
/// add up to the worlds player 1 considers.
#[test]
fn the_per_card_view_leaves_the_uncounted_stock_out() {
    let src = SMALL.lines().take(7).collect::<Vec<_>>().join("\n") + "\nworlds 1 for 0\n";
    let scenario = syntax::parse(&src).unwrap();
    let mut s = session_on(Engine::Symbolic);
    let mut lines = Vec::new();
    for stmt in &scenario.statements {
        for o in s.execute(stmt, &src).unwrap() {
            if let Output::Lines(l) = o {
                lines.extend(l);
            }
        }
    }
    let placements: Vec<&String> = lines.iter().filter(|l| l.ends_with(" world(s)")).collect();
    assert!(!placements.is_empty(), "{lines:?}");
    assert!(lines.iter().all(|l| !l.contains("stock:")), "{lines:?}");
    let total: u128 = placements
        .iter()
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            w[w.len() - 2].replace(',', "").parse::<u128>().unwrap()
        })
        .sum();
    assert_eq!(total, s.playing().unwrap().model.considers(0));
}

/// `uncounted` is the language's statement, not the Cabo-like game's: it
/// says how the players reason about any deck. Under the free game a
/// player who holds the only 0 still considers that the other holds a 0;
/// counting, it knows better.
#[test]
fn uncounted_is_a_statement_of_the_language() {
    let deal = "players 1 2\ndeck 0..1\ndeal 1: 0 | 2: 1\n";
    let expect = |src: String, held: bool| {
        let (out, _) = crate::common::run(&src);
        assert!(
            matches!(&out[..], [Output::Expect { held: h, .. }] if *h == held),
            "{src}: {out:?}"
        );
    };
    expect(format!("uncounted\n{deal}expect M1 hand2(0)\n"), true);
    expect(format!("{deal}expect M1 hand2(0)\n"), false);
    expect(format!("{deal}expect K1 !hand2(0)\n"), true);
}
