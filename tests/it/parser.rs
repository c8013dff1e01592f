//! Tests of the scenario parser: every example of LANGUAGE.md, the shapes of
//! the formulas, the errors (message and `line:col`), and robustness.

use dealer::diag::line_col;
use dealer::syntax::ast::*;
use dealer::syntax::*;

// ------------------------------------------------------------------ helpers

/// A formula as an S-expression, to compare shapes compactly.
fn sx(f: &Formula) -> String {
    use FormulaKind::*;
    let b = |op: &str, l: &Formula, r: &Formula| format!("({op} {} {})", sx(l), sx(r));
    match &f.kind {
        True => "true".into(),
        False => "false".into(),
        Named { name, card, count } => {
            let mut s = name.text.to_string();
            if let Some(c) = card {
                s += &format!("({})", c.text);
            }
            if let Some((op, n)) = count {
                s += &format!("{op}{n}");
            }
            s
        }
        HoldsSeq { player, cards } => format!("{}_{}", player.text, cards.text),
        Not(g) => format!("(not {})", sx(g)),
        And(l, r) => b("and", l, r),
        Or(l, r) => b("or", l, r),
        Implies(l, r) => b("->", l, r),
        Iff(l, r) => b("<->", l, r),
        K(a, g) => format!("(K {} {})", a.text, sx(g)),
        B(a, g) => format!("(B {} {})", a.text, sx(g)),
        M(a, g) => format!("(M {} {})", a.text, sx(g)),
        Kw(a, g) => format!("(Kw {} {})", a.text, sx(g)),
        Kv(a, l) => format!("(Kv {} {})", a.text, l.text),
        E(g, h) => format!("(E{} {})", group(g), sx(h)),
        C(g, h) => format!("(C{} {})", group(g), sx(h)),
        D(g, h) => format!("(D{} {})", group(g), sx(h)),
        Announce(a, g) => b("[!]", a, g),
        AnnounceDiamond(a, g) => b("<!>", a, g),
        After(m, g) => format!("([{}] {})", mv(m), sx(g)),
        AfterDiamond(m, g) => format!("(<{}> {})", mv(m), sx(g)),
        Quant {
            all,
            var,
            domain,
            body,
        } => {
            let d = match &**domain {
                Domain::Range(lo, hi, _) => format!("{lo}..{hi}"),
                Domain::Players => "players".into(),
                Domain::Cards => "cards".into(),
                Domain::List(names) => {
                    let names: Vec<&str> = names.iter().map(|n| n.text.as_str()).collect();
                    format!("{{{}}}", names.join(","))
                }
            };
            let q = if *all { "all" } else { "any" };
            format!("({q} {} {d} {})", var.text, sx(body))
        }
        Compare { left, cmp, right } => format!("({cmp} {} {})", term(left), term(right)),
        KvTerms(a, ts) => {
            let ts: Vec<String> = ts.iter().map(term).collect();
            format!("(Kv {} {})", a.text, ts.join(" "))
        }
        Call { name, args } => {
            let args: Vec<&str> = args.iter().map(|n| n.text.as_str()).collect();
            format!("{}({})", name.text, args.join(","))
        }
    }
}

fn term(t: &Term) -> String {
    match t {
        Term::Num(n, _) => n.to_string(),
        Term::Name(n) => n.text.to_string(),
        Term::Add(a, b) => format!("(+ {} {})", term(a), term(b)),
        Term::Sub(a, b) => format!("(- {} {})", term(a), term(b)),
        Term::Mul(a, b) => format!("(* {} {})", term(a), term(b)),
    }
}

fn group(g: &Group) -> String {
    match g {
        Group::All => String::new(),
        Group::Listed(names) => {
            let names: Vec<&str> = names.iter().map(|n| n.text.as_str()).collect();
            format!("{{{}}}", names.join(","))
        }
    }
}

fn mv(m: &Move) -> String {
    use MoveKind::*;
    match &m.kind {
        Announce(f) => format!("announce {}", sx(f)),
        Transfer { card, from, to } => format!("move {card} {from} -> {to}"),
        Draw { player, card, from } => {
            let from = from
                .as_ref()
                .map(|p| format!(" from {p}"))
                .unwrap_or_default();
            let card = card.as_ref().map(|c| format!(": {c}")).unwrap_or_default();
            format!("draw {player}{from}{card}")
        }
        Show { from, to, card } => format!("show {from} -> {to} {card}"),
        Reveal { player, card } => format!("reveal {player} {card}"),
        Peek { player, slot } => format!("peek {player} {slot}"),
        Ask { asker, asked, card } => format!("ask {asker} {asked} {card}"),
        Apply(n) => format!("apply {n}"),
        Game { word, args } => {
            let mut out = word.text.to_string();
            for a in args {
                out.push(' ');
                out.push_str(&a.text);
            }
            out
        }
        SecretTransfer {
            card,
            from,
            to,
            unseen,
        } => {
            let unseen: Vec<&str> = unseen.iter().map(|n| n.text.as_str()).collect();
            format!("move {card} {from} -> {to} unseen-by {}", unseen.join(" "))
        }
        Send {
            from,
            to,
            what,
            lost,
        } => format!(
            "send {from} -> {to} {}{}",
            sx(what),
            if *lost { " lost" } else { "" }
        ),
    }
}

/// Parses a formula and renders it.
fn f(src: &str) -> String {
    match parse_formula(src) {
        Ok(formula) => sx(&formula),
        Err(e) => panic!("{src:?} does not parse: {e:?}"),
    }
}

/// Parses a scenario that must be fine.
fn ok(src: &str) -> Vec<Statement> {
    match parse(src) {
        Ok(s) => s.statements,
        Err(es) => panic!("{src:?} does not parse: {es:#?}"),
    }
}

/// Parses one statement that must be fine.
fn one(src: &str) -> StatementKind {
    let mut statements = ok(src);
    assert_eq!(statements.len(), 1, "{src:?}");
    statements.remove(0).kind
}

