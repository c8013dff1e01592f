//! Random command lines for the command-line fuzzer: the flags a new user
//! types (`--deck`, `--hand`, `--games`, `--seed`, `--strategies`,
//! `--agents`, `--size`, `--shard`, `--max-moves`, `--threads`, paths),
//! each drawn from good values, values just outside the range, words,
//! negative and huge numbers and random text. Every value that would
//! start real work is small (a game or two, a small or teaching deck), so
//! that a run ends in well under a second. Used by `tests/it/bad_input.rs`
//! (a few hundred runs of the binary) and `examples/cli_fuzz.rs` (as many
//! as asked, in-process).

use std::path::Path;

use rand::seq::IndexedRandom;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

const GAMES: &[&str] = &[
    "gofish",
    "kwartet",
    "kemps",
    "konigrufen",
    "cabo",
    "free",
    "nosuch",
    "",
    "GoFish",
];
const NAMES: &[&str] = &[
    "random",
    "most-cards",
    "first-order",
    "second-order",
    "greedy",
    "silent",
    "report",
    "regular",
    "nope",
    "",
    "x.strat",
    "../strategies/gofish-random.strat",
];
const DECKS: &[&str] = &[
    "Q*4 A*4",
    "deck Q*4 A*4 K*4",
    "",
    "Q*x",
    "Q*0 A*4",
    "garbage |",
    "players 1 2",
    "sets 1..2 of",
    "sets 1..3 of 4",
    "ranks A K Q suits S H",
    "0..100000000",
    "Q*4000000000",
    "<8, 4>",
    "tarock",
    "deck",
    "Q*4 Q*4",
    "((((",
    "\u{7f}",
    "é*3 ü*3",
];
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "-1",
    "-0",
    "+2",
    "x",
    "",
    "1e3",
    "2.5",
    " 1",
    "99",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999",
];

fn pick<'a>(rng: &mut ChaCha8Rng, from: &[&'a str]) -> &'a str {
    from.choose(rng).copied().unwrap_or("")
}

/// A number: one of [`NUMBERS`], or a random whole number up to `max`.
fn number(rng: &mut ChaCha8Rng, max: u64) -> String {
    if rng.random_range(0..3) == 0 {
        rng.random_range(0..=max).to_string()
    } else {
        pick(rng, NUMBERS).to_string()
    }
}

/// Random printable text, sometimes with a byte of another script.
fn text(rng: &mut ChaCha8Rng) -> String {
    let len = rng.random_range(0..12);
    (0..len)
        .map(|_| match rng.random_range(0..10) {
            0 => '*',
            1 => ' ',
            2 => 'ß',
            _ => char::from(rng.random_range(b'!'..=b'~')),
        })
        .collect()
}

/// A count flag's value that never starts a long run: a small number, or
/// anything the flag should refuse.
fn small_count(rng: &mut ChaCha8Rng) -> String {
    let n = number(rng, 2);
    match n.parse::<u64>() {
        Ok(v) if v > 2 => "2".into(),
        _ => n,
    }
}

fn names(rng: &mut ChaCha8Rng) -> String {
    let n = rng.random_range(0..5);
    (0..n)
        .map(|_| pick(rng, NAMES))
        .collect::<Vec<_>>()
        .join(",")
}

/// A path: in `dir`, missing folders, a folder, a file that exists, or
/// one that cannot be written.
fn path(rng: &mut ChaCha8Rng, dir: &Path) -> String {
    let d = dir.display();
    match rng.random_range(0..7) {
        0 => format!("{d}/out"),
        1 => format!("{d}/no/such/folder/x"),
        2 => format!("{d}"),
        3 => format!("{d}/file"),
        4 => "/proc/dealer-cannot-write-here".into(),
        5 => String::new(),
        _ => format!("{d}/{}", text(rng).replace(['/', '\0'], "_")),
    }
}

fn size(rng: &mut ChaCha8Rng) -> String {
    match rng.random_range(0..6) {
        0..=3 => "small".into(),
        4 => "full".into(),
        _ => text(rng),
    }
}

/// The tournament whose folder the folder cases copy and edit: one run of
/// three strategies, two short games.
const TINY: &str = "tournament gofish --strategies random,most-cards,first-order \
                    --games 2 --seed 5 --size small --max-moves 30";

