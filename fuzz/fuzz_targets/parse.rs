//! Fuzz target: the parser must answer every input with a scenario or
//! located errors, never a panic, and spans must lie inside the input.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else {
        return;
    };
    let _ = dealer::syntax::is_complete(src);
    let _ = dealer::syntax::parse_formula(src);
    match dealer::syntax::parse(src) {
        Ok(scenario) => {
            for stmt in &scenario.statements {
                assert!(stmt.span.start <= stmt.span.end && stmt.span.end <= src.len());
            }
        }
        Err(errors) => {
            for e in &errors {
                assert!(e.span.start <= src.len(), "span out of the input");
                let _ = e.to_diagnostic().render("fuzz.deal", src, false);
            }
        }
    }
});
