//! The eval report (spec §12): case results added up per kind and per
//! language, printed as a compact table or one JSON document, and the gates
//! that make `dreamd eval` exit 4.

use crate::domain::Kind;
use crate::eval::score::CaseResult;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Found and expected items, and how many of each matched.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    pub found: u64,
    pub found_matched: u64,
    pub expected: u64,
    pub expected_matched: u64,
}

impl Tally {
    /// Matched found / found; none when nothing was found.
    pub fn precision(&self) -> Option<f64> {
        ratio(self.found_matched, self.found)
    }

    /// Matched expected / expected; none when nothing was expected.
    pub fn recall(&self) -> Option<f64> {
        ratio(self.expected_matched, self.expected)
    }

    pub fn f1(&self) -> Option<f64> {
        let (p, r) = (self.precision()?, self.recall()?);
        Some(if p + r == 0.0 { 0.0 } else { 2.0 * p * r / (p + r) })
    }

    fn add(&mut self, other: Tally) {
        self.found += other.found;
        self.found_matched += other.found_matched;
        self.expected += other.expected;
        self.expected_matched += other.expected_matched;
    }
}

fn ratio(part: u64, whole: u64) -> Option<f64> {
    (whole > 0).then(|| part as f64 / whole as f64)
}

impl Serialize for Tally {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("Tally", 7)?;
        s.serialize_field("found", &self.found)?;
        s.serialize_field("found_matched", &self.found_matched)?;
        s.serialize_field("expected", &self.expected)?;
        s.serialize_field("expected_matched", &self.expected_matched)?;
        s.serialize_field("precision", &self.precision())?;
        s.serialize_field("recall", &self.recall())?;
        s.serialize_field("f1", &self.f1())?;
        s.end()
    }
}

/// Suggestions expected and made (pending at the end), and how many paired up by kind and scope.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct SuggestionTally {
    pub expected: u64,
    pub made: u64,
    pub matched: u64,
}

impl SuggestionTally {
    fn add(&mut self, other: SuggestionTally) {
        self.expected += other.expected;
        self.made += other.made;
        self.matched += other.matched;
    }
}

/// Recall checks made and hit.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RecallTally {
    pub checks: u64,
    pub hits: u64,
}

impl RecallTally {
    pub fn hit_rate(&self) -> Option<f64> {
        ratio(self.hits, self.checks)
    }
}

impl Serialize for RecallTally {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("RecallTally", 3)?;
        s.serialize_field("checks", &self.checks)?;
        s.serialize_field("hits", &self.hits)?;
        s.serialize_field("hit_rate", &self.hit_rate())?;
        s.end()
    }
}

/// The figures of one slice of the set (a kind, a language, or all of it).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Figures {
    pub slips: Tally,
    pub memories: Tally,
    pub suggestions: SuggestionTally,
}

impl Figures {
    fn add(&mut self, other: Figures) {
        self.slips.add(other.slips);
        self.memories.add(other.memories);
        self.suggestions.add(other.suggestions);
    }
}

/// What `dreamd eval` reports (the JSON document of `--format json`).
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub golden: String,
    /// `rules`, or `openai` with the model's name.
    pub provider: String,
    pub cases: u64,
    pub cases_per_lang: BTreeMap<String, u64>,
    pub total: Figures,
    pub per_kind: BTreeMap<Kind, Figures>,
    pub per_lang: BTreeMap<String, Figures>,
    /// `absent` strings found in stored text, over all cases.
    pub leaks: u64,
    pub invalid_quotes: u64,
    pub one_off_kept: u64,
    pub explicit_changed: u64,
    pub recall: RecallTally,
    pub recall_per_lang: BTreeMap<String, RecallTally>,
    /// Conversations and users whose model call or store step failed (retried by a real deployment, lost here).
    pub failures: u64,
    pub duration_ms: u64,
}

impl Report {
    /// Adds up the case results.
    pub fn new(
        golden: String,
        provider: String,
        results: &[CaseResult],
        duration_ms: u64,
    ) -> Report {
        let mut report = Report {
            golden,
            provider,
            cases: 0,
            cases_per_lang: BTreeMap::new(),
            total: Figures::default(),
            per_kind: Kind::ALL.iter().map(|k| (*k, Figures::default())).collect(),
            per_lang: BTreeMap::new(),
            leaks: 0,
            invalid_quotes: 0,
            one_off_kept: 0,
            explicit_changed: 0,
            recall: RecallTally::default(),
            recall_per_lang: BTreeMap::new(),
            failures: 0,
            duration_ms,
        };
        for result in results {
            report.add(result);
        }
        report
    }

