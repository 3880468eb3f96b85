//! The JSON report (`sciproof.report` 1.0): `json.dumps(report, indent=2)` of the reference.

use crate::json::{self as j, Object, Value};
use crate::render::{Renderer, Sink};
use crate::report::{REPORT_SCHEMA, REPORT_SCHEMA_VERSION, Report};

/// The report as a JSON value, top-level keys in the schema's order.
pub fn report_to_json(report: &Report) -> Value {
    let mut counts = Object::new();
    for (status, n) in report.counts() {
        counts.insert(status.as_str(), n);
    }
    let checks: Vec<Value> = report
        .checks
        .iter()
        .map(|c| {
            Object::new()
                .with("status", c.status.as_str())
                .with("subject", &c.subject)
                .with("message", &c.message)
                .with(
                    "evidence",
                    c.evidence
                        .as_ref()
                        .map(|e| e.to_json())
                        .unwrap_or(Value::Null),
                )
                .into()
        })
        .collect();
    let strings = |items: &[String]| Value::Array(items.iter().map(Value::from).collect());
    Object::new()
        .with("schema", REPORT_SCHEMA)
        .with("schema_version", REPORT_SCHEMA_VERSION)
        .with("name", &report.name)
        .with("result", report.status().as_str())
        .with("reason", report.reason())
        .with("counts", counts)
        .with("rerun_requested", report.rerun_requested)
        .with("rerun_executed", report.rerun_executed)
        .with("clean_env", report.clean_env)
        .with("env_passed", strings(&report.env_passed))
        .with("signature", report.signature.clone().unwrap_or(Value::Null))
        .with("policy", report.policy.clone().unwrap_or(Value::Null))
        .with("checks", Value::Array(checks))
        .with("not_checked", strings(&report.not_checked()))
        .with("warnings", strings(&report.warnings))
        .with("notes", strings(&report.notes))
        .with("rerun_outputs_dir", report.rerun_outputs_dir.clone())
        .into()
}

/// Renders [`report_to_json`] with two-space indentation and ASCII escapes (strict JSON: no
/// NaN or infinity ever appears, evidence holds them as strings).
pub struct JsonRenderer;

impl Renderer<Report> for JsonRenderer {
    fn render(&self, model: &Report, out: &mut Sink) {
        out(&JsonRenderer::text(model));
    }
}

impl JsonRenderer {
    fn text(report: &Report) -> String {
        let mut text = j::to_string_pretty(&report_to_json(report));
        text.push('\n');
        text
    }
}
