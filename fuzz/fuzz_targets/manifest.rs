//! The manifest reader and validator: any bytes give a manifest or a located error, never a
//! panic; a manifest that is accepted is written back to text that reads as the same manifest.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(manifest) = sciproof_core::manifest::parse_manifest(text) {
        let written = sciproof_core::manifest::to_text(&manifest);
        let again =
            sciproof_core::manifest::parse_manifest(&written).expect("written manifests read back");
        assert_eq!(sciproof_core::manifest::to_text(&again), written);
    }
});
