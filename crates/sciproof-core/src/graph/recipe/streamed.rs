//! Re-verification of a document as it is read: each claim is read, re-checked and written
//! into the new document on the reader's workers while the reader cuts the next ones, so the
//! graph is never held in memory (a million claims would take over a gigabyte) and no pass
//! waits for another.
//!
//! This gives exactly what loading, [`crate::graph::ClaimGraph::verify_each`] and saving give, because a
//! document whose dependencies all point to earlier claims is written back in its own order
//! (see [`crate::graph::ClaimGraph::topological_positions`]) and each claim's re-check, audit entry and text
//! depend on the claim alone. The recipes that share the pass's context (`sciproof_claim`,
//! `sciproof_manifest`) run on the reading thread in claim order, as in `verify_each`. The new
//! document goes to a temporary file that replaces the graph only once the whole document has
//! been read and found sound; the outcomes are handed on only then, so a document refused
//! halfway shows nothing and changes nothing. A document with a dependency on a later claim
//! is not in the order it would be written in: reading stops there ([`Streamed::NotInOrder`])
//! and the caller loads it whole.

use super::{
    Context, Decided, RecheckOutcome, RecheckSummary, VerifyOptions, apply, decide, decide_check,
};
use crate::graph::claim::Claim;
use crate::graph::claim_text::{Saved, claim_read_text};
use crate::graph::document::{
    Form, write_audit_after, write_claim, write_head, write_separator, write_tail,
};
use crate::graph::error::GraphFileError;
use crate::graph::load::{
    ClaimRead, LoadNotes, claim_read, claims_at_most, invalid, open_document, read_document,
    tidy_dependencies, untidy,
};
use crate::graph::store::Positions;
use std::path::Path;

/// What [`verify_file`] did.
#[derive(Debug)]
pub enum Streamed {
    /// The graph was re-verified and saved.
    Done {
        /// The counts per outcome.
        summary: RecheckSummary,
        /// Every outcome, in claim order.
        outcomes: Vec<RecheckOutcome>,
        /// What the reading dropped.
        notes: LoadNotes,
        /// The document that was replaced, still open: its cached pages are freed when it is
        /// closed, which takes a while for a large document (a fifth of a second for a
        /// gigabyte), so the caller chooses when (and on which thread) to close it.
        replaced: Option<std::fs::File>,
    },
    /// Nothing was changed: a claim depends on a later one, so the document must be loaded
    /// whole to be put in order.
    NotInOrder,
}

/// A claim as a worker leaves it.
enum Verified {
    /// Re-checked and written (the claim handed on keeps only its ID and dependencies).
    Written {
        text: String,
        outcome: RecheckOutcome,
    },
    /// Its recipe shares the pass's context: it is re-checked on the reading thread.
    Pending,
    /// Not a sound claim (its problems are in the read).
    Unread,
}

/// The pretty form every saved graph has.
const FORM: Form = Form {
    pretty: true,
    stable: false,
};

