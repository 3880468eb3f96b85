//! `sciproof graph conjecture`: a conjecture recorded; always unverified.

use super::ClaimFlags;
use crate::commands::Outcome;
use crate::ui::Ui;
use sciproof_core::ops::graph::NewClaim;
use std::path::Path;

#[derive(clap::Args)]
pub struct Args {
    statement: String,
    /// What suggested it.
    #[arg(long, value_name = "TEXT")]
    evidence: String,
    #[command(flatten)]
    claim: ClaimFlags,
}

pub fn run(ui: &Ui, graph: &Path, args: Args) -> Outcome {
    let kind = NewClaim::Conjecture {
        evidence: args.evidence,
    };
    args.claim.record(ui, graph, args.statement, kind)
}
