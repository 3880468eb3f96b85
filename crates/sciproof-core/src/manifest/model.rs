//! The manifest data model (`sciproof.manifest` 1.0 and 1.1).

use crate::claims::Claim;
use crate::json::{Object, Value};
use crate::tree::FileEntry;

/// The value of the `schema` field.
pub const SCHEMA: &str = "sciproof.manifest";
/// The major schema version this implementation reads.
pub const SUPPORTED_MAJOR: u64 = 1;
/// Written when no 1.1 feature is used.
pub const SCHEMA_1_0: &str = "1.0";
/// Written when a directory, a claim, a note or hardware is recorded.
pub const SCHEMA_1_1: &str = "1.1";
/// Manifest file names end with this.
pub const MANIFEST_SUFFIX: &str = ".sciproof.json";
/// A manifest larger than this is refused before it is parsed.
pub const MAX_MANIFEST_BYTES: u64 = 16 * 1024 * 1024;
/// A note is at most this many characters.
pub const MAX_NOTE_LENGTH: usize = 2000;
/// At most this many GPUs are recorded.
pub const MAX_GPUS: usize = 16;

/// The folder next to the manifest that holds copies of numeric outputs.
pub fn snapshot_dir_name(name: &str) -> String {
    format!("{name}.sciproof.d")
}

/// Whether `name` is a valid experiment name (`^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$`).
pub fn is_valid_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    !bytes.is_empty()
        && bytes.len() <= 100
        && bytes[0].is_ascii_alphanumeric()
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

/// A whole manifest.
#[derive(Debug, Clone, PartialEq)]
pub struct Manifest {
    /// `"1.0"` or `"1.1"` (any `1.N` is read).
    pub schema_version: String,
    /// The minor part of `schema_version`.
    pub minor: u64,
    /// The experiment's name.
    pub name: String,
    /// ISO 8601 with offset, as written.
    pub created_at: String,
    /// `{"name", "version"}` of the tool that wrote it (not validated).
    pub tool: Value,
    /// The command that was run.
    pub command: CommandLine,
    /// Platform, interpreter and allow-listed variables.
    pub environment: Environment,
    /// Python packages of the interpreter, when it is one.
    pub dependencies: Vec<Dependency>,
    /// The Git state of the working directory.
    pub git: Option<GitState>,
    /// The declared inputs.
    pub inputs: Vec<Input>,
    /// How the command ran.
    pub execution: Execution,
    /// The declared outputs.
    pub outputs: Vec<Output>,
    /// Claims about values in outputs.
    pub claims: Vec<Claim>,
    /// Free text.
    pub note: Option<String>,
    /// What a system-call trace of the run showed (`capture --trace`).
    pub trace: Option<TraceRecord>,
}

/// What a trace of the captured run showed, stored under the manifest's own key `trace`.
/// Readers that do not know the key ignore it (sciproof 0.4.1 ignores unknown keys at every
/// level), so such a manifest stays readable and verifiable by them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceRecord {
    /// How reads were observed: `ptrace` or `python-audit-hook`.
    pub method: String,
    /// Whether the trace saw everything it could (no io_uring, no foreign ABI, the hook loaded).
    pub complete: bool,
    /// Processes and threads traced.
    pub processes: u64,
    /// Files inside the working directory the command read but the manifest does not declare.
    pub undeclared_reads: Vec<String>,
    /// Declared inputs the command never read.
    pub unread_inputs: Vec<String>,
}

/// The recorded command (never run through a shell; `cwd` is always `.`).
#[derive(Debug, Clone, PartialEq)]
pub struct CommandLine {
    /// The command and its arguments.
    pub argv: Vec<String>,
}

/// Where the Python facts of [`Environment`] come from.
pub mod source {
    /// argv\[0\] is a Python interpreter and it was asked for its version and packages.
    pub const COMMAND_INTERPRETER: &str = "command-interpreter";
    /// The interpreter running the (Python) reference tool was described instead.
    pub const SCIPROOF_PROCESS: &str = "sciproof-process";
    /// argv\[0\] is not a Python interpreter: no Python facts are recorded (this implementation).
    pub const NOT_PYTHON: &str = "not-python";
}

/// Environment facts recorded at capture.
#[derive(Debug, Clone, PartialEq)]
pub struct Environment {
    /// See [`source`]; absent in hand-written manifests.
    pub source: Option<String>,
    /// `{"version", "implementation", "byteorder"}`; only `version` is required.
    pub python: Object,
    /// `{"system", "release", "machine", "platform"}`.
    pub platform: Object,
    /// Values of allow-listed variables, in the recorded order.
    pub env_vars: Object,
    /// CPU and GPU facts (`--record-hardware`).
    pub hardware: Option<Hardware>,
}

impl Environment {
    /// The recorded Python version (validated to be a string).
    pub fn python_version(&self) -> &str {
        self.python
            .get("version")
            .and_then(Value::as_str)
            .unwrap_or("")
    }
}

/// Hardware facts (`--record-hardware`).
#[derive(Debug, Clone, PartialEq)]
pub struct Hardware {
    /// Logical CPUs.
    pub cpu_count: Option<u64>,
    /// The processor's name.
    pub processor: String,
    /// `nvidia-smi`, `none` (not on PATH) or `failed`.
    pub gpu_probe: String,
    /// NVIDIA GPUs.
    pub gpus: Vec<Gpu>,
}

/// One GPU as `nvidia-smi` lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct Gpu {
    /// The GPU's name.
    pub name: String,
    /// The driver's version.
    pub driver: String,
    /// Memory in MiB.
    pub memory_mib: Option<u64>,
}

