//! A rule's move, `ask me x r` or `draw me from open: t`, as a pattern
//! over the game's moves: checked against the game's move forms when the
//! strategy is loaded (an unknown word or a wrong number of arguments is
//! an error at the rule), and matched against the referee's legal moves
//! as values (`cards::Move` and its typed arguments), binding each
//! variable to a player, a card, a rank, a location or a number. No move
//! is printed or read as text to match it.

use crate::cards::{Arg, Game, Move, Table};
use crate::diag::Diagnostic;
use crate::engine::{Agent, Kind, Loc};

use super::parse::{Rule, SetPart as Part, Template, Word};

/// A value a move's argument has.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// A player.
    Player(Agent),
    /// A card (one kind), or a rank (the kinds a Go Fish ask is for).
    Cards(Vec<Kind>),
    /// A location: a pile or a slot.
    Loc(Loc),
    /// A number: the set or the member of a set card `<t,v>`.
    Num(u32),
}

impl Value {
    /// The value as formulas write it: the player's, card's, rank's or
    /// location's name, or the number.
    pub fn name(&self, table: &Table) -> String {
        match self {
            Value::Player(p) => table.players[*p].clone(),
            Value::Cards(ks) => match ks.as_slice() {
                [k] => table.deck.kinds[*k].name.clone(),
                _ => ks
                    .first()
                    .map(|k| table.deck.kinds[*k].rank_name())
                    .unwrap_or_default(),
            },
            Value::Loc(l) => table.locations[*l].name.clone(),
            Value::Num(n) => n.to_string(),
        }
    }
}

/// One argument of a move pattern, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
enum ArgPat {
    /// `_`: anything.
    Any,
    /// `me`: the strategy's player.
    Me,
    /// A lower-case word that names nothing at the table: a variable.
    Var(String),
    /// `<t,v>`: a set card, its set and member each a variable, a number
    /// or `*`.
    Set(Part, Part),
    /// Anything else: a player, card, rank or location of the table.
    Named(String),
}

/// A piece of a move: one of the generic moves' keywords (`from`, `->`,
/// `:`) or an argument.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Piece<A> {
    Word(&'static str),
    Arg(A),
}

/// A rule's move as a pattern (`any`: every legal move).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    /// The move's word (`ask`, `pick`); `None` for `any`.
    word: Option<String>,
    pieces: Vec<Piece<ArgPat>>,
}

/// The generic moves a strategy may name in any game, each with its
/// shape: `A` an argument, anything else a keyword (optional parts are
/// listed as separate shapes).
const GENERIC: &[(&str, &[&str])] = &[
    ("ask", &["A", "A", "A"]),
    ("draw", &["A"]),
    ("draw", &["A", ":", "A"]),
    ("draw", &["A", "from", "A", ":"]),
    ("draw", &["A", "from", "A", ":", "A"]),
    ("peek", &["A", "A"]),
    ("reveal", &["A", "A"]),
    ("show", &["A", "->", "A", "A"]),
    ("move", &["A", "from", "A", "->", "A"]),
];

