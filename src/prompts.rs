//! The system prompts, versioned with the code in `prompts/`, overridable
//! from `prompts.dir` without a rebuild.

use crate::config::Config;
use crate::error::Error;
use std::path::Path;

const STAGE_ONE: &str = include_str!("../prompts/stage_one.md");

/// The stage-one system prompt: `<prompts.dir>/stage_one.md` when the directory is set.
pub fn stage_one(config: &Config) -> Result<String, Error> {
    load(config, "stage_one.md", STAGE_ONE)
}

fn load(config: &Config, file: &str, built_in: &str) -> Result<String, Error> {
    let dir = &config.raw.prompts.dir;
    if dir.is_empty() {
        return Ok(built_in.to_owned());
    }
    let path = Path::new(dir).join(file);
    std::fs::read_to_string(&path)
        .map_err(|e| Error::Config(format!("prompts.dir: cannot read {}: {e}", path.display())))
}
