//! What a tournament folder records of its experiment: `manifest.json`,//! every setting that changes what a game is (the game, the strategies
//! and a SHA-256 of each one's text, the deal, the seed, the games per
//! run, repeats, seatings, the move limit, dealer's version). A resume
//! into the folder and the shards a merge joins must have the same
//! manifest (the shard is not in it), and every row of a CSV must be the
//! game the manifest says it is (its run, seed and seating).
//!
//! The engine, its budget and the number of threads are not recorded:
//! they do not change a game's outcome.

use std::path::Path;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::diag::Report;

use super::game::Deal;
use super::record::{Record, Rows};
use super::refused;
use super::run::{game_seed, runs_checked, seats_of, total_of, Plan, Seatings};

/// The file name of a folder's manifest.
pub const FILE: &str = "manifest.json";

/// A tournament's experiment: what makes its games what they are.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// The version of dealer that played the first game.
    pub dealer: String,
    /// The game (`gofish`).
    pub game: String,
    /// The strategies, in the order given.
    pub strategies: Vec<StrategyFile>,
    /// The players at the table.
    pub players: usize,
    /// The deal (`size small`, or a deck and a hand).
    pub deal: String,
    /// The tournament's seed.
    pub seed: u64,
    /// Games per run.
    pub games: u64,
    /// Whether a strategy may take several seats of a run.
    pub repeats: bool,
    /// How a run's strategies are seated from game to game.
    pub seatings: Seatings,
    /// Moves after which a game ends as it stands (`null`: the game's own limit).
    pub max_moves: Option<usize>,
}

/// A strategy of a manifest: its name and the SHA-256 of its text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StrategyFile {
    /// The name after `strategy` in its file.
    pub name: String,
    /// The SHA-256 of the file's text, in hexadecimal.
    pub sha256: String,
}

