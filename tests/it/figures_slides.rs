//! Figures for slides: every scenario's checkpoints drawn by the built-in
//! writer and TikZ (and by `dot` when installed), with the layout's promises
//! checked on each (no box overlaps another, no edge crosses a third box,
//! parallel edges apart, one dash per agent, the drawing at the margin); S5
//! classes drawn as chains that connect exactly the classes; the slide
//! options (`limit`, `hide`, `complete`, themes, `--dpi`); TikZ compiled by
//! `pdflatex` when it is installed.

use crate::common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command as Process;

use dealer::figure::layout::{self, quad};
use dealer::figure::look::{Look, Theme};
use dealer::figure::render::{self, Format, Renderer};
use dealer::figure::{svg, tikz, Figure, KripkeLike};
use dealer::interp::{Options, Output, Session};
use dealer::syntax;

/// Replays `file`, and at every checkpoint runs `export "f.dot" OPTIONS`;
/// returns the checkpoint's name and the figure or the error's text.
fn figures_at_checkpoints(file: &Path, options: &str) -> Vec<(String, Result<Figure, String>)> {
    figures_at(file, options, false)
}

/// [`figures_at_checkpoints`], and at the end when `end` (when the whole
/// scenario replays).
fn figures_at(file: &Path, options: &str, end: bool) -> Vec<(String, Result<Figure, String>)> {
    let src = std::fs::read_to_string(file).unwrap();
    let scenario = syntax::parse(&src).unwrap();
    let mut session = Session::new(Options::default());
    let mut out = Vec::new();
    for stmt in &scenario.statements {
        let before = session.checkpoints().len();
        if session.execute(stmt, &src).is_err() {
            break;
        }
        if session.checkpoints().len() == before || session.playing().is_none() {
            continue;
        }
        let name = session.checkpoints().last().unwrap().clone();
        out.push((name, export(&mut session, options)));
    }
    if end && session.playing().is_some() {
        out.push(("the end".to_string(), export(&mut session, options)));
    }
    out
}

/// Every figure of at most eight worlds a scenario draws (not a projection
/// or the actual world alone), at each checkpoint and at the end, comes
/// out with labels of 9 pt or more on a 4:3 beamer frame at `\textwidth`
/// (the size `--for-slides` reports; `beamer_slides` checks it against
/// what `pdflatex` makes of the file), except the few named below, which
/// must not get smaller.
#[test]
fn every_small_figure_is_legible_on_a_slide() {
    let mut checked = Vec::new();
    let mut under = Vec::new();
    for file in scenarios() {
        for (at, fig) in figures_at(&file, "", true) {
            let Ok(fig) = fig else { continue };
            if fig.nodes.len() > 8 || fig.projected.is_some() || fig.counts.is_some() {
                continue;
            }
            let (_, _, label) = tikz::slide_size(&fig);
            let what = format!("{} at {at}: {label:.1} pt", file.display());
            if label < 9.0 {
                under.push(what.clone());
            }
            checked.push(what);
        }
    }
    eprintln!("{checked:#?}");
    assert!(checked.len() >= 30, "{checked:#?}");
    // Not there yet: Kwartet's premises, eight worlds with four players'
    // hands of `<6,1>`-sized cards, need three rows of boxes to be drawn
    // without crossings and a five-line legend, even with the cards every
    // world shares left out of the boxes; the Go Fish section 2 cube is
    // just under. Each is held at the size it reaches today.
    let known: &[(&str, f64)] = &[
        ("exercises/kwartet.deal at the premises", 7.2),
        ("exercises/kwartet.deal at the end", 7.2),
        ("scenarios-section2.deal at A's next turn", 8.7),
        ("scenarios-section2.deal at the end", 8.7),
        ("last-card.deal at the premises", 7.2),
        ("last-card.deal at the end", 7.2),
    ];
    let unexpected: Vec<&String> = under
        .iter()
        .filter(|u| {
            !known.iter().any(|(what, floor)| {
                let size: f64 = u
                    .rsplit(": ")
                    .next()
                    .and_then(|s| s.trim_end_matches(" pt").parse().ok())
                    .unwrap();
                u.contains(what) && size >= floor - 0.05
            })
        })
        .collect();
    assert!(unexpected.is_empty(), "under 9 pt: {unexpected:#?}");
}

