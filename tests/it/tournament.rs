//! `dealer tournament`: the same games whatever the number of threads, the
//! shards merged equal the whole, an interrupted run resumes to the same
//! records, and the table, JSON and chart are written.

use std::path::Path;

use assert_cmd::Command;

fn tournament(out: &Path, extra: &[&str], threads: &str) -> String {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/strategies");
    let mut cmd = Command::cargo_bin("dealer").unwrap();
    let words = "tournament gofish --strategies random,most-cards,first-order,careful \
                 --games 3 --seed 11 --size small";
    cmd.env("RAYON_NUM_THREADS", threads)
        .args(words.split_whitespace())
        .args(["--dir", dir, "--out"]);
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
    chart_png_is_drawn(&one.join("chart.png"));
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
    resumed.retain(|r| r.split(',').count() == 8);
    resumed.dedup();
    assert_eq!(resumed, whole);

    // A file written before the rules were counted: resumed, it is
    // rewritten with the `rules` column, its old games left uncounted and
    // the missing ones played and counted.
    let old: Vec<String> = whole
        .iter()
        .map(|r| r.rsplit_once(',').unwrap().0.to_string())
        .collect();
    let header = "index,seed,run,strategies,scores,winners,turns";
    std::fs::write(&csv, format!("{header}\n{}\n", old[..6].join("\n"))).unwrap();
    tournament(&one, &[], "1");
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(text.starts_with(&format!("{header},rules\n")), "{text}");
    let mut expected: Vec<String> = old[..6].iter().map(|r| format!("{r},")).collect();
    expected.extend(whole[6..].iter().cloned());
    expected.sort();
    assert_eq!(rows(&csv), expected);
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

// ------------------------------------------------- records that cannot lie

use std::collections::BTreeMap;

use dealer::cli::tournament::run_words;

const STRATS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/strategies");

/// `dealer tournament WORDS`, in this process: its error, if refused.
fn words(w: &[&str]) -> Result<(), String> {
    run_words(w).map_err(|e| e.message())
}

/// A tiny tournament's words (one run of three strategies, two games),
/// into `out`, with `extra` words after.
fn tiny<'a>(out: &'a str, dir: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut w: Vec<&str> =
        "gofish --strategies random,most-cards,first-order --games 2 --seed 11 --size small"
            .split_whitespace()
            .collect();
    w.extend(["--dir", dir, "--out", out]);
    set(&mut w, extra);
    w
}

/// `w` with each `--flag value` of `extra` set: the value replaced when
/// the flag is there, else added.
fn set<'a>(w: &mut Vec<&'a str>, extra: &[&'a str]) {
    let mut i = 0;
    while i < extra.len() {
        let takes_value = extra.get(i + 1).is_some_and(|v| !v.starts_with("--"));
        match w.iter().position(|x| *x == extra[i]) {
            Some(at) if takes_value => w[at + 1] = extra[i + 1],
            Some(_) => {}
            None if takes_value => w.extend_from_slice(&extra[i..i + 2]),
            None => w.push(extra[i]),
        }
        i += 1 + usize::from(takes_value);
    }
}

/// Every file of a folder (and one level of subfolders) with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().to_string();
        if e.path().is_file() {
            out.insert(name, std::fs::read(e.path()).unwrap());
        } else {
            out.insert(format!("{name}/"), Vec::new());
        }
    }
    out
}

