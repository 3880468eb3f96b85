//! Claim graphs: a content-addressed DAG of claims across runs and sessions.
//!
//! A [`Claim`] is identified by its content ([`claim_id`]); a [`ClaimGraph`] holds claims and
//! their dependency edges, refuses cycles by construction, answers "what does this rest on?"
//! and "what dies if this is false?", re-verifies claims that carry a recipe. Its documents and
//! reports are rendered by [`crate::render::graph`]. Documents are interchangeable with `alkahest.research` (alkahest 3.12).
//!
//! **The honesty invariant, with no bypass**: recording never raises a status, a conjecture is
//! always `unverified`, a statement re-worded by the caller is `asserted` unless a recipe this
//! build can run re-establishes the link, merging keeps the stored status, and re-verification
//! can only lower confidence (a failed re-check makes a claim `refuted`).

pub mod claim;
mod claim_text;
pub mod document;
pub mod error;
pub mod id;
pub mod index;
pub mod query;
pub mod store;
pub mod streamed_digest;
#[cfg(test)]
mod testing;
pub mod view;

pub use claim::Claim;
pub use document::Form;
pub use error::GraphError;
pub use id::{canon, claim_id};
pub use load::LoadNotes;
pub use store::ClaimGraph;
pub mod compare;
pub mod lineage;
pub mod load;
pub mod recipe;
pub mod record;
