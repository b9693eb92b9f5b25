//! The memory service for agents over the Model Context Protocol, with the
//! rmcp SDK: `dreamd mcp` over stdio (stdout carries only JSON-RPC; logs go
//! to stderr), and the same tools at `/mcp` over streamable HTTP. The tools
//! are `crate::tools`; this file only describes them to the model, finds
//! whom the caller may act for, and turns refusals into tool errors
//! (`isError: true`).

mod stdio;

use crate::error::{Error, Result};
use crate::tools::args::{
    EditArgs, ListArgs, MemoryArgs, RecallArgs, RememberArgs, SuggestionArgs,
};
use crate::tools::{Access, Engine, Refusal};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, Content, Implementation, ServerCapabilities, ServerInfo};
use rmcp::schemars::{JsonSchema, Schema, SchemaGenerator};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize};
use std::borrow::Cow;
use std::sync::Arc;

#[derive(Clone)]
pub struct DreamdMcp {
    engine: Arc<dyn Engine>,
    /// Whom a call may act for when its transport says nothing: `mcp.users`
    /// over stdio, nobody over HTTP (where the token's grant comes with each request).
    access: Access,
    tool_router: ToolRouter<Self>,
}

type ToolResult = std::result::Result<CallToolResult, ErrorData>;

/// A tool's arguments as the call sent them: read, or refused with the
/// argument that fails named and its value never repeated. rmcp's own
/// reading answers a JSON-RPC error quoting the value (and logs it); this
/// one never fails, so a mismatch becomes an `isError` result (spec §11.4).
pub struct Checked<T>(std::result::Result<T, Refusal>);

impl<'de, T: DeserializeOwned> Deserialize<'de> for Checked<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> std::result::Result<Self, D::Error> {
        let value = serde_json::Value::deserialize(deserializer)?;
        Ok(Checked(crate::tools::args::from_value(value).map_err(Refusal::invalid)))
    }
}

/// The schema of the arguments themselves, so the tool list is unchanged.
impl<T: JsonSchema> JsonSchema for Checked<T> {
    fn schema_name() -> Cow<'static, str> {
        T::schema_name()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        T::json_schema(generator)
    }
}

/// The result of a tool as structured content (and the same JSON as text).
fn respond<T: Serialize>(answer: std::result::Result<T, Refusal>) -> ToolResult {
    Ok(match answer {
        Ok(value) => {
            // Records are plain data with string keys: serialising them cannot fail.
            CallToolResult::structured(
                serde_json::to_value(value).expect("records serialise to JSON"),
            )
        }
        Err(refusal) => CallToolResult::error(vec![Content::text(refusal.message)]),
    })
}

#[tool_router]
impl DreamdMcp {
    pub fn new(engine: Arc<dyn Engine>, access: Access) -> DreamdMcp {
        DreamdMcp { engine, access, tool_router: Self::tool_router() }
    }

    /// Whom this call may act for: the grant the HTTP layer attached to the
    /// request (its bearer token's users), or the server's own.
    fn access(&self, context: &RequestContext<RoleServer>) -> Access {
        context
            .extensions
            .get::<http::request::Parts>()
            .and_then(|parts| parts.extensions.get::<Access>())
            .unwrap_or(&self.access)
            .clone()
    }

