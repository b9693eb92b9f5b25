//! `dreamd ingest`: JSON Lines of messages (spec §8.1) into the store.
//!
//! Two phases, so a slow input (a pipe an agent writes into) never holds the
//! database's write lock: first every line is read and validated, the good
//! ones kept in memory or, past [`SPILL_AFTER_BYTES`], in a temporary file;
//! a bad line anywhere rejects the whole input with every bad line named and
//! nothing written. Then the kept messages are written in batches inside one
//! short transaction: a file is taken whole or not at all.

use crate::detect::Detector;
use crate::domain::{NewMessage, Role, Scope, truncate_time};
use crate::error::{Error, LineError, Result};
use crate::guard;
use crate::store::{MessageSource, Store};
use crate::text::hex;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::{HashMap, HashSet};
use std::io::BufRead;

/// The largest message content accepted, in bytes. Longer texts are pasted
/// documents rather than conversation; the agent should store a summary.
pub const MAX_CONTENT_BYTES: usize = 256 * 1024;
/// Messages per batch handed to the store.
const BATCH_SIZE: usize = 5_000;
/// Content kept in memory before the validated messages go to a temporary file.
pub const SPILL_AFTER_BYTES: usize = 64 * 1024 * 1024;
/// How often a long ingest reports progress, in lines.
const PROGRESS_EVERY: u64 = 100_000;

/// The ingest summary of spec §8.2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct IngestSummary {
    pub lines: u64,
    pub messages_new: u64,
    pub duplicates: u64,
    /// Of the duplicates, lines whose message was stored with other
    /// content (the stored one is kept; each is named in a warning). Said
    /// in the text summary and the warning, not in §8.2's JSON.
    #[serde(skip)]
    pub conflicting: u64,
    pub conversations: u64,
    pub users: u64,
}

/// Validates and writes every line of `reader`; nothing is written unless
/// all lines are valid. `detector` reads the scopes lines give: a scope
/// name is stored and shown like any text (`guard::admit_scope`).
pub async fn ingest<S: Store>(
    store: &S,
    reader: impl BufRead + Send,
    detector: &Detector,
) -> Result<IngestSummary> {
    let mut input = JsonLines::new(reader, detector);
    let mut spill = Spill::new(SPILL_AFTER_BYTES);
    while let Some(batch) = input.next_batch()? {
        spill.keep(batch)?;
    }
    input.finish()?;
    let mut source = spill.into_source()?;
    let written = store.ingest(&mut source).await?;
    warn_of_conflicts(&written.conflicting_lines);
    Ok(IngestSummary {
        lines: input.lines,
        messages_new: written.messages_new,
        duplicates: input.lines - written.messages_new,
        conflicting: written.conflicting_lines.len() as u64,
        conversations: input.owners.len() as u64,
        users: input.users.len() as u64,
    })
}

/// Names the lines that reused a stored message's id with other content:
/// not an error (the stored message stands, and a line sent again is
/// normal), but an agent that rewrites messages under their ids would
/// otherwise lose the new text without a word.
fn warn_of_conflicts(lines: &[usize]) {
    const NAMED: usize = 10;
    if lines.is_empty() {
        return;
    }
    let named: Vec<String> = lines.iter().take(NAMED).map(usize::to_string).collect();
    let more = lines.len().saturating_sub(NAMED);
    let more = if more > 0 { format!(" and {more} more") } else { String::new() };
    let lines_named = if lines.len() == 1 { "line" } else { "lines" };
    tracing::warn!(
        "{lines_named} {}{more}: a message with that conversation_id and message_id is already stored with other content; the stored one is kept (give a changed message a new message_id)",
        named.join(", ")
    );
}

/// Validated messages waiting for the write: in memory, then in a file.
struct Spill {
    memory: Vec<Vec<NewMessage>>,
    bytes: usize,
    /// Content bytes kept in memory before the rest goes to the file.
    limit: usize,
    file: Option<SpillFile>,
}

impl Spill {
    fn new(limit: usize) -> Spill {
        Spill { memory: Vec::new(), bytes: 0, limit, file: None }
    }

    fn keep(&mut self, batch: Vec<NewMessage>) -> Result<()> {
        self.bytes += batch.iter().map(|m| m.content.len()).sum::<usize>();
        if self.file.is_none() && self.bytes <= self.limit {
            self.memory.push(batch);
            return Ok(());
        }
        let file = match &mut self.file {
            Some(file) => file,
            None => self.file.insert(SpillFile::create()?),
        };
        file.append(&batch)
    }

