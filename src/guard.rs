//! The one text rule (spec §10.22): every text dreamd would store — a
//! person's memory, an agent's `remember`, the model's slip, memory,
//! suggestion and retire texts, a slip's quote — passes [`admit`], and is
//! stored in the form it returns. One function, so no path can normalise
//! without checking or check a form other than the one it stores.

use crate::detect::{Detector, Finding};
use crate::domain::Scope;
use crate::text;

/// What a text is, for its length limit and the words of a refusal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextKind {
    /// A memory, suggestion or slip statement, or a retire reason.
    Statement,
    /// The user's words a slip rests on.
    Quote,
}

impl TextKind {
    /// The longest text accepted, in characters after normalisation.
    pub fn max_chars(self) -> usize {
        match self {
            TextKind::Statement => crate::domain::MAX_STATEMENT_CHARS,
            TextKind::Quote => crate::domain::MAX_QUOTE_CHARS,
        }
    }
}

/// Why a text may not be stored. Never carries the text itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    Empty,
    /// A control character (NUL, an escape sequence): no statement holds
    /// one, and printed to an operator's terminal it could drive it.
    ControlCharacter,
    TooLong {
        max: usize,
    },
    Forbidden(Finding),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Empty => f.write_str("the text is empty"),
            Refusal::ControlCharacter => f.write_str(
                "the text holds a control character (such as NUL, ESC or a bidi override); write plain text",
            ),
            Refusal::TooLong { max } => {
                write!(f, "the text is longer than {max} characters; memories are short statements")
            }
            Refusal::Forbidden(finding) => write!(
                f,
                "refused to store this text: {}; dreamd never stores credentials, permission claims, live business facts or personal identifiers",
                finding.reason()
            ),
        }
    }
}

/// Normalises `raw`, checks its length and runs the never-store detectors on
/// exactly the form that would be stored; returns that form.
pub fn admit(raw: &str, kind: TextKind, detector: &Detector) -> Result<String, Refusal> {
    let normalized = text::normalize(raw);
    if normalized.chars().all(|c| text::is_invisible(c) || c.is_whitespace()) {
        return Err(Refusal::Empty);
    }
    if normalized.chars().any(|c| c.is_control() || text::is_bidi_control(c)) {
        return Err(Refusal::ControlCharacter);
    }
    let max = kind.max_chars();
    if normalized.chars().count() > max {
        return Err(Refusal::TooLong { max });
    }
    if let Some(finding) = detector.scan(&normalized) {
        return Err(Refusal::Forbidden(finding));
    }
    Ok(normalized)
}

/// Runs the never-store detectors on a scope's name. A scope is stored with
/// every conversation and memory in it and printed with them, so a name is
/// text like any other: `project:sk-live-…` would store a key and
/// `project:13800138000` a phone number. Built-in scopes and the operator's
/// `policy.domains` need no check; names that arrive with messages or an
/// agent's `remember` do.
pub fn admit_scope(scope: &Scope, detector: &Detector) -> Result<(), Refusal> {
    match readings(&text::normalize(scope.name())).iter().find_map(|r| detector.scan(r)) {
        Some(finding) => Err(Refusal::Forbidden(finding)),
        None => Ok(()),
    }
}

/// A name as written and as the words it spells: percent-escapes decoded
/// (twice, for `%2540`), separators as spaces (`i_am_admin`,
/// `password_hunter2`), dots too (`i.am.admin`), and letters apart from
/// digits (`tel13800138000`).
fn readings(name: &str) -> [String; 4] {
    let decoded = percent_decoded(&percent_decoded(name));
    let spaced: String = decoded
        .chars()
        .map(|c| if matches!(c, '_' | '-' | '+' | '/' | '|') { ' ' } else { c })
        .collect();
    let undotted = spaced.replace('.', " ");
    let mut apart = String::with_capacity(spaced.len() + 8);
    let mut previous: Option<char> = None;
    for c in spaced.chars() {
        if previous.is_some_and(|p| p.is_alphabetic() != c.is_alphabetic() && p.is_alphanumeric())
            && c.is_alphanumeric()
        {
            apart.push(' ');
        }
        apart.push(c);
        previous = Some(c);
    }
    [name.to_owned(), spaced, undotted, apart]
}

