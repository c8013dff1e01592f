//! The one module that writes figures to files, and the one rule for
//! where a relative path goes.
//!
//! **Path rule.** A path written in a scenario file (an `export` statement
//! replayed by `dealer run` or stepped through in the REPL) is relative to
//! the scenario file's directory, so a scenario writes its figures next to
//! itself wherever it is run from. A path given on the command line
//! (`dealer export -o`) or in a statement typed at the REPL prompt is
//! relative to the current directory, like any other command's argument.
//! Absolute paths are kept. The directory is created if it is missing.
//!
//! Files are written whole or not at all (a temporary file renamed over the
//! target), so a failed export leaves no file.

use std::path::{Path, PathBuf};

use super::look::Look;
use super::render::{render_with, renderer_from_env, Format};
use super::{Figure, FigureError};

/// Where a figure's file goes: `written` relative to the directory of the
/// scenario file `scenario`, or to the current directory when the path was
/// typed or given on the command line (`scenario` is `None`).
pub fn target(scenario: Option<&str>, written: &str) -> PathBuf {
    let p = Path::new(written);
    match scenario.and_then(|s| Path::new(s).parent()) {
        Some(dir) if !p.is_absolute() => dir.join(p),
        _ => p.to_path_buf(),
    }
}

/// Renders `figure` for `path` (its extension names the format) and writes
/// it whole, creating the directory if needed; returns a one-line report.
pub fn write(figure: &Figure, path: &Path) -> Result<String, FigureError> {
    write_with(figure, path, None, &Look::default())
}

/// Renders `figure` in `format` (by default the one `path`'s extension
/// names), drawn in `look`, and writes it whole; returns a one-line report.
pub fn write_with(
    figure: &Figure,
    path: &Path,
    format: Option<Format>,
    look: &Look,
) -> Result<String, FigureError> {
    let format = match format {
        Some(f) => f,
        None => Format::from_path(path)?,
    };
    let bytes = render_with(figure, format, renderer_from_env(), look)?;
    write_atomic(path, &bytes)?;
    Ok(format!(
        "wrote {} ({} node(s), {} edge(s))",
        path.display(),
        figure.nodes.len(),
        figure.edges.len()
    ))
}

/// Writes `bytes` to `path` whole or not at all: into a temporary file in
/// the same directory (created if missing), then renamed over `path`. On
/// failure no file is left (a directory created on the way stays).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), FigureError> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let io = |what: &str, e: std::io::Error| {
        FigureError::Io(format!("cannot write {}: {what}: {e}", path.display()))
    };
    if !dir.is_dir() {
        std::fs::create_dir_all(dir).map_err(|e| {
            FigureError::Io(format!(
                "cannot write {}: cannot create the directory {}: {e}",
                path.display(),
                dir.display()
            ))
        })?;
    }
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("figure");
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = std::fs::write(&tmp, bytes)
        .map_err(|e| io("writing", e))
        .and_then(|_| std::fs::rename(&tmp, path).map_err(|e| io("renaming", e)));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scenario_paths_are_relative_to_the_scenario() {
        assert_eq!(
            target(Some("scenarios/gofish/a.deal"), "out/f.dot"),
            PathBuf::from("scenarios/gofish/out/f.dot")
        );
        assert_eq!(target(None, "out/f.dot"), PathBuf::from("out/f.dot"));
        assert_eq!(target(Some("a.deal"), "f.dot"), PathBuf::from("f.dot"));
        assert_eq!(
            target(Some("x/a.deal"), "/tmp/f.dot"),
            PathBuf::from("/tmp/f.dot")
        );
    }
}
