//! The JSON API (spec §13): `POST /v1/<tool>` for every tool of §11 with its
//! arguments as the body and its structured result as the answer, and
//! resource-style reads (`GET /v1/memories`, `/v1/suggestions`, `/v1/loads`,
//! `/v1/memories/{id}`) with paging and filters. Every handler is one call
//! on the shared tools (`crate::tools`). Refusals are
//! `{"error": {"code", "message"}}`, never repeating refused text; a body
//! the server cannot read is described by where it fails, not by what it holds.

use super::App;
use super::auth;
use crate::domain::MemoryRecord;
use crate::tools::args::{
    EditArgs, ListArgs, LoadQuery, MemoryArgs, MemoryQuery, RecallArgs, RememberArgs,
    SuggestionArgs, SuggestionQuery,
};
use crate::tools::{
    Accepted, Access, Code, Explained, Health, LoadPage, MemoryList, MemoryPage, Recalled, Refusal,
    Rejected, SuggestionList, SuggestionPage,
};
use axum::Json;
use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Path, Request, State};
use axum::response::{IntoResponse, Response};
use http::request::Parts;
use http::{HeaderValue, StatusCode, header};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::collections::BTreeMap;
use std::sync::Arc;
use utoipa::openapi::{ContentBuilder, Ref, RefOr, ResponseBuilder};
use utoipa::{Modify, OpenApi, ToSchema};

/// A refusal over HTTP: a status and the JSON body of spec §13.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    code: &'static str,
    message: String,
}

/// The body of every refusal.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorDetail {
    /// `unauthorized`, `forbidden`, `not_found`, `invalid_argument`, `never_store`,
    /// `stale`, `method_not_allowed`, `not_acceptable`, `request_timeout`,
    /// `payload_too_large`, `uri_too_long`, `unsupported_media_type`,
    /// `header_fields_too_large`, `too_many_sessions`, `too_many_streams`,
    /// `internal` or `unavailable`.
    pub code: String,
    /// Why, in words that never repeat the refused text.
    pub message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError { status, code, message: message.into() }
    }

    pub fn unauthorized(message: &str) -> ApiError {
        ApiError::new(StatusCode::UNAUTHORIZED, "unauthorized", message)
    }

    pub fn too_large() -> ApiError {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "payload_too_large",
            format!("the body is larger than {} bytes", super::MAX_BODY_BYTES),
        )
    }

    fn invalid(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "invalid_argument", message)
    }
}

/// The HTTP status of each kind of refusal.
pub fn status_of(code: Code) -> StatusCode {
    match code {
        Code::InvalidArgument | Code::NeverStore => StatusCode::BAD_REQUEST,
        Code::Forbidden => StatusCode::FORBIDDEN,
        Code::NotFound => StatusCode::NOT_FOUND,
        Code::Stale => StatusCode::CONFLICT,
        Code::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        Code::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
    }
}

impl From<Refusal> for ApiError {
    fn from(r: Refusal) -> ApiError {
        ApiError::new(status_of(r.code), r.code.as_str(), r.message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body =
            ErrorBody { error: ErrorDetail { code: self.code.into(), message: self.message } };
        let mut response = (self.status, Json(body)).into_response();
        let headers = response.headers_mut();
        match self.status {
            StatusCode::UNAUTHORIZED => {
                let challenge = HeaderValue::from_static("Bearer realm=\"dreamd\"");
                headers.insert(header::WWW_AUTHENTICATE, challenge);
            }
            // The rest of the body is never read: the connection cannot carry another request.
            StatusCode::PAYLOAD_TOO_LARGE => {
                headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
            }
            _ => {}
        }
        response
    }
}

/// The caller of an API or MCP request, by its bearer token.
pub struct Caller(pub Access);

impl FromRequestParts<Arc<App>> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Caller, ApiError> {
        let token = auth::bearer(&parts.headers).ok_or_else(|| {
            ApiError::unauthorized(
                "send one bearer token: a single Authorization: Bearer <token> header",
            )
        })?;
        app.tokens
            .access(token)
            .map(Caller)
            .ok_or_else(|| ApiError::unauthorized("the bearer token is not one of http.tokens"))
    }
}

