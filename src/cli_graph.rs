//! `sciproof graph`: clap definitions of the claim-graph commands.

use clap::{Args, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Args)]
#[command(
    after_help = "Claim IDs can be given by a unique prefix. Writes are atomic.\nStatuses from add-run: PASS numerically_checked (evidence about pinned files, not a proof), INCONCLUSIVE unverified, FAIL refuted.\nExit codes: 0 success, 1 a re-check failed (verify) or the graphs differ (diff), 2 a re-check was inconclusive (verify), 3 usage error or invalid graph."
)]
pub struct GraphArgs {
    /// The claim-graph file.
    #[arg(
        long,
        global = true,
        value_name = "FILE",
        default_value = "claims.json"
    )]
    pub graph: PathBuf,
    #[command(subcommand)]
    pub command: GraphCommand,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ShowFormat {
    Markdown,
    Latex,
    Json,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ListFormat {
    Text,
    Json,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum VerifyFormat {
    Text,
    Markdown,
    Json,
}

#[derive(Args)]
pub struct RecordArgs {
    /// A hypothesis the claim holds under; repeatable (part of the claim's identity).
    #[arg(long = "hypothesis", value_name = "H", action = clap::ArgAction::Append)]
    pub hypotheses: Vec<String>,
    /// A claim this one depends on (ID or unique prefix); repeatable.
    #[arg(long = "depends-on", value_name = "ID", action = clap::ArgAction::Append)]
    pub depends_on: Vec<String>,
    /// A re-verification recipe as a JSON object, e.g. '{"kind": "numeric_relation", "constants": ["0.5", "1"], "coefficients": [2, -1]}'.
    #[arg(long, value_name = "JSON")]
    pub check: Option<String>,
    /// A short title for the documents.
    #[arg(long, value_name = "L")]
    pub label: Option<String>,
    /// A free label; repeatable.
    #[arg(long = "tag", value_name = "T", action = clap::ArgAction::Append)]
    pub tags: Vec<String>,
    /// Free prose.
    #[arg(long, value_name = "TEXT")]
    pub notes: Option<String>,
    /// Title of the graph when this creates it.
    #[arg(long, value_name = "TITLE")]
    pub title: Option<String>,
}

#[derive(Subcommand)]
pub enum GraphCommand {
    /// Verify a sciproof manifest (integrity only, nothing executed) and add the run and its claims, linked to earlier runs whose outputs it read.
    AddRun {
        /// Manifests (NAME.sciproof.json), added in this order.
        #[arg(required = true)]
        manifests: Vec<PathBuf>,
        /// Title of the graph when this creates it.
        #[arg(long, value_name = "TITLE")]
        title: Option<String>,
    },
    /// Record a conjecture: always unverified.
    Conjecture {
        statement: String,
        /// What suggested it.
        #[arg(long, value_name = "TEXT")]
        evidence: String,
        #[command(flatten)]
        args: RecordArgs,
    },
    /// Record a claim: unverified (a recipe lets `graph verify` re-check it, which can only lower it).
    Record {
        statement: String,
        /// The method or operation that produced it (part of the claim's identity).
        #[arg(long, value_name = "M")]
        method: String,
        #[command(flatten)]
        args: RecordArgs,
    },
    /// Re-check every claim that carries a recipe; a failed re-check marks it refuted.
    Verify {
        /// Leave statuses alone (the exit code still says a re-check failed).
        #[arg(long)]
        no_mark_refuted: bool,
        /// Absolute tolerance of numeric_relation recipes without their own.
        #[arg(long, value_name = "X", default_value = "1e-8", value_parser = crate::cli::py_float)]
        tolerance: f64,
        /// Report format.
        #[arg(long, value_enum, default_value = "text")]
        format: VerifyFormat,
    },
    /// Render the graph.
    Show {
        #[arg(long, value_enum, default_value = "markdown")]
        format: ShowFormat,
        /// LaTeX: the body only, without preamble.
        #[arg(long)]
        body_only: bool,
        /// JSON: the stable form (no timestamps).
        #[arg(long)]
        stable: bool,
        /// Leave out derivation tables.
        #[arg(long)]
        no_derivations: bool,
    },
    /// What dies if this claim is false: every claim that cites it, transitively.
    Impact {
        id: String,
        #[arg(long, value_enum, default_value = "text")]
        format: ListFormat,
    },
    /// What this claim rests on, transitively.
    Ancestors {
        id: String,
        #[arg(long, value_enum, default_value = "text")]
        format: ListFormat,
    },
    /// The claims that cite this one directly.
    Dependents {
        id: String,
        #[arg(long, value_enum, default_value = "text")]
        format: ListFormat,
    },
    /// The claims this one depends on directly, in its own order.
    Dependencies {
        id: String,
        #[arg(long, value_enum, default_value = "text")]
        format: ListFormat,
    },
    /// Claims with exactly this status (unverified, refuted, exactly_verified, ...).
    ByStatus {
        status: String,
        #[arg(long, value_enum, default_value = "text")]
        format: ListFormat,
    },
    /// Claims carrying this tag.
    ByTag {
        tag: String,
        #[arg(long, value_enum, default_value = "text")]
        format: ListFormat,
    },
    /// Claims recorded by this method.
    ByMethod {
        method: String,
        #[arg(long, value_enum, default_value = "text")]
        format: ListFormat,
    },
    /// Claims a checker checked (exactly_verified, lean_checked).
    MachineCheckable {
        #[arg(long, value_enum, default_value = "text")]
        format: ListFormat,
    },
    /// Every claim, each after all of its dependencies.
    TopologicalOrder {
        #[arg(long, value_enum, default_value = "text")]
        format: ListFormat,
    },
    /// Merge another claim graph into this one: a claim already here keeps its status and gains only edges, tags, audit entries, and a recipe it had none of.
    Merge {
        /// The other graph document.
        other: PathBuf,
    },
    /// Claims that depend on nothing.
    Roots {
        #[arg(long, value_enum, default_value = "text")]
        format: ListFormat,
    },
    /// Claims nothing depends on.
    Leaves {
        #[arg(long, value_enum, default_value = "text")]
        format: ListFormat,
    },
    /// Claims per status and the machine-checkable fraction.
    Summary {
        #[arg(long, value_enum, default_value = "text")]
        format: ListFormat,
    },
    /// SHA-256 of the stable form.
    Digest,
    /// Claims added, removed, re-linked or with another status. Exit 0 same, 1 different.
    Diff {
        old: PathBuf,
        new: PathBuf,
        #[arg(long, value_enum, default_value = "text")]
        format: ListFormat,
    },
}
