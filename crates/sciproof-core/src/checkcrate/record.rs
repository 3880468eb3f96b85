//! The claim-check record (`reproducible.science/claim-check/0.1-experimental`): one observation
//! of one assertion, as `repro` defines it, with its JSON Lines form.
//!
//! A record states what was read and what was found, never a verdict on the claim. Fields follow
//! the upstream record (spec §2.2) in name and order; objects this tool only carries through
//! (stages, reader, execution, history, comparison, origin, address) are kept as JSON objects so
//! records written by `repro` survive a read and a write unchanged.

use crate::json::{Number, Object, Value};

/// The record version written.
pub const RECORD_VERSION: &str = "reproducible.science/claim-check/0.1-experimental";
/// The older name of the same format (read, never written).
pub const RECORD_VERSION_OLD: &str = "repro.check/0.1-experimental";

/// The normalised outcomes (closed list).
pub const OUTCOMES: [&str; 5] = ["match", "mismatch", "not-found", "not-checked", "error"];
/// The check types (closed list); the first four are comparisons.
pub const CHECK_TYPES: [&str; 9] = [
    "value-comparison",
    "passage-presence",
    "correspondence",
    "aggregate-comparison",
    "artifact-identity",
    "lineage-check",
    "rerun-comparison",
    "coverage-check",
    "other",
];
/// File validity words (closed list).
pub const VALIDITY: [&str; 4] = [
    "authoritative",
    "unpinned_artifact",
    "broken_pin",
    "artifact_absent",
];

/// A file as one check read it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FileRead {
    /// The artifact's identifier (for sciproof: its manifest path).
    pub artifact: String,
    /// The declared path, or "" if undeclared.
    pub path: String,
    /// Its media type.
    pub media_type: String,
    /// `authoritative`, `unpinned_artifact`, `broken_pin`, `artifact_absent`.
    pub validity: Option<String>,
    /// The digest the manifest pins.
    pub pinned: Option<String>,
    /// The digest of the bytes on disk now.
    pub on_disk: Option<String>,
    /// Where the value came from in the file (an address object), when known.
    pub origin: Option<Object>,
    /// Which side of a comparison the file is (`recorded`, `rerun`).
    pub side: String,
    /// The canonical address object (`{"contract": 1, "kind": "tree", "pointer": "/a"}`).
    pub address: Option<Object>,
    /// The value at the address as the file writes it.
    pub stored: Option<String>,
    /// The value converted for comparison, when it was.
    pub converted: Option<String>,
}

/// One check record.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CheckRecord {
    /// The record format's identifier.
    pub record: String,
    /// The checker's name.
    pub checker_name: String,
    /// The checker's version.
    pub checker_version: String,
    /// The checker's web address.
    pub checker_url: String,
    /// RFC 3339 with offset.
    pub checked_at: String,
    /// The manifest's path, relative to the crate's root.
    pub manifest_path: String,
    /// SHA-256 of the manifest, when known.
    pub manifest_digest: Option<String>,
    /// The manifest's signature file (`NAME.sciproof.json.sig`) and its SHA-256, when the
    /// manifest is signed: written as `manifest.signature` and, in a crate, as a payload file.
    pub manifest_signature: Option<(String, String)>,
    /// The claim's identifier.
    pub claim_id: String,
    /// The claim as written.
    pub claim_text: String,
    /// Where the claim is written (a file and place), when known.
    pub claim_where: Option<String>,
    /// SHA-256 of the claim's text.
    pub claim_digest: String,
    /// The line the claim is on, when known.
    pub claim_line: Option<u64>,
    /// Passages of text the claim quotes.
    pub passages: Vec<Value>,
    /// The assertion's kind.
    pub assertion_kind: String,
    /// The assertion's name (its phase).
    pub assertion_name: String,
    /// The assertion's position among the claim's assertions.
    pub assertion_position: u64,
    /// The assertion's index in the run.
    pub assertion_index: u64,
    /// The line of the assertion, when known.
    pub assertion_line: Option<u64>,
    /// The type of the check.
    pub check_type: String,
    /// The files read.
    pub reads: Vec<FileRead>,
    /// The value as printed, when the claim is about printed text.
    pub printed: Option<String>,
    /// The comparison made (operator, threshold, tolerances).
    pub comparison: Option<Object>,
    /// The outcome in the profile's words.
    pub outcome: String,
    /// The checker's own outcome word.
    pub native_outcome: String,
    /// The checker's own reason word.
    pub native_reason: String,
    /// What was found, in words.
    pub detail: String,
    /// The stages the check went through.
    pub stages: Option<Object>,
    /// The reader that read the value.
    pub reader: Object,
    /// Warnings about the check.
    pub warnings: Vec<String>,
    /// How the checked run was executed, when it was.
    pub execution: Option<Object>,
    /// Earlier records of the same claim.
    pub history: Option<Object>,
    /// Terms of this tool that the profile has no word for (`{"op": ">=", "value": 0.9, ...}`),
    /// written under `sciproof` in the record and as extra terms in a crate.
    pub extensions: Object,
}

