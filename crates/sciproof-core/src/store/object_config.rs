//! How each object store is configured: the way its own ecosystem expects, from the
//! environment (and, for S3, the shared `~/.aws` profile files), never from a manifest.
//!
//! - **S3 and S3-compatible stores**: `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`,
//!   `AWS_SESSION_TOKEN`, `AWS_REGION` (or `AWS_DEFAULT_REGION`), `AWS_ENDPOINT_URL` for
//!   Ceph, SeaweedFS or MinIO; without keys in the environment, the profile `AWS_PROFILE`
//!   (default `default`) of `AWS_SHARED_CREDENTIALS_FILE` (default `~/.aws/credentials`) and
//!   `AWS_CONFIG_FILE` (default `~/.aws/config`); then web identity, container and instance
//!   credentials as `object_store` finds them (instance metadata unless
//!   `AWS_EC2_METADATA_DISABLED=true`). An `http://` endpoint is allowed because the user
//!   wrote it; nothing else is ever fetched over plain HTTP.
//! - **Google Cloud Storage**: `GOOGLE_APPLICATION_CREDENTIALS` (or `GOOGLE_SERVICE_ACCOUNT`)
//!   and the other `GOOGLE_*` keys `object_store` reads.
//! - **Azure Blob Storage**: `AZURE_STORAGE_ACCOUNT_NAME`, `AZURE_STORAGE_ACCOUNT_KEY` (or a
//!   SAS token, or a service principal), `AZURE_STORAGE_USE_EMULATOR=true` for Azurite.
//!
//! Retries are few and short (a store that is down is reported as unreachable within seconds,
//! not minutes), and no credential is ever written to a manifest, a report or an error.

use super::object_url::{ObjectUrl, Scheme};
use object_store::aws::{AmazonS3Builder, AmazonS3ConfigKey};
use object_store::azure::MicrosoftAzureBuilder;
use object_store::gcp::GoogleCloudStorageBuilder;
use object_store::{BackoffConfig, ClientOptions, ObjectStore, RetryConfig};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// The environment a store is configured from (a map, so tests need not change the
/// process's environment).
pub type Env = HashMap<String, String>;

/// The process's environment.
pub fn process_env() -> Env {
    std::env::vars().collect()
}

/// Why a store could not be set up: credentials or configuration. Never holds a secret.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConfigProblem {
    /// No credentials were found where the store's ecosystem looks for them.
    NoCredentials(String),
    /// The configuration is unusable.
    Invalid(String),
}

impl std::fmt::Display for ConfigProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ConfigProblem::NoCredentials(m) => write!(f, "missing credentials: {m}"),
            ConfigProblem::Invalid(m) => write!(f, "invalid configuration: {m}"),
        }
    }
}

fn retry() -> RetryConfig {
    RetryConfig {
        backoff: BackoffConfig {
            init_backoff: Duration::from_millis(100),
            max_backoff: Duration::from_secs(2),
            base: 2.0,
        },
        max_retries: 3,
        retry_timeout: Duration::from_secs(15),
    }
}

fn client_options() -> ClientOptions {
    ClientOptions::new()
        .with_connect_timeout(Duration::from_secs(5))
        .with_timeout(Duration::from_secs(300))
}

fn get<'a>(env: &'a Env, key: &str) -> Option<&'a str> {
    env.get(key).map(String::as_str).filter(|v| !v.is_empty())
}

fn home(env: &Env) -> Option<PathBuf> {
    get(env, "HOME").map(PathBuf::from)
}

/// The keys of section `section` of an INI file as the AWS tools write it (`[name]`, then
/// `key = value` lines; `#` and `;` start comments).
pub fn ini_section(text: &str, section: &str) -> Option<HashMap<String, String>> {
    let mut current: Option<&str> = None;
    let mut found: Option<HashMap<String, String>> = None;
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            current = Some(name.trim());
            if current == Some(section) {
                found.get_or_insert_with(HashMap::new);
            }
            continue;
        }
        if current == Some(section)
            && let Some((key, value)) = line.split_once('=')
            && let Some(map) = found.as_mut()
        {
            map.insert(key.trim().to_ascii_lowercase(), value.trim().to_string());
        }
    }
    found
}

/// Credentials and settings of the AWS profile the environment selects, from the shared
/// credentials and config files (what the AWS CLI and SDKs read).
fn aws_profile(env: &Env) -> HashMap<String, String> {
    let profile = get(env, "AWS_PROFILE").unwrap_or("default");
    let file = |var: &str, default: &str| {
        get(env, var)
            .map(PathBuf::from)
            .or_else(|| home(env).map(|h| h.join(".aws").join(default)))
    };
    let read = |path: Option<PathBuf>| path.and_then(|p| std::fs::read_to_string(p).ok());
    let mut settings = HashMap::new();
    // config: `[profile NAME]`, or `[default]`
    if let Some(text) = read(file("AWS_CONFIG_FILE", "config")) {
        let section = if profile == "default" {
            "default".to_string()
        } else {
            format!("profile {profile}")
        };
        settings.extend(ini_section(&text, &section).unwrap_or_default());
    }
    if let Some(text) = read(file("AWS_SHARED_CREDENTIALS_FILE", "credentials")) {
        settings.extend(ini_section(&text, profile).unwrap_or_default());
    }
    settings
}

