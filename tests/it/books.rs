//! Laying down books and sets: the rules fold the public checks of every
//! rank into one event model when the actual hand completes at most one
//! rank. The folded model must give the same model as the checks one by
//! one, state for state and relation for relation, on both engines, also
//! where other states complete two ranks or more.

use std::rc::Rc;

use dealer::cards::books::{at_most_one, lay_down_complete};
use dealer::cards::events::lay_down;
use dealer::cards::Table;
use dealer::engine::{Agent, Allocation, Backend, Kind};
use dealer::interp::Engine;

/// A free game (no rules lay anything down by themselves): two players of
/// four cards from ten (five ranks of two suits), two in the stock.
fn dealt(hands: &str, engine: Engine) -> (Table, Rc<dyn Backend>) {
    let src = format!("players 1 2\ndeck ranks 2..6 suits S H\ndeal {hands}\nexpect true\n");
    let (_, session) = crate::common::run_on(&src, engine);
    let play = session.playing().expect("dealt");
    (play.table.clone(), play.model.clone())
}

/// Every world as its cards and, for each agent, the sorted cards of the
/// worlds it considers possible there: equal for two models exactly when
/// they are the same model up to the names of worlds.
fn canonical(m: &dyn Backend) -> Vec<(Allocation, Vec<Vec<Allocation>>)> {
    let n = m.world_count() as usize;
    let cards: Vec<_> = (0..n).map(|w| m.world(w).cards).collect();
    let mut worlds: Vec<_> = (0..n)
        .map(|w| {
            let seen = (0..m.agents())
                .map(|a: Agent| {
                    let mut v: Vec<_> = m
                        .accessible(a, w)
                        .into_iter()
                        .map(|u| cards[u].clone())
                        .collect();
                    v.sort();
                    v
                })
                .collect();
            (cards[w].clone(), seen)
        })
        .collect();
    worlds.sort();
    worlds
}

fn ranks(table: &Table) -> Vec<Vec<Kind>> {
    table.deck.ranks().into_iter().map(|(_, k)| k).collect()
}

/// The checks one by one, for `player`, into the stock.
fn one_by_one(table: &Table, model: &Rc<dyn Backend>, player: Agent) -> Rc<dyn Backend> {
    let mut model = model.clone();
    for rank in ranks(table) {
        let em = lay_down(table, player, &rank, table.stock(), "books");
        model = model.apply(&em, None).expect("a check always applies");
    }
    model
}

const ENGINES: [Engine; 2] = [Engine::Explicit, Engine::Symbolic];

#[test]
fn folding_the_checks_changes_no_state_and_no_relation() {
    // Player 1 completes no rank, one rank or two, and in other worlds
    // (those player 2 considers) every number from none to two.
    let deals = [
        "1: 2S 3S 4S 5S | 2: 3H 6S 6H 4H",
        "1: 2S 2H 3S 4S | 2: 3H 5S 6S 6H",
        "1: 2S 3S 4S 5S | 2: 2H 3H 4H 5H",
        "1: 5S 5H 6S 2H | 2: 6H 3H 3S 4S",
    ];
    for engine in ENGINES {
        for hands in deals {
            let (table, model) = dealt(hands, engine);
            for player in 0..2 {
                let folded = at_most_one(&table, player, &ranks(&table), table.stock(), "books");
                let folded = model.apply(&folded, None).expect("one event happens");
                let seq = one_by_one(&table, &model, player);
                assert_eq!(
                    canonical(&*folded),
                    canonical(&*seq),
                    "{engine:?}, deal {hands}, player {}",
                    player + 1
                );
            }
        }
    }
}

#[test]
fn the_rules_fold_only_when_at_most_one_rank_is_complete() {
    for engine in ENGINES {
        // One complete rank (2s), and two (2s and 3s): the second runs the
        // checks one by one, since the folded model's actual event would
        // be "two or more", which lays nothing down.
        for (hands, expected) in [
            ("1: 2S 2H 3S 4S | 2: 3H 5S 6S 6H", vec![0]),
            ("1: 2S 2H 3S 3H | 2: 4H 5S 6S 4S", vec![0, 1]),
            ("1: 2S 3S 4S 5S | 2: 2H 3H 4H 5H", vec![]),
        ] {
            let (table, model) = dealt(hands, engine);
            let (after, laid) =
                lay_down_complete(&table, &model, 0, &ranks(&table), table.stock(), "books")
                    .expect("applies");
            assert_eq!(laid, expected, "{engine:?}, deal {hands}");
            let seq = one_by_one(&table, &model, 0);
            assert_eq!(
                canonical(&*after),
                canonical(&*seq),
                "{engine:?}, deal {hands}"
            );
            let hand = &after.actual_world().cards[table.hand(0)];
            assert_eq!(
                hand.iter().sum::<u32>(),
                4 - 2 * expected.len() as u32,
                "{engine:?}, deal {hands}: the complete ranks left the hand"
            );
        }
    }
}
