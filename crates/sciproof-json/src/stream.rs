//! Reading one large document from a stream without holding its text: the items of one array
//! member of the top-level object are cut out and parsed one at a time.
//!
//! The cutter only tracks strings (with escapes) and bracket depth, so it is linear and never
//! recursive (inside an item it skims sixty-four bytes at a time, see the `skim` module, and
//! looks at single bytes only where an item may end or a block holds a backslash); every piece
//! it cuts is then read by the strict [`super::parse`](fn@super::parse), so the rules (duplicate keys, exact
//! integers, nesting limit, UTF-8) are the same as for a whole-text parse. Error positions are
//! reported in the whole document.
//!
//! [`parse_reader_mapped`] cuts on the calling thread and parses (and maps) the pieces on one
//! worker per core, handing the results over in document order: on two cores a million-claim
//! graph loads in about two thirds of the time, with the same items, the same order and the
//! same first error.

use super::skim::{BLOCK, Skim, skim};
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

impl Position {
    /// The start of the document.
    fn origin() -> Position {
        Position {
            line: 1,
            column: 1,
            chars: 0,
        }
    }
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
            // (counted in one vectorised pass; only the last line break is placed)
            let stretch = &buf[from..to];
            let breaks = memchr::memchr_iter(b'\n', stretch).count();
            if breaks > 0 {
                self.newlines += breaks;
                let last = memchr::memrchr(b'\n', stretch).expect("a line break was counted");
                self.line_start = base + from + last + 1;
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

/// The offset of the first [`STRUCTURAL`] byte of `bytes`.
///
/// Most of a pretty-printed item outside its strings is indentation, which a byte at a time
/// takes a third of the cutter's time; on x86_64 sixteen bytes are compared with the six
/// structural ones at once (SSE2 is part of every x86_64 processor). `memchr` finds up to three
/// bytes, not six.
fn next_structural(bytes: &[u8]) -> Option<usize> {
    let mut i = 0;
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{
            __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128,
            _mm_set1_epi8,
        };
        // SAFETY: SSE2 is part of every x86_64 processor, and each load reads sixteen bytes
        // inside `bytes` (`i + 16 <= len`); an unaligned load has no other requirement.
        unsafe {
            let [quote, open, open_list, close, close_list, comma] =
                [b'"', b'{', b'[', b'}', b']', b','].map(|b| _mm_set1_epi8(b as i8));
            while i + 16 <= bytes.len() {
                let v = _mm_loadu_si128(bytes.as_ptr().add(i).cast::<__m128i>());
                let hits = _mm_or_si128(
                    _mm_or_si128(
                        _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, open)),
                        _mm_or_si128(_mm_cmpeq_epi8(v, open_list), _mm_cmpeq_epi8(v, close)),
                    ),
                    _mm_or_si128(_mm_cmpeq_epi8(v, close_list), _mm_cmpeq_epi8(v, comma)),
                );
                let mask = _mm_movemask_epi8(hits) as u32;
                if mask != 0 {
                    return Some(i + mask.trailing_zeros() as usize);
                }
                i += 16;
            }
        }
    }
    bytes[i..]
        .iter()
        .position(|&b| STRUCTURAL[b as usize])
        .map(|k| i + k)
}

/// Reads a document from `reader` like [`super::parse`](fn@super::parse), except that the items of the array
/// stored under `key` in the top-level object go to `on_item` as they are read (the returned
/// document holds an empty array there). Memory is one item plus the rest of the document.
/// Positions in errors count bytes.
pub fn parse_reader(
    reader: impl Read,
    key: &str,
    on_item: &mut StreamHook<'_>,
) -> Result<Value, JsonError> {
    cut(reader, key, &mut Vec::new(), &mut |item, start| {
        finish(item, start, on_item)
    })
}

/// How many bytes of items a worker of [`parse_reader_mapped`] gets at a time: large enough
/// that handing over costs nothing, small enough that the workers start at once.
const BATCH_BYTES: usize = 256 << 10;

/// Items cut out of the document, handed to a worker: their text one after another, where each
/// ends and where it starts in the document.
struct Batch {
    seq: usize,
    first: usize,
    text: Vec<u8>,
    cuts: Vec<(usize, Position)>,
}

/// What a worker made of a batch, in order: an item's start (for the hook's errors) and its
/// mapped value; an error ends the batch.
type Mapped<T> = (usize, Items<T>);