/// The only error of a scenario, with its `line:col`.
fn err(src: &str) -> (SyntaxError, String) {
    let errors = parse(src).expect_err(src);
    assert_eq!(errors.len(), 1, "{src:?}: {errors:#?}");
    let e = errors.into_iter().next().unwrap();
    let (line, col) = line_col(src, e.span.start);
    (e, format!("{line}:{col}"))
}

fn texts(names: &[Name]) -> Vec<&str> {
    names.iter().map(|n| n.text.as_str()).collect()
}

// ------------------------------------------------------------------ LANGUAGE.md

const SETTING: &str = r#"game gofish                 # rules: gofish | kwartet | kemps | konigrufen | cabo | free (default free)
players 1 2 3               # or names: players Bruno Jakob Katrin Nadine
deck Q*4 A*4                # card kinds with copies (ranks only: suits do not matter)
deck ranks 2..6 suits S H D C      # 20 distinct cards 2S .. 6C
deck sets 1..13 of 4               # Kwartet: 52 distinct cards <1,1> .. <13,4>
pile table public           # extra locations; `stock` (hidden, face down) always exists
pile discard public
pile talon hidden
pile forehead1 seen-by 2 3  # seen by everyone but child 1 (muddy children)
deal 1: Q | 2: Q | 3: A     # the actual deal; what is not dealt lies in `stock`
deal 1: 2H 5H 4H 5C | 2: 5S 6D 2S 4C | 3: 2D 4D 2C 3H | table: 6H 5D 3D 3C 4S 6C
stock A A Q Q A             # optional: the actual order of the stock, top first
"#;

const CABO: &str = "game cabo
players 1 2
deck 0..3*2
deal 1.1: 3 | 1.2: 0 | 2.1: 2 | 2.2: 1
peek 1 1.2
";

const MOVES: &str = "announce φ          # truthful public announcement (an error if φ is false in the actual world)
move 6H table -> 2  # public transfer of a known card
draw 2              # player 2 draws the top of the stock; only player 2 sees the card
draw 2: A           # ... and the scenario says which card it is
show 1 -> 2 QH      # player 1 shows QH to player 2 only; the others see that a card was shown
reveal 2 QH         # player 2 shows QH to everyone (it stays in the hand)
peek 1 1.3          # player 1 looks at its own face-down card in slot 1.3
ask 1 2 Q           # gofish: ask player 2 for all cards of rank Q
ask 1 2 <8,4>       # kwartet: ask player 2 for card <8,4>
";

const GAME_MOVES: &str = "pick 2 6H           # kemps: take 6H from the table
discard 2 2S        # kemps: put 2S on the table
newtable            # kemps: table to discard, fresh cards from the stock
kemps 3             # kemps: player 3 calls Kemps
call Bruno KH       # konigrufen: the declarer calls the king of hearts
play Katrin T5      # konigrufen: play a card to the trick (follow suit if able)
export \"fig/turn1.dot\"          # the current model as DOT
export \"fig/turn1.svg\" for 6S   # an image; `for 6S`: the sub-model of one card
";

const QUERIES: &str = r#"? K1 H4<8,4>          # evaluate in the actual world: prints true / false
?? hand1(Q) -> K1 hand1(Q)   # valid in the current model (every world)?
expect C !hand3(6S)   # a check: a failing expect is an error with its line
expect not K1 2_Q
expect considers 3 = 4   # player 3 considers 4 worlds possible (actual world, minimised model)
expect worlds = 15       # the model has 15 worlds (after minimisation)
let AllOwn1 = Kv1 1.1 & Kv1 1.2   # name a formula for later queries
why K1 H4<8,4>        # explain: the worlds that make it true or false
worlds                # list the worlds; `worlds 3`: the ones player 3 considers possible
stats                 # number of worlds; how many each player considers possible
checkpoint "turn 1"   # a named point the REPL can jump to
"#;

const MODEL: &str = "model {
  agents a b
  props p q
  world w1: p q
  world w2: p
  world w3:
  a: {w1 w2} {w3}      # a's partition (S5); or a: w1->w2, w2->w2 for any relation
  b: {w1} {w2 w3}
  actual w1
}
";

const EVENT: &str = "event peek_a {
  events e1 e2
  pre e1: p            # precondition
  pre e2: !p
  post e1: q := true   # optional factual change
  a: {e1} {e2}         # a tells the events apart
  b: {e1 e2}           # b does not
  actual e1
}
apply peek_a
";

/// The formulas of the table in LANGUAGE.md §2 (φ, ψ written as p, q).
#[rustfmt::skip]
const FORMULAS: &[&str] = &[
    "hand3(6S)", "H3(6S)", "hand_3(6S)", "H4<8,4>", "hand4(<8,4>)", "1_Q", "1_QQ", "2_QAAA",
    "table(6S)", "stock(Q)", "hand1(Q) >= 2", "hand2(<8,*>) = 0", "hand2 = 3", "1.2(0..6)",
    "Kv1 1.2", "p", "AllOwn1", "true", "false", "⊤", "⊥", "!p", "~p", "¬p", "not p", "p & q",
    "p | q", "p -> q", "p <-> q", "p ∧ q", "p ∨ q", "p → q", "p ↔ q", "p and q", "p or q", "K1 p",
    "K_1 p", "K₁ p", "K[Bruno] p", "K_Bruno p", "M1 p", "B1 p", "Kw1 p", "E p", "E{1,2} p", "C p",
    "C{1,2} p", "D{1,2} p", "[!q] p", "<!q> p", "[ask 1 2 Q] p", "K1 H4<8,4> & !K2 p -> C q",
    "hand1(Q) < 2", "hand1(Q) <= 2", "hand1(Q) != 2", "hand1(Q) > 2", "hand1(6*) = 1",
    "hand1(*S) >= 1", "hand1(6♠)", "hand1(10H)", "hand1(T21)", "hand1(Skus)", "hand1(0..6)",
    "hand1(12)", "hand1(6♤)",
];

