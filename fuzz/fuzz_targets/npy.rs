//! `.npy` headers and data: reading, comparing two arrays, reading one element. Nothing is ever
//! unpickled; a truncated or lying header is an error, never a panic or a huge allocation.
#![no_main]
mod scratch;
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let mut reader = data;
    let _ = sciproof_core::numeric::npy::read_header(&mut reader, "a.npy");
    let half = data.len() / 2;
    let (mut e, mut a) = (&data[..half], &data[half..]);
    let _ = sciproof_core::numeric::npy::compare_streams(
        &mut e, &mut a, "e.npy", "a.npy", "data", 1e-9, 0.0,
    );
    let (mut e, mut a) = (data, data);
    let _ = sciproof_core::numeric::npy::compare_streams(
        &mut e, &mut a, "e.npy", "a.npy", "data", 1e-9, 0.0,
    );
    let mut r = data;
    let _ = sciproof_core::numeric::npy::element_from_stream(&mut r, "a.npy", &[0, 1]);
    let scratch = scratch::Scratch::new("npy");
    let dir = scratch.path();
    let path = dir.join("a.npy");
    std::fs::write(&path, data).unwrap();
    if sciproof_core::numeric::npy::validate(&path, "a.npy").is_ok() {
        let comparison = sciproof_core::numeric::compare_files(&path, &path, "a.npy", 0.0, 0.0)
            .expect("a valid array compares with itself");
        let total = comparison.statistics.total();
        assert!(
            total.identical + total.outside == total.values,
            "within tolerance against itself"
        );
        let differences = comparison.differences;
        assert!(
            differences
                .iter()
                .all(|d| d.message.contains("NaN") || d.message.contains("nan"))
                || differences.is_empty()
        );
    }
    let _ = sciproof_core::numeric::npy::element_at(&path, "a.npy", &[1]);
});