/// `text` with one random edit: cut at a byte, a byte replaced, a line
/// doubled, dropped or added, a field replaced, or unchanged.
fn edited(rng: &mut ChaCha8Rng, given: &[u8]) -> Vec<u8> {
    let mut out = given.to_vec();
    let len = out.len();
    let mut lines: Vec<Vec<u8>> = given.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
    let line = rng.random_range(0..lines.len().max(1));
    match rng.random_range(0..8) {
        0 => out.truncate(rng.random_range(0..=len)),
        1 if len > 0 => {
            let at = rng.random_range(0..len);
            out[at] = *b",;0123456789-\n x\"{}:\xff".choose(rng).unwrap_or(&b'0');
        }
        2 if !lines.is_empty() => {
            let copy = lines[line].clone();
            lines.insert(line, copy);
            out = lines.join(&b'\n');
        }
        3 if !lines.is_empty() => {
            lines.remove(line);
            out = lines.join(&b'\n');
        }
        4 if !lines.is_empty() => {
            // One field (`,` or `:` separated) of a line replaced.
            let text = String::from_utf8_lossy(&lines[line]).to_string();
            let sep = if text.contains(',') { ',' } else { ':' };
            let mut fields: Vec<String> = text.split(sep).map(str::to_string).collect();
            let f = rng.random_range(0..fields.len());
            fields[f] = if rng.random_bool(0.5) {
                pick(rng, NUMBERS).to_string()
            } else {
                format!("{};{}", number(rng, 9), number(rng, 9))
            };
            lines[line] = fields.join(&sep.to_string()).into_bytes();
            out = lines.join(&b'\n');
        }
        5 => out.extend_from_slice(text(rng).as_bytes()),
        _ => {}
    }
    out
}

/// A tournament folder case: the first makes the tiny tournament's folder
/// (`dir/folder-seed`); each later one copies it to `dir/case-N` with its
/// CSV (and sometimes its manifest) edited at random, and resumes it
/// (sometimes as a shard, sometimes with a setting changed) or merges it
/// with the original.
fn folder_case(rng: &mut ChaCha8Rng, dir: &Path) -> Vec<String> {
    let mut args: Vec<String> = TINY.split_whitespace().map(String::from).collect();
    let seed = dir.join("folder-seed");
    let (Ok(csv), Ok(manifest)) = (
        std::fs::read(seed.join("games.csv")),
        std::fs::read(seed.join("manifest.json")),
    ) else {
        args.extend(["--out".into(), seed.display().to_string()]);
        return args;
    };
    let case = dir.join(format!("case-{}", rng.random_range(0..4)));
    let _ = std::fs::remove_dir_all(&case);
    let _ = std::fs::create_dir_all(&case);
    let sharded = rng.random_bool(0.2);
    let name = if sharded {
        "games-1-of-2.csv"
    } else {
        "games.csv"
    };
    let _ = std::fs::write(case.join(name), edited(rng, &csv));
    let manifest = if rng.random_bool(0.3) {
        edited(rng, &manifest)
    } else {
        manifest
    };
    if rng.random_bool(0.95) {
        let _ = std::fs::write(case.join("manifest.json"), manifest);
    }
    if rng.random_bool(0.4) {
        let out = dir.join(format!("merged-{}", rng.random_range(0..3)));
        return vec![
            "tournament".into(),
            "merge".into(),
            "--out".into(),
            out.display().to_string(),
            case.join(name).display().to_string(),
            seed.join("games.csv").display().to_string(),
        ];
    }
    args.extend(["--out".into(), case.display().to_string()]);
    if sharded {
        args.extend(["--shard".into(), "1/2".into()]);
    }
    if rng.random_bool(0.2) {
        let (flag, value) = [
            ("--seed", "6"),
            ("--games", "1"),
            ("--max-moves", "31"),
            ("--seatings", "all"),
            ("--size", "full"),
        ]
        .choose(rng)
        .copied()
        .unwrap_or(("--seed", "6"));
        let at = args.iter().position(|a| a == flag);
        match at {
            Some(i) => args[i + 1] = value.into(),
            None => args.extend([flag.into(), value.into()]),
        }
    }
    args
}

