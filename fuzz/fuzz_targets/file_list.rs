//! Directory file lists stored beside a manifest: read with the count, size and digest the
//! bytes themselves would need (so the fuzzer reaches the end), or with a wrong count; entries
//! or an error, never a panic, and never more entries than the manifest allows.
#![no_main]
use sciproof_core::manifest::FileList;
use sciproof_core::manifest::file_list::read_list;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let lines = data.iter().filter(|b| **b == b'\n').count() as u64;
    let digest = sciproof_core::hash::sha256_bytes(data);
    for count in [lines, lines.saturating_sub(1), 3] {
        let list = FileList {
            path: format!("r.sciproof.d/lists/{digest}.txt"),
            count,
        };
        for size in [0, 1 << 20] {
            if let Ok(entries) = read_list(&mut &data[..], &list, &digest, size, "inputs[0]") {
                assert_eq!(entries.len() as u64, count);
                assert_eq!(entries.iter().map(|e| e.size).sum::<u64>(), size);
                assert!(entries.windows(2).all(|w| w[0].path < w[1].path));
            }
        }
    }
});