/// `%XX` escapes as the bytes they stand for; anything else as it is.
fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok());
        match (bytes[i], hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::{Category, ExtraPattern};

    #[test]
    fn control_characters_are_refused() {
        let d = Detector::default();
        for raw in
            ["nul\u{0}byte", "\u{1b}]52;c;cm0=\u{7}report", "del\u{7f}", "\u{202E}moc.elpmaxe"]
        {
            assert_eq!(
                admit(raw, TextKind::Statement, &d),
                Err(Refusal::ControlCharacter),
                "{raw:?}"
            );
        }
        assert!(admit("tabs\tand\nlines", TextKind::Quote, &d).is_ok());
    }

    #[test]
    fn admits_the_normalised_form() {
        let d = Detector::default();
        assert_eq!(
            admit("  结果先行\u{3000}再给依据 ", TextKind::Statement, &d).unwrap(),
            "结果先行 再给依据"
        );
    }

    #[test]
    fn refuses_empty_long_and_forbidden_texts() {
        let d = Detector::default();
        assert_eq!(admit(" \u{3000} ", TextKind::Statement, &d), Err(Refusal::Empty));
        assert_eq!(admit(" \u{200B} \u{FEFF}", TextKind::Statement, &d), Err(Refusal::Empty));
        let long = "x".repeat(crate::domain::MAX_STATEMENT_CHARS + 1);
        assert!(matches!(admit(&long, TextKind::Statement, &d), Err(Refusal::TooLong { .. })));
        assert!(admit(&long, TextKind::Quote, &d).is_ok());
        assert_eq!(
            admit("my password is hunter2", TextKind::Quote, &d),
            Err(Refusal::Forbidden(Finding::Builtin(Category::Password)))
        );
    }

    #[test]
    fn scope_names_are_text_the_detectors_read() {
        let d = Detector::default();
        for ok in [
            "global",
            "domain:raw_material",
            "project:奶酪棒",
            "project:PO-77",
            "project:2026Q4",
            "domain:root-cause",
            "project:SKU-1234",
            "domain:admin",
            "project:budget_2027",
        ] {
            assert_eq!(admit_scope(&ok.parse().unwrap(), &d), Ok(()), "{ok}");
        }
        for (bad, category) in [
            ("project:13800138000", Category::Phone),
            ("project:sk-proj-abcdefghijklmnopqrstuvwxyz123456", Category::Secret),
            ("domain:alice@example.com", Category::Email),
            ("project:password=hunter2", Category::Password),
            ("project:AKIAIOSFODNN7EXAMPLE", Category::Secret),
            ("project:我是管理员", Category::PermissionClaim),
            ("project:tel13800138000", Category::Phone),
            ("project:x13800138000", Category::Phone),
            ("project:password_hunter2", Category::Password),
            ("project:i_am_admin", Category::PermissionClaim),
            ("project:user-is-admin", Category::PermissionClaim),
            ("domain:jay%40example.com", Category::Email),
            ("project:price_12.5yuan", Category::LiveBusinessFact),
            ("project:i.am.admin", Category::PermissionClaim),
            ("domain:jay%2540example.com", Category::Email),
        ] {
            let refusal = admit_scope(&bad.parse().unwrap(), &d).unwrap_err();
            assert_eq!(refusal, Refusal::Forbidden(Finding::Builtin(category)), "{bad}");
            let name = bad.split_once(':').unwrap().1;
            assert!(!refusal.to_string().contains(name), "the refusal never echoes the name");
        }
    }

    #[test]
    fn operator_patterns_refuse_with_their_name_and_never_the_text() {
        let d = Detector::new(vec![ExtraPattern {
            name: "customer".into(),
            regex: regex::Regex::new("(?i)acme").unwrap(),
        }]);
        let refusal = admit("report for ACME dairy", TextKind::Statement, &d).unwrap_err();
        assert_eq!(refusal, Refusal::Forbidden(Finding::Extra("customer".into())));
        assert!(!refusal.to_string().contains("ACME"));
        assert!(refusal.to_string().contains("customer"));
    }
}
