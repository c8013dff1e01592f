//! Random strategy files and quiz answers for the command-line fuzzer:
//! shipped strategies mutated (truncated, snippets inserted, lines
//! deleted or repeated, characters of other scripts, huge quantifiers) or
//! random text, written to a `.strat` file and given to `check`, `play
//! --agents` and `tournament --strategies` (one game, small decks); and
//! random answer lines (words, numbers, formulas for spreadsheets, bytes
//! that are not UTF-8) fed to `quiz` on small scenarios, one of which
//! fails after its first questions. Kept apart from `cli_args.rs` (flags).

use std::path::Path;

use rand::seq::IndexedRandom;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

/// A command line, and the quiz's answers when it is `quiz`.
pub struct Case {
    /// The arguments, without the program's name.
    pub args: Vec<String>,
    /// The answers for standard input (`quiz` only).
    pub input: Option<Vec<u8>>,
}

const SNIPPETS: &[&str] = &[
    "∧",
    "¬",
    "→",
    "é",
    "😀",
    "\u{0301}",
    " when ",
    " prefer ",
    " when false",
    "glimpse me s",
    "rule x: ",
    "rule y chance 1/0: ",
    "rule z chance 7/3: any",
    "any(y in 1..100000000: ",
    "all(y in players: ",
    "any(y in others: K_y ",
    "any(y in -9223372036854775808..9223372036854775807: p)",
    "hand_2(Q)",
    "y.3(0..1)",
    "known ",
    "known hand_x(r)",
    "[K_me hand_me(r)]",
    " + 2*points(c)",
    " - strength(",
    "rank(",
    "suit(c)",
    "is(c, *S)",
    "eq(x, ",
    "(",
    ")",
    "[",
    "]",
    "{",
    "<3,w>",
    "0..t",
    ":",
    "\\\n",
    "\n",
    "# ",
    "#",
    "strategy s for gofish\n",
    "strategy s for free\n",
    "strategy s for cabo\n",
    " me ",
    " _ ",
    "Kw_me ",
    "E{others} ",
];

/// A shipped strategy's text, mutated a few times, or random text.
fn strategy_text(rng: &mut ChaCha8Rng) -> String {
    let built = dealer::strategy::BUILT_IN;
    let (_, src) = built.choose(rng).expect("shipped strategies");
    // Without its comments, most mutations land in the rules.
    let mut text: String = src
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    if rng.random_range(0..10) == 0 {
        text = (0..rng.random_range(0..200))
            .map(|_| *SNIPPETS.choose(rng).expect("snippets"))
            .collect();
    }
    for _ in 0..rng.random_range(0..4) {
        let at = boundary(&text, rng.random_range(0..=text.len()));
        match rng.random_range(0..6) {
            0 => text.truncate(at),
            1 | 2 => text.insert_str(at, SNIPPETS.choose(rng).expect("snippets")),
            3 => {
                let end = boundary(&text, rng.random_range(at..=text.len()));
                text.replace_range(at..end, "");
            }
            4 => {
                let lines: Vec<&str> = text.lines().collect();
                if let Some(l) = lines.choose(rng) {
                    let l = l.to_string();
                    text.push_str(&l.repeat(rng.random_range(1..4)));
                }
            }
            _ => {
                let c = char::from(rng.random_range(b' '..=b'~'));
                text.insert(at, c);
            }
        }
    }
    text
}

