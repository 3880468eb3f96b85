//! Flags shared by several commands, each defined once: the output format (`--json`,
//! `--format`, whose values are the formats the shown model has renderers for), the rerun
//! options, the tracer, and the number grammar of numeric flags; and the working directory.

use crate::error::{CliError, usage};
use clap::Args;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use sciproof_core::render::{OutputFormat, Render, Stream};
use std::marker::PhantomData;

/// Python's `float()` grammar for numeric flags, as the reference's argparse reads them.
pub fn py_float(text: &str) -> Result<f64, String> {
    sciproof_core::pyfmt::parse_py_float(text)
        .ok_or_else(|| format!("invalid float value: '{text}'"))
}

fn possible(formats: Vec<OutputFormat>) -> impl TypedValueParser<Value = OutputFormat> {
    let values = formats.into_iter().map(|f| {
        let value = PossibleValue::new(f.name());
        match f.purpose() {
            Some(purpose) => value.help(purpose),
            None => value,
        }
    });
    PossibleValuesParser::new(values)
        .map(|name| OutputFormat::from_name(&name).unwrap_or(OutputFormat::Text))
}

/// `--format` values of model `M`: exactly the formats it has renderers for.
pub fn formats<M: Render>() -> impl TypedValueParser<Value = OutputFormat> {
    possible(M::formats())
}

/// `--format` values of stream `S`.
pub fn stream_formats<S: Stream>() -> impl TypedValueParser<Value = OutputFormat> {
    possible(S::formats())
}

/// `--json` and `--format` for a model shown as text by default.
#[derive(Args, Debug)]
pub struct FormatFlags<M: Render + Send + Sync + 'static> {
    /// Print JSON (same as --format json).
    #[arg(long)]
    pub json: bool,
    /// Output format.
    #[arg(long, value_parser = formats::<M>())]
    pub format: Option<OutputFormat>,
    #[arg(skip)]
    _model: PhantomData<M>,
}

impl<M: Render + Send + Sync + 'static> FormatFlags<M> {
    /// The format asked for (text when none is); `--json` with another `--format` is refused.
    pub fn resolve(&self) -> Result<OutputFormat, CliError> {
        match (self.json, self.format) {
            (true, Some(f)) if f != OutputFormat::Json => {
                usage(format!("--json conflicts with --format {}", f.name()))
            }
            (true, _) => Ok(OutputFormat::Json),
            (false, f) => Ok(f.unwrap_or(OutputFormat::Text)),
        }
    }
}

/// Executing the recorded command again (`verify`, `badge`).
#[derive(Args, Debug)]
pub struct RerunFlags {
    /// EXECUTE the recorded command again and compare its results (runs arbitrary code with your permissions).
    #[arg(long)]
    pub rerun: bool,
    /// Do not ask for confirmation before --rerun.
    #[arg(long)]
    pub yes: bool,
    /// With --rerun: give the command only PATH, temp-directory and numerics variables instead of all of yours.
    #[arg(long)]
    pub clean_env: bool,
    /// Stop the rerun after this many seconds.
    #[arg(long, value_name = "SECONDS", default_value = "3600.0", value_parser = py_float)]
    pub timeout: f64,
    /// With --rerun: trace the command at the system-call level and warn about files inside
    /// the working directory it read but the manifest does not declare, and declared inputs it
    /// never read.
    #[arg(long)]
    pub trace: bool,
    /// With --rerun: as --trace, but each such file makes an INCONCLUSIVE check.
    #[arg(long)]
    pub strict_inputs: bool,
    #[command(flatten)]
    pub tracer: TracerFlag,
}

/// A timeout must be a positive number of seconds.
pub fn check_timeout(seconds: f64) -> Result<(), CliError> {
    if seconds.is_finite() && seconds > 0.0 {
        Ok(())
    } else {
        usage("timeout must be a positive number of seconds")
    }
}

/// Pairs of a repeated two-value flag (`--claim OUTPUT EXPRESSION`).
pub fn pairs(flat: &[String]) -> Vec<(String, String)> {
    flat.chunks(2)
        .map(|c| (c[0].clone(), c.get(1).cloned().unwrap_or_default()))
        .collect()
}

