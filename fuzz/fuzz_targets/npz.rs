//! `.npz` archives (zip files of `.npy` members): validation, comparison, one element.
#![no_main]
mod scratch;
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let scratch = scratch::Scratch::new("npz");
    let dir = scratch.path();
    let path = dir.join("a.npz");
    std::fs::write(&path, data).unwrap();
    let _ = sciproof_core::numeric::npz::validate(&path, "a.npz");
    let _ = sciproof_core::numeric::compare_files(&path, &path, "a.npz", 1e-9, 0.0);
    let _ = sciproof_core::numeric::npz::element_at(&path, "a.npz", "arr_0", &[0]);
});