/// Re-verifies the graph document at `path` as it is read and saves it (see the module
/// documentation). The caller holds the graph's lock.
pub fn verify_file(
    path: &Path,
    options: &VerifyOptions,
    progress: &dyn crate::progress::Progress,
) -> crate::Result<Streamed> {
    let (reader, size) = open_document(path, "re-verifying claim graph", progress, true)?;
    let mut reader = Some(reader);
    let mut summary = RecheckSummary::default();
    // (reserved up front: growing a list of a million outcomes moves it about twenty times, and
    // each move touches fresh memory)
    let mut outcomes: Vec<RecheckOutcome> = Vec::with_capacity(claims_at_most(size));
    let mut notes = LoadNotes::default();
    let mut not_in_order = false;
    // The reason the document was not written (an error other than the writer's own).
    let mut failure: Option<crate::Error> = None;
    // (opened again, since the reader is used up: kept open, the old document is not torn down
    // by the rename that replaces it)
    let replaced = std::fs::File::open(path).ok();
    let written = crate::manifest::write_atomic_with(path, &mut |w| {
        let mut text = String::with_capacity(1 << 12);
        write_head(&mut text, FORM);
        w.write_all(text.as_bytes())?;
        let mut context = Context {
            options,
            runs: super::sciproof::Runs::default(),
        };
        let mut written = 0usize;
        let mut io_error = None;
        let mut interrupted = None;
        let mut on_claim = |mut claim: Claim, verified: Verified, resolved: Option<Positions>| {
            if resolved.is_none() {
                not_in_order = true;
                return Err("a claim depends on a later one".to_string());
            }
            if written.is_multiple_of(1024)
                && let Err(signal) = crate::interrupt::check()
            {
                let message = signal.to_string();
                interrupted = Some(signal);
                return Err(message);
            }
            text.clear();
            write_separator(&mut text, written == 0, FORM);
            let (claim_text, outcome) = match verified {
                Verified::Written { text, outcome } => (text, outcome),
                // (an unread claim is never handed on)
                Verified::Pending | Verified::Unread => {
                    let decided = decide(&claim, &mut context, false)
                        .expect("every recipe runs with the shared context");
                    let outcome = apply(&mut claim, decided, options);
                    let mut claim_text = String::new();
                    write_claim(&mut claim_text, &claim, Some(2), FORM.stable);
                    (claim_text, outcome)
                }
            };
            w.write_all(text.as_bytes())
                .and_then(|_| w.write_all(claim_text.as_bytes()))
                .map_err(|e| {
                    let message = e.to_string();
                    io_error = Some(e);
                    message
                })?;
            written += 1;
            summary.add(outcome.outcome);
            outcomes.push(outcome);
            Ok(())
        };
        let read = read_document(
            reader.take().expect("the document is written once"),
            size,
            // (a claim read as a value has no text to copy: `saved` is never set then)
            &|value, at| verified(claim_read(value, at, true), "", options),
            &|text, _| claim_read_text(text, true).map(|read| verified(read, text, options)),
            &mut on_claim,
        );
        let read = match read {
            Ok(read) => read,
            Err(source) => {
                if let Some(e) = io_error {
                    return Err(e);
                }
                if !not_in_order {
                    failure = Some(match interrupted.take() {
                        Some(signal) => crate::Error::interrupted(signal),
                        None => GraphFileError::Invalid {
                            path: path.to_path_buf(),
                            source,
                        }
                        .into(),
                    });
                }
                return Err(std::io::Error::other("the document was not re-verified"));
            }
        };
        if !read.problems.is_empty() {
            failure = Some(
                GraphFileError::Invalid {
                    path: path.to_path_buf(),
                    source: invalid(read.problems),
                }
                .into(),
            );
            return Err(std::io::Error::other("the document was not re-verified"));
        }
        notes = read.notes;
        text.clear();
        write_tail(&mut text, FORM, written > 0, &read.metadata, &read.title);
        text.push('\n');
        w.write_all(text.as_bytes())
    });
    progress.finish();
    if not_in_order {
        return Ok(Streamed::NotInOrder);
    }
    if let Some(failure) = failure {
        return Err(failure);
    }
    written?;
    Ok(Streamed::Done {
        summary,
        outcomes,
        notes,
        replaced,
    })
}

/// Takes a claim as read on a worker (from `text`, when read from its text) and, when its
/// recipe stands alone, re-checks it and writes it as the saved document will hold it.
fn verified(mut read: ClaimRead, text: &str, options: &VerifyOptions) -> (ClaimRead, Verified) {
    let Some(claim) = read.claim.as_mut() else {
        return (read, Verified::Unread);
    };
    if untidy(claim) {
        tidy_dependencies(claim);
        // (not what its text says any more)
        read.saved = None;
    }
    let mut own = Context {
        options,
        runs: super::sciproof::Runs::default(),
    };
    // (the recipe object as read when it is the one its text parses back to, as it nearly
    // always is: parsing the text again would take a tenth of the re-check's time)
    let decided: Option<Decided> = match read.check.take() {
        Some(check) => decide_check(Some(&check), &mut own, true),
        None => decide(claim, &mut own, true),
    };
    let Some(decided) = decided else {
        return (read, Verified::Pending);
    };
    let old = claim.audit.len();
    let outcome = apply(claim, decided, options);
    let written = match read.saved.take() {
        Some(saved) => rewritten(text, &saved, claim, old),
        None => {
            let mut written = String::with_capacity(2048);
            write_claim(&mut written, claim, Some(2), FORM.stable);
            written
        }
    };
    // The reading thread needs only the ID and the dependencies; the rest is freed here.
    read.claim = Some(claim.take_links());
    (
        read,
        Verified::Written {
            text: written,
            outcome,
        },
    )
}