fn utf8(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A resume into a folder with any setting changed (the deal, the seed,
/// the games, the move limit, the seatings, repeats, the strategies, their
/// order or a strategy file's text, dealer's version) is refused with the
/// setting named with both values, and leaves every file as it was; the
/// same settings resume, playing nothing.
#[test]
fn a_resume_with_any_changed_setting_is_refused_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let strats = tmp.path().join("strats");
    std::fs::create_dir(&strats).unwrap();
    for s in ["random", "most-cards", "first-order", "careful"] {
        let name = format!("gofish-{s}.strat");
        std::fs::copy(Path::new(STRATS).join(&name), strats.join(&name)).unwrap();
    }
    let out = tmp.path().join("out");
    let (o, d) = (utf8(&out), utf8(&strats));
    words(&tiny(o, d, &[])).unwrap();
    assert_eq!(rows(&out.join("games.csv")).len(), 2);
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["seed"], 11);
    assert_eq!(manifest["deal"], "size small");
    assert_eq!(manifest["strategies"][1]["name"], "most-cards");
    assert_eq!(
        manifest["strategies"][1]["sha256"].as_str().unwrap().len(),
        64
    );
    let before = snapshot(&out);
    let deck = ["--deck", "A*4 K*4 Q*4 J*4", "--hand", "2"];
    let changes: Vec<(Vec<&str>, &[&str])> = vec![
        (
            vec!["--size", "full"],
            &["deal size small (recorded) against size full (now)"],
        ),
        (
            deck.to_vec(),
            &["deal size small (recorded) against", "hand 2 (now)"],
        ),
        (
            vec!["--seed", "12"],
            &["--seed 11 (recorded) against 12 (now)"],
        ),
        (
            vec!["--max-moves", "40"],
            &["--max-moves (the game's limit) (recorded) against 40"],
        ),
        (
            vec!["--seatings", "fixed"],
            &["--seatings rotate (recorded) against fixed (now)"],
        ),
        (
            vec!["--fixed-seats"],
            &["--seatings rotate (recorded) against fixed (now)"],
        ),
        (
            vec!["--seatings", "all"],
            &["--seatings rotate (recorded) against all (now)"],
        ),
        (
            vec!["--repeats"],
            &["--repeats false (recorded) against true (now)"],
        ),
    ];
    let refused = |w: &[&str], says: &[&str]| {
        let e = words(w).expect_err(&format!("{w:?} resumed"));
        assert!(
            e.contains("manifest.json records another experiment"),
            "{w:?}: {e}"
        );
        for s in says {
            assert!(e.contains(s), "{w:?} should say {s:?}: {e}");
        }
        assert_eq!(snapshot(&out), before, "{w:?} changed the folder");
    };
    for (extra, says) in &changes {
        refused(&tiny(o, d, extra), says);
    }
    refused(
        &tiny(o, d, &["--games", "3"]),
        &["--games 2 (recorded) against 3 (now)"],
    );
    for (list, says) in [
        ("random,most-cards,careful", "random,most-cards,first-order (recorded) against random,most-cards,careful (now)"),
        ("most-cards,random,first-order", "strategies random,most-cards,first-order (recorded) against most-cards,random,first-order"),
    ] {
        let mut w = tiny(o, d, &[]);
        w[2] = list;
        refused(&w, &[says]);
    }
    // A strategy's file edited: its text's hash names it.
    let file = strats.join("gofish-most-cards.strat");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, format!("{text}\n# tuned\n")).unwrap();
    refused(
        &tiny(o, d, &[]),
        &["strategy `most-cards`'s text (SHA-256)"],
    );
    std::fs::write(&file, &text).unwrap();
    // Another version of dealer played the recorded games.
    let path = out.join("manifest.json");
    let recorded = std::fs::read_to_string(&path).unwrap();
    let older = recorded.replacen(env!("CARGO_PKG_VERSION"), "0.0.1", 1);
    std::fs::write(&path, &older).unwrap();
    let before_version = snapshot(&out);
    let e = words(&tiny(o, d, &[])).unwrap_err();
    assert!(e.contains("dealer version 0.0.1 (recorded) against"), "{e}");
    assert_eq!(snapshot(&out), before_version);
    std::fs::write(&path, &recorded).unwrap();
    // A manifest that is not one, and games without a manifest.
    std::fs::write(&path, "{\"seed\": 1}").unwrap();
    let e = words(&tiny(o, d, &[])).unwrap_err();
    assert!(
        e.contains("manifest.json:1:") && e.contains("not a tournament manifest"),
        "{e}"
    );
    std::fs::remove_file(&path).unwrap();
    let e = words(&tiny(o, d, &[])).unwrap_err();
    assert!(e.contains("holds games but no manifest.json"), "{e}");
    std::fs::write(&path, &recorded).unwrap();
    // The same settings: nothing to play, the same rows.
    let csv = rows(&out.join("games.csv"));
    words(&tiny(o, d, &[])).unwrap();
    assert_eq!(rows(&out.join("games.csv")), csv);
}

