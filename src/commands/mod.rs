//! One module per subcommand: its flags (clap), their conversion into a typed request, the
//! operation it calls, and what it shows. `graph`, `claims` and `crate` are folders with one
//! file per subcommand. No command module uses another's.

mod badge;
mod calibrate;
mod capture;
mod check_policy;
mod checkcrate;
mod claims;
mod completions;
mod demo;
mod diff;
mod export;
mod graph;
mod inspect;
mod list;
mod man;
mod record;
mod recover;
mod sign;
mod suggest_inputs;
mod update;
mod verify;

use crate::error::CliError;
use crate::ui::Ui;
use clap::{Parser, Subcommand};

/// What a command returns: its exit code (0 success / PASS, 1 FAIL, 2 INCONCLUSIVE, ...).
pub type Outcome = Result<u8, CliError>;

// The command line (no doc comment: clap would show it as the long description).
#[derive(Parser)]
#[command(
    name = "sciproof",
    version,
    about = "Record computational experiments and create verifiable evidence for them.",
    infer_long_args = true,
    args_override_self = true,
    after_help = "Exit codes: 0 PASS/success, 1 FAIL (or the captured command failed), 2 INCONCLUSIVE, 3 usage error or invalid manifest, 128+N interrupted by signal N (130 Ctrl+C, 143 SIGTERM)."
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
    /// When another sciproof is changing the same evidence or claim graph, refuse at once (exit 3) instead of waiting for it.
    #[arg(long, global = true)]
    pub no_wait: bool,
}

// Doc comments here are clap's help texts, shown as written: `<MANIFEST>` is a placeholder
// for the user, not HTML.
#[allow(rustdoc::invalid_html_tags)]
#[derive(Subcommand)]
enum Command {
    /// Run a command once and record evidence in NAME.sciproof.json.
    Capture(capture::Args),
    /// Check a manifest: integrity of every declared file (nothing is executed).
    Verify(verify::Args),
    /// Claim-check RO-Crates: read one back into its check records.
    #[command(subcommand)]
    Crate(checkcrate::Command),
    /// Claim graphs: a content-addressed DAG of claims across runs (claims.json).
    Graph(graph::Args),
    /// Show what a manifest records (never executes anything).
    Inspect(inspect::Args),
    /// Show what changed between two recorded runs (nothing is executed). Exit 0 identical, 1 different.
    Diff(diff::Args),
    /// List the manifests in a folder, newest first. Exit 0, or with --check 1 if any FAIL or invalid, 2 if any INCONCLUSIVE.
    List(list::Args),
    /// Verify a manifest and write an SVG badge of the verdict; the exit code is the verdict's.
    Badge(badge::Args),
    /// Export a manifest for other tools (nothing is executed).
    Export(export::Args),
    /// Capture the recorded experiment again with the manifest's own declarations and show what changed (EXECUTES the command).
    Update(update::Args),
    /// Sign a manifest with an OpenSSH private key (writes <MANIFEST>.sig).
    Sign(sign::Args),
    /// Validate a policy file and list its rules (nothing is verified).
    CheckPolicy(check_policy::Args),
    /// Capture an experiment without declaring files: the command runs under a system-call tracer to find what it reads and writes, again to see which outputs are stable, then is captured (EXECUTES the command three times, twice with --fast).
    Record(record::Args),
    /// Run the recorded command several times and measure how much its outputs vary (EXECUTES the command). Exit 0 STABLE, 1 VARIES, 2 declined.
    Calibrate(calibrate::Args),
    /// Run a command once under a system-call tracer and list the files any of its processes read that are not declared (EXECUTES the command). Exit 0, 2 if the trace is incomplete.
    SuggestInputs(suggest_inputs::Args),
    /// Work with the claims of a manifest.
    #[command(subcommand)]
    Claims(claims::Command),
    /// Complete or undo what an interrupted sciproof left unfinished in a folder (the next command on an evidence does this by itself too).
    Recover(recover::Args),
    /// Capture, verify, tamper with and restore a built-in example experiment.
    Demo(demo::Args),
    /// Print the completion script for a shell.
    Completions(completions::Args),
    /// Print the manual page, or write one per command into a folder.
    Man(man::Args),
}

/// Runs the command of `cli`; returns its exit code.
pub fn run(ui: &Ui, cli: Cli) -> Outcome {
    match cli.command {
        Command::Capture(args) => capture::run(ui, args),
        Command::Verify(args) => verify::run(ui, args),
        Command::Crate(command) => checkcrate::run(ui, command),
        Command::Graph(args) => graph::run(ui, args),
        Command::Inspect(args) => inspect::run(ui, args),
        Command::Diff(args) => diff::run(ui, args),
        Command::List(args) => list::run(ui, args),
        Command::Badge(args) => badge::run(ui, args),
        Command::Export(args) => export::run(ui, args),
        Command::Update(args) => update::run(ui, args),
        Command::Sign(args) => sign::run(ui, args),
        Command::CheckPolicy(args) => check_policy::run(ui, args),
        Command::SuggestInputs(args) => suggest_inputs::run(ui, args),
        Command::Record(args) => record::run(ui, args),
        Command::Calibrate(args) => calibrate::run(ui, args),
        Command::Claims(command) => claims::run(ui, command),
        Command::Recover(args) => recover::run(ui, args),
        Command::Demo(args) => demo::run(ui, args),
        Command::Completions(args) => completions::run(ui, args),
        Command::Man(args) => man::run(ui, args),
    }
}
