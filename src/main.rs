//! The `sciproof` command line: parses flags into typed requests, calls the library, renders the
//! result and maps it to an exit code. Nothing else happens here.
//!
//! Exit codes: 0 success / PASS, 1 FAIL (or the captured command failed), 2 INCONCLUSIVE,
//! 3 usage error, invalid manifest, or a capture that could not be completed.

mod cli;
#[macro_use]
mod output;
mod cli_graph;
mod graph_cmd;
mod terminal_progress;

use clap::Parser;
use cli::*;
use sciproof_core::capture::{self, CaptureRequest, parse_tolerance_settings};
use sciproof_core::commit::lock::Wait;
use sciproof_core::error::{Error, strerror};
use sciproof_core::escape::terminal::safe_text;
use sciproof_core::progress::{NoProgress, Progress};
use sciproof_core::report::Renderer;
use sciproof_core::report::json::JsonRenderer;
use sciproof_core::report::text::TextRenderer;
use sciproof_core::verify::{RerunOptions, VerifyRequest};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use terminal_progress::TerminalProgress;

const EXIT_ERROR: u8 = 3;

// Manifests of large directories are many small allocations (one per file entry field);
// mimalloc makes loading them several times faster than the system allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

pub(crate) fn progress_for(enabled: bool) -> Box<dyn Progress> {
    if enabled && std::io::stderr().is_terminal() {
        Box::new(TerminalProgress::new())
    } else {
        Box::new(NoProgress)
    }
}

fn pairs(flat: &[String]) -> Vec<(String, String)> {
    flat.chunks(2)
        .map(|c| (c[0].clone(), c.get(1).cloned().unwrap_or_default()))
        .collect()
}

/// clap hands an unknown option that comes before the command to the command itself (the
/// command is a trailing list). An option-like first word that was not preceded by `--` is a
/// typo or an ambiguous prefix: refuse it, as argparse does, instead of trying to run it.
fn check_first_word(command: &[String]) -> Result<(), Error> {
    let Some(first) = command
        .first()
        .filter(|w| w.starts_with('-') && w.len() > 1)
    else {
        return Ok(());
    };
    let raw: Vec<String> = std::env::args().collect();
    let position = raw.iter().position(|w| w == first);
    if position.is_some_and(|p| p > 0 && raw[p - 1] == "--") {
        return Ok(());
    }
    let name = first.split('=').next().unwrap_or(first);
    let cmd = <CaptureArgs as clap::Args>::augment_args(clap::Command::new("capture"));
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
        return Err(Error::Usage(format!(
            "ambiguous option: {name} could match {}",
            matches.join(", ")
        )));
    }
    Err(Error::Usage(format!(
        "unrecognized option {}; put the command after '--': sciproof capture --name NAME [options] -- COMMAND",
        sciproof_core::pyfmt::str_repr(name)
    )))
}

fn run_capture(args: CaptureArgs, wait: Wait) -> Result<u8, Error> {
    let mut command = args.command;
    if command.first().map(String::as_str) == Some("--") {
        command.remove(0);
    }
    check_first_word(&command)?;
    if command.is_empty() {
        return Err(Error::Usage(
            "no command given; usage: sciproof capture --name NAME [options] -- COMMAND".into(),
        ));
    }
    let tolerances = parse_tolerance_settings(&pairs(&args.tolerance))?;
    if args.max_log_bytes < 0 {
        return Err(Error::Usage("max-log-bytes must not be negative".into()));
    }
    let progress = progress_for(true);
    let request = CaptureRequest {
        name: args.name,
        argv: command,
        base: std::env::current_dir().map_err(|e| {
            Error::Usage(format!(
                "cannot read the current directory: {}",
                strerror(&e)
            ))
        })?,
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
        wait,
    };
    let result = capture::capture(&request)?;
    report_recovered(result.recovered.iter());
    for w in &result.warnings {
        errln!("warning: {}", safe_text(w, 2000));
    }
    let m = &result.manifest;
    let name = result
        .manifest_path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    outln!("Evidence written to {name}");
    outln!("  command exit code: {}", m.execution.exit_code);
    outln!("  inputs recorded:   {}", m.inputs.len());
    outln!("  outputs recorded:  {}", m.outputs.len());
    outln!(
        "Note: stdout/stderr are stored in the manifest; check them for secrets before sharing it."
    );
    if m.claims.iter().any(|c| c.needs_this_tool()) {
        outln!(
            "Note: this manifest has claims that only this sciproof reads (printed-precision claims, or claims on .tsv, .npy or .npz outputs); sciproof 0.4.1 (Python) refuses it as invalid rather than misreading it."
        );
    }
    if m.execution.exit_code != 0 {
        errln!(
            "The command failed (exit code {}); the failure was recorded.",
            m.execution.exit_code
        );
        return Ok(if args.allow_nonzero { 0 } else { 1 });
    }
    Ok(0)
}

