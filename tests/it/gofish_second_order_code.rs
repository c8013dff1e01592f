//! `strategies/gofish-second-order-code.strat`, the Go Fish report's
//! second-order strategy as its program plays it, checked decision by
//! decision against the model: it completes a book when one opponent is
//! known to hold every copy it lacks, else conceals only by asking an
//! opponent it knows holds the rank; else, while some rank of its is known
//! to the others, it asks any opponent for first-order's card on that
//! opponent (the program's random opponent); else a known holder, else its
//! most cards. The text's reading (`second-order`) gives up certain asks
//! for concealing guesses, in the same games.

use dealer::play::seat_rng;
use dealer::strategy::{choose, find, Oracle, Strategy};
use dealer::tournament::game::{dealt, read_custom_deck};
use dealer::tournament::Deal;

fn holds(session: &dealer::interp::Session, formula: &str) -> bool {
    let mut copy = session.clone();
    let parsed = dealer::syntax::parse_formula(formula).unwrap();
    Oracle::holds(&mut copy, &parsed).unwrap_or_else(|e| panic!("{formula}: {}", e.message))
}

/// The largest n with `K_me ATOM >= n`, asked of the model.
fn known(session: &dealer::interp::Session, me: &str, atom: &str) -> i64 {
    (1..=28)
        .take_while(|n| holds(session, &format!("K_{me} {atom} >= {n}")))
        .count() as i64
}

