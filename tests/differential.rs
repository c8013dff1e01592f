//! Differential tests: random scenarios, written as `.deal` text, replayed
//! by the explicit engine and the symbolic engine, and checked against the
//! naive reference of `tests/naive` (worlds as plain assignments, the
//! textbook product update, no contraction, no bitsets, no BDDs).
//!
//! Two kinds of cases, each from a seed (ChaCha8, so a seed is a case):
//! small card deals (hands, a public pile, the stock) with announcements,
//! draws, shows, reveals, public moves, `let` names and queries with every
//! operator (K, M, B, Kw, Kv, E, C, D, counts, `*` patterns, `1_AA`,
//! `[!ψ]`, `<!ψ>`, `[draw ..]`, `<show ..>`, `[reveal ..]`); and written
//! `model { }` blocks (random partitions, belief arrows and row/column
//! grids) with written `event { }` models (pre- and postconditions,
//! partitions and arrows), `apply` and `[apply E]φ`. Every query (`?`,
//! `??`) must get the same answer from all three; every refusal must be a
//! refusal of both engines (and of the naive reference).
//!
//! `cargo test --test differential` runs a few hundred cases;
//! `DEALER_DIFF_CASES=100000 DEALER_DIFF_FIRST=0 cargo test --release
//! --test differential -- --ignored` runs the long mode. A failing case
//! prints its seed and its scenario; add the seed to
//! `tests/differential.regressions` so that it is replayed first forever.

#[allow(dead_code)] // the reference has more than these tests use
mod naive;

use std::rc::Rc;

use dealer::engine::{Atom, Cmp, Event, EventModel, Formula, Post, Relation};
use dealer::interp::{Engine, Options, Output, Session};
use dealer::syntax;
use naive::NaiveModel;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

// ------------------------------------------------------------------ cases

/// One generated case: the scenario, and for each statement what the naive
/// reference expects (`None`: no reference answer, the engines must agree).
struct Case {
    src: String,
    expected: Vec<Expect>,
}

/// What the reference says of one statement.
#[derive(Clone, Debug, PartialEq)]
enum Expect {
    /// A setup or a move that succeeds, without an answer.
    Done,
    /// A query with this answer (`None`: the engines must only agree).
    Answer(Option<bool>),
    /// A move the rules or the model refuse.
    Refused,
}

/// A formula as text and, when the reference can evaluate it, as the
/// engine's data type.
type Pair = (String, Option<Formula>);

fn boxed(f: Formula) -> Box<Formula> {
    Box::new(f)
}

/// The random source of one case.
struct Gen {
    rng: ChaCha8Rng,
}

