//! Claim-check records and the claim-check RO-Crate: `export --format check-records|ro-crate`,
//! read by repro's own reader (reproducible-science 0.6.1), validated by rocrate-validator at the
//! REQUIRED level offline, and loaded by ro-crate-py (all installed into a venv by the tests).

use crate::util::{Project, claimcheck_python, support_script};
use sciproof_core::json::{Value, parse};

/// `m.json` with a number, a string and a nested list; `t.csv` a small table.
fn project() -> Project {
    let p = Project::new();
    p.write("make.sh", "#!/bin/sh\nprintf '{\"acc\": 0.91, \"n\": 120, \"label\": \"ok\", \"xs\": [1.5, 2.5]}\\n' > m.json\nprintf 'a,b\\n1,2\\n' > t.csv\n");
    p.cmd()
        .args([
            "capture",
            "--name",
            "run",
            "--output",
            "m.json",
            "--output",
            "t.csv",
            "--claim",
            "m.json",
            "$.acc >= 0.9",
            "--claim",
            "m.json",
            "$.acc < 0.5",
            "--claim",
            "m.json",
            "$.missing == 1",
            "--claim",
            "m.json",
            "$.label > 1",
            "--claim",
            "m.json",
            "$.n == 120",
            "--claim",
            "m.json",
            "$.xs[1] ~= 2.5 atol=0.01",
            "--claim",
            "t.csv",
            "r1c1 == 2",
            "--claim",
            "m.json",
            "$.acc ~= 91 printed scale=100",
            "--",
            "sh",
            "make.sh",
        ])
        .assert()
        .success();
    p
}

/// `export run.sciproof.json --format FORMAT`, which must succeed; its stdout.
fn export(p: &Project, format: &str) -> String {
    let out = p
        .cmd()
        .args(["export", "run.sciproof.json", "--format", format])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn records(p: &Project) -> Vec<Value> {
    export(p, "check-records")
        .lines()
        .map(|l| parse(l).unwrap())
        .collect()
}

/// The records of an integrity verification of `run.sciproof.json`, checked at `at`.
fn verified_records(p: &Project, at: &str) -> Vec<sciproof_core::checkcrate::CheckRecord> {
    let manifest = p.join("run.sciproof.json");
    let verified =
        sciproof_core::verify::verify_loaded(&sciproof_core::verify::VerifyRequest::integrity(
            &manifest,
            &sciproof_core::progress::NoProgress,
        ))
        .unwrap();
    sciproof_core::checkcrate::records_of(&verified.loaded, &verified.report, at).unwrap()
}

fn get<'a>(v: &'a Value, path: &[&str]) -> &'a Value {
    let mut node = v;
    for key in path {
        node = match (node, key.parse::<usize>()) {
            (Value::Array(a), Ok(i)) => &a[i],
            (Value::Object(o), _) => o.get(key).unwrap_or_else(|| panic!("no {key} in {node:?}")),
            _ => panic!("cannot index {node:?} with {key}"),
        };
    }
    node
}

fn s<'a>(v: &'a Value, path: &[&str]) -> &'a str {
    get(v, path).as_str().unwrap()
}

