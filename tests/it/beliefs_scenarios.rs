//! Scenarios with private moves and lost messages, replayed on both
//! engines: the symbolic one keeps a belief structure (no hand-over to the
//! explicit engine), and every query and expectation gets the explicit
//! engine's answer.

use crate::common;
use dealer::interp::Engine;

/// Every answer (`?`, `??`, `expect`) of `src` on `engine`, in order.
fn answers(src: &str, engine: Engine) -> Vec<(String, bool)> {
    common::verdicts(&common::run_on(src, engine).0)
}

fn same_on_both(src: &str) -> Vec<(String, bool)> {
    let e = answers(src, Engine::Explicit);
    let s = answers(src, Engine::Symbolic);
    assert_eq!(e, s);
    assert!(e.len() >= 5, "too few answers: {e:?}");
    e
}

/// The full-deck scenario's moves on 9 cards, where the explicit engine
/// runs too.
const SMALL_GOFISH: &str = "
game gofish
players 1 2 3
deck ranks 2..4 suits S H D
deal 1: 2S 3S | 2: 3H 4S | 3: 4D 2D
ask 1 2 2
draw 1
ask 2 1 3
? C 2(3S)
move 3S 2 -> 3 unseen-by 1
? 3(3S) & !2(3S)
? B1 2(3S)
? B1 !3(3S)
? B1 C 2(3S)
? K2 B1 2(3S) & K3 B1 2(3S)
? C{2,3} B1 2(3S)
? B1 K2 2(3S)
? M2 M1 3(3S)
? B3 B1 B2 2(3S)
?? B1 2(3S) -> K2 B1 2(3S)
? [move 3S 3 -> 1 unseen-by 2] (B2 3(3S) & 1(3S))
? <send 3 -> 1 3(3S)> K1 3(3S)
announce 3(3S)
? B1 false
? C{2,3} 3(3S)
";

#[test]
fn a_private_move_in_go_fish_agrees() {
    let answers = same_on_both(SMALL_GOFISH);
    let value = |q: &str| {
        answers
            .iter()
            .find(|(s, _)| s.contains(q))
            .unwrap_or_else(|| panic!("no answer to {q}"))
            .1
    };
    // The false belief, as the full-deck scenario expects it.
    assert!(value("B1 2(3S)"));
    assert!(value("3(3S) & !2(3S)"));
    assert!(value("K2 B1 2(3S) & K3 B1 2(3S)"));
    assert!(value("B1 false"));
    // Nested: a second private move inside a formula, and a message.
    assert!(value("unseen-by 2] (B2 3(3S) & 1(3S))"));
    assert!(value("K1 3(3S)"));
    assert!(!value("M2 M1 3(3S)"));
}

#[test]
fn the_classic_belief_scenarios_agree() {
    for file in [
        "scenarios/classics/sally-anne.deal",
        "scenarios/classics/coordinated-attack.deal",
    ] {
        let src = std::fs::read_to_string(file).unwrap();
        let answers = same_on_both(&src);
        assert!(answers.iter().all(|(_, held)| *held), "{file}: {answers:?}");
    }
}
