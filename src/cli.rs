//! The command-line interface: every command, flag and format, as clap definitions. The
//! handlers that turn these into library calls are in `main.rs`.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// Python's `float()` grammar for numeric flags, as the reference's argparse reads them.
pub fn py_float(text: &str) -> Result<f64, String> {
    sciproof_core::pyfmt::parse_py_float(text)
        .ok_or_else(|| format!("invalid float value: '{text}'"))
}

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
    pub command: Command,
    /// When another sciproof is changing the same evidence or claim graph, refuse at once (exit 3) instead of waiting for it.
    #[arg(long, global = true)]
    pub no_wait: bool,
}

#[derive(Subcommand)]
pub enum Command {
    /// Run a command once and record evidence in NAME.sciproof.json.
    Capture(CaptureArgs),
    /// Check a manifest: integrity of every declared file (nothing is executed).
    Verify(VerifyArgs),
    /// Claim-check RO-Crates: read one back into its check records.
    #[command(subcommand)]
    Crate(CrateCommand),
    /// Claim graphs: a content-addressed DAG of claims across runs (claims.json).
    Graph(crate::cli_graph::GraphArgs),
    /// Show what a manifest records (never executes anything).
    Inspect {
        /// The manifest file (NAME.sciproof.json).
        manifest: PathBuf,
    },
    /// Show what changed between two recorded runs (nothing is executed). Exit 0 identical, 1 different.
    Diff {
        /// The earlier manifest.
        old: PathBuf,
        /// The later manifest.
        new: PathBuf,
        /// Print JSON (same as --format json).
        #[arg(long)]
        json: bool,
        /// Output format.
        #[arg(long, value_enum)]
        format: Option<DiffFormat>,
        /// Show the values of allow-listed environment variables (hidden by default).
        #[arg(long)]
        show_values: bool,
    },
    /// List the manifests in a folder, newest first. Exit 0, or with --check 1 if any FAIL or invalid, 2 if any INCONCLUSIVE.
    List {
        /// The folder (default: the current one).
        #[arg(default_value = ".")]
        dir: PathBuf,
        /// Also list manifests in subfolders (hidden folders, node_modules and target are skipped).
        #[arg(short = 'r', long)]
        recursive: bool,
        /// Verify the integrity of each manifest (in parallel).
        #[arg(long)]
        check: bool,
        /// Print JSON (same as --format json).
        #[arg(long)]
        json: bool,
        /// Output format.
        #[arg(long, value_enum)]
        format: Option<Format>,
    },
    /// Verify a manifest and write an SVG badge of the verdict; the exit code is the verdict's.
    Badge {
        /// The manifest file (NAME.sciproof.json).
        manifest: PathBuf,
        /// Where to write the badge.
        #[arg(
            short = 'o',
            long = "output",
            default_value = "sciproof-badge.svg",
            value_name = "FILE"
        )]
        output: PathBuf,
        /// EXECUTE the recorded command again (see verify --rerun).
        #[arg(long)]
        rerun: bool,
        /// Do not ask for confirmation before --rerun.
        #[arg(long)]
        yes: bool,
        /// With --rerun: a minimal environment.
        #[arg(long)]
        clean_env: bool,
        /// Stop the rerun after this many seconds.
        #[arg(long, value_name = "SECONDS", default_value = "3600.0", value_parser = py_float)]
        timeout: f64,
    },
    /// Export a manifest for other tools (nothing is executed).
    Export {
        /// The manifest file (NAME.sciproof.json).
        manifest: PathBuf,
        /// What to write.
        #[arg(long, value_enum, default_value = "in-toto")]
        format: ExportFormat,
        /// Write to this file instead of stdout (ro-crate: a folder, or a .json file; default the manifest's folder).
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: Option<PathBuf>,
        /// With --format latex: a macro \NAME for the value at LOCATION of OUTPUT; repeatable.
        #[arg(long = "value", num_args = 3, value_names = ["NAME", "OUTPUT", "LOCATION"], action = clap::ArgAction::Append, allow_hyphen_values = true)]
        values: Vec<String>,
    },
    /// Capture the recorded experiment again with the manifest's own declarations and show what changed (EXECUTES the command).
    Update {
        /// The manifest file (NAME.sciproof.json).
        manifest: PathBuf,
        /// Do not ask for confirmation.
        #[arg(long)]
        yes: bool,
        /// Print what would run and be replaced, and stop.
        #[arg(long)]
        dry_run: bool,
        /// A new note for the new evidence.
        #[arg(long, value_name = "TEXT")]
        note: Option<String>,
        /// Stop the command after this many seconds.
        #[arg(long, value_name = "SECONDS", value_parser = py_float)]
        timeout: Option<f64>,
    },
    /// Sign a manifest with an OpenSSH private key (writes <MANIFEST>.sig).
    Sign {
        /// The manifest file (NAME.sciproof.json).
        manifest: PathBuf,
        /// The OpenSSH private key (Ed25519, ECDSA or RSA; an encrypted key asks for its passphrase).
        #[arg(long, value_name = "KEY")]
        key: PathBuf,
    },
    /// Validate a policy file and list its rules (nothing is verified).
    CheckPolicy {
        /// The policy file (TOML).
        policy: PathBuf,
    },
    /// Work with the claims of a manifest.
    #[command(subcommand)]
    Claims(ClaimsCommand),
    /// Complete or undo what an interrupted sciproof left unfinished in a folder (the next command on an evidence does this by itself too).
    Recover {
        /// The folder (default: the current one).
        #[arg(default_value = ".")]
        dir: PathBuf,
        /// Also look in subfolders (links are not followed; .git is skipped).
        #[arg(short = 'r', long)]
        recursive: bool,
    },
    /// Capture, verify, tamper with and restore a built-in example experiment.
    Demo {
        /// Folder to create the experiment in (must be new, empty, or made by an earlier demo).
        #[arg(default_value = sciproof_core::demo::DEFAULT_DIR)]
        dir: PathBuf,
    },
}