/// A JSON body read whole (within the body limit) and described, when it
/// does not fit, by the argument that fails, never by the value it holds.
pub struct JsonBody<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<JsonBody<T>, ApiError> {
        if !is_json(request.headers()) {
            return Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "unsupported_media_type",
                "send the arguments as a JSON object with Content-Type: application/json",
            ));
        }
        if !in_utf8(request.headers()) {
            return Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "unsupported_media_type",
                "send the body in UTF-8 (Content-Type: application/json; charset=utf-8, or no charset)",
            ));
        }
        let bytes = Bytes::from_request(request, state).await.map_err(|r| {
            if r.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::too_large()
            } else if timed_out(&r) {
                ApiError::new(
                    StatusCode::REQUEST_TIMEOUT,
                    "request_timeout",
                    "the request body did not arrive within http.body_timeout_secs",
                )
            } else {
                ApiError::invalid("the body could not be read")
            }
        })?;
        // RFC 8259 §8.1: a parser may ignore a byte order mark.
        let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
        read_json(body).map(JsonBody)
    }
}

/// Whether a JSON body's `charset`, if any, is UTF-8, the only one JSON
/// is read in (RFC 8259 §8.1): a body sent in Latin-1 or UTF-16 was taken
/// for UTF-8 and refused as "not valid JSON" (HTTP round 4, L1).
fn in_utf8(headers: &http::HeaderMap) -> bool {
    let content_type = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok());
    let charset = content_type.into_iter().flat_map(|v| v.split(';').skip(1)).find_map(|p| {
        let (name, value) = p.split_once('=')?;
        name.trim().eq_ignore_ascii_case("charset").then(|| value.trim().trim_matches('"'))
    });
    charset.is_none_or(|c| c.eq_ignore_ascii_case("utf-8") || c.eq_ignore_ascii_case("utf8"))
}

/// Whether reading the body failed because its time was up ([`super::BodyTimedOut`]).
fn timed_out(rejection: &axum::extract::rejection::BytesRejection) -> bool {
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(rejection);
    while let Some(error) = cause {
        if error.is::<super::BodyTimedOut>() {
            return true;
        }
        cause = error.source();
    }
    false
}

/// Whether a request or answer says its body is `application/json`.
pub fn is_json(headers: &http::HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"))
}

/// Deserialises `bytes`, naming the failing argument without its value.
fn read_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let value = serde_path_to_error::deserialize(&mut deserializer).map_err(|e| {
        if e.inner().is_syntax() || e.inner().is_eof() {
            return ApiError::invalid("the body is not valid JSON");
        }
        ApiError::invalid(crate::tools::args::mismatch(e))
    })?;
    deserializer.end().map_err(|_| ApiError::invalid("the body holds more than one JSON value"))?;
    Ok(value)
}

/// Query-string arguments, refused without repeating them.
pub struct QueryArgs<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for QueryArgs<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<QueryArgs<T>, ApiError> {
        let query = parts.uri.query().unwrap_or_default();
        let arguments =
            serde_urlencoded::Deserializer::new(form_urlencoded::parse(query.as_bytes()));
        serde_path_to_error::deserialize(arguments)
            .map(QueryArgs)
            .map_err(|e| ApiError::invalid(crate::tools::args::mismatch(e)))
    }
}

type Answer<T> = Result<Json<T>, ApiError>;

/// Every refusal a `/v1` endpoint may answer, for the OpenAPI document.
struct Refusals;

impl utoipa::IntoResponses for Refusals {
    fn responses() -> BTreeMap<String, RefOr<utoipa::openapi::Response>> {
        [
            ("400", "An argument is missing or invalid, or the text may never be stored (code never_store)"),
            ("401", "No bearer token, or one that is not in http.tokens"),
            ("403", "The token may not act for this user, or the id belongs to another user"),
            ("404", "No such memory, suggestion or conversation"),
            ("405", "The path does not take this method"),
            ("408", "The body did not arrive within http.body_timeout_secs"),
            ("409", "The record changed meanwhile, or is not in the state the change needs: a suggestion already decided, a memory already deleted (stale)"),
            ("413", "The body is larger than 1 MiB"),
            ("414", "The request target is longer than 8 KiB"),
            ("415", "The body is not application/json"),
            ("431", "More than 100 header lines or 64 KiB of headers"),
            ("500", "The store failed"),
            ("503", "The database cannot be reached; try again"),
        ]
        .into_iter()
        .map(|(status, description)| {
            let content = ContentBuilder::new()
                .schema(Some(RefOr::Ref(Ref::from_schema_name("ErrorBody"))))
                .build();
            let response = ResponseBuilder::new()
                .description(description)
                .content("application/json", content)
                .build();
            (status.to_owned(), RefOr::T(response))
        })
        .collect()
    }
}

