//! Addresses of objects in object storage: `s3://bucket/key`, `gs://bucket/key`,
//! `az://container/key`, as a user types them and as a manifest stores them.
//!
//! A manifest is untrusted input, so an address read from one is held to rules as strict as a
//! local path's: a bucket name as the stores allow it, a key without control characters,
//! backslashes, or empty, `.` or `..` segments. A key that names a prefix (a *directory*) is
//! stored without its trailing `/`, so nesting checks treat it like a local directory. Such an
//! address is never a valid relative path (its `//` is an empty component), which is why
//! sciproof 0.4.1 refuses a manifest that holds one instead of misreading it.

use crate::pyfmt::str_repr;
use std::fmt;

/// Longest key the three stores accept (S3 and GCS: 1,024 bytes).
pub const MAX_KEY_BYTES: usize = 1024;

/// Which object store an address names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scheme {
    /// Amazon S3 and S3-compatible stores (Ceph, SeaweedFS, MinIO): `s3://`.
    S3,
    /// Google Cloud Storage: `gs://`.
    Gcs,
    /// Azure Blob Storage: `az://`.
    Azure,
}

impl Scheme {
    /// Every scheme, in the order they are tried.
    pub const ALL: [Scheme; 3] = [Scheme::S3, Scheme::Gcs, Scheme::Azure];

    /// The URL prefix, `s3://`.
    pub fn prefix(self) -> &'static str {
        match self {
            Scheme::S3 => "s3://",
            Scheme::Gcs => "gs://",
            Scheme::Azure => "az://",
        }
    }

    /// What the store calls a bucket.
    pub fn bucket_word(self) -> &'static str {
        match self {
            Scheme::Azure => "container",
            Scheme::S3 | Scheme::Gcs => "bucket",
        }
    }
}

/// A checked object address.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjectUrl {
    /// The store.
    pub scheme: Scheme,
    /// The bucket (or Azure container).
    pub bucket: String,
    /// The key, without a trailing `/` (empty for a whole bucket).
    pub key: String,
    /// Whether the address was written with a trailing `/` (a prefix, never a single object).
    pub prefix: bool,
}

/// Whether `value` is written as an object address (it may still be an invalid one).
pub fn is_object_url(value: &str) -> bool {
    Scheme::ALL.iter().any(|s| value.starts_with(s.prefix()))
}

impl ObjectUrl {
    /// Parses and checks `value`; the error says what is wrong and how to write it.
    pub fn parse(value: &str) -> Result<ObjectUrl, String> {
        let Some(scheme) = Scheme::ALL
            .into_iter()
            .find(|s| value.starts_with(s.prefix()))
        else {
            return Err(format!(
                "{} is not an object address (s3://BUCKET/KEY, gs://BUCKET/KEY or az://CONTAINER/KEY)",
                str_repr(value)
            ));
        };
        let rest = &value[scheme.prefix().len()..];
        let (bucket, key) = rest.split_once('/').unwrap_or((rest, ""));
        check_bucket(scheme, bucket).map_err(|why| {
            format!(
                "{}: the {} name {why}",
                str_repr(value),
                scheme.bucket_word()
            )
        })?;
        let prefix = key.ends_with('/') || key.is_empty();
        let key = key.strip_suffix('/').unwrap_or(key);
        check_key(key).map_err(|why| format!("{}: the key {why}", str_repr(value)))?;
        Ok(ObjectUrl {
            scheme,
            bucket: bucket.to_string(),
            key: key.to_string(),
            prefix,
        })
    }

    /// The address as a manifest stores it (no trailing `/`).
    pub fn stored(&self) -> String {
        if self.key.is_empty() {
            format!("{}{}", self.scheme.prefix(), self.bucket)
        } else {
            format!("{}{}/{}", self.scheme.prefix(), self.bucket, self.key)
        }
    }

    /// The key of the object `relative` below this prefix.
    pub fn child_key(&self, relative: &str) -> String {
        if self.key.is_empty() {
            relative.to_string()
        } else {
            format!("{}/{relative}", self.key)
        }
    }
}

impl fmt::Display for ObjectUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.stored())
    }
}

