//! The constructs the classic puzzles need: `let` names that would read as
//! operators, quantifiers and `let`s with parameters, counts and lists of
//! the worlds where a formula holds (reachable or in the whole model),
//! variables with observation (checked against a brute-force count on
//! both engines), and moves some players do not notice.

use crate::common;

use common::{fails, fails_with};
use dealer::interp::{Engine, Options, Output};
use dealer::syntax;

/// Replays `src` on `engine`; every statement must succeed.
fn replay(src: &str, engine: Engine) -> Vec<Output> {
    common::run_on(src, engine).0
}

use common::answers;

const BOTH: [Engine; 2] = [Engine::Explicit, Engine::Symbolic];

#[test]
fn a_let_name_read_as_an_operator_is_refused_where_it_is_written() {
    for (name, reading) in [
        ("M_ok", "the operator `M` of player `ok`"),
        ("B_knows", "the operator `B` of player `knows`"),
        ("Kw1", "the operator `Kw` of player `1`"),
        ("Kv_x", "the operator `Kv` of player `x`"),
        ("and", "a keyword"),
        ("E", "the operator `E`"),
    ] {
        let src = format!("prop p\nlet {name} = p\n");
        let errs = syntax::parse(&src).expect_err(name);
        assert_eq!(errs.len(), 1);
        let e = &errs[0];
        assert!(e.message.contains(reading), "{name}: {}", e.message);
        assert_eq!(&src[e.span.start..e.span.end], name);
    }
    // Names that merely start like an operator stay names.
    for name in ["Mok", "Kate", "is_M_ok", "Eve", "Bx1", "all", "any"] {
        let src = format!("{CARDS}prop p\nlet {name} = p\nexpect !{name}\n");
        assert_eq!(answers(&src, Engine::Explicit), vec![true], "{name}");
    }
}

/// Two variables, for the errors of their declarations.
pub(crate) const VARS: &str = "players S P\nvar x, y in 2..9\n";

pub(crate) const CARDS: &str =
    "players Anne Bill Cath\ndeck 0..6\ndeal Anne: 0 1 2 | Bill: 3 4 5 | Cath: 6\n";

#[test]
fn quantifiers_and_parameters_mean_their_expansions() {
    let src = format!(
        "{CARDS}\
         let ign = all x in 0..6: (hand_Cath(x) | !Kw_Cath hand_Anne(x))\n\
         let ign2 = hand_Cath(0) | !Kw_Cath hand_Anne(0)\n\
         ?? ign <-> (ign2 & (hand_Cath(1) | !Kw_Cath hand_Anne(1)) & (hand_Cath(2) | !Kw_Cath hand_Anne(2)) \
            & (hand_Cath(3) | !Kw_Cath hand_Anne(3)) & (hand_Cath(4) | !Kw_Cath hand_Anne(4)) \
            & (hand_Cath(5) | !Kw_Cath hand_Anne(5)) & (hand_Cath(6) | !Kw_Cath hand_Anne(6)))\n\
         ?? (any p in players: hand_p(3)) <-> (hand_Anne(3) | hand_Bill(3) | hand_Cath(3))\n\
         ?? (all c in cards: !hand_Cath(c) | c_is(c)) <-> hand_Cath(6)\n\
         let c_is(c) = all d in {{0, 1, 2, 3, 4, 5}}: !hand_Cath(d)\n\
         let pair(a, b) = K_a hand_b(0)\n\
         ?? pair(Anne, Anne) <-> K_Anne hand_Anne(0)\n\
         ? pair(Bill, Anne)\n\
         ? any x in 0..2: all y in {{x}}: hand_Bill(y)\n\
         ? any x in 3..5: ((all x in 0..0: hand_Anne(x)) & hand_Bill(x))\n"
    );
    for engine in BOTH {
        // `c_is` is declared after its first use: that line is refused.
        let scenario = syntax::parse(&src).unwrap();
        let mut session = common::session_on(engine);
        let mut got = Vec::new();
        for stmt in &scenario.statements {
            match session.execute(stmt, &src) {
                Ok(out) => got.extend(out.into_iter().filter_map(|o| match o {
                    Output::Answer { value, .. } | Output::Valid { value, .. } => Some(value),
                    _ => None,
                })),
                Err(d) => {
                    assert_eq!(d.code, "unknown-location", "{}", d.message);
                    got.push(false);
                }
            }
        }
        assert_eq!(
            got,
            vec![true, true, false, true, false, false, true],
            "{engine:?}"
        );
    }
}

