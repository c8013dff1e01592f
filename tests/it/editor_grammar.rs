//! The TextMate grammar under editors/vscode (for VS Code and most editors)
//! runs over every scenario file the way an editor runs it: at each place
//! the pattern matching earliest wins (the first listed on a tie), a string
//! runs from its `begin` to its `end`. Every character that is not a blank
//! must get a scope, every keyword of the pest grammar must be a keyword
//! for the TextMate grammar too, and a statement's first word is scoped as a
//! keyword.

use std::path::{Path, PathBuf};

use fancy_regex::Regex;
use serde_json::Value;

use crate::common;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// One top-level pattern: a scope and a regex, or a begin/end pair.
struct Rule {
    scope: String,
    regex: Regex,
    end: Option<Regex>,
}

fn grammar() -> Vec<Rule> {
    let path = root().join("editors/vscode/syntaxes/deal.tmLanguage.json");
    let g: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(g["scopeName"], "source.deal");
    let mut rules = Vec::new();
    for p in g["patterns"].as_array().unwrap() {
        let name = p["include"].as_str().unwrap().trim_start_matches('#');
        let entry = &g["repository"][name];
        let list: Vec<&Value> = match entry["patterns"].as_array() {
            Some(inner) if entry.get("begin").is_none() => inner.iter().collect(),
            _ => vec![entry],
        };
        for e in list {
            let scope = e["name"].as_str().unwrap().to_string();
            let (regex, end) = match (e.get("match"), e.get("begin")) {
                (Some(m), _) => (m.as_str().unwrap(), None),
                (None, Some(b)) => (b.as_str().unwrap(), Some(e["end"].as_str().unwrap())),
                _ => panic!("{name}: neither match nor begin"),
            };
            rules.push(Rule {
                scope,
                regex: Regex::new(regex).unwrap_or_else(|err| panic!("{name}: {err}")),
                end: end.map(|r| Regex::new(r).unwrap()),
            });
        }
    }
    rules
}

/// The tokens of one line: (start, end, scope).
fn tokenise(rules: &[Rule], line: &str) -> Vec<(usize, usize, String)> {
    let mut out = Vec::new();
    let mut at = 0;
    // Each rule's next match at or after `at` (None: no more matches);
    // a match found earlier is kept while it still starts at or after `at`.
    let mut next: Vec<Option<Option<(usize, usize)>>> = vec![None; rules.len()];
    while at < line.len() {
        for (r, slot) in rules.iter().zip(next.iter_mut()) {
            let stale = match slot {
                Some(Some((s, _))) => *s < at,
                Some(None) => false,
                None => true,
            };
            if stale {
                *slot = Some(find(&r.regex, line, at));
            }
        }
        let best = next
            .iter()
            .enumerate()
            .filter_map(|(i, m)| m.flatten().map(|(s, e)| (s, e, &rules[i])))
            .min_by_key(|(s, _, _)| *s);
        let Some((start, mut end, rule)) = best else {
            break;
        };
        if let Some(close) = &rule.end {
            end = match close.find_from_pos(line, end).unwrap() {
                Some(m) => m.end(),
                None => line.len(),
            };
        }
        out.push((start, end, rule.scope.clone()));
        at = end.max(start + 1);
    }
    out
}

/// The first non-empty match at or after `at`.
fn find(regex: &Regex, line: &str, mut at: usize) -> Option<(usize, usize)> {
    while at <= line.len() {
        let m = regex.find_from_pos(line, at).unwrap()?;
        if m.end() > m.start() {
            return Some((m.start(), m.end()));
        }
        at = m.start() + line[m.start()..].chars().next().map_or(1, char::len_utf8);
    }
    None
}

fn pest_keywords() -> Vec<String> {
    let pest = std::fs::read_to_string(root().join("grammar/dealer.pest")).unwrap();
    pest.lines()
        .filter(|l| l.starts_with("kw_"))
        .filter_map(|l| l.split('"').nth(1).map(String::from))
        .collect()
}

fn scenario_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    common::scenario_files(&root().join("scenarios"), &mut files);
    files
}

