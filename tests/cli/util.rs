//! Helpers shared by the integration tests: a scratch project, the binary, and the Python
//! reference implementation in a venv that the tests create themselves.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// The `sciproof` binary under test, run in `dir`.
pub fn sciproof(dir: &Path) -> assert_cmd::Command {
    let mut c = assert_cmd::Command::cargo_bin("sciproof").expect("binary built");
    c.current_dir(dir);
    c.env_remove("SCIPROOF_TEST_EPS");
    // The variables a manifest records and the rerun compares: an ambient value must not
    // change a result.
    for name in sciproof_core::probe::ENV_ALLOWLIST {
        c.env_remove(name);
    }
    c
}

/// The `sciproof` binary (or `program`) as a plain process, with the same cleared environment
/// as [`sciproof`], for tests that signal it or wire its standard streams themselves.
pub fn sciproof_process() -> std::process::Command {
    clean_env(std::process::Command::new(assert_cmd::cargo::cargo_bin(
        "sciproof",
    )))
}

/// `command` without the environment variables a manifest records.
pub fn clean_env(mut command: std::process::Command) -> std::process::Command {
    command.env_remove("SCIPROOF_TEST_EPS");
    for name in sciproof_core::probe::ENV_ALLOWLIST {
        command.env_remove(name);
    }
    command
}

/// A scratch project: `train.sh` writes `out/result.json` and `out/log.txt` from `data.json`.
pub struct Project {
    pub dir: tempfile::TempDir,
}

impl Project {
    pub fn new() -> Self {
        let dir = tempfile::tempdir().expect("tempdir");
        let p = Project { dir };
        p.write("data.json", "{\"x\": 21}\n");
        p.write(
            "train.sh",
            "#!/bin/sh\nset -e\nmkdir -p out\nx=$(sed 's/[^0-9]//g' data.json)\nprintf '{\"value\": %s.5, \"label\": \"ok\"}\\n' $((x * 2)) > out/result.json\necho \"log $x\" > out/log.txt\necho done\n",
        );
        p
    }
    pub fn path(&self) -> &Path {
        self.dir.path()
    }
    pub fn join(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }
    pub fn write(&self, rel: &str, text: &str) {
        let path = self.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(path, text).unwrap();
    }
    /// Copies the claim graph `tests/data/claim-graphs/<name>` to `rel` in the project.
    pub fn example_graph(&self, name: &str, rel: &str) {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/claim-graphs/");
        self.write(
            rel,
            &std::fs::read_to_string(format!("{dir}{name}")).unwrap(),
        );
    }
    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.join(rel)).unwrap()
    }
    pub fn cmd(&self) -> assert_cmd::Command {
        sciproof(self.path())
    }
    /// Captures the standard experiment as `name` and asserts success.
    pub fn capture(&self, name: &str) {
        self.capture_with_inputs(name, &["data.json", "train.sh"]);
    }
    /// Captures the standard experiment without declaring `train.sh` (so tests may change it).
    pub fn capture_without_script(&self, name: &str) {
        self.capture_with_inputs(name, &["data.json"]);
    }
    fn capture_with_inputs(&self, name: &str, inputs: &[&str]) {
        let mut cmd = self.cmd();
        cmd.args(["capture", "--name", name]);
        for input in inputs {
            cmd.args(["--input", input]);
        }
        cmd.args([
            "--output",
            "out/log.txt",
            "--output-numeric",
            "out/result.json",
            "--",
            "sh",
            "train.sh",
        ])
        .assert()
        .success();
    }
    /// Runs `verify --json` and returns the exit code and the parsed report.
    pub fn verify_json(&self, manifest: &str) -> (i32, sciproof_core::json::Value) {
        let out = self
            .cmd()
            .args(["verify", manifest, "--json"])
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        let value =
            sciproof_core::json::parse(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"));
        (out.status.code().unwrap(), value)
    }
}

/// The processes whose working directory is `dir` (none may outlive a sciproof that ran a
/// command there).
pub fn processes_in(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.bytes().all(|b| b.is_ascii_digit())
            && std::fs::read_link(entry.path().join("cwd")).is_ok_and(|cwd| cwd == dir)
        {
            found.push(name);
        }
    }
    found
}