/// An address object in the record's key order: `kind` first, then the other keys sorted (the
/// canonical text sorts every key; this is only the JSON Lines layout).
pub fn address_in_record_order(address: &Object) -> Object {
    let mut keys: Vec<&str> = address.iter().map(|(k, _)| k).collect();
    keys.sort_unstable();
    let mut out = Object::with_capacity(keys.len());
    if let Some(kind) = address.get("kind") {
        out.insert("kind", kind.clone());
    }
    for k in keys.into_iter().filter(|k| *k != "kind") {
        if let Some(v) = address.get(k) {
            out.insert(k, v.clone());
        }
    }
    out
}

/// `sha256(id NUL text NUL where)` in hex: the claim digest rule.
pub fn claim_digest(id: &str, text: &str, where_stated: Option<&str>) -> String {
    let mut bytes = Vec::new();
    bytes.extend_from_slice(id.as_bytes());
    bytes.push(0);
    bytes.extend_from_slice(text.as_bytes());
    bytes.push(0);
    bytes.extend_from_slice(where_stated.unwrap_or("").as_bytes());
    crate::hash::sha256_bytes(&bytes)
}

fn opt<T: Into<Value>>(o: &mut Object, key: &str, v: Option<T>) {
    if let Some(v) = v {
        o.insert(key, v);
    }
}

impl FileRead {
    fn to_json(&self) -> Value {
        let mut o = Object::new()
            .with("artifact", self.artifact.as_str())
            .with("path", self.path.as_str())
            .with("media_type", self.media_type.as_str());
        opt(&mut o, "validity", self.validity.clone());
        opt(&mut o, "pinned", self.pinned.clone());
        opt(&mut o, "on_disk", self.on_disk.clone());
        opt(&mut o, "origin", self.origin.clone());
        o.insert("side", self.side.as_str());
        opt(&mut o, "address", self.address.clone());
        opt(&mut o, "stored", self.stored.clone());
        opt(&mut o, "converted", self.converted.clone());
        Value::Object(o)
    }
}

