//! `sciproof graph`: claim graphs, one file per subcommand. What they share is here: the
//! graph file flag, reading the graph with its warnings, and the claim-list format.

mod add_run;
mod ancestors;
mod by_method;
mod by_status;
mod by_tag;
mod conjecture;
mod dependencies;
mod dependents;
mod diff;
mod digest;
mod impact;
mod leaves;
mod machine_checkable;
mod merge;
mod record;
mod roots;
mod show;
mod summary;
mod topological_order;
mod verify;

use super::Outcome;
use crate::error::CliError;
use crate::ui::Ui;
use sciproof_core::graph::ClaimGraph;
use sciproof_core::graph::query::Query;
use sciproof_core::graph::view::ClaimList;
use sciproof_core::ops::graph::{NewClaim, RecordRequest};
use sciproof_core::render::OutputFormat;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
#[command(
    after_help = "Claim IDs can be given by a unique prefix. Writes are atomic.\nStatuses from add-run: PASS numerically_checked (evidence about pinned files, not a proof), INCONCLUSIVE unverified, FAIL refuted.\nExit codes: 0 success, 1 a re-check failed (verify) or the graphs differ (diff), 2 a re-check was inconclusive (verify), 3 usage error or invalid graph."
)]
pub struct Args {
    /// The claim-graph file.
    #[arg(
        long,
        global = true,
        value_name = "FILE",
        default_value = "claims.json"
    )]
    graph: PathBuf,
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Verify a sciproof manifest (integrity only, nothing executed) and add the run and its claims, linked to earlier runs whose outputs it read.
    AddRun(add_run::Args),
    /// Record a conjecture: always unverified.
    Conjecture(conjecture::Args),
    /// Record a claim: unverified (a recipe lets `graph verify` re-check it, which can only lower it).
    Record(record::Args),
    /// Re-check every claim that carries a recipe; a failed re-check marks it refuted.
    Verify(verify::Args),
    /// Render the graph.
    Show(show::Args),
    /// What dies if this claim is false: every claim that cites it, transitively.
    Impact(impact::Args),
    /// What this claim rests on, transitively.
    Ancestors(ancestors::Args),
    /// The claims that cite this one directly.
    Dependents(dependents::Args),
    /// The claims this one depends on directly, in its own order.
    Dependencies(dependencies::Args),
    /// Claims with exactly this status (unverified, refuted, exactly_verified, ...).
    ByStatus(by_status::Args),
    /// Claims carrying this tag.
    ByTag(by_tag::Args),
    /// Claims recorded by this method.
    ByMethod(by_method::Args),
    /// Claims a checker checked (exactly_verified, lean_checked).
    MachineCheckable(machine_checkable::Args),
    /// Every claim, each after all of its dependencies.
    TopologicalOrder(topological_order::Args),
    /// Merge another claim graph into this one: a claim already here keeps its status and gains only edges, tags, audit entries, and a recipe it had none of.
    Merge(merge::Args),
    /// Claims that depend on nothing.
    Roots(roots::Args),
    /// Claims nothing depends on.
    Leaves(leaves::Args),
    /// Claims per status and the machine-checkable fraction.
    Summary(summary::Args),
    /// SHA-256 of the stable form.
    Digest(digest::Args),
    /// Claims added, removed, re-linked or with another status. Exit 0 same, 1 different.
    Diff(diff::Args),
}

/// Runs one `sciproof graph` command on the graph file.
pub fn run(ui: &Ui, args: Args) -> Outcome {
    let graph = args.graph.as_path();
    match args.command {
        Command::AddRun(a) => add_run::run(ui, graph, a),
        Command::Conjecture(a) => conjecture::run(ui, graph, a),
        Command::Record(a) => record::run(ui, graph, a),
        Command::Verify(a) => verify::run(ui, graph, a),
        Command::Show(a) => show::run(ui, graph, a),
        Command::Impact(a) => impact::run(ui, graph, a),
        Command::Ancestors(a) => ancestors::run(ui, graph, a),
        Command::Dependents(a) => dependents::run(ui, graph, a),
        Command::Dependencies(a) => dependencies::run(ui, graph, a),
        Command::ByStatus(a) => by_status::run(ui, graph, a),
        Command::ByTag(a) => by_tag::run(ui, graph, a),
        Command::ByMethod(a) => by_method::run(ui, graph, a),
        Command::MachineCheckable(a) => machine_checkable::run(ui, graph, a),
        Command::TopologicalOrder(a) => topological_order::run(ui, graph, a),
        Command::Merge(a) => merge::run(ui, graph, a),
        Command::Roots(a) => roots::run(ui, graph, a),
        Command::Leaves(a) => leaves::run(ui, graph, a),
        Command::Summary(a) => summary::run(ui, graph, a),
        Command::Digest(a) => digest::run(ui, graph, a),
        Command::Diff(a) => diff::run(ui, graph, a),
    }
}

