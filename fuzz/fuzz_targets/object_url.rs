//! Object addresses (`s3://`, `gs://`, `az://`) as users type them and manifests store them:
//! an address or an error, never a panic; an accepted address is stored in a form that parses
//! back to itself, that no local path rule accepts (so sciproof 0.4.1 refuses it), and whose
//! key has no empty, `.` or `..` segment, backslash or control character.
#![no_main]
use sciproof_core::store::object_url::{ObjectUrl, is_object_url};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for candidate in [
        text.to_string(),
        format!("s3://{text}"),
        format!("az://bucket/{text}"),
    ] {
        let Ok(url) = ObjectUrl::parse(&candidate) else {
            continue;
        };
        let stored = url.stored();
        assert!(is_object_url(&stored));
        let again = ObjectUrl::parse(&stored).expect("a stored address parses");
        assert_eq!(
            (again.scheme, &again.bucket, &again.key),
            (url.scheme, &url.bucket, &url.key)
        );
        assert_eq!(again.stored(), stored);
        assert!(sciproof_core::paths::validate_relative_path(&stored).is_err());
        assert!(!url.key.contains('\\') && !url.key.chars().any(char::is_control));
        assert!(
            url.key.is_empty()
                || url
                    .key
                    .split('/')
                    .all(|s| !s.is_empty() && s != "." && s != "..")
        );
    }
});