impl Pattern {
    /// The pattern of a rule's move as the rule writes it, checked against
    /// `game`'s moves (its own forms and the generic moves): an unknown
    /// word or a wrong number of arguments is an error at the rule.
    pub fn new(template: &Template, game: Game, rule: &Rule) -> Result<Pattern, Diagnostic> {
        let Some((word, rest)) = template.words.split_first() else {
            return Ok(Pattern {
                word: None,
                pieces: Vec::new(),
            });
        };
        let word = word.to_string().to_ascii_lowercase();
        let written = rest;
        let error = |message: String, help: String| {
            Diagnostic::error("strategy-move", message, rule.span).with_help(help)
        };
        let forms: Vec<Vec<&'static str>> = match game.move_forms().iter().find(|f| f.word == word)
        {
            Some(form) => vec![form.args.iter().map(|_| "A").collect()],
            None => GENERIC
                .iter()
                .filter(|(w, _)| *w == word)
                .map(|(_, shape)| shape.to_vec())
                .collect(),
        };
        if forms.is_empty() {
            let mut words: Vec<&str> = game.move_forms().iter().map(|f| f.word).collect();
            for (w, _) in GENERIC {
                if !words.contains(w) {
                    words.push(w);
                }
            }
            return Err(error(
                format!(
                    "in rule {}, `{word}` is no move of {}",
                    rule.name,
                    game.name()
                ),
                format!("the moves are: {}, or `any`", words.join(", ")),
            ));
        }
        let fits = |shape: &[&str]| {
            shape.len() == written.len()
                && shape.iter().zip(written).all(|(s, w)| match s {
                    &"A" => !matches!(w.text(), Some(":" | "->")),
                    kw => w.text() == Some(kw),
                })
        };
        let Some(shape) = forms.iter().find(|s| fits(s)) else {
            let usage: Vec<String> = forms
                .iter()
                .map(|s| {
                    let args: Vec<&str> = s
                        .iter()
                        .map(|p| if *p == "A" { "ARG" } else { p })
                        .collect();
                    format!("`{word} {}`", args.join(" "))
                })
                .collect();
            let usage = match game.move_forms().iter().find(|f| f.word == word) {
                Some(f) => format!("`{}` (P a player, C a card, S a slot)", f.usage()),
                None => usage.join(" or "),
            };
            return Err(error(
                format!(
                    "in rule {}, `{}` does not fit the move `{word}`",
                    rule.name, template
                ),
                format!("write it as {usage}"),
            ));
        };
        let pieces = shape
            .iter()
            .zip(written)
            .map(|(s, w)| match *s {
                "A" => Piece::Arg(arg_pattern(w)),
                kw => Piece::Word(kw),
            })
            .collect();
        Ok(Pattern {
            word: Some(word),
            pieces,
        })
    }

    /// The pattern at a seat: each written word that is not a variable
    /// resolved at `table` (a lower-case word that names a player is that
    /// player; one that names a card is an error, as a variable would be
    /// mistaken for it).
    pub fn seated(&self, table: &Table, me: Agent, rule: &Rule) -> Result<SeatPattern, Diagnostic> {
        let mut pieces = Vec::with_capacity(self.pieces.len());
        for p in &self.pieces {
            pieces.push(match p {
                Piece::Word(w) => Piece::Word(w),
                Piece::Arg(a) => Piece::Arg(seat_arg(a, table, rule)?),
            });
        }
        Ok(SeatPattern {
            word: self.word.clone(),
            pieces,
            me,
        })
    }
}

fn arg_pattern(w: &Word) -> ArgPat {
    let w = match w {
        Word::Set(a, b) => return ArgPat::Set(a.clone(), b.clone()),
        Word::Text(w) => w,
    };
    if w == "_" {
        return ArgPat::Any;
    }
    if w == "me" {
        return ArgPat::Me;
    }
    if is_lower_word(w) {
        ArgPat::Var(w.to_string())
    } else {
        ArgPat::Named(w.to_string())
    }
}

fn is_lower_word(w: &str) -> bool {
    !w.is_empty() && w.chars().all(|c| c.is_ascii_lowercase())
}

/// An argument of a seated pattern.
#[derive(Clone, Debug)]
enum SeatArg {
    Any,
    Me,
    Var(String),
    Set(Part, Part),
    Is(Vec<Value>),
}

