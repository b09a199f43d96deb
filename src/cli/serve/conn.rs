//! The server's connections: at most [`Limits::max_connections`] open at
//! once; each closed when the client leaves it idle for
//! [`Limits::idle_timeout`] (no whole request head that long after its
//! opening or its previous answer: a half-sent request, an idle keep-alive
//! connection; or an answer it does not read for that long); and a
//! shutdown that waits at most [`GRACE`] for them.
//!
//! `axum::serve` sets no timer on hyper's connections, so a client that
//! never finishes its request head held its connection, and a graceful
//! shutdown, for ever; here each connection is served by hyper's HTTP/1
//! builder with its header-read timeout, and watched for stalled writes.

use std::future::Future;
use std::io::IoSlice;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinSet;

/// Longest wait, once the server is told to stop, for its connections to
/// finish the answers they are writing and close; the ones still open
/// then (a half-sent request, a client that does not read) are dropped.
/// Requests under way are answered 503 at once, so that writing is all
/// that is left.
pub const GRACE: Duration = Duration::from_millis(500);

/// How long a pause after a failed `accept` (out of file descriptors):
/// connections have to close before another can be taken.
const ACCEPT_PAUSE: Duration = Duration::from_millis(50);

/// Longest time spent answering a connection beyond the bound.
const REFUSE_TIME: Duration = Duration::from_secs(1);

/// The bounds on connections.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Longest time a client may leave its connection idle: to send a whole
    /// request head (from the opening or the previous answer), or to take
    /// an answer being written.
    pub idle_timeout: Duration,
    /// Connections open at once.
    pub max_connections: usize,
}

/// The answer to a connection beyond the bound, written before it is
/// closed.
fn full_answer(max_connections: usize) -> Arc<[u8]> {
    let body =
        format!("{{\"error\":\"busy: {max_connections} connections already open; try again\"}}");
    format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
         content-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
    .into()
}

/// Serve `router` on `listener` until `signal` resolves; then stop
/// accepting, set `shutdown` (requests under way end, idle connections
/// close, answers being written are finished) and wait at most [`GRACE`]
/// for the connections.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: Limits,
    shutdown: Arc<watch::Sender<bool>>,
    signal: impl Future<Output = ()>,
) {
    let open = Arc::new(Semaphore::new(limits.max_connections));
    // As many connections again may be in the middle of being refused;
    // beyond those, a connection is closed unanswered.
    let refusing = Arc::new(Semaphore::new(limits.max_connections));
    let full = full_answer(limits.max_connections);
    let mut conns = JoinSet::new();
    tokio::pin!(signal);
    loop {
        tokio::select! {
            () = &mut signal => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => match open.clone().try_acquire_owned() {
                    Ok(permit) => {
                        let (router, rx) = (router.clone(), shutdown.subscribe());
                        conns.spawn(connection(stream, router, limits, rx, permit));
                    }
                    Err(_) => {
                        if let Ok(permit) = refusing.clone().try_acquire_owned() {
                            conns.spawn(refuse(stream, full.clone(), permit));
                        }
                    }
                },
                Err(_) => tokio::time::sleep(ACCEPT_PAUSE).await,
            },
            // Finished connections leave the set.
            Some(_) = conns.join_next(), if !conns.is_empty() => {}
        }
    }
    drop(listener);
    shutdown.send_replace(true);
    let all_closed = async { while conns.join_next().await.is_some() {} };
    let _ = tokio::time::timeout(GRACE, all_closed).await;
    // Dropping the set aborts the connections still open.
}

/// Answer `stream` 503 and close it, within [`REFUSE_TIME`]. What the
/// client sent is read first, so that closing sends no reset that could
/// lose the answer.
async fn refuse(mut stream: TcpStream, answer: Arc<[u8]>, _refusing: OwnedSemaphorePermit) {
    let _ = tokio::time::timeout(REFUSE_TIME, async {
        stream.write_all(&answer).await?;
        stream.shutdown().await?;
        let mut sink = [0u8; 1024];
        while stream.read(&mut sink).await? > 0 {}
        Ok::<(), std::io::Error>(())
    })
    .await;
}

/// Serve one connection until it closes, its client leaves it idle too
/// long, or, once `shutdown` is set, its answer under way is written.
async fn connection(
    stream: TcpStream,
    router: Router,
    limits: Limits,
    mut shutdown: watch::Receiver<bool>,
    _open: OwnedSemaphorePermit,
) {
    let stall = Stall::new();
    let io = Watched {
        inner: TokioIo::new(stream),
        stall: stall.clone(),
    };
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.idle_timeout);
    let conn = builder.serve_connection(io, TowerToHyperService::new(router));
    tokio::pin!(conn);
    tokio::select! {
        _ = conn.as_mut() => return,
        () = stall.exceeds(limits.idle_timeout) => return,
        _ = shutdown.wait_for(|&stopping| stopping) => {}
    }
    conn.as_mut().graceful_shutdown();
    let _ = conn.await;
}

/// Since when a connection's writes have been waiting for its client to
/// read: milliseconds after `born`, plus one; 0 while they are not.
#[derive(Clone)]
struct Stall {
    born: Instant,
    since: Arc<AtomicU64>,
}

impl Stall {
    fn new() -> Stall {
        Stall {
            born: Instant::now(),
            since: Arc::new(AtomicU64::new(0)),
        }
    }

    fn now(&self) -> u64 {
        self.born.elapsed().as_millis() as u64 + 1
    }

    /// Record whether the last write had to wait.
    fn note(&self, waiting: bool) {
        if !waiting {
            self.since.store(0, Ordering::Relaxed);
        } else if self.since.load(Ordering::Relaxed) == 0 {
            self.since.store(self.now(), Ordering::Relaxed);
        }
    }

    /// Resolve once writes have waited longer than `limit`.
    async fn exceeds(&self, limit: Duration) {
        let limit_ms = limit.as_millis() as u64;
        let every = (limit / 4).clamp(Duration::from_millis(10), Duration::from_secs(1));
        loop {
            tokio::time::sleep(every).await;
            let since = self.since.load(Ordering::Relaxed);
            if since != 0 && self.now() - since >= limit_ms {
                return;
            }
        }
    }
}

/// A connection's I/O, its writes watched ([`Stall`]).
struct Watched<T> {
    inner: T,
    stall: Stall,
}

impl<T: hyper::rt::Read + Unpin> hyper::rt::Read for Watched<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: hyper::rt::ReadBufCursor<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<T: hyper::rt::Write + Unpin> hyper::rt::Write for Watched<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let out = Pin::new(&mut self.inner).poll_write(cx, buf);
        self.stall.note(out.is_pending());
        out
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        let out = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        self.stall.note(out.is_pending());
        out
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}