#[test]
fn every_line_of_every_scenario_is_tokenised() {
    let rules = grammar();
    let mut lines = 0;
    let mut seen = std::collections::HashSet::new();
    for file in scenario_files() {
        let src = std::fs::read_to_string(&file).unwrap();
        for (n, line) in src.lines().enumerate() {
            if !seen.insert(line.to_string()) {
                continue;
            }
            let tokens = tokenise(&rules, line);
            let mut covered = vec![false; line.len()];
            for (s, e, _) in &tokens {
                covered[*s..*e].iter_mut().for_each(|c| *c = true);
            }
            for (i, c) in line.char_indices() {
                assert!(
                    covered[i] || c.is_whitespace(),
                    "{}:{}: `{c}` at column {} has no scope in: {line}",
                    file.display(),
                    n + 1,
                    i + 1
                );
            }
            lines += 1;
        }
    }
    assert!(lines > 500, "only {lines} distinct lines");
}

#[test]
fn every_pest_keyword_is_a_keyword() {
    let rules = grammar();
    let keywords = pest_keywords();
    assert!(keywords.len() > 40, "{keywords:?}");
    for kw in keywords {
        let tokens = tokenise(&rules, &kw);
        assert_eq!(tokens.len(), 1, "{kw}: {tokens:?}");
        assert_eq!((tokens[0].0, tokens[0].1), (0, kw.len()), "{kw}");
        assert!(tokens[0].2.starts_with("keyword."), "{kw}: {}", tokens[0].2);
    }
}

#[test]
fn statements_start_with_keywords_and_formulas_are_scoped() {
    let rules = grammar();
    let keywords = pest_keywords();
    let mut checked = 0;
    for file in scenario_files() {
        let src = std::fs::read_to_string(&file).unwrap();
        for line in src.lines() {
            let word = line.split_whitespace().next().unwrap_or("");
            if !keywords.iter().any(|k| k == word) || line.starts_with(char::is_whitespace) {
                continue;
            }
            let tokens = tokenise(&rules, line);
            assert!(
                tokens[0].2.starts_with("keyword."),
                "{}: {line}",
                file.display()
            );
            checked += 1;
        }
    }
    assert!(checked > 300, "{checked}");
    let sample = "expect C{1,2} hand1(QQ) & !K2 stock(A) -> [!K1 1_Q] M3 true  # note";
    let scopes: Vec<(String, String)> = tokenise(&rules, sample)
        .into_iter()
        .map(|(s, e, scope)| (sample[s..e].to_string(), scope))
        .collect();
    let find = |text: &str| {
        scopes
            .iter()
            .find(|(t, _)| t == text)
            .map(|(_, s)| s.as_str())
            .unwrap_or_else(|| panic!("no token {text}: {scopes:?}"))
    };
    assert_eq!(find("expect"), "keyword.control.statement.deal");
    assert_eq!(find("C"), "keyword.operator.group.deal");
    assert_eq!(find("K2"), "keyword.operator.modal.deal");
    assert_eq!(find("M3"), "keyword.operator.modal.deal");
    assert_eq!(find("->"), "keyword.operator.logical.deal");
    assert_eq!(find("true"), "constant.language.deal");
    assert_eq!(find("hand1"), "variable.other.deal");
    assert_eq!(find("# note"), "comment.line.number-sign.deal");
    let moved = tokenise(&rules, "ask 1 2 Q");
    assert_eq!(moved[0].2, "keyword.other.move.deal");
    assert_eq!(moved[1].2, "constant.numeric.deal");
    let export = "export \"fig/t2.svg\" for 6S";
    let tokens = tokenise(&rules, export);
    assert_eq!(tokens[1], (7, 19, "string.quoted.double.deal".to_string()));
}

#[test]
fn the_extension_manifest_points_at_the_grammar() {
    let dir = root().join("editors/vscode");
    let pkg: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("package.json")).unwrap()).unwrap();
    let grammar = &pkg["contributes"]["grammars"][0];
    assert_eq!(grammar["scopeName"], "source.deal");
    assert!(dir.join(grammar["path"].as_str().unwrap()).exists());
    let language = &pkg["contributes"]["languages"][0];
    assert_eq!(language["extensions"][0], ".deal");
    let config = dir.join(language["configuration"].as_str().unwrap());
    let config: Value = serde_json::from_str(&std::fs::read_to_string(config).unwrap()).unwrap();
    assert_eq!(config["comments"]["lineComment"], "#");
}
