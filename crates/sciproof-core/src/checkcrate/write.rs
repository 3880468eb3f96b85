//! Records -> the claim-check crate (`ro-crate-metadata.json`, spec §4): RO-Crate 1.3 with the
//! claim-check profile, one `ClaimCheck` per record, byte-deterministic (no clock is read).
//!
//! The layout is repro's, so its reader reads what we write. Differences on purpose: the outcome
//! written is the record's as this tool reads it (sciproof's own words are understood here, so a
//! sciproof `match` stays a match; repro would write it as not-checked), a manifest is described
//! with the media type its name says (`application/json`), and sciproof's predicate terms
//! (`sciproofOp`, `sciproofValue`, ...) are defined in a third `@context` object.

pub use super::vocab::{PROCESS_RUN_CRATE, PROFILE, RO_CRATE, SCIPROOF_TERM_NAMES, TERMS};

use super::record::{CheckRecord, FileRead};
use super::vocab::{
    LICENSE_NOT_STATED, RO_CRATE_CONTEXT, SCIPROOF_TERMS, check_type_description, local,
    outcome_description, quote, shell_join,
};
use crate::json::{Number, Object, Style, Value, write_value};
use std::collections::BTreeMap;

/// Why records cannot become a crate.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WriteError {
    #[error("no assertion was checked, so there is nothing for an RO-Crate to describe")]
    /// No assertion was checked.
    Nothing,
    #[error(
        "the records disagree about '{0}'; one crate describes one run of the checker over one manifest"
    )]
    /// The records disagree about this property.
    Conflict(String),
}

fn reference(id: &str) -> Value {
    Value::Object(Object::new().with("@id", id))
}

/// One value bare, several as a list.
fn packed(mut values: Vec<Value>) -> Value {
    if values.len() == 1 {
        values.remove(0)
    } else {
        Value::Array(values)
    }
}

/// Builds an entity, leaving out `None`s.
struct Entity(Object);

impl Entity {
    fn new(id: &str, types: Value) -> Entity {
        Entity(Object::new().with("@id", id).with("@type", types))
    }
    fn set(mut self, key: &str, value: impl Into<Value>) -> Entity {
        self.0.insert(key, value);
        self
    }
    fn opt(self, key: &str, value: Option<impl Into<Value>>) -> Entity {
        match value {
            Some(v) => self.set(key, v),
            None => self,
        }
    }
    /// Copies the string (non-empty) or integer values of `source[key]` to `property`, in order.
    fn copy(mut self, source: Option<&Object>, fields: &[(&str, &str)]) -> Entity {
        let Some(source) = source else {
            return self;
        };
        for (property, key) in fields {
            match source.get(key) {
                Some(Value::String(s)) if !s.is_empty() => self = self.set(property, s.as_str()),
                Some(v @ Value::Number(Number::Int(_))) => self = self.set(property, v.clone()),
                _ => {}
            }
        }
        self
    }

    fn nonempty(self, key: &str, value: &str) -> Entity {
        self.opt(key, (!value.is_empty()).then(|| value.to_string()))
    }
}

fn types(names: &[&str]) -> Value {
    if names.len() == 1 {
        Value::from(names[0])
    } else {
        Value::Array(names.iter().map(|n| Value::from(*n)).collect())
    }
}

/// The entities of one crate, each stated once.
#[derive(Default)]
struct Graph {
    entities: BTreeMap<String, Object>,
    /// `@id` by artifact.
    files: BTreeMap<String, String>,
}

impl Graph {
    fn add(&mut self, entity: Entity) -> Result<String, WriteError> {
        let id = entity
            .0
            .get("@id")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        match self.entities.get(&id) {
            Some(held) if *held != entity.0 => Err(WriteError::Conflict(id)),
            Some(_) => Ok(id),
            None => {
                self.entities.insert(id.clone(), entity.0);
                Ok(id)
            }
        }
    }

    fn file(&mut self, read: &FileRead) -> Result<String, WriteError> {
        let inside = !read.path.is_empty()
            && !read.path.starts_with('/')
            && !read.path.split('/').any(|p| p == "..");
        let mut id = quote(&read.path, "/");
        let taken = self.entities.contains_key(&id) && self.files.get(&read.artifact) != Some(&id);
        if !inside || read.on_disk.is_none() || taken {
            id = local("artifact", &[&read.artifact]);
        }
        self.files.insert(read.artifact.clone(), id.clone());
        let name = if read.path.is_empty() {
            &read.artifact
        } else {
            &read.path
        };
        let based_on = match &read.origin {
            Some(o) => Some(reference(&self.origin(&read.artifact, o)?)),
            None => None,
        };
        self.add(
            Entity::new(&id, types(&["File"]))
                .set("name", name.as_str())
                .set("identifier", read.artifact.as_str())
                .opt(
                    "alternateName",
                    (!read.path.is_empty() && id != read.path).then(|| read.path.clone()),
                )
                .nonempty("encodingFormat", &read.media_type)
                .opt("sha256", read.on_disk.clone())
                .opt("pinnedDigest", read.pinned.clone())
                .opt("validity", read.validity.clone())
                .opt("isBasedOn", based_on),
        )
    }

