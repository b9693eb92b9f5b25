//! The HTTP server of spec §13 (`dreamd serve`, and the daemon when
//! `http.listen` is set), on axum: the JSON API under `/v1` (`api.rs`) with
//! its OpenAPI document generated from the handlers and types (utoipa), MCP
//! over streamable HTTP at `/mcp` (rmcp's server transport, the same tools),
//! the review pages at `/` (`pages.rs`), `/healthz` and, when metrics are
//! on, `/metrics`.
//!
//! Every request body is read whole, within [`MAX_BODY_BYTES`], before any
//! store call, and answers are written after the store is done: no request
//! holds a database transaction (SQLite's write lock included) while it
//! waits on the network.

pub mod api;
pub mod auth;
mod connections;
mod lang;
mod mcp_sessions;
pub mod metrics;
mod pages;

use crate::config::ConnectionLimits;
use crate::error::{Error, Result};
use crate::mcp::DreamdMcp;
use crate::tools::{Access, Engine, Grant};
use axum::Router;
use axum::body::Body;
use axum::extract::{DefaultBodyLimit, FromRequestParts, MatchedPath, Request, State};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use http::StatusCode;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// The largest request body accepted (1 MiB); a larger one is refused with 413.
pub const MAX_BODY_BYTES: usize = 1 << 20;

/// The longest request target answered (8 KiB); a longer one is refused
/// with 414. Targets over 64 KiB are refused by hyper before this server
/// sees them, without a body.
pub const MAX_URI_BYTES: usize = 8 << 10;

/// The most header lines answered; more is refused with 431. hyper lets up
/// to [`HYPER_MAX_HEADERS`] lines through so that the refusal is this
/// server's JSON, not hyper's empty answer.
pub const MAX_HEADERS: usize = 100;

/// The most header bytes (names and values) answered; more is refused with
/// 431. hyper's own limit, a read buffer of about 400 KiB, is far above.
pub const MAX_HEADER_BYTES: usize = 64 << 10;
const HYPER_MAX_HEADERS: usize = 4 * MAX_HEADERS;

/// What every handler shares.
pub struct App {
    engine: Arc<dyn Engine>,
    tokens: auth::Tokens,
    sessions: auth::Sessions,
    metrics: Option<Arc<metrics::Metrics>>,
    /// The OpenAPI document, rendered once.
    openapi: String,
}

/// What a server serves.
pub struct Options {
    /// The tools, on the configured store.
    pub engine: Arc<dyn Engine>,
    pub tokens: auth::Tokens,
    /// Whether `/metrics` answers (`metrics.listen` set).
    pub metrics_on: bool,
    /// The run counters of the service the server runs beside, if any.
    pub runs: Option<metrics::RunMetrics>,
    pub limits: ConnectionLimits,
}

/// The `/v1` endpoints, `/healthz` and `/metrics`, each registered with its
/// OpenAPI description, so the document lists exactly the routes served.
fn api_routes() -> OpenApiRouter<Arc<App>> {
    OpenApiRouter::with_openapi(api::ApiDoc::openapi())
        .routes(routes!(api::recall))
        .routes(routes!(api::remember))
        .routes(routes!(api::forget))
        .routes(routes!(api::disable))
        .routes(routes!(api::enable))
        .routes(routes!(api::edit))
        .routes(routes!(api::explain))
        .routes(routes!(api::list_memories))
        .routes(routes!(api::list_suggestions))
        .routes(routes!(api::accept_suggestion))
        .routes(routes!(api::reject_suggestion))
        .routes(routes!(api::memories))
        .routes(routes!(api::memory))
        .routes(routes!(api::suggestions))
        .routes(routes!(api::loads))
        .routes(routes!(api::healthz))
        .routes(routes!(api::metrics))
        .routes(routes!(api::openapi))
}

/// The OpenAPI 3.1 document of the API, as served at `/v1/openapi.json`.
pub fn openapi_document() -> utoipa::openapi::OpenApi {
    api_routes().split_for_parts().1
}

