//! # sciproof
//!
//! Turns a computational experiment into evidence anyone can check: `capture` runs a command
//! once and records its declared inputs and outputs (SHA-256, directory tree digests, numeric
//! snapshots), environment and Git state in `NAME.sciproof.json`; `verify` checks that evidence
//! and answers PASS, FAIL or INCONCLUSIVE with the facts behind the verdict and a list of what
//! was not checked. Manifests and reports are interchangeable with the Python reference
//! implementation (sciproof 0.4.1).
//!
//! ## Architecture
//!
//! Data flows one way:
//!
//! ```text
//! CLI flags (src/main.rs, clap)
//!   -> typed request      capture::CaptureRequest, verify::VerifyRequest
//!   -> engine             capture, verify (integrity), runner, probe, tree, hash
//!   -> data               manifest::Manifest, report::Report (checks are data)
//!   -> renderer           report::{text, json}, inspect
//! ```
//!
//! | module | concept |
//! | --- | --- |
//! | [`json`] | strict JSON reader (no duplicate keys, exact integers, Python literals; streamed for large documents) and a writer byte-identical to Python's `json.dumps` |
//! | [`pyfmt`] | Python `repr` of floats and strings, Python's `float()` grammar and `str.split()` |
//! | [`escape`] | making untrusted text inert: terminal, Markdown, XML, LaTeX, one module per dialect |
//! | [`timestamp`] | ISO 8601 timestamps as `datetime.isoformat`/`fromisoformat` handle them |
//! | [`paths`] | manifest path rules, resolution inside a base directory |
//! | [`untrusted`] | the one way to read a file sciproof did not write: bounded, never blocking, regular files only |
//! | [`commit`] | the commit protocol: locks, journals, atomic writes, moving outputs aside, recovery after a crash |
//! | [`interrupt`] | termination signals: recorded during critical sections, which finish or roll back first |
//! | [`hash`] | streaming SHA-256 (CPU SHA extensions via `sha2`) |
//! | [`stat`] | proving a file unchanged from its status (`ctime`) without re-reading it |
//! | [`tree`] | directory artifacts: walk, parallel hashing, tree digest, tree differences |
//! | [`manifest`] | the manifest model, its validating reader and its atomic writer |
//! | [`numeric`] | numeric comparison: the tolerance rule, JSON, streamed CSV/TSV, `.npy`, `.npz` |
//! | [`claims`] | claims about values in outputs: model, expression parser, claim text |
//! | [`policy`] | verification policies (TOML rules about the evidence), each rule a check |
//! | [`probe`] | platform, allow-listed variables, Python interpreter, hardware, Git |
//! | [`runner`] | running a command without a shell: process group, timeout, bounded capture |
//! | [`signing`] | OpenSSH signatures of manifests (SSHSIG) and allowed-signers files, natively |
//! | [`capture`] | the capture engine |
//! | [`update`] | re-capture with a manifest's own declarations, then diff old and new |
//! | [`verify`] | the verification engine (integrity checks, warnings, notes) |
//! | [`report`] | the report model, the verdict rule, renderers behind [`report::Renderer`] |
//! | [`diff`] | what changed between two recorded runs (text, JSON, Markdown) |
//! | [`ledger`] | `list`: the manifests of a folder, with their integrity verdicts |
//! | [`badge`] | the SVG badge of a verdict |
//! | [`export`] | in-toto Statement and OpenLineage events of a manifest |
//! | [`checkcrate`] | claim-check records and the claim-check RO-Crate (repro's format): write, read back, list problems |
//! | [`graph`] | claim graphs: content-addressed claims across runs, re-verification, lineage, Markdown/LaTeX |
//! | [`demo`] | the built-in example experiment |
//! | [`progress`] | progress on a terminal for long work, nothing otherwise |
//! | [`error`] | the library's error type (every refusal is exit code 3 at the CLI) |
//!
//! The verdict is one pure function of the checks ([`report::verdict`]); renderers never
//! compute verdicts. Core rules (JSON, paths, tree digests) are separate from I/O and tested in
//! isolation.

pub mod badge;
pub mod capture;
pub mod checkcrate;
pub mod claims;
pub mod commit;
pub mod consent;
pub mod demo;
pub mod diff;
pub mod error;
pub mod escape;
pub mod export;
pub mod graph;
pub mod hash;
pub mod interrupt;
pub mod ledger;
pub mod manifest;
pub mod numeric;
pub mod ops;
pub mod paths;
pub mod policy;
pub mod probe;
pub mod progress;
pub mod render;
pub mod report;
pub mod runner;
pub mod signing;
pub mod stat;
pub mod timestamp;
pub mod tree;
pub mod untrusted;
pub mod update;
pub mod verify;

pub use error::{Error, Result};
/// The JSON layer (its own crate, `sciproof-json`).
pub use sciproof_json as json;
/// Python's number and string formatting (in `sciproof-json`).
pub use sciproof_json::pyfmt;
