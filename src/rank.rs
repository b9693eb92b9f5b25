//! Relevance of memories to a request (spec §10.25), without a model:
//! BM25F over terms that work for Chinese and English alike, optionally
//! blended with the cosine of embeddings. Pure: the caller brings the texts
//! (and vectors) and gets one score per memory back.
//!
//! Terms. Chinese has no spaces, so a run of ideographs (or kana, hangul)
//! gives its overlapping character pairs ("发酵乳" → 发酵, 酵乳), the usual
//! unit of CJK search engines; a lone ideograph between other text stands
//! for itself. Particles that glue words (的, 了, 吗, …) end a run instead of
//! forming pairs. Latin text gives lower-cased words ("oat-drink" → oat,
//! drink), English function words dropped and plurals reduced by the
//! S-stemmer ("specs" → spec, "supplies" → supply). Full-width letters and
//! digits are folded to ASCII first; punctuation separates.
//!
//! Scoring. The corpus is the candidate memories of one user, so a term's
//! IDF says how well it tells those memories apart. A memory has two fields:
//! its content, and the quotes of its evidence, which count
//! [`QUOTE_WEIGHT`] of a content occurrence (BM25F: each field's term
//! frequency normalised by that field's length, then weighted and summed).

/// BM25's term-frequency saturation.
const K1: f64 = 1.2;
/// BM25's length normalisation.
const B: f64 = 0.75;
/// How much an occurrence in an evidence quote counts beside one in the content.
pub const QUOTE_WEIGHT: f64 = 0.3;
/// The lexical share of a blended score when a memory has an embedding.
pub const LEXICAL_SHARE: f64 = 0.5;

/// Characters that glue Chinese words together rather than belong to them.
const PARTICLES: &[char] = &['的', '了', '吗', '呢', '吧', '啊', '呀', '嘛'];

/// Pairs that ask rather than say what a request is about ("怎么", "哪些").
const CJK_STOP_PAIRS: &[[char; 2]] = &[
    ['怎', '么'],
    ['什', '么'],
    ['哪', '些'],
    ['多', '少'],
    ['如', '何'],
    ['一', '般'],
    ['一', '下'],
    ['帮', '我'],
    ['我', '们'],
    ['可', '以'],
    ['要', '不'],
    ['是', '不'],
    ['有', '没'],
    ['为', '什'],
    ['怎', '样'],
    ['这', '个'],
    ['那', '个'],
];

/// English function words, and the pieces contractions leave ("what's" → s);
/// sorted, for binary search.
const STOP_WORDS: &[&str] = &[
    "a", "about", "am", "an", "and", "any", "are", "as", "at", "be", "been", "but", "by", "can",
    "could", "d", "did", "do", "does", "don", "for", "from", "had", "has", "have", "how", "i",
    "if", "in", "into", "is", "it", "its", "ll", "m", "me", "my", "no", "not", "now", "of", "on",
    "or", "our", "re", "s", "should", "so", "some", "t", "than", "that", "the", "their", "them",
    "then", "there", "these", "they", "this", "those", "to", "too", "up", "us", "ve", "was", "we",
    "were", "what", "when", "where", "which", "who", "whom", "why", "will", "with", "won", "would",
    "you", "your",
];

/// One term: a pair of ideographs, a lone ideograph, or a word, as a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Term(u64);

const PAIR_TAG: u64 = 1 << 63;
const SINGLE_TAG: u64 = 1 << 62;

impl Term {
    pub fn pair(first: char, second: char) -> Term {
        Term(PAIR_TAG | (u64::from(first) << 21) | u64::from(second))
    }

    pub fn single(c: char) -> Term {
        Term(SINGLE_TAG | u64::from(c))
    }

    /// A word as it is after folding and stemming (FNV-1a, in its own key range).
    pub fn word(word: &str) -> Term {
        let hash = word.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        Term(hash & (SINGLE_TAG - 1))
    }
}