    #[tool(
        description = "Load what to keep in mind for this user before answering: their active memories that apply to the request's scopes (global ones always). Call it at the start of each answer, and pass the user's request as query, exactly as you received it: memories about how to answer come first, then the user's background and current work that bear on that request. Pass conversation_id so the answer can later be traced to the memories it used."
    )]
    async fn recall(
        &self,
        Parameters(Checked(args)): Parameters<Checked<RecallArgs>>,
        context: RequestContext<RoleServer>,
    ) -> ToolResult {
        respond(async { self.engine.recall(&self.access(&context), args?).await }.await)
    }

    #[tool(
        description = "Save something the user explicitly asked you to remember (\"remember that…\", \"from now on…\"): how they want answers, their work background, current projects, their terms, default query choices. Refused for secrets, permission claims, live business facts (prices, stock, approval status) and personal identifiers."
    )]
    async fn remember(
        &self,
        Parameters(Checked(args)): Parameters<Checked<RememberArgs>>,
        context: RequestContext<RoleServer>,
    ) -> ToolResult {
        respond(async { self.engine.remember(&self.access(&context), args?).await }.await)
    }

    #[tool(
        description = "Delete a memory for good when the user asks you to forget it: its text is erased everywhere and it will not be learned again from old conversations."
    )]
    async fn forget(
        &self,
        Parameters(Checked(args)): Parameters<Checked<MemoryArgs>>,
        context: RequestContext<RoleServer>,
    ) -> ToolResult {
        respond(async { self.engine.forget(&self.access(&context), args?).await }.await)
    }

    #[tool(description = "Stop using a memory without deleting it (the user can enable it again).")]
    async fn disable(
        &self,
        Parameters(Checked(args)): Parameters<Checked<MemoryArgs>>,
        context: RequestContext<RoleServer>,
    ) -> ToolResult {
        respond(async { self.engine.disable(&self.access(&context), args?).await }.await)
    }

    #[tool(description = "Use a disabled memory again.")]
    async fn enable(
        &self,
        Parameters(Checked(args)): Parameters<Checked<MemoryArgs>>,
        context: RequestContext<RoleServer>,
    ) -> ToolResult {
        respond(async { self.engine.enable(&self.access(&context), args?).await }.await)
    }

    #[tool(
        description = "Correct a memory's text when the user says it is wrong or changed; it becomes a memory the user set."
    )]
    async fn edit(
        &self,
        Parameters(Checked(args)): Parameters<Checked<EditArgs>>,
        context: RequestContext<RoleServer>,
    ) -> ToolResult {
        respond(async { self.engine.edit(&self.access(&context), args?).await }.await)
    }

    #[tool(
        description = "Show where a memory came from: its evidence (the user's own words, conversations, times), its history and the conversations that loaded it. Use it when the user asks why you did something."
    )]
    async fn explain(
        &self,
        Parameters(Checked(args)): Parameters<Checked<MemoryArgs>>,
        context: RequestContext<RoleServer>,
    ) -> ToolResult {
        respond(async { self.engine.explain(&self.access(&context), args?).await }.await)
    }

    #[tool(
        description = "List the user's memories (active ones; all=true for every status), e.g. when they ask what you remember about them."
    )]
    async fn list_memories(
        &self,
        Parameters(Checked(args)): Parameters<Checked<ListArgs>>,
        context: RequestContext<RoleServer>,
    ) -> ToolResult {
        respond(async { self.engine.list_memories(&self.access(&context), args?).await }.await)
    }

    #[tool(
        description = "List changes dreamd proposes but may not make on its own (pending; all=true for decided ones too), for the user to accept or reject."
    )]
    async fn list_suggestions(
        &self,
        Parameters(Checked(args)): Parameters<Checked<ListArgs>>,
        context: RequestContext<RoleServer>,
    ) -> ToolResult {
        respond(async { self.engine.list_suggestions(&self.access(&context), args?).await }.await)
    }

    #[tool(
        description = "Apply a suggestion the user agreed to; the result is a memory the user set."
    )]
    async fn accept_suggestion(
        &self,
        Parameters(Checked(args)): Parameters<Checked<SuggestionArgs>>,
        context: RequestContext<RoleServer>,
    ) -> ToolResult {
        respond(async { self.engine.accept_suggestion(&self.access(&context), args?).await }.await)
    }

    #[tool(
        description = "Turn down a suggestion the user does not want; it will not be proposed again for a while."
    )]
    async fn reject_suggestion(
        &self,
        Parameters(Checked(args)): Parameters<Checked<SuggestionArgs>>,
        context: RequestContext<RoleServer>,
    ) -> ToolResult {
        respond(async { self.engine.reject_suggestion(&self.access(&context), args?).await }.await)
    }
}

#[tool_handler]
impl ServerHandler for DreamdMcp {
    fn get_info(&self) -> ServerInfo {
        ServerInfo {
            capabilities: ServerCapabilities::builder().enable_tools().build(),
            server_info: Implementation {
                name: "dreamd".into(),
                version: env!("CARGO_PKG_VERSION").into(),
                ..Implementation::from_build_env()
            },
            instructions: Some(
                "dreamd keeps a user's long-term memories. Call recall with the user's request as query before you answer; remember what the user explicitly asks you to; forget, disable or edit when they say so; explain to show where a memory came from.".into(),
            ),
            ..Default::default()
        }
    }
}

/// Serves the tools over stdin/stdout until stdin closes (also before the
/// handshake: a host that goes away is a normal end, exit 0).
pub async fn serve(engine: Arc<dyn Engine>, access: Access) -> Result<()> {
    let io =
        |e: String| Error::Io { context: "MCP transport".into(), source: std::io::Error::other(e) };
    // The detectors compile while the host does its handshake, not during
    // the first tool call (most of a second on a small machine); on a
    // thread of its own, which the end of stdin does not wait for.
    drop(std::thread::spawn(crate::detect::warm_up));
    let (ends, written) = stdio::transport();
    let served = match DreamdMcp::new(engine, access).serve(ends).await {
        Ok(running) => running.waiting().await.map(drop).map_err(|e| io(e.to_string())),
        Err(rmcp::service::ServerInitializeError::ConnectionClosed(_)) => Ok(()),
        Err(e) => Err(io(handshake_failure(&e))),
    };
    written.flushed().await;
    served
}

/// Why the handshake failed, without the message rmcp quotes in its own
/// error (a Debug dump of the request, a `remember` text with it).
fn handshake_failure(e: &rmcp::service::ServerInitializeError) -> String {
    use rmcp::service::ServerInitializeError as Failed;
    match e {
        Failed::ExpectedInitializeRequest(_) | Failed::ExpectedInitializedNotification(_) => {
            "the MCP handshake went out of order (initialize, then notifications/initialized)"
                .into()
        }
        Failed::UnsupportedProtocolVersion(v) => format!("unsupported MCP protocol version {v}"),
        Failed::InitializeFailed(_) | Failed::UnexpectedInitializeResponse(_) => {
            "the MCP handshake failed".into()
        }
        Failed::TransportError { context, .. } => {
            format!("the MCP transport failed when {context}")
        }
        Failed::ConnectionClosed(_) | Failed::Cancelled => "the MCP connection closed".into(),
    }
}
