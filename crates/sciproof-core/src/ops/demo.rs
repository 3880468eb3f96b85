//! `demo`: the built-in experiment, captured, verified, tampered with, restored and re-run.

use crate::error::Result;
use std::path::Path;

pub use crate::demo::DemoStep;

/// Runs the demo in `dir` (see [`crate::demo::run`]), handing each step to `on_step` as it
/// happens. Returns whether every verdict was the expected one.
pub fn demo(dir: &Path, on_step: &mut dyn FnMut(&DemoStep)) -> Result<bool> {
    crate::demo::run(dir, on_step)
}
