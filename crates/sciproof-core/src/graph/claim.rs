//! The claim record (spec §1.1) and the status vocabulary with its marks and badges (§1.3).

use crate::json::{Compact, Value};

/// A claim ID (`clm_` and 16 hex digits): kept inline (up to 23 bytes need no allocation), as
/// each claim holds its own and those of its dependencies (four per claim in a typical graph).
pub type ClaimId = smol_str::SmolStr;

/// A short word of a claim (its kind, method, status, evidence): kept inline when it takes up
/// to 23 bytes, as nearly all do, so a million claims need four million fewer allocations.
pub type ClaimWord = smol_str::SmolStr;

/// `exactly_verified`: the kernel proved the symbolic residual zero.
pub const EXACTLY_VERIFIED: &str = "exactly_verified";
/// `lean_checked`: an external Lean 4 run checked the claim.
pub const LEAN_CHECKED: &str = "lean_checked";
/// `certificate_available`: Lean source generated, not checked.
pub const CERTIFICATE_AVAILABLE: &str = "certificate_available";
/// `numerically_checked`: numbers compared by a machine; evidence, not a proof.
pub const NUMERICALLY_CHECKED: &str = "numerically_checked";
/// `externally_asserted`: an external solver said so.
pub const EXTERNALLY_ASSERTED: &str = "externally_asserted";
/// `asserted`: the caller wrote the statement; nothing linked it to what was checked.
pub const ASSERTED: &str = "asserted";
/// `unverified`: recorded without verification evidence (every conjecture).
pub const UNVERIFIED: &str = "unverified";
/// `refuted`: a re-check contradicted the claim.
pub const REFUTED: &str = "refuted";

/// Every status this tool knows, with its short mark and its long badge (the reference's exact
/// texts, which the renderers print).
pub const STATUSES: [(&str, &str, &str); 8] = [
    (
        LEAN_CHECKED,
        "[VERIFIED]",
        "an external Lean 4 run checked this claim",
    ),
    (
        EXACTLY_VERIFIED,
        "[VERIFIED]",
        "the kernel proved the symbolic residual is zero",
    ),
    (
        CERTIFICATE_AVAILABLE,
        "[CERT ONLY, UNCHECKED]",
        "Lean 4 source was generated but has NOT been machine-checked",
    ),
    (
        NUMERICALLY_CHECKED,
        "[NUMERIC ONLY]",
        "floating-point samples only; evidence, not a proof",
    ),
    (
        EXTERNALLY_ASSERTED,
        "[EXTERNAL, UNCHECKED]",
        "an external solver asserted this; no proof was checked and none was produced",
    ),
    (
        ASSERTED,
        "[ASSERTED, UNCHECKED]",
        "the caller wrote this statement; the result it was recorded from was checked, but nothing checked that the statement is what was checked",
    ),
    (
        UNVERIFIED,
        "[UNVERIFIED]",
        "recorded without verification evidence",
    ),
    (
        REFUTED,
        "[REFUTED]",
        "re-verification contradicted this claim",
    ),
];

/// Whether a status means a checker checked the claim: only `exactly_verified` and
/// `lean_checked`.
pub fn is_machine_checked(status: &str) -> bool {
    status == EXACTLY_VERIFIED || status == LEAN_CHECKED
}

/// Whether a status says that something checked the result the claim was recorded from (every
/// status above `asserted`). A caller's re-worded statement cannot keep any of them without a
/// recognised recipe.
pub fn claims_a_check(status: &str) -> bool {
    !matches!(status, ASSERTED | UNVERIFIED | REFUTED) && STATUSES.iter().any(|s| s.0 == status)
}

/// The short mark (`[VERIFIED]`, …), or `[UNKNOWN STATUS]`.
pub fn mark(status: &str) -> &'static str {
    STATUSES
        .iter()
        .find(|s| s.0 == status)
        .map_or("[UNKNOWN STATUS]", |s| s.1)
}

/// The long description of a known status.
pub fn badge(status: &str) -> Option<&'static str> {
    STATUSES.iter().find(|s| s.0 == status).map(|s| s.2)
}