/// The bearer scheme every `/v1` endpoint requires.
struct BearerScheme;

impl Modify for BearerScheme {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::security::{Http, HttpAuthScheme, SecurityScheme};
        let components = openapi.components.get_or_insert_with(Default::default);
        components
            .add_security_scheme("bearer", SecurityScheme::Http(Http::new(HttpAuthScheme::Bearer)));
    }
}

/// The OpenAPI document's frame; the paths come from the routes themselves.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "dreamd",
        description = "Long-term memory for AI agents (spec §13). POST /v1/<tool> runs the MCP tool of the same name with its arguments as a JSON body; GET endpoints read memories, suggestions and loads a page at a time. MCP over streamable HTTP is served at /mcp with the same tools and tokens; review pages for people at /."
    ),
    components(schemas(ErrorBody, ErrorDetail)),
    modifiers(&BearerScheme),
    tags((name = "tools", description = "The MCP tools of spec §11"), (name = "resources", description = "Paged reads"), (name = "operations", description = "Health and metrics"))
)]
pub struct ApiDoc;

#[utoipa::path(post, path = "/v1/recall", tag = "tools", request_body = RecallArgs,
    responses((status = 200, description = "What the agent should load now; with conversation_id, recorded as a load", body = Recalled), Refusals),
    security(("bearer" = [])))]
pub async fn recall(
    State(app): State<Arc<App>>,
    Caller(access): Caller,
    JsonBody(args): JsonBody<RecallArgs>,
) -> Answer<Recalled> {
    Ok(Json(app.engine.recall(&access, args).await?))
}

#[utoipa::path(post, path = "/v1/remember", tag = "tools", request_body = RememberArgs,
    responses((status = 200, description = "The explicit memory (an equal active one is returned as is)", body = MemoryRecord), Refusals),
    security(("bearer" = [])))]
pub async fn remember(
    State(app): State<Arc<App>>,
    Caller(access): Caller,
    JsonBody(args): JsonBody<RememberArgs>,
) -> Answer<MemoryRecord> {
    Ok(Json(app.engine.remember(&access, args).await?))
}

#[utoipa::path(post, path = "/v1/forget", tag = "tools", request_body = MemoryArgs,
    responses((status = 200, description = "The deleted memory (content null; a tombstone remains)", body = MemoryRecord), Refusals),
    security(("bearer" = [])))]
pub async fn forget(
    State(app): State<Arc<App>>,
    Caller(access): Caller,
    JsonBody(args): JsonBody<MemoryArgs>,
) -> Answer<MemoryRecord> {
    Ok(Json(app.engine.forget(&access, args).await?))
}

#[utoipa::path(post, path = "/v1/disable", tag = "tools", request_body = MemoryArgs,
    responses((status = 200, description = "The disabled memory", body = MemoryRecord), Refusals),
    security(("bearer" = [])))]
pub async fn disable(
    State(app): State<Arc<App>>,
    Caller(access): Caller,
    JsonBody(args): JsonBody<MemoryArgs>,
) -> Answer<MemoryRecord> {
    Ok(Json(app.engine.disable(&access, args).await?))
}

#[utoipa::path(post, path = "/v1/enable", tag = "tools", request_body = MemoryArgs,
    responses((status = 200, description = "The memory, active again", body = MemoryRecord), Refusals),
    security(("bearer" = [])))]
pub async fn enable(
    State(app): State<Arc<App>>,
    Caller(access): Caller,
    JsonBody(args): JsonBody<MemoryArgs>,
) -> Answer<MemoryRecord> {
    Ok(Json(app.engine.enable(&access, args).await?))
}

#[utoipa::path(post, path = "/v1/edit", tag = "tools", request_body = EditArgs,
    responses((status = 200, description = "The corrected memory, now explicit", body = MemoryRecord), Refusals),
    security(("bearer" = [])))]
pub async fn edit(
    State(app): State<Arc<App>>,
    Caller(access): Caller,
    JsonBody(args): JsonBody<EditArgs>,
) -> Answer<MemoryRecord> {
    Ok(Json(app.engine.edit(&access, args).await?))
}

#[utoipa::path(post, path = "/v1/explain", tag = "tools", request_body = MemoryArgs,
    responses((status = 200, description = "The memory with its evidence, history and loads", body = Explained), Refusals),
    security(("bearer" = [])))]
