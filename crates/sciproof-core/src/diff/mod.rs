//! `sciproof diff OLD NEW`: what changed between two recorded runs, executing nothing.
//!
//! The engine compares two manifests section by section (command, note, environment, git,
//! inputs, outputs, claims, execution) and returns a [`Diff`] that the renderers in
//! [`crate::render::diff`] print as text, JSON (`sciproof.diff` 1.0) or Markdown. Numeric outputs whose
//! content changed are compared snapshot to snapshot with the OLD tolerance. Unlike the
//! reference, stdout/stderr differences are shown but do not make two runs "different" on their
//! own, and environment variable values are shown only on request (verify never shows them).

use crate::escape::terminal::safe_text;
use crate::json::{Object, Value};
use crate::manifest::{Artifact, Compare, Input, Manifest, Output};
use crate::paths::resolve_inside;
use crate::probe::python::normalize_package_name;
use crate::pyfmt::{float_repr, str_repr};
use crate::tree::TreeDiff;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The sections, in order.
pub const SECTIONS: [&str; 8] = [
    "command",
    "note",
    "environment",
    "git",
    "inputs",
    "outputs",
    "claims",
    "execution",
];

/// The note every diff carries.
pub const NOTE_CAUSE: &str = "a difference in the command, an input or the environment is a possible explanation of a changed output, not proof of the cause; nothing was executed";

/// What kind of change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeKind {
    /// Only in the later manifest.
    Added,
    /// Only in the earlier manifest.
    Removed,
    /// In both, different.
    Changed,
}

impl ChangeKind {
    /// `added`, `removed`, `changed`.
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeKind::Added => "added",
            ChangeKind::Removed => "removed",
            ChangeKind::Changed => "changed",
        }
    }
    /// `+`, `-`, `~`.
    pub fn symbol(self) -> &'static str {
        match self {
            ChangeKind::Added => "+",
            ChangeKind::Removed => "-",
            ChangeKind::Changed => "~",
        }
    }
}

/// One difference.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// The section (command, environment, inputs, ...).
    pub section: &'static str,
    /// Added, removed or changed.
    pub kind: ChangeKind,
    /// What changed.
    pub subject: String,
    /// How, in words.
    pub message: String,
    /// The values behind it, as JSON.
    pub evidence: Option<Value>,
    /// Shown but not counted (stdout/stderr, which are informational).
    pub informational: bool,
}

/// The comparison of two manifests.
#[derive(Debug, Clone, PartialEq)]
pub struct Diff {
    /// The earlier experiment's name.
    pub old_name: String,
    /// The earlier manifest's file.
    pub old_file: String,
    /// The later experiment's name.
    pub new_name: String,
    /// The later manifest's file.
    pub new_file: String,
    /// Every change, by section.
    pub changes: Vec<Change>,
    /// What to keep in mind reading them.
    pub notes: Vec<String>,
}

impl Diff {
    /// Counted differences per section, in section order.
    pub fn counts(&self) -> Vec<(&'static str, usize)> {
        SECTIONS
            .iter()
            .map(|s| {
                (
                    *s,
                    self.changes
                        .iter()
                        .filter(|c| c.section == *s && !c.informational)
                        .count(),
                )
            })
            .collect()
    }

    /// Whether nothing (beyond informational differences) differs.
    pub fn identical(&self) -> bool {
        self.changes.iter().all(|c| c.informational)
    }

    /// One sentence: what differs, by section.
    pub fn summary(&self) -> String {
        let counted: Vec<String> = self
            .counts()
            .into_iter()
            .filter(|(_, n)| *n > 0)
            .map(|(s, n)| format!("{s} {n}"))
            .collect();
        let informational = self.changes.iter().filter(|c| c.informational).count();
        let extra = if informational > 0 {
            format!("; {informational} informational (stdout/stderr), not counted")
        } else {
            String::new()
        };
        if counted.is_empty() {
            format!(
                "no differences in command, environment, git state, inputs, outputs or exit code{extra}"
            )
        } else {
            let total: usize = self.counts().iter().map(|(_, n)| n).sum();
            format!("{total} differences ({}){extra}", counted.join(", "))
        }
    }
}

struct Builder {
    changes: Vec<Change>,
    notes: Vec<String>,
}

impl Builder {
    fn push(
        &mut self,
        section: &'static str,
        kind: ChangeKind,
        subject: impl Into<String>,
        message: impl Into<String>,
    ) {
        self.changes.push(Change {
            section,
            kind,
            subject: subject.into(),
            message: message.into(),
            evidence: None,
            informational: false,
        });
    }
}

