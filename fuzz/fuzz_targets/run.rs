//! Fuzz target: parse and replay a scenario with a small world budget.
//! Every statement either succeeds or returns a diagnostic; nothing panics,
//! and a failed statement leaves the session as it was.
#![no_main]

use dealer::interp::{Engine, Options, Session};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else {
        return;
    };
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
        if let Err(d) = session.execute(stmt, src) {
            let _ = d.render("fuzz.deal", src, false);
        }
    }
    if let Some(last) = scenario.statements.last() {
        let _ = session.finish(last.span);
    }
});
