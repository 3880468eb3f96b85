//! A signature written ([`Signed`]), and what it shows.

use crate::ops::Signed;
use crate::render::{OutputFormat, Render, Renderer, Sink};

impl Render for Signed {
    fn renderer(format: OutputFormat) -> Option<Box<dyn Renderer<Self>>> {
        Some(match format {
            OutputFormat::Text => Box::new(SignedText),
            _ => return None,
        })
    }
}

/// The signature's file name, and what a signature does and does not show.
pub struct SignedText;

impl Renderer<Signed> for SignedText {
    fn render(&self, s: &Signed, out: &mut Sink) {
        let name = s
            .signature
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        out(&format!("Signature written to {name}\n"));
        out(
            "Note: a signature shows that the holder of the key vouched for this exact manifest. Check it with 'sciproof verify MANIFEST --allowed-signers FILE'.\n",
        );
    }
}
