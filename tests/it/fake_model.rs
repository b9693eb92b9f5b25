//! A fake OpenAI-compatible server: answers each chat completion from a
//! script that sees the request document (stage one's or stage two's), and
//! records every request.

use serde_json::{Value, json};
use std::sync::Arc;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

/// Decides the answer to one stage-one request document (spec §5).
pub type Script = Arc<dyn Fn(&Value) -> ResponseTemplate + Send + Sync>;

struct Scripted(Script);

impl Respond for Scripted {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        (self.0)(&stage_one_document(&request.body))
    }
}

/// The JSON document of the user message of a recorded chat request (either stage).
pub fn stage_one_document(body: &[u8]) -> Value {
    let chat: Value = serde_json::from_slice(body).expect("the client sends JSON");
    let user = chat["messages"][1]["content"].as_str().expect("a user message with text content");
    serde_json::from_str(user).expect("the user message is the spec §5 document")
}

/// A server whose stage-one answers come from `script`; stage two proposes nothing.
pub async fn start(
    script: impl Fn(&Value) -> ResponseTemplate + Send + Sync + 'static,
) -> MockServer {
    start_both(script, |_: &Value| operations(json!([]))).await
}

/// A server scripted for both stages.
pub async fn start_both(
    stage_one: impl Fn(&Value) -> ResponseTemplate + Send + Sync + 'static,
    stage_two: impl Fn(&Value) -> ResponseTemplate + Send + Sync + 'static,
) -> MockServer {
    let server = MockServer::start().await;
    let script = move |doc: &Value| {
        if is_stage_one(doc) { stage_one(doc) } else { stage_two(doc) }
    };
    Mock::given(method("POST"))
        .and(path("/chat/completions"))
        .respond_with(Scripted(Arc::new(script)))
        .mount(&server)
        .await;
    server
}

/// Stage one's document has `messages`; stage two's has `slips`.
pub fn is_stage_one(doc: &Value) -> bool {
    doc.get("messages").is_some()
}

/// The documents of the requests of one stage, in arrival order.
pub async fn documents(server: &MockServer, stage_one: bool) -> Vec<Value> {
    server
        .received_requests()
        .await
        .unwrap_or_default()
        .iter()
        .map(|r| stage_one_document(&r.body))
        .filter(|d| is_stage_one(d) == stage_one)
        .collect()
}

pub fn operations(operations: Value) -> ResponseTemplate {
    completion(&json!({ "operations": operations }).to_string())
}

/// A chat completion whose content is `answer` (usually `{"slips": [...]}`).
pub fn completion(answer: &str) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(json!({
        "id": "chatcmpl-fake", "object": "chat.completion", "created": 0, "model": "fake",
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": answer}}],
        "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}
    }))
}

pub fn slips(slips: Value) -> ResponseTemplate {
    completion(&json!({ "slips": slips }).to_string())
}

/// Stage one that makes every user message a `recent_focus` slip quoting it whole.
pub fn one_slip_per_message(doc: &Value) -> ResponseTemplate {
    let found: Vec<Value> = doc["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "user")
        .map(|m| {
            json!({"message_id": m["message_id"], "quote": m["content"], "content": m["content"],
                   "kind": "recent_focus", "scope": "global", "durability": "lasting", "valid_until": null})
        })
        .collect();
    slips(Value::Array(found))
}

pub fn slip(message_id: &str, quote: &str, kind: &str, scope: &str) -> Value {
    json!({"message_id": message_id, "quote": quote, "content": format!("note: {quote}"),
           "kind": kind, "scope": scope, "durability": "lasting", "valid_until": null})
}

/// The ids of the `messages` (or `context`) of every request the server got.
pub async fn sent_ids(server: &MockServer, part: &str) -> Vec<Vec<String>> {
    documents(server, true)
        .await
        .iter()
        .map(|doc| {
            doc[part]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["message_id"].as_str().unwrap().to_owned())
                .collect()
        })
        .collect()
}

/// Holds answers until the test has done something in between: the model
/// "thinks" while a person changes a memory. The scripted responder calls
/// [`Gate::hold`] (on the fake server's own thread), the test awaits
/// [`Gate::arrived`], acts, then [`Gate::release`]s.
pub struct Gate {
    arrived_tx: tokio::sync::mpsc::UnboundedSender<()>,
    arrived_rx: tokio::sync::Mutex<tokio::sync::mpsc::UnboundedReceiver<()>>,
    release_tx: std::sync::Mutex<std::sync::mpsc::Sender<()>>,
    release_rx: std::sync::Mutex<std::sync::mpsc::Receiver<()>>,
    armed: std::sync::atomic::AtomicBool,
}

impl Gate {
    pub fn new() -> Arc<Gate> {
        let (arrived_tx, arrived_rx) = tokio::sync::mpsc::unbounded_channel();
        let (release_tx, release_rx) = std::sync::mpsc::channel();
        Arc::new(Gate {
            arrived_tx,
            arrived_rx: tokio::sync::Mutex::new(arrived_rx),
            release_tx: std::sync::Mutex::new(release_tx),
            release_rx: std::sync::Mutex::new(release_rx),
            armed: std::sync::atomic::AtomicBool::new(false),
        })
    }

    /// The next call to [`Gate::hold`] waits; later ones pass.
    pub fn arm(&self) {
        self.armed.store(true, std::sync::atomic::Ordering::SeqCst);
    }

    /// In a responder: if armed, reports arrival and waits for the release
    /// (at most a minute, so a broken test fails instead of hanging).
    pub fn hold(&self) {
        if self.armed.swap(false, std::sync::atomic::Ordering::SeqCst) {
            self.arrived_tx.send(()).expect("the test is waiting");
            let released =
                self.release_rx.lock().unwrap().recv_timeout(std::time::Duration::from_secs(60));
            assert!(released.is_ok(), "the test never released the gate");
        }
    }

    /// Waits until a held request has arrived.
    pub async fn arrived(&self) {
        self.arrived_rx.lock().await.recv().await;
    }

    pub fn release(&self) {
        self.release_tx.lock().unwrap().send(()).unwrap();
    }
}
