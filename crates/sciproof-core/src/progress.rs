//! Progress reporting for long work (hashing large files and trees, reruns).
//!
//! The engine only talks to the [`Progress`] trait; the CLI decides whether anything is shown
//! (a terminal on stderr, not a machine-readable format) and supplies its terminal bar or
//! [`NoProgress`]. Nothing here ever writes to stdout.

/// What a phase counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Bytes read.
    Bytes,
    /// Files processed.
    Files,
    /// Claims of a claim graph.
    Claims,
    /// Runs of a command (`record`, `calibrate`).
    Runs,
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
