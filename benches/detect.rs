//! The never-store detectors' speed: every text dreamd stores is scanned, so
//! a scan must stay far below a model call. Prints the median per scan over
//! the labelled corpus, and for long texts.

use std::time::Instant;

fn corpus() -> Vec<String> {
    let text = include_str!("../tests/data/never_store.jsonl");
    text.lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| v["text"].as_str().map(str::to_owned))
        .collect()
}

/// Median time per scan, in microseconds, over `rounds` passes of `texts`.
fn median_micros(texts: &[String], rounds: usize) -> f64 {
    let mut per_scan: Vec<f64> = (0..rounds)
        .map(|_| {
            let start = Instant::now();
            for t in texts {
                std::hint::black_box(dreamd::detect::scan(t));
            }
            start.elapsed().as_secs_f64() * 1e6 / texts.len() as f64
        })
        .collect();
    per_scan.sort_by(f64::total_cmp);
    per_scan[per_scan.len() / 2]
}

fn main() {
    let lines = corpus();
    let first = Instant::now();
    dreamd::detect::scan(&lines[0]);
    println!(
        "first scan (patterns and phone metadata built): {:.1} ms",
        first.elapsed().as_secs_f64() * 1e3
    );
    println!("corpus lines ({}): median {:.1} µs per scan", lines.len(), median_micros(&lines, 15));
    let long: Vec<String> = lines.chunks(8).map(|c| c.join("，")).collect();
    println!(
        "~250-character texts ({}): median {:.1} µs per scan",
        long.len(),
        median_micros(&long, 15)
    );
}
