//! `sciproof graph`: turns the claim-graph commands into library calls and renders results.

use crate::cli_graph::*;
use sciproof_core::commit::lock::{Lock, Wait};
use sciproof_core::error::Error;
use sciproof_core::escape::terminal::safe_text;
use sciproof_core::graph::claim::Claim;
use sciproof_core::graph::recipe::{Outcome, VerifyOptions};
use sciproof_core::graph::record::Record;
use sciproof_core::graph::render::{latex, markdown};
use sciproof_core::graph::{ClaimGraph, Form, GraphError};
use sciproof_core::json::{Object, Value};
use std::path::{Path, PathBuf};

fn now() -> String {
    sciproof_core::timestamp::format_utc(sciproof_core::timestamp::now_unix())
}

fn graph_dir(path: &Path) -> PathBuf {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// Loads the graph; prints what was dropped on stderr.
fn load(path: &Path) -> Result<ClaimGraph, Error> {
    if !path.exists() {
        return Err(Error::Usage(format!(
            "no claim graph at {}: create one with `sciproof graph add-run`, `graph record` or `graph conjecture`, or name another with --graph FILE",
            path.display()
        )));
    }
    let progress = crate::progress_for(true);
    let (graph, notes) = ClaimGraph::load_with_progress(path, progress.as_ref())?;
    for w in notes.warnings {
        errln!("warning: {}: {}", path.display(), safe_text(&w, 500));
    }
    Ok(graph)
}

/// Loads the graph, or starts an empty one (written by sciproof) if the file does not exist.
fn load_or_new(path: &Path, title: Option<String>) -> Result<ClaimGraph, Error> {
    if path.exists() {
        return load(path);
    }
    let mut graph = ClaimGraph::new(title);
    graph.metadata.insert("generator", "sciproof");
    Ok(graph)
}

fn resolve(graph: &ClaimGraph, id: &str) -> Result<String, Error> {
    graph
        .resolve(id)
        .map(str::to_string)
        .map_err(|e| Error::Usage(e.to_string()))
}

fn describe(c: &Claim) -> String {
    let title = c
        .label
        .as_deref()
        .filter(|l| !l.is_empty())
        .unwrap_or(&c.statement);
    format!("{}  {:<21} {}", c.id, c.status, safe_text(title, 200))
}

fn print_claims(claims: &[&Claim], format: ListFormat) {
    match format {
        ListFormat::Text => {
            let mut out = crate::output::Writer::new();
            for c in claims {
                out.put(&describe(c));
                out.put("\n");
            }
            out.finish();
        }
        ListFormat::Json => {
            let mut out = crate::output::Writer::new();
            if claims.is_empty() {
                out.put("[]\n");
                out.finish();
                return;
            }
            out.put("[");
            for (i, c) in claims.iter().enumerate() {
                let item = Value::Object(
                    Object::new()
                        .with("id", c.id.as_str())
                        .with("status", c.status.as_str())
                        .with("statement", c.statement.as_str())
                        .with("label", Value::from(c.label.clone())),
                );
                let mut text = String::from(if i == 0 { "\n  " } else { ",\n  " });
                sciproof_core::json::write_value(
                    &mut text,
                    &item,
                    Some(1),
                    sciproof_core::json::Style::ASCII,
                );
                out.put(&text);
            }
            out.put("\n]\n");
            out.finish();
        }
    }
}

/// A query about one claim (given by a unique prefix), printed as a list.
fn query(
    path: &Path,
    id: &str,
    format: ListFormat,
    ask: for<'g> fn(&'g ClaimGraph, &str) -> Result<Vec<&'g Claim>, GraphError>,
) -> Result<u8, Error> {
    let graph = load(path)?;
    let id = resolve(&graph, id)?;
    let found = ask(&graph, &id).map_err(|e| Error::Usage(e.to_string()))?;
    print_claims(&found, format);
    Ok(0)
}

fn parse_check(text: &str) -> Result<Object, Error> {
    match sciproof_core::json::parse(text) {
        Ok(Value::Object(o)) => {
            match o.get("kind") {
                Some(Value::String(_)) => Ok(o),
                _ => Err(Error::Usage(
                    "--check: the recipe needs a \"kind\" string (numeric_relation, sciproof_claim, sciproof_manifest)".into(),
                )),
            }
        }
        Ok(_) => Err(Error::Usage("--check: expected a JSON object".into())),
        Err(e) => Err(Error::Usage(format!("--check: not valid JSON: {e}"))),
    }
}