/// What [`write_claim`] writes for `claim` after its re-check, made from the claim's `text`
/// as read, which is exactly what it wrote before ([`Saved`]): a re-check changes only the
/// status and the audit list, to which it may append ([`apply`]; the first `old` entries were
/// there before), so the rest, and the entries that were there, are copied (writing the whole
/// claim again took a seventh of a re-verification's processor time).
fn rewritten(text: &str, saved: &Saved, claim: &Claim, old: usize) -> String {
    let mut out = String::with_capacity(saved.object.len() + 512);
    out.push_str(&text[saved.object.start..saved.audit.start]);
    write_audit_after(
        &mut out,
        &text[saved.audit.clone()],
        &claim.audit,
        old,
        3,
        FORM.stable,
    );
    out.push_str(&text[saved.audit.end..saved.status.start]);
    crate::json::write_str(&mut out, &claim.status, false);
    out.push_str(&text[saved.status.end..saved.object.end]);
    out
}

#[cfg(test)]
mod tests {
    use super::super::tests::relation;
    use super::*;
    use crate::graph::ClaimGraph;
    use crate::graph::record::Record;
    use crate::json::{Object, Value};

    fn options(dir: &Path) -> VerifyOptions {
        VerifyOptions {
            tolerance: 1e-8,
            samples: super::super::expression::DEFAULT_SAMPLES.to_vec(),
            mark_refuted: true,
            checked_at: "2026-12-01T00:00:00+00:00".into(),
            base: dir.to_path_buf(),
        }
    }

