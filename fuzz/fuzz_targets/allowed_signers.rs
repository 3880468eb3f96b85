//! OpenSSH allowed-signers files: entries or a line-numbered error.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = sciproof_core::signing::parse_allowed_signers(text, "allowed_signers");
    }
});