/// Ideographs, kana and hangul: scripts written without spaces between words.
fn is_ideographic(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xAC00..=0xD7AF
        | 0xF900..=0xFAFF | 0x20000..=0x2FA1F)
}

/// Full-width ASCII variants (ＡＢＣ１２３) as ASCII.
fn fold_width(c: char) -> char {
    match c as u32 {
        code @ 0xFF01..=0xFF5E => char::from_u32(code - 0xFEE0).unwrap_or(c),
        _ => c,
    }
}

/// The S-stemmer (Harman, 1991) with the "-ches/-shes/-sses/-xes" plurals:
/// plurals become singular ("supplies" → supply, "specs" → spec), little
/// else changes.
fn stem(word: &mut String) {
    let ends = |suffixes: &[&str]| suffixes.iter().any(|s| word.ends_with(s));
    if word.len() < 3 || !word.bytes().all(|b| b.is_ascii_lowercase()) {
        return;
    }
    if word.len() > 4 && ends(&["ies"]) && !ends(&["eies", "aies"]) {
        word.truncate(word.len() - 3);
        word.push('y');
    } else if ends(&["sses", "ches", "shes", "xes"]) {
        word.truncate(word.len() - 2);
    } else if ends(&["s"]) && !ends(&["us", "ss", "is"]) {
        word.truncate(word.len() - 1);
    }
}

/// Cuts a text into terms as it is read, without keeping them.
struct Terms<F: FnMut(Term)> {
    visit: F,
    word: String,
    previous: Option<char>,
    run: usize,
}

impl<F: FnMut(Term)> Terms<F> {
    fn push(&mut self, c: char) {
        let c = fold_width(c);
        if is_ideographic(c) && !PARTICLES.contains(&c) {
            self.end_word();
            if let Some(previous) = self.previous
                && !CJK_STOP_PAIRS.contains(&[previous, c])
            {
                (self.visit)(Term::pair(previous, c));
            }
            self.previous = Some(c);
            self.run += 1;
        } else if c.is_alphanumeric() && !is_ideographic(c) {
            self.end_run();
            self.word.extend(c.to_lowercase());
        } else {
            self.end_run();
            self.end_word();
        }
    }

    /// A run of one ideograph stands for itself; longer runs gave their pairs.
    fn end_run(&mut self) {
        if let (1, Some(c)) = (self.run, self.previous) {
            (self.visit)(Term::single(c));
        }
        self.previous = None;
        self.run = 0;
    }

    fn end_word(&mut self) {
        if !self.word.is_empty() && STOP_WORDS.binary_search(&self.word.as_str()).is_err() {
            self.visit_code_parts();
            stem(&mut self.word);
            (self.visit)(Term::word(&self.word));
        }
        self.word.clear();
    }

    /// A code of letters and digits (`ry2317`) gives its letter and digit
    /// runs as terms too, as the same code written with a hyphen or a
    /// space (`RY-2317`, `GB 19301`) gives them: people write codes both
    /// ways, and the one written differently from the memory found nothing.
    fn visit_code_parts(&mut self) {
        let word = self.word.as_bytes();
        let is_code = word.iter().all(u8::is_ascii_alphanumeric)
            && word.iter().any(u8::is_ascii_digit)
            && word.iter().any(u8::is_ascii_alphabetic);
        if !is_code {
            return;
        }
        let mut start = 0;
        for end in 1..=word.len() {
            let boundary =
                end == word.len() || word[end].is_ascii_digit() != word[end - 1].is_ascii_digit();
            if boundary {
                if end - start >= 2 {
                    (self.visit)(Term::word(&self.word[start..end]));
                }
                start = end;
            }
        }
    }
}

/// Calls `visit` with each term of `text`, in order.
pub fn for_each_term(text: &str, visit: impl FnMut(Term)) {
    let mut terms = Terms { visit, word: String::new(), previous: None, run: 0 };
    for c in text.chars() {
        terms.push(c);
    }
    terms.end_run();
    terms.end_word();
}

