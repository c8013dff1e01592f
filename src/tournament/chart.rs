//! The chart of a tournament in the style of the Go Fish report's Figure 3://! for each run, one bar per strategy with its wins, drawn with plotters
//! as SVG, and as PNG rasterised from the SVG.

use std::path::Path;
use std::sync::OnceLock;

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::diag::Report;

use super::refused;
use super::summary::Summary;

const COLOURS: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
];

/// Fonts tried for the PNG's text (the SVG names its font and needs none).
const FONT_FILES: &[&str] = &[
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/Library/Fonts/Arial.ttf",
    "C:\\Windows\\Fonts\\arial.ttf",
];

/// Writes the chart as SVG at `svg` and as PNG at `png`; returns the
/// files written. The PNG is the SVG rasterised, with the same font. The
/// text's layout needs a font of the system (DejaVu Sans or Arial);
/// without one no chart is drawn and the error says so.
pub fn draw(summary: &Summary, svg: &Path, png: &Path) -> Result<Vec<String>, Report> {
    let Some(font) = font() else {
        return Err(refused(
            "chart",
            format!(
                "no chart: none of these fonts was found: {}",
                FONT_FILES.join(", ")
            ),
        ));
    };
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, SIZE).into_drawing_area();
        plot(summary, &root).map_err(|e| refused("chart", format!("{}: {e}", svg.display())))?;
        root.present()
            .map_err(|e| refused("chart", format!("{}: {e}", svg.display())))?;
    }
    std::fs::write(svg, &text).map_err(|e| refused("chart", format!("{}: {e}", svg.display())))?;
    let pixels = rasterise(&text, font)
        .map_err(|e| refused("chart", format!("{}: {}", png.display(), e.plain())))?;
    std::fs::write(png, pixels).map_err(|e| refused("chart", format!("{}: {e}", png.display())))?;
    Ok(vec![svg.display().to_string(), png.display().to_string()])
}

/// The chart's size in pixels, in both files.
const SIZE: (u32, u32) = (900, 520);

/// The first font of [`FONT_FILES`] that exists, registered with plotters
/// for the text's layout, once.
fn font() -> Option<&'static [u8]> {
    static FOUND: OnceLock<Option<&'static [u8]>> = OnceLock::new();
    *FOUND.get_or_init(|| {
        FONT_FILES.iter().find_map(|f| {
            let bytes = std::fs::read(f).ok()?;
            let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
            plotters::style::register_font("sans-serif", FontStyle::Normal, bytes)
                .ok()
                .map(|_| bytes)
        })
    })
}

/// The chart's SVG as a PNG, its `sans-serif` text in `font` (the font
/// plotters laid it out with).
fn rasterise(svg: &str, font: &'static [u8]) -> Result<Vec<u8>, Report> {
    use resvg::usvg;
    let mut fonts = usvg::fontdb::Database::new();
    fonts.load_font_data(font.to_vec());
    let family = fonts
        .faces()
        .next()
        .and_then(|face| face.families.first())
        .map(|(name, _)| name.clone())
        .ok_or_else(|| refused("chart", "the chart's font has no family name"))?;
    fonts.set_sans_serif_family(family);
    let options = usvg::Options {
        fontdb: std::sync::Arc::new(fonts),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &options).map_err(|e| refused("chart", e.to_string()))?;
    let mut pixmap = resvg::tiny_skia::Pixmap::new(SIZE.0, SIZE.1)
        .ok_or_else(|| refused("chart", "the chart has no pixels"))?;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| refused("chart", e.to_string()))
}

fn plot<DB: DrawingBackend>(
    summary: &Summary,
    root: &DrawingArea<DB, Shift>,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    let runs: Vec<usize> = summary.runs.keys().copied().collect();
    let names = &summary.strategies;
    let top = summary
        .runs
        .values()
        .flat_map(|m| m.values().map(|c| c.wins))
        .max()
        .unwrap_or(1)
        .max(1);
    let slots = names.len() as u32 + 1;
    let width = runs.len() as u32 * slots;
    let mut chart = ChartBuilder::on(root)
        .caption(
            format!(
                "{}: wins of each strategy in each run ({} games)",
                summary.game, summary.games
            ),
            ("sans-serif", 20),
        )
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(56)
        .build_cartesian_2d(0u32..width, 0u64..top + top * 2 / 5 + 1)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(width as usize + 1)
        .x_label_formatter(&|x| {
            if x % slots == (slots - 1) / 2 && (*x / slots) < runs.len() as u32 {
                // The label sits under the middle bar of its run.
                format!("Run {}", runs[(*x / slots) as usize])
            } else {
                String::new()
            }
        })
        .y_desc("wins")
        .label_style(("sans-serif", 14))
        .draw()?;
    for (s, name) in names.iter().enumerate() {
        let colour = COLOURS[s % COLOURS.len()];
        let bars = runs.iter().enumerate().filter_map(|(i, r)| {
            let wins = summary.runs[r].get(name)?.wins;
            let x = i as u32 * slots + s as u32;
            Some(Rectangle::new([(x, 0), (x + 1, wins)], colour.filled()))
        });
        chart
            .draw_series(bars)?
            .label(name.as_str())
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], colour.filled()));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .label_font(("sans-serif", 14))
        .draw()?;
    Ok(())
}