fn seat_arg(a: &ArgPat, table: &Table, rule: &Rule) -> Result<SeatArg, Diagnostic> {
    Ok(match a {
        ArgPat::Any => SeatArg::Any,
        ArgPat::Me => SeatArg::Me,
        ArgPat::Set(x, y) => SeatArg::Set(x.clone(), y.clone()),
        ArgPat::Var(v) => {
            if let Some(p) = table.find_player(v) {
                return Ok(SeatArg::Is(vec![Value::Player(p)]));
            }
            if let Some(k) =
                table.deck.kinds.iter().find(|k| {
                    k.name.eq_ignore_ascii_case(v) || k.rank_name().eq_ignore_ascii_case(v)
                })
            {
                return Err(Diagnostic::error(
                    "strategy-variable",
                    format!(
                        "in rule {}, the variable `{v}` is also the card {}",
                        rule.name, k.name
                    ),
                    rule.span,
                )
                .with_help(
                    "rename the variable (e.g. `x`, `r`, `c`), or write the card in upper case",
                ));
            }
            if let Some(l) = table.find_location(v) {
                return Ok(SeatArg::Is(vec![Value::Loc(l)]));
            }
            SeatArg::Var(v.clone())
        }
        ArgPat::Named(n) => SeatArg::Is(named(n, table)),
    })
}

/// What a written name may be at `table`: a player, a card, the cards of
/// a rank, a location (any that fit).
fn named(n: &str, table: &Table) -> Vec<Value> {
    let mut out = Vec::new();
    if let Some(p) = table.find_player(n) {
        out.push(Value::Player(p));
    }
    let kinds = &table.deck.kinds;
    if let Some(k) = kinds.iter().position(|k| k.name.eq_ignore_ascii_case(n)) {
        out.push(Value::Cards(vec![k]));
    }
    let rank: Vec<Kind> = (0..kinds.len())
        .filter(|&k| {
            kinds[k]
                .rank
                .as_deref()
                .is_some_and(|r| r.eq_ignore_ascii_case(n))
        })
        .collect();
    if !rank.is_empty() {
        out.push(Value::Cards(rank));
    }
    if let Some(l) = table.find_location(n) {
        out.push(Value::Loc(l));
    }
    out
}

/// A rule's pattern at a seat, matched against legal moves.
#[derive(Clone, Debug)]
pub struct SeatPattern {
    word: Option<String>,
    pieces: Vec<Piece<SeatArg>>,
    me: Agent,
}

/// A variable and the value a move bound it to.
pub type Bindings = Vec<(String, Value)>;

impl SeatPattern {
    /// The bindings under which the pattern is the move `mv`, if any.
    pub fn matches(&self, mv: &Move, table: &Table) -> Option<Bindings> {
        let Some(word) = &self.word else {
            return Some(Vec::new());
        };
        let (mv_word, values) = move_pieces(mv, table)?;
        if mv_word != word || values.len() != self.pieces.len() {
            return None;
        }
        let mut bound: Bindings = Vec::new();
        for (p, v) in self.pieces.iter().zip(values) {
            let ok = match (p, v) {
                (Piece::Word(a), Piece::Word(b)) => *a == b,
                (Piece::Arg(a), Piece::Arg(v)) => self.arg(a, v, table, &mut bound),
                _ => false,
            };
            if !ok {
                return None;
            }
        }
        Some(bound)
    }

    fn arg(&self, a: &SeatArg, v: Value, table: &Table, bound: &mut Bindings) -> bool {
        match a {
            SeatArg::Any => true,
            SeatArg::Me => v == Value::Player(self.me),
            SeatArg::Var(name) => bind(bound, name, v),
            SeatArg::Is(values) => values.contains(&v),
            SeatArg::Set(x, y) => {
                let Value::Cards(ks) = &v else {
                    return false;
                };
                let [k] = ks.as_slice() else {
                    return false;
                };
                let Some((t, m)) = table.deck.kinds[*k].set else {
                    return false;
                };
                part(x, t, bound) && part(y, m, bound)
            }
        }
    }
}

fn part(p: &Part, n: u32, bound: &mut Bindings) -> bool {
    match p {
        Part::Any => true,
        Part::Num(m) => *m == n,
        Part::Var(v) => bind(bound, v, Value::Num(n)),
    }
}