/// The items of one batch: where each started, and its mapped value or the error that ended
/// the batch.
type Items<T> = Vec<(Position, Result<T, JsonError>)>;

/// Where the cutter hands an item: the buffer whose tail it is, and where it started.
type Emit<'e> = dyn FnMut(&mut Vec<u8>, Position) -> Result<(), JsonError> + 'e;

/// The stack of each worker of [`parse_reader_mapped`]. `map` is the caller's and may recurse
/// deeply: a claim's expression recipe at alkahest's nesting limit of 2048 levels needs about
/// 3 MiB in a release build and several times that in a debug one, more than the 2 MiB a
/// thread gets by default. Untouched stack is address space only, not memory.
pub const WORKER_STACK: usize = 32 << 20;

/// [`parse_reader`] with the items parsed and turned into `T` by `map` (given the item and its
/// index) on worker threads, one per available core, while this thread cuts the next ones.
/// `quick` is given each item's text first and may make the `T` straight from it (a caller
/// that knows the items' shape need not build their values); it must give what `map` gives
/// for the item's value, or `None`, and then the item is parsed and mapped. (It is tried on
/// the workers only: a document read on this thread is parsed whole, items included.)
/// `on_item` still sees every item in document order, and the first error in document order
/// is the one returned, exactly as [`parse_reader`] would return it. A document of `size`
/// bytes (0 when unknown) below [`PARALLEL_FROM`] is read on this thread: starting the
/// workers would cost more than they save.
pub fn parse_reader_mapped<T: Send>(
    reader: impl Read,
    key: &str,
    size: u64,
    map: &(dyn Fn(Value, usize) -> T + Sync),
    quick: &Quick<'_, T>,
    on_item: &mut dyn FnMut(T) -> Result<(), String>,
) -> Result<Value, JsonError> {
    if size < PARALLEL_FROM {
        return mapped_here(reader, key, map, on_item);
    }
    parse_reader_batched(reader, key, BATCH_BYTES, map, quick, on_item)
}

/// What [`parse_reader_mapped`] tries first on an item's text (and its index).
pub type Quick<'q, T> = dyn Fn(&str, usize) -> Option<T> + Sync + 'q;

/// The size from which [`parse_reader_mapped`] uses worker threads.
pub const PARALLEL_FROM: u64 = 1 << 20;

/// [`parse_reader_mapped`] on this thread alone.
fn mapped_here<T>(
    reader: impl Read,
    key: &str,
    map: &(dyn Fn(Value, usize) -> T + Sync),
    on_item: &mut dyn FnMut(T) -> Result<(), String>,
) -> Result<Value, JsonError> {
    let mut index = 0;
    parse_reader(reader, key, &mut |value| {
        index += 1;
        on_item(map(value, index - 1))
    })
}

/// [`parse_reader_mapped`] handing the workers batches of about `batch_bytes` (for tests and
/// fuzzing, which need many batches from small documents).
#[doc(hidden)]
pub fn parse_reader_batched<T: Send>(
    reader: impl Read,
    key: &str,
    batch_bytes: usize,
    map: &(dyn Fn(Value, usize) -> T + Sync),
    quick: &Quick<'_, T>,
    on_item: &mut dyn FnMut(T) -> Result<(), String>,
) -> Result<Value, JsonError> {
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    if workers < 2 {
        return mapped_here(reader, key, map, on_item);
    }
    let (work, queue) = std::sync::mpsc::sync_channel::<Batch>(2 * workers);
    let queue = std::sync::Mutex::new(queue);
    let (done, results) = std::sync::mpsc::channel::<Mapped<T>>();
    let stop = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| {
        let mut threads = Vec::with_capacity(workers);
        for _ in 0..workers {
            let (queue, done, stop) = (&queue, done.clone(), &stop);
            let worker = std::thread::Builder::new()
                .name("json-reader".into())
                .stack_size(WORKER_STACK);
            threads.push(
                worker
                    .spawn_scoped(scope, move || {
                        loop {
                            let next = queue.lock().map(|q| q.recv());
                            let Ok(Ok(batch)) = next else { break };
                            if stop.load(std::sync::atomic::Ordering::Relaxed) {
                                continue;
                            }
                            if done
                                .send((batch.seq, map_batch(batch, map, quick)))
                                .is_err()
                            {
                                break;
                            }
                        }
                    })
                    .expect("a reader worker thread starts"),
            );
        }
        drop(done);
        let mut ordered = InOrder {
            next: 1,
            waiting: std::collections::BTreeMap::new(),
            results,
            on_item,
            failed: false,
        };
        let mut batch = Batch {
            seq: 1,
            first: 0,
            text: Vec::new(),
            cuts: Vec::new(),
        };
        let mut sent = 0;
        let mut count = 0;
        let mut item = Vec::with_capacity(batch_bytes + batch_bytes / 4);
        let outcome = cut(reader, key, &mut item, &mut |item, start| {
            count += 1;
            batch.cuts.push((item.len(), start));
            if item.len() >= batch_bytes {
                sent += 1;
                let next = Batch {
                    seq: sent + 1,
                    first: count,
                    text: Vec::new(),
                    cuts: Vec::new(),
                };
                let mut full = std::mem::replace(&mut batch, next);
                full.text =
                    std::mem::replace(item, Vec::with_capacity(batch_bytes + batch_bytes / 4));
                let _ = work.send(full);
                ordered.ready()?;
            }
            Ok(())
        });
        // The last items, then everything in order; an error of the cutter comes after the
        // items before it, as in a sequential read.
        if !batch.cuts.is_empty() {
            sent += 1;
            batch.text = item;
            let _ = work.send(batch);
        }
        drop(work);
        let outcome = ordered.until(sent).and(outcome);
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        // Joined here, not only waited for by the scope: a joined thread has also finished
        // its exit (its thread-local data freed), so nothing of a read outlives it.
        for thread in threads {
            if let Err(panic) = thread.join() {
                std::panic::resume_unwind(panic);
            }
        }
        outcome
    })
}

