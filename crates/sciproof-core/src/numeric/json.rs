//! JSON outputs: parsed strictly (no repeated keys, exact integers, Python's `NaN`/`Infinity`)
//! and compared structurally. Locations are `$.key[0]`; an object also has a `#keys` leaf (its
//! sorted keys) and a list a `#len` leaf. Where the structures differ, the difference is
//! reported and the comparison goes on with what still lines up (the keys both objects have,
//! the first elements of two lists of different lengths).
//!
//! Documents are read onto a [`Tape`] (the text and 12 bytes per array or object: about 1.1
//! times the file's size for an array of records, instead of about 27 times as a tree of
//! values), and an object's members are matched by one merge of its sorted keys with the
//! other's (20 bytes a member while the object is compared).

use super::NumericError;
use super::diff::{Collector, Difference, Kind, Shown};
use super::rule::compare_values;
use super::stats::{Comparison, Group, GroupBy, Measured, Statistics, identical};
use super::value::{Scalar, short};
use crate::json::tape::{self, Item, Tape};
use crate::pyfmt::is_py_space;
use num_bigint::BigInt;
use std::sync::atomic::{AtomicBool, Ordering};

/// JSON documents larger than this are refused (they are parsed whole; CSV, TSV and `.npy` are
/// streamed and have no limit).
pub const MAX_JSON_BYTES: u64 = 256 * 1024 * 1024;

/// Reads and parses a JSON output (bounded: never a FIFO, never more than the limit). `name` is
/// the file name used in messages.
pub fn load(path: &std::path::Path, name: &str) -> Result<Tape, NumericError> {
    let bytes = crate::untrusted::read_limited(
        path,
        crate::untrusted::Kind::NumericJson,
        crate::untrusted::Links::Follow,
        MAX_JSON_BYTES,
    )
    .map_err(|e| match e.problem {
        crate::untrusted::Problem::TooLarge(_) => NumericError(format!(
            "{name} is larger than the JSON comparison limit ({} MiB); CSV, TSV and .npy files have no limit",
            MAX_JSON_BYTES >> 20
        )),
        crate::untrusted::Problem::Io(reason) => NumericError(format!("cannot read {name}: {reason}")),
        _ => NumericError(format!("cannot read {name}: {e}")),
    })?;
    parse(bytes, name)
}

/// Parses JSON bytes with the messages of the reference.
pub fn parse(bytes: Vec<u8>, name: &str) -> Result<Tape, NumericError> {
    super::utf8(&bytes, name)?;
    let text = String::from_utf8(bytes).unwrap_or_default();
    if text.starts_with('\u{feff}') {
        return Err(NumericError(format!(
            "{name} is not valid JSON: Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)"
        )));
    }
    Tape::parse(text).map_err(|e| NumericError(format!("{name} is not valid JSON: {e}")))
}

/// The leaf value of a JSON scalar; `None` for an object or a list (not a single value).
pub fn scalar(v: Item<'_>) -> Option<Scalar> {
    Some(match v.kind() {
        tape::Kind::Null => Scalar::Null,
        tape::Kind::Bool(b) => Scalar::Bool(b),
        tape::Kind::Int(text) => Scalar::Int(text.parse::<BigInt>().unwrap_or_default()),
        tape::Kind::Float(f) => Scalar::Float(f),
        tape::Kind::Str(s) => Scalar::Str(s.into_owned()),
        tape::Kind::Array | tape::Kind::Object => return None,
    })
}

/// An object's keys, sorted (code points, as Python sorts strings), as a leaf value.
fn keys_of(members: &tape::Sorted<'_>) -> Scalar {
    Scalar::Keys(members.keys().map(str::to_string).collect())
}

fn describe(v: Item<'_>) -> String {
    match v.kind() {
        tape::Kind::Object => format!(
            "an object with keys {}",
            short(keys_of(&v.sorted_members()).repr(), 60)
        ),
        tape::Kind::Array => format!("a list of {} values", v.len()),
        _ => short(scalar(v).map(|s| s.repr()).unwrap_or_default(), 60),
    }
}

