//! Property tests of the algebraic rules the seeds and the formats promise: symmetry,
//! round trips, invariance, monotonicity.

use proptest::prelude::*;
use sciproof_core::json::{self, Number, Object, Value};
use sciproof_core::numeric::rule::compare_values;
use sciproof_core::numeric::value::Scalar;
use sciproof_core::report::{Check, Status, verdict};

fn scalar() -> impl Strategy<Value = Scalar> {
    prop_oneof![
        any::<i64>().prop_map(|i| Scalar::Int(i.into())),
        "[0-9]{15,25}".prop_map(|s| Scalar::Int(s.parse().unwrap())),
        any::<f64>().prop_map(Scalar::Float),
        (-1e6f64..1e6).prop_map(Scalar::Float),
        "[a-z0-9.]{0,5}".prop_map(Scalar::Str),
        any::<bool>().prop_map(Scalar::Bool),
        Just(Scalar::Null),
    ]
}

proptest! {
    /// The tolerance rule is symmetric over every mix of integers, floats and text: swapping
    /// recorded and found never changes whether they differ.
    #[test]
    fn compare_values_is_symmetric_over_mixed_types(
        a in scalar(), b in scalar(), rtol in 0.0f64..2.0, atol in 0.0f64..5.0,
    ) {
        let ab = compare_values("$", &a, &b, rtol, atol).is_some();
        let ba = compare_values("$", &b, &a, rtol, atol).is_some();
        prop_assert_eq!(ab, ba, "{:?} vs {:?}", a, b);
        prop_assert!(compare_values("$", &a, &a, 0.0, 0.0).is_none(), "a value equals itself: {:?}", a);
    }

    /// A float written the way Python's repr writes it reads back as the same float through
    /// Python's `float()` grammar, and written as a JSON number (`NaN`, `Infinity` for the
    /// non-finite ones, as Python's json module does) reads back through the JSON reader,
    /// whatever it is (NaN, infinities and subnormals included).
    #[test]
    fn a_float_repr_parses_back_to_the_same_float(bits in prop_oneof![
        any::<u64>(),
        Just(f64::NAN.to_bits()),
        Just(f64::INFINITY.to_bits()),
        Just(f64::NEG_INFINITY.to_bits()),
        Just(1u64),
    ]) {
        let x = f64::from_bits(bits);
        let same = |y: f64| y.to_bits() == x.to_bits() || (x.is_nan() && y.is_nan());
        let text = sciproof_core::pyfmt::float_repr(x);
        let y = sciproof_core::pyfmt::parse_py_float(&text);
        prop_assert!(y.is_some_and(same), "{} -> {:?}", text, y);
        let json_text = json::to_string_compact(&Value::Number(Number::Float(x)));
        match json::parse(&json_text) {
            Ok(Value::Number(Number::Float(y))) => prop_assert!(same(y), "{} -> {}", json_text, y),
            other => prop_assert!(false, "{} read as {:?}", json_text, other),
        }
    }

    /// Any document the writer writes, the reader reads back to the same value (written again,
    /// the same bytes).
    #[test]
    fn json_write_then_parse_is_the_identity(value in json_value()) {
        let text = json::to_string_pretty(&value);
        let back = json::parse(&text).unwrap();
        prop_assert_eq!(json::to_string_pretty(&back), text);
    }

    /// The verdict depends on the checks, not their order, and adding a check never improves it.
    #[test]
    fn the_verdict_ignores_order_and_never_improves_with_more_checks(
        statuses in proptest::collection::vec(0u8..3, 0..12),
        extra in 0u8..3,
        seed in any::<u64>(),
    ) {
        let check = |s: u8| Check {
            status: [Status::Pass, Status::Fail, Status::Inconclusive][usize::from(s)],
            subject: format!("s{s}"),
            message: String::new(),
            evidence: None,
        };
        let checks: Vec<Check> = statuses.iter().map(|&s| check(s)).collect();
        let mut shuffled = checks.clone();
        let mut state = seed | 1;
        for i in (1..shuffled.len()).rev() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            shuffled.swap(i, (state % (i as u64 + 1)) as usize);
        }
        prop_assert_eq!(verdict(&checks), verdict(&shuffled));
        let mut more = checks.clone();
        more.push(check(extra));
        let rank = |s: Status| match s {
            Status::Pass => 2,
            Status::Inconclusive => 1,
            Status::Fail => 0,
        };
        if !checks.is_empty() {
            prop_assert!(rank(verdict(&more)) <= rank(verdict(&checks)));
        }
    }

    /// A claim's ID ignores the order of its hypotheses and how whitespace is laid out.
    #[test]
    fn a_claim_id_ignores_hypothesis_order_and_whitespace(
        words in proptest::collection::vec("[a-z0-9+*/()^=<>]{1,6}", 1..6),
        hypotheses in proptest::collection::vec("[a-z][a-z0-9 <>=]{0,8}", 0..5),
        method in "[a-z]{1,8}",
        seed in any::<u64>(),
        spaces in "[ \t\n]{1,3}",
    ) {
        let statement = words.join(" ");
        let respaced = format!("{spaces}{}{spaces}", words.join(&spaces));
        let mut shuffled = hypotheses.clone();
        let turn = (seed as usize) % shuffled.len().max(1);
        shuffled.rotate_left(turn);
        shuffled.reverse();
        let padded: Vec<String> = shuffled.iter().map(|h| format!(" {h}\t")).collect();
        prop_assert_eq!(
            sciproof_core::graph::claim_id(&statement, &hypotheses, &method),
            sciproof_core::graph::claim_id(&respaced, &padded, &format!(" {method} "))
        );
    }

    /// A claim graph survives its own document: the same claims, edges, order and digest; and
    /// the digest does not depend on any time in it.
    #[test]
    fn a_graph_survives_its_document_and_its_digest_ignores_time(
        edges in proptest::collection::vec(proptest::collection::vec(any::<prop::sample::Index>(), 0..3), 1..15),
        tags in proptest::collection::vec("[a-z]{1,4}", 0..3),
        hour in 0u32..24,
    ) {
        let mut graph = sciproof_core::graph::ClaimGraph::new(Some("g".into()));
        let mut ids: Vec<String> = Vec::new();
        for (i, deps) in edges.iter().enumerate() {
            let depends_on: Vec<String> = if ids.is_empty() {
                Vec::new()
            } else {
                deps.iter().map(|d| ids[d.index(ids.len())].clone()).collect()
            };
            let record = sciproof_core::graph::record::Record {
                statement: format!("claim {i}"),
                depends_on,
                tags: tags.clone(),
                recorded_at: Some(format!("2026-01-01T{hour:02}:00:00+00:00")),
                ..Default::default()
            };
            let id = graph.conjecture(record, "e").unwrap().id.to_string();
            ids.push(id);
        }
        let text = graph.to_json(sciproof_core::graph::Form { pretty: true, stable: false });
        let (back, notes) = sciproof_core::graph::ClaimGraph::from_json(&text).unwrap();
        prop_assert!(notes.warnings.is_empty(), "{:?}", notes.warnings);
        prop_assert_eq!(back.to_json(sciproof_core::graph::Form { pretty: true, stable: false }), text.clone());
        prop_assert_eq!(back.digest(), graph.digest());
        let later = text.replace("2026-01-01T", "2031-06-07T");
        let (moved, _) = sciproof_core::graph::ClaimGraph::from_json(&later).unwrap();
        prop_assert_eq!(moved.digest(), graph.digest(), "time changed the digest");
    }

    /// Whatever untrusted text it is given, the report's Markdown escaper leaves nothing a GFM
    /// renderer would make live.
    #[test]
    fn the_markdown_escaper_leaves_no_active_markup(text in "[a-z <>\\[\\]()!@#:*_~`&;/=\"'|\\\\.w0-9-]{0,60}") {
        let escaped = sciproof_core::escape::markdown::escape(&text, 500);
        let mut options = comrak::Options::default();
        options.extension.table = true;
        options.extension.autolink = true;
        options.extension.strikethrough = true;
        options.render.r#unsafe = true;
        let html = comrak::markdown_to_html(&format!("| a |\n| --- |\n| {escaped} |\n"), &options);
        for live in ["<a ", "<img", "<em>", "<strong>", "<del>", "<code>", "<script", "<br"] {
            prop_assert!(!html.contains(live), "{} made {} live: {}", text, live, html);
        }
        // It stayed in its cell.
        prop_assert_eq!(html.matches("<td>").count(), 1, "{}", html);
    }
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|i| Value::Number(Number::Int(i.into()))),
        any::<f64>().prop_map(|f| Value::Number(Number::Float(f))),
        "[a-z\\\\\"\u{e9}\u{1F600}\u{1}]{0,6}".prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 30, 5, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            proptest::collection::btree_map("[a-z]{0,3}", inner, 0..5).prop_map(|m| {
                let mut o = Object::new();
                for (k, v) in m {
                    o.insert(k, v);
                }
                Value::Object(o)
            }),
        ]
    })
}

