//! Planning and playing a tournament: the combinations, each game's seed
//! and seating, the games played on every core, each written to the CSV
//! as soon as it ends.

use std::collections::BTreeMap;
use std::fs::OpenOptions;
use std::path::Path;
use std::sync::Mutex;

use rayon::prelude::*;

use crate::interp::Engine;
use crate::strategy::Strategy;

use super::game::{play_game, Deal};
use super::record::{append, read_csv, Record, HEADER};

/// What to play.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The game (`gofish`).
    pub game: String,
    /// The deal every game starts from (its seed aside).
    pub deal: Deal,
    /// The strategies, in the order given.
    pub strategies: Vec<Strategy>,
    /// The players at the table.
    pub players: usize,
    /// Games per combination.
    pub games: u64,
    /// The tournament's seed.
    pub seed: u64,
    /// `(k, n)`: play only the games with `index % n == k - 1`.
    pub shard: (u64, u64),
    /// The engine that holds every game's model.
    pub engine: Engine,
    /// Whether a strategy may take several seats of a run (every multiset
    /// of strategies, as Kemps' Figures 1-3) rather than one (every subset).
    pub repeats: bool,
    /// Moves after which a game ends as it stands (`None`: the game's own
    /// limit, [`crate::cards::stopped`]).
    pub max_moves: Option<usize>,
    /// How a run's strategies are seated from game to game.
    pub seatings: Seatings,
}

/// How a run's strategies take their seats from game to game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Seatings {
    /// The seats rotate, so that every strategy of a run moves first
    /// equally often (the default).
    #[default]
    Rotate,
    /// Every run's seats in the order of the list: its first strategy
    /// always moves first (the Kwartet report's setup).
    Fixed,
    /// Every order of the run's strategies in turn, so that each sits
    /// before and after each other equally often over `k!` games
    /// (whether who sits after whom matters).
    All,
}

impl Plan {
    /// The combinations (runs): every choice of `players` strategies from
    /// the list, in the list's order (Go Fish: the four triples of four
    /// strategies; Kwartet: the four at one table); with `repeats`, every
    /// choice with repetition (Kemps: three strategies make ten runs).
    pub fn runs(&self) -> Result<Vec<Vec<usize>>, String> {
        let n = self.strategies.len();
        if n < self.players && !self.repeats {
            return Err(format!(
                "{} is played by {} players: give at least {} strategies (a name may repeat)",
                self.game, self.players, self.players
            ));
        }
        let mut out = Vec::new();
        let step = usize::from(!self.repeats);
        subsets(n, self.players, 0, step, &mut Vec::new(), &mut out);
        Ok(out)
    }

    /// Every game index this shard plays.
    pub fn indices(&self) -> Result<Vec<u64>, String> {
        let total = self.runs()?.len() as u64 * self.games;
        let (k, n) = self.shard;
        Ok((0..total).filter(|i| i % n == k - 1).collect())
    }

    /// The run, seed and seating of game `index` ([`Plan::seatings`]).
    pub fn game(&self, index: u64, runs: &[Vec<usize>]) -> (usize, u64, Vec<usize>) {
        let run = (index / self.games) as usize;
        let nth = (index % self.games) as usize;
        let seats = match self.seatings {
            Seatings::Rotate => seating(&runs[run], nth),
            Seatings::Fixed => runs[run].clone(),
            Seatings::All => order(&runs[run], nth),
        };
        (run, game_seed(self.seed, index), seats)
    }
}

/// The seats of a run's combination shifted by `shift` places.
fn seating(combo: &[usize], shift: usize) -> Vec<usize> {
    (0..combo.len())
        .map(|s| combo[(s + shift) % combo.len()])
        .collect()
}

/// The `nth` order (modulo `k!`, in lexicographic order of seat
/// positions) of a run's `k` strategies.
fn order(combo: &[usize], nth: usize) -> Vec<usize> {
    let mut left: Vec<usize> = combo.to_vec();
    let factorial = |n: usize| (1..=n).product::<usize>();
    let mut rest = nth % factorial(left.len());
    let mut out = Vec::with_capacity(combo.len());
    while !left.is_empty() {
        let block = factorial(left.len() - 1);
        out.push(left.remove(rest / block));
        rest %= block;
    }
    out
}

/// Every `k`-subset of `0..n` (`step` 1), or every `k`-multiset (`step`
/// 0), as sorted lists in lexicographic order.
fn subsets(
    n: usize,
    k: usize,
    from: usize,
    step: usize,
    cur: &mut Vec<usize>,
    out: &mut Vec<Vec<usize>>,
) {
    if cur.len() == k {
        out.push(cur.clone());
        return;
    }
    for i in from..n {
        cur.push(i);
        subsets(n, k, i + step, step, cur, out);
        cur.pop();
    }
}

