//! `sciproof export`: the manifest for other tools — an unsigned in-toto Statement v1 or a pair of
//! OpenLineage run events — as the reference writes them. Nothing is executed. The evidence is
//! checked (integrity only) first: when it does not verify, the export still happens but says so
//! (the in-toto predicate carries the verdict, and the CLI warns).

use crate::claims::Claim;
use crate::error::{Error, Result};
use crate::json::{self, Object, Value};
use crate::manifest::{Artifact, Compare, Loaded};
use crate::store::object_url::{ObjectUrl, is_object_url};

/// The in-toto Statement type.
pub const STATEMENT_TYPE: &str = "https://in-toto.io/Statement/v1";
/// The reference's predicate type (kept so both tools' statements are alike).
pub const PREDICATE_TYPE: &str =
    "https://hayagrivai-labs.github.io/sciproof/docs/export/#experiment-v1";
const OPENLINEAGE_SCHEMA_URL: &str =
    "https://openlineage.io/spec/1-0-0/OpenLineage.json#/definitions/RunEvent";
const OPENLINEAGE_PRODUCER: &str = "https://github.com/hayagrivai-labs/sciproof";

fn subjects(items: Vec<(&str, &Artifact, Option<&str>, bool)>, only_present: bool) -> Value {
    let mut out = Vec::new();
    for (path, artifact, sha, present) in items {
        if only_present && !present {
            continue;
        }
        match artifact {
            Artifact::Directory { files, .. } => {
                for f in files {
                    out.push(
                        Object::new()
                            .with("name", format!("{path}/{}", f.path))
                            .with("digest", Object::new().with("sha256", &f.sha256))
                            .into(),
                    );
                }
            }
            Artifact::File => {
                out.push(
                    Object::new()
                        .with("name", path)
                        .with(
                            "digest",
                            Object::new().with("sha256", sha.map(str::to_string)),
                        )
                        .into(),
                );
            }
        }
    }
    Value::Array(out)
}

/// The in-toto Statement v1 (unsigned) with the verdict of an integrity check (`verdict`).
pub fn in_toto(loaded: &Loaded, verdict: &str) -> Result<String> {
    let (m, digest) = (&loaded.manifest, loaded.sha256());
    let env = &m.environment;
    let outputs: Vec<Value> = m
        .outputs
        .iter()
        .map(|o| {
            let compare = match &o.compare {
                Compare::Exact => Object::new().with("mode", "exact"),
                Compare::Numeric { rtol, atol, .. } => Object::new()
                    .with("mode", "numeric")
                    .with("rtol", *rtol)
                    .with("atol", *atol),
            };
            Object::new()
                .with("name", &o.path)
                .with("present", o.present)
                .with("compare", compare)
                .into()
        })
        .collect();
    let manifest_json = crate::manifest::to_json(m);
    let manifest_obj = manifest_json.as_object().cloned().unwrap_or_default();
    let environment_obj = manifest_obj
        .get("environment")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let predicate = Object::new()
        .with("experiment", &m.name)
        .with("capturedAt", &m.created_at)
        .with("producer", Object::new().with("name", "sciproof").with("version", env!("CARGO_PKG_VERSION")).with("manifestSchemaVersion", &m.schema_version))
        .with("manifestDigest", Object::new().with("sha256", digest))
        .with("command", Value::Array(m.command.argv.iter().map(Value::from).collect()))
        .with("execution", Object::new().with("exitCode", m.execution.exit_code).with("durationSeconds", m.execution.duration_seconds))
        .with("materials", subjects(m.inputs.iter().map(|i| (i.path.as_str(), &i.artifact, Some(i.sha256.as_str()), true)).collect(), false))
        .with(
            "environment",
            Object::new()
                .with("python", env.python.clone())
                .with("platform", env.platform.clone())
                .with("variables", env.env_vars.clone())
                .with("packages", manifest_obj.get("dependencies").cloned().unwrap_or(Value::Array(vec![])))
                .with("recordedBy", env.source.clone())
                .with("hardware", environment_obj.get("hardware").cloned().unwrap_or(Value::Null)),
        )
        .with("git", manifest_obj.get("git").cloned().unwrap_or(Value::Null))
        .with("note", m.note.clone())
        .with("outputs", Value::Array(outputs))
        .with("claims", Value::Array(m.claims.iter().map(|c: &Claim| Value::from(c.text())).collect()))
        .with("integrity", Object::new().with("result", verdict).with("checkedBy", format!("sciproof {} (integrity only, nothing executed)", env!("CARGO_PKG_VERSION"))))
        .with(
            "notes",
            Value::Array(vec![
                Value::from("unsigned: this Statement is not an attestation until it is signed by the consumer"),
                Value::from("hashes show integrity relative to the recorded digests, not that a result is correct"),
            ]),
        );
    let statement = Object::new()
        .with("_type", STATEMENT_TYPE)
        .with(
            "subject",
            subjects(
                m.outputs
                    .iter()
                    .map(|o| (o.path.as_str(), &o.artifact, o.sha256.as_deref(), o.present))
                    .collect(),
                true,
            ),
        )
        .with("predicateType", PREDICATE_TYPE)
        .with("predicate", predicate);
    Ok(json::to_string_pretty(&statement.into()) + "\n")
}

