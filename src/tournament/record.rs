//! One CSV row per game, read back to resume or merge.//!
//! Columns: `index,seed,run,strategies,scores,winners,turns,rules`; the
//! lists are separated by `;` and given seat by seat (`winners` are seat
//! numbers from 1); `rules` says how many moves each rule of the seat's
//! strategy chose (`block:2 collect:5 wait:31`, rules that chose none left
//! out). A file written before `rules` was recorded (its header without
//! it) is read as it is, its games without counts, and rewritten with the
//! column when a run resumes it.

use std::collections::BTreeMap;
use std::fs::OpenOptions;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::diag::Report;

use super::refused;

/// The CSV header.
pub const HEADER: &str = "index,seed,run,strategies,scores,winners,turns,rules";

/// The header of a file written before the `rules` column.
pub const HEADER_WITHOUT_RULES: &str = "index,seed,run,strategies,scores,winners,turns";

/// How many moves each rule chose, by rule name.
pub type Fired = BTreeMap<String, u64>;

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
    /// Seat by seat, how many moves each rule of its strategy chose
    /// (`None`: not counted, a row of a file written before the column).
    pub rules: Option<Vec<Fired>>,
}

impl Record {
    /// The record as a CSV line (no newline).
    pub fn to_csv(&self) -> String {
        let join = |v: Vec<String>| v.join(";");
        let rules = self.rules.as_ref().map_or_else(String::new, |seats| {
            join(
                seats
                    .iter()
                    .map(|fired| {
                        fired
                            .iter()
                            .filter(|(_, &n)| n > 0)
                            .map(|(rule, n)| format!("{rule}:{n}"))
                            .collect::<Vec<_>>()
                            .join(" ")
                    })
                    .collect(),
            )
        });
        format!(
            "{},{},{},{},{},{},{},{rules}",
            self.index,
            self.seed,
            self.run,
            self.strategies.join(";"),
            join(self.scores.iter().map(|s| s.to_string()).collect()),
            join(self.winners.iter().map(|w| (w + 1).to_string()).collect()),
            self.turns
        )
    }

    /// Reads a CSV line: the row's own consistency is checked (as many
    /// scores as strategies, winners among the seats, each once); whether
    /// it belongs to an experiment is [`super::manifest::Manifest::check`]'s.
    pub fn from_csv(line: &str) -> Result<Record, Report> {
        Record::from_csv_in(line, HEADER)
    }

    /// [`Record::from_csv`] for a file whose header is `header` ([`HEADER`]
    /// or the older [`HEADER_WITHOUT_RULES`]).
    pub fn from_csv_in(line: &str, header: &str) -> Result<Record, Report> {
        let cols: Vec<&str> = line.split(',').collect();
        let wanted = header.split(',').count();
        if cols.len() != wanted {
            return Err(refused(
                "bad-record",
                format!("expected {wanted} columns ({header}), found {}", cols.len()),
            ));
        }
        let num = |what: &str, s: &str| {
            s.parse::<u64>().map_err(|_| {
                refused(
                    "bad-record",
                    format!("{what} `{s}` is not a whole number below 2^64"),
                )
            })
        };
        let list = |s: &str| -> Vec<String> {
            s.split(';')
                .filter(|x| !x.is_empty())
                .map(str::to_string)
                .collect()
        };
        let strategies = list(cols[3]);
        if strategies.is_empty() {
            return Err(refused("bad-record", "no strategies"));
        }
        let scores: Vec<i64> = list(cols[4])
            .iter()
            .map(|s| {
                s.parse::<i64>().map_err(|_| {
                    refused("bad-record", format!("score `{s}` is not a whole number"))
                })
            })
            .collect::<Result<_, _>>()?;
        if scores.len() != strategies.len() {
            return Err(refused(
                "bad-record",
                format!(
                    "{} scores for {} strategies",
                    scores.len(),
                    strategies.len()
                ),
            ));
        }
        let mut winners = Vec::new();
        for s in list(cols[5]) {
            match s.parse::<usize>() {
                Ok(w) if (1..=strategies.len()).contains(&w) => {
                    if winners.contains(&(w - 1)) {
                        return Err(refused("bad-record", format!("winner {w} given twice")));
                    }
                    winners.push(w - 1);
                }
                _ => {
                    return Err(refused(
                        "bad-record",
                        format!("winner `{s}` is not a seat (1 to {})", strategies.len()),
                    ))
                }
            }
        }
        let run = num("run", cols[2])?;
        let run = usize::try_from(run)
            .ok()
            .filter(|&r| r >= 1)
            .ok_or_else(|| {
                refused(
                    "bad-record",
                    format!("run `{}` is not a run (from 1)", cols[2]),
                )
            })?;
        let turns = usize::try_from(num("moves", cols[6])?)
            .map_err(|_| refused("bad-record", format!("moves `{}` too many", cols[6])))?;
        // An empty column: a row of an older file, rewritten uncounted.
        let rules = match cols.get(7) {
            Some(col) if !col.is_empty() => Some(read_rules(col, strategies.len())?),
            _ => None,
        };
        Ok(Record {
            index: num("index", cols[0])?,
            seed: num("seed", cols[1])?,
            run,
            strategies,
            scores,
            winners,
            turns,
            capped: false,
            rules,
        })
    }
}

