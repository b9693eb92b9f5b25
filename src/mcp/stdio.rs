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
//! the spec's 10 s of stdin closing). rmcp also ends at any message out of
//! the handshake's order, printing it whole (a `remember` text with it), so
//! those are answered here too ([`Handshake`]).

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

/// The longest input line read, as HTTP bodies: a longer one is refused
/// without being held in memory.
const MAX_LINE_BYTES: usize = 1 << 20;

/// Refused lines warned of one by one; the rest are counted at the end.
const WARNED: usize = 10;

/// Where the MCP handshake stands, as the lines handed to rmcp show it.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Handshake {
    /// Only `initialize` may go to rmcp.
    NotStarted,
    /// Only `notifications/initialized` may go to rmcp.
    Initializing,
    Done,
}

impl Handshake {
    /// The state after a message of `method` (a request when `request`)
    /// goes to rmcp, or `None` when it may not go now.
    fn admits(self, method: Option<&str>, request: bool) -> Option<Handshake> {
        match (self, method) {
            (Handshake::Done, _) => Some(Handshake::Done),
            (Handshake::NotStarted, Some("initialize")) if request => Some(Handshake::Initializing),
            (Handshake::Initializing, Some("notifications/initialized")) if !request => {
                Some(Handshake::Done)
            }
            _ => None,
        }
    }
}

/// The task that writes rmcp's answers and the refusals to stdout.
pub struct Written(tokio::task::JoinHandle<()>);

impl Written {
    /// Waits (a moment at most) until every answer and refusal is on
    /// stdout: the process must not exit with replies still in the pipe.
    pub async fn flushed(self) {
        let _ = tokio::time::timeout(Duration::from_secs(2), self.0).await;
    }
}

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

/// The two ends rmcp is served on (its input, its output), and the task
/// that writes to stdout; another moves stdin's lines to rmcp.
pub fn transport() -> ((DuplexStream, DuplexStream), Written) {
    pipe(tokio::io::stdin(), tokio::io::stdout())
}

fn pipe(
    input: impl AsyncRead + Unpin + Send + 'static,
    output: impl AsyncWrite + Unpin + Send + 'static,
) -> ((DuplexStream, DuplexStream), Written) {
    let (rmcp_in, feed) = tokio::io::duplex(PIPE_BYTES);
    let (rmcp_out, answers) = tokio::io::duplex(PIPE_BYTES);
    let (errors, refused) = mpsc::unbounded_channel::<String>();
    let owed = Arc::new(Owed::default());
    tokio::spawn(read_lines(input, feed, errors, owed.clone()));
    let written = tokio::spawn(write_lines(answers, refused, output, owed));
    ((rmcp_in, rmcp_out), Written(written))
}

