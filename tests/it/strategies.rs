//! Strategies: every shipped strategy parses; on hand-made states the
//! chosen move is the one the report's rule asks for; and on every
//! decision of seeded games, the fired rule's guard holds by a direct
//! query (`? φ` executed by the session), every earlier rule's guards
//! fail, and the move is legal.

use std::path::Path;

use dealer::cards::Size;
use dealer::interp::{Engine, Options, Session};

use crate::naive::{self, NaiveModel};
use dealer::play::{deal_session, legal_moves, seat_rng, Legal};
use dealer::strategy::knowledge::Checks;
use dealer::strategy::{choose, find_with, load, strategy_names, Decision, Strategy};
use dealer::syntax;
use dealer::tournament::game::{deal_of, dealt, referee_of};
use dealer::tournament::Deal;

fn dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/strategies"))
}

/// The shipped strategies' checks, kept for this module's many games.
static CHECKS: std::sync::LazyLock<Checks> = std::sync::LazyLock::new(Checks::default);

fn strategy(game: &str, name: &str) -> Strategy {
    find_with(&CHECKS, Some(dir()), game, name).unwrap_or_else(|e| panic!("{e}"))
}

/// A session after the statements of `src`.
fn session(src: &str) -> Session {
    deal_session(src, Options::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// The legal moves of the session's game in its actual state.
fn legal_of(session: &Session) -> Vec<Legal> {
    let play = session.playing().expect("cards are dealt");
    let referee = play.game.referee().expect("a game with a referee");
    legal_moves(referee, play)
}

/// The model a decision is checked against: the naive reference
/// (tests/it/naive) on the session's model read back world by world, not
/// the engine that chose asked a second time. Where the naive evaluator's
/// full matrices would be too large (the first moves of a game), the
/// guard is asked of a copy of the session by `? φ`; `check_games` counts
/// how many guards the naive reference checked.
enum Reference {
    Naive(NaiveModel),
    Engine,
}

/// The most worlds read back for the naive evaluator.
const NAIVE_WORLDS: u128 = 1_500;

impl Reference {
    fn of(session: &Session) -> Reference {
        let model = &session.playing().expect("cards are dealt").model;
        if model.world_count() <= NAIVE_WORLDS {
            Reference::Naive(naive::of_backend(&**model))
        } else {
            Reference::Engine
        }
    }

    /// Whether `formula` (resolved by the session's names) holds at the
    /// actual world.
    fn holds(&self, session: &Session, formula: &str) -> bool {
        let written = syntax::parse_formula(formula).expect("a formula parses");
        match self {
            Reference::Naive(m) => {
                let phi = session.formula(&written).expect("the formula resolves");
                NAIVE_CHECKS.with(|c| c.set(c.get() + 1));
                naive::eval(m, m.actual, &phi)
            }
            Reference::Engine => session.holds(&written).expect("the engine answers"),
        }
    }
}

thread_local! {
    /// Guards checked by the naive reference on this thread.
    static NAIVE_CHECKS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// `? φ` by the naive reference on the session's model.
fn query(session: &Session, formula: &str) -> bool {
    Reference::of(session).holds(session, formula)
}

/// Chooses for the player to move and checks the decision against the
/// model: the fired rule's guard holds for every kept move, every other
/// tried guard is as the trace says, and the chosen move is legal.
fn decide(
    game: &str,
    session: &mut Session,
    strategy: &Strategy,
    seed: u64,
) -> (Decision, Vec<String>) {
    let referee = referee_of(game).unwrap();
    let moves = legal_of(session);
    let legal: Vec<String> = moves.iter().map(|l| l.text.clone()).collect();
    let play = session.playing().unwrap();
    let game = play.game;
    let me = referee
        .current_player(&play.position())
        .expect("the game goes on");
    let table = play.table.clone();
    let mut rng = seat_rng(seed, me);
    let d = choose(strategy, game, session, &table, me, &moves, &mut rng).unwrap();
    assert!(d.index < legal.len());
    let reference = Reference::of(session);
    for (i, t) in d.trace.iter().enumerate() {
        let last = i + 1 == d.trace.len() && d.rule.is_some();
        for x in &t.tried {
            if let Some(g) = &x.guard {
                assert_eq!(
                    reference.holds(session, &g.to_string()),
                    x.held,
                    "guard {g} of rule {}",
                    t.rule
                );
            }
            if !last {
                assert!(
                    !x.held,
                    "rule {} applies, so a later rule may not fire",
                    t.rule
                );
            }
        }
    }
    if let Some(rule) = &d.rule {
        let fired = d.trace.last().unwrap();
        assert_eq!(&fired.rule, rule);
        let chosen = fired
            .tried
            .iter()
            .find(|x| x.index == d.index)
            .expect("chosen move tried");
        assert!(
            chosen.held,
            "the fired rule's guard holds for the chosen move"
        );
        if let Some(g) = &chosen.guard {
            assert!(reference.holds(session, &g.to_string()), "{g}");
        }
    }
    (d, legal)
}

const GOFISH: &str = "game gofish
players 1 2 3
deck ranks A K Q J suits S H D C
deal 1: AS AH KS | 2: KH QS JS | 3: AD QH JH
stock KD QD JD AC KC QC JC
ask 1 2 A
draw 1: KD
ask 2 3 Q
ask 2 3 J
ask 2 1 K
";

#[test]
fn every_shipped_strategy_parses() {
    for game in ["gofish", "kwartet", "kemps", "konigrufen", "cabo"] {
        let names = strategy_names(Some(dir()), game);
        assert!(names.len() >= 2, "{game}: {names:?}");
        for n in names {
            let s = load(&dir().join(format!("{game}-{n}.strat"))).unwrap();
            assert_eq!(s.game, game);
            assert_eq!(s.name, n);
        }
    }
}

#[test]
fn gofish_first_order_asks_the_known_holder() {
    // Player 3 holds AD; everyone heard player 1 ask for aces.
    let mut s = session(&format!("{GOFISH}ask 2 1 Q\ndraw 2: QD\n"));
    assert!(query(&s, "K3 hand1(A)"));
    let (d, legal) = decide("gofish", &mut s, &strategy("gofish", "first-order"), 1);
    assert_eq!(d.rule.as_deref(), Some("known"));
    assert_eq!(legal[d.index], "ask 3 1 A");
    // Second order: no book, nobody knows what 3 holds: first order.
    let (d, legal) = decide("gofish", &mut s, &strategy("gofish", "second-order"), 1);
    assert_eq!(d.rule.as_deref(), Some("known"));
    assert_eq!(legal[d.index], "ask 3 1 A");
    // Most cards knows nothing about the others: either opponent.
    let (d, legal) = decide("gofish", &mut s, &strategy("gofish", "most-cards"), 1);
    assert_eq!(d.rule.as_deref(), Some("most"));
    assert_eq!(d.best.len(), 2);
    assert!(legal[d.index].ends_with(" A"));
}

#[test]
fn gofish_second_order_conceals_and_careful_avoids_known_lacks() {
    // Player 2 holds Q Q J J K K K, all asked for in public: its opponents
    // know it holds each, and it knows no one else's cards.
    let mut s = session(GOFISH);
    assert!(query(&s, "K2 E{1,3} hand2(K)"));
    let (d, legal) = decide("gofish", &mut s, &strategy("gofish", "second-order"), 3);
    assert_eq!(d.rule.as_deref(), Some("conceal"));
    assert!(legal[d.index].ends_with(" K"), "{}", legal[d.index]);
    // Careful: player 1 just gave away its kings, so 2 knows 1 has none.
    assert!(query(&s, "K2 !hand1(K)"));
    let (d, legal) = decide("gofish", &mut s, &strategy("gofish", "careful"), 3);
    assert_eq!(d.rule.as_deref(), Some("hopeful"));
    assert_eq!(legal[d.index], "ask 2 3 K");
    // Random consults no rule.
    let (d, _) = decide("gofish", &mut s, &strategy("gofish", "random"), 3);
    assert_eq!(d.rule, None);
}

/// The report's net-gain example (§4.1.3): player 1 holds two kings and
/// one queen; it knows player 2 holds a king (2 asked for kings) and
/// player 3 three queens (3 was given two by 2 after asking).
const NET_GAIN: &str = "game gofish
players 1 2 3
deck ranks A K Q J suits S H D C
deal 1: KS KH QS JS | 2: KD QH QC AS | 3: QD AH JH AD
stock JD KC JC AC
ask 1 2 J
draw 1: JD
ask 2 3 K
draw 2: KC
ask 3 2 Q
ask 3 2 J
draw 3: JC
";

#[test]
fn gofish_first_order_prefers_the_net_gain_and_second_order_the_book() {
    let mut s = session(NET_GAIN);
    assert!(query(&s, "K1 hand2(K)"));
    assert!(query(&s, "K1 hand3(Q) >= 3"));
    assert!(query(&s, "K1 stock(Q) = 0"));
    // First order: kings 2 + 1 known, queens 1 + 3 known, jacks 2 + 1.
    let (d, legal) = decide("gofish", &mut s, &strategy("gofish", "first-order"), 1);
    assert_eq!(d.rule.as_deref(), Some("known"));
    assert_eq!(legal[d.index], "ask 1 3 Q");
    let fired = d.trace.last().unwrap();
    let score = |text: &str| {
        fired
            .tried
            .iter()
            .find(|t| t.text == text)
            .and_then(|t| t.score)
    };
    assert_eq!(score("ask 1 3 Q"), Some(4));
    assert_eq!(score("ask 1 2 K"), Some(3));
    assert_eq!(score("ask 1 3 J"), Some(3));
    // Most cards: a king or a jack (two of each), never the queen.
    let (d, legal) = decide("gofish", &mut s, &strategy("gofish", "most-cards"), 1);
    assert_eq!(d.rule.as_deref(), Some("most"));
    assert!(!legal[d.index].ends_with(" Q"), "{}", legal[d.index]);
    assert_eq!(d.best.len(), 4, "two opponents, two ranks");
    // Second order: the opponents know 1 holds a jack (it asked), but the
    // book comes first: every queen is located, so the ask completes it.
    assert!(query(&s, "K1 E{2,3} hand1(J)"));
    let (d, legal) = decide("gofish", &mut s, &strategy("gofish", "second-order"), 1);
    assert_eq!(d.rule.as_deref(), Some("book"));
    assert_eq!(legal[d.index], "ask 1 3 Q");
    assert_eq!(d.trace.len(), 1, "no later rule was tried");
}

const KWARTET: &str = "game kwartet
players 1 2 3 4
deck sets 1..4 of 4
deal 1: <1,1> <2,1> <3,1> <4,1> | 2: <1,2> <1,3> <2,2> <3,2> | 3: <1,4> <2,3> <3,3> <4,2> | 4: <2,4> <3,4> <4,3> <4,4>
ask 1 2 <1,2>
ask 1 2 <2,3>
";

#[test]
fn kwartet_greedy_asks_a_known_card_and_silent_waits() {
    let mut s = session(KWARTET);
    assert!(query(&s, "K2 hand1(<1,2>)"));
    let (d, legal) = decide("kwartet", &mut s, &strategy("kwartet", "greedy"), 5);
    assert_eq!(d.rule.as_deref(), Some("known"));
    let fired = d.trace.last().unwrap();
    assert!(fired
        .tried
        .iter()
        .any(|x| x.held && x.text == "ask 2 1 <1,2>"));
    assert!(legal.contains(&"ask 2 1 <1,2>".to_string()));
    // Silent: player 2 does not know where <1,4> is, so no complete set:
    // a bluff (one of its own cards) about a third of the time, else a
    // random request.
    assert!(!query(&s, "K2 hand3(<1,4>)"));
    let (mut bluffs, mut random) = (0, 0);
    for seed in 0..60 {
        let (d, legal) = decide("kwartet", &mut s, &strategy("kwartet", "silent"), seed);
        assert!(
            !d.trace[0].applies(),
            "complete never applies: {:?}",
            d.trace[0]
        );
        let asked = legal[d.index].rsplit(' ').next().unwrap().to_string();
        match d.rule.as_deref() {
            Some("bluff") => {
                bluffs += 1;
                assert!(legal[d.index].starts_with("ask 2 "), "{}", legal[d.index]);
                assert!(
                    query(&s, &format!("hand2({asked})")),
                    "a bluff names its own card"
                );
            }
            None => random += 1,
            r => panic!("silent fired {r:?}"),
        }
    }
    assert!(
        (10..=35).contains(&bluffs),
        "bluffs {bluffs}, random {random}"
    );
}

#[test]
fn kwartet_asks_for_ones_own_card_are_legal_and_fail() {
    // The report's rules: a player may ask for a card it holds; the ask
    // fails (nobody else has it) and the turn passes.
    let mut s = session(KWARTET);
    let (_, legal) = decide("kwartet", &mut s, &strategy("kwartet", "random"), 5);
    // Player 2 gave <1,2> away and holds <1,3> <2,2> <3,2>: sets 1, 2, 3 (of 4 each),
    // 12 cards of its sets, three players to ask.
    assert_eq!(legal.len(), 12 * 3, "{legal:?}");
    assert!(legal.contains(&"ask 2 3 <1,3>".to_string()));
    let own = legal.iter().position(|m| m == "ask 2 3 <1,3>").unwrap();
    let lacking = legal.iter().position(|m| m == "ask 2 3 <1,4>").unwrap();
    assert!(lacking < own, "the cards it lacks come first");
    let src = "ask 2 3 <1,3>";
    let stmt = syntax::parse_statement(src).unwrap().remove(0);
    s.execute(&stmt, src)
        .expect("an ask for one's own card is legal");
    assert!(query(&s, "hand2(<1,3>)"), "the card stays");
    assert!(query(&s, "C !hand3(<1,3>)"));
    assert!(query(&s, "C hand2(<1,*>) >= 1"));
    let (_, legal) = decide("kwartet", &mut s, &strategy("kwartet", "random"), 5);
    assert!(
        legal[0].starts_with("ask 3 "),
        "the turn passed: {}",
        legal[0]
    );
}

#[test]
fn kwartet_silent_asks_when_the_whole_set_is_located() {
    // Player 3 shows its <1,4> in public: player 2 now knows where all
    // four cards of set 1 are (<1,3> with itself, <1,1> and <1,2> with 1:
    // 1 asked for set 1, <1,4> with 3).
    let mut s = session(KWARTET);
    let (_, legal) = decide("kwartet", &mut s, &strategy("kwartet", "random"), 5);
    assert!(!legal.is_empty());
    let src = "reveal 3 <1,4>";
    let stmt = syntax::parse_statement(src).unwrap().remove(0);
    s.execute(&stmt, src).expect("a reveal is legal");
    assert!(query(&s, "K2 hand3(<1,4>)"));
    for name in ["silent", "mixed"] {
        let (d, legal) = decide("kwartet", &mut s, &strategy("kwartet", name), 5);
        assert!(d.rule.is_some(), "{name}");
        assert!(
            ["ask 2 1 <1,1>", "ask 2 1 <1,2>", "ask 2 3 <1,4>"].contains(&legal[d.index].as_str()),
            "{name}: {}",
            legal[d.index]
        );
    }
}

#[test]
fn kwartet_mixed_is_greedy_half_the_time_and_random_asks_anything() {
    // Player 2 knows 1 holds <1,2> and <2,3> (1 asked for the first and
    // was given the second); no set is located whole.
    let known = ["ask 2 1 <1,2>", "ask 2 1 <2,3>"];
    let (mut greedy, mut other) = (0, 0);
    let mut random_moves = std::collections::BTreeSet::new();
    for seed in 0..40 {
        let mut s = session(KWARTET);
        let (d, legal) = decide("kwartet", &mut s, &strategy("kwartet", "mixed"), seed);
        match d.rule.as_deref() {
            Some("greedy") => {
                greedy += 1;
                assert!(known.contains(&legal[d.index].as_str()));
            }
            None | Some("bluff") => {
                other += 1;
                assert!(
                    d.trace[0].skipped,
                    "the coin, not the guard, skipped greedy"
                );
                if d.rule.is_some() {
                    let card = legal[d.index].rsplit(' ').next().unwrap();
                    assert!(
                        query(&s, &format!("hand2({card})")),
                        "a bluff names its own card"
                    );
                }
            }
            r => panic!("mixed fired {r:?}"),
        }
        let (d, legal) = decide("kwartet", &mut s, &strategy("kwartet", "random"), seed);
        assert_eq!(d.rule, None);
        random_moves.insert(legal[d.index].clone());
    }
    assert!(
        greedy >= 10 && other >= 10,
        "greedy {greedy}, random {other}"
    );
    assert!(random_moves.len() >= 4, "{random_moves:?}");
}

/// Plays seeded small games with every shipped strategy at every seat and
/// checks each decision against the model.
fn check_games(game: &str, deal: &Deal, names: &[&str], seeds: std::ops::Range<u64>) {
    let before = NAIVE_CHECKS.with(|c| c.get());
    for seed in seeds {
        assert!(check_game(game, deal, names, seed, 500), "game {seed} ends");
    }
    let naive = NAIVE_CHECKS.with(|c| c.get()) - before;
    assert!(
        naive >= 10,
        "only {naive} guards checked by the naive reference"
    );
}

/// As [`check_games`], for one seed and at most `limit` moves; whether the
/// game ended (Kemps' knowledge-based players may wait forever, as the
/// report says).
fn check_game(game: &str, deal: &Deal, names: &[&str], seed: u64, limit: u64) -> bool {
    let strategies: Vec<Strategy> = names.iter().map(|n| strategy(game, n)).collect();
    let mut m = dealt(game, deal, seed, Engine::Auto).unwrap_or_else(|e| panic!("{e}"));
    let mut moves = 0;
    while let Some(me) = m.current_player() {
        if moves >= limit {
            return false;
        }
        let st = &strategies[(me + seed as usize) % strategies.len()];
        let (d, legal) = decide(game, &mut m.session().clone(), st, seed + moves);
        let chosen = m.legal_moves().swap_remove(d.index);
        assert_eq!(chosen.text, legal[d.index]);
        m.play_legal(&chosen).expect("a chosen move is legal");
        moves += 1;
    }
    true
}

#[test]
fn gofish_decisions_agree_with_the_model() {
    let deal = Deal::Referee(Size::Teaching);
    check_games(
        "gofish",
        &deal,
        &["first-order", "second-order", "careful", "most-cards"],
        0..6,
    );
}

#[test]
fn kwartet_decisions_agree_with_the_model() {
    let deal = Deal::Referee(Size::Teaching);
    check_games("kwartet", &deal, &["greedy", "silent", "mixed"], 0..4);
}

#[test]
fn bad_strategies_get_located_errors() {
    let err = dealer::strategy::parse("strategy x for gofish\nrule a: ask me x r when K_me &")
        .unwrap_err();
    assert_eq!(err.code, "strategy-formula");
    let err = dealer::strategy::parse("rule a: ask me x r").unwrap_err();
    assert_eq!(err.code, "strategy-header");
    let err = dealer::strategy::parse("strategy x for gofish\nrule a chance 3/2: any").unwrap_err();
    assert_eq!(err.code, "strategy-rule");
    // A variable that is also a card name is refused when a game is dealt.
    let s = dealer::strategy::parse("strategy x for gofish\nrule a: ask me x q").unwrap();
    let mut sess = session(GOFISH);
    let legal = legal_of(&sess);
    let table = sess.playing().unwrap().table.clone();
    let game = sess.playing().unwrap().game;
    let err = choose(&s, game, &mut sess, &table, 1, &legal, &mut seat_rng(0, 1)).unwrap_err();
    assert_eq!(err.code, "strategy-variable");
    // A rule's move is checked against the game's moves when the strategy
    // is loaded: an unknown word, or a known one with the wrong arguments.
    let err = dealer::strategy::vetted("x.strat", "strategy x for gofish\nrule a: pick me c\n")
        .unwrap_err()
        .to_string();
    assert!(err.contains("`pick` is no move of gofish"), "{err}");
    assert!(err.contains("x.strat:2:1"), "{err}");
    assert!(err.contains("ask, draw"), "{err}");
    let err = dealer::strategy::vetted("x.strat", "strategy x for kemps\nrule a: pick me\n")
        .unwrap_err()
        .to_string();
    assert!(err.contains("does not fit the move `pick`"), "{err}");
    assert!(err.contains("pick P C"), "{err}");
    let err = dealer::strategy::vetted("x.strat", "strategy x for cabo\nrule a: draw me from: t\n")
        .unwrap_err()
        .to_string();
    assert!(err.contains("does not fit the move `draw`"), "{err}");
}

const KEMPS_BLOCKING: &str = include_str!("../data/kemps-blocking.deal");

/// Player 1 holds 5 5 3 4 and sees a 5 on the table; where the fourth 5
/// lies it cannot know. Greedy collects 5s; KB greedy and KB blocking wait.
#[test]
fn kemps_greedy_collects_and_the_knowledge_based_wait() {
    let start = KEMPS_BLOCKING.split("pass 1").next().unwrap();
    let mut s = session(start);
    assert!(!query(&s, "K1 (hand2(5) = 0 & hand3(5) = 0)"));
    let (d, legal) = decide("kemps", &mut s, &strategy("kemps", "greedy"), 1);
    assert_eq!(
        (d.rule.as_deref(), legal[d.index].as_str()),
        (Some("collect"), "pick 1 5")
    );
    for name in ["kb-greedy", "kb-blocking"] {
        let (d, legal) = decide("kemps", &mut s, &strategy("kemps", name), 1);
        assert_eq!(
            (d.rule.as_deref(), legal[d.index].as_str()),
            (Some("wait"), "pass 1"),
            "{name}"
        );
    }
}

/// With every 5 in sight, player 1 knows no one else collects 5s: KB
/// greedy picks one.
#[test]
fn kemps_kb_greedy_collects_a_value_it_knows_is_free() {
    let mut s = session(
        "game kemps\nplayers 1 2 3\ndeck 2..6*4\n\
         deal 1: 5 5 3 4 | 2: 2 2 6 6 | 3: 3 3 4 2 | table: 5 5 6 3 4 6\nstock 2 4\n",
    );
    assert!(query(&s, "K1 (hand2(5) = 0 & hand3(5) = 0)"));
    let (d, legal) = decide("kemps", &mut s, &strategy("kemps", "kb-greedy"), 1);
    assert_eq!(
        (d.rule.as_deref(), legal[d.index].as_str()),
        (Some("collect"), "pick 1 5")
    );
}

/// Player 2 picked a 6 in public: player 3 (3 3 4 2) knows 2 holds a 6.
/// KB blocking takes the 6 from the table and gives back a single card of
/// a value nobody is known to hold; greedy collects 3s; KB greedy waits.
#[test]
fn kemps_kb_blocking_blocks_a_known_collector() {
    let mut s = session(KEMPS_BLOCKING);
    assert!(query(&s, "K3 hand2(6) >= 1"));
    let (d, legal) = decide("kemps", &mut s, &strategy("kemps", "kb-blocking"), 1);
    assert_eq!(
        (d.rule.as_deref(), legal[d.index].as_str()),
        (Some("block"), "pick 3 6")
    );
    let (d2, legal2) = decide("kemps", &mut s.clone(), &strategy("kemps", "greedy"), 1);
    assert_eq!(legal2[d2.index], "pick 3 3");
    let (d3, legal3) = decide("kemps", &mut s.clone(), &strategy("kemps", "kb-greedy"), 1);
    assert_eq!(legal3[d3.index], "pass 3");
    // After the block it holds five: it keeps the 6 and its pair of 3s.
    let stmt = syntax::parse_statement(&legal[d.index]).unwrap().remove(0);
    s.execute(&stmt, &legal[d.index]).unwrap();
    let (d, legal) = decide("kemps", &mut s, &strategy("kemps", "kb-blocking"), 1);
    assert_eq!(d.rule.as_deref(), Some("exchange"));
    assert!(
        ["discard 3 4", "discard 3 2"].contains(&legal[d.index].as_str()),
        "{}",
        legal[d.index]
    );
}

#[test]
fn kemps_decisions_agree_with_the_model() {
    let deal = Deal::Referee(Size::Teaching);
    let names = ["greedy", "kb-greedy", "kb-blocking"];
    let ended = (0..4)
        .filter(|&seed| check_game("kemps", &deal, &names, seed, 80))
        .count();
    assert!(ended > 0, "some Kemps game ends within 80 moves");
}

const KONIGRUFEN: &str = "game konigrufen
players Bruno Jakob Katrin Nadine
deck tarock KH QH 1H 2H KS QS 9S T4
deal Bruno: T4 9S | Jakob: 1H QS | Katrin: QH KS | Nadine: KH 2H
call Bruno KH
";

/// Bruno holds the highest trump and leads it; Nadine, who holds the
/// called king, knows Bruno is her teammate and gives him her points.
#[test]
fn konigrufen_leads_the_highest_trump_and_feeds_a_known_teammate() {
    let report = strategy("konigrufen", "report");
    let mut s = session(KONIGRUFEN);
    assert!(query(&s, "highest(Bruno)"));
    let (d, legal) = decide("konigrufen", &mut s, &report, 1);
    assert_eq!(
        (d.rule.as_deref(), legal[d.index].as_str()),
        (Some("highest"), "play Bruno T4")
    );
    let mut s = session(&format!(
        "{KONIGRUFEN}play Bruno 9S\nplay Jakob QS\nplay Katrin KS\n"
    ));
    assert!(query(&s, "K_Nadine partner(Nadine)"));
    let (d, legal) = decide("konigrufen", &mut s, &report, 1);
    assert_eq!(
        (d.rule.as_deref(), legal[d.index].as_str()),
        (Some("feed"), "play Nadine KH")
    );
    // Jakob knows Bruno is no teammate of his (he would hold the king):
    // following Bruno's trump lead he gives the fewest points.
    let mut s = session(&format!("{KONIGRUFEN}play Bruno T4\n"));
    assert!(query(&s, "K_Jakob !partner(Jakob)"));
    let (d, legal) = decide("konigrufen", &mut s, &report, 1);
    assert_eq!(
        (d.rule.as_deref(), legal[d.index].as_str()),
        (Some("duck"), "play Jakob 1H")
    );
}

#[test]
fn konigrufen_decisions_agree_with_the_model() {
    let deal = Deal::Referee(Size::Teaching);
    check_games("konigrufen", &deal, &["report", "random"], 0..6);
}

/// After the deal each player has peeked at two slots. Regular draws the
/// open pile's top when it knows a slot of its own holds more; paranoid
/// never does.
#[test]
fn cabo_regular_takes_the_open_card_and_paranoid_does_not() {
    let deal = Deal::Referee(Size::Teaching);
    let mut s = session(&deal_of("cabo", &deal, 1).unwrap().to_text());
    let (d, legal) = decide("cabo", &mut s, &strategy("cabo", "regular"), 1);
    assert_eq!(
        (d.rule.as_deref(), legal[d.index].as_str()),
        (Some("open"), "draw 1 from open: 1")
    );
    let (d, legal) = decide("cabo", &mut s, &strategy("cabo", "paranoid"), 1);
    assert_eq!(
        (d.rule.as_deref(), legal[d.index].as_str()),
        (Some("closed"), "draw 1")
    );
    // Holding the 1, regular puts it into a slot it knows holds more.
    let stmt = syntax::parse_statement("draw 1 from open: 1")
        .unwrap()
        .remove(0);
    s.execute(&stmt, "draw 1 from open: 1").unwrap();
    let (d, legal) = decide("cabo", &mut s, &strategy("cabo", "regular"), 1);
    assert_eq!(d.rule.as_deref(), Some("better"));
    let slot = legal[d.index].strip_prefix("place 1 ").unwrap().to_string();
    assert!(query(&s, &format!("K1 !{slot}(0..1)")), "{slot}");
}

#[test]
fn cabo_decisions_agree_with_the_model() {
    let deal = Deal::Referee(Size::Teaching);
    check_games("cabo", &deal, &["regular", "paranoid", "random"], 0..6);
}
