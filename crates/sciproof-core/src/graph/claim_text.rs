//! Reading a sound claim straight from its text: the fields are taken from the JSON text as it
//! is scanned, without building a tree of values first and taking it apart (which was about
//! two fifths of the time a large graph takes to read).
//!
//! This is a shortcut, never a second set of rules: it gives exactly the claim
//! [`super::load::claim_read`] gives for the parsed text, or declines (`None`) wherever that
//! would find a problem or drop something (invalid JSON, an unknown or repeated key, a value
//! of the wrong type, a missing ID or statement, an ID that does not match its content), and
//! the claim is then read the general way, which words the problem with its place. Property
//! tests and the JSON fuzz target hold the two ways to each other.
//!
//! It also tells when the text is exactly what saving the claim writes ([`Saved`]), so that a
//! re-verification can copy it with only its audit list and status written anew.

use super::claim::{Claim, ClaimId, ClaimWord, UNVERIFIED};
use super::document::{CLAIM_KEYS, claim_key, key};
use super::load::ClaimRead;
use crate::json::scan::Scanner;

/// Where a claim's text is exactly what saving the claim as read writes (the pretty form,
/// nested in its document): the parts a re-check may change, as byte ranges of the text.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Saved {
    /// The claim object, `{` to `}`.
    pub object: std::ops::Range<usize>,
    /// The value of `audit`.
    pub audit: std::ops::Range<usize>,
    /// The value of `status`.
    pub status: std::ops::Range<usize>,
}

/// The claim whose text (an item of a document's `claims`) is `text`, read as
/// [`super::load::claim_read`] reads it, or `None` when that would find anything to say about
/// it (see the module documentation).
pub(super) fn claim_read_text(text: &str, keep_check: bool) -> Option<ClaimRead> {
    // (a claim is nested two levels deep in its document)
    let mut s = Scanner::new(text, 2);
    let mut claim = Claim::links_only(ClaimId::default(), Vec::new());
    let mut kept = None;
    let mut seen = 0u32;
    // (the keys whose null or absence means a default, filled in below)
    let (mut kind, mut status, mut evidence) = (None, None, None);
    // Whether the text is as saved so far, beyond what the scanner checks (every key, in
    // order, none null that saving writes otherwise), and where its changing parts are.
    let mut as_saved = true;
    let mut last_place = None;
    let (mut audit_at, mut status_at) = (0..0, 0..0);
    s.peek();
    let object_from = s.offset();
    s.members_of(&CLAIM_KEYS, claim_key, |s, place| {
        let bit = 1u32 << place;
        if seen & bit != 0 {
            return None;
        }
        seen |= bit;
        if last_place.is_some_and(|last| last > place) {
            as_saved = false;
        }
        last_place = Some(place);
        let from = s.offset();
        if s.peek() == Some(b'n') && WRITTEN_NULL & bit == 0 {
            // (a null that saving writes as its default)
            as_saved = false;
        }
        match place {
            key::ID => claim.id = ClaimId::new(s.string()?),
            key::STATEMENT => claim.statement = boxed(s)?,
            key::KIND => kind = or_null(s, word)?,
            key::METHOD => claim.method = or_null(s, word)?.unwrap_or_default(),
            key::STATUS => {
                status = or_null(s, word)?;
                status_at = from..s.offset();
            }
            key::EVIDENCE => evidence = or_null(s, word)?,
            key::LATEX => claim.latex = or_null(s, boxed)?,
            key::CERTIFICATE => claim.certificate = or_null(s, boxed)?,
            key::CERTIFICATE_FORMAT => claim.certificate_format = or_null(s, boxed)?,
            key::RECORDED_AT => claim.recorded_at = or_null(s, boxed)?,
            key::LABEL => claim.label = or_null(s, boxed)?,
            key::NOTES => claim.notes = or_null(s, boxed)?,
            key::HYPOTHESES => claim.hypotheses = list(s, string)?.into(),
            key::TAGS => claim.tags = list(s, string)?.into(),
            key::DEPENDS_ON => claim.depends_on = list(s, |s| s.string().map(ClaimId::new))?,
            key::DERIVATION => claim.derivation = list(s, Scanner::value)?.into(),
            key::VERIFICATION => {
                claim.verification = or_null(s, Scanner::compact)?.unwrap_or_default()
            }
            key::PROVENANCE => claim.provenance = or_null(s, Scanner::compact)?.unwrap_or_default(),
            key::AUDIT => {
                claim.audit = list(s, Scanner::compact)?;
                audit_at = from..s.offset();
            }
            key::CHECK => {
                // (the object too: its kind is checked, and a re-check uses it as it is)
                let Some((compact, check)) = or_null(s, Scanner::compact_object)? else {
                    return Some(());
                };
                if compact.is_empty() {
                    // (no recipe: saved as null)
                    as_saved = false;
                    return Some(());
                }
                if check.get("kind").is_some_and(|k| k.as_str().is_none()) {
                    return None;
                }
                claim.check = Some(compact);
                if keep_check && check.is_sorted_deep() {
                    kept = Some(check);
                }
            }
            _ => unreachable!("every claim key has its field"),
        }
        Some(())
    })?;
    let object = object_from..s.offset();
    if !s.at_end() {
        return None;
    }
    let required = 1 << key::ID | 1 << key::STATEMENT;
    if seen & required != required {
        return None;
    }
    claim.kind = kind.unwrap_or_else(|| "expr".into());
    claim.status = status.unwrap_or_else(|| UNVERIFIED.into());
    claim.evidence = evidence.unwrap_or_else(|| "none".into());
    if claim.content_id() != claim.id {
        return None;
    }
    let saved = (as_saved
        && !super::load::untidy(&claim)
        && seen == (1 << CLAIM_KEYS.len()) - 1
        && s.in_saved_form())
    .then_some(Saved {
        object,
        audit: audit_at,
        status: status_at,
    });
    Some(ClaimRead {
        claim: Some(claim),
        problems: Vec::new(),
        warnings: Vec::new(),
        check: kept,
        saved,
    })
}

