//! The stdio transport between the host and rmcp, one line at a time.
//!
//! rmcp ends its service at the first line it cannot read (an empty line,
//! a stray log line, invalid UTF-8), and at the end of its input it drops
//! the requests still being answered. An agent host would lose its memory
//! tools for the rest of the session over one bad line, and a request
//! written just before stdin closes would go unanswered. So the lines pass
//! through here: a line rmcp cannot read is answered with JSON-RPC's own
//! error and goes no further, and stdin's end reaches rmcp only once every
//! request it was handed has its answer (or after [`DRAIN_BOUND`], within
//! the spec's 10 s of stdin closing).

use rmcp::model::ClientJsonRpcMessage;
use serde_json::{Value, json};
use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, DuplexStream};
use tokio::sync::{Notify, mpsc};

/// How long the end of stdin waits for the answers still owed.
const DRAIN_BOUND: Duration = Duration::from_secs(8);

/// Room in each in-process pipe; a line longer than that simply waits.
const PIPE_BYTES: usize = 1 << 20;

/// The requests handed to rmcp and not yet answered, by their id as JSON.
#[derive(Default)]
struct Owed {
    ids: Mutex<HashSet<String>>,
    answered: Notify,
}

impl Owed {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashSet<String>> {
        // A panic while holding this lock leaves a set of strings intact.
        self.ids.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    async fn drained(&self, bound: Duration) {
        let wait = async {
            loop {
                let answered = self.answered.notified();
                if self.lock().is_empty() {
                    return;
                }
                answered.await;
            }
        };
        let _ = tokio::time::timeout(bound, wait).await;
    }
}

/// The two ends rmcp is served on, and the tasks that move lines between
/// them and the process's stdin and stdout.
pub fn transport() -> (DuplexStream, DuplexStream) {
    pipe(tokio::io::stdin(), tokio::io::stdout())
}

fn pipe(
    input: impl AsyncRead + Unpin + Send + 'static,
    output: impl AsyncWrite + Unpin + Send + 'static,
) -> (DuplexStream, DuplexStream) {
    let (rmcp_in, feed) = tokio::io::duplex(PIPE_BYTES);
    let (rmcp_out, answers) = tokio::io::duplex(PIPE_BYTES);
    let (errors, refused) = mpsc::unbounded_channel::<String>();
    let owed = Arc::new(Owed::default());
    tokio::spawn(read_lines(input, feed, errors, owed.clone()));
    tokio::spawn(write_lines(answers, refused, output, owed));
    (rmcp_in, rmcp_out)
}

/// Hands rmcp the lines it can read, answers the others, and closes rmcp's
/// input once stdin has ended and every request handed on is answered.
async fn read_lines(
    input: impl AsyncRead + Unpin,
    mut feed: DuplexStream,
    errors: mpsc::UnboundedSender<String>,
    owed: Arc<Owed>,
) {
    let mut lines = BufReader::new(input);
    let mut line = Vec::new();
    loop {
        line.clear();
        match lines.read_until(b'\n', &mut line).await {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        match read(&line) {
            Line::Blank => {}
            Line::Message(id) => {
                if let Some(id) = id {
                    owed.lock().insert(id);
                }
                let mut whole = line.trim_ascii_end().to_vec();
                whole.push(b'\n');
                if feed.write_all(&whole).await.is_err() {
                    break;
                }
            }
            Line::Refused { id, code, message } => {
                tracing::warn!(code, "an MCP input line was refused: {message}");
                let answer = json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}});
                let _ = errors.send(answer.to_string());
            }
        }
    }
    owed.drained(DRAIN_BOUND).await;
    let _ = feed.shutdown().await;
}

/// Writes rmcp's answers and the refusals to stdout, whole lines only, and
/// strikes each answered request off what is owed.
async fn write_lines(
    answers: DuplexStream,
    mut refused: mpsc::UnboundedReceiver<String>,
    mut output: impl AsyncWrite + Unpin,
    owed: Arc<Owed>,
) {
    let mut answers = BufReader::new(answers).lines();
    loop {
        let line = tokio::select! {
            answer = answers.next_line() => match answer {
                Ok(Some(answer)) => {
                    settle(&owed, &answer);
                    answer
                }
                _ => break,
            },
            Some(refusal) = refused.recv() => refusal,
        };
        if output.write_all(format!("{line}\n").as_bytes()).await.is_err()
            || output.flush().await.is_err()
        {
            break;
        }
    }
    while let Ok(refusal) = refused.try_recv() {
        let _ = output.write_all(format!("{refusal}\n").as_bytes()).await;
    }
    let _ = output.flush().await;
}

