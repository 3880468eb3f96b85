//! The `sciproof` command line: parses flags, runs one command (`commands/`), and maps the
//! outcome to an exit code. Everything a command shows goes through the [`ui::Ui`].
//!
//! Exit codes: 0 success / PASS, 1 FAIL (or the captured command failed), 2 INCONCLUSIVE,
//! 3 usage error, invalid manifest, or a capture that could not be completed, 128 + N
//! interrupted by signal N.

mod commands;
mod error;
mod flags;
mod ui;

use clap::Parser;
use std::process::ExitCode;

// Manifests of large directories are many small allocations (one per file entry field);
// mimalloc makes loading them several times faster than the system allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// SIGINT, SIGTERM, SIGHUP and SIGQUIT are handled alike (see `sciproof_core::interrupt`):
/// outside a critical section the process ends at once with 128 + the signal's number; inside
/// one the operation stops its command, finishes or rolls back, and says which.
fn handle_signals() {
    const UI: ui::Ui = ui::Ui::new(false);
    let Ok(mut signals) = signal_hook::iterator::Signals::new(sciproof_core::interrupt::SIGNALS)
    else {
        return;
    };
    std::thread::spawn(move || {
        for signal in signals.forever() {
            sciproof_core::interrupt::deliver(signal, |i| {
                UI.line(&i.to_string());
                std::process::exit(i32::from(i.exit_code()));
            });
        }
    });
}

fn main() -> ExitCode {
    handle_signals();
    let cli = match commands::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { error::EXIT_ERROR } else { 0 });
        }
    };
    let ui = ui::Ui::new(cli.no_wait);
    match commands::run(&ui, cli) {
        Ok(code) => {
            if let Some(signal) = sciproof_core::interrupt::pending()
                && code < 128
            {
                // The signal arrived while something had to be finished (a commit); it was.
                ui.line(&format!(
                    "note: {} arrived while sciproof was writing; that work was completed first",
                    signal.name()
                ));
            }
            ExitCode::from(code)
        }
        Err(e) => e.report(&ui),
    }
}