    fn into_source(self) -> Result<Kept> {
        let file = self.file.map(SpillFile::into_reader).transpose()?;
        Ok(Kept { memory: self.memory.into_iter(), file, errors: Vec::new() })
    }
}

/// A temporary file of validated messages, one JSON object per line,
/// removed when dropped.
struct SpillFile {
    path: std::path::PathBuf,
    writer: std::io::BufWriter<std::fs::File>,
}

impl SpillFile {
    fn create() -> Result<SpillFile> {
        let path =
            std::env::temp_dir().join(format!("dreamd-ingest-{}.jsonl", crate::domain::new_id()));
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&path)
            .map_err(Error::io(format!("creating the spill file {}", path.display())))?;
        Ok(SpillFile { path, writer: std::io::BufWriter::new(file) })
    }

    fn append(&mut self, batch: &[NewMessage]) -> Result<()> {
        use std::io::Write;
        for message in batch {
            // A message is plain data with string keys: serialising it cannot fail.
            let line = serde_json::to_string(message).expect("messages serialise");
            writeln!(self.writer, "{line}")
                .map_err(Error::io(format!("writing the spill file {}", self.path.display())))?;
        }
        Ok(())
    }

    fn into_reader(mut self) -> Result<SpillReader> {
        use std::io::{Seek, Write};
        let what = format!("reading back the spill file {}", self.path.display());
        self.writer.flush().map_err(Error::io(what.clone()))?;
        let mut file = self.writer.get_ref().try_clone().map_err(Error::io(what.clone()))?;
        file.rewind().map_err(Error::io(what))?;
        Ok(SpillReader { lines: std::io::BufReader::new(file).lines(), _file: self })
    }
}

impl Drop for SpillFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

struct SpillReader {
    lines: std::io::Lines<std::io::BufReader<std::fs::File>>,
    _file: SpillFile,
}

/// The kept messages as the store pulls them, inside its short transaction.
struct Kept {
    memory: std::vec::IntoIter<Vec<NewMessage>>,
    file: Option<SpillReader>,
    errors: Vec<LineError>,
}

impl MessageSource for Kept {
    fn next_batch(&mut self) -> Result<Option<Vec<NewMessage>>> {
        if let Some(batch) = self.memory.next() {
            return Ok(Some(batch));
        }
        let Some(file) = &mut self.file else { return Ok(None) };
        let mut batch = Vec::with_capacity(BATCH_SIZE);
        for line in file.lines.by_ref().take(BATCH_SIZE) {
            let line = line.map_err(Error::io("reading the spill file"))?;
            let message = serde_json::from_str(&line)
                .map_err(|e| Error::Corrupt(format!("the spill file: {e}")))?;
            batch.push(message);
        }
        Ok((!batch.is_empty()).then_some(batch))
    }

    fn reject(&mut self, line: usize, reason: String) {
        self.errors.push(LineError { line, reason });
    }

    fn finish(&mut self) -> Result<()> {
        rejected(std::mem::take(&mut self.errors))
    }
}

/// One input line as written; every field optional so a missing one can be named.
#[derive(Deserialize)]
struct RawLine {
    user_id: Option<String>,
    conversation_id: Option<String>,
    message_id: Option<String>,
    role: Option<String>,
    content: Option<String>,
    created_at: Option<String>,
    scopes: Option<Vec<String>>,
}

struct JsonLines<'d, R> {
    reader: R,
    detector: &'d Detector,
    buf: Vec<u8>,
    line_no: usize,
    lines: u64,
    errors: Vec<LineError>,
    /// conversation → (user, first line), to refuse a conversation claimed by two users.
    owners: HashMap<String, (String, usize)>,
    users: HashSet<String>,
}

impl<'d, R: BufRead> JsonLines<'d, R> {
    fn new(reader: R, detector: &'d Detector) -> Self {
        JsonLines {
            reader,
            detector,
            buf: Vec::with_capacity(4096),
            line_no: 0,
            lines: 0,
            errors: Vec::new(),
            owners: HashMap::new(),
            users: HashSet::new(),
        }
    }

