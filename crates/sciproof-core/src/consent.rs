//! Asking before a recorded command is executed (`verify --rerun`, `badge --rerun`, `update`):
//! the one text that shows the user exactly what will run, where, and with what.
//!
//! A manifest is untrusted input, so the command is shown escaped ([`safe_text`]): what the
//! user approves is what runs, and nothing in it can reorder or hide what the terminal shows.

use crate::error::Result;
use crate::escape::terminal::safe_text;
use crate::manifest::Manifest;
use std::path::Path;

/// Asks the user, given the prompt, whether to execute: `Ok(true)` to go on.
pub type Confirm<'a> = &'a dyn Fn(&str) -> Result<bool>;

/// What executing the command will do beyond running it.
pub struct Consequences<'a> {
    /// Appended to "about to EXECUTE the command recorded in this manifest" (for example
    /// " and replace the evidence with the result").
    pub purpose: &'a str,
    /// Lines shown under the working directory (what will be replaced, say).
    pub details: Vec<String>,
    /// What the command receives beyond the user's permissions (its environment), ending with
    /// a space, or empty.
    pub environment: String,
}

/// The confirmation text for executing the command of `manifest` in `base`.
pub fn prompt(manifest: &Manifest, base: &Path, consequences: &Consequences) -> String {
    let command: Vec<String> = manifest
        .command
        .argv
        .iter()
        .map(|a| safe_text(a, 200))
        .collect();
    let mut details = String::new();
    for line in &consequences.details {
        details.push_str("\n    ");
        details.push_str(line);
    }
    format!(
        "SciProof is about to EXECUTE the command recorded in this manifest{}:\n\n    {}\n\n    working directory: {}{details}\n\nIt will run with your current user's permissions and can read, change or delete anything you can{}A manifest is untrusted input: only continue if you trust its source and have read the command above.",
        consequences.purpose,
        command.join(" "),
        base.display(),
        if consequences.environment.is_empty() {
            ". ".to_string()
        } else {
            consequences.environment.clone()
        }
    )
}

/// The declared outputs of `manifest`, escaped and joined for a prompt, or `(none)`.
pub fn outputs_listed(manifest: &Manifest) -> String {
    if manifest.outputs.is_empty() {
        return "(none)".into();
    }
    manifest
        .outputs
        .iter()
        .map(|o| safe_text(&o.path, 200))
        .collect::<Vec<_>>()
        .join(", ")
}
