//! A tournament's summary: per run and per strategy, the games, wins
//! (sole best score), ties (a shared best score) and mean score, with 95%
//! confidence intervals (Wilson for the win share, normal for the mean
//! score); the report's table layout as text; the summary as JSON.

use std::collections::BTreeMap;

use serde::Serialize;

use super::record::{Fired, Record};

/// One strategy's results in one run (or over all runs).
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct Cell {
    /// Games the strategy played.
    pub games: u64,
    /// Games it won alone.
    pub wins: u64,
    /// Games whose best score it shared.
    pub ties: u64,
    /// Its mean score.
    pub mean_score: f64,
    /// 95% interval of its share of sole wins.
    pub win_ci: (f64, f64),
    /// 95% interval of its mean score.
    pub score_ci: (f64, f64),
    /// Games whose rules were counted (a row of an older file has no
    /// counts).
    pub counted: u64,
    /// Each rule of the strategy that chose a move: how many moves it
    /// chose, in how many of the counted games.
    pub rules: BTreeMap<String, Fires>,
    #[serde(skip)]
    sum: f64,
    #[serde(skip)]
    sum_sq: f64,
}

/// How often a rule chose a move.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct Fires {
    /// The moves it chose.
    pub moves: u64,
    /// The games in which it chose at least one.
    pub games: u64,
}

impl Cell {
    fn add(&mut self, score: i64, won: bool, tied: bool, fired: Option<&Fired>) {
        if let Some(fired) = fired {
            self.counted += 1;
            for (rule, &n) in fired.iter().filter(|(_, &n)| n > 0) {
                let fires = self.rules.entry(rule.clone()).or_default();
                fires.moves += n;
                fires.games += 1;
            }
        }
        self.games += 1;
        self.wins += u64::from(won);
        self.ties += u64::from(tied);
        self.sum += score as f64;
        self.sum_sq += (score as f64) * (score as f64);
    }

    fn finish(&mut self) {
        let n = self.games as f64;
        if n == 0.0 {
            return;
        }
        self.mean_score = self.sum / n;
        let var = (self.sum_sq / n - self.mean_score * self.mean_score).max(0.0);
        let half = 1.96 * (var / n).sqrt();
        self.score_ci = (self.mean_score - half, self.mean_score + half);
        self.win_ci = wilson(self.wins, self.games);
    }
}

/// The Wilson score interval (95%) of `k` successes in `n` trials.
pub fn wilson(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (z, n, p) = (1.96f64, n as f64, k as f64 / n as f64);
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The summary of a tournament.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// The game.
    pub game: String,
    /// The strategies, in the order given.
    pub strategies: Vec<String>,
    /// The games summarised.
    pub games: u64,
    /// Mean moves per game.
    pub mean_turns: f64,
    /// Per run (from 1): per strategy in the run.
    pub runs: BTreeMap<usize, BTreeMap<String, Cell>>,
    /// Per strategy over every run.
    pub total: BTreeMap<String, Cell>,
    /// The strategies by total sole wins, best first.
    pub ranking: Vec<String>,
}

/// Summarises records.
pub fn summarise(game: &str, strategies: &[String], records: &[&Record]) -> Summary {
    let mut runs: BTreeMap<usize, BTreeMap<String, Cell>> = BTreeMap::new();
    let mut total: BTreeMap<String, Cell> = BTreeMap::new();
    let mut turns = 0f64;
    for r in records {
        turns += r.turns as f64;
        let sole = r.winners.len() == 1;
        for (seat, name) in r.strategies.iter().enumerate() {
            let best = r.winners.contains(&seat);
            let (won, tied) = (best && sole, best && !sole);
            let fired = r.rules.as_ref().and_then(|seats| seats.get(seat));
            let cell = runs
                .entry(r.run)
                .or_default()
                .entry(name.clone())
                .or_default();
            cell.add(r.scores[seat], won, tied, fired);
            total
                .entry(name.clone())
                .or_default()
                .add(r.scores[seat], won, tied, fired);
        }
    }
    runs.values_mut()
        .flat_map(|m| m.values_mut())
        .for_each(Cell::finish);
    total.values_mut().for_each(Cell::finish);
    let mut ranking: Vec<String> = total.keys().cloned().collect();
    ranking.sort_by(|a, b| total[b].wins.cmp(&total[a].wins).then(a.cmp(b)));
    Summary {
        game: game.to_string(),
        // A strategy in several seats of a run is one row.
        strategies: strategies.iter().fold(Vec::new(), |mut seen, s| {
            if !seen.contains(s) {
                seen.push(s.clone());
            }
            seen
        }),
        games: records.len() as u64,
        mean_turns: turns / records.len().max(1) as f64,
        runs,
        total,
        ranking,
    }
}