/// The keys whose null saving writes as null (any other null is written as the key's default),
/// as bits at their places.
const WRITTEN_NULL: u32 = 1 << key::CERTIFICATE
    | 1 << key::CERTIFICATE_FORMAT
    | 1 << key::CHECK
    | 1 << key::LABEL
    | 1 << key::LATEX
    | 1 << key::NOTES
    | 1 << key::RECORDED_AT;

/// A string's value, owned.
fn string(s: &mut Scanner<'_>) -> Option<String> {
    s.string().map(|v| v.into_owned())
}

/// A string's value, owned, in a box of its size.
fn boxed(s: &mut Scanner<'_>) -> Option<Box<str>> {
    s.string().map(Box::from)
}

/// A string as a [`ClaimWord`] (inline when short: no allocation).
fn word(s: &mut Scanner<'_>) -> Option<ClaimWord> {
    s.string().map(|v| match v {
        std::borrow::Cow::Borrowed(text) => ClaimWord::new(text),
        std::borrow::Cow::Owned(text) => ClaimWord::from(text),
    })
}

/// `null` as `None`, anything else read by `read`.
fn or_null<'a, T>(
    s: &mut Scanner<'a>,
    read: impl FnOnce(&mut Scanner<'a>) -> Option<T>,
) -> Option<Option<T>> {
    if s.null() {
        Some(None)
    } else {
        read(s).map(Some)
    }
}

