//! Reading a model's answer as real servers send it (spec §10.26): local
//! reasoning models put a `<think>…</think>` block before the JSON, others
//! wrap it in a Markdown fence or add a sentence after it. The one JSON
//! object in the answer is the answer; the reasoning is dropped unread, never
//! logged or stored. Pure, so every shape is tested without a server.

use serde_json::Value;

/// Why an answer is not the schema. Never carries the answer's text (spec
/// §10.21): only a category and a JSON path, fit for logs and `status`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnswerProblem {
    #[error("the answer has no content")]
    NoContent,
    #[error("the answer holds no JSON object")]
    NoObject,
    #[error("the answer holds more than one JSON object")]
    SeveralObjects,
    #[error("the answer's JSON is not valid (line {line}, column {column})")]
    Syntax { line: usize, column: usize },
    #[error("the answer is not the {schema} shape: {path} is missing or not an array")]
    Shape { schema: &'static str, path: &'static str },
    #[error("the answer's JSON nests deeper than 128 levels")]
    TooDeep,
}

/// Closing tags of the reasoning blocks servers leave in `content`.
const REASONING_ENDS: [&str; 3] = ["</think>", "</thinking>", "</reasoning>"];
/// Opening tags, for a block that never closes (the answer was cut off).
const REASONING_STARTS: [&str; 3] = ["<think>", "<thinking>", "<reasoning>"];

/// The text after a leading reasoning block, or `None` when the block never
/// closes (the answer was cut off while reasoning).
fn after_leading_block(text: &str) -> Option<&str> {
    let trimmed = text.trim_start();
    match REASONING_STARTS.iter().position(|s| trimmed.starts_with(s)) {
        Some(i) => {
            trimmed.find(REASONING_ENDS[i]).map(|end| &trimmed[end + REASONING_ENDS[i].len()..])
        }
        None => Some(text),
    }
}

/// The text after the first closing tag, for servers that send only the
/// closing one (the opening tag was part of the prompt template).
fn after_bare_close(text: &str) -> Option<&str> {
    REASONING_ENDS
        .iter()
        .filter_map(|end| text.find(end).map(|i| i + end.len()))
        .min()
        .map(|i| &text[i..])
}

/// The one JSON object of an answer, wherever it stands: alone, inside a
/// code fence, between prose. Braces in prose that do not start a JSON
/// object are passed over; two objects are refused (which one would it be?).
pub fn json_object(text: &str) -> Result<Value, AnswerProblem> {
    let text = after_leading_block(text).ok_or(AnswerProblem::NoObject)?;
    match after_bare_close(text).map(the_one_object) {
        Some(Ok(value)) => Ok(value),
        _ => the_one_object(text),
    }
}

fn the_one_object(text: &str) -> Result<Value, AnswerProblem> {
    let mut found: Option<Value> = None;
    let mut first_error: Option<AnswerProblem> = None;
    let mut at = 0;
    while let Some(offset) = text[at..].find('{') {
        let start = at + offset;
        let mut values = serde_json::Deserializer::from_str(&text[start..]).into_iter::<Value>();
        match values.next() {
            Some(Ok(value)) => {
                if found.is_some() {
                    return Err(AnswerProblem::SeveralObjects);
                }
                found = Some(value);
                at = start + values.byte_offset();
            }
            // An object nested past serde's limit: its inner objects would
            // parse, and the answer would read as the wrong shape (hm6 F8).
            Some(Err(e)) if e.to_string().starts_with("recursion limit exceeded") => {
                return Err(AnswerProblem::TooDeep);
            }
            Some(Err(e)) => {
                first_error.get_or_insert_with(|| syntax(text, start, &e));
                at = start + 1;
            }
            None => break,
        }
    }
    found.ok_or_else(|| first_error.unwrap_or(AnswerProblem::NoObject))
}

/// A syntax error's place in the whole answer, never its text.
fn syntax(text: &str, start: usize, e: &serde_json::Error) -> AnswerProblem {
    let before = &text[..start];
    let line_offset = before.matches('\n').count();
    let column = if e.line() == 1 {
        before.len() - before.rfind('\n').map_or(0, |i| i + 1) + e.column()
    } else {
        e.column()
    };
    AnswerProblem::Syntax { line: line_offset + e.line(), column }
}