fn run_verify(args: VerifyArgs, wait: Wait) -> Result<u8, Error> {
    let format = match (args.json, args.format) {
        (true, Some(f)) if f != Format::Json => {
            let name = match f {
                Format::Markdown => "markdown",
                Format::Junit => "junit",
                _ => "text",
            };
            return Err(Error::Usage(format!(
                "--json conflicts with --format {name}"
            )));
        }
        (true, _) => Format::Json,
        (false, f) => f.unwrap_or(Format::Text),
    };
    // An invalid policy or trust root stops everything before anything else happens.
    let allowed_signers = args
        .allowed_signers
        .as_deref()
        .map(sciproof_core::signing::load_allowed_signers)
        .transpose()?;
    let policy = args
        .policy
        .as_deref()
        .map(sciproof_core::policy::load_policy)
        .transpose()?;
    if !(args.timeout.is_finite() && args.timeout > 0.0) {
        return Err(Error::Usage(
            "timeout must be a positive number of seconds".into(),
        ));
    }
    if args.clean_env && !args.rerun {
        return Err(Error::Usage("--clean-env only applies to --rerun".into()));
    }
    if !args.pass_env.is_empty() && !args.clean_env {
        return Err(Error::Usage(
            "--pass-env needs --clean-env (without it nothing is filtered)".into(),
        ));
    }
    if args.strict_env && !args.rerun {
        errln!("warning: --strict-env only applies to --rerun; it has no effect here");
    }
    let progress = progress_for(format == Format::Text);
    let confirm = |prompt: &str| confirm_on_terminal(prompt);
    let rerun = args.rerun.then(|| RerunOptions {
        assume_yes: args.yes,
        confirm: Some(&confirm as &dyn Fn(&str) -> Result<bool, Error>),
        strict_env: args.strict_env,
        clean_env: args.clean_env,
        pass_env: args.pass_env.clone(),
        timeout: args.timeout,
    });
    let verified = sciproof_core::verify::verify_loaded(&VerifyRequest {
        manifest: args.manifest.clone(),
        rerun,
        policy,
        allowed_signers,
        progress: progress.as_ref(),
        wait,
    })?;
    report_recovered(verified.recovered.iter());
    let report = &verified.report;
    let text = match format {
        Format::Json => JsonRenderer.render(report),
        Format::Text => TextRenderer.render(report),
        Format::Markdown => sciproof_core::report::markdown::MarkdownRenderer.render(report),
        Format::Junit => sciproof_core::report::junit::JunitRenderer.render(report),
    };
    out!("{text}");
    let _ = std::io::stdout().flush();
    if let Some(signal) = report.interrupted {
        errln!("{signal}; the rerun was stopped and every declared output was put back as it was");
        return Ok(signal.exit_code());
    }
    if let Some(path) = args.save_json {
        let json = JsonRenderer.render(report);
        sciproof_core::manifest::write_atomic(&path, json.as_bytes())?;
    }
    if let Some(target) = &args.save_crate {
        let now = sciproof_core::timestamp::format_utc(sciproof_core::timestamp::now_unix());
        let records = sciproof_core::checkcrate::records_of(&verified.loaded, report, &now)?;
        if records.is_empty() {
            errln!(
                "warning: no crate written: {} declares no claims, so no check was made that a claim-check crate could describe",
                args.manifest.display()
            );
        } else {
            let written = sciproof_core::checkcrate::save_crate(&records, target)?;
            errln!("Wrote {}", written.display());
        }
    }
    Ok(report.status().exit_code() as u8)
}

