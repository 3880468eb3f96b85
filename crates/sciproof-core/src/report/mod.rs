//! The verification report: one data model; its renderers are in [`crate::render::report`].
//! A [`Check`] is data (`status`, `subject`, `message`, `evidence`). The verdict is one pure
//! function of the checks ([`verdict`]), and so are the `basis` sentence and the list of what was
//! not checked. Renderers only format; they never decide anything.

pub mod evidence;

pub use evidence::{DigestKind, DirectoryEvidence, Evidence};

use crate::json::Value;

/// `sciproof.report`
pub const REPORT_SCHEMA: &str = "sciproof.report";
/// The report schema version written.
pub const REPORT_SCHEMA_VERSION: &str = "1.0";
/// At most this many subjects are named in the `basis` sentence.
pub const MAX_SUBJECTS_IN_REASON: usize = 5;

/// The outcome of one check, and of a whole report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    /// Every check succeeded.
    Pass,
    /// A check contradicts the evidence.
    Fail,
    /// No check failed, but something could not be checked.
    Inconclusive,
}

impl Status {
    /// `PASS`, `FAIL` or `INCONCLUSIVE`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "PASS",
            Status::Fail => "FAIL",
            Status::Inconclusive => "INCONCLUSIVE",
        }
    }

    /// The documented exit code of a verdict: 0 PASS, 1 FAIL, 2 INCONCLUSIVE.
    pub fn exit_code(self) -> i32 {
        match self {
            Status::Pass => 0,
            Status::Fail => 1,
            Status::Inconclusive => 2,
        }
    }
}

/// One fact that was checked.
#[derive(Debug, Clone, PartialEq)]
pub struct Check {
    /// Its status.
    pub status: Status,
    /// What was checked: `input data.csv`, `output out/m.json snapshot`, `rerun`.
    pub subject: String,
    /// What was found, for people.
    pub message: String,
    /// The facts the check used, or `None` when there are none (an unsafe path).
    pub evidence: Option<Evidence>,
}

/// The conservative aggregation: any FAIL is FAIL; otherwise any INCONCLUSIVE, or no check at
/// all, is INCONCLUSIVE; otherwise PASS. Missing evidence is never read as success.
pub fn verdict(checks: &[Check]) -> Status {
    if checks.iter().any(|c| c.status == Status::Fail) {
        Status::Fail
    } else if checks.is_empty() || checks.iter().any(|c| c.status == Status::Inconclusive) {
        Status::Inconclusive
    } else {
        Status::Pass
    }
}

/// Statements that no verification can make, whatever the verdict.
pub const NOT_CHECKED_VALIDITY: &str =
    "scientific validity: a matching result is not shown to be correct";
/// Undeclared files are never looked at.
pub const NOT_CHECKED_UNDECLARED: &str = "files that were not declared as inputs or outputs";
/// Without a good signature, authorship is unknown.
pub const NOT_CHECKED_UNSIGNED: &str =
    "authenticity: manifests are unsigned, so who produced this evidence is not verified";
/// With a good signature, honesty is still unknown.
pub const NOT_CHECKED_SIGNED: &str = "whether the experiment was run honestly: a good signature shows only that the holder of an allowed key vouched for this manifest";
/// Added when claims were looked at.
pub const NOT_CHECKED_CLAIMS: &str = "whether a claim is the right criterion: a claim that holds shows only that the value satisfies the comparison, not that the comparison is meaningful";
/// Added at the front when the command was not executed.
pub const NOT_CHECKED_NOT_EXECUTED: &str = "reproducibility: the recorded command was not executed";
/// Added after a rerun ran to completion.
pub const NOT_CHECKED_AFTER_RERUN: [&str; 3] = [
    "stdout and stderr of the rerun: compared for information only, not in the verdict",
    "environment reconstruction: differences are reported, not reproduced",
    "other machines or platforms: one re-execution on this machine only",
];

/// A whole verification.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Report {
    /// The manifest's experiment name.
    pub name: String,
    /// Whether `--rerun` was given.
    pub rerun_requested: bool,
    /// The command ran to completion (any exit code).
    pub rerun_executed: bool,
    /// Whether the rerun got a minimal environment.
    pub clean_env: bool,
    /// Names (never values) of the variables a clean-environment rerun received.
    pub env_passed: Vec<String>,
    /// `{"status", "kind", ...}` when signatures were checked.
    pub signature: Option<Value>,
    /// `{"file", "sha256", "version"}` when a policy was applied.
    pub policy: Option<Value>,
    /// Every check, in order.
    pub checks: Vec<Check>,
    /// Things worth knowing that are not checks.
    pub warnings: Vec<String>,
    /// What the verification's scope was.
    pub notes: Vec<String>,
    /// Where files produced by the rerun were moved, relative to the manifest's folder.
    pub rerun_outputs_dir: Option<String>,
    /// Declared outputs whose rerun product was byte-identical to the original, which is back
    /// at its path (the product itself was removed, not kept in `rerun_outputs_dir`). Not part
    /// of the JSON report.
    pub rerun_identical: Vec<String>,
    /// Whether the manifest's claims were looked at.
    pub claims_checked: bool,
    /// When the rerun ran and how it ended (not part of the JSON report, whose fields are the
    /// reference's; the claim-check crate describes the rerun with them).
    pub rerun_run: Option<RerunRun>,
    /// A termination signal that arrived during the verification (the CLI exits with
    /// 128 + its number; not part of the JSON report).
    pub interrupted: Option<crate::interrupt::Interrupted>,
}

