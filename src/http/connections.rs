//! Connections: accepting them within `http.max_connections`, serving each
//! with hyper under the header timeout, and ending those that hold a slot
//! without using it.
//!
//! A connection with no request in flight (idle between requests, or still
//! sending its headers) costs its client nothing to keep open. When every
//! slot is taken, a new connection takes the slot of the one that has been
//! open longest among those: 512 connections that trickled headers, or sent
//! nothing, kept every other client waiting for the header timeout or out of
//! the listen queue altogether (HTTP round 4, H2).

use super::HYPER_MAX_HEADERS;
use crate::config::ConnectionLimits;
use axum::Router;
use axum::body::Body;
use axum::extract::Request;
use axum::response::Response;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::BTreeMap;
use std::convert::Infallible;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::Poll;
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio_util::sync::CancellationToken;
use tower::ServiceExt;

/// How long accepting waits after it failed (out of file descriptors, say)
/// before it tries again, so that a failing accept does not spin; and how
/// often a connection waiting for a slot looks again for one gone idle.
const ACCEPT_RETRY: Duration = Duration::from_millis(100);

/// The connections open, in the order they were accepted.
#[derive(Default)]
struct Open {
    accepted: u64,
    connections: BTreeMap<u64, OpenConnection>,
}

/// What [`Open`] knows of one connection.
struct OpenConnection {
    /// Requests of the connection being answered ([`InFlight`]).
    in_flight: Arc<AtomicUsize>,
    /// Ends the connection: at once when nothing is in flight, else after
    /// the answer under way.
    close: CancellationToken,
}

impl Open {
    /// Registers a connection; its number, to remove it by.
    fn add(&mut self, connection: OpenConnection) -> u64 {
        self.accepted += 1;
        self.connections.insert(self.accepted, connection);
        self.accepted
    }

    fn remove(&mut self, number: u64) {
        self.connections.remove(&number);
    }

    /// Closes the connection open longest that has no request in flight;
    /// whether there was one. It leaves the list at once, so that the next
    /// call closes another.
    fn close_oldest_unused(&mut self) -> bool {
        let unused = self
            .connections
            .iter()
            .find(|(_, c)| c.in_flight.load(Ordering::SeqCst) == 0)
            .map(|(number, _)| *number);
        let Some(connection) = unused.and_then(|number| self.connections.remove(&number)) else {
            return false;
        };
        connection.close.cancel();
        true
    }
}

/// The shared list of open connections.
type Registry = Arc<Mutex<Open>>;

fn locked(open: &Registry) -> std::sync::MutexGuard<'_, Open> {
    open.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Accepts connections until `stop`, serving at most
/// `limits.max_connections` at once: at the limit, a new connection takes
/// the slot of an unused one ([`Open::close_oldest_unused`]), or waits for
/// one to end while the rest wait in the listen queue. Then waits for the
/// connections still answering a request.
pub(super) async fn serve(
    listener: TcpListener,
    router: Router,
    limits: ConnectionLimits,
    stop: CancellationToken,
) {
    let slots = Arc::new(Semaphore::new(limits.max_connections as usize));
    let open = Registry::default();
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = stop.cancelled() => break,
        };
        let stream = match accepted {
            Ok((stream, _)) => stream,
            Err(e) => {
                tracing::warn!(error = %e, "accepting an HTTP connection failed");
                tokio::time::sleep(ACCEPT_RETRY).await;
                continue;
            }
        };
        let Some(slot) = slot_for_new_connection(&slots, &open, &stop).await else { break };
        let in_flight = Arc::new(AtomicUsize::new(0));
        let close = stop.child_token();
        let number = locked(&open)
            .add(OpenConnection { in_flight: in_flight.clone(), close: close.clone() });
        let connection =
            serve_connection(stream, router.clone(), limits.header_timeout, in_flight, close);
        let open = open.clone();
        tokio::spawn(async move {
            connection.await;
            locked(&open).remove(number);
            drop(slot);
        });
    }
    // Each connection holds a slot until it ends: all slots back, all ended.
    let _all = slots.acquire_many(limits.max_connections).await;
}

