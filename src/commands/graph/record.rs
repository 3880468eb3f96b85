//! `sciproof graph record`: a claim recorded as unverified; a recipe lets `graph verify`
//! re-check it.

use super::ClaimFlags;
use crate::commands::Outcome;
use crate::ui::Ui;
use sciproof_core::ops::graph::NewClaim;
use std::path::Path;

#[derive(clap::Args)]
pub struct Args {
    statement: String,
    /// The method or operation that produced it (part of the claim's identity).
    #[arg(long, value_name = "M")]
    method: String,
    #[command(flatten)]
    claim: ClaimFlags,
}

pub fn run(ui: &Ui, graph: &Path, args: Args) -> Outcome {
    let kind = NewClaim::Claim {
        method: args.method,
    };
    args.claim.record(ui, graph, args.statement, kind)
}
