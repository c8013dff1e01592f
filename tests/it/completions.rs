//! `dealer completions SHELL`: the scripts name every subcommand and the
//! export options, and the bash script, loaded into bash, completes
//! subcommands and options.

use std::process::Command as Process;

use assert_cmd::Command;

fn script(shell: &str) -> String {
    let out = Command::cargo_bin("dealer")
        .unwrap()
        .args(["completions", shell])
        .output()
        .unwrap();
    assert!(out.status.success(), "{shell}");
    String::from_utf8(out.stdout).unwrap()
}

const SUBCOMMANDS: [&str; 9] = [
    "run",
    "repl",
    "check",
    "export",
    "bench",
    "tournament",
    "play",
    "gen",
    "completions",
];

#[test]
fn every_shell_gets_every_subcommand_and_option() {
    for shell in ["bash", "zsh", "fish"] {
        let text = script(shell);
        for sub in SUBCOMMANDS {
            assert!(text.contains(sub), "{shell}: {sub}");
        }
        for option in ["theme", "standalone", "max-nodes", "engine"] {
            assert!(text.contains(option), "{shell}: {option}");
        }
    }
    assert!(script("zsh").starts_with("#compdef dealer"));
    assert!(script("fish").contains("complete -c dealer"));
}

#[test]
fn an_unknown_shell_is_refused() {
    let out = Command::cargo_bin("dealer")
        .unwrap()
        .args(["completions", "tcsh"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("tcsh"));
}

/// What the bash script offers for the words typed so far (the last one
/// being completed).
fn bash_complete(words: &[&str]) -> Option<Vec<String>> {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("dealer.bash");
    std::fs::write(&file, script("bash")).unwrap();
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let program = format!(
        "source '{}'; COMP_WORDS=({}); COMP_CWORD={}; COMP_LINE='{}'; COMP_POINT=${{#COMP_LINE}}; _dealer dealer '{}' '{}'; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        file.display(),
        quoted.join(" "),
        words.len() - 1,
        words.join(" "),
        words[words.len() - 1],
        words[words.len() - 2],
    );
    let out = Process::new("bash").args(["-c", &program]).output().ok()?;
    if !out.status.success() {
        return None;
    }
    Some(
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(String::from)
            .collect(),
    )
}

#[test]
fn bash_completes_subcommands_and_options() {
    let subs = bash_complete(&["dealer", "ex"]);
    if !crate::common::tool(subs.is_some(), "bash") {
        return;
    }
    let subs = subs.unwrap();
    assert_eq!(subs, ["export"]);
    let options = bash_complete(&["dealer", "export", "--th"]).unwrap();
    assert_eq!(options, ["--theme"]);
    let shells = bash_complete(&["dealer", "completions", "f"]).unwrap();
    assert_eq!(shells, ["fish"]);
}
