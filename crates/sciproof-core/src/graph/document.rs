//! The JSON document (spec §2): the reference's shape (`kind`, `schema_version` 1, keys sorted,
//! non-ASCII raw), its stable form and digest, and a loader that checks everything it reads.
//!
//! Reading is in [`super::load`]: duplicated IDs, IDs that do not match their content, values
//! of the wrong type and missing dependencies are reported (every one, with its place) instead
//! of being collapsed or crashing; unknown keys, which the reference drops silently, are dropped
//! with a warning. Claims are written in
//! [`ClaimGraph::topological_order`], so a document we write loads back in the same order in
//! both tools and its digest survives the round trip.

use super::claim::Claim;
use super::store::ClaimGraph;
use crate::json::{
    Compact, Object, Style, extend_array, newline, write_array, write_object, write_str,
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

/// Declares [`CLAIM_KEYS`], the places of its keys by name ([`key`]) and [`claim_key`] from one
/// list.
macro_rules! claim_keys {
    ($($name:ident = $key:literal),+ $(,)?) => {
        /// A claim's keys, in the order they are written (code-point order).
        pub(super) const CLAIM_KEYS: [&str; [$($key),+].len()] = [$($key),+];

        /// The place of each claim key in [`CLAIM_KEYS`], by name (`key::ID` is the place of
        /// `"id"`), for code that dispatches on a key's place.
        pub(super) mod key {
            $(pub(in super::super) const $name: usize = super::place_of(&super::CLAIM_KEYS, $key);)+
        }

        /// The place of `text` in [`CLAIM_KEYS`], or `None` for a key a claim does not have. A
        /// `match` compares a key only with the known keys of its length (a search of the list
        /// compared each of a claim's twenty keys with up to twenty); the places are worked
        /// out when compiling.
        pub(super) fn claim_key(text: &str) -> Option<usize> {
            match text {
                $($key => Some(key::$name),)+
                _ => None,
            }
        }
    };
}

claim_keys!(
    AUDIT = "audit",
    CERTIFICATE = "certificate",
    CERTIFICATE_FORMAT = "certificate_format",
    CHECK = "check",
    DEPENDS_ON = "depends_on",
    DERIVATION = "derivation",
    EVIDENCE = "evidence",
    HYPOTHESES = "hypotheses",
    ID = "id",
    KIND = "kind",
    LABEL = "label",
    LATEX = "latex",
    METHOD = "method",
    NOTES = "notes",
    PROVENANCE = "provenance",
    RECORDED_AT = "recorded_at",
    STATEMENT = "statement",
    STATUS = "status",
    TAGS = "tags",
    VERIFICATION = "verification",
);

/// The place of `key` in `keys` (a `const fn`, for [`claim_key`]; `==` on strings is not).
const fn place_of(keys: &[&str], key: &str) -> usize {
    let mut i = 0;
    while i < keys.len() {
        let (k, b) = (keys[i].as_bytes(), key.as_bytes());
        let mut j = 0;
        while j < k.len() && j < b.len() && k[j] == b[j] {
            j += 1;
        }
        if j == k.len() && j == b.len() {
            return i;
        }
        i += 1;
    }
    panic!("not a claim key")
}

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
        let mut out = String::with_capacity(1 << 16);
        write_head(&mut out, form);
        let order = self.topological_positions();
        if !order.is_empty() {
            sink(&out);
            out.clear();
            self.write_claims(&order, form, sink);
        }
        write_tail(
            &mut out,
            form,
            !order.is_empty(),
            &self.metadata,
            &self.title,
        );
        sink(&out);
    }

    /// Writes the claims at `order`, separated as in the document: pieces of claims are
    /// written on every core by a helper thread while this one hands the finished ones to
    /// `sink` in order (a million-claim document is 1.3 GB of text).
    fn write_claims(&self, order: &[usize], form: Form, sink: &mut dyn FnMut(&str)) {
        use rayon::prelude::*;
        /// Claims per piece, and pieces written at a time: a few megabytes in flight.
        const PIECE: usize = 256;
        const PIECES: usize = 16;
        let piece = |from: usize, positions: &[usize]| {
            let mut out = String::with_capacity(positions.len() * 1024);
            for (n, &i) in positions.iter().enumerate() {
                write_separator(&mut out, from + n == 0, form);
                write_claim(
                    &mut out,
                    &self.claims[i],
                    form.pretty.then_some(2),
                    form.stable,
                );
            }
            out
        };
        let (done, finished) = std::sync::mpsc::sync_channel::<Vec<String>>(2);
        std::thread::scope(|scope| {
            let writer = scope.spawn(move || {
                for (w, window) in order.chunks(PIECE * PIECES).enumerate() {
                    let pieces = window
                        .par_chunks(PIECE)
                        .enumerate()
                        .map(|(p, positions)| piece(w * PIECE * PIECES + p * PIECE, positions))
                        .collect();
                    if done.send(pieces).is_err() {
                        return;
                    }
                }
            });
            for pieces in finished {
                for p in pieces {
                    sink(&p);
                }
            }
            // Joined, so that the thread has exited (not only finished its work) on return.
            if let Err(panic) = writer.join() {
                std::panic::resume_unwind(panic);
            }
        });
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

/// The start of a document, up to its claims: `{"claims": `.
pub(super) fn write_head(out: &mut String, form: Form) {
    out.push('{');
    open_key(out, form.pretty.then_some(0), true, "claims");
}

/// What comes before a claim in the list: `[` before the first, else a comma, then the
/// claim's line break and indent in the pretty form.
pub(super) fn write_separator(out: &mut String, first: bool, form: Form) {
    out.push(if first { '[' } else { ',' });
    if form.pretty {
        newline(out, 2);
    } else if !first {
        out.push(' ');
    }
}

/// The end of a document after its claims (`claims`: whether any was written): the end of
/// the list, `kind`, `metadata` (without the volatile keys in the stable form),
/// `schema_version` and `title`.
pub(super) fn write_tail(
    out: &mut String,
    form: Form,
    claims: bool,
    metadata: &Object,
    title: &Option<String>,
) {
    let indent = |level: usize| form.pretty.then_some(level);
    if !claims {
        out.push_str("[]");
    } else {
        if form.pretty {
            newline(out, 1);
        }
        out.push(']');
    }
    open_key(out, indent(0), false, "kind");
    write_str(out, DOCUMENT_KIND, false);
    open_key(out, indent(0), false, "metadata");
    if form.stable {
        write_object(
            out,
            &without(metadata, &VOLATILE_METADATA),
            indent(1),
            Style::SORTED_RAW,
        );
    } else {
        write_object(out, metadata, indent(1), Style::SORTED_RAW);
    }
    open_key(out, indent(0), false, "schema_version");
    out.push_str(&SCHEMA_VERSION.to_string());
    open_key(out, indent(0), false, "title");
    write_opt(out, title.as_deref());
    if form.pretty {
        out.push('\n');
    }
    out.push('}');
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
    // (the document's own keys, none of which needs an escape: see the test
    // `keys_need_no_escapes`)
    out.push('"');
    out.push_str(key);
    out.push_str("\": ");
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

fn write_opt(out: &mut String, value: Option<&str>) {
    match value {
        Some(s) => write_str(out, s, false),
        None => out.push_str("null"),
    }
}

/// A list of strings, as `json.dumps(..., ensure_ascii=False)` writes it.
fn write_list(out: &mut String, items: &[impl AsRef<str>], indent: Option<usize>) {
    write_array(out, items.len(), indent, &mut |out, i, _| {
        write_str(out, items[i].as_ref(), false)
    });
}

fn write_compact(out: &mut String, value: &Compact, indent: Option<usize>) {
    match indent {
        Some(level) => value.write_pretty(out, level),
        None => out.push_str(value.text()),
    }
}

/// The audit list; in the stable form every entry loses its volatile `at`.
pub(super) fn write_audit(
    out: &mut String,
    audit: &[Compact],
    indent: Option<usize>,
    stable: bool,
) {
    write_array(out, audit.len(), indent, &mut |out, i, inner| {
        write_audit_entry(out, &audit[i], inner, stable)
    });
}

fn write_audit_entry(out: &mut String, entry: &Compact, indent: Option<usize>, stable: bool) {
    if stable && entry.text().contains("\"at\"") {
        let stripped = Compact::from_object(&without(&entry.object(), &["at"]));
        write_compact(out, &stripped, indent);
    } else {
        write_compact(out, entry, indent);
    }
}

/// What [`write_audit`] writes for `audit` at `level`, given `written`, the text it wrote for
/// the first `old` entries: those are copied instead of being parsed and written again (a claim
/// re-verified at every commit gains an entry each time, and its list would be written anew at
/// each re-verification).
pub(super) fn write_audit_after(
    out: &mut String,
    written: &str,
    audit: &[Compact],
    old: usize,
    level: usize,
    stable: bool,
) {
    let new = &audit[old..];
    if new.is_empty() {
        out.push_str(written);
        return;
    }
    let mut entry =
        |out: &mut String, i: usize, at: Option<usize>| write_audit_entry(out, &new[i], at, stable);
    // (an empty list, or text not laid out as written: the whole list written)
    if old == 0 || !extend_array(out, written, level, new.len(), &mut entry) {
        write_audit(out, audit, Some(level), stable);
    }
}

/// One claim object with its 20 keys in sorted order (`recorded_at` and audit `at` left out
/// when `stable`).
pub(super) fn write_claim(out: &mut String, c: &Claim, indent: Option<usize>, stable: bool) {
    let inner = indent.map(|l| l + 1);
    out.push('{');
    for (n, name) in CLAIM_KEYS.iter().enumerate() {
        if stable && n == key::RECORDED_AT {
            continue;
        }
        open_key(out, indent, n == 0, name);
        match n {
            key::AUDIT => write_audit(out, &c.audit, inner, stable),
            key::CERTIFICATE => write_opt(out, c.certificate.as_deref()),
            key::CERTIFICATE_FORMAT => write_opt(out, c.certificate_format.as_deref()),
            key::CHECK => match &c.check {
                Some(check) => write_compact(out, check, inner),
                None => out.push_str("null"),
            },
            key::DEPENDS_ON => write_list(out, &c.depends_on, inner),
            key::DERIVATION => write_array(out, c.derivation.len(), inner, &mut |out, i, at| {
                write_value(out, &c.derivation[i], at, Style::SORTED_RAW)
            }),
            key::EVIDENCE => write_str(out, &c.evidence, false),
            key::HYPOTHESES => write_list(out, &c.hypotheses, inner),
            key::ID => write_str(out, &c.id, false),
            key::KIND => write_str(out, &c.kind, false),
            key::LABEL => write_opt(out, c.label.as_deref()),
            key::LATEX => write_opt(out, c.latex.as_deref()),
            key::METHOD => write_str(out, &c.method, false),
            key::NOTES => write_opt(out, c.notes.as_deref()),
            key::PROVENANCE => write_compact(out, &c.provenance, inner),
            key::RECORDED_AT => write_opt(out, c.recorded_at.as_deref()),
            key::STATEMENT => write_str(out, &c.statement, false),
            key::STATUS => write_str(out, &c.status, false),
            key::TAGS => write_list(out, &c.tags, inner),
            key::VERIFICATION => write_compact(out, &c.verification, inner),
            _ => unreachable!("every claim key has its field"),
        }
    }
    if let Some(level) = indent {
        newline(out, level);
    }
    out.push('}');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::Value;

    #[test]
    fn every_claim_key_has_its_place_and_no_other_key_has_one() {
        for (at, key) in CLAIM_KEYS.iter().enumerate() {
            assert_eq!(claim_key(key), Some(at), "{key}");
        }
        for key in [
            "",
            "Audit",
            "audit ",
            "colour",
            "check.kind",
            "verification_",
            "i",
        ] {
            assert_eq!(claim_key(key), None, "{key}");
        }
    }

    #[test]
    fn keys_need_no_escapes() {
        let top = ["claims", "kind", "metadata", "schema_version", "title"];
        for key in CLAIM_KEYS.iter().chain(&top) {
            let mut escaped = String::new();
            write_str(&mut escaped, key, false);
            assert_eq!(escaped, format!("\"{key}\""));
        }
    }

    fn example(name: &str) -> String {
        std::fs::read_to_string(format!(
            "{}/../../tests/data/claim-graphs/{name}",
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
    fn many_claims_written_in_pieces_as_one_document() {
        // More claims than one window of pieces, with dependencies: the text must be exactly
        // what the generic writer makes of the same value, pretty and compact.
        let mut g = ClaimGraph::new(Some("pieces".into()));
        let mut ids: Vec<crate::graph::claim::ClaimId> = Vec::new();
        for i in 0..9000 {
            let mut c = Claim::new(String::new(), format!("claim {i}"));
            c.depends_on = ids.iter().rev().step_by(7).take(2).cloned().collect();
            c.id = c.content_id().into();
            ids.push(c.id.clone());
            g.add(c).unwrap();
        }
        for (pretty, write) in [
            (true, crate::json::to_string_pretty as fn(&Value) -> String),
            (false, crate::json::to_string_compact),
        ] {
            let text = g.to_json(Form {
                pretty,
                stable: false,
            });
            let again = write(&crate::json::parse(&text).unwrap());
            assert!(text == again, "pretty: {pretty}");
            let (back, _) = ClaimGraph::from_json(&text).unwrap();
            assert_eq!(back.claims().len(), 9000);
            assert_eq!(back.digest(), g.digest());
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
        b.hypotheses = ["(x > 0)".into()].into();
        b.method = "conjecture".into();
        b.evidence = "e2".into();
        b.depends_on = vec!["clm_33f5df3fc90490cc".into()];
        b.tags = ["t".into()].into();
        assert_eq!(b.content_id(), b.id);
        g.add(b).unwrap();
        assert_eq!(
            g.digest(),
            "5eedc31c10e6e9836cd0ac87fa6ed7bc893a8fbfe9e5f7f5e68abacfbcca2868"
        );
    }
}
