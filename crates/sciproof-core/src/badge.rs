//! `sciproof badge`: a static SVG of one verification's verdict for a README. Nothing from the
//! manifest goes into it: only the verdict, whether the command was re-executed, and the date.
//! Byte-compatible with the reference's badge.

use crate::report::Status;

const LABEL: &str = "sciproof";
const CHAR_WIDTH: f64 = 6.6;
const PADDING: f64 = 10.0;

/// Python's `round()`: half to even.
fn round_half_even(x: f64) -> i64 {
    let r = x.round();
    if (x - x.trunc()).abs() == 0.5 && (r as i64) % 2 != 0 {
        (r - x.signum()) as i64
    } else {
        r as i64
    }
}

/// The colour of a verdict.
pub fn colour(status: Status) -> &'static str {
    match status {
        Status::Pass => "#2ea44f",
        Status::Fail => "#cf222e",
        Status::Inconclusive => "#bf8700",
    }
}

/// The SVG of a badge for `status`; `rerun` when the command was re-executed; `day` as
/// `YYYY-MM-DD` (UTC).
pub fn render(status: Status, rerun: bool, day: &str) -> String {
    let message = format!(
        "{} \u{b7} {} \u{b7} {day}",
        status.as_str(),
        if rerun { "rerun" } else { "integrity" }
    );
    let left = round_half_even(LABEL.chars().count() as f64 * CHAR_WIDTH + PADDING * 2.0);
    let right = round_half_even(message.chars().count() as f64 * CHAR_WIDTH + PADDING * 2.0);
    let width = left + right;
    let description = format!("{LABEL}: {message}");
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"20\" role=\"img\" aria-label=\"{description}\">\n  <title>{description}</title>\n  <linearGradient id=\"s\" x2=\"0\" y2=\"100%\"><stop offset=\"0\" stop-color=\"#bbb\" stop-opacity=\".1\"/><stop offset=\"1\" stop-opacity=\".1\"/></linearGradient>\n  <clipPath id=\"r\"><rect width=\"{width}\" height=\"20\" rx=\"3\" fill=\"#fff\"/></clipPath>\n  <g clip-path=\"url(#r)\">\n    <rect width=\"{left}\" height=\"20\" fill=\"#555\"/>\n    <rect x=\"{left}\" width=\"{right}\" height=\"20\" fill=\"{}\"/>\n    <rect width=\"{width}\" height=\"20\" fill=\"url(#s)\"/>\n  </g>\n  <g fill=\"#fff\" text-anchor=\"middle\" font-family=\"Verdana,Geneva,DejaVu Sans,sans-serif\" font-size=\"11\">\n    <text x=\"{}\" y=\"14\">{LABEL}</text>\n    <text x=\"{}\" y=\"14\">{message}</text>\n  </g>\n</svg>\n",
        colour(status),
        round_half_even(left as f64 / 2.0),
        round_half_even(left as f64 + right as f64 / 2.0),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_reference_badge() {
        let svg = render(Status::Pass, false, "2026-11-30");
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"284\" height=\"20\" role=\"img\" aria-label=\"sciproof: PASS \u{b7} integrity \u{b7} 2026-11-30\">"));
        assert!(svg.contains("<rect x=\"73\" width=\"211\" height=\"20\" fill=\"#2ea44f\"/>"));
        assert!(svg.contains("<text x=\"36\" y=\"14\">sciproof</text>"));
        assert!(
            svg.contains("<text x=\"178\" y=\"14\">PASS \u{b7} integrity \u{b7} 2026-11-30</text>")
        );
        assert_eq!(round_half_even(36.5), 36);
        assert_eq!(round_half_even(37.5), 38);
    }
}