/// Parses and maps the items of one batch.
fn map_batch<T>(
    batch: Batch,
    map: &(dyn Fn(Value, usize) -> T + Sync),
    quick: &Quick<'_, T>,
) -> Items<T> {
    let mut out = Vec::with_capacity(batch.cuts.len());
    let mut from = 0;
    for (i, (end, start)) in batch.cuts.into_iter().enumerate() {
        let bytes = &batch.text[from..end];
        from = end;
        let index = batch.first + i;
        let parsed = match std::str::from_utf8(bytes)
            .ok()
            .and_then(|t| quick(t, index))
        {
            Some(mapped) => Ok(mapped),
            None => item_value(bytes, &start).map(|value| map(value, index)),
        };
        let failed = parsed.is_err();
        out.push((start, parsed));
        if failed {
            break;
        }
    }
    out
}

/// Hands the mapped batches to the hook in document order; after an error, nothing more.
struct InOrder<'h, T> {
    next: usize,
    waiting: std::collections::BTreeMap<usize, Items<T>>,
    results: std::sync::mpsc::Receiver<Mapped<T>>,
    on_item: &'h mut dyn FnMut(T) -> Result<(), String>,
    failed: bool,
}

impl<T> InOrder<'_, T> {
    /// Hands over the batches that are ready, in order.
    fn hand_over(&mut self) -> Result<(), JsonError> {
        while !self.failed
            && let Some(items) = self.waiting.remove(&self.next)
        {
            self.next += 1;
            for (start, item) in items {
                let handed = item.and_then(|item| {
                    (self.on_item)(item).map_err(|message| error(message, &start))
                });
                if handed.is_err() {
                    self.failed = true;
                    return handed;
                }
            }
        }
        Ok(())
    }

    /// Hands over what has arrived so far, without waiting.
    fn ready(&mut self) -> Result<(), JsonError> {
        while let Ok((seq, items)) = self.results.try_recv() {
            self.waiting.insert(seq, items);
        }
        self.hand_over()
    }

    /// Hands over every batch up to number `last`, waiting for them.
    fn until(&mut self, last: usize) -> Result<(), JsonError> {
        self.hand_over()?;
        while !self.failed && self.next <= last {
            let Ok((seq, items)) = self.results.recv() else {
                break;
            };
            self.waiting.insert(seq, items);
            self.hand_over()?;
        }
        Ok(())
    }
}