/// A row edited in a folder's CSV (another seed, another strategy at a
/// seat, a game of another shard) is refused on resume with its line.
#[test]
fn a_resume_refuses_rows_that_are_not_the_experiments_games() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let o = utf8(&out);
    words(&tiny(o, STRATS, &["--shard", "1/2"])).unwrap();
    let csv = out.join("games-1-of-2.csv");
    let good = std::fs::read_to_string(&csv).unwrap();
    let row: Vec<String> = good
        .lines()
        .nth(1)
        .unwrap()
        .split(',')
        .map(String::from)
        .collect();
    let edit = |col: usize, value: &str| {
        let mut r = row.clone();
        r[col] = value.to_string();
        format!("{}\n{}\n", good.lines().next().unwrap(), r.join(","))
    };
    let strategies = row[3].split(';').rev().collect::<Vec<_>>().join(";");
    for (text, says) in [
        (
            edit(1, "5"),
            "csv:2: game 0 is not the experiment's: it has seed 5",
        ),
        (
            edit(3, &strategies),
            "csv:2: game 0 is not the experiment's",
        ),
        (edit(0, "1"), "csv:2: game 1 is not of shard 1/2"),
        (
            edit(0, "7"),
            "csv:2: game 7 is not of this experiment (games 0 to 1)",
        ),
        (edit(5, "7"), "csv:2: winner `7` is not a seat (1 to 3)"),
        (
            format!("{good}{}", edit(4, "1;2;3").lines().nth(1).unwrap()) + "\n",
            "csv:3: game 0 again, unlike line 2",
        ),
    ] {
        std::fs::write(&csv, &text).unwrap();
        let e = words(&tiny(o, STRATS, &["--shard", "1/2"])).unwrap_err();
        assert!(e.contains(says), "should say {says:?}: {e}");
        assert_eq!(std::fs::read_to_string(&csv).unwrap(), text);
    }
}

/// Shards merged: identical duplicates are one game; a game that differs
/// between files, an invalid row, a line cut short, a CSV without a
/// manifest beside it and shards of another experiment are refused with
/// the file and line, and the output folder is left as it was.
#[test]
fn merge_refuses_overlaps_invalid_rows_and_other_experiments() {
    let tmp = tempfile::tempdir().unwrap();
    let at = |name: &str| tmp.path().join(name);
    let (s, whole) = (at("s"), at("whole"));
    words(&tiny(utf8(&whole), STRATS, &[])).unwrap();
    words(&tiny(utf8(&s), STRATS, &["--shard", "1/2"])).unwrap();
    words(&tiny(utf8(&s), STRATS, &["--shard", "2/2"])).unwrap();
    let (a, b) = (s.join("games-1-of-2.csv"), s.join("games-2-of-2.csv"));
    let merged = at("merged");
    let m = utf8(&merged);
    words(&["merge", "--out", m, utf8(&a), utf8(&b), utf8(&a)]).unwrap();
    assert_eq!(
        rows(&merged.join("games.csv")),
        rows(&whole.join("games.csv"))
    );
    // A folder for each kind of bad shard, with the shards' manifest.
    let bad = |name: &str, text: &str| {
        let dir = at(name);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(s.join("manifest.json"), dir.join("manifest.json")).unwrap();
        std::fs::write(dir.join("games.csv"), text).unwrap();
        dir.join("games.csv")
    };
    let text = std::fs::read_to_string(&a).unwrap();
    let header = text.lines().next().unwrap();
    let row: Vec<&str> = text.lines().nth(1).unwrap().split(',').collect();
    let with = |col: usize, value: &str| {
        let mut r = row.clone();
        r[col] = value;
        format!("{header}\n{}\n", r.join(","))
    };
    let turns = (row[6].parse::<u64>().unwrap() + 1).to_string();
    let cases = [
        (
            bad("differs", &with(6, &turns)),
            "differs/games.csv:2: game 0 differs from",
        ),
        (
            bad("winner", &with(5, "7")),
            "winner/games.csv:2: winner `7` is not a seat",
        ),
        (
            bad("scores", &with(4, "1;2;3;4")),
            "scores/games.csv:2: 4 scores for 3 strategies",
        ),
        (
            bad("index", &with(0, "99999999999999999999")),
            "index/games.csv:2: index `99999999999999999999` is not a whole number",
        ),
        (
            bad("cut", &format!("{header}\n{}", row.join(","))),
            "cut/games.csv:2: the last line is cut short",
        ),
    ];
    let before = snapshot(&merged);
    for (file, says) in &cases {
        let e = words(&["merge", "--out", m, utf8(&a), utf8(file)]).unwrap_err();
        assert!(e.contains(says), "should say {says:?}: {e}");
        assert_eq!(snapshot(&merged), before);
    }
    let bare = at("bare");
    std::fs::create_dir(&bare).unwrap();
    std::fs::copy(&b, bare.join("b.csv")).unwrap();
    let e = words(&["merge", "--out", m, utf8(&a), utf8(&bare.join("b.csv"))]).unwrap_err();
    assert!(e.contains("b.csv: no manifest.json beside it"), "{e}");
    let other = at("other");
    words(&tiny(
        utf8(&other),
        STRATS,
        &["--shard", "2/2", "--seed", "12"],
    ))
    .unwrap();
    let e = words(&[
        "merge",
        "--out",
        m,
        utf8(&a),
        utf8(&other.join("games-2-of-2.csv")),
    ])
    .unwrap_err();
    assert!(e.contains("--seed 11 (recorded) against 12 (now)"), "{e}");
    // Into a folder of another experiment.
    let e = words(&["merge", "--out", utf8(&other), utf8(&a), utf8(&b)]).unwrap_err();
    assert!(e.contains("--seed 12 (recorded) against 11 (now)"), "{e}");
    assert_eq!(snapshot(&merged), before);
}

