//! Tests of the `.npy` reader and comparison.
use super::*;

/// The bytes of a version 1.0 `.npy` file with the given header fields and raw data.
pub(crate) fn npy_file_bytes(descr: &str, fortran: bool, shape: &str, data: &[u8]) -> Vec<u8> {
    let mut header = format!(
        "{{'descr': '{descr}', 'fortran_order': {}, 'shape': {shape}, }}",
        if fortran { "True" } else { "False" }
    );
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
    bytes.extend_from_slice(&(header.len() as u16).to_le_bytes());
    bytes.extend_from_slice(header.as_bytes());
    bytes.extend_from_slice(data);
    bytes
}

/// Writes a .npy file with the given header dict and raw data.
pub(crate) fn npy(
    dir: &Path,
    name: &str,
    descr: &str,
    fortran: bool,
    shape: &str,
    data: &[u8],
) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, npy_file_bytes(descr, fortran, shape, data)).unwrap();
    path
}

fn f64s(v: &[f64]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// The differences of [`compare_files`].
fn diffs(
    e: &Path,
    a: &Path,
    e_name: &str,
    a_name: &str,
    rtol: f64,
    atol: f64,
) -> Result<Vec<Difference>, NumericError> {
    compare_files(e, a, e_name, a_name, rtol, atol, &|| false).map(|c| c.differences)
}

fn messages(d: Vec<Difference>) -> Vec<String> {
    d.into_iter().map(|d| d.message).collect()
}

#[test]
fn npy_float_arrays_use_the_tolerance_and_report_c_order_locations() {
    let dir = tempfile::tempdir().unwrap();
    let e = npy(
        dir.path(),
        "e.npy",
        "<f8",
        false,
        "(2, 2)",
        &f64s(&[1.0, 2.0, 3.0, 4.0]),
    );
    let a = npy(
        dir.path(),
        "a.npy",
        "<f8",
        false,
        "(2, 2)",
        &f64s(&[1.0, 2.5, 3.0, 4.0 + 1e-12]),
    );
    let d = diffs(&e, &a, "e.npy", "a.npy", 1e-9, 0.0).unwrap();
    assert_eq!(
        messages(d),
        ["data[0, 1]: recorded 2.0, found 2.5 (rtol=1e-09, atol=0.0)"]
    );
}

#[test]
fn npy_shape_and_dtype_must_match_and_byte_orders_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let e = npy(
        dir.path(),
        "e.npy",
        "<f8",
        false,
        "(3,)",
        &f64s(&[1.0, 2.0, 3.0]),
    );
    let big: Vec<u8> = [1.0f64, 2.0, 3.0]
        .iter()
        .flat_map(|x| x.to_be_bytes())
        .collect();
    let b = npy(dir.path(), "b.npy", ">f8", false, "(3,)", &big);
    assert_eq!(
        messages(diffs(&e, &b, "e", "b", 0.0, 0.0).unwrap()),
        ["dtype: recorded 'float64', found '>f8'"]
    );
    let b2 = npy(dir.path(), "b2.npy", ">f8", false, "(3,)", &big);
    assert!(diffs(&b, &b2, "b", "b2", 0.0, 0.0).unwrap().is_empty());
    let s = npy(
        dir.path(),
        "s.npy",
        "<f8",
        false,
        "(1, 3)",
        &f64s(&[1.0, 2.0, 3.0]),
    );
    assert_eq!(
        messages(diffs(&e, &s, "e", "s", 0.0, 0.0).unwrap()),
        ["shape: recorded [3], found [1, 3]"]
    );
}

#[test]
fn npy_fortran_order_is_compared_by_logical_index() {
    let dir = tempfile::tempdir().unwrap();
    // logical [[1, 2, 3], [4, 5, 6]]
    let c = npy(
        dir.path(),
        "c.npy",
        "<f8",
        false,
        "(2, 3)",
        &f64s(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]),
    );
    let f = npy(
        dir.path(),
        "f.npy",
        "<f8",
        true,
        "(2, 3)",
        &f64s(&[1.0, 4.0, 2.0, 5.0, 3.0, 6.0]),
    );
    assert!(diffs(&c, &f, "c", "f", 0.0, 0.0).unwrap().is_empty());
    let f2 = npy(
        dir.path(),
        "f2.npy",
        "<f8",
        true,
        "(2, 3)",
        &f64s(&[1.0, 4.0, 2.0, 9.0, 3.0, 6.0]),
    );
    assert_eq!(
        messages(diffs(&f, &f2, "f", "f2", 0.0, 0.0).unwrap()),
        ["data[1, 1]: recorded 5.0, found 9.0 (rtol=0.0, atol=0.0)"]
    );
    assert_eq!(
        messages(diffs(&c, &f2, "c", "f2", 0.0, 0.0).unwrap()),
        ["data[1, 1]: recorded 5.0, found 9.0 (rtol=0.0, atol=0.0)"]
    );
}