pub async fn explain(
    State(app): State<Arc<App>>,
    Caller(access): Caller,
    JsonBody(args): JsonBody<MemoryArgs>,
) -> Answer<Explained> {
    Ok(Json(app.engine.explain(&access, args).await?))
}

#[utoipa::path(post, path = "/v1/list_memories", tag = "tools", request_body = ListArgs,
    responses((status = 200, description = "The user's active memories (all: every status)", body = MemoryList), Refusals),
    security(("bearer" = [])))]
pub async fn list_memories(
    State(app): State<Arc<App>>,
    Caller(access): Caller,
    JsonBody(args): JsonBody<ListArgs>,
) -> Answer<MemoryList> {
    Ok(Json(app.engine.list_memories(&access, args).await?))
}

#[utoipa::path(post, path = "/v1/list_suggestions", tag = "tools", request_body = ListArgs,
    responses((status = 200, description = "The user's pending suggestions (all: decided ones too)", body = SuggestionList), Refusals),
    security(("bearer" = [])))]
pub async fn list_suggestions(
    State(app): State<Arc<App>>,
    Caller(access): Caller,
    JsonBody(args): JsonBody<ListArgs>,
) -> Answer<SuggestionList> {
    Ok(Json(app.engine.list_suggestions(&access, args).await?))
}

#[utoipa::path(post, path = "/v1/accept_suggestion", tag = "tools", request_body = SuggestionArgs,
    responses((status = 200, description = "The accepted suggestion and the memory it made or changed", body = Accepted), Refusals),
    security(("bearer" = [])))]
pub async fn accept_suggestion(
    State(app): State<Arc<App>>,
    Caller(access): Caller,
    JsonBody(args): JsonBody<SuggestionArgs>,
) -> Answer<Accepted> {
    Ok(Json(app.engine.accept_suggestion(&access, args).await?))
}

#[utoipa::path(post, path = "/v1/reject_suggestion", tag = "tools", request_body = SuggestionArgs,
    responses((status = 200, description = "The rejected suggestion", body = Rejected), Refusals),
    security(("bearer" = [])))]
pub async fn reject_suggestion(
    State(app): State<Arc<App>>,
    Caller(access): Caller,
    JsonBody(args): JsonBody<SuggestionArgs>,
) -> Answer<Rejected> {
    Ok(Json(app.engine.reject_suggestion(&access, args).await?))
}

#[utoipa::path(get, path = "/v1/memories", tag = "resources", params(MemoryQuery),
    responses((status = 200, description = "A page of the user's memories in creation order", body = MemoryPage), Refusals),
    security(("bearer" = [])))]
pub async fn memories(
    State(app): State<Arc<App>>,
    Caller(access): Caller,
    QueryArgs(query): QueryArgs<MemoryQuery>,
) -> Answer<MemoryPage> {
    Ok(Json(app.engine.memories(&access, query).await?))
}

#[utoipa::path(get, path = "/v1/memories/{memory_id}", tag = "resources",
    params(("memory_id" = String, Path, description = "The memory's id")),
    responses((status = 200, description = "The memory with its evidence, history and loads", body = Explained), Refusals),
    security(("bearer" = [])))]
pub async fn memory(
    State(app): State<Arc<App>>,
    Caller(access): Caller,
    Path(memory_id): Path<String>,
    QueryArgs(NoArguments {}): QueryArgs<NoArguments>,
) -> Answer<Explained> {
    Ok(Json(app.engine.memory(&access, memory_id).await?))
}

/// A read that takes no query arguments refuses any by name, as the list
/// endpoints refuse one they do not know.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoArguments {}

#[utoipa::path(get, path = "/v1/suggestions", tag = "resources", params(SuggestionQuery),
    responses((status = 200, description = "A page of the user's suggestions in creation order", body = SuggestionPage), Refusals),
    security(("bearer" = [])))]
pub async fn suggestions(
    State(app): State<Arc<App>>,
    Caller(access): Caller,
    QueryArgs(query): QueryArgs<SuggestionQuery>,
) -> Answer<SuggestionPage> {
    Ok(Json(app.engine.suggestions(&access, query).await?))
}

#[utoipa::path(get, path = "/v1/loads", tag = "resources", params(LoadQuery),
    responses((status = 200, description = "A page of the user's loads, oldest first", body = LoadPage), Refusals),
    security(("bearer" = [])))]
pub async fn loads(
    State(app): State<Arc<App>>,
    Caller(access): Caller,
    QueryArgs(query): QueryArgs<LoadQuery>,
) -> Answer<LoadPage> {
    Ok(Json(app.engine.loads(&access, query).await?))
}

