//! The operations: one function per thing sciproof does, each taking a typed request and
//! returning a model that [`crate::render`] can show. The command line calls these and nothing
//! below them; a library user calls them the same way.
//!
//! | operation | request | model |
//! | --- | --- | --- |
//! | [`capture()`] | [`CaptureRequest`](crate::capture::CaptureRequest) | [`CaptureResult`](crate::capture::CaptureResult) |
//! | [`verify()`] | [`VerifyRequest`](crate::verify::VerifyRequest) | [`Verification`](crate::verify::Verification) (its [`Report`](crate::report::Report)) |
//! | [`check_claims()`] | [`VerifyRequest`](crate::verify::VerifyRequest) | [`ClaimsCheck`](crate::report::ClaimsCheck) |
//! | [`inspect()`] | [`InspectRequest`] | [`Inspection`] (its [`Manifest`](crate::manifest::Manifest)) |
//! | [`diff()`] | [`DiffRequest`] | [`Compared`] (its [`Diff`](crate::diff::Diff)) |
//! | [`list()`] | [`ListRequest`](crate::ledger::ListRequest) | [`Ledger`](crate::ledger::Ledger) |
//! | [`badge()`] | [`BadgeRequest`] | [`Badge`] |
//! | [`export()`] | [`ExportRequest`] | [`Exported`] |
//! | [`update()`] | [`UpdateRequest`](crate::update::UpdateRequest) | [`Updated`](crate::update::Updated) |
//! | [`sign()`] | [`SignRequest`] | [`Signed`] |
//! | [`check_policy()`] | a policy file | [`Policy`](crate::policy::Policy) |
//! | [`read_crate()`] | a crate folder or file | [`ReadCrate`](crate::checkcrate::read::ReadCrate) |
//! | [`calibrate()`] | [`CalibrateRequest`](crate::calibrate::CalibrateRequest) | [`Calibration`](crate::calibrate::Calibration) |
//! | [`record()`] | [`RecordRequest`] | [`Recorded`] |
//! | [`recover()`] | [`RecoverRequest`] | [`Recovered`] |
//! | [`suggest_inputs()`] | [`SuggestInputsRequest`] | [`Suggestions`] |
//! | [`demo()`] | a folder | [`DemoStep`]s as they happen, then whether all went as expected |
//! | [`graph`] | one request per graph command | the graph's models ([`crate::graph::view`]) |
//!
//! What one step loaded is passed on, never read again: a verification returns the manifest it
//! read ([`Loaded`](crate::manifest::Loaded)), and export, crates and diff work on that.

mod badge;
mod capture;
mod check_policy;
mod claims_check;
mod crate_read;
mod demo;
mod diff;
mod export;
pub mod graph;
mod inspect;
mod record;
mod recover;
mod sign;
mod suggest_inputs;
mod update;
mod verify;

pub use crate::calibrate::calibrate;
pub use crate::ledger::list;
pub use badge::{Badge, BadgeRequest, badge};
pub use capture::capture;
pub use check_policy::check_policy;
pub use claims_check::check_claims;
pub use crate_read::read_crate;
pub use demo::{DemoStep, demo};
pub use diff::{Compared, DiffRequest, diff};
pub use export::{ExportKind, ExportOutcome, ExportRequest, Exported, export};
pub use inspect::{InspectRequest, Inspection, inspect};
pub use record::{RecordRequest, Recorded, record};
pub use recover::{RecoverRequest, Recovered, recover};
pub use sign::{SignRequest, Signed, sign};
pub use suggest_inputs::{SuggestInputsRequest, Suggestions, suggest_inputs};
pub use update::{update, update_plan};
pub use verify::{save_crate, save_report, verify};

/// The current time as the reports and records write it (RFC 3339, UTC, whole seconds).
pub fn now() -> String {
    crate::timestamp::now_utc()
}