    /// Reads the next non-blank line into `buf`; false at the end of input.
    fn read_line(&mut self) -> Result<bool> {
        loop {
            self.buf.clear();
            let n = self
                .reader
                .read_until(b'\n', &mut self.buf)
                .map_err(Error::io(format!("reading input after line {}", self.line_no)))?;
            if n == 0 {
                return Ok(false);
            }
            self.line_no += 1;
            if !self.buf.iter().all(u8::is_ascii_whitespace) {
                return Ok(true);
            }
        }
    }

    fn take_line(&mut self) -> std::result::Result<NewMessage, String> {
        let text = std::str::from_utf8(&self.buf).map_err(|_| "not valid UTF-8".to_owned())?;
        let message = parse_line(text, self.line_no)?;
        self.check_scopes(&message)?;
        self.check_owner(&message)?;
        Ok(message)
    }

    /// The line's scopes through the detectors; the reason names which
    /// scope by its place, never its value.
    fn check_scopes(&self, m: &NewMessage) -> std::result::Result<(), String> {
        for (i, scope) in m.scopes.iter().enumerate() {
            guard::admit_scope(scope, self.detector).map_err(|r| format!("scopes[{i}]: {r}"))?;
        }
        Ok(())
    }

    fn check_owner(&mut self, m: &NewMessage) -> std::result::Result<(), String> {
        match self.owners.get(&m.conversation_id) {
            Some((owner, line)) if owner != &m.user_id => Err(format!(
                "conversation '{}' belongs to user '{}' (line {}), not '{}'",
                m.conversation_id, owner, line, m.user_id
            )),
            Some(_) => Ok(()),
            None => {
                self.owners.insert(m.conversation_id.clone(), (m.user_id.clone(), m.line));
                self.users.insert(m.user_id.clone());
                Ok(())
            }
        }
    }
}

impl<R: BufRead> JsonLines<'_, R> {
    /// The next batch of valid lines; once a line is bad, later good ones are
    /// only checked, so that every bad line is reported.
    fn next_batch(&mut self) -> Result<Option<Vec<NewMessage>>> {
        let mut batch = Vec::with_capacity(BATCH_SIZE);
        while batch.len() < BATCH_SIZE && self.read_line()? {
            self.lines += 1;
            if self.lines.is_multiple_of(PROGRESS_EVERY) {
                tracing::info!(lines = self.lines, "ingest progress");
            }
            match self.take_line() {
                Ok(message) if self.errors.is_empty() => batch.push(message),
                Ok(_) => {}
                Err(reason) => self.errors.push(LineError { line: self.line_no, reason }),
            }
        }
        Ok((!batch.is_empty()).then_some(batch))
    }

    /// Every bad line, or nothing when the whole input was good.
    fn finish(&mut self) -> Result<()> {
        rejected(std::mem::take(&mut self.errors))
    }
}

/// The whole input refused, every bad line named in order; `Ok` when none.
fn rejected(mut errors: Vec<LineError>) -> Result<()> {
    if errors.is_empty() {
        return Ok(());
    }
    errors.sort_by_key(|e| e.line);
    Err(Error::IngestRejected(errors))
}

/// Reads and validates one ingest line on its own (spec §8.1), `line` being
/// its number for errors; whether its conversation belongs to another user is
/// checked only by [`ingest`]. `dreamd eval` uses it to refuse a golden case
/// with a bad message before running anything.
pub fn parse_line(text: &str, line: usize) -> std::result::Result<NewMessage, String> {
    let raw: RawLine = serde_json::from_str(text).map_err(|e| describe_json_error(text, &e))?;
    validate(raw, line)
}

/// Turns a parse failure into a reason that names the field when it can.
fn describe_json_error(text: &str, error: &serde_json::Error) -> String {
    if let Some(field) = duplicate_field(error) {
        return format!("field '{field}' appears more than once");
    }
    let Ok(serde_json::Value::Object(fields)) = serde_json::from_str::<serde_json::Value>(text)
    else {
        return if error.is_data() {
            "not a JSON object".to_owned()
        } else {
            format!("not valid JSON: {error}")
        };
    };
    let wrong_type = ["user_id", "conversation_id", "message_id", "role", "content", "created_at"]
        .into_iter()
        .find(|f| fields.get(*f).is_some_and(|v| !v.is_string()));
    match wrong_type {
        Some(field) => format!("field '{field}' must be a string"),
        None => "field 'scopes' must be an array of strings".to_owned(),
    }
}

