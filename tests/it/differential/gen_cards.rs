//! Card cases: a small deal (hands, the stock, perhaps a public pile), then
//! announcements, draws, shows, reveals, public moves, `let` names and
//! queries, each with what the naive reference says of it.

use std::rc::Rc;

use dealer::engine::{Atom, Cmp, Event, EventModel, Formula, Post};

use super::cases::{boxed, formula, Case, Expect, Gen, Pair, CMPS};
use super::naive;

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
pub fn card_case(seed: u64) -> Case {
    let mut g = Gen::new(seed);
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
