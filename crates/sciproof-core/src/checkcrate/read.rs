//! The claim-check crate -> the records it was written from (spec §4.6), reporting every way
//! the crate departs from the profile instead of failing on the first.
//!
//! Reads documents shaped like the writer's output (a flattened `@graph`, references as
//! `{"@id": ...}`, single values bare or as lists); `@context` is not interpreted. Refused
//! outright (`NotACrate`): text that is not JSON, no `@graph` list, no root `./`, a root that
//! does not conform to the profile. Everything else is a listed problem, and a check with a
//! problem that makes it unusable (an unknown outcome or check type, a missing required
//! property) is left out rather than guessed: it is never read as a match.

use super::record::{CHECK_TYPES, CheckRecord, FileRead, OUTCOMES};
use super::write::PROFILE;
use crate::json::{Number, Object, Value};
use std::collections::{HashMap, VecDeque};

/// Why a document is not a claim-check crate at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a claim-check crate: {0}")]
pub struct NotACrate(pub String);

/// What a crate held: the records that could be read, and every problem found.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ReadCrate {
    /// The records that could be read.
    pub records: Vec<CheckRecord>,
    /// Every way the crate departs from the profile, with its place.
    pub problems: Vec<String>,
}

/// Percent-decoding (the inverse of the writer's quoting).
fn unquote(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let Ok(b) = u8::from_str_radix(
                std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap_or("zz"),
                16,
            )
        {
            out.push(b);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// An entity's `@id` ("" when it has none).
fn id_of(e: &Object) -> String {
    e.get("@id")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

fn unpacked(v: Option<&Value>) -> Vec<&Value> {
    match v {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) => items.iter().collect(),
        Some(other) => vec![other],
    }
}

fn ref_id(v: &Value) -> Option<&str> {
    v.as_object()?.get("@id")?.as_str()
}

fn has_type(e: &Object, name: &str) -> bool {
    unpacked(e.get("@type"))
        .iter()
        .any(|t| t.as_str() == Some(name))
}

/// Whether a property must be there (a problem if not) or reads as "" when absent.
#[derive(Clone, Copy)]
enum Need {
    Required,
    Default,
}

struct Reader<'a> {
    entities: HashMap<&'a str, &'a Object>,
    problems: Vec<String>,
}

impl<'a> Reader<'a> {
    fn entity(&mut self, from: &str, v: Option<&'a Value>) -> Option<&'a Object> {
        let id = v.and_then(ref_id)?;
        match self.entities.get(id) {
            Some(e) => Some(e),
            None => {
                self.problems.push(format!(
                    "{from}: refers to {id}, which is not in the @graph"
                ));
                None
            }
        }
    }

    fn string(&mut self, id: &str, e: &Object, key: &str) -> Option<String> {
        match e.get(key) {
            Some(Value::String(s)) => Some(s.clone()),
            None | Some(Value::Null) => None,
            Some(v) => {
                self.problems.push(format!(
                    "{id}: {key} must be text, found {}",
                    v.py_type_name()
                ));
                None
            }
        }
    }

    fn required(&mut self, id: &str, e: &Object, key: &str) -> Option<String> {
        let v = self.string(id, e, key);
        if v.is_none() {
            self.problems
                .push(format!("{id}: required property {key} is missing"));
        }
        v
    }

    /// Text properties into an object under the record's keys.
    fn texts(&mut self, id: &str, e: &Object, fields: &[(&str, &str, Need)]) -> Object {
        let mut out = Object::with_capacity(fields.len());
        for (key, prop, need) in fields {
            let value = match need {
                Need::Required => self.required(id, e, prop),
                Need::Default => self.string(id, e, prop),
            };
            out.insert(*key, value.unwrap_or_default());
        }
        out
    }

    fn int(&mut self, id: &str, e: &Object, key: &str) -> Option<u64> {
        match e.get(key) {
            Some(Value::Number(Number::Int(i))) => u64::try_from(i).ok(),
            None | Some(Value::Null) => None,
            Some(v) => {
                self.problems.push(format!(
                    "{id}: {key} must be a whole number, found {}",
                    v.py_type_name()
                ));
                None
            }
        }
    }

    fn file_state(&mut self, from: &str, v: Option<&'a Value>) -> Option<FileRead> {
        let file = self.entity(from, v)?;
        let id = file.get("@id").and_then(Value::as_str).unwrap_or_default();
        let artifact = self.required(id, file, "identifier")?;
        let path = match self.string(id, file, "alternateName") {
            Some(p) => p,
            None if id.starts_with('#') => String::new(),
            None => unquote(id),
        };
        let origin = match self.entity(id, file.get("isBasedOn")) {
            Some(o) => {
                let oid = id_of(o);
                let repository = self
                    .entity(&oid, o.get("isPartOf"))
                    .and_then(|r| r.get("codeRepository"))
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string();
                Some(
                    Object::new()
                        .with("repository", repository)
                        .with(
                            "commit",
                            self.string(&oid, o, "version").unwrap_or_default(),
                        )
                        .with("path", self.string(&oid, o, "name").unwrap_or_default()),
                )
            }
            None => None,
        };
        Some(FileRead {
            artifact,
            path,
            media_type: self.string(id, file, "encodingFormat").unwrap_or_default(),
            validity: self.string(id, file, "validity"),
            pinned: self.string(id, file, "pinnedDigest"),
            on_disk: self.string(id, file, "sha256"),
            origin,
            ..FileRead::default()
        })
    }

    fn state_json(state: &FileRead) -> Value {
        let mut o = Object::new()
            .with("artifact", state.artifact.as_str())
            .with("path", state.path.as_str())
            .with("media_type", state.media_type.as_str());
        for (k, v) in [
            ("validity", &state.validity),
            ("pinned", &state.pinned),
            ("on_disk", &state.on_disk),
        ] {
            if let Some(v) = v {
                o.insert(k, v.as_str());
            }
        }
        if let Some(origin) = &state.origin {
            o.insert("origin", origin.clone());
        }
        Value::Object(o)
    }

    /// The `execution` block of a check: its upstream commands with `steps` recomputed.
    fn execution(&mut self, id: &str, check: &'a Object, read_files: &[String]) -> Option<Object> {
        let upstream = unpacked(check.get("upstream"));
        if upstream.is_empty() {
            return None;
        }
        let mut commands: Vec<(&'a Object, String)> = Vec::new();
        for u in upstream {
            if let Some(c) = self.entity(id, Some(u)) {
                let cid = id_of(c);
                commands.push((c, cid));
            }
        }
        // Steps: 0 for a command whose output a read file is, n+1 for one whose output is an
        // input of a step-n command (breadth first; a cycle cannot loop).
        let output_of = |c: &Object| c.get("declaredOutput").and_then(ref_id).map(String::from);
        let mut steps: HashMap<String, u64> = HashMap::new();
        let mut queue: VecDeque<(String, u64)> = VecDeque::new();
        for (c, cid) in &commands {
            if output_of(c).is_some_and(|o| read_files.contains(&o)) {
                steps.insert(cid.clone(), 0);
                queue.push_back((cid.clone(), 0));
            }
        }
        while let Some((cid, n)) = queue.pop_front() {
            let Some((c, _)) = commands.iter().find(|(_, i)| *i == cid) else {
                continue;
            };
            let inputs: Vec<String> = unpacked(c.get("declaredInput"))
                .into_iter()
                .filter_map(|v| ref_id(v).map(String::from))
                .collect();
            for (other, oid) in &commands {
                if !steps.contains_key(oid) && output_of(other).is_some_and(|o| inputs.contains(&o))
                {
                    steps.insert(oid.clone(), n + 1);
                    queue.push_back((oid.clone(), n + 1));
                }
            }
        }
        let mut list = Vec::new();
        for (c, cid) in commands {
            let name = self.required(&cid, c, "identifier").unwrap_or_default();
            let argv = self
                .string(&cid, c, "argv")
                .and_then(|a| crate::json::parse(&a).ok())
                .unwrap_or(Value::Array(Vec::new()));
            let output = self
                .file_state(&cid, c.get("declaredOutput"))
                .map(|s| Self::state_json(&s))
                .unwrap_or(Value::Null);
            let mut inputs = Vec::new();
            for i in unpacked(c.get("declaredInput")) {
                if let Some(s) = self.file_state(&cid, Some(i)) {
                    inputs.push(Self::state_json(&s));
                }
            }
            let mut o = Object::new()
                .with("id", name)
                .with("command", argv)
                .with("steps", steps.get(&cid).copied().unwrap_or(0))
                .with("output", output)
                .with("inputs", Value::Array(inputs))
                .with(
                    "state",
                    self.required(&cid, c, "freshness").unwrap_or_default(),
                )
                .with(
                    "causes",
                    Value::Array(unpacked(c.get("staleCause")).into_iter().cloned().collect()),
                );
            if let Some(r) = self.entity(&cid, c.get("lastRerun")) {
                let rid = id_of(r);
                let mut rerun = self.texts(
                    &rid,
                    r,
                    &[
                        ("started_at", "startTime", Need::Default),
                        ("ended_at", "endTime", Need::Default),
                        ("state", "rerunState", Need::Required),
                        ("reason", "rerunReason", Need::Required),
                        ("checker_version", "checkerVersion", Need::Default),
                    ],
                );
                for (key, prop) in [
                    ("exit_code", "exitCode"),
                    ("duration_seconds", "durationSeconds"),
                    ("output_digest", "outputDigest"),
                ] {
                    if let Some(v) = r.get(prop).filter(|v| !matches!(v, Value::Null)) {
                        rerun.insert(key, v.clone());
                    }
                }
                o.insert("last_rerun", rerun);
            }
            list.push(Value::Object(o));
        }
        Some(
            Object::new()
                .with(
                    "state",
                    self.required(id, check, "freshness").unwrap_or_default(),
                )
                .with("commands", Value::Array(list)),
        )
    }
}

fn fragment(v: Option<&Value>) -> Option<String> {
    let id = ref_id(v?)?;
    id.strip_prefix(PROFILE)
        .and_then(|f| f.strip_prefix('#'))
        .map(String::from)
}

fn has_boolean(v: &Value) -> bool {
    match v {
        Value::Bool(_) => true,
        Value::Array(a) => a.iter().any(has_boolean),
        Value::Object(o) => o.iter().any(|(_, v)| has_boolean(v)),
        _ => false,
    }
}

/// Reads a crate's `ro-crate-metadata.json` text.
pub fn from_crate(text: &str) -> Result<ReadCrate, NotACrate> {
    let no_graph = || NotACrate("no flattened graph with a root data entity".into());
    let doc = crate::json::parse(text).map_err(|e| NotACrate(format!("not JSON: {e}")))?;
    let graph = doc
        .as_object()
        .and_then(|d| d.get("@graph"))
        .and_then(Value::as_array)
        .ok_or_else(no_graph)?;
    let mut reader = Reader {
        entities: HashMap::new(),
        problems: Vec::new(),
    };
    let mut first_at: HashMap<&str, usize> = HashMap::new();
    let mut unlisted = 0usize;
    for (i, e) in graph.iter().enumerate() {
        // At most 1000 problems about entities are spelled out; the rest are counted.
        if reader.problems.len() >= 1000 {
            if e.as_object()
                .and_then(|o| o.get("@id"))
                .and_then(Value::as_str)
                .is_none_or(|id| first_at.contains_key(id))
                || has_boolean(e)
            {
                unlisted += 1;
            }
            if let Some(o) = e.as_object()
                && let Some(id) = o.get("@id").and_then(Value::as_str)
                && !first_at.contains_key(id)
            {
                first_at.insert(id, i);
                reader.entities.insert(id, o);
            }
            continue;
        }
        let Some(o) = e.as_object() else {
            reader
                .problems
                .push(format!("@graph[{i}] is not an entity object"));
            continue;
        };
        match o.get("@id").and_then(Value::as_str) {
            None => reader.problems.push(format!("@graph[{i}] has no @id")),
            Some(id) => {
                if let Some(j) = first_at.get(id) {
                    reader.problems.push(format!(
                        "@graph[{i}]: {id} repeats @graph[{j}] (the first is read)"
                    ));
                } else {
                    first_at.insert(id, i);
                    reader.entities.insert(id, o);
                }
            }
        }
        if has_boolean(e) {
            reader.problems.push(format!(
                "@graph[{i}] has a boolean property (the profile has none)"
            ));
        }
    }
    if unlisted > 0 {
        reader
            .problems
            .push(format!("… and {unlisted} more problems with entities"));
    }
    let root = *reader.entities.get("./").ok_or_else(no_graph)?;
    let conforms = unpacked(root.get("conformsTo"))
        .into_iter()
        .any(|c| ref_id(c) == Some(PROFILE));
    if !conforms {
        return Err(NotACrate(format!(
            "the root data entity does not conform to {PROFILE}"
        )));
    }
    let mut records = Vec::new();
    let mut passages: HashMap<String, Vec<Value>> = HashMap::new();
    let checks: Vec<&Object> = unpacked(root.get("mentions"))
        .into_iter()
        .filter_map(|m| ref_id(m).and_then(|id| reader.entities.get(id).copied()))
        .filter(|e| has_type(e, "ClaimCheck"))
        .collect();
    for check in &checks {
        if let Some(r) = read_check(&mut reader, check) {
            if r.assertion_kind == "quote" {
                let read = r.reads.first();
                let mut p = Object::new()
                    .with("assertion", r.assertion_index)
                    .with("artifact", read.map_or("", |f| f.artifact.as_str()))
                    .with("path", read.map_or("", |f| f.path.as_str()))
                    .with("text", r.printed.clone().unwrap_or_default());
                if let Some(line) = check
                    .get("passageLine")
                    .filter(|v| !matches!(v, Value::Null))
                {
                    p.insert("line", line.clone());
                }
                passages
                    .entry(r.claim_id.clone())
                    .or_default()
                    .push(Value::Object(p));
            }
            records.push(r);
        }
    }
    for r in &mut records {
        r.passages = passages.get(&r.claim_id).cloned().unwrap_or_default();
    }
    Ok(ReadCrate {
        records,
        problems: reader.problems,
    })
}

/// Properties a `ClaimCheck` may carry besides the profile's terms.
const CHECK_PROPERTIES: [&str; 7] = [
    "@id",
    "@type",
    "name",
    "description",
    "instrument",
    "endTime",
    "object",
];
/// Properties of a `FileRead`.
const READ_PROPERTIES: [&str; 9] = [
    "@id",
    "@type",
    "name",
    "readsFile",
    "side",
    "addressKind",
    "canonicalAddress",
    "value",
    "convertedValue",
];

/// Lists the properties of `e` that are neither in `allowed` nor terms of the profile or of
/// sciproof: they are ignored, and said to be.
fn unknown_properties(reader: &mut Reader<'_>, id: &str, e: &Object, allowed: &[&str]) {
    for (key, _) in e.iter() {
        let known = allowed.contains(&key)
            || super::write::TERMS.contains(&key)
            || super::write::SCIPROOF_TERM_NAMES.contains(&key);
        if !known {
            reader.problems.push(format!(
                "{id}: unknown property {} (not a term of the profile; ignored)",
                crate::pyfmt::str_repr(key)
            ));
        }
    }
}

fn read_check<'a>(reader: &mut Reader<'a>, check: &'a Object) -> Option<CheckRecord> {
    let id = id_of(check);
    unknown_properties(reader, &id, check, &CHECK_PROPERTIES);
    let before = reader.problems.len();
    let checker = reader.entity(&id, check.get("instrument"));
    let claim = reader.entity(&id, check.get("object"));
    let outcome = fragment(check.get("outcome"));
    let check_type = fragment(check.get("checkType"));
    match &outcome {
        Some(o) if OUTCOMES.contains(&o.as_str()) => {}
        other => reader.problems.push(format!(
            "{id}: outcome {} is not one of the profile's ({}); the check is not read",
            other.as_deref().unwrap_or("(missing)"),
            OUTCOMES.join(", ")
        )),
    }
    match &check_type {
        Some(t) if CHECK_TYPES.contains(&t.as_str()) => {}
        other => reader.problems.push(format!(
            "{id}: checkType {} is not one of the profile's; the check is not read",
            other.as_deref().unwrap_or("(missing)")
        )),
    }
    let (reads, read_files) = file_reads(reader, &id, check);
    let comparison = comparison(reader, &id, check);
    let stages = stages(reader, &id, check);
    let reader_fields = reader.texts(
        &id,
        check,
        &[
            ("backend", "backend", Need::Default),
            ("backend_version", "backendVersion", Need::Default),
            ("tool", "extractionTool", Need::Default),
            ("tool_version", "extractionToolVersion", Need::Default),
            ("extraction_digest", "extractionDigest", Need::Default),
        ],
    );
    let history = history(reader, &id, check);
    let execution = reader.execution(&id, check, &read_files);
    let extensions = extensions(reader, &id, check);
    let (checker_name, checker_version, checker_url) = checker_fields(reader, &id, checker);
    let (manifest_path, manifest_digest, manifest_signature) = manifest_fields(reader, &id, check);
    let (claim_id, claim_text, claim_where, claim_digest, claim_line) =
        claim_fields(reader, &id, claim);
    let record = CheckRecord {
        record: reader
            .required(&id, check, "recordVersion")
            .unwrap_or_default(),
        checker_name,
        checker_version,
        checker_url,
        checked_at: reader.required(&id, check, "endTime").unwrap_or_default(),
        manifest_path,
        manifest_digest,
        manifest_signature,
        claim_id,
        claim_text,
        claim_where,
        claim_digest,
        claim_line,
        passages: Vec::new(),
        assertion_kind: reader
            .required(&id, check, "assertionKind")
            .unwrap_or_default(),
        assertion_name: reader
            .string(&id, check, "assertionName")
            .unwrap_or_default(),
        assertion_position: reader.int(&id, check, "assertionPosition").unwrap_or(0),
        assertion_index: reader.int(&id, check, "assertionIndex").unwrap_or(0),
        assertion_line: reader.int(&id, check, "manifestLine"),
        check_type: check_type.unwrap_or_default(),
        reads,
        printed: reader.string(&id, check, "printedValue"),
        comparison,
        outcome: outcome.unwrap_or_default(),
        native_outcome: reader
            .required(&id, check, "nativeOutcome")
            .unwrap_or_default(),
        native_reason: reader
            .required(&id, check, "nativeReason")
            .unwrap_or_default(),
        detail: reader.string(&id, check, "description").unwrap_or_default(),
        stages,
        reader: reader_fields,
        warnings: unpacked(check.get("checkWarning"))
            .into_iter()
            .filter_map(|w| w.as_str().map(String::from))
            .collect(),
        execution,
        history,
        extensions,
    };
    let record = vet(reader, &id, record);
    if reader.problems.len() > before
        && (!OUTCOMES.contains(&record.outcome.as_str())
            || !CHECK_TYPES.contains(&record.check_type.as_str())
            || record.record.is_empty()
            || record.native_reason.is_empty())
    {
        return None;
    }
    Some(record)
}

/// The files a check read, and the identifiers of the files they read (for the execution).
fn file_reads<'a>(
    reader: &mut Reader<'a>,
    id: &str,
    check: &'a Object,
) -> (Vec<FileRead>, Vec<String>) {
    let mut reads = Vec::new();
    let mut read_files = Vec::new();
    for r in unpacked(check.get("fileRead")) {
        let Some(fr) = reader.entity(id, Some(r)) else {
            continue;
        };
        let rid = id_of(fr);
        unknown_properties(reader, &rid, fr, &READ_PROPERTIES);
        if let Some(f) = fr.get("readsFile").and_then(ref_id) {
            read_files.push(f.to_string());
        }
        let Some(mut state) = reader.file_state(&rid, fr.get("readsFile")) else {
            continue;
        };
        state.side = reader.string(&rid, fr, "side").unwrap_or_default();
        state.address = match reader.string(&rid, fr, "canonicalAddress") {
            Some(a) => match crate::json::parse(&a) {
                Ok(Value::Object(o)) => Some(super::record::address_in_record_order(&o)),
                _ => {
                    reader
                        .problems
                        .push(format!("{rid}: canonicalAddress is not a JSON object"));
                    None
                }
            },
            None => None,
        };
        state.stored = reader.string(&rid, fr, "value");
        state.converted = reader.string(&rid, fr, "convertedValue");
        reads.push(state);
    }
    (reads, read_files)
}

/// How the value was compared: mode, tolerance, places, conversion, tie.
fn comparison(reader: &mut Reader, id: &str, check: &Object) -> Option<Object> {
    reader.string(id, check, "comparisonMode").map(|mode| {
        let mut c = Object::new().with("mode", mode).with(
            "tolerance",
            reader.required(id, check, "tolerance").unwrap_or_default(),
        );
        if let Some(p) = reader.int(id, check, "declaredPlaces") {
            c.insert("places", p);
        }
        for (key, prop) in [("conversion", "conversion"), ("statistic", "statistic")] {
            if let Some(v) = reader.string(id, check, prop) {
                c.insert(key, v);
            }
        }
        if let Some(n) = reader.int(id, check, "memberCount") {
            c.insert("count", n);
        }
        if let Some(v) = reader.string(id, check, "computedValue") {
            c.insert("computed", v);
        }
        if let Some(lower) = reader.string(id, check, "tieLower") {
            c.insert(
                "tie",
                Object::new()
                    .with("lower", lower)
                    .with(
                        "upper",
                        reader.string(id, check, "tieUpper").unwrap_or_default(),
                    )
                    .with(
                        "printed",
                        reader.string(id, check, "tiePrinted").unwrap_or_default(),
                    ),
            );
        }
        c
    })
}

/// The stages the check went through.
fn stages(reader: &mut Reader, id: &str, check: &Object) -> Option<Object> {
    reader.string(id, check, "executionStage").map(|e| {
        Object::new()
            .with("execution", e)
            .with(
                "extraction",
                reader
                    .string(id, check, "extractionStage")
                    .unwrap_or_default(),
            )
            .with(
                "comparison",
                reader
                    .string(id, check, "comparisonStage")
                    .unwrap_or_default(),
            )
    })
}

/// Earlier states of the same claim.
fn history(reader: &mut Reader, id: &str, check: &Object) -> Option<Object> {
    reader.int(id, check, "historyStates").map(|n| {
        let mut h = Object::new().with("states", n);
        if let Some(at) = reader.string(id, check, "historyLastChangedAt") {
            h.insert("last_changed_at", at);
        }
        h
    })
}

/// sciproof's own terms (`sciproofPhase`, `sciproofOp`, ...).
fn extensions(reader: &mut Reader, id: &str, check: &Object) -> Object {
    let mut extensions = Object::new();
    for (key, prop) in [
        ("phase", "sciproofPhase"),
        ("location", "sciproofLocation"),
        ("op", "sciproofOp"),
        ("value", "sciproofValue"),
        ("rtol", "sciproofRtol"),
        ("atol", "sciproofAtol"),
        ("scale", "sciproofScale"),
    ] {
        match (key, check.get(prop)) {
            (_, None | Some(Value::Null)) => {}
            ("value", Some(Value::String(text))) => match crate::json::parse(text) {
                Ok(v) => extensions.insert(key, v),
                Err(_) => reader
                    .problems
                    .push(format!("{id}: sciproofValue is not JSON text")),
            },
            (_, Some(v)) => extensions.insert(key, v.clone()),
        }
    }
    extensions
}

/// The checker's name, version and address.
fn checker_fields(
    reader: &mut Reader,
    id: &str,
    checker: Option<&Object>,
) -> (String, String, String) {
    match checker {
        Some(c) => {
            let cid = id_of(c);
            (
                reader.required(&cid, c, "name").unwrap_or_default(),
                reader.required(&cid, c, "version").unwrap_or_default(),
                reader.string(&cid, c, "url").unwrap_or_default(),
            )
        }
        None => {
            reader
                .problems
                .push(format!("{id}: no instrument names the checker"));
            Default::default()
        }
    }
}

/// The manifest's path, digest and signature (file and digest).
#[allow(clippy::type_complexity)]
fn manifest_fields<'a>(
    reader: &mut Reader<'a>,
    id: &str,
    check: &'a Object,
) -> (String, Option<String>, Option<(String, String)>) {
    let manifest = reader.entity(id, check.get("manifest"));
    match manifest {
        Some(m) => {
            let mid = m.get("@id").and_then(Value::as_str).unwrap_or_default();
            let signature = match reader.entity(mid, m.get("sciproofSignature")) {
                Some(sig) => {
                    let sid = id_of(sig);
                    let path = reader.string(&sid, sig, "name").unwrap_or_default();
                    reader
                        .required(&sid, sig, "sha256")
                        .map(|digest| (path, digest))
                }
                None => None,
            };
            (
                reader
                    .string(mid, m, "alternateName")
                    .unwrap_or_else(|| unquote(mid)),
                reader.string(mid, m, "sha256"),
                signature,
            )
        }
        None => (String::new(), None, None),
    }
}