    fn add(&mut self, result: &CaseResult) {
        self.cases += 1;
        *self.cases_per_lang.entry(result.lang.clone()).or_default() += 1;
        let lang = self.per_lang.entry(result.lang.clone()).or_default();
        for (kind, figures) in figures_per_kind(result) {
            lang.add(figures);
            self.total.add(figures);
            self.per_kind.entry(kind).or_default().add(figures);
        }
        self.leaks += result.leaks.len() as u64;
        self.invalid_quotes += result.invalid_quotes();
        self.one_off_kept += result.one_off_kept();
        self.explicit_changed += result.explicit_changed.len() as u64;
        let recall = RecallTally {
            checks: result.recall.len() as u64,
            hits: result.recall.iter().filter(|r| r.hit).count() as u64,
        };
        self.recall.checks += recall.checks;
        self.recall.hits += recall.hits;
        let per_lang = self.recall_per_lang.entry(result.lang.clone()).or_default();
        per_lang.checks += recall.checks;
        per_lang.hits += recall.hits;
        self.failures += result.failures;
    }

    /// The compact table of the text output.
    pub fn table(&self) -> String {
        let mut out = String::new();
        let langs: Vec<String> =
            self.cases_per_lang.iter().map(|(lang, n)| format!("{lang} {n}")).collect();
        let _ = writeln!(
            out,
            "{}: {} cases ({}), provider {}, {:.1} s",
            self.golden,
            self.cases,
            langs.join(", "),
            self.provider,
            self.duration_ms as f64 / 1000.0
        );
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "{:<14} {:-^29}   {:-^24}   {:-^11}",
            "", " slips ", " memories ", " suggestions "
        );
        let _ = writeln!(
            out,
            "{:<14} {:>5} {:>5} {:>5} {:>5} {:>5}   {:>6} {:>5} {:>5} {:>5}   {:>5} {:>5}",
            "", "kept", "exp", "P", "R", "F1", "active", "exp", "P", "R", "exp", "made"
        );
        for (kind, figures) in &self.per_kind {
            out.push_str(&row(kind.as_str(), figures));
        }
        out.push_str(&row("all", &self.total));
        for (lang, figures) in &self.per_lang {
            out.push_str(&row(&format!("lang {lang}"), figures));
        }
        let _ = writeln!(out);
        let recall_langs: Vec<String> = self
            .recall_per_lang
            .iter()
            .filter(|(_, r)| r.checks > 0)
            .map(|(lang, r)| format!("{lang} {}/{}", r.hits, r.checks))
            .collect();
        let _ = writeln!(
            out,
            "never-store leaks {} · invalid quotes {} · one-off slips kept {} · explicit memories changed {}",
            self.leaks, self.invalid_quotes, self.one_off_kept, self.explicit_changed
        );
        let _ = writeln!(
            out,
            "recall hit rate {} ({}/{}{}) · failed conversations or users {}",
            figure(self.recall.hit_rate()),
            self.recall.hits,
            self.recall.checks,
            if recall_langs.is_empty() {
                String::new()
            } else {
                format!("; {}", recall_langs.join(", "))
            },
            self.failures
        );
        out
    }
}

/// One case's figures per kind.
fn figures_per_kind(result: &CaseResult) -> BTreeMap<Kind, Figures> {
    let mut per_kind: BTreeMap<Kind, Figures> = BTreeMap::new();
    for s in &result.slips {
        let t = &mut per_kind.entry(s.slip.kind).or_default().slips;
        t.found += 1;
        t.found_matched += u64::from(s.matched);
    }
    for e in &result.expected_slips {
        let t = &mut per_kind.entry(e.expected.kind).or_default().slips;
        t.expected += 1;
        t.expected_matched += u64::from(e.found);
    }
    for m in &result.memories {
        let t = &mut per_kind.entry(m.item.kind).or_default().memories;
        t.found += 1;
        t.found_matched += u64::from(m.matched);
    }
    for e in &result.expected_memories {
        let t = &mut per_kind.entry(e.expected.kind).or_default().memories;
        t.expected += 1;
        t.expected_matched += u64::from(e.found);
    }
    for s in &result.suggestions {
        per_kind.entry(s.item.kind).or_default().suggestions.made += 1;
    }
    for e in &result.expected_suggestions {
        let t = &mut per_kind.entry(e.expected.kind).or_default().suggestions;
        t.expected += 1;
        t.matched += u64::from(e.found);
    }
    per_kind
}

fn row(label: &str, f: &Figures) -> String {
    format!(
        "{:<14} {:>5} {:>5} {:>5} {:>5} {:>5}   {:>6} {:>5} {:>5} {:>5}   {:>5} {:>5}\n",
        label,
        f.slips.found,
        f.slips.expected,
        figure(f.slips.precision()),
        figure(f.slips.recall()),
        figure(f.slips.f1()),
        f.memories.found,
        f.memories.expected,
        figure(f.memories.precision()),
        figure(f.memories.recall()),
        f.suggestions.expected,
        f.suggestions.made,
    )
}

fn figure(value: Option<f64>) -> String {
    value.map_or_else(|| "-".to_owned(), |v| format!("{v:.2}"))
}

/// The thresholds a run must meet (`--min-precision`, `--min-recall`,
/// `--max-leaks`, `--min-recall-hit-rate`).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Gates {
    /// Slip precision, overall and in every language.
    pub min_precision: Option<f64>,
    /// Slip recall, overall and in every language.
    pub min_recall: Option<f64>,
    /// Never-store leaks over the whole set.
    pub max_leaks: Option<u64>,
    /// Recall checks hit, overall and in every language that has some.
    pub min_recall_hit_rate: Option<f64>,
}

