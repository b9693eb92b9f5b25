//! dreamd: long-term memory for AI agents.
//!
//! Agents store conversations; dreamd wakes on a schedule, picks the ones
//! that have gone quiet, extracts short evidence-backed note slips from what
//! users said, and merges them into each user's memories under a policy that
//! the model cannot override. The contract is `spec/dreamd.md` in the shared
//! project folder; `ARCHITECTURE.md` maps it onto these modules.
//!
//! # Layout
//!
//! - [`config`]: figment layers → raw values → validated [`config::Config`].
//! - [`domain`]: the vocabulary (messages, slips, memories, suggestions, events).
//! - [`text`]: normalisation, case folding, fingerprints.
//! - [`detect`]: the never-store detectors; [`guard`]: the one rule every stored text passes.
//! - [`ingest`]: JSON Lines of messages into the store, all or nothing.
//! - [`run`]: one pass of the pipeline: select → [`extract`] (stage one) → expiry sweep.
//! - [`extract`]: stage one: chunking, the provider call, slip validation, commit.
//! - [`seen`]: what the model may have seen of a user, which no text it writes may carry.
//! - [`llm`]: the providers: offline `rules` and any OpenAI-compatible model; [`prompts`].
//! - [`manage`]: what people do to memories and suggestions; recall.
//! - [`store`]: the storage interface and its SQLite and PostgreSQL implementations.
//! - [`eval`]: `dreamd eval`, scoring a golden set in scratch databases.
//! - [`cli`], [`commands`], [`output`]: the command line.

pub mod check;
pub mod cli;
pub mod commands;
pub mod config;
pub mod consolidate;
pub mod copy;
pub mod detect;
pub mod domain;
pub mod error;
pub mod eval;
pub mod extract;
pub mod guard;
pub mod http;
pub mod ingest;
pub mod llm;
pub mod manage;
pub mod mcp;
pub mod output;
pub mod prompts;
pub mod rank;
pub mod run;
pub mod said;
pub mod seen;
pub mod select;
pub mod service;
pub mod step;
pub mod store;
pub mod text;
pub mod tools;

pub use error::{Error, Result};
