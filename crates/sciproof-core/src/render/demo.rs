//! The demo's steps ([`DemoStep`]) as `sciproof demo` narrates them.

use crate::demo::{DemoStep, NAME};
use crate::escape::terminal::safe;
use crate::render::{OutputFormat, Render, Renderer, Sink};
use crate::report::{Report, Status};

impl Render for DemoStep {
    fn renderer(format: OutputFormat) -> Option<Box<dyn Renderer<Self>>> {
        Some(match format {
            OutputFormat::Text => Box::new(DemoText),
            _ => return None,
        })
    }
}

/// `STATUS (n passed, n failed, n inconclusive)`.
fn summary(report: &Report) -> String {
    let [(_, pass), (_, fail), (_, inconclusive)] = report.counts();
    format!(
        "{} ({pass} passed, {fail} failed, {inconclusive} inconclusive)",
        report.status().as_str()
    )
}

/// A numbered line per step, with the checks that matter to it.
pub struct DemoText;

impl Renderer<DemoStep> for DemoText {
    fn render(&self, step: &DemoStep, out: &mut Sink) {
        let check = |out: &mut Sink, c: &crate::report::Check| {
            out(&format!(
                "     [{}] {}: {}\n",
                c.status.as_str(),
                safe(&c.subject),
                safe(&c.message)
            ));
        };
        match step {
            DemoStep::Prepared { dir } => out(&format!(
                "1. Wrote a small experiment to {}/: analyze.sh (sh + awk) reads data/ and params.txt and writes results/.\n",
                dir.display()
            )),
            DemoStep::Captured {
                dir,
                inputs,
                outputs,
                exit_code,
            } => out(&format!(
                "2. Captured it: sciproof capture --name demo --input analyze.sh --input params.txt --input data --output results/table.csv --output-numeric results/summary.json -- sh analyze.sh\n   -> {}/{NAME}.sciproof.json ({inputs} inputs, {outputs} outputs, command exit code {exit_code})\n",
                dir.display()
            )),
            DemoStep::Untouched(report) => out(&format!(
                "3. Verified the untouched evidence: {}\n",
                summary(report)
            )),
            DemoStep::Tampered(report) => {
                out(&format!(
                    "4. Appended a line to results/table.csv and verified again: {}\n",
                    summary(report)
                ));
                for c in report.checks.iter().filter(|c| c.status == Status::Fail) {
                    check(out, c);
                }
            }
            DemoStep::Restored(report) => out(&format!(
                "5. Restored the original file and verified once more: {}\n",
                summary(report)
            )),
            DemoStep::Rerun(report) => {
                out(&format!(
                    "6. Re-ran the command in a clean environment and compared its outputs: {}\n",
                    summary(report)
                ));
                for c in report
                    .checks
                    .iter()
                    .filter(|c| c.subject.starts_with("rerun output") || c.subject == "exit code")
                {
                    check(out, c);
                }
            }
            DemoStep::Next { dir } => out(&format!(
                "\nNext: cd {} && sciproof inspect {NAME}.sciproof.json, then sciproof verify {NAME}.sciproof.json (add --json for the machine-readable report).\n",
                dir.display()
            )),
        }
    }
}