impl Summary {
    /// The report's table: wins per strategy per run, the total with its
    /// 95% interval (as a share of the games played), ties, mean score and
    /// the ranking.
    pub fn table(&self) -> String {
        let runs: Vec<usize> = self.runs.keys().copied().collect();
        let width = self
            .strategies
            .iter()
            .map(String::len)
            .max()
            .unwrap_or(8)
            .max(8);
        let mut out = format!("{:<width$}", "Strategy");
        for r in &runs {
            out.push_str(&format!(" {:>7}", format!("Run {r}")));
        }
        out.push_str("   Total wins (95% CI of win share)   Ties  Mean score (95% CI)  Ranking\n");
        for name in &self.strategies {
            out.push_str(&format!("{name:<width$}"));
            for r in &runs {
                let cell = self.runs[r].get(name).map(|c| c.wins.to_string());
                out.push_str(&format!(" {:>7}", cell.unwrap_or_else(|| "-".into())));
            }
            let Some(t) = self.total.get(name) else {
                out.push('\n');
                continue;
            };
            let rank = self
                .ranking
                .iter()
                .position(|n| n == name)
                .map_or(0, |p| p + 1);
            out.push_str(&format!(
                "   {:>6} of {:<6} ({:>5.1}% - {:>5.1}%)  {:>6}  {:>5.2} ({:.2} - {:.2})  {:>4}\n",
                t.wins,
                t.games,
                100.0 * t.win_ci.0,
                100.0 * t.win_ci.1,
                t.ties,
                t.mean_score,
                t.score_ci.0,
                t.score_ci.1,
                rank
            ));
        }
        out.push_str(&format!(
            "{} games, {:.1} moves per game on average; wins are sole best scores, ties shared ones.\n",
            self.games, self.mean_turns
        ));
        out.push_str(&self.separation());
        out.push_str(&self.rules_table());
        out
    }

    /// How often each strategy's rules chose its moves, over every run:
    /// a line per strategy, each rule with its moves per game and the
    /// games in which it chose one (Kemps: how often `block` fires).
    pub fn rules_table(&self) -> String {
        let mut out = String::new();
        for name in &self.strategies {
            let Some(t) = self.total.get(name).filter(|t| t.counted > 0) else {
                continue;
            };
            if out.is_empty() {
                out.push_str(
                    "moves chosen by each rule, per game (in how many games it chose one):
",
                );
            }
            let rules: Vec<String> = t
                .rules
                .iter()
                .map(|(rule, f)| {
                    format!(
                        "{rule} {:.2} ({} of {})",
                        f.moves as f64 / t.counted as f64,
                        f.games,
                        t.counted
                    )
                })
                .collect();
            let rules = if rules.is_empty() {
                "no rule chose a move".to_string()
            } else {
                rules.join(", ")
            };
            out.push_str(&format!("  {name}: {rules}\n"));
        }
        out
    }

    /// Which neighbours in the ranking have separated win intervals.
    pub fn separation(&self) -> String {
        let mut parts = Vec::new();
        for pair in self.ranking.windows(2) {
            let (a, b) = (&self.total[&pair[0]], &self.total[&pair[1]]);
            let sep = if a.win_ci.0 > b.win_ci.1 {
                ">"
            } else {
                "≈ (intervals overlap)"
            };
            parts.push(format!("{} {sep} {}", pair[0], pair[1]));
        }
        format!("ranking: {}\n", parts.join(", "))
    }

    /// The summary as JSON.
    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a summary serialises")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_contains_the_share() {
        let (lo, hi) = wilson(30, 100);
        assert!(lo < 0.3 && 0.3 < hi && hi - lo < 0.2);
        assert_eq!(wilson(0, 0), (0.0, 1.0));
    }

    #[test]
    fn a_strategy_in_two_seats_is_one_row() {
        let names: Vec<String> = ["regular", "paranoid", "regular"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let s = summarise("cabo", &names, &[]);
        assert_eq!(s.strategies, ["regular", "paranoid"]);
    }
}