/// Asks on the terminal whether to execute: the prompt and the question go to stderr (so
/// `--json > file` stays valid JSON); only `yes` (any case, surrounding spaces ignored) runs.
/// Without a terminal it refuses instead of waiting.
fn confirm_on_terminal(prompt: &str) -> Result<bool, Error> {
    if !std::io::stdin().is_terminal() {
        return Err(Error::ConfirmationRequired(
            "refusing to execute the recorded command: no terminal to ask for confirmation; re-run with --yes after reading the command (see 'sciproof inspect')".into(),
        ));
    }
    errln!("{prompt}");
    output::error_text("\nExecute this command? Type 'yes' to continue: ");
    let mut answer = String::new();
    match std::io::stdin().read_line(&mut answer) {
        Ok(0) | Err(_) => Err(Error::ConfirmationRequired(
            "no confirmation received".into(),
        )),
        Ok(_) => Ok(answer.trim().eq_ignore_ascii_case("yes")),
    }
}

/// The passphrase of an encrypted key: from `SSH_ASKPASS` when set (as OpenSSH does without a
/// terminal), else asked on the terminal without echo.
fn ask_passphrase(key: &std::path::Path) -> Result<String, Error> {
    let prompt = format!("Enter passphrase for {}: ", key.display());
    if let Some(askpass) = std::env::var_os("SSH_ASKPASS").filter(|a| !a.is_empty())
        && std::env::var("SSH_ASKPASS_REQUIRE").as_deref() != Ok("never")
    {
        let out = std::process::Command::new(askpass)
            .arg(&prompt)
            .stdin(std::process::Stdio::null())
            .output()
            .map_err(|e| Error::Usage(format!("SSH_ASKPASS could not be run: {}", strerror(&e))))?;
        if !out.status.success() {
            return Err(Error::Usage("SSH_ASKPASS gave no passphrase".into()));
        }
        return Ok(String::from_utf8_lossy(&out.stdout)
            .trim_end_matches(['\n', '\r'])
            .to_string());
    }
    if !std::io::stdin().is_terminal() {
        return Err(Error::Usage(format!(
            "{} is encrypted: run on a terminal to type its passphrase, or set SSH_ASKPASS",
            key.display()
        )));
    }
    rpassword::prompt_password(prompt)
        .map_err(|e| Error::Usage(format!("no passphrase received: {}", strerror(&e))))
}

/// Prints what was done about operations an earlier process left unfinished.
fn report_recovered<'a>(lines: impl Iterator<Item = &'a String>) {
    for line in lines {
        errln!("recovered: {}", safe_text(line, 2000));
    }
}

