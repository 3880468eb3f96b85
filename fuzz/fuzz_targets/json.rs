//! The strict JSON reader, both ways it builds a document: the tree and the tape accept and
//! refuse the same texts with the same messages, and hold the same value.
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
});