/// Every route of the server; `stop` ends MCP sessions when the server stops.
pub fn router(options: Options, stop: &CancellationToken) -> Result<Router> {
    let (api, document) = api_routes().split_for_parts();
    let openapi = document
        .to_pretty_json()
        .map_err(|e| Error::Corrupt(format!("the OpenAPI document does not serialise: {e}")))?;
    let metrics = options.metrics_on.then(|| Arc::new(metrics::Metrics::new(options.runs.clone())));
    let app = Arc::new(App {
        engine: options.engine.clone(),
        tokens: options.tokens,
        sessions: auth::Sessions::default(),
        metrics: metrics.clone(),
        openapi,
    });
    let sessions = Arc::new(mcp_sessions::McpSessions::new());
    let mcp = Router::new()
        .route_service("/mcp", mcp_service(options.engine, sessions.manager(), stop))
        .layer(middleware::from_fn(mcp_refusals))
        .layer(middleware::from_fn(ended_sessions))
        .layer(middleware::from_fn_with_state(sessions, mcp_sessions::guard))
        .layer(middleware::from_fn_with_state(app.clone(), grant_from_token));
    let mut router = api.merge(mcp).merge(pages::routes());
    if let Some(metrics) = metrics {
        router = router.route_layer(middleware::from_fn_with_state(metrics, metrics::track));
    }
    router = router.route_layer(middleware::from_fn(log_server_errors));
    Ok(router
        .method_not_allowed_fallback(api::method_not_allowed)
        .fallback(pages::not_found)
        .with_state(app)
        .layer(middleware::from_fn(plain_refusals))
        .layer(middleware::from_fn(private_answers))
        .layer(middleware::from_fn_with_state(options.limits.body_timeout, limit_body))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(middleware::from_fn(limit_head)))
}

/// Refuses a request target or headers beyond [`MAX_URI_BYTES`],
/// [`MAX_HEADERS`] or [`MAX_HEADER_BYTES`], and an HTTP/1.1 request without
/// exactly one `Host` (RFC 9112 §3.2), with the refusal JSON of spec §13.
async fn limit_head(request: Request, next: Next) -> Response {
    let target = request.uri().path_and_query().map_or(0, |p| p.as_str().len());
    if target > MAX_URI_BYTES {
        let message = format!("the request target is longer than {MAX_URI_BYTES} bytes");
        return api::ApiError::new(StatusCode::URI_TOO_LONG, "uri_too_long", message)
            .into_response();
    }
    let headers = request.headers();
    let hosts = headers.get_all(http::header::HOST).iter().count();
    if request.version() == http::Version::HTTP_11 && hosts != 1 {
        let message = "an HTTP/1.1 request needs exactly one Host header";
        return api::ApiError::new(StatusCode::BAD_REQUEST, "invalid_argument", message)
            .into_response();
    }
    let bytes: usize = headers.iter().map(|(name, value)| name.as_str().len() + value.len()).sum();
    if headers.len() > MAX_HEADERS || bytes > MAX_HEADER_BYTES {
        let message =
            format!("the headers are more than {MAX_HEADERS} lines or {MAX_HEADER_BYTES} bytes");
        let status = StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE;
        return api::ApiError::new(status, "header_fields_too_large", message).into_response();
    }
    next.run(request).await
}

/// MCP over streamable HTTP with the same tools; whom a call may act for
/// comes with each request from its bearer token ([`grant_from_token`]).
fn mcp_service(
    engine: Arc<dyn Engine>,
    sessions: Arc<LocalSessionManager>,
    stop: &CancellationToken,
) -> StreamableHttpService<DreamdMcp, LocalSessionManager> {
    let config = StreamableHttpServerConfig {
        cancellation_token: stop.child_token(),
        ..StreamableHttpServerConfig::default()
    };
    StreamableHttpService::new(
        move || Ok(DreamdMcp::new(engine.clone(), Access::new(Vec::new(), Grant::HttpToken))),
        sessions,
        config,
    )
}

