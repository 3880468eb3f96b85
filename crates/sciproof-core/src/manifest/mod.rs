//! The evidence manifest (`NAME.sciproof.json`): model, strict reader, writer.
//!
//! A manifest is untrusted input: [`load_manifest`] checks types, versions, digests and paths
//! and refuses ambiguous JSON; a valid manifest still holds a command that can run arbitrary
//! code, which is why nothing here executes anything.

pub mod file_list;
mod model;
mod read;
mod read_claims;
mod reserved;
mod write;

pub use model::*;
pub use read::{Identity, Loaded, check_nesting, load, load_manifest, parse_manifest, validate};
pub use reserved::reserved_output;
pub use write::{to_json, to_text, write_atomic, write_atomic_with, write_manifest};
