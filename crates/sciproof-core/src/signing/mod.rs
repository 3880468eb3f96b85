//! OpenSSH signatures of manifests (PROTOCOL.sshsig), made and checked natively: no
//! `ssh-keygen` is needed at run time. The signature is detached, in `<manifest>.sig`, over the
//! exact bytes of the manifest, in the reference's namespace, so signatures are interchangeable
//! with `ssh-keygen -Y` and with sciproof 0.4.1. Trust comes only from the allowed-signers file
//! the caller names, never from the manifest.

pub mod allowed;
pub mod armor;

pub use allowed::{AllowedSigner, load_allowed_signers, parse_allowed_signers, pattern_matches};

use crate::error::Result;
use crate::json::{Object, Value};
use crate::pyfmt::str_repr;
use ssh_key::{Algorithm, HashAlg, LineEnding, PrivateKey, SshSig};
use std::path::{Path, PathBuf};

/// The namespace of manifest signatures (the reference's, for interchangeability).
pub const NAMESPACE: &str = "sciproof-manifest@hayagrivai-labs";

/// Why a key, a signature or an allowed-signers file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum SigningError {
    /// The allowed-signers file cannot be read, or a line of it is not valid.
    #[error("{0}")]
    AllowedSigners(String),
    /// The key cannot be used (missing, not an OpenSSH private key, no passphrase given).
    #[error("{0}")]
    Key(String),
    /// The key is not a readable OpenSSH private key.
    #[error("cannot read the signing key {}: {source} (an OpenSSH private key is expected)", .key.display())]
    KeyFormat {
        /// The key file.
        key: PathBuf,
        /// What the key reader said.
        #[source]
        source: ssh_key::Error,
    },
    /// The passphrase does not decrypt the key.
    #[error("wrong passphrase for {}", .key.display())]
    WrongPassphrase {
        /// The key file.
        key: PathBuf,
        /// What decryption said.
        #[source]
        source: ssh_key::Error,
    },
    /// Signing failed.
    #[error("cannot sign with {}: {reason}", .key.display())]
    Sign {
        /// The key file.
        key: PathBuf,
        /// Why.
        reason: String,
    },
    /// The signature could not be encoded.
    #[error("cannot encode the signature: {source}")]
    Encode {
        /// What the encoder said.
        #[source]
        source: ssh_key::Error,
    },
}

/// `<manifest>.sig` next to the manifest.
pub fn signature_path(manifest: &Path) -> PathBuf {
    let mut name = manifest
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_default();
    name.push(".sig");
    manifest.with_file_name(name)
}

/// How to obtain the passphrase of an encrypted key.
pub type Passphrase<'a> = &'a dyn Fn(&Path) -> Result<String>;

/// Signs the manifest at `manifest` with the OpenSSH private key at `key` and writes
/// `<manifest>.sig` atomically (an earlier signature is replaced only once the new one exists),
/// under the evidence's lock. The manifest is read once and validated first: nothing that would
/// be refused is signed, and what is signed is exactly what was validated. Returns the
/// signature's path and what was recovered first.
pub fn sign_manifest(
    manifest: &Path,
    key: &Path,
    passphrase: Passphrase,
    wait: crate::commit::lock::Wait,
) -> Result<(PathBuf, Option<String>)> {
    let _lock = crate::commit::lock::lock(manifest, "sign", wait)?;
    let recovered = crate::commit::evidence::settle_locked(manifest)?;
    let loaded = crate::manifest::load(manifest)?;
    let mut private = read_private_key(key)?;
    if private.is_encrypted() {
        let secret = passphrase(key)?;
        private =
            private
                .decrypt(secret.as_bytes())
                .map_err(|source| SigningError::WrongPassphrase {
                    key: key.to_path_buf(),
                    source,
                })?;
    }
    let bytes = loaded.bytes;
    let signature = match private.key_data().rsa() {
        Some(rsa) => sign_rsa(rsa, private.public_key(), &bytes),
        None => private
            .sign(NAMESPACE, HashAlg::Sha512, &bytes)
            .map_err(|e| e.to_string()),
    }
    .map_err(|reason| SigningError::Sign {
        key: key.to_path_buf(),
        reason,
    })?;
    let pem = signature
        .to_pem(LineEnding::LF)
        .map_err(|source| SigningError::Encode { source })?;
    let target = signature_path(manifest);
    crate::manifest::write_atomic(&target, pem.as_bytes())?;
    Ok((target, recovered))
}

