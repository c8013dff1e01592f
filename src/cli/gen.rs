//! `dealer gen PROBLEM N`: writes the classic DEL benchmarks as scenarios,
//! the same problems SMCDEL's benchmarks check, so that the two can be
//! timed side by side at any size (`dealer gen muddy 500 > m.deal`).
//!
//! - `muddy N`: N children, all muddy; the father's announcement, then
//!   N-1 rounds of "nobody knows", after which every child knows.
//! - `muddy-vars N`: the same with a 0..1 variable per child that every
//!   other child observes: SMCDEL's own encoding, one BDD variable a child
//!   (the forehead piles of `muddy` need two, one per kind of card).
//! - `dc N`: dining cryptographers on a ring of N; each announces the
//!   parity of its pay pile and its two coins; everybody then knows
//!   whether the NSA paid, and nobody but the payer knows who paid.
//! - `russian`: Russian cards (3, 3, 1 cards), every one of SMCDEL's 1,290
//!   candidate announcements of Anne checked by one query each.

use std::fmt::Write;

use clap::{Args, ValueEnum};
use num_bigint::BigUint;

/// The arguments of `dealer gen`.
#[derive(Args, Debug)]
pub struct GenArgs {
    /// The problem.
    #[arg(value_enum)]
    pub problem: Problem,
    /// Its size: children or cryptographers (ignored for `russian`).
    #[arg(default_value_t = 10)]
    pub n: usize,
    /// For `dc`: who paid (0: the NSA).
    #[arg(long, default_value_t = 1)]
    pub payer: usize,
}

/// The problems `dealer gen` writes.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Problem {
    /// Muddy children, all muddy.
    Muddy,
    /// Muddy children, all muddy, as variables (one 0..1 variable a child).
    MuddyVars,
    /// Dining cryptographers on a ring.
    Dc,
    /// Russian cards, all candidate announcements.
    Russian,
}

/// Prints the scenario; returns the exit code.
pub fn run(args: &GenArgs) -> u8 {
    let most = crate::interp::MAX_PLAYERS;
    if args.problem != Problem::Russian && args.n > most {
        eprintln!("error: {} has at most {most} players", args.n);
        return 2;
    }
    let text = match args.problem {
        Problem::Muddy if args.n >= 1 => muddy(args.n),
        Problem::MuddyVars if args.n >= 1 => muddy_vars(args.n),
        Problem::Dc if args.n >= 3 && args.payer <= args.n => dc(args.n, args.payer),
        Problem::Russian => russian(),
        _ => {
            eprintln!("error: muddy needs n >= 1, dc needs n >= 3 and a payer from 0 to n");
            return 2;
        }
    };
    print!("{text}");
    0
}

/// `players 1 2 ... n`
fn players(n: usize) -> String {
    let names: Vec<String> = (1..=n).map(|i| i.to_string()).collect();
    format!("players {}\n", names.join(" "))
}

/// 2^n as a decimal number.
fn pow2(n: usize) -> BigUint {
    BigUint::from(1u32) << n
}

/// Muddy children with `n` children, all muddy.
pub fn muddy(n: usize) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "# Benchmark: muddy children, n = {n}, all muddy (2^{n} worlds)."
    );
    o.push_str("# Written by `dealer gen muddy`: one forehead pile per child, seen by\n");
    o.push_str("# every other child; the father's announcement, then rounds of\n");
    o.push_str("# \"nobody knows\" until every child knows.\n\n");
    o.push_str(&players(n));
    let _ = writeln!(o, "deck M*{n} C*{n}");
    for i in 1..=n {
        let others: Vec<String> = (1..=n).filter(|&j| j != i).map(|j| j.to_string()).collect();
        let _ = writeln!(o, "pile forehead{i} seen-by {}", others.join(" "));
    }
    let deal: Vec<String> = (1..=n).map(|i| format!("forehead{i}: M")).collect();
    let _ = writeln!(o, "deal {}\n", deal.join(" | "));
    rounds(&mut o, n, &|i| format!("forehead{i}(M)"), &|i| {
        format!("Kw{i} forehead{i}(M)")
    });
    o
}