/// The `rules` column: for each of `seats` seats, `rule:count` pairs
/// separated by spaces (an empty seat: no rule chose a move).
fn read_rules(col: &str, seats: usize) -> Result<Vec<Fired>, Report> {
    let parts: Vec<&str> = col.split(';').collect();
    if parts.len() != seats {
        return Err(refused(
            "bad-record",
            format!(
                "rules `{col}` give {} seats for {seats} strategies",
                parts.len()
            ),
        ));
    }
    parts
        .iter()
        .map(|part| {
            let mut fired = Fired::new();
            for pair in part.split_whitespace() {
                let parsed = pair
                    .split_once(':')
                    .and_then(|(rule, n)| Some((rule, n.parse::<u64>().ok()?)))
                    .filter(|(rule, _)| !rule.is_empty());
                let Some((rule, n)) = parsed else {
                    return Err(refused(
                        "bad-record",
                        format!("rules `{pair}` is not a rule and a count (`block:2`)"),
                    ));
                };
                if fired.insert(rule.to_string(), n).is_some() {
                    return Err(refused(
                        "bad-record",
                        format!("rule `{rule}` counted twice in one seat"),
                    ));
                }
            }
            Ok(fired)
        })
        .collect()
}

/// The rows of a tournament CSV, read back.
#[derive(Clone, Debug, Default)]
pub struct Rows {
    /// The records, by index.
    pub records: BTreeMap<u64, Record>,
    /// The line of each index's record (from 1).
    pub lines: BTreeMap<u64, usize>,
    /// A last line without its newline: cut short by an interruption (a
    /// record is written with its newline at once). Its number and the
    /// byte where it starts.
    pub cut: Option<(usize, u64)>,
    /// The file was written before the `rules` column
    /// ([`HEADER_WITHOUT_RULES`]).
    pub without_rules: bool,
}

/// Reads a tournament CSV's text (`name` for the errors, which say
/// `name:line: what is wrong`): the header, then one valid row per line;
/// the same game twice is refused unless both rows are the same.
pub fn parse_csv(name: &str, bytes: &[u8]) -> Result<Rows, Report> {
    let mut rows = Rows::default();
    let mut offset = 0u64;
    let pieces = bytes.split_inclusive(|&b| b == b'\n').enumerate();
    for (n, piece) in pieces {
        let line_no = n + 1;
        // A refusal at this line: its place before each message.
        let at = |mut what: Report| {
            for d in &mut what.diagnostics {
                d.message = format!("{name}:{line_no}: {}", d.message);
            }
            what
        };
        let start = offset;
        offset += piece.len() as u64;
        let Some(line) = piece.strip_suffix(b"\n") else {
            // The last line, without its newline.
            rows.cut = Some((line_no, start));
            break;
        };
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let line =
            std::str::from_utf8(line).map_err(|_| at(refused("bad-record", "not UTF-8 text")))?;
        if n == 0 {
            if line == HEADER_WITHOUT_RULES {
                rows.without_rules = true;
            } else if line != HEADER {
                return Err(at(refused(
                    "not-tournament-csv",
                    format!("not a tournament CSV: the first line should be `{HEADER}`"),
                )));
            }
            continue;
        }
        if line.trim().is_empty() {
            continue;
        }
        let header = if rows.without_rules {
            HEADER_WITHOUT_RULES
        } else {
            HEADER
        };
        let record = Record::from_csv_in(line, header).map_err(at)?;
        if let Some(old) = rows.records.get(&record.index) {
            if *old != record {
                return Err(at(refused(
                    "bad-record",
                    format!(
                        "game {} again, unlike line {}",
                        record.index, rows.lines[&record.index]
                    ),
                )));
            }
            continue;
        }
        rows.lines.insert(record.index, line_no);
        rows.records.insert(record.index, record);
    }
    Ok(rows)
}

