//! A finished update ([`Updated`]): the new evidence and what changed from the old.

use crate::render::{OutputFormat, Render, Renderer, Sink};
use crate::update::Updated;

impl Render for Updated {
    fn renderer(format: OutputFormat) -> Option<Box<dyn Renderer<Self>>> {
        Some(match format {
            OutputFormat::Text => Box::new(UpdatedText),
            _ => return None,
        })
    }
}

/// `Updated NAME (command exit code N)`, then the difference in text.
pub struct UpdatedText;

impl Renderer<Updated> for UpdatedText {
    fn render(&self, u: &Updated, out: &mut Sink) {
        let name = u
            .capture
            .manifest_path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        out(&format!(
            "Updated {name} (command exit code {})\n\n",
            u.capture.manifest.execution.exit_code
        ));
        super::render(&u.diff, OutputFormat::Text, out);
    }
}
