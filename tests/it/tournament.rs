//! `dealer tournament`: the same games whatever the number of threads, the
//! shards merged equal the whole, an interrupted run resumes to the same
//! records, and the table, JSON and chart are written.

use std::path::Path;

use assert_cmd::Command;

fn tournament(out: &Path, extra: &[&str], threads: &str) -> String {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/strategies");
    let mut cmd = Command::cargo_bin("dealer").unwrap();
    cmd.env("RAYON_NUM_THREADS", threads).args([
        "tournament",
        "gofish",
        "--strategies",
        "random,most-cards,first-order,careful",
        "--games",
        "3",
        "--seed",
        "11",
        "--size",
        "small",
        "--dir",
        dir,
        "--out",
    ]);
    cmd.arg(out).args(extra);
    let output = cmd.assert().success().get_output().stdout.clone();
    String::from_utf8(output).unwrap()
}

fn rows(path: &Path) -> Vec<String> {
    let mut rows: Vec<String> = std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .skip(1)
        .map(str::to_string)
        .collect();
    rows.sort();
    rows
}

#[test]
fn results_do_not_depend_on_threads_shards_or_interruptions() {
    let tmp = tempfile::tempdir().unwrap();
    let (one, two) = (tmp.path().join("one"), tmp.path().join("two"));
    let table = tournament(&one, &[], "1");
    tournament(&two, &[], "2");
    let whole = rows(&one.join("games.csv"));
    assert_eq!(whole.len(), 12, "four runs of three games");
    assert_eq!(whole, rows(&two.join("games.csv")));
    assert!(
        table.contains("Run 4") && table.contains("Ranking"),
        "{table}"
    );
    for file in ["summary.json", "table.txt", "chart.svg", "chart.png"] {
        assert!(one.join(file).exists(), "{file}");
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(one.join("summary.json")).unwrap()).unwrap();
    assert_eq!(json["games"], 12);

    // Two shards, merged.
    let shards = tmp.path().join("shards");
    tournament(&shards, &["--shard", "1/2"], "2");
    tournament(&shards, &["--shard", "2/2"], "2");
    let merged = tmp.path().join("merged");
    Command::cargo_bin("dealer")
        .unwrap()
        .args(["tournament", "merge", "--out"])
        .arg(&merged)
        .arg(shards.join("games-1-of-2.csv"))
        .arg(shards.join("games-2-of-2.csv"))
        .assert()
        .success();
    assert_eq!(rows(&merged.join("games.csv")), whole);

    // An interrupted run: half the rows and a line cut short.
    let csv = one.join("games.csv");
    let text = std::fs::read_to_string(&csv).unwrap();
    let kept: Vec<&str> = text.lines().take(7).collect();
    std::fs::write(&csv, format!("{}\n3,12", kept.join("\n"))).unwrap();
    tournament(&one, &[], "2");
    let mut resumed = rows(&csv);
    resumed.retain(|r| r.split(',').count() == 7);
    resumed.dedup();
    assert_eq!(resumed, whole);
}

#[test]
fn bad_arguments_are_refused_with_a_message() {
    let tmp = tempfile::tempdir().unwrap();
    let out = Command::cargo_bin("dealer")
        .unwrap()
        .args(["tournament", "gofish", "--strategies", "nosuch", "--out"])
        .arg(tmp.path())
        .assert()
        .failure()
        .get_output()
        .stderr
        .clone();
    assert!(String::from_utf8_lossy(&out).contains("no strategy `nosuch`"));
}

/// `--seatings all`: every run plays every order of its strategies once in
/// six games (three seats), so each sits directly after each other one
/// equally often; `--seatings fixed` is `--fixed-seats`.
#[test]
fn all_seatings_play_every_order_of_each_run() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("all");
    Command::cargo_bin("dealer")
        .unwrap()
        .args(["tournament", "gofish", "--strategies"])
        .args(["random,most-cards,first-order,careful", "--games", "6"])
        .args(["--size", "small", "--seatings", "all", "--out"])
        .arg(&out)
        .args(["--dir", concat!(env!("CARGO_MANIFEST_DIR"), "/strategies")])
        .assert()
        .success();
    let csv = std::fs::read_to_string(out.join("games.csv")).unwrap();
    let mut orders: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> =
        Default::default();
    for line in csv.lines().skip(1) {
        let cols: Vec<&str> = line.split(',').collect();
        orders
            .entry(cols[2].to_string())
            .or_default()
            .insert(cols[3].to_string());
    }
    assert_eq!(orders.len(), 4, "four runs: {csv}");
    for (run, seen) in &orders {
        assert_eq!(seen.len(), 6, "run {run} plays every order once: {seen:?}");
    }
    let fixed = tmp.path().join("fixed");
    let flag = tmp.path().join("flag");
    tournament(&fixed, &["--seatings", "fixed"], "2");
    tournament(&flag, &["--fixed-seats"], "2");
    assert_eq!(
        rows(&fixed.join("games.csv")),
        rows(&flag.join("games.csv"))
    );
    Command::cargo_bin("dealer")
        .unwrap()
        .args([
            "tournament",
            "gofish",
            "--strategies",
            "random,random,random",
        ])
        .args(["--seatings", "all", "--fixed-seats"])
        .assert()
        .failure();
}
