//! The digest of a document as it is read: each claim is read and written in the digest's
//! form on the reader's workers while the reader cuts the next ones, and the reading thread
//! hashes the texts in order, so the graph is never held in memory (a million claims would
//! take a gigabyte, and on a virtual machine the first touch of that memory alone costs a
//! second).
//!
//! This gives exactly [`crate::graph::ClaimGraph::digest`] of the loaded graph, because a
//! document whose dependencies all point to earlier claims is written in its own order (see
//! [`crate::graph::ClaimGraph::topological_positions`]) and each claim's text depends on the
//! claim alone, read and tidied as loading reads and tidies it. A document with a dependency
//! on a later (or missing) claim is not in that order: reading stops there and the caller
//! loads it whole ([`digest_file`] gives `None`). A document the loader refuses is refused
//! with the loader's own error.

use crate::graph::claim_text::claim_read_text;
use crate::graph::document::{Form, write_claim, write_head, write_separator, write_tail};
use crate::graph::error::GraphFileError;
use crate::graph::load::{
    ClaimRead, LoadNotes, claim_read, invalid, open_document, read_document, tidy_dependencies,
    untidy,
};
use sha2::{Digest, Sha256};
use std::path::Path;

/// The form the digest hashes: compact and stable.
const FORM: Form = Form {
    pretty: false,
    stable: true,
};

/// The digest of the graph document at `path` with what reading it dropped, read as a
/// stream (see the module documentation), or `None` when the document is not in the order
/// its graph is written in and must be loaded whole.
pub fn digest_file(
    path: &Path,
    progress: &dyn crate::progress::Progress,
) -> crate::Result<Option<(String, LoadNotes)>> {
    let (reader, size) = open_document(path, "reading claim graph", progress, false)?;
    let mut hasher = Sha256::new();
    let mut text = String::new();
    write_head(&mut text, FORM);
    hasher.update(text.as_bytes());
    let mut written = 0usize;
    let mut not_in_order = false;
    let read = read_document(
        reader,
        size,
        &|value, at| written_claim(claim_read(value, at, false)),
        &|text, _| claim_read_text(text, false).map(written_claim),
        &mut |_, claim_text, resolved| {
            if resolved.is_none() {
                not_in_order = true;
                return Err("a claim depends on a later one".to_string());
            }
            text.clear();
            write_separator(&mut text, written == 0, FORM);
            hasher.update(text.as_bytes());
            hasher.update(claim_text.as_bytes());
            written += 1;
            Ok(())
        },
    );
    progress.finish();
    if not_in_order {
        return Ok(None);
    }
    let invalid_file = |source| GraphFileError::Invalid {
        path: path.to_path_buf(),
        source,
    };
    let read = read.map_err(invalid_file)?;
    if !read.problems.is_empty() {
        return Err(invalid_file(invalid(read.problems)).into());
    }
    text.clear();
    write_tail(&mut text, FORM, written > 0, &read.metadata, &read.title);
    hasher.update(text.as_bytes());
    Ok(Some((hex::encode(hasher.finalize()), read.notes)))
}

