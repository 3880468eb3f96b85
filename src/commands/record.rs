//! `sciproof record`: capture an experiment without declaring its files (EXECUTES the command
//! three times, twice with `--fast`).

use super::Outcome;
use crate::error::usage;
use crate::flags::check_timeout;
use crate::ui::Ui;
use sciproof_core::capture::DEFAULT_MAX_LOG_BYTES;
use sciproof_core::ops::RecordRequest;
use sciproof_core::render::OutputFormat;

#[derive(clap::Args)]
pub struct Args {
    /// Experiment name (also names the manifest): letters, digits, '.', '_' or '-'.
    #[arg(long)]
    name: String,
    /// An input to add by hand; repeatable.
    #[arg(long = "input", value_name = "PATH", action = clap::ArgAction::Append)]
    inputs: Vec<String>,
    /// A file or directory that is neither input nor output; repeatable.
    #[arg(long = "exclude", value_name = "PATH", action = clap::ArgAction::Append)]
    exclude: Vec<String>,
    /// Skip the second run (outputs are not checked for stability).
    #[arg(long)]
    fast: bool,
    /// Stop each run after this many seconds.
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
    /// Keep at most this many bytes of stdout and of stderr in the manifest.
    #[arg(long, default_value_t = DEFAULT_MAX_LOG_BYTES as i64)]
    max_log_bytes: i64,
    /// Free text stored in the manifest.
    #[arg(long, value_name = "TEXT")]
    note: Option<String>,
    /// Also record the CPU count, processor and NVIDIA GPUs.
    #[arg(long)]
    record_hardware: bool,
    /// Overwrite an existing manifest.
    #[arg(long)]
    force: bool,
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
        "sciproof record --name NAME [options] -- COMMAND",
    )?;
    if let Some(t) = args.timeout {
        check_timeout(t)?;
    }
    if args.max_log_bytes < 0 {
        return usage("max-log-bytes must not be negative");
    }
    let base = crate::flags::working_directory()?;
    let progress = ui.progress(true);
    let recorded = sciproof_core::ops::record(&RecordRequest {
        name: args.name,
        argv: command,
        base,
        inputs: args.inputs,
        exclude: args.exclude,
        fast: args.fast,
        timeout: args.timeout,
        max_log_bytes: args.max_log_bytes as u64,
        force: args.force,
        note: args.note,
        record_hardware: args.record_hardware,
        tracer: args.tracer.tracer(),
        progress: progress.as_ref(),
        wait: ui.wait(),
    })?;
    ui.recovered(&recorded.capture.recovered);
    for w in &recorded.capture.warnings {
        ui.warn(w);
    }
    ui.render(&recorded, OutputFormat::Text);
    Ok(if recorded.capture.manifest.execution.exit_code != 0 {
        1
    } else {
        0
    })
}