fn text_of(v: Option<&Value>) -> String {
    match v {
        None | Some(Value::Null) => "None".into(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => crate::json::to_string_compact(other),
    }
}

fn how(c: &Compare) -> String {
    match c {
        Compare::Exact => "exact".into(),
        Compare::Numeric { rtol, atol, .. } => format!(
            "numeric (rtol={}, atol={})",
            float_repr(*rtol),
            float_repr(*atol)
        ),
    }
}

fn environment(b: &mut Builder, old: &Manifest, new: &Manifest, show_values: bool) {
    let (eo, en) = (&old.environment, &new.environment);
    let (py, pf) = ((&eo.python, &en.python), (&eo.platform, &en.platform));
    let fields = [
        ("python version", py, "version"),
        ("python implementation", py, "implementation"),
        ("platform system", pf, "system"),
        ("platform machine", pf, "machine"),
        ("platform release", pf, "release"),
    ];
    for (subject, (a, c), key) in fields {
        let (a, c) = (a.get(key), c.get(key));
        if a != c {
            b.push(
                "environment",
                ChangeKind::Changed,
                subject,
                format!("{} -> {}", text_of(a), text_of(c)),
            );
        }
    }
    let names: BTreeSet<&str> = eo
        .env_vars
        .iter()
        .map(|(k, _)| k)
        .chain(en.env_vars.iter().map(|(k, _)| k))
        .collect();
    for name in names {
        let subject = format!("variable {name}");
        let shown = |v: Option<&Value>| {
            if show_values {
                str_repr(&text_of(v))
            } else {
                "(value hidden; --show-values shows it)".into()
            }
        };
        match (eo.env_vars.get(name), en.env_vars.get(name)) {
            (Some(a), None) => b.push(
                "environment",
                ChangeKind::Removed,
                subject,
                format!("was {}", shown(Some(a))),
            ),
            (None, Some(c)) => b.push(
                "environment",
                ChangeKind::Added,
                subject,
                format!("is {}", shown(Some(c))),
            ),
            (Some(a), Some(c)) if a != c => {
                let message = if show_values {
                    format!("{} -> {}", text_of(Some(a)), text_of(Some(c)))
                } else {
                    "differs (values hidden; --show-values shows them)".into()
                };
                b.push("environment", ChangeKind::Changed, subject, message);
            }
            _ => {}
        }
    }
    match (&eo.hardware, &en.hardware) {
        (Some(ho), Some(hn)) => {
            let count = |c: Option<u64>| c.map_or("None".to_string(), |c| c.to_string());
            if ho.cpu_count != hn.cpu_count {
                b.push(
                    "environment",
                    ChangeKind::Changed,
                    "CPU count",
                    format!("{} -> {}", count(ho.cpu_count), count(hn.cpu_count)),
                );
            }
            if ho.processor != hn.processor {
                b.push(
                    "environment",
                    ChangeKind::Changed,
                    "processor",
                    format!("{} -> {}", ho.processor, hn.processor),
                );
            }
            let gpus = |g: &[crate::manifest::Gpu]| {
                if g.is_empty() {
                    "none".to_string()
                } else {
                    g.iter()
                        .map(|g| format!("{} ({})", g.name, g.driver))
                        .collect::<Vec<_>>()
                        .join(", ")
                }
            };
            if gpus(&ho.gpus) != gpus(&hn.gpus) {
                b.push(
                    "environment",
                    ChangeKind::Changed,
                    "GPUs",
                    format!("{} -> {}", gpus(&ho.gpus), gpus(&hn.gpus)),
                );
            }
        }
        (None, None) => {}
        _ => b
            .notes
            .push("hardware was recorded in one manifest only, so it was not compared".into()),
    }
    if eo.source != en.source {
        b.notes.push(format!(
            "the two manifests describe the environment differently ({} vs {}), so package differences may not be comparable",
            eo.source.as_deref().unwrap_or("unknown"),
            en.source.as_deref().unwrap_or("unknown")
        ));
    }
    let packages = |m: &Manifest| -> BTreeMap<String, (String, String)> {
        m.dependencies
            .iter()
            .map(|d| {
                (
                    normalize_package_name(&d.name),
                    (d.name.clone(), d.version.clone()),
                )
            })
            .collect()
    };
    let (po, pn) = (packages(old), packages(new));
    let keys: BTreeSet<&String> = po.keys().chain(pn.keys()).collect();
    for key in keys {
        match (po.get(key), pn.get(key)) {
            (Some((name, v)), None) => b.push(
                "environment",
                ChangeKind::Removed,
                format!("package {name}"),
                format!("was {v}"),
            ),
            (None, Some((name, v))) => b.push(
                "environment",
                ChangeKind::Added,
                format!("package {name}"),
                format!("is {v}"),
            ),
            (Some((_, a)), Some((name, c))) if a != c => b.push(
                "environment",
                ChangeKind::Changed,
                format!("package {name}"),
                format!("{a} -> {c}"),
            ),
            _ => {}
        }
    }
}

/// A numeric output's snapshot, checked against its recorded digest.
fn snapshot(base: &Path, output: &Output) -> std::result::Result<PathBuf, String> {
    let Compare::Numeric { snapshot, .. } = &output.compare else {
        return Err("not numeric".into());
    };
    let path =
        resolve_inside(base, &snapshot.path).map_err(|e| format!("unsafe snapshot path ({e})"))?;
    if !path.is_file() {
        return Err(format!("snapshot {} is missing", snapshot.path));
    }
    match crate::hash::sha256_file(&path, &crate::progress::NoProgress) {
        Ok((d, _)) if d == snapshot.sha256 => Ok(path),
        _ => Err(format!("snapshot {} was modified", snapshot.path)),
    }
}

/// `(artifact, digest, size, present)` of a declared file or directory.
type View<'a> = (&'a Artifact, Option<&'a str>, u64, bool);

fn input_view(i: &Input) -> View<'_> {
    (&i.artifact, Some(i.sha256.as_str()), i.size, true)
}

