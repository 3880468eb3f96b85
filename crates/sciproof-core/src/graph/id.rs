//! Content-addressed claim identifiers (spec §1.4), byte-compatible with `alkahest.research`.
//!
//! The ID hashes the normalised statement, the sorted hypotheses and the method, nothing else:
//! not the kind, the status, the edges, a timestamp or a version. The same claim derived twice
//! gets the same ID.

use crate::json::write_str;
use crate::pyfmt::is_py_space;
use sha2::{Digest, Sha256};
use std::borrow::Cow;

/// Collapses every run of whitespace to one ASCII space and trims both ends. "Whitespace" is
/// Python's `str.isspace()` (which, unlike `char::is_whitespace`, includes U+001C–U+001F).
pub fn canon(text: &str) -> String {
    canonical(text).into_owned()
}

/// [`canon`], borrowing `text` when it is canonical already (as a recorded claim's parts are).
fn canonical(text: &str) -> Cow<'_, str> {
    let mut previous_space = true;
    let settled = text.chars().all(|c| {
        let space = is_py_space(c);
        let fine = !space || (c == ' ' && !previous_space);
        previous_space = space;
        fine
    }) && !previous_space;
    if settled || text.is_empty() {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for piece in text.split(is_py_space).filter(|p| !p.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(piece);
    }
    Cow::Owned(out)
}

/// Canonical hypotheses: each one [`canon`]ed, then sorted by code point. Duplicates are kept
/// (they change the ID, as in the reference).
pub fn canon_hypotheses<S: AsRef<str>>(hypotheses: &[S]) -> Vec<String> {
    canonical_hypotheses(hypotheses)
        .into_iter()
        .map(Cow::into_owned)
        .collect()
}

/// [`canon_hypotheses`], borrowing those already canonical.
fn canonical_hypotheses<S: AsRef<str>>(hypotheses: &[S]) -> Vec<Cow<'_, str>> {
    let mut out: Vec<Cow<'_, str>> = hypotheses.iter().map(|h| canonical(h.as_ref())).collect();
    out.sort();
    out
}

/// `clm_` + the first 16 hex digits of SHA-256 over the compact, key-sorted JSON object
/// `{"hypotheses":[...],"method":"...","statement":"..."}` (no spaces, non-ASCII raw), after
/// [`canon`] of every part and sorting the hypotheses. Guaranteed to equal the reference's
/// `claim_id(statement, hypotheses, method)` for any text.
pub fn claim_id<S: AsRef<str>>(statement: &str, hypotheses: &[S], method: &str) -> String {
    let statement = canonical(statement);
    let method = canonical(method);
    let hypotheses = canonical_hypotheses(hypotheses);
    // The object written as `json.dumps(..., sort_keys=True, separators=(",", ":"),
    // ensure_ascii=False)` writes it, directly: its keys are fixed and already in code-point
    // order (a million claims are read in a few seconds, and building an object for each
    // would take a tenth of that).
    let size =
        48 + statement.len() + method.len() + hypotheses.iter().map(|h| h.len() + 3).sum::<usize>();
    let mut text = String::with_capacity(size);
    text.push_str("{\"hypotheses\":[");
    for (i, h) in hypotheses.iter().enumerate() {
        if i > 0 {
            text.push(',');
        }
        write_str(&mut text, h, false);
    }
    text.push_str("],\"method\":");
    write_str(&mut text, &method, false);
    text.push_str(",\"statement\":");
    write_str(&mut text, &statement, false);
    text.push('}');
    let digest = Sha256::digest(text.as_bytes());
    // (written digit by digit: every claim read is checked against its content, and a
    // formatting call per ID was a noticeable part of reading a claim)
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut id = String::with_capacity(20);
    id.push_str("clm_");
    for byte in &digest[..8] {
        id.push(char::from(HEX[usize::from(byte >> 4)]));
        id.push(char::from(HEX[usize::from(byte & 15)]));
    }
    id
}

/// Whether `id` has the shape of a claim ID (`clm_` + 16 lower-case hex digits).
pub fn is_claim_id(id: &str) -> bool {
    claim_id_number(id).is_some()
}

