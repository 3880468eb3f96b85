//! A policy file's rules ([`Policy`]), as `sciproof check-policy` lists them.

use crate::escape::terminal::safe_text;
use crate::policy::{POLICY_VERSION, Policy, RuleValue};
use crate::render::{OutputFormat, Render, Renderer, Sink};

impl Render for Policy {
    fn renderer(format: OutputFormat) -> Option<Box<dyn Renderer<Self>>> {
        Some(match format {
            OutputFormat::Text => Box::new(PolicyText),
            _ => return None,
        })
    }
}

/// The file, its version and digest, then one line per rule (a rule set to false says that it
/// adds no check).
pub struct PolicyText;

impl Renderer<Policy> for PolicyText {
    fn render(&self, p: &Policy, out: &mut Sink) {
        out(&format!(
            "policy {} is valid (version {}, sha256 {}...)\n",
            safe_text(&p.file, 500),
            POLICY_VERSION,
            &p.sha256[..16]
        ));
        if p.rules.is_empty() {
            out("  (no rules: every verification passes this policy)\n");
        }
        for (section, key, value) in &p.rules {
            let off = if *value == RuleValue::Bool(false) {
                "  (false: adds no check)"
            } else {
                ""
            };
            out(&format!(
                "  {section}.{key} = {}{off}\n",
                safe_text(&value.toml_text(), 500)
            ));
        }
    }
}