/// One claim. Every field of the reference's document is kept (and written back); the status
/// is the only authority on what was checked.
#[derive(Debug, Clone, PartialEq)]
pub struct Claim {
    /// `clm_` + 16 hex digits, from statement, hypotheses and method ([`super::claim_id`]).
    pub id: ClaimId,
    /// The normalised statement.
    pub statement: Box<str>,
    /// `text`, `expr`, `relation` or a caller's word.
    pub kind: ClaimWord,
    /// LaTeX of the statement, if any (rendered as given).
    pub latex: Option<Box<str>>,
    /// Predicate strings, canonical and sorted.
    pub hypotheses: Box<[String]>,
    /// The producing operation or recipe.
    pub method: ClaimWord,
    /// The verification status (see [`STATUSES`]; unknown words are kept as they are).
    pub status: ClaimWord,
    /// What the status rests on, or `none`.
    pub evidence: ClaimWord,
    /// The producer's verification mapping, as given (kept as compact text).
    pub verification: Compact,
    /// Rewrite steps (`rule`, `before`, `after`, `side_conditions`), as given.
    pub derivation: Box<[Value]>,
    /// Certificate source text.
    pub certificate: Option<Box<str>>,
    /// Its format (`lean4`).
    pub certificate_format: Option<Box<str>>,
    /// Direct dependencies: IDs of claims already in the graph, no repeats, no self-edge.
    pub depends_on: Vec<ClaimId>,
    /// The re-verification recipe (`kind` plus its fields); never an empty object.
    pub check: Option<Compact>,
    /// Where the claim came from.
    pub provenance: Compact,
    /// When it was recorded (volatile).
    pub recorded_at: Option<Box<str>>,
    /// Re-check entries (`at` is volatile).
    pub audit: Vec<Compact>,
    /// Short title for the renderers.
    pub label: Option<Box<str>>,
    /// Free labels.
    pub tags: Box<[String]>,
    /// Free prose.
    pub notes: Option<Box<str>>,
}

impl Claim {
    /// A claim with every field at the reference's load default, except the given ones.
    pub fn new(id: String, statement: String) -> Claim {
        Claim {
            statement: statement.into(),
            kind: "expr".into(),
            status: UNVERIFIED.into(),
            evidence: "none".into(),
            // (every other default is the empty one)
            ..Claim::links_only(id.into(), Vec::new())
        }
    }

    /// A claim reduced to its ID and dependencies, every other field empty (not a claim to
    /// keep: what the streamed reader hands its reading thread, which needs only these; nothing
    /// else is allocated, so nothing else has to be freed on that thread).
    pub(crate) fn links_only(id: ClaimId, depends_on: Vec<ClaimId>) -> Claim {
        Claim {
            id,
            statement: Box::default(),
            kind: ClaimWord::default(),
            latex: None,
            hypotheses: Box::default(),
            method: ClaimWord::default(),
            status: ClaimWord::default(),
            evidence: ClaimWord::default(),
            verification: Compact::default(),
            derivation: Box::default(),
            certificate: None,
            certificate_format: None,
            depends_on,
            check: None,
            provenance: Compact::default(),
            recorded_at: None,
            audit: Vec::new(),
            label: None,
            tags: Box::default(),
            notes: None,
        }
    }

    /// This claim's ID and dependencies taken out into a [`Claim::links_only`] (what a
    /// streamed reader's worker hands the reading thread, the rest being freed on the worker).
    pub(crate) fn take_links(&mut self) -> Claim {
        Claim::links_only(
            std::mem::take(&mut self.id),
            std::mem::take(&mut self.depends_on),
        )
    }

    /// Whether a checker checked this claim ([`is_machine_checked`] of its status).
    pub fn machine_checked(&self) -> bool {
        is_machine_checked(&self.status)
    }

    /// The ID its content gives ([`super::claim_id`] of statement, hypotheses, method).
    pub fn content_id(&self) -> String {
        super::claim_id(&self.statement, &self.hypotheses, &self.method)
    }

    /// The recipe's `kind`, when there is a recipe with a string kind.
    pub fn check_kind(&self) -> Option<String> {
        match self.check.as_ref()?.get("kind")? {
            Value::String(s) => Some(s),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn machine_checked_only_for_exactly_verified_and_lean_checked() {
        for (status, _, _) in STATUSES {
            assert_eq!(
                is_machine_checked(status),
                status == EXACTLY_VERIFIED || status == LEAN_CHECKED,
                "{status}"
            );
        }
        assert!(
            !is_machine_checked("proved"),
            "an unknown word is never machine-checked"
        );
        assert_eq!(mark("proved"), "[UNKNOWN STATUS]");
        assert!(claims_a_check(NUMERICALLY_CHECKED) && !claims_a_check(ASSERTED));
    }

    /// A graph holds a million claims side by side: every byte of a claim is a megabyte of
    /// memory to fault in and fill. (Texts and lists that are never changed in place are boxed
    /// slices, two words instead of three.)
    #[test]
    #[cfg(target_pointer_width = "64")]
    fn a_claim_stays_small() {
        assert_eq!(std::mem::size_of::<Claim>(), 376);
    }
}
