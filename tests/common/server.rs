//! A `mancala serve` process for the tests, and a plain HTTP/1.1 client.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// A running server on a free loopback port, stopped when dropped.
pub struct Server {
    /// The process.
    pub child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
}

impl Server {
    /// Start `mancala serve` on port 0 with tables in `db` and `extra`
    /// options; waits for its "listening on" line.
    #[allow(dead_code)] // the browser test's package starts its own binary
    pub fn start(db: &Path, extra: &[&str]) -> Server {
        // Set for the engine's integration tests; the browser test's
        // package (tests/browser) has no binary and calls `start_with`.
        match option_env!("CARGO_BIN_EXE_mancala") {
            Some(bin) => Server::start_with(Path::new(bin), db, extra),
            None => panic!("Server::start runs in the engine's tests; elsewhere use start_with"),
        }
    }

    /// [`Server::start`] with the `mancala` binary at `bin`.
    pub fn start_with(bin: &Path, db: &Path, extra: &[&str]) -> Server {
        let mut child = Command::new(bin)
            .args(["serve", "--addr", "127.0.0.1:0", "--db"])
            .arg(db)
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start mancala serve");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .trim()
            .strip_prefix("listening on http://")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .trim_end_matches('/')
            .to_string();
        Server { child, addr }
    }

    /// GET `path`: status and body.
    pub fn get(&self, path: &str) -> (u16, String) {
        get(&self.addr, path)
    }

    /// GET `path`: status and the body as JSON.
    pub fn json(&self, path: &str) -> (u16, serde_json::Value) {
        let (status, body) = self.get(path);
        let value = serde_json::from_str(&body)
            .unwrap_or_else(|e| panic!("{path}: not JSON ({e}): {body}"));
        (status, value)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// GET `path` from `addr` over a fresh connection: status and body.
pub fn get(addr: &str, path: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).expect("connect");
    let head = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    s.write_all(head.as_bytes()).unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).unwrap();
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").expect("a response");
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(body)
    } else {
        body.to_string()
    };
    (status, body)
}

fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap();
        if n == 0 {
            break;
        }
        out.push_str(&rest[..n]);
        body = &rest[n + 2..];
    }
    out
}

/// `text` percent-encoded for a query string.
pub fn enc(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b':' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}