/// START and COMPLETE (or FAIL) OpenLineage run events, with the reference's deterministic run
/// id (UUIDv5 of the manifest digest).
pub fn openlineage(loaded: &Loaded) -> Result<String> {
    let (m, digest) = (&loaded.manifest, loaded.sha256());
    let run_id = uuid::Uuid::new_v5(
        &uuid::Uuid::NAMESPACE_URL,
        format!("sciproof:manifest:{digest}").as_bytes(),
    )
    .to_string();
    let ended = crate::timestamp::parse(&m.created_at)
        .map_err(|_| Error::Manifest("created_at cannot be read".into()))?;
    let started = ended - m.execution.duration_seconds;
    let offset = m
        .created_at
        .get(19..)
        .filter(|s| s.starts_with(['+', '-']))
        .unwrap_or("+00:00")
        .to_string();
    let time = |t: f64| -> String { crate::timestamp::format_with_offset(t, &offset) };
    let datasets = |items: Vec<(&str, bool)>| {
        Value::Array(
            items
                .into_iter()
                .filter(|(_, p)| *p)
                .map(|(n, _)| {
                    // OpenLineage names an object by its bucket's URL and its key.
                    let (namespace, name) = match ObjectUrl::parse(n) {
                        Ok(url) if is_object_url(n) => (
                            format!("{}{}", url.scheme.prefix(), url.bucket),
                            url.key.clone(),
                        ),
                        _ => ("sciproof-files".to_string(), n.to_string()),
                    };
                    Object::new()
                        .with("namespace", namespace)
                        .with("name", name)
                        .into()
                })
                .collect(),
        )
    };
    let inputs = datasets(m.inputs.iter().map(|i| (i.path.as_str(), true)).collect());
    let outputs = datasets(
        m.outputs
            .iter()
            .map(|o| (o.path.as_str(), o.present))
            .collect(),
    );
    let event = |kind: &str, when: f64| -> Value {
        Object::new()
            .with("eventType", kind)
            .with("eventTime", time(when))
            .with("run", Object::new().with("runId", run_id.as_str()))
            .with(
                "job",
                Object::new()
                    .with("namespace", "sciproof")
                    .with("name", &m.name),
            )
            .with("inputs", inputs.clone())
            .with("outputs", outputs.clone())
            .with("producer", OPENLINEAGE_PRODUCER)
            .with("schemaURL", OPENLINEAGE_SCHEMA_URL)
            .into()
    };
    let end_kind = if m.execution.exit_code == 0 {
        "COMPLETE"
    } else {
        "FAIL"
    };
    Ok(json::to_string_pretty(&Value::Array(vec![
        event("START", started),
        event(end_kind, ended),
    ])) + "\n")
}

/// At most this many `--value`s per LaTeX export.
pub const MAX_LATEX_VALUES: usize = 200;

fn latex_number(x: f64) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 {
            "$\\infty$".into()
        } else {
            "$-\\infty$".into()
        };
    }
    if x != 0.0 && (x.abs() < 1e-4 || x.abs() >= 1e6) {
        let sci = format!("{x:.9e}");
        let (mantissa, exponent) = sci.split_once('e').unwrap_or((&sci, "0"));
        let mantissa = if mantissa.contains('.') {
            mantissa.trim_end_matches('0').trim_end_matches('.')
        } else {
            mantissa
        };
        return format!(
            "${mantissa}\\times 10^{{{}}}$",
            exponent.parse::<i32>().unwrap_or(0)
        );
    }
    crate::pyfmt::format_g(x, 10)
}

/// A found value as LaTeX text, with the reference's number formatting and escaping.
pub fn latex_value(v: &crate::numeric::value::Scalar) -> String {
    use crate::numeric::value::Scalar;
    match v {
        Scalar::Null => "null".into(),
        Scalar::Bool(b) => b.to_string(),
        Scalar::Int(i) => i.to_string(),
        Scalar::Float(f) => latex_number(*f),
        Scalar::Str(s) => crate::escape::latex::text_as_given(s),
        other => crate::escape::latex::text_as_given(&other.repr()),
    }
}

