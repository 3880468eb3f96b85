//! `sciproof verify`: check a manifest (and with `--rerun`, execute it again and compare).

use super::Outcome;
use crate::error::usage;
use crate::flags::{FormatFlags, RerunFlags, check_timeout};
use crate::ui::Ui;
use sciproof_core::report::Report;
use sciproof_core::verify::VerifyRequest;
use std::path::PathBuf;

// Doc comments here are clap's help texts, shown as written: `<MANIFEST>` is a placeholder
// for the user, not HTML.
#[allow(rustdoc::invalid_html_tags)]
#[derive(clap::Args)]
pub struct Args {
    /// The manifest file (NAME.sciproof.json).
    manifest: PathBuf,
    #[command(flatten)]
    rerun: RerunFlags,
    /// With --rerun: report INCONCLUSIVE, and run nothing, if the environment differs.
    #[arg(long)]
    strict_env: bool,
    /// With --clean-env: also pass this environment variable; repeatable.
    #[arg(long = "pass-env", value_name = "NAME", action = clap::ArgAction::Append)]
    pass_env: Vec<String>,
    /// Also check the signature <MANIFEST>.sig against this OpenSSH allowed-signers file (a missing signature is INCONCLUSIVE, a wrong one FAIL).
    #[arg(long, value_name = "FILE")]
    allowed_signers: Option<PathBuf>,
    /// Also check the rules of this policy file (TOML) against the evidence.
    #[arg(long, value_name = "FILE")]
    policy: Option<PathBuf>,
    #[command(flatten)]
    format: FormatFlags<Report>,
    /// Also write the JSON report to this file (whatever --format prints).
    #[arg(long, value_name = "FILE")]
    save_json: Option<PathBuf>,
    /// Also write the claim-check RO-Crate of the claims this verification checked (re-run included) to this folder (its ro-crate-metadata.json) or .json file; the manifest's folder is the crate's root.
    #[arg(long, value_name = "DIR")]
    save_crate: Option<PathBuf>,
}

pub fn run(ui: &Ui, args: Args) -> Outcome {
    let format = args.format.resolve()?;
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
    check_timeout(args.rerun.timeout)?;
    if args.rerun.clean_env && !args.rerun.rerun {
        return usage("--clean-env only applies to --rerun");
    }
    if !args.pass_env.is_empty() && !args.rerun.clean_env {
        return usage("--pass-env needs --clean-env (without it nothing is filtered)");
    }
    if args.strict_env && !args.rerun.rerun {
        ui.warn("--strict-env only applies to --rerun; it has no effect here");
    }
    let progress = ui.progress(format == sciproof_core::render::OutputFormat::Text);
    let confirm = |prompt: &str| ui.confirm(prompt);
    let verified = sciproof_core::ops::verify(&VerifyRequest {
        manifest: args.manifest.clone(),
        rerun: args
            .rerun
            .options(&confirm, args.strict_env, args.pass_env.clone()),
        policy,
        allowed_signers,
        progress: progress.as_ref(),
        wait: ui.wait(),
    })?;
    ui.recovered(&verified.recovered);
    let report = &verified.report;
    ui.render(report, format);
    if let Some(signal) = report.interrupted {
        ui.line(&format!(
            "{signal}; the rerun was stopped and every declared output was put back as it was"
        ));
        return Ok(signal.exit_code());
    }
    if let Some(path) = &args.save_json {
        sciproof_core::ops::save_report(report, path)?;
    }
    if let Some(target) = &args.save_crate {
        match sciproof_core::ops::save_crate(&verified, target, &sciproof_core::ops::now())? {
            None => ui.warn(&format!(
                "no crate written: {} declares no claims, so no check was made that a claim-check crate could describe",
                args.manifest.display()
            )),
            Some(written) => ui.line(&format!("Wrote {}", written.display())),
        }
    }
    Ok(report.status().exit_code() as u8)
}
