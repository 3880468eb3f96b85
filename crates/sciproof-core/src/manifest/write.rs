//! Writing a manifest: the model as the reference's JSON (field order, float reprs, ASCII
//! escapes), validated before it is written, and written atomically.

use super::model::*;
use super::read::validate;
use crate::error::{Error, Result};
use crate::json::{self, Object, Value};
use crate::tree::FileEntry;
use std::io::Write;
use std::path::Path;

/// The `files` of a directory: the list itself, or where it is stored (an object, which the
/// reference refuses as invalid instead of misreading: it expects a list).
fn files_json(files: &[FileEntry], list: Option<&FileList>) -> Value {
    if let Some(list) = list {
        return Object::new()
            .with("list", &list.path)
            .with("count", list.count)
            .into();
    }
    Value::Array(
        files
            .iter()
            .map(|f| {
                Object::new()
                    .with("path", &f.path)
                    .with("sha256", &f.sha256)
                    .with("size", f.size)
                    .into()
            })
            .collect(),
    )
}

fn stream_json(s: &Stream) -> Value {
    Object::new()
        .with("sha256", &s.sha256)
        .with("size", s.size)
        .with("truncated", s.truncated)
        .with("text", &s.text)
        .into()
}

fn input_json(i: &Input) -> Value {
    let mut o = Object::new().with("path", &i.path);
    if let Artifact::Directory { files, list } = &i.artifact {
        o.insert("kind", "directory");
        o.insert("sha256", &i.sha256);
        o.insert("size", i.size);
        o.insert("files", files_json(files, list.as_ref()));
    } else {
        o.insert("sha256", &i.sha256);
        o.insert("size", i.size);
    }
    insert_remote(&mut o, i.remote.as_ref(), &i.artifact);
    o.into()
}

fn pin_json(pin: &ObjectPin) -> Value {
    Object::new()
        .with("etag", pin.etag.clone())
        .with("version", pin.version.clone())
        .into()
}

/// The pins of an artifact in object storage: `object` for an object, `objects` for a prefix.
fn insert_remote(o: &mut Object, remote: Option<&Remote>, artifact: &Artifact) {
    let Some(remote) = remote else { return };
    match artifact {
        Artifact::Directory { .. } => {
            o.insert(
                "objects",
                Value::Array(remote.pins.iter().map(pin_json).collect()),
            );
        }
        Artifact::File => {
            if let Some(pin) = remote.pins.first() {
                o.insert("object", pin_json(pin));
            }
        }
    }
}

fn output_json(out: &Output) -> Value {
    let mut o = Object::new()
        .with("path", &out.path)
        .with("present", out.present);
    if out.artifact.is_directory() {
        o.insert("kind", "directory");
    }
    o.insert("sha256", out.sha256.clone());
    o.insert("size", out.size);
    if let Artifact::Directory { files, list } = &out.artifact {
        o.insert("files", files_json(files, list.as_ref()));
    }
    insert_remote(&mut o, out.remote.as_ref(), &out.artifact);
    let compare = match &out.compare {
        Compare::Exact => Object::new().with("mode", "exact"),
        Compare::Numeric {
            rtol,
            atol,
            snapshot,
        } => Object::new()
            .with("mode", "numeric")
            .with("rtol", *rtol)
            .with("atol", *atol)
            .with(
                "snapshot",
                Object::new()
                    .with("path", &snapshot.path)
                    .with("sha256", &snapshot.sha256),
            ),
    };
    o.insert("compare", compare);
    o.into()
}

