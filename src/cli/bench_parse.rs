//! `dealer bench --parse [FILES...]`: times parsing alone, without
//! replaying, and prints the throughput of the grammar alone beside the
//! parser as dealer runs it (the hand-written fast path for the common
//! statements, and long scenarios on every core).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::syntax::{both_parsers, parse, parse_with_grammar};

/// Parses each file `runs` times both ways and prints a row per file;
/// exit status 1 if the two ways read a file differently, 2 if a file
/// cannot be read.
pub fn run(files: &[PathBuf], runs: usize) -> u8 {
    println!(
        "{:<34} {:>9} {:>10} {:>9} {:>12} {:>12} {:>8}",
        "scenario", "size", "statements", "fast path", "grammar", "dealer", "speed-up"
    );
    let mut status = 0;
    for file in files {
        let src = match std::fs::read_to_string(file) {
            Ok(src) => src,
            Err(e) => {
                eprintln!("error: cannot read {}: {e}", file.display());
                return 2;
            }
        };
        let both = both_parsers(&src);
        let fast = both.iter().filter(|(quick, _)| quick.is_some()).count();
        let grammar = median(runs, || parse_with_grammar(&src));
        let dealer = median(runs, || parse(&src));
        if parse(&src) != parse_with_grammar(&src) {
            eprintln!(
                "error: {}: the fast path and the grammar differ",
                file.display()
            );
            status = 1;
        }
        let mb = src.len() as f64 / 1e6;
        let rate = |d: Duration| format!("{:.1} MB/s", mb / d.as_secs_f64().max(1e-9));
        println!(
            "{:<34} {:>8.2}M {:>10} {:>8.0}% {:>12} {:>12} {:>7.1}×",
            file.display().to_string(),
            mb,
            both.len(),
            100.0 * fast as f64 / both.len().max(1) as f64,
            rate(grammar),
            rate(dealer),
            grammar.as_secs_f64() / dealer.as_secs_f64().max(1e-9),
        );
    }
    status
}

/// The median time of `runs` calls of `f` (what it returns is dropped
/// after the clock stops).
fn median<T>(runs: usize, mut f: impl FnMut() -> T) -> Duration {
    let mut times: Vec<Duration> = (0..runs.max(1))
        .map(|_| {
            let t = Instant::now();
            let made = f();
            let took = t.elapsed();
            drop(made);
            took
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}