/// The SHA-256 of a text, in hexadecimal.
pub fn sha256(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

impl Manifest {
    /// The manifest of a plan; `sources[i]` is the text of `plan.strategies[i]`.
    pub fn of(plan: &Plan, sources: &[String]) -> Manifest {
        Manifest {
            dealer: env!("CARGO_PKG_VERSION").to_string(),
            game: plan.game.clone(),
            strategies: plan
                .strategies
                .iter()
                .zip(sources)
                .map(|(s, src)| StrategyFile {
                    name: s.name.clone(),
                    sha256: sha256(src),
                })
                .collect(),
            players: plan.players,
            deal: match &plan.deal {
                Deal::Referee(size) => format!("size {size}"),
                Deal::Custom { deck, hand } => format!("{}, hand {hand}", deck.line()),
            },
            seed: plan.seed,
            games: plan.games,
            repeats: plan.repeats,
            seatings: plan.seatings,
            max_moves: plan.max_moves,
        }
    }

    /// The strategies' names, in the order given.
    pub fn names(&self) -> Vec<String> {
        self.strategies.iter().map(|s| s.name.clone()).collect()
    }

    /// The manifest of folder `dir`, if it has one; a file that is not
    /// one is an error.
    pub fn read(dir: &Path) -> Result<Option<Manifest>, Report> {
        let path = dir.join(FILE);
        let text = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => {
                return Err(refused(
                    "cannot-read",
                    format!("cannot read {}: {e}", path.display()),
                ))
            }
        };
        let manifest: Manifest = serde_json::from_slice(&text).map_err(|e| {
            refused(
                "manifest",
                format!(
                    "{}:{}:{}: not a tournament manifest: {e}",
                    path.display(),
                    e.line(),
                    e.column()
                ),
            )
        })?;
        if manifest.games == 0 || manifest.strategies.is_empty() || manifest.players == 0 {
            return Err(refused(
                "manifest",
                format!(
                    "{}: not a tournament manifest: it has no games, strategies or players",
                    path.display()
                ),
            ));
        }
        manifest
            .total()
            .map_err(|e| refused("manifest", format!("{}: {e}", path.display())))?;
        Ok(Some(manifest))
    }

    /// Writes the manifest into `dir`, unless one is there already (written
    /// whole and at once: a shard started beside another never reads half
    /// of one); returns the one there, if any.
    pub fn write_new(&self, dir: &Path) -> Result<Option<Manifest>, Report> {
        let path = dir.join(FILE);
        let tmp = dir.join(format!(".{FILE}.{}", std::process::id()));
        let text = serde_json::to_string_pretty(self).expect("a manifest serialises") + "\n";
        std::fs::write(&tmp, text).map_err(|e| {
            refused(
                "cannot-write",
                format!("cannot write {}: {e}", tmp.display()),
            )
        })?;
        let linked = std::fs::hard_link(&tmp, &path);
        let _ = std::fs::remove_file(&tmp);
        match linked {
            Ok(()) => Ok(None),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Manifest::read(dir),
            Err(e) => Err(refused(
                "cannot-write",
                format!("cannot write {}: {e}", path.display()),
            )),
        }
    }

    /// The settings in which `now` differs from `self` (recorded), each
    /// named with both values; empty when they are one experiment.
    pub fn differences(&self, now: &Manifest) -> Vec<String> {
        let mut out = Vec::new();
        let mut differ = |what: &str, old: String, new: String| {
            if old != new {
                out.push(format!("{what} {old} (recorded) against {new} (now)"));
            }
        };
        differ("game", self.game.clone(), now.game.clone());
        differ("strategies", self.names().join(","), now.names().join(","));
        if self.names() == now.names() {
            for (old, new) in self.strategies.iter().zip(&now.strategies) {
                differ(
                    &format!("strategy `{}`'s text (SHA-256)", old.name),
                    old.sha256.clone(),
                    new.sha256.clone(),
                );
            }
        }
        differ("players", self.players.to_string(), now.players.to_string());
        differ("deal", self.deal.clone(), now.deal.clone());
        differ("--seed", self.seed.to_string(), now.seed.to_string());
        differ("--games", self.games.to_string(), now.games.to_string());
        differ(
            "--repeats",
            self.repeats.to_string(),
            now.repeats.to_string(),
        );
        differ(
            "--seatings",
            format!("{:?}", self.seatings).to_lowercase(),
            format!("{:?}", now.seatings).to_lowercase(),
        );
        let moves = |m: Option<usize>| m.map_or("(the game's limit)".into(), |m| m.to_string());
        differ("--max-moves", moves(self.max_moves), moves(now.max_moves));
        differ("dealer version", self.dealer.clone(), now.dealer.clone());
        out
    }

    /// Refuses `now` unless it is the recorded experiment (`place` says
    /// where it is recorded).
    pub fn same_as(&self, now: &Manifest, place: &str) -> Result<(), Report> {
        let diffs = self.differences(now);
        if diffs.is_empty() {
            return Ok(());
        }
        Err(refused(
            "manifest",
            format!("{place} records another experiment: {}", diffs.join("; ")),
        ))
    }

    /// The games of the experiment.
    pub fn total(&self) -> Result<u64, Report> {
        total_of(self.runs()?.len(), self.games)
    }

    fn runs(&self) -> Result<Vec<Vec<usize>>, Report> {
        runs_checked(self.strategies.len(), self.players, self.repeats)
    }

    /// Checks that every row is the game the manifest says it is: its
    /// index one of the experiment's (and of `shard`, when given), its
    /// seed, run and strategies those of that index. Errors name
    /// `name:line`.
    pub fn check(&self, name: &str, rows: &Rows, shard: Option<(u64, u64)>) -> Result<(), Report> {
        let runs = self.runs()?;
        let total = self.total()?;
        let names = self.names();
        for (index, record) in &rows.records {
            let at = |what: String| {
                refused(
                    "not-this-experiment",
                    format!("{name}:{}: {what}", rows.lines[index]),
                )
            };
            if *index >= total {
                return Err(at(format!(
                    "game {index} is not of this experiment (games 0 to {})",
                    total.saturating_sub(1)
                )));
            }
            if let Some((k, n)) = shard {
                if index % n != k - 1 {
                    return Err(at(format!("game {index} is not of shard {k}/{n}")));
                }
            }
            let (run, seats) = seats_of(self.seatings, self.games, &runs, *index);
            let expected = Record {
                seed: game_seed(self.seed, *index),
                run: run + 1,
                strategies: seats.iter().map(|&s| names[s].clone()).collect(),
                ..record.clone()
            };
            if *record != expected {
                return Err(at(format!(
                    "game {index} is not the experiment's: it has seed {}, run {} and strategies {}, where the manifest gives seed {}, run {} and strategies {}",
                    record.seed,
                    record.run,
                    record.strategies.join(";"),
                    expected.seed,
                    expected.run,
                    expected.strategies.join(";")
                )));
            }
        }
        Ok(())
    }
}