#[test]
fn npy_integers_and_booleans_are_exact_and_many_differences_are_summarised() {
    let dir = tempfile::tempdir().unwrap();
    let ints = |v: &[i32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let e = npy(dir.path(), "e.npy", "<i4", false, "(25,)", &ints(&[0; 25]));
    let a = npy(dir.path(), "a.npy", "<i4", false, "(25,)", &ints(&[-1; 25]));
    let d = diffs(&e, &a, "e", "a", 1.0, 10.0).unwrap();
    assert_eq!(d.len(), 11);
    assert_eq!(
        d[0].message,
        "data[0]: recorded 0, found -1 (rtol=1.0, atol=10.0)"
    );
    assert_eq!(d[10].message, "... 25 of 25 values differ");
    // integers are exact whatever the tolerance: nothing is allowed, as for JSON integers
    assert_eq!((d[0].abs_diff, d[0].allowed), (Some(1.0), Some(0.0)));
    let b = npy(dir.path(), "b.npy", "|b1", false, "()", &[1]);
    let b2 = npy(dir.path(), "b2.npy", "|b1", false, "()", &[0]);
    assert_eq!(
        messages(diffs(&b, &b2, "b", "b2", 1.0, 1.0).unwrap()),
        ["data[]: recorded True, found False (rtol=1.0, atol=1.0)"]
    );
}

#[test]
fn npy_float32_compares_in_float32_and_complex_by_modulus() {
    let dir = tempfile::tempdir().unwrap();
    let f32s = |v: &[f32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let e = npy(dir.path(), "e.npy", "<f4", false, "(1,)", &f32s(&[0.1]));
    let a = npy(dir.path(), "a.npy", "<f4", false, "(1,)", &f32s(&[0.2]));
    let d = diffs(&e, &a, "e", "a", 0.0, 0.0).unwrap();
    assert_eq!(
        d[0].message,
        "data[0]: recorded 0.1, found 0.2 (rtol=0.0, atol=0.0)"
    );
    let c = |re: f64, im: f64| [re.to_le_bytes(), im.to_le_bytes()].concat();
    let ce = npy(dir.path(), "ce.npy", "<c16", false, "(1,)", &c(3.0, 4.0));
    let ca = npy(dir.path(), "ca.npy", "<c16", false, "(1,)", &c(3.0, 4.5));
    assert!(diffs(&ce, &ca, "ce", "ca", 0.1, 0.0).unwrap().is_empty());
    let d = diffs(&ce, &ca, "ce", "ca", 0.0, 0.0).unwrap();
    assert_eq!(
        d[0].message,
        "data[0]: recorded (3+4j), found (3+4.5j) (rtol=0.0, atol=0.0)"
    );
    assert_eq!(d[0].kind, Kind::Value);
}

#[test]
fn npy_refuses_objects_strings_and_truncation() {
    let dir = tempfile::tempdir().unwrap();
    let o = npy(dir.path(), "o.npy", "|O", false, "(1,)", &[0; 8]);
    assert!(
        validate(&o, "o.npy")
            .unwrap_err()
            .0
            .contains("Object arrays cannot be loaded when allow_pickle=False")
    );
    let u = npy(dir.path(), "u.npy", "<U1", false, "(1,)", &[0; 4]);
    assert_eq!(
        validate(&u, "u.npy").unwrap_err().0,
        "u.npy: only numeric, boolean and complex arrays are supported (dtype <U1)"
    );
    let t = npy(dir.path(), "t.npy", "<f8", false, "(4,)", &[0; 16]);
    assert!(
        validate(&t, "t.npy")
            .unwrap_err()
            .0
            .contains("holds 16 bytes of data but its header announces 32")
    );
    std::fs::write(
        dir.path().join("h.npy"),
        b"\x93NUMPY\x01\x00\x76\x00{'descr'",
    )
    .unwrap();
    assert!(
        validate(&dir.path().join("h.npy"), "h.npy")
            .unwrap_err()
            .0
            .contains("EOF: reading array header, expected 118 bytes got 8")
    );
    std::fs::write(dir.path().join("p.npy"), b"\x80\x04\x95pickle").unwrap();
    assert!(
        validate(&dir.path().join("p.npy"), "p.npy")
            .unwrap_err()
            .0
            .contains("not a .npy file")
    );
}

#[test]
fn npy_statistics_cover_every_element_whatever_the_chunk_it_is_in() {
    let dir = tempfile::tempdir().unwrap();
    // three chunks of 4 MiB: differences in the first and the last, merged in file order
    let n = 1_200_000usize;
    let base: Vec<f64> = (0..n).map(|i| i as f64).collect();
    let mut changed = base.clone();
    changed[5] += 1e-12 * 5.0; // within the tolerance
    changed[n - 1] += 0.5; // outside
    changed[600_000] += 0.25; // outside, a smaller error
    let e = npy(
        dir.path(),
        "e.npy",
        "<f8",
        false,
        "(1200000,)",
        &f64s(&base),
    );
    let a = npy(
        dir.path(),
        "a.npy",
        "<f8",
        false,
        "(1200000,)",
        &f64s(&changed),
    );
    let c = compare_files(&e, &a, "e", "a", 1e-9, 0.0, &|| false).unwrap();
    let g = &c.statistics.groups[0];
    assert_eq!(g.name, "data");
    assert_eq!(
        (g.values, g.identical, g.outside),
        (n as u64, n as u64 - 3, 2)
    );
    let abs = g.largest_abs.as_ref().unwrap();
    assert_eq!((abs.value, abs.location.as_str()), (0.5, "data[1199999]"));
    assert_eq!(g.closest.as_ref().unwrap().location, "data[5]");
    assert_eq!(c.case(), crate::numeric::Case::Different);
    // Fortran order: locations are C-order indices
    let fe = npy(
        dir.path(),
        "fe.npy",
        "<f8",
        true,
        "(2, 2)",
        &f64s(&[1.0, 2.0, 3.0, 4.0]),
    );
    let fa = npy(
        dir.path(),
        "fa.npy",
        "<f8",
        true,
        "(2, 2)",
        &f64s(&[1.0, 2.0, 3.5, 4.0]),
    );
    let c = compare_files(&fe, &fa, "fe", "fa", 0.0, 0.0, &|| false).unwrap();
    let g = &c.statistics.groups[0];
    // file position 2 of a Fortran (2, 2) array is element [0, 1]
    assert_eq!(g.largest_abs.as_ref().unwrap().location, "data[0, 1]");
    // integers are exact; booleans have no error
    let ints = |v: &[i64]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let ie = npy(
        dir.path(),
        "ie.npy",
        "<i8",
        false,
        "(3,)",
        &ints(&[1, 2, 3]),
    );
    let ia = npy(
        dir.path(),
        "ia.npy",
        "<i8",
        false,
        "(3,)",
        &ints(&[1, 2, 7]),
    );
    let c = compare_files(&ie, &ia, "ie", "ia", 1.0, 100.0, &|| false).unwrap();
    let g = &c.statistics.groups[0];
    assert_eq!((g.values, g.identical, g.outside), (3, 2, 1));
    assert_eq!(g.largest_abs.as_ref().unwrap().value, 4.0);
    // a different shape: nothing is compared, and it is different
    let se = npy(
        dir.path(),
        "se.npy",
        "<i8",
        false,
        "(1, 3)",
        &ints(&[1, 2, 3]),
    );
    let c = compare_files(&ie, &se, "ie", "se", 0.0, 0.0, &|| false).unwrap();
    assert_eq!(c.statistics.total().values, 0);
    assert_eq!(c.case(), crate::numeric::Case::Different);
}

#[test]
fn a_comparison_asked_to_stop_returns_without_a_result() {
    let dir = tempfile::tempdir().unwrap();
    let values: Vec<f64> = (0..1000).map(f64::from).collect();
    let e = npy(dir.path(), "e.npy", "<f8", false, "(1000,)", &f64s(&values));
    let a = npy(dir.path(), "a.npy", "<f8", false, "(1000,)", &f64s(&values));
    let stopped = compare_files(&e, &a, "e", "a", 1e-9, 0.0, &|| true).unwrap_err();
    assert_eq!(stopped, NumericError::stopped());
    assert!(compare_files(&e, &a, "e", "a", 1e-9, 0.0, &|| false).is_ok());
}

#[test]
fn bit_identical_floats_count_as_identical_in_either_byte_order_and_nans_as_before() {
    let dir = tempfile::tempdir().unwrap();
    let values = [1.5, -0.0, f64::INFINITY, f64::NAN, 2.0];
    let changed = [1.5, -0.0, f64::INFINITY, f64::NAN, 2.0000000001];
    let le = |v: &[f64]| f64s(v);
    let be = |v: &[f64]| v.iter().flat_map(|x| x.to_be_bytes()).collect::<Vec<u8>>();
    for (descr, bytes) in [("<f8", &le as &dyn Fn(&[f64]) -> Vec<u8>), (">f8", &be)] {
        let e = npy(dir.path(), "e.npy", descr, false, "(5,)", &bytes(&values));
        let a = npy(dir.path(), "a.npy", descr, false, "(5,)", &bytes(&changed));
        let c = compare_files(&e, &a, "e", "a", 1e-6, 0.0, &|| false).unwrap();
        let g = &c.statistics.groups[0];
        // 1.5, -0.0 and infinity by their bits; the NaN (NaN equals only NaN) as before.
        assert_eq!((g.values, g.identical, g.outside), (5, 4, 0), "{descr}");
        assert!(c.differences.is_empty(), "{descr}");
    }
}
