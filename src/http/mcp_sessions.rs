//! MCP sessions over streamable HTTP, kept in bounds. rmcp keeps a session
//! until its client ends it, so a client that only ever opens sessions
//! would grow the server without end (about 58 KB each). Here a session
//! answers only the bearer token that opened it, one token holds at most
//! [`MAX_PER_TOKEN`] sessions at once, each with at most
//! [`MAX_STREAMS_PER_SESSION`] event streams open, and a session idle for
//! [`IDLE`] ends (a client then gets 404 and starts a new one, as the
//! transport expects). So one token holds at most 64 connections with
//! streams, far below `http.max_connections`.

use super::api::ApiError;
use super::auth::{self, Digest32};
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http::{Method, StatusCode};
use rmcp::transport::streamable_http_server::session::local::{LocalSessionManager, SessionConfig};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

/// The most MCP sessions one bearer token holds at once.
pub const MAX_PER_TOKEN: usize = 32;

/// The most event streams (`GET /mcp`) one session holds open at once:
/// each holds a connection for as long as it lasts.
pub const MAX_STREAMS_PER_SESSION: usize = 2;

/// How long a session may go without a request before it ends.
pub const IDLE: Duration = Duration::from_secs(30 * 60);

/// The header that names a request's session.
const SESSION_HEADER: &str = "mcp-session-id";

/// The sessions rmcp keeps, and the token that opened each.
pub struct McpSessions {
    manager: Arc<LocalSessionManager>,
    owners: Arc<Mutex<Owners>>,
    /// Event streams open, by session.
    streams: Arc<Mutex<HashMap<String, usize>>>,
}

impl McpSessions {
    pub fn new() -> McpSessions {
        let session_config = SessionConfig { keep_alive: Some(IDLE), ..SessionConfig::default() };
        let manager = LocalSessionManager { sessions: Default::default(), session_config };
        McpSessions { manager: Arc::new(manager), owners: Arc::default(), streams: Arc::default() }
    }

    /// The session manager rmcp's service runs on.
    pub fn manager(&self) -> Arc<LocalSessionManager> {
        self.manager.clone()
    }

    fn owners(&self) -> MutexGuard<'_, Owners> {
        lock(&self.owners)
    }

    /// A place for one more session of `owner`, held until the request
    /// that may open it is answered; `None` when its live sessions and the
    /// ones being opened reach [`MAX_PER_TOKEN`]. Counted and taken under
    /// one lock, so requests sent at once cannot all pass the count.
    async fn reserve(&self, owner: Digest32) -> Option<Opening> {
        // Held until the count is taken: no session is created meanwhile.
        // Read and released before, a session opened in between was missing
        // from `live`, dropped from the owners below, and never counted
        // again (a 33rd session under load, seen once in a cold CI).
        let sessions = self.manager.sessions.read().await;
        let live: HashSet<String> = sessions.keys().map(|id| id.to_string()).collect();
        let mut owners = self.owners();
        owners.sessions.retain(|id, _| live.contains(id));
        let held = owners.sessions.values().filter(|o| **o == owner).count();
        let opening = owners.opening.entry(owner).or_default();
        if held + *opening >= MAX_PER_TOKEN {
            return None;
        }
        *opening += 1;
        Some(Opening { owners: self.owners.clone(), owner })
    }
}

/// Which token opened each session, and the requests of each token that
/// may open one now.
#[derive(Default)]
struct Owners {
    sessions: HashMap<String, Digest32>,
    opening: HashMap<Digest32, usize>,
}

fn lock(owners: &Mutex<Owners>) -> MutexGuard<'_, Owners> {
    // Every change is one insert, one retain or one count: a poisoned map is whole.
    owners.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A reserved place for a session ([`McpSessions::reserve`]): the session
/// the answer names takes it, and it is given back when dropped (also when
/// the client went away before the answer).
struct Opening {
    owners: Arc<Mutex<Owners>>,
    owner: Digest32,
}

impl Opening {
    /// Records the session the answer opened, if any, as `owner`'s.
    fn opened(self, session: Option<&str>) {
        if let Some(id) = session {
            lock(&self.owners).sessions.insert(id.to_owned(), self.owner);
        }
    }
}

