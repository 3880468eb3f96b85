//! The JSON document (spec §2): the reference's shape (`kind`, `schema_version` 1, keys sorted,
//! non-ASCII raw), its stable form and digest, and a loader that checks everything it reads.
//!
//! Differences from the reference, all in the direction of saying more: duplicated IDs, IDs
//! that do not match their content, values of the wrong type and missing dependencies are
//! reported (every one, with its place) instead of being collapsed or crashing; unknown keys,
//! which the reference drops silently, are dropped with a warning. Claims are written in
//! [`ClaimGraph::topological_order`], so a document we write loads back in the same order in
//! both tools and its digest survives the round trip.

use super::claim::Claim;
use super::error::GraphError;
use super::store::ClaimGraph;
use crate::json::{
    Compact, Number, Object, Style, Value, newline, write_array, write_object, write_str,
    write_value,
};
use sha2::{Digest, Sha256};

/// The document `kind`.
pub const DOCUMENT_KIND: &str = "alkahest.claim_graph";
/// The schema version written and the newest read.
pub const SCHEMA_VERSION: u32 = 1;

/// Metadata keys that are volatile (dropped from the stable form).
pub const VOLATILE_METADATA: [&str; 5] =
    ["started_at", "finished_at", "cwd", "hostname", "duration_s"];

const CLAIM_KEYS: [&str; 20] = [
    "audit",
    "certificate",
    "certificate_format",
    "check",
    "depends_on",
    "derivation",
    "evidence",
    "hypotheses",
    "id",
    "kind",
    "label",
    "latex",
    "method",
    "notes",
    "provenance",
    "recorded_at",
    "statement",
    "status",
    "tags",
    "verification",
];

/// How to write a document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Form {
    /// `indent=2` (true) or one line with `", "`/`": "` separators (false).
    pub pretty: bool,
    /// Leave out the volatile data (claim `recorded_at`, audit `at`, volatile metadata).
    pub stable: bool,
}

impl ClaimGraph {
    /// Writes the document in `form` to `sink`, in pieces (no trailing newline).
    pub fn write_json(&self, form: Form, sink: &mut dyn FnMut(&str)) {
        let indent = |level: usize| form.pretty.then_some(level);
        let mut out = String::with_capacity(1 << 16);
        out.push('{');
        open_key(&mut out, indent(0), true, "claims");
        let order = self.topological_positions();
        if order.is_empty() {
            out.push_str("[]");
        } else {
            out.push('[');
            for (n, &i) in order.iter().enumerate() {
                if n > 0 {
                    out.push(',');
                    if !form.pretty {
                        out.push(' ');
                    }
                }
                if form.pretty {
                    newline(&mut out, 2);
                }
                write_claim(&mut out, &self.claims[i], indent(2), form.stable);
                if out.len() > 1 << 16 {
                    sink(&out);
                    out.clear();
                }
            }
            if form.pretty {
                newline(&mut out, 1);
            }
            out.push(']');
        }
        open_key(&mut out, indent(0), false, "kind");
        write_str(&mut out, DOCUMENT_KIND, false);
        open_key(&mut out, indent(0), false, "metadata");
        let mut metadata = self.metadata.clone();
        if form.stable {
            metadata = without(&metadata, &VOLATILE_METADATA);
        }
        write_object(&mut out, &metadata, indent(1), Style::SORTED_RAW);
        open_key(&mut out, indent(0), false, "schema_version");
        out.push_str(&SCHEMA_VERSION.to_string());
        open_key(&mut out, indent(0), false, "title");
        match &self.title {
            Some(t) => write_str(&mut out, t, false),
            None => out.push_str("null"),
        }
        if form.pretty {
            out.push('\n');
        }
        out.push('}');
        sink(&out);
    }

    /// The document as one string (see [`ClaimGraph::write_json`]).
    pub fn to_json(&self, form: Form) -> String {
        let mut text = String::new();
        self.write_json(form, &mut |piece| text.push_str(piece));
        text
    }

    /// SHA-256 (64 hex digits) of the compact stable form: the reference's `digest()`. It
    /// depends only on what the document holds: titles, metadata and claims.
    pub fn digest(&self) -> String {
        let mut hasher = Sha256::new();
        self.write_json(
            Form {
                pretty: false,
                stable: true,
            },
            &mut |piece| hasher.update(piece.as_bytes()),
        );
        hex::encode(hasher.finalize())
    }