fn run(cli: Cli) -> Result<u8, Error> {
    let notify = |message: &str| errln!("{}", safe_text(message, 2000));
    let wait = if cli.no_wait {
        Wait::No
    } else {
        Wait::Yes(&notify)
    };
    match cli.command {
        Command::Capture(args) => run_capture(args, wait),
        Command::Verify(args) => run_verify(args, wait),
        Command::Recover { dir, recursive } => {
            let done = sciproof_core::commit::evidence::recover_folder(&dir, recursive, wait)?;
            if done.is_empty() {
                outln!(
                    "nothing to recover in {}",
                    safe_text(&dir.display().to_string(), 500)
                );
            }
            for line in done {
                outln!("{}", safe_text(&line, 2000));
            }
            Ok(0)
        }
        Command::Inspect { manifest } => {
            report_recovered(sciproof_core::commit::evidence::settle(&manifest, wait)?.iter());
            let m = sciproof_core::manifest::load_manifest(&manifest)?;
            outln!("{}", sciproof_core::inspect::describe(&m));
            Ok(0)
        }
        Command::Diff {
            old,
            new,
            json,
            format,
            show_values,
        } => {
            let format = match (json, format) {
                (true, Some(DiffFormat::Text)) => {
                    return Err(Error::Usage("--json conflicts with --format text".into()));
                }
                (true, Some(DiffFormat::Markdown)) => {
                    return Err(Error::Usage(
                        "--json conflicts with --format markdown".into(),
                    ));
                }
                (true, _) => DiffFormat::Json,
                (false, f) => f.unwrap_or(DiffFormat::Text),
            };
            for path in [&old, &new] {
                report_recovered(sciproof_core::commit::evidence::settle(path, wait)?.iter());
            }
            let d = sciproof_core::diff::diff_manifests(&old, &new, show_values)?;
            let text = match format {
                DiffFormat::Text => sciproof_core::diff::render::text(&d),
                DiffFormat::Json => sciproof_core::diff::render::json_text(&d),
                DiffFormat::Markdown => sciproof_core::diff::render::markdown(&d),
            };
            out!("{text}");
            Ok(if d.identical() { 0 } else { 1 })
        }
        Command::List {
            dir,
            recursive,
            check,
            json,
            format,
        } => {
            let format = match (json, format) {
                (true, Some(f)) if f != Format::Json => {
                    return Err(Error::Usage("--json conflicts with --format".into()));
                }
                (true, _) => Format::Json,
                (false, f) => f.unwrap_or(Format::Text),
            };
            let entries = sciproof_core::ledger::list(&dir, recursive, check)?;
            let text = match format {
                Format::Text => sciproof_core::ledger::text(&entries),
                Format::Json => sciproof_core::ledger::json_text(&entries, check),
                Format::Markdown => sciproof_core::ledger::markdown(&entries),
                Format::Junit => sciproof_core::ledger::junit(&entries),
            };
            out!("{text}");
            Ok(match sciproof_core::ledger::result(&entries, check) {
                Some(s) => s.exit_code() as u8,
                None => 0,
            })
        }
        Command::Badge {
            manifest,
            output,
            rerun,
            yes,
            clean_env,
            timeout,
        } => {
            if !(timeout.is_finite() && timeout > 0.0) {
                return Err(Error::Usage(
                    "timeout must be a positive number of seconds".into(),
                ));
            }
            let confirm = |prompt: &str| confirm_on_terminal(prompt);
            let rerun = rerun.then(|| RerunOptions {
                assume_yes: yes,
                confirm: Some(&confirm as &dyn Fn(&str) -> Result<bool, Error>),
                strict_env: false,
                clean_env,
                pass_env: Vec::new(),
                timeout,
            });
            let progress = progress_for(true);
            let verified = sciproof_core::verify::verify_loaded(&VerifyRequest {
                manifest,
                rerun,
                policy: None,
                allowed_signers: None,
                progress: progress.as_ref(),
                wait,
            })?;
            report_recovered(verified.recovered.iter());
            let report = verified.report;
            if let Some(signal) = report.interrupted {
                return Err(Error::Interrupted {
                    signal,
                    detail: "no badge was written".into(),
                });
            }
            let day = sciproof_core::timestamp::format_utc(sciproof_core::timestamp::now_unix())
                [..10]
                .to_string();
            let svg = sciproof_core::badge::render(report.status(), report.rerun_executed, &day);
            sciproof_core::manifest::write_atomic(&output, svg.as_bytes())?;
            outln!("{}: wrote {}", report.status().as_str(), output.display());
            Ok(report.status().exit_code() as u8)
        }
        Command::Export {
            manifest,
            format,
            output,
            values,
        } => {
            if !values.is_empty() && format != ExportFormat::Latex {
                return Err(Error::Usage(
                    "--value is only used with --format latex".into(),
                ));
            }
            let verified = sciproof_core::verify::verify_loaded(&VerifyRequest {
                wait,
                ..VerifyRequest::integrity(&manifest, &NoProgress)
            })?;
            report_recovered(verified.recovered.iter());
            let report = verified.report;
            let verdict = report.status();
            if verdict != sciproof_core::report::Status::Pass
                && !matches!(
                    format,
                    ExportFormat::Latex | ExportFormat::CheckRecords | ExportFormat::RoCrate
                )
            {
                errln!(
                    "warning: the evidence does not verify ({}): {}; the export describes what was recorded, not what is on disk now",
                    verdict.as_str(),
                    safe_text(&report.reason(), 1000)
                );
            }
            let text = match format {
                ExportFormat::InToto => {
                    sciproof_core::export::in_toto(&verified.loaded, verdict.as_str())?
                }
                ExportFormat::Openlineage => sciproof_core::export::openlineage(&verified.loaded)?,
                ExportFormat::Latex => {
                    let triples: Vec<(String, String, String)> = values
                        .chunks(3)
                        .map(|c| {
                            let location = sciproof_core::claims::typed_location(&c[1], &c[2]);
                            (c[0].clone(), c[1].clone(), location)
                        })
                        .collect();
                    sciproof_core::export::latex(
                        &verified.loaded,
                        &triples,
                        verdict,
                        &report.reason(),
                    )?
                }
                ExportFormat::CheckRecords | ExportFormat::RoCrate => {
                    let now =
                        sciproof_core::timestamp::format_utc(sciproof_core::timestamp::now_unix());
                    let records =
                        sciproof_core::checkcrate::records_of(&verified.loaded, &report, &now)?;
                    if records.is_empty() {
                        return Err(Error::Usage(format!(
                            "{} declares no claims, so there is no check record to write (declare claims with `capture --claim`)",
                            manifest.display()
                        )));
                    }
                    if format == ExportFormat::RoCrate {
                        let root = sciproof_core::paths::resolve_base(&manifest)
                            .parent()
                            .map(std::path::Path::to_path_buf)
                            .unwrap_or_default();
                        let target = output.clone().unwrap_or_else(|| root.clone());
                        let written = sciproof_core::checkcrate::save_crate(&records, &target)?;
                        let folder = written.parent().map(sciproof_core::paths::resolve_lenient);
                        if folder.as_deref() != Some(root.as_path()) {
                            errln!(
                                "warning: the crate's file identifiers are relative to the manifest's folder ({}); written elsewhere, those files are not part of its payload",
                                root.display()
                            );
                        }
                        outln!("Wrote {}", written.display());
                        return Ok(0);
                    }
                    sciproof_core::checkcrate::to_json_lines(&records)
                }
            };
            // JSON exports: every control that could reach a terminal, escaped (same value).
            let text = if format == ExportFormat::Latex {
                text
            } else {
                sciproof_core::escape::terminal::json_inert(&text).into_owned()
            };
            match output {
                None => out!("{text}"),
                Some(path) => {
                    sciproof_core::manifest::write_atomic(&path, text.as_bytes())?;
                    outln!("Wrote {}", path.display());
                }
            }
            Ok(0)
        }
        Command::Update {
            manifest,
            yes,
            dry_run,
            note,
            timeout,
        } => {
            if dry_run {
                let loaded = sciproof_core::update::load_for_update(&manifest)?;
                outln!(
                    "{}",
                    sciproof_core::update::prompt(&loaded.manifest, &loaded.base)
                );
                return Ok(0);
            }
            let progress = progress_for(true);
            let confirm = |prompt: &str| confirm_on_terminal(prompt);
            let Some(updated) =
                sciproof_core::update::update(&sciproof_core::update::UpdateRequest {
                    manifest: manifest.clone(),
                    note,
                    timeout,
                    confirm: (!yes).then_some(&confirm as &dyn Fn(&str) -> Result<bool, Error>),
                    wait,
                    progress: progress.as_ref(),
                })?
            else {
                errln!("declined; nothing was executed and nothing was changed");
                return Ok(2);
            };
            report_recovered(updated.capture.recovered.iter());
            for w in updated.capture.warnings.iter().chain(&updated.warnings) {
                errln!("warning: {}", safe_text(w, 2000));
            }
            let code = updated.capture.manifest.execution.exit_code;
            outln!(
                "Updated {} (command exit code {code})\n",
                manifest
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default()
            );
            out!("{}", sciproof_core::diff::render::text(&updated.diff));
            if code != 0 {
                errln!("The command failed; the failure was recorded.");
                return Ok(1);
            }
            Ok(0)
        }
        Command::Sign { manifest, key } => {
            let (target, recovered) =
                sciproof_core::signing::sign_manifest(&manifest, &key, &ask_passphrase, wait)?;
            report_recovered(recovered.iter());
            let name = target
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            outln!("Signature written to {name}");
            outln!(
                "Note: a signature shows that the holder of the key vouched for this exact manifest. Check it with 'sciproof verify MANIFEST --allowed-signers FILE'."
            );
            Ok(0)
        }
        Command::CheckPolicy { policy } => {
            let p = sciproof_core::policy::load_policy(&policy)?;
            outln!(
                "policy {} is valid (version {}, sha256 {}...)",
                safe_text(&p.file, 500),
                sciproof_core::policy::POLICY_VERSION,
                &p.sha256[..16]
            );
            if p.rules.is_empty() {
                outln!("  (no rules: every verification passes this policy)");
            }
            for (section, key, value) in &p.rules {
                let off = if *value == sciproof_core::policy::RuleValue::Bool(false) {
                    "  (false: adds no check)"
                } else {
                    ""
                };
                outln!(
                    "  {section}.{key} = {}{off}",
                    safe_text(&value.toml_text(), 500)
                );
            }
            Ok(0)
        }
        Command::Claims(ClaimsCommand::Check { manifest, json }) => {
            let progress = progress_for(!json);
            let report = sciproof_core::verify::verify_claims(&VerifyRequest {
                wait,
                ..VerifyRequest::integrity(&manifest, progress.as_ref())
            })?;
            let text = if json {
                sciproof_core::report::claims::ClaimsJson.render(&report)
            } else {
                sciproof_core::report::claims::ClaimsTable.render(&report)
            };
            out!("{text}");
            Ok(report.status().exit_code() as u8)
        }
        Command::Graph(args) => graph_cmd::run(args, wait),
        Command::Crate(CrateCommand::Read { path, json }) => {
            let file = if path.is_dir() {
                path.join("ro-crate-metadata.json")
            } else {
                path.clone()
            };
            let text =
                sciproof_core::untrusted::read_text(&file, sciproof_core::untrusted::Kind::Crate)
                    .map_err(|e| Error::Usage(e.to_string()))?;
            let read = sciproof_core::checkcrate::read::from_crate(&text)
                .map_err(|e| Error::Usage(format!("{}: {e}", file.display())))?;
            if json {
                out!(
                    "{}",
                    sciproof_core::checkcrate::to_json_lines(&read.records)
                );
            } else {
                out!(
                    "{}",
                    sciproof_core::checkcrate::summary_table(&read.records)
                );
            }
            for p in &read.problems {
                errln!("problem: {}", safe_text(p, 1000));
            }
            Ok(if read.problems.is_empty() { 0 } else { 1 })
        }
        Command::Demo { dir } => {
            let ok = sciproof_core::demo::run(&dir, &mut std::io::stdout())?;
            Ok(if ok { 0 } else { 1 })
        }
    }
}

