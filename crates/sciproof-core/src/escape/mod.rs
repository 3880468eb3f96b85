//! Every escaper, one module per dialect: untrusted text (from a manifest, a claim graph, a
//! crate, a policy, an allowed-signers file) becomes inert text of the dialect it is written
//! into. Renderers use these and nothing else; a new dialect (HTML, say) is one file here.
//!
//! | dialect | module | used by |
//! | --- | --- | --- |
//! | terminal | [`terminal`] | every text renderer, prompts, errors; the command line's last guard |
//! | Markdown | [`markdown`] | verify/list/diff Markdown, claim-graph documents |
//! | XML | [`xml`] | JUnit reports |
//! | LaTeX | [`latex`] | the LaTeX export, claim-graph LaTeX documents |
//! | Graphviz DOT | [`dot`] | pictures of claim graphs |
//! | HTML | [`html`] | the `--format html` pages |
//!
//! JSON needs no escaper of its own: the writer escapes as Python's `json.dumps` does, and
//! [`terminal::json_inert`] makes what reaches a terminal inert without changing the value.

pub mod dot;
pub mod html;
pub mod latex;
pub mod markdown;
pub mod terminal;
pub mod xml;