/// Reads an OpenSSH private key (bounded, regular files only), with a message that says what
/// was given instead when it is not one (a public key, another format).
fn read_private_key(key: &Path) -> Result<PrivateKey> {
    use crate::untrusted::{Kind, Problem};
    let text = crate::untrusted::read_text(key, Kind::Key).map_err(|e| match e.problem {
        Problem::NotFound => SigningError::Key(format!("signing key not found: {}", key.display())),
        _ => SigningError::Key(e.to_string()),
    })?;
    let trimmed = text.trim_start();
    if !trimmed.starts_with("-----BEGIN OPENSSH PRIVATE KEY-----") {
        let what = if trimmed.starts_with("ssh-") || trimmed.starts_with("ecdsa-") {
            "a public key"
        } else if trimmed.starts_with("-----BEGIN ") {
            "a PEM key in another format (convert it with `ssh-keygen -p -f KEY` to the OpenSSH format)"
        } else {
            "not an OpenSSH private key"
        };
        return Err(SigningError::Key(format!(
            "{} is {what}; sign with an OpenSSH private key (the file without .pub, for example ~/.ssh/id_ed25519)",
            key.display()
        ))
        .into());
    }
    PrivateKey::from_openssh(text.as_bytes()).map_err(|source| {
        SigningError::KeyFormat {
            key: key.to_path_buf(),
            source,
        }
        .into()
    })
}

/// An `rsa-sha2-512` SSHSIG signature. (ssh-key 0.6.7 builds the RSA private key from the
/// primes `p, p` instead of `p, q`, so its own RSA signing always fails; the key is built here
/// from its real components.)
fn sign_rsa(
    keypair: &ssh_key::private::RsaKeypair,
    public: &ssh_key::PublicKey,
    message: &[u8],
) -> std::result::Result<SshSig, String> {
    use rsa::signature::{SignatureEncoding, Signer};
    let big = |m: &ssh_key::Mpint| {
        m.as_positive_bytes()
            .map(rsa::BigUint::from_bytes_be)
            .ok_or_else(|| "malformed RSA key".to_string())
    };
    let private = rsa::RsaPrivateKey::from_components(
        big(&keypair.public.n)?,
        big(&keypair.public.e)?,
        big(&keypair.private.d)?,
        vec![big(&keypair.private.p)?, big(&keypair.private.q)?],
    )
    .map_err(|e| e.to_string())?;
    let signed_data =
        SshSig::signed_data(NAMESPACE, HashAlg::Sha512, message).map_err(|e| e.to_string())?;
    let signer = rsa::pkcs1v15::SigningKey::<ssh_key::sha2::Sha512>::new(private);
    let data = signer
        .try_sign(&signed_data)
        .map_err(|e| e.to_string())?
        .to_vec();
    let signature = ssh_key::Signature::new(
        Algorithm::Rsa {
            hash: Some(HashAlg::Sha512),
        },
        data,
    )
    .map_err(|e| e.to_string())?;
    SshSig::new(
        public.key_data().clone(),
        NAMESPACE,
        HashAlg::Sha512,
        signature,
    )
    .map_err(|e| e.to_string())
}

/// The outcome of checking a manifest's signature.
#[derive(Debug, Clone, PartialEq)]
pub struct SignatureResult {
    /// `good`, `bad`, `missing` or `unavailable`.
    pub status: &'static str,
    /// What the check found, in words.
    pub message: String,
    /// The signature file.
    pub signature_file: String,
    /// Who signed, when the signature is good.
    pub principal: Option<String>,
    /// The key's type.
    pub key_type: Option<String>,
    /// The key's SHA-256 fingerprint.
    pub fingerprint: Option<String>,
}

impl SignatureResult {
    /// The `manifest_signature` evidence fields (after `kind`).
    pub fn evidence(&self) -> Object {
        Object::new()
            .with("kind", "manifest_signature")
            .with("namespace", NAMESPACE)
            .with("signature_file", &self.signature_file)
            .with("principal", self.principal.clone())
            .with("key_type", self.key_type.clone())
            .with("fingerprint", self.fingerprint.clone())
    }