/// SIGINT, SIGTERM, SIGHUP and SIGQUIT are handled alike (see `sciproof_core::interrupt`): outside
/// a critical section the process ends at once with 128 + the signal's number; inside one the
/// operation stops its command, finishes or rolls back, and says which.
fn handle_signals() {
    let Ok(mut signals) = signal_hook::iterator::Signals::new(sciproof_core::interrupt::SIGNALS)
    else {
        return;
    };
    std::thread::spawn(move || {
        for signal in signals.forever() {
            sciproof_core::interrupt::deliver(signal, |i| {
                errln!("{i}");
                std::process::exit(i32::from(i.exit_code()));
            });
        }
    });
}

fn main() -> ExitCode {
    handle_signals();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_ERROR } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let outcome = run(cli);
    if let Some(signal) = sciproof_core::interrupt::pending()
        && matches!(outcome, Ok(code) if code < 128)
    {
        // The signal arrived while something had to be finished (a commit); it was.
        errln!(
            "note: {} arrived while sciproof was writing; that work was completed first",
            signal.name()
        );
    }
    match outcome {
        Ok(code) => ExitCode::from(code),
        Err(Error::Interrupted { signal, detail }) => {
            errln!("{signal}; {}", safe_text(&detail, 2000));
            ExitCode::from(signal.exit_code())
        }
        Err(e) => {
            // One line, or a list whose lines the library made safe one by one (a line break
            // inside a quoted value is escaped there, so only the list's own breaks remain).
            for (i, line) in e.to_string().split('\n').enumerate() {
                let line = safe_text(line, 2000);
                if i == 0 {
                    errln!("error: {line}");
                } else {
                    errln!("{line}");
                }
            }
            ExitCode::from(EXIT_ERROR)
        }
    }
}
