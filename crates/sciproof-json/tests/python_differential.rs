//! Differential test against the real peer: Python's `json.loads` (the reference tools read every
//! document with it). Thousands of small documents, most of them broken, go through both readers:
//!
//! - where Python refuses, we refuse with its message, line, column and character place;
//! - where Python reads, we read the same value, or refuse with one of our own documented
//!   refusals (a lone surrogate, a repeated key), never another error;
//! - where Python refuses a document that also holds one of our own refusals, ours is placed no
//!   later than Python's error.
//!
//! Needs `python3` (3.11, which the test command's environment provides).

use std::io::Write;
use std::process::{Command, Stdio};

use sciproof_json::{Style, Value, parse, write_value};

/// Pieces documents are made of: structure, literals, numbers, escapes and surrogate halves.
const TOKENS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ":",
    ",",
    " ",
    "\n",
    "\"",
    "\\",
    "\\u",
    "d800",
    "dc00",
    "0041",
    "12",
    "\\ud800",
    "\\udc00",
    "\\n",
    "\\q",
    "\"a\"",
    "\"a\": ",
    "1",
    "-",
    "0",
    ".5",
    "e3",
    "E-",
    "true",
    "nul",
    "NaN",
    "-Infinity",
    "é",
    "\u{1}",
    "\t",
    "x",
];

/// Documents Python reads, to be broken in small ways.
const SOUND: &[&str] = &[
    r#"{"a": [1, 2.5, -3e2], "b": {"c": null, "d": true}, "e": "x\ny"}"#,
    r#"["\ud83d\ude00", "\u00e9", "\\", "\/", 0, -0.0, 1E+2]"#,
    r#"{"claims": [{"id": "c1", "depends_on": []}, {"id": "c2", "depends_on": ["c1"]}]}"#,
    "[[], {}, [[{}]], \"\", 123456789012345678901234567890]",
];

/// A small deterministic generator (xorshift64*), so that a failure is the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn documents() -> Vec<String> {
    let mut rng = Rng(0x5C1_9700F);
    let mut docs = Vec::new();
    for _ in 0..20_000 {
        let mut doc = String::new();
        if rng.below(2) == 0 {
            for _ in 0..1 + rng.below(12) {
                doc.push_str(TOKENS[rng.below(TOKENS.len())]);
            }
        } else {
            doc.push_str(SOUND[rng.below(SOUND.len())]);
            for _ in 0..1 + rng.below(3) {
                let places: Vec<usize> = (0..=doc.len())
                    .filter(|&i| doc.is_char_boundary(i))
                    .collect();
                let at = places[rng.below(places.len())];
                match rng.below(3) {
                    0 => doc.truncate(at),
                    1 => doc.insert_str(at, TOKENS[rng.below(TOKENS.len())]),
                    _ => {
                        if let Some(c) = doc[at..].chars().next() {
                            doc.replace_range(at..at + c.len_utf8(), "");
                        }
                    }
                }
            }
        }
        docs.push(doc);
    }
    docs
}

/// Python's verdict on each document: `Ok(value as JSON with sorted keys)` or `Err(message)`.
fn python_verdicts(docs: &[String]) -> Vec<Result<String, String>> {
    let script = r#"
import json, sys
for line in sys.stdin:
    text = bytes.fromhex(line.strip()).decode("utf-8")
    try:
        value = json.loads(text)
    except json.JSONDecodeError as e:
        print(json.dumps({"err": str(e)}))
    else:
        print(json.dumps({"ok": json.dumps(value, sort_keys=True, ensure_ascii=True)}))
"#;
    let mut child = Command::new("python3")
        .args(["-c", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs (the test command's environment provides Python 3.11)");
    let mut input = String::new();
    for doc in docs {
        for b in doc.bytes() {
            input.push_str(&format!("{b:02x}"));
        }
        input.push('\n');
    }
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()).unwrap());
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(out.status.success(), "python3 failed");
    let text = String::from_utf8(out.stdout).unwrap();
    let verdicts: Vec<_> = text
        .lines()
        .map(|line| {
            let Ok(Value::Object(o)) = parse(line) else {
                panic!("python wrote {line}")
            };
            match (o.get("ok"), o.get("err")) {
                (Some(Value::String(v)), _) => Ok(v.to_string()),
                (_, Some(Value::String(e))) => Err(e.to_string()),
                _ => panic!("python wrote {line}"),
            }
        })
        .collect();
    assert_eq!(verdicts.len(), docs.len());
    verdicts
}

fn char_place(message: &str) -> usize {
    let (_, tail) = message.rsplit_once("(char ").expect("a place");
    tail.trim_end_matches(')')
        .parse()
        .unwrap_or_else(|_| panic!("no place in {message:?}"))
}

fn is_own_refusal(message: &str) -> bool {
    message.starts_with("lone surrogate") || message.starts_with("duplicate object key")
}

#[test]
fn documents_are_read_and_refused_as_python_reads_and_refuses_them() {
    let docs = documents();
    let verdicts = python_verdicts(&docs);
    let (mut refused, mut read) = (0, 0);
    for (doc, verdict) in docs.iter().zip(&verdicts) {
        let ours = parse(doc);
        match (verdict, ours) {
            (Err(theirs), Err(ours)) => {
                refused += 1;
                if is_own_refusal(&ours.message) {
                    assert!(
                        ours.offset <= char_place(theirs),
                        "{doc:?}: ours {ours:?} is after Python's {theirs:?}"
                    );
                } else {
                    assert_eq!(&ours.to_string(), theirs, "{doc:?}");
                }
            }
            (Err(theirs), Ok(value)) => {
                panic!("{doc:?}: Python refuses ({theirs}), we read {value:?}")
            }
            (Ok(theirs), Err(ours)) => {
                assert!(
                    is_own_refusal(&ours.message),
                    "{doc:?}: Python reads {theirs}, we refuse: {ours}"
                );
            }
            (Ok(theirs), Ok(ours)) => {
                read += 1;
                let again = python_value_of(&ours);
                assert_eq!(&again, theirs, "{doc:?}");
            }
        }
    }
    // (the generator reaches both sides, or the test proves nothing)
    assert!(
        refused > 10_000 && read > 500,
        "refused {refused}, read {read}"
    );
}

/// Our value written as Python's `json.dumps(value, sort_keys=True, ensure_ascii=True)` writes
/// it, for the comparison of what both read.
fn python_value_of(value: &Value) -> String {
    let mut out = String::new();
    let style = Style {
        sort_keys: true,
        ..Style::ASCII
    };
    write_value(&mut out, value, None, style);
    out
}