fn export(session: &mut Session, options: &str) -> Result<Figure, String> {
    let line = format!("export \"f.dot\" {options}");
    let stmt = syntax::parse(&line).unwrap().statements.remove(0);
    match session.execute(&stmt, &line) {
        Ok(outputs) => outputs
            .into_iter()
            .find_map(|o| match o {
                Output::Figure { figure, .. } => Some(figure),
                _ => None,
            })
            .ok_or_else(|| "no figure".to_string()),
        Err(d) => Err(d.render("export", &line, false)),
    }
}

fn figure(file: &str, checkpoint: &str, options: &str) -> Figure {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    figures_at_checkpoints(&path, options)
        .into_iter()
        .find(|(name, _)| name == checkpoint)
        .unwrap()
        .1
        .unwrap()
}

const GOFISH: &str = "scenarios/gofish/simplified.deal";
const KEMPS: &str = "scenarios/kemps/sixes-small.deal";

/// Every scenario outside the benchmarks.
fn scenarios() -> Vec<PathBuf> {
    let mut files = Vec::new();
    common::scenario_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios"),
        &mut files,
    );
    files.retain(|f| !f.components().any(|c| c.as_os_str() == "bench"));
    files
}

/// The layout's promises for one figure.
fn assert_laid_out_cleanly(fig: &Figure, what: &str) {
    let font = 14.0;
    let lay = layout::layout(fig, font);
    for (i, a) in lay.boxes.iter().enumerate() {
        assert!(a.centre.x - a.w / 2.0 >= layout::MARGIN - 1e-6, "{what}");
        assert!(a.centre.y - a.h / 2.0 >= layout::MARGIN - 1e-6, "{what}");
        for b in &lay.boxes[i + 1..] {
            let apart = (a.centre.x - b.centre.x).abs() >= (a.w + b.w) / 2.0
                || (a.centre.y - b.centre.y).abs() >= (a.h + b.h) / 2.0;
            assert!(apart, "{what}: boxes overlap");
        }
    }
    let mut controls = BTreeSet::new();
    for c in &lay.curves {
        let e = lay.edges[c.edge];
        if e.from == e.to {
            continue;
        }
        let key = (
            e.from.min(e.to),
            e.from.max(e.to),
            (c.control.x * 10.0).round() as i64,
            (c.control.y * 10.0).round() as i64,
        );
        assert!(controls.insert(key), "{what}: two edges drawn on one curve");
        let (p, q) = (lay.boxes[e.from].centre, lay.boxes[e.to].centre);
        for t in 1..40 {
            let pt = quad(p, c.control, q, f64::from(t) / 40.0);
            for (j, b) in lay.boxes.iter().enumerate() {
                if j == e.from || j == e.to {
                    continue;
                }
                let inside =
                    (pt.x - b.centre.x).abs() < b.w / 2.0 && (pt.y - b.centre.y).abs() < b.h / 2.0;
                assert!(!inside, "{what}: an edge of {} crosses box {j}", e.agent);
            }
        }
    }
}