/// Muddy children with `n` children, all muddy, each child's state a
/// variable `m_i` in 0..1 that the others observe.
pub fn muddy_vars(n: usize) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "# Benchmark: muddy children, n = {n}, all muddy (2^{n} worlds), as variables."
    );
    o.push_str("# Written by `dealer gen muddy-vars`: child i is muddy when m_i = 1, which\n");
    o.push_str("# every other child observes; the father's announcement, then rounds of\n");
    o.push_str("# \"nobody knows\" until every child knows.\n\n");
    o.push_str(&players(n));
    let all = |f: &dyn Fn(usize) -> String| (1..=n).map(f).collect::<Vec<_>>().join(", ");
    let _ = writeln!(o, "var {} in 0..1", all(&|i| format!("m{i}")));
    let _ = writeln!(o, "actual {}", all(&|i| format!("m{i} = 1")));
    for i in 1..=n {
        let others: Vec<String> = (1..=n)
            .filter(|&j| j != i)
            .map(|j| format!("m{j}"))
            .collect();
        let _ = writeln!(o, "{i} observes {}", others.join(", "));
    }
    o.push('\n');
    rounds(&mut o, n, &|i| format!("(m{i} = 1)"), &|i| {
        format!("Kv_{i} m{i}")
    });
    o
}

/// The puzzle once the table is set, for both encodings: the father's
/// announcement, `n - 1` rounds of "nobody knows", then every child knows
/// and one world is left. `muddy(i)` says child i is muddy; `knows_whether(i)`
/// that child i knows whether it is.
fn rounds(
    o: &mut String,
    n: usize,
    muddy: &dyn Fn(usize) -> String,
    knows_whether: &dyn Fn(usize) -> String,
) {
    let join =
        |f: &dyn Fn(usize) -> String, sep: &str| (1..=n).map(f).collect::<Vec<_>>().join(sep);
    let _ = writeln!(o, "expect worlds = {}", pow2(n));
    let _ = writeln!(
        o,
        "let nobody = {}",
        join(&|i| format!("!{}", knows_whether(i)), " & ")
    );
    let _ = writeln!(
        o,
        "let everyone = {}",
        join(&|i| format!("K{i} {}", muddy(i)), " & ")
    );
    let _ = writeln!(o, "announce {}", join(muddy, " | "));
    let _ = writeln!(o, "expect worlds = {}", pow2(n) - 1u32);
    for r in 1..n {
        let _ = writeln!(o, "announce nobody          # round {r}");
    }
    o.push_str("expect everyone\nexpect worlds = 1\n");
}

/// Dining cryptographers on a ring of `n`; `payer` paid (0: the NSA).
pub fn dc(n: usize, payer: usize) -> String {
    let left = |i: usize| if i == 1 { n } else { i - 1 };
    let heads = |i: usize| i % 2 == 1;
    let mut o = String::new();
    let _ = writeln!(
        o,
        "# Benchmark: dining cryptographers on a ring of {n}; payer {payer} (0: the NSA)."
    );
    o.push_str("# Written by `dealer gen dc`: pay pile i holds P (i paid) or N; coin i,\n");
    o.push_str("# between i and i+1, holds H or T; the P card in the stock means the NSA\n");
    o.push_str("# paid. Each announces the parity of its pay pile and its two coins.\n\n");
    o.push_str(&players(n));
    let _ = writeln!(o, "deck P*1 N*{n} H*{n} T*{n}");
    for i in 1..=n {
        let _ = writeln!(o, "pile pay{i} seen-by {i} holds P N");
        let _ = writeln!(o, "pile coin{i} seen-by {i} {} holds H T", i % n + 1);
    }
    let pays = (1..=n).map(|i| format!("pay{i}: {}", if i == payer { "P" } else { "N" }));
    let coins = (1..=n).map(|i| format!("coin{i}: {}", if heads(i) { "H" } else { "T" }));
    let deal: Vec<String> = pays.chain(coins).collect();
    let _ = writeln!(o, "deal {}\n", deal.join(" | "));
    let _ = writeln!(o, "expect worlds = {}", pow2(n) * (n + 1));
    for i in 1..=n {
        let odd = (i == payer) ^ heads(left(i)) ^ heads(i);
        let parity = format!("(pay{i}(P) <-> coin{}(H) <-> coin{i}(H))", left(i));
        let _ = writeln!(o, "announce {}{parity}", if odd { "" } else { "!" });
    }
    let kw: Vec<String> = (1..=n).map(|i| format!("Kw{i} stock(P)")).collect();
    let _ = writeln!(o, "let nsaKw = {}", kw.join(" & "));
    let who: Vec<String> = (1..=n)
        .map(|i| {
            let others: Vec<String> = (1..=n)
                .filter(|&k| k != i)
                .map(|k| format!("!K{k} pay{i}(P)"))
                .collect();
            format!("(pay{i}(P) -> ({}))", others.join(" & "))
        })
        .collect();
    let _ = writeln!(o, "let nobodyKnowsWho = {}", who.join(" & "));
    o.push_str("expect nsaKw\nexpect nobodyKnowsWho\n");
    o
}

