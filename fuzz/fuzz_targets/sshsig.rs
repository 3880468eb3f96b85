//! Signature files (SSHSIG armor and blob), as ssh-keygen reads them.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = sciproof_core::signing::armor::parse(data);
    // The blob itself, armored the way the writer armors it.
    let body = base64_armor(data);
    let _ = sciproof_core::signing::armor::parse(body.as_bytes());
});

fn base64_armor(blob: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::from("-----BEGIN SSH SIGNATURE-----\n");
    for chunk in blob.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out.push_str("\n-----END SSH SIGNATURE-----\n");
    out
}