/// While a process writes a folder's CSV (holds its lock), a tournament
/// or a merge writing the same CSV is refused; the lock ends with its
/// holder, however it ends (a killed tournament leaves no stale lock).
#[test]
fn a_second_writer_is_refused_and_a_killed_ones_lock_ends_with_it() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let o = utf8(&out);
    words(&tiny(o, STRATS, &[])).unwrap();
    let before = snapshot(&out);
    let held = dealer::tournament::CsvFile::open_locked(&out.join("games.csv")).unwrap();
    let e = words(&tiny(o, STRATS, &[])).unwrap_err();
    assert!(
        e.contains("games.csv is being written by another dealer process"),
        "{e}"
    );
    let e = words(&["merge", "--out", o, utf8(&out.join("games.csv"))]).unwrap_err();
    assert!(e.contains("being written by another dealer process"), "{e}");
    assert_eq!(snapshot(&out), before);
    drop(held);
    words(&tiny(o, STRATS, &[])).unwrap();

    // A tournament killed while it plays: its lock is gone with it.
    let killed = tmp.path().join("killed");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("dealer"))
        .args([
            "tournament",
            "gofish",
            "--strategies",
            "random,random,random",
        ])
        .args([
            "--games", "100000", "--size", "small", "--dir", STRATS, "--out",
        ])
        .arg(&killed)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let csv = killed.join("games.csv");
    let started = std::time::Instant::now();
    while rows_if_any(&csv) < 2 && started.elapsed().as_secs() < 60 {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(
        dealer::tournament::CsvFile::open_locked(&csv).is_err(),
        "the running tournament holds the lock"
    );
    child.kill().unwrap();
    child.wait().unwrap();
    let mut file = dealer::tournament::CsvFile::open_locked(&csv).unwrap();
    assert!(file.rows().unwrap().records.len() >= 2);
}

fn rows_if_any(csv: &Path) -> usize {
    std::fs::read_to_string(csv).map_or(0, |t| t.lines().count().saturating_sub(1))
}

