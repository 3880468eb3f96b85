//! A picture of claims ([`super::picture`]) as SVG, laid out by sciproof itself
//! ([`super::layout`]), so no Graphviz is needed (`graph show --format svg`, `graph impact ID
//! --format svg`, and the picture embedded in the HTML page of a graph).
//!
//! Each box says its status in words as well as in colour and shape; a claim's box links to its
//! section of the HTML page (`#clm_...`) only when its ID is a claim ID the loader checked.
//! Every text comes from the graph and is untrusted: it goes through [`crate::escape::xml`] and
//! only ever becomes character data; attributes hold only numbers and our own colours.

use super::layout::{self, Placement};
use super::picture::{self, FOCUS_BORDER, FOCUS_FILL, Node, Picture};
use crate::escape::terminal::safe_text;
use crate::escape::xml::body;
use crate::graph::claim::Claim;
use crate::graph::id::is_claim_id;
use crate::render::Sink;

/// The font size of a box's text, in pixels.
const FONT: f64 = 11.0;
/// The advance of one character, a generous average for sans-serif faces at [`FONT`] (SVG
/// cannot measure text before it is shown; too wide is a little air, too narrow is text
/// overflowing its box).
const CHAR: f64 = 6.7;
/// The height of a line of text.
const LINE: f64 = 14.0;
/// Padding inside a box.
const PAD: f64 = 10.0;
/// The most characters on one line of a box; a longer text is wrapped, then cut.
const COLUMNS: usize = 36;
/// The most lines a title takes in a box.
const TITLE_LINES: usize = 3;
/// The space above the picture for its caption.
const CAPTION: f64 = 28.0;

/// Writes the picture of `claims` and the dependencies among them, `focus` highlighted.
pub fn claims_to(claims: &[&Claim], focus: Option<&Claim>, out: &mut Sink) {
    write(&picture::of_claims(claims, focus), out);
}

/// The lines a box shows: its first line (the status, or the run), its title wrapped, the rest.
fn box_lines(n: &Node, groups: &[String]) -> Vec<String> {
    let mut lines = Vec::new();
    for (i, text) in n.lines.iter().enumerate() {
        let limit = if i == 1 || text.chars().count() > COLUMNS {
            TITLE_LINES
        } else {
            1
        };
        lines.extend(wrap(&safe_text(text, COLUMNS * TITLE_LINES + 1), limit));
    }
    if let Some(g) = n.group.and_then(|g| groups.get(g)) {
        lines.extend(wrap(&safe_text(g, COLUMNS), 1));
    }
    lines
}

/// `text` in lines of at most [`COLUMNS`] characters, broken at spaces where it can be, at most
/// `limit` lines, the last ending in `…` when text was left out.
fn wrap(text: &str, limit: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut current = String::new();
    for word in text.split(' ') {
        let mut word = word.to_string();
        loop {
            let have = current.chars().count();
            let need = word.chars().count() + usize::from(have > 0);
            if have + need <= COLUMNS {
                if have > 0 {
                    current.push(' ');
                }
                current.push_str(&word);
                break;
            }
            if have > 0 {
                lines.push(std::mem::take(&mut current));
                continue;
            }
            // A word longer than a line: cut it.
            let head: String = word.chars().take(COLUMNS).collect();
            word = word.chars().skip(COLUMNS).collect();
            lines.push(head);
        }
    }
    if !current.is_empty() || lines.is_empty() {
        lines.push(current);
    }
    if lines.len() > limit {
        lines.truncate(limit);
        let last = &mut lines[limit - 1];
        let kept: String = last.chars().take(COLUMNS - 1).collect();
        *last = format!("{kept}\u{2026}");
    }
    lines
}

/// Writes `picture` as one SVG document.
pub fn write(picture: &Picture, out: &mut Sink) {
    let texts: Vec<Vec<String>> = picture
        .nodes
        .iter()
        .map(|n| box_lines(n, &picture.groups))
        .collect();
    let sizes: Vec<(f64, f64)> = texts
        .iter()
        .map(|lines| {
            let widest = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
            (
                (widest as f64 * CHAR + 2.0 * PAD).max(90.0),
                lines.len() as f64 * LINE + 2.0 * PAD,
            )
        })
        .collect();
    let placed = layout::layered(&sizes, &picture.edges);
    let mut caption = safe_text(&picture.caption, 200);
    if placed.straightened {
        caption.push_str(" (edges that skip layers are drawn straight)");
    }
    let width = placed
        .width
        .max(caption.chars().count() as f64 * CHAR * 1.1 + 2.0 * layout::MARGIN);
    let height = placed.height + CAPTION;
    out(&format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"{FONT}\" role=\"img\">\n",
        w = width.ceil(),
        h = height.ceil()
    ));
    out(&format!("<title>{}</title>\n", body(&caption, 200)));
    out(
        "<defs><marker id=\"sciproof-arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"8\" markerHeight=\"8\" orient=\"auto\"><path d=\"M0,0L10,5L0,10z\" fill=\"#7f8c8d\"/></marker></defs>\n",
    );
    out("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n");
    out(&format!(
        "<text x=\"{}\" y=\"20\" font-size=\"13\" fill=\"#1c2833\">{}</text>\n",
        layout::MARGIN,
        body(&caption, 200)
    ));
    out(&format!("<g transform=\"translate(0,{CAPTION})\">\n"));
    for (edge, route) in picture.edges.iter().zip(&placed.routes) {
        edge_path(*edge, route, &sizes, &placed, out);
    }
    for (i, n) in picture.nodes.iter().enumerate() {
        node(n, &texts[i], placed.centres[i], sizes[i], out);
    }
    out("</g>\n</svg>\n");
}

