//! `sciproof sign` and `verify --allowed-signers`, interoperating with the real `ssh-keygen`
//! and with the reference implementation.

use crate::util::*;
use predicates::prelude::*;
use sciproof_core::json::Value;
use std::process::Command;

const NS: &str = "sciproof-manifest@hayagrivai-labs";

fn keygen(p: &Project, name: &str, kind: &str, passphrase: &str) {
    let mut c = Command::new("ssh-keygen");
    c.args(["-q", "-t", kind, "-N", passphrase, "-C", name, "-f"])
        .arg(p.join(name));
    if kind == "rsa" {
        c.args(["-b", "2048"]);
    }
    assert!(c.status().unwrap().success());
}

fn allow(p: &Project, file: &str, lines: &[(&str, &str, &str)]) {
    let mut text = String::new();
    for (principal, options, key) in lines {
        let public = p.read(&format!("{key}.pub"));
        let parts: Vec<&str> = public.split_whitespace().take(2).collect();
        text.push_str(&format!(
            "{principal} {options}{}{}\n",
            if options.is_empty() { "" } else { " " },
            parts.join(" ")
        ));
    }
    p.write(file, &text);
}

fn signature_check(p: &Project, allowed: &str) -> (i32, Value) {
    let out = p
        .cmd()
        .args([
            "verify",
            "run.sciproof.json",
            "--json",
            "--allowed-signers",
            allowed,
        ])
        .output()
        .unwrap();
    let r = sciproof_core::json::parse(&String::from_utf8(out.stdout).unwrap()).unwrap();
    (
        out.status.code().unwrap(),
        check_for(&r, "manifest signature"),
    )
}