    /// Where an artifact's bytes were copied from (repro's shape: a `CreativeWork` at a commit
    /// of a repository).
    fn origin(&mut self, artifact: &str, origin: &Object) -> Result<String, WriteError> {
        let repository = get_str(origin, "repository").unwrap_or_default();
        let repo_id = self.add(
            Entity::new(
                &local("repository", &[&repository]),
                types(&["SoftwareSourceCode"]),
            )
            .set("name", repository.as_str())
            .set("codeRepository", repository.as_str()),
        )?;
        self.add(
            Entity::new(&local("origin", &[artifact]), types(&["CreativeWork"]))
                .set("name", get_str(origin, "path").unwrap_or_default())
                .set("version", get_str(origin, "commit").unwrap_or_default())
                .set("isPartOf", reference(&repo_id)),
        )
    }

    /// A declared command (`HowTo`, `DeclaredCommand`) and its latest recorded re-run
    /// (`CreateAction`, as Process Run Crate describes one).
    fn command(&mut self, command: &Object) -> Result<String, WriteError> {
        let name = get_str(command, "id").unwrap_or_default();
        let id = local("command", &[&name]);
        let argv: Vec<String> = command
            .get("command")
            .and_then(Value::as_array)
            .unwrap_or_default()
            .iter()
            .filter_map(|a| a.as_str().map(String::from))
            .collect();
        let mut inputs = Vec::new();
        for input in command
            .get("inputs")
            .and_then(Value::as_array)
            .unwrap_or_default()
        {
            if let Some(state) = input.as_object() {
                inputs.push(reference(&self.file(&file_state(state))?));
            }
        }
        let output = match command.get("output").and_then(Value::as_object) {
            Some(state) => Some(reference(&self.file(&file_state(state))?)),
            None => None,
        };
        let shell = shell_join(&argv);
        let rerun = command.get("last_rerun").and_then(Value::as_object);
        if let Some(r) = rerun {
            let state = get_str(r, "state").unwrap_or_default();
            let failed = state == "failed";
            let status = if failed {
                "http://schema.org/FailedActionStatus"
            } else {
                "http://schema.org/CompletedActionStatus"
            };
            let status = self.add(
                Entity::new(status, types(&["ActionStatusType"]))
                    .set("name", if failed { "failed" } else { "completed" }),
            )?;
            let reason = get_str(r, "reason").unwrap_or_default();
            self.add(
                Entity::new(&local("rerun", &[&name]), types(&["CreateAction"]))
                    .set("name", format!("Re-run of {name}"))
                    .set("description", shell.as_str())
                    .set("instrument", reference(&id))
                    .opt(
                        "object",
                        (!inputs.is_empty()).then(|| packed(inputs.clone())),
                    )
                    .opt("result", output.clone())
                    .opt(
                        "startTime",
                        get_str(r, "started_at").filter(|s| !s.is_empty()),
                    )
                    .opt("endTime", get_str(r, "ended_at").filter(|s| !s.is_empty()))
                    .set("actionStatus", reference(&status))
                    .opt(
                        "error",
                        (failed && !reason.is_empty()).then(|| reason.clone()),
                    )
                    .set("rerunState", state.as_str())
                    .set("rerunReason", reason.as_str())
                    .opt(
                        "checkerVersion",
                        get_str(r, "checker_version").filter(|s| !s.is_empty()),
                    )
                    .opt("exitCode", get_int(r, "exit_code"))
                    .opt(
                        "durationSeconds",
                        r.get("duration_seconds")
                            .filter(|v| !matches!(v, Value::Null))
                            .cloned(),
                    )
                    .opt("outputDigest", get_str(r, "output_digest")),
            )?;
        }
        let mut argv_text = String::new();
        write_value(
            &mut argv_text,
            &Value::Array(argv.iter().map(Value::from).collect()),
            None,
            Style::RAW,
        );
        let causes: Vec<Value> = command
            .get("causes")
            .and_then(Value::as_array)
            .unwrap_or_default()
            .to_vec();
        self.add(
            Entity::new(&id, types(&["HowTo", "DeclaredCommand"]))
                .set("name", name.as_str())
                .set("identifier", name.as_str())
                .set("description", shell.as_str())
                .set("argv", argv_text)
                .opt(
                    "declaredInput",
                    (!inputs.is_empty()).then(|| packed(inputs)),
                )
                .opt("declaredOutput", output)
                .opt("freshness", get_str(command, "state"))
                .opt("staleCause", (!causes.is_empty()).then(|| packed(causes)))
                .opt(
                    "lastRerun",
                    rerun.map(|_| reference(&local("rerun", &[&name]))),
                ),
        )
    }