#[test]
fn every_example_of_the_contract_parses() {
    for src in [SETTING, CABO, MOVES, QUERIES, MODEL, EVENT] {
        ok(src);
    }
    assert_eq!(ok(SETTING).len(), 12);
    assert_eq!(ok(CABO).len(), 5);
    assert_eq!(ok(MOVES).len(), 9);
    assert_eq!(ok(QUERIES).len(), 11);
    assert_eq!(ok(EVENT).len(), 2);
    for formula in FORMULAS {
        f(formula);
        ok(&format!("? {formula}"));
    }
}

#[test]
fn game_moves_and_exports_parse() {
    let all = ok(GAME_MOVES);
    assert_eq!(all.len(), 8);
    let StatementKind::Export(def) = &all[7].kind else {
        panic!("{:?}", all[7].kind)
    };
    assert_eq!(def.path.text, "fig/turn1.svg");
    assert_eq!(def.card.as_ref().unwrap().text, "6S");
    assert!(def.only.is_none() && def.agents.is_none() && !def.all);
    let moves: Vec<String> = GAME_MOVES
        .lines()
        .filter(|l| !l.starts_with("export"))
        .map(|l| match &ok(l)[0].kind {
            StatementKind::Move(m) => mv(m),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        moves,
        [
            "pick 2 6H",
            "discard 2 2S",
            "newtable",
            "kemps 3",
            "call Bruno KH",
            "play Katrin T5"
        ]
    );
    let place = ok("place 1 1.2; draw 1 from discard: 5; pass 1; glimpse 2 1.3");
    let shown: Vec<String> = place
        .iter()
        .map(|s| match &s.kind {
            StatementKind::Move(m) => mv(m),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        shown,
        [
            "place 1 1.2",
            "draw 1 from discard: 5",
            "pass 1",
            "glimpse 2 1.3"
        ]
    );
    let psychic = ok("psychic 2 3; uncounted");
    // `psychic` is the Cabo-like game's declaration, read in a game's form.
    assert!(matches!(
        &psychic[0].kind,
        StatementKind::Move(m) if matches!(&m.kind, MoveKind::Game { word, args }
            if word.text == "psychic" && args.len() == 2)
    ));
    assert!(matches!(&psychic[1].kind, StatementKind::Uncounted));
}

// ------------------------------------------------------------------ formulas

#[test]
fn precedence_follows_the_contract() {
    assert_eq!(
        f("K1 H4<8,4> & !K2 p -> C q"),
        "(-> (and (K 1 H4(<8,4>)) (not (K 2 p))) (C q))"
    );
    assert_eq!(f("p -> q -> r"), "(-> p (-> q r))");
    assert_eq!(f("p <-> q <-> r"), "(<-> (<-> p q) r)");
    assert_eq!(f("p -> q <-> r -> s"), "(<-> (-> p q) (-> r s))");
    assert_eq!(f("p | q & r"), "(or p (and q r))");
    assert_eq!(f("p & q | r & s"), "(or (and p q) (and r s))");
    assert_eq!(f("!p & q"), "(and (not p) q)");
    assert_eq!(f("K1 p & q"), "(and (K 1 p) q)");
    assert_eq!(f("K1 (p & q)"), "(K 1 (and p q))");
    assert_eq!(f("not not p"), "(not (not p))");
    assert_eq!(f("p∧q∨r→s↔t"), "(<-> (-> (or (and p q) r) s) t)");
    assert_eq!(f("p and q or r"), "(or (and p q) r)");
}

#[test]
fn atoms_and_counts() {
    assert_eq!(f("hand3(6S)"), "hand3(6S)");
    assert_eq!(f("hand[Bruno](KH)"), "hand_Bruno(KH)");
    assert_eq!(f("1.2(0..6)"), "1.2(0..6)");
    assert_eq!(f("hand1(Q) >= 2"), "hand1(Q)>=2");
    assert_eq!(f("hand2(<8,*>) = 0"), "hand2(<8,*>)=0");
    assert_eq!(f("hand2 = 3"), "hand2=3");
    assert_eq!(f("hand2=3&p"), "(and hand2=3 p)");
    assert_eq!(f("hand1(Q)!=2"), "hand1(Q)!=2");
    assert_eq!(f("#hand1 = 3"), "hand1=3");
    assert_eq!(f("p<->q"), "(<-> p q)");
    assert_eq!(
        f("android & notary | order"),
        "(or (and android notary) order)"
    );
    assert_eq!(f("truth | falsehood"), "(or truth falsehood)");
    assert_eq!(f("Cat & C p"), "(and Cat (C p))");
    assert_eq!(f("Kate & Mo & Bo"), "(and (and Kate Mo) Bo)");
    assert_eq!(f("hand1(6♠) & stock(Q)"), "(and hand1(6♠) stock(Q))");

    let formula = parse_formula("#hand1 = 3").unwrap();
    assert_eq!(formula.span, Span::new(0, 10));
    let FormulaKind::Named { name, .. } = formula.kind else {
        panic!()
    };
    assert_eq!((name.text.as_str(), name.span), ("hand1", Span::new(1, 6)));

    let formula = parse_formula("hand[Bruno](KH)").unwrap();
    let FormulaKind::Named { name, card, .. } = formula.kind else {
        panic!()
    };
    assert_eq!(name.span, Span::new(0, 11));
    assert_eq!(card.unwrap().span, Span::new(12, 14));
}

#[test]
fn holds_sequences() {
    assert_eq!(f("1_QQ"), "1_QQ");
    let FormulaKind::HoldsSeq { player, cards } = parse_formula("2_QAAA").unwrap().kind else {
        panic!()
    };
    assert_eq!((player.text.as_str(), cards.text.as_str()), ("2", "QAAA"));
    assert_eq!(f("K1 1_Q & !2_QQ"), "(and (K 1 1_Q) (not 2_QQ))");
}

#[test]
fn operators_with_agents() {
    assert_eq!(f("K1 p"), "(K 1 p)");
    assert_eq!(f("K_1 p"), "(K 1 p)");
    assert_eq!(f("K₁₂ p"), "(K 12 p)");
    assert_eq!(f("K[Bruno] p"), "(K Bruno p)");
    assert_eq!(f("K_Bruno p"), "(K Bruno p)");
    assert_eq!(f("M2 B3 p"), "(M 2 (B 3 p))");
    assert_eq!(f("Kw1 w1"), "(Kw 1 w1)");
    assert_eq!(f("K_w1 p"), "(K w1 p)");
    assert_eq!(f("Kw_Bruno p"), "(Kw Bruno p)");
    assert_eq!(
        f("Kv1 1.2 & Kv[Bruno] table"),
        "(and (Kv 1 1.2) (Kv Bruno table))"
    );
    assert_eq!(f("E p"), "(E p)");
    assert_eq!(f("E{1,2} p"), "(E{1,2} p)");
    assert_eq!(f("C{1, 2} p"), "(C{1,2} p)");
    assert_eq!(f("D{Bruno,Nadine} p"), "(D{Bruno,Nadine} p)");
    assert_eq!(f("C(p)"), "(C p)");

    let FormulaKind::K(agent, _) = parse_formula("K₁ p").unwrap().kind else {
        panic!()
    };
    assert_eq!((agent.text.as_str(), agent.span), ("1", Span::new(1, 4)));
}

#[test]
fn dynamic_operators() {
    assert_eq!(f("[!p] K1 p"), "([!] p (K 1 p))");
    assert_eq!(f("<!p | q> q & r"), "(and (<!> (or p q) q) r)");
    assert_eq!(f("[ask 1 2 Q] C 1_Q"), "([ask 1 2 Q] (C 1_Q))");
    assert_eq!(f("<ask 1 2 <8,4>> p"), "(<ask 1 2 <8,4>> p)");
    assert_eq!(f("[draw 2: A] p"), "([draw 2: A] p)");
    assert_eq!(f("[apply peek_a] q"), "([apply peek_a] q)");
    assert_eq!(f("[move 6H table -> 2] p"), "([move 6H table -> 2] p)");
    assert_eq!(f("[show 1 -> 2 QH] p"), "([show 1 -> 2 QH] p)");
    assert_eq!(f("[announce p -> q] r"), "([announce (-> p q)] r)");
    assert_eq!(f("<!hand1 > 2> p"), "(<!> hand1>2 p)");
}

#[test]
fn formula_spans_point_into_the_source() {
    let src = "?   K1 p  &  q   # comment";
    let [Statement {
        kind: StatementKind::Query(formula),
        span,
    }] = &ok(src)[..]
    else {
        panic!()
    };
    assert_eq!(*span, Span::new(0, 14));
    assert_eq!(formula.span, Span::new(4, 14));
    let FormulaKind::And(left, right) = &formula.kind else {
        panic!()
    };
    assert_eq!(
        (left.span, right.span),
        (Span::new(4, 8), Span::new(13, 14))
    );
    // A formula of the second line.
    let src = "stats\n? (p\n  & q)";
    let statements = ok(src);
    assert_eq!(statements[1].span, Span::new(6, 17));
    let StatementKind::Query(formula) = &statements[1].kind else {
        panic!()
    };
    let FormulaKind::And(_, right) = &formula.kind else {
        panic!()
    };
    assert_eq!(&src[right.span.start..right.span.end], "q");
}

// ------------------------------------------------------------------ statements

#[test]
fn setting_the_table() {
    let s = ok(SETTING);
    assert!(matches!(&s[0].kind, StatementKind::Game(n) if n.text == "gofish"));
    let StatementKind::Players(players) = &s[1].kind else {
        panic!()
    };
    assert_eq!(texts(players), ["1", "2", "3"]);
    let StatementKind::Deck(DeckSpec::Kinds(items)) = &s[2].kind else {
        panic!()
    };
    assert_eq!((items[0].card.text.as_str(), items[0].copies), ("Q", 4));
    let StatementKind::Deck(DeckSpec::RanksSuits { ranks, suits }) = &s[3].kind else {
        panic!()
    };
    assert_eq!(texts(ranks), ["2", "3", "4", "5", "6"]);
    assert_eq!(texts(suits), ["S", "H", "D", "C"]);
    let StatementKind::Deck(DeckSpec::Sets {
        first: 1,
        last: 13,
        members: 4,
        ..
    }) = &s[4].kind
    else {
        panic!()
    };
    assert!(
        matches!(&s[5].kind, StatementKind::Pile { name, visibility: Visibility::Public, holds: None } if name.text == "table")
    );
    assert!(matches!(
        &s[7].kind,
        StatementKind::Pile {
            visibility: Visibility::Hidden,
            ..
        }
    ));
    let StatementKind::Pile {
        name,
        visibility: Visibility::SeenBy(who),
        holds: None,
    } = &s[8].kind
    else {
        panic!()
    };
    assert_eq!(
        (name.text.as_str(), texts(who)),
        ("forehead1", vec!["2", "3"])
    );
    let StatementKind::Pile {
        visibility: Visibility::SeenBy(who),
        holds: Some(cards),
        ..
    } = one("pile coin1 seen-by 1 2 holds H T")
    else {
        panic!()
    };
    assert_eq!(
        (texts(&who), texts(&cards)),
        (vec!["1", "2"], vec!["H", "T"])
    );
    let StatementKind::Order(piles) = one("order pay1 coin1 pay2") else {
        panic!()
    };
    assert_eq!(texts(&piles), ["pay1", "coin1", "pay2"]);
    let StatementKind::Deal(parts) = &s[10].kind else {
        panic!()
    };
    assert_eq!(parts.len(), 4);
    assert_eq!(parts[3].location.text, "table");
    assert_eq!(texts(&parts[3].cards), ["6H", "5D", "3D", "3C", "4S", "6C"]);
    let StatementKind::Stock(cards) = &s[11].kind else {
        panic!()
    };
    assert_eq!(texts(cards), ["A", "A", "Q", "Q", "A"]);
}

#[test]
fn decks_and_deals() {
    let StatementKind::Deck(DeckSpec::Kinds(items)) = one("deck Q*4 A*4 7S 0..12*4 <8,4>") else {
        panic!()
    };
    let got: Vec<(&str, u32)> = items
        .iter()
        .map(|i| (i.card.text.as_str(), i.copies))
        .collect();
    assert_eq!(
        got,
        [("Q", 4), ("A", 4), ("7S", 1), ("0..12", 4), ("<8,4>", 1)]
    );
    let StatementKind::Deck(DeckSpec::RanksSuits { ranks, suits }) =
        one("deck ranks 2..10 J Q K A suits ♠ ♥")
    else {
        panic!()
    };
    assert_eq!(ranks.len(), 13);
    assert_eq!(ranks[8].text, "10");
    assert_eq!(ranks[0].span, Span::new(11, 16));
    assert_eq!(ranks[12].text, "A");
    assert_eq!(texts(&suits), ["♠", "♥"]);
    let StatementKind::Deal(parts) = one("deal 1.1: 3 | Bruno.2: 0 | Nadine: QH 10H") else {
        panic!()
    };
    let locations: Vec<&str> = parts.iter().map(|p| p.location.text.as_str()).collect();
    assert_eq!(locations, ["1.1", "Bruno.2", "Nadine"]);
    assert!(matches!(one("seed 42"), StatementKind::Seed(42, span) if span == Span::new(5, 7)));
    assert!(matches!(one("turn Bruno"), StatementKind::Turn(n) if n.text == "Bruno"));
    let StatementKind::Prop(props) = one("prop p q r") else {
        panic!()
    };
    assert_eq!(texts(&props), ["p", "q", "r"]);
}

#[test]
fn queries_and_checks() {
    let s = ok(QUERIES);
    assert!(matches!(&s[0].kind, StatementKind::Query(_)));
    assert!(matches!(&s[1].kind, StatementKind::Valid(_)));
    let StatementKind::Expect(Expectation::Holds(formula)) = &s[3].kind else {
        panic!()
    };
    assert_eq!(sx(formula), "(not (K 1 2_Q))");
    let StatementKind::Expect(Expectation::Considers {
        player,
        cmp: CmpOp::Eq,
        n,
    }) = &s[4].kind
    else {
        panic!()
    };
    assert_eq!((player.text.as_str(), n.to_string()), ("3", "4".into()));
    assert!(matches!(
        &s[5].kind,
        StatementKind::Expect(Expectation::Worlds {
            cmp: CmpOp::Eq,
            n
        }) if n.to_string() == "15"
    ));
    let StatementKind::Let(name, formula) = &s[6].kind else {
        panic!()
    };
    assert_eq!(
        (name.text.as_str(), sx(formula)),
        ("AllOwn1", "(and (Kv 1 1.1) (Kv 1 1.2))".into())
    );
    assert!(matches!(&s[7].kind, StatementKind::Why(_)));
    assert!(matches!(&s[8].kind, StatementKind::Worlds(None)));
    assert!(matches!(&s[9].kind, StatementKind::Stats));
    let StatementKind::Checkpoint(name) = &s[10].kind else {
        panic!()
    };
    let at = QUERIES.find("\"turn 1\"").unwrap();
    assert_eq!(
        (name.text.as_str(), name.span),
        ("turn 1", Span::new(at, at + 8))
    );
    assert!(matches!(one("worlds 3"), StatementKind::Worlds(Some(n)) if n.text == "3"));
    assert!(
        matches!(one("checkpoint \"a # b; c\""), StatementKind::Checkpoint(n) if n.text == "a # b; c")
    );
    assert!(matches!(
        one("expect worlds >= 2"),
        StatementKind::Expect(Expectation::Worlds {
            cmp: CmpOp::Ge,
            n
        }) if n.to_string() == "2"
    ));
    let big = "1".to_string() + &"0".repeat(200);
    assert!(matches!(
        one(&format!("expect worlds = {big}")),
        StatementKind::Expect(Expectation::Worlds { cmp: CmpOp::Eq, n }) if n.to_string() == big
    ));
}

#[test]
fn moves() {
    let got: Vec<String> = ok(MOVES)
        .iter()
        .map(|s| match &s.kind {
            StatementKind::Move(m) => mv(m),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        got,
        [
            "announce φ",
            "move 6H table -> 2",
            "draw 2",
            "draw 2: A",
            "show 1 -> 2 QH",
            "reveal 2 QH",
            "peek 1 1.3",
            "ask 1 2 Q",
            "ask 1 2 <8,4>",
        ]
    );
    assert!(matches!(
        one("apply peek_a"),
        StatementKind::Move(Move {
            kind: MoveKind::Apply(_),
            ..
        })
    ));
}

// ------------------------------------------------------------------ splitting

#[test]
fn hash_glued_to_a_name_is_a_count_not_a_comment() {
    let StatementKind::Query(formula) = one("? #hand1 = 3 # three cards") else {
        panic!()
    };
    assert_eq!(sx(&formula), "hand1=3");
    assert_eq!(ok("# a comment\n#\n   # another\n").len(), 0);
    assert_eq!(ok("stats #\n").len(), 1);
}

#[test]
fn semicolons_join_statements() {
    let s = ok("game cabo; players 1 2 ;deck 0..3*2\nstats");
    assert_eq!(s.len(), 4);
    assert_eq!(s[1].span, Span::new(11, 22));
    assert_eq!(parse_statement("? p; ? q").unwrap().len(), 2);
}

#[test]
fn continuations_and_brackets_span_lines() {
    let s = ok("deal 1: Q | \\\n  2: Q | \\   \n  3: A\nstats");
    assert_eq!(s.len(), 2);
    let StatementKind::Deal(parts) = &s[0].kind else {
        panic!()
    };
    assert_eq!(parts.len(), 3);
    assert_eq!(parts[2].cards[0].span, Span::new(33, 34));
    let s = ok("? (p &   # first half\n   q) |\\\n r\n?? [ask 1 2\n Q] p");
    assert_eq!(s.len(), 2);
    let StatementKind::Query(formula) = &s[0].kind else {
        panic!()
    };
    assert_eq!(sx(formula), "(or (and p q) r)");
    let s = ok("deal 1: Q\r\nstats\r\n");
    assert_eq!(s.len(), 2);
}

#[test]
fn model_blocks() {
    let [Statement {
        kind: StatementKind::Model(m),
        ..
    }] = &ok(MODEL)[..]
    else {
        panic!()
    };
    assert_eq!(texts(&m.agents), ["a", "b"]);
    assert_eq!(texts(&m.props), ["p", "q"]);
    let worlds: Vec<(&str, usize)> = m
        .worlds
        .iter()
        .map(|w| (w.name.text.as_str(), w.true_props.len()))
        .collect();
    assert_eq!(worlds, [("w1", 2), ("w2", 1), ("w3", 0)]);
    assert_eq!(m.relations.len(), 2);
    let RelationSpec::Partition(cells) = &m.relations[1].relation else {
        panic!()
    };
    assert_eq!(
        cells.iter().map(|c| texts(c)).collect::<Vec<_>>(),
        [vec!["w1"], vec!["w2", "w3"]]
    );
    assert_eq!(m.actual.text, "w1");
    assert_eq!(m.span, Span::new(0, MODEL.len() - 1));

    let src = "model { agents a; world w1: p; world w2:; a: w1->w2, w2 -> w2; actual w2 }";
    let StatementKind::Model(m) = one(src) else {
        panic!()
    };
    let RelationSpec::Arrows(arrows) = &m.relations[0].relation else {
        panic!()
    };
    let arrows: Vec<(&str, &str)> = arrows
        .iter()
        .map(|(a, b)| (a.text.as_str(), b.text.as_str()))
        .collect();
    assert_eq!(arrows, [("w1", "w2"), ("w2", "w2")]);
}

#[test]
fn event_blocks() {
    let s = ok(EVENT);
    let StatementKind::Event(e) = &s[0].kind else {
        panic!()
    };
    assert_eq!(e.name.text, "peek_a");
    assert_eq!(texts(&e.events), ["e1", "e2"]);
    let pre: Vec<(&str, String)> = e
        .pre
        .iter()
        .map(|(n, f)| (n.text.as_str(), sx(f)))
        .collect();
    assert_eq!(
        pre,
        [("e1", "p".to_string()), ("e2", "(not p)".to_string())]
    );
    assert_eq!(e.post.len(), 1);
    assert_eq!(sx(&e.post[0].1[0].1), "true");
    assert_eq!(e.relations.len(), 2);
    assert_eq!(e.actual.text, "e1");
    let src = "event e {\n events x\n post x: q := true, p := p & E{1,2} q\n actual x\n}";
    let StatementKind::Event(e) = one(src) else {
        panic!()
    };
    let posts: Vec<(&str, String)> = e.post[0]
        .1
        .iter()
        .map(|(n, f)| (n.text.as_str(), sx(f)))
        .collect();
    assert_eq!(
        posts,
        [
            ("q", "true".to_string()),
            ("p", "(and p (E{1,2} q))".to_string())
        ]
    );
}

#[test]
fn completeness_for_the_repl() {
    assert!(is_complete("? p"));
    assert!(is_complete(""));
    assert!(!is_complete("? (p &"));
    assert!(!is_complete("model {\n agents a"));
    assert!(!is_complete("deal 1: Q | \\"));
    assert!(!is_complete("deal 1: Q | \\\n"));
    assert!(is_complete("? p)"));
    assert!(is_complete("? p # (unclosed in a comment"));
    assert!(is_complete("checkpoint \"(\""));
}

// ------------------------------------------------------------------ errors

/// Asserts the only error of `src`: its message, its `line:col`, what was
/// expected and the hint.
fn check(src: &str, message: &str, at: &str, expected: &str, help: Option<&str>) {
    let (e, pos) = err(src);
    assert_eq!(
        (
            e.message.as_str(),
            pos.as_str(),
            e.expected.as_str(),
            e.help.as_deref()
        ),
        (message, at, expected, help),
        "{src:?}"
    );
}

const STMT: &str = "expected a statement (game, players, deck, deal, a move, ?, expect ...)";

#[test]
#[rustfmt::skip]
fn error_deal_without_colon() {
    check("deal 1 Q", "unexpected `Q`", "1:8", "expected `:`", Some("write `deal 1: Q`"));
}

#[test]
#[rustfmt::skip]
fn error_unknown_statement_suggests_the_keyword() {
    // A word and plain arguments are a game's move (`expct C p`, `K1 p`):
    // the game says it has no such move (tests/it/games.rs). A statement
    // that does not parse as one either, and starts with a keyword
    // misspelt, is an unknown statement.
    check("expct C -> p", "unknown statement `expct`", "1:1", STMT, Some("did you mean `expect`?"));
    check("  shw 1 -> 2 QH", "unknown statement `shw`", "1:3", STMT, Some("did you mean `show`?"));
    check("K1 p -> q", "unexpected `->`", "1:6",
          "expected the end of the statement or a player, a card or a slot such as 1.2", None);
}

#[test]
#[rustfmt::skip]
fn error_unclosed_bracket() {
    let help = Some("this `(` is never closed: add `)` where it ends");
    check("stats\n? (p & q", "unclosed `(`", "2:3", "expected a matching `)`", help);
    check("? hand1(Q", "unclosed `(`", "1:8", "expected a matching `)`", help);
    let help = Some("this `{` is never closed: add `}` where it ends");
    check("model {\n agents a\n", "unclosed `{`", "1:7", "expected a matching `}`", help);
}

#[test]
#[rustfmt::skip]
fn error_stray_closing_bracket() {
    check("? p)", "unexpected `)`", "1:4",
          "expected the end of the statement or an operator such as & or ->",
          Some("this `)` closes nothing: remove it or add a `(` before it"));
}

#[test]
#[rustfmt::skip]
fn error_knowledge_without_agent() {
    check("? K p & q", "`K` needs a player", "1:3",
          "expected a player right after K, such as K1 or K_Bruno",
          Some("write the player right after K: K1 φ, K_Bruno φ"));
    let (e, _) = err("? Kw (p)");
    assert_eq!(e.message, "`Kw` needs a player");
}

#[test]
#[rustfmt::skip]
fn error_empty_formula() {
    check("?", "unexpected end of input", "1:2", "expected a formula", None);
    check("??   # nothing\nstats", "unexpected end of line", "1:3", "expected a formula", None);
    check("? p &; stats", "unexpected `;`", "1:6", "expected a formula after `&`", None);
}

#[test]
#[rustfmt::skip]
fn error_count_without_number() {
    let help = Some("a count compares with a number: `hand1(Q) >= 2`");
    check("? hand1(Q) >=", "unexpected end of input", "1:14", "expected a number", help);
    check("? hand1(Q) >= x", "unexpected `x`", "1:15", "expected a number", help);
}

#[test]
#[rustfmt::skip]
fn error_bad_card_token() {
    let expected = "expected a card, such as 6S, Q or <8,4>";
    check("? hand3 (6S)", "unexpected `(`", "1:9",
          "expected the end of the statement or an operator such as & or ->",
          Some("write the card right after the name: `hand3(6S)`"));
    check("? hand2(<8,>)", "unexpected `<8,>`", "1:9", expected, None);
    check("ask 1 2 <8,>", "unexpected `<8,>`", "1:9", expected, None);
}

#[test]
#[rustfmt::skip]
fn error_players_without_players() {
    check("players", "unexpected end of input", "1:8",
          "expected a player, such as 1 or Bruno", None);
    check("players # none\nstats", "unexpected end of line", "1:8",
          "expected a player, such as 1 or Bruno", None);
}

#[test]
#[rustfmt::skip]
fn error_checkpoint_needs_quotes() {
    check("checkpoint turn1", "unexpected `turn1`", "1:12",
          "expected a quoted text, such as \"turn 1\"",
          Some("put the text in double quotes: `checkpoint \"turn1\"`"));
}

#[test]
#[rustfmt::skip]
fn error_unterminated_string() {
    check("checkpoint \"turn 1\nstats", "unexpected end of line", "1:19",
          "expected a closing `\"`", Some("this text is never closed: end it with `\"`"));
}

#[test]
#[rustfmt::skip]
fn error_model_without_actual() {
    check("stats\nmodel {\n agents a\n world w1:\n a: {w1}\n}", "this model block has no `actual` line", "2:1",
          "expected a line `actual NAME` inside the block",
          Some("say which world is the actual one, e.g. `actual w1`"));
    check("event e { events x; pre x: p }", "this event block has no `actual` line", "1:1",
          "expected a line `actual NAME` inside the block",
          Some("say which event is the actual one, e.g. `actual e1`"));
    let (e, at) = err("model { agents a; world w; actual w; actual w }");
    assert_eq!(
        (e.message.as_str(), at.as_str()),
        ("a second `actual` in this block", "1:38")
    );
}

#[test]
#[rustfmt::skip]
fn error_expect_considers_without_number() {
    check("expect considers 3 =", "unexpected end of input", "1:21", "expected a number", None);
    check("expect considers 3", "unexpected end of input", "1:19",
          "expected a comparison: <, <=, =, !=, >= or >",
          Some("write e.g. `expect considers 3 = 4` or `expect worlds >= 2`"));
}

#[test]
#[rustfmt::skip]
fn error_garbage_unicode() {
    check("ℵ∂ƒ ☃", "unexpected `ℵ`", "1:1", STMT, None);
    check("? p ☃ q", "unexpected `☃`", "1:5",
          "expected the end of the statement or an operator such as & or ->", None);
}

#[test]
#[rustfmt::skip]
fn error_implication_without_right_side() {
    check("? p ->", "unexpected end of input", "1:7", "expected a formula after `->`", None);
    check("? p → # then?\nstats", "unexpected end of line", "1:6",
          "expected a formula after `->`", None);
}

#[test]
#[rustfmt::skip]
fn error_on_line_three() {
    check("game x\nplayers 1 2\ndeal 1: Q | 2 Q\nstats\n", "unexpected `Q`", "3:15",
          "expected `:`", Some("write `deal 1: Q | 2: Q`"));
}

#[test]
#[rustfmt::skip]
fn error_pile_visibility_and_moves() {
    let vis = "expected `public`, `hidden` or `seen-by` with players";
    check("pile t secret", "unexpected `secret`", "1:8", vis, None);
    check("move 6H table 2", "unexpected `2`", "1:15", "expected `->`", None);
    check("? [ask 1 2] p", "unexpected `]`", "1:11",
          "expected a card, such as 6S, Q or <8,4>", None);
    check("? <!p q", "unexpected `q`", "1:7", "expected `>` or an operator such as & or ->", None);
    check("? E{1,} p", "unexpected `}`", "1:7", "expected a player, such as 1 or Bruno", None);
}

#[test]
#[rustfmt::skip]
fn error_numbers_and_ranges() {
    check("seed 99999999999999999999999", "the number 99999999999999999999999 is too large", "1:6",
          "expected a smaller number",
          Some("numbers here must fit in 32 bits (64 for seeds)"));
    check("deck ranks 9..2 suits S", "the range 9..2 is empty or too long", "1:12",
          "expected a range such as 2..10",
          Some("write the smaller number first; at most 1000 values"));
}

#[test]
#[rustfmt::skip]
fn error_misspelt_block_line() {
    check("model {\n agents a\n agnts b\n actual w1\n}", "unexpected `b`", "3:8",
          "expected `:`", Some("did you mean `agents`?"));
}

#[test]
fn one_error_per_bad_statement_and_parsing_goes_on() {
    let src = "game x\nexpct p -> q\nplayers\nstats\n? (p\n";
    let errors = parse(src).unwrap_err();
    let at: Vec<String> = errors
        .iter()
        .map(|e| {
            let (l, c) = line_col(src, e.span.start);
            format!("{l}:{c} {}", e.message)
        })
        .collect();
    assert_eq!(
        at,
        [
            "2:1 unknown statement `expct`",
            "3:8 unexpected end of line",
            "5:3 unclosed `(`"
        ]
    );
    let errors = parse_statement("? p &; ? q; deal 1").unwrap_err();
    assert_eq!(errors.len(), 2);
}

#[test]
fn formula_entry_rejects_trailing_input() {
    let e = parse_formula("p q").unwrap_err();
    assert_eq!(
        (e.message.as_str(), e.span, e.expected.as_str()),
        (
            "unexpected `q`",
            Span::new(2, 3),
            "expected the end of the formula or an operator such as & or ->"
        )
    );
    let e = parse_formula("").unwrap_err();
    assert_eq!(
        (e.message.as_str(), e.expected.as_str()),
        ("unexpected end of input", "expected a formula")
    );
    assert_eq!(f("p &\n q"), "(and p q)");
}

#[test]
fn diagnostics_render() {
    let src = "players 1 2\ndeal 1 Q\n";
    let (e, _) = err(src);
    let out = e.to_diagnostic().render("x.deal", src, false);
    assert!(out.contains("x.deal:2:8"), "{out}");
    assert!(out.contains("^ expected `:`"), "{out}");
}

// ------------------------------------------------------------------ robustness

#[test]
fn never_panics_on_truncated_or_mutated_input() {
    let mut inputs: Vec<String> = Vec::new();
    let all = [SETTING, CABO, MOVES, GAME_MOVES, QUERIES, MODEL, EVENT].concat();
    let mut sources: Vec<String> = all.lines().map(String::from).collect();
    sources.extend(FORMULAS.iter().map(|f| format!("? {f}")));
    sources.extend([MODEL, EVENT, "? (p &\n q) | \\\n r"].map(String::from));
    for src in &sources {
        for (i, _) in src.char_indices() {
            inputs.push(src[..i].to_string());
            inputs.push(src[i..].to_string());
            let mut dropped = src.clone();
            dropped.remove(i);
            inputs.push(dropped);
        }
    }
    inputs.extend(
        [
            "", "\\", "\\\n", ";;;", "(((", ")))", "}{", "\"", "#", "# ", "?\u{0}", "\r\n\r",
            "¬¬¬", "K₁", "<", "<!", "[!",
        ]
        .map(String::from),
    );
    assert!(inputs.len() > 1000);
    for input in &inputs {
        let _ = parse(input);
        let _ = parse_formula(input);
        let _ = is_complete(input);
        if let Err(errors) = parse(input) {
            for e in errors {
                assert!(
                    e.span.start <= e.span.end && e.span.end <= input.len(),
                    "{input:?}: {e:?}"
                );
                let _ = e.to_diagnostic().render("f", input, false);
            }
        }
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    for n in [10, 150, 300, 5000] {
        let src = format!("? {}p{}", "(".repeat(n), ")".repeat(n));
        match parse(&src) {
            Ok(_) => assert!(n <= 150),
            Err(e) => assert_eq!(e[0].message, "this formula is nested too deeply"),
        }
        let _ = parse(&format!("? {}p", "!".repeat(n)));
        let _ = parse(&format!("? {}p", "not ".repeat(n)));
        let _ = parse(&format!("? {}p", "K1 ".repeat(n)));
        let _ = parse(&format!("? p{}", " & p".repeat(n)));
        let _ = parse(&format!("? p{}", " -> p".repeat(n)));
    }
}

#[test]
fn export_options_parse_in_any_order_once_each() {
    let stmts = ok("export \"p1.svg\" all agents 1,2 only Bruno for <8,4>");
    let StatementKind::Export(def) = &stmts[0].kind else {
        panic!("{:?}", stmts[0].kind)
    };
    let agents: Vec<&str> = def
        .agents
        .as_ref()
        .unwrap()
        .iter()
        .map(|n| n.text.as_str())
        .collect();
    assert_eq!(agents, ["1", "2"]);
    assert_eq!(def.only.as_ref().unwrap().text, "Bruno");
    assert_eq!(def.card.as_ref().unwrap().text, "<8,4>");
    assert!(def.all);
    let errors = parse("export \"f.dot\" for 6S for 7S").unwrap_err();
    assert_eq!(errors[0].message, "`for` is given twice");
    let errors = parse("export f.dot").unwrap_err();
    assert!(
        errors[0]
            .help
            .as_deref()
            .unwrap_or("")
            .contains("double quotes"),
        "{:?}",
        errors[0]
    );
}

/// A long scenario is parsed on every core; the statements, and the errors
/// of bad ones, are the same with one thread as with two, in order.
#[test]
fn parsing_does_not_depend_on_the_number_of_threads() {
    let mut src = String::from(
        "players Anne Bill Cath\ndeck 0..6\ndeal Anne: 0 1 2 | Bill: 3 4 5 | Cath: 6\n",
    );
    for i in 0..600 {
        let k = i % 7;
        src.push_str(&format!(
            "? [!K_Anne (hand_Anne({k}) | hand_Bill({k}))] C{{Anne,Bill}} (Kw_Bill hand_Anne({k}) & !K_Cath hand_Bill({}))\n",
            (k + 1) % 7
        ));
        if i % 97 == 0 {
            src.push_str("exepct K_Anne -> p\n");
        }
    }
    let run = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| match parse(&src) {
                Ok(s) => Ok(s.statements),
                Err(e) => Err(format!("{e:?}")),
            })
    };
    let one = run(1);
    let two = run(2);
    assert_eq!(one, two);
    // The bad lines are errors, reported in order.
    let errors = one.unwrap_err();
    assert_eq!(errors.matches("SyntaxError").count(), 7, "{errors}");
    // Without the bad lines, all 603 statements.
    let good: String = src
        .lines()
        .filter(|l| !l.starts_with("exepct"))
        .map(|l| format!("{l}\n"))
        .collect();
    let parsed = parse(&good).unwrap().statements;
    assert_eq!(parsed.len(), 603);
}
