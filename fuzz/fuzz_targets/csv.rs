//! The CSV/TSV push parser fed in arbitrary chunks (rows must not depend on where the input
//! was cut), and the file comparison of two arbitrary files.
#![no_main]
mod scratch;
use sciproof_core::numeric::csv::Parser;

fn rows(data: &[u8], delimiter: u8, cuts: &[usize]) -> Result<Vec<Vec<Vec<u8>>>, String> {
    let mut out = Vec::new();
    let mut parser = Parser::new(delimiter);
    let mut start = 0;
    for &cut in cuts.iter().chain([data.len()].iter()) {
        let end = cut.clamp(start, data.len());
        parser.feed(&data[start..end], &mut |row| {
            out.push(row.fields().map(|f| f.to_vec()).collect());
        })?;
        start = end;
    }
    parser.finish(&mut |row| out.push(row.fields().map(|f| f.to_vec()).collect()))?;
    Ok(out)
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some((&first, data)) = data.split_first() else {
        return;
    };
    let delimiter = if first & 1 == 0 { b',' } else { b'\t' };
    let whole = rows(data, delimiter, &[]);
    let cuts: Vec<usize> = (1..4)
        .map(|k| usize::from(first) * k % (data.len() + 1))
        .collect();
    let chunked = rows(data, delimiter, &cuts);
    assert_eq!(whole.is_ok(), chunked.is_ok());
    if let (Ok(a), Ok(b)) = (&whole, &chunked) {
        assert_eq!(a, b, "rows depend on where the input was cut");
        for row in a {
            for cell in row {
                let _ = sciproof_core::numeric::csv::cell_value(cell);
            }
        }
    }
    // The file comparison of the data with itself and with its first half.
    let scratch = scratch::Scratch::new("csv");
    let dir = scratch.path();
    let name = if delimiter == b',' { "x.csv" } else { "x.tsv" };
    let (a, b) = (dir.join(format!("a-{name}")), dir.join(format!("b-{name}")));
    std::fs::write(&a, data).unwrap();
    std::fs::write(&b, &data[..data.len() / 2]).unwrap();
    let same = sciproof_core::numeric::compare_files(&a, &a, name, 1e-9, 0.0);
    if whole.is_ok()
        && let Ok(comparison) = same
    {
        assert!(comparison.is_equivalent(), "a file differs from itself");
        // and every value of it is bit-identical to itself
        let total = comparison.statistics.total();
        assert_eq!(
            total.identical, total.values,
            "a value is not identical to itself"
        );
    }
    let _ = sciproof_core::numeric::compare_files(&a, &b, name, 1e-9, 0.0);
});
