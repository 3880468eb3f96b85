//! `export`: the manifest for other tools (in-toto, OpenLineage, LaTeX values, claim-check
//! records and crates), after an integrity verification of the same read. Nothing is executed.

use crate::commit::lock::Wait;
use crate::error::{Error, Result};
use crate::progress::NoProgress;
use crate::report::Status;
use crate::verify::VerifyRequest;
use std::path::{Path, PathBuf};

/// What to export.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportKind {
    /// An unsigned in-toto Statement v1.
    InToto,
    /// OpenLineage START and COMPLETE/FAIL run events.
    Openlineage,
    /// LaTeX macros of values read from verified outputs.
    Latex,
    /// Claim-check records as JSON Lines, one per claim.
    CheckRecords,
    /// The claim-check RO-Crate of those records.
    RoCrate,
}

impl ExportKind {
    /// Every kind, in the order `--help` lists them.
    pub const ALL: [ExportKind; 5] = [
        ExportKind::InToto,
        ExportKind::Openlineage,
        ExportKind::Latex,
        ExportKind::CheckRecords,
        ExportKind::RoCrate,
    ];

    /// The name `export --format` takes.
    pub fn name(self) -> &'static str {
        match self {
            ExportKind::InToto => "in-toto",
            ExportKind::Openlineage => "openlineage",
            ExportKind::Latex => "latex",
            ExportKind::CheckRecords => "check-records",
            ExportKind::RoCrate => "ro-crate",
        }
    }

    /// What it is, as `--help` says it.
    pub fn purpose(self) -> &'static str {
        match self {
            ExportKind::InToto => "An unsigned in-toto Statement v1",
            ExportKind::Openlineage => "OpenLineage START and COMPLETE/FAIL run events",
            ExportKind::Latex => {
                "LaTeX macros of values read from verified outputs (--value NAME OUTPUT LOCATION)"
            }
            ExportKind::CheckRecords => {
                "Claim-check records (reproducible.science/claim-check/0.1-experimental) as JSON Lines: one per claim, checked on the recorded outputs"
            }
            ExportKind::RoCrate => {
                "The claim-check RO-Crate of those records (-o DIR, default the manifest's folder, writes DIR/ro-crate-metadata.json)"
            }
        }
    }

    /// Whether this export describes the evidence whatever its verdict (LaTeX refuses
    /// unverified values itself; records and crates carry each check's outcome), so that a
    /// verdict other than PASS needs no warning.
    fn carries_verdict(self) -> bool {
        matches!(
            self,
            ExportKind::Latex | ExportKind::CheckRecords | ExportKind::RoCrate
        )
    }
}

/// An export of one manifest.
pub struct ExportRequest<'a> {
    /// The manifest file.
    pub manifest: PathBuf,
    /// What to write.
    pub kind: ExportKind,
    /// Where (`None`: the text is returned; a crate goes to the manifest's folder).
    pub output: Option<PathBuf>,
    /// LaTeX: `(macro name, output, location as written)`.
    pub values: Vec<(String, String, String)>,
    /// The time written into check records (RFC 3339).
    pub checked_at: String,
    /// What to do when another sciproof is changing this evidence.
    pub wait: Wait<'a>,
}

/// What an export produced.
pub enum ExportOutcome {
    /// The exported text, for standard output (JSON made terminal-inert).
    Text(String),
    /// Written to a file.
    Written(PathBuf),
    /// A crate written to `path`; `elsewhere` is the manifest's folder when the crate is not in
    /// it (its file identifiers are relative to that folder, so the files are not its payload).
    Crate {
        /// The crate's metadata file.
        path: PathBuf,
        /// The manifest's folder, when the crate was written elsewhere.
        elsewhere: Option<PathBuf>,
    },
}

/// An export, with what the caller should know about the evidence behind it.
pub struct Exported {
    /// What was produced.
    pub outcome: ExportOutcome,
    /// The verdict and its reason when the evidence does not verify and the export does not
    /// say so itself (the export describes what was recorded, not what is on disk now).
    pub unverified: Option<(Status, String)>,
    /// One line per interrupted operation that was completed or undone first.
    pub recovered: Vec<String>,
}

/// Verifies the manifest (integrity only) and exports what it read.
pub fn export(request: &ExportRequest) -> Result<Exported> {
    let verified = super::verify(&VerifyRequest {
        wait: request.wait,
        ..VerifyRequest::integrity(&request.manifest, &NoProgress)
    })?;
    let (loaded, report) = (&verified.loaded, &verified.report);
    let verdict = report.status();
    let unverified = (verdict != Status::Pass && !request.kind.carries_verdict())
        .then(|| (verdict, report.reason()));
    let done = |outcome| Exported {
        outcome,
        unverified: unverified.clone(),
        recovered: verified.recovered.clone(),
    };
    let text = match request.kind {
        ExportKind::InToto => crate::export::in_toto(loaded, verdict.as_str())?,
        ExportKind::Openlineage => crate::export::openlineage(loaded)?,
        ExportKind::Latex => {
            let triples: Vec<(String, String, String)> = request
                .values
                .iter()
                .map(|(name, output, location)| {
                    let typed = crate::claims::typed_location(output, location);
                    (name.clone(), output.clone(), typed)
                })
                .collect();
            crate::export::latex(loaded, &triples, verdict, &report.reason())?
        }
        ExportKind::CheckRecords | ExportKind::RoCrate => {
            let records = crate::checkcrate::records_of(loaded, report, &request.checked_at)?;
            if records.is_empty() {
                return Err(Error::Export(format!(
                    "{} declares no claims, so there is no check record to write (declare claims with `capture --claim`)",
                    request.manifest.display()
                )));
            }
            if request.kind == ExportKind::RoCrate {
                let root = crate::paths::resolve_base(&request.manifest)
                    .parent()
                    .map(Path::to_path_buf)
                    .unwrap_or_default();
                let target = request.output.clone().unwrap_or_else(|| root.clone());
                let path = crate::checkcrate::save_crate(&records, &target)?;
                let folder = path.parent().map(crate::paths::resolve_lenient);
                let elsewhere = (folder.as_deref() != Some(root.as_path())).then_some(root);
                return Ok(done(ExportOutcome::Crate { path, elsewhere }));
            }
            crate::checkcrate::to_json_lines(&records)
        }
    };
    // JSON exports: every control that could reach a terminal, escaped (same value).
    let text = if request.kind == ExportKind::Latex {
        text
    } else {
        crate::escape::terminal::json_inert(&text).into_owned()
    };
    Ok(done(match &request.output {
        None => ExportOutcome::Text(text),
        Some(path) => {
            crate::manifest::write_atomic(path, text.as_bytes())?;
            ExportOutcome::Written(path.clone())
        }
    }))
}
