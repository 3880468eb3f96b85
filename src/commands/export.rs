//! `sciproof export`: the manifest for other tools (nothing is executed).

use super::Outcome;
use crate::error::usage;
use crate::ui::Ui;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use sciproof_core::escape::terminal::safe_text;
use sciproof_core::ops::{ExportKind, ExportOutcome, ExportRequest};
use std::path::PathBuf;

/// `--format` values: the export kinds of the library, with what each is.
fn kinds() -> impl TypedValueParser<Value = ExportKind> {
    let values = ExportKind::ALL.map(|k| PossibleValue::new(k.name()).help(k.purpose()));
    PossibleValuesParser::new(values).map(|name| {
        ExportKind::ALL
            .into_iter()
            .find(|k| k.name() == name)
            .unwrap_or(ExportKind::InToto)
    })
}

#[derive(clap::Args)]
pub struct Args {
    /// The manifest file (NAME.sciproof.json).
    manifest: PathBuf,
    /// What to write.
    #[arg(long, default_value = "in-toto", value_parser = kinds())]
    format: ExportKind,
    /// Write to this file instead of stdout (ro-crate: a folder, or a .json file; default the manifest's folder).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
    /// With --format latex: a macro \NAME for the value at LOCATION of OUTPUT; repeatable.
    #[arg(long = "value", num_args = 3, value_names = ["NAME", "OUTPUT", "LOCATION"], action = clap::ArgAction::Append, allow_hyphen_values = true)]
    values: Vec<String>,
}

pub fn run(ui: &Ui, args: Args) -> Outcome {
    if !args.values.is_empty() && args.format != ExportKind::Latex {
        return usage("--value is only used with --format latex");
    }
    let exported = sciproof_core::ops::export(&ExportRequest {
        manifest: args.manifest,
        kind: args.format,
        output: args.output,
        values: args
            .values
            .chunks(3)
            .map(|c| (c[0].clone(), c[1].clone(), c[2].clone()))
            .collect(),
        checked_at: sciproof_core::ops::now(),
        wait: ui.wait(),
    })?;
    ui.recovered(&exported.recovered);
    if let Some((verdict, reason)) = &exported.unverified {
        ui.warn(&format!(
            "the evidence does not verify ({}): {}; the export describes what was recorded, not what is on disk now",
            verdict.as_str(),
            safe_text(reason, 1000)
        ));
    }
    match exported.outcome {
        ExportOutcome::Text(text) => ui.print(&text),
        ExportOutcome::Written(path) => ui.print(&format!("Wrote {}\n", path.display())),
        ExportOutcome::Crate { path, elsewhere } => {
            if let Some(root) = elsewhere {
                ui.warn(&format!(
                    "the crate's file identifiers are relative to the manifest's folder ({}); written elsewhere, those files are not part of its payload",
                    root.display()
                ));
            }
            ui.print(&format!("Wrote {}\n", path.display()));
        }
    }
    Ok(0)
}