/// The point where the segment from the centre of a box of `size` at `centre` towards `to`
/// leaves the box.
fn border(centre: (f64, f64), size: (f64, f64), to: (f64, f64)) -> (f64, f64) {
    let (dx, dy) = (to.0 - centre.0, to.1 - centre.1);
    let tx = if dx == 0.0 {
        f64::INFINITY
    } else {
        size.0 / 2.0 / dx.abs()
    };
    let ty = if dy == 0.0 {
        f64::INFINITY
    } else {
        size.1 / 2.0 / dy.abs()
    };
    let t = tx.min(ty).min(1.0);
    (centre.0 + t * dx, centre.1 + t * dy)
}

fn edge_path(
    (from, to): (usize, usize),
    route: &[(f64, f64)],
    sizes: &[(f64, f64)],
    placed: &Placement,
    out: &mut Sink,
) {
    if route.len() < 2 {
        return;
    }
    let mut points = route.to_vec();
    let last = points.len() - 1;
    points[0] = border(placed.centres[from], sizes[from], route[1]);
    points[last] = border(placed.centres[to], sizes[to], route[last - 1]);
    let d: Vec<String> = points
        .iter()
        .enumerate()
        .map(|(i, (x, y))| format!("{}{x:.1},{y:.1}", if i == 0 { 'M' } else { 'L' }))
        .collect();
    out(&format!(
        "<path d=\"{}\" fill=\"none\" stroke=\"#7f8c8d\" stroke-width=\"1.2\" marker-end=\"url(#sciproof-arrow)\"/>\n",
        d.join("")
    ));
}

fn node(n: &Node, lines: &[String], (x, y): (f64, f64), (w, h): (f64, f64), out: &mut Sink) {
    let look = n.look;
    let (fill, stroke, width) = if n.focus {
        (FOCUS_FILL, FOCUS_BORDER, 5)
    } else {
        (look.fill, look.border, look.width)
    };
    let (left, top) = (x - w / 2.0, y - h / 2.0);
    let link = n.key.starts_with("clm_") && is_claim_id(&n.key);
    out("<g>");
    if link {
        out(&format!("<a href=\"#{}\">", n.key));
    }
    out(&format!(
        "<title>{}</title>",
        body(&n.lines.join(" \u{b7} "), 2000)
    ));
    let dash = if look.dashed {
        " stroke-dasharray=\"5,3\""
    } else {
        ""
    };
    if look.octagon {
        let c = (h / 3.0).min(12.0);
        let p = [
            (left + c, top),
            (left + w - c, top),
            (left + w, top + c),
            (left + w, top + h - c),
            (left + w - c, top + h),
            (left + c, top + h),
            (left, top + h - c),
            (left, top + c),
        ];
        let points: Vec<String> = p.iter().map(|(a, b)| format!("{a:.1},{b:.1}")).collect();
        out(&format!(
            "<polygon points=\"{}\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"{width}\"{dash}/>",
            points.join(" ")
        ));
    } else {
        out(&format!(
            "<rect x=\"{left:.1}\" y=\"{top:.1}\" width=\"{w:.1}\" height=\"{h:.1}\" rx=\"4\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"{width}\"{dash}/>"
        ));
    }
    if look.double {
        out(&format!(
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" rx=\"3\" fill=\"none\" stroke=\"{}\" stroke-width=\"1\"/>",
            left + 4.0,
            top + 4.0,
            w - 8.0,
            h - 8.0,
            look.border
        ));
    }
    for (i, line) in lines.iter().enumerate() {
        let baseline = top + PAD + (i as f64 + 0.8) * LINE;
        let weight = if i == 0 { " font-weight=\"bold\"" } else { "" };
        out(&format!(
            "<text x=\"{x:.1}\" y=\"{baseline:.1}\" text-anchor=\"middle\" fill=\"#1c2833\"{weight}>{}</text>",
            body(line, COLUMNS * 2)
        ));
    }
    if link {
        out("</a>");
    }
    out("</g>\n");
}

#[cfg(test)]
mod tests {
    use super::wrap;

    #[test]
    fn text_is_wrapped_at_spaces_and_cut_with_a_mark() {
        assert_eq!(wrap("short", 3), ["short"]);
        assert_eq!(wrap("", 3), [""]);
        let long =
            "the quick brown fox jumps over the lazy dog and keeps running far away from here";
        let lines = wrap(long, 2);
        assert_eq!(lines.len(), 2);
        assert!(lines.iter().all(|l| l.chars().count() <= super::COLUMNS));
        assert!(lines[1].ends_with('\u{2026}'));
        assert_eq!(wrap(long, 5).join(" "), long);
        let word = "x".repeat(80);
        assert_eq!(wrap(&word, 3).concat(), word);
    }
}