#[derive(Subcommand)]
pub enum ClaimsCommand {
    /// Evaluate only the claims on the recorded outputs and print claim, found value, verdict.
    Check {
        /// The manifest file (NAME.sciproof.json).
        manifest: PathBuf,
        /// Print a JSON document (schema sciproof.claims 1.0) instead of the table.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Args)]
#[command(
    about = "Run COMMAND once in the current directory and write NAME.sciproof.json. Everything after '--' is the command (it is not run through a shell).",
    args_override_self = true
)]
pub struct CaptureArgs {
    /// Experiment name (also names the manifest): letters, digits, '.', '_', '-'.
    #[arg(long)]
    pub name: String,
    /// An input file or directory (hashed before and after the run); repeatable.
    #[arg(long = "input", value_name = "PATH", action = clap::ArgAction::Append)]
    pub inputs: Vec<String>,
    /// An output file or directory compared by exact hash; repeatable.
    #[arg(long = "output", value_name = "PATH", action = clap::ArgAction::Append)]
    pub outputs: Vec<String>,
    /// A .json/.csv/.tsv/.npy output compared with a numeric tolerance (a copy is kept); repeatable.
    #[arg(long = "output-numeric", value_name = "PATH", action = clap::ArgAction::Append)]
    pub numeric_outputs: Vec<String>,
    /// Relative tolerance of numeric outputs.
    #[arg(long, default_value = "1e-09", value_parser = py_float)]
    pub rtol: f64,
    /// Absolute tolerance of numeric outputs.
    #[arg(long, default_value = "0.0", value_parser = py_float)]
    pub atol: f64,
    /// A tolerance for one --output-numeric file, e.g. --tolerance out/loss.csv 'rtol=1e-3 atol=1e-6'; repeatable.
    #[arg(long, num_args = 2, value_names = ["OUTPUT", "SETTINGS"], action = clap::ArgAction::Append)]
    pub tolerance: Vec<String>,
    /// Stop the command after this many seconds (no evidence is written).
    #[arg(long, value_name = "SECONDS", value_parser = py_float)]
    pub timeout: Option<f64>,
    /// Keep at most this many bytes of stdout and of stderr in the manifest.
    #[arg(long, default_value_t = sciproof_core::capture::DEFAULT_MAX_LOG_BYTES as i64, allow_negative_numbers = true)]
    pub max_log_bytes: i64,
    /// A checkable claim about a value in a declared .json/.csv output, e.g. --claim out/m.json '$.accuracy >= 0.9'; repeatable.
    #[arg(long, num_args = 2, value_names = ["OUTPUT", "EXPRESSION"], action = clap::ArgAction::Append, allow_hyphen_values = true)]
    pub claim: Vec<String>,
    /// Free text stored in the manifest (at most 2000 characters, never interpreted).
    #[arg(long, value_name = "TEXT")]
    pub note: Option<String>,
    /// Also record the CPU count, processor and NVIDIA GPUs (no host or user names).
    #[arg(long)]
    pub record_hardware: bool,
    /// Overwrite an existing manifest.
    #[arg(long)]
    pub force: bool,
    /// Exit with status 0 even if the command failed (evidence is written either way).
    #[arg(long)]
    pub allow_nonzero: bool,
    /// The command and its arguments (after '--').
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "COMMAND"
    )]
    pub command: Vec<String>,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
    /// GitHub-flavoured Markdown, for CI summaries (>> $GITHUB_STEP_SUMMARY).
    Markdown,
    /// JUnit XML, for CI test viewers.
    Junit,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    /// An unsigned in-toto Statement v1.
    InToto,
    /// OpenLineage START and COMPLETE/FAIL run events.
    Openlineage,
    /// LaTeX macros of values read from verified outputs (--value NAME OUTPUT LOCATION).
    Latex,
    /// Claim-check records (reproducible.science/claim-check/0.1-experimental) as JSON Lines: one per claim, checked on the recorded outputs.
    CheckRecords,
    /// The claim-check RO-Crate of those records (-o DIR, default the manifest's folder, writes DIR/ro-crate-metadata.json).
    RoCrate,
}

