//! Content-addressed claim identifiers (spec §1.4), byte-compatible with `alkahest.research`.
//!
//! The ID hashes the normalised statement, the sorted hypotheses and the method, nothing else:
//! not the kind, the status, the edges, a timestamp or a version. The same claim derived twice
//! gets the same ID.

use crate::json::{Object, Style, Value, write_object};
use crate::pyfmt::is_py_space;
use sha2::{Digest, Sha256};

/// Collapses every run of whitespace to one ASCII space and trims both ends. "Whitespace" is
/// Python's `str.isspace()` (which, unlike `char::is_whitespace`, includes U+001C–U+001F).
pub fn canon(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for piece in text.split(is_py_space).filter(|p| !p.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(piece);
    }
    out
}

/// Canonical hypotheses: each one [`canon`]ed, then sorted by code point. Duplicates are kept
/// (they change the ID, as in the reference).
pub fn canon_hypotheses<S: AsRef<str>>(hypotheses: &[S]) -> Vec<String> {
    let mut out: Vec<String> = hypotheses.iter().map(|h| canon(h.as_ref())).collect();
    out.sort();
    out
}

/// `clm_` + the first 16 hex digits of SHA-256 over the compact, key-sorted JSON object
/// `{"hypotheses":[...],"method":"...","statement":"..."}` (no spaces, non-ASCII raw), after
/// [`canon`] of every part and sorting the hypotheses. Guaranteed to equal the reference's
/// `claim_id(statement, hypotheses, method)` for any text.
pub fn claim_id<S: AsRef<str>>(statement: &str, hypotheses: &[S], method: &str) -> String {
    let hypotheses: Vec<Value> = canon_hypotheses(hypotheses)
        .into_iter()
        .map(Value::String)
        .collect();
    let key = Object::new()
        .with("statement", canon(statement))
        .with("hypotheses", Value::Array(hypotheses))
        .with("method", canon(method));
    let mut text = String::new();
    write_object(&mut text, &key, None, Style::CANONICAL);
    let digest = Sha256::digest(text.as_bytes());
    format!("clm_{}", &hex::encode(digest)[..16])
}

/// Whether `id` has the shape of a claim ID (`clm_` + 16 lower-case hex digits).
pub fn is_claim_id(id: &str) -> bool {
    id.len() == 20
        && id.starts_with("clm_")
        && id[4..]
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn shape() {
        assert!(is_claim_id("clm_0123456789abcdef"));
        assert!(!is_claim_id("clm_0123456789ABCDEF"));
        assert!(!is_claim_id("clm_0123"));
    }
}