/// One installed package of the probed interpreter.
#[derive(Debug, Clone, PartialEq)]
pub struct Dependency {
    /// The package.
    pub name: String,
    /// Its version.
    pub version: String,
}

/// Git state of the base directory at capture.
#[derive(Debug, Clone, PartialEq)]
pub struct GitState {
    /// The commit.
    pub commit: String,
    /// The branch.
    pub branch: Option<String>,
    /// Whether the working tree had uncommitted changes.
    pub dirty: bool,
}

/// A file or a directory (with its file list).
#[derive(Debug, Clone, PartialEq)]
pub enum Artifact {
    /// A single file.
    File,
    /// A directory.
    Directory {
        /// Every file below it, by path.
        files: Vec<FileEntry>,
        /// Where the list is stored when not in the manifest itself (more than
        /// [`INLINE_TREE_FILES`](crate::tree::INLINE_TREE_FILES) files, or a manifest that
        /// would exceed its size limit).
        list: Option<FileList>,
    },
}

/// A directory's file list stored beside the manifest, in its snapshot folder: the lines
/// `<sha256>  <size>  <path>\n` sorted by path, exactly the text the tree digest is the
/// SHA-256 of. So the directory's `sha256` pins the list too, and the digest of a directory
/// does not depend on where its list is stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileList {
    /// The list's path, relative to the manifest's folder
    /// (`NAME.sciproof.d/lists/<tree digest>.txt`).
    pub path: String,
    /// How many files it lists.
    pub count: u64,
}

impl Artifact {
    /// A directory whose list is in the manifest.
    pub fn directory(files: Vec<FileEntry>) -> Self {
        Artifact::Directory { files, list: None }
    }
}

impl Artifact {
    /// Whether this is a directory.
    pub fn is_directory(&self) -> bool {
        matches!(self, Artifact::Directory { .. })
    }

    /// The recorded files of a directory (empty for a file).
    pub fn files(&self) -> &[FileEntry] {
        match self {
            Artifact::Directory { files, .. } => files,
            Artifact::File => &[],
        }
    }
}

/// What identified an object in object storage when it was captured. The SHA-256 is always
/// computed by sciproof from the object's bytes; these only say which bytes.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ObjectPin {
    /// The store's entity tag (a change detector, never trusted as a checksum).
    pub etag: Option<String>,
    /// The version ID, where the bucket keeps versions: verify reads exactly this version.
    pub version: Option<String>,
}

/// The pins of an artifact in object storage (its path is an `s3://`, `gs://` or `az://`
/// address): one for an object, one per listed object of a prefix, in the list's order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Remote {
    /// The pins.
    pub pins: Vec<ObjectPin>,
}

/// A declared input: hashed before the run and re-checked after it.
#[derive(Debug, Clone, PartialEq)]
pub struct Input {
    /// The path (relative to the manifest's folder), or an object address.
    pub path: String,
    /// SHA-256 of the file, or the tree digest of a directory.
    pub sha256: String,
    /// Size in bytes.
    pub size: u64,
    /// A file or a directory.
    pub artifact: Artifact,
    /// Where the artifact is in object storage (`None` for local files).
    pub remote: Option<Remote>,
}

/// How a rerun's output is compared with the recorded one.
#[derive(Debug, Clone, PartialEq)]
pub enum Compare {
    /// Same SHA-256 (file) or tree digest (directory).
    Exact,
    /// Numerically, against a copy of the recorded file.
    Numeric {
        /// Relative tolerance.
        rtol: f64,
        /// Absolute tolerance.
        atol: f64,
        /// The recorded copy.
        snapshot: Snapshot,
    },
}

/// The copy of a numeric output kept in `NAME.sciproof.d/`.
#[derive(Debug, Clone, PartialEq)]
pub struct Snapshot {
    /// The copy's path.
    pub path: String,
    /// SHA-256 of the copy.
    pub sha256: String,
}

/// A declared output.
#[derive(Debug, Clone, PartialEq)]
pub struct Output {
    /// The path (relative to the manifest's folder).
    pub path: String,
    /// False when the command failed before producing it.
    pub present: bool,
    /// `None` exactly when not present.
    pub sha256: Option<String>,
    /// Size in bytes.
    pub size: u64,
    /// A file or a directory.
    pub artifact: Artifact,
    /// Exactly, or numerically.
    pub compare: Compare,
    /// Where the artifact is in object storage (`None` for local files).
    pub remote: Option<Remote>,
}

impl Output {
    /// Whether this output is in object storage with no pinned version to go back to, so
    /// running the command again could overwrite the recorded object for good.
    pub fn remote_without_version(&self) -> bool {
        self.present
            && self
                .remote
                .as_ref()
                .is_some_and(|r| r.pins.is_empty() || r.pins.iter().any(|p| p.version.is_none()))
    }
}

/// One captured stream.
#[derive(Debug, Clone, PartialEq)]
pub struct Stream {
    /// SHA-256 of all the bytes.
    pub sha256: String,
    /// Total byte count.
    pub size: u64,
    /// Whether `text` holds less than everything.
    pub truncated: bool,
    /// The first `--max-log-bytes` bytes, decoded as UTF-8 with replacement.
    pub text: String,
}

/// The recorded run.
#[derive(Debug, Clone, PartialEq)]
pub struct Execution {
    /// The exit status, or the negative signal number.
    pub exit_code: i64,
    /// Wall-clock seconds.
    pub duration_seconds: f64,
    /// Standard output (bounded).
    pub stdout: Stream,
    /// Standard error (bounded).
    pub stderr: Stream,
}