/// Where a value is: a chain of steps from the root, rendered (`$.a[3].b`) only when a
/// difference or a largest error needs it; most values of a rerun are identical and never do.
#[derive(Clone, Copy)]
enum Step<'a> {
    Root,
    Key(&'a Step<'a>, &'a str),
    Index(&'a Step<'a>, usize),
}

impl Step<'_> {
    fn render(&self) -> String {
        match self {
            Step::Root => "$".to_string(),
            Step::Key(parent, key) => format!("{}.{key}", parent.render()),
            Step::Index(parent, i) => format!("{}[{i}]", parent.render()),
        }
    }
}

/// One key path (`$.history[*].loss`): its children, and its group of statistics once a value
/// was seen there.
struct PathNode {
    name: String,
    keys: std::collections::HashMap<String, usize>,
    items: Option<usize>,
    group: Option<usize>,
}

/// The statistics of a document, grouped by key path (list indices as `[*]`): a tree of key
/// paths, so that a value finds its group without building its path.
struct KeyPaths {
    nodes: Vec<PathNode>,
    stats: Statistics,
    /// The node every key path after the first [`KEY_PATHS`] shares, once there is one.
    beyond: Option<usize>,
}

/// Key paths after this many share one node and one group of statistics, so that an object of
/// a million keys cannot make a million groups (each with its name, its tally and its
/// locations: about half a kilobyte a key), as columns do from the 10,000th on.
const KEY_PATHS: usize = 10_000;

impl KeyPaths {
    fn new() -> Self {
        KeyPaths {
            nodes: vec![PathNode::named("$".into())],
            stats: Statistics::new(GroupBy::KeyPath),
            beyond: None,
        }
    }

    /// The node of the key paths after the first [`KEY_PATHS`] (and of everything below them).
    fn beyond(&mut self) -> usize {
        *self.beyond.get_or_insert_with(|| {
            self.nodes.push(PathNode::named(format!(
                "key paths after the first {KEY_PATHS}"
            )));
            self.nodes.len() - 1
        })
    }

    fn key(&mut self, node: usize, key: &str) -> usize {
        if let Some(&child) = self.nodes[node].keys.get(key) {
            return child;
        }
        if self.beyond == Some(node) || self.nodes.len() >= KEY_PATHS {
            return self.beyond();
        }
        let child = self.nodes.len();
        let name = format!("{}.{key}", self.nodes[node].name);
        self.nodes.push(PathNode::named(name));
        self.nodes[node].keys.insert(key.to_string(), child);
        child
    }

    fn items(&mut self, node: usize) -> usize {
        if let Some(child) = self.nodes[node].items {
            return child;
        }
        if self.beyond == Some(node) || self.nodes.len() >= KEY_PATHS {
            return self.beyond();
        }
        let child = self.nodes.len();
        let name = format!("{}[*]", self.nodes[node].name);
        self.nodes.push(PathNode::named(name));
        self.nodes[node].items = Some(child);
        child
    }

    fn group(&mut self, node: usize) -> &mut Group {
        let i = match self.nodes[node].group {
            Some(i) => i,
            None => {
                let i = self.stats.groups.len();
                self.stats
                    .groups
                    .push(Group::new(self.nodes[node].name.clone()));
                self.nodes[node].group = Some(i);
                i
            }
        };
        &mut self.stats.groups[i]
    }
}

impl PathNode {
    fn named(name: String) -> Self {
        PathNode {
            name,
            keys: std::collections::HashMap::new(),
            items: None,
            group: None,
        }
    }
}

/// What a walk compares with: the tolerance, and where differences and statistics go.
struct Walk<'a> {
    rtol: f64,
    atol: f64,
    out: &'a mut Collector,
    paths: &'a mut KeyPaths,
    /// Set when the comparison is to stop (see [`super::format::Pair::stop`]); looked at
    /// every 4,096 values.
    stop: Option<&'a AtomicBool>,
    values: u64,
    stopped: bool,
}