/// One random command line (without the program's name): `tournament`,
/// `play` or `bench --play` with random flags, a resume or merge of a
/// tournament folder with its files edited at random, or `run`/`check`
/// of a random path. `dir` is a scratch folder (it should hold a file
/// `file`).
pub fn random_args(rng: &mut ChaCha8Rng, dir: &Path) -> Vec<String> {
    let mut args: Vec<String> = Vec::new();
    let flag = |args: &mut Vec<String>, name: &str, value: String| {
        args.push(name.to_string());
        args.push(value);
    };
    if rng.random_bool(0.3) {
        return folder_case(rng, dir);
    }
    match rng.random_range(0..7) {
        0..=2 => {
            args.push("tournament".into());
            args.push(pick(rng, GAMES).into());
            flag(&mut args, "--strategies", names(rng));
            flag(&mut args, "--games", small_count(rng));
            flag(&mut args, "--out", path(rng, dir));
            if rng.random_bool(0.5) {
                let deck = if rng.random_bool(0.8) {
                    pick(rng, DECKS).to_string()
                } else {
                    text(rng)
                };
                flag(&mut args, "--deck", deck);
            }
            if rng.random_bool(0.5) {
                flag(&mut args, "--hand", number(rng, 20));
            }
            if rng.random_bool(0.5) {
                flag(&mut args, "--seed", number(rng, u64::MAX));
            }
            if rng.random_bool(0.7) {
                flag(&mut args, "--size", size(rng));
            }
            if rng.random_bool(0.3) {
                let shard = format!("{}/{}", pick(rng, NUMBERS), pick(rng, NUMBERS));
                flag(&mut args, "--shard", shard);
            }
            if rng.random_bool(0.3) {
                flag(&mut args, "--max-moves", number(rng, 300));
            }
            if rng.random_bool(0.2) {
                args.push("--fixed-seats".into());
            } else if rng.random_bool(0.2) {
                flag(
                    &mut args,
                    "--seatings",
                    pick(rng, &["rotate", "fixed", "all", "every"]).to_string(),
                );
            }
            // Every combination with repetition of four strategies is 20
            // runs: at the report's size, 40 knowledge games (13 s), which
            // is work, not a hang.
            let small = args.windows(2).any(|w| w[0] == "--size" && w[1] == "small");
            if rng.random_bool(0.2) && small {
                args.push("--repeats".into());
            }
        }
        3 | 4 => {
            args.push("play".into());
            args.push(pick(rng, GAMES).into());
            flag(&mut args, "--size", size(rng));
            if rng.random_bool(0.7) {
                flag(&mut args, "--agents", names(rng));
            }
            if rng.random_bool(0.5) {
                flag(&mut args, "--seed", number(rng, u64::MAX));
            }
            if rng.random_bool(0.4) {
                flag(&mut args, "--out", path(rng, dir));
            }
            if rng.random_bool(0.2) {
                flag(&mut args, "--me", number(rng, 5));
            }
        }
        5 => {
            args.push("bench".into());
            flag(&mut args, "--play", pick(rng, GAMES).into());
            flag(&mut args, "--agents", names(rng));
            flag(&mut args, "--games", small_count(rng));
            flag(&mut args, "--size", size(rng));
            if rng.random_bool(0.5) {
                flag(&mut args, "--seed", number(rng, u64::MAX));
            }
            if rng.random_bool(0.5) {
                flag(&mut args, "--threads", number(rng, 4));
            }
            if rng.random_bool(0.3) {
                flag(&mut args, "--max-moves", number(rng, 300));
            }
        }
        _ => {
            args.push(if rng.random_bool(0.5) { "run" } else { "check" }.into());
            args.push(match rng.random_range(0..5) {
                0 => "/dev/null".into(),
                1 => "/proc/self/status".into(),
                2 => dir.display().to_string(),
                _ => path(rng, dir),
            });
            if rng.random_bool(0.3) {
                flag(&mut args, "--max-worlds", number(rng, 1000));
            }
        }
    }
    if rng.random_bool(0.1) {
        flag(&mut args, "--engine", text(rng));
    }
    args
}
