//! A badge written ([`Badge`]): its verdict and where it went.

use crate::ops::Badge;
use crate::render::{OutputFormat, Render, Renderer, Sink};

impl Render for Badge {
    fn renderer(format: OutputFormat) -> Option<Box<dyn Renderer<Self>>> {
        Some(match format {
            OutputFormat::Text => Box::new(BadgeText),
            _ => return None,
        })
    }
}

/// `PASS: wrote sciproof-badge.svg` (nothing when no badge was written).
pub struct BadgeText;

impl Renderer<Badge> for BadgeText {
    fn render(&self, badge: &Badge, out: &mut Sink) {
        if let Some(path) = &badge.written {
            out(&format!(
                "{}: wrote {}\n",
                badge.status.as_str(),
                path.display()
            ));
        }
    }
}
