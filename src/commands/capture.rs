//! `sciproof capture`: run a command once and record evidence in NAME.sciproof.json.

use super::Outcome;
use crate::error::usage;
use crate::flags::{pairs, py_float};
use crate::ui::Ui;
use sciproof_core::capture::{
    CaptureRequest, DEFAULT_MAX_LOG_BYTES, TraceOptions, parse_tolerance_settings,
};
use sciproof_core::render::OutputFormat;

#[derive(clap::Args)]
#[command(
    about = "Run COMMAND once in the current directory and write NAME.sciproof.json. Everything after '--' is the command (it is not run through a shell).",
    args_override_self = true
)]
pub struct Args {
    /// Experiment name (also names the manifest): letters, digits, '.', '_', '-'.
    #[arg(long)]
    name: String,
    /// An input file or directory (hashed before and after the run); repeatable.
    #[arg(long = "input", value_name = "PATH", action = clap::ArgAction::Append)]
    inputs: Vec<String>,
    /// An output file or directory compared by exact hash; repeatable.
    #[arg(long = "output", value_name = "PATH", action = clap::ArgAction::Append)]
    outputs: Vec<String>,
    /// A .json/.csv/.tsv/.npy output compared with a numeric tolerance (a copy is kept); repeatable.
    #[arg(long = "output-numeric", value_name = "PATH", action = clap::ArgAction::Append)]
    numeric_outputs: Vec<String>,
    /// Relative tolerance of numeric outputs.
    #[arg(long, default_value = "1e-09", value_parser = py_float)]
    rtol: f64,
    /// Absolute tolerance of numeric outputs.
    #[arg(long, default_value = "0.0", value_parser = py_float)]
    atol: f64,
    /// A tolerance for one --output-numeric file, e.g. --tolerance out/loss.csv 'rtol=1e-3 atol=1e-6'; repeatable.
    #[arg(long, num_args = 2, value_names = ["OUTPUT", "SETTINGS"], action = clap::ArgAction::Append)]
    tolerance: Vec<String>,
    /// Stop the command after this many seconds (no evidence is written).
    #[arg(long, value_name = "SECONDS", value_parser = py_float)]
    timeout: Option<f64>,
    /// Keep at most this many bytes of stdout and of stderr in the manifest.
    #[arg(long, default_value_t = DEFAULT_MAX_LOG_BYTES as i64, allow_negative_numbers = true)]
    max_log_bytes: i64,
    /// A checkable claim about a value in a declared .json/.csv output, e.g. --claim out/m.json '$.accuracy >= 0.9'; repeatable.
    #[arg(long, num_args = 2, value_names = ["OUTPUT", "EXPRESSION"], action = clap::ArgAction::Append, allow_hyphen_values = true)]
    claim: Vec<String>,
    /// Free text stored in the manifest (at most 2000 characters, never interpreted).
    #[arg(long, value_name = "TEXT")]
    note: Option<String>,
    /// Also record the CPU count, processor and NVIDIA GPUs (no host or user names).
    #[arg(long)]
    record_hardware: bool,
    /// Overwrite an existing manifest.
    #[arg(long)]
    force: bool,
    /// Exit with status 0 even if the command failed (evidence is written either way).
    #[arg(long)]
    allow_nonzero: bool,
    /// Trace the run at the system-call level and warn about files inside the working
    /// directory it read but that are not declared, and declared inputs it never read (the
    /// manifest records the result).
    #[arg(long)]
    trace: bool,
    /// With the trace (implied), refuse the capture instead of warning.
    #[arg(long)]
    strict_inputs: bool,
    #[command(flatten)]
    tracer: crate::flags::TracerFlag,
    /// The command and its arguments (after '--').
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "COMMAND"
    )]
    command: Vec<String>,
}

pub fn run(ui: &Ui, args: Args) -> Outcome {
    let command = crate::flags::command_words::<Args>(
        args.command,
        "sciproof capture --name NAME [options] -- COMMAND",
    )?;
    let tolerances = parse_tolerance_settings(&pairs(&args.tolerance))?;
    if args.max_log_bytes < 0 {
        return usage("max-log-bytes must not be negative");
    }
    let base = crate::flags::working_directory()?;
    let progress = ui.progress(true);
    let result = sciproof_core::ops::capture(&CaptureRequest {
        name: args.name,
        argv: command,
        base,
        inputs: args.inputs,
        outputs: args.outputs,
        numeric_outputs: args.numeric_outputs,
        rtol: args.rtol,
        atol: args.atol,
        tolerances,
        timeout: args.timeout,
        max_log_bytes: args.max_log_bytes as u64,
        force: args.force,
        claims: pairs(&args.claim),
        note: args.note,
        record_hardware: args.record_hardware,
        progress: progress.as_ref(),
        wait: ui.wait(),
        trace: (args.trace || args.strict_inputs).then(|| TraceOptions {
            tracer: args.tracer.tracer(),
            strict: args.strict_inputs,
        }),
    })?;
    ui.recovered(&result.recovered);
    for w in &result.warnings {
        ui.warn(w);
    }
    ui.render(&result, OutputFormat::Text);
    let code = result.manifest.execution.exit_code;
    if code != 0 {
        ui.line(&format!(
            "The command failed (exit code {code}); the failure was recorded."
        ));
        return Ok(if args.allow_nonzero { 0 } else { 1 });
    }
    Ok(0)
}
