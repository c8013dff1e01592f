//! Planning and playing a tournament: the combinations, each game's seed
//! and seating, the games played on every core, each written to the CSV
//! as soon as it ends.

use std::collections::BTreeMap;
use std::sync::Mutex;

use rayon::prelude::*;

use crate::diag::Report;
use crate::interp::Options;
use crate::strategy::Strategy;

use super::game::{play_game, Deal};
use super::record::{CsvFile, Record};
use super::refused;

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
    /// Every game's session options (its engine and BDD budget).
    pub options: Options,
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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
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
    pub fn runs(&self) -> Result<Vec<Vec<usize>>, Report> {
        let n = self.strategies.len();
        if n < self.players && !self.repeats {
            return Err(refused(
                "plan",
                format!(
                    "{} is played by {} players: give at least {} strategies (a name may repeat)",
                    self.game, self.players, self.players
                ),
            ));
        }
        runs_checked(n, self.players, self.repeats)
    }

    /// The games of the tournament (runs times games per run), or why
    /// there are more than dealer can number.
    pub fn total(&self) -> Result<u64, Report> {
        total_of(self.runs()?.len(), self.games)
    }

    /// Every game index this shard plays, in order, one at a time (never
    /// a list of them: a tournament may have up to 2^64 - 1 games).
    pub fn indices(&self) -> Result<impl Iterator<Item = u64>, Report> {
        let total = self.total()?;
        let (k, n) = self.shard;
        Ok((k - 1..total).step_by(usize::try_from(n).unwrap_or(usize::MAX)))
    }

    /// How many games this shard plays.
    pub fn shard_games(&self) -> Result<u64, Report> {
        let total = self.total()?;
        let (k, n) = self.shard;
        Ok(if total < k { 0 } else { (total - k) / n + 1 })
    }

    /// The run, seed and seating of game `index` ([`Plan::seatings`]).
    pub fn game(&self, index: u64, runs: &[Vec<usize>]) -> (usize, u64, Vec<usize>) {
        let (run, seats) = seats_of(self.seatings, self.games, runs, index);
        (run, game_seed(self.seed, index), seats)
    }
}

/// The runs of `n` strategies at `players` seats ([`Plan::runs`]), with
/// or without repeats.
pub fn runs_of(n: usize, players: usize, repeats: bool) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    subsets(
        n,
        players,
        0,
        usize::from(!repeats),
        &mut Vec::new(),
        &mut out,
    );
    out
}

/// The most runs (combinations of strategies) a tournament plays.
pub const MAX_RUNS: u64 = 100_000;

/// How many runs `n` strategies make at `players` seats (every subset, or
/// with `repeats` every multiset), counted without listing them; `None`
/// beyond 2^64.
pub fn count_runs(n: usize, players: usize, repeats: bool) -> Option<u64> {
    let (n, k) = (n as u128, players as u128);
    let top = if repeats { (n + k).checked_sub(1)? } else { n };
    if k > top {
        return Some(u64::from(k == 0));
    }
    let k = k.min(top - k);
    let mut c: u128 = 1;
    for i in 0..k {
        // Exact at every step: c is C(top, i) before it.
        c = c.checked_mul(top - i)? / (i + 1);
        if c > u128::from(u64::MAX) {
            return None;
        }
    }
    u64::try_from(c).ok()
}

/// [`runs_of`], refused (before any is listed) beyond [`MAX_RUNS`].
pub fn runs_checked(n: usize, players: usize, repeats: bool) -> Result<Vec<Vec<usize>>, Report> {
    match count_runs(n, players, repeats) {
        Some(runs) if runs <= MAX_RUNS => Ok(runs_of(n, players, repeats)),
        runs => Err(refused("plan", format!(
            "{n} strategies at {players} seats{} make {} runs: dealer plays at most {MAX_RUNS}; give fewer strategies",
            if repeats { " with repeats" } else { "" },
            runs.map_or("more than 2^64".to_string(), |r| r.to_string())
        ))),
    }
}

/// The games of `runs` runs of `games` games each, or why there are more
/// than dealer can number.
pub fn total_of(runs: usize, games: u64) -> Result<u64, Report> {
    (runs as u64).checked_mul(games).ok_or_else(|| {
        refused("too-many-games", format!(
            "--games {games}: {runs} runs of {games} games are more games than dealer can number (2^64 - 1 at most); give fewer games or strategies"
        ))
    })
}

/// The run (from 0) and the seating (strategies by seat) of game `index`.
pub fn seats_of(
    seatings: Seatings,
    games: u64,
    runs: &[Vec<usize>],
    index: u64,
) -> (usize, Vec<usize>) {
    let run = (index / games) as usize;
    let nth = index % games;
    let seats = match seatings {
        Seatings::Rotate => seating(&runs[run], nth),
        Seatings::Fixed => runs[run].clone(),
        Seatings::All => order(&runs[run], nth),
    };
    (run, seats)
}

