//! The armor of a signature file (`-----BEGIN SSH SIGNATURE-----`), read exactly as
//! `ssh-keygen -Y verify` reads it, so both tools accept and refuse the same files.
//!
//! Written here rather than taken from a PEM crate because the rules are OpenSSH's, not PEM's
//! (`sshsig_dearmor`): the file must begin with the header line, LF-terminated (a CR before
//! the line break, or anything before the header, is refused); the body ends at the first
//! `\n-----END SSH SIGNATURE-----` (what follows the footer is ignored); whitespace in the body
//! is skipped; the rest must be base64.

use base64ct::Encoding;

const HEADER: &[u8] = b"-----BEGIN SSH SIGNATURE-----\n";
const FOOTER: &[u8] = b"\n-----END SSH SIGNATURE-----";

/// The signature blob of an armored signature file, or why `ssh-keygen` would refuse it.
pub fn dearmor(file: &[u8]) -> Result<Vec<u8>, String> {
    let Some(rest) = file.strip_prefix(HEADER) else {
        return Err(
            "it does not begin with the line -----BEGIN SSH SIGNATURE----- (no text, blank line or carriage return may come before or in it)"
                .into(),
        );
    };
    let Some(end) = rest.windows(FOOTER.len()).position(|w| w == FOOTER) else {
        return Err("it has no -----END SSH SIGNATURE----- line".into());
    };
    let body: Vec<u8> = rest[..end]
        .iter()
        .copied()
        .filter(|b| !b.is_ascii_whitespace() && *b != 0x0b)
        .collect();
    base64ct::Base64::decode_vec(
        std::str::from_utf8(&body).map_err(|_| "its body is not base64".to_string())?,
    )
    .map_err(|_| "its body is not base64".to_string())
}

/// The signature of an armored signature file.
pub fn parse(file: &[u8]) -> Result<ssh_key::SshSig, String> {
    use ssh_encoding::Decode;
    let blob = dearmor(file)?;
    ssh_key::SshSig::decode(&mut blob.as_slice())
        .map_err(|e| format!("it is not an SSH signature ({e})"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_armor_is_read_as_ssh_keygen_reads_it() {
        let body = base64ct::Base64::encode_string(b"hello signature bytes");
        let good = format!("-----BEGIN SSH SIGNATURE-----\n{body}\n-----END SSH SIGNATURE-----\n");
        assert_eq!(dearmor(good.as_bytes()).unwrap(), b"hello signature bytes");
        // Accepted by ssh-keygen: trailing text, no final newline, body spaces and CRs, one line.
        for ok in [
            format!("{good}trailing\n"),
            good.trim_end().to_string(),
            good.replace(&body, &format!("  {}\r\n{}", &body[..8], &body[8..])),
            good.replace(
                "-----END SSH SIGNATURE-----\n",
                "-----END SSH SIGNATURE-----junk\n",
            ),
        ] {
            assert_eq!(
                dearmor(ok.as_bytes()).unwrap(),
                b"hello signature bytes",
                "{ok:?}"
            );
        }
        // Refused by ssh-keygen: leading text or a blank line, CRLF header, no footer, bad base64.
        for bad in [
            format!("garbage\n{good}"),
            format!("\n{good}"),
            good.replace("\n", "\r\n"),
            good.replace("-----END SSH SIGNATURE-----\n", ""),
            good.replace(&body, &format!("{body}!")),
        ] {
            assert!(dearmor(bad.as_bytes()).is_err(), "{bad:?}");
        }
    }
}