/// The facts of an executed rerun.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RerunRun {
    /// RFC 3339 UTC, whole seconds.
    pub started_at: String,
    /// RFC 3339 UTC, whole seconds.
    pub ended_at: String,
    /// The rerun's exit code.
    pub exit_code: i64,
    /// Wall-clock seconds.
    pub duration_seconds: f64,
}

impl Report {
    /// An empty report for the experiment `name`.
    pub fn new(name: impl Into<String>, rerun_requested: bool) -> Self {
        Report {
            name: name.into(),
            rerun_requested,
            ..Default::default()
        }
    }

    /// Appends a check.
    pub fn add(
        &mut self,
        status: Status,
        subject: impl Into<String>,
        message: impl Into<String>,
        evidence: Option<Evidence>,
    ) {
        self.checks.push(Check {
            status,
            subject: subject.into(),
            message: message.into(),
            evidence,
        });
    }

    /// The verdict ([`verdict`] of the checks).
    pub fn status(&self) -> Status {
        verdict(&self.checks)
    }

    /// `(PASS, FAIL, INCONCLUSIVE)` counts.
    pub fn counts(&self) -> [(Status, usize); 3] {
        [Status::Pass, Status::Fail, Status::Inconclusive]
            .map(|s| (s, self.checks.iter().filter(|c| c.status == s).count()))
    }

    fn subjects(&self, status: Status) -> String {
        let names: Vec<&str> = self
            .checks
            .iter()
            .filter(|c| c.status == status)
            .map(|c| c.subject.as_str())
            .collect();
        let shown = names
            .iter()
            .take(MAX_SUBJECTS_IN_REASON)
            .copied()
            .collect::<Vec<_>>()
            .join(", ");
        let more = names.len().saturating_sub(MAX_SUBJECTS_IN_REASON);
        let tail = if more > 0 {
            format!(", and {more} more")
        } else {
            String::new()
        };
        format!("{} ({shown}{tail})", names.len())
    }

    /// The `basis` sentence: why the verdict is what it is.
    pub fn reason(&self) -> String {
        match self.status() {
            Status::Fail => format!(
                "FAIL because {} check(s) contradict the evidence; one failed check is enough",
                self.subjects(Status::Fail)
            ),
            Status::Inconclusive if self.checks.is_empty() => {
                "INCONCLUSIVE because no check could be performed".into()
            }
            Status::Inconclusive => format!(
                "INCONCLUSIVE because no check failed but {} could not be carried out; missing evidence is never counted as success",
                self.subjects(Status::Inconclusive)
            ),
            Status::Pass => format!(
                "PASS because all {} performed checks succeeded; this covers only the checks listed above, not what is under 'not checked'",
                self.checks.len()
            ),
        }
    }

    /// What this verification did not establish (always non-empty).
    pub fn not_checked(&self) -> Vec<String> {
        let signed = self
            .signature
            .as_ref()
            .and_then(Value::as_object)
            .and_then(|o| o.get("status"))
            .and_then(Value::as_str)
            == Some("good");
        let mut items = vec![
            NOT_CHECKED_VALIDITY.to_string(),
            NOT_CHECKED_UNDECLARED.to_string(),
            if signed {
                NOT_CHECKED_SIGNED
            } else {
                NOT_CHECKED_UNSIGNED
            }
            .to_string(),
        ];
        if self.claims_checked {
            items.push(NOT_CHECKED_CLAIMS.into());
        }
        if self.rerun_executed {
            items.extend(NOT_CHECKED_AFTER_RERUN.iter().map(|s| s.to_string()));
        } else {
            items.insert(0, NOT_CHECKED_NOT_EXECUTED.into());
        }
        items
    }
}

/// The claims of a manifest checked on its recorded outputs (`sciproof claims check`): a
/// report whose checks are the claim checks only.
#[derive(Debug, Clone, PartialEq)]
pub struct ClaimsCheck {
    /// The report of the claim checks.
    pub report: Report,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(status: Status, subject: &str) -> Check {
        Check {
            status,
            subject: subject.into(),
            message: String::new(),
            evidence: None,
        }
    }

    #[test]
    fn aggregation_is_conservative() {
        use Status::*;
        assert_eq!(verdict(&[]), Inconclusive);
        assert_eq!(verdict(&[check(Pass, "a")]), Pass);
        assert_eq!(
            verdict(&[check(Pass, "a"), check(Inconclusive, "b")]),
            Inconclusive
        );
        assert_eq!(verdict(&[check(Inconclusive, "b"), check(Fail, "c")]), Fail);
    }

    #[test]
    fn basis_names_at_most_five_subjects() {
        let mut r = Report::new("x", false);
        for i in 0..7 {
            r.add(Status::Fail, format!("input f{i}"), "m", None);
        }
        assert_eq!(
            r.reason(),
            "FAIL because 7 (input f0, input f1, input f2, input f3, input f4, and 2 more) check(s) contradict the evidence; one failed check is enough"
        );
        assert_eq!(
            Report::new("x", false).reason(),
            "INCONCLUSIVE because no check could be performed"
        );
    }

    #[test]
    fn not_checked_always_lists_what_a_pass_does_not_say() {
        let mut r = Report::new("x", false);
        assert_eq!(r.not_checked()[0], NOT_CHECKED_NOT_EXECUTED);
        assert_eq!(r.not_checked().len(), 4);
        r.rerun_executed = true;
        r.claims_checked = true;
        let items = r.not_checked();
        assert_eq!(items.len(), 7);
        assert_eq!(items[3], NOT_CHECKED_CLAIMS);
    }
}