/// Cuts the items of the array under `key` out of the document read from `reader`, handing
/// each to `emit` with its start (the item is the tail of the buffer `emit` gets, which `emit`
/// may keep or empty), and parses the rest.
fn cut(
    mut reader: impl Read,
    key: &str,
    item: &mut Vec<u8>,
    emit: &mut Emit<'_>,
) -> Result<Value, JsonError> {
    let mut skeleton: Vec<u8> = Vec::new();
    let mut chunk = vec![0u8; 1 << 20];
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    let mut place = Place::Skeleton;
    // Whether the streamed array's last separator was a comma (so a value must follow).
    let mut after_comma = false;
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
    let mut item_start = Position::origin();
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
        // Inside an item, bytes before this offset are taken one at a time, not skimmed.
        let mut by_byte_until = 0;
        // An item's bytes are copied when it ends or the chunk does, in one piece: `buf[from..]`
        // is the part of the current item not copied yet.
        let mut from = 0;
        while i < n {
            if in_string {
                let sink = (place != Place::Item).then_some(&mut skeleton);
                if escaped {
                    if let Some(sink) = sink {
                        sink.push(buf[i]);
                    }
                    escaped = false;
                    i += 1;
                    continue;
                }
                match memchr::memchr2(b'"', b'\\', &buf[i..]) {
                    None => {
                        if let Some(sink) = sink {
                            sink.extend_from_slice(&buf[i..]);
                        }
                        i = n;
                    }
                    Some(k) => {
                        let j = i + k;
                        if let Some(sink) = sink {
                            sink.extend_from_slice(&buf[i..=j]);
                        }
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
                    if i >= by_byte_until {
                        // (most of an item skimmed a block at a time, up to where the rules
                        // below must look at a byte: see `skim`)
                        match skim(&buf[i..], &mut depth, &mut in_string) {
                            Skim::Event(k) => i += k,
                            Skim::Escape(k) => {
                                i += k;
                                by_byte_until = i + BLOCK;
                            }
                            Skim::Short(k) => {
                                i += k;
                                by_byte_until = n;
                            }
                        }
                        if in_string {
                            continue;
                        }
                    }
                    let k = next_structural(&buf[i..]);
                    let Some(k) = k else {
                        i = n;
                        continue;
                    };
                    let j = i + k;
                    let b = buf[j];
                    if depth == 2 && matches!(b, b',' | b']') {
                        item.extend_from_slice(&buf[from..j]);
                        emit(item, std::mem::replace(&mut item_start, Position::origin()))?;
                        if b == b']' {
                            depth -= 1;
                            place = Place::Skeleton;
                        } else {
                            place = Place::Between;
                            after_comma = true;
                        }
                        i = j + 1;
                        continue;
                    }
                    if b == b'}' && depth == 2 {
                        // A brace after a scalar item (`[1}`): nothing it could close.
                        let at = lines.at(buf, base, base + j);
                        return Err(error("Expecting ',' delimiter".into(), &at));
                    }
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
                        b' ' | b'\t' | b'\n' | b'\r' => {}
                        // Between items only white space: a comma here follows `[` or another
                        // comma (`[,1]`, `[1,,2]`), a bracket here follows a comma (`[1,]`).
                        b',' => {
                            let at = lines.at(buf, base, base + i);
                            return Err(error("Expecting value".into(), &at));
                        }
                        b']' if after_comma => {
                            let at = lines.at(buf, base, base + i);
                            return Err(error("Expecting value".into(), &at));
                        }
                        b']' => {
                            depth -= 1;
                            place = Place::Skeleton;
                        }
                        _ => {
                            item_start = lines.at(buf, base, base + i);
                            place = Place::Item;
                            from = i;
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
                                after_comma = false;
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
        if place == Place::Item {
            item.extend_from_slice(&buf[from..]);
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

/// The value of one item's text, errors placed in the document.
fn item_value(bytes: &[u8], start: &Position) -> Result<Value, JsonError> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        error(
            format!(
                "not UTF-8 text (invalid byte at offset {})",
                e.valid_up_to()
            ),
            start,
        )
    })?;
    // (an item stands two levels deep: in the array, in the top-level object)
    crate::parse::parse_at_depth(text, 2).map_err(|mut e| {
        if e.line == 1 {
            e.column += start.column - 1;
        }
        e.line += start.line - 1;
        e.offset += start.chars;
        e
    })
}

fn finish(
    item: &mut Vec<u8>,
    start: Position,
    on_item: &mut StreamHook<'_>,
) -> Result<(), JsonError> {
    let value = item_value(item, &start)?;
    // Keep the buffer's capacity for the next item.
    item.clear();
    on_item(value).map_err(|message| error(message, &start))
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
    fn the_next_structural_byte_is_the_first_one() {
        // Every length up to three blocks, the structural byte at every place or none.
        for len in 0..48 {
            for at in 0..=len {
                for b in [b'"', b'{', b'[', b'}', b']', b',', b' '] {
                    let mut bytes = vec![b'a'; len];
                    bytes.iter_mut().step_by(3).for_each(|x| *x = b' ');
                    if at < len {
                        bytes[at] = b;
                    }
                    // (and a structural byte after it, which must not be the one found)
                    bytes.push(b',');
                    let expected = bytes.iter().position(|&x| STRUCTURAL[x as usize]);
                    assert_eq!(next_structural(&bytes), expected, "{len} {at} {b}");
                }
            }
        }
        let all: Vec<u8> = (0..=255).collect();
        assert_eq!(next_structural(&all), Some(usize::from(b'"')));
        assert_eq!(next_structural(&all[35..]), Some(usize::from(b',') - 35));
        assert_eq!(next_structural(b""), None);
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
    fn a_missing_item_is_refused_where_the_whole_text_refuses_it() {
        for text in [
            "{\"claims\": [,1]}",
            "{\"claims\": [ , ]}",
            "{\"claims\": [1,,2]}",
            "{\"claims\": [1,\n  \n,\n0]}",
            "{\"claims\": [1, ]}",
            "{\"claims\": [[], {},]}",
        ] {
            let whole = crate::parse(text).expect_err(text);
            let cut = run(text).expect_err(text);
            assert_eq!(
                (cut.message, cut.line, cut.column, cut.offset),
                (whole.message, whole.line, whole.column, whole.offset),
                "{text}"
            );
        }
        let (_, items) = run("{\"claims\": [ 1 , 2 ]}").unwrap();
        assert_eq!(items.len(), 2);
    }

    /// What [`parse_reader_mapped`] hands over, with the first error, next to
    /// [`parse_reader`]'s: they must agree.
    fn both_ways(text: &str, refuse: Option<usize>) {
        let hook = |seen: &mut Vec<String>, item: String| {
            if refuse == Some(seen.len()) {
                return Err(format!("refused item {}", seen.len()));
            }
            seen.push(item);
            Ok(())
        };
        let mut one = Vec::new();
        let sequential = parse_reader(text.as_bytes(), "claims", &mut |v| {
            hook(&mut one, crate::to_string_compact(&v))
        });
        let mut two = Vec::new();
        let mapped = parse_reader_mapped(
            text.as_bytes(),
            "claims",
            PARALLEL_FROM,
            &|v, i| format!("{i}:{}", crate::to_string_compact(&v)),
            // (an item `1` taken straight from its text, as `map` would give it)
            &|t, i| (t.trim() == "1").then(|| format!("{i}:1")),
            &mut |item| hook(&mut two, item),
        );
        let numbered: Vec<String> = one
            .iter()
            .enumerate()
            .map(|(i, s)| format!("{i}:{s}"))
            .collect();
        assert_eq!(numbered, two);
        match (sequential, mapped) {
            (Ok(a), Ok(b)) => assert_eq!(a, b),
            (Err(a), Err(b)) => assert_eq!(
                (a.message, a.line, a.column, a.offset),
                (b.message, b.line, b.column, b.offset)
            ),
            (a, b) => panic!("{a:?} against {b:?}"),
        }
    }

    #[test]
    fn mapped_on_workers_in_document_order() {
        // Items long enough that they go to the workers in many batches.
        let item = |i: usize| {
            format!(
                "{{\"n\": {i}, \"pad\": \"{}\"}}",
                "x".repeat((i * 7) % 3000)
            )
        };
        let items: Vec<String> = (0..2000).map(item).collect();
        let good = format!("{{\"claims\": [\n{}\n], \"z\": 1}}", items.join(",\n"));
        assert!(good.len() > 8 * BATCH_BYTES);
        both_ways(&good, None);
        // The first error wins wherever it is: a hook refusal, a bad item early or late
        // (another bad item after it), a structural error after good items.
        both_ways(&good, Some(1500));
        let bad = |at: usize, other: usize| {
            let mut items = items.clone();
            items[at] = "{\"a\": 1, \"a\": 2}".into();
            items[other] = "{\"b\": tru}".into();
            format!("{{\"claims\": [\n{}\n]}}", items.join(",\n"))
        };
        both_ways(&bad(3, 1999), None);
        both_ways(&bad(1700, 1800), None);
        both_ways(&bad(1700, 1800), Some(1699));
        both_ways(&bad(1700, 1800), Some(1701));
        both_ways(&format!("{{\"claims\": [\n{}\n", items.join(",\n")), None);
        both_ways(
            &format!("{{\"claims\": [\n{}\n]}} x", items.join(",\n")),
            Some(1999),
        );
        both_ways("{\"claims\": []}", None);
        both_ways("{\"claims\": [1, 2}}}]}", None);
        both_ways("{\"claims\": [1, 2, 3]}", Some(0));
    }

    /// A reader that hands out its text a few bytes at a time (the sizes cycling through
    /// `pieces`), so that every state of the cutter meets the end of a read.
    struct Trickle<'t> {
        text: &'t [u8],
        pieces: Vec<usize>,
        turn: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            let n = self.pieces[self.turn % self.pieces.len()]
                .min(out.len())
                .min(self.text.len());
            self.turn += 1;
            out[..n].copy_from_slice(&self.text[..n]);
            self.text = &self.text[n..];
            Ok(n)
        }
    }

    proptest::proptest! {
        /// Whatever the reads, the items and the rest are those of the whole document parsed
        /// at once, and an error is the same error.
        #[test]
        fn reads_of_any_size_cut_the_same(
            items in proptest::collection::vec(
                "[ \n]{0,2}(\\{\"[a-z\\\\\",\\]\\[{}]{0,6}\": \\[[0-9], \"[\\]\\\\,]{0,3}\"\\]\\}|[0-9]{1,3}|\"[,\\]\\[]{0,3}\"|\"(\\\\u[0d8c]{0,4}|\\\\|a){0,3}\"|\\[\\[\\], \\{\\}\\])[ \n]{0,2}",
                0..12,
            ),
            pieces in proptest::collection::vec(1usize..9, 1..5),
            broken in proptest::option::of(0usize..400),
        ) {
            let mut text = format!(
                "{{\"a\": [1, {{\"claims\": 2}}], \"claims\": [{}], \"z\": \"]\"}}",
                items.join(",")
            );
            if let Some(at) = broken {
                // (a byte dropped: most such documents are refused, at some place)
                let at = at % text.len();
                if text.is_char_boundary(at) && text.is_char_boundary(at + 1) {
                    text.remove(at);
                }
            }
            let whole = crate::parse(&text);
            let mut got = Vec::new();
            let cut = parse_reader(
                Trickle { text: text.as_bytes(), pieces, turn: 0 },
                "claims",
                &mut |v| {
                    got.push(v);
                    Ok(())
                },
            );
            match (whole, cut) {
                (Ok(Value::Object(mut whole)), Ok(Value::Object(mut rest))) => {
                    // (a dropped byte can leave a document without the array, whole)
                    if let Some(Value::Array(expected)) = whole.get("claims") {
                        proptest::prop_assert_eq!(&got, expected);
                        whole.remove("claims");
                        rest.remove("claims");
                    } else {
                        proptest::prop_assert!(got.is_empty());
                    }
                    proptest::prop_assert_eq!(rest, whole);
                }
                (Err(_), Err(cut)) => {
                    // (placed where one read of the whole document places it)
                    let at_once = parse_reader(text.as_bytes(), "claims", &mut |_| Ok(()))
                        .expect_err("refused either way");
                    proptest::prop_assert_eq!(
                        (cut.line, cut.column, cut.offset, &cut.message),
                        (at_once.line, at_once.column, at_once.offset, &at_once.message)
                    );
                }
                (whole, cut) => {
                    return Err(proptest::test_runner::TestCaseError::fail(format!(
                        "{text:?}: whole {whole:?}, cut {cut:?}"
                    )));
                }
            }
        }
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
        // A brace after a scalar item closes nothing: refused where it stands, as the
        // whole-text reader refuses it.
        // An item nests as deep as the whole document allows, counted from the top.
        for levels in [509, 510, 511, 512, 513] {
            let text = format!(
                "{{\"claims\": [1, {}{}]}}",
                "[".repeat(levels),
                "]".repeat(levels)
            );
            let whole = crate::parse(&text);
            let cut = run(&text);
            let batched = parse_reader_batched(
                text.as_bytes(),
                "claims",
                1,
                &|v, _| v,
                &|_, _| None,
                &mut |_| Ok(()),
            );
            assert_eq!(cut.as_ref().err(), whole.as_ref().err(), "{levels}");
            assert_eq!(batched.err(), whole.err(), "{levels}");
        }
        let e = run("{\"claims\": [1, 2}}}]}").unwrap_err();
        let whole = crate::parse("{\"claims\": [1, 2}}}]}").unwrap_err();
        assert_eq!(
            (e.message.as_str(), e.column),
            (whole.message.as_str(), whole.column)
        );
    }
}
