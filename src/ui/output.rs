//! Everything the command line writes goes through here, so that no write can panic and no
//! byte a terminal obeys gets out: every piece passes `sciproof_core::escape::terminal::terminal_guard`.
//!
//! Standard output: a closed pipe (`sciproof list | head -1`) ends the program quietly with exit
//! code 0, as ripgrep does; any other failure (`> /dev/full`) is one line on stderr, `error:
//! cannot write to standard output: No space left on device`, and exit code 3. Standard error:
//! failures are ignored (there is nowhere left to say anything).

use std::io::Write;

/// Writes `text` to standard output and flushes it.
pub(super) fn print(text: &str) {
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    let text = sciproof_core::escape::terminal::terminal_guard(text);
    let result = lock.write_all(text.as_bytes()).and_then(|()| lock.flush());
    if let Err(e) = result {
        drop(lock);
        fail(&e);
    }
}

/// Buffered standard output for text written piece by piece (a large graph's report is never
/// held whole): every piece is guarded, every failure ends the program as [`print()`] does.
pub(super) struct Writer {
    inner: std::io::BufWriter<std::io::StdoutLock<'static>>,
}

impl Writer {
    /// Standard output, buffered.
    pub fn new() -> Writer {
        Writer {
            inner: std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock()),
        }
    }
    /// Writes a piece.
    pub fn put(&mut self, piece: &str) {
        let piece = sciproof_core::escape::terminal::terminal_guard(piece);
        if let Err(e) = self.inner.write_all(piece.as_bytes()) {
            fail(&e);
        }
    }
    /// Flushes what is buffered.
    pub fn finish(mut self) {
        if let Err(e) = self.inner.flush() {
            fail(&e);
        }
    }
}

/// Ends the program after a failed write to standard output.
pub(super) fn fail(e: &std::io::Error) -> ! {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    error_line(&format!(
        "error: cannot write to standard output: {}",
        sciproof_core::error::strerror(e)
    ));
    std::process::exit(3);
}

/// Writes one line to standard error; failures are ignored.
pub(super) fn error_line(text: &str) {
    let stderr = std::io::stderr();
    let mut lock = stderr.lock();
    let _ = writeln!(
        lock,
        "{}",
        sciproof_core::escape::terminal::terminal_guard(text)
    );
}

/// Writes `text` to standard error without a line break (a prompt); failures are ignored.
pub(super) fn error_text(text: &str) {
    let stderr = std::io::stderr();
    let mut lock = stderr.lock();
    let _ = lock.write_all(sciproof_core::escape::terminal::terminal_guard(text).as_bytes());
    let _ = lock.flush();
}