#[test]
fn the_codes_second_order_plays_the_programs_rules_and_the_texts_conceals_with_guesses() {
    let code = find(None, "gofish", "second-order-code").unwrap();
    let text = find(None, "gofish", "second-order").unwrap();
    let first = find(None, "gofish", "first-order").unwrap();
    let deal = Deal::Custom {
        deck: read_custom_deck("deck A*4 K*4 Q*4 J*4 10*4 9*4 8*4").unwrap(),
        hand: 5,
    };
    let (mut checked, mut conceals, mut text_guesses) = (0, 0, 0);
    let (mut fallbacks, mut fallback_guesses) = (0, 0);
    for seed in 1..=5u64 {
        // Seats rotate so that the code's reading sits everywhere.
        let mut seats: Vec<&Strategy> = vec![&code, &text, &first];
        seats.rotate_left(seed as usize % 3);
        let engine = dealer::interp::Options::default().engine;
        let mut game = dealt("gofish", &deal, seed, engine).unwrap();
        let mut rngs: Vec<_> = (0..3).map(|s| seat_rng(seed, s)).collect();
        while let Some(me) = game.current_player() {
            let session = game.session().clone();
            let table = game.playing().table.clone();
            let moves = game.legal_moves();
            let legal: Vec<String> = moves.iter().map(|l| l.text.clone()).collect();
            let name = table.players[me].clone();
            let others: Vec<&str> = table
                .players
                .iter()
                .filter(|p| **p != name)
                .map(String::as_str)
                .collect();
            let asks: Vec<(usize, String, String)> = legal
                .iter()
                .enumerate()
                .filter_map(|(i, l)| {
                    let w: Vec<&str> = l.split_whitespace().collect();
                    (w.len() == 4 && w[0] == "ask").then(|| (i, w[2].to_string(), w[3].to_string()))
                })
                .collect();
            let certain = |x: &str, r: &str| holds(&session, &format!("K_{name} hand_{x}({r})"));
            let decision = choose(
                seats[me],
                game.playing().game,
                &mut session.clone(),
                &table,
                me,
                &moves,
                &mut rngs[me],
            )
            .unwrap();
            if legal.len() > 1 && !asks.is_empty() {
                let any_certain = asks.iter().any(|(_, x, r)| certain(x, r));
                let (_, cx, cr) = asks.iter().find(|(i, _, _)| *i == decision.index).unwrap();
                if seats[me].name == "second-order-code" {
                    checked += 1;
                    // One ask of x completes the book: x holds every copy
                    // it lacks (none in the stock, none with the other).
                    let book = |x: &str, r: &str| {
                        certain(x, r)
                            && holds(&session, &format!("K_{name} stock({r}) = 0"))
                            && others.iter().all(|y| {
                                *y == x || holds(&session, &format!("K_{name} hand_{y}({r}) = 0"))
                            })
                    };
                    let conceal = |x: &str, r: &str| {
                        certain(x, r)
                            && holds(
                                &session,
                                &format!("K_{name} E{{{}}} hand_{name}({r})", others.join(",")),
                            )
                    };
                    // The rule the model says fires, and its moves.
                    let fired: Vec<&(usize, String, String)>;
                    let rule;
                    let books: Vec<_> = asks.iter().filter(|(_, x, r)| book(x, r)).collect();
                    let hidden: Vec<_> = asks.iter().filter(|(_, x, r)| conceal(x, r)).collect();
                    let sure: Vec<_> = asks.iter().filter(|(_, x, r)| certain(x, r)).collect();
                    // Some rank of its is known to the others (only ranks
                    // it holds: those it may ask for).
                    let can_conceal = asks.iter().any(|(_, _, r)| {
                        holds(
                            &session,
                            &format!("K_{name} E{{{}}} hand_{name}({r})", others.join(",")),
                        )
                    });
                    let mine = |r: &str| known(&session, &name, &format!("hand_{name}({r})"));
                    let gain = |x: &str, r: &str| {
                        mine(r) + known(&session, &name, &format!("hand_{x}({r})"))
                    };
                    // First-order's cards on x: the best net gain among the
                    // ranks x is known to hold, else the ranks held most.
                    let first_order_on = |x: &str| -> Vec<usize> {
                        let on: Vec<_> = asks.iter().filter(|(_, y, _)| y == x).collect();
                        let known_held: Vec<_> =
                            on.iter().filter(|(_, _, r)| certain(x, r)).collect();
                        if known_held.is_empty() {
                            let top = on.iter().map(|(_, _, r)| mine(r)).max().unwrap();
                            on.iter()
                                .filter(|(_, _, r)| mine(r) == top)
                                .map(|(i, _, _)| *i)
                                .collect()
                        } else {
                            let top = known_held.iter().map(|(_, _, r)| gain(x, r)).max().unwrap();
                            known_held
                                .iter()
                                .filter(|(_, _, r)| gain(x, r) == top)
                                .map(|(i, _, _)| *i)
                                .collect()
                        }
                    };
                    if !books.is_empty() {
                        (rule, fired) = ("book", books);
                    } else if !hidden.is_empty() {
                        (rule, fired) = ("conceal", hidden);
                    } else if can_conceal {
                        let mut opponents: Vec<&str> =
                            asks.iter().map(|(_, x, _)| x.as_str()).collect();
                        opponents.sort_unstable();
                        opponents.dedup();
                        let mut allowed: Vec<usize> =
                            opponents.iter().flat_map(|x| first_order_on(x)).collect();
                        allowed.sort_unstable();
                        // Every allowed move remains, none other: the rule
                        // has no score, the opponent is left to the draw.
                        let mut best = decision.best.clone();
                        best.sort_unstable();
                        assert_eq!(best, allowed, "seed {seed}: {legal:?}");
                        fallbacks += 1;
                        if any_certain && !certain(cx, cr) {
                            fallback_guesses += 1;
                        }
                        (rule, fired) = (
                            "fallback",
                            asks.iter()
                                .filter(|(i, _, _)| allowed.contains(i))
                                .collect(),
                        );
                    } else if !sure.is_empty() {
                        (rule, fired) = ("known", sure);
                    } else {
                        (rule, fired) = ("most", asks.iter().collect());
                    }
                    assert_eq!(
                        decision.rule.as_deref(),
                        Some(rule),
                        "seed {seed}: {legal:?}"
                    );
                    if rule == "conceal" {
                        conceals += 1;
                    }
                    // The chosen move is one of the rule's with the best score.
                    let score = |x: &str, r: &str| match rule {
                        "book" => known(&session, &name, &format!("hand_{x}({r})")),
                        "most" => known(&session, &name, &format!("hand_{name}({r})")),
                        "fallback" => 0,
                        _ => {
                            known(&session, &name, &format!("hand_{name}({r})"))
                                + known(&session, &name, &format!("hand_{x}({r})"))
                        }
                    };
                    let best = fired.iter().map(|(_, x, r)| score(x, r)).max().unwrap();
                    assert!(
                        fired.iter().any(|(i, _, _)| *i == decision.index),
                        "seed {seed}: {} is not a `{rule}` move",
                        legal[decision.index]
                    );
                    assert_eq!(
                        score(cx, cr),
                        best,
                        "seed {seed}: {}",
                        legal[decision.index]
                    );
                    // A guess while a certain ask exists only by the
                    // program's random opponent.
                    assert!(
                        !any_certain || certain(cx, cr) || rule == "fallback",
                        "seed {seed}: {legal:?}"
                    );
                } else if seats[me].name == "second-order" && any_certain && !certain(cx, cr) {
                    assert_eq!(decision.rule.as_deref(), Some("conceal"));
                    text_guesses += 1;
                }
            }
            game.play_legal(&moves[decision.index]).unwrap();
        }
    }
    assert!(
        checked >= 20,
        "only {checked} decisions of the code's reading"
    );
    assert!(
        conceals > 0,
        "the code's reading never concealed ({checked} decisions, {text_guesses} text guesses)"
    );
    assert!(
        text_guesses > 0,
        "the text's reading never gave up a certain ask in these games"
    );
    assert!(
        fallbacks > 0 && fallback_guesses > 0,
        "the program's random opponent: {fallbacks} decisions, {fallback_guesses} guesses while an ask was certain"
    );
}