impl Gen {
    fn below(&mut self, n: usize) -> usize {
        self.rng.random_range(0..n)
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

const CMPS: [(&str, Cmp); 6] = [
    ("<", Cmp::Lt),
    ("<=", Cmp::Le),
    ("=", Cmp::Eq),
    ("!=", Cmp::Ne),
    (">=", Cmp::Ge),
    (">", Cmp::Gt),
];

/// The connectives and modalities shared by both kinds of cases; `atom`
/// makes the leaves, `agent(i)` names agent `i`, `dynamic` the extra
/// modalities of the case's kind.
fn formula(
    g: &mut Gen,
    depth: usize,
    agents: usize,
    names: &dyn Fn(usize) -> String,
    atom: &mut dyn FnMut(&mut Gen) -> Pair,
    dynamic: &mut dyn FnMut(&mut Gen, Pair) -> Option<Pair>,
) -> Pair {
    if depth == 0 || g.chance(25) {
        return atom(g);
    }
    let mut sub = |g: &mut Gen| formula(g, depth - 1, agents, names, atom, dynamic);
    let a = g.below(agents);
    let group = |g: &mut Gen| -> (String, Vec<usize>) {
        if g.chance(30) {
            return (String::new(), (0..agents).collect());
        }
        let mut members: Vec<usize> = (0..agents).filter(|_| g.chance(60)).collect();
        if members.is_empty() {
            members.push(g.below(agents));
        }
        let text: Vec<String> = members
            .iter()
            .map(|&m| names(m).trim_start_matches('_').to_string())
            .collect();
        (format!("{{{}}}", text.join(",")), members)
    };
    let un = |op: &str, (t, f): Pair, make: &dyn Fn(Formula) -> Formula| -> Pair {
        (format!("{op}({t})"), f.map(make))
    };
    let bin = |op: &str,
               (s, f): Pair,
               (t, h): Pair,
               make: &dyn Fn(Formula, Formula) -> Formula|
     -> Pair {
        let both = f.zip(h).map(|(f, h)| make(f, h));
        (format!("({s} {op} {t})"), both)
    };
    match g.below(15) {
        0 => un("!", sub(g), &|f| Formula::Not(boxed(f))),
        1 => {
            let (l, r) = (sub(g), sub(g));
            bin("&", l, r, &|f, h| Formula::And(vec![f, h]))
        }
        2 => {
            let (l, r) = (sub(g), sub(g));
            bin("|", l, r, &|f, h| Formula::Or(vec![f, h]))
        }
        3 => {
            let (l, r) = (sub(g), sub(g));
            bin("->", l, r, &|f, h| Formula::Implies(boxed(f), boxed(h)))
        }
        4 => {
            let (l, r) = (sub(g), sub(g));
            bin("<->", l, r, &|f, h| Formula::Iff(boxed(f), boxed(h)))
        }
        5 => un(&format!("K{} ", names(a)), sub(g), &|f| {
            Formula::K(a, boxed(f))
        }),
        6 => un(&format!("M{} ", names(a)), sub(g), &|f| {
            Formula::M(a, boxed(f))
        }),
        7 => un(&format!("B{} ", names(a)), sub(g), &|f| {
            Formula::K(a, boxed(f))
        }),
        8 => un(&format!("Kw{} ", names(a)), sub(g), &|f| {
            Formula::Kw(a, boxed(f))
        }),
        9 => {
            let (t, m) = group(g);
            un(&format!("E{t} "), sub(g), &|f| {
                Formula::E(m.clone(), boxed(f))
            })
        }
        10 => {
            let (t, m) = group(g);
            un(&format!("C{t} "), sub(g), &|f| {
                Formula::C(m.clone(), boxed(f))
            })
        }
        11 => {
            let (t, m) = group(g);
            un(&format!("D{t} "), sub(g), &|f| {
                Formula::D(m.clone(), boxed(f))
            })
        }
        12 => {
            let ((s, f), (t, h)) = (sub(g), sub(g));
            let both = f.zip(h).map(|(f, h)| Formula::Announce(boxed(f), boxed(h)));
            (format!("[!{s}] ({t})"), both)
        }
        13 => {
            let ((s, f), (t, h)) = (sub(g), sub(g));
            let both = f
                .zip(h)
                .map(|(f, h)| Formula::AnnounceDiamond(boxed(f), boxed(h)));
            (format!("<!{s}> ({t})"), both)
        }
        _ => {
            let body = sub(g);
            let fallback = body.clone();
            dynamic(g, body).unwrap_or(fallback)
        }
    }
}

// ------------------------------------------------------------ card deals

const KINDS: [&str; 4] = ["A", "B", "C", "D"];

/// A small deal: hands (seen by their owner), the stock (seen by no one)
/// and possibly a public pile `table`.
struct Deal {
    players: usize,
    copies: Vec<u32>,
    table: bool,
    /// `alloc[loc][kind]`: hands, the stock, then the table.
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
        self.players + 1 + usize::from(self.table)
    }
    fn loc_name(&self, l: usize) -> String {
        match l {
            l if l < self.players => format!("hand{}", l + 1),
            l if l == self.players => "stock".into(),
            _ => "table".into(),
        }
    }
    fn observers(&self) -> Vec<Vec<usize>> {
        (0..self.players)
            .map(|a| {
                let mut seen = vec![a];
                if self.table {
                    seen.push(self.players + 1);
                }
                seen
            })
            .collect()
    }
}

fn random_deal(g: &mut Gen) -> Deal {
    let players = 2 + g.below(2);
    let kinds = 2 + g.below(3);
    let copies: Vec<u32> = (0..kinds).map(|_| 1 + g.below(2) as u32).collect();
    let table = g.chance(40);
    let locs = players + 1 + usize::from(table);
    let mut alloc = vec![vec![0u32; kinds]; locs];
    let mut cards: Vec<usize> = (0..kinds)
        .flat_map(|k| std::iter::repeat_n(k, copies[k] as usize))
        .collect();
    // A shuffle by the case's generator.
    for i in (1..cards.len()).rev() {
        let j = g.below(i + 1);
        cards.swap(i, j);
    }
    let mut next = cards.into_iter();
    for (l, row) in alloc.iter_mut().enumerate() {
        let size = if l == players { 0 } else { g.below(3) };
        for _ in 0..size {
            if let Some(k) = next.next() {
                row[k] += 1;
            }
        }
    }
    for k in next {
        alloc[players][k] += 1;
    }
    if alloc[0].iter().sum::<u32>() == 0 {
        // Player 1 always holds a card, so the deal line is never empty.
        let k = (0..kinds).find(|&k| alloc[players][k] > 0).unwrap_or(0);
        if alloc[players][k] > 0 {
            alloc[players][k] -= 1;
            alloc[0][k] += 1;
        } else {
            let from = (1..locs)
                .find(|&l| alloc[l][k] > 0)
                .expect("a card somewhere");
            alloc[from][k] -= 1;
            alloc[0][k] += 1;
        }
    }
    Deal {
        players,
        copies,
        table,
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
    if d.table {
        s.push_str("pile table public\n");
    }
    let parts: Vec<String> = (0..d.locs())
        .filter(|&l| l != d.stock() && d.alloc[l].iter().sum::<u32>() > 0)
        .map(|l| {
            let who = if l < d.players {
                (l + 1).to_string()
            } else {
                "table".into()
            };
            let cards: Vec<&str> = (0..d.kinds())
                .flat_map(|k| std::iter::repeat_n(KINDS[k], d.alloc[l][k] as usize))
                .collect();
            format!("{who}: {}", cards.join(" "))
        })
        .collect();
    s.push_str(&format!("deal {}\n", parts.join(" | ")));
    s
}

/// A leaf of a card formula: a count atom in one of its spellings, or a
/// `let` name.
fn card_atom(g: &mut Gen, d: &Deal, lets: &[(String, Formula)]) -> Pair {
    let loc = g.below(d.locs());
    let k = g.below(d.kinds());
    let name = d.loc_name(loc);
    let count = |kinds: Vec<usize>, cmp: Cmp, n: u32| {
        Some(Formula::Atom(Atom::Count { loc, kinds, cmp, n }))
    };
    match g.below(7) {
        0 | 1 => (format!("{name}({})", KINDS[k]), count(vec![k], Cmp::Ge, 1)),
        2 => {
            let (op, cmp) = CMPS[g.below(6)];
            let n = g.below(3) as u32;
            (
                format!("{name}({}) {op} {n}", KINDS[k]),
                count(vec![k], cmp, n),
            )
        }
        3 => {
            let (op, cmp) = CMPS[g.below(6)];
            let n = g.below(4) as u32;
            let all: Vec<usize> = (0..d.kinds()).collect();
            let text = if g.chance(50) {
                format!("#{name} {op} {n}")
            } else {
                format!("{name}(*) {op} {n}")
            };
            (text, count(all, cmp, n))
        }
        4 if loc < d.players => {
            let n = 1 + g.below(2) as u32;
            let cards = KINDS[k].repeat(n as usize);
            (format!("{}_{cards}", loc + 1), count(vec![k], Cmp::Ge, n))
        }
        5 if !lets.is_empty() => {
            let (n, f) = &lets[g.below(lets.len())];
            (n.clone(), Some(f.clone()))
        }
        _ => {
            let p = g.below(d.players);
            let l = g.below(d.locs());
            let kv = (0..d.kinds())
                .map(|k| Formula::Kw(p, boxed(Formula::holds(l, k))))
                .collect();
            (
                format!("Kv{} {}", p + 1, d.loc_name(l)),
                Some(Formula::And(kv)),
            )
        }
    }
}

/// The event model of a card move, as the rules build it (for the reference).
fn draw_model(d: &Deal, p: usize) -> EventModel {
    let events = (0..d.kinds())
        .map(|k| Event {
            name: KINDS[k].into(),
            pre: Formula::holds(d.stock(), k),
            post: vec![Post::Move {
                kind: k,
                from: d.stock(),
                to: p,
                n: 1,
            }],
        })
        .collect();
    EventModel::semi_private("draw", d.players, &[p], events)
}

fn show_model(d: &Deal, p: usize, q: usize) -> EventModel {
    let events = (0..d.kinds())
        .map(|k| Event {
            name: KINDS[k].into(),
            pre: Formula::holds(p, k),
            post: Vec::new(),
        })
        .collect();
    EventModel::semi_private("show", d.players, &[p, q], events)
}

fn move_model(d: &Deal, k: usize, from: usize, to: usize) -> EventModel {
    let event = Event {
        name: KINDS[k].into(),
        pre: Formula::holds(from, k),
        post: vec![Post::Move {
            kind: k,
            from,
            to,
            n: 1,
        }],
    };
    EventModel::public("move", d.players, vec![event])
}

fn designated(mut em: EventModel, e: usize) -> EventModel {
    em.designated = vec![e];
    em
}

/// A card case: the deal, then 3-8 statements.
fn card_case(seed: u64) -> Case {
    let mut g = Gen {
        rng: ChaCha8Rng::seed_from_u64(seed),
    };
    let d = random_deal(&mut g);
    let mut src = deal_text(&d);
    let mut expected = vec![Expect::Done; 3 + usize::from(d.table)];
    let sizes: Vec<u32> = d.alloc.iter().map(|l| l.iter().sum()).collect();
    let mut nm = naive::deal_model(&d.copies, &sizes, &d.observers(), 0, &d.alloc);
    let mut lets: Vec<(String, Formula)> = Vec::new();
    let names = |a: usize| (a + 1).to_string();
    for _ in 0..3 + g.below(6) {
        let mut atom = |g: &mut Gen| card_atom(g, &d, &lets);
        let mut dynamic = |g: &mut Gen, (t, f): Pair| -> Option<Pair> {
            let p = g.below(d.players);
            let k = g.below(d.kinds());
            let diamond = g.chance(50);
            let (text, em) = match g.below(3) {
                0 => (
                    format!("draw {}: {}", p + 1, KINDS[k]),
                    designated(draw_model(&d, p), k),
                ),
                1 => {
                    let q = (p + 1 + g.below(d.players - 1)) % d.players;
                    let text = format!("show {} -> {} {}", p + 1, q + 1, KINDS[k]);
                    (text, designated(show_model(&d, p, q), k))
                }
                _ => (
                    format!("reveal {} {}", p + 1, KINDS[k]),
                    EventModel::announcement("reveal", d.players, Formula::holds(p, k)),
                ),
            };
            let ems = Rc::new(vec![em]);
            Some(if diamond {
                (
                    format!("<{text}> ({t})"),
                    f.map(|f| Formula::UpdateDiamond(ems, boxed(f))),
                )
            } else {
                (
                    format!("[{text}] ({t})"),
                    f.map(|f| Formula::Update(ems, boxed(f))),
                )
            })
        };
        let depth = 1 + g.below(3);
        let (text, f) = formula(&mut g, depth, d.players, &names, &mut atom, &mut dynamic);
        let actual = nm.actual;
        match g.below(10) {
            0..=3 => {
                src.push_str(&format!("? {text}\n"));
                expected.push(Expect::Answer(f.map(|f| naive::eval(&nm, actual, &f))));
            }
            4 => {
                src.push_str(&format!("?? {text}\n"));
                let reach = naive::reachable_part(&nm);
                expected.push(Expect::Answer(f.map(|f| naive::valid(&reach, &f))));
            }
            5 => {
                let name = format!("L{}", lets.len());
                src.push_str(&format!("let {name} = {text}\n"));
                expected.push(Expect::Done);
                if let Some(f) = f {
                    lets.push((name, f));
                }
            }
            6 => {
                // An announcement: refused when false.
                let Some(f) = f else { continue };
                src.push_str(&format!("announce {text}\n"));
                if naive::eval(&nm, actual, &f) {
                    let em = EventModel::announcement("announce", d.players, f);
                    nm = naive::apply(&nm, &em, 0);
                    expected.push(Expect::Done);
                } else {
                    expected.push(Expect::Refused);
                }
            }
            step => {
                let p = g.below(d.players);
                let k = g.below(d.kinds());
                let here = |l: usize| nm.worlds[nm.actual].cards[l][k] > 0;
                let (line, em, ok) = match step {
                    7 => (
                        format!("draw {}: {}", p + 1, KINDS[k]),
                        draw_model(&d, p),
                        here(d.stock()),
                    ),
                    8 => {
                        let q = (p + 1 + g.below(d.players - 1)) % d.players;
                        let line = format!("show {} -> {} {}", p + 1, q + 1, KINDS[k]);
                        (line, show_model(&d, p, q), here(p))
                    }
                    _ if g.chance(50) => {
                        let line = format!("reveal {} {}", p + 1, KINDS[k]);
                        let em =
                            EventModel::announcement("reveal", d.players, Formula::holds(p, k));
                        (line, em, here(p))
                    }
                    _ => {
                        let q = (p + 1 + g.below(d.players - 1)) % d.players;
                        let line = format!("move {} {} -> {}", KINDS[k], p + 1, q + 1);
                        (line, move_model(&d, k, p, q), here(p))
                    }
                };
                src.push_str(&format!("{line}\n"));
                if ok {
                    let e = if em.events.len() == 1 { 0 } else { k };
                    nm = naive::apply(&nm, &em, e);
                    expected.push(Expect::Done);
                } else {
                    expected.push(Expect::Refused);
                }
            }
        }
    }
    Case { src, expected }
}

// ------------------------------------------------------- written models

const AGENTS: [&str; 3] = ["a", "b", "c"];
const PROPS: [&str; 3] = ["p", "q", "r"];

/// A relation over `n` elements named `name(i)`, as text and data: a random
/// partition, or (unless `s5`) random arrows with at least one per element.
fn relation(g: &mut Gen, n: usize, s5: bool, name: &dyn Fn(usize) -> String) -> (String, Relation) {
    if s5 || g.chance(60) {
        let class: Vec<usize> = (0..n).map(|_| g.below(n.min(3))).collect();
        return (partition_text(&class, name), Relation::Partition(class));
    }
    let succ: Vec<Vec<usize>> = (0..n)
        .map(|_| {
            let mut s: Vec<usize> = (0..n).filter(|_| g.chance(40)).collect();
            if s.is_empty() {
                s.push(g.below(n));
            }
            s
        })
        .collect();
    let arrows: Vec<String> = (0..n)
        .flat_map(|x| succ[x].iter().map(move |&y| (x, y)))
        .map(|(x, y)| format!("{}->{}", name(x), name(y)))
        .collect();
    (arrows.join(", "), Relation::General(succ))
}

fn partition_text(class: &[usize], name: &dyn Fn(usize) -> String) -> String {
    let mut blocks: Vec<Vec<usize>> = Vec::new();
    let mut ids: Vec<usize> = class.to_vec();
    ids.sort_unstable();
    ids.dedup();
    for id in ids {
        blocks.push((0..class.len()).filter(|&x| class[x] == id).collect());
    }
    blocks
        .iter()
        .map(|b| {
            format!(
                "{{{}}}",
                b.iter().map(|&x| name(x)).collect::<Vec<_>>().join(" ")
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn prop_atom(g: &mut Gen, props: usize) -> Pair {
    match g.below(10) {
        0 => ("true".into(), Some(Formula::Top)),
        1 => ("false".into(), Some(Formula::Bottom)),
        _ => {
            let p = g.below(props);
            (PROPS[p].into(), Some(Formula::Atom(Atom::Prop(p))))
        }
    }
}

/// A model case: a written model (random, or a row/column grid), then 3-8
/// statements: queries, written event models and `apply`.
fn model_case(seed: u64) -> Case {
    let mut g = Gen {
        rng: ChaCha8Rng::seed_from_u64(seed),
    };
    let grid = g.chance(30);
    let agents = if grid && g.chance(70) {
        2
    } else {
        2 + g.below(2)
    };
    // Grids with few propositions have bisimilar worlds that a group tells
    // apart: where contraction and distributed knowledge meet.
    let props = if grid { 1 + g.below(2) } else { 2 + g.below(2) };
    let s5 = grid || g.chance(50);
    let (n, rels): (usize, Vec<(String, Relation)>) = if grid {
        let (rows, cols) = (2 + g.below(2), 2 + g.below(2));
        let n = rows * cols;
        let w = |i: usize| format!("w{i}");
        let row: Vec<usize> = (0..n).map(|i| i / cols).collect();
        let col: Vec<usize> = (0..n).map(|i| i % cols).collect();
        let mut rels = vec![
            (partition_text(&row, &w), Relation::Partition(row)),
            (partition_text(&col, &w), Relation::Partition(col)),
        ];
        for _ in 2..agents {
            rels.push(relation(&mut g, n, true, &w));
        }
        (n, rels)
    } else {
        let n = 1 + g.below(5);
        let w = |i: usize| format!("w{i}");
        (
            n,
            (0..agents).map(|_| relation(&mut g, n, s5, &w)).collect(),
        )
    };
    let vals: Vec<Vec<bool>> = (0..n)
        .map(|_| (0..props).map(|_| g.chance(50)).collect())
        .collect();
    let actual = g.below(n);
    let mut src = format!(
        "model {{\n  agents {}\n  props {}\n",
        AGENTS[..agents].join(" "),
        PROPS[..props].join(" ")
    );
    for (i, v) in vals.iter().enumerate() {
        let true_props: Vec<&str> = (0..props).filter(|&p| v[p]).map(|p| PROPS[p]).collect();
        src.push_str(&format!("  world w{i}: {}\n", true_props.join(" ")));
    }
    for (a, (text, _)) in rels.iter().enumerate() {
        src.push_str(&format!("  {}: {text}\n", AGENTS[a]));
    }
    src.push_str(&format!("  actual w{actual}\n}}\n"));
    let relations: Vec<Relation> = rels.into_iter().map(|(_, r)| r).collect();
    let mut nm = NaiveModel::from_valuations(&vals, &relations, actual);
    let mut expected = vec![Expect::Done];
    let names = |a: usize| format!("_{}", AGENTS[a]);
    let mut events: Vec<(String, EventModel)> = Vec::new();
    for _ in 0..3 + g.below(6) {
        let mut atom = |g: &mut Gen| prop_atom(g, props);
        let mut dynamic = |g: &mut Gen, (t, f): Pair| -> Option<Pair> {
            if events.is_empty() {
                return None;
            }
            let (name, em) = events[g.below(events.len())].clone();
            let ems = Rc::new(vec![em]);
            Some(if g.chance(50) {
                (
                    format!("<apply {name}> ({t})"),
                    f.map(|f| Formula::UpdateDiamond(ems, boxed(f))),
                )
            } else {
                (
                    format!("[apply {name}] ({t})"),
                    f.map(|f| Formula::Update(ems, boxed(f))),
                )
            })
        };
        let depth = 1 + g.below(3);
        let (mut text, mut f) = formula(&mut g, depth, agents, &names, &mut atom, &mut dynamic);
        if grid && g.chance(40) {
            // Distributed knowledge of the row and the column agents.
            text = format!("D{{a,b}} ({text})");
            f = f.map(|f| Formula::D(vec![0, 1], boxed(f)));
        }
        let here = nm.actual;
        match g.below(8) {
            0..=3 => {
                src.push_str(&format!("? {text}\n"));
                expected.push(Expect::Answer(f.map(|f| naive::eval(&nm, here, &f))));
            }
            4 => {
                src.push_str(&format!("?? {text}\n"));
                let reach = naive::reachable_part(&nm);
                expected.push(Expect::Answer(f.map(|f| naive::valid(&reach, &f))));
            }
            5 | 6 => {
                // A written event model, declared (no answer).
                let name = format!("ev{}", events.len());
                let (text, em) = event_text(&mut g, &name, agents, props, &names);
                src.push_str(&text);
                expected.push(Expect::Done);
                events.push((name, em));
            }
            _ => {
                if events.is_empty() {
                    continue;
                }
                let (name, em) = events[g.below(events.len())].clone();
                src.push_str(&format!("apply {name}\n"));
                let e = em.designated[0];
                if naive::eval(&nm, here, &em.events[e].pre) {
                    nm = naive::apply(&nm, &em, e);
                    expected.push(Expect::Done);
                } else {
                    expected.push(Expect::Refused);
                }
            }
        }
    }
    Case { src, expected }
}

/// A written event model: 1-3 events with preconditions, perhaps a
/// postcondition, a relation per agent, an actual event.
fn event_text(
    g: &mut Gen,
    name: &str,
    agents: usize,
    props: usize,
    names: &dyn Fn(usize) -> String,
) -> (String, EventModel) {
    let n = 1 + g.below(3);
    let e = |i: usize| format!("e{i}");
    let mut text = format!(
        "event {name} {{\n  events {}\n",
        (0..n).map(e).collect::<Vec<_>>().join(" ")
    );
    let mut evs = Vec::new();
    for i in 0..n {
        let mut atom = |g: &mut Gen| prop_atom(g, props);
        let mut none = |_: &mut Gen, _: Pair| None;
        let depth = 1 + g.below(2);
        let (pre_text, pre) = formula(g, depth, agents, names, &mut atom, &mut none);
        text.push_str(&format!("  pre {}: {pre_text}\n", e(i)));
        let mut post = Vec::new();
        if g.chance(40) {
            let p = g.below(props);
            let (t, f) = formula(g, 1, agents, names, &mut atom, &mut none);
            text.push_str(&format!("  post {}: {} := {t}\n", e(i), PROPS[p]));
            post.push(Post::Set(p, f.expect("a propositional formula")));
        }
        evs.push(Event {
            name: e(i),
            pre: pre.expect("a propositional formula"),
            post,
        });
    }
    let relations: Vec<Relation> = (0..agents)
        .map(|a| {
            let (t, r) = relation(g, n, false, &e);
            text.push_str(&format!("  {}: {t}\n", AGENTS[a]));
            r
        })
        .collect();
    let actual = g.below(n);
    text.push_str(&format!("  actual {}\n}}\n", e(actual)));
    let em = EventModel {
        name: name.into(),
        events: evs,
        relations,
        designated: vec![actual],
    };
    (text, em)
}

// ------------------------------------------------------------ checking

/// What one engine said of each statement: an answer, done, or refused
/// (with the error's code).
#[derive(Clone, Debug, PartialEq)]
enum Said {
    Done,
    Answer(bool),
    Refused(String),
}

fn replay(src: &str, engine: Engine) -> Result<Vec<Said>, String> {
    let scenario = syntax::parse(src).map_err(|e| format!("does not parse: {e:?}"))?;
    let mut session = Session::new(Options {
        engine,
        ..Options::default()
    });
    let mut said = Vec::new();
    for stmt in &scenario.statements {
        match session.execute(stmt, src) {
            Err(d) => said.push(Said::Refused(d.render("case.deal", src, false))),
            Ok(outputs) => said.push(
                outputs
                    .iter()
                    .find_map(|o| match o {
                        Output::Answer { value, .. } | Output::Valid { value, .. } => {
                            Some(Said::Answer(*value))
                        }
                        _ => None,
                    })
                    .unwrap_or(Said::Done),
            ),
        }
    }
    Ok(said)
}

/// Checks one case; the message of the first disagreement.
fn check(case: &Case) -> Result<(), String> {
    let explicit = replay(&case.src, Engine::Explicit)?;
    let mut symbolic = replay(&case.src, Engine::Symbolic)?;
    // A written model of beliefs is the explicit engine's alone (the
    // symbolic engine refuses it, saying so): the naive reference checks
    // the explicit engine.
    if matches!(&symbolic[0], Said::Refused(why) if why.contains("symbolic-unsupported")) {
        symbolic = explicit.clone();
    }
    if explicit.len() != case.expected.len() {
        return Err(format!(
            "{} statements, {} expected",
            explicit.len(),
            case.expected.len()
        ));
    }
    for (i, want) in case.expected.iter().enumerate() {
        let (x, s) = (&explicit[i], &symbolic[i]);
        let same_kind = matches!((x, s), (Said::Refused(_), Said::Refused(_))) || x == s;
        if !same_kind {
            return Err(format!(
                "statement {}: explicit {x:?}, symbolic {s:?}",
                i + 1
            ));
        }
        let agrees = match (want, x) {
            (Expect::Done, Said::Done) => true,
            (Expect::Refused, Said::Refused(_)) => true,
            (Expect::Answer(None), Said::Answer(_)) => true,
            (Expect::Answer(Some(v)), Said::Answer(a)) => v == a,
            _ => false,
        };
        if !agrees {
            return Err(format!(
                "statement {}: the engines say {x:?}, the naive reference {want:?}",
                i + 1
            ));
        }
    }
    Ok(())
}

/// The case of a seed: even seeds are card deals, odd seeds written models.
fn case(seed: u64) -> Case {
    if seed.is_multiple_of(2) {
        card_case(seed)
    } else {
        model_case(seed)
    }
}

/// Runs the seeds; panics with every failing seed and its scenario.
fn run(seeds: impl Iterator<Item = u64>) -> usize {
    let mut failures = Vec::new();
    let mut count = 0;
    for seed in seeds {
        count += 1;
        let c = case(seed);
        if let Err(why) = check(&c) {
            failures.push(format!("seed {seed}: {why}\n{}", c.src));
            if failures.len() >= 5 {
                break;
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failing case(s):\n\n{}",
        failures.len(),
        failures.join("\n")
    );
    count
}

/// Seeds that once failed, replayed first.
fn regressions() -> Vec<u64> {
    let text = include_str!("differential.regressions");
    text.lines()
        .filter_map(|l| l.split('#').next())
        .filter_map(|l| l.trim().parse().ok())
        .collect()
}

#[test]
fn regression_seeds_agree() {
    run(regressions().into_iter());
}

/// Distributed knowledge after contraction on both engines: these seeds
/// are row/column grids where the symbolic engine once answered `D{a,b}`
/// differently from the explicit engine and the reference.
#[test]
fn d_after_contraction_agrees() {
    assert_eq!(run([23u64, 271].into_iter()), 2);
}

#[test]
fn random_cases_agree() {
    assert_eq!(run(0..150), 150);
}

#[test]
fn more_random_cases_agree() {
    assert_eq!(run(150..300), 150);
}

/// The long mode: `DEALER_DIFF_CASES` cases from seed `DEALER_DIFF_FIRST`.
#[test]
#[ignore = "long: run with DEALER_DIFF_CASES=100000 in release mode"]
fn many_random_cases_agree() {
    let var = |k: &str, d: u64| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let (first, cases) = (
        var("DEALER_DIFF_FIRST", 1_000),
        var("DEALER_DIFF_CASES", 100_000),
    );
    let start = std::time::Instant::now();
    let n = run(first..first + cases);
    eprintln!(
        "{n} cases (seeds {first}..{}) agree, in {:.1} s",
        first + cases,
        start.elapsed().as_secs_f64()
    );
}

#[test]
fn the_generator_covers_every_statement_kind_and_operator() {
    let mut all = String::new();
    for seed in 0..400 {
        all.push_str(&case(seed).src);
    }
    for needle in [
        "deal ",
        "pile table",
        "draw ",
        "show ",
        "reveal ",
        "move ",
        "announce ",
        "let ",
        "? ",
        "?? ",
        "model {",
        "event ",
        "apply ",
        "K1 ",
        "M1 ",
        "B1 ",
        "Kw1 ",
        "Kv",
        "E{",
        "C{",
        "D{",
        "E ",
        "C ",
        "#hand",
        "(*)",
        "_AA",
        "[!",
        "<!",
        "[draw",
        "<draw",
        "[show",
        "<show",
        "[reveal",
        "[apply",
        "<apply",
        "<->",
        "->",
        "|",
        "&",
        "!(",
        "K_a",
        "M_b",
        "D{a",
        ">=",
        "!=",
        "->w",
    ] {
        assert!(all.contains(needle), "no case uses `{needle}`");
    }
}

/// The reference decides most queries, with both answers common, and
/// most moves succeed: the comparison is not vacuous.
#[test]
fn the_reference_answers_most_queries() {
    let (mut decided, mut yes, mut undecided, mut done, mut refused) = (0, 0, 0, 0, 0);
    for seed in 0..200 {
        for e in case(seed).expected {
            match e {
                Expect::Answer(Some(v)) => {
                    decided += 1;
                    yes += usize::from(v);
                }
                Expect::Answer(None) => undecided += 1,
                Expect::Done => done += 1,
                Expect::Refused => refused += 1,
            }
        }
    }
    eprintln!(
        "decided {decided} (true {yes}), undecided {undecided}, done {done}, refused {refused}"
    );
    assert!(
        decided > 300 && undecided == 0,
        "{decided} decided, {undecided} not"
    );
    assert!(
        yes > decided / 5 && yes < decided * 4 / 5,
        "{yes} of {decided} true"
    );
    assert!(refused > 10 && done > refused);
}
