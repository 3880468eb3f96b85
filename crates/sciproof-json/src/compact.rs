//! An object kept as its canonical compact text instead of a tree of values.
//!
//! A claim graph of a million claims holds millions of small free-form objects (verification
//! mappings, provenance, recipes, audit entries); as [`Value`] trees they cost about four times
//! their text. [`Compact`] stores the text `json.dumps(obj, sort_keys=True,
//! ensure_ascii=False)` writes, parses it on demand, and re-indents it for the pretty form
//! without parsing. Because the text is canonical (sorted keys, Python float repr), equal
//! objects have equal text.

use super::{Object, Style, Value, newline, parse, write_object, write_str};

/// A JSON object stored as canonical compact text (`{}` held as no text at all, which
/// allocates nothing).
#[derive(Debug, Clone, Eq, Default)]
pub struct Compact(Box<str>);

impl PartialEq for Compact {
    fn eq(&self, other: &Compact) -> bool {
        self.text() == other.text()
    }
}

impl Compact {
    /// The canonical text of `object`.
    pub fn from_object(object: &Object) -> Compact {
        // Written into this thread's scratch text and copied out exactly sized (a million
        // claims hold millions of these): one allocation, where a text grown from nothing took
        // five or six.
        thread_local! {
            static SCRATCH: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
        }
        SCRATCH.with_borrow_mut(|text| {
            text.clear();
            write_object(text, object, None, Style::SORTED_RAW);
            let compact = Compact(Box::from(text.as_str()));
            if text.capacity() > 1 << 16 {
                // (a rare large object does not stay with the thread)
                *text = String::new();
            }
            compact
        })
    }

    /// An object's canonical text, known to be one (written by [`crate::scan::Scanner`]),
    /// copied exactly sized.
    pub(crate) fn from_canonical(text: &str) -> Compact {
        Compact(Box::from(text))
    }

    /// The canonical text of an object whose values are all strings (an audit entry, say),
    /// written without building the object. A key given twice keeps its last value, as
    /// [`Object::insert`] would.
    pub fn from_strings(pairs: &mut [(&str, &str)]) -> Compact {
        // (stable: of a repeated key, the last given stays last)
        pairs.sort_by(|a, b| a.0.cmp(b.0));
        let size: usize = pairs.iter().map(|(k, v)| k.len() + v.len() + 8).sum();
        let mut text = String::with_capacity(size + 2);
        text.push('{');
        let mut first = true;
        for (i, (key, value)) in pairs.iter().enumerate() {
            if pairs.get(i + 1).is_some_and(|next| next.0 == *key) {
                continue;
            }
            if !first {
                text.push_str(", ");
            }
            first = false;
            write_str(&mut text, key, false);
            text.push_str(": ");
            write_str(&mut text, value, false);
        }
        text.push('}');
        Compact(text.into_boxed_str())
    }

    /// `{}`.
    pub fn empty() -> Compact {
        Compact::default()
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
        let mut i = 0;
        let mut run = 0;
        while i < bytes.len() {
            if in_string {
                // (to the string's end in one search; an escape is two bytes, `\u` and its
                // digits being plain text after it)
                match memchr::memchr2(b'"', b'\\', &bytes[i..]) {
                    Some(k) if bytes[i + k] == b'\\' => i += k + 2,
                    Some(k) => {
                        in_string = false;
                        i += k + 1;
                    }
                    None => i = bytes.len(),
                }
                continue;
            }
            let b = bytes[i];
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
    fn the_empty_object_is_one_whatever_its_making() {
        let written = Compact::from_object(&Object::new());
        for empty in [Compact::empty(), Compact::default(), written] {
            assert_eq!(empty, Compact::empty());
            assert!(empty.is_empty());
            assert_eq!(empty.text(), "{}");
            assert_eq!(empty.object(), Object::new());
            let mut pretty = String::new();
            empty.write_pretty(&mut pretty, 1);
            assert_eq!(pretty, "{}");
        }
        assert_ne!(Compact::empty(), Compact::from_strings(&mut [("a", "b")]));
    }

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

    /// Objects in any key order (keys from a small alphabet, so that orders vary), with
    /// numbers of every form, strings that need escapes, and nesting.
    fn object_text() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just("null".to_string()),
            Just("-0".to_string()),
            Just("1E5".to_string()),
            Just("NaN".to_string()),
            any::<i64>().prop_map(|i| i.to_string()),
            "[1-9][0-9]{20,30}",
            any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(|f| format!("{f:e}")),
            "[a-z\\\\\"\\u{e9}\\u{1},:{}\\[\\] ]{0,5}"
                .prop_map(|s| crate::to_string_compact(&Value::String(s))),
        ];
        let value = leaf.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4)
                    .prop_map(|v| format!("[{}]", v.join(", "))),
                members(inner),
            ]
        });
        members(value.boxed())
    }

    /// An object of `value`s under distinct keys, in the order generated.
    fn members(
        value: impl proptest::strategy::Strategy<Value = String>,
    ) -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        proptest::collection::vec(("[a-c]{0,2}", value), 0..5).prop_map(|pairs| {
            let mut seen = std::collections::HashSet::new();
            let members: Vec<String> = pairs
                .into_iter()
                .filter(|(k, _)| seen.insert(k.clone()))
                .map(|(k, v)| format!("\"{k}\": {v}"))
                .collect();
            format!("{{{}}}", members.join(", "))
        })
    }

    proptest::proptest! {
        /// An object whose keys are sorted all the way down is the object its canonical text
        /// parses back to; a canonical text always parses to such an object.
        #[test]
        fn a_deeply_sorted_object_is_its_canonical_texts_object(text in object_text()) {
            let Value::Object(o) = parse(&text).unwrap() else { panic!("{text}") };
            let back = Compact::from_object(&o).object();
            proptest::prop_assert!(back.is_sorted_deep());
            if o.is_sorted_deep() {
                // (NaN is not equal to itself: compared through the text)
                proptest::prop_assert_eq!(
                    crate::to_string_compact(&Value::Object(back)),
                    crate::to_string_compact(&Value::Object(o))
                );
            }
        }

        /// The compact text re-indented is the object written pretty.
        #[test]
        fn reindenting_equals_writing_pretty_for_any_object(text in object_text(), level in 0usize..3) {
            let Value::Object(o) = parse(&text).unwrap() else { panic!("{text}") };
            let mut expected = String::new();
            write_object(&mut expected, &o, Some(level), Style::SORTED_RAW);
            let mut got = String::new();
            Compact::from_object(&o).write_pretty(&mut got, level);
            proptest::prop_assert_eq!(got, expected);
        }

        /// The canonical text of string pairs written directly is the one of the object they
        /// make, repeated keys included.
        #[test]
        fn strings_written_directly_as_through_an_object(
            pairs in proptest::collection::vec(("[a-c]{0,2}", "[a-z\\\\\"\\u{e9}\\u{1}]{0,4}"), 0..6)
        ) {
            let mut object = Object::new();
            for (k, v) in &pairs {
                object.insert(k.as_str(), v.as_str());
            }
            let mut borrowed: Vec<(&str, &str)> =
                pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
            proptest::prop_assert_eq!(
                Compact::from_strings(&mut borrowed),
                Compact::from_object(&object)
            );
        }
    }
}
