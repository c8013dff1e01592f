//! `dealer run --json` and `dealer check --json`: the replay as one JSON
//! document on standard output (schema `dealer-run/1`, docs/json.md), made
//! with serde. Every statement's outcome, every query's answer, every
//! expectation, the number of worlds after each statement, and errors and
//! warnings with their spans (byte offsets, line and column).

use serde::Serialize;

use crate::diag::{line_col, Diagnostic, Severity, Span};
use crate::figure::files as figure_files;
use crate::interp::{errors, Options, Output, Script, Session};

/// The schema's name and version.
pub const SCHEMA: &str = "dealer-run/1";

/// The whole document.
#[derive(Serialize, Debug)]
pub struct Report {
    /// Always [`SCHEMA`].
    pub schema: &'static str,
    /// The scenario's name as given (`<stdin>` for `-`).
    pub file: String,
    /// `run` or `check`.
    pub mode: &'static str,
    /// The statements replayed, in order, up to the first error.
    pub statements: Vec<StatementJson>,
    /// Warnings (`check` only).
    pub warnings: Vec<DiagnosticJson>,
    /// Errors and failed expectations.
    pub errors: Vec<DiagnosticJson>,
    /// Counts.
    pub summary: Summary,
    /// The exit code: 0 all held, 1 an expectation failed, 2 an error.
    pub exit_code: u8,
}

/// Counts over the run.
#[derive(Serialize, Debug, Default)]
pub struct Summary {
    /// Statements in the scenario.
    pub statements: usize,
    /// Statements replayed (all of them unless an error stopped the run).
    pub replayed: usize,
    /// Expectations that held.
    pub expects_held: usize,
    /// Expectations that failed.
    pub expects_failed: usize,
    /// `?` and `??` queries and `question`s answered.
    pub queries: usize,
}

/// A span: byte offsets into the file, and 1-based line and column.
#[derive(Serialize, Debug, Clone, Copy)]
pub struct SpanJson {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
    /// 1-based line of `start`.
    pub line: usize,
    /// 1-based column (in characters) of `start`.
    pub column: usize,
}

impl SpanJson {
    fn new(src: &str, span: Span) -> SpanJson {
        let (line, column) = line_col(src, span.start);
        SpanJson {
            start: span.start,
            end: span.end,
            line,
            column,
        }
    }
}

/// One statement and what it produced.
#[derive(Serialize, Debug)]
pub struct StatementJson {
    /// 0-based index in the scenario.
    pub index: usize,
    /// Where it is.
    pub span: SpanJson,
    /// Its text.
    pub text: String,
    /// `ok`, or `error` (then the run stopped here; see `errors`).
    pub outcome: &'static str,
    /// What it produced.
    pub outputs: Vec<OutputJson>,
    /// The number of worlds of the model after it (a decimal string, as it
    /// may exceed 64 bits), once cards are dealt or a model written.
    pub worlds: Option<String>,
}

/// One output of a statement, tagged by `kind`.
#[derive(Serialize, Debug)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum OutputJson {
    /// `? φ`.
    Answer {
        /// The query as written.
        source: String,
        /// Its value in the actual world.
        value: bool,
    },
    /// `?? φ`.
    Valid {
        /// The query as written.
        source: String,
        /// Whether it holds in every world.
        value: bool,
    },
    /// `expect ...`.
    Expect {
        /// As written.
        source: String,
        /// Whether it held.
        held: bool,
        /// What was found.
        detail: String,
    },
    /// A move.
    Moved {
        /// As written.
        source: String,
        /// What the rules did on their own.
        notes: Vec<String>,
    },
    /// `question ...`: the question in words and its answer.
    Question {
        /// As written.
        source: String,
        /// The question in words.
        question: String,
        /// The answer: `yes`, `no`, a number or the players.
        answer: String,
    },
    /// `checkpoint "name"`.
    Checkpoint {
        /// The name.
        name: String,
    },
    /// `why`, `worlds`, `stats`: lines of text.
    Lines {
        /// The lines.
        lines: Vec<String>,
    },
    /// `export`: the figure written.
    Figure {
        /// The file written (relative to the scenario's directory, resolved).
        path: String,
        /// Nodes drawn.
        nodes: usize,
        /// Edges drawn.
        edges: usize,
    },
}

/// A diagnostic.
#[derive(Serialize, Debug)]
pub struct DiagnosticJson {
    /// `error`, `failure` (an expectation) or `warning`.
    pub severity: &'static str,
    /// The stable code (`unknown-card`, `expect-failed`, ...).
    pub code: &'static str,
    /// The message.
    pub message: String,
    /// The label under the caret.
    pub label: String,
    /// A hint.
    pub help: Option<String>,
    /// Where, when it has a place in the file.
    pub span: Option<SpanJson>,
}