/// The char boundary at or before `i`.
fn boundary(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

const QUIZ: &str = "\
game gofish
players 1 2 3
deck Q*4 A*4
deal 1: Q Q | 2: A Q | 3: A A
question K1 !2_Q
question C hand1 = 2
question who knows !1_A
ask 1 2 Q
question considers 1
question who knows 2_A
";

const QUIZ_FAILS: &str = "\
game gofish
players 1 2 3
deck Q*4 A*4
deal 1: Q Q | 2: A Q | 3: A A
question K1 !2_Q
announce hand1(A)
question Kw2 3_AA
";

const ANSWERS: &[&str] = &[
    "y",
    "n",
    "yes",
    "no",
    "Y",
    "0",
    "1",
    "2",
    "3",
    "-1",
    "=1+1",
    "+3",
    "@x",
    "1 2",
    "1,2",
    "2 3",
    "nobody",
    "everyone",
    "",
    " ",
    "maybe",
    "18446744073709551616",
    "¬",
    "\"",
    "\r",
];

fn answers(rng: &mut ChaCha8Rng) -> Vec<u8> {
    let mut out = Vec::new();
    for _ in 0..rng.random_range(0..8) {
        match rng.random_range(0..10) {
            0 => out.extend([0xff, 0xfe]),
            1 => out.extend((0..rng.random_range(0..20)).map(|_| rng.random_range(0..=255u8))),
            _ => out.extend(ANSWERS.choose(rng).expect("answers").as_bytes()),
        }
        if rng.random_range(0..10) > 0 {
            out.push(b'\n');
        }
    }
    out
}

/// One random case: a strategy file given to `check`, `play` or
/// `tournament`, or a quiz with random answers. `dir` is a scratch folder.
pub fn random_case(rng: &mut ChaCha8Rng, dir: &Path) -> Case {
    let d = dir.display();
    if rng.random_range(0..3) == 0 {
        let file = if rng.random_bool(0.5) {
            "quiz"
        } else {
            "quiz-fails"
        };
        let path = format!("{d}/{file}.deal");
        if !Path::new(&path).exists() {
            let text = if file == "quiz" { QUIZ } else { QUIZ_FAILS };
            std::fs::write(&path, text).expect("a scratch scenario");
        }
        let mut args = vec!["quiz".to_string(), path];
        if rng.random_bool(0.3) {
            args.push("--json".into());
        }
        if rng.random_bool(0.5) {
            let out = match rng.random_range(0..4) {
                0 => format!("{d}/no/such/folder/sheet.csv"),
                1 => d.to_string(),
                _ => format!("{d}/sheet.csv"),
            };
            args.extend(["--out".to_string(), out]);
        }
        if rng.random_bool(0.2) {
            args.extend(["--generate".into(), rng.random_range(0..4).to_string()]);
            args.extend(["--level".into(), rng.random_range(0..5).to_string()]);
        }
        return Case {
            args,
            input: Some(answers(rng)),
        };
    }
    let text = strategy_text(rng);
    let game = text
        .split_whitespace()
        .skip_while(|w| *w != "for")
        .nth(1)
        .unwrap_or("gofish")
        .to_string();
    let path = format!("{d}/fuzz.strat");
    let _ = std::fs::remove_dir_all(format!("{d}/tournament"));
    std::fs::write(&path, &text).expect("a scratch strategy");
    // A glimpse makes its player psychic, and a game with a psychic takes
    // tens of seconds (belief events): such files are only checked (the
    // trial leaves glimpse rules out).
    let psychic = text.contains("glimpse");
    let args: Vec<String> = match rng.random_range(0..4) {
        _ if psychic => vec!["check".into(), path],
        0 | 1 => vec!["check".into(), path],
        2 => vec![
            "play".into(),
            game,
            "--agents".into(),
            path,
            "--size".into(),
            "small".into(),
            "--max-moves".into(),
            "60".into(),
        ],
        _ => vec![
            "tournament".into(),
            game,
            "--strategies".into(),
            // Every game seats at least two and at most four: four seats
            // of the fuzzed strategy are played by all.
            format!("{path},{path},{path},{path}"),
            "--games".into(),
            "1".into(),
            "--size".into(),
            "small".into(),
            "--max-moves".into(),
            "60".into(),
            "--out".into(),
            format!("{d}/tournament"),
        ],
    };
    Case { args, input: None }
}
