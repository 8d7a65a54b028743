//! An SVG chart of fitted Elo by player: the players (levels, anchor engines) along the x
//! axis in the order given, Elo up the y axis with gridlines, a point per player with its 95%
//! error bar and value, and, for tuning, each player's target Elo as a diamond, the targets
//! joined by a dashed line.
//!
//! The picture is a self-contained SVG 1.1 document built as a string (no dependencies):
//! every text is escaped, and every number written is finite whatever the input (a player
//! with a NaN Elo is named on the axis with "no rating" and no point).

use std::fmt::Write as _;

/// One player on the chart.
#[derive(Clone, Debug, PartialEq)]
pub struct ChartPoint {
    pub name: String,
    /// Fitted Elo; NaN (or infinite) for a player without a rating.
    pub elo: f64,
    /// Half the width of the 95% interval; no bar if it is not a finite positive number.
    pub error: f64,
    /// The Elo the player is meant to have, if any.
    pub target: Option<f64>,
}

const LEFT: f64 = 84.0;
const RIGHT: f64 = 28.0;
const TOP: f64 = 84.0;
const BOTTOM: f64 = 74.0;
const PLOT_HEIGHT: f64 = 340.0;
const MIN_COLUMN: f64 = 120.0;
/// Width of one character of the 13 px axis labels, generously.
const CHARACTER: f64 = 7.6;
const POINT_COLOR: &str = "#1f5fa8";
const TARGET_COLOR: &str = "#d9480f";

/// The chart as an SVG document.
pub fn svg(title: &str, points: &[ChartPoint]) -> String {
    let longest = points.iter().map(|p| p.name.chars().count()).max().unwrap_or(0);
    let column = MIN_COLUMN.max(longest as f64 * CHARACTER + 24.0);
    let title_width = title.chars().count() as f64 * 10.0 + 40.0;
    let width = (LEFT + RIGHT + column * points.len().max(1) as f64)
        .max(title_width)
        .max(480.0);
    let plot_width = width - LEFT - RIGHT;
    let column = plot_width / points.len().max(1) as f64;
    let height = TOP + PLOT_HEIGHT + BOTTOM;
    let bottom = TOP + PLOT_HEIGHT;

    let axis = Axis::spanning(points);
    let y = |elo: f64| bottom - (elo.clamp(-1e9, 1e9) - axis.low) / (axis.high - axis.low) * PLOT_HEIGHT;
    let x = |i: usize| LEFT + column * (i as f64 + 0.5);

    let mut out = String::new();
    let _ = writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#);
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">"#,
        w = number(width),
        h = number(height)
    );
    let _ = writeln!(out, r#"<title>{}</title>"#, escape(title));
    let _ = writeln!(
        out,
        r#"<rect x="0" y="0" width="{}" height="{}" fill="white"/>"#,
        number(width),
        number(height)
    );
    let _ = writeln!(
        out,
        r#"<text x="{}" y="32" font-size="19" font-weight="bold" text-anchor="middle">{}</text>"#,
        number(width / 2.0),
        escape(title)
    );
    legend(
        &mut out,
        width,
        points.iter().any(|p| p.target.is_some_and(f64::is_finite)),
    );

    // Gridlines and tick labels.
    let mut tick = axis.low;
    while tick <= axis.high + axis.step / 2.0 {
        let ty = y(tick);
        let _ = writeln!(
            out,
            r##"<line x1="{}" y1="{y}" x2="{}" y2="{y}" stroke="#dddddd" stroke-width="1"/>"##,
            number(LEFT),
            number(width - RIGHT),
            y = number(ty)
        );
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}" font-size="12" text-anchor="end">{}</text>"#,
            number(LEFT - 8.0),
            number(ty + 4.0),
            axis.label(tick)
        );
        tick += axis.step;
    }
    // The frame and the axis titles.
    let _ = writeln!(
        out,
        r##"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#333333" stroke-width="1"/>"##,
        number(LEFT),
        number(TOP),
        number(plot_width),
        number(PLOT_HEIGHT)
    );
    let _ = writeln!(
        out,
        r#"<text x="22" y="{y}" font-size="14" text-anchor="middle" transform="rotate(-90 22 {y})">Elo (95% error bars)</text>"#,
        y = number(TOP + PLOT_HEIGHT / 2.0)
    );
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{}" font-size="14" text-anchor="middle">Player</text>"#,
        number(LEFT + plot_width / 2.0),
        number(height - 14.0)
    );

    targets(&mut out, points, &x, &y);

    for (i, point) in points.iter().enumerate() {
        let px = x(i);
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}" font-size="13" text-anchor="middle">{}</text>"#,
            number(px),
            number(bottom + 22.0),
            escape(&point.name)
        );
        if !point.elo.is_finite() {
            let _ = writeln!(
                out,
                r##"<text x="{}" y="{}" font-size="12" font-style="italic" fill="#888888" text-anchor="middle">no rating</text>"##,
                number(px),
                number(TOP + PLOT_HEIGHT / 2.0)
            );
            continue;
        }
        let py = y(point.elo);
        let mut label_y = py;
        if point.error.is_finite() && point.error > 0.0 {
            let (top, low) = (y(point.elo + point.error), y(point.elo - point.error));
            label_y = top;
            let _ = writeln!(
                out,
                r#"<path d="M{l} {top}H{r}M{px} {top}V{low}M{l} {low}H{r}" stroke="{POINT_COLOR}" stroke-width="1.6" fill="none"/>"#,
                l = number(px - 7.0),
                r = number(px + 7.0),
                px = number(px),
                top = number(top),
                low = number(low)
            );
        }
        let _ = writeln!(
            out,
            r#"<circle cx="{}" cy="{}" r="5" fill="{POINT_COLOR}"/>"#,
            number(px),
            number(py)
        );
        // The anchor has no error of its own: its label is its value alone.
        let error = if label_y < py {
            format!(" ± {}", whole(point.error))
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}" font-size="12" text-anchor="middle" fill="{POINT_COLOR}">{}{}</text>"#,
            number(px),
            number(label_y - 7.0),
            whole(point.elo),
            error
        );
    }
    out.push_str("</svg>\n");
    out
}