    fn term(&mut self, word: &str, description: &str) -> Result<Value, WriteError> {
        let id = format!("{PROFILE}#{word}");
        self.add(
            Entity::new(&id, types(&["DefinedTerm"]))
                .set("name", word)
                .set("termCode", word)
                .set("description", description),
        )?;
        Ok(reference(&id))
    }
}

/// A record's file state object as a [`FileRead`] without read fields.
fn file_state(o: &Object) -> FileRead {
    FileRead {
        artifact: get_str(o, "artifact").unwrap_or_default(),
        path: get_str(o, "path").unwrap_or_default(),
        media_type: get_str(o, "media_type").unwrap_or_default(),
        validity: get_str(o, "validity"),
        pinned: get_str(o, "pinned"),
        on_disk: get_str(o, "on_disk"),
        origin: o.get("origin").and_then(Value::as_object).cloned(),
        ..FileRead::default()
    }
}

fn get_str(o: &Object, key: &str) -> Option<String> {
    o.get(key).and_then(Value::as_str).map(String::from)
}

fn get_int(o: &Object, key: &str) -> Option<Value> {
    match o.get(key) {
        Some(v @ Value::Number(Number::Int(_))) => Some(v.clone()),
        _ => None,
    }
}

fn check(record: &CheckRecord, graph: &mut Graph) -> Result<String, WriteError> {
    let index = record.assertion_index.to_string();
    let id = local("check", &[&record.claim_id, &index]);
    let manifest = if record.manifest_path.is_empty() {
        None
    } else {
        let name = record
            .manifest_path
            .rsplit('/')
            .next()
            .unwrap_or(&record.manifest_path)
            .to_string();
        let format = if name.to_lowercase().ends_with(".json") {
            "application/json"
        } else {
            "application/yaml"
        };
        let signature = match &record.manifest_signature {
            Some((path, digest)) => Some(reference(&graph.add(
                Entity::new(&quote(path, "/"), types(&["File"]))
                    .set("name", path.as_str())
                    .set(
                        "description",
                        "The OpenSSH signature (SSHSIG) of the manifest, checked by `sciproof verify --allowed-signers`.",
                    )
                    .set("encodingFormat", "text/plain")
                    .set("sha256", digest.as_str()),
            )?)),
            None => None,
        };
        Some(
            graph.add(
                Entity::new(&quote(&name, "/"), types(&["File"]))
                    .set("name", name.as_str())
                    .opt(
                        "alternateName",
                        (record.manifest_path != name).then(|| record.manifest_path.clone()),
                    )
                    .set("description", "The manifest the assertions were read from.")
                    .set("encodingFormat", format)
                    .opt("sha256", record.manifest_digest.clone())
                    .opt("sciproofSignature", signature),
            )?,
        )
    };
    let checker = graph.add(
        Entity::new(
            &local("checker", &[&record.checker_name, &record.checker_version]),
            types(&["SoftwareApplication"]),
        )
        .set("name", record.checker_name.as_str())
        .set("version", record.checker_version.as_str())
        .nonempty("url", &record.checker_url),
    )?;
    let claim = graph.add(
        Entity::new(&local("claim", &[&record.claim_id]), types(&["Claim"]))
            .set("name", record.claim_id.as_str())
            .set("identifier", record.claim_id.as_str())
            .set("text", record.claim_text.as_str())
            .opt("whereStated", record.claim_where.clone())
            .set("claimDigest", record.claim_digest.as_str())
            .opt("manifestLine", record.claim_line),
    )?;
    let mut reads = Vec::new();
    for (position, read) in record.reads.iter().enumerate() {
        let file = graph.file(read)?;
        let canonical = read.address.as_ref().map(|a| {
            let mut text = String::new();
            crate::json::write_object(&mut text, a, None, Style::CANONICAL);
            text
        });
        let read_id = format!("{id}/read/{position}");
        graph.add(
            Entity::new(&read_id, types(&["PropertyValue", "FileRead"]))
                .set(
                    "name",
                    format!("{} as read for {}", read.artifact, record.claim_id),
                )
                .set("readsFile", reference(&file))
                .nonempty("side", &read.side)
                .opt(
                    "addressKind",
                    read.address.as_ref().and_then(|a| get_str(a, "kind")),
                )
                .opt("canonicalAddress", canonical)
                .opt("value", read.stored.clone())
                .opt("convertedValue", read.converted.clone()),
        )?;
        reads.push(reference(&read_id));
    }
    let comparison = record.comparison.as_ref();
    let tie = comparison
        .and_then(|c| c.get("tie"))
        .and_then(Value::as_object);
    let stages = record.stages.as_ref();
    let reader = &record.reader;
    let name: Vec<&str> = [
        record.claim_id.as_str(),
        record.assertion_kind.as_str(),
        record.assertion_name.as_str(),
    ]
    .into_iter()
    .filter(|p| !p.is_empty())
    .collect();
    let passage_line = record
        .passages
        .iter()
        .filter_map(Value::as_object)
        .find(|p| get_int(p, "assertion") == Some(Value::from(record.assertion_index)))
        .and_then(|p| get_int(p, "line"));
    let outcome = record.read_outcome().to_string();
    let check_type = graph.term(
        &record.check_type,
        check_type_description(&record.check_type),
    )?;
    let outcome = graph.term(&outcome, outcome_description(&outcome))?;
    let execution = record.execution.as_ref();
    let mut upstream = Vec::new();
    for command in execution
        .and_then(|e| e.get("commands"))
        .and_then(Value::as_array)
        .unwrap_or_default()
    {
        if let Some(c) = command.as_object() {
            upstream.push(reference(&graph.command(c)?));
        }
    }
    let mut entity = Entity::new(&id, types(&["CheckAction", "ClaimCheck"]))
        .set("name", name.join(" "))
        .nonempty("description", &record.detail)
        .set("recordVersion", record.record.as_str())
        .set("instrument", reference(&checker))
        .set("endTime", record.checked_at.as_str())
        .opt("manifest", manifest.as_deref().map(reference))
        .set("object", reference(&claim))
        .set("assertionKind", record.assertion_kind.as_str())
        .nonempty("assertionName", &record.assertion_name)
        .set("assertionIndex", record.assertion_index)
        .set("assertionPosition", record.assertion_position)
        .opt("manifestLine", record.assertion_line)
        .opt("passageLine", passage_line)
        .set("checkType", check_type)
        .opt("fileRead", (!reads.is_empty()).then(|| packed(reads)))
        .opt("printedValue", record.printed.clone())
        .copy(
            comparison,
            &[
                ("comparisonMode", "mode"),
                ("tolerance", "tolerance"),
                ("declaredPlaces", "places"),
                ("conversion", "conversion"),
                ("statistic", "statistic"),
                ("memberCount", "count"),
                ("computedValue", "computed"),
            ],
        )
        .copy(
            tie,
            &[
                ("tieLower", "lower"),
                ("tieUpper", "upper"),
                ("tiePrinted", "printed"),
            ],
        )
        .set("outcome", outcome)
        .set("nativeOutcome", record.native_outcome.as_str())
        .set("nativeReason", record.native_reason.as_str())
        .copy(
            stages,
            &[
                ("executionStage", "execution"),
                ("extractionStage", "extraction"),
                ("comparisonStage", "comparison"),
            ],
        )
        .copy(
            Some(reader),
            &[
                ("backend", "backend"),
                ("backendVersion", "backend_version"),
                ("extractionTool", "tool"),
                ("extractionToolVersion", "tool_version"),
                ("extractionDigest", "extraction_digest"),
            ],
        )
        .opt(
            "checkWarning",
            (!record.warnings.is_empty())
                .then(|| packed(record.warnings.iter().map(Value::from).collect())),
        )
        .opt("freshness", execution.and_then(|e| get_str(e, "state")))
        .opt("upstream", (!upstream.is_empty()).then(|| packed(upstream)))
        .opt(
            "historyStates",
            record.history.as_ref().and_then(|h| get_int(h, "states")),
        )
        .opt(
            "historyLastChangedAt",
            record
                .history
                .as_ref()
                .and_then(|h| get_str(h, "last_changed_at")),
        );
    let x = &record.extensions;
    if !x.is_empty() {
        entity = entity
            .opt("sciproofPhase", get_str(x, "phase"))
            .opt("sciproofLocation", get_str(x, "location"))
            .opt("sciproofOp", get_str(x, "op"))
            // The threshold as JSON text: a property is never a boolean, and `0.9`, `"ok"`,
            // `true` and `null` must stay distinguishable.
            .opt(
                "sciproofValue",
                x.get("value").map(crate::json::to_string_compact),
            )
            .opt("sciproofRtol", x.get("rtol").cloned())
            .opt("sciproofAtol", x.get("atol").cloned())
            .opt("sciproofScale", get_str(x, "scale"));
    }
    graph.add(entity)
}