#[test]
fn parameters_are_checked_where_they_are_used() {
    // A wrong call, a recursive `let`, an unknown name or location: in
    // `errors::bad_input_is_refused_with_a_located_error_and_its_words`.
    assert!(syntax::parse("prop p\nlet f(a, a) = p\n").is_err());
}

/// The number of worlds a `worlds where` statement lists.
fn listed(outputs: &[Output]) -> Vec<usize> {
    outputs
        .iter()
        .filter_map(|o| match o {
            Output::Lines(lines) => Some(lines.len() - 1),
            _ => None,
        })
        .collect()
}

#[test]
fn counts_and_lists_of_worlds_where_a_formula_holds() {
    let src = format!(
        "{CARDS}\
         worlds where hand_Anne(0) & hand_Anne(1)\n\
         expect worlds = 20 where hand_Anne(0) & hand_Anne(1)\n\
         expect all worlds = 140\n\
         announce hand_Cath(6) & (hand_Anne(0) | hand_Bill(0))\n\
         expect worlds = 20\n\
         announce K_Anne hand_Bill(3)\n\
         worlds where true\n\
         worlds all where true\n\
         expect all worlds = 10\n\
         expect all worlds = 6 where hand_Anne(1)\n\
         expect worlds = 10\n"
    );
    for engine in BOTH {
        let out = replay(&src, engine);
        let lists = listed(&out);
        assert_eq!(lists[0], 20, "{engine:?}");
        // After the announcements: Cath holds 6 and Anne not 3, so Anne
        // holds three of 0 1 2 4 5 (ten worlds, all reachable).
        assert_eq!(lists[1..], [10, 10], "{engine:?}");
        let held = crate::common::held(&out);
        assert_eq!(held, vec![true; 6], "{engine:?}");
    }
}

#[test]
fn the_whole_model_is_kept_through_announcements_only() {
    let src = "players 1 2\ndeck A B C\ndeal 1: A | 2: B\n\
               move C stock -> 1\nexpect all worlds = 1\n";
    let (d, at) = fails(src);
    assert_eq!(d.code, "no-whole-model");
    assert_eq!(at, "5:1");
}

/// Every assignment of `x, y in lo..=hi` with `law`.
fn brute(lo: i64, hi: i64, law: impl Fn(i64, i64) -> bool) -> Vec<(i64, i64)> {
    (lo..=hi)
        .flat_map(|x| (lo..=hi).map(move |y| (x, y)))
        .filter(|&(x, y)| law(x, y))
        .collect()
}

