//! OpenSSH allowed-signers files (`ssh-keygen(1)`, ALLOWED SIGNERS): one entry per line,
//! `principals [options] keytype base64-key [comment]`, with `#` comments and blank lines.
//! Supported options: `namespaces="..."`, `valid-after="..."`, `valid-before="..."`;
//! `cert-authority` is refused with a clear message (certificates are not supported).

use crate::error::{Error, Result};
use ssh_key::PublicKey;
use std::path::Path;

/// One entry.
#[derive(Debug, Clone)]
pub struct AllowedSigner {
    /// The principals field as written (`alice@example.org` or `alice,bob`).
    pub principals: String,
    /// The public key.
    pub key: PublicKey,
    /// Namespace patterns (`*` and `?` wildcards), or `None` for any namespace.
    pub namespaces: Option<Vec<String>>,
    /// Unix times: the key is valid from `valid_after` and before `valid_before`.
    pub valid_after: Option<i64>,
    /// Not valid after this Unix time.
    pub valid_before: Option<i64>,
    /// 1-based line number, for messages.
    pub line: usize,
}

/// Matches `text` against an OpenSSH pattern with `*` and `?`.
pub fn pattern_matches(pattern: &str, text: &str) -> bool {
    fn rec(p: &[char], t: &[char]) -> bool {
        match (p.first(), t.first()) {
            (None, None) => true,
            (Some('*'), _) => rec(&p[1..], t) || (!t.is_empty() && rec(p, &t[1..])),
            (Some('?'), Some(_)) => rec(&p[1..], &t[1..]),
            (Some(a), Some(b)) if a == b => rec(&p[1..], &t[1..]),
            _ => false,
        }
    }
    let (p, t): (Vec<char>, Vec<char>) = (pattern.chars().collect(), text.chars().collect());
    rec(&p, &t)
}

/// `YYYYMMDD[HHMM[SS]][Z]` as a Unix time (UTC; a local time is taken as UTC too).
fn parse_time(text: &str) -> Option<i64> {
    let t = text.strip_suffix('Z').unwrap_or(text);
    if !t.bytes().all(|b| b.is_ascii_digit()) || !matches!(t.len(), 8 | 12 | 14) {
        return None;
    }
    let iso = format!(
        "{}-{}-{}T{}:{}:{}+00:00",
        &t[0..4],
        &t[4..6],
        &t[6..8],
        t.get(8..10).unwrap_or("00"),
        t.get(10..12).unwrap_or("00"),
        t.get(12..14).unwrap_or("00")
    );
    crate::timestamp::parse(&iso).ok().map(|s| s as i64)
}

fn split_options(options: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    for c in options.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                current.push(c);
            }
            ',' if !quoted => out.push(std::mem::take(&mut current)),
            _ => current.push(c),
        }
    }
    out.push(current);
    out
}

fn is_key_type(word: &str) -> bool {
    word.starts_with("ssh-") || word.starts_with("ecdsa-sha2-") || word.starts_with("sk-")
}

