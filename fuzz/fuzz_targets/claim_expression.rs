//! Claim expressions as typed on the command line, for every kind of output; an accepted claim
//! prints to text that parses back to the same claim.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some((&kind, rest)) = data.split_first() else {
        return;
    };
    let Ok(expression) = std::str::from_utf8(rest) else {
        return;
    };
    let output = ["m.json", "t.csv", "t.tsv", "a.npy", "z.npz", "x.txt"][usize::from(kind) % 6];
    if let Ok(claim) = sciproof_core::claims::parse_claim(output, expression) {
        let _ = claim.text();
        let again = sciproof_core::update::claim_expression(&claim);
        let reparsed = sciproof_core::claims::parse_claim(output, &again)
            .expect("a claim's expression parses");
        assert_eq!(reparsed.location, claim.location);
        assert_eq!(reparsed.op, claim.op);
    }
});
