//! Documents the tests of the streamed readers share.

use super::ClaimGraph;

/// `text` (a pretty document of at least 21 claims, claim 20 with a dependency) with claim 20
/// given a reference to itself, a repeated dependency (both dropped on reading) and an unknown
/// key (dropped with a warning), written compactly (so that claim is read as a value, not
/// copied as saved).
pub(crate) fn with_untidy_claim(text: &str) -> String {
    let g = ClaimGraph::from_json(text).unwrap().0;
    let c = &g.claims()[20];
    let first = c.depends_on[0].to_string();
    let untidy = text.replacen(
        &format!("\"depends_on\": [\n        \"{first}\""),
        &format!(
            "\"colour\": 1, \"depends_on\": [\"{}\", \"{first}\", \"{first}\"",
            c.id
        ),
        1,
    );
    assert!(untidy.contains("colour"));
    untidy
}
