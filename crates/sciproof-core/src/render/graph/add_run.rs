//! What `graph add-run` added ([`AddedRuns`]) and what `graph merge` merged ([`Merged`]).

use super::claims::claim_line;
use crate::escape::terminal::safe_text;
use crate::graph::view::{AddedRuns, Merged};
use crate::render::{OutputFormat, Render, Renderer, Sink};

impl Render for AddedRuns {
    fn renderer(format: OutputFormat) -> Option<Box<dyn Renderer<Self>>> {
        Some(match format {
            OutputFormat::Text => Box::new(AddedRunsText),
            _ => return None,
        })
    }
}

/// Per manifest: its integrity verdict, its run claim, its value claims, and the earlier runs
/// whose outputs it read.
pub struct AddedRunsText;

impl Renderer<AddedRuns> for AddedRunsText {
    fn render(&self, added: &AddedRuns, out: &mut Sink) {
        let graph = &added.graph;
        for (manifest, run) in &added.runs {
            out(&format!(
                "added {}: integrity {}\n",
                safe_text(&manifest.display().to_string(), 500),
                run.verdict.as_str()
            ));
            let run_line = graph
                .get(&run.run_claim)
                .map(claim_line)
                .unwrap_or_default();
            out(&format!("  {run_line}\n"));
            for (id, _, _) in &run.claims {
                if let Some(c) = graph.get(id) {
                    out(&format!("  {}\n", claim_line(c)));
                }
            }
            for (id, shared) in &run.upstream {
                out(&format!(
                    "  reads {}, an output of {id}\n",
                    safe_text(shared, 500)
                ));
            }
        }
    }
}

impl Render for Merged {
    fn renderer(format: OutputFormat) -> Option<Box<dyn Renderer<Self>>> {
        Some(match format {
            OutputFormat::Text => Box::new(MergedText),
            _ => return None,
        })
    }
}

/// How many claims were merged, and how many of them were new.
pub struct MergedText;

impl Renderer<Merged> for MergedText {
    fn render(&self, m: &Merged, out: &mut Sink) {
        out(&format!(
            "merged {} claims of {}: {} new, {} already here (their statuses kept)\n",
            m.theirs,
            safe_text(&m.other.display().to_string(), 500),
            m.new,
            m.theirs - m.new
        ));
    }
}