/// The README's recipe for shards on many machines (a Slurm job array or
/// GNU parallel, every shard into one shared folder, then `merge`): the
/// shards' commands and the merge, run here on a tiny tournament, give
/// the rows and the summary of the tournament played at once.
#[test]
fn the_readme_shard_recipe_merges_to_the_tournament_played_at_once() {
    let tmp = tempfile::tempdir().unwrap();
    let shared = tmp.path().join("results");
    let (all, whole) = (tmp.path().join("merged"), tmp.path().join("whole"));
    let mut csvs = Vec::new();
    for k in 1..=3 {
        // dealer tournament ... --shard ${SLURM_ARRAY_TASK_ID}/N --out results/...
        let shard = format!("{k}/3");
        words(&tiny(utf8(&shared), STRATS, &["--shard", &shard])).unwrap();
        csvs.push(shared.join(format!("games-{k}-of-3.csv")));
    }
    // dealer tournament merge --out DIR results/.../games-*-of-N.csv
    let mut merge = vec!["merge", "--out", utf8(&all)];
    merge.extend(csvs.iter().map(|p| utf8(p)));
    words(&merge).unwrap();
    words(&tiny(utf8(&whole), STRATS, &[])).unwrap();
    assert_eq!(rows(&all.join("games.csv")), rows(&whole.join("games.csv")));
    for file in ["summary.json", "manifest.json", "table.txt"] {
        assert_eq!(
            std::fs::read_to_string(all.join(file)).unwrap(),
            std::fs::read_to_string(whole.join(file)).unwrap(),
            "{file}"
        );
    }
    // Merged again: the folder's own games.csv is merged too, the same.
    words(&merge).unwrap();
    assert_eq!(rows(&all.join("games.csv")), rows(&whole.join("games.csv")));
}

/// Tournaments whose plan cannot be numbered are refused at once, naming
/// --games (the plan is never listed: `run::tests` counts a plan of 2^64
/// - 1 games).
#[test]
fn a_plan_of_more_games_than_a_u64_is_refused_at_once() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    for extra in [
        &["--games", "4611686018427387904"][..],
        &[
            "--games",
            "18446744073709551615",
            "--shard",
            "1/1000000000000",
        ][..],
    ] {
        let mut w = vec![
            "gofish",
            "--strategies",
            "random,most-cards,first-order,careful",
            "--size",
            "small",
            "--dir",
            STRATS,
            "--out",
            utf8(&out),
        ];
        w.extend_from_slice(extra);
        let started = std::time::Instant::now();
        let e = words(&w).unwrap_err();
        assert!(
            e.contains("4 runs of") && e.contains("more games than dealer can number"),
            "{e}"
        );
        assert!(started.elapsed().as_secs() < 5);
        assert!(!out.exists(), "nothing written");
    }
}

#[test]
fn the_help_names_every_game_a_tournament_or_a_play_accepts() {
    use clap::CommandFactory;
    use dealer::cards::Size;
    use dealer::tournament::{game::deal_of, Deal};
    let games = dealer::play::playable();
    assert!(games.contains(&"cabo") && games.len() >= 5, "{games:?}");
    let mut cli = dealer::cli::Cli::command();
    for sub in ["tournament", "play"] {
        let help = cli.find_subcommand_mut(sub).unwrap().render_long_help();
        let help = help.to_string();
        for game in &games {
            assert!(
                help.contains(&format!("`{game}`")),
                "{sub} --help lacks {game}:\n{help}"
            );
            // What the help names, a tournament deals.
            assert!(deal_of(game, &Deal::Referee(Size::Teaching), 1).is_ok());
        }
        assert!(!help.contains("`free`"), "{help}");
    }
}

/// The chart's PNG: its size, a bar in a strategy's colour, and the
/// caption's text drawn (dark pixels in the caption's band, which holds
/// no bar or line).
fn chart_png_is_drawn(png: &std::path::Path) {
    let pixmap = resvg::tiny_skia::Pixmap::decode_png(&std::fs::read(png).unwrap()).unwrap();
    assert_eq!((pixmap.width(), pixmap.height()), (900, 520));
    let at = |x: u32, y: u32| {
        let p = pixmap.pixel(x, y).unwrap();
        (p.red(), p.green(), p.blue())
    };
    let colours = [(31, 119, 180), (255, 127, 14), (44, 160, 44)];
    let bars = (0..900)
        .flat_map(|x| (40..480).map(move |y| (x, y)))
        .filter(|&(x, y)| colours.contains(&at(x, y)))
        .count();
    assert!(bars > 1000, "{bars} pixels of bars");
    let caption = (0..900)
        .flat_map(|x| (0..32).map(move |y| (x, y)))
        .filter(|&(x, y)| {
            let (r, g, b) = at(x, y);
            r < 100 && g < 100 && b < 100
        })
        .count();
    assert!(caption > 200, "{caption} dark pixels of caption text");
}
