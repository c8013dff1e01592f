//! Which rule of each strategy fires, counted over seeded games: the
//! analysis behind docs/experiments.md's explanation of the Go Fish
//! ranking. Every decision of a seat is also asked of a second strategy
//! (`--shadow`) on the same state, so the counts show where the two would
//! choose differently and which of their rules were behind it.
//!
//! ```text
//! cargo run --release --example rule_counts -- GAME DECK HAND GAMES SEED \
//!     STRATEGY,STRATEGY,STRATEGY [SHADOW]
//! cargo run --release --example rule_counts -- gofish "A*4 K*4 Q*4 J*4 10*4" 5 200 1 \
//!     second-order,first-order,most-cards first-order
//! ```
//!
//! The shadow watches the first strategy's seat; the seats rotate from game
//! to game.

use std::collections::BTreeMap;
use std::path::Path;

use dealer::interp::Engine;
use dealer::play::seat_rng;
use dealer::strategy::{choose, find, Strategy};
use dealer::tournament::game::{dealt, read_custom_deck};
use dealer::tournament::Deal;

/// Counts of one run.
#[derive(Default)]
struct Counts {
    /// (strategy, rule) -> decisions.
    fired: BTreeMap<(String, String), usize>,
    /// (watched rule, shadow rule, same move?) -> decisions of seat 0.
    versus: BTreeMap<(String, String, bool), usize>,
    /// Wins (shared included) per strategy.
    wins: BTreeMap<String, usize>,
}

fn rule_name(rule: &Option<String>) -> String {
    rule.clone().unwrap_or_else(|| "(forced or none)".into())
}

fn play(
    game: &str,
    deal: &Deal,
    seed: u64,
    seats: &[&Strategy],
    shadow: Option<&Strategy>,
    watched: usize,
    counts: &mut Counts,
) -> Result<(), Box<dyn std::error::Error>> {
    // The one game loop: a match, whose moves this loop chooses.
    let mut m = dealt(game, deal, seed, Engine::Auto)?;
    let n = seats.len();
    let mut rngs: Vec<_> = (0..n).map(|s| seat_rng(seed, s)).collect();
    let mut shadow_rng = seat_rng(seed, n + 1);
    while let Some(me) = m.current_player() {
        let moves = m.legal_moves();
        let legal: Vec<String> = moves.iter().map(|l| l.text.clone()).collect();
        let table = m.playing().table.clone();
        let mut session = m.session().clone();
        let decision = choose(
            seats[me],
            m.playing().game,
            &mut session,
            &table,
            me,
            &moves,
            &mut rngs[me],
        )
        .map_err(|d| d.message)?;
        let fired = rule_name(&decision.rule);
        *counts
            .fired
            .entry((seats[me].name.clone(), fired.clone()))
            .or_default() += 1;
        if let Some(other) = shadow.filter(|_| me == watched) {
            if legal.len() > 1 {
                let alt = choose(
                    other,
                    m.playing().game,
                    &mut session,
                    &table,
                    me,
                    &moves,
                    &mut shadow_rng,
                )
                .map_err(|d| d.message)?;
                // A rule's kept moves are all equally good to it; with no rule
                // the draw was among every legal move, so only the move counts.
                let same = alt.index == decision.index
                    || (decision.rule.is_some() && decision.best.contains(&alt.index));
                *counts
                    .versus
                    .entry((fired, rule_name(&alt.rule), same))
                    .or_default() += 1;
            }
        }
        m.play_legal(&moves[decision.index])
            .map_err(|d| d.message.clone())?;
    }
    for w in m.winners() {
        *counts.wins.entry(seats[w].name.clone()).or_default() += 1;
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 6 {
        return Err("usage: GAME DECK HAND GAMES SEED STRATEGIES [SHADOW]".into());
    }
    let game = &args[0];
    let deal = Deal::Custom {
        deck: read_custom_deck(&format!("deck {}", args[1]))?,
        hand: args[2].parse().map_err(|_| "HAND is a number")?,
    };
    let games: u64 = args[3].parse().map_err(|_| "GAMES is a number")?;
    let seed: u64 = args[4].parse().map_err(|_| "SEED is a number")?;
    let dir = Some(Path::new("strategies"));
    let strategies: Vec<Strategy> = args[5]
        .split(',')
        .map(|s| find(dir, game, s))
        .collect::<Result<_, _>>()?;
    let shadow = args.get(6).map(|s| find(dir, game, s)).transpose()?;
    let mut counts = Counts::default();
    for g in 0..games {
        let k = strategies.len();
        let seats: Vec<&Strategy> = (0..k).map(|i| &strategies[(i + g as usize) % k]).collect();
        let watched = (k - g as usize % k) % k;
        play(
            game,
            &deal,
            seed + g,
            &seats,
            shadow.as_ref(),
            watched,
            &mut counts,
        )?;
    }
    println!("rule fired (strategy, rule: decisions)");
    for ((s, r), n) in &counts.fired {
        println!("  {s:14} {r:18} {n}");
    }
    if let Some(other) = &shadow {
        println!(
            "{} against {} on the same states",
            strategies[0].name, other.name
        );
        for ((a, b, same), n) in &counts.versus {
            let how = if *same { "same move" } else { "differs" };
            println!("  {a:18} / {b:18} {how:10} {n}");
        }
    }
    println!("wins (shared included) of {games}");
    for (s, n) in &counts.wins {
        println!("  {s:14} {n}");
    }
    Ok(())
}
