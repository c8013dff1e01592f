//! The README and the docs point only at files that exist, and the README's
//! documentation list names every document once.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// README.md, ARCHITECTURE.md and every Markdown file under docs/ and editors/.
fn documents() -> Vec<PathBuf> {
    let mut out = vec![root().join("README.md"), root().join("ARCHITECTURE.md")];
    for dir in ["docs", "editors"] {
        let mut stack = vec![root().join(dir)];
        while let Some(d) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&d) else {
                continue;
            };
            for e in entries {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == "md") {
                    out.push(p);
                }
            }
        }
    }
    out.sort();
    out
}

/// The targets of `[text](target)` and `![alt](target)` links outside
/// code (back-quoted spans and fenced blocks).
fn links(text: &str) -> Vec<String> {
    let prose: String = text
        .split("```")
        .step_by(2)
        .flat_map(|block| block.split('`').step_by(2))
        .collect();
    let mut out = Vec::new();
    let mut rest = prose.as_str();
    while let Some(i) = rest.find("](") {
        rest = &rest[i + 2..];
        if let Some(end) = rest.find(')') {
            out.push(rest[..end].to_string());
        }
    }
    out
}

/// Back-quoted paths into the repository: `docs/...`, `scenarios/...`,
/// `editors/...`, `strategies/...`, or a top-level Markdown file.
fn quoted_paths(text: &str) -> Vec<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|t| !t.contains(char::is_whitespace) && !t.contains('*'))
        .filter(|t| !is_placeholder(t))
        .filter(|t| {
            ["docs/", "scenarios/", "editors/", "strategies/"]
                .iter()
                .any(|p| t.starts_with(p))
                || ["README.md", "ARCHITECTURE.md"].contains(t)
        })
        .map(|t| t.trim_end_matches([':', ',', '.']).to_string())
        .collect()
}

/// A path with a capitalised placeholder in it, like `strategies/GAME-NAME.strat`.
fn is_placeholder(path: &str) -> bool {
    path.split(|c: char| !(c.is_ascii_uppercase() || c == '-'))
        .any(|w| w.len() >= 3)
}

#[test]
fn every_link_and_quoted_path_exists() {
    let mut missing = Vec::new();
    for doc in documents() {
        let text = std::fs::read_to_string(&doc).unwrap();
        let dir = doc.parent().unwrap();
        for target in links(&text) {
            if target.contains("://") || target.starts_with('#') || target.starts_with("mailto:") {
                continue;
            }
            let file = target.split('#').next().unwrap();
            if !dir.join(file).exists() {
                missing.push(format!("{}: link to {target}", doc.display()));
            }
        }
        for path in quoted_paths(&text) {
            let path = path.split('#').next().unwrap().split(" §").next().unwrap();
            if !root().join(path).exists() {
                missing.push(format!("{}: `{path}`", doc.display()));
            }
        }
    }
    assert!(missing.is_empty(), "missing files:\n{}", missing.join("\n"));
}

#[test]
fn the_readme_lists_every_document_once() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let section = readme
        .split("## Documentation")
        .nth(1)
        .expect("a Documentation section")
        .split("\n## ")
        .next()
        .unwrap();
    let entries: Vec<&str> = section
        .lines()
        .filter_map(|l| l.strip_prefix("- `"))
        .filter_map(|l| l.split('`').next())
        .collect();
    let unique: BTreeSet<&str> = entries.iter().copied().collect();
    assert_eq!(unique.len(), entries.len(), "listed twice: {entries:?}");
    for doc in documents() {
        let rel = doc
            .strip_prefix(root())
            .unwrap()
            .to_string_lossy()
            .into_owned();
        if rel == "README.md" || !rel.starts_with("docs/") || rel.matches('/').count() > 1 {
            continue;
        }
        assert!(
            unique.contains(rel.as_str()),
            "the README does not list {rel}"
        );
    }
}

/// Every file under `src/` (and the grammar) is named in the section of
/// ARCHITECTURE.md for its folder, and every file name a section gives
/// exists in that folder: the map stays true as files come and go. The
/// map is at most 250 lines.
#[test]
fn the_architecture_map_names_every_source_file_and_no_other() {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    // A map a newcomer reads at one sitting.
    let lines = text.lines().count();
    assert!(
        lines <= 250,
        "ARCHITECTURE.md has {lines} lines, more than 250"
    );
    // Sections: "### `src/engine/` — ..." with the folders their heading names.
    let mut sections: Vec<(Vec<String>, String)> = Vec::new();
    for part in text.split("\n### ").skip(1) {
        let (heading, body) = part.split_once('\n').unwrap();
        let folders: Vec<String> = heading
            .split('`')
            .skip(1)
            .step_by(2)
            .map(|f| f.trim_end_matches('/').to_string())
            .collect();
        sections.push((folders, body.split("\n## ").next().unwrap().to_string()));
    }
    let mut files = Vec::new();
    let mut stack = vec![root().join("src"), root().join("grammar")];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p
                    .strip_prefix(root())
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                files.push(rel);
            }
        }
    }
    let mut missing = Vec::new();
    for file in &files {
        // The section of the longest folder that holds the file.
        let section = sections
            .iter()
            .filter_map(|(folders, body)| {
                folders
                    .iter()
                    .filter(|f| file.starts_with(&format!("{f}/")))
                    .map(|f| (f.len(), body))
                    .max()
            })
            .max_by_key(|(len, _)| *len);
        let name = Path::new(file).file_name().unwrap().to_string_lossy();
        if !section.is_some_and(|(_, body)| body.contains(&*name)) {
            missing.push(file.clone());
        }
    }
    assert!(missing.is_empty(), "not in ARCHITECTURE.md: {missing:?}");
    // Every back-quoted file name of a section exists under its folders.
    let mut stale = Vec::new();
    for (folders, body) in &sections {
        for quoted in body.split('`').skip(1).step_by(2) {
            let is_file = [".rs", ".js", ".css", ".html", ".pest"]
                .iter()
                .any(|x| quoted.ends_with(x));
            if !is_file || quoted.contains(' ') {
                continue;
            }
            let exists = folders.iter().any(|f| {
                files.iter().any(|file| {
                    file.starts_with(&format!("{f}/")) && file.ends_with(&format!("/{quoted}"))
                        || file == quoted
                })
            });
            if !exists {
                stale.push(quoted.to_string());
            }
        }
    }
    assert!(
        stale.is_empty(),
        "named in ARCHITECTURE.md but absent: {stale:?}"
    );
}
