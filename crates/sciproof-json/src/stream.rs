//! Reading one large document from a stream without holding its text: the items of one array
//! member of the top-level object are cut out byte by byte and parsed one at a time.
//!
//! The cutter only tracks strings (with escapes) and bracket depth, so it is linear and never
//! recursive; every piece it cuts is then read by the strict [`super::parse`], so the rules
//! (duplicate keys, exact integers, nesting limit, UTF-8) are the same as for a whole-text
//! parse. Error positions are reported in the whole document.

use super::{JsonError, Value, parse};
use std::io::Read;

/// What a streamed read hands over per item.
pub type StreamHook<'h> = dyn FnMut(Value) -> Result<(), String> + 'h;

#[derive(Clone, Copy, PartialEq)]
enum Place {
    /// Outside the streamed array.
    Skeleton,
    /// Inside the streamed array, between items.
    Between,
    /// Inside an item.
    Item,
}

/// A place in the document: 1-based line, 1-based column and offset (both in bytes).
struct Position {
    line: usize,
    column: usize,
    chars: usize,
}

/// Counts lines incrementally over the bytes already passed, so positions cost nothing until
/// one is needed.
struct Lines {
    /// Newlines before `counted` (absolute offset).
    newlines: usize,
    counted: usize,
    /// Absolute offset just after the last newline counted.
    line_start: usize,
}

impl Lines {
    /// The position of absolute offset `at`, which lies in `buf` (whose first byte is at `base`).
    fn at(&mut self, buf: &[u8], base: usize, at: usize) -> Position {
        let from = self.counted.max(base) - base;
        let to = at - base;
        if to > from {
            for i in memchr::memchr_iter(b'\n', &buf[from..to]) {
                self.newlines += 1;
                self.line_start = base + from + i + 1;
            }
            self.counted = at;
        }
        Position {
            line: self.newlines + 1,
            column: at - self.line_start + 1,
            chars: at,
        }
    }
}

/// Bytes that change the cutter's state outside strings.
const STRUCTURAL: [bool; 256] = {
    let mut t = [false; 256];
    t[b'"' as usize] = true;
    t[b'{' as usize] = true;
    t[b'[' as usize] = true;
    t[b'}' as usize] = true;
    t[b']' as usize] = true;
    t[b',' as usize] = true;
    t
};

/// Reads a document from `reader` like [`super::parse`], except that the items of the array
/// stored under `key` in the top-level object go to `on_item` as they are read (the returned
/// document holds an empty array there). Memory is one item plus the rest of the document.
/// Positions in errors count bytes.
pub fn parse_reader(
    mut reader: impl Read,
    key: &str,
    on_item: &mut StreamHook<'_>,
) -> Result<Value, JsonError> {
    let mut skeleton: Vec<u8> = Vec::new();
    let mut item: Vec<u8> = Vec::new();
    let mut chunk = vec![0u8; 1 << 20];
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    let mut place = Place::Skeleton;
    // Key tracking at depth 1: the last string in key position.
    let mut expecting_key = false;
    let mut key_start: Option<usize> = None;
    let mut last_key: Option<String> = None;
    let mut lines = Lines {
        newlines: 0,
        counted: 0,
        line_start: 0,
    };
    let mut base = 0usize;
    let mut item_start = Position {
        line: 1,
        column: 1,
        chars: 0,
    };
    loop {
        let n = match reader.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                let at = lines.at(&chunk[..0], base, base);
                return Err(error(format!("cannot read: {e}"), &at));
            }
        };
        let buf = &chunk[..n];
        let mut i = 0;
        while i < n {
            let sink = if place == Place::Item {
                &mut item
            } else {
                &mut skeleton
            };
            if in_string {
                if escaped {
                    sink.push(buf[i]);
                    escaped = false;
                    i += 1;
                    continue;
                }
                match memchr::memchr2(b'"', b'\\', &buf[i..]) {
                    None => {
                        sink.extend_from_slice(&buf[i..]);
                        i = n;
                    }
                    Some(k) => {
                        let j = i + k;
                        sink.extend_from_slice(&buf[i..=j]);
                        i = j + 1;
                        if buf[j] == b'\\' {
                            escaped = true;
                        } else {
                            in_string = false;
                            if place == Place::Skeleton
                                && depth == 1
                                && let Some(start) = key_start.take()
                            {
                                last_key = key_text(&skeleton[start..]);
                            }
                        }
                    }
                }
                continue;
            }
            match place {
                Place::Item => {
                    // Copy up to the next structural byte in one go.
                    let k = buf[i..].iter().position(|&b| STRUCTURAL[b as usize]);
                    let Some(k) = k else {
                        item.extend_from_slice(&buf[i..]);
                        i = n;
                        continue;
                    };
                    let j = i + k;
                    let b = buf[j];
                    if depth == 2 && matches!(b, b',' | b']') {
                        item.extend_from_slice(&buf[i..j]);
                        finish(&mut item, &item_start, on_item)?;
                        if b == b']' {
                            depth -= 1;
                            place = Place::Skeleton;
                        } else {
                            place = Place::Between;
                        }
                        i = j + 1;
                        continue;
                    }
                    item.extend_from_slice(&buf[i..=j]);
                    match b {
                        b'"' => in_string = true,
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => depth -= 1,
                        _ => {}
                    }
                    i = j + 1;
                }
                Place::Between => {
                    let b = buf[i];
                    match b {
                        b' ' | b'\t' | b'\n' | b'\r' | b',' => {}
                        b']' => {
                            depth -= 1;
                            place = Place::Skeleton;
                        }
                        _ => {
                            item_start = lines.at(buf, base, base + i);
                            place = Place::Item;
                            item.push(b);
                            match b {
                                b'"' => in_string = true,
                                b'{' | b'[' => depth += 1,
                                _ => {}
                            }
                        }
                    }
                    i += 1;
                }
                Place::Skeleton => {
                    let b = buf[i];
                    i += 1;
                    match b {
                        b'"' => {
                            in_string = true;
                            if depth == 1 && expecting_key {
                                key_start = Some(skeleton.len());
                                expecting_key = false;
                            }
                        }
                        b'{' | b'[' => {
                            if depth == 1 && b == b'[' && last_key.as_deref() == Some(key) {
                                last_key = None;
                                skeleton.extend_from_slice(b"[]");
                                place = Place::Between;
                                depth += 1;
                                continue;
                            }
                            depth += 1;
                            if depth == 1 && b == b'{' {
                                expecting_key = true;
                            }
                        }
                        b'}' | b']' => depth = depth.saturating_sub(1),
                        b',' if depth == 1 => {
                            expecting_key = true;
                            last_key = None;
                        }
                        _ => {}
                    }
                    skeleton.push(b);
                }
            }
        }
        lines.at(buf, base, base + n);
        base += n;
    }
    if place != Place::Skeleton {
        let at = lines.at(&chunk[..0], base, base);
        return Err(error("Expecting ',' delimiter".into(), &at));
    }
    let text = String::from_utf8(skeleton).map_err(|e| {
        let at = lines.at(&chunk[..0], base, base);
        error(
            format!(
                "not UTF-8 text (invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            ),
            &at,
        )
    })?;
    parse(&text)
}

