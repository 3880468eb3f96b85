//! Journals of the commit protocol (read when recovering): a journal or a reason, and never a
//! path outside the manifest's folder.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(journal) = sciproof_core::commit::journal::Journal::parse(text) {
        for aside in &journal.asides {
            assert!(sciproof_core::paths::validate_relative_path(&aside.path).is_ok());
        }
        assert!(journal.products.starts_with(".sciproof-"));
        assert_eq!(
            sciproof_core::commit::journal::Journal::parse(&journal.to_json()).unwrap(),
            journal
        );
    }
});
