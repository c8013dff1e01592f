//! The referee of each game: seeded games between uniformly random legal
//! agents, every move applied as a statement of a normal session. Every
//! offered move is accepted, games end in a legal final state, the same seed
//! gives the same game, and the written-out game replays with every
//! expectation holding.

use crate::common;
use dealer::cards::referee::final_expectations;
use dealer::cards::{game_named, Referee, Size};
use dealer::diag::Span;
use dealer::interp::{Engine, Options, Output, Session};
use dealer::syntax;
use proptest::prelude::*;
use rand::seq::{IndexedRandom, SliceRandom};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A played game: the scenario written out, the final scores and winners.
struct Played {
    text: String,
    moves: usize,
    scores: Vec<i64>,
    winners: Vec<usize>,
}

fn referee(game: &str) -> &'static dyn Referee {
    game_named(game)
        .and_then(|g| g.referee())
        .unwrap_or_else(|| panic!("{game} has a referee"))
}

/// Executes scenario text statement by statement; panics on a refusal.
fn execute(session: &mut Session, text: &str) {
    let scenario = syntax::parse(text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
    for stmt in &scenario.statements {
        session
            .execute(stmt, text)
            .unwrap_or_else(|d| panic!("{}", d.render("game.deal", text, false)));
    }
}

/// Plays a game from its seeded setup to the end with a random agent seeded
/// by `seed`. With `try_all`, every offered move is first tried on a copy
/// of the session and must be accepted.
fn play(game: &str, seed: u64, size: Size, try_all: bool) -> Played {
    let r = referee(game);
    let mut text = r.setup(seed, size);
    let mut session = Session::new(Options::default());
    execute(&mut session, &text);
    session
        .finish(Span::new(0, 0))
        .expect("the seeded deal is valid");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut moves = 0;
    loop {
        let play = session.playing().expect("dealt");
        let pos = play.position();
        let legal = r.legal_moves(&pos);
        if r.is_terminal(&pos) {
            assert!(legal.is_empty(), "{game} seed {seed}: moves after the end");
            assert_eq!(r.current_player(&pos), None);
            break;
        }
        assert!(
            !legal.is_empty(),
            "{game} seed {seed}: no legal move\n{text}"
        );
        assert!(r.current_player(&pos).is_some());
        if try_all {
            for mv in &legal {
                let mut copy = session.clone();
                execute(&mut copy, &r.move_text(&play.table, mv));
            }
        }
        let line = r.move_text(&play.table, legal.choose(&mut rng).expect("a move"));
        execute(&mut session, &line);
        text.push_str(&line);
        text.push('\n');
        moves += 1;
        assert!(moves < 5_000, "{game} seed {seed}: no end after 5000 moves");
    }
    let play = session.playing().expect("dealt");
    let pos = play.position();
    for line in final_expectations(&pos) {
        text.push_str(&line);
        text.push('\n');
    }
    Played {
        text,
        moves,
        scores: r.scores(&pos),
        winners: r.winners(&pos),
    }
}

/// Whether the one `expect` statement `text` holds in the session.
fn expected(session: &mut Session, text: &str) -> bool {
    let scenario = syntax::parse(text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
    let outputs = session
        .execute(&scenario.statements[0], text)
        .unwrap_or_else(|d| panic!("{}", d.render("query", text, false)));
    match outputs.as_slice() {
        [Output::Expect { held, .. }] => *held,
        other => panic!("{text}: {other:?}"),
    }
}

/// Replays written-out text with `engine`; every expectation must hold.
/// Returns how many held.
fn replays_with(text: &str, engine: Engine) -> usize {
    common::all_held(text, engine).0
}

/// Replays written-out text with the engine `auto` chooses.
fn replays(text: &str) -> usize {
    replays_with(text, Engine::Auto)
}

/// Plays `seeds` teaching games of `game` and checks each.
fn check_teaching(game: &str, seeds: std::ops::Range<u64>, end: impl Fn(&Played)) {
    for seed in seeds {
        let game_a = play(game, seed, Size::Teaching, seed % 4 == 0);
        let game_b = play(game, seed, Size::Teaching, false);
        assert_eq!(
            game_a.text, game_b.text,
            "{game} seed {seed}: not deterministic"
        );
        assert!(!game_a.winners.is_empty());
        end(&game_a);
        assert!(replays_with(&game_a.text, Engine::Explicit) > 0);
        if seed % 3 == 0 {
            assert!(replays_with(&game_a.text, Engine::Symbolic) > 0);
        }
    }
}

#[test]
fn go_fish_teaching_games_end_with_every_book_down() {
    check_teaching("gofish", 0..12, |g| {
        assert_eq!(
            g.scores.iter().sum::<i64>(),
            3,
            "three books of three\n{}",
            g.text
        );
        assert!(g.text.contains("expect stock = 0"));
        assert!(g.moves > 0);
    });
}

#[test]
fn kwartet_teaching_games_end_with_every_set_down() {
    check_teaching("kwartet", 0..12, |g| {
        assert_eq!(g.scores.iter().sum::<i64>(), 3, "three sets\n{}", g.text);
        assert!(g.text.contains("expect hand1 = 0"));
    });
}

#[test]
fn the_same_seed_deals_the_same_cards_and_another_seed_others() {
    for game in ["gofish", "kwartet"] {
        let r = referee(game);
        for size in [Size::Teaching, Size::Full] {
            assert_eq!(r.setup(7, size), r.setup(7, size));
            assert_ne!(r.setup(7, size), r.setup(8, size));
        }
    }
    // Pinned: the deals of seed 1 must not change between machines or
    // versions (ChaCha8 and the shuffle are portable).
    let deals: Vec<String> = ["gofish", "kwartet", "kemps", "konigrufen", "cabo"]
        .iter()
        .map(|g| referee(g).setup(1, Size::Teaching))
        .collect();
    insta::assert_snapshot!(deals.join("\n"));
}

#[test]
fn konigrufen_teaching_games_play_every_trick() {
    check_teaching("konigrufen", 0..12, |g| {
        for p in ["Bruno", "Jakob", "Katrin", "Nadine"] {
            assert!(
                g.text.contains(&format!("expect hand_{p} = 0")),
                "{}",
                g.text
            );
            assert!(
                g.text.contains(&format!("expect played_{p} = 2")),
                "{}",
                g.text
            );
        }
        // A call and eight cards; the two teams share the count of 50/3.
        assert_eq!(g.moves, 9);
        let mut teams = g.scores.clone();
        teams.sort();
        teams.dedup();
        let total: i64 = if teams.len() == 1 {
            2 * teams[0]
        } else {
            teams.iter().sum()
        };
        assert!((16..=17).contains(&total), "{:?}\n{}", g.scores, g.text);
    });
}

#[test]
fn cabo_teaching_games_end_with_the_closed_pile_empty() {
    check_teaching("cabo", 0..12, |g| {
        assert!(g.text.contains("expect stock = 0"), "{}", g.text);
        assert!(g.text.contains("expect hand1 = 0") && g.text.contains("expect hand2 = 0"));
        // Eight slots of values 0..3: the sums stay within 0..=12 each.
        assert!(g.scores.iter().all(|s| (0..=12).contains(s)));
        let low = *g.scores.iter().min().expect("two players");
        assert!(g.winners.iter().all(|&p| g.scores[p] == low));
    });
}

#[test]
fn kemps_teaching_games_end_when_no_new_hand_can_be_dealt() {
    check_teaching("kemps", 0..6, |g| {
        assert!(
            g.scores.iter().sum::<i64>() >= 1,
            "a Kemps ends the game\n{}",
            g.text
        );
        assert!(g.text.contains("\nkemps "), "{}", g.text);
    });
}

/// Full-deck games (the reports' decks and players): slow in a debug build,
/// so run with `cargo test --release --test it referee -- --ignored --nocapture`,
/// which prints each game's moves and time (`DEALER_GAMES=cabo` picks
/// games). The Cabo-like game's full size is also played in
/// `tests/it/cabo_uncounted.rs`, which is not ignored.
#[test]
#[ignore]
fn full_deck_games_end_and_replay() {
    let games = std::env::var("DEALER_GAMES")
        .unwrap_or_else(|_| "gofish,kwartet,konigrufen,kemps,cabo".into());
    for game in games.split(',') {
        let start = std::time::Instant::now();
        let g = play(game, 1, Size::Full, false);
        let took = start.elapsed();
        eprintln!(
            "{game}: {} moves in {:.1?} ({:.1?} per move), scores {:?}, winners {:?}",
            g.moves,
            took,
            took / g.moves.max(1) as u32,
            g.scores,
            g.winners
        );
        assert!(!g.winners.is_empty());
        assert!(replays(&g.text) > 0);
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 10,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Over random seeds and games: at every position of a random game,
    /// each move the referee offers is accepted by the session.
    #[test]
    fn every_offered_move_is_accepted(
        seed in any::<u64>(),
        game in prop::sample::select(vec!["gofish", "kwartet", "kemps", "konigrufen", "cabo"]),
    ) {
        let g = play(game, seed, Size::Teaching, true);
        prop_assert!(!g.winners.is_empty());
    }
}

/// A referee's setup is its typed deal printed: the text reads back as the
/// same deal (with psychic players too), and replays to a model whose
/// actual world puts every card where the deal says, with the stock's
/// order, players and psychic seats of the deal; for every game and size.
/// `psychic` is the Cabo-like game's declaration: another game's deal
/// with it is refused at the word.
#[test]
fn every_deal_reads_back_and_replays_to_its_model() {
    use dealer::cards::game::declares;
    use dealer::cards::{cabo, Deal, GAMES};
    for g in GAMES {
        let Some(r) = g.referee() else { continue };
        for size in [Size::Teaching, Size::Full] {
            for seed in 0..2u64 {
                let deal = r.deal(seed, size);
                let text = deal.to_text();
                assert_eq!(text, r.setup(seed, size));
                assert_eq!(Deal::from_text(&text).unwrap(), deal, "{text}");
                assert_eq!(deal.game, g.name());
                assert_eq!(deal.seed, seed);
                let psychic = deal.clone().with_declared("psychic", &[1, 0, 1]);
                assert_eq!(psychic.declared("psychic"), &[1, 0]);
                assert_eq!(Deal::from_text(&psychic.to_text()).unwrap(), psychic);

                let replayed = if declares(*g, "psychic") {
                    &psychic
                } else {
                    let text = psychic.to_text();
                    let scenario = syntax::parse(&text).unwrap();
                    let mut session = Session::new(Options::default());
                    let mut refused = None;
                    for stmt in &scenario.statements {
                        let before = session.clone();
                        if let Err(d) = session.execute(stmt, &text) {
                            crate::common::assert_unchanged(&before, &session);
                            refused.get_or_insert(d);
                        }
                    }
                    let d = refused.expect("refused");
                    assert_eq!(d.code, "not-a-declaration-of-the-game");
                    assert_eq!(
                        d.message,
                        format!(
                            "`psychic` is a declaration of the Cabo-like game, not of {}",
                            g.title()
                        )
                    );
                    let at = text.find("psychic").unwrap();
                    assert_eq!((d.span.start, d.span.end), (at, at + "psychic".len()));
                    &deal
                };
                let mut session = Session::new(Options::default());
                execute(&mut session, &replayed.to_text());
                session.finish(Span::new(0, 0)).unwrap();
                let play = session.playing().unwrap();
                let table = &play.table;
                assert_eq!(table.players, deal.players);
                assert_eq!(cabo::psychic(table), replayed.declared("psychic"));
                let kind = |name: &str| {
                    table
                        .deck
                        .kinds
                        .iter()
                        .position(|k| k.name == name)
                        .unwrap_or_else(|| panic!("{name} is in the deck"))
                };
                let actual = play.model.actual_cards();
                for (place, cards) in &deal.parts {
                    let loc = table.find_location(place).unwrap();
                    let mut want = vec![0u32; table.deck.kinds.len()];
                    for c in cards {
                        want[kind(c)] += 1;
                    }
                    assert_eq!(actual[loc], want, "{} seed {seed}: {place}", g.name());
                }
                let order: Vec<&str> = play
                    .state
                    .stock_order
                    .iter()
                    .map(|&k| table.deck.kinds[k].name.as_str())
                    .collect();
                assert_eq!(order, deal.stock, "{} seed {seed}", g.name());
                let in_stock: u32 = actual[table.stock()].iter().sum();
                let phantom = table.phantom * table.deck.kinds.len() as u32;
                assert_eq!(in_stock, deal.stock.len() as u32 + phantom);
                assert_eq!(deal.uncounted, table.phantom > 0);
                // The deal's deck is the deck the session read, and the
                // cards lie as a naive shuffle of its cards, kind by kind,
                // with the same seed, dealt in order.
                assert_eq!(table.deck, deal.deck, "{} {size}", g.name());
                let mut naive: Vec<String> = Vec::new();
                for k in &table.deck.kinds {
                    for _ in 0..k.copies {
                        naive.push(k.name.clone());
                    }
                }
                naive.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
                let laid: Vec<String> = deal
                    .parts
                    .iter()
                    .flat_map(|(_, cards)| cards.iter().cloned())
                    .chain(deal.stock.iter().cloned())
                    .collect();
                assert_eq!(laid, naive, "{} {size} seed {seed}", g.name());
                // Each opening peek was played: its player knows the card
                // it looked at, and the next player does not.
                let n = deal.players.len();
                let mut peeks = 0;
                for opening in &deal.opening {
                    let dealer::cards::Opening::Peek { player, place } = opening;
                    let (me, next) = (&deal.players[*player], &deal.players[(*player + 1) % n]);
                    assert!(expected(&mut session, &format!("expect Kv{me} {place}")));
                    assert!(expected(&mut session, &format!("expect !Kv{next} {place}")));
                    peeks += 1;
                }
                let want = if g.name() == "cabo" { 2 * n } else { 0 };
                assert_eq!(peeks, want, "{} {size}", g.name());
            }
        }
    }
}

/// Reading a deal refuses, with the place, a statement that is no part of a
/// deal, a deck the deck's rules refuse and a peek by no player.
#[test]
fn a_deal_that_is_no_deal_is_refused_with_its_place() {
    use dealer::cards::{Deal, Opening};
    let good = "game cabo\nplayers 1 2\ndeck 0..3*3\ndeal 1.1: 2 | 1.2: 3\npeek 2 1.1\n";
    let deal = Deal::from_text(good).unwrap();
    assert_eq!(
        deal.opening,
        vec![Opening::Peek {
            player: 1,
            place: "1.1".into()
        }]
    );
    assert_eq!(deal.deck.total(), 12);
    for (text, code, at) in [
        (
            "game cabo\nplayers 1 2\ndeck 0..3\nask 1 2 3\n",
            "not-a-deal",
            "ask 1 2 3",
        ),
        (
            "game cabo\nplayers 1 2\ndeck 0..3\n? K_1 p\n",
            "not-a-deal",
            "? K_1 p",
        ),
        ("game cabo\nplayers 1 2\ndeck 0..3 2*2\n", "bad-deck", "2*2"),
        (
            "game cabo\nplayers 1 2\ndeck 0..3\npeek 3 1.1\n",
            "unknown-player",
            "3",
        ),
    ] {
        let d = Deal::from_text(text).unwrap_err();
        assert_eq!(d.code, code, "{text}");
        let span = d.span;
        let line_start = text.rfind(at).unwrap();
        assert!(
            span.start >= line_start && span.end <= line_start + at.len(),
            "{text}: {span:?} is not `{at}`"
        );
    }
}

/// A deck line written in any form, read by the grammar, prints (with
/// [`Deck::line`]) a line that reads back to the very same deck.
fn deck_line() -> impl Strategy<Value = String> {
    let names = prop::sample::subsequence(
        vec![
            "Q", "A", "K", "7", "8", "9", "10", "QH", "2S", "<3,1>", "<3,2>", "X1", "CH", "T4",
        ],
        1..6,
    );
    let items = (names, prop::collection::vec(1u32..4, 6)).prop_map(|(names, copies)| {
        let items: Vec<String> = names
            .iter()
            .zip(copies)
            .map(|(n, c)| {
                if c == 1 {
                    n.to_string()
                } else {
                    format!("{n}*{c}")
                }
            })
            .collect();
        items.join(" ")
    });
    let values = (0u32..5, 0u32..6, 1u32..4, any::<bool>()).prop_map(|(a, n, c, more)| {
        let mut line = format!("{a}..{}*{c}", a + n);
        if more {
            line.push_str(&format!(" {}", a + n + 2));
        }
        line
    });
    let ranks = (
        prop::sample::subsequence(
            vec!["1", "2", "3", "4", "5", "9", "10", "J", "Q", "K", "A"],
            1..8,
        ),
        prop::sample::subsequence(vec!["S", "H", "D", "C", "X"], 1..5),
    )
        .prop_map(|(r, s)| format!("ranks {} suits {}", r.join(" "), s.join(" ")));
    let sets =
        (1u32..4, 0u32..3, 1u32..4).prop_map(|(a, n, m)| format!("sets {a}..{} of {m}", a + n));
    let tarock = prop::sample::subsequence(
        vec![
            "T1", "T21", "SKUS", "KH", "QH", "CH", "1H", "4H", "10S", "7C", "JD",
        ],
        0..6,
    )
    .prop_map(|cards| format!("tarock {}", cards.join(" ")));
    prop_oneof![
        items,
        values,
        ranks,
        sets,
        tarock,
        Just("tarock reduced".to_string())
    ]
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 256,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn every_deck_prints_a_line_that_reads_back_to_it(line in deck_line()) {
        use dealer::cards::Deck;
        let deck = Deck::read_line(&format!("deck {line}")).unwrap();
        let printed = deck.line();
        let again = Deck::read_line(&format!("deck {printed}"))
            .unwrap_or_else(|d| panic!("`{line}` printed as `{printed}`: {d:?}"));
        prop_assert_eq!(again, deck, "`{}` printed as `{}`", line, printed);
    }
}

/// FNV-1a, 64 bits: a fingerprint that does not depend on the standard
/// library's hasher.
fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Where each card of a deal lies: the parts in order, then the stock.
fn cards_of(deal: &dealer::cards::Deal) -> String {
    let mut out = String::new();
    for (place, cards) in &deal.parts {
        out.push_str(&format!("{place}: {}|", cards.join(" ")));
    }
    out.push_str(&deal.stock.join(" "));
    out
}

/// The fingerprints of every refereed game's deals of seeds 0..16 at both
/// sizes (of where the cards lie, and of the whole text), and of a
/// tournament's custom deal, as they were computed before the deck in a
/// deal became a typed value: the same seed and size deal the same cards,
/// so every experiment table stays as it is.
#[test]
fn every_seed_deals_the_cards_it_always_dealt() {
    use dealer::tournament::game::{deal_of, read_custom_deck, Deal as Custom};
    let mut lines = Vec::new();
    for g in dealer::cards::GAMES {
        let Some(r) = g.referee() else { continue };
        for size in [Size::Teaching, Size::Full] {
            let (mut cards, mut text) = (String::new(), String::new());
            for seed in 0..16u64 {
                let deal = r.deal(seed, size);
                cards.push_str(&cards_of(&deal));
                cards.push('\n');
                text.push_str(&deal.to_text());
            }
            lines.push(format!(
                "{} {size} {:016x} {:016x}",
                g.name(),
                fnv(&cards),
                fnv(&text)
            ));
        }
    }
    let custom = Custom::Custom {
        deck: read_custom_deck("deck ranks A K Q J suits S H D C").unwrap(),
        hand: 3,
    };
    let (mut cards, mut text) = (String::new(), String::new());
    for seed in 0..16u64 {
        let deal = deal_of("gofish", &custom, seed).unwrap();
        cards.push_str(&cards_of(&deal));
        cards.push('\n');
        text.push_str(&deal.to_text());
    }
    lines.push(format!("custom {:016x} {:016x}", fnv(&cards), fnv(&text)));
    let want = [
        "gofish small 5f5af8a2cd668b69 e56675b8304571b1",
        "gofish full 772d602df8cda043 fa960f39e2293f0d",
        "kwartet small 88fff1b6d36cfe31 d787d0eb46b8aa59",
        "kwartet full 72ad1d4349531973 1eadfce00c43de09",
        "kemps small 2f7664a80840c805 fbc2f96822cde963",
        "kemps full d5ce8078f21b7661 ea75c51815fbd375",
        "konigrufen small 9ac2fe4781e2ed59 21e819732a3f3479",
        "konigrufen full 4ccf10ed09840801 11e53e9eddf1b035",
        "cabo small 129f695e4323f78b ae5398d1c56a970b",
        "cabo full 4f96bb6499b046bf 54f7a06351cc5239",
        "custom b7e21a70a51809e3 8f2de28468fba24b",
    ];
    assert_eq!(lines, want);
}

/// A session dealt a typed deal (`Session::deal`, what a match does) is
/// the session the deal's text executed statement by statement gives: the
/// same table, game state, worlds, actual world and opening moves, for
/// every game at the teaching size (the Cabo-like game's full size too,
/// with `uncounted`), with psychic players. A second deal, or a
/// deal with a place the table lacks, is refused and the session is as it
/// was.
#[test]
fn a_typed_deal_deals_what_its_text_deals() {
    use dealer::cards::{Deal, Opening, GAMES};
    for g in GAMES {
        let Some(r) = g.referee() else { continue };
        let full = g.reader_declaration().is_some();
        for size in [Size::Teaching, Size::Full] {
            if size == Size::Full && !full {
                continue;
            }
            let mut deal = r.deal(1, size);
            if g.reader_declaration().is_some() {
                deal = deal.with_declared("psychic", &[1]);
            }
            let text = deal.to_text();
            let mut by_text = Session::new(Options::default());
            execute(&mut by_text, &text);
            by_text.finish(Span::new(0, 0)).unwrap();
            let mut typed = Session::new(Options::default());
            let outputs = typed.deal(&deal).unwrap_or_else(|d| panic!("{d:?}"));
            let moved: Vec<&str> = outputs
                .iter()
                .filter_map(|o| match o {
                    Output::Moved { source, .. } => Some(source.as_str()),
                    _ => None,
                })
                .collect();
            let peeks: Vec<String> = deal
                .opening
                .iter()
                .map(|Opening::Peek { player, place }| {
                    format!("peek {} {place}", deal.players[*player])
                })
                .collect();
            assert_eq!(moved, peeks, "{}", g.name());
            let (a, b) = (by_text.playing().unwrap(), typed.playing().unwrap());
            assert_eq!(a.table, b.table, "{} {size}: the table", g.name());
            assert_eq!(a.state, b.state, "{} {size}", g.name());
            assert_eq!(a.model.world_count(), b.model.world_count());
            assert_eq!(a.model.actual_cards(), b.model.actual_cards());

            let before = typed.clone();
            let again = typed.deal(&deal).unwrap_err();
            assert_eq!(again.code, "already-dealt");
            crate::common::assert_unchanged(&before, &typed);
        }
    }
    let gofish = referee("gofish").deal(2, Size::Teaching);
    let mut wrong: Deal = gofish.clone();
    wrong.parts[0].0 = "nowhere".into();
    let mut session = Session::new(Options::default());
    let d = session.deal(&wrong).unwrap_err();
    assert!(d.message.contains("nowhere"), "{}", d.message);
    assert!(session.playing().is_none());
    session
        .deal(&gofish)
        .expect("the session is as fresh as before");
}