/// Logs every answer of 500 or more by method and route (the route's
/// pattern, never the ids in the path): a failure a client sees is one the
/// operator can find.
async fn log_server_errors(route: Option<MatchedPath>, request: Request, next: Next) -> Response {
    let method = request.method().clone();
    let response = next.run(request).await;
    let status = response.status();
    if status.is_server_error() {
        let route = route.as_ref().map_or("(none)", MatchedPath::as_str);
        tracing::error!(%method, route, status = status.as_u16(), "an HTTP request failed");
    }
    response
}

/// rmcp answers a request it cannot take in plain text, some of which
/// repeats what the client sent (the JSON parser's message, an unknown
/// protocol version): every such answer becomes the refusal JSON of spec §13,
/// in words of our own.
async fn mcp_refusals(request: Request, next: Next) -> Response {
    let sent_json = api::is_json(request.headers());
    let response = next.run(request).await;
    let status = response.status();
    let refused = status.is_client_error() || status.is_server_error();
    if !refused || api::is_json(response.headers()) {
        return response;
    }
    let mut refusal = mcp_refusal(status, sent_json).into_response();
    if status == StatusCode::METHOD_NOT_ALLOWED {
        // RFC 9110 §15.5.6: a 405 names the methods the target takes.
        let allowed = http::HeaderValue::from_static("GET, POST, DELETE");
        refusal.headers_mut().insert(http::header::ALLOW, allowed);
    }
    refusal
}

/// rmcp answers a session's end (`DELETE /mcp`) 202 Accepted, which MCP
/// clients take for a failure (the Python SDK logs a warning on every close
/// for anything but 200 or 204): the session is gone, so say 204.
async fn ended_sessions(request: Request, next: Next) -> Response {
    let deleting = request.method() == http::Method::DELETE;
    let mut response = next.run(request).await;
    if deleting && response.status() == StatusCode::ACCEPTED {
        *response.status_mut() = StatusCode::NO_CONTENT;
    }
    response
}

/// The refusal for a plain-text answer of rmcp with `status`; `sent_json`:
/// the request said its body was JSON (so a 415 means it did not parse).
fn mcp_refusal(status: StatusCode, sent_json: bool) -> api::ApiError {
    use api::ApiError;
    match status {
        StatusCode::UNSUPPORTED_MEDIA_TYPE if sent_json => ApiError::new(
            StatusCode::BAD_REQUEST,
            "invalid_argument",
            "the body is not a JSON-RPC message",
        ),
        StatusCode::UNSUPPORTED_MEDIA_TYPE => ApiError::new(
            status,
            "unsupported_media_type",
            "send JSON-RPC messages with Content-Type: application/json",
        ),
        StatusCode::NOT_ACCEPTABLE => ApiError::new(
            status,
            "not_acceptable",
            "send Accept: application/json, text/event-stream",
        ),
        StatusCode::NOT_FOUND => {
            ApiError::new(status, "not_found", "no such MCP session; start one with initialize")
        }
        StatusCode::METHOD_NOT_ALLOWED => ApiError::new(
            status,
            "method_not_allowed",
            "/mcp takes POST, and GET and DELETE within a session",
        ),
        s if s.is_server_error() => {
            ApiError::new(status, "internal", "the MCP transport failed to answer")
        }
        // rmcp says 422 for a request without `Mcp-Session-Id`, where the
        // MCP transport says 400 (HTTP round 4, L9).
        _ => ApiError::new(
            if status == StatusCode::UNPROCESSABLE_ENTITY {
                StatusCode::BAD_REQUEST
            } else {
                status
            },
            "invalid_argument",
            "the request does not fit MCP over streamable HTTP (its headers or its session)",
        ),
    }
}

/// axum refuses a request its extractors cannot read (a path segment that
/// is not UTF-8, say) in plain text, in words that may repeat what the
/// client sent: every such refusal becomes the refusal JSON of spec §13.
async fn plain_refusals(request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    let status = response.status();
    let plain = response
        .headers()
        .get(http::header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"text/plain"));
    if !status.is_client_error() || !plain {
        return response;
    }
    match status {
        StatusCode::PAYLOAD_TOO_LARGE => api::ApiError::too_large().into_response(),
        StatusCode::UNSUPPORTED_MEDIA_TYPE => {
            let message = "send the body as application/json";
            api::ApiError::new(status, "unsupported_media_type", message).into_response()
        }
        _ => {
            let message =
                "the request's path, query or body does not fit the route (ids must be UTF-8 text)";
            api::ApiError::new(status, "invalid_argument", message).into_response()
        }
    }
}

