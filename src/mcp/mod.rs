//! `dreamd mcp`: the memory service for agents over the Model Context
//! Protocol (stdio), with the rmcp SDK. stdout carries only JSON-RPC; logs go
//! to stderr. The tools are `tools.rs`; this file only describes them to the
//! model and turns refusals into tool errors (`isError: true`).

pub mod tools;

use crate::error::{Error, Result};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, Content, Implementation, ServerCapabilities, ServerInfo};
use rmcp::{ErrorData, ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use std::sync::Arc;
use tools::{
    Call, EditArgs, Engine, ListArgs, MemoryArgs, RecallArgs, RememberArgs, SuggestionArgs,
};

#[derive(Clone)]
pub struct DreamdMcp {
    engine: Arc<dyn Engine>,
    tool_router: ToolRouter<Self>,
}

type ToolResult = std::result::Result<CallToolResult, ErrorData>;

#[tool_router]
impl DreamdMcp {
    pub fn new(engine: Arc<dyn Engine>) -> DreamdMcp {
        DreamdMcp { engine, tool_router: Self::tool_router() }
    }

    async fn respond(&self, call: Call) -> ToolResult {
        Ok(match self.engine.call(call).await {
            Ok(value) => CallToolResult::structured(value),
            Err(refusal) => CallToolResult::error(vec![Content::text(refusal)]),
        })
    }

    #[tool(
        description = "Load what to keep in mind for this user before answering: their active memories that apply to the request's scopes (global ones always). Call it at the start of each answer, and pass the user's request as query, exactly as you received it: memories about how to answer come first, then the user's background and current work that bear on that request. Pass conversation_id so the answer can later be traced to the memories it used."
    )]
    async fn recall(&self, Parameters(args): Parameters<RecallArgs>) -> ToolResult {
        self.respond(Call::Recall(args)).await
    }

    #[tool(
        description = "Save something the user explicitly asked you to remember (\"remember that…\", \"from now on…\"): how they want answers, their work background, current projects, their terms, default query choices. Refused for secrets, permission claims, live business facts (prices, stock, approval status) and personal identifiers."
    )]
    async fn remember(&self, Parameters(args): Parameters<RememberArgs>) -> ToolResult {
        self.respond(Call::Remember(args)).await
    }

    #[tool(
        description = "Delete a memory for good when the user asks you to forget it: its text is erased everywhere and it will not be learned again from old conversations."
    )]
    async fn forget(&self, Parameters(args): Parameters<MemoryArgs>) -> ToolResult {
        self.respond(Call::Forget(args)).await
    }

    #[tool(description = "Stop using a memory without deleting it (the user can enable it again).")]
    async fn disable(&self, Parameters(args): Parameters<MemoryArgs>) -> ToolResult {
        self.respond(Call::Disable(args)).await
    }

    #[tool(description = "Use a disabled memory again.")]
    async fn enable(&self, Parameters(args): Parameters<MemoryArgs>) -> ToolResult {
        self.respond(Call::Enable(args)).await
    }

    #[tool(
        description = "Correct a memory's text when the user says it is wrong or changed; it becomes a memory the user set."
    )]
    async fn edit(&self, Parameters(args): Parameters<EditArgs>) -> ToolResult {
        self.respond(Call::Edit(args)).await
    }

    #[tool(
        description = "Show where a memory came from: its evidence (the user's own words, conversations, times), its history and the conversations that loaded it. Use it when the user asks why you did something."
    )]
    async fn explain(&self, Parameters(args): Parameters<MemoryArgs>) -> ToolResult {
        self.respond(Call::Explain(args)).await
    }

    #[tool(
        description = "List the user's memories (active ones; all=true for every status), e.g. when they ask what you remember about them."
    )]
    async fn list_memories(&self, Parameters(args): Parameters<ListArgs>) -> ToolResult {
        self.respond(Call::ListMemories(args)).await
    }

    #[tool(
        description = "List changes dreamd proposes but may not make on its own (pending; all=true for decided ones too), for the user to accept or reject."
    )]
    async fn list_suggestions(&self, Parameters(args): Parameters<ListArgs>) -> ToolResult {
        self.respond(Call::ListSuggestions(args)).await
    }

    #[tool(
        description = "Apply a suggestion the user agreed to; the result is a memory the user set."
    )]
    async fn accept_suggestion(&self, Parameters(args): Parameters<SuggestionArgs>) -> ToolResult {
        self.respond(Call::AcceptSuggestion(args)).await
    }

    #[tool(
        description = "Turn down a suggestion the user does not want; it will not be proposed again for a while."
    )]
    async fn reject_suggestion(&self, Parameters(args): Parameters<SuggestionArgs>) -> ToolResult {
        self.respond(Call::RejectSuggestion(args)).await
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
pub async fn serve(engine: Arc<dyn Engine>) -> Result<()> {
    let io =
        |e: String| Error::Io { context: "MCP transport".into(), source: std::io::Error::other(e) };
    let running = match DreamdMcp::new(engine).serve(rmcp::transport::stdio()).await {
        Ok(running) => running,
        Err(rmcp::service::ServerInitializeError::ConnectionClosed(_)) => return Ok(()),
        Err(e) => return Err(io(e.to_string())),
    };
    running.waiting().await.map_err(|e| io(e.to_string()))?;
    Ok(())
}
