//! The strict JSON reader, every way it builds a document: the tree and the tape accept and
//! refuse the same texts with the same messages, and hold the same value (every object's
//! members, in document order and sorted by key, and the count of values); the stream reader
//! accepts what the tree accepts, with the same items, and hands over the same items with the
//! same first error whether it parses them itself or on worker threads in small batches, or
//! takes objects straight from their text with the scanner (which reads an object's canonical
//! text exactly as the tree gives it, or declines).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let tree = sciproof_core::json::parse(text);
    let tape = sciproof_core::json::tape::Tape::parse(text.to_string());
    match (tree, tape) {
        (Ok(tree), Ok(tape)) => {
            assert_eq!(
                sciproof_core::json::to_string_compact(&tape.root().to_value()),
                sciproof_core::json::to_string_compact(&tree)
            );
            assert_eq!(tape.values(), sorted_members_agree(tape.root()));
        }
        (Err(a), Err(b)) => assert_eq!(a, b),
        (a, b) => panic!(
            "the readers disagree: {:?} / {:?}",
            a.err(),
            b.err().map(|e| e.to_string())
        ),
    }
    let stream = sciproof_core::json::stream::parse_reader;
    // The stream reader accepts what the tree accepts, and its items are the array's.
    let mut items = Vec::new();
    let whole = stream(data, "claims", &mut |v| {
        items.push(sciproof_core::json::to_string_compact(&v));
        Ok(())
    });
    match (sciproof_core::json::parse(text), whole) {
        (Ok(tree), Ok(_)) => {
            if let sciproof_core::json::Value::Object(tree) = &tree
                && let Some(sciproof_core::json::Value::Array(claims)) = tree.get("claims")
            {
                let claims: Vec<String> = claims
                    .iter()
                    .map(sciproof_core::json::to_string_compact)
                    .collect();
                assert_eq!(claims, items, "the stream reader cuts other items");
            }
        }
        (Err(_), Err(_)) => {}
        (a, b) => panic!(
            "the tree and the stream disagree: {:?} / {:?}",
            a.err(),
            b.err()
        ),
    }
    // The scanner reads the canonical text of an object exactly as the tree gives it, or
    // declines where the tree refuses the text.
    let mut scanner = sciproof_core::json::scan::Scanner::new(text, 0);
    let scanned = scanner.compact().filter(|_| scanner.at_end());
    match sciproof_core::json::parse(text) {
        Ok(sciproof_core::json::Value::Object(o)) => assert_eq!(
            scanned.as_ref().map(|c| c.text()),
            Some(sciproof_core::json::Compact::from_object(&o).text()),
            "the scanner reads another object"
        ),
        _ => assert!(scanned.is_none(), "the scanner reads what the tree refuses"),
    }
    let mut one = Vec::new();
    let sequential = stream(data, "claims", &mut |v| {
        one.push(shown(&v));
        if one.len() == 7 {
            Err("the hook refuses the seventh item".into())
        } else {
            Ok(())
        }
    });
    let mut two = Vec::new();
    let batch = 1 + usize::from(data.first().copied().unwrap_or(0) % 64);
    let mapped = sciproof_core::json::stream::parse_reader_batched(
        data,
        "claims",
        batch,
        &|v, i| format!("{i}:{}", shown(&v)),
        // (objects straight from their text, as `map` would show them)
        &|t, i| {
            let mut scanner = sciproof_core::json::scan::Scanner::new(t, 2);
            let compact = scanner.compact().filter(|_| scanner.at_end())?;
            Some(format!("{i}:{}", compact.text()))
        },
        &mut |item| {
            two.push(item);
            if two.len() == 7 {
                Err("the hook refuses the seventh item".into())
            } else {
                Ok(())
            }
        },
    );
    let numbered: Vec<String> = one
        .iter()
        .enumerate()
        .map(|(i, s)| format!("{i}:{s}"))
        .collect();
    assert_eq!(
        numbered, two,
        "the stream readers hand over different items"
    );
    match (sequential, mapped) {
        // (as text: NaN is not equal to itself)
        (Ok(a), Ok(b)) => assert_eq!(
            sciproof_core::json::to_string_compact(&a),
            sciproof_core::json::to_string_compact(&b)
        ),
        (Err(a), Err(b)) => assert_eq!(a, b),
        (a, b) => panic!("the stream readers disagree: {a:?} / {b:?}"),
    }
});

/// An item as the stream test shows it: an object as its canonical compact text, anything else
/// compact.
fn shown(v: &sciproof_core::json::Value) -> String {
    match v {
        sciproof_core::json::Value::Object(o) => sciproof_core::json::Compact::from_object(o)
            .text()
            .to_string(),
        v => sciproof_core::json::to_string_compact(v),
    }
}

/// Checks that every object's sorted members are its members sorted by key; returns how many
/// values `item` holds (itself included, keys not).
fn sorted_members_agree(item: sciproof_core::json::tape::Item<'_>) -> u64 {
    let mut members: Vec<_> = item.members().collect();
    members.sort_by(|a, b| a.0.cmp(&b.0));
    let sorted = item.sorted_members();
    assert_eq!(sorted.len(), members.len());
    for ((key, value), (sorted_key, sorted_value)) in members.iter().zip(sorted.iter()) {
        assert_eq!(&**key, sorted_key);
        assert_eq!(
            sciproof_core::json::to_string_compact(&value.to_value()),
            sciproof_core::json::to_string_compact(&sorted_value.to_value())
        );
    }
    1 + item
        .items()
        .chain(members.into_iter().map(|m| m.1))
        .map(sorted_members_agree)
        .sum::<u64>()
}