    /// Saves the pretty document plus one newline, atomically (a temporary file renamed over
    /// `path`: on failure `path` is untouched).
    pub fn save(&self, path: &std::path::Path, stable: bool) -> crate::Result<()> {
        crate::manifest::write_atomic_with(path, &mut |w| {
            let mut result = Ok(());
            self.write_json(
                Form {
                    pretty: true,
                    stable,
                },
                &mut |piece| {
                    if result.is_ok() {
                        result = w.write_all(piece.as_bytes());
                    }
                },
            );
            result.and_then(|_| w.write_all(b"\n"))
        })
    }
}

fn open_key(out: &mut String, indent: Option<usize>, first: bool, key: &str) {
    if !first {
        out.push(',');
        if indent.is_none() {
            out.push(' ');
        }
    }
    if let Some(level) = indent {
        newline(out, level + 1);
    }
    write_str(out, key, false);
    out.push_str(": ");
}

fn without(object: &Object, keys: &[&str]) -> Object {
    let mut out = Object::new();
    for (k, v) in object.iter() {
        if !keys.contains(&k) {
            out.insert(k, v.clone());
        }
    }
    out
}

fn write_opt(out: &mut String, value: &Option<String>) {
    match value {
        Some(s) => write_str(out, s, false),
        None => out.push_str("null"),
    }
}

fn write_list(out: &mut String, items: &[String], indent: Option<usize>) {
    let values: Vec<Value> = items.iter().map(|s| Value::String(s.clone())).collect();
    write_value(out, &Value::Array(values), indent, Style::SORTED_RAW);
}

fn write_compact(out: &mut String, value: &Compact, indent: Option<usize>) {
    match indent {
        Some(level) => value.write_pretty(out, level),
        None => out.push_str(value.text()),
    }
}

/// The audit list; in the stable form every entry loses its volatile `at`.
fn write_audit(out: &mut String, audit: &[Compact], indent: Option<usize>, stable: bool) {
    write_array(out, audit.len(), indent, &mut |out, i, inner| {
        let entry = &audit[i];
        if stable && entry.text().contains("\"at\"") {
            let stripped = Compact::from_object(&without(&entry.object(), &["at"]));
            write_compact(out, &stripped, inner);
        } else {
            write_compact(out, entry, inner);
        }
    });
}

/// One claim object with its 20 keys in sorted order (`recorded_at` and audit `at` left out
/// when `stable`).
fn write_claim(out: &mut String, c: &Claim, indent: Option<usize>, stable: bool) {
    let inner = indent.map(|l| l + 1);
    out.push('{');
    for (n, key) in CLAIM_KEYS.iter().enumerate() {
        if stable && *key == "recorded_at" {
            continue;
        }
        open_key(out, indent, n == 0, key);
        match *key {
            "audit" => write_audit(out, &c.audit, inner, stable),
            "certificate" => write_opt(out, &c.certificate),
            "certificate_format" => write_opt(out, &c.certificate_format),
            "check" => match &c.check {
                Some(check) => write_compact(out, check, inner),
                None => out.push_str("null"),
            },
            "depends_on" => write_list(out, &c.depends_on, inner),
            "derivation" => write_value(
                out,
                &Value::Array(c.derivation.clone()),
                inner,
                Style::SORTED_RAW,
            ),
            "evidence" => write_str(out, &c.evidence, false),
            "hypotheses" => write_list(out, &c.hypotheses, inner),
            "id" => write_str(out, &c.id, false),
            "kind" => write_str(out, &c.kind, false),
            "label" => write_opt(out, &c.label),
            "latex" => write_opt(out, &c.latex),
            "method" => write_str(out, &c.method, false),
            "notes" => write_opt(out, &c.notes),
            "provenance" => write_compact(out, &c.provenance, inner),
            "recorded_at" => write_opt(out, &c.recorded_at),
            "statement" => write_str(out, &c.statement, false),
            "status" => write_str(out, &c.status, false),
            "tags" => write_list(out, &c.tags, inner),
            _ => write_compact(out, &c.verification, inner),
        }
    }
    if let Some(level) = indent {
        newline(out, level);
    }
    out.push('}');
}

/// A reader that reports the bytes it delivers.
struct Counted<'p, R> {
    inner: R,
    progress: &'p dyn crate::progress::Progress,
}

impl<R: std::io::Read> std::io::Read for Counted<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.progress.advance(n as u64);
        Ok(n)
    }
}