/// Parses the text of an allowed-signers file named `file`.
pub fn parse_allowed_signers(text: &str, file: &str) -> Result<Vec<AllowedSigner>> {
    let mut out = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line_no = index + 1;
        let fail = |m: &str| -> Error {
            super::SigningError::AllowedSigners(format!(
                "allowed signers file {file} line {line_no}: {m}"
            ))
            .into()
        };
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut rest = line;
        let take_word = |rest: &mut &str| -> Option<String> {
            let s = rest.trim_start();
            if s.is_empty() {
                return None;
            }
            // options may contain quoted spaces
            let mut end = s.len();
            let mut quoted = false;
            for (i, c) in s.char_indices() {
                if c == '"' {
                    quoted = !quoted;
                } else if c.is_whitespace() && !quoted {
                    end = i;
                    break;
                }
            }
            let word = s[..end].to_string();
            *rest = &s[end..];
            Some(word)
        };
        let principals =
            take_word(&mut rest).ok_or_else(|| fail("expected 'principals keytype key'"))?;
        let mut word = take_word(&mut rest)
            .ok_or_else(|| fail("expected a key type and key after the principals"))?;
        let (mut namespaces, mut valid_after, mut valid_before) = (None, None, None);
        if !is_key_type(&word) {
            for option in split_options(&word) {
                let (name, value) = option.split_once('=').unwrap_or((&option, ""));
                let value = value.trim_matches('"');
                match name.to_ascii_lowercase().as_str() {
                    "cert-authority" => {
                        return Err(fail(
                            "cert-authority entries (certificates) are not supported; list the signer's own public key instead",
                        ));
                    }
                    "namespaces" => {
                        namespaces = Some(value.split(',').map(str::to_string).collect())
                    }
                    "valid-after" => {
                        valid_after = Some(parse_time(value).ok_or_else(|| {
                            fail(&format!(
                                "valid-after {value:?} is not YYYYMMDD[HHMM[SS]][Z]"
                            ))
                        })?)
                    }
                    "valid-before" => {
                        valid_before = Some(parse_time(value).ok_or_else(|| {
                            fail(&format!(
                                "valid-before {value:?} is not YYYYMMDD[HHMM[SS]][Z]"
                            ))
                        })?)
                    }
                    other => return Err(fail(&format!("unknown option {other:?}"))),
                }
            }
            word = take_word(&mut rest)
                .ok_or_else(|| fail("expected a key type and key after the options"))?;
        }
        let key_data = take_word(&mut rest)
            .ok_or_else(|| fail("expected the base64 key after the key type"))?;
        let key = PublicKey::from_openssh(&format!("{word} {key_data}"))
            .map_err(|e| fail(&format!("not a valid public key: {e}")))?;
        out.push(AllowedSigner {
            principals,
            key,
            namespaces,
            valid_after,
            valid_before,
            line: line_no,
        });
    }
    Ok(out)
}

/// Reads (once, bounded: never a FIFO or device) and parses an allowed-signers file (the
/// user's trust root: an error is exit 3).
pub fn load_allowed_signers(path: &Path) -> Result<Vec<AllowedSigner>> {
    use crate::untrusted::{Kind, Problem};
    let text = crate::untrusted::read_text(path, Kind::AllowedSigners).map_err(|e| {
        super::SigningError::AllowedSigners(match e.problem {
            Problem::NotFound => format!("allowed signers file not found: {}", path.display()),
            _ => e.to_string(),
        })
    })?;
    parse_allowed_signers(&text, &path.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str =
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB7p0hH6IBkL5cSvz7lhp8MQbhrAM2nsJXuGFuCRxZwn";

    #[test]
    fn entries_options_and_errors() {
        let text = format!(
            "# trust\n\nalice@example.org {KEY}\nbob namespaces=\"sciproof-*\",valid-before=\"20200101\" {KEY} comment\n"
        );
        let signers = parse_allowed_signers(&text, "as").unwrap();
        assert_eq!(signers.len(), 2);
        assert_eq!(
            signers[1].namespaces.as_deref(),
            Some(&["sciproof-*".to_string()][..])
        );
        assert_eq!(signers[1].valid_before, Some(1_577_836_800));
        assert_eq!(signers[1].line, 4);
        let err =
            parse_allowed_signers(&format!("alice {KEY}\ncarol cert-authority {KEY}\n"), "as")
                .unwrap_err()
                .to_string();
        assert!(
            err.contains("allowed signers file as line 2: cert-authority"),
            "{err}"
        );
        let err = parse_allowed_signers("alice ssh-ed25519 notbase64!\n", "as")
            .unwrap_err()
            .to_string();
        assert!(err.contains("line 1: not a valid public key"), "{err}");
        assert!(
            parse_allowed_signers("lonely\n", "as")
                .unwrap_err()
                .to_string()
                .contains("line 1")
        );
        assert!(pattern_matches(
            "sciproof-*",
            "sciproof-manifest@hayagrivai-labs"
        ));
        assert!(!pattern_matches("git", "sciproof-manifest@hayagrivai-labs"));
    }
}
