//! The command line's errors and exit codes. Usage errors exist only here: the library
//! refuses with its own typed errors, and this maps every failure to a documented exit code.

use sciproof_core::escape::terminal::safe_text;
use std::process::ExitCode;

/// A usage error, an invalid manifest, or a capture that could not be completed.
pub const EXIT_ERROR: u8 = 3;

/// Why a command failed.
#[derive(Debug)]
pub enum CliError {
    /// The command line asks for something impossible (exit 3).
    Usage(String),
    /// The library refused (exit 3, or 128 + N when a signal stopped the work).
    Core(sciproof_core::Error),
}

impl From<sciproof_core::Error> for CliError {
    fn from(e: sciproof_core::Error) -> Self {
        CliError::Core(e)
    }
}

/// A usage error.
pub fn usage<T>(message: impl Into<String>) -> Result<T, CliError> {
    Err(CliError::Usage(message.into()))
}

impl CliError {
    /// Prints the error on stderr and returns its exit code.
    pub fn report(self, ui: &crate::ui::Ui) -> ExitCode {
        let message = match self {
            CliError::Core(sciproof_core::Error::Interrupted { signal, detail }) => {
                ui.line(&format!("{signal}; {}", safe_text(&detail, 2000)));
                return ExitCode::from(signal.exit_code());
            }
            CliError::Core(e) => e.to_string(),
            CliError::Usage(m) => m,
        };
        // One line, or a list whose lines the library made safe one by one (a line break
        // inside a quoted value is escaped there, so only the list's own breaks remain).
        for (i, line) in message.split('\n').enumerate() {
            let line = safe_text(line, 2000);
            if i == 0 {
                ui.line(&format!("error: {line}"));
            } else {
                ui.line(&line);
            }
        }
        ExitCode::from(EXIT_ERROR)
    }
}
