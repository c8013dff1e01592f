//! The shared part of the generators: a case, what the naive reference
//! expects of each statement, the random source, and the formulas built
//! from the connectives and modalities both kinds of cases use.

use dealer::engine::{Cmp, Formula};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{gen_cards, gen_models};

/// One generated case: the scenario, and for each statement what the naive
/// reference expects (`None`: no reference answer, the engines must agree).
pub struct Case {
    pub src: String,
    pub expected: Vec<Expect>,
}

/// What the reference says of one statement.
#[derive(Clone, Debug, PartialEq)]
pub enum Expect {
    /// A setup or a move that succeeds, without an answer.
    Done,
    /// A query with this answer (`None`: the engines must only agree).
    Answer(Option<bool>),
    /// A move the rules or the model refuse.
    Refused,
}

/// A formula as text and, when the reference can evaluate it, as the
/// engine's data type.
pub type Pair = (String, Option<Formula>);

pub fn boxed(f: Formula) -> Box<Formula> {
    Box::new(f)
}

/// The random source of one case.
pub struct Gen {
    rng: ChaCha8Rng,
}

impl Gen {
    /// The random source of a seed.
    pub fn new(seed: u64) -> Gen {
        Gen {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
    pub fn below(&mut self, n: usize) -> usize {
        self.rng.random_range(0..n)
    }
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

pub const CMPS: [(&str, Cmp); 6] = [
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
pub fn formula(
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

/// The case of a seed: even seeds are card deals, odd seeds written models.
pub fn case(seed: u64) -> Case {
    if seed.is_multiple_of(2) {
        gen_cards::card_case(seed)
    } else {
        gen_models::model_case(seed)
    }
}
