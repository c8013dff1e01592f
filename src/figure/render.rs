//! Renders a figure in the format its file name asks for, as bytes; it
//! writes no file (that is [`super::files`]).
//!
//! DOT and TikZ text are always available. SVG is drawn by the built-in
//! writer ([`super::svg`], laid out by [`super::layout`], the layout TikZ
//! and the lecture view use too) and PNG is that SVG rasterised in pure
//! Rust (resvg, with the system's fonts). The system `dot` program (the
//! graphviz package) draws them instead when asked for
//! (`DEALER_RENDERER=graphviz`), and draws PDF, which needs it.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use super::look::Look;
use super::{dot, svg, tikz, FigureError, KripkeLike};

/// A figure's file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// DOT text (`.dot`, `.gv`).
    Dot,
    /// SVG (`.svg`).
    Svg,
    /// PNG (`.png`): `dot`, or the built-in SVG rasterised.
    Png,
    /// PDF (`.pdf`), needs `dot`.
    Pdf,
    /// TikZ (`.tex`, `.tikz`): a `tikzpicture`, or a standalone document.
    Tikz,
}

impl Format {
    /// The format a file name's extension names.
    pub fn from_path(path: &Path) -> Result<Format, FigureError> {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("")
            .to_ascii_lowercase();
        match ext.as_str() {
            "dot" | "gv" => Ok(Format::Dot),
            "svg" => Ok(Format::Svg),
            "png" => Ok(Format::Png),
            "pdf" => Ok(Format::Pdf),
            "tex" | "tikz" => Ok(Format::Tikz),
            _ => Err(FigureError::UnknownFormat(path.display().to_string())),
        }
    }

    fn dot_flag(self) -> &'static str {
        match self {
            Format::Dot | Format::Tikz => "-Tdot",
            Format::Svg => "-Tsvg",
            Format::Png => "-Tpng",
            Format::Pdf => "-Tpdf",
        }
    }
}

/// Who draws images.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Renderer {
    /// The built-in writer for SVG and PNG (one layout in every format);
    /// `dot` for PDF when it is installed.
    Auto,
    /// Only the system `dot` program.
    Graphviz,
    /// Only the built-in writer (no PDF).
    Builtin,
}

/// Whether the system `dot` program can be run.
pub fn graphviz_available() -> bool {
    Command::new("dot")
        .arg("-V")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The bytes of `fig` in `format`, in the default look.
pub fn render<K: KripkeLike + ?Sized>(
    fig: &K,
    format: Format,
    renderer: Renderer,
) -> Result<Vec<u8>, FigureError> {
    render_with(fig, format, renderer, &Look::default())
}

/// The bytes of `fig` in `format`, drawn in `look`.
pub fn render_with<K: KripkeLike + ?Sized>(
    fig: &K,
    format: Format,
    renderer: Renderer,
    look: &Look,
) -> Result<Vec<u8>, FigureError> {
    match format {
        Format::Dot => return Ok(dot::to_dot_with(fig, look).into_bytes()),
        Format::Tikz => return Ok(tikz::to_tikz(fig, look).into_bytes()),
        _ => {}
    }
    let use_dot = match renderer {
        Renderer::Builtin => false,
        Renderer::Graphviz => true,
        Renderer::Auto => format == Format::Pdf && graphviz_available(),
    };
    if use_dot {
        return run_dot(&dot::to_dot_with(fig, look), format, look);
    }
    if format == Format::Png {
        return rasterise(&svg::to_svg(fig, look), look);
    }
    if format != Format::Svg {
        let name = format!("{format:?}").to_uppercase();
        return Err(FigureError::NeedsGraphviz {
            why: format!("{name} output"),
        });
    }
    Ok(svg::to_svg(fig, look).into_bytes())
}

/// The system's fonts, loaded once (the built-in SVG asks for a monospaced one).
fn fonts() -> std::sync::Arc<resvg::usvg::fontdb::Database> {
    static FONTS: std::sync::OnceLock<std::sync::Arc<resvg::usvg::fontdb::Database>> =
        std::sync::OnceLock::new();
    FONTS
        .get_or_init(|| {
            let mut db = resvg::usvg::fontdb::Database::new();
            db.load_system_fonts();
            std::sync::Arc::new(db)
        })
        .clone()
}

/// The built-in SVG as a PNG, at `look.dpi` (96, Graphviz's default, when unset).
fn rasterise(svg_text: &str, look: &Look) -> Result<Vec<u8>, FigureError> {
    let options = resvg::usvg::Options {
        fontdb: fonts(),
        ..resvg::usvg::Options::default()
    };
    let tree = resvg::usvg::Tree::from_str(svg_text, &options)
        .map_err(|e| FigureError::Io(format!("the built-in SVG could not be read: {e}")))?;
    let scale = look.dpi.unwrap_or(96) as f32 / 96.0;
    let size = tree
        .size()
        .to_int_size()
        .scale_by(scale)
        .ok_or_else(|| FigureError::Io("the figure is too large to rasterise".into()))?;
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| FigureError::Io("the figure is too large to rasterise".into()))?;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| FigureError::Io(format!("PNG: {e}")))
}

fn run_dot(text: &str, format: Format, look: &Look) -> Result<Vec<u8>, FigureError> {
    let mut command = Command::new("dot");
    command.arg(format.dot_flag());
    if let (Some(dpi), Format::Png) = (look.dpi, format) {
        command.arg(format!("-Gdpi={dpi}"));
    }
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|_| FigureError::NeedsGraphviz {
            why: "rendering with graphviz".into(),
        })?;
    let mut stdin = child.stdin.take().expect("piped stdin");
    let input = text.to_string();
    let feeder = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child
        .wait_with_output()
        .map_err(|e| FigureError::Graphviz(e.to_string()))?;
    let _ = feeder.join();
    if !out.status.success() {
        let msg = String::from_utf8_lossy(&out.stderr).trim().to_string();
        return Err(FigureError::Graphviz(msg));
    }
    Ok(out.stdout)
}

/// Who renders images: `DEALER_RENDERER=builtin` forces the built-in
/// writer, `graphviz` the `dot` program; otherwise [`Renderer::Auto`].
pub fn renderer_from_env() -> Renderer {
    match std::env::var("DEALER_RENDERER").as_deref() {
        Ok("builtin") => Renderer::Builtin,
        Ok("graphviz") => Renderer::Graphviz,
        _ => Renderer::Auto,
    }
}