/// The 64-bit number a claim ID's hex digits spell, or `None` when `id` does not have the
/// shape of one ([`is_claim_id`]). The reader of a document looks up every ID and dependency by
/// its number, several million at a million claims, so the digits are read eight at a time.
pub fn claim_id_number(id: &str) -> Option<u64> {
    let digits = id.as_bytes().strip_prefix(b"clm_")?;
    let (high, low) = digits.split_first_chunk::<8>()?;
    let low: &[u8; 8] = low.try_into().ok()?;
    Some(u64::from(hex8(*high)?) << 32 | u64::from(hex8(*low)?))
}

/// The number eight lower-case hex digits spell, or `None`: the eight bytes are tested and
/// converted together as the lanes of one 64-bit word (a byte at a time, the choice between a
/// digit and a letter is a branch the processor guesses wrong about every third digit).
fn hex8(digits: [u8; 8]) -> Option<u32> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = ONES * 0x80;
    let x = u64::from_le_bytes(digits);
    if x & HIGH != 0 {
        return None;
    }
    // With every byte below 0x80, adding a constant below 0x80 to each carries into no other
    // lane: a lane's high bit then says how the byte compares with the bound.
    let at_least = |low: u8| (x + ONES * u64::from(0x80 - low)) & HIGH;
    let at_most = |high: u8| !(x + ONES * u64::from(0x7f - high)) & HIGH;
    let digit = at_least(b'0') & at_most(b'9');
    let letter = at_least(b'a') & at_most(b'f');
    if digit | letter != HIGH {
        return None;
    }
    // A digit's low four bits are its value; a letter's are its value less 9.
    let values = (x & (ONES * 0x0f)) + (letter >> 7) * 9;
    Some(
        values
            .to_le_bytes()
            .iter()
            .fold(0, |n, &v| n << 4 | u32::from(v)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// An ID has a number exactly when it is `clm_` and 16 lower-case hex digits, and the
        /// number is the one those digits spell.
        #[test]
        fn a_number_for_exactly_the_well_formed_ids(
            id in proptest::prop_oneof![
                "clm_[0-9a-f]{16}",
                "(clm_)?[0-9a-fA-Fg_]{0,18}",
                "clm_[0-9a-f]{0,8}[\\x00-\\x7f/:@`G-Zg-z\u{e9}\u{80}][0-9a-f]{0,8}",
            ],
        ) {
            let well_formed = id.len() == 20
                && id.starts_with("clm_")
                && id[4..].bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
            let expected = well_formed.then(|| u64::from_str_radix(&id[4..], 16).unwrap());
            proptest::prop_assert_eq!(claim_id_number(&id), expected);
            proptest::prop_assert_eq!(is_claim_id(&id), well_formed);
        }
    }

    #[test]
    fn every_ascii_byte_at_every_place_of_the_digits() {
        let valid = "clm_0123456789abcdef";
        for place in 4..20 {
            for b in 0..0x80u8 {
                let mut id = valid.as_bytes().to_vec();
                id[place] = b;
                let id = String::from_utf8(id).unwrap();
                let hex = b.is_ascii_digit() || (b'a'..=b'f').contains(&b);
                let expected = hex.then(|| u64::from_str_radix(&id[4..], 16).unwrap());
                assert_eq!(claim_id_number(&id), expected, "{id:?}");
            }
        }
        // (bytes from 0x80 up are parts of longer characters)
        assert_eq!(claim_id_number("clm_0123456789abcd\u{e9}"), None);
        assert_eq!(claim_id_number("clm_\u{e9}23456789abcdef"), None);
        assert_eq!(claim_id_number("clm_0123456789abcdef0"), None);
        assert_eq!(claim_id_number("clm_0123456789abcde"), None);
    }

    const NONE: [&str; 0] = [];

    #[test]
    fn spec_test_vectors() {
        assert_eq!(
            claim_id("(1/2 * log(2))", &["x > 0"], "integrate"),
            "clm_b3d7047db0041942"
        );
        assert_eq!(
            claim_id("  (1/2   *\tlog(2))\n", &["x > 0"], " integrate "),
            "clm_b3d7047db0041942"
        );
        assert_eq!(claim_id("", &NONE, ""), "clm_920d7937d558cd43");
        assert_eq!(
            claim_id("a", &["x > 0", "x > 0"], ""),
            "clm_c713b7897e560deb"
        );
        assert_eq!(claim_id("a", &["x > 0"], ""), "clm_199e281394833a8e");
        assert_eq!(
            claim_id("a", &["y > 0", "x > 0"], ""),
            "clm_d0b5d6c4a68e9c6d"
        );
        assert_eq!(
            claim_id("a", &["x > 0", "y > 0"], ""),
            "clm_d0b5d6c4a68e9c6d"
        );
        assert_eq!(
            claim_id("∫ x ≥ 0 é", &["x ≥ 0"], "conjecture"),
            "clm_0cf72b46d7be1202"
        );
        assert_eq!(claim_id("A", &NONE, "conjecture"), "clm_33f5df3fc90490cc");
        let s = "-2 * integral(x/(x^2+1), dx, 0, 1) + 1 * log(2) = 0";
        assert_eq!(claim_id(s, &NONE, "conjecture"), "clm_aab7c6484985d0ec");
        assert_eq!(
            claim_id(s, &["(x > 0)"], "conjecture"),
            "clm_dc51a77d0aaeeb3c"
        );
    }

    #[test]
    fn python_whitespace_includes_separators() {
        assert_eq!(canon("\u{1c}a\u{1f}\u{3000}b\u{85} "), "a b");
        assert_eq!(
            canon("a\u{200b}b"),
            "a\u{200b}b",
            "U+200B is not whitespace"
        );
    }

    /// Python's `" ".join(text.split())`.
    fn py_join_split(text: &str) -> String {
        let pieces: Vec<&str> = text.split(is_py_space).filter(|p| !p.is_empty()).collect();
        pieces.join(" ")
    }

    /// The ID as the general writer makes it: the object built, written canonically, hashed.
    fn id_through_an_object(statement: &str, hypotheses: &[String], method: &str) -> String {
        use crate::json::{Object, Style, Value, write_object};
        let mut hypotheses: Vec<String> = hypotheses.iter().map(|h| py_join_split(h)).collect();
        hypotheses.sort();
        let key = Object::new()
            .with("statement", py_join_split(statement))
            .with(
                "hypotheses",
                Value::Array(hypotheses.into_iter().map(Value::String).collect()),
            )
            .with("method", py_join_split(method));
        let mut text = String::new();
        write_object(&mut text, &key, None, Style::CANONICAL);
        format!(
            "clm_{}",
            &hex::encode(Sha256::digest(text.as_bytes()))[..16]
        )
    }

    /// Text with every kind of whitespace, escapes and non-ASCII, in runs.
    fn text() -> impl proptest::strategy::Strategy<Value = String> {
        proptest::string::string_regex(
            "([ \t\n\r\u{1c}\u{85}\u{a0}\u{3000}]{0,3}[a-z\"\\\u{1}\u{7f}\u{e9}\u{2028}\u{1f600}]{0,4}){0,5}",
        )
        .unwrap()
    }

    proptest::proptest! {
        #[test]
        fn written_directly_as_through_an_object(
            statement in text(),
            hypotheses in proptest::collection::vec(text(), 0..4),
            method in text(),
        ) {
            proptest::prop_assert_eq!(
                claim_id(&statement, &hypotheses, &method),
                id_through_an_object(&statement, &hypotheses, &method)
            );
        }

        #[test]
        fn canon_is_pythons_join_split_and_borrows_what_it_keeps(t in text()) {
            let once = canon(&t);
            proptest::prop_assert_eq!(&once, &py_join_split(&t));
            proptest::prop_assert_eq!(matches!(canonical(&t), Cow::Borrowed(_)), once == t);
        }
    }

    #[test]
    fn shape() {
        assert!(is_claim_id("clm_0123456789abcdef"));
        assert!(!is_claim_id("clm_0123456789ABCDEF"));
        assert!(!is_claim_id("clm_0123"));
    }
}
