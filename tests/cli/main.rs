//! The integration tests: one binary (so that shared set-up, such as the Python reference
//! tools installed into venvs under `target/`, happens once per run), one module per command
//! or concern, each driving the real `sciproof` binary. `util` holds what they share.

mod util;

mod bad_manifest;
mod browser;
mod capture;
mod checkcrate;
mod claims;
mod concurrency;
mod crash;
mod demo;
mod diff;
mod export;
mod graph;
mod hostile;
mod install;
mod interop;
mod large_directories;
mod list;
mod object_storage;
mod policy;
mod properties;
mod record;
mod reports;
mod rerun;
mod seaweedfs;
mod signing;
mod statistics;
mod trace;
mod update;
mod verify;
