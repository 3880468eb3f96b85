//! An object kept as its canonical compact text instead of a tree of values.
//!
//! A claim graph of a million claims holds millions of small free-form objects (verification
//! mappings, provenance, recipes, audit entries); as [`Value`] trees they cost about four times
//! their text. [`Compact`] stores the text `json.dumps(obj, sort_keys=True,
//! ensure_ascii=False)` writes, parses it on demand, and re-indents it for the pretty form
//! without parsing. Because the text is canonical (sorted keys, Python float repr), equal
//! objects have equal text.

use super::{Object, Style, Value, newline, parse, write_object};

/// A JSON object stored as canonical compact text.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Compact(Box<str>);

impl Compact {
    /// The canonical text of `object`.
    pub fn from_object(object: &Object) -> Compact {
        let mut text = String::new();
        write_object(&mut text, object, None, Style::SORTED_RAW);
        // Exactly sized: a million claims hold millions of these.
        Compact(text.into_boxed_str())
    }

    /// `{}`.
    pub fn empty() -> Compact {
        Compact("{}".into())
    }

    /// Whether the object has no keys.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty() || &*self.0 == "{}"
    }

    /// The object (parsed from the text, which this type only ever holds valid).
    pub fn object(&self) -> Object {
        match parse(self.text()) {
            Ok(Value::Object(o)) => o,
            _ => Object::new(),
        }
    }

    /// The value under `key`.
    pub fn get(&self, key: &str) -> Option<Value> {
        match parse(self.text()) {
            Ok(Value::Object(mut o)) => o.remove(key),
            _ => None,
        }
    }

    /// The compact text (`{"a": 1, "b": [2, 3]}`).
    pub fn text(&self) -> &str {
        if self.0.is_empty() { "{}" } else { &self.0 }
    }

    /// Appends the `indent=2` form, the object starting at nesting `level`, exactly as
    /// [`write_object`] would write it (the compact text is re-indented, not parsed).
    pub fn write_pretty(&self, out: &mut String, level: usize) {
        let bytes = self.text().as_bytes();
        let mut depth = level;
        let mut in_string = false;
        let mut escaped = false;
        let mut i = 0;
        let mut run = 0;
        while i < bytes.len() {
            let b = bytes[i];
            if in_string {
                if escaped {
                    escaped = false;
                } else if b == b'\\' {
                    escaped = true;
                } else if b == b'"' {
                    in_string = false;
                }
                i += 1;
                continue;
            }
            match b {
                b'"' => {
                    in_string = true;
                    i += 1;
                }
                b'{' | b'[' => {
                    let close = if b == b'{' { b'}' } else { b']' };
                    if bytes.get(i + 1) == Some(&close) {
                        i += 2;
                        continue;
                    }
                    out.push_str(&self.text()[run..=i]);
                    depth += 1;
                    newline(out, depth);
                    i += 1;
                    run = i;
                }
                b',' => {
                    out.push_str(&self.text()[run..=i]);
                    newline(out, depth);
                    i += 2; // ", "
                    run = i;
                }
                b'}' | b']' => {
                    out.push_str(&self.text()[run..i]);
                    depth -= 1;
                    newline(out, depth);
                    run = i;
                    i += 1;
                }
                _ => i += 1,
            }
        }
        out.push_str(&self.text()[run..]);
    }
}

impl From<&Object> for Compact {
    fn from(object: &Object) -> Compact {
        Compact::from_object(object)
    }
}

impl From<Object> for Compact {
    fn from(object: Object) -> Compact {
        Compact::from_object(&object)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reindenting_equals_writing_pretty() {
        for text in [
            r#"{"b": [1, {"x": "a, b: [c]", "y": []}, {}], "a": {"q": [[], [1]]}, "c": "\"{,}\\"}"#,
            "{}",
            r#"{"k": 1e-08}"#,
        ] {
            let Value::Object(o) = parse(text).unwrap() else {
                panic!()
            };
            let c = Compact::from_object(&o);
            for level in [0, 2] {
                let mut expected = String::new();
                write_object(&mut expected, &o, Some(level), Style::SORTED_RAW);
                let mut got = String::new();
                c.write_pretty(&mut got, level);
                assert_eq!(got, expected);
            }
            assert_eq!(Compact::from_object(&c.object()), c);
        }
    }
}