/// Binds `name` to `v`, or checks that it is bound to `v` already.
fn bind(bound: &mut Bindings, name: &str, v: Value) -> bool {
    match bound.iter().find(|(n, _)| n == name) {
        Some((_, old)) => *old == v,
        None => {
            bound.push((name.to_string(), v));
            true
        }
    }
}

/// A legal move as its word and pieces, each argument a value (`None`
/// for the moves no referee offers: announcements, declared events).
fn move_pieces(mv: &Move, table: &Table) -> Option<(&'static str, Vec<Piece<Value>>)> {
    use Piece::{Arg as A, Word as W};
    let card = |k: Kind| A(Value::Cards(vec![k]));
    Some(match mv {
        Move::Ask {
            asker,
            asked,
            kinds,
        } => (
            "ask",
            vec![
                A(Value::Player(*asker)),
                A(Value::Player(*asked)),
                A(Value::Cards(kinds.clone())),
            ],
        ),
        Move::Draw { player, kind, from } => {
            let mut out = vec![A(Value::Player(*player))];
            if *from != table.stock() {
                out.extend([W("from"), A(Value::Loc(*from)), W(":")]);
            } else if kind.is_some() {
                out.push(W(":"));
            }
            out.extend(kind.map(card));
            ("draw", out)
        }
        Move::Peek { player, slot } => (
            "peek",
            vec![A(Value::Player(*player)), A(Value::Loc(*slot))],
        ),
        Move::Reveal { player, kind } => ("reveal", vec![A(Value::Player(*player)), card(*kind)]),
        Move::Show { from, to, kind } => (
            "show",
            vec![
                A(Value::Player(*from)),
                W("->"),
                A(Value::Player(*to)),
                card(*kind),
            ],
        ),
        Move::Transfer { kind, from, to } => (
            "move",
            vec![
                card(*kind),
                W("from"),
                A(Value::Loc(*from)),
                W("->"),
                A(Value::Loc(*to)),
            ],
        ),
        Move::Game(g) => (
            g.word(),
            g.args()
                .into_iter()
                .map(|a| match a {
                    Arg::Player(p) => A(Value::Player(p)),
                    Arg::Card(k) => card(k),
                    Arg::Slot(l) => A(Value::Loc(l)),
                })
                .collect(),
        ),
        Move::Announce(_) | Move::Apply(..) => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::game_named;
    use crate::diag::Span;

    /// The table of a dealt scenario of `game`.
    fn table(src: &str) -> Table {
        let mut session = crate::interp::Session::new(crate::interp::Options::default());
        let scenario = crate::syntax::parse(src).unwrap();
        for s in &scenario.statements {
            session.execute(s, src).unwrap();
        }
        session.finish(Span::new(0, 0)).unwrap();
        session.playing().unwrap().table.clone()
    }

    fn rule(src: &str) -> Rule {
        super::super::parse(&format!("strategy s for x\nrule r: {src}\n"))
            .unwrap()
            .rules
            .remove(0)
    }

    fn seated(src: &str, game: &str, table: &Table, me: Agent) -> SeatPattern {
        let r = rule(src);
        Pattern::new(&r.template, game_named(game).unwrap(), &r)
            .unwrap()
            .seated(table, me, &r)
            .unwrap()
    }

    fn names(b: &Bindings, table: &Table) -> Vec<(String, String)> {
        b.iter().map(|(v, x)| (v.clone(), x.name(table))).collect()
    }

    /// A Go Fish ask binds its asked player to a player and its rank to
    /// the rank's cards; `me` and a written player are values compared.
    #[test]
    fn an_ask_binds_a_player_and_a_rank() {
        let t = table(
            "game gofish\nplayers 1 2 3\ndeck ranks A K suits S H\ndeal 1: AS KS | 2: AH | 3: KH\n",
        );
        let kings: Vec<Kind> = (0..t.deck.kinds.len())
            .filter(|&k| t.deck.kinds[k].rank.as_deref() == Some("K"))
            .collect();
        let ask = Move::Ask {
            asker: 0,
            asked: 2,
            kinds: kings.clone(),
        };
        let b = seated("ask me x r", "gofish", &t, 0)
            .matches(&ask, &t)
            .unwrap();
        assert_eq!(b[0], ("x".to_string(), Value::Player(2)));
        assert_eq!(b[1], ("r".to_string(), Value::Cards(kings)));
        assert_eq!(
            names(&b, &t),
            [("x".into(), "3".into()), ("r".into(), "K".into())]
        );
        // Another seat's `me`, another player, another rank: no match.
        assert!(seated("ask me x r", "gofish", &t, 1)
            .matches(&ask, &t)
            .is_none());
        assert!(seated("ask me 2 _", "gofish", &t, 0)
            .matches(&ask, &t)
            .is_none());
        assert!(seated("ask me 3 K", "gofish", &t, 0)
            .matches(&ask, &t)
            .is_some());
        assert!(seated("ask me 3 A", "gofish", &t, 0)
            .matches(&ask, &t)
            .is_none());
        // A variable used twice must be bound to the same value.
        assert!(seated("ask x x _", "gofish", &t, 0)
            .matches(&ask, &t)
            .is_none());
        // A draw is not an ask; `any` is everything.
        let draw = Move::Draw {
            player: 0,
            kind: None,
            from: t.stock(),
        };
        assert!(seated("ask me x r", "gofish", &t, 0)
            .matches(&draw, &t)
            .is_none());
        assert!(seated("draw me", "gofish", &t, 0)
            .matches(&draw, &t)
            .is_some());
        assert_eq!(
            seated("any", "gofish", &t, 0).matches(&draw, &t),
            Some(vec![])
        );
    }

    /// A set card's pattern `<t,v>` binds the set and the member as
    /// numbers.
    #[test]
    fn a_set_card_binds_its_set_and_member() {
        let t = table("game kwartet\nplayers 1 2\ndeck sets 1..2 of 2\ndeal 1: <1,1> <2,1> | 2: <1,2> <2,2>\n");
        let k = t
            .deck
            .kinds
            .iter()
            .position(|k| k.set == Some((2, 1)))
            .unwrap();
        let ask = Move::Ask {
            asker: 1,
            asked: 0,
            kinds: vec![k],
        };
        let b = seated("ask me x <t,v>", "kwartet", &t, 1)
            .matches(&ask, &t)
            .unwrap();
        assert_eq!(b[1], ("t".to_string(), Value::Num(2)));
        assert_eq!(b[2], ("v".to_string(), Value::Num(1)));
        assert!(seated("ask me x <t,2>", "kwartet", &t, 1)
            .matches(&ask, &t)
            .is_none());
        let b = seated("ask me x c", "kwartet", &t, 1)
            .matches(&ask, &t)
            .unwrap();
        assert_eq!(names(&b, &t)[1], ("c".into(), "<2,1>".into()));
    }

    /// A move that is not the game's, or has the wrong arguments, is an
    /// error at the rule; the generic moves fit every game.
    #[test]
    fn moves_are_checked_against_the_games_forms() {
        let kemps = game_named("kemps").unwrap();
        let check = |src: &str| {
            let r = rule(src);
            Pattern::new(&r.template, kemps, &r).map(|_| ())
        };
        assert!(check("pick me c").is_ok());
        assert!(check("newtable").is_ok());
        assert!(check("draw me from open: t").is_ok());
        assert!(check("show me -> x c").is_ok());
        let err = check("pick me").unwrap_err();
        assert_eq!(err.code, "strategy-move");
        assert!(
            err.message.contains("does not fit the move `pick`"),
            "{}",
            err.message
        );
        let err = check("play me c").unwrap_err();
        assert!(
            err.message.contains("`play` is no move of kemps"),
            "{}",
            err.message
        );
        assert!(check("draw me from: t").is_err());
        assert!(check("ask me x").is_err());
    }
}
