//! Reading a claim-graph document (spec §2.7): streamed, checked in full, every problem listed
//! with its place.

use super::claim::Claim;
use super::document::{CLAIM_KEYS, DOCUMENT_KIND, SCHEMA_VERSION, claim_key};
use super::error::GraphError;
use super::error::GraphFileError;
use super::store::{ClaimGraph, Positions};
use crate::json::{Compact, Number, Object, Value};

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

/// Where a claim is in the document (`claims[3]`), written only when a problem names it: a
/// million sound claims need no million strings.
#[derive(Debug, Clone, Copy)]
struct Place(usize);

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "claims[{}]", self.0)
    }
}

/// Takes the fields out of one claim object (no copies), collecting problems with their
/// places.
struct Fields<'a> {
    /// The claim's values, each at its key's place in [`CLAIM_KEYS`].
    slots: [Option<Value>; CLAIM_KEYS.len()],
    place: Place,
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
        self.slots[claim_key(key).expect("the loader takes claim keys only")].take()
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

    fn optional(&mut self, key: &str) -> Option<Box<str>> {
        match self.take(key) {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.into()),
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

    /// The recipe; with `kept`, the object itself is put there too when it is what its
    /// canonical text parses back to.
    fn check(&mut self, kept: Option<&mut Option<Object>>) -> Option<Compact> {
        match self.take("check") {
            None | Some(Value::Null) => None,
            Some(Value::Object(o)) if o.is_empty() => None,
            Some(Value::Object(o)) => {
                if let Some(kind) = o.get("kind").filter(|k| k.as_str().is_none()) {
                    self.wrong("check.kind", "a string naming the recipe", kind);
                }
                let compact = Compact::from_object(&o);
                if let Some(kept) = kept
                    && o.is_sorted_deep()
                {
                    *kept = Some(o);
                }
                Some(compact)
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

/// One claim of a document as read: the claim when it is sound, and what was wrong or dropped.
#[derive(Default)]
pub(super) struct ClaimRead {
    pub claim: Option<Claim>,
    pub problems: Vec<String>,
    pub warnings: Vec<String>,
    /// The claim's recipe as read, when asked for ([`claim_read`]'s `keep_check`) and when it
    /// is the very object its canonical text parses back to (its keys sorted all the way
    /// down, as in every saved graph): a re-check then need not parse that text again.
    pub check: Option<Object>,
    /// Where the claim's text is exactly what saving it writes, when it is and it was read from
    /// its text ([`super::claim_text`]).
    pub saved: Option<super::claim_text::Saved>,
}

/// Reads `claims[at]` (run on the reader's worker threads: it needs nothing but the value);
/// with `keep_check`, keeps the recipe object too ([`ClaimRead::check`]).
pub(super) fn claim_read(value: Value, at: usize, keep_check: bool) -> ClaimRead {
    let mut read = ClaimRead::default();
    let mut check = None;
    read.claim = claim_from(
        value,
        at,
        &mut read.problems,
        &mut read.warnings,
        keep_check.then_some(&mut check),
    );
    if read.claim.is_some() {
        read.check = check;
    }
    read
}

fn claim_from(
    value: Value,
    at: usize,
    problems: &mut Vec<String>,
    warnings: &mut Vec<String>,
    kept_check: Option<&mut Option<Object>>,
) -> Option<Claim> {
    let place = Place(at);
    let Value::Object(object) = value else {
        problems.push(format!(
            "{place}: expected a claim object, found {}",
            describe(&value)
        ));
        return None;
    };
    // The values sorted into their fields in one pass (the parser has refused repeated keys).
    let mut slots: [Option<Value>; CLAIM_KEYS.len()] = Default::default();
    for (key, value) in object.into_entries() {
        match claim_key(&key) {
            Some(at) => slots[at] = Some(value),
            None => warnings.push(format!(
                "{place}: unknown key {} dropped",
                crate::pyfmt::str_repr(&key)
            )),
        }
    }
    let before = problems.len();
    let mut f = Fields {
        slots,
        place,
        problems,
    };
    let id = f.string("id", None);
    let check = f.check(kept_check);
    let claim = Claim {
        statement: f.string("statement", None).into(),
        kind: f.string("kind", Some("expr")).into(),
        latex: f.optional("latex"),
        hypotheses: f.strings("hypotheses").into(),
        method: f.string("method", Some("")).into(),
        status: f.string("status", Some(super::claim::UNVERIFIED)).into(),
        evidence: f.string("evidence", Some("none")).into(),
        verification: f.object("verification"),
        derivation: f.values("derivation").into(),
        certificate: f.optional("certificate"),
        certificate_format: f.optional("certificate_format"),
        depends_on: f
            .strings("depends_on")
            .into_iter()
            .map(Into::into)
            .collect(),
        check,
        provenance: f.object("provenance"),
        recorded_at: f.optional("recorded_at"),
        audit: f.objects("audit"),
        label: f.optional("label"),
        tags: f.strings("tags").into(),
        notes: f.optional("notes"),
        id: id.into(),
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

/// The positions of `claim`'s dependencies in `index` (itself and repeats left out), or the
/// ones `index` does not hold.
fn resolve<'c>(claim: &'c Claim, index: &super::index::IdIndex) -> Result<Positions, Vec<&'c str>> {
    let mut d = Positions::with_capacity(claim.depends_on.len());
    let mut missing = Vec::new();
    for dep in &claim.depends_on {
        match index.get(dep) {
            Some(p) if dep != &claim.id => {
                if !d.contains(&p) {
                    d.push(p)
                }
            }
            Some(_) => {}
            None => missing.push(dep.as_str()),
        }
    }
    if missing.is_empty() {
        Ok(d)
    } else {
        Err(missing)
    }
}

/// Whether `claim`'s dependencies name itself or repeat one ([`tidy_dependencies`] drops those).
pub(super) fn untidy(claim: &Claim) -> bool {
    let deps = &claim.depends_on;
    deps.iter()
        .enumerate()
        .any(|(i, d)| *d == claim.id || deps[..i].contains(d))
}

/// Drops self-references and repeats from `claim`'s dependencies, as `add()` does.
pub(super) fn tidy_dependencies(claim: &mut Claim) {
    let mut kept: Vec<super::claim::ClaimId> = Vec::with_capacity(claim.depends_on.len());
    for d in std::mem::take(&mut claim.depends_on) {
        if d != claim.id && !kept.contains(&d) {
            kept.push(d);
        }
    }
    claim.depends_on = kept;
}

/// The problems of a document as one error (the first thousand).
pub(super) fn invalid(mut problems: Vec<String>) -> GraphError {
    if problems.len() > 1000 {
        problems.truncate(1000);
        problems.push("… more problems not listed".into());
    }
    GraphError::Invalid(problems)
}

/// What [`read_document`] found besides the claims it handed on.
pub(super) struct DocumentRead {
    pub title: Option<String>,
    pub metadata: Object,
    pub notes: LoadNotes,
    /// Every problem found in the claims and the document's own fields, in document order
    /// (dependencies on claims not read yet are not checked: see [`read_document`]).
    pub problems: Vec<String>,
    /// The position of every claim handed on, by ID.
    pub index: super::index::IdIndex,
}

/// Reads a document (spec §2.7) as a stream: each claim is read by `map` on the reader's
/// workers (with [`claim_read`] and whatever else the caller wants done there, `P`; or by
/// `quick` from its text, with [`super::claim_text::claim_read_text`], when that reads it), and every
/// sound claim with a new ID is handed to `on_claim` in document order with the positions of
/// its dependencies, or `None` when one of them is not read yet (it may come later, or be
/// missing: the caller decides). The n-th claim handed on is at position n. An error from
/// `on_claim` stops the reading (as a JSON error carrying its text).
///
/// Refused here: JSON that does not parse, another `kind`, an unreadable or newer
/// `schema_version`; every other problem is listed in [`DocumentRead::problems`].
pub(super) fn read_document<P: Send>(
    reader: impl std::io::Read,
    size: u64,
    map: &(dyn Fn(Value, usize) -> (ClaimRead, P) + Sync),
    quick: &crate::json::stream::Quick<'_, (ClaimRead, P)>,
    on_claim: &mut dyn FnMut(Claim, P, Option<Positions>) -> Result<(), String>,
) -> Result<DocumentRead, GraphError> {
    let mut problems = Vec::new();
    let mut notes = LoadNotes::default();
    let mut index = super::index::IdIndex::default();
    let mut first_at: Vec<usize> = Vec::new();
    // Dependencies are resolved as claims arrive (while the reader's workers read the next
    // ones).
    let mut at = 0usize;
    let mut hook = |(read, payload): (ClaimRead, P)| -> Result<(), String> {
        if problems.len() > 1000 {
            return Ok(());
        }
        problems.extend(read.problems);
        notes.warnings.extend(read.warnings);
        let here = at;
        at += 1;
        let Some(claim) = read.claim else {
            return Ok(());
        };
        // (the slots of the claim and of its dependencies fetched together: in a large index
        // each lookup would otherwise wait for memory in turn)
        index.prefetch(&claim.id);
        for dep in &claim.depends_on {
            index.prefetch(dep);
        }
        match index.insert_new(&claim.id, first_at.len() as u32) {
            Err(first) => {
                problems.push(format!(
                    "claims[{here}]: id {} repeats claims[{}] (an ID must appear once)",
                    claim.id, first_at[first as usize]
                ));
                Ok(())
            }
            Ok(()) => {
                first_at.push(here);
                let resolved = resolve(&claim, &index).ok();
                on_claim(claim, payload, resolved)
            }
        }
    };
    let document =
        crate::json::stream::parse_reader_mapped(reader, "claims", size, map, quick, &mut hook)
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
    // `int(schema_version)` as alkahest computes it: a missing version is 0, a bool is
    // 0 or 1, a float is truncated, a string is read by Python's `int()`; null, a list,
    // an object, an unreadable string or a non-finite float are refused, as alkahest
    // refuses them (it raises TypeError, ValueError or OverflowError).
    let version = match top.get("schema_version") {
        None => 0.into(),
        Some(Value::Bool(b)) => u8::from(*b).into(),
        Some(Value::Number(Number::Int(i))) => i.clone(),
        Some(Value::Number(Number::Float(f))) if f.is_finite() => {
            num_bigint::BigInt::from(f.trunc() as i64)
        }
        Some(Value::String(s)) if crate::pyfmt::parse_py_int(s).is_some() => {
            crate::pyfmt::parse_py_int(s).unwrap_or_default()
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
    Ok(DocumentRead {
        title,
        metadata,
        notes,
        problems,
        index,
    })
}

/// How many claims a document of `size` bytes can hold at most, for reserving room up front:
/// every claim sciproof or alkahest writes takes at least 300 bytes (an estimate past a
/// hand-made document of smaller claims only costs a move as the room grows). Reserved room that
/// is never written is address space only, not memory.
pub(super) fn claims_at_most(size: u64) -> usize {
    usize::try_from(size / 300).unwrap_or(0)
}

/// Opens the claim-graph document at `path` for reading (a regular file within the size
/// limit), its progress (`what` is being done, by bytes read) begun: the reader and the
/// document's size. `replaced` when the reading is to write the document's replacement: its
/// cached pages are then freed as they are read ([`crate::commit::evicting`]).
pub(super) fn open_document<'p>(
    path: &std::path::Path,
    what: &str,
    progress: &'p dyn crate::progress::Progress,
    replaced: bool,
) -> crate::Result<(impl std::io::Read + 'p, u64)> {
    use crate::untrusted::{Bounded, Kind, Links, Problem};
    let (file, meta) =
        crate::untrusted::open(path, Kind::ClaimGraph, Links::Follow).map_err(|e| {
            match e.problem {
                Problem::Io(reason) => GraphFileError::Unreadable(format!(
                    "cannot read claim graph {}: {reason}",
                    path.display()
                )),
                _ => GraphFileError::Unreadable(e.to_string()),
            }
        })?;
    let size = meta.len();
    if size > Kind::ClaimGraph.limit() {
        return Err(GraphFileError::TooLarge {
            path: path.to_path_buf(),
            limit: Kind::ClaimGraph.limit(),
        }
        .into());
    }
    progress.begin(what, size, crate::progress::Unit::Bytes);
    let reader = Counted {
        inner: Bounded::new(
            crate::commit::evicting::Evicting::new(file, replaced),
            Kind::ClaimGraph,
        ),
        progress,
    };
    Ok((reader, size))
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
    /// reserved up front ([`claims_at_most`]), so the claims are never moved while they are read.
    fn from_reader_sized(
        reader: impl std::io::Read,
        size: u64,
    ) -> Result<(ClaimGraph, LoadNotes), GraphError> {
        let mut claims: Vec<Claim> = Vec::with_capacity(claims_at_most(size));
        let mut deps: Vec<Positions> = Vec::with_capacity(claims.capacity());
        let mut unresolved: Vec<usize> = Vec::new();
        let read = read_document(
            reader,
            size,
            &|value, at| (claim_read(value, at, false), ()),
            &|text, _| super::claim_text::claim_read_text(text, false).map(|read| (read, ())),
            &mut |claim, (), resolved| {
                match resolved {
                    Some(d) => deps.push(d),
                    None => {
                        unresolved.push(claims.len());
                        deps.push(Positions::new());
                    }
                }
                claims.push(claim);
                Ok(())
            },
        )?;
        let DocumentRead {
            title,
            metadata,
            notes,
            mut problems,
            index,
        } = read;
        for &i in &unresolved {
            match resolve(&claims[i], &index) {
                Ok(d) => deps[i] = d,
                Err(missing) => problems.extend(missing.into_iter().map(|dep| {
                    format!(
                        "claim '{}' depends on '{dep}', which is not in this graph",
                        claims[i].id
                    )
                })),
            }
        }
        if !problems.is_empty() {
            return Err(invalid(problems));
        }
        // Every dependency resolved on arrival points to an earlier claim: then the document is
        // in topological order and every claim is in the first pass.
        let pass = if unresolved.is_empty() {
            None
        } else {
            match super::query::passes(&deps) {
                Ok(p) => Some(p).filter(|p| p.iter().any(|&p| p != 1)),
                Err(left) => {
                    let mut ids: Vec<&str> = left.iter().map(|&i| claims[i].id.as_str()).collect();
                    ids.sort_unstable();
                    return Err(GraphError::Cycle(ids.join(", ")));
                }
            }
        };
        let mut graph = ClaimGraph {
            title,
            metadata,
            ..ClaimGraph::default()
        };
        // (claims[i] is at position i of the index and of deps)
        for (c, d) in claims.iter_mut().zip(&deps) {
            if c.depends_on.len() != d.len() {
                tidy_dependencies(c);
            }
        }
        let Some(pass) = pass else {
            // Already in topological order (every document we write is): no copy.
            graph.claims = claims;
            graph.index = index;
            graph.deps = deps;
            return Ok((graph, notes));
        };
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
        let (reader, size) = open_document(path, "reading claim graph", progress, false)?;
        let result = ClaimGraph::from_reader_sized(reader, size).map_err(|source| {
            GraphFileError::Invalid {
                path: path.to_path_buf(),
                source,
            }
            .into()
        });
        progress.finish();
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::graph::document::Form;

    /// The claims of a document of `n` claims, claim `i` depending on claim `i - 1`.
    fn chain(n: usize) -> (Vec<String>, Vec<Value>) {
        let mut g = ClaimGraph::new(None);
        let mut ids: Vec<String> = Vec::new();
        for i in 0..n {
            let mut c = Claim::new(String::new(), format!("claim {i}"));
            c.depends_on = ids.last().map(Into::into).into_iter().collect();
            c.id = c.content_id().into();
            ids.push(c.id.to_string());
            g.add(c).unwrap();
        }
        let form = Form {
            pretty: false,
            stable: false,
        };
        let Ok(Value::Object(mut top)) = crate::json::parse(&g.to_json(form)) else {
            panic!()
        };
        let Some(Value::Array(claims)) = top.remove("claims") else {
            panic!()
        };
        (ids, claims)
    }

    fn set_deps(claim: &mut Value, deps: &[&str]) {
        let Value::Object(o) = claim else { panic!() };
        o.insert(
            "depends_on",
            Value::Array(deps.iter().map(|d| (*d).into()).collect()),
        );
    }

    /// Loads the document of `claims` both ways (on this thread, and on worker threads as a
    /// large document is), which must agree.
    fn load(claims: &[Value]) -> Result<ClaimGraph, GraphError> {
        let doc = Object::new()
            .with("claims", Value::Array(claims.to_vec()))
            .with("kind", DOCUMENT_KIND);
        let text = crate::json::to_string_pretty(&doc.into());
        let alone = ClaimGraph::from_json(&text).map(|(g, _)| g);
        let workers =
            ClaimGraph::from_reader_sized(text.as_bytes(), crate::json::stream::PARALLEL_FROM)
                .map(|(g, _)| g);
        match (&alone, &workers) {
            (Ok(a), Ok(b)) => assert_eq!(a.digest(), b.digest()),
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
            _ => panic!("the two readers disagree: {alone:?} / {workers:?}"),
        }
        alone
    }

    #[test]
    fn dependencies_named_before_or_after_their_claims() {
        let (ids, mut doc) = chain(300);
        // In order: kept as written.
        let g = load(&doc).unwrap();
        let order: Vec<&str> = g.claims().iter().map(|c| c.id.as_str()).collect();
        assert_eq!(order, ids);
        // Reversed: every dependency is named before its claim; placed in pass order again.
        doc.reverse();
        let g = load(&doc).unwrap();
        let order: Vec<&str> = g.claims().iter().map(|c| c.id.as_str()).collect();
        assert_eq!(order, ids);
        assert_eq!(g.deps[299].as_slice(), [298]);
        // A self-reference and a repeat are dropped, in a claim read before its dependency.
        let last = ids[299].clone();
        set_deps(&mut doc[0], &[&last, &ids[298], &ids[298]]);
        let g = load(&doc).unwrap();
        assert_eq!(g.get(&last).unwrap().depends_on, vec![ids[298].clone()]);
        // Missing dependencies are listed in claim order, after the claims' own problems (a
        // claim with a problem is not in the graph, so the one depending on it names it too).
        set_deps(&mut doc[0], &["clm_0000000000000001"]);
        set_deps(&mut doc[5], &["clm_0000000000000002"]);
        let Value::Object(o) = &mut doc[7] else {
            panic!()
        };
        o.insert("tags", 3i64);
        let Err(GraphError::Invalid(problems)) = load(&doc) else {
            panic!()
        };
        assert_eq!(problems.len(), 4, "{problems:?}");
        assert!(problems[0].starts_with("claims[7].tags"), "{problems:?}");
        assert!(problems[1].contains(&format!("'{last}' depends on 'clm_0000000000000001'")));
        assert!(problems[2].contains("depends on 'clm_0000000000000002'"));
        assert!(problems[3].contains(&format!("depends on '{}'", ids[292])));
        // A cycle through a claim read before its dependency.
        let (ids, mut doc) = chain(5);
        set_deps(&mut doc[1], &[&ids[0], &ids[3]]);
        let Err(GraphError::Cycle(cycle)) = load(&doc) else {
            panic!()
        };
        assert_eq!(cycle.split(", ").count(), 4, "{cycle}");
    }
}
