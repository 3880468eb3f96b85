//! JUnit XML (`verify --format junit`): one testcase per check, FAIL as `<failure>`,
//! INCONCLUSIVE as `<skipped>`, for CI test viewers. Always well-formed XML: text is escaped
//! and characters XML 1.0 cannot carry are replaced by `?`.

use crate::escape::xml::{attr, body};
use crate::render::{Renderer, Sink};
use crate::report::{Report, Status};

/// The reference's layout: one suite `sciproof:<name>` with the result and basis as
/// properties, a testcase per check, and the basis, warnings and what was not checked as
/// `system-out`.
pub struct JunitRenderer;

impl Renderer<Report> for JunitRenderer {
    fn render(&self, model: &Report, out: &mut Sink) {
        out(&JunitRenderer::text(model));
    }
}

impl JunitRenderer {
    fn text(report: &Report) -> String {
        let [(_, _), (_, failures), (_, skipped)] = report.counts();
        let mut x = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n");
        x.push_str(&format!(
            "  <testsuite name=\"sciproof:{}\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" skipped=\"{skipped}\" time=\"0\">\n",
            attr(&report.name, 100),
            report.checks.len()
        ));
        x.push_str("    <properties>\n");
        x.push_str(&format!(
            "      <property name=\"result\" value=\"{}\" />\n",
            report.status().as_str()
        ));
        x.push_str(&format!(
            "      <property name=\"reason\" value=\"{}\" />\n",
            attr(&report.reason(), 2000)
        ));
        x.push_str("    </properties>\n");
        for c in &report.checks {
            let open = format!(
                "    <testcase classname=\"sciproof\" name=\"{}\" time=\"0\"",
                attr(&c.subject, 300)
            );
            let statistics: Vec<String> = super::statistics_lines(c)
                .iter()
                .map(|l| body(l, 2000))
                .collect();
            match c.status {
                Status::Pass if statistics.is_empty() => x.push_str(&format!("{open} />\n")),
                Status::Pass => x.push_str(&format!(
                    "{open}>\n      <system-out>{}</system-out>\n    </testcase>\n",
                    statistics.join("\n")
                )),
                Status::Fail => x.push_str(&format!(
                    "{open}>\n      <failure message=\"{}\" type=\"FAIL\">{}{}</failure>\n    </testcase>\n",
                    attr(&c.message, 500),
                    body(&c.message, 2000),
                    statistics.iter().map(|l| format!("\n{l}")).collect::<String>()
                )),
                Status::Inconclusive => x.push_str(&format!(
                    "{open}>\n      <skipped message=\"INCONCLUSIVE: {}\" />\n    </testcase>\n",
                    attr(&c.message, 500)
                )),
            }
        }
        let mut out = vec![
            format!("RESULT: {}", report.status().as_str()),
            format!("basis: {}", report.reason()),
        ];
        out.extend(report.warnings.iter().map(|w| format!("warning: {w}")));
        out.extend(
            report
                .not_checked()
                .iter()
                .map(|i| format!("not checked: {i}")),
        );
        let system_out: Vec<String> = out.iter().map(|l| body(l, 2000)).collect();
        x.push_str(&format!(
            "    <system-out>{}</system-out>\n",
            system_out.join("\n")
        ));
        x.push_str("  </testsuite>\n</testsuites>\n");
        x
    }
}
