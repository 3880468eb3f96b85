//! The journal of an operation on an evidence (invariants 3 and 4 of the [protocol](super)):
//! `journal.json` in the work folder, replaced atomically, read back by recovery.

use crate::error::{Error, Result};
use crate::json::{self, Object, Value};
use std::path::Path;

/// The operation that wrote the journal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// `sciproof capture`.
    Capture,
    /// `sciproof update`.
    Update,
    /// `sciproof verify --rerun` (and `badge --rerun`).
    Rerun,
    /// `sciproof calibrate`.
    Calibrate,
}

impl Op {
    /// The operation's name in messages and in the journal.
    pub fn as_str(self) -> &'static str {
        match self {
            Op::Capture => "capture",
            Op::Update => "update",
            Op::Rerun => "rerun",
            Op::Calibrate => "calibrate",
        }
    }
    fn parse(s: &str) -> Option<Op> {
        [Op::Capture, Op::Update, Op::Rerun, Op::Calibrate]
            .into_iter()
            .find(|o| o.as_str() == s)
    }
}

/// How far the operation got.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Originals are (being) moved aside; undo puts them back.
    Aside,
    /// The new evidence is staged and durable; redo installs it.
    Commit,
}

/// What stood at a declared output path before it was moved aside.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Was {
    /// Nothing: whatever is there later was made by the run.
    Absent,
    /// Something (a file, link, folder, FIFO, socket), now at `aside/<index>`.
    Present,
}

/// One declared output of a rerun or update.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Aside {
    /// The manifest path of the output.
    pub path: String,
    /// What was at the path before.
    pub was: Was,
}

/// The journal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Journal {
    /// The operation.
    pub op: Op,
    /// How far it got.
    pub phase: Phase,
    /// The process that wrote it (for messages).
    pub pid: u32,
    /// When the operation started (RFC 3339).
    pub started_at: String,
    /// Declared outputs moved aside, in manifest order (`aside/<index>`).
    pub asides: Vec<Aside>,
    /// Folders (manifest paths) that did not exist before the run; removed again when empty.
    pub created_dirs: Vec<String>,
    /// The folder (in the manifest's folder) that receives what an interrupted run produced.
    pub products: String,
    /// Commit: a new snapshot folder is staged.
    pub snapshots: bool,
    /// Commit of an update whose command failed: the previous evidence and outputs are kept
    /// in this folder instead of being removed.
    pub keep_old: Option<String>,
}

impl Journal {
    /// The journal as JSON.
    pub fn to_json(&self) -> String {
        let strings = |items: &[String]| {
            Value::Array(items.iter().map(|s| Value::from(s.as_str())).collect())
        };
        let asides = Value::Array(
            self.asides
                .iter()
                .map(|a| {
                    Object::new()
                        .with("path", a.path.as_str())
                        .with(
                            "was",
                            match a.was {
                                Was::Absent => "absent",
                                Was::Present => "present",
                            },
                        )
                        .into()
                })
                .collect(),
        );
        let o = Object::new()
            .with("sciproof_journal", 1u64)
            .with("op", self.op.as_str())
            .with(
                "phase",
                match self.phase {
                    Phase::Aside => "aside",
                    Phase::Commit => "commit",
                },
            )
            .with("pid", u64::from(self.pid))
            .with("started_at", self.started_at.as_str())
            .with("asides", asides)
            .with("created_dirs", strings(&self.created_dirs))
            .with("products", self.products.as_str())
            .with("snapshots", self.snapshots)
            .with("keep_old", self.keep_old.clone());
        let mut text = json::to_string_pretty(&Value::Object(o));
        text.push('\n');
        text
    }