/// Marks every answer as private to its client, unless its handler said
/// otherwise: answers hold a user's memories and quotes, which no shared
/// cache may keep (`no-store`) and no browser may read as another type
/// (`nosniff`).
async fn private_answers(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    for (name, value) in [
        (http::header::CACHE_CONTROL, "no-store"),
        (http::header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
    ] {
        headers.entry(name).or_insert(http::HeaderValue::from_static(value));
    }
    response
}

/// Refuses an MCP request without a valid bearer token (401) and attaches
/// the token's grant to the request for the tools to read.
async fn grant_from_token(State(app): State<Arc<App>>, request: Request, next: Next) -> Response {
    let (mut parts, body) = request.into_parts();
    match api::Caller::from_request_parts(&mut parts, &app).await {
        Ok(api::Caller(access)) => {
            parts.extensions.insert(access);
            next.run(Request::from_parts(parts, body)).await
        }
        Err(refusal) => refusal.into_response(),
    }
}

/// Bounds the request's body: over [`MAX_BODY_BYTES`] it fails (413), and
/// still arriving `timeout` after the headers it fails (408), so a client
/// that declares a body and sends it slowly, or never, holds a connection
/// for `timeout` at most. A body declared larger is refused before it is
/// read, and without inviting it (`Expect: 100-continue`). The body is only
/// read by a handler, after the bearer token is checked: a request without
/// a valid token is refused without waiting for its body.
async fn limit_body(State(timeout): State<Duration>, request: Request, next: Next) -> Response {
    let declared = request
        .headers()
        .get(http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    let encoded = request
        .headers()
        .get(http::header::CONTENT_ENCODING)
        .is_some_and(|v| !v.as_bytes().eq_ignore_ascii_case(b"identity"));
    if encoded {
        let message = "bodies are read as sent: drop Content-Encoding and send plain JSON";
        return api::ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            message,
        )
        .into_response();
    }
    if declared.is_some_and(|n| n > MAX_BODY_BYTES as u64) {
        if !expects_continue(&request) {
            let drain = timeout.min(DRAIN_TIME);
            let _ = tokio::time::timeout(drain, discard_some(request.into_body())).await;
        }
        return api::ApiError::too_large().into_response();
    }
    let request = request.map(|body| {
        let limited = http_body_util::Limited::new(body, MAX_BODY_BYTES);
        Body::new(Deadline::new(limited, timeout))
    });
    next.run(request).await
}

/// How long a refused body is read and dropped at most (see [`discard_some`]).
const DRAIN_TIME: Duration = Duration::from_secs(1);

/// A request body that fails with [`BodyTimedOut`] once its time is up.
struct Deadline<B> {
    inner: B,
    due: std::pin::Pin<Box<tokio::time::Sleep>>,
}

impl<B> Deadline<B> {
    fn new(inner: B, timeout: Duration) -> Deadline<B> {
        Deadline { inner, due: Box::pin(tokio::time::sleep(timeout)) }
    }
}

/// The request's body did not arrive within `http.body_timeout_secs`.
#[derive(Debug, thiserror::Error)]
#[error("the request body did not arrive in time")]
pub struct BodyTimedOut;

impl<B> http_body::Body for Deadline<B>
where
    B: http_body::Body + Unpin,
    B::Error: Into<axum::BoxError>,
{
    type Data = B::Data;
    type Error = axum::BoxError;

    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<std::result::Result<http_body::Frame<B::Data>, axum::BoxError>>>
    {
        use std::future::Future;
        if self.due.as_mut().poll(cx).is_ready() {
            return std::task::Poll::Ready(Some(Err(BodyTimedOut.into())));
        }
        std::pin::Pin::new(&mut self.inner).poll_frame(cx).map_err(Into::into)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.inner.size_hint()
    }
}

/// The client waits for a go-ahead before it sends the body.
fn expects_continue(request: &Request) -> bool {
    request
        .headers()
        .get(http::header::EXPECT)
        .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"100-continue"))
}