/// The field a line holds twice. serde_json says which only in its message
/// (serde's "duplicate field `name`"), and the name is one of [`RawLine`]'s,
/// never input text.
fn duplicate_field(error: &serde_json::Error) -> Option<String> {
    let message = error.to_string();
    let rest = message.strip_prefix("duplicate field `")?;
    Some(rest[..rest.find('`')?].to_owned())
}

fn required(value: Option<String>, field: &str) -> std::result::Result<String, String> {
    value.ok_or_else(|| format!("missing required field '{field}'"))
}

fn check_id(value: String, field: &str) -> std::result::Result<String, String> {
    crate::domain::check_id(&value, &format!("field '{field}'"))?;
    Ok(value)
}

fn validate(raw: RawLine, line: usize) -> std::result::Result<NewMessage, String> {
    let user_id = check_id(required(raw.user_id, "user_id")?, "user_id")?;
    let conversation_id =
        check_id(required(raw.conversation_id, "conversation_id")?, "conversation_id")?;
    let role_text = required(raw.role, "role")?;
    let role: Role = role_text
        .parse()
        .map_err(|_| "field 'role' must be one of user, assistant, system, tool".to_string())?;
    let content = required(raw.content, "content")?;
    if content.len() > MAX_CONTENT_BYTES {
        return Err(format!(
            "content is {} bytes, more than the limit of {MAX_CONTENT_BYTES}",
            content.len()
        ));
    }
    let created_text = required(raw.created_at, "created_at")?;
    let created_at = chrono::DateTime::parse_from_rfc3339(&created_text)
        .map(|t| truncate_time(t.to_utc()))
        .map_err(|_| {
            "field 'created_at' is not an RFC 3339 time like 2026-11-20T09:00:00Z".to_string()
        })?;
    let scopes = raw
        .scopes
        .unwrap_or_default()
        .iter()
        .enumerate()
        .map(|(i, s)| s.parse::<Scope>().map_err(|e| format!("scopes[{i}]: {e}")))
        .collect::<std::result::Result<Vec<_>, _>>()?;
    let message_id = match raw.message_id {
        Some(id) => check_id(id, "message_id")?,
        None => derived_message_id(&conversation_id, role, &created_at.to_rfc3339(), &content),
    };
    Ok(NewMessage { line, user_id, conversation_id, message_id, role, content, created_at, scopes })
}