/// The seed of game `index` of a tournament seeded `seed` (SplitMix64 of
/// both): independent of threads, shards and interruptions.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    let mut z = seed ^ index.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Plays every game of the plan not yet in `csv` (which is created or
/// appended to), calling `done` after each game; returns every record of
/// the shard, old and new.
pub fn run(
    plan: &Plan,
    csv: &Path,
    done: &(dyn Fn(&Record) + Sync),
) -> Result<BTreeMap<u64, Record>, String> {
    let runs = plan.runs()?;
    let (old, _) = read_csv(csv)?;
    let fresh = old.is_empty();
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(csv)
        .map_err(|e| format!("cannot open {}: {e}", csv.display()))?;
    {
        use std::io::Write;
        if fresh {
            writeln!(file, "{HEADER}").map_err(|e| e.to_string())?;
        } else if !ends_with_newline(csv) {
            // The last line was cut short by an interruption: end it, so
            // that the next record starts a line (the cut one is skipped).
            writeln!(file).map_err(|e| e.to_string())?;
        }
    }
    let pending: Vec<u64> = plan
        .indices()?
        .into_iter()
        .filter(|i| !old.contains_key(i))
        .collect();
    let file = Mutex::new(file);
    let results: Vec<Result<Record, String>> = pending
        .par_iter()
        .map(|&index| {
            let record = play_one(plan, &runs, index)?;
            append(&mut file.lock().expect("csv lock"), &record).map_err(|e| e.to_string())?;
            done(&record);
            Ok(record)
        })
        .collect();
    let mut all = old;
    for r in results {
        let r = r?;
        all.insert(r.index, r);
    }
    Ok(all)
}

fn ends_with_newline(path: &Path) -> bool {
    std::fs::read(path).map_or(true, |b| b.last().is_none_or(|&c| c == b'\n'))
}

/// Plays game `index` of the plan.
pub fn play_one(plan: &Plan, runs: &[Vec<usize>], index: u64) -> Result<Record, String> {
    let (run, seed, seats) = plan.game(index, runs);
    let strategies: Vec<&Strategy> = seats.iter().map(|&s| &plan.strategies[s]).collect();
    let outcome = play_game(
        &plan.game,
        &plan.deal,
        seed,
        &strategies,
        plan.engine,
        plan.max_moves,
    )?;
    Ok(Record {
        index,
        seed,
        run: run + 1,
        strategies: strategies.iter().map(|s| s.name.clone()).collect(),
        scores: outcome.scores,
        winners: outcome.winners,
        turns: outcome.turns,
        capped: outcome.capped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_strategies_at_three_seats_make_four_runs() {
        let mut out = Vec::new();
        subsets(4, 3, 0, 1, &mut Vec::new(), &mut out);
        assert_eq!(
            out,
            vec![vec![0, 1, 2], vec![0, 1, 3], vec![0, 2, 3], vec![1, 2, 3]]
        );
        assert_ne!(game_seed(1, 0), game_seed(1, 1));
    }

    #[test]
    fn all_seatings_give_every_order_once_in_k_factorial_games() {
        let combo = [0, 2, 3];
        let orders: Vec<Vec<usize>> = (0..6).map(|i| order(&combo, i)).collect();
        let mut sorted = orders.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 6, "{orders:?}");
        assert!(orders.iter().all(|o| {
            let mut o = o.clone();
            o.sort();
            o == combo
        }));
        assert_eq!(order(&combo, 0), vec![0, 2, 3]);
        assert_eq!(order(&combo, 5), vec![3, 2, 0]);
        assert_eq!(order(&combo, 6), order(&combo, 0));
        // Each strategy sits directly after each other one equally often.
        let mut after = std::collections::HashMap::new();
        for o in &orders {
            for s in 0..3 {
                *after.entry((o[s], o[(s + 2) % 3])).or_insert(0) += 1;
            }
        }
        assert!(after.values().all(|&n| n == 3), "{after:?}");
    }

    #[test]
    fn seats_rotate_unless_fixed() {
        assert_eq!(seating(&[0, 1, 2, 3], 0), vec![0, 1, 2, 3]);
        assert_eq!(seating(&[0, 1, 2, 3], 1), vec![1, 2, 3, 0]);
        assert_eq!(seating(&[0, 1, 2, 3], 6), vec![2, 3, 0, 1]);
    }

    #[test]
    fn three_strategies_with_repeats_make_ten_runs() {
        let mut out = Vec::new();
        subsets(3, 3, 0, 0, &mut Vec::new(), &mut out);
        assert_eq!(out.len(), 10);
        assert_eq!(out[0], vec![0, 0, 0]);
        assert_eq!(out[1], vec![0, 0, 1]);
        assert_eq!(out[9], vec![2, 2, 2]);
        assert!(out.contains(&vec![0, 1, 2]));
        assert_ne!(game_seed(1, 0), game_seed(2, 0));
    }
}
