//! A claim graph as one HTML page (`graph show --format html`): the machine-checkable fraction
//! first, a table of claims by status, then every claim with an anchor (`#clm_...`), links to
//! its dependencies and dependents, its recipe and its last re-check, after a picture of the
//! graph as inline SVG ([`super::svg`]).
//!
//! Links are only ever made from claim IDs the loader checked (`clm_` and 16 hex digits, see
//! [`crate::graph::id::is_claim_id`]), as fragments of this page; every other text goes through
//! [`crate::escape::html`].

use crate::escape::html::text;
use crate::graph::ClaimGraph;
use crate::graph::claim::{self, Claim};
use crate::graph::id::is_claim_id;
use crate::render::Sink;
use crate::render::html as page;
use std::collections::HashMap;

/// A link to a claim of this page, or its escaped text when it is not a claim ID.
fn link(id: &str) -> String {
    if is_claim_id(id) {
        format!("<a href=\"#{id}\"><code>{id}</code></a>")
    } else {
        format!("<code>{}</code>", text(id, 60))
    }
}

fn links(ids: &[&str]) -> String {
    if ids.is_empty() {
        return "none".into();
    }
    ids.iter().map(|i| link(i)).collect::<Vec<_>>().join(", ")
}

/// Writes the page of `graph`.
pub fn render_to(graph: &ClaimGraph, out: &mut Sink) {
    let claims = graph.claims();
    let title = graph
        .title
        .clone()
        .unwrap_or_else(|| "Claim graph".to_string());
    let checked = claims
        .iter()
        .filter(|c| claim::is_machine_checked(&c.status))
        .count();
    let mut body = format!("<h1>{}</h1>\n", text(&title, 200));
    body.push_str(&format!(
        "<p class=\"reason\">Machine-checkable: {checked} of {} claims; everything else is recorded evidence and must not be read as proved.</p>\n",
        claims.len()
    ));
    body.push_str("<table class=\"statuses\"><thead><tr><th>Status</th><th>Meaning</th><th>Claims</th></tr></thead><tbody>\n");
    for (status, mark, meaning) in claim::STATUSES {
        let n = claims.iter().filter(|c| c.status == status).count();
        if n > 0 {
            body.push_str(&format!(
                "<tr><td>{} {status}</td><td>{meaning}</td><td>{n}</td></tr>\n",
                text(mark, 40)
            ));
        }
    }
    body.push_str("</tbody></table>\n");
    // The picture (the runs, for a large graph): its boxes link to the claims' sections.
    body.push_str("<h2>Picture</h2>\n<figure class=\"picture\">\n");
    let all: Vec<&Claim> = claims.iter().collect();
    super::svg::claims_to(&all, None, &mut |piece| body.push_str(piece));
    body.push_str("</figure>\n");
    let mut dependents: HashMap<&str, Vec<&str>> = HashMap::new();
    for c in claims {
        for d in &c.depends_on {
            dependents
                .entry(d.as_str())
                .or_default()
                .push(c.id.as_str());
        }
    }
    body.push_str("<h2>Claims</h2>\n");
    for (i, c) in claims.iter().enumerate() {
        body.push_str(&claim_section(i + 1, c, dependents.get(c.id.as_str())));
    }
    out(&page::page(&title, &body));
}

fn claim_section(index: usize, c: &Claim, dependents: Option<&Vec<&str>>) -> String {
    let heading = c
        .label
        .as_deref()
        .filter(|l| !l.is_empty())
        .or(Some(c.method.as_str()).filter(|m| !m.is_empty()))
        .map_or(format!("Claim {index}"), str::to_string);
    let id = if is_claim_id(&c.id) {
        c.id.as_str()
    } else {
        ""
    };
    let mark = claim::mark(&c.status);
    let mut s = format!(
        "<section id=\"{id}\"><h3>{index}. {}</h3>\n<p><strong>{} {}</strong> <code>{}</code></p>\n<p>{}</p>\n",
        text(&heading, 200),
        text(mark, 40),
        text(&c.status, 40),
        text(&c.id, 60),
        text(&c.statement, 2000)
    );
    let deps: Vec<&str> = c.depends_on.iter().map(|d| d.as_str()).collect();
    s.push_str(&format!("<p>Depends on: {}</p>\n", links(&deps)));
    let rests: Vec<&str> = dependents.map_or(Vec::new(), |v| v.clone());
    s.push_str(&format!("<p>What rests on it: {}</p>\n", links(&rests)));
    if let Some(check) = &c.check {
        s.push_str(&format!(
            "<details><summary>Recipe</summary><pre>{}</pre></details>\n",
            text(check.text(), 5000)
        ));
    }
    if let Some(last) = c.audit.last() {
        s.push_str(&format!(
            "<details><summary>Last re-check</summary><pre>{}</pre></details>\n",
            text(last.text(), 5000)
        ));
    }
    s.push_str("</section>\n");
    s
}
