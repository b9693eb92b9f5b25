//! What the benches share: the fake OpenAI-compatible model that proposes
//! (served by wiremock in the bench process) and the CPU time of the
//! dreamd processes a bench runs.

use std::process::Command;
use std::time::Duration;
use wiremock::{Request, Respond, ResponseTemplate};

/// Stage one: a slip quoting the first user message; stage two: one memory
/// from all the user's slips; after `delay`.
pub struct Model {
    pub delay: Duration,
}

impl Respond for Model {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let chat: serde_json::Value = serde_json::from_slice(&request.body).unwrap();
        let doc: serde_json::Value =
            serde_json::from_str(chat["messages"][1]["content"].as_str().unwrap()).unwrap();
        let content = match doc.get("messages") {
            Some(messages) => {
                let first_user = messages.as_array().unwrap().iter().find(|m| m["role"] == "user");
                let slips: Vec<serde_json::Value> = first_user
                    .map(|m| {
                        serde_json::json!({"message_id": m["message_id"], "quote": m["content"],
                            "content": "看报告都先说结果", "kind": "presentation", "scope": "global",
                            "durability": "lasting", "valid_until": null})
                    })
                    .into_iter()
                    .collect();
                serde_json::json!({ "slips": slips })
            }
            None => {
                let ids: Vec<&serde_json::Value> =
                    doc["slips"].as_array().unwrap().iter().map(|s| &s["slip_id"]).collect();
                serde_json::json!({"operations": [{"op": "create", "kind": "presentation", "scope": "global",
                    "content": "看报告都先说结果", "slip_ids": ids, "supersedes_slip_ids": []}]})
            }
        };
        ResponseTemplate::new(200)
            .set_body_json(serde_json::json!({
                "id": "x", "object": "chat.completion", "created": 0, "model": "fake",
                "choices": [{"index": 0, "finish_reason": "stop",
                             "message": {"role": "assistant", "content": content.to_string()}}],
                "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}
            }))
            .set_delay(self.delay)
    }
}

/// Message texts sized like the MemoryBank dialogues in `shared/data`
/// (about 35 estimated tokens for a user turn, 55 for an assistant turn).
#[allow(dead_code, reason = "each bench compiles this module; only some build conversations")]
pub fn content(role: &str, m: usize) -> String {
    match role {
        "user" => format!("以后看报告都先说结果，再列数据表；标准按流程卡整理 (message {m})"),
        _ => format!(
            "好的，我会先给出结论，再列出支撑数据和依据的条款号；如果有不确定的地方，我会标注出来并建议复核的方式。(reply {m})"
        ),
    }
}

/// User and system CPU seconds of this process's reaped children (as
/// `getrusage(RUSAGE_CHILDREN)` counts them), from /proc.
#[allow(dead_code, reason = "each bench compiles this module; only some measure CPU")]
pub fn children_cpu_seconds() -> (f64, f64) {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap();
    let fields: Vec<&str> = stat[stat.rfind(')').unwrap() + 2..].split(' ').collect();
    // cutime and cstime are fields 16 and 17 of stat(5), i.e. 13 and 14 here.
    let ticks: f64 = Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok()?.trim().parse().ok())
        .unwrap_or(100.0);
    let seconds = |i: usize| fields[i].parse::<f64>().unwrap() / ticks;
    (seconds(13), seconds(14))
}
