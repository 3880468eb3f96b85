//! A folder of this process's own under the system's temporary directory for the files one run
//! of a target writes, removed with them when the run ends (libFuzzer ends the process with
//! `exit`, so a folder kept for the whole process would be left behind).

use std::path::{Path, PathBuf};

pub struct Scratch(PathBuf);

impl Scratch {
    /// `sciproof-fuzz-NAME-PID`, created.
    pub fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("sciproof-fuzz-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
