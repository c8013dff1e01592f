//! How a figure looks, apart from what it shows: the colour theme, the font
//! size, the resolution of PNG images, and each agent's colour and dash.
//!
//! Every writer (DOT, the built-in SVG, TikZ) reads the same [`Look`], so a
//! figure keeps its conventions whatever draws it.

use std::fmt;
use std::str::FromStr;

/// A colour theme.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Theme {
    /// The reports' look: a colour-blind-safe palette (Okabe and Ito).
    #[default]
    Report,
    /// Black and white print: every agent black, told apart by its dash.
    Print,
    /// A projector: thicker lines, larger text, saturated colour-blind-safe
    /// colours with no light yellow or light blue on white.
    Projector,
}

impl Theme {
    /// Every theme with its name, for help and errors.
    pub const ALL: [(&'static str, Theme); 3] = [
        ("report", Theme::Report),
        ("print", Theme::Print),
        ("projector", Theme::Projector),
    ];
}

impl FromStr for Theme {
    type Err = String;
    fn from_str(s: &str) -> Result<Theme, String> {
        Theme::ALL
            .iter()
            .find(|(name, _)| *name == s)
            .map(|&(_, t)| t)
            .ok_or_else(|| format!("no theme `{s}`: use report, print or projector"))
    }
}

impl fmt::Display for Theme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = Theme::ALL.iter().find(|(_, t)| t == self).map(|(n, _)| *n);
        f.write_str(name.unwrap_or("report"))
    }
}

/// A line's dash, as each writer spells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dash {
    /// Graphviz's `style` (it knows only three dashes).
    pub dot: &'static str,
    /// SVG's `stroke-dasharray` (empty for a solid line), in units of the line width.
    pub svg: &'static str,
    /// TikZ's option (`solid`, `dash pattern=...`).
    pub tikz: &'static str,
}

/// The dashes, one per agent before they repeat.
const DASHES: [Dash; 6] = [
    Dash {
        dot: "solid",
        svg: "",
        tikz: "solid",
    },
    Dash {
        dot: "dashed",
        svg: "4 2",
        tikz: "dash pattern=on 6pt off 3pt",
    },
    Dash {
        dot: "dotted",
        svg: "0.5 1.5",
        tikz: "dash pattern=on 1pt off 2pt",
    },
    Dash {
        dot: "dashed",
        svg: "6 2 1 2",
        tikz: "dash pattern=on 8pt off 2pt on 1.5pt off 2pt",
    },
    Dash {
        dot: "dotted",
        svg: "2 2",
        tikz: "dash pattern=on 3pt off 3pt",
    },
    Dash {
        dot: "dashed",
        svg: "8 2 1 2 1 2",
        tikz: "dash pattern=on 10pt off 2pt on 1.5pt off 2pt on 1.5pt off 2pt",
    },
];

/// The report's palette (Okabe and Ito), without its yellow and sky blue.
const REPORT: [&str; 7] = [
    "#D55E00", "#0072B2", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000",
];
/// The projector's palette: saturated, colour-blind-safe, dark enough on white.
const PROJECTOR: [&str; 6] = [
    "#D55E00", "#0072B2", "#009E73", "#CC79A7", "#000000", "#8C510A",
];

/// How a figure looks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Look {
    /// The colour theme.
    pub theme: Theme,
    /// The label text's size in points (the legend is a little smaller).
    pub font_size: u32,
    /// PNG resolution in dots per inch (Graphviz's default is 96).
    pub dpi: Option<u32>,
    /// A TikZ figure as a whole LaTeX document (`standalone` class), not a
    /// `tikzpicture` to paste.
    pub standalone: bool,
    /// A TikZ figure for a beamer frame, to `\input` unedited: every text
    /// at the label size, the legend wrapped under the drawing, and the
    /// picture scaled down to `\linewidth` when it is wider.
    pub slides: bool,
}

impl Default for Look {
    fn default() -> Look {
        Look {
            theme: Theme::Report,
            font_size: 14,
            dpi: None,
            standalone: false,
            slides: false,
        }
    }
}

impl Look {
    /// Agent `i`'s colour (`#RRGGBB`) and dash.
    pub fn agent(&self, i: usize) -> (&'static str, Dash) {
        let colour = match self.theme {
            Theme::Report => REPORT[i % REPORT.len()],
            Theme::Print => "#000000",
            Theme::Projector => PROJECTOR[i % PROJECTOR.len()],
        };
        (colour, DASHES[i % DASHES.len()])
    }

    /// The width of relation lines, in points.
    pub fn line_width(&self) -> f64 {
        match self.theme {
            Theme::Projector => 3.0,
            _ => 2.0,
        }
    }

    /// The label font size, larger on a projector.
    pub fn text_size(&self) -> u32 {
        match self.theme {
            Theme::Projector => self.font_size + self.font_size / 4,
            _ => self.font_size,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agents_differ_in_colour_and_dash() {
        for theme in [Theme::Report, Theme::Projector] {
            let look = Look {
                theme,
                ..Look::default()
            };
            for a in 0..6 {
                for b in 0..a {
                    assert_ne!(look.agent(a).0, look.agent(b).0, "{theme} {a} {b}");
                    assert_ne!(look.agent(a).1, look.agent(b).1, "{theme} {a} {b}");
                }
            }
        }
        let print = Look {
            theme: Theme::Print,
            ..Look::default()
        };
        assert!((0..6).all(|a| print.agent(a).0 == "#000000"));
    }

    #[test]
    fn themes_parse_by_name() {
        for (name, theme) in Theme::ALL {
            assert_eq!(name.parse::<Theme>(), Ok(theme));
            assert_eq!(theme.to_string(), name);
        }
        assert!("neon".parse::<Theme>().is_err());
    }
}
