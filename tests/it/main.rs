//! dreamd's integration tests, in one binary: the store suite run against
//! SQLite and the real PostgreSQL, and the command line end to end.

mod answers;
mod app;
mod architecture;
mod browser;
mod chaos;
mod cli;
mod config;
mod copy;
mod embeddings;
mod eval;
mod fake_model;
mod faults;
mod fuzz;
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
mod soak;
mod stage_one;
mod stage_two;
mod store;
mod trust;
mod upgrade;
mod workload;