impl CheckRecord {
    /// The JSON object of the JSON Lines form: fields in the record's order, `null`s left out,
    /// empty strings and lists kept; `checked_at` with `Z`.
    pub fn to_json(&self) -> Value {
        let mut o = Object::new().with("record", self.record.as_str());
        o.insert(
            "checker",
            Object::new()
                .with("name", self.checker_name.as_str())
                .with("version", self.checker_version.as_str())
                .with("url", self.checker_url.as_str()),
        );
        o.insert("checked_at", self.checked_at.replace("+00:00", "Z"));
        let mut manifest = Object::new().with("path", self.manifest_path.as_str());
        opt(&mut manifest, "digest", self.manifest_digest.clone());
        if let Some((path, digest)) = &self.manifest_signature {
            manifest.insert(
                "signature",
                Object::new()
                    .with("path", path.as_str())
                    .with("digest", digest.as_str()),
            );
        }
        o.insert("manifest", manifest);
        let mut claim = Object::new()
            .with("id", self.claim_id.as_str())
            .with("text", self.claim_text.as_str());
        opt(&mut claim, "where", self.claim_where.clone());
        claim.insert("digest", self.claim_digest.as_str());
        opt(&mut claim, "line", self.claim_line);
        claim.insert("passages", Value::Array(self.passages.clone()));
        o.insert("claim", claim);
        let mut assertion = Object::new()
            .with("kind", self.assertion_kind.as_str())
            .with("name", self.assertion_name.as_str())
            .with("position", self.assertion_position)
            .with("index", self.assertion_index);
        opt(&mut assertion, "line", self.assertion_line);
        o.insert("assertion", assertion);
        o.insert("check_type", self.check_type.as_str());
        o.insert(
            "reads",
            Value::Array(self.reads.iter().map(FileRead::to_json).collect()),
        );
        opt(&mut o, "printed", self.printed.clone());
        opt(&mut o, "comparison", self.comparison.clone());
        o.insert("outcome", self.outcome.as_str());
        o.insert("native_outcome", self.native_outcome.as_str());
        o.insert("native_reason", self.native_reason.as_str());
        o.insert("detail", self.detail.as_str());
        opt(&mut o, "stages", self.stages.clone());
        o.insert("reader", self.reader.clone());
        o.insert(
            "warnings",
            Value::Array(self.warnings.iter().map(Value::from).collect()),
        );
        opt(&mut o, "execution", self.execution.clone());
        opt(&mut o, "history", self.history.clone());
        if !self.extensions.is_empty() {
            o.insert("sciproof", self.extensions.clone());
        }
        Value::Object(o)
    }

    /// One line of JSON Lines (no trailing newline): compact, non-ASCII raw.
    pub fn to_line(&self) -> String {
        let mut out = String::new();
        crate::json::write_value(&mut out, &self.to_json(), None, crate::json::Style::RAW);
        out
    }

    /// Reads a record from its JSON form; errors name the field.
    pub fn from_json(value: &Value) -> Result<CheckRecord, String> {
        let o = value.as_object().ok_or("a record must be a JSON object")?;
        let s = |o: &Object, k: &str| -> Result<String, String> {
            match o.get(k) {
                Some(Value::String(s)) => Ok(s.clone()),
                Some(v) => Err(format!(
                    "{k}: expected a string, found {}",
                    v.py_type_name()
                )),
                None => Err(format!("{k}: required field missing")),
            }
        };
        let os = |o: &Object, k: &str| -> Option<String> { o.get(k)?.as_str().map(String::from) };
        let sd = |o: &Object, k: &str| -> String { os(o, k).unwrap_or_default() };
        let obj = |o: &Object, k: &str| -> Result<Object, String> {
            match o.get(k) {
                Some(Value::Object(x)) => Ok(x.clone()),
                Some(v) => Err(format!(
                    "{k}: expected an object, found {}",
                    v.py_type_name()
                )),
                None => Err(format!("{k}: required field missing")),
            }
        };
        let oo = |o: &Object, k: &str| -> Option<Object> { o.get(k)?.as_object().cloned() };
        let int = |o: &Object, k: &str| -> Option<u64> {
            match o.get(k) {
                Some(Value::Number(Number::Int(i))) => u64::try_from(i).ok(),
                _ => None,
            }
        };
        let checker = obj(o, "checker")?;
        let manifest = obj(o, "manifest")?;
        let claim = obj(o, "claim")?;
        let assertion = obj(o, "assertion")?;
        let mut reads = Vec::new();
        for (i, r) in o
            .get("reads")
            .and_then(Value::as_array)
            .ok_or("reads: expected a list")?
            .iter()
            .enumerate()
        {
            let r = r
                .as_object()
                .ok_or(format!("reads[{i}]: expected an object"))?;
            reads.push(FileRead {
                artifact: s(r, "artifact").map_err(|e| format!("reads[{i}].{e}"))?,
                path: sd(r, "path"),
                media_type: sd(r, "media_type"),
                validity: os(r, "validity"),
                pinned: os(r, "pinned"),
                on_disk: os(r, "on_disk"),
                origin: oo(r, "origin"),
                side: sd(r, "side"),
                address: oo(r, "address"),
                stored: os(r, "stored"),
                converted: os(r, "converted"),
            });
        }
        let record = CheckRecord {
            record: s(o, "record")?,
            checker_name: s(&checker, "name").map_err(|e| format!("checker.{e}"))?,
            checker_version: s(&checker, "version").map_err(|e| format!("checker.{e}"))?,
            checker_url: sd(&checker, "url"),
            checked_at: s(o, "checked_at")?.replace('Z', "+00:00"),
            manifest_path: sd(&manifest, "path"),
            manifest_digest: os(&manifest, "digest"),
            manifest_signature: oo(&manifest, "signature")
                .and_then(|sig| Some((os(&sig, "path")?, os(&sig, "digest")?))),
            claim_id: s(&claim, "id").map_err(|e| format!("claim.{e}"))?,
            claim_text: sd(&claim, "text"),
            claim_where: os(&claim, "where"),
            claim_digest: s(&claim, "digest").map_err(|e| format!("claim.{e}"))?,
            claim_line: int(&claim, "line"),
            passages: claim
                .get("passages")
                .and_then(Value::as_array)
                .map(<[Value]>::to_vec)
                .unwrap_or_default(),
            assertion_kind: s(&assertion, "kind").map_err(|e| format!("assertion.{e}"))?,
            assertion_name: sd(&assertion, "name"),
            assertion_position: int(&assertion, "position").unwrap_or(0),
            assertion_index: int(&assertion, "index").unwrap_or(0),
            assertion_line: int(&assertion, "line"),
            check_type: s(o, "check_type")?,
            reads,
            printed: os(o, "printed"),
            comparison: oo(o, "comparison"),
            outcome: s(o, "outcome")?,
            native_outcome: s(o, "native_outcome")?,
            native_reason: s(o, "native_reason")?,
            detail: sd(o, "detail"),
            stages: oo(o, "stages"),
            reader: oo(o, "reader").unwrap_or_default(),
            warnings: o
                .get("warnings")
                .and_then(Value::as_array)
                .unwrap_or_default()
                .iter()
                .filter_map(|w| w.as_str().map(String::from))
                .collect(),
            execution: oo(o, "execution"),
            history: oo(o, "history"),
            extensions: oo(o, "sciproof").unwrap_or_default(),
        };
        if !OUTCOMES.contains(&record.outcome.as_str()) {
            return Err(format!(
                "outcome: unknown word {} (one of {})",
                crate::pyfmt::str_repr(&record.outcome),
                OUTCOMES.join(", ")
            ));
        }
        if !CHECK_TYPES.contains(&record.check_type.as_str()) {
            return Err(format!(
                "check_type: unknown word {}",
                crate::pyfmt::str_repr(&record.check_type)
            ));
        }
        Ok(record)
    }

