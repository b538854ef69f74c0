//! `gobo serve` as a real process on a loopback socket: answers equal to the CLI's, graceful
//! shutdown that finishes a request in flight, the viewer page driven in headless Chromium, `kill -9` during a 10,000-row batch job and a
//! restart that completes it with every row exactly once (and the same rows as
//! `gobo xlogo eval --batch`), `kill -9` after 35 session actions with no snapshot since the
//! session was made and a restart that brings the same session back, and clear start-up
//! errors for a read-only or full data folder.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

#[path = "../../../tests-support/reference.rs"]
mod reference;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gobo-serve-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    dir
}

/// A running `gobo serve`.
struct Server {
    child: Child,
    addr: SocketAddr,
}

impl Server {
    fn start(data: &Path, extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_gobo"))
            .args(["serve", "--addr", "127.0.0.1:0", "--data"])
            .arg(data)
            .args(extra)
            .stderr(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("gobo serve: {e}"));
        let stderr = child.stderr.take().unwrap_or_else(|| panic!("no stderr"));
        let mut lines = BufReader::new(stderr).lines();
        let addr = loop {
            let line = match lines.next() {
                Some(Ok(l)) => l,
                other => panic!("gobo serve ended before listening: {other:?}"),
            };
            if let Some(rest) = line.split("http://").nth(1) {
                let addr = rest.split_whitespace().next().unwrap_or("");
                break addr.parse().unwrap_or_else(|e| panic!("{line}: {e}"));
            }
        };
        // Keep draining stderr so the server never blocks on it.
        std::thread::spawn(move || for _ in lines {});
        Server { child, addr }
    }

    fn request(&self, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
        request(self.addr, method, path, body)
    }

    fn signal(&self, sig: &str) {
        let status = Command::new("kill").arg(sig).arg(self.child.id().to_string()).status();
        assert!(status.is_ok_and(|s| s.success()), "kill {sig}");
    }

