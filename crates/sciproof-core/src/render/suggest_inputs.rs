//! What `suggest-inputs` found ([`Suggestions`]): a `suggest --input` line per undeclared file
//! the command read, the files it read outside the project, and what the trace could not see;
//! or the same as one JSON object.

use crate::escape::terminal::safe_text;
use crate::json::{Object, Value};
use crate::ops::Suggestions;
use crate::render::{OutputFormat, Render, Renderer, Sink};
use crate::trace::Method;

impl Render for Suggestions {
    fn renderer(format: OutputFormat) -> Option<Box<dyn Renderer<Self>>> {
        Some(match format {
            OutputFormat::Text => Box::new(SuggestionsText),
            OutputFormat::Json => Box::new(SuggestionsJson),
            _ => return None,
        })
    }
}

/// What the trace sees and does not, after the list.
pub const NOTE: &str = "Note: every process of the command was traced at the system-call level, so reads by any program are seen (not reads through io_uring, files mapped into memory before the trace, the network or environment variables).";

/// The same for the Python audit hook (the reference's note).
pub const HOOK_NOTE: &str = "Note: only reads made by Python code are seen (not C extensions, other programs, network or environment variables).";

/// The reference's lines, then the note.
pub struct SuggestionsText;

impl Renderer<Suggestions> for SuggestionsText {
    fn render(&self, s: &Suggestions, out: &mut Sink) {
        for input in &s.undeclared.inputs {
            out(&format!("suggest --input {}\n", safe_text(input, 1000)));
        }
        for path in &s.undeclared.outside {
            out(&format!(
                "read outside the working directory (cannot be declared): {}\n",
                safe_text(&path.display().to_string(), 1000)
            ));
        }
        if s.undeclared.inputs.is_empty() && s.undeclared.outside.is_empty() {
            out(match s.method {
                Method::Ptrace => "no undeclared files were read by the command\n",
                Method::PythonAuditHook => "no undeclared files were read by Python code\n",
            });
        }
        match s.method {
            Method::Ptrace => out(&format!(
                "{NOTE} Processes and threads traced: {}.\n",
                s.processes
            )),
            Method::PythonAuditHook => out(&format!("{HOOK_NOTE}\n")),
        }
    }
}

/// `{"inputs": [...], "outside": [...], "exit_code": N, "processes": N, "complete": bool,
/// "incomplete": [...], "method", "fell_back"}`, and with `--all` `"files": [{"path", "access":
/// ["read", "written", "created", "removed", "executed", "probed"]}]` for every path touched.
pub struct SuggestionsJson;

impl Renderer<Suggestions> for SuggestionsJson {
    fn render(&self, s: &Suggestions, out: &mut Sink) {
        let strings = |v: Vec<String>| Value::Array(v.into_iter().map(Value::from).collect());
        let object = Object::new()
            .with("inputs", strings(s.undeclared.inputs.clone()))
            .with(
                "outside",
                strings(
                    s.undeclared
                        .outside
                        .iter()
                        .map(|p| p.to_string_lossy().into_owned())
                        .collect(),
                ),
            )
            .with("exit_code", Value::from(s.exit_code))
            .with("processes", Value::from(s.processes as i64))
            .with("complete", Value::from(s.incomplete.is_empty()))
            .with("incomplete", strings(s.incomplete.clone()))
            .with("method", s.method.name())
            .with(
                "fell_back",
                s.fell_back.clone().map_or(Value::Null, Value::from),
            );
        let object = match &s.accesses {
            None => object,
            Some(all) => object.with(
                "files",
                Value::Array(
                    all.iter()
                        .map(|(path, a)| {
                            let what: Vec<Value> = [
                                ("read", a.read),
                                ("written", a.written),
                                ("created", a.created),
                                ("removed", a.removed),
                                ("executed", a.executed),
                                ("probed", a.probed),
                            ]
                            .into_iter()
                            .filter(|(_, on)| *on)
                            .map(|(name, _)| Value::from(name))
                            .collect();
                            Value::Object(
                                Object::new()
                                    .with("path", path.to_string_lossy().as_ref())
                                    .with("access", Value::Array(what)),
                            )
                        })
                        .collect(),
                ),
            ),
        };
        out(&crate::json::to_string_pretty(&Value::Object(object)));
        out("\n");
    }
}
