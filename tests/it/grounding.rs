//! The grounding corpus (`tests/data/grounding.jsonl`): 350 notes a careful
//! model writes of what users said (stage one: a message and its context;
//! stage two: slips and the memory they update), written by a helper who
//! never saw the code. Every faithful note must rest on what it was written
//! from (`text::rests_on`), and a note written of another line's words,
//! in the same script, must not.

use dreamd::text::rests_on;

const CORPUS: &str = include_str!("../data/grounding.jsonl");
/// At most this share of faithful notes may be taken for ungrounded.
const MAX_FALSE_UNGROUNDED: f64 = 0.01;
/// At least this share of other lines' notes, same script, must be refused.
const MIN_FOREIGN_REFUSED: f64 = 0.85;

struct Note {
    evidence: Vec<String>,
    content: String,
}

fn notes() -> Vec<Note> {
    CORPUS
        .lines()
        .enumerate()
        .map(|(i, l)| {
            let v: serde_json::Value =
                serde_json::from_str(l).unwrap_or_else(|e| panic!("line {}: not JSON: {e}", i + 1));
            let evidence = v["evidence"].as_array().unwrap_or_else(|| panic!("line {}", i + 1));
            Note {
                evidence: evidence.iter().map(|e| e.as_str().unwrap().to_owned()).collect(),
                content: v["content"].as_str().unwrap().to_owned(),
            }
        })
        .collect()
}

fn rests(content: &str, evidence: &[String]) -> bool {
    rests_on(content, evidence.iter().map(String::as_str))
}

/// Mostly Chinese: the same script as another text, or not.
fn mostly_chinese(text: &str) -> bool {
    let han = text.chars().filter(|c| ('\u{4e00}'..='\u{9fff}').contains(c)).count();
    han * 3 > text.chars().count()
}

#[test]
fn faithful_notes_rest_on_their_evidence_and_other_users_notes_do_not() {
    let notes = notes();
    assert_eq!(notes.len(), 350, "the corpus as written");
    let ungrounded: Vec<&Note> = notes.iter().filter(|n| !rests(&n.content, &n.evidence)).collect();
    for n in &ungrounded {
        eprintln!("taken for ungrounded: {} <= {:?}", n.content, n.evidence);
    }
    let share = ungrounded.len() as f64 / notes.len() as f64;
    assert!(
        share <= MAX_FALSE_UNGROUNDED,
        "{} of {} faithful notes refused",
        ungrounded.len(),
        notes.len()
    );

    // Each line's evidence against the note of a line far off in the file
    // (another user, another topic), when both are in one script: across
    // scripts a note may be a translation, which is not judged.
    let (mut pairs, mut refused) = (0, 0);
    for (i, note) in notes.iter().enumerate() {
        let other = &notes[(i + 37) % notes.len()];
        let evidence = note.evidence.join(" ");
        if mostly_chinese(&other.content) != mostly_chinese(&evidence) {
            continue;
        }
        pairs += 1;
        if !rests(&other.content, &note.evidence) {
            refused += 1;
        }
    }
    assert!(pairs >= 150, "enough same-script pairs to judge: {pairs}");
    let share = refused as f64 / pairs as f64;
    assert!(share >= MIN_FOREIGN_REFUSED, "{refused} of {pairs} foreign notes refused");
}
