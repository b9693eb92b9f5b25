//! dreamd's integration tests, in one binary: the store suite run against
//! SQLite and the real PostgreSQL, and the command line end to end.

mod answers;
mod app;
mod architecture;
mod chaos;
mod cli;
mod config;
mod copy;
mod eval;
mod fake_model;
mod faults;
mod fuzz;
mod helpers;
mod mcp;
mod never_store;
mod replicas;
mod scale;
mod service;
mod soak;
mod stage_one;
mod stage_two;
mod store;
mod trust;
mod upgrade;
mod workload;
