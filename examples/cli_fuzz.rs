//! The command-line fuzzer: dealer's own entry point
//! ([`dealer::cli::main_from`]) called in-process with random flags
//! (`tests/it/common/cli_args.rs`: decks, hands, game counts, seeds,
//! strategies, sizes, shards, paths; tournament folders copied with their
//! CSV and manifest cut or edited, then resumed or merged), or with a
//! random strategy file or quiz answers (`tests/it/common/strat_args.rs`),
//! each run timed and any panic caught. It prints, on standard error, how
//! many runs ended with each
//! exit code, the slowest run, and every run that panicked or took more
//! than 10 s (there must be none), with the strategy file such a run read;
//! it exits 1 if there was one. An abort ends the process, with the run's
//! arguments printed before it.
//!
//! ```text
//! cargo run --release --example cli_fuzz -- [RUNS] [SEED] > /dev/null < /dev/null
//! ```

use std::collections::BTreeMap;
use std::io::Write;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

#[allow(dead_code)]
#[path = "../tests/it/common/cli_args.rs"]
mod cli_args;

#[allow(dead_code)]
#[path = "../tests/it/common/strat_args.rs"]
mod strat_args;

/// One run: every other one (drawn) a strategy file or a quiz's answers
/// (`strat_args`), else random flags (`cli_args`).
fn one_run(rng: &mut ChaCha8Rng, dir: &std::path::Path) -> (Vec<String>, Option<Vec<u8>>) {
    use rand::RngExt;
    if rng.random_bool(0.5) {
        let case = strat_args::random_case(rng, dir);
        (case.args, case.input)
    } else {
        (cli_args::random_args(rng, dir), None)
    }
}

/// The text of the random strategy file a run read, if it read one (the
/// next run writes over it).
fn strategy_read(argv: &[String]) -> String {
    argv.iter()
        .flat_map(|a| a.split(','))
        .find(|a| a.ends_with("fuzz.strat"))
        .and_then(|path| std::fs::read_to_string(path).ok())
        .map(|text| format!("\n  with {text:?}"))
        .unwrap_or_default()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let runs: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let seed: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let dir = std::env::temp_dir().join(format!("dealer-cli-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    std::fs::write(dir.join("file"), b"players 1 2\ndeck \xff Q\n").expect("a scratch file");
    // Default output folders (`tournament-gofish`) go into the scratch folder.
    std::env::set_current_dir(&dir).expect("into the scratch folder");
    std::panic::set_hook(Box::new(|_| {}));
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut codes: BTreeMap<String, u64> = BTreeMap::new();
    let mut bad = Vec::new();
    let mut slowest = (Duration::ZERO, Vec::new());
    let started = Instant::now();
    for i in 0..runs {
        let (argv, input) = one_run(&mut rng, &dir);
        // Written first, so that an abort leaves the run that caused it.
        let _ = writeln!(std::io::stderr(), "run {i}: {argv:?}\x1b[1A");
        let t = Instant::now();
        let result = std::panic::catch_unwind(|| {
            let argv = std::iter::once("dealer".to_string()).chain(argv.clone());
            match input {
                Some(answers) => {
                    dealer::cli::quiz::with_input(answers, || dealer::cli::main_from(argv))
                }
                None => dealer::cli::main_from(argv),
            }
        });
        let took = t.elapsed();
        let code = match result {
            Ok(code) => format!("{code:?}"),
            Err(_) => {
                bad.push(format!(
                    "run {i} panicked: {argv:?}{}",
                    strategy_read(&argv)
                ));
                "panic".into()
            }
        };
        *codes.entry(code).or_default() += 1;
        if took > Duration::from_secs(10) {
            bad.push(format!(
                "run {i} took {took:?}: {argv:?}{}",
                strategy_read(&argv)
            ));
        }
        if took > slowest.0 {
            slowest = (took, argv);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!(
        "\n{runs} runs (seed {seed}) in {:.1} s; exit codes: {codes:?}",
        started.elapsed().as_secs_f64()
    );
    eprintln!("slowest: {:?} {:?}", slowest.0, slowest.1);
    for b in &bad {
        eprintln!("{b}");
    }
    if !bad.is_empty() {
        std::process::exit(1);
    }
}
