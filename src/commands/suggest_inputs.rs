//! `sciproof suggest-inputs`: run the command once under the system-call tracer and list the
//! files it read that are not declared.

use super::Outcome;
use crate::error::usage;
use crate::flags::check_timeout;
use crate::ui::Ui;
use sciproof_core::escape::terminal::safe_text;
use sciproof_core::ops::{SuggestInputsRequest, Suggestions};
use sciproof_core::render::OutputFormat;
use std::path::PathBuf;

/// Exit code when the trace may have missed reads: nothing can be said about completeness.
const EXIT_INCOMPLETE: u8 = 2;

#[derive(clap::Args)]
pub struct Args {
    /// A declared input (files at or below it are not suggested); repeatable.
    #[arg(long = "input", value_name = "PATH", action = clap::ArgAction::Append)]
    inputs: Vec<PathBuf>,
    /// A declared output (files at or below it are not suggested); repeatable.
    #[arg(long = "output", value_name = "PATH", action = clap::ArgAction::Append)]
    outputs: Vec<PathBuf>,
    /// Stop the command (and everything it started) after this many seconds.
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
    /// Refuse io_uring to the command (ENOSYS), so it falls back to system calls the tracer
    /// sees, instead of reporting the trace incomplete.
    #[arg(long)]
    deny_io_uring: bool,
    /// With --format json: also list every path any process touched and what it did (read,
    /// written, created, removed, executed, probed), stat calls included.
    #[arg(long)]
    all: bool,
    #[command(flatten)]
    tracer: crate::flags::TracerFlag,
    #[arg(long, default_value = "text", value_parser = crate::flags::formats::<Suggestions>())]
    format: OutputFormat,
    /// The command and its arguments (after '--').
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "COMMAND"
    )]
    command: Vec<String>,
}

pub fn run(ui: &Ui, args: Args) -> Outcome {
    if let Some(t) = args.timeout {
        check_timeout(t)?;
    }
    if args.all && args.format != OutputFormat::Json {
        return usage("--all lists every access in the JSON output: add --format json");
    }
    let command = crate::flags::command_words::<Args>(
        args.command,
        "sciproof suggest-inputs [--input P]... [--output P]... -- COMMAND",
    )?;
    let cwd = crate::flags::working_directory()?;
    let found = sciproof_core::ops::suggest_inputs(&SuggestInputsRequest {
        argv: command,
        cwd,
        declared: args.inputs.into_iter().chain(args.outputs).collect(),
        timeout: args.timeout,
        deny_io_uring: args.deny_io_uring,
        all: args.all,
        tracer: args.tracer.tracer(),
    })?;
    if let Some(why) = &found.fell_back {
        ui.line(&format!(
            "warning: {}; Python's audit hook is used instead, which sees only reads made by Python code",
            safe_text(why, 2000)
        ));
    }
    if found.exit_code != 0 {
        ui.line(&format!(
            "warning: the command exited with status {}",
            found.exit_code
        ));
    }
    for why in &found.incomplete {
        ui.line(&format!("inconclusive: {}", safe_text(why, 2000)));
    }
    ui.render(&found, args.format);
    Ok(if found.incomplete.is_empty() {
        0
    } else {
        EXIT_INCOMPLETE
    })
}
