//! Artifacts in object storage, against a real store (SeaweedFS's S3 gateway, see
//! `seaweedfs.rs`), set up and checked with an independent client (rclone): capture and verify
//! of remote inputs, outputs and prefixes; modified, deleted and overwritten objects; a store
//! that is down and credentials that are missing or wrong (INCONCLUSIVE, never PASS or FAIL);
//! reruns with remote inputs and outputs; exports; hostile addresses.

use crate::seaweedfs::{Store, dead_endpoint, store};
use crate::util::{Project, check_for, field, reference_cmd};
use sciproof_core::json::{self, Value};

/// A bucket name of its own for each test (the store is shared by the whole run).
fn bucket(tag: &str) -> String {
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    format!("t-{tag}-{}-{n}-{nanos}", std::process::id())
}

/// `sciproof ARGS` in `p`, with the store's environment plus `extra`; (exit code, stdout,
/// stderr).
fn run(p: &Project, s: &Store, args: &[&str], extra: &[(&str, &str)]) -> (i32, String, String) {
    let mut cmd = p.cmd();
    for (k, v) in s.env() {
        cmd.env(k, v);
    }
    for (k, v) in extra {
        cmd.env(k, v);
    }
    let out = cmd.args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn verify_json(p: &Project, s: &Store, extra: &[(&str, &str)]) -> (i32, Value) {
    let (code, stdout, stderr) = run(p, s, &["verify", "--json", "e.sciproof.json"], extra);
    let report = json::parse(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}\n{stderr}"));
    (code, report)
}

fn status_and_message(report: &Value, subject: &str) -> (String, String) {
    let check = check_for(report, subject);
    (
        field(&check, "status").as_str().unwrap().to_string(),
        field(&check, "message").as_str().unwrap().to_string(),
    )
}

/// Captures `e` with the single input `url` and a local output, and asserts success.
fn capture_input(p: &Project, s: &Store, url: &str) {
    capture(
        p,
        s,
        &["--input", url, "--output", "o.txt"],
        "echo o > o.txt",
    );
}

/// Captures `e` with `args` (then `--`, `command` run by sh) and asserts success.
fn capture(p: &Project, s: &Store, args: &[&str], command: &str) {
    let mut all = vec!["capture", "--name", "e"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--", "sh", "-c", command]);
    let (code, stdout, stderr) = run(p, s, &all, &[]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
}

#[test]
fn remote_inputs_outputs_and_prefixes_are_captured_pinned_and_verified() {
    let s = store();
    let (plain, versioned) = (bucket("plain"), bucket("vers"));
    s.bucket(&plain, false);
    s.bucket(&versioned, true);
    assert!(s.put(&plain, "in.txt", b"abc\n"));
    assert!(s.put(&plain, "pre/a.csv", b"1,2\n"));
    assert!(s.put(&plain, "pre/b/c.txt", b"c\n"));
    let p = Project::new();
    let rclone = s.rclone_path();
    let rclone = rclone.display();
    capture(
        &p,
        s,
        &[
            "--input",
            &format!("s3://{plain}/in.txt"),
            "--input",
            &format!("s3://{plain}/pre/"),
            "--output",
            &format!("s3://{versioned}/out/result.txt"),
            "--output",
            "local.txt",
        ],
        &format!(
            "{rclone} cat sw:{plain}/in.txt | tr a-z A-Z | {rclone} rcat sw:{versioned}/out/result.txt && echo local > local.txt"
        ),
    );
    let manifest = json::parse(&p.read("e.sciproof.json")).unwrap();
    let inputs = field(&manifest, "inputs").as_array().unwrap();
    let object = field(&inputs[0], "object");
    assert!(field(object, "etag").as_str().is_some(), "{object:?}");
    assert_eq!(
        field(&inputs[0], "sha256").as_str().unwrap(),
        sciproof_core::hash::sha256_bytes(b"abc\n")
    );
    assert_eq!(
        field(&inputs[1], "path").as_str(),
        Some(format!("s3://{plain}/pre").as_str())
    );
    assert_eq!(field(&inputs[1], "kind").as_str(), Some("directory"));
    let files: Vec<&str> = field(&inputs[1], "files")
        .as_array()
        .unwrap()
        .iter()
        .map(|f| field(f, "path").as_str().unwrap())
        .collect();
    assert_eq!(files, ["a.csv", "b/c.txt"]);
    assert_eq!(field(&inputs[1], "objects").as_array().unwrap().len(), 2);
    let output = &field(&manifest, "outputs").as_array().unwrap()[0];
    assert!(
        field(field(output, "object"), "version").as_str().is_some(),
        "a versioned bucket pins the version: {output:?}"
    );
    assert_eq!(
        field(output, "sha256").as_str().unwrap(),
        sciproof_core::hash::sha256_bytes(b"ABC\n")
    );

    let (code, report) = verify_json(&p, s, &[]);
    assert_eq!(code, 0, "{report:?}");
    for subject in [
        format!("input s3://{plain}/in.txt"),
        format!("input s3://{plain}/pre"),
        format!("output s3://{versioned}/out/result.txt"),
    ] {
        assert_eq!(status_and_message(&report, &subject).0, "PASS", "{subject}");
    }

    // Exports name remote artifacts by their address and digest.
    let (code, intoto, _) = run(
        &p,
        s,
        &["export", "e.sciproof.json", "--format", "in-toto"],
        &[],
    );
    assert_eq!(code, 0);
    assert!(
        intoto.contains(&format!("s3://{versioned}/out/result.txt")),
        "{intoto}"
    );
    assert!(
        intoto.contains(&format!("s3://{plain}/pre/b/c.txt")),
        "{intoto}"
    );
    let (code, lineage, _) = run(
        &p,
        s,
        &["export", "e.sciproof.json", "--format", "openlineage"],
        &[],
    );
    assert_eq!(code, 0);
    assert!(
        lineage.contains(&format!("\"namespace\": \"s3://{plain}\""))
            || lineage.contains(&format!("\"namespace\":\"s3://{plain}\"")),
        "{lineage}"
    );

    // `list --check` verifies it like any other manifest.
    let (code, listed, stderr) = run(&p, s, &["list", "--check"], &[]);
    assert_eq!(code, 0, "{listed}\n{stderr}");

    // sciproof 0.4.1 refuses such a manifest instead of misreading it.
    let reference = reference_cmd(p.path())
        .args(["verify", "e.sciproof.json"])
        .output()
        .unwrap();
    assert_eq!(reference.status.code(), Some(3));
    assert!(
        String::from_utf8_lossy(&reference.stderr).contains("invalid manifest"),
        "{reference:?}"
    );
}

#[test]
fn modified_deleted_and_added_objects_fail_or_are_inconclusive() {
    let s = store();
    let b = bucket("change");
    s.bucket(&b, false);
    assert!(s.put(&b, "in.txt", b"one\n"));
    assert!(s.put(&b, "dir/x.txt", b"x\n"));
    let p = Project::new();
    capture(
        &p,
        s,
        &[
            "--input",
            &format!("s3://{b}/in.txt"),
            "--input",
            &format!("s3://{b}/dir"),
            "--output",
            "o.txt",
        ],
        "echo o > o.txt",
    );
    assert!(s.put(&b, "in.txt", b"two\n"));
    assert!(s.put(&b, "dir/added.txt", b"new\n"));
    let (code, report) = verify_json(&p, s, &[]);
    assert_eq!(code, 1, "{report:?}");
    let (status, message) = status_and_message(&report, &format!("input s3://{b}/in.txt"));
    assert_eq!(
        (status.as_str(), message.as_str()),
        ("FAIL", "modified since capture (SHA-256 differs)")
    );
    let evidence = field(
        &check_for(&report, &format!("input s3://{b}/in.txt")),
        "evidence",
    )
    .clone();
    assert_eq!(
        field(&evidence, "actual_sha256").as_str().unwrap(),
        sciproof_core::hash::sha256_bytes(b"two\n")
    );
    let (status, message) = status_and_message(&report, &format!("input s3://{b}/dir"));
    assert_eq!(status, "FAIL");
    assert!(message.contains("added.txt"), "{message}");

    // `diff` of the two captures names the changed object and both digests' sides.
    let (code, stdout, stderr) = run(
        &p,
        s,
        &[
            "capture",
            "--name",
            "f",
            "--input",
            &format!("s3://{b}/in.txt"),
            "--input",
            &format!("s3://{b}/dir"),
            "--output",
            "o.txt",
            "--",
            "sh",
            "-c",
            "echo o > o.txt",
        ],
        &[],
    );
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let (code, stdout, _) = run(&p, s, &["diff", "e.sciproof.json", "f.sciproof.json"], &[]);
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains(&format!("s3://{b}/in.txt")), "{stdout}");
    assert!(stdout.contains("added.txt"), "{stdout}");

    s.delete(&b, "in.txt");
    let (_, report) = verify_json(&p, s, &[]);
    let (status, message) = status_and_message(&report, &format!("input s3://{b}/in.txt"));
    assert_eq!(status, "INCONCLUSIVE");
    assert!(message.contains("not available"), "{message}");
}

#[test]
fn a_store_that_is_down_or_refuses_is_inconclusive_never_pass_or_fail() {
    let s = store();
    let b = bucket("down");
    s.bucket(&b, false);
    assert!(s.put(&b, "in.txt", b"data\n"));
    let p = Project::new();
    capture(
        &p,
        s,
        &["--input", &format!("s3://{b}/in.txt"), "--output", "o.txt"],
        "echo o > o.txt",
    );
    let subject = format!("input s3://{b}/in.txt");
    let dead = dead_endpoint();
    for (extra, expected) in [
        (vec![("AWS_ENDPOINT_URL", dead.as_str())], "unreachable"),
        (vec![("AWS_SECRET_ACCESS_KEY", "wrong")], "credentials"),
    ] {
        let (code, report) = verify_json(&p, s, &extra);
        assert_eq!(code, 2, "{report:?}");
        let (status, message) = status_and_message(&report, &subject);
        assert_eq!(status, "INCONCLUSIVE");
        assert!(message.contains(expected), "{expected}: {message}");
    }
    // No credentials anywhere: said so, with what to set.
    let mut cmd = p.cmd();
    for (k, v) in s.env() {
        if !k.starts_with("AWS_ACCESS") && !k.starts_with("AWS_SECRET") {
            cmd.env(k, v);
        }
    }
    let out = cmd
        .env_remove("AWS_ACCESS_KEY_ID")
        .env_remove("AWS_SECRET_ACCESS_KEY")
        .env_remove("AWS_PROFILE")
        .env("AWS_SHARED_CREDENTIALS_FILE", p.join("none"))
        .env("AWS_CONFIG_FILE", p.join("none"))
        .args(["verify", "--json", "e.sciproof.json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let report = json::parse(&String::from_utf8_lossy(&out.stdout)).unwrap();
    let (_, message) = status_and_message(&report, &subject);
    assert!(message.contains("AWS_ACCESS_KEY_ID"), "{message}");
}

#[test]
fn an_object_overwritten_in_a_versioned_bucket_verifies_its_pinned_version_and_says_so() {
    let s = store();
    let b = bucket("pinned");
    s.bucket(&b, true);
    assert!(s.put(&b, "model.bin", b"weights v1\n"));
    let p = Project::new();
    capture_input(&p, s, &format!("s3://{b}/model.bin"));
    assert!(s.put(&b, "model.bin", b"weights v2\n"));
    let (code, report) = verify_json(&p, s, &[]);
    assert_eq!(code, 0, "{report:?}");
    let (status, message) = status_and_message(&report, &format!("input s3://{b}/model.bin"));
    assert_eq!(status, "PASS");
    assert!(
        message.contains("the pinned version was read; the current object differs"),
        "{message}"
    );
}

#[test]
fn reruns_check_remote_inputs_and_never_overwrite_an_unpinned_remote_output() {
    let s = store();
    let (inputs, versioned, plain) = (bucket("rin"), bucket("rvers"), bucket("rplain"));
    s.bucket(&inputs, false);
    s.bucket(&versioned, true);
    s.bucket(&plain, false);
    assert!(s.put(&inputs, "in.txt", b"abc\n"));
    let rclone = s.rclone_path();
    let rclone = rclone.display();
    // A rerun of a command that writes a versioned remote output: compared, PASS.
    let p = Project::new();
    capture(
        &p,
        s,
        &[
            "--input",
            &format!("s3://{inputs}/in.txt"),
            "--output",
            &format!("s3://{versioned}/r.txt"),
        ],
        &format!("{rclone} cat sw:{inputs}/in.txt | {rclone} rcat sw:{versioned}/r.txt"),
    );
    let (code, stdout, stderr) = run(
        &p,
        s,
        &["verify", "--rerun", "--yes", "e.sciproof.json"],
        &[],
    );
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(
        stdout.contains(&format!("[PASS] rerun output s3://{versioned}/r.txt")),
        "{stdout}"
    );

    // An unversioned remote output: the rerun is not attempted, the object is untouched.
    let q = Project::new();
    capture(
        &q,
        s,
        &[
            "--input",
            &format!("s3://{inputs}/in.txt"),
            "--output",
            &format!("s3://{plain}/r.txt"),
        ],
        &format!(
            "{rclone} cat sw:{inputs}/in.txt | {rclone} rcat sw:{plain}/r.txt; echo ran >> runs.txt"
        ),
    );
    let (code, stdout, _) = run(
        &q,
        s,
        &["verify", "--rerun", "--yes", "e.sciproof.json"],
        &[],
    );
    assert_eq!(code, 2, "{stdout}");
    assert!(stdout.contains("without a pinned version"), "{stdout}");
    assert_eq!(
        q.read("runs.txt"),
        "ran\n",
        "the command must not have run again"
    );
    let (code, _, stderr) = run(&q, s, &["update", "--yes", "e.sciproof.json"], &[]);
    assert_eq!(code, 3, "{stderr}");
    assert!(stderr.contains("without a pinned version"), "{stderr}");
    let (code, _, stderr) = run(&q, s, &["calibrate", "--yes", "e.sciproof.json"], &[]);
    assert_eq!(code, 3, "{stderr}");
    assert!(stderr.contains("is in object storage"), "{stderr}");
    assert_eq!(q.read("runs.txt"), "ran\n", "nothing ran again");
    // A remote output deleted since capture (a lifecycle rule, say) says nothing either way.
    s.delete(&plain, "r.txt");
    let (code, report) = verify_json(&q, s, &[]);
    assert_eq!(code, 2, "{report:?}");
    let (status, message) = status_and_message(&report, &format!("output s3://{plain}/r.txt"));
    assert_eq!(status, "INCONCLUSIVE");
    assert!(message.contains("does not exist any more"), "{message}");

    // `update` of the versioned one captures again, with the output's new version pinned.
    let before = json::parse(&p.read("e.sciproof.json")).unwrap();
    let (code, stdout, stderr) = run(&p, s, &["update", "--yes", "e.sciproof.json"], &[]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let after = json::parse(&p.read("e.sciproof.json")).unwrap();
    let version = |m: &Value| {
        let output = &field(m, "outputs").as_array().unwrap()[0];
        field(field(output, "object"), "version")
            .as_str()
            .map(str::to_string)
    };
    assert!(version(&after).is_some());
    assert_ne!(version(&before), version(&after));

    // A command that changes a declared remote input fails the rerun, in a plain bucket (the
    // object is read again) and in a versioned one (its version shows it unchanged).
    let vin = format!("s3://{versioned}/vin.txt");
    let changing = |bucket: &str, key: &str| {
        format!(
            "if [ -f again ]; then echo changed | {rclone} rcat sw:{bucket}/{key}; fi; echo o > o.txt"
        )
    };
    for (bucket, key) in [(&inputs, "in.txt"), (&versioned, "vin.txt")] {
        assert!(s.put(bucket, key, b"abc\n"));
        let t = Project::new();
        let input = format!("s3://{bucket}/{key}");
        capture(
            &t,
            s,
            &["--input", &input, "--output", "o.txt"],
            &changing(bucket, key),
        );
        t.write("again", "");
        let (code, stdout, _) = run(
            &t,
            s,
            &["verify", "--rerun", "--yes", "e.sciproof.json"],
            &[],
        );
        assert_eq!(code, 1, "{key}: {stdout}");
        assert!(
            stdout.contains("was modified or removed by the rerun"),
            "{stdout}"
        );
    }
    // A capture whose command changes a versioned input is refused.
    let t = Project::new();
    let changing = changing(&versioned, "vin.txt");
    t.write("again", "");
    let (code, _, stderr) = run(
        &t,
        s,
        &[
            "capture", "--name", "g", "--input", &vin, "--output", "o.txt", "--", "sh", "-c",
            &changing,
        ],
        &[],
    );
    assert_eq!(code, 3, "{stderr}");
    assert!(
        stderr.contains("modified or removed the declared input"),
        "{stderr}"
    );
}

#[test]
fn hostile_or_unsupported_addresses_are_refused_with_the_reason() {
    let s = store();
    let p = Project::new();
    let (code, _, stderr) = run(
        &p,
        s,
        &[
            "capture",
            "--name",
            "e",
            "--input",
            "s3://Bad_Bucket/x",
            "--",
            "true",
        ],
        &[],
    );
    assert_eq!(code, 3);
    assert!(stderr.contains("lowercase"), "{stderr}");
    // A manifest whose address climbs out of its key is invalid, whatever the store holds.
    let b = bucket("hostile");
    s.bucket(&b, false);
    assert!(s.put(&b, "in.txt", b"x\n"));
    capture(
        &p,
        s,
        &["--input", &format!("s3://{b}/in.txt"), "--output", "o.txt"],
        "echo o > o.txt",
    );
    let text = p.read("e.sciproof.json").replace(
        &format!("s3://{b}/in.txt"),
        &format!("s3://{b}/a/../in.txt"),
    );
    p.write("e.sciproof.json", &text);
    let (code, _, stderr) = run(&p, s, &["verify", "e.sciproof.json"], &[]);
    assert_eq!(code, 3);
    assert!(
        stderr.contains("invalid manifest") && stderr.contains("'..'"),
        "{stderr}"
    );
}

#[test]
fn a_volume_server_that_stops_makes_its_objects_inconclusive_never_fail() {
    let mut cluster = crate::seaweedfs::Cluster::with_two_volume_servers();
    let s = &cluster.store;
    let b = bucket("cluster");
    s.bucket(&b, false);
    cluster.spread_over_both(&b);
    // Enough objects that some land on each volume server (each lands on one of the eight
    // volumes at random), large enough (1 MiB) that a verify is still reading when the server
    // stops.
    for i in 0..24 {
        let shard = format!("shard {i}\n").repeat(1 << 17);
        assert!(s.put(
            &b,
            &format!("shards/{i:02}.bin"),
            &shard.as_bytes()[..1 << 20]
        ));
    }
    assert!(
        cluster.second_holds_objects_of(&b),
        "the test needs objects on the volume server it stops"
    );
    let p = Project::new();
    capture(
        &p,
        s,
        &["--input", &format!("s3://{b}/shards/"), "--output", "o.txt"],
        "echo o > o.txt",
    );
    let (code, report) = verify_json(&p, s, &[]);
    assert_eq!(code, 0, "{report:?}");
    // Stopped during a verify: whatever it had read by then, it never says FAIL.
    let mut during = crate::util::sciproof_process();
    during
        .current_dir(p.path())
        .args(["verify", "e.sciproof.json"])
        .envs(s.env())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let running = during.spawn().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(40));
    cluster.stop_second_volume_server();
    let out = running.wait_with_output().unwrap();
    assert!(
        matches!(out.status.code(), Some(0 | 2)),
        "a volume server stopped during a verify must not make it FAIL: {out:?}"
    );
    // Every verify after the stop is INCONCLUSIVE.
    let s = &cluster.store;
    let (code, report) = verify_json(&p, s, &[]);
    let (status, message) = status_and_message(&report, &format!("input s3://{b}/shards"));
    assert_eq!(
        (code, status.as_str()),
        (2, "INCONCLUSIVE"),
        "objects on a stopped volume server say nothing about the data: {message}"
    );
    assert!(message.contains("not available"), "{message}");
}

#[test]
fn a_remote_numeric_output_is_copied_at_capture_and_compared_numerically_on_rerun() {
    let s = store();
    let b = bucket("numeric");
    s.bucket(&b, true);
    let rclone = s.rclone_path();
    let rclone = rclone.display();
    let p = Project::new();
    // The second run writes a value that differs within the tolerance.
    let command = format!(
        "if [ -f again ]; then v=1.0000000001; else v=1.0; fi; printf 'a,b\\n%s,2\\n' $v | {rclone} rcat sw:{b}/r.csv"
    );
    capture(
        &p,
        s,
        &[
            "--output-numeric",
            &format!("s3://{b}/r.csv"),
            "--rtol",
            "1e-6",
        ],
        &command,
    );
    let manifest = json::parse(&p.read("e.sciproof.json")).unwrap();
    let output = &field(&manifest, "outputs").as_array().unwrap()[0];
    let snapshot = field(field(output, "compare"), "snapshot");
    let copy = field(snapshot, "path").as_str().unwrap();
    assert_eq!(
        p.read(copy),
        "a,b\n1.0,2\n",
        "the recorded copy is beside the manifest"
    );
    let (code, report) = verify_json(&p, s, &[]);
    assert_eq!(code, 0, "{report:?}");
    p.write("again", "");
    let (code, stdout, stderr) = run(
        &p,
        s,
        &["verify", "--rerun", "--yes", "e.sciproof.json"],
        &[],
    );
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(
        stdout.contains(&format!(
            "[PASS] rerun output s3://{b}/r.csv: numerically equivalent"
        )),
        "{stdout}"
    );
}

#[test]
fn folder_markers_are_not_files_of_a_prefix_but_empty_objects_are() {
    let s = store();
    let b = bucket("markers");
    s.bucket(&b, false);
    assert!(s.put(&b, "pre/a.txt", b"a\n"));
    assert!(s.put(&b, "pre/empty.txt", b""));
    // Empty objects named `pre/lonely/` and `pre/sub/deeper/`, as consoles make them.
    for folder in ["pre/lonely", "pre/sub/deeper"] {
        let out = s.rclone(&[
            "mkdir",
            "--s3-directory-markers",
            &format!("sw:{b}/{folder}"),
        ]);
        assert!(out.status.success(), "{out:?}");
    }
    let p = Project::new();
    capture(
        &p,
        s,
        &["--input", &format!("s3://{b}/pre/"), "--output", "o.txt"],
        "echo o > o.txt",
    );
    let manifest = json::parse(&p.read("e.sciproof.json")).unwrap();
    let input = &field(&manifest, "inputs").as_array().unwrap()[0];
    let files: Vec<&str> = field(input, "files")
        .as_array()
        .unwrap()
        .iter()
        .map(|f| field(f, "path").as_str().unwrap())
        .collect();
    assert_eq!(files, ["a.txt", "empty.txt"]);
    let (code, report) = verify_json(&p, s, &[]);
    assert_eq!(code, 0, "{report:?}");
}

#[test]
fn a_traced_capture_does_not_call_a_remote_input_unread() {
    let s = store();
    let b = bucket("traced");
    s.bucket(&b, false);
    assert!(s.put(&b, "in.txt", b"abc\n"));
    let rclone = s.rclone_path();
    let p = Project::new();
    capture(
        &p,
        s,
        &[
            "--trace",
            "--strict-inputs",
            "--input",
            &format!("s3://{b}/in.txt"),
            "--output",
            "o.txt",
        ],
        &format!("{} cat sw:{b}/in.txt > o.txt", rclone.display()),
    );
    let manifest = json::parse(&p.read("e.sciproof.json")).unwrap();
    let trace = field(&manifest, "trace");
    assert_eq!(
        field(trace, "unread_inputs").as_array().unwrap().len(),
        0,
        "{trace:?}"
    );
}
