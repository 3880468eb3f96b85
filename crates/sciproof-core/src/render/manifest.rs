//! A readable summary of a manifest (`sciproof inspect`). Never executes anything; every
//! string from the manifest is escaped for the terminal.

use crate::escape::terminal::safe_text;
use crate::json::{self, Value};
use crate::manifest::{Artifact, Compare, Manifest, Stream, source};
use crate::pyfmt::float_repr;
use crate::render::{OutputFormat, Render, Renderer, Sink};

impl Render for Manifest {
    fn renderer(format: OutputFormat) -> Option<Box<dyn Renderer<Self>>> {
        Some(match format {
            OutputFormat::Text => Box::new(ManifestText),
            _ => return None,
        })
    }
}

/// What the manifest records, section by section, with previews of stdout and stderr.
pub struct ManifestText;

impl Renderer<Manifest> for ManifestText {
    fn render(&self, m: &Manifest, out: &mut Sink) {
        out(&describe(m));
        out("\n");
    }
}

const PREVIEW_LINES: usize = 8;

fn kind(artifact: &Artifact) -> String {
    match artifact {
        Artifact::Directory { files, .. } => format!("directory, {} files, tree ", files.len()),
        Artifact::File => String::new(),
    }
}

fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => json::to_string_compact(other),
    }
}

fn stream_preview(stream: &Stream) -> Vec<String> {
    if stream.text.trim().is_empty() {
        return vec!["      (empty)".into()];
    }
    let lines: Vec<&str> = stream.text.lines().collect();
    let mut shown: Vec<String> = lines
        .iter()
        .take(PREVIEW_LINES)
        .map(|l| format!("      | {}", safe_text(l, 200)))
        .collect();
    if lines.len() > PREVIEW_LINES || stream.truncated {
        shown.push("      | ...".into());
    }
    shown
}

/// The summary text (no trailing newline).
fn describe(m: &Manifest) -> String {
    let env = &m.environment;
    let argv: Vec<String> = m.command.argv.iter().map(|a| safe_text(a, 200)).collect();
    let python = if env.source.as_deref() == Some(source::NOT_PYTHON) {
        "not recorded (the command is not a Python interpreter)".to_string()
    } else {
        format!(
            "{} ({})",
            safe_text(env.python_version(), 500),
            safe_text(
                &env.python
                    .get("implementation")
                    .map(value_text)
                    .unwrap_or_else(|| "?".into()),
                500
            )
        )
    };
    let mut lines = vec![
        format!("SciProof manifest: {}", safe_text(&m.name, 500)),
        format!("  format:      sciproof.manifest {}", m.schema_version),
        format!("  captured:    {}", safe_text(&m.created_at, 500)),
        String::new(),
        "Command (recorded, NOT executed by 'inspect'):".into(),
        format!("  {}", argv.join(" ")),
        "  working directory: the directory containing the manifest".into(),
        String::new(),
        "Environment:".into(),
        format!("  python:      {python}"),
        format!(
            "  platform:    {}",
            safe_text(
                &env.platform
                    .get("platform")
                    .map(value_text)
                    .unwrap_or_else(|| "?".into()),
                500
            )
        ),
        format!(
            "  recorded by: {}",
            safe_text(env.source.as_deref().unwrap_or("unknown"), 500)
        ),
        format!("  packages:    {} recorded", m.dependencies.len()),
    ];
    if !env.env_vars.is_empty() {
        let mut vars: Vec<(&str, &Value)> = env.env_vars.iter().collect();
        vars.sort_by(|a, b| a.0.cmp(b.0));
        let shown: Vec<String> = vars
            .iter()
            .map(|(k, v)| format!("{}={}", safe_text(k, 500), safe_text(&value_text(v), 80)))
            .collect();
        lines.push(format!("  variables:   {}", shown.join(", ")));
    }
    match &m.git {
        Some(g) => {
            let state = if g.dirty {
                "UNCOMMITTED CHANGES"
            } else {
                "clean"
            };
            let commit: String = safe_text(&g.commit, 500).chars().take(12).collect();
            lines.push(format!("  git:         {commit} ({state})"));
        }
        None => lines.push("  git:         not recorded".into()),
    }
    if let Some(hw) = &env.hardware {
        let gpus = if hw.gpus.is_empty() {
            if hw.gpu_probe == "nvidia-smi" {
                "none found".to_string()
            } else {
                "not probed (no nvidia-smi)".to_string()
            }
        } else {
            hw.gpus
                .iter()
                .map(|g| safe_text(&g.name, 60))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let cpus = hw
            .cpu_count
            .map_or("unknown".to_string(), |c| c.to_string());
        lines.push(format!(
            "  hardware:    {cpus} CPUs, {}; GPUs: {gpus}",
            safe_text(&hw.processor, 60)
        ));
    }
    if let Some(note) = &m.note {
        lines.push(String::new());
        lines.push("Note:".into());
        lines.extend(
            note.lines()
                .take(10)
                .map(|l| format!("  {}", safe_text(l, 300))),
        );
    }
    lines.push(String::new());
    lines.push(format!("Inputs ({}):", m.inputs.len()));
    for i in &m.inputs {
        lines.push(format!(
            "  {}  {}sha256:{}...  {} bytes",
            safe_text(&i.path, 500),
            kind(&i.artifact),
            &i.sha256[..16],
            i.size
        ));
    }
    if m.inputs.is_empty() {
        lines.push("  (none)".into());
    }
    let ex = &m.execution;
    lines.push(String::new());
    lines.push("Execution:".into());
    lines.push(format!("  exit code:   {}", ex.exit_code));
    lines.push(format!(
        "  duration:    {} s",
        float_repr(ex.duration_seconds)
    ));
    lines.push(format!("  stdout:      {} bytes", ex.stdout.size));
    lines.extend(stream_preview(&ex.stdout));
    lines.push(format!("  stderr:      {} bytes", ex.stderr.size));
    lines.extend(stream_preview(&ex.stderr));
    lines.push(String::new());
    lines.push(format!("Outputs ({}):", m.outputs.len()));
    for o in &m.outputs {
        let how = match &o.compare {
            Compare::Numeric { rtol, atol, .. } => format!(
                "numeric (rtol={}, atol={})",
                float_repr(*rtol),
                float_repr(*atol)
            ),
            Compare::Exact => "exact hash".into(),
        };
        match &o.sha256 {
            Some(sha) if o.present => lines.push(format!(
                "  {}  {}sha256:{}...  {} bytes  compare: {how}",
                safe_text(&o.path, 500),
                kind(&o.artifact),
                &sha[..16],
                o.size
            )),
            _ => lines.push(format!(
                "  {}  (absent when captured)  compare: {how}",
                safe_text(&o.path, 500)
            )),
        }
    }
    if m.outputs.is_empty() {
        lines.push("  (none)".into());
    }
    if !m.claims.is_empty() {
        lines.push(String::new());
        lines.push(format!("Claims ({}), checked by verify:", m.claims.len()));
        lines.extend(
            m.claims
                .iter()
                .map(|c| format!("  {}", safe_text(&c.text(), 300))),
        );
    }
    lines.push(String::new());
    lines.push(
        "Next: 'sciproof verify <manifest>' checks that the files still match this evidence."
            .into(),
    );
    lines.push("      Add --rerun only if you trust the command shown above.".into());
    lines.join("\n")
}