impl Walk<'_> {
    /// Counts one more value; whether the walk is to stop.
    fn stops(&mut self) -> bool {
        self.values += 1;
        if self.values.is_multiple_of(4096) && self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
        {
            self.stopped = true;
        }
        self.stopped
    }
}

/// Compares `e` and `a` at `at`, whose key path is the node `node`.
fn walk(at: &Step<'_>, node: usize, e: Item<'_>, a: Item<'_>, w: &mut Walk<'_>) {
    if w.stops() {
        return;
    }
    let (rtol, atol) = (w.rtol, w.atol);
    match (e.kind(), a.kind()) {
        (tape::Kind::Object, tape::Kind::Object) => {
            let em = e.sorted_members();
            let am = a.sorted_members();
            let same_keys = em.len() == am.len() && em.keys().eq(am.keys());
            if !same_keys
                && let Some(d) = compare_values(
                    &format!("{}#keys", at.render()),
                    &keys_of(&em),
                    &keys_of(&am),
                    rtol,
                    atol,
                )
            {
                w.out.push(d);
            }
            // The keys both have, in sorted order: one merge of the two sorted lists.
            let mut j = 0;
            for i in 0..em.len() {
                let key = em.key(i);
                while j < am.len() && am.key(j) < key {
                    j += 1;
                }
                if j < am.len() && am.key(j) == key {
                    let child = w.paths.key(node, key);
                    walk(&Step::Key(at, key), child, em.value(i), am.value(j), w);
                }
            }
        }
        (tape::Kind::Array, tape::Kind::Array) => {
            if e.len() != a.len() {
                let (le, la) = (
                    Scalar::Int(BigInt::from(e.len())),
                    Scalar::Int(BigInt::from(a.len())),
                );
                let location = format!("{}#len", at.render());
                if let Some(d) = compare_values(&location, &le, &la, rtol, atol) {
                    w.out.push(d);
                }
            }
            let items = w.paths.items(node);
            for (i, (ev, av)) in e.items().zip(a.items()).enumerate() {
                walk(&Step::Index(at, i), items, ev, av, w);
            }
        }
        _ => match (scalar(e), scalar(a)) {
            (Some(se), Some(sa)) => {
                if identical(&se, &sa) {
                    w.paths.group(node).same(1);
                    return;
                }
                let location = at.render();
                let d = compare_values(&location, &se, &sa, rtol, atol);
                let m = Measured::scalars(&se, &sa, rtol, atol, d.is_some());
                w.paths.group(node).differ(m, || location.clone());
                if let Some(d) = d {
                    w.out.push(d);
                }
            }
            _ => {
                let location = at.render();
                w.out.push(Difference {
                    kind: Kind::Structure,
                    location: Some(location.clone()),
                    recorded: Shown::Text(describe(e)),
                    found: Shown::Text(describe(a)),
                    abs_diff: None,
                    rel_diff: None,
                    allowed: None,
                    message: format!(
                        "structure differs at {location}: recorded {}, found {}",
                        describe(e),
                        describe(a)
                    ),
                })
            }
        },
    }
}

/// Compares a recorded and a found document.
pub fn compare(recorded: &Tape, found: &Tape, rtol: f64, atol: f64) -> Comparison {
    compare_until(recorded, found, rtol, atol, None).expect("nothing asks it to stop")
}