#[test]
fn records_map_sciproof_claims_onto_the_profile() {
    let p = project();
    let r = records(&p);
    assert_eq!(r.len(), 8);
    let outcome = |i: usize| {
        (
            s(&r[i], &["outcome"]).to_string(),
            s(&r[i], &["native_outcome"]).to_string(),
            s(&r[i], &["native_reason"]).to_string(),
            s(&r[i], &["check_type"]).to_string(),
        )
    };
    let o = |a: &str, b: &str, c: &str, d: &str| {
        (a.to_string(), b.to_string(), c.to_string(), d.to_string())
    };
    assert_eq!(outcome(0), o("match", "PASS", "holds", "other"));
    assert_eq!(outcome(1), o("mismatch", "FAIL", "does_not_hold", "other"));
    // A missing location or a non-number is not-found, never a mismatch.
    assert_eq!(
        outcome(2),
        o("not-found", "FAIL", "location_absent", "value-comparison")
    );
    assert_eq!(outcome(3), o("not-found", "FAIL", "not_a_number", "other"));
    assert_eq!(outcome(4), o("match", "PASS", "holds", "value-comparison"));
    assert_eq!(s(&r[4], &["comparison", "mode"]), "absolute");
    assert_eq!(s(&r[4], &["comparison", "tolerance"]), "0");
    assert_eq!(s(&r[4], &["printed"]), "120");
    assert_eq!(outcome(5), o("match", "PASS", "holds", "value-comparison"));
    assert_eq!(s(&r[5], &["comparison", "tolerance"]), "0.01");
    assert_eq!(s(&r[5], &["reads", "0", "address", "pointer"]), "/xs/1");
    assert_eq!(s(&r[6], &["reads", "0", "address", "kind"]), "cell");
    // A printed claim scaled by 100 is a printed-precision comparison with a percent conversion.
    assert_eq!(outcome(7), o("match", "PASS", "holds", "value-comparison"));
    assert_eq!(s(&r[7], &["comparison", "mode"]), "printed_precision");
    assert_eq!(s(&r[7], &["comparison", "conversion"]), "percent");
    assert_eq!(s(&r[7], &["reads", "0", "converted"]), "91");
    assert_eq!(s(&r[7], &["printed"]), "91");
    // The read: canonical address, the value found, both digests, validity.
    let read = get(&r[0], &["reads", "0"]);
    assert_eq!(s(read, &["stored"]), "0.91");
    assert_eq!(s(read, &["validity"]), "authoritative");
    assert_eq!(s(read, &["pinned"]), s(read, &["on_disk"]));
    assert_eq!(s(&r[0], &["sciproof", "op"]), ">=");
    assert!(s(&r[0], &["checked_at"]).ends_with('Z'));
    // repro's record model reads every record (its consistency rules flag a checker it does not
    // know, and read our matches as not-checked: unknown stays unknown).
    std::fs::write(
        p.join("r.jsonl"),
        r.iter()
            .map(sciproof_core::json::to_string_compact)
            .collect::<Vec<_>>()
            .join("\n"),
    )
    .unwrap();
    let (code, out, err) = support_script(
        claimcheck_python(),
        "repro_interop.py",
        &["validate", p.join("r.jsonl").to_str().unwrap()],
    );
    assert_eq!(code, 0, "{err}");
    let read: Vec<Value> = out.lines().map(|l| parse(l).unwrap()).collect();
    assert_eq!(read.len(), 8);
    assert_eq!(s(&read[0], &["read_outcome"]), "not-checked");
    assert_eq!(s(&read[1], &["read_outcome"]), "mismatch");
}

#[test]
fn modified_and_missing_outputs_are_not_checked_with_their_validity() {
    let p = project();
    p.write("m.json", "{\"acc\": 0.1}\n");
    std::fs::remove_file(p.join("t.csv")).unwrap();
    let r = records(&p);
    assert_eq!(s(&r[0], &["outcome"]), "not-checked");
    assert_eq!(s(&r[0], &["native_reason"]), "output_modified");
    let read = get(&r[0], &["reads", "0"]);
    assert_eq!(s(read, &["validity"]), "broken_pin");
    assert_ne!(s(read, &["pinned"]), s(read, &["on_disk"]));
    assert!(
        read.as_object().unwrap().get("stored").is_none(),
        "not judged, nothing stored"
    );
    assert_eq!(s(&r[6], &["outcome"]), "not-checked");
    assert_eq!(s(&r[6], &["native_reason"]), "output_missing");
    assert_eq!(s(&r[6], &["reads", "0", "validity"]), "artifact_absent");
    // In the crate, the absent file has a local identifier.
    p.cmd()
        .args(["export", "run.sciproof.json", "--format", "ro-crate"])
        .assert()
        .success();
    let text = p.read("ro-crate-metadata.json");
    assert!(text.contains("\"@id\": \"#artifact/t.csv\""), "{text}");
    let (code, _, err) = support_script(
        claimcheck_python(),
        "repro_interop.py",
        &["read", p.join("ro-crate-metadata.json").to_str().unwrap()],
    );
    assert_eq!(code, 0, "repro reads it: {err}");
}

