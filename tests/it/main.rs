//! dreamd's integration tests, in one binary: the store suite run against
//! SQLite and the real PostgreSQL, and the command line end to end.

/// Tests under adverse conditions (kill -9 at random points, a database
/// that goes away, a minute of faulty service) are named first on purpose:
/// libtest starts tests in name order, and these spend most of their time
/// waiting, so started first they overlap the rest of the suite instead of
/// trailing it.
mod adverse {
    mod chaos;
    mod faults;
    mod soak;
}
mod answers;
mod app;
mod architecture;
mod browser;
mod cli;
mod config;
mod copy;
mod embeddings;
mod eval;
mod fake_model;
mod fuzz;
mod grounding;
mod helpers;
mod http;
mod http_mcp;
mod mcp;
mod never_store;
mod recall;
mod replicas;
mod scale;
mod served;
mod service;
mod stage_one;
mod stage_two;
mod store;
mod trust;
mod upgrade;
mod workload;