/// The key in the top right corner.
fn legend(out: &mut String, width: f64, with_targets: bool) {
    let right = width - RIGHT;
    let mut x = right - 200.0;
    if with_targets {
        x -= 90.0;
    }
    let y = 58.0;
    let _ = writeln!(
        out,
        r#"<path d="M{a} {t}V{b}M{c} {t}H{d}M{c} {b}H{d}" stroke="{POINT_COLOR}" stroke-width="1.6" fill="none"/>"#,
        a = number(x + 6.0),
        c = number(x + 2.0),
        d = number(x + 10.0),
        t = number(y - 9.0),
        b = number(y + 9.0)
    );
    let _ = writeln!(
        out,
        r#"<circle cx="{}" cy="{}" r="4" fill="{POINT_COLOR}"/>"#,
        number(x + 6.0),
        number(y)
    );
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{}" font-size="12">fitted Elo, 95% interval</text>"#,
        number(x + 18.0),
        number(y + 4.0)
    );
    if with_targets {
        let tx = right - 70.0;
        let _ = writeln!(
            out,
            r#"<line x1="{}" y1="{y}" x2="{}" y2="{y}" stroke="{TARGET_COLOR}" stroke-width="1.5" stroke-dasharray="5 4"/>"#,
            number(tx - 8.0),
            number(tx + 20.0),
            y = number(y)
        );
        let _ = writeln!(out, "{}", diamond(tx + 6.0, y));
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}" font-size="12">target</text>"#,
            number(tx + 26.0),
            number(y + 4.0)
        );
    }
}

/// The targets: a diamond each, consecutive ones joined by a dashed line.
fn targets(out: &mut String, points: &[ChartPoint], x: &dyn Fn(usize) -> f64, y: &dyn Fn(f64) -> f64) {
    let mut previous: Option<(f64, f64)> = None;
    for (i, point) in points.iter().enumerate() {
        let Some(target) = point.target.filter(|t| t.is_finite()) else {
            previous = None;
            continue;
        };
        let here = (x(i), y(target));
        if let Some((px, py)) = previous {
            let _ = writeln!(
                out,
                r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{TARGET_COLOR}" stroke-width="1.5" stroke-dasharray="5 4"/>"#,
                number(px),
                number(py),
                number(here.0),
                number(here.1)
            );
        }
        previous = Some(here);
    }
    for (i, point) in points.iter().enumerate() {
        if let Some(target) = point.target.filter(|t| t.is_finite()) {
            let _ = writeln!(out, "{}", diamond(x(i), y(target)));
        }
    }
}

fn diamond(x: f64, y: f64) -> String {
    format!(
        r#"<path d="M{} {}L{} {}L{} {}L{} {}Z" fill="white" stroke="{TARGET_COLOR}" stroke-width="2"/>"#,
        number(x),
        number(y - 7.0),
        number(x + 7.0),
        number(y),
        number(x),
        number(y + 7.0),
        number(x - 7.0),
        number(y)
    )
}