fn error(message: String, at: &Position) -> JsonError {
    JsonError {
        message,
        line: at.line,
        column: at.column,
        offset: at.chars,
        detail: None,
    }
}

fn key_text(raw: &[u8]) -> Option<String> {
    let text = std::str::from_utf8(raw).ok()?;
    match parse(text) {
        Ok(Value::String(s)) => Some(s),
        _ => None,
    }
}

fn finish(
    item: &mut Vec<u8>,
    start: &Position,
    on_item: &mut StreamHook<'_>,
) -> Result<(), JsonError> {
    let taken = std::mem::take(item);
    let text = String::from_utf8(taken).map_err(|e| {
        error(
            format!(
                "not UTF-8 text (invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            ),
            start,
        )
    })?;
    let value = parse(&text).map_err(|mut e| {
        if e.line == 1 {
            e.column += start.column - 1;
        }
        e.line += start.line - 1;
        e.offset += start.chars;
        e
    })?;
    on_item(value).map_err(|message| error(message, start))?;
    // Keep the buffer's capacity for the next item.
    *item = text.into_bytes();
    item.clear();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str) -> Result<(Value, Vec<Value>), JsonError> {
        let mut items = Vec::new();
        let v = parse_reader(text.as_bytes(), "claims", &mut |v| {
            items.push(v);
            Ok(())
        })?;
        Ok((v, items))
    }

    #[test]
    fn cuts_items_out() {
        let (v, items) = run(
            r#"{"a": "claims", "claims": [{"x": "],[\"{"}, [1, [2]], 3 ], "z": {"claims": [9]}}"#,
        )
        .unwrap();
        assert_eq!(items.len(), 3);
        assert_eq!(crate::to_string_compact(&items[1]), "[1, [2]]");
        assert_eq!(
            crate::to_string_compact(&v),
            r#"{"a": "claims", "claims": [], "z": {"claims": [9]}}"#
        );
        let (_, items) = run(r#"{"claims": []}"#).unwrap();
        assert!(items.is_empty());
        let (_, items) = run("{\"cl\\u0061ims\": [1,2]}").unwrap();
        assert_eq!(items.len(), 2, "escaped key names the same member");
    }

    #[test]
    fn errors_are_placed_in_the_document() {
        let e = run("{\n  \"claims\": [\n    {\"a\": 1, \"a\": 2}\n  ]\n}").unwrap_err();
        assert_eq!((e.line, e.column), (3, 14), "{e}");
        assert!(run(r#"{"claims": [1, 2"#).is_err());
        assert!(
            run(r#"{"claims": [1], "claims": [2]}"#)
                .unwrap_err()
                .message
                .contains("claims")
        );
        assert!(run("[1, 2").is_err());
    }
}
