//! Recall latency (spec §10.25, issue 14): one user with 1,000 memories on
//! SQLite, Chinese and English, across global, domain and project scopes,
//! half of them learned (with evidence quotes). Times `recall` as an agent
//! calls it (limit 5, two scopes), with a query (lexical ranking only) and
//! without: as a long-running process (serve, MCP) sees it, with the
//! user's candidates kept, and after a change to the user's memories, when
//! they are read again; and as a one-shot command keeping nothing. Prints p50 and p99 against the 5 ms
//! target, and where the time goes. Prints
//! figures; asserts nothing about speed. Data is built at run time
//! (`DREAMD_BENCH_MEMORIES` and `DREAMD_BENCH_CALLS` change the counts).

use dreamd::detect::Detector;
use dreamd::domain::{
    Durability, Kind, Memory, Origin, Scope, Slip, SlipState, Status, Time, Write, new_id,
};
use dreamd::manage::{Manager, StatusChange};
use dreamd::rank::{IndexedDocument, lexical_scores_indexed};
use dreamd::store::{SqliteStore, Store};
use std::time::Instant;

const USER: &str = "bench-user";
const TARGET_MS: f64 = 5.0;

const ZH_WORK: &[&str] = &[
    "发酵乳配方",
    "燕麦饮货架期报告",
    "常温酸奶降糖",
    "奶酪棒降钠",
    "乳清蛋白粉供应商审核",
    "UHT 板换结垢",
    "CIP 碱液消耗",
    "婴配粉稳定性试验",
    "营养标签切换",
    "感官评价小组",
    "冰淇淋膨胀率",
    "马苏里拉拉伸性",
    "PP杯迁移测试",
    "菌落总数方法验证",
    "HACCP计划",
];
const ZH_FRAMES: &[&str] =
    &["最近在做{}的试验", "负责{}相关的工作", "在整理{}的数据", "在跟进{}的问题", "准备下周汇报{}"];
const EN_WORK: &[&str] = &[
    "oat-drink shelf-life study",
    "yoghurt sugar reduction",
    "cheese-stick sodium reduction",
    "whey protein supplier audit",
    "plate heat exchanger fouling",
    "caustic use in CIP",
    "infant formula stability study",
    "nutrition label update",
    "sensory panel training",
    "ice cream overrun trials",
    "mozzarella stretch",
    "PP cup migration tests",
    "total plate count validation",
    "HACCP plan review",
    "Kjeldahl verification",
];
const EN_FRAMES: &[&str] = &[
    "Working on the {}",
    "Responsible for the {}",
    "Collating data for the {}",
    "Following up issues in the {}",
    "Presenting the {} next week",
];
const SCOPES: &[&str] =
    &["global", "domain:recipe", "domain:standard", "domain:report", "project:燕麦饮", "project:A"];
const QUERIES: &[&str] = &[
    "燕麦饮的货架期报告什么时候能出？",
    "How is the cheese-stick sodium reduction going?",
    "发酵乳的配方要注意什么？",
    "Why is our plate heat exchanger fouling so fast?",
    "CIP 的碱液消耗怎么降下来？",
    "What changes with the new nutrition labelling standard?",
];

fn at(day: usize, minute: usize) -> Time {
    let base: Time = "2026-10-01T00:00:00Z".parse().unwrap();
    base + chrono::Duration::days((day % 58) as i64) + chrono::Duration::minutes(minute as i64)
}

/// The i-th memory's kind: a few that shape every answer, the rest topical.
fn kind(i: usize) -> Kind {
    match i % 50 {
        0 => Kind::Presentation,
        1 => Kind::Terminology,
        2 => Kind::QueryDefault,
        n if n % 2 == 0 => Kind::Background,
        _ => Kind::RecentFocus,
    }
}

fn content(i: usize) -> String {
    let (work, frames) =
        if i.is_multiple_of(2) { (ZH_WORK, ZH_FRAMES) } else { (EN_WORK, EN_FRAMES) };
    let frame = frames[(i / 2) % frames.len()];
    format!("{} (#{i})", frame.replace("{}", work[(i / 7) % work.len()]))
}