/// The next line into `line` (its newline kept): `None` at the end of the
/// input, `Some(false)` when it is longer than [`MAX_LINE_BYTES`] (then
/// read to its end and dropped, `line` left empty).
async fn next_line(
    reader: &mut BufReader<impl AsyncRead + Unpin>,
    line: &mut Vec<u8>,
) -> std::io::Result<Option<bool>> {
    line.clear();
    let mut fits = true;
    loop {
        let buf = reader.fill_buf().await?;
        if buf.is_empty() {
            let read_any = !line.is_empty() || !fits;
            return Ok(read_any.then_some(fits));
        }
        let end = buf.iter().position(|&b| b == b'\n').map(|i| i + 1);
        let take = end.unwrap_or(buf.len());
        if fits && line.len() + take <= MAX_LINE_BYTES {
            line.extend_from_slice(&buf[..take]);
        } else {
            fits = false;
            line.clear();
        }
        reader.consume(take);
        if end.is_some() {
            return Ok(Some(fits));
        }
    }
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
    let mut handshake = Handshake::NotStarted;
    let mut refused = 0usize;
    let mut refuse = |id: Value, code: i64, message: &str| {
        refused += 1;
        if refused <= WARNED {
            tracing::warn!(code, "an MCP input line was refused: {message}");
        }
        let error = json!({"code": code, "message": message});
        let _ = errors.send(json!({"jsonrpc": "2.0", "id": id, "error": error}).to_string());
    };
    while let Ok(Some(fits)) = next_line(&mut lines, &mut line).await {
        let read = if fits { read(&line) } else { Line::too_long() };
        match read {
            Line::Blank => {}
            Line::Message { id, method } => {
                let Some(next) = handshake.admits(method.as_deref(), id.is_some()) else {
                    // Out of the handshake's order: a request gets JSON-RPC's
                    // "not initialized", anything else is dropped.
                    if let Some(id) = id.and_then(|id| serde_json::from_str::<Value>(&id).ok()) {
                        let why = "the server is not initialized: send initialize, then notifications/initialized";
                        refuse(id, -32002, why);
                    }
                    continue;
                };
                handshake = next;
                if let Some(id) = id {
                    owed.lock().insert(id);
                }
                let mut whole = without_bom(&line).trim_ascii_end().to_vec();
                whole.push(b'\n');
                if feed.write_all(&whole).await.is_err() {
                    break;
                }
            }
            Line::Refused { id, code, message } => refuse(id, code, &message),
        }
    }
    if refused > WARNED {
        tracing::warn!(refused, "MCP input lines were refused in all");
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

/// A line without the UTF-8 byte order mark an editor or a host may put
/// before it.
fn without_bom(line: &[u8]) -> &[u8] {
    line.strip_prefix(b"\xef\xbb\xbf").unwrap_or(line)
}

/// What one input line is.
#[derive(Debug, PartialEq)]
enum Line {
    /// Whitespace only: skipped, as JSON-RPC over stdio allows.
    Blank,
    /// A message rmcp reads: a request's id (as JSON) and any message's method.
    Message { id: Option<String>, method: Option<String> },
    /// Answered here with JSON-RPC's error `code` (for a request with an
    /// id, or a line that is no JSON at all, with id null).
    Refused { id: Value, code: i64, message: String },
}

impl Line {
    fn too_long() -> Line {
        let message = format!("Invalid request: a line over {} MiB", MAX_LINE_BYTES >> 20);
        Line::Refused { id: Value::Null, code: -32600, message }
    }
}

fn read(line: &[u8]) -> Line {
    let line = without_bom(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return Line::Blank;
    }
    let Ok(value) = serde_json::from_slice::<Value>(line) else {
        let message = "Parse error: the line is not JSON (one JSON-RPC message per line, UTF-8)";
        return Line::Refused { id: Value::Null, code: -32700, message: message.into() };
    };
    let id = value.get("id").cloned();
    if id.as_ref().is_some_and(|id| !(id.is_string() || id.is_number() || id.is_null())) {
        let message = "Invalid request: an id is a string or a number".to_owned();
        return Line::Refused { id: Value::Null, code: -32600, message };
    }
    match serde_json::from_value::<ClientJsonRpcMessage>(value.clone()) {
        Ok(_) => {
            let method = value.get("method").and_then(Value::as_str).map(str::to_owned);
            let id = id.filter(|_| method.is_some()).map(|id| id.to_string());
            Line::Message { id, method }
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
        let ping = Line::Message { id: Some("7".into()), method: Some("ping".into()) };
        assert_eq!(read(br#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#), ping);
        let bom = b"\xef\xbb\xbf{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}";
        assert_eq!(read(bom), ping, "a byte order mark is skipped");
        let not_json = read(b"this is not json");
        assert!(matches!(not_json, Line::Refused { code: -32700, id: Value::Null, .. }));
        assert!(matches!(read(&[0xff, 0xfe, b'\n']), Line::Refused { code: -32700, .. }));
        let no_method = read(br#"{"jsonrpc":"2.0","id":"a"}"#);
        let refused_a = matches!(&no_method, Line::Refused { code: -32600, id, .. } if id == "a");
        assert!(refused_a, "{no_method:?}");
        assert!(matches!(read(b"[1,2]"), Line::Refused { code: -32600, .. }));
        let object_id = read(br#"{"jsonrpc":"2.0","id":{"x":1},"method":"tools/list"}"#);
        assert!(matches!(object_id, Line::Refused { code: -32600, .. }), "{object_id:?}");
    }

    #[test]
    fn the_handshake_goes_to_rmcp_in_its_order_only() {
        let start = Handshake::NotStarted;
        assert_eq!(start.admits(Some("tools/call"), true), None);
        assert_eq!(start.admits(Some("notifications/initialized"), false), None);
        let next = start.admits(Some("initialize"), true);
        assert_eq!(next, Some(Handshake::Initializing));
        assert_eq!(Handshake::Initializing.admits(Some("tools/call"), true), None);
        let done = Handshake::Initializing.admits(Some("notifications/initialized"), false);
        assert_eq!(done, Some(Handshake::Done));
        assert_eq!(Handshake::Done.admits(Some("tools/call"), true), Some(Handshake::Done));
    }

    /// A request written just before stdin ends is still answered: the
    /// end reaches rmcp only once its answer is out. A request before the
    /// handshake is answered "not initialized" and never reaches rmcp.
    #[tokio::test]
    async fn the_end_of_input_waits_for_the_answers_owed() {
        let (mut host_in, input) = tokio::io::duplex(1024);
        let (output, mut host_out) = tokio::io::duplex(1024);
        let ((mut rmcp_in, mut rmcp_out), _written) = pipe(input, output);
        let lines = "garbage\n{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/list\"}\n\
             {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}\n";
        host_in.write_all(lines.as_bytes()).await.unwrap();
        drop(host_in);
        let mut handed = String::new();
        let mut reader = BufReader::new(&mut rmcp_in);
        reader.read_line(&mut handed).await.unwrap();
        assert!(handed.contains("\"initialize\""), "{handed}");
        let mut after = String::new();
        let early = tokio::time::timeout(Duration::from_millis(200), reader.read_line(&mut after));
        assert!(early.await.is_err(), "the input stays open while an answer is owed: {after:?}");
        rmcp_out.write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n").await.unwrap();
        let ended =
            tokio::time::timeout(Duration::from_secs(5), reader.read_line(&mut after)).await;
        assert_eq!(ended.expect("the input ends once answered").unwrap(), 0);
        drop(rmcp_out);
        let mut said = String::new();
        tokio::io::AsyncReadExt::read_to_string(&mut host_out, &mut said).await.unwrap();
        assert!(said.contains("-32700"), "{said}");
        assert!(said.contains("-32002") && said.contains("\"id\":9"), "{said}");
        assert!(said.contains("\"id\":1,\"result\""), "{said}");
    }

    #[tokio::test]
    async fn a_line_over_the_limit_is_refused_without_being_kept() {
        let long = vec![b'x'; MAX_LINE_BYTES + 10];
        let input = [long.as_slice(), b"\n{\"a\":1}\n"].concat();
        let mut reader = BufReader::new(input.as_slice());
        let mut line = Vec::new();
        assert_eq!(next_line(&mut reader, &mut line).await.unwrap(), Some(false));
        assert!(line.is_empty());
        assert_eq!(next_line(&mut reader, &mut line).await.unwrap(), Some(true));
        assert_eq!(line, b"{\"a\":1}\n");
        assert_eq!(next_line(&mut reader, &mut line).await.unwrap(), None);
    }
}
