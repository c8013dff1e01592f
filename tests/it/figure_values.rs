//! Variables are drawn as their values (`month=7 day=16`), not as the
//! propositions holding their bits (`month#0 month#1 month#2 day#4`), in
//! every writer, and a value is underlined exactly when it is common
//! knowledge.

use dealer::figure::{dot, svg, tikz, Figure};
use dealer::interp::{Options, Output, Session};
use dealer::syntax;

const CHERYL: &str = "players Albert Bernard
var month in 5..8
var day in 14..19
law (month = 5 & (day = 15 | day = 16 | day = 19)) | (month = 6 & (day = 17 | day = 18)) \\
  | (month = 7 & (day = 14 | day = 16)) | (month = 8 & (day = 14 | day = 15 | day = 17))
actual month = 7, day = 16
Albert observes month
Bernard observes day
";

/// The figure after the scenario `src`.
fn figure(src: &str) -> Figure {
    let mut session = Session::new(Options::default());
    let scenario = syntax::parse(src).unwrap();
    for stmt in &scenario.statements {
        session.execute(stmt, src).unwrap();
    }
    let line = "export \"fig.svg\"";
    let export = syntax::parse(line).unwrap().statements.remove(0);
    match session.execute(&export, line).unwrap().remove(0) {
        Output::Figure { figure, .. } => figure,
        other => panic!("{other:?}"),
    }
}

fn label(fig: &Figure, i: usize) -> String {
    fig.nodes[i].plain_label()
}

#[test]
fn cheryls_dates_are_drawn_as_month_and_day() {
    let fig = figure(CHERYL);
    let mut labels: Vec<String> = (0..fig.nodes.len()).map(|i| label(&fig, i)).collect();
    labels.sort();
    let mut dates: Vec<String> = [
        (5, 15),
        (5, 16),
        (5, 19),
        (6, 17),
        (6, 18),
        (7, 14),
        (7, 16),
        (8, 14),
        (8, 15),
        (8, 17),
    ]
    .iter()
    .map(|(m, d)| format!("month={m} day={d}"))
    .collect();
    dates.sort();
    assert_eq!(labels, dates);
    assert_eq!(label(&fig, fig.actual.unwrap()), "month=7 day=16");
    // Nothing is common knowledge at the start: no value is underlined.
    assert!(fig
        .nodes
        .iter()
        .all(|n| n.lines.iter().flatten().all(|s| !s.common)));
    // Every writer shows the values, none the bits.
    let look = dealer::figure::look::Look::default();
    for text in [
        dot::to_dot_with(&fig, &look),
        svg::to_svg(&fig, &look),
        tikz::to_tikz(&fig, &look),
    ] {
        assert!(text.contains("month=7") && text.contains("day=16"));
        assert!(!text.contains("month#") && !text.contains("day#"), "{text}");
    }
}

#[test]
fn a_value_is_underlined_when_it_is_common_knowledge() {
    // After Albert says he does not know and knows Bernard does not know,
    // the months 7 and 8 remain; after "month = 7" is announced the month
    // is common knowledge, the day not.
    let src = format!("{CHERYL}announce month = 7\n");
    let fig = figure(&src);
    assert_eq!(fig.nodes.len(), 2);
    for node in &fig.nodes {
        let segments: Vec<(&str, bool)> = node
            .lines
            .iter()
            .flatten()
            .filter(|s| s.text.trim() != "")
            .map(|s| (s.text.as_str(), s.common))
            .collect();
        assert_eq!(segments[0], ("month=7", true), "{segments:?}");
        assert!(segments[1].0.starts_with("day=1") && !segments[1].1);
    }
}