impl Gates {
    /// One line per gate missed, naming the gate and the figure; empty when all are met.
    pub fn missed(&self, report: &Report) -> Vec<String> {
        let mut missed = Vec::new();
        let slices = std::iter::once(("all".to_owned(), &report.total))
            .chain(report.per_lang.iter().map(|(lang, f)| (format!("lang {lang}"), f)));
        for (label, figures) in slices {
            let checks = [
                (
                    "--min-precision",
                    "slip precision",
                    self.min_precision,
                    figures.slips.precision(),
                ),
                ("--min-recall", "slip recall", self.min_recall, figures.slips.recall()),
            ];
            for (flag, name, gate, value) in checks {
                if let (Some(min), Some(value)) = (gate, value)
                    && value < min
                {
                    missed.push(format!("{flag} {min}: {name} ({label}) is {value:.3}"));
                }
            }
        }
        if let Some(max) = self.max_leaks
            && report.leaks > max
        {
            missed.push(format!("--max-leaks {max}: {} never-store leaks", report.leaks));
        }
        missed.extend(self.missed_recall_hit_rate(report));
        missed
    }

    fn missed_recall_hit_rate(&self, report: &Report) -> Vec<String> {
        let Some(min) = self.min_recall_hit_rate else { return Vec::new() };
        std::iter::once(("all".to_owned(), &report.recall))
            .chain(report.recall_per_lang.iter().map(|(lang, r)| (format!("lang {lang}"), r)))
            .filter_map(|(label, tally)| {
                let rate = tally.hit_rate()?;
                (rate < min).then(|| {
                    format!(
                        "--min-recall-hit-rate {min}: recall hit rate ({label}) is {rate:.3} ({}/{})",
                        tally.hits, tally.checks
                    )
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precision_recall_and_f1_follow_their_definitions() {
        let t = Tally { found: 4, found_matched: 3, expected: 6, expected_matched: 3 };
        assert_eq!(t.precision(), Some(0.75));
        assert_eq!(t.recall(), Some(0.5));
        assert_eq!(t.f1(), Some(0.6));
        let empty = Tally::default();
        assert_eq!((empty.precision(), empty.recall(), empty.f1()), (None, None, None));
        let nothing_right = Tally { found: 2, expected: 2, ..Tally::default() };
        assert_eq!(nothing_right.f1(), Some(0.0));
    }

    fn report_with(zh: Tally, en: Tally, leaks: u64) -> Report {
        let mut report = Report::new("g".into(), "rules".into(), &[], 0);
        for (lang, slips) in [("zh", zh), ("en", en)] {
            let f = Figures { slips, ..Figures::default() };
            report.per_lang.insert(lang.into(), f);
            report.total.add(f);
        }
        report.leaks = leaks;
        report
    }

    #[test]
    fn gates_apply_overall_and_per_language() {
        let good = Tally { found: 10, found_matched: 10, expected: 10, expected_matched: 8 };
        let weak = Tally { found: 10, found_matched: 9, expected: 10, expected_matched: 9 };
        let gates = Gates {
            min_precision: Some(0.95),
            min_recall: Some(0.75),
            max_leaks: Some(0),
            min_recall_hit_rate: None,
        };
        assert!(gates.missed(&report_with(good, good, 0)).is_empty());
        let missed = gates.missed(&report_with(good, weak, 1));
        assert_eq!(
            missed,
            [
                "--min-precision 0.95: slip precision (lang en) is 0.900",
                "--max-leaks 0: 1 never-store leaks",
            ]
        );
        assert!(Gates::default().missed(&report_with(weak, weak, 9)).is_empty());
    }

    #[test]
    fn the_recall_hit_rate_gate_applies_overall_and_per_language() {
        let mut report = report_with(Tally::default(), Tally::default(), 0);
        report.recall = RecallTally { checks: 10, hits: 9 };
        report.recall_per_lang.insert("en".into(), RecallTally { checks: 5, hits: 5 });
        report.recall_per_lang.insert("zh".into(), RecallTally { checks: 5, hits: 4 });
        report.recall_per_lang.insert("fr".into(), RecallTally::default());
        let gates = Gates { min_recall_hit_rate: Some(0.9), ..Gates::default() };
        assert_eq!(
            gates.missed(&report),
            ["--min-recall-hit-rate 0.9: recall hit rate (lang zh) is 0.800 (4/5)"]
        );
        report.recall = RecallTally { checks: 10, hits: 8 };
        assert_eq!(gates.missed(&report).len(), 2);
        let none = Gates { min_recall_hit_rate: Some(0.9), ..Gates::default() };
        assert!(none.missed(&report_with(Tally::default(), Tally::default(), 0)).is_empty());
    }

    #[test]
    fn the_table_has_a_row_per_kind_total_and_language() {
        let report = report_with(Tally::default(), Tally::default(), 0);
        let table = report.table();
        for label in
            ["presentation", "query_default", "all", "lang zh", "lang en", "never-store leaks 0"]
        {
            assert!(table.contains(label), "{label} in\n{table}");
        }
    }
}
