//! Comparing two CSV/TSV files row by row, each read and split on its own thread; cells are
//! parsed only where the texts differ.

use super::NumericError;
use super::cell_value;
use super::read::RowReader;
use crate::numeric::diff::{Collector, Difference, Kind};
use crate::numeric::format::Pair;
use crate::numeric::rule::{compare_values, numbers_close};
use crate::numeric::stats::{Comparison, Group, GroupBy, Measured, Statistics, identical};
use crate::numeric::value::{Scalar, short};
use crate::pyfmt::str_repr;
use num_bigint::BigInt;
use std::path::Path;
use std::sync::mpsc;

/// Rows split by a reading thread: the bytes of all fields in one buffer, where each field
/// ends, and how many fields each row has. Cells are parsed only where the recorded and the
/// found text differ, so identical cells (nearly all of them, in a rerun) cost one comparison.
struct Batch {
    bytes: Vec<u8>,
    ends: Vec<usize>,
    lengths: Vec<usize>,
}

impl Batch {
    fn new() -> Self {
        Batch {
            bytes: Vec::new(),
            ends: Vec::new(),
            lengths: Vec::new(),
        }
    }
}

/// At most this many batches exist per file: memory stays constant whatever the file size.
const BATCHES: usize = 3;

/// Channels between a reading thread and the comparison: full batches one way, emptied ones
/// back for reuse (so nothing is allocated per batch after the first few).
struct BatchChannels {
    full: mpsc::Receiver<Result<Batch, NumericError>>,
    empty: mpsc::Sender<Batch>,
    /// Declared last, so it is dropped after both channels: by then the reader's next send or
    /// receive fails, and it stops after the chunk it is reading.
    reader: Reader,
}

/// The reading thread, joined before the comparison returns: no thread outlives the call (a
/// detached reader could still be running while the process exits), and a reader that
/// panicked is a panic here, never a file that seems to end early.
struct Reader(Option<std::thread::JoinHandle<()>>);

impl Reader {
    /// Waits for the thread after its channel closed; its panic becomes ours.
    fn join(&mut self) {
        if let Some(Err(panic)) = self.0.take().map(|thread| thread.join()) {
            std::panic::resume_unwind(panic);
        }
    }
}

impl Drop for Reader {
    fn drop(&mut self) {
        // Leaving early (an error, or the comparison is over): the outcome no longer matters.
        if let Some(thread) = self.0.take() {
            let _ = thread.join();
        }
    }
}

fn spawn_reader(path: &Path, name: &str, tsv: bool) -> Result<BatchChannels, NumericError> {
    let mut reader = RowReader::open_batched(path, name, tsv)?;
    let (full_tx, full_rx) = mpsc::sync_channel::<Result<Batch, NumericError>>(BATCHES);
    let (empty_tx, empty_rx) = mpsc::channel::<Batch>();
    let reader = std::thread::spawn(move || {
        let mut created = 0;
        while !reader.is_done() {
            let mut batch = match empty_rx.try_recv() {
                Ok(b) => b,
                Err(_) if created < BATCHES => {
                    created += 1;
                    Batch::new()
                }
                Err(_) => match empty_rx.recv() {
                    Ok(b) => b,
                    Err(_) => return, // the comparison ended early
                },
            };
            let read = reader.read_batch(&mut batch.bytes, &mut batch.ends, &mut batch.lengths);
            if let Err(e) = read {
                let _ = full_tx.send(Err(e));
                return;
            }
            if batch.lengths.is_empty() {
                created -= 1; // nothing to send: let it go
                continue;
            }
            if full_tx.send(Ok(batch)).is_err() {
                return;
            }
        }
    });
    Ok(BatchChannels {
        full: full_rx,
        empty: empty_tx,
        reader: Reader(Some(reader)),
    })
}

struct Rows {
    rx: BatchChannels,
    batch: Batch,
    row: usize,
    field: usize,
}

/// One row of a batch: its fields as byte strings.
struct RowView<'a> {
    bytes: &'a [u8],
    ends: &'a [usize],
    start: usize,
}