/// The y axis: from `low` to `high` in ticks of `step`, all "round" numbers.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Axis {
    low: f64,
    high: f64,
    step: f64,
}

impl Axis {
    /// An axis holding every finite Elo with its error bar and every finite target, with room
    /// above for the value labels.
    fn spanning(points: &[ChartPoint]) -> Axis {
        let mut values = Vec::new();
        for point in points {
            if point.elo.is_finite() {
                let error = if point.error.is_finite() && point.error > 0.0 {
                    point.error
                } else {
                    0.0
                };
                values.push(point.elo - error);
                values.push(point.elo + error);
            }
            if let Some(target) = point.target.filter(|t| t.is_finite()) {
                values.push(target);
            }
        }
        // Beyond this the chart would say nothing anyway; it keeps every coordinate finite.
        let values: Vec<f64> = values.into_iter().map(|v| v.clamp(-1e9, 1e9)).collect();
        let (mut low, mut high) = match values.iter().copied().reduce(f64::min) {
            Some(min) => (min, values.iter().copied().fold(f64::MIN, f64::max)),
            None => (0.0, 100.0),
        };
        if high - low < 20.0 {
            let middle = (low + high) / 2.0;
            (low, high) = (middle - 10.0, middle + 10.0);
        }
        let span = high - low;
        high += 0.12 * span;
        low -= 0.04 * span;
        let rough = (high - low) / 8.0;
        let magnitude = 10f64.powf(rough.log10().floor());
        let step = [1.0, 2.0, 2.5, 5.0, 10.0]
            .iter()
            .map(|m| m * magnitude)
            .find(|&s| s >= rough)
            .unwrap_or(rough);
        Axis {
            low: (low / step).floor() * step,
            high: (high / step).ceil() * step,
            step,
        }
    }

    /// A tick's label, with as many decimals as the step needs.
    fn label(&self, value: f64) -> String {
        let decimals = if self.step >= 1.0 {
            0
        } else {
            (-self.step.log10()).ceil() as usize + 1
        };
        let text = format!("{:.*}", decimals, value);
        if text.trim_start_matches('-').chars().all(|c| c == '0' || c == '.') {
            text.trim_start_matches('-').to_string()
        } else {
            text
        }
    }
}

/// A coordinate, to a tenth of a pixel.
fn number(x: f64) -> String {
    let x = if x.is_finite() { x } else { 0.0 };
    let text = format!("{:.1}", x);
    match text.strip_suffix(".0") {
        Some("-0") => "0".to_string(),
        Some(whole) => whole.to_string(),
        None => text,
    }
}

/// A value rounded to a whole number, never `-0`.
fn whole(x: f64) -> String {
    format!("{:.0}", x.round() + 0.0)
}

