//! The claim-check profile's vocabulary: IRIs, the 60 terms, sciproof's own terms, the fixed
//! texts of the DefinedTerms, and the identifier and quoting rules the crate uses.

/// The profile's IRI.
pub const PROFILE: &str = "https://reproducible.science/ro-crate/claim-check/0.1/";
/// RO-Crate 1.3.
pub const RO_CRATE: &str = "https://w3id.org/ro/crate/1.3";
/// The RO-Crate 1.3 JSON-LD context.
pub const RO_CRATE_CONTEXT: &str = "https://w3id.org/ro/crate/1.3/context";
/// Process Run Crate 0.6 (declared only when a re-run is described).
pub const PROCESS_RUN_CRATE: &str = "https://w3id.org/ro/wfrun/process/0.6";
/// Where sciproof's own terms are defined (this module's documentation).
pub const SCIPROOF_TERMS: &str = "https://docs.rs/sciproof/latest/sciproof/checkcrate/index.html#";

/// The 60 profile terms, in the order of the context object.
pub const TERMS: [&str; 60] = [
    "ClaimCheck",
    "DeclaredCommand",
    "FileRead",
    "addressKind",
    "argv",
    "assertionIndex",
    "assertionKind",
    "assertionName",
    "assertionPosition",
    "backend",
    "backendVersion",
    "canonicalAddress",
    "checkType",
    "checkWarning",
    "checkerVersion",
    "claimDigest",
    "comparisonMode",
    "comparisonStage",
    "computedValue",
    "conversion",
    "convertedValue",
    "declaredInput",
    "declaredOutput",
    "declaredPlaces",
    "durationSeconds",
    "executionStage",
    "exitCode",
    "extractionDigest",
    "extractionStage",
    "extractionTool",
    "extractionToolVersion",
    "fileRead",
    "freshness",
    "historyLastChangedAt",
    "historyStates",
    "lastRerun",
    "manifest",
    "manifestLine",
    "memberCount",
    "nativeOutcome",
    "nativeReason",
    "outcome",
    "outputDigest",
    "passageLine",
    "pinnedDigest",
    "printedValue",
    "readsFile",
    "recordVersion",
    "rerunReason",
    "rerunState",
    "side",
    "staleCause",
    "statistic",
    "tieLower",
    "tiePrinted",
    "tieUpper",
    "tolerance",
    "upstream",
    "validity",
    "whereStated",
];

/// sciproof's own terms on a `ClaimCheck`: the predicate the profile has no word for.
pub const SCIPROOF_TERM_NAMES: [&str; 8] = [
    "sciproofAtol",
    "sciproofLocation",
    "sciproofOp",
    "sciproofPhase",
    "sciproofRtol",
    "sciproofScale",
    "sciproofSignature",
    "sciproofValue",
];

/// The license statement of a crate whose records carry none.
pub const LICENSE_NOT_STATED: &str = "Not stated. The check records this crate is written from carry no license, and the terms of each file are those of the project it belongs to.";

/// What each outcome word means (the DefinedTerm descriptions).
pub fn outcome_description(word: &str) -> &'static str {
    match word {
        "match" => "The file was read, the address resolved, a comparison ran, and the two agreed.",
        "mismatch" => {
            "The file was read, the address resolved, a comparison ran, and the two differed."
        }
        "not-found" => {
            "The file was readable and the address did not resolve to exactly one value of the kind the assertion needs. Nothing was compared."
        }
        "not-checked" => {
            "No comparison occurred, because something it needed was absent or was skipped."
        }
        _ => "The tool failed.",
    }
}

/// What each check type means.
pub fn check_type_description(word: &str) -> &'static str {
    match word {
        "value-comparison" => {
            "A value the manuscript prints, against the value at an address in a file."
        }
        "passage-presence" => "A passage occurs in a file.",
        "correspondence" => "The values at two addresses, in two files, agree.",
        "aggregate-comparison" => {
            "A value the manuscript prints, against a statistic computed over the values at several addresses."
        }
        "artifact-identity" => "A file's bytes are the bytes that were recorded.",
        "lineage-check" => "A file was produced by a recorded process from recorded inputs.",
        "rerun-comparison" => "What a command wrote when run again, against what it wrote before.",
        "coverage-check" => "Whether something the manuscript states has a claim declared for it.",
        _ => "A proposition none of the other check types names.",
    }
}

/// Python's `urllib.parse.quote(text, safe)`: every byte but ASCII letters, digits, `_.-~` and
/// the `safe` characters as `%XX` (upper-case hex, UTF-8 bytes).
pub fn quote(text: &str, safe: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"_.-~".contains(&b) || safe.as_bytes().contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A local identifier `#kind/part/part`, each part quoted with no safe characters.
pub fn local(kind: &str, parts: &[&str]) -> String {
    let quoted: Vec<String> = parts.iter().map(|p| quote(p, "")).collect();
    format!("#{kind}/{}", quoted.join("/"))
}

/// Python's `shlex.join`: an argument with anything but `[A-Za-z0-9@%+=:,./_-]` (or empty) is
/// single-quoted, with `'` written as `'"'"'`.
pub fn shell_join(argv: &[String]) -> String {
    argv.iter()
        .map(|a| {
            let safe = !a.is_empty()
                && a.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"@%+=:,./_-".contains(&b));
            if safe {
                a.clone()
            } else {
                format!("'{}'", a.replace('\'', "'\"'\"'"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}