/// Strikes the request an answer is for off what is owed.
fn settle(owed: &Owed, answer: &str) {
    let Ok(Value::Object(answer)) = serde_json::from_str::<Value>(answer) else { return };
    if answer.contains_key("method") {
        return;
    }
    if let Some(id) = answer.get("id") {
        owed.lock().remove(&id.to_string());
        owed.answered.notify_waiters();
    }
}

/// What one input line is.
#[derive(Debug, PartialEq)]
enum Line {
    /// Whitespace only: skipped, as JSON-RPC over stdio allows.
    Blank,
    /// A message rmcp reads; a request's id, if it is one.
    Message(Option<String>),
    /// Answered here with JSON-RPC's error `code` (for a request with an
    /// id, or a line that is no JSON at all, with id null).
    Refused { id: Value, code: i64, message: String },
}

fn read(line: &[u8]) -> Line {
    if line.iter().all(u8::is_ascii_whitespace) {
        return Line::Blank;
    }
    let Ok(value) = serde_json::from_slice::<Value>(line) else {
        let message = "Parse error: the line is not JSON (one JSON-RPC message per line, UTF-8)";
        return Line::Refused { id: Value::Null, code: -32700, message: message.into() };
    };
    let id = value.get("id").cloned();
    match serde_json::from_value::<ClientJsonRpcMessage>(value.clone()) {
        Ok(_) => {
            let request = value.get("method").is_some();
            Line::Message(id.filter(|_| request).map(|id| id.to_string()))
        }
        Err(e) => Line::Refused {
            id: id.unwrap_or(Value::Null),
            code: -32600,
            message: format!("Invalid request: not an MCP client message ({e})"),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_rmcp_cannot_read_are_refused_with_json_rpc_errors() {
        assert_eq!(read(b"\n"), Line::Blank);
        assert_eq!(
            read(br#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#),
            Line::Message(Some("7".into()))
        );
        assert!(matches!(
            read(b"this is not json"),
            Line::Refused { code: -32700, id: Value::Null, .. }
        ));
        assert!(matches!(read(&[0xff, 0xfe, b'\n']), Line::Refused { code: -32700, .. }));
        let no_method = read(br#"{"jsonrpc":"2.0","id":"a"}"#);
        assert!(
            matches!(no_method, Line::Refused { code: -32600, ref id, .. } if id == "a"),
            "{no_method:?}"
        );
        assert!(matches!(read(b"[1,2]"), Line::Refused { code: -32600, .. }));
    }

    /// A request written just before stdin ends is still answered: the
    /// end reaches rmcp only once its answer is out.
    #[tokio::test]
    async fn the_end_of_input_waits_for_the_answers_owed() {
        let (host_in, input) = tokio::io::duplex(1024);
        let (output, mut host_out) = tokio::io::duplex(1024);
        let (mut rmcp_in, mut rmcp_out) = pipe(input, output);
        let mut host_in = host_in;
        host_in
            .write_all(b"garbage\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n")
            .await
            .unwrap();
        drop(host_in);
        let mut handed = String::new();
        let mut reader = BufReader::new(&mut rmcp_in);
        reader.read_line(&mut handed).await.unwrap();
        assert!(handed.contains("\"ping\""), "{handed}");
        let mut after = String::new();
        let ended_early =
            tokio::time::timeout(Duration::from_millis(200), reader.read_line(&mut after)).await;
        assert!(ended_early.is_err(), "the input stays open while the ping is owed: {after:?}");
        rmcp_out.write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n").await.unwrap();
        let ended =
            tokio::time::timeout(Duration::from_secs(5), reader.read_line(&mut after)).await;
        assert_eq!(ended.expect("the input ends once answered").unwrap(), 0);
        drop(rmcp_out);
        let mut said = String::new();
        tokio::io::AsyncReadExt::read_to_string(&mut host_out, &mut said).await.unwrap();
        assert!(said.contains("-32700"), "{said}");
        assert!(said.contains("\"id\":1,\"result\""), "{said}");
    }
}