/// [`compare`], which stops (with [`NumericError::stopped`]) once `stop` is set.
fn compare_until(
    recorded: &Tape,
    found: &Tape,
    rtol: f64,
    atol: f64,
    stop: Option<&AtomicBool>,
) -> Result<Comparison, NumericError> {
    let mut out = Collector::new();
    let mut paths = KeyPaths::new();
    let mut w = Walk {
        rtol,
        atol,
        out: &mut out,
        paths: &mut paths,
        stop,
        values: 0,
        stopped: false,
    };
    walk(&Step::Root, 0, recorded.root(), found.root(), &mut w);
    if w.stopped {
        return Err(NumericError::stopped());
    }
    let (ne, na) = (recorded.values(), found.values());
    let prefix = if ne != na {
        vec![Difference::plain(
            Kind::Structure,
            None,
            format!("structure differs: {ne} values recorded, {na} found"),
        )]
    } else {
        Vec::new()
    };
    Ok(Comparison {
        differences: out.finish(prefix),
        statistics: paths.stats,
    })
}

/// The leaves of a document as `(location, value)`, in order (for claims).
pub fn leaves(tape: &Tape) -> Vec<(String, Scalar)> {
    fn rec(location: String, v: Item<'_>, out: &mut Vec<(String, Scalar)>) {
        match v.kind() {
            tape::Kind::Object => {
                let members = v.sorted_members();
                out.push((format!("{location}#keys"), keys_of(&members)));
                for (k, child) in members.iter() {
                    rec(format!("{location}.{k}"), child, out);
                }
            }
            tape::Kind::Array => {
                out.push((
                    format!("{location}#len"),
                    Scalar::Int(BigInt::from(v.len())),
                ));
                for (i, child) in v.items().enumerate() {
                    rec(format!("{location}[{i}]"), child, out);
                }
            }
            _ => out.push((location, scalar(v).unwrap_or(Scalar::Null))),
        }
    }
    let mut out = Vec::new();
    rec("$".into(), tape.root(), &mut out);
    out
}

/// JSON documents (`.json`): compared as a whole, structurally.
pub struct Json;

impl super::format::NumericFormat for Json {
    fn suffixes(&self) -> &'static [&'static str] {
        &[".json"]
    }
    fn media_type(&self) -> &'static str {
        "application/json"
    }
    fn reference_reads_claims(&self) -> bool {
        true
    }
    fn validate(&self, path: &std::path::Path, name: &str) -> Result<(), NumericError> {
        load(path, name).map(|_| ())
    }
    fn compare(
        &self,
        pair: &super::format::Pair,
        rtol: f64,
        atol: f64,
    ) -> Result<Comparison, NumericError> {
        let stop = || {
            if pair.stopped() {
                Err(NumericError::stopped())
            } else {
                Ok(())
            }
        };
        let e = load(pair.recorded, pair.recorded_name)?;
        stop()?;
        let a = load(pair.found, pair.found_name)?;
        stop()?;
        compare_until(&e, &a, rtol, atol, pair.stop)
    }
    fn grouped_by(&self) -> GroupBy {
        GroupBy::KeyPath
    }
    fn valid_location(&self, location: &str) -> bool {
        is_json_location(location)
    }
    fn location_example(&self) -> &'static str {
        "$.key[0].name"
    }
    /// `$.key[0].name`: keys that contain dots cannot be addressed (`$.a.b` is key `b` of key
    /// `a`, never a key named `a.b`).
    fn value_at(
        &self,
        documents: &mut super::format::Documents,
        path: &std::path::Path,
        name: &str,
        location: &str,
    ) -> Result<Option<Scalar>, NumericError> {
        if !documents.json.contains_key(path) {
            let doc = load(path, name)?;
            documents.json.insert(path.to_path_buf(), doc);
        }
        let mut node = documents.json[path].root();
        for segment in segments(location).unwrap_or_default() {
            let next = match segment {
                Segment::Key(k) => node.get(k),
                Segment::Index(i) => node.index(i),
            };
            match next {
                Some(n) => node = n,
                None => return Ok(None),
            }
        }
        Ok(scalar(node))
    }
    /// An RFC 6901 `tree` pointer.
    fn address(&self, location: &str) -> Option<crate::json::Object> {
        let mut pointer = String::new();
        let mut rest = location.strip_prefix('$')?;
        while !rest.is_empty() {
            if let Some(after) = rest.strip_prefix('.') {
                let end = after.find(['.', '[']).unwrap_or(after.len());
                pointer.push('/');
                pointer.push_str(&after[..end].replace('~', "~0").replace('/', "~1"));
                rest = &after[end..];
            } else if let Some(after) = rest.strip_prefix('[') {
                let end = after.find(']')?;
                pointer.push('/');
                pointer.push_str(&after[..end]);
                rest = &after[end + 1..];
            } else {
                return None;
            }
        }
        Some(
            crate::json::Object::new()
                .with("contract", 1i64)
                .with("kind", "tree")
                .with("pointer", pointer),
        )
    }
}