/// The claim's identifier, text, place, digest and line.
#[allow(clippy::type_complexity)]
fn claim_fields(
    reader: &mut Reader,
    id: &str,
    claim: Option<&Object>,
) -> (String, String, Option<String>, String, Option<u64>) {
    match claim {
        Some(c) => {
            let cid = id_of(c);
            (
                reader.required(&cid, c, "identifier").unwrap_or_default(),
                reader.string(&cid, c, "text").unwrap_or_default(),
                reader.string(&cid, c, "whereStated"),
                reader.required(&cid, c, "claimDigest").unwrap_or_default(),
                reader.int(&cid, c, "manifestLine"),
            )
        }
        None => {
            reader
                .problems
                .push(format!("{id}: no object names the claim"));
            Default::default()
        }
    }
}

/// A `match` that cannot be trusted is read as not-checked (and said so): one whose file was
/// not read, or whose words this reader does not know.
fn vet(reader: &mut Reader, id: &str, record: CheckRecord) -> CheckRecord {
    if record.outcome == "match"
        && record.check_type != "passage-presence"
        && !record.reads.iter().any(|r| r.stored.is_some())
    {
        reader.problems.push(format!(
            "{id}: a match whose file was not read (no value was stored); it is read as not-checked"
        ));
    }
    let mut record = record;
    if record.outcome == "match" && record.read_outcome() != "match" {
        // The profile: a consumer that does not know a nativeOutcome, a checkType or an
        // addressKind must not read the check as a match.
        reader.problems.push(format!(
            "{id}: a match whose words this reader does not know (checker {}, nativeOutcome {}, nativeReason {}, checkType {}, address kinds {}); it is read as not-checked",
            crate::pyfmt::str_repr(&record.checker_name),
            crate::pyfmt::str_repr(&record.native_outcome),
            crate::pyfmt::str_repr(&record.native_reason),
            crate::pyfmt::str_repr(&record.check_type),
            record
                .reads
                .iter()
                .filter_map(|r| r.address.as_ref()?.get("kind")?.as_str().map(crate::pyfmt::str_repr))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        record.outcome = "not-checked".into();
    }
    record
}