/// What a load found besides the graph: things it dropped and said so.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LoadNotes {
    /// Unknown keys that were dropped (`claims[3]: unknown key "colour" dropped`).
    pub warnings: Vec<String>,
}

/// Takes the fields out of one claim object (no copies), collecting problems with their
/// places.
struct Fields<'a> {
    object: Object,
    place: String,
    problems: &'a mut Vec<String>,
}

impl Fields<'_> {
    fn wrong(&mut self, key: &str, expected: &str, found: &Value) {
        self.problems.push(format!(
            "{}.{key}: expected {expected}, found {}",
            self.place,
            describe(found)
        ));
    }

    fn take(&mut self, key: &str) -> Option<Value> {
        self.object.remove(key)
    }

    fn string(&mut self, key: &str, default: Option<&str>) -> String {
        match self.take(key) {
            Some(Value::String(s)) => s,
            None | Some(Value::Null) if default.is_some() => default.unwrap_or_default().into(),
            None => {
                self.problems
                    .push(format!("{}: required key \"{key}\" is missing", self.place));
                String::new()
            }
            Some(v) => {
                self.wrong(key, "a string", &v);
                String::new()
            }
        }
    }

    fn optional(&mut self, key: &str) -> Option<String> {
        match self.take(key) {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s),
            Some(v) => {
                self.wrong(key, "a string or null", &v);
                None
            }
        }
    }

    fn strings(&mut self, key: &str) -> Vec<String> {
        match self.take(key) {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(items)) => {
                let mut out = Vec::with_capacity(items.len());
                for (i, item) in items.into_iter().enumerate() {
                    match item {
                        Value::String(s) => out.push(s),
                        v => self.wrong(&format!("{key}[{i}]"), "a string", &v),
                    }
                }
                out
            }
            Some(v) => {
                self.wrong(key, "a list of strings", &v);
                Vec::new()
            }
        }
    }

    fn object(&mut self, key: &str) -> Compact {
        match self.take(key) {
            None | Some(Value::Null) => Compact::empty(),
            Some(Value::Object(o)) => Compact::from_object(&o),
            Some(v) => {
                self.wrong(key, "an object", &v);
                Compact::empty()
            }
        }
    }

    fn values(&mut self, key: &str) -> Vec<Value> {
        match self.take(key) {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(items)) => items,
            Some(v) => {
                self.wrong(key, "a list", &v);
                Vec::new()
            }
        }
    }

    fn objects(&mut self, key: &str) -> Vec<Compact> {
        let mut out = Vec::new();
        match self.take(key) {
            None | Some(Value::Null) => {}
            Some(Value::Array(items)) => {
                for (i, item) in items.iter().enumerate() {
                    match item {
                        Value::Object(o) => out.push(Compact::from_object(o)),
                        v => self.wrong(&format!("{key}[{i}]"), "an object", v),
                    }
                }
            }
            Some(v) => self.wrong(key, "a list", &v),
        }
        out
    }

    fn check(&mut self) -> Option<Compact> {
        match self.take("check") {
            None | Some(Value::Null) => None,
            Some(Value::Object(o)) if o.is_empty() => None,
            Some(Value::Object(o)) => {
                if let Some(kind) = o.get("kind").filter(|k| k.as_str().is_none()) {
                    self.wrong("check.kind", "a string naming the recipe", kind);
                }
                Some(Compact::from_object(&o))
            }
            Some(v) => {
                self.wrong("check", "a recipe object or null", &v);
                None
            }
        }
    }
}

fn describe(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("{b}"),
        Value::Number(Number::Int(i)) => format!("the integer {i}"),
        Value::Number(Number::Float(f)) => format!("the number {}", crate::pyfmt::float_repr(*f)),
        Value::String(s) => format!("the string {}", crate::pyfmt::str_repr(s)),
        Value::Array(_) => "a list".into(),
        Value::Object(_) => "an object".into(),
    }
}

