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
//! Data flows one way (see `ARCHITECTURE.md` at the root of the repository for the whole
//! workspace and where each kind of change goes):
//!
//! ```text
//! the command line (the sciproof binary: flags -> typed request)
//!   -> ops            one function per operation: a typed request in, a model out
//!   -> engines        capture, verify, update, graph, checkcrate, export, ...
//!   -> models         manifest::Manifest, report::Report (checks are data), diff::Diff, ...
//!   -> render         one renderer per model and format (text, JSON, Markdown, JUnit, LaTeX)
//! ```
//!
//! | module | concept |
//! | --- | --- |
//! | [`ops`] | the operations: one function per command, typed request -> model |
//! | [`render`] | the output layer: [`render::OutputFormat`], one renderer per model and format |
//! | [`escape`] | making untrusted text inert: terminal, Markdown, XML, LaTeX, one module per dialect |
//! | [`json`] | strict JSON reader and a writer byte-identical to Python's `json.dumps` (crate `sciproof-json`) |
//! | [`pyfmt`] | Python `repr` of floats and strings, Python's `float()` grammar and `str.split()` |
//! | [`timestamp`] | ISO 8601 timestamps as `datetime.isoformat`/`fromisoformat` handle them |
//! | [`paths`] | manifest path rules, resolution inside a base directory |
//! | [`untrusted`] | the one way to read a file sciproof did not write: bounded, never blocking, regular files only |
//! | [`commit`] | the commit protocol: locks, journals, atomic writes, moving outputs aside, recovery after a crash |
//! | [`interrupt`] | termination signals: recorded during critical sections, which finish or roll back first |
//! | [`consent`] | asking before a recorded command is executed: the one confirmation text |
//! | [`hash`] | streaming SHA-256 (CPU SHA extensions via `sha2`) |
//! | [`stat`] | proving a file unchanged from its status (`ctime`) without re-reading it |
//! | [`tree`] | directory artifacts: walk, parallel hashing, tree digest, tree differences |
//! | [`store`] | where artifacts live, behind [`store::ArtifactStore`] (the local disk) |
//! | [`manifest`] | the manifest model, its validating reader and its atomic writer |
//! | [`numeric`] | numeric comparison: the tolerance rule, and one [`numeric::NumericFormat`] per file type |
//! | [`claims`] | claims about values in outputs: model, expression parser, claim text |
//! | [`policy`] | verification policies: TOML rules about the evidence, one [`policy::rules::Rule`] each |
//! | [`probe`] | platform, allow-listed variables, Python interpreter, hardware, Git |
//! | [`runner`] | running a command without a shell: process group, timeout, bounded capture |
//! | [`signing`] | OpenSSH signatures of manifests (SSHSIG) and allowed-signers files, natively |
//! | [`capture`] | the capture engine's stages |
//! | [`update`] | re-capture with a manifest's own declarations, then diff old and new |
//! | [`verify`] | the verification engine (integrity checks, rerun, claims, warnings, notes) |
//! | [`report`] | the report model and the verdict rule |
//! | [`diff`] | what changed between two recorded runs |
//! | [`ledger`] | `list`: the manifests of a folder, with their integrity verdicts |
//! | [`badge`] | the SVG badge of a verdict |
//! | [`export`] | in-toto Statement, OpenLineage events and LaTeX values of a manifest |
//! | [`checkcrate`] | claim-check records and the claim-check RO-Crate (repro's format): write, read back, list problems |
//! | [`graph`] | claim graphs: content-addressed claims across runs, re-verification ([`graph::recipe::Recipe`]), lineage |
//! | [`demo`] | the built-in example experiment |
//! | [`progress`] | the progress trait long work reports to (the binary draws the bar) |
//! | [`error`] | the library's error types, one per concern |
//!
//! The verdict is one pure function of the checks ([`report::verdict`]); renderers never
//! compute verdicts. Core rules (JSON, paths, tree digests, the CSV parser) are separate from
//! I/O and tested in isolation.

pub mod badge;
pub mod calibrate;
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
pub mod orphans;
pub mod paths;
pub mod policy;
pub mod probe;
pub mod progress;
pub mod render;
pub mod report;
pub mod runner;
pub mod signing;
pub mod stat;
pub mod store;
pub mod timestamp;
pub mod trace;
pub mod tree;
pub mod untrusted;
pub mod update;
pub mod verify;

pub use error::{Error, Result};
/// The JSON layer (its own crate, `sciproof-json`).
pub use sciproof_json as json;
/// Python's number and string formatting (in `sciproof-json`).
pub use sciproof_json::pyfmt;