    /// `report.signature`: the status first, then the evidence fields.
    pub fn to_json(&self) -> Value {
        let mut o = Object::new().with("status", self.status);
        for (k, v) in self.evidence().iter() {
            o.insert(k, v.clone());
        }
        o.into()
    }
}

fn key_type(algorithm: &Algorithm) -> String {
    match algorithm {
        Algorithm::Ed25519 => "ED25519".into(),
        Algorithm::Ecdsa { .. } => "ECDSA".into(),
        Algorithm::Rsa { .. } => "RSA".into(),
        Algorithm::Dsa => "DSA".into(),
        other => other.as_str().to_uppercase(),
    }
}

/// Checks `<manifest>.sig` against the allowed signers (`now` is the Unix time for
/// `valid-after`/`valid-before`). Never executes anything.
pub fn check_signature(
    manifest: &Path,
    bytes: &[u8],
    signers: &[AllowedSigner],
    now: i64,
) -> SignatureResult {
    let sig_path = signature_path(manifest);
    let name = sig_path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let result = |status, message: String| SignatureResult {
        status,
        message,
        signature_file: name.clone(),
        principal: None,
        key_type: None,
        fingerprint: None,
    };
    let pem = match crate::untrusted::read(&sig_path, crate::untrusted::Kind::Signature) {
        Ok(p) => p,
        Err(e) if e.is_not_found() => {
            return result(
                "missing",
                format!("no signature file {name} next to the manifest"),
            );
        }
        Err(e) => return result("unavailable", e.to_string()),
    };
    let not_listed = || {
        result(
            "bad",
            format!(
                "{name} was not made by a key listed in the allowed signers file (or the signature file is damaged)"
            ),
        )
    };
    let signature = match armor::parse(&pem) {
        Ok(signature) => signature,
        Err(why) => {
            return result(
                "bad",
                format!("{name} is not a signature that ssh-keygen would read: {why}"),
            );
        }
    };
    let candidates: Vec<&AllowedSigner> = signers
        .iter()
        .filter(|s| s.key.key_data() == signature.public_key())
        .collect();
    if candidates.is_empty() {
        return not_listed();
    }
    if signature.namespace() != NAMESPACE {
        return result(
            "bad",
            format!(
                "{name} was made for the namespace {}, not {}: it is not a manifest signature",
                str_repr(signature.namespace()),
                str_repr(NAMESPACE)
            ),
        );
    }
    let mut refusals = Vec::new();
    for signer in candidates {
        if let Some(patterns) = &signer.namespaces
            && !patterns.iter().any(|p| pattern_matches(p, NAMESPACE))
        {
            refusals.push(format!(
                "the allowed signers entry of {} (line {}) does not allow the namespace {}",
                str_repr(&signer.principals),
                signer.line,
                str_repr(NAMESPACE)
            ));
            continue;
        }
        if signer.valid_before.is_some_and(|t| now >= t) {
            refusals.push(format!(
                "the key of {} expired (valid-before, line {})",
                str_repr(&signer.principals),
                signer.line
            ));
            continue;
        }
        if signer.valid_after.is_some_and(|t| now < t) {
            refusals.push(format!(
                "the key of {} is not valid yet (valid-after, line {})",
                str_repr(&signer.principals),
                signer.line
            ));
            continue;
        }
        if signer.key.verify(NAMESPACE, bytes, &signature).is_ok() {
            let key_type = key_type(&signer.key.algorithm());
            let fingerprint = signer.key.fingerprint(HashAlg::Sha256).to_string();
            return SignatureResult {
                status: "good",
                message: format!(
                    "good signature by {} ({key_type} key {fingerprint})",
                    str_repr(&signer.principals)
                ),
                signature_file: name.clone(),
                principal: Some(signer.principals.clone()),
                key_type: Some(key_type),
                fingerprint: Some(fingerprint),
            };
        }
        refusals.push(format!(
            "the signature {name} does not match this manifest: it was modified after signing, or signed for another purpose"
        ));
    }
    result("bad", refusals.join("; "))
}
