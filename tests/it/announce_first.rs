//! A public announcement made first, before any move, that restricts what
//! piles can hold starts the symbolic engine from the restricted deal
//! (`Session::start_restricted`, `deal::implied_only`). These random
//! cases check that nothing else changes: each scenario (a small deal
//! with piles seen by some players, then `announce` of pile rules, perhaps
//! with other conjuncts, then queries, counts, `all` counts, a second
//! announcement or a move) is replayed by the explicit engine, by the
//! symbolic engine as it is (restricted start) and by the symbolic engine
//! with a `? true` first (so the deal itself is built before the
//! announcement); every statement must get the same output from all three,
//! and every `?` the naive reference's answer. A case prints its seed and
//! scenario when it fails.

#[allow(dead_code)] // the reference has more than these tests use
use crate::naive;

use dealer::engine::{EventModel, Formula};
use dealer::interp::{Engine, Output};
use dealer::syntax;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

const KINDS: [&str; 4] = ["A", "B", "C", "D"];

struct Gen(ChaCha8Rng);

impl Gen {
    fn below(&mut self, n: usize) -> usize {
        self.0.random_range(0..n)
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

/// A deal: hands (seen by their owner), the stock, then piles of one or
/// two cards seen by some players.
struct Deal {
    players: usize,
    copies: Vec<u32>,
    /// Who sees each pile.
    piles: Vec<Vec<usize>>,
    /// `alloc[loc][kind]`.
    alloc: Vec<Vec<u32>>,
}

impl Deal {
    fn stock(&self) -> usize {
        self.players
    }
    fn kinds(&self) -> usize {
        self.copies.len()
    }
    fn locs(&self) -> usize {
        self.players + 1 + self.piles.len()
    }
    fn name(&self, l: usize) -> String {
        match l {
            l if l < self.players => format!("hand{}", l + 1),
            l if l == self.players => "stock".into(),
            l => format!("p{}", l - self.players),
        }
    }
    fn observers(&self) -> Vec<Vec<usize>> {
        (0..self.players)
            .map(|a| {
                let mut seen = vec![a];
                for (i, who) in self.piles.iter().enumerate() {
                    if who.contains(&a) {
                        seen.push(self.players + 1 + i);
                    }
                }
                seen
            })
            .collect()
    }
    fn sizes(&self) -> Vec<u32> {
        self.alloc.iter().map(|l| l.iter().sum()).collect()
    }
}

fn random_deal(g: &mut Gen) -> Deal {
    let players = 2 + g.below(2);
    let kinds = 3 + g.below(2);
    let copies: Vec<u32> = (0..kinds).map(|_| 1 + g.below(2) as u32).collect();
    let piles: Vec<Vec<usize>> = (0..1 + g.below(3))
        .map(|_| (0..players).filter(|_| g.chance(50)).collect())
        .collect();
    let locs = players + 1 + piles.len();
    let mut cards: Vec<usize> = (0..kinds)
        .flat_map(|k| std::iter::repeat_n(k, copies[k] as usize))
        .collect();
    for i in (1..cards.len()).rev() {
        let j = g.below(i + 1);
        cards.swap(i, j);
    }
    let mut alloc = vec![vec![0u32; kinds]; locs];
    let mut next = cards.into_iter();
    for (l, row) in alloc.iter_mut().enumerate() {
        let size = match l {
            l if l == players => 0,
            l if l < players => g.below(2),
            _ => 1 + usize::from(g.chance(25)),
        };
        for _ in 0..size {
            if let Some(k) = next.next() {
                row[k] += 1;
            }
        }
    }
    for k in next {
        alloc[players][k] += 1;
    }
    Deal {
        players,
        copies,
        piles,
        alloc,
    }
}

fn deal_text(d: &Deal) -> String {
    let mut s = format!(
        "players {}\ndeck {}\n",
        (1..=d.players)
            .map(|p| p.to_string())
            .collect::<Vec<_>>()
            .join(" "),
        (0..d.kinds())
            .map(|k| format!("{}*{}", KINDS[k], d.copies[k]))
            .collect::<Vec<_>>()
            .join(" ")
    );
    for (i, who) in d.piles.iter().enumerate() {
        let vis = if who.is_empty() {
            "hidden".to_string()
        } else {
            format!(
                "seen-by {}",
                who.iter()
                    .map(|a| (a + 1).to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            )
        };
        s.push_str(&format!("pile p{} {vis}\n", i + 1));
    }
    let parts: Vec<String> = (0..d.locs())
        .filter(|&l| l != d.stock() && d.alloc[l].iter().sum::<u32>() > 0)
        .map(|l| {
            let who = if l < d.players {
                (l + 1).to_string()
            } else {
                d.name(l)
            };
            let cards: Vec<&str> = (0..d.kinds())
                .flat_map(|k| std::iter::repeat_n(KINDS[k], d.alloc[l][k] as usize))
                .collect();
            format!("{who}: {}", cards.join(" "))
        })
        .collect();
    if !parts.is_empty() {
        s.push_str(&format!("deal {}\n", parts.join(" | ")));
    }
    s
}

/// A formula as text and as the engine's formula (for the reference).
type Pair = (String, Formula);

fn atom(g: &mut Gen, d: &Deal) -> Pair {
    let l = g.below(d.locs());
    let k = g.below(d.kinds());
    (format!("{}({})", d.name(l), KINDS[k]), Formula::holds(l, k))
}

fn formula(g: &mut Gen, d: &Deal, depth: usize) -> Pair {
    if depth == 0 || g.chance(25) {
        return atom(g, d);
    }
    let a = 1 + g.below(d.players);
    match g.below(7) {
        0 => {
            let (t, f) = formula(g, d, depth - 1);
            (format!("!({t})"), f.not())
        }
        1 | 2 => {
            let (t1, f1) = formula(g, d, depth - 1);
            let (t2, f2) = formula(g, d, depth - 1);
            if g.chance(50) {
                (format!("(({t1}) & ({t2}))"), Formula::And(vec![f1, f2]))
            } else {
                (format!("(({t1}) | ({t2}))"), Formula::Or(vec![f1, f2]))
            }
        }
        3 => {
            let (t, f) = formula(g, d, depth - 1);
            (format!("K{a} ({t})"), Formula::K(a - 1, Box::new(f)))
        }
        4 => {
            let (t, f) = formula(g, d, depth - 1);
            (format!("M{a} ({t})"), Formula::M(a - 1, Box::new(f)))
        }
        5 => {
            let (t, f) = formula(g, d, depth - 1);
            let all: Vec<usize> = (0..d.players).collect();
            let names = (1..=d.players)
                .map(|p| p.to_string())
                .collect::<Vec<_>>()
                .join(",");
            (format!("C{{{names}}} ({t})"), Formula::C(all, Box::new(f)))
        }
        _ => {
            let (t, f) = formula(g, d, depth - 1);
            (format!("Kw{a} ({t})"), Formula::Kw(a - 1, Box::new(f)))
        }
    }
}

/// The rules of a pile, mostly true at the deal: it holds one of some
/// kinds (a disjunction), or not some kind.
fn pile_rule(g: &mut Gen, d: &Deal, l: usize) -> Pair {
    let name = d.name(l);
    if g.chance(20) {
        let k = g.below(d.kinds());
        return (format!("!{name}({})", KINDS[k]), Formula::holds(l, k).not());
    }
    let mut kinds: Vec<usize> = (0..d.kinds())
        .filter(|&k| d.alloc[l][k] > 0 && g.chance(90))
        .collect();
    for k in 0..d.kinds() {
        if !kinds.contains(&k) && g.chance(30) {
            kinds.push(k);
        }
    }
    if kinds.is_empty() {
        kinds.push(g.below(d.kinds()));
    }
    kinds.sort_unstable();
    let text = kinds
        .iter()
        .map(|&k| format!("{name}({})", KINDS[k]))
        .collect::<Vec<_>>()
        .join(" | ");
    let f = Formula::Or(kinds.iter().map(|&k| Formula::holds(l, k)).collect());
    (format!("({text})"), f)
}

struct Case {
    src: String,
    /// How many statements set the table.
    setup: usize,
    /// The naive reference's answer to each statement that is a `?`.
    answers: Vec<Option<bool>>,
}

fn case(seed: u64) -> Case {
    let mut g = Gen(ChaCha8Rng::seed_from_u64(seed));
    let d = random_deal(&mut g);
    let mut src = deal_text(&d);
    let setup = src.lines().count();
    let mut nm = naive::deal_model(&d.copies, &d.sizes(), &d.observers(), 0, &d.alloc);
    let mut answers = Vec::new();
    // The first statement: rules for some piles, perhaps more.
    let mut parts: Vec<Pair> = Vec::new();
    for l in d.players + 1..d.locs() {
        if g.chance(80) {
            parts.push(pile_rule(&mut g, &d, l));
        }
    }
    if parts.is_empty() || g.chance(30) {
        parts.push(formula(&mut g, &d, 2));
    }
    let text = parts
        .iter()
        .map(|(t, _)| t.clone())
        .collect::<Vec<_>>()
        .join(" & ");
    let first = Formula::And(parts.into_iter().map(|(_, f)| f).collect());
    src.push_str(&format!("announce {text}\n"));
    answers.push(None);
    if naive::eval(&nm, nm.actual, &first) {
        nm = naive::apply(&nm, &EventModel::announcement("a", d.players, first), 0);
    }
    for _ in 0..3 + g.below(6) {
        match g.below(10) {
            0..=5 => {
                let depth = 1 + g.below(3);
                let (t, f) = formula(&mut g, &d, depth);
                src.push_str(&format!("? {t}\n"));
                answers.push(Some(naive::eval(&nm, nm.actual, &f)));
            }
            6 => {
                let (t, _) = formula(&mut g, &d, 1);
                src.push_str(&format!("expect worlds = 3 where {t}\n"));
                answers.push(None);
            }
            7 => {
                let (t, _) = formula(&mut g, &d, 1);
                src.push_str(&format!("expect all worlds = 3 where {t}\n"));
                answers.push(None);
            }
            8 => {
                let (t, f) = formula(&mut g, &d, 2);
                src.push_str(&format!("announce {t}\n"));
                answers.push(None);
                if naive::eval(&nm, nm.actual, &f) {
                    nm = naive::apply(&nm, &EventModel::announcement("a", d.players, f), 0);
                }
            }
            _ => {
                // A card shown publicly ends the whole model.
                let p = g.below(d.players);
                let k = g.below(d.kinds());
                src.push_str(&format!("reveal {} {}\n", p + 1, KINDS[k]));
                answers.push(None);
                let f = Formula::holds(p, k);
                if naive::eval(&nm, nm.actual, &f) {
                    nm = naive::apply(&nm, &EventModel::announcement("r", d.players, f), 0);
                }
            }
        }
    }
    src.push_str("stats\n");
    answers.push(None);
    Case {
        src,
        setup,
        answers,
    }
}

/// Each statement's output as text (refusals by their message), and the
/// `stats` lines.
fn replay(src: &str, engine: Engine) -> Vec<String> {
    let scenario = syntax::parse(src).expect("a generated case parses");
    let mut session = crate::common::session_on(engine);
    scenario
        .statements
        .iter()
        .map(|stmt| match session.execute(stmt, src) {
            Err(d) => format!("refused: {} {}", d.code, d.message),
            Ok(outputs) => outputs
                .iter()
                .map(|o| match o {
                    Output::Answer { value, .. } | Output::Valid { value, .. } => {
                        format!("answer {value}")
                    }
                    Output::Expect { held, detail, .. } => format!("expect {held} {detail}"),
                    Output::Lines(lines) => lines.join("\n"),
                    _ => "done".to_string(),
                })
                .collect::<Vec<_>>()
                .join("; "),
        })
        .collect()
}

/// The number of BDD variables `stats` reports.
fn variables(stats: &str) -> Option<usize> {
    let at = stats.find(" variables")?;
    stats[..at]
        .rsplit(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()
}

/// Checks one case: whether the announcement started from a smaller
/// model (fewer variables), or the first disagreement.
fn check(seed: u64) -> Result<bool, String> {
    let c = case(seed);
    let prefixed = c.src.replacen("announce ", "? true\nannounce ", 1);
    let played = |src: &str, engine| replay(src, engine).split_off(c.setup);
    let explicit = played(&c.src, Engine::Explicit);
    let restricted = played(&c.src, Engine::Symbolic);
    let mut whole = played(&prefixed, Engine::Symbolic);
    if whole.first().map(String::as_str) != Some("answer true") {
        return Err(format!("`? true` answered {:?}", whole.first()));
    }
    whole.remove(0);
    let n = c.answers.len();
    if explicit.len() != n || restricted.len() != n || whole.len() != n {
        return Err("statements missing".into());
    }
    for i in 0..n - 1 {
        if explicit[i] != restricted[i] || whole[i] != restricted[i] {
            return Err(format!(
                "statement {}: explicit {:?}, restricted start {:?}, deal first {:?}",
                i + 1,
                explicit[i],
                restricted[i],
                whole[i]
            ));
        }
        if let Some(want) = c.answers[i] {
            if restricted[i] != format!("answer {want}") {
                return Err(format!(
                    "statement {}: the engines say {:?}, the naive reference {want}",
                    i + 1,
                    restricted[i]
                ));
            }
        }
    }
    let (r, w) = (variables(&restricted[n - 1]), variables(&whole[n - 1]));
    Ok(matches!((r, w), (Some(r), Some(w)) if r < w))
}

fn run(seeds: std::ops::Range<u64>) -> usize {
    let mut smaller = 0;
    for seed in seeds {
        match check(seed) {
            Ok(s) => smaller += usize::from(s),
            Err(e) => panic!("seed {seed}: {e}\n{}", case(seed).src),
        }
    }
    smaller
}

#[test]
fn announced_rules_give_the_same_answers() {
    let cases = std::env::var("DEALER_ANNOUNCE_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(300u64);
    let smaller = run(0..cases);
    eprintln!("{smaller} of {cases} cases started from a restricted deal");
    // The restricted start must happen often, or this checks nothing.
    assert!(
        smaller * 4 >= cases as usize,
        "the restricted start happened in only {smaller} of {cases} cases"
    );
}

#[test]
fn implied_restrictions_are_those_of_the_piles_rules() {
    use dealer::engine::deal::{implied_only, DealSpec};
    // Two players; locations: hands 0, 1, the stock 2, pile 3 of one card.
    let spec = DealSpec::dealt(
        vec![1, 2, 2],
        vec![vec![0, 1, 0], vec![0, 0, 1], vec![1, 0, 1], vec![0, 1, 0]],
        vec![vec![0, 3], vec![1]],
    );
    let h = Formula::holds;
    // pile holds A or B: C is ruled out there, nothing else anywhere.
    let only = implied_only(&spec, &Formula::Or(vec![h(3, 0), h(3, 1)])).expect("restricts");
    assert_eq!(only[3], Some(vec![true, true, false]));
    assert!(only.iter().enumerate().all(|(l, o)| l == 3 || o.is_none()));
    // Inside a conjunction, with a conjunct about two locations ignored.
    let phi = Formula::And(vec![
        Formula::Or(vec![h(0, 1), h(1, 1)]),
        Formula::And(vec![h(3, 0).not(), h(1, 0).not()]),
    ]);
    let only = implied_only(&spec, &phi).expect("restricts");
    assert_eq!(only[0], None);
    assert_eq!(only[3], Some(vec![false, true, true]));
    assert_eq!(only[1], Some(vec![false, true, true]));
    // A rule the actual deal breaks: no restriction (the announcement is refused).
    assert!(implied_only(&spec, &Formula::Or(vec![h(3, 0), h(3, 2)])).is_none());
    // A rule that rules out nothing, or knowledge: none.
    assert!(implied_only(&spec, &Formula::Or(vec![h(3, 0), h(3, 1), h(3, 2)])).is_none());
    assert!(implied_only(&spec, &Formula::K(0, Box::new(h(3, 1)))).is_none());
    // Knowledge beside a rule: none (the announcement reads the model
    // before it, which a restriction would change).
    let phi = Formula::And(vec![
        Formula::Or(vec![h(3, 0), h(3, 1)]),
        Formula::M(0, Box::new(h(1, 2))),
    ]);
    assert!(implied_only(&spec, &phi).is_none());
    // Unsatisfiable at a location: none.
    assert!(implied_only(&spec, &Formula::And(vec![h(3, 0), h(3, 1)])).is_none());
}

/// The dining cryptographers as `dealer gen dc` writes them (`pile ...
/// holds`), rewritten with the rules announced first: the piles hold any
/// card, and the first statement announces what each can hold.
fn dc_announced(holds: &str) -> String {
    let mut rules = Vec::new();
    let mut out = Vec::new();
    let mut said = false;
    for line in holds.lines() {
        if line.starts_with('#') {
            continue;
        }
        if let Some((pile, kinds)) = line.split_once(" holds ") {
            let name = pile.split_whitespace().nth(1).expect("a pile's name");
            let either: Vec<String> = kinds
                .split_whitespace()
                .map(|k| format!("{name}({k})"))
                .collect();
            rules.push(format!("({})", either.join(" | ")));
            out.push(pile.to_string());
            continue;
        }
        if line.starts_with("expect worlds") && !said {
            out.push(format!("announce {}", rules.join(" & ")));
            said = true;
        }
        out.push(line.to_string());
    }
    assert!(said && !rules.is_empty());
    out.join("\n") + "\n"
}

/// Each statement's output after the table is set, on the symbolic engine.
fn outputs(src: &str) -> Vec<String> {
    let scenario = syntax::parse(src).expect("parses");
    let setup = scenario
        .statements
        .iter()
        .take_while(|s| {
            !matches!(
                s.kind,
                syntax::ast::StatementKind::Move(_)
                    | syntax::ast::StatementKind::Expect(_)
                    | syntax::ast::StatementKind::Let(..)
            )
        })
        .count();
    replay(src, Engine::Symbolic).split_off(setup)
}

/// The dining cryptographers said both ways (with `holds`, and with the
/// rules announced first) give the same answers to their expectations and
/// to every `K`, `Kw`, `M` and count about who paid, for several payers;
/// the announced form starts from the same deal (as many variables).
#[test]
fn both_forms_of_the_dining_cryptographers_agree() {
    for (n, payer) in [(5, 0), (5, 3), (8, 1), (16, 16)] {
        let holds = dealer::cli::gen::dc(n, payer);
        let announced = dc_announced(&holds);
        let mut extra = String::new();
        for i in 1..=n {
            let j = i % n + 1;
            extra.push_str(&format!(
                "? K{i} pay{j}(P)\n? Kw{i} stock(P)\n? M{i} pay{j}(P)\n? K{i} !pay{i}(P) | K{i} pay{i}(P)\nexpect worlds = 0 where M{i} pay{j}(P)\n"
            ));
        }
        extra.push_str("stats\n");
        let a = outputs(&(holds.clone() + &extra));
        let b = outputs(&(announced + &extra));
        // The announced form has one statement more: the rules.
        assert_eq!(b[0], "done", "{n} diners: the rules are announced");
        assert_eq!(a.len() + 1, b.len());
        let b = &b[1..];
        let expectations = holds.lines().filter(|l| l.starts_with("expect")).count();
        for (i, (x, y)) in a.iter().zip(b).enumerate() {
            if i + 1 < a.len() {
                assert_eq!(x, y, "{n} diners, payer {payer}: statement {}", i + 1);
            }
        }
        let held = a.iter().filter(|o| o.starts_with("expect true")).count();
        assert!(held >= expectations, "{n} diners: {a:?}");
        // Whether the NSA paid is known to all, who paid to none but the payer.
        let nsa = a.iter().filter(|o| *o == "answer true").count();
        assert!(
            nsa >= n,
            "{n} diners: every diner knows whether the NSA paid"
        );
        let (va, vb) = (variables(&a[a.len() - 1]), variables(&b[b.len() - 1]));
        assert!(
            va.is_some() && va == vb,
            "{n} diners: {va:?} against {vb:?} variables"
        );
    }
}

/// Muddy children said both ways (the father after the deal, or the rules
/// and the father in one announcement first) give the same answers.
#[test]
fn both_forms_of_the_muddy_children_agree() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/bench");
    let read = |name: &str| std::fs::read_to_string(root.join(name)).expect("a benchmark");
    let (plain, announced) = (read("muddy-15.deal"), read("muddy-15-announced.deal"));
    let mut extra = String::new();
    for i in 1..=15 {
        let j = i % 15 + 1;
        extra.push_str(&format!(
            "? K{i} forehead{i}(M)\n? K{i} forehead{j}(M)\n? M{i} forehead{i}(C)\nexpect worlds = 0 where Kw{i} forehead{i}(M)\n"
        ));
    }
    let a = outputs(&(plain + &extra));
    let b = outputs(&(announced + &extra));
    let k = extra.lines().count();
    assert_eq!(a[a.len() - k..], b[b.len() - k..]);
    let own = a[..a.len() - k].iter().chain(&b[..b.len() - k]);
    for o in own.filter(|o| o.starts_with("expect")) {
        assert!(o.starts_with("expect true"), "{o}");
    }
    // After the last round every child knows.
    assert!(a[a.len() - k..]
        .chunks(4)
        .all(|c| c[0] == "answer true" && c[2] == "answer false"));
}
