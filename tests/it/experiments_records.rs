//! docs/experiments.md against the records it cites: the table of "The
//! report's code" is computed here from the Go Fish program's stored runs
//! (docs/experiments/gofish-report-code/*.csv, written by its driver), and
//! the summary table and the GAME argument's help name every game.

use std::collections::BTreeMap;
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn experiments_md() -> String {
    std::fs::read_to_string(root().join("docs/experiments.md")).unwrap()
}

const NAMES: [&str; 4] = ["random", "most-cards", "first-order", "second-order"];

/// One game of the report's program, as the driver wrote it.
struct Row {
    run: usize,
    seats: Vec<String>,
    books: Vec<u32>,
    /// The program's winner (a seat from 1), `None` for an aborted game.
    tally: Option<usize>,
    asks: Vec<u64>,
    hits: Vec<u64>,
}

fn read(setting: &str) -> Vec<Row> {
    let path = root().join(format!("docs/experiments/gofish-report-code/{setting}.csv"));
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("run,game,seats,books,tally,asks,hits"));
    let list = |s: &str| s.split(';').map(str::to_string).collect::<Vec<_>>();
    let nums = |s: &str| {
        s.split(';')
            .map(|n| n.parse::<u64>().unwrap())
            .collect::<Vec<_>>()
    };
    lines
        .map(|line| {
            let f: Vec<&str> = line.split(',').collect();
            assert_eq!(f.len(), 7, "{setting}.csv: {line}");
            Row {
                run: f[0].parse().unwrap(),
                seats: list(f[2]),
                books: nums(f[3]).into_iter().map(|b| b as u32).collect(),
                tally: (f[4] != "aborted").then(|| f[4].parse().unwrap()),
                asks: nums(f[5]),
                hits: nums(f[6]),
            }
        })
        .collect()
}

fn pct(num: u64, den: u64) -> String {
    format!("{:.1}%", 100.0 * num as f64 / den as f64)
}

/// Each strategy's share of its games won alone (most books, not shared).
fn sole_wins(rows: &[Row]) -> BTreeMap<&'static str, String> {
    let mut won = BTreeMap::new();
    let mut played = BTreeMap::new();
    for r in rows {
        let best = *r.books.iter().max().unwrap();
        let at: Vec<usize> = (0..3).filter(|&i| r.books[i] == best).collect();
        for s in &r.seats {
            *played.entry(s.clone()).or_insert(0u64) += 1;
        }
        if let [one] = at[..] {
            *won.entry(r.seats[one].clone()).or_insert(0u64) += 1;
        }
    }
    NAMES.iter().map(|&n| (n, pct(won[n], played[n]))).collect()
}