impl DiagnosticJson {
    /// `d` as JSON; spans point into `src`.
    pub fn new(d: &Diagnostic, src: &str) -> DiagnosticJson {
        DiagnosticJson {
            severity: match d.severity {
                Severity::Error => "error",
                Severity::Failure => "failure",
                Severity::Warning => "warning",
            },
            code: d.code,
            message: d.message.clone(),
            label: d.label.clone(),
            help: d.help.clone(),
            span: d.located.then(|| SpanJson::new(src, d.span)),
        }
    }
}

/// A report for a file that could not be read or parsed.
pub fn failed(file: &str, src: &str, mode: &'static str, diags: &[Diagnostic]) -> Report {
    Report {
        schema: SCHEMA,
        file: file.to_string(),
        mode,
        statements: Vec::new(),
        warnings: Vec::new(),
        errors: diags.iter().map(|d| DiagnosticJson::new(d, src)).collect(),
        summary: Summary::default(),
        exit_code: 2,
    }
}

/// Replays `script` (writing its figures, as `run` does) and reports it.
pub fn replay(script: &Script, options: Options) -> Report {
    let mode = if options.check_only { "check" } else { "run" };
    let src = &script.src;
    let warnings = if options.check_only {
        crate::syntax::lint::warnings(&script.statements, src)
    } else {
        Vec::new()
    };
    let mut report = Report {
        schema: SCHEMA,
        file: script.name.clone(),
        mode,
        statements: Vec::new(),
        warnings: warnings
            .iter()
            .map(|d| DiagnosticJson::new(d, src))
            .collect(),
        errors: Vec::new(),
        summary: Summary {
            statements: script.statements.len(),
            ..Summary::default()
        },
        exit_code: 0,
    };
    let mut session = Session::new(options);
    let mut replay = session.replay(script, 0);
    while let Some(step) = replay.next() {
        let Some(index) = step.index else {
            continue;
        };
        let span = script.statements[index].span;
        let mut entry = StatementJson {
            index,
            span: SpanJson::new(src, span),
            text: script.text(index).to_string(),
            outcome: "ok",
            outputs: Vec::new(),
            worlds: None,
        };
        report.summary.replayed += 1;
        match step.outcome {
            Ok(outputs) => {
                for out in outputs {
                    match output(script, out, &mut report) {
                        Ok(Some(o)) => entry.outputs.push(o),
                        Ok(None) => {}
                        Err(d) => {
                            entry.outcome = "error";
                            report.errors.push(DiagnosticJson::new(&d, src));
                        }
                    }
                }
            }
            Err(d) => {
                entry.outcome = "error";
                report.errors.push(DiagnosticJson::new(&d, src));
            }
        }
        if !options.check_only {
            entry.worlds = replay
                .session()
                .playing()
                .map(|p| p.model.world_count_big().to_string());
        }
        let stop = entry.outcome == "error";
        report.statements.push(entry);
        if stop {
            report.exit_code = 2;
            return report;
        }
    }
    if report.summary.expects_failed > 0 {
        report.exit_code = 1;
    }
    report
}

/// One output as JSON, counting it; a figure is written first.
fn output(
    script: &Script,
    out: Output,
    report: &mut Report,
) -> Result<Option<OutputJson>, Diagnostic> {
    let s = &mut report.summary;
    Ok(Some(match out {
        Output::Answer { source, value } => {
            s.queries += 1;
            OutputJson::Answer { source, value }
        }
        Output::Valid { source, value } => {
            s.queries += 1;
            OutputJson::Valid { source, value }
        }
        Output::Expect {
            source,
            span,
            held,
            detail,
        } => {
            if held {
                s.expects_held += 1;
            } else {
                s.expects_failed += 1;
                let mut d = Diagnostic::error(
                    "expect-failed",
                    format!("expectation does not hold: {source}"),
                    span,
                )
                .with_label(detail.clone());
                d.severity = Severity::Failure;
                report.errors.push(DiagnosticJson::new(&d, &script.src));
            }
            OutputJson::Expect {
                source,
                held,
                detail,
            }
        }
        Output::Moved { source, notes } => OutputJson::Moved { source, notes },
        Output::Question { source, asked, .. } => {
            s.queries += 1;
            OutputJson::Question {
                source,
                question: asked.text,
                answer: asked.answer.to_string(),
            }
        }
        Output::Checkpoint(name) => OutputJson::Checkpoint { name },
        Output::Lines(lines) => OutputJson::Lines { lines },
        Output::Figure { path, span, figure } => {
            let target = figure_files::target(Some(&script.name), &path);
            figure_files::write(&figure, &target).map_err(|e| errors::figure(&e, span))?;
            OutputJson::Figure {
                path: target.display().to_string(),
                nodes: figure.nodes.len(),
                edges: figure.edges.len(),
            }
        }
    }))
}

/// The report as pretty-printed JSON with a final newline.
pub fn to_text(report: &Report) -> String {
    let mut text = serde_json::to_string_pretty(report).expect("plain data serialises");
    text.push('\n');
    text
}
