//! Fuzz target: parse and replay a scenario with a small world budget.
//! Every statement either succeeds or returns a diagnostic; nothing panics,
//! and a refused statement leaves the session exactly as it was: the same
//! model (the same object, and the same fingerprint: world count, actual
//! world, what each agent considers), game state, checkpoints and names.
#![no_main]

use std::rc::Rc;

use dealer::interp::{Engine, Options, Session};
use libfuzzer_sys::fuzz_target;

/// What a refused statement must not change.
#[derive(Debug, PartialEq)]
struct Fingerprint {
    checkpoints: Vec<String>,
    lets: Vec<String>,
    model: Option<(u128, Vec<Vec<u32>>, Vec<bool>, Vec<u128>)>,
    state: Option<String>,
}

fn fingerprint(session: &Session) -> Fingerprint {
    let playing = session.playing();
    Fingerprint {
        checkpoints: session.checkpoints().to_vec(),
        lets: session.let_names(),
        model: playing.map(|p| {
            let m = &p.model;
            let actual = m.actual_world();
            let considers = (0..m.agents()).map(|a| m.considers(a)).collect();
            (m.world_count(), actual.cards, actual.props, considers)
        }),
        state: playing.map(|p| format!("{:?}", p.state)),
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(src) = dealer::syntax::source_text("fuzz.deal", data.to_vec()) else {
        return;
    };
    let src = src.as_str();
    let Ok(scenario) = dealer::syntax::parse(src) else {
        return;
    };
    let options = Options {
        max_worlds: 2_000,
        engine: Engine::Explicit,
        ..Options::default()
    };
    let mut session = Session::new(options);
    for stmt in scenario.statements.iter().take(64) {
        let before = fingerprint(&session);
        let model = session.playing().map(|p| Rc::clone(&p.model));
        if let Err(d) = session.execute(stmt, src) {
            let _ = d.render("fuzz.deal", src, false);
            assert_eq!(before, fingerprint(&session), "a refused statement changed the session");
            if let (Some(m), Some(p)) = (model, session.playing()) {
                assert!(Rc::ptr_eq(&m, &p.model), "a refused statement replaced the model");
            }
        }
    }
    if let Some(last) = scenario.statements.last() {
        let _ = session.finish(last.span);
    }
});