#[test]
fn comparisons_of_terms_agree_with_arithmetic_on_both_engines() {
    type Check = (&'static str, fn(i64, i64) -> bool);
    let checks: [Check; 8] = [
        ("x + y <= 9", |x, y| x + y <= 9),
        ("x < y", |x, y| x < y),
        ("x * y = 12", |x, y| x * y == 12),
        ("x - y >= 2", |x, y| x - y >= 2),
        ("2 * x + 3 != y * y", |x, y| 2 * x + 3 != y * y),
        ("x * (y - 3) > 4", |x, y| x * (y - 3) > 4),
        ("y = 3", |_, y| y == 3),
        ("x - 10 < y - 11", |x, y| x - 10 < y - 11),
    ];
    let law = |x: i64, y: i64| x != y;
    let mut src = String::from(
        "players S P\nvar x, y in 1..7\nlaw !(x = y)\nactual x = 2, y = 5\nS observes x + y\nP observes x * y\n",
    );
    for (text, _) in &checks {
        src.push_str(&format!("worlds all where {text}\n"));
    }
    for engine in BOTH {
        let lists = listed(&replay(&src, engine));
        for ((text, f), got) in checks.iter().zip(lists) {
            let want = brute(1, 7, |x, y| law(x, y) && f(x, y)).len();
            assert_eq!(got, want, "{engine:?}: {text}");
        }
    }
}

#[test]
fn observation_makes_the_relations() {
    // S sees the sum, P the product (x < y in 1..6).
    let src = "players S P\nvar x, y in 1..6\nlaw x < y\nactual x = 1, y = 4\n\
               S observes x + y\nP observes x * y\n\
               expect all worlds = 15\n\
               expect considers S = 2\n\
               expect Kv_P (x, y)\n\
               expect !Kv_S x & K_S (x + y = 5)\n\
               expect all worlds = 7 where Kv_P (x, y) & !Kv_S (x, y)\n";
    for engine in BOTH {
        // Products of 1..6 pairs: 6 = 1*6 = 2*3 and 12 = 2*6 = 3*4 repeat;
        // sums: 5 = 1+4 = 2+3.
        let want = brute(1, 6, |x, y| x < y)
            .into_iter()
            .filter(|&(x, y)| {
                let by_product = brute(1, 6, |a, b| a < b && a * b == x * y).len() == 1;
                let by_sum = brute(1, 6, |a, b| a < b && a + b == x + y).len() == 1;
                by_product && !by_sum
            })
            .count();
        assert_eq!(want, 7);
        assert_eq!(answers(src, engine), vec![true; 5], "{engine:?}");
    }
}

#[test]
fn bad_variable_declarations_get_located_errors() {
    // Each bad law, actual world, `Kv` term and mix with cards, with its
    // code and place: in `errors::bad_input_is_refused_with_a_located_error_and_its_words`.
    let (d, _) = fails_with(
        &format!("{VARS}actual x = 2, y = 3\n? true\n"),
        Options {
            max_worlds: 10,
            engine: dealer::interp::Engine::Explicit,
            ..Options::default()
        },
    );
    // Over the budget only the explicit engine refuses; the others build
    // the structure alone (tests/it/variables_structure.rs).
    assert_eq!(d.code, "too-many-worlds");
}

#[test]
fn a_move_some_players_do_not_notice_gives_them_a_false_belief() {
    let src =
        "players Sally Anne Ben\ndeck M\npile basket public\npile box public\ndeal basket: M\n\
               move M basket -> box unseen-by Sally Ben\n\
               expect box(M) & K_Anne box(M)\n\
               expect B_Sally basket(M) & B_Ben basket(M)\n\
               expect B_Sally !B_Anne box(M)\n\
               expect K_Anne B_Ben basket(M)\n";
    for engine in BOTH {
        assert_eq!(answers(src, engine), vec![true; 4], "{engine:?}");
    }
    // A card that is not where the move says: refused, nothing changes.
    let (d, at) =
        fails("players Sally Anne\ndeck M N\ndeal Anne: N\nmove M Anne -> stock unseen-by Sally\n");
    assert_eq!(at, "4:1");
    assert!(!d.message.is_empty());
}

#[test]
fn a_message_delivered_or_lost() {
    let src = "model {\n agents a b c\n props p\n world w1: p\n world w2:\n a: {w1} {w2}\n b: {w1 w2}\n c: {w1 w2}\n actual w1\n}\n\
               send a -> b p\n\
               expect K_b p & !K_a K_b p & !K_c p & M_c K_b p\n\
               send a -> c p lost\n\
               expect !K_c p & K_b p & M_a K_c p\n";
    for engine in BOTH {
        assert_eq!(answers(src, engine), vec![true; 2], "{engine:?}");
    }
}

#[test]
fn a_diamond_is_not_a_comparison() {
    use dealer::syntax::ast::FormulaKind;
    for src in ["<!p> (q)", "<!p> q", "<!p> (q) & r", "<!x > 3> (y)"] {
        let f = syntax::parse_formula(src).unwrap_or_else(|e| panic!("{src}: {e:?}"));
        let top = match &f.kind {
            FormulaKind::And(l, _) => &l.kind,
            k => k,
        };
        assert!(
            matches!(top, FormulaKind::AnnounceDiamond(..)),
            "{src}: {top:?}"
        );
    }
    let f = syntax::parse_formula("x * y > 12").unwrap();
    assert!(matches!(f.kind, FormulaKind::Compare { .. }));
}
