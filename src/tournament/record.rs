//! One CSV row per game, read back to resume or merge.
//!
//! Columns: `index,seed,run,strategies,scores,winners,turns`; the lists are
//! separated by `;` and given seat by seat (`winners` are seat numbers
//! from 1).

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;

/// The CSV header.
pub const HEADER: &str = "index,seed,run,strategies,scores,winners,turns";

/// One played game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The game's index in the tournament.
    pub index: u64,
    /// The game's own seed.
    pub seed: u64,
    /// The combination (run) it belongs to, from 1.
    pub run: usize,
    /// The strategy at each seat.
    pub strategies: Vec<String>,
    /// Each seat's score.
    pub scores: Vec<i64>,
    /// The seats with the best score (from 0).
    pub winners: Vec<usize>,
    /// Moves played.
    pub turns: usize,
    /// Whether the game ended at its limit rather than by its rules (not a
    /// column of the CSV: `false` for a record read back).
    pub capped: bool,
}

impl Record {
    /// The record as a CSV line (no newline).
    pub fn to_csv(&self) -> String {
        let join = |v: Vec<String>| v.join(";");
        format!(
            "{},{},{},{},{},{},{}",
            self.index,
            self.seed,
            self.run,
            self.strategies.join(";"),
            join(self.scores.iter().map(|s| s.to_string()).collect()),
            join(self.winners.iter().map(|w| (w + 1).to_string()).collect()),
            self.turns
        )
    }

    /// Reads a CSV line.
    pub fn from_csv(line: &str) -> Result<Record, String> {
        let cols: Vec<&str> = line.trim().split(',').collect();
        if cols.len() != 7 {
            return Err(format!(
                "expected 7 columns, found {}: `{line}`",
                cols.len()
            ));
        }
        let num = |s: &str| {
            s.parse::<u64>()
                .map_err(|_| format!("`{s}` is not a number"))
        };
        let list = |s: &str| -> Vec<String> {
            s.split(';')
                .filter(|x| !x.is_empty())
                .map(str::to_string)
                .collect()
        };
        let scores = list(cols[4])
            .iter()
            .map(|s| {
                s.parse::<i64>()
                    .map_err(|_| format!("`{s}` is not a score"))
            })
            .collect::<Result<_, _>>()?;
        let winners = list(cols[5])
            .iter()
            .map(|s| match s.parse::<usize>() {
                Ok(w) if w >= 1 => Ok(w - 1),
                _ => Err(format!("`{s}` is not a seat")),
            })
            .collect::<Result<_, _>>()?;
        Ok(Record {
            index: num(cols[0])?,
            seed: num(cols[1])?,
            run: num(cols[2])? as usize,
            strategies: list(cols[3]),
            scores,
            winners,
            turns: num(cols[6])? as usize,
            capped: false,
        })
    }
}

/// Reads the records of a CSV file (a missing file has none), by index,
/// and how many malformed lines were skipped (a line cut short by an
/// interruption: its game is played again).
pub fn read_csv(path: &Path) -> Result<(BTreeMap<u64, Record>, usize), String> {
    let mut out = BTreeMap::new();
    let mut skipped = 0;
    let Ok(file) = std::fs::File::open(path) else {
        return Ok((out, 0));
    };
    for (n, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| format!("{}: {e}", path.display()))?;
        if line.trim().is_empty() || line.starts_with("index,") {
            continue;
        }
        match Record::from_csv(&line) {
            Ok(r) => {
                out.insert(r.index, r);
            }
            Err(_) if n > 0 => skipped += 1,
            Err(e) => return Err(format!("{}: not a tournament CSV: {e}", path.display())),
        }
    }
    Ok((out, skipped))
}

/// Writes records to a new CSV file, in index order.
pub fn write_csv<'a>(path: &Path, records: impl Iterator<Item = &'a Record>) -> Result<(), String> {
    let mut out = String::from(HEADER);
    out.push('\n');
    for r in records {
        out.push_str(&r.to_csv());
        out.push('\n');
    }
    std::fs::write(path, out).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Appends one record to an open CSV file.
pub fn append(file: &mut std::fs::File, record: &Record) -> std::io::Result<()> {
    writeln!(file, "{}", record.to_csv())?;
    file.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_survives_csv() {
        let r = Record {
            index: 7,
            seed: 99,
            run: 2,
            strategies: vec!["random".into(), "greedy".into()],
            scores: vec![1, 3],
            winners: vec![1],
            turns: 40,
            capped: false,
        };
        assert_eq!(Record::from_csv(&r.to_csv()).unwrap(), r);
        assert!(Record::from_csv("1,2,3").is_err());
    }
}