fn claim_from(
    value: Value,
    at: usize,
    problems: &mut Vec<String>,
    notes: &mut LoadNotes,
) -> Option<Claim> {
    let place = format!("claims[{at}]");
    let Value::Object(object) = value else {
        problems.push(format!(
            "{place}: expected a claim object, found {}",
            describe(&value)
        ));
        return None;
    };
    for (key, _) in object.iter() {
        if !CLAIM_KEYS.contains(&key) {
            notes.warnings.push(format!(
                "{place}: unknown key {} dropped",
                crate::pyfmt::str_repr(key)
            ));
        }
    }
    let before = problems.len();
    let mut f = Fields {
        object,
        place: place.clone(),
        problems,
    };
    let id = f.string("id", None);
    let check = f.check();
    let claim = Claim {
        statement: f.string("statement", None),
        kind: f.string("kind", Some("expr")),
        latex: f.optional("latex"),
        hypotheses: f.strings("hypotheses"),
        method: f.string("method", Some("")),
        status: f.string("status", Some(super::claim::UNVERIFIED)),
        evidence: f.string("evidence", Some("none")),
        verification: f.object("verification"),
        derivation: f.values("derivation"),
        certificate: f.optional("certificate"),
        certificate_format: f.optional("certificate_format"),
        depends_on: f.strings("depends_on"),
        check,
        provenance: f.object("provenance"),
        recorded_at: f.optional("recorded_at"),
        audit: f.objects("audit"),
        label: f.optional("label"),
        tags: f.strings("tags"),
        notes: f.optional("notes"),
        id,
    };
    if problems.len() > before {
        return None;
    }
    let content = claim.content_id();
    if content != claim.id {
        problems.push(format!(
            "{place}: id {} does not match its content (statement, hypotheses and method hash to {content}): the claim was edited or the ID forged",
            claim.id
        ));
        return None;
    }
    Some(claim)
}

impl ClaimGraph {
    /// Reads a document (spec §2.7), checking all of it.
    ///
    /// Refused: another `kind`, a `schema_version` newer than 1, and every problem in the
    /// claims, reported together (`Invalid`): values of the wrong type, a missing required
    /// key, a repeated ID, an ID that does not match its content, a dependency on a claim that
    /// is not in the document. A cycle is `Cycle`. Claims are placed in the reference's
    /// topological pass order, so a document in topological order keeps its order.
    pub fn from_json(text: &str) -> Result<(ClaimGraph, LoadNotes), GraphError> {
        Self::from_reader(text.as_bytes())
    }

    /// [`ClaimGraph::from_json`] from a stream: claims are read one at a time, so memory is the
    /// graph plus one claim's text, never the whole document.
    pub fn from_reader(reader: impl std::io::Read) -> Result<(ClaimGraph, LoadNotes), GraphError> {
        Self::from_reader_sized(reader, 0)
    }