impl Drop for Opening {
    fn drop(&mut self) {
        let mut owners = lock(&self.owners);
        if let Some(n) = owners.opening.get_mut(&self.owner) {
            *n -= 1;
            if *n == 0 {
                owners.opening.remove(&self.owner);
            }
        }
    }
}

/// Runs after the token is checked: a request a browser sends from a page
/// of another origin is refused (403, as the transport asks against DNS
/// rebinding), a request in a session another token opened is answered as
/// if the session did not exist, and a token at [`MAX_PER_TOKEN`] sessions
/// may not open another (429).
pub async fn guard(
    State(sessions): State<Arc<McpSessions>>,
    request: Request,
    next: Next,
) -> Response {
    let Some(owner) = auth::bearer(request.headers()).map(auth::digest) else {
        return ApiError::unauthorized("send the token as Authorization: Bearer …").into_response();
    };
    if !same_origin(request.headers()) {
        let message = "the request comes from a page of another origin";
        return ApiError::new(StatusCode::FORBIDDEN, "forbidden", message).into_response();
    }
    let named = request.headers().get(SESSION_HEADER).and_then(|v| v.to_str().ok());
    if let Some(id) = named {
        if sessions.owners().sessions.get(id).is_some_and(|o| *o != owner) {
            return super::mcp_refusal(StatusCode::NOT_FOUND, false).into_response();
        }
        if request.method() != Method::GET {
            return next.run(request).await;
        }
        let Some(stream) = OpenStream::enter(&sessions.streams, id) else {
            let message = format!(
                "this session has {MAX_STREAMS_PER_SESSION} event streams open already; close one first"
            );
            return ApiError::new(StatusCode::CONFLICT, "too_many_streams", message)
                .into_response();
        };
        // The stream counts until its body is done or dropped (the client went away).
        let response = next.run(request).await;
        return response.map(|body| {
            axum::body::Body::new(http_body_util::BodyExt::map_frame(body, move |frame| {
                let _held = &stream;
                frame
            }))
        });
    }
    if request.method() != Method::POST {
        return next.run(request).await;
    }
    let Some(opening) = sessions.reserve(owner).await else {
        let message = format!(
            "this token holds {MAX_PER_TOKEN} MCP sessions already: end one (DELETE /mcp) \
             or wait until one has been idle for {} minutes",
            IDLE.as_secs() / 60
        );
        return ApiError::new(StatusCode::TOO_MANY_REQUESTS, "too_many_sessions", message)
            .into_response();
    };
    let response = next.run(request).await;
    opening.opened(response.headers().get(SESSION_HEADER).and_then(|v| v.to_str().ok()));
    response
}

/// No `Origin` (not a browser), or only ones whose host and port are this
/// request's `Host`.
fn same_origin(headers: &http::HeaderMap) -> bool {
    let host = headers.get(http::header::HOST).and_then(|h| h.to_str().ok());
    headers.get_all(http::header::ORIGIN).iter().all(|origin| {
        let origin_host = origin.to_str().ok().and_then(|o| o.split_once("://")).map(|(_, h)| h);
        host.is_some_and(|host| origin_host.is_some_and(|o| o.eq_ignore_ascii_case(host)))
    })
}

/// One event stream of a session, counted until dropped.
struct OpenStream {
    streams: Arc<Mutex<HashMap<String, usize>>>,
    session: String,
}

impl OpenStream {
    /// Counts a new stream of `session`, or `None` when it has its most.
    fn enter(streams: &Arc<Mutex<HashMap<String, usize>>>, session: &str) -> Option<OpenStream> {
        let mut open = streams.lock().unwrap_or_else(PoisonError::into_inner);
        let count = open.entry(session.to_owned()).or_default();
        if *count >= MAX_STREAMS_PER_SESSION {
            return None;
        }
        *count += 1;
        Some(OpenStream { streams: streams.clone(), session: session.to_owned() })
    }
}

impl Drop for OpenStream {
    fn drop(&mut self) {
        let mut open = self.streams.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = open.get_mut(&self.session) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.session);
            }
        }
    }
}
