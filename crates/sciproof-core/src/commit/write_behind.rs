//! Writing a large file on a thread of its own: what a producer writes is gathered into pieces
//! of [`PIECE`] bytes, and each full piece is handed to a writing thread, so that the producer
//! goes on while the kernel copies the last piece into the page cache (for a gigabyte, most of
//! a second of processor time that would otherwise hold up whoever produces the bytes, in
//! order). The thread is started only when a first piece is full: a small file is written by
//! the producer itself, as before.
//!
//! Pieces come back once written and are used again, so at most a few of them are ever held
//! (and their memory is touched once). A failed write stops the thread; the producer learns of
//! it at its next piece, or at [`WriteBehind::finish`], with the error the write returned.

use std::io::Write;
use std::sync::mpsc::{Receiver, Sender, SyncSender, channel, sync_channel};
use std::thread::{Scope, ScopedJoinHandle};

/// Bytes per piece handed to the writing thread.
pub const PIECE: usize = 1 << 20;

/// Full pieces waiting for the writing thread at most (the producer waits past that, so the
/// memory held stays a few pieces whatever the speed of the disk).
const WAITING: usize = 2;

/// A [`Write`] whose bytes reach `W` on another thread of `scope` once a piece is full.
pub struct WriteBehind<'scope, 'env, W: Write + Send + 'scope> {
    scope: &'scope Scope<'scope, 'env>,
    piece: Vec<u8>,
    state: State<'scope, W>,
}

enum State<'scope, W> {
    /// No piece handed over yet: the writer is still here.
    Here(W),
    /// The writing thread has the writer.
    There {
        full: SyncSender<Vec<u8>>,
        empty: Receiver<Vec<u8>>,
        thread: ScopedJoinHandle<'scope, std::io::Result<W>>,
    },
    /// Between the two (only while a thread is started, or after a failure).
    Gone,
}

impl<'scope, 'env, W: Write + Send + 'scope> WriteBehind<'scope, 'env, W> {
    /// Writes to `out`, on a thread of `scope` once there is a piece to hand over.
    pub fn new(scope: &'scope Scope<'scope, 'env>, out: W) -> Self {
        WriteBehind {
            scope,
            piece: Vec::new(),
            state: State::Here(out),
        }
    }

    /// Writes what is left and hands the writer back (the first error of any write if one
    /// failed).
    pub fn finish(mut self) -> std::io::Result<W> {
        let last = std::mem::take(&mut self.piece);
        match std::mem::replace(&mut self.state, State::Gone) {
            State::Here(mut out) => {
                out.write_all(&last)?;
                Ok(out)
            }
            State::There { full, thread, .. } => {
                // (a send fails only when the thread has stopped, and then its error tells why)
                let _ = full.send(last);
                drop(full);
                joined(thread)
            }
            State::Gone => Err(stopped()),
        }
    }

    /// Hands the full piece to the writing thread (started the first time), waiting while
    /// [`WAITING`] pieces wait already, and takes back an emptied piece if one has come back
    /// (else [`Write::write`] makes a new one: at most [`WAITING`] + 2 ever exist).
    fn hand_over(&mut self) -> std::io::Result<()> {
        let full = std::mem::take(&mut self.piece);
        match std::mem::replace(&mut self.state, State::Gone) {
            State::Here(out) => {
                let (full_tx, full_rx) = sync_channel::<Vec<u8>>(WAITING);
                let (empty_tx, empty_rx) = channel();
                let thread = std::thread::Builder::new()
                    .name("sciproof-writer".into())
                    .spawn_scoped(self.scope, move || write_pieces(out, full_rx, empty_tx))?;
                full_tx
                    .send(full)
                    .expect("a thread just started receives its first piece");
                self.state = State::There {
                    full: full_tx,
                    empty: empty_rx,
                    thread,
                };
            }
            State::There {
                full: full_tx,
                empty,
                thread,
            } => {
                if full_tx.send(full).is_err() {
                    // The thread stopped at a failed write: its error is the one to report.
                    return joined(thread).and(Err(stopped()));
                }
                self.piece = empty.try_recv().unwrap_or_default();
                self.state = State::There {
                    full: full_tx,
                    empty,
                    thread,
                };
            }
            State::Gone => return Err(stopped()),
        }
        Ok(())
    }
}