/// The non-empty variables of `env` named `PREFIX...` that the store's configuration knows
/// (as `object_store`'s `from_env` reads them, but from `env`).
fn settings<'a, K: std::str::FromStr>(env: &'a Env, prefix: &str) -> Vec<(K, &'a str)> {
    env.iter()
        .filter(|(key, value)| key.starts_with(prefix) && !value.is_empty())
        .filter_map(|(key, value)| Some((key.to_ascii_lowercase().parse().ok()?, value.as_str())))
        .collect()
}

/// A built client, or why it could not be built.
fn built<S: ObjectStore>(
    result: object_store::Result<S>,
) -> Result<Arc<dyn ObjectStore>, ConfigProblem> {
    result
        .map(|s| Arc::new(s) as Arc<dyn ObjectStore>)
        .map_err(|e| ConfigProblem::Invalid(super::object::one_line(&e.to_string())))
}

fn s3(url: &ObjectUrl, env: &Env) -> Result<Arc<dyn ObjectStore>, ConfigProblem> {
    // Client options first: they hold `allow_http`, which the settings below may set.
    let mut builder = AmazonS3Builder::new()
        .with_client_options(client_options())
        .with_retry(retry())
        .with_bucket_name(&url.bucket);
    for (config, value) in settings::<AmazonS3ConfigKey>(env, "AWS_") {
        builder = builder.with_config(config, value);
    }
    if let Some(region) = get(env, "AWS_REGION").or_else(|| get(env, "AWS_DEFAULT_REGION")) {
        builder = builder.with_config(AmazonS3ConfigKey::Region, region);
    }
    let has_keys = get(env, "AWS_ACCESS_KEY_ID").is_some();
    let profile = aws_profile(env);
    if !has_keys {
        for (file_key, config) in [
            ("aws_access_key_id", AmazonS3ConfigKey::AccessKeyId),
            ("aws_secret_access_key", AmazonS3ConfigKey::SecretAccessKey),
            ("aws_session_token", AmazonS3ConfigKey::Token),
        ] {
            if let Some(v) = profile.get(file_key) {
                builder = builder.with_config(config, v);
            }
        }
    }
    if get(env, "AWS_REGION").is_none()
        && get(env, "AWS_DEFAULT_REGION").is_none()
        && let Some(region) = profile.get("region")
    {
        builder = builder.with_config(AmazonS3ConfigKey::Region, region);
    }
    let endpoint = get(env, "AWS_ENDPOINT_URL_S3")
        .or_else(|| get(env, "AWS_ENDPOINT_URL"))
        .or_else(|| get(env, "AWS_ENDPOINT"))
        .map(str::to_string)
        .or_else(|| profile.get("endpoint_url").cloned());
    if let Some(endpoint) = &endpoint {
        builder = builder.with_config(AmazonS3ConfigKey::Endpoint, endpoint);
        if endpoint.starts_with("http://") {
            builder = builder.with_allow_http(true);
        }
        // S3-compatible stores are addressed by path (`endpoint/bucket/key`), not by a
        // bucket's own host name, unless the user says otherwise.
        if get(env, "AWS_VIRTUAL_HOSTED_STYLE_REQUEST").is_none() {
            builder = builder.with_config(AmazonS3ConfigKey::VirtualHostedStyleRequest, "false");
        }
    }
    let found_keys = has_keys || profile.contains_key("aws_access_key_id");
    let other_source = get(env, "AWS_WEB_IDENTITY_TOKEN_FILE").is_some()
        || get(env, "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI").is_some()
        || get(env, "AWS_CONTAINER_CREDENTIALS_FULL_URI").is_some();
    let metadata_disabled =
        get(env, "AWS_EC2_METADATA_DISABLED").is_some_and(|v| v.eq_ignore_ascii_case("true"));
    if !found_keys && !other_source && metadata_disabled {
        return Err(ConfigProblem::NoCredentials(
            "set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE with a profile in ~/.aws/credentials".into(),
        ));
    }
    built(builder.build())
}

fn gcs(url: &ObjectUrl, env: &Env) -> Result<Arc<dyn ObjectStore>, ConfigProblem> {
    let mut builder = GoogleCloudStorageBuilder::new()
        .with_client_options(client_options())
        .with_retry(retry())
        .with_bucket_name(&url.bucket);
    for (config, value) in settings(env, "GOOGLE_") {
        builder = builder.with_config(config, value);
    }
    built(builder.build())
}