/// Prints a warning about the graph file on stderr.
fn warn(ui: &Ui) -> impl Fn(&str) + '_ {
    move |w: &str| ui.line(&format!("warning: {w}"))
}

/// Reads a graph, with a progress bar on a terminal and its warnings on stderr.
fn open(ui: &Ui, path: &Path) -> Result<ClaimGraph, CliError> {
    let progress = ui.progress(true);
    Ok(sciproof_core::ops::graph::open(
        path,
        progress.as_ref(),
        &warn(ui),
    )?)
}

/// Ends a command's use of a graph it read without freeing it claim by claim: the command ends
/// the process right after, and the operating system takes back the memory at once (freeing a
/// million claims one allocation at a time took about 0.3 s after the answer was written).
fn done_with(graph: ClaimGraph) {
    std::mem::forget(graph);
}

/// Answers a query about the graph at `path` as a list of claims.
fn list(ui: &Ui, path: &Path, query: Query, format: OutputFormat) -> Outcome {
    let graph = open(ui, path)?;
    let claims = graph
        .answer(&query)
        .map_err(|e| CliError::Usage(e.to_string()))?;
    let focus = query
        .subject()
        .and_then(|prefix| graph.resolve(prefix).ok())
        .and_then(|id| graph.get(id));
    ui.render(&ClaimList { claims, focus }, format);
    done_with(graph);
    Ok(0)
}

/// `--format` of a claim list (text or JSON).
#[derive(clap::Args)]
struct ListFormat {
    #[arg(long, default_value = "text", value_parser = crate::flags::formats::<ClaimList<'static>>())]
    format: OutputFormat,
}

/// What a recorded claim or conjecture carries besides its statement.
#[derive(clap::Args)]
struct ClaimFlags {
    /// A hypothesis the claim holds under; repeatable (part of the claim's identity).
    #[arg(long = "hypothesis", value_name = "H", action = clap::ArgAction::Append)]
    hypotheses: Vec<String>,
    /// A claim this one depends on (ID or unique prefix); repeatable.
    #[arg(long = "depends-on", value_name = "ID", action = clap::ArgAction::Append)]
    depends_on: Vec<String>,
    /// A re-verification recipe as a JSON object, e.g. '{"kind": "numeric_relation", "constants": ["0.5", "1"], "coefficients": [2, -1]}'.
    #[arg(long, value_name = "JSON")]
    check: Option<String>,
    /// A short title for the documents.
    #[arg(long, value_name = "L")]
    label: Option<String>,
    /// A free label; repeatable.
    #[arg(long = "tag", value_name = "T", action = clap::ArgAction::Append)]
    tags: Vec<String>,
    /// Free prose.
    #[arg(long, value_name = "TEXT")]
    notes: Option<String>,
    /// Title of the graph when this creates it.
    #[arg(long, value_name = "TITLE")]
    title: Option<String>,
}

impl ClaimFlags {
    /// Records `statement` as `kind` with these flags; prints the claim's ID.
    fn record(self, ui: &Ui, graph: &Path, statement: String, kind: NewClaim) -> Outcome {
        let progress = ui.progress(true);
        let id = sciproof_core::ops::graph::record(&RecordRequest {
            graph: graph.to_path_buf(),
            statement,
            kind,
            hypotheses: self.hypotheses,
            depends_on: self.depends_on,
            check: self.check,
            label: self.label,
            tags: self.tags,
            notes: self.notes,
            title: self.title,
            recorded_at: sciproof_core::ops::now(),
            wait: ui.wait(),
            progress: progress.as_ref(),
            warn: &warn(ui),
        })?;
        ui.print(&format!("{id}\n"));
        Ok(0)
    }
}