fn keygen_verify(p: &Project, allowed: &str, principal: &str) -> bool {
    let data = std::fs::read(p.join("run.sciproof.json")).unwrap();
    let mut child = Command::new("ssh-keygen")
        .current_dir(p.path())
        .args([
            "-Y",
            "verify",
            "-f",
            allowed,
            "-I",
            principal,
            "-n",
            NS,
            "-s",
            "run.sciproof.json.sig",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    use std::io::Write;
    // ssh-keygen may refuse the signature before it reads the message.
    let _ = child.stdin.take().unwrap().write_all(&data);
    child.wait().unwrap().success()
}

#[test]
fn signatures_interoperate_with_ssh_keygen_for_every_key_type() {
    for kind in ["ed25519", "ecdsa", "rsa"] {
        let p = Project::new();
        p.capture("run");
        keygen(&p, "key", kind, "");
        allow(&p, "allowed", &[("alice@example.org", "", "key")]);
        // ours signs, ssh-keygen verifies
        p.cmd()
            .args(["sign", "run.sciproof.json", "--key", "key"])
            .assert()
            .success()
            .stdout(predicate::str::contains(
                "Signature written to run.sciproof.json.sig",
            ));
        assert!(
            keygen_verify(&p, "allowed", "alice@example.org"),
            "{kind}: ssh-keygen rejects our signature"
        );
        let (code, c) = signature_check(&p, "allowed");
        assert_eq!(code, 0, "{kind}");
        assert!(
            field(&c, "message")
                .as_str()
                .unwrap()
                .starts_with("good signature by 'alice@example.org'")
        );
        // ssh-keygen signs, ours verifies
        std::fs::remove_file(p.join("run.sciproof.json.sig")).unwrap();
        let signed = Command::new("ssh-keygen")
            .current_dir(p.path())
            .args(["-Y", "sign", "-f", "key", "-n", NS, "run.sciproof.json"])
            .output()
            .unwrap();
        assert!(signed.status.success());
        let (code, c) = signature_check(&p, "allowed");
        assert_eq!(
            code,
            0,
            "{kind}: {}",
            field(&c, "message").as_str().unwrap()
        );
        let ev = field(&c, "evidence");
        assert_eq!(field(ev, "principal").as_str(), Some("alice@example.org"));
        assert!(
            field(ev, "fingerprint")
                .as_str()
                .unwrap()
                .starts_with("SHA256:")
        );
    }
}

#[test]
fn the_reference_and_ours_agree_on_signatures() {
    let p = Project::new();
    p.capture("run");
    keygen(&p, "key", "ed25519", "");
    allow(&p, "allowed", &[("alice@example.org", "", "key")]);
    let signed = reference_cmd(p.path())
        .args(["sign", "run.sciproof.json", "--key", "key"])
        .output()
        .unwrap();
    assert!(
        signed.status.success(),
        "{}",
        String::from_utf8_lossy(&signed.stderr)
    );
    let ours = p
        .cmd()
        .args([
            "verify",
            "run.sciproof.json",
            "--json",
            "--allowed-signers",
            "allowed",
        ])
        .output()
        .unwrap();
    let theirs = reference_cmd(p.path())
        .args([
            "verify",
            "run.sciproof.json",
            "--json",
            "--allowed-signers",
            "allowed",
        ])
        .output()
        .unwrap();
    let (o, t) = (
        sciproof_core::json::parse(&String::from_utf8(ours.stdout).unwrap()).unwrap(),
        sciproof_core::json::parse(&String::from_utf8(theirs.stdout).unwrap()).unwrap(),
    );
    assert_eq!(field(&o, "signature"), field(&t, "signature"));
    assert_eq!(
        field(&check_for(&o, "manifest signature"), "evidence"),
        field(&check_for(&t, "manifest signature"), "evidence")
    );
    assert_eq!(field(&o, "not_checked"), field(&t, "not_checked"));
    // ours signs, the reference verifies
    p.cmd()
        .args(["sign", "run.sciproof.json", "--key", "key"])
        .assert()
        .success();
    let theirs = reference_cmd(p.path())
        .args([
            "verify",
            "run.sciproof.json",
            "--allowed-signers",
            "allowed",
        ])
        .output()
        .unwrap();
    assert_eq!(
        theirs.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&theirs.stdout)
    );
}

#[test]
fn every_way_a_signature_can_be_wrong_says_which() {
    let p = Project::new();
    p.capture("run");
    keygen(&p, "key", "ed25519", "");
    keygen(&p, "other", "ed25519", "");
    allow(&p, "allowed", &[("alice", "", "key")]);
    let (code, c) = signature_check(&p, "allowed");
    assert_eq!(code, 2);
    assert_eq!(
        field(&c, "message").as_str(),
        Some("no signature file run.sciproof.json.sig next to the manifest")
    );
    // another key
    p.cmd()
        .args(["sign", "run.sciproof.json", "--key", "other"])
        .assert()
        .success();
    let (code, c) = signature_check(&p, "allowed");
    assert_eq!(code, 1);
    assert!(
        field(&c, "message")
            .as_str()
            .unwrap()
            .contains("was not made by a key listed in the allowed signers file")
    );
    // a wrong namespace
    std::fs::remove_file(p.join("run.sciproof.json.sig")).unwrap();
    Command::new("ssh-keygen")
        .current_dir(p.path())
        .args(["-Y", "sign", "-f", "key", "-n", "file", "run.sciproof.json"])
        .output()
        .unwrap();
    let (code, c) = signature_check(&p, "allowed");
    assert_eq!(
        (code, field(&c, "status").as_str()),
        (1, Some("FAIL")),
        "the seed: a wrong signature is FAIL"
    );
    assert!(
        field(&c, "message")
            .as_str()
            .unwrap()
            .contains("was made for the namespace 'file'"),
        "{:?}",
        field(&c, "message")
    );
    // a modified manifest
    p.cmd()
        .args(["sign", "run.sciproof.json", "--key", "key"])
        .assert()
        .success();
    let text = p.read("run.sciproof.json");
    p.write(
        "run.sciproof.json",
        &text.replace("\"cwd\": \".\"", "\"cwd\": \".\" "),
    );
    let (code, c) = signature_check(&p, "allowed");
    assert_eq!(
        (code, field(&c, "status").as_str()),
        (1, Some("FAIL")),
        "the seed: a wrong signature is FAIL"
    );
    assert!(
        field(&c, "message")
            .as_str()
            .unwrap()
            .contains("does not match this manifest")
    );
    p.write("run.sciproof.json", &text);
    // an expired key and a namespace the entry does not allow
    allow(
        &p,
        "expired",
        &[("alice", "valid-before=\"20200101\"", "key")],
    );
    let (code, c) = signature_check(&p, "expired");
    assert_eq!(
        (code, field(&c, "status").as_str()),
        (1, Some("FAIL")),
        "the seed: a wrong signature is FAIL"
    );
    assert!(
        field(&c, "message")
            .as_str()
            .unwrap()
            .contains("expired (valid-before, line 1)")
    );
    allow(&p, "ns", &[("alice", "namespaces=\"git\"", "key")]);
    let (code, c) = signature_check(&p, "ns");
    assert_eq!(
        (code, field(&c, "status").as_str()),
        (1, Some("FAIL")),
        "the seed: a wrong signature is FAIL"
    );
    assert!(
        field(&c, "message")
            .as_str()
            .unwrap()
            .contains("does not allow the namespace")
    );
    // a truncated signature
    let sig = p.read("run.sciproof.json.sig");
    p.write("run.sciproof.json.sig", &sig[..sig.len() / 2]);
    let (code, c) = signature_check(&p, "allowed");
    assert_eq!(code, 1);
    assert!(
        field(&c, "message")
            .as_str()
            .unwrap()
            .contains("is not a signature that ssh-keygen would read: it has no -----END SSH SIGNATURE----- line"),
        "{c:?}"
    );
    // armor that ssh-keygen refuses is refused too: CRLF line ends, text before the header
    let crlf = sig.replace('\n', "\r\n");
    p.write("run.sciproof.json.sig", &crlf);
    assert!(
        !keygen_verify(&p, "allowed", "alice"),
        "ssh-keygen refuses CRLF armor"
    );
    let (code, c) = signature_check(&p, "allowed");
    assert_eq!(code, 1, "{c:?}");
    p.write("run.sciproof.json.sig", &format!("note\n{sig}"));
    assert!(!keygen_verify(&p, "allowed", "alice"));
    assert_eq!(signature_check(&p, "allowed").0, 1);
    // ... and armor it accepts is accepted: text after the footer, no final line break
    p.write("run.sciproof.json.sig", &format!("{sig}comment\n"));
    assert!(keygen_verify(&p, "allowed", "alice"));
    assert_eq!(signature_check(&p, "allowed").0, 0);
    p.write("run.sciproof.json.sig", sig.trim_end());
    assert!(keygen_verify(&p, "allowed", "alice"));
    assert_eq!(signature_check(&p, "allowed").0, 0);
    // a FIFO instead of a signature: named, unavailable, never waited for
    std::fs::remove_file(p.join("run.sciproof.json.sig")).unwrap();
    let c_path = std::ffi::CString::new(p.join("run.sciproof.json.sig").to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
    let (code, c) = signature_check(&p, "allowed");
    assert_eq!(code, 2);
    assert!(
        field(&c, "message")
            .as_str()
            .unwrap()
            .contains("is a FIFO, not a regular file"),
        "{c:?}"
    );
}

#[test]
fn bad_trust_roots_and_keys_are_usage_errors() {
    let p = Project::new();
    p.capture("run");
    keygen(&p, "key", "ed25519", "");
    p.write("allowed", "# ok\nalice ssh-ed25519\n");
    p.cmd()
        .args([
            "verify",
            "run.sciproof.json",
            "--allowed-signers",
            "allowed",
        ])
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "allowed signers file allowed line 2",
        ));
    p.cmd()
        .args(["verify", "run.sciproof.json", "--allowed-signers", "nope"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "allowed signers file not found: nope",
        ));
    p.cmd()
        .args(["sign", "run.sciproof.json", "--key", "nope"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains("signing key not found: nope"));
    p.cmd()
        .args(["sign", "missing.sciproof.json", "--key", "key"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains("manifest not found"));
}

#[test]
fn an_encrypted_key_takes_its_passphrase_from_ssh_askpass() {
    let p = Project::new();
    p.capture("run");
    keygen(&p, "key", "ed25519", "s3cret");
    allow(&p, "allowed", &[("alice", "", "key")]);
    p.write("askpass.sh", "#!/bin/sh\necho s3cret\n");
    Command::new("chmod")
        .args(["+x"])
        .arg(p.join("askpass.sh"))
        .status()
        .unwrap();
    p.cmd()
        .args(["sign", "run.sciproof.json", "--key", "key"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains("is encrypted"));
    p.cmd()
        .env("SSH_ASKPASS", p.join("askpass.sh"))
        .args(["sign", "run.sciproof.json", "--key", "key"])
        .assert()
        .success();
    let (code, _) = signature_check(&p, "allowed");
    assert_eq!(code, 0);
    p.write("askpass.sh", "#!/bin/sh\necho wrong\n");
    p.cmd()
        .env("SSH_ASKPASS", p.join("askpass.sh"))
        .args(["sign", "run.sciproof.json", "--key", "key"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains("wrong passphrase"));
    // the good signature is still there
    assert_eq!(signature_check(&p, "allowed").0, 0);
}

/// How many times the file at `path` is opened while `run` runs (inotify `IN_OPEN`; closes
/// are watched too, because the kernel merges identical events that follow each other).
fn opens_during(path: &std::path::Path, run: impl FnOnce()) -> usize {
    let fd = unsafe { libc::inotify_init1(libc::IN_NONBLOCK | libc::IN_CLOEXEC) };
    assert!(fd >= 0);
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    let wd =
        unsafe { libc::inotify_add_watch(fd, c.as_ptr(), libc::IN_OPEN | libc::IN_CLOSE_NOWRITE) };
    assert!(wd >= 0);
    run();
    let mut count = 0;
    let mut buffer = [0u8; 4096];
    loop {
        let n = unsafe { libc::read(fd, buffer.as_mut_ptr().cast(), buffer.len()) };
        if n <= 0 {
            break;
        }
        let mut offset = 0usize;
        while offset < n as usize {
            let event = unsafe {
                std::ptr::read_unaligned(buffer[offset..].as_ptr() as *const libc::inotify_event)
            };
            if event.mask & libc::IN_OPEN != 0 {
                count += 1;
            }
            offset += std::mem::size_of::<libc::inotify_event>() + event.len as usize;
        }
    }
    unsafe { libc::close(fd) };
    count
}

#[test]
fn what_is_signed_is_read_once_so_a_file_swapped_between_reads_cannot_pass() {
    let p = Project::new();
    p.capture("run");
    keygen(&p, "key", "ed25519", "");
    p.cmd()
        .args(["sign", "run.sciproof.json", "--key", "key"])
        .assert()
        .success();
    allow(&p, "allowed", &[("alice", "", "key")]);
    let manifest = p.join("run.sciproof.json");
    let opens = opens_during(&manifest, || {
        let (code, check) = signature_check(&p, "allowed");
        assert_eq!(code, 0);
        assert_eq!(field(&check, "status").as_str(), Some("PASS"));
    });
    assert_eq!(
        opens, 1,
        "verify --allowed-signers must read the manifest once"
    );
    let opens = opens_during(&manifest, || {
        p.cmd()
            .args(["graph", "add-run", "run.sciproof.json"])
            .assert()
            .success();
    });
    assert_eq!(opens, 1, "graph add-run must read the manifest once");
}

#[test]
fn a_public_key_given_to_sign_is_named_as_one() {
    let p = Project::new();
    p.capture("run");
    keygen(&p, "key", "ed25519", "");
    p.cmd()
        .args(["sign", "run.sciproof.json", "--key", "key.pub"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "key.pub is a public key; sign with an OpenSSH private key (the file without .pub",
        ));
    assert!(!p.join("run.sciproof.json.sig").exists());
}

#[test]
fn a_replaced_manifest_warns_that_its_signature_is_stale() {
    let p = Project::new();
    p.capture("run");
    keygen(&p, "key", "ed25519", "");
    p.cmd()
        .args(["sign", "run.sciproof.json", "--key", "key"])
        .assert()
        .success();
    let warning = "run.sciproof.json.sig signs the previous manifest and no longer matches run.sciproof.json; sign the new one with `sciproof sign run.sciproof.json --key KEY`";
    p.cmd()
        .args([
            "capture",
            "--name",
            "run",
            "--force",
            "--input",
            "data.json",
            "--output",
            "out/log.txt",
            "--",
            "sh",
            "train.sh",
        ])
        .assert()
        .success()
        .stderr(predicate::str::contains(warning));
    p.cmd()
        .args(["update", "run.sciproof.json", "--yes"])
        .assert()
        .success()
        .stderr(predicate::str::contains(warning));
    // ... and a signature that is not stale is not warned about.
    p.cmd()
        .args(["sign", "run.sciproof.json", "--key", "key"])
        .assert()
        .success()
        .stderr(predicate::str::contains("no longer matches").not());
}