    /// Reads a journal; `None` with the reason when it is not one this version wrote. Every
    /// path in it is checked against the manifest path rules, so a planted journal cannot
    /// make recovery move anything outside the manifest's folder.
    pub fn parse(text: &str) -> std::result::Result<Journal, String> {
        let value = json::parse(text).map_err(|e| e.to_string())?;
        let o = value.as_object().ok_or("not an object")?;
        if o.get("sciproof_journal").and_then(Value::as_f64) != Some(1.0) {
            return Err("not a version 1 journal".into());
        }
        let text_of = |key: &str| {
            o.get(key)
                .and_then(Value::as_str)
                .ok_or_else(|| format!("{key}: expected a string"))
        };
        let rel = |s: &str| -> std::result::Result<String, String> {
            crate::paths::validate_relative_path(s)
                .map(str::to_string)
                .map_err(|e| e.to_string())
        };
        let op = Op::parse(text_of("op")?).ok_or("op: unknown operation")?;
        let phase = match text_of("phase")? {
            "aside" => Phase::Aside,
            "commit" => Phase::Commit,
            _ => return Err("phase: unknown".into()),
        };
        let mut asides = Vec::new();
        for a in o
            .get("asides")
            .and_then(Value::as_array)
            .unwrap_or_default()
        {
            let a = a.as_object().ok_or("asides: expected objects")?;
            let path = rel(a.get("path").and_then(Value::as_str).unwrap_or_default())?;
            let was = match a.get("was").and_then(Value::as_str) {
                Some("absent") => Was::Absent,
                Some("present") => Was::Present,
                _ => return Err("asides: unknown state".into()),
            };
            asides.push(Aside { path, was });
        }
        let mut created_dirs = Vec::new();
        for d in o
            .get("created_dirs")
            .and_then(Value::as_array)
            .unwrap_or_default()
        {
            created_dirs.push(rel(d.as_str().unwrap_or_default())?);
        }
        let folder = |s: &str| -> std::result::Result<String, String> {
            let s = rel(s)?;
            if s.contains('/') || !s.starts_with(super::PREFIX) {
                return Err(format!("{s}: not a sciproof folder name"));
            }
            Ok(s)
        };
        Ok(Journal {
            op,
            phase,
            pid: o
                .get("pid")
                .and_then(Value::as_f64)
                .map(|p| p as u32)
                .unwrap_or(0),
            started_at: text_of("started_at").unwrap_or("").to_string(),
            asides,
            created_dirs,
            products: folder(text_of("products")?)?,
            snapshots: matches!(o.get("snapshots"), Some(Value::Bool(true))),
            keep_old: match o.get("keep_old") {
                Some(Value::String(s)) => Some(folder(s)?),
                _ => None,
            },
        })
    }

    /// Writes the journal into `work` atomically and durably.
    pub fn write(&self, work: &Path) -> Result<()> {
        let target = work.join("journal.json");
        let tmp = work.join("journal.json.new");
        let io = |e: std::io::Error| Error::write(target.display(), e);
        let mut file = std::fs::File::create(&tmp).map_err(io)?;
        std::io::Write::write_all(&mut file, self.to_json().as_bytes()).map_err(io)?;
        file.sync_all().map_err(io)?;
        super::failpoint("journal.written");
        std::fs::rename(&tmp, &target).map_err(io)?;
        super::atomic::sync_dir(work).map_err(io)
    }

    /// The journal in `work`, if there is one; `Err` when it cannot be read or understood.
    pub fn read(work: &Path) -> std::result::Result<Option<Journal>, String> {
        let path = work.join("journal.json");
        match crate::untrusted::read_text(&path, crate::untrusted::Kind::Journal) {
            Ok(text) => Journal::parse(&text).map(Some),
            Err(e) if e.is_not_found() => Ok(None),
            Err(e) => Err(e.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_refuses_paths_outside_the_folder() {
        let j = Journal {
            op: Op::Update,
            phase: Phase::Commit,
            pid: 42,
            started_at: "2026-11-30T12:00:00+00:00".into(),
            asides: vec![
                Aside {
                    path: "out/a.txt".into(),
                    was: Was::Present,
                },
                Aside {
                    path: "b.csv".into(),
                    was: Was::Absent,
                },
            ],
            created_dirs: vec!["out".into()],
            products: ".sciproof-rerun-20261130T120000Z".into(),
            snapshots: true,
            keep_old: Some(".sciproof-update-20261130T120000Z".into()),
        };
        assert_eq!(Journal::parse(&j.to_json()).unwrap(), j);
        let hostile = j.to_json().replace("out/a.txt", "../../etc/passwd");
        assert!(Journal::parse(&hostile).is_err());
        let hostile = j
            .to_json()
            .replace(".sciproof-rerun-20261130T120000Z", "src");
        assert!(Journal::parse(&hostile).is_err());
    }
}
