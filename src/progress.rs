//! Progress reporting for long work (hashing large files and trees, reruns).
//!
//! The engine only talks to the [`Progress`] trait; the CLI decides whether anything is shown
//! (a terminal on stderr, not a machine-readable format) and supplies [`TerminalProgress`] or
//! [`NoProgress`]. Nothing here ever writes to stdout.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::time::Duration;

/// What a phase counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    Bytes,
    Files,
    /// Claims of a claim graph.
    Claims,
}

/// Receives progress events. Implementations must be cheap: `advance` is called per chunk.
pub trait Progress: Sync {
    /// A new phase begins: `label` describes it, `total` is the work expected in `unit`s
    /// (0 when unknown).
    fn begin(&self, _label: &str, _total: u64, _unit: Unit) {}
    /// `n` more units were processed.
    fn advance(&self, _n: u64) {}
    /// The phase ended; whatever was shown is cleared.
    fn finish(&self) {}
}

/// Shows nothing.
pub struct NoProgress;
impl Progress for NoProgress {}

/// A bar on stderr (bytes or files), cleared when the phase ends.
pub struct TerminalProgress {
    bar: ProgressBar,
}

impl TerminalProgress {
    /// A hidden bar that appears on stderr when work begins.
    pub fn new() -> Self {
        let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::hidden());
        Self { bar }
    }
}

impl Default for TerminalProgress {
    fn default() -> Self {
        Self::new()
    }
}

impl Progress for TerminalProgress {
    fn begin(&self, label: &str, total: u64, unit: Unit) {
        self.bar.reset();
        self.bar.set_length(total);
        self.bar.set_position(0);
        let template = match (unit, total) {
            (_, 0) => "{msg} {spinner} {elapsed}",
            (Unit::Bytes, _) => "{msg} [{bar:30}] {bytes}/{total_bytes} ({bytes_per_sec}, {eta})",
            (Unit::Files, _) => "{msg} [{bar:30}] {pos}/{len} files ({eta})",
            (Unit::Claims, _) => "{msg} [{bar:30}] {pos}/{len} claims ({eta})",
        };
        let style = ProgressStyle::with_template(template)
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ");
        self.bar.set_style(style);
        self.bar.set_message(crate::text::safe_text(label, 60));
        self.bar
            .set_draw_target(ProgressDrawTarget::stderr_with_hz(8));
        self.bar.enable_steady_tick(Duration::from_millis(250));
    }
    fn advance(&self, bytes: u64) {
        self.bar.inc(bytes);
    }
    fn finish(&self) {
        self.bar.disable_steady_tick();
        self.bar.finish_and_clear();
        self.bar.set_draw_target(ProgressDrawTarget::hidden());
    }
}
