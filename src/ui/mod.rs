//! The one way the command line talks to the user: standard output (every model through its
//! renderer, broken-pipe-safe), standard error (warnings, notes, what was recovered), progress
//! bars, confirmation prompts and passphrases. No command prints any other way.

mod output;
mod progress;

use sciproof_core::commit::lock::Wait;
use sciproof_core::error::{Error, strerror};
use sciproof_core::escape::terminal::safe_text;
use sciproof_core::progress::{NoProgress, Progress};
use sciproof_core::render::{OutputFormat, Render, Stream};
use sciproof_core::signing::SigningError;
use std::io::IsTerminal;
use std::path::Path;

/// The user's terminal (or whatever stands in for it).
pub struct Ui {
    no_wait: bool,
}

/// Says on stderr that this process waits for another one.
fn notify(message: &str) {
    output::error_line(&safe_text(message, 2000));
}

impl Ui {
    /// A terminal; with `no_wait`, a command refuses at once when another sciproof holds the
    /// evidence or graph it would change (`--no-wait`).
    pub const fn new(no_wait: bool) -> Ui {
        Ui { no_wait }
    }

    /// What to do when another sciproof holds a lock: wait and say so, or refuse.
    pub fn wait(&self) -> Wait<'static> {
        if self.no_wait {
            Wait::No
        } else {
            Wait::Yes(&notify)
        }
    }

    /// Writes `model` in `format` to standard output, streamed in pieces.
    pub fn render<M: Render>(&self, model: &M, format: OutputFormat) {
        let mut out = output::Writer::new();
        sciproof_core::render::render(model, format, &mut |piece| out.put(piece));
        out.finish();
    }

    /// Writes text to standard output.
    pub fn print(&self, text: &str) {
        output::print(text);
    }

    /// Writes a stream's pieces to standard output as they come. A failed write (a closed pipe)
    /// does not stop the work: it is remembered, and [`StreamOut::finish`] reports it.
    pub fn stream<S: Stream>(&self, format: OutputFormat) -> StreamOut<S> {
        StreamOut {
            renderer: S::renderer(format),
            out: std::io::BufWriter::new(std::io::stdout().lock()),
            failed: None,
            count: 0,
        }
    }

    /// One line on standard error (made terminal-safe as a whole).
    pub fn line(&self, text: &str) {
        output::error_line(text);
    }

    /// `warning: TEXT` on standard error.
    pub fn warn(&self, text: &str) {
        output::error_line(&format!("warning: {}", safe_text(text, 2000)));
    }

    /// `recovered: ...` for each operation an earlier process left unfinished that was
    /// completed or undone first.
    pub fn recovered<'a>(&self, lines: impl IntoIterator<Item = &'a String>) {
        for line in lines {
            output::error_line(&format!("recovered: {}", safe_text(line, 2000)));
        }
    }

    /// A progress bar on stderr when `wanted` and stderr is a terminal, else nothing.
    pub fn progress(&self, wanted: bool) -> Box<dyn Progress> {
        if wanted && std::io::stderr().is_terminal() {
            Box::new(progress::TerminalProgress::new())
        } else {
            Box::new(NoProgress)
        }
    }

    /// Asks on the terminal whether to execute: the prompt and the question go to stderr (so
    /// `--json > file` stays valid JSON); only `yes` (any case, surrounding spaces ignored)
    /// runs. Without a terminal it refuses instead of waiting.
    pub fn confirm(&self, prompt: &str) -> Result<bool, Error> {
        if !std::io::stdin().is_terminal() {
            return Err(Error::ConfirmationRequired(
                "refusing to execute the recorded command: no terminal to ask for confirmation; re-run with --yes after reading the command (see 'sciproof inspect')".into(),
            ));
        }
        output::error_line(prompt);
        output::error_text("\nExecute this command? Type 'yes' to continue: ");
        let mut answer = String::new();
        match std::io::stdin().read_line(&mut answer) {
            Ok(0) | Err(_) => Err(Error::ConfirmationRequired(
                "no confirmation received".into(),
            )),
            Ok(_) => Ok(answer.trim().eq_ignore_ascii_case("yes")),
        }
    }

    /// The passphrase of an encrypted key: from `SSH_ASKPASS` when set (as OpenSSH does without
    /// a terminal), else asked on the terminal without echo.
    pub fn passphrase(&self, key: &Path) -> Result<String, Error> {
        let prompt = format!("Enter passphrase for {}: ", key.display());
        if let Some(askpass) = std::env::var_os("SSH_ASKPASS").filter(|a| !a.is_empty())
            && std::env::var("SSH_ASKPASS_REQUIRE").as_deref() != Ok("never")
        {
            let out = std::process::Command::new(askpass)
                .arg(&prompt)
                .stdin(std::process::Stdio::null())
                .output()
                .map_err(|e| {
                    SigningError::Key(format!("SSH_ASKPASS could not be run: {}", strerror(&e)))
                })?;
            if !out.status.success() {
                return Err(SigningError::Key("SSH_ASKPASS gave no passphrase".into()).into());
            }
            return Ok(String::from_utf8_lossy(&out.stdout)
                .trim_end_matches(['\n', '\r'])
                .to_string());
        }
        if !std::io::stdin().is_terminal() {
            return Err(SigningError::Key(format!(
                "{} is encrypted: run on a terminal to type its passphrase, or set SSH_ASKPASS",
                key.display()
            ))
            .into());
        }
        rpassword::prompt_password(prompt).map_err(|e| {
            SigningError::Key(format!("no passphrase received: {}", strerror(&e))).into()
        })
    }

    /// Reports a failed write to standard output and ends the program (see [`StreamOut`]).
    pub fn fail_output(&self, e: &std::io::Error) -> ! {
        output::fail(e)
    }
}

/// Standard output for a [`Stream`]: pieces are written as they are decided.
pub struct StreamOut<S: Stream> {
    renderer: Option<Box<dyn sciproof_core::render::StreamRenderer<S>>>,
    out: std::io::BufWriter<std::io::StdoutLock<'static>>,
    failed: Option<std::io::Error>,
    count: usize,
}

impl<S: Stream> StreamOut<S> {
    fn put(&mut self, piece: &str) {
        let piece = sciproof_core::escape::terminal::terminal_guard(piece);
        if self.failed.is_none()
            && let Err(e) = std::io::Write::write_all(&mut self.out, piece.as_bytes())
        {
            self.failed = Some(e);
        }
    }

    /// Writes the head.
    pub fn head(&mut self, head: &S::Head) {
        if let Some(r) = self.renderer.take() {
            r.head(head, &mut |p| self.put(p));
            self.renderer = Some(r);
        }
    }

    /// Writes items, in order (a long list is rendered on every core: see
    /// [`sciproof_core::render::render_items`]).
    pub fn items(&mut self, items: &[S::Item])
    where
        S::Item: Sync,
    {
        if let Some(r) = self.renderer.take() {
            sciproof_core::render::render_items(r.as_ref(), self.count, items, &mut |p| {
                self.put(p)
            });
            self.renderer = Some(r);
        }
        self.count += items.len();
    }

    /// Writes the tail and flushes; returns the first write error, if any (the caller
    /// finishes its work first, then reports it with [`Ui::fail_output`]).
    pub fn finish(mut self, tail: &S::Tail) -> Option<std::io::Error> {
        if let Some(r) = self.renderer.take() {
            r.tail(self.count, tail, &mut |p| self.put(p));
        }
        if let Err(e) = std::io::Write::flush(&mut self.out) {
            self.failed.get_or_insert(e);
        }
        self.failed
    }
}