/// `report["key"]` as a string.
pub fn field<'a>(v: &'a sciproof_core::json::Value, key: &str) -> &'a sciproof_core::json::Value {
    v.as_object()
        .and_then(|o| o.get(key))
        .unwrap_or_else(|| panic!("no field {key}"))
}

/// The check of a JSON report with this subject.
pub fn check_for(report: &sciproof_core::json::Value, subject: &str) -> sciproof_core::json::Value {
    field(report, "checks")
        .as_array()
        .unwrap()
        .iter()
        .find(|c| field(c, "subject").as_str() == Some(subject))
        .unwrap_or_else(|| panic!("no check with subject {subject}"))
        .clone()
}

/// `(status, subject)` of every check of a JSON report.
pub fn statuses(report: &sciproof_core::json::Value) -> Vec<(String, String)> {
    field(report, "checks")
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                field(c, "status").as_str().unwrap().to_string(),
                field(c, "subject").as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// A venv under the target directory with exactly the packages of
/// `tests/support/requirements-{set}.txt` (every package pinned, dependencies included, so the
/// tests do not change with the package index of the day), installed from the package registry
/// once per run (each caller holds it in a `OnceLock`, so concurrent tests wait for one
/// install); a changed requirements file rebuilds it.
/// Panics with pip's output if that fails: the interop tests must not be skipped silently.
/// Returns the venv's root.
pub fn venv(name: &str, set: &str) -> PathBuf {
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let root = tmp.join(name);
    let requirements = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/support")
        .join(format!("requirements-{set}.txt"));
    let pinned = std::fs::read(&requirements).expect("the requirements file");
    let marker = &sciproof_core::hash::sha256_bytes(&pinned)[..16];
    let ready = root.join(format!(".ready-{marker}"));
    if !ready.exists() {
        let _ = std::fs::remove_dir_all(&root);
        let python = std::env::var("SCIPROOF_TEST_PYTHON").unwrap_or_else(|_| "python3".into());
        run_ok(Command::new(&python).args(["-m", "venv"]).arg(&root));
        run_ok(
            Command::new(root.join("bin/pip"))
                .args(["install", "--quiet", "--disable-pip-version-check", "-r"])
                .arg(&requirements),
        );
        std::fs::write(&ready, "ok\n").unwrap();
    }
    root
}

/// The reference implementation's `sciproof` script, installed once per target directory into
/// a venv from the package registry (sciproof==0.4.1, with numpy, junitparser and
/// in-toto-attestation).
pub fn reference() -> &'static Path {
    static REFERENCE: OnceLock<PathBuf> = OnceLock::new();
    REFERENCE.get_or_init(|| {
        let root = venv("reference-venv", "reference");
        let script = root.join("bin/sciproof");
        assert!(
            script.exists(),
            "reference script missing at {}",
            script.display()
        );
        script
    })
}

/// The Python of a venv with `alkahest==3.12.0` (the claim-graph reference), made once.
pub fn alkahest_python() -> &'static Path {
    static PYTHON: OnceLock<PathBuf> = OnceLock::new();
    PYTHON.get_or_init(|| venv("alkahest-venv", "alkahest").join("bin/python"))
}

fn run_ok(command: &mut Command) -> Output {
    let out = command
        .output()
        .unwrap_or_else(|e| panic!("cannot run {command:?}: {e}"));
    assert!(
        out.status.success(),
        "{command:?} failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The Python interpreter of the reference venv (it has NumPy).
pub fn reference_python() -> PathBuf {
    reference().parent().unwrap().join("python")
}

/// The reference CLI run in `dir`.
pub fn reference_cmd(dir: &Path) -> Command {
    let mut c = Command::new(reference());
    c.current_dir(dir);
    c
}

/// The Python of a venv with repro's claim-check code and the RO-Crate tools
/// (`reproducible-science==0.6.1`, `roc-validator`, `rocrate`), made once.
pub fn claimcheck_python() -> &'static Path {
    static PYTHON: OnceLock<PathBuf> = OnceLock::new();
    PYTHON.get_or_init(|| venv("claimcheck-venv", "claimcheck").join("bin/python"))
}

/// Runs a script of `tests/support/` with `python`; returns (exit code, stdout, stderr).
pub fn support_script(python: &Path, script: &str, args: &[&str]) -> (i32, String, String) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/support")
        .join(script);
    let out = Command::new(python)
        .arg(path)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {script}: {e}"));
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
