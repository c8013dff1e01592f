//! Fuzz target: dealer's command line in-process ([`dealer::cli::main_from`])
//! with flags made of the input: `tournament`, `play` and `bench --play`
//! with any text as `--deck`, `--hand`, `--games`, `--seed`,
//! `--strategies`, `--size` and `--max-moves` (games kept to one, so a
//! run is short). Every run ends with an exit code, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut values = text.split('\u{1f}').map(|v| v.replace('\0', ""));
    let mut next = || values.next().unwrap_or_default();
    let command = next();
    let mut args: Vec<String> = vec!["dealer".into()];
    match command.as_str() {
        "play" => args.extend(["play".into(), next(), "--size".into(), "small".into()]),
        "bench" => args.extend(["bench".into(), "--play".into(), next(), "--games".into(), "1".into()]),
        _ => args.extend(["tournament".into(), next(), "--games".into(), "1".into()]),
    }
    for flag in ["--deck", "--hand", "--seed", "--strategies", "--agents", "--size", "--max-moves"] {
        let value = next();
        if !value.is_empty() {
            args.push(flag.into());
            args.push(value);
        }
    }
    if command != "bench" {
        let dir = std::env::temp_dir().join("dealer-fuzz-cli");
        args.push("--out".into());
        args.push(dir.join("out").display().to_string());
    }
    let _ = dealer::cli::main_from(args);
});