/// A slot for a connection just accepted: a free one, else the slot of an
/// unused connection closed for it, looked for again every
/// [`ACCEPT_RETRY`] while every connection is answering; `None` at `stop`.
async fn slot_for_new_connection(
    slots: &Arc<Semaphore>,
    open: &Registry,
    stop: &CancellationToken,
) -> Option<OwnedSemaphorePermit> {
    loop {
        if let Ok(slot) = slots.clone().try_acquire_owned() {
            return Some(slot);
        }
        locked(open).close_oldest_unused();
        tokio::select! {
            slot = slots.clone().acquire_owned() => return slot.ok(),
            () = tokio::time::sleep(ACCEPT_RETRY) => {}
            () = stop.cancelled() => return None,
        }
    }
}

/// Serves one connection (HTTP/1.1, kept alive). Its request headers must
/// arrive within `header_timeout`, counted from the previous answer on a
/// kept-alive connection, else it is closed; so is one whose client takes
/// nothing of an answer for as long ([`StalledWritesEnd`]). At `close` (the
/// server stopping, or the slot taken for a new connection), a connection
/// with a request in flight finishes that answer and closes; an idle one,
/// or one still sending headers, is closed at once and holds nothing up.
async fn serve_connection(
    stream: TcpStream,
    router: Router,
    header_timeout: Duration,
    in_flight: Arc<AtomicUsize>,
    close: CancellationToken,
) {
    let requests = in_flight.clone();
    let service = hyper::service::service_fn(move |request: Request<hyper::body::Incoming>| {
        let counted = InFlight::enter(&requests);
        answer(router.clone(), request, counted)
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout)
        .max_headers(HYPER_MAX_HEADERS);
    let stream = StalledWritesEnd { inner: stream, limit: header_timeout, stalled: None };
    let connection = builder.serve_connection(TokioIo::new(stream), service);
    tokio::pin!(connection);
    tokio::select! {
        ended = connection.as_mut() => {
            if let Err(e) = ended {
                tracing::debug!(error = %e, "an HTTP connection ended with an error");
            }
            return;
        }
        () = close.cancelled() => {}
    }
    if in_flight.load(Ordering::SeqCst) == 0 {
        return;
    }
    connection.as_mut().graceful_shutdown();
    if let Err(e) = connection.await {
        tracing::debug!(error = %e, "an HTTP connection ended with an error at shutdown");
    }
}

/// A connection's stream whose writes fail once one has made no progress for
/// `limit`: a client that sends requests and never reads the answers (they
/// fill the socket's buffers, and the next write waits) held its connection,
/// and one of `http.max_connections`' slots, for ever.
struct StalledWritesEnd {
    inner: TcpStream,
    limit: Duration,
    /// Since when the current write has been waiting, as a timer.
    stalled: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl StalledWritesEnd {
    /// `polled` as it is, or an error once it has been pending for `limit`.
    fn watched<T>(
        &mut self,
        cx: &mut std::task::Context<'_>,
        polled: Poll<std::io::Result<T>>,
    ) -> Poll<std::io::Result<T>> {
        if polled.is_ready() {
            self.stalled = None;
            return polled;
        }
        let limit = self.limit;
        let timer = self.stalled.get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        match timer.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                "the client took nothing of its answer for the header timeout",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl tokio::io::AsyncRead for StalledWritesEnd {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

impl tokio::io::AsyncWrite for StalledWritesEnd {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_write(cx, buf);
        this.watched(cx, polled)
    }

    fn poll_flush(
        self: Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_flush(cx);
        this.watched(cx, polled)
    }

    fn poll_shutdown(
        self: Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

/// The router's answer to one request; `counted` lives until the answer's
/// body is written (it moves into the body), so that a request counts as in
/// flight until the client has all of it.
async fn answer(
    router: Router,
    request: Request<hyper::body::Incoming>,
    counted: InFlight,
) -> std::result::Result<Response, Infallible> {
    use http_body_util::BodyExt;
    let Ok(response) = router.oneshot(request).await;
    Ok(response.map(|body| {
        Body::new(body.map_frame(move |frame| {
            let _held = &counted;
            frame
        }))
    }))
}

/// One request of a connection being answered (see [`serve_connection`]).
struct InFlight(Arc<AtomicUsize>);

impl InFlight {
    fn enter(count: &Arc<AtomicUsize>) -> InFlight {
        count.fetch_add(1, Ordering::SeqCst);
        InFlight(count.clone())
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}