/// One step of a location.
enum Segment<'a> {
    Key(&'a str),
    Index(usize),
}

fn segments(location: &str) -> Option<Vec<Segment<'_>>> {
    let mut rest = location.strip_prefix('$')?;
    let mut out = Vec::new();
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('.') {
            let end = after.find(['.', '[']).unwrap_or(after.len());
            out.push(Segment::Key(&after[..end]));
            rest = &after[end..];
        } else if let Some(after) = rest.strip_prefix('[') {
            let end = after.find(']')?;
            out.push(Segment::Index(after[..end].parse().ok()?));
            rest = &after[end + 1..];
        } else {
            return None;
        }
    }
    Some(out)
}

/// `^\$(?:\.[^\s\[\]\.#]+|\[\d+\])*$`: the location syntax of JSON claims.
fn is_json_location(location: &str) -> bool {
    let Some(mut rest) = location.strip_prefix('$') else {
        return false;
    };
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('.') {
            let end = after
                .find(|c: char| is_py_space(c) || matches!(c, '[' | ']' | '.' | '#'))
                .unwrap_or(after.len());
            if end == 0 {
                return false;
            }
            rest = &after[end..];
        } else if let Some(after) = rest.strip_prefix('[') {
            let end = after
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(after.len());
            if end == 0 || !after[end..].starts_with(']') {
                return false;
            }
            rest = &after[end + 1..];
        } else {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmp(e: &str, a: &str) -> Vec<String> {
        let pe = Tape::parse(e.to_string()).unwrap();
        let pa = Tape::parse(a.to_string()).unwrap();
        compare(&pe, &pa, 1e-9, 0.0)
            .differences
            .into_iter()
            .map(|d| d.message)
            .collect()
    }

    #[test]
    fn key_paths_after_the_first_ten_thousand_share_one_group() {
        // An object of 25,000 keys, each holding a list of one object (more paths below the
        // shared node), one value differing beyond the tolerance far past the cap.
        let doc = |odd: usize, value: &str| {
            let members: Vec<String> = (0..25_000)
                .map(|i| {
                    let v = if i == odd { value } else { "1.5" };
                    format!("\"k{i}\": [{{\"x\": {v}}}]")
                })
                .collect();
            Tape::parse(format!("{{{}}}", members.join(", "))).unwrap()
        };
        let c = compare(&doc(20_000, "1.5"), &doc(20_000, "2.5"), 1e-9, 0.0);
        let s = &c.statistics;
        assert!(s.groups.len() <= KEY_PATHS, "{} groups", s.groups.len());
        let last = s.groups.last().unwrap();
        assert_eq!(last.name, "key paths after the first 10000");
        let all = s.total();
        assert_eq!((all.values, all.outside), (25_000, 1));
        assert_eq!(last.outside, 1);
        assert!(!c.is_equivalent());
        assert!(
            c.differences[0].message.contains("$.k20000[0].x"),
            "{}",
            c.differences[0].message
        );
    }

    #[test]
    fn json_key_sets_must_match_and_key_order_does_not_matter() {
        assert!(cmp(r#"{"a": 1, "b": 2}"#, r#"{"b": 2, "a": 1}"#).is_empty());
        assert_eq!(
            cmp(
                r#"{"acc": 0.9, "n": 1}"#,
                r#"{"acc": 0.5, "extra": 1, "n": 1}"#
            ),
            [
                "structure differs: 3 values recorded, 4 found",
                "$#keys: recorded ['acc', 'n'], found ['acc', 'extra', 'n']",
                "$.acc: recorded 0.9, found 0.5 (rtol=1e-09, atol=0.0)",
            ]
        );
    }

    #[test]
    fn json_lists_length_and_order_matter_and_comparison_goes_on() {
        assert_eq!(
            cmp("[1, 2]", "[2, 1]"),
            ["$[0]: recorded 1, found 2", "$[1]: recorded 2, found 1"]
        );
        assert_eq!(
            cmp("[1.0, 2.0, 3.0]", "[1.5, 2.0]"),
            [
                "structure differs: 4 values recorded, 3 found",
                "$#len: recorded 3, found 2",
                "$[0]: recorded 1.0, found 1.5 (rtol=1e-09, atol=0.0)"
            ]
        );
    }

    #[test]
    fn json_structure_mismatch_is_reported_at_its_place() {
        assert_eq!(
            cmp(r#"{"a": {"x": 1}, "b": 1.0}"#, r#"{"a": 3, "b": 2.0}"#),
            [
                "structure differs: 4 values recorded, 3 found",
                "structure differs at $.a: recorded an object with keys ['x'], found 3",
                "$.b: recorded 1.0, found 2.0 (rtol=1e-09, atol=0.0)",
            ]
        );
    }

    #[test]
    fn a_walk_asked_to_stop_stops_within_4096_values() {
        let stop = AtomicBool::new(true);
        let small = Tape::parse("[1, 2]".to_string()).unwrap();
        assert!(compare_until(&small, &small, 1e-9, 0.0, Some(&stop)).is_ok());
        let big = Tape::parse(format!("[{}]", vec!["{\"a\": [1.5]}"; 1400].join(","))).unwrap();
        assert_eq!(
            compare_until(&big, &big, 1e-9, 0.0, Some(&stop)).unwrap_err(),
            NumericError::stopped()
        );
        stop.store(false, Ordering::Relaxed);
        assert!(compare_until(&big, &big, 1e-9, 0.0, Some(&stop)).is_ok());
    }

    #[test]
    fn at_most_ten_differences_then_a_summary() {
        let e: Vec<String> = (0..25).map(|i| format!("{i}.0")).collect();
        let a: Vec<String> = (0..25).map(|i| format!("{i}.5")).collect();
        let out = cmp(&format!("[{}]", e.join(",")), &format!("[{}]", a.join(",")));
        assert_eq!(out.len(), 11);
        assert_eq!(out[10], "... and 15 more differences (25 in all)");
    }

    #[test]
    fn keys_with_dots_are_kept_verbatim_in_locations() {
        let leaves = leaves(&Tape::parse(r#"{"a.b": 1, "": 2}"#.to_string()).unwrap());
        let locations: Vec<&str> = leaves.iter().map(|(l, _)| l.as_str()).collect();
        assert_eq!(locations, ["$#keys", "$.", "$.a.b"]);
    }

    #[test]
    fn bom_and_invalid_json_are_errors() {
        assert!(
            parse(b"\xef\xbb\xbf{}".to_vec(), "j.json")
                .err()
                .unwrap()
                .0
                .contains("Unexpected UTF-8 BOM")
        );
        assert_eq!(
            parse(b"{\"a\": 1} x".to_vec(), "j.json").err().unwrap().0,
            "j.json is not valid JSON: Extra data: line 1 column 10 (char 9)"
        );
        assert!(
            parse(b"{\"a\": 1, \"a\": 2}".to_vec(), "dup.json")
                .err()
                .unwrap()
                .0
                .starts_with("dup.json is not valid JSON: duplicate object key 'a'")
        );
        assert!(
            parse(b"[".repeat(100_000), "deep.json")
                .err()
                .unwrap()
                .0
                .contains("nesting deeper than")
        );
    }
}