fn output_view(o: &Output) -> View<'_> {
    (&o.artifact, o.sha256.as_deref(), o.size, o.present)
}

/// The parts of the message for one declared path in both manifests, and its evidence.
fn artifact(old: View, new: View) -> (Vec<String>, Object) {
    let ((ao, so, size_o, present_o), (an, sn, size_n, present_n)) = (old, new);
    if ao.is_directory() != an.is_directory() {
        let kind = |a: &Artifact| {
            if a.is_directory() {
                "a directory"
            } else {
                "a file"
            }
        };
        return (
            vec![format!("was {}, is now {}", kind(ao), kind(an))],
            Object::new(),
        );
    }
    let mut parts = Vec::new();
    let mut evidence = Object::new()
        .with("old_sha256", so.map(str::to_string))
        .with("new_sha256", sn.map(str::to_string));
    if present_o && !present_n {
        parts.push("was present, is now absent".to_string());
    } else if !present_o && present_n {
        parts.push("was absent, is now present".to_string());
    } else if so != sn {
        if ao.is_directory() {
            let tree = TreeDiff::between(ao.files(), an.files());
            evidence.insert("tree", tree.to_json());
            parts.push(format!("tree changed: {}", tree.describe(3)));
        } else {
            let short = |s: Option<&str>| {
                s.map(|s| s.chars().take(12).collect::<String>())
                    .unwrap_or_default()
            };
            parts.push(format!(
                "content changed (sha256 {} -> {}, {size_o} -> {size_n} bytes)",
                short(so),
                short(sn)
            ));
        }
    }
    (parts, evidence)
}

/// One manifest of a comparison.
pub struct Side<'a> {
    /// The manifest.
    pub manifest: &'a Manifest,
    /// The folder its snapshot paths are resolved in.
    pub base: &'a Path,
    /// Its file name, for the report.
    pub file: &'a str,
}

