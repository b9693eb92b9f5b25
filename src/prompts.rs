//! The system prompts, versioned with the code in `prompts/`, overridable
//! from `prompts.dir` without a rebuild.

use crate::config::Config;
use crate::error::Error;

const STAGE_ONE: &str = include_str!("../prompts/stage_one.md");
const CONSOLIDATION: &str = include_str!("../prompts/consolidation.md");

/// The stage-one system prompt: `<prompts.dir>/stage_one.md` when that file exists.
pub fn stage_one(config: &Config) -> Result<String, Error> {
    load(config, "stage_one.md", STAGE_ONE)
}

/// The stage-two system prompt: `<prompts.dir>/consolidation.md` when that file exists.
pub fn consolidation(config: &Config) -> Result<String, Error> {
    load(config, "consolidation.md", CONSOLIDATION)
}

fn load(config: &Config, file: &str, built_in: &str) -> Result<String, Error> {
    let Some(dir) = &config.prompts_dir else {
        return Ok(built_in.to_owned());
    };
    let path = dir.join(file);
    if !path.exists() {
        tracing::warn!(path = %path.display(), "prompts.dir has no such file; using the built-in prompt");
        return Ok(built_in.to_owned());
    }
    std::fs::read_to_string(&path)
        .map_err(|e| Error::Config(format!("prompts.dir: cannot read {}: {e}", path.display())))
}