/// The letter-only control sequences a plain `article` document already defines, as
/// pdflatex reports them (`tests/support/latex_defined_names.py` makes the list; a test checks
/// it against the installed TeX).
const LATEX_DEFINED: &str = include_str!("latex_defined_names.txt");

/// Whether LaTeX already defines `\name` (then `\newcommand` would fail).
fn latex_defines(name: &str) -> bool {
    LATEX_DEFINED.lines().any(|defined| defined == name)
}

/// `\newcommand{\NAME}{value}` lines for `(name, output, location)` triples, read from the
/// recorded outputs. Refused unless the integrity verification passed (`verdict`), so a paper
/// never quotes numbers from files that no longer match their evidence.
pub fn latex(
    loaded: &Loaded,
    values: &[(String, String, String)],
    verdict: crate::report::Status,
    reason: &str,
) -> Result<String> {
    let refuse = |m: String| Err(Error::Export(m));
    if values.is_empty() {
        return refuse("give at least one --value NAME OUTPUT LOCATION".into());
    }
    if values.len() > MAX_LATEX_VALUES {
        return refuse(format!("at most {MAX_LATEX_VALUES} values per export"));
    }
    let m = &loaded.manifest;
    let mut names = std::collections::HashSet::new();
    for (name, output, location) in values {
        if name.is_empty() || name.len() > 40 || !name.bytes().all(|b| b.is_ascii_alphabetic()) {
            return refuse(format!(
                "--value {}: a LaTeX macro name is 1 to 40 letters (no digits, underscores or punctuation)",
                crate::pyfmt::str_repr(name)
            ));
        }
        if latex_defines(name) {
            return refuse(format!(
                "--value {name}: \\{name} is already defined by LaTeX (the kernel or the article class), so \\newcommand would stop the document; choose another name, for example {name}Value"
            ));
        }
        if !names.insert(name.clone()) {
            return refuse(format!("a macro name is used more than once: {name}"));
        }
        if !m
            .outputs
            .iter()
            .any(|o| &o.path == output && o.present && !o.artifact.is_directory())
        {
            return refuse(format!(
                "{} is not a declared output file of this manifest",
                crate::pyfmt::str_repr(output)
            ));
        }
        if !crate::claims::location_matches_file(location, output) {
            return refuse(format!(
                "{} is not a location in {}; use $.key[0].name for JSON, r2c1 for CSV/TSV or data[0, 1] for .npy (the form shown in difference reports)",
                crate::pyfmt::str_repr(location),
                crate::pyfmt::str_repr(output)
            ));
        }
    }
    let file = &loaded.file_name;
    if verdict != crate::report::Status::Pass {
        return refuse(format!(
            "not exporting values: the verification of {file} is {} ({reason}). Run 'sciproof verify' to see why.",
            verdict.as_str()
        ));
    }
    let base = &loaded.base;
    let mut documents = crate::numeric::Documents::default();
    let mut lines = vec![
        format!(
            "% SciProof {}: values of {file} (integrity verification: PASS)",
            env!("CARGO_PKG_VERSION")
        ),
        "% Generated by 'sciproof export --format latex'; do not edit by hand.".to_string(),
    ];
    for (name, output, location) in values {
        let found = documents
            .find(&base.join(output), output, location)
            .map_err(|e| Error::Export(e.0))?
            .ok_or_else(|| Error::Export(format!("{location} is not present in {output}")))?;
        lines.push(format!(
            "\\newcommand{{\\{name}}}{{{}}}",
            latex_value(&found)
        ));
    }
    Ok(lines.join("\n") + "\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numeric::value::Scalar;

    #[test]
    fn latex_formatting_matches_the_reference() {
        assert_eq!(latex_value(&Scalar::Float(1e-5)), "$1\\times 10^{-5}$");
        assert_eq!(
            latex_value(&Scalar::Float(123456789.0)),
            "$1.23456789\\times 10^{8}$"
        );
        assert_eq!(latex_value(&Scalar::Float(0.94)), "0.94");
        assert_eq!(latex_value(&Scalar::Float(1.0)), "1");
        assert_eq!(latex_value(&Scalar::Float(0.30000000000000004)), "0.3");
        assert_eq!(latex_value(&Scalar::Float(1.0 / 3.0)), "0.3333333333");
        assert_eq!(latex_value(&Scalar::Float(f64::INFINITY)), "$\\infty$");
        assert_eq!(
            latex_value(&Scalar::Str("50% of $x_1 & {y}~^\\".into())),
            "50\\% of \\$x\\_1 \\& \\{y\\}\\textasciitilde{}\\textasciicircum{}\\textbackslash{}"
        );
        assert_eq!(latex_value(&Scalar::Int(100.into())), "100");
    }
}