impl RerunFlags {
    /// The rerun to do, if `--rerun` was given: asking `confirm` unless `--yes`.
    pub fn options<'a>(
        &self,
        confirm: sciproof_core::consent::Confirm<'a>,
        strict_env: bool,
        pass_env: Vec<String>,
    ) -> Option<sciproof_core::verify::RerunOptions<'a>> {
        self.rerun.then_some(sciproof_core::verify::RerunOptions {
            assume_yes: self.yes,
            confirm: Some(confirm),
            strict_env,
            clean_env: self.clean_env,
            pass_env,
            timeout: self.timeout,
            trace: (self.trace || self.strict_inputs).then(|| {
                sciproof_core::capture::TraceOptions {
                    tracer: self.tracer.tracer(),
                    strict: self.strict_inputs,
                }
            }),
        })
    }
}

/// `--tracer`: how a command's file reads are observed (`suggest-inputs`, `record`, `capture
/// --trace`, `verify --rerun --trace`).
#[derive(Args, Debug)]
pub struct TracerFlag {
    /// How reads are observed: ptrace (every process, any language), python (the reference's
    /// audit hook: only Python code), or auto (ptrace, or python where ptrace is not
    /// permitted).
    #[arg(long = "tracer", default_value = "auto", value_parser = ["auto", "ptrace", "python"])]
    observer: String,
}

impl TracerFlag {
    /// The observer chosen.
    pub fn tracer(&self) -> sciproof_core::trace::Tracer {
        use sciproof_core::trace::Tracer;
        match self.observer.as_str() {
            "ptrace" => Tracer::Ptrace,
            "python" => Tracer::PythonAuditHook,
            _ => Tracer::Auto,
        }
    }
}

/// The working directory, where commands run and manifests are written.
pub fn working_directory() -> Result<std::path::PathBuf, CliError> {
    std::env::current_dir().map_err(|e| {
        CliError::Usage(format!(
            "cannot read the current directory: {}",
            sciproof_core::error::strerror(&e)
        ))
    })
}

/// The command a subcommand runs (`capture`, `record`, `suggest-inputs`: the trailing words
/// after the options), checked: a leading `--` dropped, none given refused with `usage_line`.
///
/// clap hands an unknown option that comes before the command to the command itself (the
/// command is a trailing list). An option-like first word that was not preceded by `--` is a
/// typo or an ambiguous prefix: it is refused, as argparse does, instead of being run. `A` is
/// the subcommand's arguments, whose long options an ambiguous prefix is matched against.
pub fn command_words<A: clap::Args>(
    mut command: Vec<String>,
    usage_line: &str,
) -> Result<Vec<String>, CliError> {
    if command.first().map(String::as_str) == Some("--") {
        command.remove(0);
    }
    let Some(first) = command
        .first()
        .filter(|w| w.starts_with('-') && w.len() > 1)
    else {
        if command.is_empty() {
            return usage(format!("no command given; usage: {usage_line}"));
        }
        return Ok(command);
    };
    let raw: Vec<String> = std::env::args().collect();
    let position = raw.iter().position(|w| w == first);
    if position.is_some_and(|p| p > 0 && raw[p - 1] == "--") {
        return Ok(command);
    }
    let name = first.split('=').next().unwrap_or(first);
    let cmd = A::augment_args(clap::Command::new("command"));
    let matches: Vec<String> = cmd
        .get_arguments()
        .filter_map(|a| a.get_long())
        .filter(|long| {
            name.strip_prefix("--")
                .is_some_and(|p| !p.is_empty() && long.starts_with(p))
        })
        .map(|long| format!("--{long}"))
        .collect();
    if matches.len() > 1 {
        return usage(format!(
            "ambiguous option: {name} could match {}",
            matches.join(", ")
        ));
    }
    usage(format!(
        "unrecognized option {}; put the command after '--': {usage_line}",
        sciproof_core::pyfmt::str_repr(name)
    ))
}