    fn wait(mut self) -> std::process::ExitStatus {
        self.child.wait().unwrap_or_else(|e| panic!("{e}"))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP/1.0 request (the answer body runs to the end of the connection).
fn request(addr: SocketAddr, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap_or_else(|e| panic!("connect {addr}: {e}"));
    let body = body.unwrap_or("");
    let head = format!(
        "{method} {path} HTTP/1.0\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes())
        .and_then(|()| s.write_all(body.as_bytes()))
        .unwrap_or_else(|e| panic!("{e}"));
    let mut answer = Vec::new();
    s.read_to_end(&mut answer).unwrap_or_else(|e| panic!("{e}"));
    let text = String::from_utf8_lossy(&answer).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, body.to_string())
}

fn gobo(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_gobo")).args(args).output().unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn answers_on_a_real_socket_equal_the_cli_and_shutdown_is_graceful() {
    let data = temp_dir("socket");
    let server = Server::start(&data, &["--workers", "2"]);
    let (status, health) = server.request("GET", "/healthz", None);
    assert_eq!(status, 200, "{health}");

    let task = read("examples/xlogo/find-strawberry.json");
    let code = json!(read("examples/xlogo/find-strawberry.py"));
    let (status, verdict) = server.request(
        "POST",
        "/v1/xlogo/eval",
        Some(&format!("{{\"task\": {task}, \"code\": {code}}}")),
    );
    assert_eq!(status, 200);
    let (t, c) = (
        root().join("examples/xlogo/find-strawberry.json"),
        root().join("examples/xlogo/find-strawberry.py"),
    );
    let cli = gobo(&["xlogo", "eval", t.to_str().unwrap_or(""), c.to_str().unwrap_or("")]);
    assert_eq!(verdict.trim(), String::from_utf8_lossy(&cli.stdout).trim());

    let project = read("examples/scratch/quiz/project.json");
    let suite = read("examples/scratch/quiz/suite.json");
    let (status, report) = server.request(
        "POST",
        "/v1/tests/run",
        Some(&format!("{{\"project\": {project}, \"suite\": {suite}, \"seeds\": 2}}")),
    );
    assert_eq!(status, 200);
    let quiz = root().join("examples/scratch/quiz");
    let cli = gobo(&[
        "test",
        quiz.join("project.json").to_str().unwrap_or(""),
        quiz.join("suite.json").to_str().unwrap_or(""),
        "--seeds",
        "2",
        "--json",
    ]);
    assert_eq!(report.trim(), String::from_utf8_lossy(&cli.stdout).trim());

    // A request in flight when SIGTERM arrives is answered in full before the process exits.
    // 100 seeds (the default budget's most) take about 0.7 s on a 2-core machine; the signal
    // goes 100 ms after the request.
    let timing = format!(
        "{{\"project\": {}, \"suite\": {}, \"seeds\": 100}}",
        read("examples/scratch/timing/project.json"),
        read("examples/scratch/timing/suite.json")
    );
    let addr = server.addr;
    let slow = std::thread::spawn(move || {
        let started = Instant::now();
        let answer = request(addr, "POST", "/v1/tests/run", Some(&timing));
        (answer, started.elapsed())
    });
    std::thread::sleep(Duration::from_millis(100));
    server.signal("-TERM");
    let ((status, body), took) = slow.join().unwrap_or_else(|_| panic!("request thread"));
    assert_eq!(status, 200, "{body}");
    let v: Value = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}"));
    assert_eq!(v["seeds"].as_array().map(Vec::len), Some(100));
    assert!(took > Duration::from_millis(100), "the request ended before the signal ({took:?})");
    let exit = server.wait();
    assert!(exit.success(), "{exit:?}");
    let _ = std::fs::remove_dir_all(&data);
}

fn job_status(server: &Server, id: &str) -> Value {
    let (_, body) = server.request("GET", &format!("/v1/batch/{id}"), None);
    serde_json::from_str(&body).unwrap_or(Value::Null)
}

#[test]
fn kill_9_during_a_10000_row_job_then_restart_finishes_every_row_once() {
    let data = temp_dir("kill9");
    let task: Value =
        serde_json::from_str(&read("examples/xlogo/find-strawberry.json")).unwrap_or_default();
    let good = read("examples/xlogo/find-strawberry.py");
    let rows: Vec<Value> = (0..10_000)
        .map(|i| json!({"id": format!("r{i}"), "task": task, "code": if i % 3 == 0 { "def run(): nope" } else { good.as_str() }}))
        .collect();
    let manifest = data.join("rows.jsonl");
    let lines: String = rows.iter().map(|r| format!("{r}\n")).collect();
    std::fs::write(&manifest, lines).unwrap_or_else(|e| panic!("{e}"));
    let db = data.join("db");

    let server = Server::start(&db, &["--workers", "2", "--batch-workers", "1"]);
    let body = json!({"kind": "xlogo", "rows": rows}).to_string();
    let (status, answer) = server.request("POST", "/v1/batch", Some(&body));
    assert_eq!(status, 202, "{answer}");
    let id = serde_json::from_str::<Value>(&answer).unwrap_or_default()["job_id"]
        .as_str()
        .unwrap_or("")
        .to_string();
    let start = Instant::now();
    let done_before = loop {
        let done = job_status(&server, &id)["done"].as_u64().unwrap_or(0);
        if done >= 500 || start.elapsed() > Duration::from_secs(120) {
            break done;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    server.signal("-KILL");
    let _ = server.wait();
    assert!(
        (500..10_000).contains(&done_before),
        "the job was not cut midway: {done_before} rows done"
    );

    let server = Server::start(&db, &["--workers", "2"]);
    let (status, streamed) =
        server.request("GET", &format!("/v1/batch/{id}/results?wait=true"), None);
    assert_eq!(status, 200);
    let got: Vec<&str> = streamed.lines().collect();
    assert_eq!(got.len(), 10_000);
    let st = job_status(&server, &id);
    assert_eq!((st["state"].as_str(), st["done"].as_u64()), (Some("done"), Some(10_000)));

    // The same rows, in the same order, as the CLI's batch over the same inputs.
    let out = data.join("cli.jsonl");
    let cli = gobo(&[
        "xlogo",
        "eval",
        "--batch",
        manifest.to_str().unwrap_or(""),
        "--out",
        out.to_str().unwrap_or(""),
    ]);
    // Every third row's code does not run: the batch's verdict is a failure (exit 1).
    assert_eq!(cli.status.code(), Some(1), "{}", String::from_utf8_lossy(&cli.stderr));
    let expected = std::fs::read_to_string(&out).unwrap_or_default();
    let expected: Vec<&str> = expected.lines().collect();
    for (i, (a, b)) in got.iter().zip(&expected).enumerate() {
        assert_eq!(a, b, "row {i}");
    }
    drop(server);
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn kill_9_after_many_actions_without_a_snapshot_loses_none() {
    let data = temp_dir("kill9-session");
    let db = data.join("db");
    let agent = "hosts/cli/tests/fixtures/agent";
    let actions: Vec<String> = read(&format!("{agent}/game.jsonl"))
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(String::from)
        .collect();
    // 35 actions, each after an observation: fewer replay rows than --snapshot-every, so the
    // only snapshot is the one made with the session.
    let server = Server::start(&db, &["--workers", "2", "--snapshot-every", "1000"]);
    let body = format!(
        "{{\"project\": {}, \"auto_observe\": false}}",
        read(&format!("{agent}/start/project.json"))
    );
    let (status, answer) = server.request("POST", "/v1/sessions", Some(&body));
    assert_eq!(status, 201, "{answer}");
    let made: Value = serde_json::from_str(&answer).unwrap_or_default();
    let id = made["session_id"].as_str().unwrap_or("").to_string();
    let base = format!("/v1/sessions/{id}");
    for a in &actions {
        assert_eq!(server.request("GET", &format!("{base}/observation"), None).0, 200);
        let (status, r) = server.request("POST", &format!("{base}/act"), Some(a));
        assert_eq!(status, 200, "{r}");
        assert!(r.contains("\"success\":true"), "{r}");
    }
    // The step, the observation, the project and the suite's report (given as project.json
    // alone, without costumes, the cat's bounds differ from Scratch's, so it need not pass).
    let suite = format!("{{\"suite\": {}}}", read(&format!("{agent}/game.suite.json")));
    let state = |server: &Server| {
        let info: Value =
            serde_json::from_str(&server.request("GET", &base, None).1).unwrap_or_default();
        (
            info["step"].clone(),
            server.request("GET", &format!("{base}/observation?format=json"), None),
            server.request("GET", &format!("{base}/project?format=json"), None),
            server.request("POST", &format!("{base}/evaluate"), Some(&suite)),
        )
    };
    let before = state(&server);
    assert_eq!(before.0, json!(35));
    assert_eq!(before.3 .0, 200, "{}", before.3 .1);
    server.signal("-KILL");
    let _ = server.wait();

    let server = Server::start(&db, &["--workers", "2"]);
    assert_eq!(state(&server), before);
    drop(server);
    let _ = std::fs::remove_dir_all(&data);
}

fn mount(args: &[&str], dir: &Path) -> bool {
    Command::new("mount")
        .args(args)
        .arg(dir)
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn umount(dir: &Path) {
    let _ = Command::new("umount").arg(dir).status();
}

fn start_fails(data: &Path) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_gobo"))
        .args(["serve", "--addr", "127.0.0.1:0", "--data"])
        .arg(data)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.status.code(), Some(2), "gobo serve started on an unusable folder");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_read_only_or_full_data_folder_is_refused_at_start() {
    let base = temp_dir("disk");
    let ro = base.join("ro");
    std::fs::create_dir_all(&ro).unwrap_or_else(|e| panic!("{e}"));
    // A read-only file system (a tmpfs mounted read-only): root ignores permission bits.
    if mount(&["-t", "tmpfs", "-o", "ro,size=1m", "tmpfs"], &ro) {
        let message = start_fails(&ro.join("data"));
        umount(&ro);
        assert!(message.contains("not writable"), "{message}");
        // A folder that held a database, on a file system remounted read-only.
        let ro = base.join("ro2");
        std::fs::create_dir_all(&ro).unwrap_or_else(|e| panic!("{e}"));
        assert!(mount(&["-t", "tmpfs", "-o", "size=4m", "tmpfs"], &ro));
        let mut server = Server::start(&ro.join("data"), &[]);
        server.signal("-TERM");
        let _ = server.child.wait();
        let remounted = mount(&["-o", "remount,ro"], &ro);
        let message = remounted.then(|| start_fails(&ro.join("data")));
        umount(&ro);
        let message = message.unwrap_or_else(|| panic!("cannot remount read-only"));
        assert!(message.contains("not writable"), "{message}");
    } else {
        println!("skipped: read-only file system case (cannot mount a tmpfs here)");
    }
    let full = base.join("full");
    std::fs::create_dir_all(&full).unwrap_or_else(|e| panic!("{e}"));
    if mount(&["-t", "tmpfs", "-o", "size=256k", "tmpfs"], &full) {
        // Fill the file system, then start on it.
        let _ = std::fs::write(full.join("filler"), vec![0u8; 1 << 20]);
        let message = start_fails(&full.join("data"));
        umount(&full);
        assert!(message.contains("full"), "{message}");
    } else {
        println!("skipped: full disk case (cannot mount a tmpfs here)");
    }
    let _ = std::fs::remove_dir_all(&base);
}

/// Why the viewer check cannot run here (node, playwright-core or Chromium missing).
fn browser_missing(dir: &Path, chromium: &Path) -> Option<String> {
    let node = Command::new("node").arg("--version").output();
    if !node.is_ok_and(|o| o.status.success()) {
        return Some("node is not installed".into());
    }
    if !dir.join("node_modules/playwright-core/package.json").is_file() {
        return Some(format!(
            "playwright-core is not installed (npm ci --prefix {})",
            dir.display()
        ));
    }
    if !chromium.is_file() {
        return Some(format!("no Chromium at {} (apt-get install chromium)", chromium.display()));
    }
    None
}

/// The viewer page at `/` in real headless Chromium (`tests/viewer/viewer.mjs`, playwright-core):
/// a session with a gold project is listed and shown, the frame scrubber redraws both stages,
/// an action typed into the page changes the observation, the log and the stage (which then
/// equals the gold one).
#[test]
fn viewer_page_in_headless_chromium() {
    let name = "serve::viewer_page_in_headless_chromium";
    let dir = root().join("hosts/cli/tests/viewer");
    let chromium =
        std::env::var_os("GOBO_CHROMIUM").map_or(PathBuf::from("/usr/bin/chromium"), PathBuf::from);
    if let Some(why) = browser_missing(&dir, &chromium) {
        reference::skipped(name, &why);
        return;
    }
    reference::ran(name);
    let data = temp_dir("viewer");
    let server = Server::start(&data, &[]);
    let out = Command::new("node")
        .arg(dir.join("viewer.mjs"))
        .arg(format!("http://{}", server.addr))
        .env("GOBO_CHROMIUM", &chromium)
        .output()
        .unwrap_or_else(|e| panic!("node: {e}"));
    let text =
        format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "viewer.mjs failed:\n{text}");
    assert!(text.contains("viewer ok"), "{text}");
    drop(server);
    let _ = std::fs::remove_dir_all(&data);
}
