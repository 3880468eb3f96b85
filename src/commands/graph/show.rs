//! `sciproof graph show`: the graph as a document (Markdown, LaTeX or JSON), streamed.

use super::{done_with, open};
use crate::commands::Outcome;
use crate::flags::formats;
use crate::ui::Ui;
use sciproof_core::graph::view::GraphView;
use sciproof_core::render::OutputFormat;
use std::path::Path;

#[derive(clap::Args)]
pub struct Args {
    #[arg(long, default_value = "markdown", value_parser = formats::<GraphView<'static>>())]
    format: OutputFormat,
    /// LaTeX: the body only, without preamble.
    #[arg(long)]
    body_only: bool,
    /// JSON: the stable form (no timestamps).
    #[arg(long)]
    stable: bool,
    /// Leave out derivation tables.
    #[arg(long)]
    no_derivations: bool,
}

pub fn run(ui: &Ui, graph: &Path, args: Args) -> Outcome {
    let graph = open(ui, graph)?;
    let view = GraphView {
        graph: &graph,
        derivations: !args.no_derivations,
        standalone: !args.body_only,
        stable: args.stable,
    };
    ui.render(&view, args.format);
    done_with(graph);
    Ok(0)
}