#[test]
fn every_checkpoint_of_every_scenario_draws_as_a_slide() {
    let mut drawn = 0;
    for file in scenarios() {
        for (checkpoint, fig) in figures_at_checkpoints(&file, "") {
            let what = format!("{} at {checkpoint}", file.display());
            let fig = match fig {
                Ok(fig) => fig,
                Err(e) if e.contains("figure-too-large") || e.contains("too-many-to-list") => {
                    continue
                }
                Err(e) => panic!("{what}: {e}"),
            };
            assert_laid_out_cleanly(&fig, &what);
            let svg = svg::to_svg(&fig, &Look::default());
            for n in &fig.nodes {
                assert!(svg.contains(&format!(">{}<", n.id)), "{what}");
            }
            let tex = tikz::to_tikz(&fig, &Look::default());
            assert_eq!(
                tex.matches("\\node[draw").count(),
                fig.nodes.len(),
                "{what}"
            );
            drawn += 1;
        }
    }
    assert!(drawn >= 16, "only {drawn} checkpoints drawn");
}

#[test]
fn chains_connect_exactly_the_classes_the_complete_style_draws() {
    for (file, checkpoint, options) in [
        (GOFISH, "initial", ""),
        (GOFISH, "turn 2", ""),
        (KEMPS, "round 1", "for 6S"),
        (KEMPS, "round 1", "for 6D"),
    ] {
        let chained = figure(file, checkpoint, options);
        let complete = figure(file, checkpoint, &format!("{options} complete"));
        assert!(!chained.complete && complete.complete);
        for agent in 0..chained.agents.len() {
            let closure = |f: &Figure| {
                let n = f.nodes.len();
                let mut rel = vec![vec![false; n]; n];
                for e in f.edges.iter().filter(|e| e.agent == agent) {
                    rel[e.from][e.to] = true;
                    rel[e.to][e.from] = true;
                }
                for k in 0..n {
                    for i in 0..n {
                        for j in 0..n {
                            rel[i][j] |= i != j && rel[i][k] && rel[k][j];
                        }
                    }
                }
                rel
            };
            assert_eq!(closure(&chained), closure(&complete), "{file} {checkpoint}");
            let count = |f: &Figure| f.edges.iter().filter(|e| e.agent == agent).count();
            assert!(count(&chained) <= count(&complete));
        }
    }
    // Figure 1a: 36 lines as complete graphs, 18 as chains.
    assert_eq!(figure(GOFISH, "initial", "complete").edges.len(), 36);
    assert_eq!(figure(GOFISH, "initial", "").edges.len(), 18);
}

#[test]
fn the_builtin_svg_keeps_the_graphviz_conventions() {
    let fig = figure(GOFISH, "turn 2", "");
    let text = svg::to_svg(&fig, &Look::default());
    // The actual world: a double border (two rectangles) and bold text.
    let actual = &fig.nodes[fig.actual.unwrap()];
    let open = format!(
        "<g id=\"{}\" data-world=\"{}\">",
        actual.key(),
        actual.world.unwrap()
    );
    let group = text.split(&open).nth(1).unwrap();
    let group = group.split("</g>").next().unwrap();
    assert_eq!(group.matches("<rect").count(), 2);
    assert!(group.contains("font-weight=\"bold\""));
    // Common knowledge underlined by the text, not by combining characters.
    assert!(text.contains("text-decoration=\"underline\">QQ</tspan>"));
    assert!(!text.contains('\u{332}'));
    // A legend naming each player, with its own dash.
    for p in ["player 1", "player 2", "player 3"] {
        assert!(text.contains(&format!(">{p}</text>")), "{p}");
    }
    let dashes: BTreeSet<&str> = text
        .split("<line ")
        .skip(1)
        .map(|l| {
            l.split("stroke-dasharray=\"")
                .nth(1)
                .map_or("solid", |d| d.split('"').next().unwrap())
        })
        .collect();
    assert_eq!(dashes.len(), 3, "{dashes:?}");
    // No yellow fill: the actual world is white like the others.
    assert!(!text.contains("#FFF3C4"));
}