/// A relative path the manifest accepts: the loader refuses Windows device names (`aux`,
/// `com1`), which the pattern alone can produce.
fn path() -> impl Strategy<Value = String> {
    "[a-z]{1,5}(/[a-z0-9_]{1,5}){0,2}".prop_filter("a path the manifest accepts", |p| {
        sciproof_core::paths::validate_relative_path(p).is_ok()
    })
}

fn digest() -> impl Strategy<Value = String> {
    "[0-9a-f]{64}"
}

/// A valid manifest document with generated content.
fn manifest() -> impl Strategy<Value = String> {
    (
        "[A-Za-z0-9][A-Za-z0-9._-]{0,10}",
        proptest::collection::vec("[ -~\u{e9}]{0,8}", 1..4),
        proptest::collection::vec((path(), digest(), 0u64..1_000_000), 0..4),
        proptest::collection::vec(
            (
                path(),
                any::<bool>(),
                digest(),
                0u32..3,
                0.0f64..0.5,
                0.0f64..2.0,
            ),
            0..4,
        ),
        proptest::option::of("[ -~]{1,20}"),
        -3i64..200,
    )
        .prop_filter_map(
            "paths unique",
            |(name, argv, inputs, outputs, note, exit)| {
                let mut seen = std::collections::HashSet::new();
                let all: Vec<&String> = inputs
                    .iter()
                    .map(|i| &i.0)
                    .chain(outputs.iter().map(|o| &o.0))
                    .collect();
                // unique and not nested in one another (no directories are declared here)
                if !all
                    .iter()
                    .all(|p| seen.insert(p.split('/').next().unwrap_or(p).to_string()))
                {
                    return None;
                }
                let inputs: Vec<Value> = inputs
                    .into_iter()
                    .map(|(p, d, s)| {
                        Object::new()
                            .with("path", p)
                            .with("sha256", d)
                            .with("size", s)
                            .into()
                    })
                    .collect();
                let mut claims = Vec::new();
                let outputs: Vec<Value> = outputs
                    .into_iter()
                    .enumerate()
                    .map(|(i, (p, present, d, mode, rtol, atol))| {
                        let numeric = present && mode == 1;
                        let file = if numeric { format!("{p}.json") } else { p };
                        let compare = if numeric {
                            claims.push(
                                Object::new()
                                    .with("output", file.as_str())
                                    .with("location", "$.a[0]")
                                    .with("op", ">=")
                                    .with("value", Value::Number(Number::Float(atol)))
                                    .into(),
                            );
                            Object::new()
                                .with("mode", "numeric")
                                .with("rtol", rtol)
                                .with("atol", atol)
                                .with(
                                    "snapshot",
                                    Object::new()
                                        .with("path", format!("{name}.sciproof.d/{i}-x.json"))
                                        .with("sha256", d.clone()),
                                )
                        } else {
                            Object::new().with("mode", "exact")
                        };
                        Object::new()
                            .with("path", file)
                            .with("present", present)
                            .with("sha256", if present { Value::from(d) } else { Value::Null })
                            .with("size", if present { 7u64 } else { 0 })
                            .with("compare", compare)
                            .into()
                    })
                    .collect();
                let stream = |t: &str| -> Value {
                    Object::new()
                        .with("sha256", sciproof_core::hash::sha256_bytes(t.as_bytes()))
                        .with("size", t.len() as u64)
                        .with("truncated", false)
                        .with("text", t)
                        .into()
                };
                let mut o = Object::new()
                    .with("schema", "sciproof.manifest")
                    .with("schema_version", "1.1")
                    .with("name", name.as_str())
                    .with("created_at", "2026-11-30T12:00:00+00:00")
                    .with(
                        "tool",
                        Object::new()
                            .with("name", "sciproof")
                            .with("version", "0.1.0"),
                    )
                    .with(
                        "command",
                        Object::new()
                            .with(
                                "argv",
                                Value::Array(
                                    argv.into_iter()
                                        .map(|a| {
                                            Value::from(if a.is_empty() {
                                                "x".to_string()
                                            } else {
                                                a
                                            })
                                        })
                                        .collect(),
                                ),
                            )
                            .with("cwd", "."),
                    )
                    .with(
                        "environment",
                        Object::new()
                            .with("source", "not-python")
                            .with("python", Object::new().with("version", ""))
                            .with("platform", Object::new().with("system", "Linux"))
                            .with("env_vars", Object::new()),
                    )
                    .with("dependencies", Value::Array(vec![]))
                    .with("git", Value::Null)
                    .with("inputs", Value::Array(inputs))
                    .with(
                        "execution",
                        Object::new()
                            .with("exit_code", exit)
                            .with("duration_seconds", 0.25)
                            .with("stdout", stream("out\n"))
                            .with("stderr", stream("")),
                    )
                    .with("outputs", Value::Array(outputs))
                    .with("claims", Value::Array(claims));
                if let Some(note) = note.filter(|n| !n.trim().is_empty()) {
                    o.insert("note", note);
                }
                Some(json::to_string_pretty(&Value::Object(o)))
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// A manifest written from what was read reads back to the same manifest and the same
    /// bytes (write -> load -> write is the identity).
    #[test]
    fn manifest_write_load_write_is_the_identity(text in manifest()) {
        let first = sciproof_core::manifest::parse_manifest(&text)
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        let written = sciproof_core::manifest::to_text(&first);
        let second = sciproof_core::manifest::parse_manifest(&written).unwrap();
        prop_assert_eq!(&first, &second);
        prop_assert_eq!(sciproof_core::manifest::to_text(&second), written);
    }
}

/// A real record (`export --format check-records` of a one-claim run), the template of the
/// generated ones.
const RECORD: &str = r#"{"record": "reproducible.science/claim-check/0.1-experimental", "checker": {"name": "sciproof", "version": "0.1.0", "url": "https://crates.io/crates/sciproof"}, "checked_at": "2026-11-30T13:20:08Z", "manifest": {"path": "r.sciproof.json", "digest": "4bc348c3cffdb18a54ca1149900518f6037b31d801eed93b1b67213c38e89c88"}, "claim": {"id": "claim-0", "text": "m.json: $.acc >= 0.9", "digest": "7a620d12687375f9cf940166544fc032f8becd848e6c7668d073cc8eb126d232", "passages": []}, "assertion": {"kind": "claim", "name": "recorded", "position": 0, "index": 0}, "check_type": "other", "reads": [{"artifact": "m.json", "path": "m.json", "media_type": "application/json", "validity": "authoritative", "pinned": "dc209d8fc3548ad166fe0af066d09dc3896a1088a480072bd146968c43d1945c", "on_disk": "dc209d8fc3548ad166fe0af066d09dc3896a1088a480072bd146968c43d1945c", "side": "", "address": {"kind": "tree", "contract": 1, "pointer": "/acc"}, "stored": "0.91"}], "outcome": "match", "native_outcome": "PASS", "native_reason": "holds", "detail": "holds: $.acc is 0.91, claim is >= 0.9", "reader": {"backend": "sciproof-json", "backend_version": "1", "tool": "sciproof", "tool_version": "0.1.0", "extraction_digest": "57d11d85094fc3ae6eb63609b29714b7e76feb15342e6c999cbb5433806c6834"}, "warnings": [], "execution": {"state": "never_rerun", "commands": [{"id": "r", "command": ["true"], "steps": 0, "output": {"artifact": "m.json", "path": "m.json", "media_type": "application/json", "validity": "authoritative", "pinned": "dc209d8fc3548ad166fe0af066d09dc3896a1088a480072bd146968c43d1945c", "on_disk": "dc209d8fc3548ad166fe0af066d09dc3896a1088a480072bd146968c43d1945c"}, "inputs": [], "state": "never_rerun", "causes": []}]}, "sciproof": {"phase": "recorded", "location": "$.acc", "op": ">=", "value": 0.9}}"#;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Records written to a crate read back as the same records (records -> crate -> records is
    /// the identity), for every native word, any claim text, value, path and digest.
    #[test]
    fn records_crate_records_is_the_identity(
        variants in proptest::collection::vec(
            (any::<prop::sample::Index>(), "[ -~\u{e9}]{1,30}", "[-0-9.e]{1,8}", path(), digest(), proptest::option::of(digest())),
            1..6,
        ),
    ) {
        let base = sciproof_core::checkcrate::CheckRecord::from_json(&json::parse(RECORD).unwrap()).unwrap();
        let words = sciproof_core::checkcrate::native::WORDS;
        let records: Vec<sciproof_core::checkcrate::CheckRecord> = variants
            .into_iter()
            .enumerate()
            .map(|(i, (word, text, stored, file, pinned, on_disk))| {
                let (native, reason, outcome, _) = words[word.index(words.len())];
                let mut r = base.clone();
                r.claim_id = format!("claim-{i}");
                r.claim_text = text;
                r.native_outcome = native.into();
                r.native_reason = reason.into();
                r.outcome = outcome.into();
                r.assertion_position = i as u64;
                r.assertion_index = i as u64;
                r.reads[0].artifact = format!("{file}-{i}.json");
                r.reads[0].path = format!("{file}-{i}.json");
                r.reads[0].pinned = Some(pinned.clone());
                r.reads[0].on_disk = on_disk.clone();
                r.reads[0].validity = Some(match &on_disk {
                    None => "artifact_absent",
                    Some(d) if *d == pinned => "authoritative",
                    Some(_) => "broken_pin",
                }.to_string());
                r.reads[0].stored = (outcome == "match" || outcome == "mismatch").then_some(stored);
                r
            })
            .collect();
        let text = sciproof_core::checkcrate::write::to_crate(&records).unwrap();
        let read = sciproof_core::checkcrate::read::from_crate(&text).unwrap();
        prop_assert_eq!(&read.records, &records, "problems: {:?}", read.problems);
        prop_assert_eq!(sciproof_core::checkcrate::write::to_crate(&read.records).unwrap(), text);
    }
}
