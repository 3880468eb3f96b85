//! Claim-check crates (RO-Crate JSON-LD): records and problems, never a panic, never a match
//! the profile forbids; what is read writes back to a crate that reads as the same records.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(read) = sciproof_core::checkcrate::read::from_crate(text) {
        for record in &read.records {
            if record.outcome == "match" {
                assert_eq!(
                    record.read_outcome(),
                    "match",
                    "a doubtful match was read as one"
                );
            }
        }
        if let Ok(written) = sciproof_core::checkcrate::write::to_crate(&read.records) {
            let again = sciproof_core::checkcrate::read::from_crate(&written)
                .expect("our crate reads back");
            assert_eq!(again.records.len(), read.records.len());
        }
    }
});