/// Takes a claim as read on a worker and writes it in the digest's form; the reading thread
/// gets only its ID and dependencies (the rest is freed here).
fn written_claim(mut read: ClaimRead) -> (ClaimRead, String) {
    let Some(claim) = read.claim.as_mut() else {
        return (read, String::new());
    };
    if untidy(claim) {
        tidy_dependencies(claim);
    }
    let mut text = String::with_capacity(1024);
    write_claim(&mut text, claim, None, FORM.stable);
    read.claim = Some(claim.take_links());
    (read, text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::ClaimGraph;
    use crate::graph::record::Record;
    use crate::json::{Object, Value};

    /// A pretty document of `n` claims of every sort (recipes or none, tags, hypotheses,
    /// notes), each depending on up to two earlier claims, with a title and metadata holding
    /// a volatile key.
    fn document(n: usize) -> String {
        let mut g = ClaimGraph::new(Some("streamed digest".into()));
        g.metadata.insert("generator", "test");
        g.metadata.insert("created_at", "2026-12-02T00:00:00+00:00");
        let mut ids: Vec<String> = Vec::new();
        for i in 0..n {
            let check = (i % 3 == 0).then(|| {
                Object::new()
                    .with("kind", "identity")
                    .with("lhs", "(x+1)^2")
                    .with("rhs", "x^2+2*x+1")
            });
            let id = g
                .record(Record {
                    statement: format!("claim {i} \u{e9}\"\n"),
                    check,
                    hypotheses: if i % 5 == 0 {
                        vec![format!("x > {i}")]
                    } else {
                        Vec::new()
                    },
                    depends_on: ids.iter().rev().step_by(3).take(2).cloned().collect(),
                    tags: vec![format!("t{}", i % 4)],
                    notes: (i % 7 == 0).then(|| format!("note {i}")),
                    label: (i % 2 == 0).then(|| format!("L{i}")),
                    recorded_at: Some(format!("2026-12-02T00:00:{:02}+00:00", i % 60)),
                    ..Record::default()
                })
                .unwrap()
                .id
                .to_string();
            ids.push(id);
        }
        g.to_json(Form {
            pretty: true,
            stable: false,
        })
    }

    /// A digest with what reading dropped.
    type Digested = (String, LoadNotes);

    /// The digest of `text` both ways (streamed, and loaded whole) from files of the same
    /// name, so that errors, which name the file, compare.
    fn both_ways(
        dir: &Path,
        text: &str,
    ) -> (crate::Result<Option<Digested>>, crate::Result<Digested>) {
        let path = dir.join("g.json");
        std::fs::write(&path, text).unwrap();
        let s = digest_file(&path, &crate::progress::NoProgress);
        let w = ClaimGraph::load(&path).map(|(g, notes)| (g.digest(), notes));
        (s, w)
    }

    #[test]
    fn streamed_equals_the_loaded_graphs_digest() {
        let dir = tempfile::tempdir().unwrap();
        // Small documents are read on this thread, large ones (over a megabyte) on workers.
        for n in [0, 1, 30, 6000] {
            let mut text = document(n);
            if n == 6000 {
                assert!(text.len() > 1 << 20, "{}", text.len());
            }
            if n >= 30 {
                text = crate::graph::testing::with_untidy_claim(&text);
            }
            let (s, w) = both_ways(dir.path(), &text);
            let (digest, notes) = s.unwrap().expect("streamed");
            let (w_digest, w_notes) = w.unwrap();
            assert_eq!(digest, w_digest, "{n} claims");
            assert_eq!(notes, w_notes, "{n} claims");
            if n >= 30 {
                assert_eq!(notes.warnings.len(), 1, "{:?}", notes.warnings);
            }
        }
    }

    #[test]
    fn a_document_out_of_order_is_left_to_the_loader() {
        let dir = tempfile::tempdir().unwrap();
        let text = document(3000);
        let mut g = crate::json::parse(&text).unwrap();
        if let Value::Object(top) = &mut g
            && let Some(Value::Array(mut claims)) = top.remove("claims")
        {
            claims.reverse();
            top.insert("claims", Value::Array(claims));
        }
        let (s, w) = both_ways(dir.path(), &crate::json::to_string_pretty(&g));
        assert!(s.unwrap().is_none());
        // (the loader puts it in order: the digest of the document as it was)
        assert_eq!(
            w.unwrap().0,
            ClaimGraph::from_json(&text).unwrap().0.digest()
        );
    }

    #[test]
    fn a_document_the_loader_refuses_is_refused_with_its_error() {
        let dir = tempfile::tempdir().unwrap();
        let text = document(3000);
        let g = ClaimGraph::from_json(&text).unwrap().0;
        let late = g.claims()[2900].id.to_string();
        let first = text.find("\n    {").unwrap();
        let end = first + text[first..].find("\n    }").unwrap() + 6;
        for bad in [
            text.replacen("\"claim 2950 ", "\"claim 2950 edited ", 1),
            text.replacen(&format!("\"id\": \"{late}\""), "\"id\": 7", 1),
            text.replacen("\n  ],", &format!(",{}\n  ],", &text[first..end]), 1),
            text[..text.len() - 40].to_string(),
            text.replacen("\"alkahest.claim_graph\"", "\"other\"", 1),
        ] {
            assert!(bad != text);
            let (s, w) = both_ways(dir.path(), &bad);
            let w = w.unwrap_err().to_string();
            match s {
                Err(s) => assert_eq!(s.to_string(), w),
                Ok(s) => assert!(s.is_none(), "{s:?}"),
            }
        }
    }
}
