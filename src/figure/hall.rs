//! The lecture hall's figure (`dealer serve`'s hall view): the built-in
//! SVG laid out for the screen's shape, every text at the label size and
//! the legend left to the page (it writes it under the figure at the
//! same size). Of the labels as they are, without what every drawn world
//! shares ([`super::Shared`]), and each with short lines joined
//! (`1: A  2: A`), the one whose text comes out largest on the screen is
//! drawn (the fewest crossing lines among equals).

use super::layout::{self, Frame, Layout};
use super::look::{Look, Theme};
use super::tikz::{joined, wrap, Wrapped};
use super::{KripkeLike, Node};

/// The screen's height in label lines a hall figure is laid out for: the
/// layout packs the worlds into a frame of this many lines, and of
/// `aspect` times as many characters' height wide.
const FRAME_LINES: f64 = 40.0;

/// The widths short label lines are joined up to, in characters.
const JOINS: [usize; 3] = [12, 16, 22];

/// The widths long label lines are wrapped to, in characters.
const WRAPS: [usize; 2] = [12, 8];

/// The more room between boxes tried when lines bend far round them
/// (times the usual room).
const ROOMS: [f64; 3] = [1.6, 2.4, 3.5];

/// Whether the lines reach far beyond the boxes: the drawing more than a
/// fifth larger, in one direction, than its boxes and their names.
fn reaches_far(lay: &Layout, font: f64) -> bool {
    if lay.boxes.is_empty() {
        return false;
    }
    let span = |lo: &dyn Fn(&layout::Boxed) -> f64, hi: &dyn Fn(&layout::Boxed) -> f64| {
        let min = lay.boxes.iter().map(lo).fold(f64::INFINITY, f64::min);
        let max = lay.boxes.iter().map(hi).fold(f64::NEG_INFINITY, f64::max);
        max - min + 2.0 * layout::MARGIN
    };
    let w = span(&|b| b.centre.x - b.w / 2.0, &|b| b.centre.x + b.w / 2.0);
    let h =
        span(&|b| b.centre.y - b.h / 2.0, &|b| b.centre.y + b.h / 2.0) + layout::NAME_ROOM * font;
    lay.width > 1.2 * w || lay.height > 1.2 * h
}

/// The hall's look: the projector's colours and lines at 14 pt labels.
pub fn look() -> Look {
    Look {
        theme: Theme::Projector,
        ..Look::default()
    }
}

/// The SVG of `fig` for a screen (the figure's part of it) `aspect` times
/// as wide as it is high.
pub fn to_svg<K: KripkeLike + ?Sized>(fig: &K, aspect: f64) -> String {
    let look = look();
    let font = f64::from(look.text_size());
    let aspect = if aspect.is_finite() {
        aspect.clamp(0.5, 4.0)
    } else {
        16.0 / 9.0
    };
    let frame = Frame {
        w: FRAME_LINES * font * aspect,
        h: FRAME_LINES * font,
        fill: true,
        room: 1.0,
    };
    let mut bases: Vec<(Vec<Node>, Vec<String>)> = vec![(fig.nodes().to_vec(), Vec::new())];
    if let Some(shared) = fig.shared() {
        bases.push((shared.nodes(fig.nodes()), vec![shared.note.clone()]));
    }
    let mut best: Option<(f64, usize, Wrapped<'_, K>, Layout)> = None;
    // Labels already laid out (a wrap or a join often changes nothing).
    let mut tried: Vec<Vec<Node>> = Vec::new();
    for (nodes, notes) in &bases {
        let variants = std::iter::once(nodes.clone())
            .chain(
                JOINS
                    .iter()
                    .map(|&w| nodes.iter().map(|n| joined(n, w)).collect()),
            )
            .chain(
                WRAPS
                    .iter()
                    .map(|&w| nodes.iter().map(|n| wrap(n, w)).collect()),
            );
        for nodes in variants {
            if tried.contains(&nodes) {
                continue;
            }
            tried.push(nodes.clone());
            let wrapped = Wrapped {
                inner: fig,
                nodes,
                notes: notes.clone(),
            };
            let lay = layout::layout_in(&wrapped, font, Some(frame));
            let scale = (frame.w / lay.width).min(frame.h / lay.height);
            let crossings = lay.crossings();
            let better = best.as_ref().is_none_or(|(s, c, _, _)| {
                scale > s * 1.02 || (scale > s * 0.98 && crossings < *c)
            });
            if better {
                best = Some((scale, crossings, wrapped, lay));
            }
        }
    }
    let Some((scale, crossings, wrapped, lay)) = best else {
        return super::svg::to_svg(fig, &look);
    };
    // Lines bent far round the boxes (many arrows between packed boxes, a
    // belief model's) shrink the drawing: the same labels with more room
    // between the boxes, which the lines then pass through, when that
    // draws larger.
    let mut best = (scale, crossings, wrapped, lay);
    if reaches_far(&best.3, font) {
        for room in ROOMS {
            let lay = layout::layout_in(&best.2, font, Some(Frame { room, ..frame }));
            let scale = (frame.w / lay.width).min(frame.h / lay.height);
            if scale > best.0 * 1.02 {
                best = (scale, lay.crossings(), best.2, lay);
            }
        }
    }
    let (_, _, wrapped, lay) = best;
    super::svg::draw(&wrapped, &look, &lay, Some(&legend(&wrapped)))
}

/// The legend's rows, for the page: what the figure shows (a projection's
/// counts in words), what the boxes leave out, the shading, the
/// conventions.
fn legend<K: KripkeLike + ?Sized>(fig: &K) -> Vec<String> {
    let notes = fig.notes();
    // A projection's note says what a box is: the caption need not again.
    let caption = fig.caption();
    let caption = match caption.split_once(": a projection") {
        Some((what, _)) if notes.iter().any(|n| n.starts_with("a projection")) => what,
        _ => caption,
    };
    let mut rows = vec![caption.to_string()];
    rows.extend(notes);
    rows.extend(fig.marked_note().map(str::to_string));
    rows.push("double border: the actual world; underlined: common knowledge".into());
    rows
}
