//! Reading a file that is about to be replaced, letting the kernel free its cached pages as
//! they are read (`posix_fadvise(DONTNEED)`, on Linux), [`EVICT_STEP`] bytes at a time.
//!
//! A command that reads a large file to write its replacement (`graph verify` of a gigabyte)
//! otherwise holds both in the page cache at once, and the new file's pages are memory the
//! system has to find (on a virtual machine whose host backs a page only when it is first
//! touched, the copy into them took more processor time than anything else of the write); the
//! old file's pages would only be freed by the rename at the end. Freed as the reading goes,
//! they are the pages the new file's writing takes next. The file's content is never touched:
//! a reader after us (or after a failure, when the file stays) reads it from disk.

use std::fs::File;
use std::io::Read;

/// Bytes read between two requests to free what was read.
pub const EVICT_STEP: u64 = 16 << 20;

/// A [`File`] read from its start, whose pages are freed behind the reading when `evict`.
pub struct Evicting {
    file: File,
    evict: bool,
    steps: super::steps::Steps,
}

impl Evicting {
    /// Reads `file`; frees its pages behind the reading only when `evict`.
    pub fn new(file: File, evict: bool) -> Evicting {
        Evicting {
            file,
            evict,
            steps: super::steps::Steps::new(EVICT_STEP),
        }
    }
}

impl Read for Evicting {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.file.read(buf)?;
        if let Some(range) = self.steps.advance(n)
            && self.evict
        {
            free_pages(&self.file, range);
        }
        Ok(n)
    }
}

/// Asks the kernel to free the cached pages of the range (offset, length) of `file`.
#[cfg(target_os = "linux")]
fn free_pages(file: &File, (offset, len): (u64, u64)) {
    use std::os::fd::AsRawFd;
    // SAFETY: advice about a range of a descriptor we own; a failure only means the pages stay
    // cached until the file is replaced.
    unsafe {
        libc::posix_fadvise(
            file.as_raw_fd(),
            offset as libc::off_t,
            len as libc::off_t,
            libc::POSIX_FADV_DONTNEED,
        );
    }
}

/// (elsewhere the pages stay cached until the file is replaced)
#[cfg(not(target_os = "linux"))]
fn free_pages(_: &File, _: (u64, u64)) {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// How many of the first `len` bytes of `file` are in the page cache, in pages.
    #[cfg(target_os = "linux")]
    fn resident_pages(file: &File, len: usize) -> usize {
        use std::os::fd::AsRawFd;
        let page = 4096;
        let pages = len.div_ceil(page);
        let mut flags = vec![0u8; pages];
        // SAFETY: a read-only shared mapping of a file we hold open, unmapped before return;
        // mincore writes one byte per page into a buffer of that many bytes.
        unsafe {
            let at = libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ,
                libc::MAP_SHARED,
                file.as_raw_fd(),
                0,
            );
            assert_ne!(at, libc::MAP_FAILED);
            assert_eq!(libc::mincore(at, len, flags.as_mut_ptr()), 0);
            libc::munmap(at, len);
        }
        flags.iter().filter(|&&f| f & 1 == 1).count()
    }

    #[test]
    fn every_byte_is_read_and_the_pages_behind_the_reading_are_freed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.json");
        let bytes: Vec<u8> = (0..3 * EVICT_STEP as usize + 5)
            .map(|i| (i % 253) as u8)
            .collect();
        let mut file = File::create(&path).unwrap();
        file.write_all(&bytes).unwrap();
        // (clean pages: only those are freed at once)
        file.sync_all().unwrap();
        for evict in [false, true] {
            let mut back = Vec::new();
            Evicting::new(File::open(&path).unwrap(), evict)
                .read_to_end(&mut back)
                .unwrap();
            assert!(
                back == bytes,
                "evict {evict}: the bytes read are the file's"
            );
            #[cfg(target_os = "linux")]
            {
                let file = File::open(&path).unwrap();
                let behind = 3 * EVICT_STEP as usize;
                let resident = resident_pages(&file, behind);
                // SAFETY: statfs into a zeroed struct of its type, of a path we made.
                let tmpfs = unsafe {
                    let mut fs: libc::statfs = std::mem::zeroed();
                    let c =
                        std::ffi::CString::new(dir.path().as_os_str().as_encoded_bytes()).unwrap();
                    libc::statfs(c.as_ptr(), &mut fs) == 0
                        && fs.f_type == libc::TMPFS_MAGIC as libc::c_long
                };
                // (on tmpfs a file's pages are its storage, never freed by advice)
                if !tmpfs {
                    let all = behind / 4096;
                    match evict {
                        true => assert!(resident < all / 4, "{resident} of {all} pages kept"),
                        false => assert!(resident > all / 2, "{resident} of {all} pages kept"),
                    }
                }
            }
        }
    }
}