/// The manifest as a JSON value, with the reference's field order.
pub fn to_json(m: &Manifest) -> Value {
    let env = &m.environment;
    let mut environment = Object::new();
    if let Some(source) = &env.source {
        environment.insert("source", source);
    }
    environment.insert("python", env.python.clone());
    environment.insert("platform", env.platform.clone());
    environment.insert("env_vars", env.env_vars.clone());
    if let Some(hw) = &env.hardware {
        let gpus: Vec<Value> = hw
            .gpus
            .iter()
            .map(|g| {
                Object::new()
                    .with("name", &g.name)
                    .with("driver", &g.driver)
                    .with("memory_mib", g.memory_mib)
                    .into()
            })
            .collect();
        environment.insert(
            "hardware",
            Object::new()
                .with("cpu_count", hw.cpu_count)
                .with("processor", &hw.processor)
                .with("gpu_probe", &hw.gpu_probe)
                .with("gpus", Value::Array(gpus)),
        );
    }
    let git = m.git.as_ref().map(|g| {
        Value::from(
            Object::new()
                .with("commit", &g.commit)
                .with("branch", g.branch.clone())
                .with("dirty", g.dirty),
        )
    });
    let mut o = Object::new()
        .with("schema", SCHEMA)
        .with("schema_version", &m.schema_version)
        .with("name", &m.name)
        .with("created_at", &m.created_at)
        .with("tool", m.tool.clone())
        .with(
            "command",
            Object::new()
                .with(
                    "argv",
                    Value::Array(m.command.argv.iter().map(Value::from).collect()),
                )
                .with("cwd", "."),
        )
        .with("environment", environment)
        .with(
            "dependencies",
            Value::Array(
                m.dependencies
                    .iter()
                    .map(|d| {
                        Object::new()
                            .with("name", &d.name)
                            .with("version", &d.version)
                            .into()
                    })
                    .collect(),
            ),
        )
        .with("git", git.unwrap_or(Value::Null))
        .with(
            "inputs",
            Value::Array(m.inputs.iter().map(input_json).collect()),
        )
        .with(
            "execution",
            Object::new()
                .with("exit_code", m.execution.exit_code)
                .with("duration_seconds", m.execution.duration_seconds)
                .with("stdout", stream_json(&m.execution.stdout))
                .with("stderr", stream_json(&m.execution.stderr)),
        )
        .with(
            "outputs",
            Value::Array(m.outputs.iter().map(output_json).collect()),
        );
    if !m.claims.is_empty() {
        o.insert(
            "claims",
            Value::Array(m.claims.iter().map(|c| c.to_json()).collect()),
        );
    }
    if let Some(note) = &m.note {
        o.insert("note", note);
    }
    if let Some(t) = &m.trace {
        let strings =
            |v: &[String]| Value::Array(v.iter().map(|s| Value::from(s.as_str())).collect());
        o.insert(
            "trace",
            Object::new()
                .with("method", t.method.as_str())
                .with("complete", Value::Bool(t.complete))
                .with("processes", Value::from(t.processes as i64))
                .with("undeclared_reads", strings(&t.undeclared_reads))
                .with("unread_inputs", strings(&t.unread_inputs)),
        );
    }
    o.into()
}

/// The exact bytes of the manifest file: `json.dumps(manifest, indent=2) + "\n"`, LF only.
pub fn to_text(m: &Manifest) -> String {
    let mut text = json::to_string_pretty(&to_json(m));
    text.push('\n');
    text
}

/// Writes `text` to `path` atomically and durably (see [`crate::commit::atomic`]).
pub fn write_atomic(path: &Path, text: &[u8]) -> Result<()> {
    crate::commit::atomic::write_file(path, text)
}

/// [`write_atomic`] with the content produced by `fill` into a buffered writer, so a large
/// document is streamed to disk instead of being held whole in memory first.
pub fn write_atomic_with(
    path: &Path,
    fill: &mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>,
) -> Result<()> {
    crate::commit::atomic::write_file_with(path, fill)
}

/// Validates `m` as a reader would (so an invalid manifest is never written) and writes it
/// atomically to `path`.
pub fn write_manifest(path: &Path, m: &Manifest) -> Result<()> {
    let value = to_json(m);
    validate(&value).map_err(|e| {
        Error::Capture(format!(
            "internal error: generated an invalid manifest: {e}"
        ))
    })?;
    let mut text = json::to_string_pretty(&value);
    text.push('\n');
    write_atomic(path, text.as_bytes())
}
