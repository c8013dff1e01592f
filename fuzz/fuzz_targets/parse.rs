//! Fuzz target: the parser must answer every input with a scenario or
//! located errors, never a panic, and spans must lie inside the input;
//! bytes that are not UTF-8 are refused with their place.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // Bytes as a file's: odd encodings get a located message, lone
    // carriage returns end lines.
    let src = match dealer::syntax::source_text("fuzz.deal", data.to_vec()) {
        Ok(src) => src,
        Err(message) => {
            assert!(message.starts_with("fuzz.deal:"), "{message}");
            return;
        }
    };
    let src = src.as_str();
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