/// The writes of the i-th memory; every other one is learned, with two quotes.
fn memory_writes(i: usize) -> Vec<Write> {
    let learned = i % 2 == 1;
    let kind = kind(i);
    let scope: Scope = SCOPES[i % SCOPES.len()].parse().unwrap();
    let updated_at = at(i, i % 600);
    let memory = Memory {
        memory_id: new_id(),
        user_id: USER.into(),
        kind,
        scope: scope.clone(),
        origin: if learned { Origin::Auto } else { Origin::Explicit },
        status: Status::Active,
        version: 1,
        content: Some(content(i)),
        created_at: updated_at,
        updated_at,
        expires_at: None,
        source_conversation_id: None,
        source_message_id: None,
    };
    if !learned {
        return vec![Write::InsertMemory(memory)];
    }
    let slips: Vec<Slip> = (0..2)
        .map(|n| Slip {
            slip_id: new_id(),
            user_id: USER.into(),
            conversation_id: format!("c{i}-{n}"),
            message_id: format!("c{i}-{n}-m1"),
            kind,
            scope: scope.clone(),
            durability: Durability::Lasting,
            valid_until: None,
            content: memory.content.clone(),
            quote: Some(format!("我这阵子主要在弄{}，你记一下 / {}", content(i + n), content(i))),
            expressed_at: updated_at,
            state: SlipState::Consolidated,
            run_id: Some("bench".into()),
        })
        .collect();
    let mut writes: Vec<Write> = slips.iter().cloned().map(Write::InsertSlip).collect();
    writes.push(Write::AddEvidence {
        memory_id: memory.memory_id.clone(),
        slip_ids: slips.iter().map(|s| s.slip_id.clone()).collect(),
    });
    writes.insert(0, Write::InsertMemory(memory));
    writes
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1]
}

/// A labelled series of recalls: through which manager, finding the store
/// how, how many, with which query.
type Series<'a> = (
    &'a str,
    &'a Manager<'a, SqliteStore>,
    Cache,
    usize,
    &'a dyn Fn(usize) -> Option<&'static str>,
);

/// How a series of recalls finds the store.
#[derive(Clone, Copy, PartialEq)]
enum Cache {
    /// A store that keeps candidates (serve, MCP), nothing changed since
    /// the last recall; or a one-shot store, which keeps nothing.
    AsIs,
    /// A store that keeps candidates, after a change to the user's memories.
    AfterChange,
}

/// Times `calls` recalls, the i-th with `query(i)`; returns p50 and p99 in
/// ms. Cold calls follow a change to a memory outside the recalled scopes,
/// which is not timed.
async fn time_recalls(
    manager: &Manager<'_, SqliteStore>,
    scopes: &[Scope],
    calls: usize,
    cache: Cache,
    query: impl Fn(usize) -> Option<&'static str>,
) -> (f64, f64) {
    let mut ms = Vec::with_capacity(calls);
    for i in 0..calls {
        if cache == Cache::AfterChange {
            change_a_memory_elsewhere(manager, i).await;
        }
        let start = Instant::now();
        let records = manager.recall(USER, scopes, 5, query(i)).await.unwrap();
        ms.push(start.elapsed().as_secs_f64() * 1000.0);
        assert_eq!(records.len(), 5);
    }
    ms.sort_by(f64::total_cmp);
    (percentile(&ms, 0.5), percentile(&ms, 0.99))
}

/// Disables or enables (by turns) one of the user's memories in a scope
/// the bench does not recall: a change that invalidates kept candidates
/// without changing what recall returns.
async fn change_a_memory_elsewhere(manager: &Manager<'_, SqliteStore>, i: usize) {
    let elsewhere = manager
        .list(USER, true)
        .await
        .unwrap()
        .into_iter()
        .find(|r| r.memory.scope.as_str() == "domain:recipe")
        .unwrap();
    let change = if i.is_multiple_of(2) { StatusChange::Disable } else { StatusChange::Enable };
    manager.change(&elsewhere.memory.memory_id, change).await.unwrap();
}