/// The seats of a run's combination shifted by `shift` places.
fn seating(combo: &[usize], shift: u64) -> Vec<usize> {
    let shift = (shift % combo.len() as u64) as usize;
    (0..combo.len())
        .map(|s| combo[(s + shift) % combo.len()])
        .collect()
}

/// The `nth` order (modulo `k!`, in lexicographic order of seat
/// positions) of a run's `k` strategies.
fn order(combo: &[usize], nth: u64) -> Vec<usize> {
    let mut left: Vec<usize> = combo.to_vec();
    // At most 20! fits: more seats than that are not a card game's.
    let factorial = |n: usize| (1..=n as u64).fold(1u64, |f, k| f.saturating_mul(k));
    let mut rest = nth % factorial(left.len());
    let mut out = Vec::with_capacity(combo.len());
    while !left.is_empty() {
        let block = factorial(left.len() - 1);
        out.push(left.remove((rest / block) as usize));
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

/// Plays every game of the shard not yet among `old` (the rows `csv`
/// holds, checked already), appending each to `csv` as it ends and
/// calling `done` after each; returns every record of the shard, old and
/// new. The games are taken a batch at a time, never listed all at once.
pub fn run(
    plan: &Plan,
    csv: &mut CsvFile,
    old: BTreeMap<u64, Record>,
    done: &(dyn Fn(&Record) + Sync),
) -> Result<BTreeMap<u64, Record>, Report> {
    const BATCH: usize = 1024;
    let runs = plan.runs()?;
    let mut pending = plan.indices()?.filter(|i| !old.contains_key(i)).peekable();
    let mut new = BTreeMap::new();
    let file = Mutex::new(csv);
    while pending.peek().is_some() {
        let batch: Vec<u64> = pending.by_ref().take(BATCH).collect();
        let results: Vec<Result<Record, Report>> = batch
            .par_iter()
            .map(|&index| {
                let record = play_one(plan, &runs, index)?;
                file.lock().expect("csv lock").append(&record)?;
                done(&record);
                Ok(record)
            })
            .collect();
        for r in results {
            let r = r?;
            new.insert(r.index, r);
        }
    }
    drop(pending);
    let mut all = old;
    all.extend(new);
    Ok(all)
}

/// Plays game `index` of the plan.
pub fn play_one(plan: &Plan, runs: &[Vec<usize>], index: u64) -> Result<Record, Report> {
    let (run, seed, seats) = plan.game(index, runs);
    let strategies: Vec<&Strategy> = seats.iter().map(|&s| &plan.strategies[s]).collect();
    let (outcome, fired) = play_game(
        &plan.game,
        &plan.deal,
        seed,
        &strategies,
        plan.options,
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
        rules: Some(fired),
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

    /// A plan of 2^64 - 1 games or of 10^11 is never listed: its shard's
    /// first games and their count come at once; a plan of more games than
    /// a u64 numbers is refused, naming --games.
    #[test]
    fn a_huge_plan_is_counted_not_listed() {
        let strategy = crate::strategy::find(None, "gofish", "random").unwrap();
        let plan = |strategies: usize, games: u64, shard: (u64, u64)| Plan {
            game: "gofish".into(),
            deal: Deal::Referee(crate::cards::Size::Teaching),
            strategies: vec![strategy.clone(); strategies],
            players: 3,
            games,
            seed: 1,
            shard,
            options: Options::default(),
            repeats: false,
            max_moves: None,
            seatings: Seatings::All,
        };
        let p = plan(3, u64::MAX, (1, 1_000_000_000_000));
        assert_eq!(p.shard_games().unwrap(), 18_446_745);
        let first: Vec<u64> = p.indices().unwrap().take(2).collect();
        assert_eq!(first, [0, 1_000_000_000_000]);
        assert_eq!(
            p.indices().unwrap().last(),
            Some(18_446_744_000_000_000_000)
        );
        let p = plan(3, 100_000_000_000, (3, 4));
        assert_eq!(p.shard_games().unwrap(), 25_000_000_000);
        assert_eq!(p.game(99_999_999_999, &p.runs().unwrap()).0, 0);
        let e = plan(4, 4_611_686_018_427_387_904, (1, 1))
            .total()
            .unwrap_err();
        assert!(
            e.message()
                .starts_with("--games 4611686018427387904: 4 runs"),
            "{e}"
        );
        assert!(plan(4, 4_611_686_018_427_387_904, (1, 1))
            .indices()
            .is_err());
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
        for (n, k, repeats) in [
            (3, 3, true),
            (4, 3, false),
            (2, 3, false),
            (9, 4, true),
            (30, 5, false),
        ] {
            let listed = runs_of(n, k, repeats).len() as u64;
            assert_eq!(count_runs(n, k, repeats), Some(listed), "{n} {k} {repeats}");
        }
        let e = runs_checked(200, 4, true).unwrap_err();
        assert!(
            e.message()
                .contains("make 68685050 runs: dealer plays at most 100000"),
            "{e}"
        );
        assert_eq!(count_runs(3, usize::MAX, true), None);
        assert!(out.contains(&vec![0, 1, 2]));
        assert_ne!(game_seed(1, 0), game_seed(2, 0));
    }
}
