//! A stage-one model answer as a server sends it (reasoning, fences, prose
//! around the JSON): read or refused with a problem, never a panic.
#![no_main]

use dreamd::llm::{StageOneAnswer, answer};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let text = String::from_utf8_lossy(bytes);
    let _ = answer::json_object(&text)
        .and_then(|v| answer::read::<StageOneAnswer>(v, "note_slips", "slips", "$.slips"));
});
