//! The graph as a document (`graph show`): Markdown, LaTeX, the graph's own JSON, streamed, or
//! a picture of it (Graphviz DOT, or SVG laid out by sciproof).

use super::{dot, html, latex, markdown, svg};
use crate::graph::Form;
use crate::graph::view::GraphView;
use crate::render::{OutputFormat, Render, Renderer, Sink};

impl Render for GraphView<'_> {
    fn renderer(format: OutputFormat) -> Option<Box<dyn Renderer<Self>>> {
        Some(match format {
            OutputFormat::Markdown => Box::new(GraphMarkdown),
            OutputFormat::Latex => Box::new(GraphLatex),
            OutputFormat::Json => Box::new(GraphJson),
            OutputFormat::Dot => Box::new(GraphDot),
            OutputFormat::Html => Box::new(GraphHtml),
            OutputFormat::Svg => Box::new(GraphSvg),
            _ => return None,
        })
    }
}

/// The Markdown document (the reference's bytes for its own documents).
pub struct GraphMarkdown;

impl Renderer<GraphView<'_>> for GraphMarkdown {
    fn render(&self, view: &GraphView<'_>, out: &mut Sink) {
        let options = markdown::MarkdownOptions {
            derivations: view.derivations,
            ..Default::default()
        };
        markdown::render_to(view.graph, options, out);
    }
}

/// The LaTeX document (standalone, or the body only).
pub struct GraphLatex;

impl Renderer<GraphView<'_>> for GraphLatex {
    fn render(&self, view: &GraphView<'_>, out: &mut Sink) {
        latex::render_to(view.graph, view.standalone, view.derivations, out);
    }
}

/// One self-contained HTML page.
pub struct GraphHtml;

impl Renderer<GraphView<'_>> for GraphHtml {
    fn render(&self, view: &GraphView<'_>, out: &mut Sink) {
        html::render_to(view.graph, out);
    }
}

/// A picture of the graph, for Graphviz.
pub struct GraphDot;

impl Renderer<GraphView<'_>> for GraphDot {
    fn render(&self, view: &GraphView<'_>, out: &mut Sink) {
        dot::render_to(view.graph, out);
    }
}

/// A picture of the graph, laid out by sciproof.
pub struct GraphSvg;

impl Renderer<GraphView<'_>> for GraphSvg {
    fn render(&self, view: &GraphView<'_>, out: &mut Sink) {
        let claims: Vec<&crate::graph::Claim> = view.graph.claims().iter().collect();
        svg::claims_to(&claims, None, out);
    }
}

/// The graph document itself, indented (the stable form on request).
pub struct GraphJson;

impl Renderer<GraphView<'_>> for GraphJson {
    fn render(&self, view: &GraphView<'_>, out: &mut Sink) {
        view.graph.write_json(
            Form {
                pretty: true,
                stable: view.stable,
            },
            out,
        );
        out("\n");
    }
}
