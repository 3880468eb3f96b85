//! SHA-256 of files and bytes, streamed with constant memory.
//!
//! The `sha2` crate detects the CPU's SHA extensions at run time, so hashing runs at the speed
//! of `openssl dgst -sha256`.

use crate::progress::Progress;
use sha2::{Digest, Sha256};
use std::io::{self, Read};
use std::path::Path;

const CHUNK: usize = 1 << 20;

/// Lower-case hex SHA-256 of `data`.
pub fn sha256_bytes(data: &[u8]) -> String {
    hex::encode(Sha256::digest(data))
}

/// `(lower-case hex SHA-256, size in bytes)` of the file at `path`, read in 1 MiB chunks;
/// `progress` is advanced by the bytes read.
pub fn sha256_file(path: &Path, progress: &dyn Progress) -> io::Result<(String, u64)> {
    let (mut file, _) = crate::untrusted::open_regular(path)?;
    sha256_reader(&mut file, progress)
}

/// [`sha256_file`] for a file a directory walk has just listed as a regular file: opened
/// without blocking (an entry swapped for a FIFO meanwhile reads as empty, it cannot hang)
/// and without a second status call, which would cost a system call per file of a large tree.
pub fn sha256_listed(path: &Path) -> io::Result<(String, u64)> {
    use std::os::unix::fs::OpenOptionsExt;
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_CLOEXEC | libc::O_NOCTTY)
        .open(path)?;
    sha256_reader(&mut file, &crate::progress::NoProgress)
}

thread_local! {
    // One read buffer per thread, reused: zeroing 1 MiB per small file would cost more than
    // hashing it.
    static BUFFER: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// `(hex SHA-256, size)` of everything `reader` yields.
pub fn sha256_reader(reader: &mut dyn Read, progress: &dyn Progress) -> io::Result<(String, u64)> {
    BUFFER.with(|cell| match cell.try_borrow_mut() {
        Ok(mut buffer) => {
            if buffer.len() < CHUNK {
                buffer.resize(CHUNK, 0);
            }
            hash_with(reader, progress, &mut buffer)
        }
        Err(_) => hash_with(reader, progress, &mut vec![0u8; CHUNK]),
    })
}

fn hash_with(
    reader: &mut dyn Read,
    progress: &dyn Progress,
    buffer: &mut [u8],
) -> io::Result<(String, u64)> {
    let mut hasher = Sha256::new();
    let mut size = 0u64;
    loop {
        // A termination signal during a critical section stops long hashing at once.
        if let Some(signal) = crate::interrupt::pending() {
            return Err(io::Error::other(signal.to_string()));
        }
        let n = match reader.read(buffer) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        hasher.update(&buffer[..n]);
        size += n as u64;
        progress.advance(n as u64);
    }
    Ok((hex::encode(hasher.finalize()), size))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::NoProgress;

    #[test]
    fn known_digests() {
        assert_eq!(
            sha256_bytes(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        let mut data: &[u8] = b"abc";
        let (digest, size) = sha256_reader(&mut data, &NoProgress).unwrap();
        assert_eq!(
            digest,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(size, 3);
    }
}
