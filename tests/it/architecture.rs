//! Architecture invariants that the compiler does not check (ARCHITECTURE.md):
//! the core that decides imports nothing that does IO, and the top-level
//! modules import each other without cycles.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The code of a file before its tests.
fn code(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.split("#[cfg(test)]").next().unwrap_or_default().to_owned()
}

/// Every `.rs` file under `dir` (or `dir` itself when it is a file).
fn files(path: &Path) -> Vec<PathBuf> {
    if path.is_file() {
        return vec![path.to_owned()];
    }
    let mut found = Vec::new();
    for entry in std::fs::read_dir(path).unwrap() {
        let p = entry.unwrap().path();
        if p.is_dir() {
            found.extend(files(&p));
        } else if p.extension().is_some_and(|e| e == "rs") {
            found.push(p);
        }
    }
    found
}

/// The pure core: it decides, it never does IO (no database, network,
/// files, processes, clocks of its own, or logs).
const PURE: &[&str] = &[
    "domain.rs",
    "text.rs",
    "detect",
    "guard.rs",
    "llm/wire.rs",
    "llm/answer.rs",
    "extract/validate.rs",
    "consolidate/policy.rs",
    "rank.rs",
    "said.rs",
];

/// Crates and std modules that do IO.
const IO: &[&str] = &[
    "sqlx",
    "tokio",
    "reqwest",
    "async_openai",
    "figment",
    "tracing",
    "rmcp",
    "std::fs",
    "std::net",
    "std::process",
    "std::env",
    "std::io",
    "Utc::now",
];

/// Crate modules the pure core may use: the other pure ones.
const PURE_MODULES: &[&str] =
    &["domain", "text", "detect", "guard", "llm::wire", "llm::answer", "rank", "said", "error"];

#[test]
fn the_core_that_decides_does_no_io() {
    let mut found = Vec::new();
    for root in PURE {
        for file in files(&src().join(root)) {
            let code = code(&file);
            for io in IO {
                if code.contains(io) {
                    found.push(format!("{} uses {io}", file.display()));
                }
            }
            for path in code.split("crate::").skip(1) {
                let module: String = path
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                    .collect();
                let allowed = PURE_MODULES.iter().any(|m| module.starts_with(m));
                if !allowed {
                    found.push(format!("{} uses crate::{module}", file.display()));
                }
            }
        }
    }
    assert!(found.is_empty(), "the pure core reaches for IO:\n{}", found.join("\n"));
}

/// No store statement binds its LIMIT or OFFSET (`limit` in
/// `store/body.rs` says why): SQLite would parse and plan such a statement
/// again on every execution.
#[test]
fn no_store_statement_binds_its_limit() {
    let bound: Vec<String> = files(&src().join("store"))
        .into_iter()
        .filter(|file| {
            let code = code(file);
            ["LIMIT $", "LIMIT ?", "OFFSET $", "OFFSET ?"].iter().any(|b| code.contains(b))
        })
        .map(|file| file.display().to_string())
        .collect();
    assert!(bound.is_empty(), "a bound LIMIT or OFFSET in:\n{}", bound.join("\n"));
}

/// The top-level module a file belongs to (`run`, `store`, …); `None` for the crate roots.
fn top_module(file: &Path) -> Option<String> {
    let relative = file.strip_prefix(src()).ok()?;
    let first = relative.components().next()?.as_os_str().to_str()?.trim_end_matches(".rs");
    (!matches!(first, "lib" | "main")).then(|| first.to_owned())
}

#[test]
fn top_level_modules_import_each_other_without_cycles() {
    let mut imports: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files(&src()) {
        let Some(module) = top_module(&file) else { continue };
        let code = code(&file);
        let used: Vec<String> = code
            .split("crate::")
            .skip(1)
            .filter_map(|rest| {
                let name: String =
                    rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                (!name.is_empty() && name != module).then_some(name)
            })
            .collect();
        imports.entry(module).or_default().extend(used);
    }
    fn reaches(
        from: &str,
        to: &str,
        imports: &BTreeMap<String, BTreeSet<String>>,
        seen: &mut BTreeSet<String>,
    ) -> bool {
        imports.get(from).into_iter().flatten().any(|next| {
            next == to || (seen.insert(next.clone()) && reaches(next, to, imports, seen))
        })
    }
    let cycles: Vec<String> = imports
        .iter()
        .flat_map(|(module, used)| used.iter().map(move |u| (module, u)))
        .filter(|(module, used)| reaches(used, module, &imports, &mut BTreeSet::new()))
        .map(|(module, used)| format!("{module} → {used} → … → {module}"))
        .collect();
    assert!(imports.len() > 10, "the scan found the modules: {imports:?}");
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}