fn env_count(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let memories = env_count("DREAMD_BENCH_MEMORIES", 1000);
    let calls = env_count("DREAMD_BENCH_CALLS", 2000);
    let dir = tempfile::TempDir::new().unwrap();
    let store = SqliteStore::open(&dir.path().join("bench.db")).await.unwrap();
    let writes: Vec<Write> = (0..memories).flat_map(memory_writes).collect();
    store.apply(writes).await.unwrap();
    let detector = Detector::default();
    let now = "2026-11-29T12:00:00Z".parse().unwrap();
    let keeping = store.clone().keeping_recall_candidates();
    let serving = Manager::new(&keeping, now, &detector);
    let one_shot = Manager::new(&store, now, &detector);
    let scopes: Vec<Scope> = ["domain:report", "project:燕麦饮"].map(|s| s.parse().unwrap()).into();
    let in_scope = serving.recall(USER, &scopes, 8, None).await.unwrap().len();
    let cold_calls = (calls / 10).max(1);
    println!(
        "recall: {memories} memories of one user on SQLite (half learned, two quotes each), \
         scopes {}, limit 5, {calls} calls each, {cold_calls} after a change \
         (warm-up {in_scope} records)",
        scopes.iter().map(Scope::as_str).collect::<Vec<_>>().join(" + ")
    );
    let with_query = |i: usize| Some(QUERIES[i % QUERIES.len()]);
    let without = |_| None;
    let series: [Series; 6] = [
        ("serve/MCP, with a query", &serving, Cache::AsIs, calls, &with_query),
        (
            "serve/MCP, with a query, after a change",
            &serving,
            Cache::AfterChange,
            cold_calls,
            &with_query,
        ),
        ("serve/MCP, without a query", &serving, Cache::AsIs, calls, &without),
        (
            "serve/MCP, without a query, after a change",
            &serving,
            Cache::AfterChange,
            cold_calls,
            &without,
        ),
        ("one-shot (CLI), with a query", &one_shot, Cache::AsIs, cold_calls, &with_query),
        ("one-shot (CLI), without a query", &one_shot, Cache::AsIs, calls, &without),
    ];
    for (label, manager, cache, calls, query) in series {
        let (p50, p99) = time_recalls(manager, &scopes, calls, cache, query).await;
        let verdict = if p99 <= TARGET_MS { "meets" } else { "MISSES" };
        println!(
            "  {label:<43} p50 {p50:>6.2} ms   p99 {p99:>6.2} ms   ({verdict} p99 ≤ {TARGET_MS} ms)"
        );
    }
    where_the_time_goes(&serving, &keeping, &scopes, cold_calls).await;
}

/// The parts of recall with a query, timed alone: checking the stamp of
/// kept candidates; after a change, reading them, then indexing and ranking.
async fn where_the_time_goes(
    manager: &Manager<'_, SqliteStore>,
    store: &SqliteStore,
    scopes: &[Scope],
    calls: usize,
) {
    let names: Vec<String> = std::iter::once(Scope::global())
        .chain(scopes.iter().cloned())
        .map(|s| s.as_str().to_owned())
        .collect();
    let (mut kept, mut read, mut ranked) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..calls {
        let start = Instant::now();
        store.recall_candidates(USER, &names).await.unwrap();
        kept.push(start.elapsed().as_secs_f64() * 1000.0);
        change_a_memory_elsewhere(manager, i).await;
        let start = Instant::now();
        let candidates = store.recall_candidates(USER, &names).await.unwrap();
        read.push(start.elapsed().as_secs_f64() * 1000.0);
        let start = Instant::now();
        let documents: Vec<&IndexedDocument> = candidates.iter().map(|c| c.document()).collect();
        let scores = lexical_scores_indexed(QUERIES[i % QUERIES.len()], &documents);
        ranked.push(start.elapsed().as_secs_f64() * 1000.0);
        assert_eq!(scores.len(), documents.len());
    }
    for series in [&mut kept, &mut read, &mut ranked] {
        series.sort_by(f64::total_cmp);
    }
    println!(
        "  where the time goes (p50): checking kept candidates {:.2} ms; after a change, \
         reading the {} active memories in scope with their evidence {:.2} ms, \
         indexing and ranking them {:.2} ms",
        percentile(&kept, 0.5),
        store.recall_candidates(USER, &names).await.unwrap().len(),
        percentile(&read, 0.5),
        percentile(&ranked, 0.5)
    );
}
