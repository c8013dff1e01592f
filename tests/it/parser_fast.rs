//! The hand-written fast path of the parser against the grammar: wherever
//! the fast path reads a statement, the grammar must read the same statement
//! (spans included); where it gives up, the grammar decides (and gives the
//! errors). Checked on every scenario of the project, on the Russian-cards
//! benchmark, and on random statements, well-formed and mangled.

use std::path::Path;

use dealer::syntax::ast::{MoveKind, StatementKind};
use dealer::syntax::{both_parsers, parse, parse_with_grammar};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Checks every statement of `src`; returns how many the fast path read.
fn check(src: &str, what: &str) -> usize {
    let mut fast = 0;
    for (quick, grammar) in both_parsers(src) {
        if let Some(statement) = quick {
            fast += 1;
            assert_eq!(
                Ok(&statement),
                grammar.as_ref(),
                "{what}: the fast path and the grammar differ"
            );
        }
    }
    // The whole scenario: the same statements or the same errors.
    assert_eq!(parse(src), parse_with_grammar(src), "{what}");
    fast
}

fn deal_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        if name == "target" || name.to_string_lossy().starts_with('.') {
            continue;
        }
        if path.is_dir() {
            deal_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "deal") {
            out.push(path);
        }
    }
}

#[test]
fn every_scenario_of_the_project_reads_the_same() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    deal_files(root, &mut files);
    assert!(files.len() > 30, "{} scenarios", files.len());
    let (mut fast, mut all) = (0, 0);
    for file in &files {
        let src = std::fs::read_to_string(file).unwrap();
        fast += check(&src, &file.display().to_string());
        all += both_parsers(&src).len();
    }
    // Most queries and expectations of the project take the fast path.
    assert!(fast * 5 > all, "{fast} of {all} statements");
}

#[test]
fn the_russian_cards_benchmark_is_read_by_the_fast_path() {
    let src = dealer::cli::gen::russian();
    let fast = check(&src, "russian cards");
    // The four `let`s and the 1,290 queries; not the deal.
    assert_eq!(fast, 4 + 1290);
}

/// A random formula: mostly of the forms the fast path reads, some of the
/// forms it leaves to the grammar, with random blanks.
fn formula(rng: &mut ChaCha8Rng, depth: u32, only_fast: bool) -> String {
    let sp = |rng: &mut ChaCha8Rng| [" ", "", "  ", "\t"][rng.random_range(0..4)].to_string();
    if depth == 0 || rng.random_range(0..5) == 0 {
        let atoms: &[&str] = &[
            "p",
            "q_2",
            "hand1(Q)",
            "hand_Anne( 6 )",
            "hand2(*)",
            "2_AA",
            "1_Q",
            "true",
            "false",
            "Cath",
            "nota",
            "andy",
            "x1",
        ];
        let other: &[&str] = &[
            "hand1(Q) >= 2",
            "x + 1 < 3",
            "hand2 = 3",
            "Kv1 1.1",
            "#hand1(Q) > 0",
            "hand[Bruno](Q)",
            "H4<8,4>",
            "f(a, b)",
            "1.1",
            "p.q",
            "¬p",
            "Kate",
            "K p",
            "y < x",
            "3",
        ];
        return if !only_fast && rng.random_range(0..6) == 0 {
            other[rng.random_range(0..other.len())].to_string()
        } else {
            atoms[rng.random_range(0..atoms.len())].to_string()
        };
    }
    let a = formula(rng, depth - 1, only_fast);
    let choice = rng.random_range(0..(if only_fast { 15 } else { 19 }));
    match choice {
        0 => format!("!{}{a}", sp(rng)),
        1 => format!("~{a}"),
        2 => format!("not {a}"),
        3 => format!("K1{}{a}", [" ", "\t"][rng.random_range(0..2)]),
        4 => format!("M_Bill {a}"),
        5 => format!("Kw_Anne {a}"),
        6 => format!("B2 {a}"),
        7 => format!("C{{Anne,{}Bill}} {a}", sp(rng)),
        8 => format!("E {a}"),
        9 => format!("D{{1 2}}{}({a})", sp(rng)),
        10 => {
            let b = formula(rng, depth - 1, only_fast);
            format!("[{}!{b}{}]{}{a}", sp(rng), sp(rng), sp(rng))
        }
        11 | 12 => {
            let b = formula(rng, depth - 1, only_fast);
            let op = ["&", "|", "->", "<->", "and", "or"][rng.random_range(0..6)];
            let (l, r) = if op.as_bytes()[0].is_ascii_alphabetic() {
                (" ", " ")
            } else {
                ("", "")
            };
            let (l, r) = (format!("{l}{}", sp(rng)), format!("{r}{}", sp(rng)));
            format!("{a}{l}{op}{r}{b}")
        }
        13 | 14 => format!("({}{a}{})", sp(rng), sp(rng)),
        15 => format!("<!{a}> p"),
        16 => format!("all x in 0..2: {a}"),
        17 => format!("[ask 1 2 Q] {a}"),
        _ => format!("Kv_Anne {a}"),
    }
}