impl<'a> Side<'a> {
    /// A manifest as it was read from its file.
    pub fn of(loaded: &'a crate::manifest::Loaded) -> Side<'a> {
        Side {
            manifest: &loaded.manifest,
            base: &loaded.base,
            file: &loaded.file_name,
        }
    }
}

/// Compares two loaded manifests, section by section. Nothing is executed; only the numeric
/// snapshots they reference are read.
pub fn between(old_side: Side, new_side: Side, show_values: bool) -> Diff {
    let (old, new) = (old_side.manifest, new_side.manifest);
    let mut b = Builder {
        changes: Vec::new(),
        notes: vec![NOTE_CAUSE.to_string()],
    };
    if old.name != new.name {
        b.notes.push(format!("the manifests are of two experiments ({} and {}): every difference below may be intended", str_repr(&old.name), str_repr(&new.name)));
    }
    command_and_note(&mut b, old, new);
    environment(&mut b, old, new, show_values);
    git(&mut b, old, new);
    inputs(&mut b, old, new);
    outputs(
        &mut b,
        old,
        new,
        (old_side.base, new_side.base),
        show_values,
    );
    claims(&mut b, old, new);
    execution(&mut b, old, new);
    Diff {
        old_name: old.name.clone(),
        old_file: old_side.file.to_string(),
        new_name: new.name.clone(),
        new_file: new_side.file.to_string(),
        changes: b.changes,
        notes: b.notes,
    }
}

/// The command line and the note.
fn command_and_note(b: &mut Builder, old: &Manifest, new: &Manifest) {
    if old.command.argv != new.command.argv {
        let line = |a: &[String]| safe_text(&a.join(" "), 160);
        b.push(
            "command",
            ChangeKind::Changed,
            "argv",
            format!("{} -> {}", line(&old.command.argv), line(&new.command.argv)),
        );
    }
    match (&old.note, &new.note) {
        (None, Some(n)) => b.push("note", ChangeKind::Added, "note", safe_text(n, 300)),
        (Some(o), None) => b.push(
            "note",
            ChangeKind::Removed,
            "note",
            format!("was {}", str_repr(&safe_text(o, 300))),
        ),
        (Some(o), Some(n)) if o != n => b.push(
            "note",
            ChangeKind::Changed,
            "note",
            format!("{} -> {}", safe_text(o, 150), safe_text(n, 150)),
        ),
        _ => {}
    }
}

/// The Git state.
fn git(b: &mut Builder, old: &Manifest, new: &Manifest) {
    match (&old.git, &new.git) {
        (None, None) => {}
        (Some(_), None) | (None, Some(_)) => b.push(
            "git",
            ChangeKind::Changed,
            "repository",
            "recorded in one manifest only",
        ),
        (Some(o), Some(n)) => {
            if o.commit != n.commit {
                let short = |c: &str| c.chars().take(12).collect::<String>();
                b.push(
                    "git",
                    ChangeKind::Changed,
                    "commit",
                    format!("{} -> {}", short(&o.commit), short(&n.commit)),
                );
            }
            if o.dirty != n.dirty {
                let state = |d: bool| if d { "uncommitted changes" } else { "clean" };
                b.push(
                    "git",
                    ChangeKind::Changed,
                    "working tree",
                    format!("{} -> {}", state(o.dirty), state(n.dirty)),
                );
            }
        }
    }
}

/// Declared inputs, by path.
fn inputs(b: &mut Builder, old: &Manifest, new: &Manifest) {
    let inputs = |m: &Manifest| -> BTreeMap<String, Input> {
        m.inputs
            .iter()
            .map(|i| (i.path.clone(), i.clone()))
            .collect()
    };
    let (io, inn) = (inputs(old), inputs(new));
    for path in io.keys().chain(inn.keys()).collect::<BTreeSet<_>>() {
        let (a, c) = (io.get(path), inn.get(path));
        match (a, c) {
            (Some(_), None) => b.push(
                "inputs",
                ChangeKind::Removed,
                path.clone(),
                "declared in the old manifest only",
            ),
            (None, Some(_)) => b.push(
                "inputs",
                ChangeKind::Added,
                path.clone(),
                "declared in the new manifest only",
            ),
            (Some(a), Some(c)) => {
                let (parts, evidence) = artifact(input_view(a), input_view(c));
                if !parts.is_empty() {
                    b.changes.push(Change {
                        section: "inputs",
                        kind: ChangeKind::Changed,
                        subject: path.clone(),
                        message: parts.join("; "),
                        evidence: Some(evidence.into()),
                        informational: false,
                    });
                }
            }
            (None, None) => {}
        }
    }
}

/// Declared outputs, by path; a numeric output whose content changed is compared snapshot to
/// snapshot with the old tolerance (`sides`: the folders each manifest's snapshots are in;
/// `show_values`: the statistics of each column, key path or array in the message too).
fn outputs(
    b: &mut Builder,
    old: &Manifest,
    new: &Manifest,
    sides: (&Path, &Path),
    show_values: bool,
) {
    let outputs = |m: &Manifest| -> BTreeMap<String, Output> {
        m.outputs
            .iter()
            .map(|o| (o.path.clone(), o.clone()))
            .collect()
    };
    let (oo, on) = (outputs(old), outputs(new));
    for path in oo.keys().chain(on.keys()).collect::<BTreeSet<_>>() {
        match (oo.get(path), on.get(path)) {
            (Some(_), None) => b.push(
                "outputs",
                ChangeKind::Removed,
                path.clone(),
                "declared in the old manifest only",
            ),
            (None, Some(_)) => b.push(
                "outputs",
                ChangeKind::Added,
                path.clone(),
                "declared in the new manifest only",
            ),
            (Some(a), Some(c)) => {
                let (mut parts, mut evidence) = artifact(output_view(a), output_view(c));
                let same_compare = match (&a.compare, &c.compare) {
                    (
                        Compare::Numeric {
                            rtol: r1, atol: a1, ..
                        },
                        Compare::Numeric {
                            rtol: r2, atol: a2, ..
                        },
                    ) => r1 == r2 && a1 == a2,
                    (x, y) => x == y,
                };
                if !same_compare {
                    parts.push(format!(
                        "comparison changed: {} -> {}",
                        how(&a.compare),
                        how(&c.compare)
                    ));
                }
                if let (Compare::Numeric { rtol, atol, .. }, Compare::Numeric { .. }) =
                    (&a.compare, &c.compare)
                    && a.present
                    && c.present
                    && a.sha256 != c.sha256
                {
                    let tolerance = (*rtol, *atol);
                    let (message, per_group) =
                        compare_snapshots(sides, a, c, tolerance, &mut evidence);
                    parts.push(message);
                    if show_values {
                        parts.extend(per_group);
                    }
                }
                if !parts.is_empty() {
                    b.changes.push(Change {
                        section: "outputs",
                        kind: ChangeKind::Changed,
                        subject: path.clone(),
                        message: parts.join("; "),
                        evidence: Some(evidence.into()),
                        informational: false,
                    });
                }
            }
            (None, None) => {}
        }
    }
}

/// What the recorded copies of a numeric output say when its digest changed: equivalent
/// within the old tolerance, or the differences outside it, or why they cannot be compared;
/// each with the case and its statistics. Returns the message and one line per column, key
/// path or array that is not bit-identical.
fn compare_snapshots(
    (old_base, new_base): (&Path, &Path),
    a: &Output,
    c: &Output,
    (rtol, atol): (f64, f64),
    evidence: &mut Object,
) -> (String, Vec<String>) {
    evidence.insert("baseline_rtol", rtol);
    evidence.insert("baseline_atol", atol);
    let tol = format!("(rtol={}, atol={})", float_repr(rtol), float_repr(atol));
    let compared = snapshot(old_base, a)
        .and_then(|sa| snapshot(new_base, c).map(|sc| (sa, sc)))
        .and_then(|(sa, sc)| {
            crate::numeric::compare_files(&sa, &sc, &c.path, rtol, atol).map_err(|e| e.0)
        });
    match compared {
        Ok(comparison) => {
            let d = &comparison.differences;
            let message = if d.is_empty() {
                format!(
                    "numerically equivalent within the baseline tolerance {tol} — {}",
                    comparison.sentence()
                )
            } else {
                let more = if d.len() > 1 {
                    format!(" (and {} more)", d.len() - 1)
                } else {
                    String::new()
                };
                format!(
                    "outside the baseline tolerance {tol}: {}{more} — {}",
                    d[0].message,
                    comparison.sentence()
                )
            };
            let details = Value::Array(d.iter().map(|x| x.to_json()).collect());
            evidence.insert(
                "numeric",
                Object::new()
                    .with("comparable", true)
                    .with("equivalent", d.is_empty())
                    .with("difference_details", details)
                    .with("statistics", comparison.statistics_json()),
            );
            (message, comparison.group_lines())
        }
        Err(reason) => {
            evidence.insert(
                "numeric",
                Object::new()
                    .with("comparable", false)
                    .with("reason", reason.as_str()),
            );
            (
                format!("numeric comparison not possible: {reason}"),
                Vec::new(),
            )
        }
    }
}

/// Claims, by their text.
fn claims(b: &mut Builder, old: &Manifest, new: &Manifest) {
    let claims = |m: &Manifest| -> BTreeSet<String> { m.claims.iter().map(|c| c.text()).collect() };
    let (co, cn) = (claims(old), claims(new));
    for text in co.difference(&cn) {
        b.push(
            "claims",
            ChangeKind::Removed,
            text.clone(),
            "in the old manifest only",
        );
    }
    for text in cn.difference(&co) {
        b.push(
            "claims",
            ChangeKind::Added,
            text.clone(),
            "in the new manifest only",
        );
    }
}

/// The exit code, and (informational only) the standard streams.
fn execution(b: &mut Builder, old: &Manifest, new: &Manifest) {
    if old.execution.exit_code != new.execution.exit_code {
        b.push(
            "execution",
            ChangeKind::Changed,
            "exit code",
            format!("{} -> {}", old.execution.exit_code, new.execution.exit_code),
        );
    }
    for (stream, a, c) in [
        ("stdout", &old.execution.stdout, &new.execution.stdout),
        ("stderr", &old.execution.stderr, &new.execution.stderr),
    ] {
        if a.sha256 != c.sha256 {
            b.changes.push(Change {
                section: "execution",
                kind: ChangeKind::Changed,
                subject: stream.into(),
                message: "output differs (informational, not counted)".into(),
                evidence: None,
                informational: true,
            });
        }
    }
}
