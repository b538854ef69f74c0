//! One QEMU `lm3s6965evb` run of a firmware ELF: its semihosting log as lines, and a QMP
//! connection for gamepad keys and OLED screendumps. Every run is wrapped in `timeout` and
//! killed when dropped.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};
use std::{fs, thread};

use serde_json::{json, Value};

use crate::firmware::scratch_dir;
use crate::screen::{parse_ppm, Screenshot};

/// Wall-clock limit of one QEMU run (the `timeout` wrapped around it).
pub const RUN_LIMIT_SECS: u32 = 90;

/// A QEMU process running a firmware ELF.
#[derive(Debug)]
pub struct Qemu {
    child: Child,
    lines: Receiver<String>,
    log: Vec<String>,
    qmp: Option<(UnixStream, BufReader<UnixStream>)>,
    socket: PathBuf,
    name: String,
}

/// The gamepad keys QEMU's `lm3s6965evb` maps to its buttons (QMP `qcode`s).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PadKey {
    /// Gamepad up.
    Up,
    /// Gamepad down.
    Down,
    /// Gamepad left.
    Left,
    /// Gamepad right.
    Right,
    /// Gamepad select (left Ctrl on the host keyboard).
    Select,
}

impl PadKey {
    /// All five keys.
    pub const ALL: [PadKey; 5] = [Self::Up, Self::Down, Self::Left, Self::Right, Self::Select];

    fn qcode(self) -> &'static str {
        match self {
            Self::Up => "up",
            Self::Down => "down",
            Self::Left => "left",
            Self::Right => "right",
            Self::Select => "ctrl",
        }
    }
}

impl Qemu {
    /// Boots `elf` with QMP on a fresh socket; `qmp` false runs without a monitor (for the
    /// on-chip tests, which exit by themselves).
    pub fn boot(elf: &Path, name: &str, qmp: bool) -> Self {
        let socket = scratch_dir().join(format!("{name}.qmp"));
        let _ = fs::remove_file(&socket);
        let mut cmd = Command::new("timeout");
        cmd.arg(RUN_LIMIT_SECS.to_string())
            .arg("qemu-system-arm")
            .args(["-M", "lm3s6965evb", "-display", "none", "-serial", "null"])
            .args(["-monitor", "none", "-semihosting-config", "enable=on,target=native"]);
        if qmp {
            cmd.arg("-qmp").arg(format!("unix:{},server=on,wait=off", socket.display()));
        }
        cmd.arg("-kernel").arg(elf);
        let mut child = cmd
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .stdin(Stdio::null())
            .spawn()
            .expect("start qemu-system-arm");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut qemu = Self { child, lines, log: Vec::new(), qmp: None, socket, name: name.into() };
        if qmp {
            qemu.connect();
        }
        qemu
    }

    fn connect(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(20);
        let stream = loop {
            match UnixStream::connect(&self.socket) {
                Ok(s) => break s,
                Err(e) if Instant::now() > deadline => panic!("{}: no QMP socket: {e}", self.name),
                Err(_) => thread::sleep(Duration::from_millis(50)),
            }
        };
        stream.set_read_timeout(Some(Duration::from_secs(20))).expect("QMP timeout");
        let reader = BufReader::new(stream.try_clone().expect("clone QMP stream"));
        self.qmp = Some((stream, reader));
        let mut greeting = String::new();
        if let Some((_, r)) = self.qmp.as_mut() {
            r.read_line(&mut greeting).expect("QMP greeting");
        }
        assert!(greeting.contains("QMP"), "{}: bad QMP greeting {greeting}", self.name);
        self.execute("qmp_capabilities", json!({}));
    }

    /// Runs a QMP command and returns its `return` value (panics on a QMP error).
    pub fn execute(&mut self, command: &str, arguments: Value) -> Value {
        let name = self.name.clone();
        let (stream, reader) = self.qmp.as_mut().expect("QMP connected");
        let request = json!({ "execute": command, "arguments": arguments });
        writeln!(stream, "{request}").expect("QMP write");
        loop {
            let mut line = String::new();
            let n = reader.read_line(&mut line).expect("QMP read");
            assert!(n > 0, "{name}: QMP closed during {command}");
            let reply: Value = serde_json::from_str(&line).expect("QMP JSON");
            if reply.get("event").is_some() {
                continue;
            }
            if let Some(error) = reply.get("error") {
                panic!("{name}: QMP {command} failed: {error}");
            }
            return reply["return"].clone();
        }
    }

    /// Waits up to `secs` seconds for a log line satisfying `pred` and returns it; panics with
    /// the log so far if none comes.
    pub fn wait_line(&mut self, secs: u64, pred: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.log.push(line.clone());
                    if pred(&line) {
                        return line;
                    }
                }
                Err(_) => panic!(
                    "{}: expected log line not seen; log:\n{}",
                    self.name,
                    self.log.join("\n")
                ),
            }
        }
    }

    /// Waits for the process to end (on-chip tests exit through semihosting) and returns the
    /// log and whether it exited successfully.
    pub fn wait_exit(mut self) -> (Vec<String>, bool) {
        let status = self.child.wait().expect("wait for qemu");
        while let Ok(line) = self.lines.recv_timeout(Duration::from_secs(5)) {
            self.log.push(line);
        }
        (std::mem::take(&mut self.log), status.success())
    }

    /// Presses or releases gamepad keys (one QMP `input-send-event`).
    pub fn keys(&mut self, keys: &[PadKey], down: bool) {
        let events: Vec<Value> = keys
            .iter()
            .map(|k| json!({"type": "key", "data": {"down": down, "key": {"type": "qcode", "data": k.qcode()}}}))
            .collect();
        self.execute("input-send-event", json!({ "events": events }));
    }

    /// Presses and releases every gamepad key once, so the firmware has seen each line high
    /// (QEMU's GPIO model starts every input low; see `firmware/lm3s6965/src/gamepad.rs`).
    pub fn arm_gamepad(&mut self, secs: u64) {
        self.keys(&PadKey::ALL, true);
        self.keys(&PadKey::ALL, false);
        self.wait_line(secs, |l| l == "gobo-kit: gamepad armed");
    }

    /// Captures the OLED with QMP `screendump`.
    pub fn screendump(&mut self, label: &str) -> Screenshot {
        let path = scratch_dir().join(format!("{}-{label}.ppm", self.name));
        self.execute("screendump", json!({ "filename": path.to_string_lossy() }));
        let bytes = fs::read(&path).expect("read screendump");
        parse_ppm(&bytes).unwrap_or_else(|e| panic!("{}: bad screendump: {e}", self.name))
    }

    /// The log lines read so far.
    pub fn log(&self) -> &[String] {
        &self.log
    }
}

impl Drop for Qemu {
    fn drop(&mut self) {
        // The child is `timeout`, which passes SIGTERM on to QEMU; SIGKILL would kill only
        // `timeout` and leave QEMU running as an orphan. So: TERM first, KILL if it lingers.
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .stderr(Stdio::null())
            .status();
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline && matches!(self.child.try_wait(), Ok(None)) {
            thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = fs::remove_file(&self.socket);
    }
}