/// A statement around a formula.
fn statement(rng: &mut ChaCha8Rng, f: &str, only_fast: bool) -> String {
    let heads = ["? ", "?", "?? ", "expect ", "why ", "let z = ", "announce "];
    let others = [
        "why {f} for 6S",
        "expect worlds where {f}",
        "let f(a) = {f}",
        "law {f}",
    ];
    if !only_fast && rng.random_range(0..8) == 0 {
        others[rng.random_range(0..others.len())].replace("{f}", f)
    } else {
        format!("  {}{f}  ", heads[rng.random_range(0..heads.len())])
    }
}

/// The fast path reads every well-formed statement of its forms, the same
/// as the grammar.
#[test]
fn random_statements_of_the_fast_forms_read_the_same() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for i in 0..3000 {
        let f = formula(&mut rng, 1 + i % 6, true);
        let src = statement(&mut rng, &f, true);
        let both = both_parsers(&src);
        assert_eq!(both.len(), 1, "{src}");
        let (quick, grammar) = &both[0];
        assert!(grammar.is_ok(), "{src}: {grammar:?}");
        assert_eq!(quick.as_ref(), grammar.as_ref().ok(), "{src}");
    }
}

/// On any statement, well-formed or mangled (a character dropped, doubled
/// or changed), the fast path either gives up or agrees with the grammar.
#[test]
fn random_and_mangled_statements_never_disagree() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let noise = [
        '(', ')', '[', ']', '<', '>', '=', '!', '&', '|', ' ', '1', 'K', '_', ',', '{',
    ];
    let (mut fast, mut total) = (0, 0);
    for i in 0..6000 {
        let f = formula(&mut rng, 1 + i % 5, false);
        let mut src = statement(&mut rng, &f, false);
        if i % 2 == 1 && !src.is_empty() {
            let mut chars: Vec<char> = src.chars().collect();
            let at = rng.random_range(0..chars.len());
            match rng.random_range(0..3) {
                0 => {
                    chars.remove(at);
                }
                1 => chars.insert(at, chars[at]),
                _ => chars[at] = noise[rng.random_range(0..noise.len())],
            }
            src = chars.into_iter().collect();
        }
        for (quick, grammar) in both_parsers(&src) {
            total += 1;
            if let Some(statement) = quick {
                fast += 1;
                assert_eq!(Ok(&statement), grammar.as_ref(), "{src}");
            }
        }
    }
    // Not vacuous: a good part of them took the fast path.
    assert!(fast * 4 > total, "{fast} of {total}");
}

/// A game's move, `WORD ARG...`: the fast path reads the plain ones
/// (`pick 2 6H`, `place 1 1.2`, `newtable`) as the grammar does, gives up
/// on the rest (a language word, `observes`, a bracketed or starred
/// argument, a character outside ASCII), and never disagrees, mangled or
/// not.
#[test]
fn random_game_moves_read_the_same() {
    let mut rng = ChaCha8Rng::seed_from_u64(43);
    let words = [
        "pick", "play", "place", "newtable", "guess", "_x", "K1", "draw", "deal", "expect",
        "observes", "shw", "take2", "peek", "ask",
    ];
    let args = [
        "1",
        "Bruno",
        "6H",
        "1.2",
        "T21",
        "hand[Bruno]",
        "<8,4>",
        "*S",
        "observes",
        "K1",
        "x_y",
        "10",
        "é",
        "2.x",
        "a.b.c",
        "(",
        "->",
    ];
    let (mut fast, mut moves) = (0, 0);
    for i in 0..4000 {
        let mut src = words[rng.random_range(0..words.len())].to_string();
        for _ in 0..rng.random_range(0..4) {
            src.push_str(if rng.random_range(0..4) == 0 {
                "  "
            } else {
                " "
            });
            src.push_str(args[rng.random_range(0..args.len())]);
        }
        if i % 3 == 2 {
            let mut chars: Vec<char> = src.chars().collect();
            let at = rng.random_range(0..chars.len());
            chars.insert(at, [' ', '.', '1', 'a', '['][rng.random_range(0..5)]);
            src = chars.into_iter().collect();
        }
        for (quick, grammar) in both_parsers(&src) {
            if let Ok(s) = &grammar {
                if let StatementKind::Move(m) = &s.kind {
                    if matches!(m.kind, MoveKind::Game { .. }) {
                        moves += 1;
                    }
                }
            }
            if let Some(statement) = quick {
                fast += 1;
                assert_eq!(Ok(&statement), grammar.as_ref(), "{src}");
            }
        }
    }
    // Not vacuous: many game moves, most of them read by the fast path.
    assert!(
        moves > 1000 && fast * 2 > moves,
        "{fast} fast of {moves} moves"
    );
}