fn record_request(
    graph: &ClaimGraph,
    statement: String,
    args: RecordArgs,
) -> Result<Record, Error> {
    let depends_on = args
        .depends_on
        .iter()
        .map(|d| resolve(graph, d))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Record {
        statement,
        hypotheses: args.hypotheses,
        depends_on,
        check: args.check.as_deref().map(parse_check).transpose()?,
        label: args.label,
        tags: args.tags,
        notes: args.notes,
        recorded_at: Some(now()),
        ..Record::default()
    })
}

fn save(graph: &ClaimGraph, path: &Path) -> Result<(), Error> {
    graph.save(path, false)
}

/// Takes the lock of the graph document at `path` for a command that changes it: held from
/// before the document is read until it is written, so two writers never lose each other's
/// claims.
fn lock_graph(path: &Path, what: &str, wait: Wait) -> Result<Lock, Error> {
    sciproof_core::commit::lock::lock(path, what, wait)
}

/// Runs one `sciproof graph` command; returns the exit code.
pub fn run(args: GraphArgs, wait: Wait) -> Result<u8, Error> {
    let path = args.graph;
    match args.command {
        GraphCommand::AddRun { manifests, title } => {
            let _lock = lock_graph(&path, "graph add-run", wait)?;
            let mut graph = load_or_new(&path, title)?;
            let dir = graph_dir(&path);
            let at = now();
            // What was added is printed only once the document is written.
            let mut lines = Vec::new();
            for manifest in manifests {
                let added = graph.add_run(&manifest, &dir, &at)?;
                let run = graph
                    .get(&added.run_claim)
                    .map(describe)
                    .unwrap_or_default();
                lines.push(format!(
                    "added {}: integrity {}",
                    safe_text(&manifest.display().to_string(), 500),
                    added.verdict.as_str()
                ));
                lines.push(format!("  {run}"));
                for (id, _, _) in &added.claims {
                    if let Some(c) = graph.get(id) {
                        lines.push(format!("  {}", describe(c)));
                    }
                }
                for (id, shared) in &added.upstream {
                    lines.push(format!(
                        "  reads {}, an output of {id}",
                        safe_text(shared, 500)
                    ));
                }
            }
            save(&graph, &path)?;
            for line in lines {
                outln!("{line}");
            }
            Ok(0)
        }
        GraphCommand::Conjecture {
            statement,
            evidence,
            args,
        } => {
            let _lock = lock_graph(&path, "graph conjecture", wait)?;
            let mut graph = load_or_new(&path, args.title.clone())?;
            let request = record_request(&graph, statement, args)?;
            let id = graph
                .conjecture(request, &evidence)
                .map_err(|e| Error::Usage(e.to_string()))?
                .id
                .clone();
            save(&graph, &path)?;
            outln!("{id}");
            Ok(0)
        }
        GraphCommand::Record {
            statement,
            method,
            args,
        } => {
            let _lock = lock_graph(&path, "graph record", wait)?;
            let mut graph = load_or_new(&path, args.title.clone())?;
            let mut request = record_request(&graph, statement, args)?;
            request.method = Some(method);
            let id = graph
                .record(request)
                .map_err(|e| Error::Usage(e.to_string()))?
                .id
                .clone();
            save(&graph, &path)?;
            outln!("{id}");
            Ok(0)
        }
        GraphCommand::Verify {
            no_mark_refuted,
            tolerance,
            format,
        } => {
            let _lock = lock_graph(&path, "graph verify", wait)?;
            let mut graph = load(&path)?;
            let options = VerifyOptions {
                tolerance,
                mark_refuted: !no_mark_refuted,
                checked_at: now(),
                base: graph_dir(&path),
            };
            let progress = crate::progress_for(format == VerifyFormat::Text);
            // Outcomes are written as they are decided (a large graph's report is never held
            // in memory); the graph is saved afterwards.
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::new(stdout.lock());
            let mut failed = None;
            let mut first = true;
            // A failed write (a closed pipe) does not stop the re-verification: its outcomes
            // are still saved in the graph, and the write error is reported afterwards.
            let mut write = |out: &mut dyn std::io::Write, text: &str| {
                let text = sciproof_core::escape::terminal::terminal_guard(text);
                if failed.is_none()
                    && let Err(e) = out.write_all(text.as_bytes())
                {
                    failed = Some(e);
                }
            };
            match format {
                VerifyFormat::Markdown => write(
                    &mut out,
                    "### Re-verification (sciproof)\n\n| Claim | Outcome | Check | Detail |\n| --- | --- | --- | --- |\n",
                ),
                VerifyFormat::Json => write(
                    &mut out,
                    &format!(
                        "{{\n  \"checked_at\": \"{}\",\n  \"outcomes\": [",
                        options.checked_at
                    ),
                ),
                VerifyFormat::Text => {}
            }
            let summary = graph.verify_each(&options, progress.as_ref(), &mut |o| {
                let line = match format {
                    VerifyFormat::Markdown => format!(
                        "| `{}` | `{}` | {} | {} |\n",
                        o.claim_id,
                        o.outcome.as_str(),
                        sciproof_core::escape::markdown::code(&o.kind),
                        sciproof_core::escape::markdown::text(&o.detail)
                    ),
                    VerifyFormat::Json => {
                        let item = Value::Object(
                            Object::new()
                                .with("claim_id", o.claim_id.as_str())
                                .with("outcome", o.outcome.as_str())
                                .with("kind", o.kind.as_str())
                                .with("detail", o.detail.as_str()),
                        );
                        let mut text = String::from(if first { "\n    " } else { ",\n    " });
                        first = false;
                        sciproof_core::json::write_value(
                            &mut text,
                            &item,
                            Some(2),
                            sciproof_core::json::Style::ASCII,
                        );
                        text
                    }
                    VerifyFormat::Text if o.outcome == Outcome::Skipped && o.kind == "none" => {
                        String::new()
                    }
                    VerifyFormat::Text => format!(
                        "{}  {:<12} {:<18} {}\n",
                        o.claim_id,
                        o.outcome.as_str(),
                        safe_text(&o.kind, 40),
                        safe_text(&o.detail, 400)
                    ),
                };
                write(&mut out, &line);
            });
            let repr: Vec<String> = summary.iter().map(|(k, v)| format!("'{k}': {v}")).collect();
            let repr = format!("{{{}}}", repr.join(", "));
            let ok = !summary.contains_key("failed");
            match format {
                VerifyFormat::Markdown => write(&mut out, &format!("\nSummary: {repr}\n")),
                VerifyFormat::Text => write(&mut out, &format!("summary: {repr}\n")),
                VerifyFormat::Json => {
                    let mut counts = Object::new();
                    for (k, v) in &summary {
                        counts.insert(*k, *v);
                    }
                    let mut text = String::from(if first { "],\n" } else { "\n  ],\n" });
                    text.push_str(&format!(
                        "  \"ok\": {},\n  \"summary\": ",
                        if ok { "true" } else { "false" }
                    ));
                    sciproof_core::json::write_value(
                        &mut text,
                        &Value::Object(counts),
                        Some(1),
                        sciproof_core::json::Style::ASCII,
                    );
                    text.push_str("\n}\n");
                    write(&mut out, &text);
                }
            }
            if let Err(e) = std::io::Write::flush(&mut out) {
                failed.get_or_insert(e);
            }
            drop(out);
            save(&graph, &path)?;
            if let Some(e) = failed {
                crate::output::fail(&e);
            }
            Ok(if summary.contains_key("failed") {
                1
            } else if summary.contains_key("inconclusive") {
                2
            } else {
                0
            })
        }
        GraphCommand::Show {
            format,
            body_only,
            stable,
            no_derivations,
        } => {
            let graph = load(&path)?;
            match format {
                // Documents are streamed: a graph of a million claims is never rendered whole.
                ShowFormat::Markdown => {
                    let mut out = crate::output::Writer::new();
                    markdown::render_to(
                        &graph,
                        markdown::MarkdownOptions {
                            derivations: !no_derivations,
                            ..Default::default()
                        },
                        &mut |piece| out.put(piece),
                    );
                    out.finish();
                }
                ShowFormat::Latex => {
                    let mut out = crate::output::Writer::new();
                    latex::render_to(&graph, !body_only, !no_derivations, &mut |piece| {
                        out.put(piece)
                    });
                    out.finish();
                }
                ShowFormat::Json => {
                    let mut out = crate::output::Writer::new();
                    graph.write_json(
                        Form {
                            pretty: true,
                            stable,
                        },
                        &mut |piece| out.put(piece),
                    );
                    out.put("\n");
                    out.finish();
                }
            }
            Ok(0)
        }
        GraphCommand::Impact { id, format } => query(&path, &id, format, ClaimGraph::impact),
        GraphCommand::Ancestors { id, format } => query(&path, &id, format, ClaimGraph::ancestors),
        GraphCommand::Dependents { id, format } => {
            query(&path, &id, format, ClaimGraph::dependents)
        }
        GraphCommand::Dependencies { id, format } => {
            query(&path, &id, format, ClaimGraph::dependencies)
        }
        GraphCommand::ByStatus { status, format } => {
            let graph = load(&path)?;
            print_claims(&graph.by_status(&status), format);
            Ok(0)
        }
        GraphCommand::ByTag { tag, format } => {
            let graph = load(&path)?;
            print_claims(&graph.by_tag(&tag), format);
            Ok(0)
        }
        GraphCommand::ByMethod { method, format } => {
            let graph = load(&path)?;
            print_claims(&graph.by_method(&method), format);
            Ok(0)
        }
        GraphCommand::MachineCheckable { format } => {
            let graph = load(&path)?;
            print_claims(&graph.machine_checkable(), format);
            Ok(0)
        }
        GraphCommand::TopologicalOrder { format } => {
            let graph = load(&path)?;
            print_claims(&graph.topological_order(), format);
            Ok(0)
        }
        GraphCommand::Merge { other } => {
            let _lock = lock_graph(&path, "graph merge", wait)?;
            let graph = load_or_new(&path, None)?;
            let theirs = load(&other)?;
            let before = graph.len();
            let merged = graph.merge(&theirs).map_err(|e| {
                Error::Usage(format!(
                    "{}: {e}",
                    safe_text(&other.display().to_string(), 500)
                ))
            })?;
            save(&merged, &path)?;
            outln!(
                "merged {} claims of {}: {} new, {} already here (their statuses kept)",
                theirs.len(),
                safe_text(&other.display().to_string(), 500),
                merged.len() - before,
                theirs.len() - (merged.len() - before)
            );
            Ok(0)
        }
        GraphCommand::Roots { format } => {
            let graph = load(&path)?;
            print_claims(&graph.roots(), format);
            Ok(0)
        }
        GraphCommand::Leaves { format } => {
            let graph = load(&path)?;
            print_claims(&graph.leaves(), format);
            Ok(0)
        }
        GraphCommand::Summary { format } => {
            let graph = load(&path)?;
            let checked = graph.machine_checkable().len();
            match format {
                ListFormat::Text => {
                    for (status, count) in graph.summary() {
                        outln!("{status:<22} {count}");
                    }
                    outln!(
                        "machine-checkable: {checked} of {} claims; everything else is recorded evidence and must not be read as proved",
                        graph.len()
                    );
                }
                ListFormat::Json => {
                    let mut counts = Object::new();
                    for (k, v) in graph.summary() {
                        counts.insert(k, v);
                    }
                    let doc = Object::new()
                        .with("claims", graph.len())
                        .with("machine_checkable", checked)
                        .with("by_status", counts)
                        .with("digest", graph.digest());
                    outln!(
                        "{}",
                        sciproof_core::json::to_string_pretty(&Value::Object(doc))
                    );
                }
            }
            Ok(0)
        }
        GraphCommand::Digest => {
            outln!("{}", load(&path)?.digest());
            Ok(0)
        }
        GraphCommand::Diff { old, new, format } => {
            let a = load(&old)?;
            let b = load(&new)?;
            let d = sciproof_core::graph::compare::diff(&a, &b);
            match format {
                ListFormat::Json => {
                    outln!("{}", sciproof_core::json::to_string_pretty(&d.to_json()))
                }
                ListFormat::Text => {
                    if d.is_empty() {
                        outln!("no differences in claims, statuses or dependencies");
                    }
                    for id in &d.added {
                        outln!("added    {}", b.get(id).map(describe).unwrap_or_default());
                    }
                    for id in &d.removed {
                        outln!("removed  {}", a.get(id).map(describe).unwrap_or_default());
                    }
                    for c in &d.status_changed {
                        outln!("status   {}  {} -> {}", c.id, c.old, c.new);
                    }
                    for id in &d.edges_changed {
                        outln!("edges    {id}  dependencies changed");
                    }
                }
            }
            Ok(if d.is_empty() { 0 } else { 1 })
        }
    }
}