impl<'a> RowView<'a> {
    fn len(&self) -> usize {
        self.ends.len()
    }
    fn field(&self, i: usize) -> &'a [u8] {
        let from = if i == 0 { self.start } else { self.ends[i - 1] };
        &self.bytes[from..self.ends[i]]
    }
}

impl Rows {
    fn new(rx: BatchChannels) -> Self {
        Rows {
            rx,
            batch: Batch::new(),
            row: 0,
            field: 0,
        }
    }

    /// The next row, or `None` at the end.
    fn next(&mut self) -> Result<Option<RowView<'_>>, NumericError> {
        while self.row >= self.batch.lengths.len() {
            match self.rx.full.recv() {
                Ok(batch) => {
                    let done = std::mem::replace(&mut self.batch, batch?);
                    let _ = self.rx.empty.send(done);
                    self.row = 0;
                    self.field = 0;
                }
                Err(_) => {
                    self.rx.reader.join();
                    return Ok(None);
                }
            }
        }
        let len = self.batch.lengths[self.row];
        let first = self.field;
        self.row += 1;
        self.field += len;
        let start = if first == 0 {
            0
        } else {
            self.batch.ends[first - 1]
        };
        Ok(Some(RowView {
            bytes: &self.batch.bytes,
            ends: &self.batch.ends[first..first + len],
            start,
        }))
    }
}

/// Columns from this one on share one group of statistics, so that a row of a million cells
/// cannot make a million groups.
const COLUMN_GROUPS: usize = 10_000;

/// `(column 'loss')`: how locations and groups name a column by its recorded header.
fn column_label(header: &str) -> String {
    format!("(column {})", short(str_repr(header), 40))
}

/// The statistics of each column: how many cells it had in both files (derived from a
/// histogram of row lengths, one increment per row), and a tally of the cells whose values are
/// not bit-identical (the only cells that are parsed). Every other cell was bit-identical.
struct ColumnTally {
    /// `reached[n]`: rows in which both files have exactly `n` cells (`n` capped).
    reached: Vec<u64>,
    /// Cells compared from column [`COLUMN_GROUPS`] on.
    far: u64,
    /// Tallies of the cells that are not bit-identical, by column (capped).
    differing: Vec<Group>,
}

impl ColumnTally {
    fn new() -> Self {
        ColumnTally {
            reached: Vec::new(),
            far: 0,
            differing: Vec::new(),
        }
    }

    fn row(&mut self, cells: usize) {
        let n = cells.min(COLUMN_GROUPS + 1);
        if self.reached.len() <= n {
            self.reached.resize(n + 1, 0);
        }
        self.reached[n] += 1;
        self.far += cells.saturating_sub(COLUMN_GROUPS) as u64;
    }

    fn cell(&mut self, c: usize) -> &mut Group {
        let g = c.min(COLUMN_GROUPS);
        if self.differing.len() <= g {
            self.differing.resize_with(g + 1, || Group::new(""));
        }
        &mut self.differing[g]
    }

    /// One group per column, named by the recorded header where it has one.
    fn finish(self, headers: &[Option<String>]) -> Statistics {
        let mut stats = Statistics::new(GroupBy::Column);
        let groups = self.reached.len().saturating_sub(1);
        // at_least[g]: rows with more than g cells in both files, the cells compared in
        // column g (the group of the far columns has its own count)
        let mut at_least = vec![0u64; groups + 1];
        for n in (0..groups).rev() {
            at_least[n] = at_least[n + 1] + self.reached[n + 1];
        }
        let mut differing = self.differing.into_iter();
        for (g, &reaching) in at_least.iter().enumerate().take(groups) {
            let name = if g == COLUMN_GROUPS {
                format!("c{COLUMN_GROUPS} and later columns")
            } else {
                match headers.get(g) {
                    Some(Some(h)) => format!("c{g} {}", column_label(h)),
                    _ => format!("c{g}"),
                }
            };
            let mut group = Group::new(name);
            let tally = differing.next().unwrap_or_else(|| Group::new(""));
            let compared = if g == COLUMN_GROUPS {
                self.far
            } else {
                reaching
            };
            group.same(compared.saturating_sub(tally.values));
            group.merge(tally);
            stats.groups.push(group);
        }
        stats
    }
}