/// Reads the rows of a CSV file (a missing file has none).
pub fn read_csv(path: &Path) -> Result<Rows, Report> {
    match std::fs::read(path) {
        Ok(bytes) => parse_csv(&path.display().to_string(), &bytes),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Rows::default()),
        Err(e) => Err(refused(
            "cannot-read",
            format!("cannot read {}: {e}", path.display()),
        )),
    }
}

/// A tournament CSV opened for writing, locked against any other dealer
/// process (an OS file lock: it ends with the process that holds it,
/// however that process ends, so a crash leaves no stale lock).
#[derive(Debug)]
pub struct CsvFile {
    file: std::fs::File,
    path: PathBuf,
}

impl CsvFile {
    /// Opens (or creates) `path` and locks it; refused if another process
    /// holds its lock. Nothing in the file is changed.
    pub fn open_locked(path: &Path) -> Result<CsvFile, Report> {
        let existed = path.exists();
        let file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .map_err(|e| {
                refused(
                    "cannot-open",
                    format!("cannot open {}: {e}", path.display()),
                )
            })?;
        match file.try_lock() {
            Ok(()) => Ok(CsvFile {
                file,
                path: path.to_path_buf(),
            }),
            Err(std::fs::TryLockError::WouldBlock) => {
                drop(file);
                if !existed {
                    let _ = std::fs::remove_file(path);
                }
                Err(refused("bad-record", format!(
                    "{} is being written by another dealer process (a tournament or a merge on the same folder, still running): wait for it to end, or give another --out",
                    path.display()
                )))
            }
            Err(std::fs::TryLockError::Error(e)) => Err(refused(
                "cannot-lock",
                format!("cannot lock {}: {e}", path.display()),
            )),
        }
    }

    /// The rows the file holds.
    pub fn rows(&mut self) -> Result<Rows, Report> {
        let mut bytes = Vec::new();
        self.file
            .seek(SeekFrom::Start(0))
            .and_then(|_| self.file.read_to_end(&mut bytes))
            .map_err(|e| {
                refused(
                    "cannot-read",
                    format!("cannot read {}: {e}", self.path.display()),
                )
            })?;
        parse_csv(&self.path.display().to_string(), &bytes)
    }

    /// Makes the file ready for new rows: a line cut short is removed (its
    /// game is played again), a new file gets its header, and a file
    /// written before the `rules` column is rewritten with it (its old
    /// rows without counts).
    pub fn prepare(&mut self, rows: &Rows) -> Result<(), Report> {
        if rows.without_rules {
            return self.replace(rows.records.values());
        }
        let err = |e: std::io::Error| {
            refused(
                "cannot-write",
                format!("cannot write {}: {e}", self.path.display()),
            )
        };
        if let Some((_, start)) = rows.cut {
            self.file.set_len(start).map_err(err)?;
        }
        let len = self.file.metadata().map_err(err)?.len();
        if len == 0 {
            writeln!(self.file, "{HEADER}").map_err(err)?;
        }
        Ok(())
    }

