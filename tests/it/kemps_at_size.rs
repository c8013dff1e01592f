//! Kemps at the report's size: a tournament counts the moves each rule of
//! a strategy chose (Kemps' `block`, KB blocking's pick of a value the
//! player holds none of, to keep it from a known collector) in every
//! record and in the summary, checked against a count made from the
//! games' moves themselves; a new table's cards are turned up by the top
//! card's event alone, with the same moves and outcomes as by the whole
//! per-kind event model, on random deals and both engines.

use dealer::cards::Size;
use dealer::interp::Options;
use dealer::play::Agent;
use dealer::strategy::agent::StrategyAgent;
use dealer::strategy::{parse, Strategy, BUILT_IN};
use dealer::tournament::game::dealt;
use dealer::tournament::run::play_one;
use dealer::tournament::{summarise, Deal, Plan, Seatings};

fn strategy(name: &str) -> Strategy {
    let stem = format!("kemps-{name}");
    let (_, src) = BUILT_IN.iter().find(|(n, _)| *n == stem).unwrap();
    parse(src).unwrap()
}

/// Replays game `seed` with `seats` and counts, seat by seat, the picks of
/// a card whose value the picker's hand did not hold: for KB blocking
/// exactly the picks of its `block` rule (its `collect` picks only a value
/// at least as frequent in the hand as any other, so one the hand holds).
fn blocking_picks(deal: &Deal, seed: u64, seats: &[Strategy], cap: usize) -> (Vec<u64>, Vec<i64>) {
    let mut m = dealt("kemps", deal, seed, Options::default()).unwrap();
    let agents: Vec<Box<dyn Agent>> = seats
        .iter()
        .map(|s| Box::new(StrategyAgent::new(s.clone())) as Box<dyn Agent>)
        .collect();
    m.seat_agents(agents, None).unwrap();
    m.set_move_cap(Some(cap));
    let mut picks = vec![0; seats.len()];
    while let Some(player) = m.current_player() {
        let table = m.playing().table.clone();
        let held: Vec<String> = m
            .position()
            .cards(table.hand(player))
            .iter()
            .enumerate()
            .filter(|(_, &n)| n > 0)
            .map(|(k, _)| table.deck.kinds[k].rank_name())
            .collect();
        let text = m.agent_move().unwrap().unwrap().text.clone();
        let words: Vec<&str> = text.split_whitespace().collect();
        if let ["pick", _, card] = words[..] {
            let kind = table.deck.kinds.iter().find(|k| k.name == card).unwrap();
            if !held.contains(&kind.rank_name()) {
                picks[player] += 1;
            }
        }
    }
    (picks, m.scores())
}

/// A small tournament of greedy against two KB blocking players (the
/// teaching deck, 120 moves a game at most), played until a few games in
/// which `block` fired: every record's `block` count is the count of
/// blocking picks in its game's moves, the records survive their CSV line,
/// and the summary adds them up per strategy.
#[test]
fn a_tournament_counts_kemps_block_as_the_games_moves_show() {
    let deal = Deal::Referee(Size::Teaching);
    let games = 60;
    let plan = Plan {
        game: "kemps".into(),
        deal: deal.clone(),
        strategies: vec![strategy("greedy"), strategy("kb-blocking")],
        players: 3,
        games,
        seed: 5,
        shard: (1, 1),
        options: Options::default(),
        repeats: true,
        max_moves: Some(120),
        seatings: Seatings::Rotate,
    };
    let runs = plan.runs().unwrap();
    // Run 3 of the four: greedy, kb-blocking, kb-blocking.
    assert_eq!(runs[2], [0, 1, 1]);
    let mut records = Vec::new();
    let mut blocks = 0;
    let mut blocking_games = 0;
    for index in 2 * games..3 * games {
        let record = play_one(&plan, &runs, index).unwrap();
        let seats: Vec<Strategy> = record.strategies.iter().map(|n| strategy(n)).collect();
        let (picks, scores) = blocking_picks(&deal, record.seed, &seats, 120);
        assert_eq!(scores, record.scores, "game {index}: the same game");
        let counted = record.rules.clone().unwrap();
        for (seat, name) in record.strategies.iter().enumerate() {
            let block = counted[seat].get("block").copied().unwrap_or(0);
            if name == "kb-blocking" {
                assert_eq!(block, picks[seat], "game {index} seat {seat}: {record:?}");
                blocks += block;
                blocking_games += u64::from(block > 0);
            } else {
                assert_eq!(block, 0, "greedy has no block rule");
            }
        }
        let line = record.to_csv();
        assert_eq!(
            dealer::tournament::Record::from_csv(&line).unwrap(),
            dealer::tournament::Record {
                capped: false,
                ..record.clone()
            },
            "{line}"
        );
        records.push(record);
        if blocking_games >= 2 {
            break;
        }
    }
    assert!(blocking_games >= 2, "games of the run block: {records:?}");
    let names = vec!["greedy".to_string(), "kb-blocking".to_string()];
    let summary = summarise("kemps", &names, &records.iter().collect::<Vec<_>>());
    let cell = &summary.total["kb-blocking"];
    let seats = 2 * records.len() as u64;
    assert_eq!(cell.counted, seats, "two kb-blocking seats a game");
    let block = &cell.rules["block"];
    assert_eq!((block.moves, block.games), (blocks, blocking_games));
    assert!(!summary.total["greedy"].rules.contains_key("block"));
    let table = summary.table();
    assert!(
        table.contains(&format!(
            "block {:.2} ({blocking_games} of {seats})",
            blocks as f64 / seats as f64
        )),
        "{table}"
    );
}

/// Seeded games of knowledge-based players (who wait, so that new tables
/// come often) and of a mix, on the teaching deck with either engine:
/// turning a new table's cards up by the top card's event alone (dealer's
/// Kemps) gives the moves, scores and winners of the whole per-kind event
/// model (the game value `kemps::GENERAL_FACE_UP`).
#[test]
fn a_new_table_turned_up_card_by_card_plays_as_the_whole_event_model() {
    use dealer::cards::{kemps, Game};
    use dealer::interp::Engine;
    use dealer::play::Match;
    let mut tables = 0;
    for (seed, names, engine) in [
        (1, ["kb-greedy", "kb-greedy", "kb-greedy"], Engine::Explicit),
        (2, ["kb-blocking", "kb-greedy", "greedy"], Engine::Explicit),
        (
            3,
            ["kb-greedy", "kb-blocking", "kb-blocking"],
            Engine::Symbolic,
        ),
    ] {
        let seats: Vec<Strategy> = names.iter().map(|n| strategy(n)).collect();
        let options = Options {
            engine,
            ..Options::default()
        };
        let play = |game: Game| {
            let mut m = Match::of(game, seed, Size::Teaching, options).unwrap();
            let agents: Vec<Box<dyn Agent>> = seats
                .iter()
                .map(|s| Box::new(StrategyAgent::new(s.clone())) as Box<dyn Agent>)
                .collect();
            m.seat_agents(agents, None).unwrap();
            m.set_move_cap(Some(90));
            m.play_agents().unwrap();
            let moves: Vec<String> = m.history().iter().map(|p| p.text.clone()).collect();
            let notes: usize = m
                .history()
                .iter()
                .map(|p| p.notes.iter().filter(|n| *n == "a new table").count())
                .sum();
            (moves, m.outcome(), notes)
        };
        let fast = play(&kemps::KEMPS);
        let general = play(&kemps::GENERAL_FACE_UP);
        assert_eq!(fast, general, "seed {seed}, {names:?}");
        tables += fast.2;
    }
    assert!(tables >= 10, "new tables were dealt: {tables}");
}
