//! dreamd's integration tests, in one binary: the store suite run against
//! SQLite and the real PostgreSQL, and the command line end to end.

mod cli;
mod config;
mod helpers;
mod store;