#[derive(Subcommand)]
pub enum CrateCommand {
    /// Read a claim-check crate (a folder or its ro-crate-metadata.json) into the records it was written from, and list every way it departs from the profile. Exit 0 clean, 1 problems found, 3 not a claim-check crate.
    Read {
        /// The crate folder, or its ro-crate-metadata.json.
        path: PathBuf,
        /// Print the records as JSON Lines instead of a table.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DiffFormat {
    Text,
    Json,
    Markdown,
}

#[derive(Args)]
pub struct VerifyArgs {
    /// The manifest file (NAME.sciproof.json).
    pub manifest: PathBuf,
    /// EXECUTE the recorded command again and compare its results (runs arbitrary code with your permissions).
    #[arg(long)]
    pub rerun: bool,
    /// Do not ask for confirmation before --rerun.
    #[arg(long)]
    pub yes: bool,
    /// With --rerun: report INCONCLUSIVE, and run nothing, if the environment differs.
    #[arg(long)]
    pub strict_env: bool,
    /// With --rerun: give the command only PATH, temp-directory and numerics variables instead of all of yours.
    #[arg(long)]
    pub clean_env: bool,
    /// With --clean-env: also pass this environment variable; repeatable.
    #[arg(long = "pass-env", value_name = "NAME", action = clap::ArgAction::Append)]
    pub pass_env: Vec<String>,
    /// Also check the signature <MANIFEST>.sig against this OpenSSH allowed-signers file (a missing signature is INCONCLUSIVE, a wrong one FAIL).
    #[arg(long, value_name = "FILE")]
    pub allowed_signers: Option<PathBuf>,
    /// Also check the rules of this policy file (TOML) against the evidence.
    #[arg(long, value_name = "FILE")]
    pub policy: Option<PathBuf>,
    /// Stop the rerun after this many seconds.
    #[arg(long, value_name = "SECONDS", default_value = "3600.0", value_parser = py_float)]
    pub timeout: f64,
    /// Print the report as one JSON object (same as --format json).
    #[arg(long)]
    pub json: bool,
    /// Report format.
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Also write the JSON report to this file (whatever --format prints).
    #[arg(long, value_name = "FILE")]
    pub save_json: Option<PathBuf>,
    /// Also write the claim-check RO-Crate of the claims this verification checked (re-run included) to this folder (its ro-crate-metadata.json) or .json file; the manifest's folder is the crate's root.
    #[arg(long, value_name = "DIR")]
    pub save_crate: Option<PathBuf>,
}