    /// The outcome a consumer may rely on: a `match` this tool does not understand (unknown
    /// record version, checker word, address kind, or a check type that is not a comparison,
    /// except sciproof's own predicate checks) is `not-checked`. Unknown stays unknown.
    pub fn read_outcome(&self) -> &str {
        let known_version = self.record == RECORD_VERSION || self.record == RECORD_VERSION_OLD;
        let known_words = match self.checker_name.as_str() {
            "sciproof" => super::native::is_known(&self.native_outcome, &self.native_reason),
            "repro" => repro_words_known(&self.native_outcome, &self.native_reason, &self.outcome),
            _ => false,
        };
        // sciproof's own `other` checks are comparisons too, of a predicate carried in its terms.
        // Address kinds repro 0.6.1 knows, and the ones sciproof writes.
        let known_kind = |kind: &str| match self.checker_name.as_str() {
            "sciproof" => matches!(kind, "tree" | "cell" | "array"),
            _ => matches!(
                kind,
                "tree"
                    | "table"
                    | "table_position"
                    | "array"
                    | "sheet"
                    | "sqlite"
                    | "prose"
                    | "passage"
            ),
        };
        let addresses_known = self.reads.iter().all(|r| {
            r.address
                .as_ref()
                .and_then(|a| a.get("kind"))
                .is_none_or(|k| k.as_str().is_some_and(known_kind))
        });
        let comparison = CHECK_TYPES[..4].contains(&self.check_type.as_str())
            || (self.checker_name == "sciproof"
                && self.check_type == "other"
                && self.extensions.contains_key("op"));
        if self.outcome == "match"
            && !(known_version && known_words && comparison && addresses_known)
        {
            "not-checked"
        } else {
            &self.outcome
        }
    }
}