/// Text made safe for XML character data and attribute values.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Control characters are not allowed in XML 1.0.
            c if c.is_control() && !matches!(c, '\t' | '\n' | '\r') => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(name: &str, elo: f64, error: f64, target: Option<f64>) -> ChartPoint {
        ChartPoint {
            name: name.to_string(),
            elo,
            error,
            target,
        }
    }

    fn levels() -> Vec<ChartPoint> {
        vec![
            point("Level 1", 612.4, 48.0, Some(600.0)),
            point("Level 2", 905.0, 41.2, Some(900.0)),
            point("Level 3", 1187.9, 39.5, Some(1200.0)),
            point("Level 4", 1540.3, 44.1, Some(1500.0)),
            point("Level 5", 2000.0, 0.0, Some(1800.0)),
            point("Stockfish <1500> & \"co\"", 1502.2, 52.7, None),
        ]
    }

    /// Checks that tags nest and close, that attributes are quoted, and returns the element
    /// names in order; a small stand-in for an XML parser.
    fn elements(document: &str) -> Result<Vec<String>, String> {
        let mut names = Vec::new();
        let mut open: Vec<String> = Vec::new();
        let mut rest = document;
        while let Some(start) = rest.find('<') {
            let text = &rest[..start];
            if text.contains('>') || (text.contains('&') && !text.contains(';')) {
                return Err(format!("bad character data {text:?}"));
            }
            let end = rest[start..].find('>').ok_or("unclosed tag")? + start;
            let tag = &rest[start + 1..end];
            rest = &rest[end + 1..];
            if tag.starts_with('?') {
                continue;
            }
            if tag.matches('"').count() % 2 == 1 || tag.contains('<') {
                return Err(format!("bad tag {tag:?}"));
            }
            if let Some(name) = tag.strip_prefix('/') {
                let top = open.pop().ok_or(format!("stray </{name}>"))?;
                if top != name {
                    return Err(format!("<{top}> closed by </{name}>"));
                }
                continue;
            }
            let name = tag
                .split_whitespace()
                .next()
                .unwrap_or("")
                .trim_end_matches('/')
                .to_string();
            names.push(name.clone());
            if !tag.ends_with('/') {
                open.push(name);
            }
        }
        if !open.is_empty() {
            return Err(format!("unclosed {open:?}"));
        }
        Ok(names)
    }

    /// Every number in the attributes.
    fn numbers(document: &str) -> Vec<String> {
        let mut out = Vec::new();
        for attribute in document.split('"').skip(1).step_by(2) {
            for token in attribute.split(|c: char| c.is_whitespace() || "MLHVZ(),".contains(c)) {
                if token.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
                    out.push(token.to_string());
                }
            }
        }
        out
    }

    #[test]
    fn the_chart_is_well_formed() {
        let document = svg("Veil levels <calibration> & targets", &levels());
        assert!(document
            .starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\""));
        let names = elements(&document).unwrap();
        assert_eq!(names.first().map(String::as_str), Some("svg"));
        assert_eq!(names.iter().filter(|n| *n == "circle").count(), 6 + 1);
        for name in ["Level 1", "Level 5", "Stockfish &lt;1500&gt; &amp; &quot;co&quot;"] {
            assert!(document.contains(&format!(">{name}</text>")), "{name}");
        }
        assert!(document.contains("Veil levels &lt;calibration&gt; &amp; targets"));
        assert!(document.contains(">1540 ± 44</text>"));
        assert!(
            document.contains("fill=\"#1f5fa8\">2000</text>"),
            "no bar, no error for the anchor"
        );
        assert!(document.contains("stroke-dasharray"));
        for number in numbers(&document) {
            if number.starts_with("http") {
                continue;
            }
            let value: f64 = number.parse().unwrap_or_else(|_| panic!("{number:?}"));
            assert!(
                value.is_finite() && !number.contains("NaN") && number != "-0",
                "{number}"
            );
        }
    }

    #[test]
    fn odd_inputs_still_draw() {
        let odd = vec![
            point("No games", f64::NAN, f64::NAN, None),
            point("Huge", 1e300, f64::INFINITY, Some(f64::NAN)),
            point("", -5.0, -1.0, Some(f64::NEG_INFINITY)),
        ];
        for points in [Vec::new(), odd.clone(), vec![point("Alone", 0.0, 0.0, None)]] {
            let document = svg("", &points);
            elements(&document).unwrap();
            assert!(!document.contains("NaN") && !document.contains("inf"));
            for number in numbers(&document) {
                assert!(
                    number.parse::<f64>().is_ok_and(f64::is_finite) || number.starts_with("http"),
                    "{number}"
                );
            }
        }
        let document = svg("", &odd);
        assert!(document.contains(">no rating</text>"));
        assert!(document.contains(">No games</text>"));
        assert!(
            !document.contains("stroke-dasharray"),
            "no finite target, no target line"
        );
    }

    #[test]
    fn ticks_are_round() {
        let axis = Axis::spanning(&levels());
        assert_eq!(axis.step, 250.0);
        assert!(axis.low <= 612.4 - 48.0 && axis.high >= 2000.0);
        assert_eq!(axis.low % axis.step, 0.0);
        assert_eq!(axis.label(-0.0), "0");
        let small = Axis {
            low: 0.0,
            high: 1.0,
            step: 0.25,
        };
        assert_eq!(small.label(0.5), "0.50");
        assert_eq!(escape("a\u{1}<b>"), "a &lt;b&gt;");
        assert_eq!(number(-0.04), "0");
        assert_eq!(whole(-0.4), "0");
    }

    /// Python's XML parser, when there is one, agrees that the document is well formed.
    #[test]
    fn python_parses_the_chart() {
        let document = svg("Levels & <targets>", &levels());
        let script = "import sys, xml.dom.minidom as m; d = m.parseString(sys.stdin.buffer.read()); \
                      assert d.documentElement.tagName == 'svg'";
        let child = std::process::Command::new("python3")
            .args(["-c", script])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn();
        let Ok(mut child) = child else {
            return; // no Python here: the Rust check above stands alone
        };
        use std::io::Write as _;
        child.stdin.take().unwrap().write_all(document.as_bytes()).unwrap();
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    }
}