/// Anne's hands of three of the cards 0..6, in lexicographic order.
fn hands() -> Vec<[u8; 3]> {
    let mut out = Vec::new();
    for x in 0..7 {
        for y in x + 1..7 {
            for z in y + 1..7 {
                out.push([x, y, z]);
            }
        }
    }
    out
}

/// SMCDEL's `pickHandsNoCrossing`: lists of `n` hands, each later one
/// greater than the earlier and sharing at most one card with each.
fn pick(unused: &[[u8; 3]], n: usize, out: &mut Vec<Vec<[u8; 3]>>, prefix: &mut Vec<[u8; 3]>) {
    if n == 0 {
        out.push(prefix.clone());
        return;
    }
    for &h in unused {
        let next: Vec<[u8; 3]> = unused
            .iter()
            .copied()
            .filter(|x| h < *x && x.iter().filter(|c| h.contains(c)).count() < 2)
            .collect();
        prefix.push(h);
        pick(&next, n - 1, out, prefix);
        prefix.pop();
    }
}

/// SMCDEL's `allHandLists`: the candidate announcements of 5, 6 and 7 hands.
pub fn hand_lists() -> Vec<Vec<[u8; 3]>> {
    let mut out = Vec::new();
    for n in 5..=7 {
        pick(&hands(), n, &mut out, &mut Vec::new());
    }
    out
}

/// Russian cards with one query per candidate announcement (SMCDEL's `checkSet`).
pub fn russian() -> String {
    let mut o = String::new();
    o.push_str("# Benchmark: Russian cards, every candidate announcement of Anne\n");
    o.push_str("# (SMCDEL's allHandLists) checked by one query (SMCDEL's checkSet).\n");
    o.push_str("# Written by `dealer gen russian`.\n\n");
    o.push_str("players Anne Bill Cath\ndeck 0..6\ndeal Anne: 0 1 2 | Bill: 3 4 5 | Cath: 6\n");
    o.push_str("expect worlds = 140\n");
    let all = |f: &dyn Fn(usize) -> String| (0..7).map(f).collect::<Vec<_>>().join(" & ");
    let _ = writeln!(
        o,
        "let bKnowsAs = {}",
        all(&|k| format!("Kw_Bill hand_Anne({k})"))
    );
    let _ = writeln!(
        o,
        "let aKnowsBs = {}",
        all(&|k| format!("Kw_Anne hand_Bill({k})"))
    );
    let _ = writeln!(
        o,
        "let cIgnorant = {}",
        all(&|i| format!("!K_Cath hand_Anne({i}) & !K_Cath hand_Bill({i})"))
    );
    o.push_str("let bobSays = K_Bill hand_Cath(6)\n");
    for list in hand_lists() {
        let options: Vec<String> = list
            .iter()
            .map(|h| {
                format!(
                    "(hand_Anne({}) & hand_Anne({}) & hand_Anne({}))",
                    h[0], h[1], h[2]
                )
            })
            .collect();
        let a = format!("K_Anne ({})", options.join(" | "));
        let checks = [
            a.clone(),
            format!("[!{a}] bKnowsAs"),
            format!("[!{a}] C{{Anne,Bill}} bKnowsAs"),
            format!("[!{a}] C cIgnorant"),
            format!("[!{a}] [!bobSays] C{{Anne,Bill}} (aKnowsBs & bKnowsAs)"),
            format!("[!{a}] [!bobSays] C cIgnorant"),
        ];
        let parts: Vec<String> = checks.iter().map(|c| format!("({c})")).collect();
        let _ = writeln!(o, "? {}", parts.join(" & "));
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smcdel_has_1290_candidates() {
        let lists = hand_lists();
        assert_eq!(lists.len(), 1290);
        assert_eq!(
            lists[0],
            vec![[0, 1, 2], [0, 3, 4], [0, 5, 6], [1, 3, 5], [1, 4, 6]]
        );
        for l in &lists {
            for (i, a) in l.iter().enumerate() {
                for b in &l[i + 1..] {
                    assert!(a < b && a.iter().filter(|c| b.contains(c)).count() < 2);
                }
            }
        }
    }

    #[test]
    fn sizes_and_counts() {
        let m = muddy(130);
        assert!(m.contains(&format!("expect worlds = {}", BigUint::from(1u32) << 130)));
        assert_eq!(m.matches("announce nobody").count(), 129);
        let d = dc(4, 2);
        assert!(d.contains("expect worlds = 80"));
        assert!(d.contains("pile coin4 seen-by 4 1 holds H T"));
    }
}