/// The terms of `text`, in order.
pub fn terms(text: &str) -> Vec<Term> {
    let mut all = Vec::new();
    for_each_term(text, |t| all.push(t));
    all
}

/// What is ranked: a memory's content and its evidence quotes.
#[derive(Debug, Clone, Copy)]
pub struct Document<'a> {
    pub content: &'a str,
    pub quotes: &'a [String],
}

/// A document's terms, counted once: a user's memories are indexed when
/// they change (see `store::RecallCache`), not on every recall.
#[derive(Debug, Clone)]
pub struct IndexedDocument {
    /// The content, then the quotes.
    fields: [Field; 2],
}

/// One field of one document: its length in terms and each distinct term's
/// count, sorted by term for lookup.
#[derive(Debug, Clone)]
struct Field {
    length: f64,
    counts: Vec<(Term, u32)>,
}

impl Field {
    fn of<'t>(texts: impl IntoIterator<Item = &'t str>) -> Self {
        let mut all = Vec::new();
        for text in texts {
            for_each_term(text, |t| all.push(t));
        }
        let length = all.len() as f64;
        all.sort_unstable();
        let mut counts: Vec<(Term, u32)> = Vec::new();
        for term in all {
            match counts.last_mut() {
                Some((last, n)) if *last == term => *n += 1,
                _ => counts.push((term, 1)),
            }
        }
        Field { length, counts }
    }

    fn count(&self, term: Term) -> f64 {
        self.counts
            .binary_search_by_key(&term, |(t, _)| *t)
            .map_or(0.0, |i| f64::from(self.counts[i].1))
    }
}

impl IndexedDocument {
    pub fn of(document: &Document<'_>) -> Self {
        Self::new(document.content, document.quotes.iter().map(String::as_str))
    }

    pub fn new<'t>(content: &str, quotes: impl IntoIterator<Item = &'t str>) -> Self {
        IndexedDocument { fields: [Field::of([content]), Field::of(quotes)] }
    }
}