    /// Replaces the file's rows by `records`, in index order.
    pub fn replace<'a>(&mut self, records: impl Iterator<Item = &'a Record>) -> Result<(), Report> {
        let mut out = String::from(HEADER);
        out.push('\n');
        for r in records {
            out.push_str(&r.to_csv());
            out.push('\n');
        }
        let err = |e: std::io::Error| {
            refused(
                "cannot-write",
                format!("cannot write {}: {e}", self.path.display()),
            )
        };
        self.file.set_len(0).map_err(err)?;
        self.file.write_all(out.as_bytes()).map_err(err)?;
        self.file.flush().map_err(err)
    }

    /// Appends one record.
    pub fn append(&mut self, record: &Record) -> Result<(), Report> {
        writeln!(self.file, "{}", record.to_csv())
            .and_then(|()| self.file.flush())
            .map_err(|e| {
                refused(
                    "cannot-write",
                    format!("cannot write {}: {e}", self.path.display()),
                )
            })
    }
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
            rules: Some(vec![
                Fired::new(),
                [("block".to_string(), 2), ("wait".to_string(), 9)].into(),
            ]),
        };
        assert_eq!(r.to_csv(), "7,99,2,random;greedy,1;3,2,40,;block:2 wait:9");
        assert_eq!(Record::from_csv(&r.to_csv()).unwrap(), r);
        assert!(Record::from_csv("1,2,3").is_err());
        // A row of a file written before the rules were counted.
        let old = Record::from_csv_in("7,99,2,random;greedy,1;3,2,40", HEADER_WITHOUT_RULES);
        assert_eq!(
            old.unwrap(),
            Record {
                rules: None,
                ..r.clone()
            }
        );
        for (rules, why) in [
            ("block:2", "1 seats for 2"),
            (";block", "not a rule and a count"),
            (";block:x", "not a rule and a count"),
            (";block:1 block:2", "counted twice"),
        ] {
            let e =
                Record::from_csv(&format!("7,99,2,random;greedy,1;3,2,40,{rules}")).unwrap_err();
            assert!(e.message().contains(why), "{rules}: {e}");
        }
    }

    #[test]
    fn rows_that_cannot_be_a_game_are_refused_with_their_line() {
        let bad = [
            ("1,2,1,a;b,1;2,7,3,;", "winner `7` is not a seat"),
            ("1,2,1,a;b,1;2;3;4,1,3,;", "4 scores for 2 strategies"),
            (
                "99999999999999999999,2,1,a;b,1;2,1,3,;",
                "index `99999999999999999999`",
            ),
            ("1,2,0,a;b,1;2,1,3,;", "run `0`"),
            ("1,2,1,a;b,1;2,1;1,3,;", "winner 1 given twice"),
            ("1,2,1,,,,3,", "no strategies"),
        ];
        for (row, why) in bad {
            let text = format!("{HEADER}\n0,5,1,a;b,3;1,1,9,;\n{row}\n");
            let e = parse_csv("g.csv", text.as_bytes()).unwrap_err();
            assert!(
                e.message().starts_with("g.csv:3: ") && e.message().contains(why),
                "{row}: {e}"
            );
        }
        let e = parse_csv("g.csv", b"index,seed\n").unwrap_err();
        assert!(
            e.message().starts_with("g.csv:1: not a tournament CSV"),
            "{e}"
        );
        // The same game twice: the same row is one game, another is refused.
        let row = "0,5,1,a;b,3;1,1,9,;";
        let twice = format!("{HEADER}\n{row}\n{row}\n");
        assert_eq!(
            parse_csv("g.csv", twice.as_bytes()).unwrap().records.len(),
            1
        );
        let unlike = format!("{HEADER}\n{row}\n0,5,1,a;b,3;2,2,9,;\n");
        let e = parse_csv("g.csv", unlike.as_bytes()).unwrap_err();
        assert_eq!(e.message(), "g.csv:3: game 0 again, unlike line 2");
        // A last line without its newline was cut short.
        let cut = format!("{HEADER}\n{row}\n1,5,1,a;b,3;1,1,9,;");
        let rows = parse_csv("g.csv", cut.as_bytes()).unwrap();
        assert_eq!(
            (rows.records.len(), rows.cut),
            (1, Some((3, (HEADER.len() + row.len() + 2) as u64)))
        );
    }
}