#[test]
fn the_report_codes_table_is_computed_from_its_stored_runs() {
    let fixed = read("fixed");
    let rotating = read("rotating");
    let variant = read("temp-agent2");
    // The report's four runs of 10,000 games in each setting; the seeded
    // runs play the same deals with and without the patch.
    for rows in [&fixed, &rotating, &variant] {
        assert_eq!(rows.len(), 40_000);
        for run in 1..=4 {
            assert_eq!(rows.iter().filter(|r| r.run == run).count(), 10_000);
        }
        assert!(rows
            .iter()
            .all(|r| r.books.iter().sum::<u32>() == 13 || r.tally.is_none()));
    }
    // Fixed seats: the program's tally, the winner's seat, per run.
    let mut tally: BTreeMap<&str, [u64; 4]> = NAMES.iter().map(|&n| (n, [0; 4])).collect();
    for r in &fixed {
        if let Some(seat) = r.tally {
            let name = NAMES.iter().find(|n| **n == r.seats[seat - 1]).unwrap();
            tally.get_mut(name).unwrap()[r.run - 1] += 1;
        }
    }
    let plays = |name: &str, run: usize| {
        fixed
            .iter()
            .any(|r| r.run == run && r.seats.iter().any(|s| s == name))
    };
    let cells: Vec<String> = NAMES
        .iter()
        .map(|&n| {
            (1..=4)
                .filter(|&run| plays(n, run))
                .map(|run| tally[n][run - 1].to_string())
                .collect::<Vec<_>>()
                .join(", ")
        })
        .collect();
    let line = |label: &str, cells: &[String]| format!("| {label} | {} |", cells.join(" | "));
    let rot = sole_wins(&rotating);
    let tmp = sole_wins(&variant);
    let expected = [
        line("their code, fixed seats, their tally", &cells),
        line(
            "their code, seats rotating, sole wins (share of games)",
            &NAMES.map(|n| rot[n].clone()),
        ),
        line(
            "the same with `temp_agent2` on lines 65 and 68",
            &NAMES.map(|n| tmp[n].clone()),
        ),
    ];
    let doc = experiments_md();
    for row in &expected {
        assert!(
            doc.lines().any(|l| l == row),
            "docs/experiments.md has no row\n{row}\n(regenerate it: node docs/experiments/gofish-report-code/table.mjs)"
        );
    }
    // The asks that found the rank, seats rotating, quoted in the text.
    let rate = |name: &str| {
        let (mut hit, mut ask) = (0, 0);
        for r in &rotating {
            for (i, s) in r.seats.iter().enumerate() {
                if s == name {
                    hit += r.hits[i];
                    ask += r.asks[i];
                }
            }
        }
        pct(hit, ask)
    };
    let quoted = format!(
        "{} of most cards' asks succeed, {} of random's",
        rate("most-cards"),
        rate("random")
    );
    assert!(
        doc.replace('\n', " ").contains(&quoted),
        "docs/experiments.md does not say `{quoted}`"
    );
}

#[test]
fn every_game_is_in_the_summary_table_and_in_the_game_arguments_help() {
    let doc = experiments_md();
    let summary = doc
        .split("\n## Summary\n")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .unwrap();
    let firsts: Vec<&str> = summary
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("|---"))
        .map(|l| l.split('|').nth(1).unwrap())
        .collect();
    // The GAME argument's line of each command's help.
    let args: Vec<(&str, String)> = ["tournament", "play"]
        .into_iter()
        .map(|command| {
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_dealer"))
                .args([command, "--help"])
                .output()
                .unwrap();
            let help = String::from_utf8_lossy(&out.stdout).into_owned();
            let arg = help
                .lines()
                .skip_while(|l| l.trim() != "<GAME>")
                .nth(1)
                .unwrap_or_else(|| {
                    panic!("`dealer {command} --help` has no GAME argument:\n{help}")
                })
                .to_string();
            (command, arg)
        })
        .collect();
    let games = dealer::play::playable();
    assert!(games.len() >= 5, "{games:?}");
    for game in &games {
        let named = format!("`{game}`");
        assert!(
            firsts.iter().any(|c| c.contains(&named)),
            "the summary of docs/experiments.md has no row for {named}: {firsts:?}"
        );
        for (command, arg) in &args {
            assert!(
                arg.contains(&named),
                "`dealer {command} --help` does not name {named} in `{arg}`"
            );
        }
    }
}

#[test]
fn kwartets_asks_a_game_beside_the_report_are_its_stored_records_mean() {
    // `kwartet-fixed-full`: the report's 10,000 games at its size and
    // seating; every move of Kwartet is one ask (`turns` counts moves).
    let path = root().join("docs/experiments/kwartet-fixed-full/games.csv");
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let at = header.iter().position(|h| *h == "turns").unwrap();
    let moves: Vec<u64> = lines
        .map(|l| l.split(',').nth(at).unwrap().parse().unwrap())
        .collect();
    assert_eq!(moves.len(), 10_000);
    let mean = moves.iter().sum::<u64>() as f64 / moves.len() as f64;
    let row = format!("| asks (requests) a game | - | {mean:.1} (the 10,000 games above");
    assert!(
        experiments_md().lines().any(|l| l.starts_with(&row)),
        "docs/experiments.md has no row starting `{row}`"
    );
}