#[test]
fn crate_passes_rocrate_validator_and_loads_in_both_readers() {
    let p = project();
    export(&p, "ro-crate");
    let text = p.read("ro-crate-metadata.json");
    let doc = parse(&text).unwrap();
    let graph = get(&doc, &["@graph"]).as_array().unwrap();
    let root = &graph[1];
    assert_eq!(s(root, &["@id"]), "./");
    assert_eq!(
        s(root, &["conformsTo", "@id"]),
        sciproof_core::checkcrate::write::PROFILE
    );
    // Our own match stays a match; the predicate is in sciproof's terms.
    let first = graph
        .iter()
        .find(|e| s(e, &["@id"]) == "#check/claim-0/0")
        .unwrap();
    assert!(s(first, &["outcome", "@id"]).ends_with("#match"));
    assert!(s(first, &["checkType", "@id"]).ends_with("#other"));
    assert_eq!(s(first, &["sciproofOp"]), ">=");
    assert_eq!(s(first, &["sciproofValue"]), "0.9");
    // No property is a boolean anywhere.
    assert!(!text.contains(": true") && !text.contains(": false"));
    // repro's reader reads it back into the same records (outcomes as repro reads them).
    let (code, back, err) = support_script(
        claimcheck_python(),
        "repro_interop.py",
        &["read", p.join("ro-crate-metadata.json").to_str().unwrap()],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(back.lines().count(), 8);
    // rocrate-validator passes it at REQUIRED (offline), and ro-crate-py loads it.
    let (code, out, err) = validate_required(&p);
    assert_eq!(code, 0, "{out}\n{err}");
}

#[test]
fn crate_writing_is_deterministic_and_never_overwrites_other_files() {
    let p = project();
    let at = "2026-11-30T08:00:00+00:00";
    let a = verified_records(&p, at);
    let b = verified_records(&p, at);
    let text = sciproof_core::checkcrate::write::to_crate(&a).unwrap();
    assert_eq!(
        text,
        sciproof_core::checkcrate::write::to_crate(&b).unwrap()
    );
    // Records survive their JSON form unchanged.
    for r in &a {
        assert_eq!(
            &sciproof_core::checkcrate::CheckRecord::from_json(&r.to_json()).unwrap(),
            r
        );
    }
    p.write("ro-crate-metadata.json", "{\"mine\": 1}\n");
    let out = p
        .cmd()
        .args(["export", "run.sciproof.json", "--format", "ro-crate"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not a claim-check crate"));
    assert_eq!(p.read("ro-crate-metadata.json"), "{\"mine\": 1}\n");
}

#[test]
fn repro_crates_are_rewritten_byte_for_byte() {
    for name in ["01-demo-verified", "02-demo-rerun", "03-mixed-outcomes"] {
        let dir = format!(
            "{}/tests/data/claim-check-crates/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        let original = std::fs::read_to_string(format!("{dir}/ro-crate-metadata.json")).unwrap();
        let (code, lines, err) = support_script(
            claimcheck_python(),
            "repro_interop.py",
            &["read", &format!("{dir}/ro-crate-metadata.json")],
        );
        assert_eq!(code, 0, "{err}");
        let records: Vec<_> = lines
            .lines()
            .map(|l| sciproof_core::checkcrate::CheckRecord::from_json(&parse(l).unwrap()).unwrap())
            .collect();
        assert_eq!(
            sciproof_core::checkcrate::write::to_crate(&records).unwrap(),
            original,
            "{name}"
        );
    }
}

#[test]
fn records_crate_records_is_the_identity_and_crate_read_reports() {
    let p = project();
    p.write("m.json", "{\"acc\": 0.1}\n");
    let records = verified_records(&p, "2026-11-30T08:00:00+00:00");
    let text = sciproof_core::checkcrate::write::to_crate(&records).unwrap();
    let read = sciproof_core::checkcrate::read::from_crate(&text).unwrap();
    assert_eq!(read.problems, Vec::<String>::new());
    assert_eq!(read.records, records);
    // crate -> records -> crate is byte-identical.
    assert_eq!(
        sciproof_core::checkcrate::write::to_crate(&read.records).unwrap(),
        text
    );
    // The command line: a table, or the records as JSON Lines.
    export(&p, "ro-crate");
    let out = p.cmd().args(["crate", "read", "."]).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(
        table.starts_with("claim") && table.contains("not-checked") && table.contains("broken_pin"),
        "{table}"
    );
    let out = p
        .cmd()
        .args(["crate", "read", "ro-crate-metadata.json", "--json"])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap().lines().count(), 8);
}

#[test]
fn repro_crates_read_as_repro_reads_them() {
    for name in ["01-demo-verified", "02-demo-rerun", "03-mixed-outcomes"] {
        let file = format!(
            "{}/tests/data/claim-check-crates/{name}/ro-crate-metadata.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let original = std::fs::read_to_string(&file).unwrap();
        let read = sciproof_core::checkcrate::read::from_crate(&original).unwrap();
        assert_eq!(read.problems, Vec::<String>::new(), "{name}");
        // Ours: crate -> records -> crate, byte for byte.
        assert_eq!(
            sciproof_core::checkcrate::write::to_crate(&read.records).unwrap(),
            original,
            "{name}"
        );
        // The same records repro's reader gives, line for line.
        let (code, theirs, err) =
            support_script(claimcheck_python(), "repro_interop.py", &["read", &file]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(
            sciproof_core::checkcrate::to_json_lines(&read.records),
            theirs,
            "{name}"
        );
    }
}

#[test]
fn bad_crates_get_a_clear_error_or_a_list_of_problems() {
    let p = project();
    export(&p, "ro-crate");
    let good = p.read("ro-crate-metadata.json");
    let read = |text: &str| sciproof_core::checkcrate::read::from_crate(text);
    for (text, expected) in [
        ("not json".to_string(), "not JSON"),
        ("{\"@graph\": {}}".to_string(), "no flattened graph"),
        (
            "{\"@graph\": [{\"@id\": \"x\"}]}".to_string(),
            "no flattened graph",
        ),
        (
            format!("{}{}", "[".repeat(100_000), "]".repeat(100_000)),
            "not JSON",
        ),
        (
            good.replace(
                sciproof_core::checkcrate::write::PROFILE,
                "https://example.org/other/",
            ),
            "does not conform",
        ),
    ] {
        let err = read(&text).unwrap_err().to_string();
        assert!(err.contains(expected), "{err}");
    }
    let problems = |text: String| read(&text).unwrap().problems.join("\n");
    // An unknown outcome or check type is listed and the check is not read, never as a match.
    let unknown = good.replacen("claim-check/0.1/#match", "claim-check/0.1/#great", 1);
    let r = read(&unknown).unwrap();
    assert!(
        r.problems.iter().any(|p| p.contains("outcome great")),
        "{:?}",
        r.problems
    );
    assert_eq!(r.records.len(), 7);
    assert!(
        problems(good.replacen("claim-check/0.1/#other\"", "claim-check/0.1/#vibes\"", 1))
            .contains("checkType vibes")
    );
    // Booleans, entities without @id, repeated identifiers, missing required properties.
    assert!(
        problems(good.replacen(
            "\"assertionIndex\": 0",
            "\"assertionIndex\": 0, \"flag\": true",
            1
        ))
        .contains("boolean")
    );
    assert!(
        problems(good.replacen(
            "{\n      \"@id\": \"#claim/claim-0\",",
            "{\"name\": \"x\"}, {\n      \"@id\": \"#claim/claim-0\",",
            1
        ))
        .contains("has no @id")
    );
    let doc = parse(&good).unwrap();
    let mut graph = get(&doc, &["@graph"]).as_array().unwrap().to_vec();
    graph.push(graph[3].clone());
    let mut o = doc.as_object().unwrap().clone();
    o.insert("@graph", Value::Array(graph));
    assert!(problems(sciproof_core::json::to_string_pretty(&Value::Object(o))).contains("repeats"));
    assert!(
        problems(good.replace("\"nativeReason\"", "\"nativeRationale\""))
            .contains("required property nativeReason")
    );
    // A cycle of references does not loop: a command that is its own input.
    let cyclic = good.replacen(
        "\"declaredOutput\": {",
        "\"declaredInput\": {\"@id\": \"m.json\"}, \"declaredOutput\": {",
        1,
    );
    assert_ne!(cyclic, good);
    let r = read(&cyclic).unwrap();
    assert_eq!(r.problems, Vec::<String>::new());
    let execution = r.records[0]
        .execution
        .as_ref()
        .expect("the upstream command is read");
    assert_eq!(execution.get("state"), Some(&Value::from("never_rerun")));
}

/// rocrate-validator (offline, REQUIRED level) and ro-crate-py on the project's crate.
fn validate_required(p: &Project) -> (i32, String, String) {
    let cache = p.join("validator-cache");
    support_script(
        claimcheck_python(),
        "rocrate_validate.py",
        &[
            p.path().to_str().unwrap(),
            "required",
            cache.to_str().unwrap(),
        ],
    )
}

/// `verify --rerun --yes --save-crate TARGET`; its exit code.
fn rerun_and_save(p: &Project, target: &str) -> Option<i32> {
    p.cmd()
        .args([
            "verify",
            "run.sciproof.json",
            "--rerun",
            "--yes",
            "--save-crate",
            target,
        ])
        .output()
        .unwrap()
        .status
        .code()
}

#[test]
fn verify_save_crate_describes_the_rerun() {
    let p = project();
    // Without a rerun: the command is declared, never re-run, and Process Run Crate is not claimed.
    let out = p
        .cmd()
        .args(["verify", "run.sciproof.json", "--save-crate", "."])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "two claims fail");
    let text = p.read("ro-crate-metadata.json");
    assert!(
        text.contains("\"#command/run%3Am.json\"")
            && text.contains("\"freshness\": \"never_rerun\"")
    );
    assert!(!text.contains(sciproof_core::checkcrate::write::PROCESS_RUN_CRATE));
    // With one: a CreateAction with status, exit code and duration, and PRC 0.6 declared.
    assert_eq!(rerun_and_save(&p, "."), Some(1));
    let text = p.read("ro-crate-metadata.json");
    let doc = parse(&text).unwrap();
    let graph = get(&doc, &["@graph"]).as_array().unwrap();
    let rerun = graph
        .iter()
        .find(|e| s(e, &["@id"]) == "#rerun/run%3Am.json")
        .expect("a CreateAction");
    assert_eq!(s(rerun, &["@type"]), "CreateAction");
    assert_eq!(
        s(rerun, &["actionStatus", "@id"]),
        "http://schema.org/CompletedActionStatus"
    );
    assert_eq!(s(rerun, &["rerunState"]), "reproduced");
    assert!(get(rerun, &["exitCode"]).as_f64() == Some(0.0));
    assert!(get(rerun, &["durationSeconds"]).as_f64().unwrap() >= 0.0);
    assert_eq!(get(&graph[1], &["conformsTo"]).as_array().unwrap().len(), 2);
    // Both phases of every claim are checks; the rerun ones read the rerun's output.
    let read = sciproof_core::checkcrate::read::from_crate(&text).unwrap();
    assert_eq!(read.problems, Vec::<String>::new());
    assert_eq!(read.records.len(), 16);
    assert_eq!(read.records[8].assertion_name, "rerun");
    assert_eq!(
        sciproof_core::checkcrate::write::to_crate(&read.records).unwrap(),
        text
    );
    let (code, _, err) = support_script(
        claimcheck_python(),
        "repro_interop.py",
        &["read", p.join("ro-crate-metadata.json").to_str().unwrap()],
    );
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = validate_required(&p);
    assert_eq!(
        code, 0,
        "a crate with a re-run is valid at REQUIRED too: {out}\n{err}"
    );
    // A command that now fails: FailedActionStatus, with the reason as the error.
    p.write("make.sh", "#!/bin/sh\nexit 4\n");
    assert_eq!(rerun_and_save(&p, "failed.json"), Some(1));
    let text = p.read("failed.json");
    assert!(
        text.contains("http://schema.org/FailedActionStatus")
            && text.contains("\"error\": \"command_failed\""),
        "{text}"
    );
}

#[test]
fn unknown_terms_and_huge_documents() {
    let p = project();
    export(&p, "ro-crate");
    let good = p.read("ro-crate-metadata.json");
    let odd = good.replacen(
        "\"assertionIndex\": 0",
        "\"assertionIndex\": 0, \"colour\": \"red\"",
        1,
    );
    let r = sciproof_core::checkcrate::read::from_crate(&odd).unwrap();
    assert!(
        r.problems
            .iter()
            .any(|p| p.contains("unknown property 'colour'")),
        "{:?}",
        r.problems
    );
    assert_eq!(r.records.len(), 8, "an unknown term is reported, not fatal");
    // 100 MB of JSON: a clear refusal, not a crash.
    let mut big = String::with_capacity(100 << 20);
    big.push_str("{\"@graph\": [");
    let entity =
        "{\"@id\": \"#x\", \"name\": \"padding padding padding padding padding padding\"}, ";
    while big.len() < 100 << 20 {
        big.push_str(entity);
    }
    big.push_str("{\"@id\": \"#end\"}]}");
    let err = sciproof_core::checkcrate::read::from_crate(&big).unwrap_err();
    assert!(err.to_string().contains("no flattened graph"), "{err}");
}

#[test]
fn a_signed_manifest_puts_its_signature_in_the_payload() {
    let p = project();
    let keygen = std::process::Command::new("ssh-keygen")
        .args(["-q", "-t", "ed25519", "-N", "", "-f", "key"])
        .current_dir(p.path())
        .status()
        .expect("ssh-keygen (openssh-client) is installed by .ci/run");
    assert!(keygen.success());
    p.cmd()
        .args(["sign", "run.sciproof.json", "--key", "key"])
        .assert()
        .success();
    export(&p, "ro-crate");
    let text = p.read("ro-crate-metadata.json");
    let doc = parse(&text).unwrap();
    let graph = get(&doc, &["@graph"]).as_array().unwrap();
    let parts: Vec<&str> = get(&graph[1], &["hasPart"])
        .as_array()
        .unwrap()
        .iter()
        .map(|h| s(h, &["@id"]))
        .collect();
    assert!(parts.contains(&"run.sciproof.json.sig"), "{parts:?}");
    let manifest = graph
        .iter()
        .find(|e| s(e, &["@id"]) == "run.sciproof.json")
        .unwrap();
    assert_eq!(
        s(manifest, &["sciproofSignature", "@id"]),
        "run.sciproof.json.sig"
    );
    let read = sciproof_core::checkcrate::read::from_crate(&text).unwrap();
    assert_eq!(read.problems, Vec::<String>::new());
    assert_eq!(
        read.records[0]
            .manifest_signature
            .as_ref()
            .map(|s| s.0.as_str()),
        Some("run.sciproof.json.sig")
    );
    assert_eq!(
        sciproof_core::checkcrate::write::to_crate(&read.records).unwrap(),
        text
    );
    let (code, out, err) = validate_required(&p);
    assert_eq!(code, 0, "{out}\n{err}");
}

#[test]
fn a_check_in_words_its_checker_never_emits_is_never_read_as_a_match() {
    let file = format!(
        "{}/tests/data/claim-check-crates/01-demo-verified/ro-crate-metadata.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let original = std::fs::read_to_string(&file).unwrap();
    assert!(original.contains("\"nativeOutcome\": \"verified\""));
    for (from, to) in [
        (
            "\"nativeOutcome\": \"verified\"",
            "\"nativeOutcome\": \"looks_fine\"",
        ),
        (
            "\"nativeReason\": \"value_match\"",
            "\"nativeReason\": \"trust_me\"",
        ),
        (
            "\"nativeOutcome\": \"verified\"",
            "\"nativeOutcome\": \"mismatch\"",
        ),
    ] {
        let edited = original.replacen(from, to, 1);
        assert_ne!(edited, original, "{from}");
        let read = sciproof_core::checkcrate::read::from_crate(&edited).unwrap();
        assert!(
            read.problems
                .iter()
                .any(|p| p.contains("it is read as not-checked")),
            "{to}: {:?}",
            read.problems
        );
        let matches = read.records.iter().filter(|r| r.outcome == "match").count();
        let before = sciproof_core::checkcrate::read::from_crate(&original)
            .unwrap()
            .records
            .iter()
            .filter(|r| r.outcome == "match")
            .count();
        assert_eq!(
            matches,
            before - 1,
            "{to}: the doubtful match is not a match"
        );
        // And the command line says so too.
        let p = Project::new();
        p.write("crate/ro-crate-metadata.json", &edited);
        let out = p.cmd().args(["crate", "read", "crate"]).output().unwrap();
        assert_eq!(out.status.code(), Some(1));
        assert!(String::from_utf8_lossy(&out.stderr).contains("read as not-checked"));
    }
}

#[test]
fn after_a_rerun_every_read_of_a_match_or_mismatch_is_a_file_in_the_crate() {
    let p = project();
    assert_eq!(rerun_and_save(&p, "."), Some(1));
    let text = p.read("ro-crate-metadata.json");
    let read = sciproof_core::checkcrate::read::from_crate(&text).unwrap();
    let mut rerun_reads = 0;
    for record in &read.records {
        for file in &record.reads {
            if matches!(record.outcome.as_str(), "match" | "mismatch") {
                assert_ne!(
                    file.validity.as_deref(),
                    Some("artifact_absent"),
                    "{}: a {} read a file that is not there",
                    record.claim_text,
                    record.outcome
                );
                assert!(
                    p.join(&file.path).is_file(),
                    "{}: {} is not in the crate",
                    record.claim_text,
                    file.path
                );
            }
            if record.assertion_name == "rerun" {
                rerun_reads += 1;
            }
        }
    }
    assert!(rerun_reads > 0);
}

// ---- Rules of the claim-check crate seed (../shared/seeds/claim-check-crate.txt) ----

/// The records of `verify --rerun` of `project()` after `make.sh` was replaced by `script`.
fn rerun_records(script: &str) -> Vec<Value> {
    let p = project();
    p.write("make.sh", script);
    p.cmd()
        .args([
            "verify",
            "run.sciproof.json",
            "--rerun",
            "--yes",
            "--save-crate",
            "crate.json",
        ])
        .output()
        .unwrap();
    let out = p
        .cmd()
        .args(["crate", "read", "crate.json", "--json"])
        .output()
        .unwrap();
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| parse(l).unwrap())
        .filter(|r| s(r, &["assertion", "name"]) == "rerun")
        .collect()
}

#[test]
fn seed_crate_a_rerun_output_that_cannot_be_read_is_output_unreadable_not_checked() {
    let records =
        rerun_records("#!/bin/sh\nprintf 'not json' > m.json\nprintf 'a,b\\n1,2\\n' > t.csv\n");
    let r = records
        .iter()
        .find(|r| s(r, &["claim", "text"]) == "m.json: $.acc >= 0.9")
        .expect("the rerun-phase record");
    assert_eq!(s(r, &["native_reason"]), "output_unreadable");
    assert_eq!(s(r, &["outcome"]), "not-checked");
}

#[test]
fn seed_crate_a_rerun_that_did_not_produce_the_output_is_rerun_output_missing() {
    let records = rerun_records("#!/bin/sh\nprintf 'a,b\\n1,2\\n' > t.csv\n");
    let r = records
        .iter()
        .find(|r| s(r, &["claim", "text"]) == "m.json: $.n == 120")
        .expect("the rerun-phase record");
    assert_eq!(s(r, &["native_reason"]), "rerun_output_missing");
    assert_eq!(s(r, &["outcome"]), "not-checked");
    let reads = get(r, &["reads"]).as_array().unwrap();
    assert!(
        reads
            .iter()
            .all(|f| s(f, &["validity"]) == "artifact_absent"),
        "{r:?}"
    );
}

#[test]
fn seed_crate_every_native_word_round_trips_with_its_outcome() {
    // rerun_not_run and internal_error have no natural trigger through the command line (a rerun
    // that does not complete has no rerun-phase checks; sciproof failing is a bug): each word of
    // the closed list is written to a crate and read back with the outcome it maps to, and
    // nothing but `holds` is ever a match.
    let p = project();
    let base = verified_records(&p, "2026-01-01T00:00:00Z");
    for (native, reason, outcome, _) in sciproof_core::checkcrate::native::WORDS {
        let mut record = base[0].clone();
        record.native_outcome = native.into();
        record.native_reason = reason.into();
        record.outcome = outcome.into();
        let text = sciproof_core::checkcrate::write::to_crate(&[record]).unwrap();
        let read = sciproof_core::checkcrate::read::from_crate(&text).unwrap();
        assert_eq!(read.records.len(), 1, "{reason}: {:?}", read.problems);
        assert_eq!(read.records[0].outcome, outcome, "{reason}");
        assert_eq!(
            read.records[0].read_outcome() == "match",
            reason == "holds",
            "{reason}"
        );
    }
}

#[test]
fn seed_crate_scale_0_01_is_the_fraction_conversion_and_other_factors_are_other() {
    let p = project();
    p.write("f.json", "{\"pct\": 91.8}");
    p.cmd()
        .args(["capture", "--name", "f", "--output", "f.json"])
        .args(["--claim", "f.json", "$.pct ~= 0.918 printed scale=0.01"])
        .args(["--claim", "f.json", "$.pct ~= 918 printed scale=10"])
        .args(["--", "true"])
        .assert()
        .success();
    let out = p
        .cmd()
        .args(["export", "f.sciproof.json", "--format", "check-records"])
        .output()
        .unwrap();
    let records: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| parse(l).unwrap())
        .collect();
    assert_eq!(s(&records[0], &["comparison", "conversion"]), "fraction");
    assert_eq!(s(&records[0], &["check_type"]), "value-comparison");
    assert_eq!(
        s(&records[1], &["check_type"]),
        "other",
        "a factor the profile has no word for"
    );
}

#[test]
fn seed_crate_predicates_that_are_not_value_comparisons_are_check_type_other() {
    let p = project();
    p.write(
        "o.json",
        "{\"s\": \"ok\", \"b\": true, \"z\": null, \"x\": 1.0}",
    );
    p.cmd()
        .args(["capture", "--name", "o", "--output", "o.json"])
        .args(["--claim", "o.json", "$.s == \"ok\""])
        .args(["--claim", "o.json", "$.b == true"])
        .args(["--claim", "o.json", "$.z == null"])
        .args(["--claim", "o.json", "$.x ~= 1.0 rtol=0.1"])
        .args(["--claim", "o.json", "$.x == 1"])
        .args(["--", "true"])
        .assert()
        .success();
    let out = p
        .cmd()
        .args(["export", "o.sciproof.json", "--format", "check-records"])
        .output()
        .unwrap();
    let types: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| s(&parse(l).unwrap(), &["check_type"]).to_string())
        .collect();
    assert_eq!(
        types,
        ["other", "other", "other", "other", "value-comparison"]
    );
}

#[test]
fn seed_crate_a_file_outside_the_project_has_a_hash_identifier() {
    let p = project();
    let mut records = verified_records(&p, "2026-01-01T00:00:00Z");
    let mut record = records.remove(0);
    record.reads[0].path = "../elsewhere/m.json".into();
    let text = sciproof_core::checkcrate::write::to_crate(&[record.clone()]).unwrap();
    assert!(!text.contains("\"@id\": \"../elsewhere/m.json\""), "{text}");
    assert!(text.contains("\"@id\": \"#artifact/"), "{text}");
    let read = sciproof_core::checkcrate::read::from_crate(&text).unwrap();
    assert_eq!(read.records[0].reads[0].path, "../elsewhere/m.json");
}