/// The BM25F score of each document for `query` (0 when they share no term),
/// in the documents' order.
pub fn lexical_scores(query: &str, documents: &[Document<'_>]) -> Vec<f64> {
    let indexed: Vec<IndexedDocument> = documents.iter().map(IndexedDocument::of).collect();
    lexical_scores_indexed(query, &indexed.iter().collect::<Vec<_>>())
}

/// [`lexical_scores`] over documents indexed beforehand.
pub fn lexical_scores_indexed(query: &str, documents: &[&IndexedDocument]) -> Vec<f64> {
    let mut query_terms = terms(query);
    query_terms.sort_unstable();
    query_terms.dedup();
    if query_terms.is_empty() || documents.is_empty() {
        return vec![0.0; documents.len()];
    }
    let n = documents.len() as f64;
    let average = |f: usize| documents.iter().map(|d| d.fields[f].length).sum::<f64>() / n;
    let averages = [average(0), average(1)];
    let weights = [1.0, QUOTE_WEIGHT];
    let pseudo_counts: Vec<Vec<f64>> = documents
        .iter()
        .map(|d| {
            query_terms
                .iter()
                .map(|&term| {
                    (0..2)
                        .map(|f| {
                            let field = &d.fields[f];
                            weights[f] * field.count(term) / length_norm(field.length, averages[f])
                        })
                        .sum()
                })
                .collect()
        })
        .collect();
    let idf: Vec<f64> = (0..query_terms.len())
        .map(|t| {
            let df = pseudo_counts.iter().filter(|d| d[t] > 0.0).count() as f64;
            (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
        })
        .collect();
    pseudo_counts
        .iter()
        .map(|d| d.iter().zip(&idf).map(|(tf, idf)| idf * tf / (K1 + tf)).sum())
        .collect()
}

/// BM25's length normalisation of a field; a field empty everywhere is left as is.
fn length_norm(length: f64, average: f64) -> f64 {
    if average > 0.0 { 1.0 - B + B * length / average } else { 1.0 }
}

/// The cosine of two vectors; `None` when they cannot be compared
/// (different lengths, empty, or zero).
pub fn cosine(a: &[f32], b: &[f32]) -> Option<f64> {
    if a.len() != b.len() || a.is_empty() {
        return None;
    }
    let (mut dot, mut aa, mut bb) = (0.0f64, 0.0f64, 0.0f64);
    for (x, y) in a.iter().zip(b) {
        let (x, y) = (f64::from(*x), f64::from(*y));
        dot += x * y;
        aa += x * x;
        bb += y * y;
    }
    (aa > 0.0 && bb > 0.0).then(|| dot / (aa.sqrt() * bb.sqrt()))
}

/// Lexical scores scaled to 0–1 (the best memory 1), blended with the
/// cosine (below 0 counted as 0) where a memory has one:
/// `LEXICAL_SHARE × lexical + (1 − LEXICAL_SHARE) × cosine`. A memory
/// without an embedding keeps its scaled lexical score.
pub fn blend(lexical: &[f64], cosines: &[Option<f64>]) -> Vec<f64> {
    let best = lexical.iter().copied().fold(0.0, f64::max);
    lexical
        .iter()
        .zip(cosines.iter().chain(std::iter::repeat(&None)))
        .map(|(l, c)| {
            let l = if best > 0.0 { l / best } else { 0.0 };
            match c {
                Some(c) => LEXICAL_SHARE * l + (1.0 - LEXICAL_SHARE) * c.max(0.0),
                None => l,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn best(query: &str, contents: &[&str]) -> usize {
        let documents: Vec<Document> =
            contents.iter().map(|c| Document { content: c, quotes: &[] }).collect();
        let scores = lexical_scores(query, &documents);
        (0..scores.len()).max_by(|a, b| scores[*a].total_cmp(&scores[*b]).then(b.cmp(a))).unwrap()
    }

    #[test]
    fn the_stop_words_are_sorted_for_binary_search() {
        assert!(STOP_WORDS.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn chinese_runs_give_their_pairs_and_particles_end_them() {
        assert_eq!(terms("发酵乳"), [Term::pair('发', '酵'), Term::pair('酵', '乳')]);
        assert_eq!(terms("发酵乳的配方"), terms("发酵乳 配方"));
        assert_eq!(terms("杯"), [Term::single('杯')]);
        assert_eq!(
            terms("PP杯迁移，UHT线"),
            [
                Term::word("pp"),
                Term::pair('杯', '迁'),
                Term::pair('迁', '移'),
                Term::word("uht"),
                Term::single('线')
            ]
        );
        assert_eq!(terms("怎么办？"), [Term::pair('么', '办')]);
    }

    #[test]
    fn latin_words_are_folded_stemmed_and_stripped_of_function_words() {
        assert_eq!(terms("The Oat-Drink specs"), terms("oat drink spec"));
        assert_eq!(terms("ＧＢ２８０５０"), terms("gb28050"));
        assert_eq!(terms("What's in our acceptance specs?"), terms("acceptance spec"));
        let stemmed = |w: &str| {
            let mut w = w.to_owned();
            stem(&mut w);
            w
        };
        for (word, stem) in [
            ("supplies", "supply"),
            ("suppliers", "supplier"),
            ("processes", "process"),
            ("matches", "match"),
            ("notes", "note"),
            ("gcs", "gc"),
            ("status", "status"),
            ("analysis", "analysis"),
            ("glass", "glass"),
            ("série", "série"),
        ] {
            assert_eq!(stemmed(word), stem, "{word}");
        }
    }

    #[test]
    fn a_question_about_fermented_milk_finds_the_formulation_work() {
        let memories = [
            "在评估一种新的发酵剂，用于低后酸酸奶",
            "负责发酵乳配方研发，主要是风味发酵乳",
            "在研发中心乳品事业部工作，组里五个人",
            "平时也参与调制乳和乳饮料的感官评价",
        ];
        assert_eq!(best("发酵乳的配方要注意什么？", &memories), 1);
    }

    #[test]
    fn similar_chinese_projects_are_told_apart() {
        let memories =
            ["常温酸奶的货架期报告在写初稿", "燕麦饮货架期报告下周要出", "燕麦饮的包装换成利乐钻"];
        assert_eq!(best("燕麦饮的货架期报告什么时候能出？", &memories), 1);
        assert_eq!(best("常温酸奶货架期", &memories), 0);
    }

    #[test]
    fn a_shelf_life_report_question_finds_the_oat_drink_project_not_the_yoghurt_one() {
        let memories = [
            "Writing up the yoghurt shelf-life report for the retailer",
            "Running the oat-drink shelf-life study; the report is due at the end of the month",
            "Oat-drink sediment after retort is under investigation",
        ];
        assert_eq!(best("How's the oat drink shelf-life report coming along?", &memories), 1);
        assert_eq!(best("yoghurt shelf-life report", &memories), 0);
    }

    #[test]
    fn plurals_and_case_meet_and_function_words_do_not_match() {
        let memories = [
            "Reviewing the almond drink label claims",
            "Writing acceptance specs for pectin and gellan",
        ];
        assert_eq!(best("What's in our acceptance spec for gellan gum?", &memories), 1);
        let scores =
            lexical_scores("what is the", &[Document { content: "the what is", quotes: &[] }]);
        assert_eq!(scores, [0.0]);
    }

    #[test]
    fn quotes_count_lightly_beside_the_content() {
        let quoted = ["以后看报告都先说发酵乳的结论".to_owned()];
        let documents = [
            Document { content: "负责发酵乳配方", quotes: &[] },
            Document { content: "报告先说结论", quotes: &quoted },
            Document { content: "在带新人做切达", quotes: &[] },
        ];
        let scores = lexical_scores("发酵乳", &documents);
        assert!(scores[0] > scores[1] && scores[1] > 0.0 && scores[2] == 0.0, "{scores:?}");
    }

    #[test]
    fn a_code_written_without_its_hyphen_finds_the_memory_that_has_it() {
        let memories = [
            "配方 RY-2318 是芒果味",
            "配方 RY-2317 是百香果味，稳定剂用卡拉胶",
            "GB 19301 生乳标准",
        ];
        assert_eq!(best("RY2317 的稳定剂", &memories), 1);
        assert_eq!(best("GB19301", &memories), 2);
        assert_eq!(best("ry-2318", &["配方 RY2317", "配方 RY2318"]), 1);
    }

    #[test]
    fn a_query_without_terms_scores_nothing() {
        let documents = [Document { content: "负责发酵乳配方", quotes: &[] }];
        assert_eq!(lexical_scores("？！ the", &documents), [0.0]);
        assert_eq!(lexical_scores("发酵乳", &[]), Vec::<f64>::new());
    }

    #[test]
    fn blending_scales_the_lexical_score_and_keeps_it_where_no_embedding_is() {
        let blended = blend(&[2.0, 1.0, 0.0], &[Some(0.2), None, Some(-0.5)]);
        assert_eq!(blended, [0.5 * 1.0 + 0.5 * 0.2, 0.5, 0.0]);
        assert_eq!(blend(&[0.0, 0.0], &[]), [0.0, 0.0]);
    }

    #[test]
    fn cosine_needs_comparable_vectors() {
        assert_eq!(cosine(&[1.0, 0.0], &[1.0, 0.0]), Some(1.0));
        assert_eq!(cosine(&[1.0, 0.0], &[0.0, 2.0]), Some(0.0));
        assert_eq!(cosine(&[1.0], &[1.0, 0.0]), None);
        assert_eq!(cosine(&[0.0, 0.0], &[1.0, 0.0]), None);
    }
}
