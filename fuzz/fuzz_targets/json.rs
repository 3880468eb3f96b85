//! The strict JSON reader, every way it builds a document: the tree and the tape accept and
//! refuse the same texts with the same messages, and hold the same value; the stream reader
//! hands over the same items with the same first error whether it parses them itself or on
//! worker threads in small batches.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let tree = sciproof_core::json::parse(text);
    let tape = sciproof_core::json::tape::Tape::parse(text.to_string());
    match (tree, tape) {
        (Ok(tree), Ok(tape)) => assert_eq!(
            sciproof_core::json::to_string_compact(&tape.root().to_value()),
            sciproof_core::json::to_string_compact(&tree)
        ),
        (Err(a), Err(b)) => assert_eq!(a, b),
        (a, b) => panic!("the readers disagree: {:?} / {:?}", a.err(), b.err().map(|e| e.to_string())),
    }
    let stream = sciproof_core::json::stream::parse_reader;
    let mut one = Vec::new();
    let sequential = stream(data, "claims", &mut |v| {
        one.push(sciproof_core::json::to_string_compact(&v));
        if one.len() == 7 { Err("the hook refuses the seventh item".into()) } else { Ok(()) }
    });
    let mut two = Vec::new();
    let batch = 1 + usize::from(data.first().copied().unwrap_or(0) % 64);
    let mapped = sciproof_core::json::stream::parse_reader_batched(
        data,
        "claims",
        batch,
        &|v, i| format!("{i}:{}", sciproof_core::json::to_string_compact(&v)),
        &mut |item| {
            two.push(item);
            if two.len() == 7 { Err("the hook refuses the seventh item".into()) } else { Ok(()) }
        },
    );
    let numbered: Vec<String> = one.iter().enumerate().map(|(i, s)| format!("{i}:{s}")).collect();
    assert_eq!(numbered, two, "the stream readers hand over different items");
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