/// How much of a refused body is read and dropped before answering 413.
const DRAINED_BYTES: usize = 16 * MAX_BODY_BYTES;

/// Reads and drops a refused body (up to [`DRAINED_BYTES`]), so that a client
/// still sending it reads the 413 instead of a connection reset: the
/// connection closes after the answer while the client is still writing
/// otherwise, and under load the reset can overtake the answer.
async fn discard_some(body: Body) {
    use http_body_util::BodyExt;
    let mut body = http_body_util::Limited::new(body, DRAINED_BYTES);
    while let Some(Ok(_)) = body.frame().await {}
}

/// A running server.
pub struct Server {
    address: SocketAddr,
    stop: CancellationToken,
    task: tokio::task::JoinHandle<()>,
    /// Kept to write the loads still queued when the server stops.
    engine: Arc<dyn Engine>,
}

/// How many connections may wait in the listen queue while every slot is
/// answering (the kernel caps it at `net.core.somaxconn`). The default of
/// 128 dropped the connections of other clients beyond
/// `http.max_connections` + 128 (HTTP round 4, L10).
const LISTEN_BACKLOG: u32 = 4096;

/// Binds the listening socket; an address in use or not ours is named.
pub async fn bind(address: SocketAddr) -> Result<TcpListener> {
    let listening = || -> std::io::Result<TcpListener> {
        let socket = match address {
            SocketAddr::V4(_) => tokio::net::TcpSocket::new_v4()?,
            SocketAddr::V6(_) => tokio::net::TcpSocket::new_v6()?,
        };
        socket.set_reuseaddr(true)?;
        socket.bind(address)?;
        socket.listen(LISTEN_BACKLOG)
    };
    listening().map_err(Error::io(format!("http.listen: cannot listen on {address}")))
}

/// Serves `options` on `listener` until [`Server::stop`]. The bound address
/// is logged (`HTTP server listening`), so a server on port 0 can be found.
pub async fn start(listener: TcpListener, options: Options) -> Result<Server> {
    let address = listener.local_addr().map_err(Error::io("reading the bound HTTP address"))?;
    if options.tokens.is_empty() {
        tracing::warn!("http.tokens is empty: every API, MCP and page request will be refused");
    }
    let stop = CancellationToken::new();
    let engine = options.engine.clone();
    let limits = options.limits;
    // Compiled before the first request rather than during it: the first
    // remember stalled every connection, /healthz too, for most of a second,
    // and a stop then reset the requests waiting behind it (HTTP review of
    // December 2026, M3).
    tokio::task::spawn_blocking(crate::detect::warm_up).await.map_err(|e| Error::Io {
        context: "compiling the detectors".into(),
        source: std::io::Error::other(e),
    })?;
    let router = router(options, &stop)?;
    let task = tokio::spawn(connections::serve(listener, router, limits, stop.clone()));
    tracing::info!(address = %address, "HTTP server listening");
    Ok(Server { address, stop, task, engine })
}

impl Server {
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// Stops taking connections, closes idle ones and those still sending
    /// headers, and lets requests in flight finish for up to `bound`; those
    /// still going then are dropped. The loads of the
    /// requests answered are written before it returns.
    pub async fn stop(self, bound: Duration) {
        let engine = self.engine.clone();
        self.stop_serving(bound).await;
        engine.close_loads().await;
    }

    async fn stop_serving(self, bound: Duration) {
        self.stop.cancel();
        let abort = self.task.abort_handle();
        match tokio::time::timeout(bound, self.task).await {
            Ok(Ok(())) => tracing::info!("HTTP server stopped"),
            Ok(Err(e)) => tracing::warn!(error = %e, "HTTP server task failed"),
            Err(_) => {
                abort.abort();
                tracing::warn!(
                    bound_secs = bound.as_secs(),
                    "HTTP requests still in flight at the shutdown bound were dropped"
                );
            }
        }
    }
}