/// Checks that `value` is an object whose `key` is an array, then reads it as
/// `A`, whose list elements are read one by one ([`super::Item`]).
pub fn read<A: serde::de::DeserializeOwned>(
    value: Value,
    schema: &'static str,
    key: &'static str,
    path: &'static str,
) -> Result<A, AnswerProblem> {
    let shape = AnswerProblem::Shape { schema, path };
    if !value.get(key).is_some_and(Value::is_array) {
        return Err(shape);
    }
    serde_json::from_value(value).map_err(|_| shape)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ok(text: &str) -> Value {
        json_object(text).unwrap_or_else(|e| panic!("{text:?}: {e}"))
    }

    #[test]
    fn reads_the_object_in_every_shape_servers_send() {
        let expected = json!({"slips": []});
        for text in [
            r#"{"slips": []}"#,
            "  \n{\"slips\": []}\n",
            "<think>\nThe user wants {results first}. I will answer {\"slips\": [1]}?\n</think>\n{\"slips\": []}",
            "<think>reasoning</think>```json\n{\"slips\": []}\n```",
            "```\n{\"slips\": []}\n```",
            "{\"slips\": []}\n\nI extracted nothing because the user only asked a question.",
            "Here is the answer:\n```json\n{\"slips\": []}\n```\nHope this helps {smile}.",
            "reasoning without an opening tag</think>{\"slips\": []}",
            "<thinking>a</thinking>\n{\"slips\": []}",
        ] {
            assert_eq!(ok(text), expected, "{text:?}");
        }
    }

    #[test]
    fn keeps_braces_and_tags_inside_strings() {
        let text = r#"{"slips": [{"quote": "use {braces} and </think> here"}]}"#;
        assert_eq!(ok(text)["slips"][0]["quote"], "use {braces} and </think> here");
    }

    #[test]
    fn refuses_no_object_two_objects_and_unfinished_reasoning() {
        assert_eq!(json_object(""), Err(AnswerProblem::NoObject));
        assert_eq!(json_object("I cannot help with that."), Err(AnswerProblem::NoObject));
        assert_eq!(json_object("[1, 2]"), Err(AnswerProblem::NoObject));
        assert_eq!(
            json_object("<think>still thinking {\"slips\": []}"),
            Err(AnswerProblem::NoObject)
        );
        assert_eq!(
            json_object(r#"{"slips": []} {"slips": []}"#),
            Err(AnswerProblem::SeveralObjects)
        );
        assert_eq!(
            json_object("```json\n{\"slips\": []}\n```\n```json\n{\"operations\": []}\n```"),
            Err(AnswerProblem::SeveralObjects)
        );
    }

    #[test]
    fn a_broken_object_is_a_syntax_error_with_its_place_not_its_text() {
        let problem = json_object("note\n{\"slips\": [SECRET-CANARY").unwrap_err();
        assert!(matches!(problem, AnswerProblem::Syntax { line: 2, .. }), "{problem:?}");
        assert!(!problem.to_string().contains("CANARY"));
    }

    #[test]
    fn an_answer_nested_too_deep_says_so() {
        let deep =
            format!("{{\"operations\": [], \"x\": {}1{}}}", "[".repeat(200), "]".repeat(200));
        assert_eq!(json_object(&deep), Err(AnswerProblem::TooDeep));
    }

    #[test]
    fn the_shape_check_names_the_path_never_the_value() {
        use crate::llm::{Item, StageOneAnswer};
        let bad = json!({"slips": "CANARY"});
        let problem = read::<StageOneAnswer>(bad, "note_slips", "slips", "$.slips").unwrap_err();
        assert_eq!(
            problem.to_string(),
            "the answer is not the note_slips shape: $.slips is missing or not an array"
        );
        let mixed = json!({"slips": [{"message_id": "CANARY"}, 3]});
        let answer: StageOneAnswer = read(mixed, "note_slips", "slips", "$.slips").unwrap();
        assert_eq!(answer.slips, vec![Item::Malformed, Item::Malformed]);
    }
}