/// The id of a message given without one: a hash of what identifies it, so
/// ingesting the same line twice never duplicates it (spec §8.1).
fn derived_message_id(
    conversation_id: &str,
    role: Role,
    created_at: &str,
    content: &str,
) -> String {
    let mut hash = Sha256::new();
    for part in [conversation_id, role.as_str(), created_at, content] {
        hash.update(part.len().to_le_bytes());
        hash.update(part.as_bytes());
    }
    format!("sha256:{}", &hex(&hash.finalize())[..32])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(line: &str) -> std::result::Result<NewMessage, String> {
        let detector = Detector::default();
        let mut source = JsonLines::new(line.as_bytes(), &detector);
        assert!(source.read_line().unwrap());
        source.take_line()
    }

    const GOOD: &str = r#"{"user_id":"u1","conversation_id":"c1","message_id":"m1","role":"user","content":"以后先说结果","created_at":"2026-11-20T09:00:00+08:00","scopes":["project:A"],"extra":1}"#;

    #[test]
    fn a_large_input_spills_to_a_file_and_comes_back_in_order() {
        let messages: Vec<NewMessage> = (0..10)
            .map(|i| check(&GOOD.replace("\"m1\"", &format!("\"m{i}\""))).unwrap())
            .collect();
        let mut spill = Spill::new(40);
        for pair in messages.chunks(2) {
            spill.keep(pair.to_vec()).unwrap();
        }
        let path = spill.file.as_ref().expect("past the limit, a file").path.clone();
        assert!(path.exists());
        let mut kept = spill.into_source().unwrap();
        let mut back = Vec::new();
        while let Some(batch) = kept.next_batch().unwrap() {
            back.extend(batch);
        }
        assert_eq!(back, messages);
        drop(kept);
        assert!(!path.exists(), "the spill file is removed");
    }

    #[test]
    fn a_good_line_becomes_a_message_in_utc() {
        let m = check(GOOD).unwrap();
        assert_eq!(m.created_at.to_rfc3339(), "2026-11-20T01:00:00+00:00");
        assert_eq!(m.scopes[0].as_str(), "project:A");
        assert_eq!(m.role, Role::User);
    }

    #[test]
    fn each_bad_field_is_named() {
        let cases = [
            (
                r#"{"conversation_id":"c","role":"user","content":"x","created_at":"2026-11-20T09:00:00Z"}"#,
                "missing required field 'user_id'",
            ),
            (
                r#"{"user_id":" ","conversation_id":"c","role":"user","content":"x","created_at":"2026-11-20T09:00:00Z"}"#,
                "field 'user_id' must not be empty",
            ),
            (
                r#"{"user_id":"u","conversation_id":"c","role":"robot","content":"x","created_at":"2026-11-20T09:00:00Z"}"#,
                "field 'role' must be one of",
            ),
            (
                r#"{"user_id":"u","conversation_id":"c","role":"user","content":"x","created_at":"2026-11-20 09:00"}"#,
                "is not an RFC 3339 time",
            ),
            (
                r#"{"user_id":"u","conversation_id":"c","role":"user","content":5,"created_at":"2026-11-20T09:00:00Z"}"#,
                "field 'content' must be a string",
            ),
            (
                r#"{"user_id":"u","conversation_id":"c","role":"user","content":"x","created_at":"2026-11-20T09:00:00Z","scopes":["team:x"]}"#,
                "scopes[0]: a scope must be 'global', 'domain:<name>' or 'project:<name>'",
            ),
            (
                r#"{"user_id":"u","conversation_id":"c","role":"user","content":"x","created_at":"2026-11-20T09:00:00Z","scopes":["global","project:13800138000"]}"#,
                "scopes[1]: refused to store this text: it contains a phone number",
            ),
            (
                r#"{"user_id":"u","conversation_id":"c","role":"user","content":"x","created_at":"2026-11-20T09:00:00Z","message_id":""}"#,
                "field 'message_id' must not be empty",
            ),
            (
                r#"{"user_id":"u","conversation_id":"c","role":"user","content":"x","content":"y","created_at":"2026-11-20T09:00:00Z"}"#,
                "field 'content' appears more than once",
            ),
            (r#"{"user_id":"u""#, "not valid JSON"),
            (r#"["u"]"#, "not a JSON object"),
        ];
        for (line, expected) in cases {
            let err = check(line).unwrap_err();
            assert!(err.contains(expected), "{line}: got {err:?}, expected {expected:?}");
            assert!(!err.contains("13800138000"), "a refused scope is never echoed: {err}");
        }
    }

    #[test]
    fn content_over_the_limit_is_refused() {
        let big = "x".repeat(MAX_CONTENT_BYTES + 1);
        let line = format!(
            r#"{{"user_id":"u","conversation_id":"c","role":"user","content":"{big}","created_at":"2026-11-20T09:00:00Z"}}"#
        );
        assert!(check(&line).unwrap_err().contains("more than the limit"));
    }

    #[test]
    fn a_missing_message_id_is_derived_the_same_way_every_time() {
        let line = r#"{"user_id":"u","conversation_id":"c","role":"user","content":"hi","created_at":"2026-11-20T09:00:00Z"}"#;
        let same_instant = r#"{"user_id":"u","conversation_id":"c","role":"user","content":"hi","created_at":"2026-11-20T17:00:00+08:00"}"#;
        let other = r#"{"user_id":"u","conversation_id":"c","role":"user","content":"hi!","created_at":"2026-11-20T09:00:00Z"}"#;
        let id = check(line).unwrap().message_id;
        assert!(id.starts_with("sha256:"));
        assert_eq!(id, check(same_instant).unwrap().message_id);
        assert_ne!(id, check(other).unwrap().message_id);
    }

    #[test]
    fn a_conversation_claimed_by_two_users_is_refused_with_both_lines() {
        let input = format!("{GOOD}\n\n{}\n", GOOD.replace("\"u1\"", "\"u2\""));
        let detector = Detector::default();
        let mut source = JsonLines::new(input.as_bytes(), &detector);
        assert!(source.next_batch().unwrap().is_some());
        let err = source.finish().unwrap_err().to_string();
        assert!(
            err.contains("line 3: conversation 'c1' belongs to user 'u1' (line 1), not 'u2'"),
            "{err}"
        );
    }
}