/// repro's native outcomes (spec §2.3.3) with the outcome each normalises to.
const REPRO_OUTCOMES: [(&str, &str); 6] = [
    ("verified", "match"),
    ("mismatch", "mismatch"),
    ("not_found", "not-found"),
    ("unchecked", "not-checked"),
    ("not_offered", "not-checked"),
    ("error", "error"),
];

/// repro's native reasons (spec §2.3.4).
const REPRO_REASONS: [&str; 22] = [
    "passage_present",
    "passage_absent",
    "wrong_page",
    "quotation_ambiguous",
    "extractors_disagree",
    "value_match",
    "value_mismatch",
    "places_mismatch",
    "pointer_absent",
    "row_absent",
    "column_absent",
    "row_ambiguous",
    "row_selector_invalid",
    "selector_not_scalar",
    "number_as_word",
    "passage_ambiguous",
    "value_not_numeric",
    "format_unsupported",
    "extractor_missing",
    "artifact_missing",
    "artifact_undeclared",
    "artifact_unreadable",
];

/// Whether a check written by repro uses words repro emits, consistently: its native outcome
/// normalises to its outcome, and its native reason is one of repro's (`backend_defect` for an
/// error). A word repro never emits is not understood.
fn repro_words_known(native_outcome: &str, native_reason: &str, outcome: &str) -> bool {
    let normalises = REPRO_OUTCOMES
        .iter()
        .any(|(native, normal)| *native == native_outcome && *normal == outcome);
    normalises && (REPRO_REASONS.contains(&native_reason) || native_reason == "backend_defect")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(version: &str, checker: &str, reason: &str) -> CheckRecord {
        CheckRecord {
            record: version.into(),
            checker_name: checker.into(),
            checker_version: "1".into(),
            checked_at: "2026-11-30T08:00:00+00:00".into(),
            claim_id: "c".into(),
            claim_digest: claim_digest("c", "", None),
            assertion_kind: "metric".into(),
            check_type: "value-comparison".into(),
            outcome: "match".into(),
            native_outcome: "PASS".into(),
            native_reason: reason.into(),
            ..CheckRecord::default()
        }
    }

    #[test]
    fn unknown_stays_unknown() {
        assert_eq!(
            sample(RECORD_VERSION, "sciproof", "holds").read_outcome(),
            "match"
        );
        assert_eq!(
            sample(RECORD_VERSION_OLD, "sciproof", "holds").read_outcome(),
            "match",
            "the older record name is read"
        );
        assert_eq!(
            sample("future/9", "sciproof", "holds").read_outcome(),
            "not-checked"
        );
        assert_eq!(
            sample(RECORD_VERSION, "sciproof", "vibes").read_outcome(),
            "not-checked"
        );
        assert_eq!(
            sample(RECORD_VERSION, "other-tool", "holds").read_outcome(),
            "not-checked"
        );
        let mut r = sample(RECORD_VERSION, "sciproof", "holds");
        r.check_type = "coverage-check".into();
        assert_eq!(r.read_outcome(), "not-checked");
        r.outcome = "mismatch".into();
        assert_eq!(r.read_outcome(), "mismatch", "only a match is downgraded");
        let mut r = sample(RECORD_VERSION, "sciproof", "holds");
        r.reads.push(FileRead {
            address: Some(Object::new().with("kind", "hologram")),
            ..FileRead::default()
        });
        assert_eq!(
            r.read_outcome(),
            "not-checked",
            "an unknown address kind is not a match"
        );
        // JSON Lines: `Z` time, round trip.
        let line = sample(RECORD_VERSION, "sciproof", "holds").to_line();
        assert!(line.contains("\"checked_at\": \"2026-11-30T08:00:00Z\""));
        let back = CheckRecord::from_json(&crate::json::parse(&line).unwrap()).unwrap();
        assert_eq!(back, sample(RECORD_VERSION, "sciproof", "holds"));
        let bad = line.replace("\"match\"", "\"great\"");
        assert!(CheckRecord::from_json(&crate::json::parse(&bad).unwrap()).is_err());
    }
}