    /// A document of `n` claims with recipes of every sort (true and false relations and
    /// expressions, unknown kinds, none, ones that share the pass's context), each depending
    /// on up to two earlier claims, with a title and metadata.
    fn document(n: usize) -> String {
        let mut g = ClaimGraph::new(Some("streamed".into()));
        g.metadata.insert("generator", "test");
        let mut ids: Vec<String> = Vec::new();
        for i in 0..n {
            let check = match i % 7 {
                0 => Some(relation([2, -1])),
                1 => Some(relation([3, -1])),
                2 => Some(
                    Object::new()
                        .with("kind", "identity")
                        .with("lhs", "(x+1)^2")
                        .with("rhs", if i % 2 == 0 { "x^2+2*x+1" } else { "x^2+1" }),
                ),
                3 => Some(Object::new().with("kind", "unheard_of")),
                4 => Some(
                    Object::new()
                        .with("kind", "sciproof_manifest")
                        .with("manifest", format!("missing-{}.json", i % 3))
                        .with("sha256", "0".repeat(64)),
                ),
                _ => None,
            };
            let depends_on = ids.iter().rev().step_by(3).take(2).cloned().collect();
            let id = g
                .record(Record {
                    statement: format!("claim {i}"),
                    check,
                    depends_on,
                    tags: vec![format!("t{}", i % 4)],
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

    /// Re-verifies the document `text` both ways (streamed, and loaded whole, re-checked and
    /// saved) in `dir`: the two results, with the documents written.
    #[allow(clippy::type_complexity)]
    fn both_ways(
        dir: &Path,
        text: &str,
    ) -> (
        crate::Result<Streamed>,
        String,
        crate::Result<(RecheckSummary, Vec<RecheckOutcome>, LoadNotes)>,
        String,
    ) {
        // (the same name in two folders, so that the errors, which name the file, compare)
        let streamed = dir.join("streamed").join("g.json");
        let whole = dir.join("whole").join("g.json");
        for folder in ["streamed", "whole"] {
            std::fs::create_dir_all(dir.join(folder)).unwrap();
        }
        std::fs::write(&streamed, text).unwrap();
        std::fs::write(&whole, text).unwrap();
        let options = options(dir);
        let s = verify_file(&streamed, &options, &crate::progress::NoProgress);
        let w = ClaimGraph::load(&whole).map(|(mut g, notes)| {
            let mut outcomes = Vec::new();
            let summary = g.verify_each(&options, &crate::progress::NoProgress, &mut |o| {
                outcomes.push(o.clone())
            });
            g.save(&whole, false).unwrap();
            (summary, outcomes, notes)
        });
        (
            s,
            std::fs::read_to_string(&streamed).unwrap(),
            w,
            std::fs::read_to_string(&whole).unwrap(),
        )
    }

    #[test]
    fn streamed_equals_loaded_verified_and_saved() {
        let dir = tempfile::tempdir().unwrap();
        // Small documents are read on this thread, large ones (over a megabyte) on workers.
        for n in [0, 1, 30, 5000] {
            let mut text = document(n);
            if n == 5000 {
                assert!(text.len() > 1 << 20, "{}", text.len());
            }
            if n >= 30 {
                text = crate::graph::testing::with_untidy_claim(&text);
            }
            let (s, s_text, w, w_text) = both_ways(dir.path(), &text);
            let Streamed::Done {
                summary,
                outcomes,
                notes,
                ..
            } = s.unwrap()
            else {
                panic!("{n} claims: not streamed")
            };
            let (w_summary, w_outcomes, w_notes) = w.unwrap();
            assert_eq!(summary, w_summary, "{n} claims");
            assert!(outcomes == w_outcomes, "{n} claims: the outcomes differ");
            assert_eq!(notes, w_notes, "{n} claims");
            assert!(s_text == w_text, "{n} claims: the documents differ");
            assert_eq!(outcomes.len(), n);
            if n >= 30 {
                assert_eq!(notes.warnings.len(), 1, "{:?}", notes.warnings);
                assert!(summary.counts().contains_key("failed"));
            }
            // Verified again: the claims now have audit lists, which the streamed way appends
            // to, and refuted ones.
            let (s, again, w, w_again) = both_ways(dir.path(), &s_text);
            let Streamed::Done { outcomes, .. } = s.unwrap() else {
                panic!("{n} claims: not streamed again")
            };
            assert!(
                outcomes == w.unwrap().1,
                "{n} claims: the outcomes differ again"
            );
            assert!(again == w_again, "{n} claims: the documents differ again");
            let entries = |text: &str| text.matches("\"checker\": \"sciproof\"").count();
            assert!(n == 0 || entries(&again) > entries(&s_text) && entries(&s_text) > 0);
        }
    }

    #[test]
    fn a_document_out_of_order_is_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let text = document(3000);
        // The claims reversed: every dependency points to a later claim.
        let mut g = crate::json::parse(&text).unwrap();
        if let Value::Object(top) = &mut g
            && let Some(Value::Array(mut claims)) = top.remove("claims")
        {
            claims.reverse();
            top.insert("claims", Value::Array(claims));
        }
        let reversed = crate::json::to_string_pretty(&g);
        let path = dir.path().join("g.json");
        std::fs::write(&path, &reversed).unwrap();
        let s = verify_file(&path, &options(dir.path()), &crate::progress::NoProgress).unwrap();
        assert!(matches!(s, Streamed::NotInOrder));
        assert!(std::fs::read_to_string(&path).unwrap() == reversed);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    /// The text of claim `i` of a pretty document.
    fn claim_text(text: &str, i: usize) -> String {
        let start = text.match_indices("\n    {").nth(i).unwrap().0;
        let end = start + text[start..].find("\n    }").unwrap() + 6;
        text[start + 1..end].to_string()
    }

    #[test]
    fn a_document_refused_halfway_is_left_alone_with_the_loaders_error() {
        let dir = tempfile::tempdir().unwrap();
        let text = document(3000);
        let g = ClaimGraph::from_json(&text).unwrap().0;
        let late = g.claims()[2900].id.to_string();
        for bad in [
            // a claim whose ID does not match its content
            text.replacen("\"claim 2950\"", "\"claim 2950 edited\"", 1),
            // an ID of the wrong type
            text.replacen(&format!("\"id\": \"{late}\""), "\"id\": 7", 1),
            // a repeated claim (the last one is a copy of an earlier one)
            text.replacen(
                "\n  ],",
                &format!(",\n{}\n  ],", claim_text(&text, 1500)),
                1,
            ),
            // JSON that ends too soon
            text[..text.len() - 40].to_string(),
            // another kind of document
            text.replacen("\"alkahest.claim_graph\"", "\"other\"", 1),
        ] {
            assert!(bad != text);
            let (s, s_text, w, _) = both_ways(dir.path(), &bad);
            let w = w.unwrap_err();
            let w = w.to_string().replace("whole", "streamed");
            // Refused with the loader's own error, or (when a claim depends on a refused one)
            // left to the loader.
            match s {
                Err(s) => assert_eq!(s.to_string(), w),
                Ok(s) => assert!(matches!(s, Streamed::NotInOrder), "{s:?}"),
            }
            assert!(s_text == bad, "the document was changed");
            assert_eq!(
                std::fs::read_dir(dir.path().join("streamed"))
                    .unwrap()
                    .count(),
                1,
                "a file was left behind"
            );
        }
    }
}
