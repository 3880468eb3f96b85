//! sciproof's own words in check records (`nativeOutcome`, `nativeReason`): a closed list, each
//! with the normalised outcome it maps to. A missing location or a value that is not a number is
//! `not-found`, never `mismatch`; a claim on a file that no longer matches its pin, or that is
//! missing, is `not-checked`.

/// `(native outcome, native reason, normalised outcome, meaning)`.
pub const WORDS: [(&str, &str, &str, &str); 10] = [
    (
        "PASS",
        "holds",
        "match",
        "the file was read, the location resolved, and the claim's comparison held",
    ),
    (
        "FAIL",
        "does_not_hold",
        "mismatch",
        "the file was read, the location resolved, and the comparison did not hold",
    ),
    (
        "FAIL",
        "location_absent",
        "not-found",
        "the file was read but the location does not exist in it",
    ),
    (
        "FAIL",
        "not_a_number",
        "not-found",
        "the location holds something that is not a number, which the claim's comparison needs",
    ),
    (
        "INCONCLUSIVE",
        "output_modified",
        "not-checked",
        "the output no longer has its recorded digest, so the claim was not judged on it",
    ),
    (
        "INCONCLUSIVE",
        "output_missing",
        "not-checked",
        "the output is missing, so nothing was read",
    ),
    (
        "FAIL",
        "output_unreadable",
        "not-checked",
        "the output exists but could not be read as its format",
    ),
    (
        "INCONCLUSIVE",
        "rerun_output_missing",
        "not-checked",
        "the re-run did not produce the output",
    ),
    (
        "INCONCLUSIVE",
        "rerun_not_run",
        "not-checked",
        "the re-run did not complete, so its output was not judged",
    ),
    (
        "ERROR",
        "internal_error",
        "error",
        "sciproof failed while checking",
    ),
];

/// Whether `(outcome, reason)` is one of sciproof's words.
pub fn is_known(native_outcome: &str, native_reason: &str) -> bool {
    WORDS
        .iter()
        .any(|w| w.0 == native_outcome && w.1 == native_reason)
}

/// The normalised outcome of a reason.
pub fn outcome_of(native_reason: &str) -> &'static str {
    WORDS
        .iter()
        .find(|w| w.1 == native_reason)
        .map_or("error", |w| w.2)
}

/// The native outcome of a reason.
pub fn native_outcome_of(native_reason: &str) -> &'static str {
    WORDS
        .iter()
        .find(|w| w.1 == native_reason)
        .map_or("ERROR", |w| w.0)
}
