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
mod lang;
pub mod metrics;
mod pages;

use crate::error::{Error, Result};
use crate::mcp::DreamdMcp;
use crate::tools::{Access, Engine, Grant};
use axum::Router;
use axum::body::Body;
use axum::extract::{DefaultBodyLimit, FromRequestParts, MatchedPath, Request, State};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
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
    let mcp = Router::new()
        .route_service("/mcp", mcp_service(options.engine, stop))
        .layer(middleware::from_fn_with_state(app.clone(), grant_from_token));
    let mut router = api.merge(mcp).merge(pages::routes());
    if let Some(metrics) = metrics {
        router = router.route_layer(middleware::from_fn_with_state(metrics, metrics::track));
    }
    router = router.route_layer(middleware::from_fn(log_server_errors));
    Ok(router
        .fallback(pages::not_found)
        .with_state(app)
        .layer(middleware::from_fn(limit_body))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES)))
}

/// MCP over streamable HTTP with the same tools; whom a call may act for
/// comes with each request from its bearer token ([`grant_from_token`]).
fn mcp_service(
    engine: Arc<dyn Engine>,
    stop: &CancellationToken,
) -> StreamableHttpService<DreamdMcp, LocalSessionManager> {
    let config = StreamableHttpServerConfig {
        cancellation_token: stop.child_token(),
        ..StreamableHttpServerConfig::default()
    };
    StreamableHttpService::new(
        move || Ok(DreamdMcp::new(engine.clone(), Access::new(Vec::new(), Grant::HttpToken))),
        Arc::new(LocalSessionManager::default()),
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

/// Refuses a body declared larger than [`MAX_BODY_BYTES`] at once, and cuts
/// one that grows past it while streaming (the readers then answer 413).
async fn limit_body(request: Request, next: Next) -> Response {
    let declared = request
        .headers()
        .get(http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_BODY_BYTES as u64) {
        discard_some(request.into_body()).await;
        return api::ApiError::too_large().into_response();
    }
    let request = request.map(|body| Body::new(http_body_util::Limited::new(body, MAX_BODY_BYTES)));
    next.run(request).await
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
    task: tokio::task::JoinHandle<std::io::Result<()>>,
    /// Kept to write the loads still queued when the server stops.
    engine: Arc<dyn Engine>,
}

/// Binds the listening socket; an address in use or not ours is named.
pub async fn bind(address: SocketAddr) -> Result<TcpListener> {
    TcpListener::bind(address)
        .await
        .map_err(Error::io(format!("http.listen: cannot listen on {address}")))
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
    let router = router(options, &stop)?;
    let shutdown = stop.clone().cancelled_owned();
    let task = tokio::spawn(async move {
        axum::serve(listener, router).with_graceful_shutdown(shutdown).await
    });
    tracing::info!(address = %address, "HTTP server listening");
    Ok(Server { address, stop, task, engine })
}

impl Server {
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// Stops taking connections and lets requests in flight finish for up
    /// to `bound`; those still going then are dropped. The loads of the
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
            Ok(Ok(Ok(()))) => tracing::info!("HTTP server stopped"),
            Ok(Ok(Err(e))) => tracing::warn!(error = %e, "HTTP server stopped with an error"),
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
