//! A consolidation answer as a server sends it: read or refused with a
//! problem, never a panic.
#![no_main]

use dreamd::llm::{ConsolidationAnswer, answer};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let text = String::from_utf8_lossy(bytes);
    let _ = answer::json_object(&text).and_then(|v| {
        answer::read::<ConsolidationAnswer>(v, "consolidation", "operations", "$.operations")
    });
});
