//! Verification policies (TOML): a policy or an error naming the file and the rule.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = sciproof_core::policy::parse_policy(text, "fuzz.toml");
    }
});