/// Bucket names: 3 to 63 lowercase letters, digits, `-`, `.` (S3, GCS) or `_` (GCS), starting
/// and ending with a letter or digit. Stricter than some stores allow, never looser.
fn check_bucket(scheme: Scheme, bucket: &str) -> Result<(), String> {
    if !(3..=63).contains(&bucket.len()) {
        return Err(format!("{} must be 3 to 63 characters", str_repr(bucket)));
    }
    let allowed = |b: u8| {
        b.is_ascii_lowercase()
            || b.is_ascii_digit()
            || b == b'-'
            || (b == b'.' && scheme != Scheme::Azure)
            || (b == b'_' && scheme == Scheme::Gcs)
    };
    let bytes = bucket.as_bytes();
    if !bytes.iter().all(|b| allowed(*b)) {
        return Err(format!(
            "{} may hold only lowercase letters, digits and '-'{}",
            str_repr(bucket),
            match scheme {
                Scheme::S3 => " or '.'",
                Scheme::Gcs => ", '.' or '_'",
                Scheme::Azure => "",
            }
        ));
    }
    let edge = |b: u8| b.is_ascii_lowercase() || b.is_ascii_digit();
    if !edge(bytes[0]) || !edge(bytes[bytes.len() - 1]) {
        return Err(format!(
            "{} must begin and end with a letter or digit",
            str_repr(bucket)
        ));
    }
    Ok(())
}

/// Keys: at most [`MAX_KEY_BYTES`], `/`-separated segments that are neither empty, `.` nor
/// `..`, no control character and no backslash (so a key means one thing to every store and
/// the relative paths of a prefix's objects obey the local path rules' separators).
fn check_key(key: &str) -> Result<(), String> {
    if key.len() > MAX_KEY_BYTES {
        return Err(format!("is longer than {MAX_KEY_BYTES} bytes"));
    }
    if key.chars().any(|c| c.is_control()) {
        return Err(format!("{} contains a control character", str_repr(key)));
    }
    if key.contains('\\') {
        return Err(format!(
            "{} contains a backslash; use '/' as separator",
            str_repr(key)
        ));
    }
    if !key.is_empty()
        && key
            .split('/')
            .any(|p| p.is_empty() || p == "." || p == "..")
    {
        return Err(format!(
            "{} contains empty, '.' or '..' segments",
            str_repr(key)
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_parse_into_scheme_bucket_and_key() {
        let u = ObjectUrl::parse("s3://my-bucket/data/a.csv").unwrap();
        assert_eq!(
            (u.scheme, u.bucket.as_str(), u.key.as_str(), u.prefix),
            (Scheme::S3, "my-bucket", "data/a.csv", false)
        );
        let p = ObjectUrl::parse("gs://b_1.x/runs/").unwrap();
        assert_eq!((p.key.as_str(), p.prefix), ("runs", true));
        assert_eq!(p.stored(), "gs://b_1.x/runs");
        assert_eq!(p.child_key("a/b"), "runs/a/b");
        let whole = ObjectUrl::parse("az://container").unwrap();
        assert!(whole.prefix);
        assert_eq!(whole.stored(), "az://container");
    }

    #[test]
    fn hostile_addresses_are_refused_with_the_reason() {
        for (bad, why) in [
            ("s3://ab/x", "3 to 63"),
            ("s3://Bucket/x", "lowercase"),
            ("s3://-bucket/x", "begin and end"),
            ("az://my.container/x", "lowercase letters, digits and '-'"),
            ("s3://bucket/a//b", "empty, '.' or '..'"),
            ("s3://bucket/a/../b", "empty, '.' or '..'"),
            ("s3://bucket/a\u{1b}[31m", "control character"),
            ("s3://bucket/a\\b", "backslash"),
            ("http://bucket/a", "not an object address"),
        ] {
            let e = ObjectUrl::parse(bad).unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
        }
        let long = format!("s3://bucket/{}", "k".repeat(MAX_KEY_BYTES + 1));
        assert!(ObjectUrl::parse(&long).unwrap_err().contains("longer"));
    }

    #[test]
    fn a_stored_address_is_never_a_valid_relative_path() {
        // What makes sciproof 0.4.1 refuse such a manifest instead of misreading it.
        for url in ["s3://bucket/a.csv", "gs://bucket/p", "az://container/k"] {
            assert!(crate::paths::validate_relative_path(url).is_err());
        }
    }
}
