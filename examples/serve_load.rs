//! A bounded load test of `mancala serve`: many table queries from many
//! concurrent keep-alive clients against a running server on loopback;
//! prints throughput, latency percentiles, errors and (with `--pid`) the
//! server's resident memory before and after.
//!
//! ```text
//! cargo run --release --example serve_load -- --addr 127.0.0.1:8080 \
//!     --requests 20000 --clients 32 --max-seeds 20 [--pid PID]
//! ```
//! `benches/serve-load.sh` starts a server with the 20-seed tables and
//! runs this against it.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use mancala_solver::kalah::position::Position;
use mancala_solver::kalah::rules::KalahRules;

fn arg(args: &[String], name: &str, default: &str) -> String {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .cloned()
        .unwrap_or_else(|| default.to_string())
}

/// Kalah(6,4) positions with at most `max_seeds` seeds in play, from
/// seeded random games.
fn positions(count: usize, max_seeds: usize) -> Vec<String> {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let mut out = Vec::new();
    while out.len() < count {
        let mut pos = Position::start(6, 4).unwrap();
        while !pos.is_game_over(KalahRules::Default) {
            if pos.active_seeds() <= max_seeds {
                out.push(pos.to_string().replace(' ', "%20"));
                break;
            }
            let moves: Vec<usize> = pos.legal_moves(KalahRules::Default).collect();
            pos.play(moves[next(moves.len())], KalahRules::Default)
                .unwrap();
        }
    }
    out
}

fn rss_kib(pid: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// One request on a keep-alive connection: the status.
fn request(reader: &mut BufReader<TcpStream>, addr: &str, path: &str) -> std::io::Result<u16> {
    // One write per request: several small writes would wait on Nagle's
    // algorithm and the server's delayed acknowledgement (40 ms).
    let head = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\n\r\n");
    reader.get_mut().write_all(head.as_bytes())?;
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let status = line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let mut length = 0usize;
    loop {
        line.clear();
        reader.read_line(&mut line)?;
        if line == "\r\n" || line.is_empty() {
            break;
        }
        if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
            length = v.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0u8; length];
    reader.read_exact(&mut body)?;
    Ok(status)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let addr = arg(&args, "--addr", "127.0.0.1:8080");
    let requests: usize = arg(&args, "--requests", "20000").parse().unwrap();
    let clients: usize = arg(&args, "--clients", "32").parse().unwrap();
    let max_seeds: usize = arg(&args, "--max-seeds", "20").parse().unwrap();
    let pid = args
        .iter()
        .position(|a| a == "--pid")
        .and_then(|i| args.get(i + 1))
        .cloned();
    let pool = positions(2000, max_seeds);
    let path = |i: usize| {
        format!(
            "/api/v1/query?game=kalah:6:4&position={}",
            pool[i % pool.len()]
        )
    };

    // Warm up: the first query opens the tables.
    let mut warm = BufReader::new(TcpStream::connect(&addr).expect("connect to the server"));
    for i in 0..100 {
        request(&mut warm, &addr, &path(i)).unwrap();
    }
    let rss_before = pid.as_deref().and_then(rss_kib);

    let start = Instant::now();
    let per_client = requests / clients;
    let results: Vec<(Vec<Duration>, usize)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..clients)
            .map(|c| {
                let (addr, path) = (&addr, &path);
                scope.spawn(move || {
                    let stream = TcpStream::connect(addr).unwrap();
                    stream.set_nodelay(true).unwrap();
                    let mut reader = BufReader::new(stream);
                    let mut times = Vec::with_capacity(per_client);
                    let mut errors = 0;
                    for i in 0..per_client {
                        let t = Instant::now();
                        match request(&mut reader, addr, &path(c * per_client + i)) {
                            Ok(200) => times.push(t.elapsed()),
                            _ => errors += 1,
                        }
                    }
                    (times, errors)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let wall = start.elapsed().as_secs_f64();
    let mut all: Vec<Duration> = results.iter().flat_map(|(t, _)| t.clone()).collect();
    let errors: usize = results.iter().map(|(_, e)| e).sum();
    all.sort();
    let pct =
        |p: f64| all[((all.len() as f64 * p) as usize).min(all.len() - 1)].as_secs_f64() * 1e3;
    println!(
        "{} requests from {clients} clients in {wall:.2} s: {:.0} requests/s; latency p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; {errors} errors",
        all.len() + errors,
        (all.len() + errors) as f64 / wall,
        pct(0.50),
        pct(0.99),
        all.last().unwrap().as_secs_f64() * 1e3
    );
    if let (Some(before), Some(after)) = (rss_before, pid.as_deref().and_then(rss_kib)) {
        println!(
            "server resident memory: {} MiB before, {} MiB after",
            before >> 10,
            after >> 10
        );
    }
}
