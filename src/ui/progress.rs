//! The progress bar shown on a terminal (stderr) for long work; the library only knows the
//! [`Progress`] trait.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sciproof_core::progress::{Progress, Unit};
use std::time::Duration;

/// A bar on stderr (bytes, files or claims), cleared when the phase ends.
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
            (Unit::Runs, _) => "{msg} [{bar:30}] {pos}/{len} runs done {spinner} {elapsed}",
        };
        let style = ProgressStyle::with_template(template)
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ");
        self.bar.set_style(style);
        self.bar
            .set_message(sciproof_core::escape::terminal::safe_text(label, 60));
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