/// Compares the two CSV/TSV files of `pair` row by row, each split on its own thread (stopped
/// early when `pair` asks).
pub fn compare_files(
    pair: &Pair,
    tsv: bool,
    rtol: f64,
    atol: f64,
) -> Result<Comparison, NumericError> {
    let mut e_rows = Rows::new(spawn_reader(pair.recorded, pair.recorded_name, tsv)?);
    let mut a_rows = Rows::new(spawn_reader(pair.found, pair.found_name, tsv)?);
    let mut out = Collector::new();
    let mut columns = ColumnTally::new();
    let mut headers: Vec<Option<String>> = Vec::new();
    let (mut rows_e, mut rows_a, mut cells_e, mut cells_a) = (0u64, 0u64, 0u64, 0u64);
    let mut r = 0u64;
    loop {
        if r.is_multiple_of(4096) && pair.stopped() {
            return Err(NumericError::stopped());
        }
        let e = e_rows.next()?;
        let a = a_rows.next()?;
        if e.is_none() && a.is_none() {
            break;
        }
        if let Some(row) = &e {
            rows_e += 1;
            cells_e += row.len() as u64;
            if r == 0 {
                headers = (0..row.len())
                    .map(|c| {
                        if let Scalar::Str(s) = cell_value(row.field(c)) {
                            Some(s)
                        } else {
                            None
                        }
                    })
                    .collect();
            }
        }
        if let Some(row) = &a {
            rows_a += 1;
            cells_a += row.len() as u64;
        }
        if let (Some(er), Some(ar)) = (&e, &a) {
            if er.len() != ar.len() {
                let (le, la) = (
                    Scalar::Int(BigInt::from(er.len())),
                    Scalar::Int(BigInt::from(ar.len())),
                );
                if let Some(d) = compare_values(&format!("row{r}#cols"), &le, &la, rtol, atol) {
                    out.push(d);
                }
            }
            let cells = er.len().min(ar.len());
            columns.row(cells);
            for c in 0..cells {
                let (eb, ab) = (er.field(c), ar.field(c));
                if eb == ab {
                    continue; // the same text is the same value
                }
                let (ev, av) = (cell_value(eb), cell_value(ab));
                if identical(&ev, &av) {
                    continue; // another spelling of the same bits (`1.0` and `1.00`)
                }
                let same = match (&ev, &av) {
                    (Scalar::Float(x), Scalar::Float(y)) => numbers_close(*x, *y, rtol, atol),
                    (x, y) => x == y,
                };
                let location = || {
                    let mut location = format!("r{r}c{c}");
                    if r != 0
                        && let Some(Some(h)) = headers.get(c)
                    {
                        location = format!("{location} {}", column_label(h));
                    }
                    location
                };
                columns
                    .cell(c)
                    .differ(Measured::scalars(&ev, &av, rtol, atol, !same), location);
                if same {
                    continue;
                }
                if let Some(d) = compare_values(&location(), &ev, &av, rtol, atol) {
                    out.push(d);
                }
            }
        }
        r += 1;
    }
    let mut prefix = Vec::new();
    let (ne, na) = (1 + rows_e + cells_e, 1 + rows_a + cells_a);
    if ne != na {
        prefix.push(Difference::plain(
            Kind::Structure,
            None,
            format!("structure differs: {ne} values recorded, {na} found"),
        ));
    }
    if let Some(d) = compare_values(
        "rows",
        &Scalar::Int(BigInt::from(rows_e)),
        &Scalar::Int(BigInt::from(rows_a)),
        rtol,
        atol,
    ) {
        prefix.push(d);
    }
    Ok(Comparison {
        differences: out.finish(prefix),
        statistics: columns.finish(&headers),
    })
}