/// The crate's `ro-crate-metadata.json` text for these records (indent 2, non-ASCII raw, one
/// final newline). The same records always give the same bytes.
pub fn to_crate(records: &[CheckRecord]) -> Result<String, WriteError> {
    if records.is_empty() {
        return Err(WriteError::Nothing);
    }
    let mut graph = Graph::default();
    let mut checks = Vec::new();
    for r in records {
        checks.push(check(r, &mut graph)?);
    }
    let reruns: Vec<String> = graph
        .entities
        .iter()
        .filter(|(_, e)| e.get("@type") == Some(&Value::from("CreateAction")))
        .map(|(id, _)| id.clone())
        .collect();
    let files: Vec<String> = graph
        .entities
        .iter()
        .filter(|(_, e)| e.get("@type") == Some(&Value::from("File")))
        .map(|(id, _)| id.clone())
        .collect();
    let mut profiles = vec![Value::Object(
        Object::new()
            .with("@id", PROFILE)
            .with("@type", types(&["CreativeWork", "Profile"]))
            .with("name", "Claim check crate (experimental)")
            .with("version", "0.1-experimental"),
    )];
    if !reruns.is_empty() {
        profiles.push(Value::Object(
            Object::new()
                .with("@id", PROCESS_RUN_CRATE)
                .with("@type", types(&["CreativeWork", "Profile"]))
                .with("name", "Process Run Crate")
                .with("version", "0.6"),
        ));
    }
    let mut manifests: Vec<&str> = records
        .iter()
        .map(|r| r.manifest_path.as_str())
        .filter(|p| !p.is_empty())
        .collect();
    manifests.sort_unstable();
    manifests.dedup();
    let latest = records
        .iter()
        .map(|r| r.checked_at.as_str())
        .max()
        .unwrap_or_default();
    let conforms: Vec<Value> = profiles
        .iter()
        .filter_map(|p| p.as_object()?.get("@id")?.as_str().map(reference))
        .collect();
    let mut mentions: Vec<Value> = checks.iter().map(|c| reference(c)).collect();
    mentions.extend(reruns.iter().map(|r| reference(r)));
    let root = Object::new()
        .with("@id", "./")
        .with("@type", "Dataset")
        .with(
            "name",
            format!(
                "Claim checks of {}",
                if manifests.is_empty() {
                    "a manifest held in memory".to_string()
                } else {
                    manifests.join(", ")
                }
            ),
        )
        .with(
            "description",
            format!(
                "{} assertion(s) about pinned files, each as it was checked: the file read, the address, the value stored there, the value reported and the outcome. A record of comparisons, not a verdict on the claims.",
                records.len()
            ),
        )
        .with("datePublished", latest)
        .with("license", LICENSE_NOT_STATED)
        .with("conformsTo", packed(conforms))
        .with("hasPart", packed(files.iter().map(|f| reference(f)).collect()))
        .with("mentions", packed(mentions));
    let descriptor = Object::new()
        .with("@id", "ro-crate-metadata.json")
        .with("@type", "CreativeWork")
        .with("conformsTo", reference(RO_CRATE))
        .with("about", reference("./"));
    let mut terms = Object::new();
    for t in TERMS {
        terms.insert(t, format!("{PROFILE}#{t}"));
    }
    let mut context = vec![Value::from(RO_CRATE_CONTEXT), Value::Object(terms)];
    if records
        .iter()
        .any(|r| !r.extensions.is_empty() || r.manifest_signature.is_some())
    {
        let mut ours = Object::new();
        for t in SCIPROOF_TERM_NAMES {
            ours.insert(t, format!("{SCIPROOF_TERMS}{t}"));
        }
        context.push(Value::Object(ours));
    }
    let mut graph_items = vec![Value::Object(descriptor), Value::Object(root)];
    graph_items.extend(profiles);
    graph_items.extend(graph.entities.into_values().map(Value::Object));
    let document = Object::new()
        .with("@context", Value::Array(context))
        .with("@graph", Value::Array(graph_items));
    let mut text = String::new();
    write_value(&mut text, &Value::Object(document), Some(0), Style::RAW);
    text.push('\n');
    Ok(text)
}