impl<'scope, 'env, W: Write + Send + 'scope> Write for WriteBehind<'scope, 'env, W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.piece.capacity() == 0 {
            self.piece.reserve_exact(PIECE);
        }
        // (a piece is handed over as soon as it is full, so there is always room)
        let n = buf.len().min(PIECE - self.piece.len());
        self.piece.extend_from_slice(&buf[..n]);
        if self.piece.len() >= PIECE {
            self.hand_over()?;
        }
        Ok(n)
    }

    /// Nothing to do: the bytes reach the writer in pieces, and all of them at
    /// [`WriteBehind::finish`].
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The writing thread: each piece written in order and sent back emptied, until the producer
/// is done or a write fails.
fn write_pieces<W: Write>(
    mut out: W,
    full: Receiver<Vec<u8>>,
    empty: Sender<Vec<u8>>,
) -> std::io::Result<W> {
    for mut piece in full {
        out.write_all(&piece)?;
        piece.clear();
        // (the producer may be gone already: then the piece is simply freed)
        let _ = empty.send(piece);
    }
    Ok(out)
}

/// The writing thread's end: the writer, or the error that stopped it (a panic goes on).
fn joined<W>(thread: ScopedJoinHandle<'_, std::io::Result<W>>) -> std::io::Result<W> {
    thread
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

fn stopped() -> std::io::Error {
    std::io::Error::other("the file's writing thread stopped")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer that fails once `limit` bytes have been written (a disk that fills up).
    struct Filling {
        bytes: Vec<u8>,
        limit: usize,
    }

    impl Write for Filling {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            if self.bytes.len() + buf.len() > self.limit {
                return Err(std::io::Error::from_raw_os_error(libc::ENOSPC));
            }
            self.bytes.extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// What `pieces` written through a [`WriteBehind`] give, with whether a writing thread
    /// was started.
    fn written_by(pieces: &[&[u8]], limit: usize) -> std::io::Result<(Vec<u8>, bool)> {
        std::thread::scope(|scope| {
            let mut w = WriteBehind::new(
                scope,
                Filling {
                    bytes: Vec::new(),
                    limit,
                },
            );
            for piece in pieces {
                w.write_all(piece)?;
            }
            let threaded = !matches!(w.state, State::Here(_));
            w.finish().map(|out| (out.bytes, threaded))
        })
    }

    fn written(pieces: &[&[u8]], limit: usize) -> std::io::Result<Vec<u8>> {
        written_by(pieces, limit).map(|(bytes, _)| bytes)
    }

    #[test]
    fn every_byte_arrives_in_order_whatever_the_sizes_of_the_writes() {
        let big: Vec<u8> = (0..3 * PIECE + 17).map(|i| (i % 251) as u8).collect();
        let small = b"abc".as_slice();
        let mut expected = Vec::new();
        let mut pieces: Vec<&[u8]> = Vec::new();
        for n in 0..40 {
            let piece: &[u8] = if n % 7 == 3 { &big } else { small };
            pieces.push(piece);
            expected.extend_from_slice(piece);
        }
        assert_eq!(written(&pieces, usize::MAX).unwrap(), expected);
    }

    #[test]
    fn a_small_file_is_written_without_a_thread_and_at_the_finish() {
        assert_eq!(
            written_by(&[b"x", b"yz"], usize::MAX).unwrap(),
            (b"xyz".to_vec(), false)
        );
        assert_eq!(written_by(&[], usize::MAX).unwrap(), (Vec::new(), false));
        let almost = vec![1u8; PIECE - 1];
        assert_eq!(
            written_by(&[&almost], usize::MAX).unwrap(),
            (almost.clone(), false)
        );
        let whole = [almost.as_slice(), b"z"].concat();
        assert_eq!(
            written_by(&[&almost, b"z"], usize::MAX).unwrap(),
            (whole, true)
        );
        let err = written(&[b"xyz"], 2).unwrap_err();
        assert_eq!(err.raw_os_error(), Some(libc::ENOSPC));
    }

    #[test]
    fn a_failed_write_on_the_thread_is_the_error_the_producer_gets() {
        let big = vec![7u8; PIECE];
        for limit in [0, PIECE - 1, PIECE, 5 * PIECE + 3] {
            let pieces: Vec<&[u8]> = (0..8).map(|_| big.as_slice()).collect();
            let err = written(&pieces, limit).unwrap_err();
            assert_eq!(
                err.raw_os_error(),
                Some(libc::ENOSPC),
                "limit {limit}: {err}"
            );
        }
    }
}
