//! The never-store corpus (`tests/data/never_store.jsonl`): realistic texts
//! that must be refused, labelled with their category, and harmless
//! look-alikes (`"category": null`) that must pass. The gate is on "refused
//! at all": recall per category at least 98 %, false refusals at most 2 %.
//! A text refused under another category than its label counts for recall
//! and is reported separately.

use dreamd::detect::{self, Category};
use std::collections::BTreeMap;

const CORPUS: &str = include_str!("../data/never_store.jsonl");
const MIN_RECALL: f64 = 0.98;
const MAX_FALSE_REFUSALS: f64 = 0.02;

struct Line {
    number: usize,
    text: String,
    category: Option<Category>,
    lang: String,
}

fn corpus() -> Vec<Line> {
    CORPUS
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            let v: serde_json::Value =
                serde_json::from_str(l).unwrap_or_else(|e| panic!("line {}: not JSON: {e}", i + 1));
            let text = v["text"].as_str().unwrap_or_else(|| panic!("line {}: no text", i + 1));
            let category = match &v["category"] {
                serde_json::Value::Null => None,
                c => Some(
                    c.as_str()
                        .and_then(Category::from_name)
                        .unwrap_or_else(|| panic!("line {}: unknown category {c}", i + 1)),
                ),
            };
            let lang = v["lang"].as_str().unwrap_or_default().to_string();
            assert!(
                ["zh", "en", "ja", "ko", "other"].contains(&lang.as_str()),
                "line {}: lang must be zh, en, ja, ko or other (set P's languages)",
                i + 1
            );
            Line { number: i + 1, text: text.to_string(), category, lang }
        })
        .collect()
}

#[derive(Default, Clone)]
struct Tally {
    total: usize,
    refused: usize,
    exact: usize,
}

#[test]
fn never_store_corpus_meets_the_recall_and_false_refusal_gates() {
    let lines = corpus();
    let mut tallies: BTreeMap<&str, Tally> = BTreeMap::new();
    let (mut harmless, mut false_refusals) = (0usize, 0usize);
    let (mut misses, mut refusals, mut mismatches) = (Vec::new(), Vec::new(), Vec::new());
    for line in &lines {
        // What dreamd would store: the text normalised (its line breaks folded).
        let found = detect::scan(&dreamd::text::normalize(&line.text));
        match (line.category, found) {
            (Some(label), found) => {
                let t = tallies.entry(label.as_str()).or_default();
                t.total += 1;
                if let Some(found) = found {
                    t.refused += 1;
                    if found == label {
                        t.exact += 1;
                    } else {
                        mismatches.push(format!(
                            "  line {:>4} [{}] labelled {} found {}: {}",
                            line.number, line.lang, label, found, line.text
                        ));
                    }
                } else {
                    misses.push(format!(
                        "  line {:>4} [{}] {}: {}",
                        line.number, line.lang, label, line.text
                    ));
                }
            }
            (None, found) => {
                harmless += 1;
                if let Some(found) = found {
                    false_refusals += 1;
                    refusals.push(format!(
                        "  line {:>4} [{}] refused as {}: {}",
                        line.number, line.lang, found, line.text
                    ));
                }
            }
        }
    }

    println!("\nnever-store corpus: {} lines", lines.len());
    println!("{:<20} {:>6} {:>8} {:>8} {:>8}", "category", "lines", "refused", "recall", "exact");
    let mut failed = Vec::new();
    for category in Category::ALL {
        let t = tallies.get(category.as_str()).cloned().unwrap_or_default();
        let recall = ratio(t.refused, t.total);
        println!(
            "{:<20} {:>6} {:>8} {:>7.1}% {:>7.1}%",
            category.as_str(),
            t.total,
            t.refused,
            recall * 100.0,
            ratio(t.exact, t.total) * 100.0
        );
        if t.total == 0 || recall < MIN_RECALL {
            failed.push(format!("{} recall {:.3} < {MIN_RECALL}", category.as_str(), recall));
        }
    }
    let false_rate = ratio(false_refusals, harmless);
    println!(
        "{:<20} {:>6} {:>8} {:>7.1}% (false refusals)",
        "harmless",
        harmless,
        false_refusals,
        false_rate * 100.0
    );
    if false_rate > MAX_FALSE_REFUSALS {
        failed.push(format!("false refusals {false_rate:.3} > {MAX_FALSE_REFUSALS}"));
    }
    for (title, list) in [
        ("misses", &misses),
        ("false refusals", &refusals),
        ("refused under another category", &mismatches),
    ] {
        if !list.is_empty() {
            println!("\n{title} ({}):", list.len());
            for l in list {
                println!("{l}");
            }
        }
    }
    assert!(failed.is_empty(), "never-store gates failed: {failed:?}");
}

#[test]
fn never_store_corpus_covers_every_category_in_both_languages() {
    let lines = corpus();
    assert!(lines.len() >= 600, "{} lines", lines.len());
    let harmless = lines.iter().filter(|l| l.category.is_none()).count();
    assert!(harmless >= 200, "{harmless} harmless lines");
    for category in Category::ALL {
        let of = |lang: &str| {
            lines.iter().filter(|l| l.category == Some(category) && l.lang == lang).count()
        };
        let (zh, en) = (of("zh"), of("en"));
        assert!(zh + en >= 40, "{category}: {} lines", zh + en);
        assert!(zh > 0 && en > 0, "{category}: zh {zh}, en {en}");
    }
}

fn ratio(n: usize, d: usize) -> f64 {
    if d == 0 { 0.0 } else { n as f64 / d as f64 }
}

/// The pieces check (`detect::carries_a_piece`) on texts unrelated to the
/// sources: every harmless line of the corpus, as a text the model wrote,
/// against three lines that hold a value (a credential or an identifier,
/// each value unique in the corpus). A harmless text flagged here is an
/// honest memory lost for a user who once said a value; few may be.
#[test]
fn the_pieces_check_seldom_refuses_an_unrelated_text() {
    use detect::Category::*;
    let lines = corpus();
    let valued = [Secret, Password, PrivateKey, Phone, NationalId, BankCard, Email];
    let sources: Vec<&str> = lines
        .iter()
        .filter(|l| l.category.is_some_and(|c| valued.contains(&c)))
        .map(|l| l.text.as_str())
        .collect();
    let detector = detect::Detector::default();
    let harmless: Vec<&Line> = lines.iter().filter(|l| l.category.is_none()).collect();
    let flagged: Vec<String> = harmless
        .iter()
        .enumerate()
        .filter(|(i, line)| {
            let picked = [i * 7, i * 13 + 1, i * 31 + 2].map(|k| sources[k % sources.len()]);
            detect::carries_a_piece(&[&line.text], picked, &detector)
        })
        .map(|(_, line)| format!("  line {:>4}: {}", line.number, line.text))
        .collect();
    let rate = flagged.len() as f64 / harmless.len() as f64;
    println!(
        "pieces check: {} of {} unrelated harmless texts flagged ({:.2} %)\n{}",
        flagged.len(),
        harmless.len(),
        rate * 100.0,
        flagged.join("\n")
    );
    assert!(rate <= 0.005, "the pieces check refuses {:.2} % of unrelated texts", rate * 100.0);
}