#[test]
fn themes_change_colours_and_lines() {
    let fig = figure(GOFISH, "turn 2", "");
    let print = Look {
        theme: Theme::Print,
        ..Look::default()
    };
    let text = svg::to_svg(&fig, &print);
    for colour in ["#D55E00", "#0072B2", "#009E73"] {
        assert!(!text.contains(colour), "{colour} in print");
    }
    let projector = Look {
        theme: Theme::Projector,
        ..Look::default()
    };
    let text = svg::to_svg(&fig, &projector);
    assert!(text.contains("stroke-width=\"3\""));
    assert!(!text.contains("#E69F00") && !text.contains("#56B4E9"));
    let dot = String::from_utf8(
        render::render_with(&fig, Format::Dot, Renderer::Auto, &projector).unwrap(),
    )
    .unwrap();
    assert!(dot.contains("penwidth=\"3\"") && dot.contains("fontsize=\"17\""));
}

#[test]
fn hide_limit_and_for_are_statement_options() {
    let fig = figure(GOFISH, "turn 2", "hide stock");
    assert!(fig.nodes.iter().all(|n| !n.plain_label().contains("stock")));
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(KEMPS);
    let at = |options: &str| {
        figures_at_checkpoints(&path, options)
            .into_iter()
            .find(|(c, _)| c == "round 1")
            .unwrap()
            .1
    };
    assert_eq!(at("limit 3000").unwrap().nodes.len(), 2520);
    let err = at("limit 100").unwrap_err();
    assert!(err.contains("more than the limit of 100 nodes"), "{err}");
    let twice = syntax::parse("export \"f.dot\" limit 100 limit 200").unwrap_err();
    assert!(format!("{twice:?}").contains("`limit` is given twice"));
    let err = at("hide attic").unwrap_err();
    assert!(err.contains("attic"), "{err}");
    // `--for CARD` underlines what is common knowledge: after round 2 all
    // know where 6S is.
    let six = figure(KEMPS, "round 2", "for 6S");
    assert!(six.nodes[0].lines[0]
        .iter()
        .any(|s| s.common && s.text == "6S"));
}

use crate::common::dealer;

/// Runs `dealer` with `args` and `-o out`, which must succeed; what it wrote.
fn export_to(args: &[&str], out: &Path) -> String {
    let run = dealer().args(args).arg("-o").arg(out).output().unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    std::fs::read_to_string(out).unwrap()
}

#[test]
fn tikz_export_is_a_picture_or_a_document() {
    let dir = tempfile::tempdir().unwrap();
    let pic = dir.path().join("t2.tex");
    let text = export_to(&["export", GOFISH, "--at", "turn 2"], &pic);
    assert!(text.contains("\\begin{tikzpicture}") && !text.contains("\\documentclass"));
    assert!(text.contains("double distance") && text.contains("\\underline{QQ}"));
    let doc = dir.path().join("t2-doc.txt");
    let args = [
        "export",
        GOFISH,
        "--at",
        "turn 2",
        "--format",
        "tikz",
        "--standalone",
    ];
    let text = export_to(&args, &doc);
    assert!(text.starts_with("\\documentclass") && text.ends_with("\\end{document}\n"));
}

