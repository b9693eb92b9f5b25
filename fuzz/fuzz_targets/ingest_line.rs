//! One ingest line: never a panic; a line accepted has ids that are not
//! blank and at most 256 characters, and content within the limit.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let Ok(text) = std::str::from_utf8(bytes) else { return };
    if let Ok(m) = dreamd::ingest::parse_line(text, 1) {
        for id in [&m.user_id, &m.conversation_id, &m.message_id] {
            assert!(!id.trim().is_empty() && id.chars().count() <= 256, "{id:?}");
        }
        assert!(m.content.len() <= dreamd::ingest::MAX_CONTENT_BYTES);
    }
});
