//! The psychic player of the Cabo-like game at the report's size (four
//! players, values 0..12 four times): the model is symbolic, becomes a
//! belief structure at the first glimpse, and shows the others' false
//! beliefs in a played game, checked against the model after each glimpse.

use std::path::Path;

use dealer::cards::Size;
use dealer::engine::Representation;
use dealer::interp::{Options, Session};
use dealer::play::{Match, Seat};
use dealer::strategy::agent::named;
use dealer::strategy::SHIPPED_DIR;
use dealer::syntax;

fn ask(s: &Session, f: &str) -> bool {
    s.holds(&syntax::parse_formula(f).expect("a formula"))
        .expect("answers")
}

#[test]
fn glimpses_at_full_size_make_false_beliefs_on_the_symbolic_engine() {
    let mut m = Match::new("cabo", 3, Size::Full, Options::default()).unwrap();
    let dir = Some(Path::new(SHIPPED_DIR));
    let seats: Vec<Seat> = ["psychic", "regular", "paranoid", "random"]
        .iter()
        .enumerate()
        .map(|(p, s)| m.agent_seat(named(dir, "cabo", s).unwrap(), p))
        .collect();
    m.seat(seats).unwrap();
    let mut checked = 0;
    while let Some(r) = m.agent_move() {
        let text = r.unwrap().text.clone();
        let Some(slot) = text.strip_prefix("glimpse 1 ") else {
            continue;
        };
        let s = m.session();
        let model = &s.playing().expect("dealt").model;
        assert!(matches!(
            model.representation(),
            Representation::Symbolic { .. }
        ));
        assert!(!model.is_s5() || model.listable().is_err());
        // The psychic knows the card; every other player believes it
        // does not (if the slot is not its own), and the psychic knows it.
        assert!(ask(s, &format!("Kv1 {slot}")), "{text}");
        for q in 2..=4 {
            if !slot.starts_with(&q.to_string()) {
                assert!(ask(s, &format!("B{q} !Kv1 {slot}")), "{text}: player {q}");
                assert!(
                    ask(s, &format!("K1 B{q} !Kv1 {slot}")),
                    "{text}: player {q}"
                );
            }
        }
        checked += 1;
        if checked == 6 {
            break;
        }
    }
    assert_eq!(checked, 6);
}