fn pdflatex_present() -> bool {
    Process::new("pdflatex")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn tikz_compiles_with_pdflatex_when_present() {
    if !common::tool(pdflatex_present(), "pdflatex") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let look = Look {
        standalone: true,
        ..Look::default()
    };
    let cases = [
        (GOFISH, "turn 2", "", Theme::Report),
        (GOFISH, "initial", "complete", Theme::Print),
        (KEMPS, "round 1", "for 6S", Theme::Projector),
    ];
    for (i, (file, checkpoint, options, theme)) in cases.into_iter().enumerate() {
        let fig = figure(file, checkpoint, options);
        let look = Look {
            theme,
            ..look.clone()
        };
        let tex = dir.path().join(format!("fig{i}.tex"));
        std::fs::write(&tex, tikz::to_tikz(&fig, &look)).unwrap();
        eprintln!("compiling {file} at {checkpoint}");
        let log = common::pdflatex(dir.path(), &format!("fig{i}.tex"));
        let pdf = std::fs::read(dir.path().join(format!("fig{i}.pdf"))).unwrap();
        assert!(pdf.starts_with(b"%PDF"));
        assert!(log.contains("(1 page"), "{file} {checkpoint}: not one page");
    }
}

#[test]
fn the_beamer_example_compiles_when_beamer_is_present() {
    let has_beamer = Process::new("kpsewhich")
        .arg("beamer.cls")
        .output()
        .is_ok_and(|o| o.status.success());
    if !common::tool(pdflatex_present() && has_beamer, "pdflatex with beamer") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/figures");
    for f in ["beamer-example.tex", "gofish-1c.tex", "gofish-1c-slide.tex"] {
        std::fs::copy(docs.join(f), dir.path().join(f)).unwrap();
    }
    common::pdflatex(dir.path(), "beamer-example.tex");
    // The picture in docs is the one dealer writes today.
    let fig = figure(GOFISH, "turn 2", "");
    let today = tikz::to_tikz(&fig, &Look::default());
    assert_eq!(
        std::fs::read_to_string(docs.join("gofish-1c.tex")).unwrap(),
        today
    );
}

#[test]
fn png_resolution_follows_dpi() {
    if !common::tool(render::graphviz_available(), "Graphviz (dot)") {
        return;
    }
    let fig = figure(GOFISH, "turn 2", "");
    let width = |dpi| {
        let look = Look {
            dpi: Some(dpi),
            ..Look::default()
        };
        let png = render::render_with(&fig, Format::Png, Renderer::Graphviz, &look).unwrap();
        u32::from_be_bytes(png[16..20].try_into().unwrap())
    };
    let (low, high) = (width(72), width(288));
    assert!(high > 3 * low && high < 5 * low, "{low} {high}");
}

#[test]
fn the_figure_trait_reports_the_chained_style() {
    let fig = figure(GOFISH, "turn 2", "");
    assert!(!KripkeLike::complete(&fig));
    let svg = svg::to_svg(&fig, &Look::default());
    assert!(svg.contains("cannot tell apart the worlds its lines connect"));
}

/// `shade 1`, `shade C{1,2}`, `shade D{2,3}`, `shade E`: the shaded nodes
/// are the worlds the engine's accessibility gives, the legend says what
/// the shading means, and `shade` twice is an error.
#[test]
fn shade_marks_the_worlds_a_player_or_group_considers_possible() {
    use dealer::engine::GroupAccess;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(GOFISH);
    let src = std::fs::read_to_string(&path).unwrap();
    let scenario = syntax::parse(&src).unwrap();
    let mut session = Session::new(Options::default());
    for stmt in &scenario.statements {
        session.execute(stmt, &src).unwrap();
        if session.checkpoints().last().is_some_and(|c| c == "turn 2") {
            break;
        }
    }
    let cases = [
        ("shade 1", None, vec![0]),
        ("shade 3", None, vec![2]),
        ("shade C{1,2}", Some(GroupAccess::Common), vec![0, 1]),
        ("shade D{2,3}", Some(GroupAccess::Distributed), vec![1, 2]),
        ("shade E", Some(GroupAccess::Everybody), vec![0, 1, 2]),
    ];
    let mut distinct = BTreeSet::new();
    for (option, access, group) in cases {
        let fig = export(&mut session, option).unwrap();
        let model = &*session.playing().unwrap().model;
        let want: BTreeSet<String> = match access {
            None => model.accessible(group[0], model.actual()),
            Some(a) => model.group_accessible(a, &group, model.actual()),
        }
        .into_iter()
        .map(|w| format!("w{w}"))
        .collect();
        let shaded: BTreeSet<String> = fig
            .marked
            .iter()
            .map(|&i| fig.nodes[i].id.clone())
            .collect();
        assert_eq!(shaded, want, "{option}");
        assert!(fig.marked_note.as_deref().unwrap().starts_with("shaded:"));
        distinct.insert(shaded);
    }
    assert!(distinct.len() >= 2, "the cases tell perspectives apart");
    let twice = syntax::parse("export \"f.dot\" shade 1 shade 2").unwrap_err();
    assert!(format!("{twice:?}").contains("`shade` is given twice"));
    let err = export(&mut session, "shade 9").unwrap_err();
    assert!(err.contains('9'), "{err}");
}

/// What a slide leaves out of the boxes is true of every drawn world: at
/// every checkpoint of every scenario, each place taken out holds at
/// least its named cards in every drawn world and exactly them in one
/// (recomputed here from the engine's worlds); each box without them
/// holds the rest of its world's cards there, as the full box does less
/// the shared ones; the legend names the places.
#[test]
fn what_a_slide_leaves_out_is_in_every_world() {
    use dealer::figure::build::{build, View};
    let mut seen = 0;
    for file in scenarios() {
        let src = std::fs::read_to_string(&file).unwrap();
        let scenario = syntax::parse(&src).unwrap();
        let mut session = Session::new(Options::default());
        for stmt in &scenario.statements {
            let before = session.checkpoints().len();
            if session.execute(stmt, &src).is_err() {
                break;
            }
            if session.checkpoints().len() == before {
                continue;
            }
            let Some(p) = session.playing() else { continue };
            // As the lecture view and `export` ask: a projection (which
            // shares nothing) when the model is too large to draw.
            let view = View {
                fit: Some(Vec::new()),
                ..View::default()
            };
            let Ok(fig) = build(&p.table, &p.props, &*p.model, &view) else {
                continue;
            };
            let Some(shared) = &fig.shared else { continue };
            seen += 1;
            let at = format!(
                "{} at {}",
                file.display(),
                session.checkpoints().last().unwrap()
            );
            let worlds: Vec<_> = fig.nodes.iter().map(|n| n.world.unwrap()).collect();
            let cards = |w, l: usize| p.model.world(w).cards[l].clone();
            for (l, min) in &shared.places {
                for (k, &n) in min.iter().enumerate() {
                    let least = worlds.iter().map(|&w| cards(w, *l)[k]).min().unwrap();
                    assert_eq!(n, least, "{at}: place {l}, kind {k}");
                }
                let name = &p.table.locations[*l].name;
                assert!(
                    shared.note.contains(&format!("{name}: ")),
                    "{at}: {}",
                    shared.note
                );
            }
            assert_eq!(shared.lines.len(), fig.nodes.len());
            // Letters of a line, spaces and the separator aside.
            let letters = |line: &[dealer::figure::Segment]| {
                let mut v: Vec<char> = line
                    .iter()
                    .flat_map(|s| s.text.chars())
                    .filter(|c| !c.is_whitespace())
                    .collect();
                v.sort_unstable();
                v
            };
            for (node, less) in fig.nodes.iter().zip(&shared.lines) {
                for line in less {
                    let text: String = line.iter().map(|s| s.text.as_str()).collect();
                    let Some((place, _)) = text.split_once(": ") else {
                        continue;
                    };
                    let Some(l) = p.table.locations.iter().position(|x| x.name == place) else {
                        continue;
                    };
                    let w = node.world.unwrap();
                    let mut rest = cards(w, l);
                    if let Some((_, min)) = shared.places.iter().find(|(x, _)| *x == l) {
                        rest.iter_mut().zip(min).for_each(|(c, m)| *c -= m);
                    }
                    let want = format!("{place}: {}", p.table.deck.show_cards(&rest));
                    assert_eq!(
                        letters(line),
                        letters(&[dealer::figure::Segment::plain(want.clone())]),
                        "{at}: {} shows {text:?}, its cards less the shared are {want:?}",
                        node.id
                    );
                }
            }
        }
    }
    eprintln!("{seen} figures share cards");
    assert!(seen >= 10, "only {seen} figures share cards");
}