/// `null` as an empty list, or the items of a list, each read by `item`.
fn list<'a, T>(
    s: &mut Scanner<'a>,
    mut item: impl FnMut(&mut Scanner<'a>) -> Option<T>,
) -> Option<Vec<T>> {
    let mut out = Vec::new();
    if !s.null() {
        s.items(|s| item(s).map(|v| out.push(v)))?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::super::load::claim_read;
    use super::*;
    use crate::json::{Object, Value, parse, to_string_compact, to_string_pretty};
    use proptest::prelude::*;

    /// A key's value: left out (`None`) or one of `choices` (JSON texts).
    fn pick(choices: &'static [&'static str]) -> impl Strategy<Value = Option<&'static str>> {
        prop::option::of(prop::sample::select(choices))
    }

    /// Claim objects of every sort: sound ones as graphs hold them, and ones with nulls,
    /// defaults, escapes, wrong types, unknown keys, unsorted or floating recipes, forged IDs.
    fn claims() -> impl Strategy<Value = (Object, bool)> {
        let strings = &[
            "\"pslq\"",
            "\"\"",
            "\"a \\\"b\\\" \\u00e9\"",
            "\"é\\n\"",
            "null",
            "1",
        ];
        let lists = &[
            "[]",
            "null",
            "[\"x > 0\", \"b\"]",
            "[\"x\", 1]",
            "\"x\"",
            "[\"é\\t\"]",
        ];
        let objects = &[
            "{}",
            "null",
            "{\"a\": [1, \"x\"], \"b\": {\"c\": null}}",
            "{\"b\": 1, \"a\": 2}",
            "{\"a\": 1.5}",
            "{\"a\": \"\\u0041\", \"\\u0062\": 1}",
            "\"x\"",
        ];
        let checks = &[
            "{\"coefficients\": [-2, 1], \"constants\": [\"0.5\", \"0.25\"], \"kind\": \"numeric_relation\"}",
            "{\"kind\": \"identity\", \"lhs\": \"x\", \"rhs\": \"x\"}",
            "{\"rhs\": \"x\", \"kind\": \"identity\", \"lhs\": \"x\"}",
            "{\"kind\": 1}",
            "{\"kind\": \"zero\", \"expr\": \"0\", \"tolerance\": 1e-3}",
            "{}",
            "null",
            "[1]",
        ];
        let audits = &[
            "[]",
            "null",
            "[{\"at\": \"t\", \"outcome\": \"ok\"}, {}]",
            "[1]",
            "{}",
        ];
        let derivations = &["[]", "null", "[{\"rule\": \"r\"}, 1.0]", "{\"a\": 1}"];
        let ids = &["valid", "valid", "valid", "forged", "missing", "number"];
        (
            (
                pick(strings),
                pick(strings),
                pick(strings),
                pick(strings),
                pick(strings),
                pick(lists),
                pick(lists),
                pick(lists),
            ),
            (
                pick(objects),
                pick(objects),
                pick(checks),
                pick(audits),
                pick(derivations),
                prop::sample::select(ids),
                any::<bool>(),
                pick(strings),
            ),
        )
            .prop_map(
                |(
                    (statement, kind, method, status, latex, hypotheses, tags, depends_on),
                    (verification, provenance, check, audit, derivation, id, unknown, notes),
                )| {
                    let mut o = Object::new();
                    let mut put = |key: &str, text: Option<&str>| {
                        if let Some(text) = text {
                            o.insert(key, parse(text).unwrap());
                        }
                    };
                    put("statement", statement);
                    put("kind", kind);
                    put("method", method);
                    put("status", status);
                    put("evidence", status);
                    put("latex", latex);
                    put("recorded_at", latex);
                    put("notes", notes);
                    put("hypotheses", hypotheses);
                    put("tags", tags);
                    put("depends_on", depends_on);
                    put("verification", verification);
                    put("provenance", provenance);
                    put("check", check);
                    put("audit", audit);
                    put("derivation", derivation);
                    if unknown {
                        put("colour", Some("\"red\""));
                    }
                    let text = |key: &str| o.get(key).and_then(Value::as_str).unwrap_or_default();
                    let hypotheses: Vec<String> = o
                        .get("hypotheses")
                        .and_then(Value::as_array)
                        .unwrap_or_default()
                        .iter()
                        .filter_map(|h| h.as_str().map(String::from))
                        .collect();
                    let content =
                        super::super::claim_id(text("statement"), &hypotheses, text("method"));
                    match id {
                        "valid" => o.insert("id", content),
                        "forged" => o.insert("id", "clm_0000000000000000"),
                        "number" => o.insert("id", Value::Null),
                        _ => {}
                    }
                    (o, unknown)
                },
            )
    }

    /// Checks the shortcut against the general way on `text`: it reads the same claim (and
    /// recipe) or declines, and declines only where the general way has something to say.
    fn agree(text: &str, keep_check: bool) -> Result<bool, TestCaseError> {
        let quick = claim_read_text(text, keep_check);
        let Ok(value) = parse(text) else {
            prop_assert!(quick.is_none(), "read what does not parse: {text}");
            return Ok(false);
        };
        let general = claim_read(value, 0, keep_check);
        let quiet = general.problems.is_empty() && general.warnings.is_empty();
        match quick {
            Some(quick) => {
                prop_assert!(quiet, "read a claim with problems: {text}");
                prop_assert!(quick.problems.is_empty() && quick.warnings.is_empty());
                prop_assert_eq!(&quick.claim, &general.claim, "{}", text);
                prop_assert_eq!(&quick.check, &general.check, "{}", text);
                if let Some(saved) = &quick.saved {
                    // Found as saved: saving the claim writes exactly that text.
                    let mut written = String::new();
                    let claim = quick.claim.as_ref().unwrap();
                    super::super::document::write_claim(&mut written, claim, Some(2), false);
                    prop_assert_eq!(&written, &text[saved.object.clone()]);
                    prop_assert!(text[saved.audit.clone()].starts_with('['));
                    let mut status = String::new();
                    crate::json::write_str(&mut status, &claim.status, false);
                    prop_assert_eq!(&text[saved.status.clone()], status);
                }
                Ok(true)
            }
            None => Ok(false),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        #[test]
        fn the_shortcut_reads_what_the_general_way_reads_or_declines(
            (claim, unknown) in claims(),
            keep_check in any::<bool>(),
            repeat in any::<bool>(),
        ) {
            let value = Value::Object(claim.clone());
            let pretty = to_string_pretty(&value);
            agree(&pretty, keep_check)?;
            agree(&to_string_compact(&value), keep_check)?;
            // (written sorted, as graphs are saved)
            let mut sorted = String::new();
            crate::json::write_object(&mut sorted, &claim, Some(2), crate::json::Style::SORTED_RAW);
            let read = agree(&format!("\n  {sorted}  "), keep_check)?;
            // (laid out as saved, keys in their own order)
            let mut unsorted = String::new();
            crate::json::write_object(&mut unsorted, &claim, Some(2), crate::json::Style::RAW);
            agree(&unsorted, keep_check)?;
            let general = claim_read(value, 0, keep_check);
            if !unknown && general.problems.is_empty() {
                // A sound claim in its saved form is always read the short way, and found
                // saved when it holds no floats or derivation steps (which are read as values,
                // not checked as saved).
                prop_assert!(read, "declined a sound claim: {}", sorted);
                let claim = general.claim.unwrap();
                let mut written = String::new();
                super::super::document::write_claim(&mut written, &claim, Some(2), false);
                let text = format!("    {written}\n");
                prop_assert!(agree(&text, keep_check)?);
                let plain = claim.derivation.is_empty() && !written.contains("1.5") && !written.contains("0.001");
                let quick = claim_read_text(&text, keep_check).unwrap();
                prop_assert_eq!(quick.saved.is_some(), plain, "{}", text);
                // Laid out as saved with every key, but not what saving writes: the keys in
                // another order, or a key null that saving writes otherwise.
                let Ok(Value::Object(all)) = parse(&written) else { unreachable!() };
                let mut reversed = Object::new();
                for (k, v) in all.iter().collect::<Vec<_>>().into_iter().rev() {
                    reversed.insert(k, v.clone());
                }
                let mut text = String::new();
                crate::json::write_object(&mut text, &reversed, Some(2), crate::json::Style::RAW);
                agree(&text, keep_check)?;
                for key in CLAIM_KEYS {
                    let mut nulled = all.clone();
                    nulled.insert(key, Value::Null);
                    let mut text = String::new();
                    crate::json::write_object(&mut text, &nulled, Some(2), crate::json::Style::SORTED_RAW);
                    agree(&text, keep_check)?;
                }
            }
            if repeat && claim.len() > 1 {
                // A repeated key is refused by the parser; the shortcut must decline.
                let (key, v) = claim.iter().next().unwrap();
                let twice = format!("{}, \"{key}\": {}}}", &pretty[..pretty.len() - 2], to_string_compact(v));
                prop_assert!(claim_read_text(&twice, keep_check).is_none(), "read a repeated key: {}", twice);
            }
        }
    }

    #[test]
    fn claims_graphs_save_are_read_the_short_way() {
        let mut g = crate::graph::ClaimGraph::new(Some("t".into()));
        let id = g
            .record(crate::graph::record::Record {
                statement: "2 c0 = c1".into(),
                check: match parse(r#"{"kind": "numeric_relation", "coefficients": [2, -1], "constants": ["0.5", "1.0"]}"#) {
                    Ok(Value::Object(o)) => Some(o),
                    _ => unreachable!(),
                },
                tags: vec!["a".into()],
                ..Default::default()
            })
            .unwrap()
            .id
            .to_string();
        g.record(crate::graph::record::Record {
            statement: "it \"follows\" é".into(),
            depends_on: vec![id],
            ..Default::default()
        })
        .unwrap();
        let text = g.to_json(crate::graph::Form {
            pretty: true,
            stable: false,
        });
        let Ok(Value::Object(doc)) = parse(&text) else {
            panic!()
        };
        let claims = doc.get("claims").and_then(Value::as_array).unwrap();
        for c in claims {
            let item = to_string_pretty(c);
            let quick = claim_read_text(&item, true).expect("read the short way");
            let general = claim_read(c.clone(), 0, true);
            assert_eq!(quick.claim, general.claim);
            assert_eq!(quick.check, general.check);
        }
    }
}