    /// [`ClaimGraph::from_reader`] for a document of about `size` bytes: room for the claims is
    /// reserved up front from the size (a claim takes at least 300 bytes of document), so the
    /// claims are never moved while they are read. Reserved room that is never written is
    /// address space only, not memory.
    fn from_reader_sized(
        reader: impl std::io::Read,
        size: u64,
    ) -> Result<(ClaimGraph, LoadNotes), GraphError> {
        let mut problems = Vec::new();
        let mut notes = LoadNotes::default();
        let mut claims: Vec<Claim> = Vec::with_capacity(usize::try_from(size / 300).unwrap_or(0));
        let mut index = super::index::IdIndex::default();
        let mut first_at: Vec<usize> = Vec::new();
        let mut at = 0usize;
        let mut hook = |value: Value| -> Result<(), String> {
            if problems.len() > 1000 {
                return Ok(());
            }
            if let Some(claim) = claim_from(value, at, &mut problems, &mut notes) {
                if let Some(first) = index.get(&claim.id) {
                    problems.push(format!(
                        "claims[{at}]: id {} repeats claims[{}] (an ID must appear once)",
                        claim.id, first_at[first as usize]
                    ));
                } else {
                    index.insert(&claim.id, claims.len() as u32);
                    first_at.push(at);
                    claims.push(claim);
                }
            }
            at += 1;
            Ok(())
        };
        let document = crate::json::stream::parse_reader(reader, "claims", &mut hook)
            .map_err(|e| GraphError::Json(e.to_string()))?;
        drop(first_at);
        let Value::Object(top) = document else {
            return Err(GraphError::Invalid(vec![format!(
                "the document is {}, not a claim-graph object",
                describe(&document)
            )]));
        };
        match top.get("kind") {
            None => {}
            Some(Value::String(k)) if k == DOCUMENT_KIND => {}
            Some(Value::String(k)) => return Err(GraphError::NotAGraph(crate::pyfmt::str_repr(k))),
            Some(v) => return Err(GraphError::NotAGraph(describe(v))),
        }
        let version = match top.get("schema_version") {
            None | Some(Value::Null) => 0.into(),
            Some(Value::Number(Number::Int(i))) => i.clone(),
            Some(Value::Number(Number::Float(f))) if f.is_finite() => {
                num_bigint::BigInt::from(f.trunc() as i64)
            }
            Some(Value::String(s)) if s.trim().parse::<num_bigint::BigInt>().is_ok() => {
                s.trim().parse().unwrap_or_default()
            }
            Some(v) => {
                return Err(GraphError::Invalid(vec![format!(
                    "schema_version: expected an integer, found {}",
                    describe(v)
                )]));
            }
        };
        if version > SCHEMA_VERSION.into() {
            return Err(GraphError::NewerSchema(version.to_string()));
        }
        if !top.contains_key("claims") {
            problems.push("the document has no \"claims\" list".into());
        } else if !matches!(top.get("claims"), Some(Value::Array(_))) {
            problems.push(format!(
                "claims: expected a list, found {}",
                describe(top.get("claims").unwrap_or(&Value::Null))
            ));
        }
        let title = match top.get("title") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(v) => {
                problems.push(format!(
                    "title: expected a string or null, found {}",
                    describe(v)
                ));
                None
            }
        };
        let metadata = match top.get("metadata") {
            None | Some(Value::Null) => Object::new(),
            Some(Value::Object(o)) => o.clone(),
            Some(v) => {
                problems.push(format!(
                    "metadata: expected an object, found {}",
                    describe(v)
                ));
                Object::new()
            }
        };
        for (key, _) in top.iter() {
            if !["claims", "kind", "metadata", "schema_version", "title"].contains(&key) {
                notes.warnings.push(format!(
                    "unknown top-level key {} dropped",
                    crate::pyfmt::str_repr(key)
                ));
            }
        }
        let mut deps: Vec<Vec<u32>> = Vec::with_capacity(claims.len());
        for c in &claims {
            let mut d = Vec::with_capacity(c.depends_on.len());
            for dep in &c.depends_on {
                match index.get(dep) {
                    Some(p) if dep != &c.id => {
                        if !d.contains(&p) {
                            d.push(p)
                        }
                    }
                    Some(_) => {}
                    None => problems.push(format!(
                        "claim '{}' depends on '{dep}', which is not in this graph",
                        c.id
                    )),
                }
            }
            deps.push(d);
        }
        if !problems.is_empty() {
            if problems.len() > 1000 {
                problems.truncate(1000);
                problems.push("… more problems not listed".into());
            }
            return Err(GraphError::Invalid(problems));
        }
        let pass = match super::query::passes(&deps) {
            Ok(p) => p,
            Err(left) => {
                let mut ids: Vec<&str> = left.iter().map(|&i| claims[i].id.as_str()).collect();
                ids.sort_unstable();
                return Err(GraphError::Cycle(ids.join(", ")));
            }
        };
        let mut graph = ClaimGraph {
            title,
            metadata,
            ..ClaimGraph::default()
        };
        for c in &mut claims {
            // Self-references and repeats are dropped, as add() does.
            if c.depends_on.contains(&c.id)
                || c.depends_on.len() != deps[index.get(&c.id).unwrap_or(0) as usize].len()
            {
                let mut kept: Vec<String> = Vec::with_capacity(c.depends_on.len());
                for d in std::mem::take(&mut c.depends_on) {
                    if d != c.id && !kept.contains(&d) {
                        kept.push(d);
                    }
                }
                c.depends_on = kept;
            }
        }
        if pass.iter().all(|&p| p == 1) {
            // Already in topological order (every document we write is): no copy.
            graph.claims = claims;
            graph.index = index;
            graph.deps = deps;
            return Ok((graph, notes));
        }
        let mut order: Vec<usize> = (0..claims.len()).collect();
        order.sort_by_key(|&i| (pass[i], i));
        let mut slots: Vec<Option<Claim>> = claims.into_iter().map(Some).collect();
        graph.claims.reserve(slots.len());
        for i in order {
            let claim = slots[i].take().expect("each claim is placed once");
            let positions = claim
                .depends_on
                .iter()
                .map(|d| graph.index.get(d).expect("dependencies are placed first"))
                .collect();
            graph.index.insert(&claim.id, graph.claims.len() as u32);
            graph.claims.push(claim);
            graph.deps.push(positions);
        }
        Ok((graph, notes))
    }

    /// Reads a document from a file (see [`ClaimGraph::from_json`]); errors name the file.
    pub fn load(path: &std::path::Path) -> crate::Result<(ClaimGraph, LoadNotes)> {
        Self::load_with_progress(path, &crate::progress::NoProgress)
    }

    /// [`ClaimGraph::load`], telling `progress` how many bytes were read.
    pub fn load_with_progress(
        path: &std::path::Path,
        progress: &dyn crate::progress::Progress,
    ) -> crate::Result<(ClaimGraph, LoadNotes)> {
        let file = std::fs::File::open(path).map_err(|e| {
            crate::Error::Usage(format!(
                "cannot read claim graph {}: {}",
                path.display(),
                crate::error::strerror(&e)
            ))
        })?;
        let size = file.metadata().map(|m| m.len()).unwrap_or(0);
        progress.begin("reading claim graph", size, crate::progress::Unit::Bytes);
        let reader = Counted {
            inner: file,
            progress,
        };
        let result = ClaimGraph::from_reader_sized(reader, size).map_err(|e| {
            crate::Error::Manifest(format!("while reading claim graph {}: {e}", path.display()))
        });
        progress.finish();
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example(name: &str) -> String {
        std::fs::read_to_string(format!(
            "{}/tests/data/claim-graphs/{name}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
    }

    #[test]
    fn reference_documents_round_trip_byte_for_byte() {
        for (name, digest) in [
            (
                "example-a",
                "9bb64949ba3d69f7642ff5e0b9adfb12475d6b57e4e99925ae867e39d84901f8",
            ),
            (
                "example-b",
                "3646035ddbd123f8b09d237ccff965ae1aa5a8f8933d18dbcb890eeec558d90e",
            ),
        ] {
            let text = example(&format!("{name}.json"));
            let (graph, notes) = ClaimGraph::from_json(&text).unwrap();
            assert!(notes.warnings.is_empty(), "{notes:?}");
            assert_eq!(graph.digest(), digest, "{name}");
            let pretty = Form {
                pretty: true,
                stable: false,
            };
            assert_eq!(graph.to_json(pretty) + "\n", text, "{name}");
            let stable = Form {
                pretty: true,
                stable: true,
            };
            assert_eq!(
                graph.to_json(stable) + "\n",
                example(&format!("{name}.stable.json"))
            );
        }
    }

    #[test]
    fn digest_test_vectors() {
        assert_eq!(
            ClaimGraph::new(None).digest(),
            "5e6446c13cb86e7f9bed70d689f5fe1d88a7376a155034e1ac111928c97e6ace"
        );
        assert_eq!(
            ClaimGraph::new(None).to_json(Form {
                pretty: false,
                stable: false
            }),
            r#"{"claims": [], "kind": "alkahest.claim_graph", "metadata": {}, "schema_version": 1, "title": null}"#
        );
        let mut g = ClaimGraph::new(Some("T".into()));
        g.metadata.insert("started_at", "2026-11-30T00:00:00+00:00");
        g.metadata.insert("seed", 7i64);
        let mut a = Claim::new("clm_33f5df3fc90490cc".into(), "A".into());
        a.kind = "text".into();
        a.method = "conjecture".into();
        a.evidence = "e".into();
        a.verification = Object::new()
            .with("status", "unverified")
            .with("evidence", "e")
            .into();
        a.check = Some(
            Object::new()
                .with("kind", "numeric_relation")
                .with("constants", Value::Array(vec!["1".into(), "2".into()]))
                .with(
                    "coefficients",
                    Value::Array(vec![2i64.into(), (-1i64).into()]),
                )
                .with("tolerance", 1e-40)
                .into(),
        );
        g.add(a).unwrap();
        let mut b = Claim::new("clm_70d2d8761f5db56d".into(), "B = 1".into());
        b.kind = "text".into();
        b.hypotheses = vec!["(x > 0)".into()];
        b.method = "conjecture".into();
        b.evidence = "e2".into();
        b.depends_on = vec!["clm_33f5df3fc90490cc".into()];
        b.tags = vec!["t".into()];
        assert_eq!(b.content_id(), b.id);
        g.add(b).unwrap();
        assert_eq!(
            g.digest(),
            "5eedc31c10e6e9836cd0ac87fa6ed7bc893a8fbfe9e5f7f5e68abacfbcca2868"
        );
    }
}