#[utoipa::path(get, path = "/healthz", tag = "operations",
    responses((status = 200, description = "The database answers and its migrations are current", body = Health),
        (status = 503, description = "The database does not answer, or its schema is not the one this binary expects", body = Health)))]
pub async fn healthz(State(app): State<Arc<App>>) -> (StatusCode, Json<Health>) {
    let health = app.engine.health().await;
    let status =
        if health.status == "ok" { StatusCode::OK } else { StatusCode::SERVICE_UNAVAILABLE };
    (status, Json(health))
}

#[utoipa::path(get, path = "/metrics", tag = "operations",
    responses((status = 200, description = "Prometheus text exposition format", content_type = "text/plain", body = String),
        (status = 404, description = "Metrics are off (metrics.listen is empty)", body = ErrorBody)))]
pub async fn metrics(State(app): State<Arc<App>>) -> Response {
    match &app.metrics {
        Some(metrics) => (
            [(header::CONTENT_TYPE, HeaderValue::from_static("text/plain; version=0.0.4"))],
            metrics.render(),
        )
            .into_response(),
        None => ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            "metrics are off: set metrics.listen to turn them on",
        )
        .into_response(),
    }
}

#[utoipa::path(get, path = "/v1/openapi.json", tag = "operations",
    responses((status = 200, description = "This document (OpenAPI 3.1)", content_type = "application/json", body = Object)))]
pub async fn openapi(State(app): State<Arc<App>>) -> Response {
    ([(header::CONTENT_TYPE, HeaderValue::from_static("application/json"))], app.openapi.clone())
        .into_response()
}

/// The answer to a method a path does not take (axum's own is an empty 405).
pub async fn method_not_allowed() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        "this path does not take this method; /v1/openapi.json lists each path's methods",
    )
}

/// The answer to a `/v1` path that names no endpoint.
pub async fn no_such_endpoint() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "not_found",
        "no such endpoint; /v1/openapi.json lists them",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{Actor, Kind, Origin, Status, SuggestionOp, SuggestionStatus};
    use crate::tools::args::RememberArgs;
    use serde_json::{Value, json};

    #[test]
    fn the_documents_enums_and_limits_are_what_the_api_takes() {
        let doc = serde_json::to_value(super::super::openapi_document()).unwrap();
        let schemas = &doc["components"]["schemas"];
        let wire = [
            ("Kind", Kind::ALL.iter().map(|n| n.as_str()).collect::<Vec<_>>()),
            ("Status", Status::ALL.iter().map(|n| n.as_str()).collect()),
            ("Origin", Origin::ALL.iter().map(|n| n.as_str()).collect()),
            ("SuggestionStatus", SuggestionStatus::ALL.iter().map(|n| n.as_str()).collect()),
            ("SuggestionOp", SuggestionOp::ALL.iter().map(|n| n.as_str()).collect()),
            ("Actor", Actor::ALL.iter().map(|n| n.as_str()).collect()),
        ];
        for (schema, names) in wire {
            assert_eq!(schemas[schema]["enum"], json!(names), "{schema}");
        }
        assert_eq!(schemas["RecallArgs"]["properties"]["limit"]["minimum"], 1);
        for path in ["/v1/memories", "/v1/suggestions", "/v1/loads"] {
            let parameters = doc["paths"][path]["get"]["parameters"].as_array().unwrap();
            let limit = parameters.iter().find(|p| p["name"] == "limit").unwrap();
            assert_eq!(limit["schema"]["minimum"], Value::from(1), "{path}");
        }
    }

    #[test]
    fn a_body_that_does_not_fit_is_described_without_its_values() {
        let refuse = |body: &str| read_json::<RememberArgs>(body.as_bytes()).err().unwrap().message;
        assert_eq!(refuse("{\"user_id\": \"jay\""), "the body is not valid JSON");
        assert_eq!(refuse("{\"user_id\": \"jay\"}"), "argument 'kind' is required");
        let typed = refuse(
            "{\"user_id\": \"jay\", \"kind\": \"background\", \"scope\": \"global\", \"text\": [\"hunter2-secret\"]}",
        );
        assert!(typed.contains("'text'") && !typed.contains("hunter2"), "{typed}");
        assert_eq!(refuse("[\"hunter2-secret\"]"), "the arguments must be a JSON object");
        assert_eq!(refuse("{} {}"), "argument 'user_id' is required");
    }
}