fn azure(url: &ObjectUrl, env: &Env) -> Result<Arc<dyn ObjectStore>, ConfigProblem> {
    let mut builder = MicrosoftAzureBuilder::new()
        .with_client_options(client_options())
        .with_retry(retry())
        .with_container_name(&url.bucket);
    for (config, value) in settings(env, "AZURE_") {
        builder = builder.with_config(config, value);
    }
    let emulator = get(env, "AZURE_STORAGE_USE_EMULATOR").is_some_and(|v| v == "true");
    if get(env, "AZURE_STORAGE_ACCOUNT_NAME").is_none() && !emulator {
        return Err(ConfigProblem::NoCredentials(
            "set AZURE_STORAGE_ACCOUNT_NAME and AZURE_STORAGE_ACCOUNT_KEY (or a SAS token or service principal), or AZURE_STORAGE_USE_EMULATOR=true for Azurite".into(),
        ));
    }
    if emulator {
        builder = builder.with_allow_http(true);
    }
    built(builder.build())
}

/// A client for the bucket of `url`, configured from `env`.
pub fn client(url: &ObjectUrl, env: &Env) -> Result<Arc<dyn ObjectStore>, ConfigProblem> {
    match url.scheme {
        Scheme::S3 => s3(url, env),
        Scheme::Gcs => gcs(url, env),
        Scheme::Azure => azure(url, env),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> Env {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    fn url(u: &str) -> ObjectUrl {
        ObjectUrl::parse(u).unwrap()
    }

    #[test]
    fn ini_sections_are_read_as_the_aws_tools_write_them() {
        let text = "# comment\n[default]\naws_access_key_id = AK\n[other]\nAWS_Secret_Access_Key=SK ; not a comment here\n";
        assert_eq!(
            ini_section(text, "default").unwrap()["aws_access_key_id"],
            "AK"
        );
        assert_eq!(
            ini_section(text, "other").unwrap()["aws_secret_access_key"],
            "SK ; not a comment here"
        );
        assert!(ini_section(text, "missing").is_none());
    }

    #[test]
    fn s3_is_configured_from_the_environment_or_a_profile() {
        let keys = env(&[
            ("AWS_ACCESS_KEY_ID", "a"),
            ("AWS_SECRET_ACCESS_KEY", "s"),
            ("AWS_ENDPOINT_URL", "http://127.0.0.1:9"),
            ("AWS_REGION", "us-east-1"),
        ]);
        assert!(client(&url("s3://bucket/k"), &keys).is_ok());
        let dir = tempfile::tempdir().unwrap();
        let creds = dir.path().join("credentials");
        std::fs::write(
            &creds,
            "[lab]\naws_access_key_id = a\naws_secret_access_key = s\n",
        )
        .unwrap();
        let profile = env(&[
            ("AWS_PROFILE", "lab"),
            ("AWS_SHARED_CREDENTIALS_FILE", creds.to_str().unwrap()),
            ("AWS_CONFIG_FILE", "/nonexistent"),
            ("AWS_EC2_METADATA_DISABLED", "true"),
        ]);
        assert!(client(&url("s3://bucket/k"), &profile).is_ok());
        let nothing = env(&[
            ("AWS_EC2_METADATA_DISABLED", "true"),
            ("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent"),
            ("AWS_CONFIG_FILE", "/nonexistent"),
        ]);
        let e = client(&url("s3://bucket/k"), &nothing).err().unwrap();
        assert!(matches!(e, ConfigProblem::NoCredentials(_)), "{e}");
    }

    #[test]
    fn gcs_and_azure_configuration_is_parsed_by_object_store() {
        // A service-account key that is not JSON is refused when the client is built.
        let bad = env(&[("GOOGLE_SERVICE_ACCOUNT_KEY", "not json")]);
        let e = client(&url("gs://bucket/k"), &bad).err().unwrap();
        assert!(matches!(e, ConfigProblem::Invalid(_)), "{e}");
        let dir = tempfile::tempdir().unwrap();
        let key = dir.path().join("sa.json");
        std::fs::write(
            &key,
            r#"{"private_key": "-----BEGIN PRIVATE KEY-----\n-----END PRIVATE KEY-----\n", "client_email": "x@y"}"#,
        )
        .unwrap();
        let good = env(&[("GOOGLE_APPLICATION_CREDENTIALS", key.to_str().unwrap())]);
        let built = client(&url("gs://bucket/k"), &good);
        // object_store reads the file; a key it cannot use is a configuration problem, never
        // a panic or a silent anonymous client.
        if let Err(e) = built {
            assert!(matches!(e, ConfigProblem::Invalid(_)), "{e}");
        }

        let none = env(&[]);
        let e = client(&url("az://container/k"), &none).err().unwrap();
        assert!(matches!(e, ConfigProblem::NoCredentials(_)), "{e}");
        let emulator = env(&[("AZURE_STORAGE_USE_EMULATOR", "true")]);
        assert!(client(&url("az://container/k"), &emulator).is_ok());
        let account = env(&[
            ("AZURE_STORAGE_ACCOUNT_NAME", "acct"),
            ("AZURE_STORAGE_ACCOUNT_KEY", "a2V5"),
        ]);
        assert!(client(&url("az://container/k"), &account).is_ok());
    }
}
